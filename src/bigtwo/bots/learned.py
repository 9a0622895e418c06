"""The learned player: a Q(s, a) network trained by self-play (``bigtwo train``), run in numpy.

The bot scores every legal action with the network and plays the best; a decision with one legal action is
answered without it, and exchanges take the :class:`~bigtwo.bots.base.BaseBot` default. It reads only its
observation: the features come from :func:`~bigtwo.bots.features.info_from_observation`.

Weights ship in the package, one file per (preset, table size) they were trained for, under
``bigtwo/bots/weights/<preset>-<players>p.npz``; ``learned(weights="path.npz")`` loads another file (e.g. a
``bigtwo train`` export). A table the shipped weights do not cover is refused with the list of those that are.

A network fitted to a bot's choices (``bigtwo lab imitate``, :mod:`bigtwo.lab.imitate`) is played the same way; its
weights say so (``meta["target"] == "policy"``, with the fitted inverse temperature ``beta`` and, where it was
fitted among the moves ``search`` weighs, ``candidates``): it chooses among those moves, ``sample=True`` draws
an action with its probabilities instead of the most likely, and nothing reads its outputs as values.

The first layer is split into its state part (computed once a decision) and its action part (one row per
legal action), so a decision costs one small matrix product per layer. The products run on one BLAS thread
(``threadpoolctl``): these matrices are too small to gain from more, and on a busy machine a second thread
waiting for a core made a decision take 10-100 ms instead of under one.
"""

from __future__ import annotations

import json
import os
import shutil
from dataclasses import dataclass
from functools import cache, lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np
from threadpoolctl import ThreadpoolController

from bigtwo.bots.base import BaseBot
from bigtwo.bots.features import (
    FEATURES_VERSION,
    ActionEncoder,
    StateEncoder,
    info_from_game,
    info_from_observation,
)
from bigtwo.bots.heuristic import policy_for as heuristic_for
from bigtwo.bots.heuristic import search_candidates
from bigtwo.bots.installed import installed_path, trained_for, weights_dir
from bigtwo.bots.npzfile import NpzWords, check_file, open_npz
from bigtwo.bots.registry import register
from bigtwo.bots.view import SeatView, engine_of, played_in, view_from_game, view_from_observation
from bigtwo.combos.play import Play
from bigtwo.errors import BigTwoError
from bigtwo.observation import Observation
from bigtwo.rules.ruleset import Ruleset, load_rules

WEIGHTS_FORMAT = 1
NOT_WEIGHTS_HINT = "bigtwo train writes them (--out FILE)"
WEIGHTS_WORDS = NpzWords(
    folder="weights {path}: a folder",
    missing="weights {path}: no such file",
    not_npz=f"weights {{path}}: not a weights file of the learned bot ({NOT_WEIGHTS_HINT})",
    one_array=f"weights {{path}}: not a weights file of the learned bot ({NOT_WEIGHTS_HINT})",
)
_BLAS: ThreadpoolController | None = None


def _one_thread() -> Any:
    """A context in which numpy's BLAS uses one thread (restored after)."""
    global _BLAS
    if _BLAS is None:
        _BLAS = ThreadpoolController()
    return _BLAS.limit(limits=1, user_api="blas")


