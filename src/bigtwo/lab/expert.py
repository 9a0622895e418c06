"""Expert iteration: the network learns what the search finds.

``isearch`` judges a decision's candidates by playing each out on many sampled deals, the network moving every
seat; its choice is better than the network's own (it beats it), so the network is fitted to the search's
judgments, and a search over the improved network judges better in turn. Two steps, each resumable:

1. **Labels.** The network plays lockstep-free self-play games (a share ``explore`` of its moves at random, as
   in distillation, so the positions cover what play-outs meet); in a share ``share`` of its decisions with a
   choice, ``isearch`` with a fixed number of deals a candidate (``iterations``, every candidate on every deal:
   the same work for each, and the same labels on any machine) values its candidates. Games are labelled in
   shards of ``shard_games`` (``OUT/labels/shard-NNNNN.npz``), each fixed by its games' seeds: an interrupted
   run resumes at the first missing shard and makes the labels an uninterrupted run would have.
2. **Fit.** From the network's own weights, the action values are fitted to the search's where it searched and
   to the network's own elsewhere (weighed ``anchor``, so what the search did not look at stays). The search
   teaches its *ranking*: its values are centred on the network's mean over the same candidates, so the value
   of the position, which the prior and the play-outs' stops read, is the network's. Whole games are held out;
   each epoch reports how often the network's best candidate is the search's on them and the search's regret of
   it (epoch 0: before any fitting), and the epoch with the least regret (``select="regret"``) or the most
   agreement (``select="agreement"``) is kept (``OUT/expert.npz``, ``OUT/result.json``).

Run::

    bigtwo lab expert --out DIR [--weights FILE] [--games 2000] [--iterations 16] [--share 0.25]
"""

from __future__ import annotations

import json
import math
import random
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field
from multiprocessing import get_context
from pathlib import Path
from typing import Any

import numpy as np
import torch

from bigtwo.bots.learned import GameScorer, QPolicy, rules_learned, scorer_of
from bigtwo.bots.search import InferenceSearchBot
from bigtwo.errors import BigTwoError
from bigtwo.game import Game
from bigtwo.lab.networks import check_settings, named_network, network_digest
from bigtwo.rl.networks import QNet
from bigtwo.rules.ruleset import Ruleset

# sampled deals a searched decision plays out side by side (None: all of them, every candidate's lines in one
# group). With no deadline the grouping changes no value, only the speed: the network scores every waiting line
# in one pass, and all of a decision's lines at once took about two thirds of the time of four deals at a time.
LABEL_DEALS_TOGETHER: int | None = None

# how the kept epoch is chosen on the held-out decisions. The teacher's regret (points it gives up a decision
# for the network's choice) is what play pays for; agreement counts a near-miss as a miss, and over the 48-deal
# teacher's labels it stayed flat while the regret fell and the fit gained in play.
SELECT = ("regret", "agreement")


@dataclass
class ExpertConfig:
    """Everything that defines a run (saved with its result): the labels' settings, then the fit's."""

    games: int = 2000
    iterations: int = 16  # sampled deals every candidate of a searched decision is played out on
    share: float = 0.25  # of the decisions with a choice, the share searched
    explore: float = 0.1
    shard_games: int = 50
    seed: int = 0
    epochs: int = 4
    lr: float = 1e-4
    batch: int = 256
    holdout: float = 0.1
    anchor: float = 0.25  # the weight of an action the search did not value (its target: the network's own)
    threads: int = 1
    workers: int = 1  # processes labelling shards side by side (the labels are the same with any number)
    select: str = "regret"  # the epoch kept: the least held-out regret ("regret") or the most agreement


@dataclass
class ExpertEpoch:
    epoch: int
    train_loss: float
    heldout_loss: float
    agreement: float  # held-out searched decisions where the network's best candidate is the search's
    regret: float  # the search's value of its best candidate less that of the network's, points a decision
    seconds: float


@dataclass
class ExpertResult:
    teacher: str
    games: int
    decisions: int  # searched decisions
    heldout_decisions: int
    label_seconds: float  # the labelling time of the shards made in this run (0 where all were read back)
    epochs: list[ExpertEpoch] = field(default_factory=list)
    best_epoch: int = 0

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


