"""Does a search keep its time limit? Every decision's wall time and CPU time against ``budget_ms`` (it prints).

``isearch`` in one seat and today's ``search`` in the three others, both at the same ``budget_ms``, play whole
rounds of ``classic`` in this one process; each decision's wall time (what a player waits) and the process's
CPU time over it (the bot's own work: on a machine shared with other work, the wall time also counts the time
the process waited for a core) are measured around ``choose``. The baseline is today's search, measured in the
same run. The limit is the bot's: a time over it is reported, never asserted.

Run: python benchmarks/budget.py [--budget-ms 250] [--games 8]
"""

from __future__ import annotations

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")  # one core a bot (before numpy is first imported)

import argparse
import time

from bigtwo import Game, load_rules
from bigtwo.bots import make


def quantile(xs: list[float], p: float) -> float:
    """The ``p`` quantile of sorted ``xs`` (the nearest rank below)."""
    return xs[min(len(xs) - 1, int(p * len(xs)))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--budget-ms", type=float, default=250.0)
    ap.add_argument("--games", type=int, default=8)
    ap.add_argument("--seed", type=int, default=77)
    args = ap.parse_args()
    rules = load_rules("classic")
    budget = args.budget_ms
    times: dict[str, list[tuple[float, float]]] = {"isearch": [], "search": []}
    for g_i in range(args.games):
        game = Game(rules, seed=args.seed * 1000 + g_i)
        first = g_i % 4
        bots = {
            s: make("isearch" if s == first else "search", seed=g_i * 4 + s, budget_ms=budget, utility="cards")
            for s in range(4)
        }
        while not game.is_over:
            s = game.to_move
            obs = game.observe(s)
            t, c = time.perf_counter(), time.process_time()
            action = bots[s].choose(rules, obs)
            wall, cpu = (time.perf_counter() - t) * 1000, (time.process_time() - c) * 1000
            if len(game.legal_plays()) > 1:
                times["isearch" if s == first else "search"].append((wall, cpu))
            game.play(action)
    print(f"classic, {args.games} rounds, budget_ms={budget:g}, decisions with a choice (forced moves left out)")
    print("| bot | decisions | wall ms: median / p99 / max | over the limit (wall) | CPU ms: p99 / max | over (CPU) |")
    print("| --- | --- | --- | --- | --- | --- |")
    for name, rows in times.items():
        wall = sorted(w for w, _ in rows)
        cpu = sorted(c for _, c in rows)
        n = len(rows)
        if not n:
            continue
        print(
            f"| {name} | {n} | {quantile(wall, 0.5):.0f} / {quantile(wall, 0.99):.0f} / {wall[-1]:.0f} "
            f"| {sum(w > budget for w in wall)} | {quantile(cpu, 0.99):.0f} / {cpu[-1]:.0f} "
            f"| {sum(c > budget for c in cpu)} |"
        )


if __name__ == "__main__":
    main()
