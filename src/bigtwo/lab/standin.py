"""A learned stand-in for ``search``: the values its play-outs estimate, regressed from single play-outs.

``search`` plays the best of a few candidates (its heuristic's best four and the pass, or the move that goes out)
by the mean points of heuristic play-outs on deals sampled uniformly from what it has seen. Its choice is the
argmax of a noisy estimate of one function of its position: V(s, a), that mean over every deal. A network
fitted to its *choices* learns that argmax through the noise of a whole search a label (``bigtwo lab imitate``:
28,000 labels took 24 minutes of two cores and agreed with it no better than the heuristic's ten fitted
weights). V itself can be learned directly and cheaply: one uniform deal, one play-out of each candidate on it,
is an unbiased sample of every candidate's V at once, for a millisecond or so a play-out.

:func:`collect` walks games played by a field of quick bots (the heuristic and the learned network, a seat
each at random, with a little exploration), and at every decision with two or more candidates records the
seat's state vector, the candidates' action vectors (:mod:`bigtwo.bots.features`) and one play-out's points
for each candidate on one sampled deal, exactly as ``search`` samples and plays out. :func:`fit` trains the
learned bot's Q(s, a) network shape on them by least squares, on the points themselves and on each candidate's
points less the decision's mean (the part the choice depends on, from which the deal's luck, shared by all the
candidates, cancels). The result is learned-bot weights (``meta["target"] == "search-values"``, fitted
among ``candidates``): ``learned(weights=FILE)`` plays the stand-in (the argmax over the same candidates), the
self-play trainer can seat it as an opponent (``bigtwo train --opponent``), and ``isearch(opponent_weights=FILE)``
moves the other seats of its play-outs with it.

Run::

    bigtwo lab standin collect runs/standin/data --minutes 60 --workers 2
    bigtwo lab standin fit runs/standin/data/*.npz --out runs/standin/fit --init-from shipped
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_EXCEPTION, ProcessPoolExecutor, wait
from dataclasses import asdict, dataclass, field
from multiprocessing import Manager
from pathlib import Path
from typing import Any

import numpy as np

from bigtwo.bots.features import FEATURES_VERSION, ActionEncoder, StateEncoder, info_from_observation
from bigtwo.bots.heuristic import policy_for, search_candidates
from bigtwo.bots.learned import QPolicy, scorer_for
from bigtwo.bots.playouts import rollout
from bigtwo.bots.sampling import DealSampler, determinised
from bigtwo.bots.view import engine_of, played_in, view_from_observation
from bigtwo.combos.play import Play
from bigtwo.errors import BigTwoError
from bigtwo.game import Game
from bigtwo.rules.ruleset import Ruleset, load_rules
from bigtwo.utilities import UTILITIES, round_utility

STANDIN_FORMAT = "bigtwo-search-values/1"
TARGET = "search-values"  # ``meta["target"]`` of the fitted weights
PROGRESS_SECONDS = 0.5  # how often collect reports its counts


@dataclass
class CollectConfig:
    """What :func:`collect` plays and records."""

    rules: str = "classic"
    players: int | None = None
    minutes: float | None = None  # stop after this much wall time (or ``positions``, whichever first)
    positions: int | None = None
    seed: int = 0
    candidates: int = 4  # the search's: its heuristic's best few and the pass
    utility: str = "cards"  # the points the search plays out for
    learned_share: float = 0.5  # the share of seats the learned network plays (where the package has one)
    explore: float = 0.03  # the share of moves played at random, for positions the bots would not reach
    history: int = 8  # recent actions in the state vector (the learned bot's)
    shard_positions: int = 50_000


@dataclass
class Collected:
    """What one :func:`collect` wrote: its shard files, games and positions."""

    files: list[str] = field(default_factory=list)
    games: int = 0
    positions: int = 0
    playouts: int = 0
    seconds: float = 0.0


def _check_collect(cfg: CollectConfig) -> tuple[Ruleset, int]:
    rules = load_rules(cfg.rules)
    n = rules.players if cfg.players is None else cfg.players
    if cfg.minutes is None and cfg.positions is None:
        raise BigTwoError("say how much to collect: minutes or positions")
    for name, value, ok, rule in (
        ("minutes", cfg.minutes, cfg.minutes is None or cfg.minutes > 0, "be positive"),
        ("positions", cfg.positions, cfg.positions is None or cfg.positions >= 1, "be 1 or more"),
        ("candidates", cfg.candidates, cfg.candidates >= 1, "be 1 or more"),
        ("learned_share", cfg.learned_share, 0 <= cfg.learned_share <= 1, "lie in [0, 1]"),
        ("explore", cfg.explore, 0 <= cfg.explore < 1, "lie in [0, 1)"),
        ("shard_positions", cfg.shard_positions, cfg.shard_positions >= 1, "be 1 or more"),
    ):
        if not ok:
            raise BigTwoError(f"{name}={value}: must {rule}")
    if cfg.utility not in UTILITIES:
        raise BigTwoError(f"utility {cfg.utility!r} is not one of {', '.join(UTILITIES)}")
    return rules, n


def _check_free(out: Path, seeds: Sequence[int]) -> None:
    """Refuse to write where shards of the same seeds already are: a second collection with the same seed would
    overwrite the first's files with the same positions' values."""
    taken = sorted(p.name for seed in seeds for p in out.glob(f"{seed}-[0-9][0-9][0-9].npz"))
    if taken:
        shown = ", ".join(taken[:3]) + (f" and {len(taken) - 3} more" if len(taken) > 3 else "")
        raise BigTwoError(
            f"{out} already holds shards of seed {seeds[0] if len(seeds) == 1 else f'{seeds[0]} to {seeds[-1]}'} "
            f"({shown}): collect with another seed, or into another directory"
        )


def table_meta(rules: Ruleset, players: int, cfg: CollectConfig, sizes: tuple[int, int]) -> dict[str, Any]:
    """What a shard's vectors mean: the table, the features, the candidates and the points played out for."""
    return {
        "format": STANDIN_FORMAT,
        "rules": rules.name,
        "rules_settings": rules.settings(),
        "players": players,
        "history": cfg.history,
        "features_version": FEATURES_VERSION,
        "state_size": sizes[0],
        "action_size": sizes[1],
        "candidates": cfg.candidates,
        "utility": cfg.utility,
    }