class QPolicy:
    """A Q(s, a) multilayer perceptron in numpy (float32 arithmetic; weights may be stored as float16).

    ``layers`` are ``(weight, bias)`` pairs, weight of shape (inputs, outputs), ReLU between layers; the first
    layer's inputs are the state vector followed by the action vector.
    """

    def __init__(self, layers: list[tuple[np.ndarray, np.ndarray]], state_size: int, meta: dict[str, Any]):
        if not layers:
            raise ValueError("a Q network needs at least one layer")
        w0, b0 = layers[0]
        self.state_size = state_size
        self.w_state = np.ascontiguousarray(w0[:state_size], dtype=np.float32)
        self.w_action = np.ascontiguousarray(w0[state_size:], dtype=np.float32)
        self.b0 = np.asarray(b0, dtype=np.float32)
        self.rest = [
            (np.ascontiguousarray(w, dtype=np.float32), np.asarray(b, dtype=np.float32)) for w, b in layers[1:]
        ]
        self.meta = meta

    @property
    def action_size(self) -> int:
        return self.w_action.shape[0]

    def q_values(self, state: np.ndarray, actions: np.ndarray) -> np.ndarray:
        """Q of each action row for one state vector."""
        with _one_thread():
            h = actions @ self.w_action
            h += state @ self.w_state + self.b0
            for w, b in self.rest:
                np.maximum(h, 0.0, out=h)
                h = h @ w
                h += b
        return h[:, 0]

    def q_batch(self, states: np.ndarray, actions: np.ndarray, offsets: np.ndarray) -> np.ndarray:
        """Q of every action row of a batch: rows ``offsets[i]:offsets[i + 1]`` belong to ``states[i]``."""
        seg = np.repeat(np.arange(len(states)), np.diff(offsets))
        with _one_thread():
            h = actions @ self.w_action
            h += (states @ self.w_state + self.b0)[seg]
            for w, b in self.rest:
                np.maximum(h, 0.0, out=h)
                h = h @ w
                h += b
        return h[:, 0]

    def layers(self) -> list[tuple[np.ndarray, np.ndarray]]:
        """``(weight, bias)`` of each layer as given to the constructor (the first layer's state and action
        parts joined again)."""
        return [(np.concatenate([self.w_state, self.w_action]), self.b0), *self.rest]

    # --- files ---------------------------------------------------------------------------------------
    def save(self, path: str | Path, dtype: str = "float16") -> Path:
        """Write the weights (as ``dtype``) and their description to an ``.npz`` file."""
        path = Path(path)
        arrays: dict[str, np.ndarray] = {}
        for i, (w, b) in enumerate(self.layers()):
            arrays[f"w{i}"] = w.astype(dtype)
            arrays[f"b{i}"] = b.astype(dtype)
        meta = dict(self.meta, format=WEIGHTS_FORMAT, state_size=self.state_size, layers=1 + len(self.rest))
        arrays["meta"] = np.frombuffer(json.dumps(meta, sort_keys=True).encode(), dtype=np.uint8)
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("wb") as f:
            np.savez_compressed(f, allow_pickle=False, **arrays)
        return path

    @classmethod
    def load(cls, path: str | Path | Any) -> QPolicy:
        """Read weights written by :meth:`save` (a path or a readable binary file). A file that is not such
        weights (no file, a folder, another kind of file) raises :class:`BigTwoError` naming it, in words."""
        with open_npz(path, WEIGHTS_WORDS) as data:
            try:
                meta = json.loads(bytes(data["meta"]).decode())
                if meta.get("format") != WEIGHTS_FORMAT:
                    raise BigTwoError(f"weights {path}: format {meta.get('format')!r}, expected {WEIGHTS_FORMAT}")
                layers = [(data[f"w{i}"], data[f"b{i}"]) for i in range(meta["layers"])]
                return cls(layers, meta["state_size"], meta)
            except KeyError as e:  # an array the file lacks (numpy says so in words), or a key of its description
                what = str(e.args[0]) if e.args else "a part"
                missing = what if " " in what else f"its description has no {what!r}"
                raise BigTwoError(f"weights {path}: not a network the learned bot reads ({missing})") from None


# --- the shipped weights ---------------------------------------------------------------------------------
def _weights_dir() -> Any:
    return resources.files("bigtwo.bots") / "weights"


def shipped_weights(kind: str = "") -> dict[tuple[str, int], str]:
    """The (preset, players) tables the package has weights for, with the file names (the learned bot's, which
    the searches weigh their candidates with too); ``kind="search"``: networks the
    searches weigh with in place of the learned bot's, where one was measured stronger inside the search
    (``weights/search/``); named by their path under ``weights/``."""
    out: dict[tuple[str, int], str] = {}
    d = _weights_dir() / kind if kind else _weights_dir()
    if not d.is_dir():
        return out
    for entry in d.iterdir():
        name = entry.name
        if name.endswith("p.npz") and "-" in name:
            preset, _, size = name[: -len("p.npz")].rpartition("-")
            if size.isdigit():
                out[(preset, int(size))] = f"{kind}/{name}" if kind else name
    return out


