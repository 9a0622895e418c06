"""Self-play training speed: frames a second of ``bigtwo train``, the games played by the compiled batched
environment (``bigtwo._core.Batch``) beside the same runs with the pure-Python games (``BIGTWO_NATIVE=0``'s
path), in the learner's process (``actors=0``) and in actor processes, all in the same run.

Each configuration trains the shipped network's shape (512-512-256, torch on one thread a process) from random
weights for ``--seconds`` after a warm-up (which also pays the actors' start), and the figure is frames learned
from or still pending in the games, a second of wall time. The configurations are interleaved over
``--repeats`` runs and each reports its best, so load from other processes disturbs the comparison as little as
it can. Actors pay off when there is a core for each of them beside the learner's work; on two cores, one actor
overlaps playing with learning and two share the cores with the learner. The baseline of every row is the
Python games' ``actors=0``.

Run: python benchmarks/training.py [--actors 0 1 2] [--seconds 40] [--repeats 2] [--envs 64] [--opponent-share 0]
[--compiled-only] [--cpu-time] (frames per CPU second of the learner's process, actors=0 only: for a machine
other work shares)
"""

from __future__ import annotations

import argparse
import contextlib
import os
import tempfile
import time
from collections.abc import Iterator

import torch

from bigtwo.envs import native_batch
from bigtwo.rl.dmc import TrainConfig, Trainer


@contextlib.contextmanager
def games_played_by(compiled: bool) -> Iterator[None]:
    """Environments made inside play their games compiled where they can, or in Python (as ``BIGTWO_NATIVE=0``
    does; actors' environments keep the choice in their processes)."""
    if compiled:
        yield
        return
    available = native_batch.available
    native_batch.available = lambda *_a, **_k: False  # type: ignore[assignment]
    try:
        yield
    finally:
        native_batch.available = available  # type: ignore[assignment]


def frames_per_second(
    actors: int, envs: int, share: float, seconds: float, warmup: float, seed: int, compiled: bool, cpu: bool = False
) -> float:
    """One timed run of one configuration (``cpu``: frames a second of this process's CPU time, for ``actors=0`` on
    a machine other work shares)."""
    clock = time.process_time if cpu else time.perf_counter
    config = TrainConfig(num_envs=envs, actors=actors, opponent_share=share, eval_every=0, seed=seed)
    with tempfile.TemporaryDirectory() as out:
        with games_played_by(compiled):
            trainer = Trainer(config, out)
        try:
            trainer.run(seconds=warmup, report_every=1e9, checkpoint_every=1e9)
            before, t0 = trainer.frames, clock()
            trainer.run(seconds=seconds, report_every=1e9, checkpoint_every=1e9)
            return (trainer.frames - before) / (clock() - t0)
        finally:
            trainer.close()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--actors", type=int, nargs="+", default=[0, 1, 2], help="actor processes (0: in the learner)")
    ap.add_argument("--seconds", type=float, default=40.0, help="timed seconds a run")
    ap.add_argument("--warmup", type=float, default=8.0, help="untimed seconds before each run")
    ap.add_argument("--repeats", type=int, default=2)
    ap.add_argument("--envs", type=int, default=64, help="games in lockstep a process")
    ap.add_argument("--opponent-share", type=float, default=0.0, help="games with one learning seat among heuristics")
    ap.add_argument("--compiled-only", action="store_true", help="no Python games (their baseline row stays)")
    ap.add_argument("--cpu-time", action="store_true", help="frames per CPU second of the learner (actors=0 only)")
    args = ap.parse_args()
    torch.set_num_threads(1)
    kinds = [0] if args.cpu_time else sorted(set(args.actors))
    configs = [(a, True) for a in kinds] + [(a, False) for a in (kinds if not args.compiled_only else [0])]
    if (0, False) not in configs:
        configs.append((0, False))
    best = dict.fromkeys(configs, 0.0)
    for r in range(args.repeats):
        for a, compiled in configs:
            fps = frames_per_second(
                a, args.envs, args.opponent_share, args.seconds, args.warmup, r, compiled, args.cpu_time
            )
            best[(a, compiled)] = max(best[(a, compiled)], fps)
            games = "compiled" if compiled else "python"
            print(f"repeat {r + 1}: actors={a}, {games} games: {fps:,.0f} frames/s", flush=True)
    base = best[(0, False)]
    print(f"\n{os.cpu_count()} cores, {args.envs} games a process, opponent share {args.opponent_share:g}, best of "
          f"{args.repeats} runs of {args.seconds:g} s\n")  # fmt: skip
    print("| games played in | games | frames/s | beside the baseline |")
    print("| --- | --- | --- | --- |")
    for a, compiled in configs:
        where = "the learner's process" if a == 0 else f"{a} actor process{'es' if a > 1 else ''}"
        games = "compiled" if compiled else "python"
        if (a, compiled) == (0, False):
            games += " (baseline)"
        print(f"| {where} | {games} | {best[(a, compiled)]:,.0f} | {best[(a, compiled)] / base:.2f}x |")


if __name__ == "__main__":
    main()