class Labels:
    """Searched decisions: state vectors, action rows, the network's values of the rows (its units) and the
    search's (points; NaN where it did not value the action), grouped by decision (``offsets``) and game."""

    def __init__(
        self, states: np.ndarray, actions: np.ndarray, q: np.ndarray, searched: np.ndarray, offsets, games,
        span: tuple[int, int] | None = None,
    ):  # fmt: skip
        self.states, self.actions, self.q, self.searched = states, actions, q, searched
        self.offsets, self.game_of = np.asarray(offsets, dtype=np.int64), np.asarray(games, dtype=np.int64)
        self.span = span  # (first game, games) the labels cover: a game without a searched decision leaves no row

    def __len__(self) -> int:
        return len(self.states)

    def save(self, path: Path) -> None:
        tmp = path.with_suffix(".part.npz")
        np.savez_compressed(
            tmp, states=self.states, actions=self.actions, q=self.q, searched=self.searched,
            offsets=self.offsets, games=self.game_of, span=np.asarray(self.span or (-1, -1), dtype=np.int64),
        )  # fmt: skip
        tmp.replace(path)  # whole or absent: an interrupted write is made again

    @classmethod
    def load(cls, path: Path) -> Labels:
        with np.load(path) as f:
            return cls(f["states"], f["actions"], f["q"], f["searched"], f["offsets"], f["games"], _span(f))

    @staticmethod
    def games_in(path: Path) -> tuple[int, int] | None:
        """The span of games a saved shard covers, read without its labels (None: saved before spans were)."""
        with np.load(path) as f:
            return _span(f)

    def only_games_before(self, end: int) -> Labels:
        """The decisions of games numbered below ``end`` (a fit on the first games of longer labels)."""
        keep = np.flatnonzero(self.game_of < end)
        if len(keep) == len(self.game_of):
            return self
        sizes = np.diff(self.offsets)[keep]
        spans = [np.arange(self.offsets[d], self.offsets[d + 1]) for d in keep]
        rows = np.concatenate(spans) if spans else np.zeros(0, dtype=np.int64)
        return Labels(
            self.states[keep], self.actions[rows], self.q[rows], self.searched[rows],
            np.concatenate([[0], np.cumsum(sizes)]), self.game_of[keep],
        )  # fmt: skip

    @classmethod
    def joined(cls, parts: list[Labels]) -> Labels:
        if not parts:
            raise BigTwoError("no searched decisions to fit to")
        sizes = np.concatenate([np.diff(p.offsets) for p in parts])
        return cls(
            np.concatenate([p.states for p in parts]),
            np.concatenate([p.actions for p in parts]),
            np.concatenate([p.q for p in parts]),
            np.concatenate([p.searched for p in parts]),
            np.concatenate([[0], np.cumsum(sizes)]),
            np.concatenate([p.game_of for p in parts]),
        )


def label_shard(
    scorer: GameScorer, rules: Ruleset, players: int, first: int, games: int, cfg: ExpertConfig, weights: str | None
) -> Labels:
    """Games ``first`` to ``first + games - 1`` of the run, played by the network and searched in a share of
    their decisions (each game fixed by its number and the run's seed)."""
    net = scorer.net
    states: list[np.ndarray] = []
    rows: list[np.ndarray] = []
    qs: list[np.ndarray] = []
    found: list[np.ndarray] = []
    sizes: list[int] = []
    game_ids: list[int] = []
    for gid in range(first, first + games):
        g = Game(rules, players=players, seed=cfg.seed * 1_000_003 + gid)
        rng = random.Random(f"{cfg.seed}/{gid}")
        bot = InferenceSearchBot(
            seed=rng.randrange(2**32), iterations=cfg.iterations, playout="learned", utility=scorer.utility,
            weights=weights,
        ).adjust_plan(halving=False, deals_together=LABEL_DEALS_TOGETHER or cfg.iterations)  # fmt: skip
        while not g.is_over:
            legal = g.legal_plays()
            if len(legal) == 1:
                g.play(legal[0])
                continue
            block, actions, offsets = scorer.encode_many([g], [legal])
            q = net.q_batch(block, actions, offsets)
            if rng.random() < cfg.share:
                bot.choose_play(rules, g.observe(g.to_move))
                where = {p.mask: i for i, p in reversed(list(enumerate(legal)))}
                values = np.full(len(legal), np.nan, dtype=np.float32)
                for mask, (value, _deals) in bot.last_values.items():
                    values[where[mask]] = value
                if np.count_nonzero(~np.isnan(values)) >= 2:  # a ranking to learn
                    states.append(block[0].astype(np.float16))
                    rows.append(actions.astype(np.float16))
                    qs.append(q.astype(np.float32))
                    found.append(values)
                    sizes.append(len(legal))
                    game_ids.append(gid)
            pick = rng.randrange(len(legal)) if rng.random() < cfg.explore else int(np.argmax(q))
            g.play(legal[pick])
    empty = (0, scorer.states.size)
    return Labels(
        np.stack(states) if states else np.zeros(empty, dtype=np.float16),
        np.concatenate(rows) if rows else np.zeros((0, scorer.actions.size), dtype=np.float16),
        np.concatenate(qs) if qs else np.zeros(0, dtype=np.float32),
        np.concatenate(found) if found else np.zeros(0, dtype=np.float32),
        np.concatenate([[0], np.cumsum(sizes)]),
        game_ids,
        (first, games),
    )