@cache
def _shipped_policy(name: str) -> QPolicy:
    with _weights_dir().joinpath(*name.split("/")).open("rb") as f:
        return QPolicy.load(f)


@cache
def read_shipped(kind: str = "") -> None:
    """Read every shipped network of ``kind`` (once a process): a bot calls it when it is made, so that the first
    decision's time is not spent reading them (an arena makes a bot a seat a game: the folder is listed once)."""
    for name in shipped_weights(kind).values():
        _shipped_policy(name)


@lru_cache(maxsize=16)
def _file_policy(path: str, mtime_ns: int, size: int) -> QPolicy:
    """A weights file's policy, read once a process while the file is unchanged (the key carries its time and
    size): an arena or an evaluation builds a bot a seat a game, and reading 1.7 MB each time cost more than
    the games. Bounded, so a process that sees a file rewritten many times keeps only recent versions."""
    return QPolicy.load(path)


def load_weights(path: str | Path) -> QPolicy:
    """The policy in the weights file at ``path`` (shared: read-only)."""
    check_file(path, WEIGHTS_WORDS)
    resolved = Path(path).resolve()
    st = resolved.stat()
    return _file_policy(str(resolved), st.st_mtime_ns, st.st_size)


@lru_cache(maxsize=64)
def _rules_learned(name: str, settings: str | None) -> Ruleset | None:
    """The rules a network learned: its recorded settings (JSON), else the preset of its rules' name; None where
    neither reads back (a ruleset of the trainer's own known by name, settings of another version)."""
    try:
        if settings is None:
            return load_rules(name)
        return Ruleset.from_dict({**json.loads(settings), "name": name}, source=f"the rules of network {name!r}")
    except BigTwoError:
        return None


def table_suits(meta: dict[str, Any], rules: Ruleset) -> tuple[int, ...] | None:
    """How a network (its weights' ``meta``) sees this table's suits: the relabeling under which the rounds of
    ``rules`` are played as those of the rules it learned (:meth:`Ruleset.suit_relabeling`, whatever a round is
    worth: the network's values stay points of its own ``utility``; the identity at its own table), or None
    where no renaming of suits makes them so, or its rules cannot be read back."""
    learned = rules_learned(meta)
    return None if learned is None else _renaming(rules, learned)


def rules_learned(meta: dict[str, Any]) -> Ruleset | None:
    """The rules a network (its weights' ``meta``) learned, or None where they do not read back."""
    settings = meta.get("rules_settings")
    return _rules_learned(str(meta.get("rules")), None if settings is None else json.dumps(settings, sort_keys=True))


@lru_cache(maxsize=256)
def _renaming(rules: Ruleset, learned: Ruleset) -> tuple[int, ...] | None:
    """:meth:`Ruleset.suit_relabeling` of a table's rules to a network's, once for each pair of rules values
    (a bot is set up for every game an arena plays)."""
    return rules.suit_relabeling(learned, scoring=False)


def trained_elsewhere(meta: dict[str, Any], rules: Ruleset, players: int) -> str | None:
    """Why a network (its weights' ``meta``) was trained for another table than ``rules`` with ``players``, as
    words to follow "weights ... were", or None when it was trained for this one.

    Weights that record their rules' settings are compared setting by setting, so a renamed copy of the rules
    they learned is their table and a preset changed under its own name is not, and rules whose rounds are
    played as theirs with the suits renamed (Taiwan's and Pusoy Dos's as classic's) are their table too; older
    weights are compared by the name, and by their preset's settings where the name is a preset's (every
    shipped network's was)."""
    trained, size = meta.get("rules"), meta.get("players")
    elsewhere = f"trained for {trained!r} with {size} players, not {rules.name!r} with {players}"
    if size != players:
        return elsewhere
    settings = meta.get("rules_settings")
    if settings is None:
        if trained != rules.name:
            return elsewhere
        try:
            settings = load_rules(str(trained)).settings()
        except BigTwoError:
            return None  # a ruleset of the trainer's own, known by its name alone
    differ = rules.differing(settings)
    if not differ or table_suits(meta, rules) is not None:
        return None  # its own rules, or rounds played alike with the suits renamed (its inputs are relabeled)
    if trained != rules.name:
        return elsewhere
    return f"trained for {trained!r} with {size} players under other settings (these differ: {', '.join(differ)})"


