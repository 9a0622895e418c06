"""Distillation: a smaller Q(s, a) network that values actions as a trained one does, for cheaper play-outs.

A search that lets the network play every seat of its play-outs spends most of a play-out in the network's
per-action layers (a 512x512 product for every legal action of every move), so the number of deals it can
search in its time is set by the network's width. A student a third of the width costs a fraction of that.
It is fitted to the teacher's values, not to game results: the teacher plays lockstep self-play games (with a
small share ``explore`` of random moves, so the positions cover what a play-out on a sampled deal meets), and
at every decision with a choice the student learns the teacher's Q of every legal action (mean squared error,
in the network's own units). Whole games are held out, and the epoch whose held-out error is lowest is kept.
What the search needs from it is the teacher's choice: the report gives how often the two agree on held-out
decisions beside the error.

The result is saved as learned-bot weights for the same table (the same state and action vectors, the same
``utility`` and ``reward_scale``), with ``distilled_from`` naming the teacher: ``isearch(playout_weights=...)``
plays its play-outs with it.

Run::

    bigtwo lab distill --teacher WEIGHTS.npz --out DIR [--hidden 256,256,128] [--games 20000]
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import torch

from bigtwo.bots.features import FEATURES_VERSION
from bigtwo.bots.learned import GameScorer, QPolicy, rules_learned, scorer_of
from bigtwo.errors import BigTwoError
from bigtwo.game import Game
from bigtwo.lab.networks import check_settings, named_network
from bigtwo.rl.networks import QNet
from bigtwo.rules.ruleset import Ruleset


@dataclass
class DistillConfig:
    """Everything that defines a distillation (saved with its result)."""

    games: int = 20000
    lockstep: int = 64
    explore: float = 0.1
    hidden: tuple[int, ...] = (256, 256, 128)
    epochs: int = 8
    lr: float = 1e-3
    batch: int = 512
    holdout: float = 0.05
    seed: int = 0
    threads: int = 1


@dataclass
class DistillEpoch:
    epoch: int
    train_mse: float
    heldout_mse: float
    agreement: float  # held-out decisions where the student's best action is the teacher's
    regret: float  # the teacher's value of its best action less that of the student's, a held-out decision
    seconds: float


@dataclass
class DistillResult:
    teacher: str
    decisions: int
    rows: int
    heldout_decisions: int
    teacher_agreement_floor: float  # held-out decisions whose best action is not tied in the teacher's values
    epochs: list[DistillEpoch] = field(default_factory=list)
    best_epoch: int = 0
    # the saved student's own figures on the held-out decisions (its weights rounded to float16, as saved)
    kept_mse: float = 0.0
    kept_agreement: float = 0.0
    kept_regret: float = 0.0
    generate_seconds: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


class TeacherPositions:
    """The decisions of lockstep self-play by the teacher: state vectors, action rows and the teacher's Q of
    each row, grouped by decision (``offsets``) and by game (``game_of``)."""

    def __init__(self, states: np.ndarray, actions: np.ndarray, q: np.ndarray, offsets: np.ndarray, games: np.ndarray):
        self.states, self.actions, self.q, self.offsets, self.game_of = states, actions, q, offsets, games

    def __len__(self) -> int:
        return len(self.states)


def teacher_positions(
    scorer: GameScorer,
    rules: Ruleset,
    players: int,
    games: int,
    lockstep: int = 64,
    explore: float = 0.1,
    seed: int = 0,
    progress: Callable[[int], None] | None = None,
) -> TeacherPositions:
    """Play ``games`` rounds, ``lockstep`` at a time, the teacher (``scorer``) moving every seat and a random
    legal move in a share ``explore`` of its decisions, and keep every decision with more than one legal action
    (the only ones a play-out asks a network about) with the teacher's values of all of them."""
    net = scorer.net
    states: list[np.ndarray] = []
    rows: list[np.ndarray] = []
    qs: list[np.ndarray] = []
    sizes: list[int] = []
    game_ids: list[int] = []
    started = 0
    live: list[tuple[int, Game]] = []
    rngs: dict[int, random.Random] = {}  # a game's own, for its random moves: the same games at any lockstep
    finished = 0
    while live or started < games:
        while len(live) < lockstep and started < games:
            live.append((started, Game(rules, players=players, seed=seed * 1_000_003 + started)))
            rngs[started] = random.Random(f"{seed}/{started}")
            started += 1
        asked = []
        legals = []
        for gid, g in live:
            legal = g.legal_plays()
            if len(legal) == 1:
                g.play(legal[0])
                continue
            asked.append((gid, g))
            legals.append(legal)
        if asked:
            block, actions, offsets = scorer.encode_many([g for _gid, g in asked], legals)
            q = net.q_batch(block, actions, offsets)
            for j, ((gid, g), legal) in enumerate(zip(asked, legals, strict=True)):
                mine = q[offsets[j] : offsets[j + 1]]
                states.append(block[j].astype(np.float16))
                rows.append(actions[offsets[j] : offsets[j + 1]].astype(np.float16))
                qs.append(mine.astype(np.float32))
                sizes.append(len(legal))
                game_ids.append(gid)
                rng = rngs[gid]
                pick = rng.randrange(len(legal)) if rng.random() < explore else int(np.argmax(mine))
                g.play(legal[pick])
        still = []
        for gid, g in live:
            if g.is_over:
                del rngs[gid]
                finished += 1
                if progress is not None:
                    progress(finished)
            else:
                still.append((gid, g))
        live = still
    order = np.argsort(np.asarray(game_ids), kind="stable")  # game by game, each in the order it was played
    return TeacherPositions(
        np.stack([states[i] for i in order]),
        np.concatenate([rows[i] for i in order]),
        np.concatenate([qs[i] for i in order]),
        np.concatenate([[0], np.cumsum([sizes[i] for i in order])]).astype(np.int64),
        np.asarray(game_ids, dtype=np.int64)[order],
    )


