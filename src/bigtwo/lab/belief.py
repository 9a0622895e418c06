"""Fitting the belief network (:mod:`bigtwo.bots.belief`): who holds each hidden card, learned from simulated rounds.

:func:`collect` plays rounds with a field of quick bots and, at every decision, records the deciding seat's belief
input and, for each card it cannot see, where the card truly is (its class: in no hand, or the relative seat that
holds it), with how many hidden cards each class holds. The labels cost nothing: the simulation knows every hand.

The field should play as the opponents the search will meet: by default each seat of a round is, at random, the
learned network with its moves drawn from a softmax over its values (a search's choice is the argmax of noisy
estimates), at a temperature drawn per seat, or the heuristic. :func:`fit` trains the MLP by cross-entropy over
the hidden cards (classes that hold none masked out) with torch on the CPU and writes numpy weights.

Run::

    bigtwo lab beliefs collect runs/beliefs/data --rounds 4000 --field src/bigtwo/bots/weights/standin/classic-4p.npz
    bigtwo lab beliefs fit runs/beliefs/data/*.npz --out runs/beliefs/classic-4p.npz
"""

from __future__ import annotations

import copy
import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from bigtwo.bots.belief import BeliefEncoder, BeliefNet, applies, class_masks, true_classes
from bigtwo.bots.heuristic import policy_for as heuristic_for
from bigtwo.bots.learned import load_weights, scorer_of
from bigtwo.bots.learned import policy_for as learned_for
from bigtwo.bots.sampling import DealSampler
from bigtwo.bots.view import view_from_game
from bigtwo.game import Game
from bigtwo.rules.ruleset import load_rules

TEMPERATURES = (0.25, 0.5, 1.0)  # points: the field's softmax temperatures, one drawn a seat and round


@dataclass
class BeliefData:
    """Collected positions: inputs ``x`` (float16), each card's true class ``y`` (-1: not hidden from the seat),
    each class's count of hidden cards ``need``, and the round each position is from (``rounds``: positions of
    one round share its deal, so a held-out set is made of whole rounds, or the network is judged on deals it
    has seen)."""

    x: np.ndarray
    y: np.ndarray
    need: np.ndarray
    rounds: np.ndarray

    def save(self, path: str | Path) -> None:
        np.savez_compressed(path, x=self.x, y=self.y, need=self.need, rounds=self.rounds)

    @classmethod
    def load(cls, paths: Sequence[str | Path]) -> BeliefData:
        parts = [np.load(p) for p in paths]
        rounds, offset = [], 0
        for z in parts:
            r = z["rounds"] if "rounds" in z.files else rounds_of(z["need"])
            rounds.append(r + offset)
            offset += int(r.max()) + 1 if len(r) else 0
        x, y, need = (np.concatenate([z[k] for z in parts]) for k in ("x", "y", "need"))
        return cls(x, y, need, np.concatenate(rounds))


def rounds_of(need: np.ndarray) -> np.ndarray:
    """Round numbers of positions recorded in order without them: a round starts where the hidden cards grow."""
    hidden = need.sum(axis=1).astype(np.int64)
    return np.concatenate([[0], np.cumsum(hidden[1:] > hidden[:-1])]).astype(np.int32)


def collect(
    rules_name: str = "classic",
    players: int | None = None,
    rounds: int = 100,
    seed: int = 0,
    field_weights: str | None = None,
    heuristic_share: float = 0.2,
    progress: Callable[[int, int], None] | None = None,
) -> BeliefData:
    """Play ``rounds`` rounds and record every decision's belief input and labels (see the module docstring)."""
    rules = load_rules(rules_name)
    n = players or rules.players
    encoder = BeliefEncoder(rules, n)
    net = load_weights(field_weights) if field_weights else learned_for(rules, n)
    scorer = scorer_of(net, rules, n, field_weights)
    heuristic = heuristic_for(rules.engine_for(n))
    rng = random.Random(seed)
    xs: list[np.ndarray] = []
    ys: list[np.ndarray] = []
    needs: list[list[int]] = []
    round_of: list[int] = []
    width = encoder.width
    for r in range(rounds):
        game = Game(rules, players=n, seed=rng.randrange(2**32))
        temps = [None if rng.random() < heuristic_share else rng.choice(TEMPERATURES) for _ in range(n)]
        played = 0
        while not game.is_over:
            seat = game.to_move
            legal = game.legal_plays()
            obs = game.observe(seat)
            if applies(rules, obs) and len(legal) > 1:
                sampler = DealSampler(rules, obs)
                cards, need = class_masks(sampler)
                y = np.full(width, -1, dtype=np.int8)
                y[cards] = true_classes(game, seat, cards)
                xs.append(encoder.encode(obs).astype(np.float16))
                ys.append(y)
                needs.append(need)
                round_of.append(r)
            t = temps[seat]
            if len(legal) == 1:
                move = legal[0]
            elif t is None:
                move = heuristic.act(view_from_game(game, played), 0)
            else:
                options = scorer.choices(game)  # the legal plays, or the moves a search weighs for its stand-in
                q = scorer.q(game, options) * scorer.scale
                z = np.exp((q - q.max()) / t)
                move = options[rng.choices(range(len(options)), weights=z.tolist())[0]]
            game.play(move)
            played |= move.mask
        if progress is not None:
            progress(r + 1, len(xs))
    return BeliefData(np.stack(xs), np.stack(ys), np.array(needs, dtype=np.int8), np.array(round_of, dtype=np.int32))