def _tables(found: dict[tuple[str, int], str]) -> str:
    listed = ", ".join(f"{p} with {n} players" for p, n in sorted(found)) or "none"
    return f"{listed} (and rules that play as theirs with the suits renamed: Taiwan, Pusoy Dos)" if found else listed


def train_command(rules: Ruleset, players: int) -> str:
    """The one command that trains and installs a network for this table (said where there is none)."""
    preset = next(iter(rules.settings_presets()), None)
    source = preset if preset is not None else "YOUR_RULES.toml"
    return f"bigtwo train --rules {source} --players {players} --minutes 30"


def installed_policy(rules: Ruleset, players: int) -> QPolicy | None:
    """The network ``bigtwo train`` installed on this machine for exactly these rules and this table size, or
    None where there is none (a file there that describes another table is not used)."""
    path = installed_path(rules, players)
    if not path.is_file():
        return None
    policy = load_weights(path)
    return policy if trained_for(policy.meta, rules, players) else None


def install_weights(source: str | Path, rules: Ruleset, players: int) -> Path:
    """Copy the weights file ``source`` into the user's data directory as the network for these rules at this
    table size (replacing any there before); refused in words where it was trained for another table."""
    policy = QPolicy.load(source)
    if not trained_for(policy.meta, rules, players):
        raise BigTwoError(
            f"weights {source} were trained for {policy.meta.get('rules')!r} with {policy.meta.get('players')} "
            f"players, not for these rules ({rules.name!r}) with {players}"
        )
    path = installed_path(rules, players)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    shutil.copyfile(source, tmp)
    os.replace(tmp, path)  # a game starting now reads the old file or the new one, never half of one
    return path


@dataclass(frozen=True)
class TableNetwork:
    """A table with a network for the learned bot: the rules' name, the table size, where the network comes from
    and what its file records of its making."""

    rules: str
    players: int
    where: str  # "shipped" or "trained here"
    file: str
    frames: int | None
    evaluation: dict[str, Any] | None  # its recorded evaluation (its ``opponent``, ``points``, ``low``, ``high``)


def _table_network(meta: dict[str, Any], where: str, file: str) -> TableNetwork:
    frames, evaluation = meta.get("frames"), meta.get("evaluation")
    return TableNetwork(
        str(meta.get("rules")),
        int(meta.get("players") or 0),
        where,
        file,
        frames if isinstance(frames, int) else None,
        evaluation if isinstance(evaluation, dict) else None,
    )


def table_networks() -> list[TableNetwork]:
    """Every table the learned bot has a network for: the shipped ones (by preset), then those trained on this
    machine (by the rules' name their file records; a file that is not weights is left out)."""
    out = [
        _table_network(dict(_shipped_policy(name).meta, rules=preset, players=players), "shipped", name)
        for (preset, players), name in sorted(shipped_weights().items())
    ]
    folder = weights_dir()
    for path in sorted(folder.glob("*p.npz")) if folder.is_dir() else ():
        try:
            meta = load_weights(path).meta
        except BigTwoError:
            continue
        out.append(_table_network(meta, "trained here", str(path)))
    return out


def shipped_policy(rules: Ruleset, players: int) -> QPolicy | None:
    """The shipped network trained for exactly these rules' settings (under any name) at this table size, or None
    (a table the shipped networks serve only with the suits renamed is left out: its inputs are relabeled)."""
    found = shipped_weights()
    for preset in rules.settings_presets():
        name = found.get((preset, players))
        if name is not None:
            return _shipped_policy(name)
    return None


