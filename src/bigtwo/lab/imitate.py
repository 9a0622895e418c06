"""Behaviour cloning: a network that plays as another bot plays, learned from that bot's recorded decisions.

A searching bot is too slow to sit at a training table (a decision costs what thousands of frames do), so the
self-play trainer cannot learn against it directly. Its decisions can be recorded, though
(``bigtwo simulate --record-decisions``), and a network fitted to them plays like it at the network's speed: a
fast stand-in for the search, to train against and to predict it with.

The network is the learned bot's Q(s, a) shape (:class:`~bigtwo.rl.networks.QNet`, the same state and action
vectors), read as a policy: the probability of an action is a softmax over ``beta * Q(s, a)`` among the
decision's legal actions, ``beta`` an inverse temperature learned with it, and the loss is the negative log
probability of the action the recorded bot chose. Starting from a trained value network (``init_from``) gives
it a player's view of the game to start from. Whole games are held out (``holdout``), and the epoch whose
held-out log probability is best is the one kept.

``search`` never plays outside its heuristic's best few moves and the pass (and plays the best at once when it
goes out): with ``candidates=k`` the fit replays every recorded game through the engine, marks those moves at
each decision (the heuristic's best ``k`` and the pass) and learns to choose among them only; the network then
chooses among the same moves when it plays. Every recorded decision is checked against the replay (its seat,
its legal actions, and that the chosen action is among the candidates).

The result is saved as learned-bot weights whose ``meta["target"]`` is ``"policy"``: the ``learned`` bot
plays its most likely action, while the outputs are not points, so nothing may read them as a value
(:class:`~bigtwo.bots.learned.GameScorer` refuses).

Run::

    bigtwo lab imitate DATA.npz [DATA.npz ...] --out DIR [--init-from WEIGHTS.npz] [--epochs 6]
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn

from bigtwo.arena.decisions import Decisions, mask_of, read_decisions
from bigtwo.bots.features import FEATURES_VERSION
from bigtwo.bots.heuristic import policy_for, search_candidates
from bigtwo.bots.learned import QPolicy
from bigtwo.bots.view import view_from_game
from bigtwo.cards import fold_copies
from bigtwo.errors import BigTwoError
from bigtwo.game import Game
from bigtwo.rl.dmc import TrainConfig, _load_start, _table_of
from bigtwo.rl.networks import QNet
from bigtwo.rules.ruleset import Ruleset


@dataclass
class ImitationConfig:
    """Everything that defines a fit (saved with its result)."""

    epochs: int = 6
    lr: float = 3e-4
    batch_size: int = 256  # decisions a gradient step
    holdout: float = 0.1  # the share of games held out to measure the fit
    seed: int = 0
    hidden: tuple[int, ...] = (512, 512, 256)
    init_from: str | None = None  # a trained network to start from (an exported .npz or a checkpoint)
    beta: float = 10.0  # the inverse temperature to start from (learned with the network)
    candidates: int = 0  # choose among the heuristic's best k and the pass, as search does (0: every legal action)


@dataclass
class Epoch:
    """One epoch's figures: the training loss, and on the held-out games the share of decisions where the
    network's most likely action is the one chosen and the mean log probability of the chosen action."""

    epoch: int
    loss: float
    agreement: float
    log_probability: float
    beta: float
    seconds: float