def _rows_of(data: TeacherPositions, decisions: np.ndarray) -> np.ndarray:
    """The action rows of ``decisions`` (indices), in order."""
    starts, ends = data.offsets[decisions], data.offsets[decisions + 1]
    return np.concatenate([np.arange(s, e) for s, e in zip(starts, ends, strict=True)])


def _batch(data: TeacherPositions, decisions: np.ndarray) -> tuple[torch.Tensor, ...]:
    rows = _rows_of(data, decisions)
    segment = np.repeat(np.arange(len(decisions)), data.offsets[decisions + 1] - data.offsets[decisions])
    return (
        torch.from_numpy(data.states[decisions].astype(np.float32)),
        torch.from_numpy(data.actions[rows].astype(np.float32)),
        torch.from_numpy(segment),
        torch.from_numpy(data.q[rows]),
    )


def _measure(model: QNet, data: TeacherPositions, decisions: np.ndarray, batch: int) -> tuple[float, float, float]:
    """Mean squared error over the rows of ``decisions``, the share of them whose best action (by the student)
    is the teacher's best, and the teacher's mean regret of the student's choice (its units)."""
    se = 0.0
    n_rows = 0
    agree = 0
    regret = 0.0
    with torch.no_grad():
        for i in range(0, len(decisions), batch):
            part = decisions[i : i + batch]
            s, a, seg, q = _batch(data, part)
            pred = model.score(s, a, seg).numpy()
            target = q.numpy()
            se += float(np.sum((pred - target) ** 2))
            n_rows += len(target)
            ends = np.cumsum(data.offsets[part + 1] - data.offsets[part])
            starts = ends - (data.offsets[part + 1] - data.offsets[part])
            for lo, hi in zip(starts, ends, strict=True):
                mine, best = int(np.argmax(pred[lo:hi])), int(np.argmax(target[lo:hi]))
                agree += int(mine == best)
                regret += float(target[lo + best] - target[lo + mine])
    count = max(len(decisions), 1)
    return se / max(n_rows, 1), agree / count, regret / count