def policy_for(rules: Ruleset, players: int, kind: str = "") -> QPolicy:
    """The learned bot's policy for this ruleset at this table size: the network trained on this machine for
    exactly these rules and players (``bigtwo train``, :func:`installed_policy`), else the shipped network of the
    preset whose settings these are (under any name: a house rules file that renames a preset plays it);
    ``kind`` as for :func:`shipped_weights` (the searches' own networks and the stand-ins are shipped only)."""
    if not kind:
        mine = installed_policy(rules, players)
        if mine is not None:
            return mine
    found = shipped_weights(kind)
    for preset in rules.game_presets(scoring=False):  # its settings, or rounds played alike with suits renamed
        name = found.get((preset, players))
        if name is not None:
            return _shipped_policy(name)
    if (rules.name, players) in found:
        differ = ", ".join(rules.differing(load_rules(rules.name)))
        raise BigTwoError(
            f"the learned bot's weights for {rules.name!r} were trained on the preset's own rules, and these "
            f"rules differ from it ({differ}); it has weights for: {_tables(found)}"
        )
    raise BigTwoError(
        f"the learned bot has no weights for {rules.name!r} with {players} players; it has weights for: "
        f"{_tables(found)}" + ("" if kind else f"; to train them for this table: {train_command(rules, players)}")
    )


@register("learned")
class LearnedBot(BaseBot):
    """Plays the action with the highest learned Q value (``weights=`` a file; default: the shipped ones); with
    ``sample=True`` and a network fitted to a bot's choices, draws one as that bot would choose."""

    name = "learned"
    words = "A network trained over millions of games against itself and other bots; answers at once."

    def __init__(self, seed: int | None = None, weights: str | None = None, sample: bool = False):
        super().__init__(seed)
        self._file = weights
        self._custom = load_weights(weights) if weights else None
        self.sample = sample
        if sample and (self._custom is None or "beta" not in self._custom.meta):
            raise BigTwoError(
                "sample=True draws an action with the probabilities of a network fitted to a bot's choices "
                "(bigtwo lab imitate): give its weights file"
            )
        if self._custom is None:
            read_shipped()
        self._scorers: dict[tuple[Ruleset, int], GameScorer] = {}

    def _setup(self, rules: Ruleset, players: int) -> GameScorer:
        key = (rules, players)
        got = self._scorers.get(key)
        if got is not None:
            return got
        policy = self._custom if self._custom is not None else policy_for(rules, players)
        got = self._scorers[key] = scorer_of(policy, rules, players, self._file)
        return got

    @classmethod
    def cannot_play(cls, rules: Ruleset, players: int) -> str | None:
        """Why these shipped weights cannot play this table (none trained for it), or None."""
        try:
            policy_for(rules, players)
        except BigTwoError as e:
            return str(e)
        return None

    def choose_play(self, rules: Ruleset, observation: Observation) -> Play:
        legal = self.legal(rules, observation)
        scorer = self._setup(rules, observation.players)  # checked first: an uncovered table errs
        if scorer.candidates and len(legal) > 1:
            legal = scorer.allowed(engine_of(rules, observation), view_from_observation(rules, observation, legal))
        if len(legal) == 1:
            return legal[0]
        return self.pick(scorer, legal, scorer.q_observed(rules, observation, legal))

    def scorer(self, rules: Ruleset, players: int) -> GameScorer:
        """The network this bot plays with at this table (refused in words where it has none)."""
        return self._setup(rules, players)

    def pick(self, scorer: GameScorer, legal: list[Play], q: np.ndarray) -> Play:
        """The action played, given the network's values ``q`` of ``legal`` (a batched caller scores many
        decisions at once and asks each bot to pick)."""
        if self.sample:  # as the imitated bot would choose: a softmax at the fitted inverse temperature
            z = np.exp((q - q.max()) * float(scorer.net.meta["beta"]))
            return legal[self.rng.choices(range(len(legal)), weights=z.tolist())[0]]
        return legal[int(np.argmax(q))]