@dataclass
class ImitationResult:
    """What a fit measured (``before``: the starting network, epoch 0) and which epoch was kept."""

    config: dict[str, Any]
    data: list[str]
    lineup: list[str]
    decisions: int  # with two or more actions to choose from (the others say nothing of the bot)
    held_out: int
    uniform_log_probability: float
    heuristic_agreement: float | None = None  # how often the heuristic's first choice is the bot's (candidates)
    epochs: list[Epoch] = field(default_factory=list)
    kept: int = 0

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def search_candidate_rows(
    decisions: Decisions, rules: Ruleset, count: int, name: str = "decisions"
) -> tuple[np.ndarray, np.ndarray]:
    """For every legal action row of ``decisions``, whether it is among the moves ``search`` weighs at its
    decision (:func:`~bigtwo.bots.heuristic.search_candidates` with ``count``), and for every decision the place
    of the heuristic's first choice among its legal actions: the recorded games are replayed through the engine
    from their deals, and each decision is checked against the replay."""
    off = decisions["legal_offsets"]
    cards = decisions["legal_cards"]
    game_of, step, seat = decisions["game"], decisions["step"], decisions["seat"]
    out = np.zeros(len(cards), dtype=bool)
    first = np.zeros(len(game_of), dtype=np.int64)
    players = int(decisions.meta["players"])
    order = np.lexsort((step, game_of))
    current, game, actions, played, at = -1, None, [], 0, 0
    for i in order:
        g = int(game_of[i])
        if g != current:
            current, at, played = g, 0, 0
            game = Game(rules, players=players, hands=[mask_of(h) for h in decisions["game_dealt"][g]])
            actions = decisions.actions_of(g)
        assert game is not None
        while at < step[i]:
            mover, mask = actions[at]
            play = next((p for p in game.legal_plays() if p.mask == mask), None)
            if game.to_move != mover or play is None:
                raise BigTwoError(f"{name}: game {g}'s action {at + 1} does not replay")
            game.play(play)
            played |= mask
            at += 1
        legal = game.legal_plays()
        rows = [mask_of(c) for c in cards[off[i] : off[i + 1]]]
        if game.to_move != seat[i] or [p.mask for p in legal] != rows:
            raise BigTwoError(f"{name}: decision {i} is not the replay's (seat or legal actions differ)")
        ranked = policy_for(game.ev).scores(view_from_game(game, played))
        # a play up to deck copies: with two decks the search weighs one copy of a card's play, and either is it
        allowed = {fold_copies(p.mask) for p in search_candidates(ranked, count)}
        out[off[i] : off[i + 1]] = [fold_copies(m) in allowed for m in rows]
        first[i] = rows.index(ranked[0][1].mask)
        if not out[off[i] + decisions["chosen"][i]]:
            raise BigTwoError(f"{name}: decision {i} chose an action outside the heuristic's best {count} and the pass")
    return out, first


class DecisionSet:
    """Decisions of one or more files as flat arrays (float32 vectors), with the rows of each decision;
    ``candidates=k``: only the moves ``search`` weighs (:func:`search_candidate_rows`) are allowed."""

    def __init__(self, files: Sequence[Decisions], names: Sequence[str], candidates: int = 0):
        if not files:
            raise BigTwoError("imitation needs at least one decisions file")
        first = files[0].meta
        keys = ("rules", "players", "history", "features_version", "state_size", "action_size")
        for d, name in zip(files, names, strict=True):
            differ = [k for k in keys if d.meta.get(k) != first.get(k)]
            if differ:
                raise BigTwoError(
                    f"{name}: recorded for another table than {names[0]} ({', '.join(differ)} differ); "
                    "decisions fitted together must share rules, players and features"
                )
        if first.get("features_version") != FEATURES_VERSION:
            raise BigTwoError(
                f"{names[0]}: features version {first.get('features_version')!r}, this version reads {FEATURES_VERSION}"
            )
        self.meta = first
        self.state = np.concatenate([d["state"] for d in files]).astype(np.float32)
        self.actions = np.concatenate([d["legal_features"] for d in files]).astype(np.float32)
        counts = np.concatenate([np.diff(d["legal_offsets"]) for d in files])
        self.offsets = np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)
        self.chosen = np.concatenate([d["chosen"] for d in files]).astype(np.int64)
        self.heuristic_first: np.ndarray | None = None  # the heuristic's first choice (with candidates)
        if candidates:
            rules = Ruleset.from_dict(first["rules"]["settings"], source=names[0])
            got = [search_candidate_rows(d, rules, candidates, n) for d, n in zip(files, names, strict=True)]
            self.allowed = np.concatenate([a for a, _f in got])
            self.heuristic_first = np.concatenate([f for _a, f in got])
        else:
            self.allowed = np.ones(len(self.actions), dtype=bool)
        self.choices = np.add.reduceat(self.allowed, self.offsets[:-1]) if len(self.chosen) else self.chosen
        games, base = [], 0
        for d in files:
            games.append(d["game"].astype(np.int64) + base)
            base += d.games
        self.game = np.concatenate(games)
        self.games = base
        self.lineup = sorted({str(x) for d in files for x in d.meta.get("lineup", [])})

    def __len__(self) -> int:
        return len(self.chosen)

    def batch(self, idx: np.ndarray) -> tuple[torch.Tensor, ...]:
        """The tensors of decisions ``idx``: states, action rows, each row's decision, each row's place in
        its decision, the chosen action's place, the number of actions and whether each row is allowed."""
        off = self.offsets
        starts, counts = off[idx], off[idx + 1] - off[idx]
        total = int(counts.sum())
        first_of = np.repeat(np.cumsum(counts) - counts, counts)
        place = np.arange(total) - first_of
        rows = np.repeat(starts, counts) + place
        segment = np.repeat(np.arange(len(idx)), counts)
        return (
            torch.from_numpy(self.state[idx]),
            torch.from_numpy(self.actions[rows]),
            torch.from_numpy(segment),
            torch.from_numpy(place),
            torch.from_numpy(self.chosen[idx]),
            torch.from_numpy(counts),
            torch.from_numpy(self.allowed[rows]),
        )


