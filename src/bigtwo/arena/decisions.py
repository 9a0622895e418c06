"""Imitation data: every play decision of an arena run as arrays, written to one compressed numpy file (.npz).

``bigtwo simulate --record-decisions FILE.npz`` (or ``run_arena(..., record_decisions=True)`` and
:func:`write_decisions`) keeps, for each decision a bot made with a play or a pass, what the seat saw, what it
could do, what it did and how its game ended. :func:`read_decisions` reads a file back.

Schema (format ``bigtwo-decisions/1``; ``N`` decisions, ``M`` legal actions in all, ``G`` games, ``T`` actions
played in all, ``n`` seats, ``S``/``A`` the state/action vector sizes, ``W`` 64-bit words a card mask needs):

==================== ========================= =================================================================
array                shape, type                what
==================== ========================= =================================================================
``meta``             bytes (JSON, UTF-8)        format, rules (name and every setting), players, utility, seed,
                                                lineup, features version, history length, sizes, this table
``state``            (N, S) float16             the learned bot's state vector of the deciding seat
                                                (:class:`~bigtwo.bots.features.StateEncoder`; from its
                                                observation alone)
``legal_offsets``    (N + 1,) int64             decision ``i``'s legal actions are rows ``legal_offsets[i]`` to
                                                ``legal_offsets[i + 1]`` of the two arrays below, in the engine's
                                                order (a pass last when legal)
``legal_features``   (M, A) float16             each legal action's vector (:class:`~bigtwo.bots.features.
                                                ActionEncoder`)
``legal_cards``      (M, W) uint64              each legal action's cards as a mask (0: a pass)
``chosen``           (N,) int32                 the index of the action played among the decision's legal ones
``outcome``          (N,) float32               the deciding seat's points in its game (the run's utility)
``game``             (N,) int32                 the decision's game (a row of the ``game_*`` arrays)
``seat``             (N,) int8                  the deciding seat
``step``             (N,) int32                 actions played in the game before this decision
``hand``             (N, W) uint64              the deciding seat's hand
``trick``            (N, W) uint64              the play to beat (0 when leading)
``hand_sizes``       (N, n) int8                cards in each seat's hand
``game_deal``        (G,) int32                 the arena's deal number (its seed: ``game_deal_seed``)
``game_rotation``    (G,) int8                  the seat rotation
``game_deal_seed``   (G,) int64                 the engine's seed of the deal
``game_entries``     (G, n) int8                the lineup entry in each seat
``game_points``      (G, n) float32             each seat's points (the run's utility)
``game_scores``      (G, n) int32               each seat's payment under the rules' own scoring
``game_cards_left``  (G, n) int8                cards each seat held at the end
``game_finishing``   (G, n) int8                the finishing order (seats, first out first)
``game_dealt``       (G, n, W) uint64           each seat's hand when play began (hidden in play: for analysis)
``game_actions``     (G + 1,) int64             game ``g``'s actions are rows ``game_actions[g]`` to
                                                ``game_actions[g + 1]`` of the two arrays below, in order
``action_seat``      (T,) int8                  who acted
``action_cards``     (T, W) uint64              what was played (0: a pass)
==================== ========================= =================================================================

A card mask is the engine's (:mod:`bigtwo.cards`: bit ``c`` is card ``c``; with two decks the second copy's bits
follow the first's), split in 64-bit words, lowest first: :func:`mask_of` joins a row back into an int. The
vectors are stored as float16: their 0/1 entries exactly, the few scaled counts (cards left / 13, a play's size / 5,
ranks split / 4) to float16's precision; the masks and counts keep everything exactly. Decisions answered with
an :class:`~bigtwo.actions.Answer` (an exchange, a choice at the deal) are not recorded.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from bigtwo.actions import Action
from bigtwo.bots.features import FEATURES_VERSION, ActionEncoder, StateEncoder, info_from_observation
from bigtwo.bots.npzfile import NpzWords, open_npz
from bigtwo.combos.play import Play
from bigtwo.errors import BigTwoError
from bigtwo.game import Game
from bigtwo.legal import legal_plays_from_observation
from bigtwo.observation import Observation, Phase
from bigtwo.rules.ruleset import Ruleset

FORMAT = "bigtwo-decisions/1"
WRITTEN_BY = "bigtwo simulate --record-decisions writes them, as compressed numpy (.npz)"
DECISIONS_WORDS = NpzWords(
    folder="{path} is a directory, not a decisions file",
    missing="no decisions file at {path}",
    not_npz=f"{{path}}: not a decisions file: {WRITTEN_BY}",
    one_array=f"{{path}}: not a decisions file (one array, not an archive): {WRITTEN_BY}",
    unreadable="{path}: cannot be read: {reason}",
)
HISTORY = 8  # recent actions in the state vector, as the shipped learned weights read it
_WORD = (1 << 64) - 1

PER_DECISION = ("state", "chosen", "outcome", "game", "seat", "step", "hand", "trick", "hand_sizes")
PER_GAME = (
    "game_deal",
    "game_rotation",
    "game_deal_seed",
    "game_entries",
    "game_points",
    "game_scores",
    "game_cards_left",
    "game_finishing",
    "game_dealt",
)


def words_of(mask: int, words: int) -> list[int]:
    """A card mask as ``words`` 64-bit words, lowest first."""
    return [(mask >> (64 * j)) & _WORD for j in range(words)]


def mask_of(row: Any) -> int:
    """A row of 64-bit words (lowest first) as the card mask it stores."""
    out = 0
    for j, w in enumerate(np.asarray(row, dtype=np.uint64).reshape(-1)):
        out |= int(w) << (64 * j)
    return out


class DecisionRecorder:
    """Collects one game's decisions as it is played (the arena calls :meth:`start`, :meth:`decision` and
    :meth:`finish`); :meth:`finish` returns the game's arrays."""

    def __init__(self, rules: Ruleset, players: int, history: int = HISTORY):
        self.rules = rules
        self.n = players
        self.states = StateEncoder(rules, players, history)
        self.actions = ActionEncoder(rules, players)
        self.words = max(1, (rules.engine_for(players).pack.bit_length() + 63) // 64)
        self._rows: list[dict[str, Any]] = []
        self._dealt: list[int] = []
        self.last: dict[str, np.ndarray] | None = None  # the arrays of the last game finished

    def start(self, game: Game) -> None:
        self._rows = []
        self._dealt = [game.hand(s).mask for s in range(game.n)]

    def decision(self, game: Game, seat: int, obs: Observation, action: Action) -> None:
        """Record a decision answered with a play or a pass (anything else is not an imitation target)."""
        if obs.decision is not None or obs.phase != Phase.PLAY or not isinstance(action, Play):
            return
        legal = legal_plays_from_observation(self.rules, obs)
        chosen = next((i for i, p in enumerate(legal) if p.mask == action.mask), None)
        if chosen is None:
            raise BigTwoError(f"seat {seat} played {action}, which is not among its legal plays")
        info = info_from_observation(self.rules, obs, self.states.k)
        self._rows.append(
            {
                "state": self.states.encode(info).astype(np.float16),
                "legal_features": self.actions.encode(obs.hand, legal).astype(np.float16),
                "legal_cards": [words_of(p.mask, self.words) for p in legal],
                "chosen": chosen,
                "seat": seat,
                "step": len(game.history),
                "hand": words_of(obs.hand, self.words),
                "trick": words_of(obs.trick.mask if obs.trick is not None else 0, self.words),
                "hand_sizes": list(obs.hand_sizes),
            }
        )

    def finish(self, game: Game, record: Any) -> dict[str, np.ndarray]:
        """The game's arrays (its decisions and the game itself); ``record`` is its arena GameRecord."""
        w, n = self.words, self.n
        rows = self._rows
        points = record.points
        out: dict[str, np.ndarray] = {
            "state": np.stack([r["state"] for r in rows]) if rows else np.zeros((0, self.states.size), np.float16),
            "legal_features": np.concatenate([r["legal_features"] for r in rows])
            if rows
            else np.zeros((0, self.actions.size), np.float16),
            "legal_cards": np.array([c for r in rows for c in r["legal_cards"]], dtype=np.uint64).reshape(-1, w),
            "legal_count": np.array([len(r["legal_cards"]) for r in rows], dtype=np.int64),
            "chosen": np.array([r["chosen"] for r in rows], dtype=np.int32),
            "outcome": np.array([points[r["seat"]] for r in rows], dtype=np.float32),
            "seat": np.array([r["seat"] for r in rows], dtype=np.int8),
            "step": np.array([r["step"] for r in rows], dtype=np.int32),
            "hand": np.array([r["hand"] for r in rows], dtype=np.uint64).reshape(-1, w),
            "trick": np.array([r["trick"] for r in rows], dtype=np.uint64).reshape(-1, w),
            "hand_sizes": np.array([r["hand_sizes"] for r in rows], dtype=np.int8).reshape(-1, n),
            "game_deal": np.array([record.deal], dtype=np.int32),
            "game_rotation": np.array([record.rotation], dtype=np.int8),
            "game_deal_seed": np.array([record.deal_seed], dtype=np.int64),
            "game_entries": np.array([record.entries], dtype=np.int8),
            "game_points": np.array([record.points], dtype=np.float32),
            "game_scores": np.array([record.scores], dtype=np.int32),
            "game_cards_left": np.array([record.cards_left], dtype=np.int8),
            "game_finishing": np.array([_padded(record.finishing_order, n)], dtype=np.int8),
            "game_dealt": np.array([[words_of(m, w) for m in self._dealt]], dtype=np.uint64).reshape(1, n, w),
            "action_seat": np.array([s for s, _ in game.history], dtype=np.int8),
            "action_cards": np.array([words_of(p.mask, w) for _, p in game.history], dtype=np.uint64).reshape(-1, w),
        }
        self._rows = []
        return out


def _padded(order: list[int], n: int) -> list[int]:
    return list(order) + [-1] * (n - len(order))


def describe(rules: Ruleset, players: int, config: dict[str, Any], history: int = HISTORY) -> dict[str, Any]:
    """The file's ``meta``: what was played and how the arrays are laid out."""
    states, actions = StateEncoder(rules, players, history), ActionEncoder(rules, players)
    return {
        "format": FORMAT,
        "rules": {"name": rules.name, "settings": rules.model_dump(mode="json")},
        "players": players,
        "utility": config.get("utility"),
        "seed": config.get("seed"),
        "duplicate": config.get("duplicate"),
        "lineup": [s.get("label") or s.get("name") for s in config.get("lineup", [])],
        "features_version": FEATURES_VERSION,
        "history": history,
        "state_size": states.size,
        "action_size": actions.size,
        "mask_words": max(1, (rules.engine_for(players).pack.bit_length() + 63) // 64),
    }


def combine(games: list[dict[str, np.ndarray]], meta: dict[str, Any]) -> dict[str, np.ndarray]:
    """Many games' arrays (in order) as one file's arrays: rows numbered across games, offsets built."""
    if not games:
        raise BigTwoError("no games were recorded")
    out: dict[str, np.ndarray] = {}
    keys = [k for k in games[0] if k not in ("legal_count",)]
    for k in keys:
        out[k] = np.concatenate([g[k] for g in games])
    out["game"] = np.concatenate([np.full(len(g["chosen"]), i, dtype=np.int32) for i, g in enumerate(games)])
    counts = np.concatenate([g["legal_count"] for g in games])
    out["legal_offsets"] = np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)
    lengths = [len(g["action_seat"]) for g in games]
    out["game_actions"] = np.concatenate([[0], np.cumsum(lengths)]).astype(np.int64)
    out["meta"] = np.frombuffer(json.dumps(meta, sort_keys=True).encode(), dtype=np.uint8)
    return out


def check_decisions_path(path: str | Path) -> Path:
    """Refuse a file :func:`write_decisions` could not write (its type, its folder) before a run plays."""
    path = Path(path)
    if path.suffix.lower() != ".npz":
        raise BigTwoError(f"--record-decisions {path}: decisions are written as compressed numpy, a .npz file")
    if not path.parent.is_dir():
        raise BigTwoError(f"--record-decisions {path}: there is no folder {path.parent}")
    return path


def write_decisions(path: str | Path, result: Any) -> Path:
    """Write the decisions a run recorded (``run_arena(..., record_decisions=True)``) to ``path`` (.npz)."""
    path = check_decisions_path(path)
    if not getattr(result, "decisions", None):
        raise BigTwoError("this run recorded no decisions: run it with record_decisions=True")
    cfg = result.config
    rules = Ruleset.from_dict(cfg["rules"]["settings"], source="arena rules")
    players = len(cfg["lineup"])
    arrays = combine(result.decisions, describe(rules, players, cfg))
    with path.open("wb") as f:
        np.savez_compressed(f, allow_pickle=False, **arrays)
    return path


@dataclass
class Decisions:
    """A decisions file read back: ``meta`` and every array by name (``d.state``, ``d["chosen"]``, ...)."""

    meta: dict[str, Any]
    arrays: dict[str, np.ndarray]

    def __len__(self) -> int:
        return len(self.arrays["chosen"])

    def __getitem__(self, name: str) -> np.ndarray:
        return self.arrays[name]

    def __getattr__(self, name: str) -> np.ndarray:
        arrays = self.__dict__.get("arrays")
        if arrays is not None and name in arrays:
            return arrays[name]
        raise AttributeError(name)

    @property
    def games(self) -> int:
        return len(self.arrays["game_deal"])

    def legal_rows(self, i: int) -> slice:
        """The rows of ``legal_features`` and ``legal_cards`` holding decision ``i``'s legal actions."""
        off = self.arrays["legal_offsets"]
        return slice(int(off[i]), int(off[i + 1]))

    def chosen_rows(self) -> np.ndarray:
        """For every decision, the row of ``legal_features``/``legal_cards`` of the action it played."""
        return self.arrays["legal_offsets"][:-1] + self.arrays["chosen"]

    def actions_of(self, g: int) -> list[tuple[int, int]]:
        """Game ``g``'s actions in order, as (seat, cards mask; 0 a pass)."""
        off = self.arrays["game_actions"]
        a, b = int(off[g]), int(off[g + 1])
        seats, cards = self.arrays["action_seat"][a:b], self.arrays["action_cards"][a:b]
        return [(int(s), mask_of(c)) for s, c in zip(seats, cards, strict=True)]


def read_decisions(path: str | Path) -> Decisions:
    """Read a file written by :func:`write_decisions` (or ``bigtwo simulate --record-decisions``)."""
    path = Path(path)
    with open_npz(path, DECISIONS_WORDS) as data:
        arrays = {k: data[k] for k in data.files}
    if "meta" not in arrays:
        raise BigTwoError(f"{path}: not a decisions file (no meta): {WRITTEN_BY}")
    meta = json.loads(bytes(arrays.pop("meta")).decode())
    if meta.get("format") != FORMAT:
        raise BigTwoError(f"{path}: format {meta.get('format')!r} is not {FORMAT!r}")
    return Decisions(meta, arrays)


__all__ = [
    "FORMAT",
    "DecisionRecorder",
    "Decisions",
    "check_decisions_path",
    "mask_of",
    "read_decisions",
    "words_of",
    "write_decisions",
]