def distill(
    teacher: str,
    out: str | Path,
    config: DistillConfig | None = None,
    rules: str | None = None,
    players: int | None = None,
    log: Callable[[str], None] | None = None,
) -> DistillResult:
    """Fit a student of ``config.hidden`` to the teacher's values (``teacher``: a weights file, or ``shipped``
    for the package's network for ``rules`` and ``players``) and write ``OUT/student.npz``, ``OUT/result.json``."""
    cfg = config or DistillConfig()
    if not cfg.hidden or any(h < 1 for h in cfg.hidden):
        raise BigTwoError(f"hidden {cfg.hidden}: every layer needs at least one unit")
    if cfg.games < 2:
        raise BigTwoError(f"games={cfg.games}: at least two, so that one can be held out")
    check_settings(
        (
            ("holdout", cfg.holdout, 0 < cfg.holdout <= 0.5, "lie in (0, 0.5]"),
            ("explore", cfg.explore, 0 <= cfg.explore <= 1, "lie in [0, 1]"),
            ("epochs", cfg.epochs, cfg.epochs >= 1, "be 1 or more"),
        )
    )
    say = log or (lambda _m: None)
    torch.manual_seed(cfg.seed)
    torch.set_num_threads(cfg.threads)
    net, label = named_network(teacher, rules, players, "teacher")
    table_rules = rules_learned(net.meta)
    if table_rules is None:
        raise BigTwoError(f"teacher {label}: the rules it was trained for ({net.meta.get('rules')!r}) do not read back")
    n = int(net.meta["players"])
    scorer = scorer_of(net, table_rules, n, label)
    t0 = time.perf_counter()
    data = teacher_positions(
        scorer, table_rules, n, cfg.games, cfg.lockstep, cfg.explore, cfg.seed,
        progress=lambda k: say(f"{k:,} of {cfg.games:,} games played") if k % 2000 == 0 else None,
    )  # fmt: skip
    generated = time.perf_counter() - t0
    held_games = max(1, round(cfg.holdout * cfg.games))
    held = np.flatnonzero(data.game_of >= cfg.games - held_games)
    train = np.flatnonzero(data.game_of < cfg.games - held_games)
    sizes = np.diff(data.offsets)
    floor = _untied_share(data, held)
    result = DistillResult(label, len(data), int(sizes.sum()), len(held), floor, generate_seconds=round(generated, 1))
    say(f"{len(data):,} decisions ({int(sizes.sum()):,} actions) in {generated:.0f} s; {len(held):,} held out")
    model = QNet(scorer.states.size, scorer.actions.size, tuple(cfg.hidden))
    opt = torch.optim.Adam(model.parameters(), lr=cfg.lr)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=max(1, cfg.epochs))
    gen = np.random.default_rng(cfg.seed)
    best: list[tuple[np.ndarray, np.ndarray]] | None = None
    best_mse = float("inf")
    for epoch in range(1, cfg.epochs + 1):
        t1 = time.perf_counter()
        order = gen.permutation(train)
        total, count = 0.0, 0
        for i in range(0, len(order), cfg.batch):
            s, a, seg, q = _batch(data, order[i : i + cfg.batch])
            loss = torch.mean((model.score(s, a, seg) - q) ** 2)
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item() * len(q)
            count += len(q)
        sched.step()
        mse, agreement, regret = _measure(model, data, held, 4 * cfg.batch)
        seconds = round(time.perf_counter() - t1, 1)
        row = DistillEpoch(epoch, total / max(count, 1), mse, agreement, regret, seconds)
        result.epochs.append(row)
        say(
            f"epoch {epoch}: error {row.train_mse:.5f}, held out {mse:.5f}; the teacher's choice {agreement:.1%}, "
            f"its regret {regret * scorer.scale:.3f} points a decision ({seconds:.0f} s)"
        )
        if mse < best_mse:
            best_mse, best, result.best_epoch = mse, model.layers(), epoch
    assert best is not None
    layers = [(w.astype(np.float16).astype(np.float32), b.astype(np.float16).astype(np.float32)) for w, b in best]
    model.load_layers(layers)
    result.kept_mse, result.kept_agreement, result.kept_regret = _measure(model, data, held, 4 * cfg.batch)
    meta = {k: v for k, v in net.meta.items() if k in ("rules", "rules_settings", "players", "history")}
    meta.update(
        utility=scorer.utility,
        reward_scale=scorer.scale,
        features_version=FEATURES_VERSION,
        hidden=list(cfg.hidden),
        distilled_from=label,
        distill=asdict(cfg),
    )
    target = Path(out)
    QPolicy(layers, scorer.states.size, meta).save(target / "student.npz")
    (target / "result.json").write_text(json.dumps(result.to_dict(), indent=1) + "\n")
    return result


def _untied_share(data: TeacherPositions, decisions: np.ndarray) -> float:
    """The share of ``decisions`` whose best action the teacher's values single out (no other within 1e-6)."""
    clear = 0
    for d in decisions:
        q = np.sort(data.q[data.offsets[d] : data.offsets[d + 1]])
        clear += int(q[-1] - q[-2] > 1e-6)
    return clear / max(len(decisions), 1)


__all__ = ["DistillConfig", "DistillResult", "TeacherPositions", "distill", "teacher_positions"]