def _span(f: Any) -> tuple[int, int] | None:
    if "span" not in f.files:
        return None
    first, games = (int(x) for x in f["span"])
    return None if games < 0 else (first, games)


def targets(data: Labels, scale: float) -> tuple[np.ndarray, np.ndarray]:
    """Each row's target (the network's units) and weight before ``anchor``: the search's value centred on the
    network's mean over the searched rows of its decision, or the network's own value where it did not search."""
    target = data.q.copy()
    searched = ~np.isnan(data.searched)
    for lo, hi in zip(data.offsets[:-1], data.offsets[1:], strict=True):
        mask = searched[lo:hi]
        v = data.searched[lo:hi][mask] / scale
        target[lo:hi][mask] = v - v.mean() + data.q[lo:hi][mask].mean()
    return target, searched


def _batch(data: Labels, target: np.ndarray, weight: np.ndarray, decisions: np.ndarray) -> tuple[torch.Tensor, ...]:
    starts, ends = data.offsets[decisions], data.offsets[decisions + 1]
    rows = np.concatenate([np.arange(s, e) for s, e in zip(starts, ends, strict=True)])
    segment = np.repeat(np.arange(len(decisions)), ends - starts)
    return (
        torch.from_numpy(data.states[decisions].astype(np.float32)),
        torch.from_numpy(data.actions[rows].astype(np.float32)),
        torch.from_numpy(segment),
        torch.from_numpy(target[rows]),
        torch.from_numpy(weight[rows]),
    )


def _measure(
    model: QNet, data: Labels, target: np.ndarray, weight: np.ndarray, decisions: np.ndarray, batch: int
) -> tuple[float, float, float]:
    """Weighted squared error over ``decisions``' rows, the share whose best searched candidate by the model is
    the search's, and the search's mean regret of the model's candidate (points)."""
    loss = total = agree = regret = 0.0
    with torch.no_grad():
        for i in range(0, len(decisions), batch):
            part = decisions[i : i + batch]
            s, a, seg, t, w = _batch(data, target, weight, part)
            pred = model.score(s, a, seg).numpy()
            loss += float(np.sum(w.numpy() * (pred - t.numpy()) ** 2))
            total += float(w.sum())
            at = 0
            for d in part:
                n = int(data.offsets[d + 1] - data.offsets[d])
                found = data.searched[data.offsets[d] : data.offsets[d + 1]]
                mask = ~np.isnan(found)
                mine = np.where(mask, pred[at : at + n], -np.inf)
                best, chosen = int(np.nanargmax(found)), int(np.argmax(mine))
                agree += int(found[chosen] == found[best])
                regret += float(found[best] - found[chosen])
                at += n
    count = max(len(decisions), 1)
    return loss / max(total, 1e-12), agree / count, regret / count