class Imitator(nn.Module):
    """The Q network with a learned inverse temperature: log probabilities of each decision's actions."""

    def __init__(self, net: QNet, beta: float):
        super().__init__()
        self.net = net
        self.log_beta = nn.Parameter(torch.tensor(math.log(beta), dtype=torch.float32))

    def log_probs(
        self,
        states: torch.Tensor,
        actions: torch.Tensor,
        segment: torch.Tensor,
        place: torch.Tensor,
        counts: torch.Tensor,
        allowed: torch.Tensor,
    ) -> torch.Tensor:
        """(decisions, most actions) log probabilities; places beyond a decision's actions, and actions not
        allowed, are -inf."""
        q = self.net.score(states, actions, segment) * self.log_beta.exp()
        q = torch.where(allowed, q, torch.tensor(float("-inf")))
        width = int(counts.max())
        logits = torch.full((len(states), width), float("-inf"))
        logits[segment, place] = q
        return torch.log_softmax(logits, dim=1)


def _measure(model: Imitator, data: DecisionSet, idx: np.ndarray, batch: int) -> tuple[float, float]:
    """Agreement and mean log probability of the chosen actions of decisions ``idx``."""
    agree, logp = 0, 0.0
    with torch.no_grad():
        for i in range(0, len(idx), batch * 4):
            s, a, seg, place, chosen, counts, allowed = data.batch(idx[i : i + batch * 4])
            lp = model.log_probs(s, a, seg, place, counts, allowed)
            rows = torch.arange(len(chosen))
            agree += int((lp.argmax(dim=1) == chosen).sum())
            logp += float(lp[rows, chosen].sum())
    n = max(len(idx), 1)
    return agree / n, logp / n