class _Shard:
    """Rows gathered for one shard file."""

    def __init__(self) -> None:
        self.states: list[np.ndarray] = []
        self.actions: list[np.ndarray] = []
        self.points: list[float] = []
        self.counts: list[int] = []

    def write(self, path: Path, meta: dict[str, Any]) -> None:
        np.savez_compressed(
            path,
            states=np.asarray(self.states, dtype=np.float16),
            actions=np.concatenate(self.actions).astype(np.float16),
            points=np.asarray(self.points, dtype=np.float32),
            counts=np.asarray(self.counts, dtype=np.int16),
            meta=np.frombuffer(json.dumps(meta).encode(), dtype=np.uint8),
        )


def collect(
    cfg: CollectConfig,
    out: str | Path,
    on_shard: Callable[[str, int], None] | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> Collected:
    """Play games and record search's candidates with one play-out of each (module docstring) into shards
    ``out/{seed}-{k:03d}.npz``; returns what was written. ``progress(positions, play-outs)`` hears the counts so
    far about every half second. Shards of the same seed already in ``out`` are refused, never overwritten."""
    rules, n = _check_collect(cfg)
    out = Path(out)
    _check_free(out, [cfg.seed])
    out.mkdir(parents=True, exist_ok=True)
    rng = random.Random(cfg.seed)
    net = scorer_for(rules, n) if cfg.learned_share > 0 else None
    states = StateEncoder(rules, n, cfg.history)
    actions = ActionEncoder(rules, n)
    meta = table_meta(rules, n, cfg, (states.size, actions.size)) | {"seed": cfg.seed}
    done = Collected()
    shard = _Shard()
    t0 = time.perf_counter()
    told = t0

    def flush() -> None:
        nonlocal shard
        if not shard.counts:
            return
        path = out / f"{cfg.seed}-{len(done.files):03d}.npz"
        shard.write(path, meta)
        done.files.append(str(path))
        if on_shard is not None:
            on_shard(str(path), len(shard.counts))
        shard = _Shard()

    def enough() -> bool:
        if cfg.positions is not None and done.positions >= cfg.positions:
            return True
        return cfg.minutes is not None and time.perf_counter() - t0 >= cfg.minutes * 60

    while not enough():
        g = Game(rules, players=n, seed=rng.getrandbits(48))
        by_network = [net is not None and rng.random() < cfg.learned_share for _ in range(n)]
        done.games += 1
        while not g.is_over and not enough():
            seat = g.to_move
            legal = g.legal_plays()
            if len(legal) == 1:
                g.play(legal[0])
                continue
            got = position_values(g, cfg.candidates, cfg.utility, rng, states, actions)
            if got is not None:
                state, rows, points, ranked = got
                shard.states.append(state)
                shard.actions.append(rows)
                shard.points += points
                shard.counts.append(len(points))
                done.positions += 1
                done.playouts += len(points)
                if len(shard.counts) >= cfg.shard_positions:
                    flush()
                if progress is not None and time.perf_counter() - told >= PROGRESS_SECONDS:
                    told = time.perf_counter()
                    progress(done.positions, done.playouts)
            else:
                ranked = None
            if rng.random() < cfg.explore:
                move = rng.choice(legal)
            elif by_network[seat]:
                assert net is not None
                move = net.act(g)
            else:
                move = ranked[0][1] if ranked is not None else _heuristic_first(g)
            g.play(move)
    flush()
    done.seconds = time.perf_counter() - t0
    if progress is not None:
        progress(done.positions, done.playouts)
    return done


def position_values(
    game: Game, candidates: int, utility: str, rng: random.Random, states: StateEncoder, actions: ActionEncoder
) -> tuple[np.ndarray, np.ndarray, list[float], list[tuple[float, Play]]] | None:
    """What the seat to move in ``game`` records: its state vector, the action vectors of search's candidates
    (its heuristic's best ``candidates`` and the pass, or the move that goes out), one play-out's points of
    each on one deal sampled from the seat's observation as search samples, and the heuristic's ranking; None
    where the seat has one candidate (or no sampled deal agrees with the table). Nothing the seat cannot see
    is read: the deal is sampled from its observation, and the state vector is the one it would build."""
    rules = game.rules
    seat = game.to_move
    obs = game.observe(seat)
    legal = game.legal_plays()
    policy = policy_for(engine_of(rules, obs))
    ranked = policy.scores(view_from_observation(rules, obs, legal))
    cands = search_candidates(ranked, candidates)
    if len(cands) < 2:
        return None
    base = determinised(rules, obs, DealSampler(rules, obs).sample(rng), rng)
    if base is None:
        return None
    played = played_in(base)
    points = []
    for a in cands:
        line = base.clone()
        made = line.play(a)
        rollout(line, policy, played | made.mask)
        assert line.result is not None
        points.append(round_utility(line.result, utility)[seat])
    state = states.encode(info_from_observation(rules, obs, states.k))
    return state, actions.encode(obs.hand, cands), points, ranked


def _heuristic_first(game: Game) -> Play:
    """The heuristic's first choice for the seat to move."""
    obs = game.observe(game.to_move)
    legal = game.legal_plays()
    return policy_for(engine_of(game.rules, obs)).scores(view_from_observation(game.rules, obs, legal))[0][1]


def check_collection(cfg: CollectConfig, out: str | Path, workers: int = 1) -> None:
    """Refuse, in words and before anything is played, what :func:`collect_parallel` would refuse: settings out
    of range, a worker count below one, and shards of the workers' seeds already in ``out``."""
    if workers < 1:
        raise BigTwoError(f"workers={workers}: must be 1 or more")
    _check_collect(cfg)
    _check_free(Path(out), [cfg.seed + w for w in range(workers)])


def _collect_one(job: tuple[CollectConfig, str, Any]) -> Collected:
    cfg, out, queue = job
    if queue is None:
        return collect(cfg, out)
    return collect(cfg, out, progress=lambda positions, playouts: queue.put((cfg.seed, positions, playouts)))


def collect_parallel(
    cfg: CollectConfig, out: str | Path, workers: int, progress: Callable[[int, int], None] | None = None
) -> Collected:
    """:func:`collect` in ``workers`` processes, seeds ``seed``, ``seed + 1``, ... (each its own shards), the
    positions shared out among them; ``progress(positions, play-outs)`` hears the workers' counts summed."""
    check_collection(cfg, out, workers)
    if workers == 1:
        return collect(cfg, out, progress=progress)
    share = None if cfg.positions is None else -(-cfg.positions // workers)
    configs = [CollectConfig(**{**asdict(cfg), "seed": cfg.seed + w, "positions": share}) for w in range(workers)]
    total = Collected()
    with Manager() as manager, ProcessPoolExecutor(workers) as pool:
        queue = manager.Queue() if progress is not None else None
        futures = [pool.submit(_collect_one, (c, str(out), queue)) for c in configs]
        counts: dict[int, tuple[int, int]] = {}
        while True:
            finished = all(f.done() for f in futures)
            while queue is not None and not queue.empty():
                seed, positions, playouts = queue.get()
                counts[seed] = (positions, playouts)
            if progress is not None and counts:
                progress(sum(c[0] for c in counts.values()), sum(c[1] for c in counts.values()))
            if finished:
                break
            wait(futures, timeout=PROGRESS_SECONDS, return_when=FIRST_EXCEPTION)
        for f in futures:
            got = f.result()
            total.files += got.files
            total.games += got.games
            total.positions += got.positions
            total.playouts += got.playouts
            total.seconds = max(total.seconds, got.seconds)
    return total


# --- reading and fitting -------------------------------------------------------------------------------------


@dataclass
class SearchValues:
    """Collected shards read together: ``states`` a position, ``actions``/``points`` a candidate, ``offsets`` where
    each position's candidates start (one more entry than positions)."""

    meta: dict[str, Any]
    states: np.ndarray
    actions: np.ndarray
    points: np.ndarray
    offsets: np.ndarray

    def __len__(self) -> int:
        return len(self.states)


def read_shard(path: str | Path) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
    """One shard's meta and arrays, refused in words if it is not one."""
    try:
        with np.load(path) as data:
            arrays = {k: data[k] for k in data.files}
    except (OSError, ValueError) as e:
        raise BigTwoError(f"{path}: not a file of search values ({e})") from None
    if "meta" not in arrays:
        raise BigTwoError(f"{path}: not a file of search values (bigtwo lab standin collect writes them)")
    meta = json.loads(arrays.pop("meta").tobytes().decode())
    if meta.get("format") != STANDIN_FORMAT:
        raise BigTwoError(f"{path}: format {meta.get('format')!r}, this version reads {STANDIN_FORMAT!r}")
    return meta, arrays


_SAME = ("rules_settings", "players", "history", "features_version", "candidates", "utility")


def read_values(paths: Sequence[str | Path]) -> SearchValues:
    """Shards of one table read together (a shard of another table, features or candidates is refused)."""
    if not paths:
        raise BigTwoError("no files of search values given")
    metas: list[dict[str, Any]] = []
    parts: list[dict[str, np.ndarray]] = []
    for p in paths:
        meta, arrays = read_shard(p)
        if metas:
            differ = [k for k in _SAME if meta.get(k) != metas[0].get(k)]
            if differ:
                raise BigTwoError(f"{p} was collected with other {', '.join(differ)} than {paths[0]}")
        metas.append(meta)
        parts.append(arrays)
    counts = np.concatenate([a["counts"] for a in parts]).astype(np.int64)
    offsets = np.concatenate([[0], np.cumsum(counts)])
    meta = {k: v for k, v in metas[0].items() if k != "seed"} | {"seeds": [m.get("seed") for m in metas]}
    return SearchValues(
        meta,
        np.concatenate([a["states"] for a in parts]),
        np.concatenate([a["actions"] for a in parts]),
        np.concatenate([a["points"] for a in parts]),
        offsets,
    )


@dataclass
class FitConfig:
    """How :func:`fit` trains the stand-in."""

    epochs: int = 3
    lr: float = 3e-4
    batch_size: int = 256  # positions a gradient step
    holdout: float = 0.05  # the share of positions held out to measure the fit
    hidden: tuple[int, ...] = (512, 512, 256)
    init_from: str | None = None  # a network to start from (a .npz, a checkpoint, or "shipped")
    reward_scale: float = 13.0  # points a unit of the network's values, as the learned bot's
    seed: int = 0


@dataclass
class FitEpoch:
    """One epoch's figures on the held-out positions: squared errors in points squared, of the points and of
    each candidate's points less its decision's mean, and the share of the latter's variance explained."""

    epoch: int
    loss: float
    error: float
    relative_error: float
    explained: float
    seconds: float


@dataclass
class FitResult:
    config: dict[str, Any]
    files: list[str]
    positions: int
    held_out: int
    relative_variance: float  # of the held-out candidates' points less their decision's mean
    epochs: list[FitEpoch] = field(default_factory=list)
    kept: int = 0

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def fit(
    paths: Sequence[str | Path],
    out: str | Path,
    config: FitConfig | None = None,
    on_epoch: Callable[[FitEpoch], None] | None = None,
) -> FitResult:
    """Fit the stand-in to the shards in ``paths``; write ``out/standin.npz`` (the epoch with the smallest
    held-out relative error, as learned-bot weights) and ``out/report.json``; return the figures."""
    import torch

    from bigtwo.lab.networks import check_settings, named_network
    from bigtwo.rl.dmc import TrainConfig, _load_start, _table_of
    from bigtwo.rl.networks import QNet

    cfg = config or FitConfig()
    check_settings(
        (
            ("epochs", cfg.epochs, cfg.epochs >= 1, "be 1 or more"),
            ("batch_size", cfg.batch_size, cfg.batch_size >= 1, "be 1 or more"),
            ("holdout", cfg.holdout, 0 < cfg.holdout < 1, "lie between 0 and 1"),
            ("lr", cfg.lr, cfg.lr > 0, "be positive"),
            ("reward_scale", cfg.reward_scale, cfg.reward_scale > 0, "be positive"),
        )
    )
    data = read_values([str(p) for p in paths])
    meta = data.meta
    rng = np.random.default_rng(cfg.seed)
    torch.manual_seed(cfg.seed)
    held = rng.random(len(data)) < cfg.holdout
    train_idx, held_idx = np.flatnonzero(~held), np.flatnonzero(held)
    if not len(train_idx) or not len(held_idx):
        raise BigTwoError(f"{len(data)} positions: too few to hold out {cfg.holdout:.0%}")
    states = torch.from_numpy(data.states.astype(np.float32))
    acts = torch.from_numpy(data.actions.astype(np.float32))
    targets = torch.from_numpy(data.points / cfg.reward_scale)
    offsets = data.offsets
    counts = np.diff(offsets)

    net = QNet(int(meta["state_size"]), int(meta["action_size"]), cfg.hidden)
    if cfg.init_from:
        run = TrainConfig(rules=meta["rules"], players=meta["players"], history=meta["history"])
        start = cfg.init_from
        if start == "shipped":
            policy, _ = named_network("shipped", meta["rules"], meta["players"], "init_from")
            net.load_layers(policy.layers())
        else:
            try:
                _load_start(net, start, _table_of(run))
            except (KeyError, RuntimeError) as e:
                raise BigTwoError(f"init_from {start}: not a network of this shape ({e})") from None
            except ValueError as e:
                raise BigTwoError(str(e)) from None
    opt = torch.optim.Adam(net.parameters(), lr=cfg.lr)

    def batch(idx: np.ndarray) -> tuple[Any, Any, Any, Any]:
        rows = np.concatenate([np.arange(offsets[i], offsets[i + 1]) for i in idx])
        seg = torch.from_numpy(np.repeat(np.arange(len(idx)), counts[idx]))
        return states[idx], acts[rows], seg, targets[rows]

    def errors(q: Any, t: Any, seg: Any, n: int) -> tuple[Any, Any]:
        """The squared error of the values, and of the values less their decision's mean."""
        ones = torch.ones_like(q)
        size = torch.zeros(n).index_add_(0, seg, ones)
        dq = q - (torch.zeros(n).index_add_(0, seg, q) / size)[seg]
        dt = t - (torch.zeros(n).index_add_(0, seg, t) / size)[seg]
        return ((q - t) ** 2).mean(), ((dq - dt) ** 2).mean()

    scale2 = cfg.reward_scale**2
    # the variance of the held-out candidates' points about their decision's mean: a network that gives every
    # candidate of a decision the same value leaves all of it unexplained
    _s, _a, seg_, t_ = batch(held_idx)
    _, rel_var = errors(torch.zeros_like(t_), t_, seg_, len(held_idx))
    relative_variance = float(rel_var) * scale2
    result = FitResult(asdict(cfg), [str(p) for p in paths], len(data), len(held_idx), relative_variance)

    def measure(epoch: int, loss: float, t0: float) -> FitEpoch:
        net.eval()
        err = rel = 0.0
        with torch.no_grad():
            for i in range(0, len(held_idx), 4096):
                idx = held_idx[i : i + 4096]
                s, a, seg, t = batch(idx)
                e, r = errors(net.score(s, a, seg), t, seg, len(idx))
                share = len(seg) / len(t_)
                err += float(e) * share
                rel += float(r) * share
        net.train()
        got = FitEpoch(
            epoch, loss, err * scale2, rel * scale2, 1 - rel * scale2 / relative_variance, time.perf_counter() - t0
        )
        result.epochs.append(got)
        if on_epoch is not None:
            on_epoch(got)
        return got

    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    t0 = time.perf_counter()
    best = measure(0, float("nan"), t0).relative_error
    _export(net, meta, cfg, result, out)
    for epoch in range(1, cfg.epochs + 1):
        order = train_idx[rng.permutation(len(train_idx))]
        losses = []
        for i in range(0, len(order), cfg.batch_size):
            idx = order[i : i + cfg.batch_size]
            s, a, seg, t = batch(idx)
            err, rel = errors(net.score(s, a, seg), t, seg, len(idx))
            loss = err + rel
            opt.zero_grad()
            loss.backward()
            opt.step()
            losses.append(float(loss.detach()))
        got = measure(epoch, float(np.mean(losses)), t0)
        if got.relative_error < best:
            best = got.relative_error
            result.kept = epoch
            _export(net, meta, cfg, result, out)
    (out / "report.json").write_text(json.dumps(result.to_dict(), indent=2) + "\n")
    return result


def _export(net: Any, meta: dict[str, Any], cfg: FitConfig, result: FitResult, out: Path) -> None:
    layers = [
        (w.astype(np.float16).astype(np.float32), b.astype(np.float16).astype(np.float32)) for w, b in net.layers()
    ]
    kept = result.epochs[-1]
    QPolicy(
        layers,
        int(meta["state_size"]),
        {
            "rules": meta["rules"],
            "rules_settings": meta["rules_settings"],
            "players": meta["players"],
            "history": meta["history"],
            "hidden": list(cfg.hidden),
            "features_version": FEATURES_VERSION,
            "target": TARGET,
            "candidates": meta["candidates"],
            "utility": meta["utility"],
            "reward_scale": cfg.reward_scale,
            "standin_of": f"search(candidates={meta['candidates']}, utility={meta['utility']!r})",
            "positions": result.positions,
            "relative_error": kept.relative_error,
            "explained": kept.explained,
            "seed": cfg.seed,
        },
    ).save(out / "standin.npz")


__all__ = [
    "CollectConfig",
    "Collected",
    "FitConfig",
    "FitEpoch",
    "FitResult",
    "SearchValues",
    "collect",
    "collect_parallel",
    "fit",
    "read_values",
]