def expert(
    out: str | Path,
    config: ExpertConfig | None = None,
    weights: str = "shipped",
    rules: str | None = None,
    players: int | None = None,
    log: Callable[[str], None] | None = None,
    labels: str | Path | None = None,
) -> ExpertResult:
    """Label (resuming) and fit; write ``OUT/expert.npz`` and ``OUT/result.json``. ``weights``: a network's
    file, or ``shipped`` for the package's for ``rules`` and ``players``. ``labels``: another run's directory
    whose ``labels/`` are read and added to (the same settings), so that several fits share one labelling."""
    cfg = config or ExpertConfig()
    check_settings(
        (
            ("games", cfg.games, cfg.games >= 2, "be 2 or more, so that one can be held out"),
            ("iterations", cfg.iterations, cfg.iterations >= 1, "be 1 or more"),
            ("share", cfg.share, 0 < cfg.share <= 1, "lie in (0, 1]"),
            ("explore", cfg.explore, 0 <= cfg.explore <= 1, "lie in [0, 1]"),
            ("shard_games", cfg.shard_games, cfg.shard_games >= 1, "be 1 or more"),
            ("epochs", cfg.epochs, cfg.epochs >= 1, "be 1 or more"),
            ("holdout", cfg.holdout, 0 < cfg.holdout <= 0.5, "lie in (0, 0.5]"),
            ("anchor", cfg.anchor, cfg.anchor >= 0, "be 0 or more"),
            ("workers", cfg.workers, cfg.workers >= 1, "be 1 or more"),
            ("select", cfg.select, cfg.select in SELECT, f"be one of {', '.join(SELECT)}"),
        )
    )
    say = log or (lambda _m: None)
    torch.manual_seed(cfg.seed)
    torch.set_num_threads(cfg.threads)
    net, label, file = _network(weights, rules, players)
    table_rules = rules_learned(net.meta)
    if table_rules is None:
        raise BigTwoError(f"weights {label}: the rules they were trained for do not read back")
    n = int(net.meta["players"])
    scorer = scorer_of(net, table_rules, n, label)
    home = Path(labels if labels is not None else out)
    if labels is not None and not (home / "labels.json").is_file():
        raise BigTwoError(f"labels {labels}: no run's labels there (it has no labels.json); label with --out first")
    folder = home / "labels"
    folder.mkdir(parents=True, exist_ok=True)
    Path(out).mkdir(parents=True, exist_ok=True)
    _check_same_run(home, cfg, label, network_digest(net))
    shards = [folder / f"shard-{k:05d}.npz" for k in range(math.ceil(cfg.games / cfg.shard_games))]
    missing = [k for k, path in enumerate(shards) if _short(path, k, cfg)]
    t0 = time.perf_counter()
    jobs = [(weights, rules, players, k, cfg, str(shards[k])) for k in missing]
    if cfg.workers > 1 and len(jobs) > 1:
        with ProcessPoolExecutor(min(cfg.workers, len(jobs)), mp_context=get_context("spawn")) as pool:
            for done, k in enumerate(pool.map(_label_job, jobs), 1):
                say(_labelled(k, cfg, done, len(jobs), time.perf_counter() - t0))
    else:
        for done, k in enumerate(missing, 1):
            _label_and_save(scorer, table_rules, n, k, cfg, file, shards[k])
            say(_labelled(k, cfg, done, len(jobs), time.perf_counter() - t0))
    labelled = time.perf_counter() - t0 if jobs else 0.0
    data = Labels.joined([Labels.load(path) for path in shards]).only_games_before(cfg.games)
    held_games = max(1, round(cfg.holdout * cfg.games))
    held = np.flatnonzero(data.game_of >= cfg.games - held_games)
    train = np.flatnonzero(data.game_of < cfg.games - held_games)
    if not len(train) or not len(held):
        raise BigTwoError(f"{len(data)} searched decisions: too few to hold some out (more games, or a larger share)")
    result = ExpertResult(label, cfg.games, len(data), len(held), round(labelled, 1))
    say(f"{len(data):,} searched decisions, {len(held):,} of them held out")
    target, searched = targets(data, scorer.scale)
    weight = np.where(searched, 1.0, cfg.anchor).astype(np.float32)
    hidden = tuple(int(h) for h in net.meta["hidden"])
    model = QNet(scorer.states.size, scorer.actions.size, hidden)
    model.load_layers(net.layers())
    loss, agreement, regret = _measure(model, data, target, weight, held, 4 * cfg.batch)
    result.epochs.append(ExpertEpoch(0, math.nan, loss, agreement, regret, 0.0))
    say(f"epoch 0: held out {loss:.5f}; the search's choice {agreement:.1%}, its regret {regret:.3f} points")
    best, best_score = model.layers(), _score(cfg.select, agreement, regret)
    opt = torch.optim.Adam(model.parameters(), lr=cfg.lr)
    gen = np.random.default_rng(cfg.seed)
    for epoch in range(1, cfg.epochs + 1):
        t1 = time.perf_counter()
        order = gen.permutation(train)
        total = count = 0.0
        for i in range(0, len(order), cfg.batch):
            s, a, seg, t, w = _batch(data, target, weight, order[i : i + cfg.batch])
            step = torch.sum(w * (model.score(s, a, seg) - t) ** 2) / torch.sum(w)
            opt.zero_grad()
            step.backward()
            opt.step()
            total += step.item() * float(w.sum())
            count += float(w.sum())
        loss, agreement, regret = _measure(model, data, target, weight, held, 4 * cfg.batch)
        row = ExpertEpoch(epoch, total / max(count, 1e-12), loss, agreement, regret, round(time.perf_counter() - t1, 1))
        result.epochs.append(row)
        say(
            f"epoch {epoch}: loss {row.train_loss:.5f}, held out {loss:.5f}; the search's choice {agreement:.1%}, "
            f"its regret {regret:.3f} points ({row.seconds:.0f} s)"
        )
        score = _score(cfg.select, agreement, regret)
        if score > best_score:
            best, best_score, result.best_epoch = model.layers(), score, epoch
    meta = dict(net.meta)
    meta.pop("format", None)
    meta.pop("state_size", None)
    meta.pop("layers", None)
    meta.update(expert_from=label, expert=asdict(cfg), expert_decisions=len(data))
    target_dir = Path(out)
    QPolicy(best, scorer.states.size, meta).save(target_dir / "expert.npz")
    (target_dir / "result.json").write_text(json.dumps(result.to_dict(), indent=1) + "\n")
    return result


