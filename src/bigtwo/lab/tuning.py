"""Tune the heuristic's weights for strength: the points it takes from three copies of itself.

The heuristic's default weights were set by hand; :mod:`bigtwo.lab.fitting` fits them to another bot's
choices (a better prediction, weaker play). This module searches them for points instead. A candidate plays
a fixed set of duplicate deals, each once from every seat, against the heuristic with its own weights in the
other seats; the games are deterministic, so two candidates are compared on exactly the same games, and a
candidate is kept when its mean points a game beat the best so far. The search moves one weight at a time by a
Gaussian step (and tries the mirrored step when the first does not help): a (1+1) hill climb, seeded, so the
same command finds the same weights on any machine.

Points on the deals tuned on overstate the gain (the climb keeps lucky steps), so the command measures the
result on other deals, as a mean with a 95% t interval over deals (each deal's mean over its seat rotations:
the unit the games are paired in). Both deal sets are apart from the strength benchmark's.

Run::

    python -m bigtwo.lab.tuning OUT.json [--rules classic] [--deals 300] [--steps 600] [--holdout 1000]
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import random
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from bigtwo.arena.play import deal_seed
from bigtwo.arena.stats import mean_interval
from bigtwo.bots.fitted import TUNED_FORMAT
from bigtwo.bots.heuristic import DEFAULT_WEIGHTS, HeuristicPolicy, HeuristicWeights
from bigtwo.bots.playouts import rollout
from bigtwo.game import Game
from bigtwo.lab.fitting import LINEAR
from bigtwo.rules.ruleset import Ruleset, load_rules
from bigtwo.utilities import UTILITIES, round_utility

TRAIN_SEED, HOLDOUT_SEED = 7, 8  # the deal sets' seeds (the strength benchmark's is 2024, the standard one's 1515)
#: the weights the climb moves: every one but ``high_from`` (a card-rank threshold, not a weight)
TUNED = LINEAR


def deal_points(
    rules: Ruleset,
    players: int,
    weights: HeuristicWeights,
    seed: int,
    deals: Sequence[int],
    measure: str = "cards",
    opponents: HeuristicWeights = DEFAULT_WEIGHTS,
) -> list[float]:
    """For each deal, the mean points (``measure``) of the heuristic with ``weights`` over the rounds that
    seat it in each seat in turn, the other seats played with ``opponents``."""
    ev = rules.engine_for(players)
    mine = HeuristicPolicy(ev, weights=weights)
    others = mine if opponents == weights else HeuristicPolicy(ev, weights=opponents)
    out = []
    for d in deals:
        total = 0.0
        for seat in range(players):
            game = rollout(Game(rules, players=players, seed=deal_seed(seed, d)), others, mine=(seat, mine))
            assert game.result is not None
            total += round_utility(game.result, measure)[seat]
        out.append(total / players)
    return out


class Evaluator:
    """Mean points a game of a set of weights on a fixed deal set, the deals split over ``workers`` processes
    (the result does not depend on how many)."""

    def __init__(
        self, rules: Ruleset, players: int, seed: int, deals: int, measure: str = "cards", workers: int = 1
    ) -> None:
        self.args = (rules, players, seed, measure)
        self.deals = deals
        self.workers = max(1, workers)
        self._pool = ProcessPoolExecutor(self.workers) if self.workers > 1 else None

    def per_deal(self, weights: HeuristicWeights) -> list[float]:
        rules, players, seed, measure = self.args
        if self._pool is None:
            return deal_points(rules, players, weights, seed, range(self.deals), measure)
        chunks = [range(i, self.deals, self.workers) for i in range(self.workers)]
        jobs = [(rules, players, weights, seed, c, measure) for c in chunks]
        parts = list(self._pool.map(deal_points, *zip(*jobs, strict=True)))
        out = [0.0] * self.deals
        for chunk, got in zip(chunks, parts, strict=True):
            for d, v in zip(chunk, got, strict=True):
                out[d] = v
        return out

    def mean(self, weights: HeuristicWeights) -> float:
        return math.fsum(self.per_deal(weights)) / self.deals

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown()

    def __enter__(self) -> Evaluator:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


@dataclasses.dataclass(frozen=True)
class Tuned:
    """What a climb found: the weights, their mean points a game on the deals tuned on, and the steps kept."""

    weights: HeuristicWeights
    points: float
    start_points: float
    steps: int
    kept: list[dict[str, Any]]


def tune(
    evaluate: Callable[[HeuristicWeights], float],
    steps: int,
    seed: int = 1,
    step_size: float = 0.5,
    start: HeuristicWeights = DEFAULT_WEIGHTS,
    names: Sequence[str] = TUNED,
    progress: Callable[[int, float, str, float], None] | None = None,
) -> Tuned:
    """Hill-climb the weights ``names`` from ``start`` for ``steps`` steps, maximising ``evaluate``: each step
    draws one weight and a Gaussian change of it (``step_size`` its standard deviation), tries it and, if that
    is no better, the opposite change; a change is kept when it scores strictly higher."""
    rng = random.Random(seed)
    best, best_v = start, evaluate(start)
    start_v = best_v
    kept: list[dict[str, Any]] = []
    for step in range(1, steps + 1):
        name = rng.choice(list(names))
        delta = rng.gauss(0.0, step_size)
        for change in (delta, -delta):
            trial = dataclasses.replace(best, **{name: round(getattr(best, name) + change, 4)})
            v = evaluate(trial)
            if v > best_v:
                best, best_v = trial, v
                kept.append({"step": step, "weight": name, "value": getattr(best, name), "points": round(v, 4)})
                if progress is not None:
                    progress(step, v, name, getattr(best, name))
                break
    return Tuned(best, best_v, start_v, steps, kept)


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(prog="python -m bigtwo.lab.tuning", description=__doc__.split("\n\n")[0])
    ap.add_argument("out", help="where to write the weights and how they were found (JSON)")
    ap.add_argument("--rules", default="classic")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--measure", default="cards", choices=UTILITIES)
    ap.add_argument("--deals", type=int, default=300, help="deals tuned on (each played from every seat)")
    ap.add_argument("--steps", type=int, default=600)
    ap.add_argument("--step-size", type=float, default=0.5)
    ap.add_argument("--holdout", type=int, default=1000, help="other deals the result is measured on")
    ap.add_argument("--seed", type=int, default=1, help="the climb's random steps")
    ap.add_argument("--workers", type=int, default=1)
    args = ap.parse_args(argv)
    rules = load_rules(args.rules)
    started = time.perf_counter()

    def say(step: int, v: float, name: str, value: float) -> None:
        print(f"{time.perf_counter() - started:7.0f} s  step {step:5d}  {v:+.3f}  {name} = {value:+.4f}", flush=True)

    with Evaluator(rules, args.players, TRAIN_SEED, args.deals, args.measure, args.workers) as train:
        got = tune(train.mean, args.steps, args.seed, args.step_size, progress=say)
    tuned_s = time.perf_counter() - started
    with Evaluator(rules, args.players, HOLDOUT_SEED, args.holdout, args.measure, args.workers) as held:
        interval = mean_interval(held.per_deal(got.weights))
    mean, low, high = interval.mean, interval.low, interval.high
    report = {
        "format": TUNED_FORMAT,
        "weights": dataclasses.asdict(got.weights),
        "rules": rules.name,
        "players": args.players,
        "measure": args.measure,
        "opponents": "heuristic (its own weights) in every other seat",
        "command": "python -m bigtwo.lab.tuning OUT.json "
        + " ".join(
            f"--{k.replace('_', '-')} {getattr(args, k)}"
            for k in ("rules", "players", "measure", "deals", "steps", "step_size", "holdout", "seed")
        ),
        "train": {"seed": TRAIN_SEED, "deals": args.deals, "points": round(got.points, 4), "kept": len(got.kept)},
        "holdout": {
            "seed": HOLDOUT_SEED,
            "deals": args.holdout,
            "points": round(mean, 4),
            "interval": [round(low, 4), round(high, 4)],
        },
        "seconds": round(tuned_s),
        "steps_kept": got.kept,
    }
    with open(args.out, "w", encoding="utf-8") as fh:
        fh.write(json.dumps(report, indent=2) + "\n")
    print(
        f"train {got.start_points:+.3f} -> {got.points:+.3f} ({len(got.kept)} of {got.steps} steps kept, "
        f"{tuned_s:.0f} s); held out ({args.holdout} deals): {mean:+.3f} [{low:+.3f}, {high:+.3f}]"
    )


if __name__ == "__main__":
    from bigtwo.lab import tuning  # worker processes find the module's functions by this name, not __main__

    tuning.main()