class GameScorer:
    """A Q network with its encoders for one table. A bot at the table scores its observation
    (:meth:`q_observed`); a search over sampled deals reads positions straight from a :class:`~bigtwo.game.Game`
    (every seat's view in turn: :meth:`q`, :meth:`act`, :meth:`value`), the fast path for play-outs and for the
    value of a position it stops at. ``label`` names the weights in errors (a file; default: their rules)."""

    def __init__(self, net: QPolicy, rules: Ruleset, players: int, label: str | None = None):
        self.net = net
        # a table whose rules are the network's with the suits renamed: its cards are shown to it renamed
        self.suits = table_suits(net.meta, rules)
        self.states = StateEncoder(rules, players, int(net.meta["history"]), self.suits)
        self.actions = ActionEncoder(rules, players, self.suits)
        if self.states.size != net.state_size or self.actions.size != net.action_size:
            raise BigTwoError(
                f"weights {label or net.meta.get('rules')} expect {net.state_size} + {net.action_size} inputs; "
                f"{rules.name!r} with {players} players gives {self.states.size} + {self.actions.size}"
            )
        # the network predicts a seat's points under the measure it was trained on (``utility``: one point a card
        # left unless its weights say otherwise) divided by the training's reward scale (13 unless they say)
        self.utility = str(net.meta.get("utility", "cards"))
        self.scale = float(net.meta.get("reward_scale", 13.0))
        # a network fitted to a bot's choices (``bigtwo lab imitate``) ranks actions; its outputs are not points
        self.is_policy = net.meta.get("target") == "policy"
        # fitted among the moves a search weighs (the heuristic's best few and the pass): it chooses among them
        self.candidates = int(net.meta.get("candidates") or 0)
        self.label = label or net.meta.get("rules")

    def table_layers(self) -> list[tuple[np.ndarray, np.ndarray]]:
        """The network's layers with the renaming of suits folded into its first layer: the same network,
        reading this table's own cards (the start of one of the table's own: ``bigtwo train --init-from``)."""
        order = np.concatenate([self.states.input_order(), self.net.state_size + self.actions.input_order()])
        (w0, b0), *rest = self.net.layers()
        own = np.empty_like(w0)
        own[order] = w0
        return [(own, b0), *rest]

    def allowed(self, ev: Any, view: SeatView) -> list[Play]:
        """The actions this network chooses among at ``view`` (its legal actions, or the search's candidates
        where it was fitted among those)."""
        if not self.candidates or len(view.legal) == 1:
            return view.legal
        return search_candidates(heuristic_for(ev).scores(view), self.candidates)

    def q_observed(self, rules: Ruleset, observation: Observation, legal: list[Play]) -> np.ndarray:
        """The Q values (the network's own units) of ``legal`` from the seat's observation alone."""
        info = info_from_observation(rules, observation, self.states.k)
        return self.net.q_values(self.states.encode(info), self.actions.encode(observation.hand, legal))

    def q(self, game: Any, legal: list[Play]) -> np.ndarray:
        """The Q values (the network's own units) of ``legal`` for the seat to move in ``game``."""
        seat = game.to_move
        info = info_from_game(game, seat, self.states.k)
        return self.net.q_values(self.states.encode(info), self.actions.encode(game.hand(seat).mask, legal))

    def choices(self, game: Any) -> list[Play]:
        """The actions this network chooses among for the seat to move in ``game`` (:meth:`allowed`)."""
        legal = game.legal_plays()
        if not self.candidates or len(legal) == 1:
            return legal
        return self.allowed(game.ev, view_from_game(game, played_in(game)))

    def act(self, game: Any) -> Play:
        """The network's choice for the seat to move."""
        legal = self.choices(game)
        if len(legal) == 1:
            return legal[0]
        return legal[int(np.argmax(self.q(game, legal)))]

    def q_many(self, games: list[Any], legals: list[list[Play]]) -> list[np.ndarray]:
        """:meth:`q` of many positions in one pass of the network (each game's seat to move, its ``legals``
        entry): one matrix product over every action row reads the weights once, where one position at a time
        reads them for each (a search playing several lines out at once, the batched environments)."""
        states, actions, offsets = self.encode_many(games, legals)
        q = self.net.q_batch(states, actions, offsets)
        return [q[offsets[j] : offsets[j + 1]] for j in range(len(games))]

    def encode_many(self, games: list[Any], legals: list[list[Play]]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The network's inputs for many positions: a state vector a game (its seat to move), the action rows of
        every ``legals`` entry one after another, and where each game's rows start (``offsets``, one more)."""
        states = np.empty((len(games), self.states.size), dtype=np.float32)
        rows = []
        for j, (g, legal) in enumerate(zip(games, legals, strict=True)):
            seat = g.to_move
            self.states.encode_into(info_from_game(g, seat, self.states.k), states[j])
            rows.append(self.actions.encode(g.hand(seat).mask, legal))
        offsets = np.concatenate([[0], np.cumsum([len(legal) for legal in legals])])
        return states, np.concatenate(rows), offsets

    def acts(self, games: list[Any]) -> list[Play]:
        """:meth:`act` for many games at once (the same choices, one pass of the network)."""
        return self.picks(games, [self.choices(g) for g in games])

    def picks(self, games: list[Any], legals: list[list[Play]]) -> list[Play]:
        """The network's choice in each of ``games`` among its ``legals`` entry (the seat to move's actions, or
        some of them), in one pass of the network."""
        picks = [legal[0] if len(legal) == 1 else None for legal in legals]
        ask = [j for j, p in enumerate(picks) if p is None]
        if ask:
            qs = self.q_many([games[j] for j in ask], [legals[j] for j in ask])
            for j, q in zip(ask, qs, strict=True):
                picks[j] = legals[j][int(np.argmax(q))]
        return picks  # type: ignore[return-value]

    def value(self, game: Any) -> float:
        """The seat to move's expected points (in the trained measure's units) from here: its best Q."""
        if self.is_policy:
            raise BigTwoError(
                f"weights {self.label} were fitted to a bot's choices: they rank actions, they do not value them"
            )
        return float(np.max(self.q(game, game.legal_plays()))) * self.scale


def scorer_of(policy: QPolicy, rules: Ruleset, players: int, file: str | None = None) -> GameScorer:
    """``policy`` as a scorer for this table, refused in words where its inputs would mean other things: another
    features version, or (a file's weights, ``file``) another preset or table size than it was trained for."""
    meta = policy.meta
    if meta.get("features_version") != FEATURES_VERSION:
        raise BigTwoError(
            f"weights {file or meta.get('rules')}: features version {meta.get('features_version')!r}, "
            f"this bot reads version {FEATURES_VERSION}"
        )
    why = None if file is None else trained_elsewhere(meta, rules, players)
    if why is not None:
        raise BigTwoError(f"weights {file} were {why}")
    return GameScorer(policy, rules, players, file)


def scorer_for(rules: Ruleset, players: int, kind: str = "") -> GameScorer | None:
    """The shipped network for this table as a :class:`GameScorer`, or None where none fits (``kind`` as for
    :func:`policy_for`)."""
    try:
        net = policy_for(rules, players, kind)
    except BigTwoError:
        return None
    if net.meta.get("features_version") != FEATURES_VERSION:
        return None
    try:
        return GameScorer(net, rules, players)
    except BigTwoError:
        return None


__all__ = [
    "WEIGHTS_FORMAT",
    "GameScorer",
    "LearnedBot",
    "QPolicy",
    "TableNetwork",
    "install_weights",
    "installed_policy",
    "load_weights",
    "policy_for",
    "read_shipped",
    "rules_learned",
    "scorer_for",
    "scorer_of",
    "shipped_policy",
    "shipped_weights",
    "table_networks",
    "table_suits",
    "train_command",
    "trained_elsewhere",
]
