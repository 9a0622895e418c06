"""Behaviour cloning: a network that plays as another bot plays, learned from that bot's recorded decisions.

A searching bot is too slow to sit at a training table (a decision costs what thousands of frames do), so the
self-play trainer cannot learn against it directly. Its decisions can be recorded, though
(``bigtwo simulate --record-decisions``), and a network fitted to them plays like it at the network's speed: a
fast stand-in for the search, to train against and to predict it with.

The network is the learned bot's Q(s, a) shape (:class:`~bigtwo.rl.dmc.QNet`, the same state and action
vectors), read as a policy: the probability of an action is a softmax over ``beta * Q(s, a)`` among the
decision's legal actions, ``beta`` an inverse temperature learned with it, and the loss is the negative log
probability of the action the recorded bot chose. Starting from a trained value network (``init_from``) gives
it a player's view of the game to start from. Whole games are held out (``holdout``), and the epoch whose
held-out log probability is best is the one kept.

The result is saved as learned-bot weights whose ``meta["target"]`` is ``"policy"``: the ``learned`` bot
plays its most likely action, while the outputs are not points, so nothing may read them as a value
(:class:`~bigtwo.bots.learned.GameScorer` refuses).

Run::

    bigtwo imitate DATA.npz [DATA.npz ...] --out DIR [--init-from WEIGHTS.npz] [--epochs 6]
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

from bigtwo.arena.decisions import Decisions, read_decisions
from bigtwo.bots.features import FEATURES_VERSION
from bigtwo.bots.learned import QPolicy
from bigtwo.errors import BigTwoError
from bigtwo.rl.dmc import QNet, TrainConfig, _load_start, _table_of


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
    decisions: int  # with two or more legal actions (the others say nothing of the bot)
    held_out: int
    uniform_log_probability: float
    epochs: list[Epoch] = field(default_factory=list)
    kept: int = 0

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


class DecisionSet:
    """Decisions of one or more files as flat arrays (float32 vectors), with the rows of each decision."""

    def __init__(self, files: Sequence[Decisions], names: Sequence[str]):
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
        its decision, and the chosen action's place."""
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
    ) -> torch.Tensor:
        """(decisions, most actions) log probabilities; places beyond a decision's actions are -inf."""
        q = self.net.score(states, actions, segment) * self.log_beta.exp()
        width = int(counts.max())
        logits = torch.full((len(states), width), float("-inf"))
        logits[segment, place] = q
        return torch.log_softmax(logits, dim=1)


def _measure(model: Imitator, data: DecisionSet, idx: np.ndarray, batch: int) -> tuple[float, float]:
    """Agreement and mean log probability of the chosen actions of decisions ``idx``."""
    agree, logp = 0, 0.0
    with torch.no_grad():
        for i in range(0, len(idx), batch * 4):
            s, a, seg, place, chosen, counts = data.batch(idx[i : i + batch * 4])
            lp = model.log_probs(s, a, seg, place, counts)
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
    data = DecisionSet([read_decisions(p) for p in paths], names)
    meta = data.meta
    torch.manual_seed(cfg.seed)
    rng = np.random.default_rng(cfg.seed)
    held_games = rng.random(data.games) < cfg.holdout
    choice = np.diff(data.offsets) >= 2  # a decision with one legal action says nothing of the bot
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
    uniform = float(-np.mean(np.log(np.diff(data.offsets)[held])))
    result = ImitationResult(asdict(cfg), names, data.lineup, int(choice.sum()), len(held), uniform)

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
            s, a, seg, place, chosen, counts = data.batch(order[i : i + cfg.batch_size])
            lp = model.log_probs(s, a, seg, place, counts)
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
            "players": meta["players"],
            "history": meta["history"],
            "hidden": list(cfg.hidden),
            "features_version": FEATURES_VERSION,
            "target": "policy",
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
