"""Does a search keep its time limit? Every decision's wall time and CPU time against ``budget_ms`` (it prints).

``isearch`` in one seat and today's ``search`` in the others, both at the same ``budget_ms``, play whole rounds
(``classic`` unless ``--rules``) in this one process; each decision's wall time (what a player waits) and the
process's CPU time over it (the bot's own work: on a machine shared with other work, the wall time also counts
the time the process waited for a core) are measured around ``choose``. The baseline is today's search, measured in the
same run. The limit is the bot's: a time over it is reported, never asserted.

Garbage collections inside a decision are timed too (``gc.callbacks``): a full collection walks every object
the process holds, the heuristic's plan caches among them, so ``--plan-cache N`` sets how many hands those
caches keep (the package's ``CACHE_LIMIT``; the limit was 200,000 until collections of up to half a second
were found inside decisions) to measure another size beside it.

Run: python lab/studies/budget.py [--budget-ms 250] [--games 8] [--rules tien-len] [--plan-cache 200000]
"""

from __future__ import annotations

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")  # one core a bot (before numpy is first imported)

import argparse
import gc
import time

from bigtwo import Game, load_rules
from bigtwo.bots import make, plan


def quantile(xs: list[float], p: float) -> float:
    """The ``p`` quantile of sorted ``xs`` (the nearest rank below)."""
    return xs[min(len(xs) - 1, int(p * len(xs)))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--budget-ms", type=float, default=250.0)
    ap.add_argument("--games", type=int, default=8)
    ap.add_argument("--seed", type=int, default=77)
    ap.add_argument("--rules", default="classic")
    ap.add_argument("--plan-cache", type=int, default=plan.CACHE_LIMIT, help="hands each plan cache keeps")
    args = ap.parse_args()
    plan.CACHE_LIMIT = args.plan_cache
    rules = load_rules(args.rules)
    n = rules.players
    budget = args.budget_ms
    measure = rules.play_measure
    collecting: list[float] = [0.0, 0.0]  # (start of the collection running, collection time so far)

    def timed(phase: str, _info: dict) -> None:
        if phase == "start":
            collecting[0] = time.perf_counter()
        else:
            collecting[1] += time.perf_counter() - collecting[0]

    gc.callbacks.append(timed)
    times: dict[str, list[tuple[float, float, float]]] = {"isearch": [], "search": []}
    for g_i in range(args.games):
        game = Game(rules, seed=args.seed * 1000 + g_i)
        first = g_i % n
        bots = {
            s: make("isearch" if s == first else "search", seed=g_i * n + s, budget_ms=budget, utility=measure)
            for s in range(n)
        }
        while not game.is_over:
            s = game.to_move
            obs = game.observe(s)
            collecting[1] = 0.0
            t, c = time.perf_counter(), time.process_time()
            action = bots[s].choose(rules, obs)
            wall, cpu = (time.perf_counter() - t) * 1000, (time.process_time() - c) * 1000
            if len(game.legal_plays()) > 1:
                times["isearch" if s == first else "search"].append((wall, cpu, collecting[1] * 1000))
            game.play(action)
    print(
        f"{rules.name}, {args.games} rounds, budget_ms={budget:g}, plan caches of {plan.CACHE_LIMIT:,} hands, "
        "decisions with a choice (forced moves left out)"
    )
    print(
        "| bot | decisions | wall ms: median / p99 / max | over the limit (wall) | CPU ms: p99 / max | over (CPU) "
        "| garbage collection in a decision, ms: max / total |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for name, rows in times.items():
        if not rows:
            continue
        wall = sorted(w for w, _, _ in rows)
        cpu = sorted(c for _, c, _ in rows)
        pauses = [p for _, _, p in rows]
        print(
            f"| {name} | {len(rows)} | {quantile(wall, 0.5):.0f} / {quantile(wall, 0.99):.0f} / {wall[-1]:.0f} "
            f"| {sum(w > budget for w in wall)} | {quantile(cpu, 0.99):.0f} / {cpu[-1]:.0f} "
            f"| {sum(c > budget for c in cpu)} | {max(pauses):.0f} / {sum(pauses):,.0f} |"
        )


if __name__ == "__main__":
    main()