def _score(select: str, agreement: float, regret: float) -> float:
    """An epoch's merit by the run's rule (higher is better; an epoch must beat the best so far to be kept)."""
    return -regret if select == "regret" else agreement


def _label_job(job: tuple[str, str | None, int | None, int, ExpertConfig, str]) -> int:
    """Label shard ``k`` and save it (in a worker process, or here); returns ``k``."""
    weights, rules, players, k, cfg, path = job
    net, label, file = _network(weights, rules, players)
    table_rules = rules_learned(net.meta)
    assert table_rules is not None  # checked before any job was made
    n = int(net.meta["players"])
    _label_and_save(scorer_of(net, table_rules, n, label), table_rules, n, k, cfg, file, Path(path))
    return k


def _label_and_save(
    scorer: GameScorer, rules: Ruleset, players: int, k: int, cfg: ExpertConfig, file: str | None, path: Path
) -> None:
    first, games = _shard_span(k, cfg)
    label_shard(scorer, rules, players, first, games, cfg, file).save(path)


def _shard_span(k: int, cfg: ExpertConfig) -> tuple[int, int]:
    """Shard ``k``'s first game and number of games in a run of ``cfg.games``."""
    first = k * cfg.shard_games
    return first, min(cfg.shard_games, cfg.games - first)


def _short(path: Path, k: int, cfg: ExpertConfig) -> bool:
    """Whether shard ``k`` must be labelled (again): absent, or cut short by an earlier run of fewer games (its
    games are labelled again with the rest: each game's labels are fixed by its number). A shard saved before
    spans were recorded counts as whole."""
    if not path.is_file():
        return True
    span = Labels.games_in(path)
    return span is not None and span[1] < _shard_span(k, cfg)[1]


def _labelled(k: int, cfg: ExpertConfig, done: int, jobs: int, seconds: float) -> str:
    first, games = _shard_span(k, cfg)
    last = first + games
    return f"games {first + 1:,} to {last:,} labelled ({done} of {jobs} shards, {seconds:.0f} s)"


def _check_same_run(out: Path, cfg: ExpertConfig, label: str, digest: str) -> None:
    """Refuse to add shards to labels another run's settings made (``OUT/labels.json`` records them). The
    teacher is its weights' digest: ``shipped`` names another network once the package ships a new one, and
    the same network read from another file is the same teacher. (Labels recorded before digests were name
    their teacher by its name alone.)"""
    record = out / "labels.json"
    settings = {k: getattr(cfg, k) for k in ("iterations", "share", "explore", "shard_games", "seed")}
    mine = {"teacher": label, "teacher_digest": digest, **settings}
    if record.is_file():
        theirs = json.loads(record.read_text())
        changed = [f"{k} {theirs.get(k)!r} (now {v!r})" for k, v in settings.items() if theirs.get(k) != v]
        was = theirs.get("teacher_digest")
        if (was or label) != (digest if was else theirs.get("teacher")):
            weights = f" (weights {was}, now {digest})" if was else ""
            changed.insert(0, f"another teacher: {theirs.get('teacher')}, now {label}{weights}")
        if changed:
            raise BigTwoError(f"{out} holds labels made otherwise: {', '.join(changed)}; give another --out")
    else:
        record.write_text(json.dumps(mine, indent=1) + "\n")


def _network(weights: str, rules: str | None, players: int | None) -> tuple[QPolicy, str, str | None]:
    """The network, its name for messages and records, and its file for the search (None: the shipped one)."""
    net, label = named_network(weights, rules, players, "weights")
    return net, label, None if weights == "shipped" else weights


__all__ = ["ExpertConfig", "ExpertResult", "Labels", "expert", "label_shard", "targets"]