@dataclass
class FitConfig:
    hidden: tuple[int, ...] = (512, 512)
    epochs: int = 6
    batch: int = 512
    lr: float = 1e-3
    weight_decay: float = 1e-4
    dropout: float = 0.2
    validation: float = 0.05
    seed: int = 0


@dataclass
class FitResult:
    epochs: list[dict[str, float]] = field(default_factory=list)
    uniform_loss: float = 0.0  # the validation loss of dealing by room alone (each card's class by its count)
    positions: int = 0
    kept: int = 0  # the epoch whose weights were written: the one best on the held-out rounds
    seconds: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def uniform_loss(y: np.ndarray, need: np.ndarray) -> float:
    """Mean nats a hidden card of the uniform deal: each card in class k with probability need_k / hidden."""
    total = need.sum(axis=1, keepdims=True).astype(np.float64)
    p = need / np.maximum(total, 1)
    rows, cols = np.nonzero(y >= 0)
    return float(-np.log(p[rows, y[rows, cols]]).mean())


def fit(
    data: BeliefData,
    rules_name: str,
    players: int,
    cfg: FitConfig,
    out: str | Path,
    progress: Callable[[dict[str, float]], None] | None = None,
) -> FitResult:
    """Train the belief MLP on ``data`` and write it to ``out`` (numpy weights, float16)."""
    import torch
    from torch import nn

    torch.manual_seed(cfg.seed)
    t0 = time.perf_counter()
    n = players
    m = len(data.x)
    ids = np.unique(data.rounds)
    held = np.random.default_rng(cfg.seed).permutation(ids)[: max(1, int(len(ids) * cfg.validation))]
    is_val = np.isin(data.rounds, held)
    val, train = np.nonzero(is_val)[0], np.nonzero(~is_val)[0]
    size, width = data.x.shape[1], data.y.shape[1]
    dims = (size, *cfg.hidden, width * n)
    mods: list[nn.Module] = []
    for i in range(len(dims) - 1):
        mods.append(nn.Linear(dims[i], dims[i + 1]))
        if i < len(dims) - 2:
            mods.append(nn.ReLU())
            if cfg.dropout > 0:
                mods.append(nn.Dropout(cfg.dropout))
    model = nn.Sequential(*mods)
    opt = torch.optim.Adam(model.parameters(), lr=cfg.lr, weight_decay=cfg.weight_decay)
    x_all = torch.from_numpy(data.x)
    y_all = torch.from_numpy(data.y.astype(np.int64))
    need_all = torch.from_numpy(data.need.astype(np.int64))

    def loss_of(idx: np.ndarray) -> torch.Tensor:
        ix = torch.from_numpy(idx)
        logits = model(x_all[ix].float()).view(len(idx), width, n)
        need = need_all[ix].unsqueeze(1).float()
        # the network learns the departure from dealing by room: its logits add to log(need), -inf where none
        logits = logits + torch.log(need)
        y = y_all[ix]
        hidden = y >= 0
        lp = torch.log_softmax(logits, dim=2)
        picked = lp.gather(2, y.clamp(min=0).unsqueeze(2)).squeeze(2)
        return -(picked[hidden]).mean()

    result = FitResult(uniform_loss=uniform_loss(data.y[val], data.need[val]), positions=m)
    steps = max(1, len(train) // cfg.batch)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=cfg.epochs * steps)
    rng = np.random.default_rng(cfg.seed + 1)
    best, kept = math.inf, copy.deepcopy(model.state_dict())
    for epoch in range(cfg.epochs):
        model.train()
        perm = rng.permutation(train)
        total = 0.0
        for b in range(steps):
            loss = loss_of(perm[b * cfg.batch : (b + 1) * cfg.batch])
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += loss.item()
        model.eval()
        with torch.no_grad():  # weighted by hidden cards, as the training loss is
            parts = [
                (float(loss_of(val[i : i + 4096])), int((data.y[val[i : i + 4096]] >= 0).sum()))
                for i in range(0, len(val), 4096)
            ]
        v = sum(a * k for a, k in parts) / max(1, sum(k for _a, k in parts))
        row = {"epoch": epoch + 1, "train_loss": total / steps, "validation_loss": v}
        result.epochs.append(row)
        if v < best:  # the held-out rounds choose the epoch kept
            best, result.kept = v, epoch + 1
            kept = copy.deepcopy(model.state_dict())
        if progress is not None:
            progress(row)
    model.load_state_dict(kept)
    layers = []
    for mod in model:
        if isinstance(mod, nn.Linear):
            layers.append((mod.weight.detach().numpy().T.copy(), mod.bias.detach().numpy().copy()))
    result.seconds = time.perf_counter() - t0
    meta = {
        "rules": rules_name,
        "players": n,
        "history": BeliefEncoder(load_rules(rules_name), n).states.k,
        "fit": asdict(cfg),
        "result": result.to_dict(),
    }
    BeliefNet(tuple(layers), meta).save(out)
    return result
