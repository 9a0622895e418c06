"""Self-play training speed: frames a second of ``bigtwo train`` with the games played in actor processes,
beside the baseline measured in the same run, every game played in the learner's own process (``actors=0``).

Each configuration trains the shipped network's shape (512-512-256, torch on one thread a process) from random
weights for ``--seconds`` after a warm-up (which also pays the actors' start), and the figure is frames learned
from or still pending in the games, a second of wall time. The configurations are interleaved over
``--repeats`` runs and each reports its best, so load from other processes disturbs the comparison as little as
it can. Actors pay off when there is a core for each of them beside the learner's work; on two cores, one actor
overlaps playing with learning and two share the cores with the learner.

Run: python benchmarks/training.py [--actors 0 1 2] [--seconds 40] [--repeats 2] [--envs 64] [--opponent-share 0]
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time

import torch

from bigtwo.rl.dmc import TrainConfig, Trainer


def frames_per_second(actors: int, envs: int, share: float, seconds: float, warmup: float, seed: int) -> float:
    """One timed run of one configuration."""
    config = TrainConfig(num_envs=envs, actors=actors, opponent_share=share, eval_every=0, seed=seed)
    with tempfile.TemporaryDirectory() as out:
        trainer = Trainer(config, out)
        try:
            trainer.run(seconds=warmup, report_every=1e9, checkpoint_every=1e9)
            before, t0 = trainer.frames, time.perf_counter()
            trainer.run(seconds=seconds, report_every=1e9, checkpoint_every=1e9)
            return (trainer.frames - before) / (time.perf_counter() - t0)
        finally:
            trainer.close()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--actors", type=int, nargs="+", default=[0, 1, 2], help="actor processes (0: the baseline)")
    ap.add_argument("--seconds", type=float, default=40.0, help="timed seconds a run")
    ap.add_argument("--warmup", type=float, default=8.0, help="untimed seconds before each run")
    ap.add_argument("--repeats", type=int, default=2)
    ap.add_argument("--envs", type=int, default=64, help="games in lockstep a process")
    ap.add_argument("--opponent-share", type=float, default=0.0, help="games with one learning seat among heuristics")
    args = ap.parse_args()
    torch.set_num_threads(1)
    kinds = sorted(set(args.actors) | {0})
    best = {a: 0.0 for a in kinds}
    for r in range(args.repeats):
        for a in kinds:
            fps = frames_per_second(a, args.envs, args.opponent_share, args.seconds, args.warmup, seed=r)
            best[a] = max(best[a], fps)
            print(f"repeat {r + 1}: actors={a}: {fps:,.0f} frames/s", flush=True)
    print(f"\n{os.cpu_count()} cores, {args.envs} games a process, opponent share {args.opponent_share:g}, best of "
          f"{args.repeats} runs of {args.seconds:g} s\n")  # fmt: skip
    print("| games played in | frames/s | beside the baseline |")
    print("| --- | --- | --- |")
    for a in kinds:
        where = "the learner's process (baseline)" if a == 0 else f"{a} actor process{'es' if a > 1 else ''}"
        print(f"| {where} | {best[a]:,.0f} | {best[a] / best[0]:.2f}x |")


if __name__ == "__main__":
    main()