def imitate(
    paths: Sequence[str | Path],
    out: str | Path,
    config: ImitationConfig | None = None,
    on_epoch: Callable[[Epoch], None] | None = None,
) -> ImitationResult:
    """Fit a network to the decisions in ``paths``; write ``out/policy.npz`` (the kept epoch's weights, as
    the learned bot reads them) and ``out/report.json``; return the figures."""
    cfg = config or ImitationConfig()
    if not 0.0 < cfg.holdout < 1.0:
        raise BigTwoError(f"holdout={cfg.holdout}: the share of games held out, between 0 and 1")
    if cfg.epochs < 1 or cfg.batch_size < 1:
        raise BigTwoError(f"epochs={cfg.epochs}, batch_size={cfg.batch_size}: each must be 1 or more")
    names = [str(p) for p in paths]
    if cfg.candidates < 0:
        raise BigTwoError(
            f"candidates={cfg.candidates}: the heuristic's best moves to choose among, 1 or more (0: all)"
        )
    data = DecisionSet([read_decisions(p) for p in paths], names, cfg.candidates)
    meta = data.meta
    torch.manual_seed(cfg.seed)
    rng = np.random.default_rng(cfg.seed)
    held_games = rng.random(data.games) < cfg.holdout
    choice = data.choices >= 2  # a decision with one action to choose from says nothing of the bot
    held = np.flatnonzero(held_games[data.game] & choice)
    train = np.flatnonzero(~held_games[data.game] & choice)
    if not len(held) or not len(train):
        raise BigTwoError(f"{len(data)} decisions in {data.games} games: too few to hold out {cfg.holdout:.0%}")

    net = QNet(meta["state_size"], meta["action_size"], cfg.hidden)
    if cfg.init_from:
        run = TrainConfig(rules=meta["rules"]["name"], players=meta["players"], history=meta["history"])
        try:
            _load_start(net, cfg.init_from, _table_of(run))
        except (KeyError, RuntimeError) as e:
            raise BigTwoError(f"init_from {cfg.init_from}: not a network of this shape ({e})") from None
        except ValueError as e:
            raise BigTwoError(str(e)) from None
    model = Imitator(net, cfg.beta)
    opt = torch.optim.Adam(model.parameters(), lr=cfg.lr)
    uniform = float(-np.mean(np.log(data.choices[held])))
    result = ImitationResult(asdict(cfg), names, data.lineup, int(choice.sum()), len(held), uniform)
    if data.heuristic_first is not None:
        result.heuristic_agreement = float(np.mean(data.heuristic_first[held] == data.chosen[held]))

    def record(epoch: int, loss: float, t0: float) -> None:
        agree, logp = _measure(model, data, held, cfg.batch_size)
        e = Epoch(epoch, loss, agree, logp, float(model.log_beta.detach().exp()), time.perf_counter() - t0)
        result.epochs.append(e)
        if on_epoch is not None:
            on_epoch(e)

    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    t0 = time.perf_counter()
    record(0, float("nan"), t0)
    best = result.epochs[0].log_probability
    _export(model, meta, cfg, result, out)
    for epoch in range(1, cfg.epochs + 1):
        order = train[rng.permutation(len(train))]
        losses = []
        for i in range(0, len(order), cfg.batch_size):
            s, a, seg, place, chosen, counts, allowed = data.batch(order[i : i + cfg.batch_size])
            lp = model.log_probs(s, a, seg, place, counts, allowed)
            loss = -lp[torch.arange(len(chosen)), chosen].mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
            losses.append(float(loss.detach()))
        record(epoch, float(np.mean(losses)), t0)
        if result.epochs[-1].log_probability > best:
            best = result.epochs[-1].log_probability
            result.kept = epoch
            _export(model, meta, cfg, result, out)
    (out / "report.json").write_text(json.dumps(result.to_dict(), indent=2) + "\n")
    return result


def _export(model: Imitator, meta: dict[str, Any], cfg: ImitationConfig, result: ImitationResult, out: Path) -> None:
    layers = [(w.astype(np.float16).astype(np.float32), b) for w, b in model.net.layers()]
    kept = result.epochs[-1]
    policy = QPolicy(
        layers,
        meta["state_size"],
        {
            "rules": meta["rules"]["name"],
            "rules_settings": Ruleset.from_dict(meta["rules"]["settings"]).settings(),
            "players": meta["players"],
            "history": meta["history"],
            "hidden": list(cfg.hidden),
            "features_version": FEATURES_VERSION,
            "target": "policy",
            "candidates": cfg.candidates,
            "imitates": result.lineup,
            "beta": kept.beta,
            "agreement": kept.agreement,
            "log_probability": kept.log_probability,
            "decisions": result.decisions,
            "seed": cfg.seed,
        },
    )
    policy.save(out / "policy.npz")


__all__ = ["DecisionSet", "Epoch", "ImitationConfig", "ImitationResult", "imitate"]
