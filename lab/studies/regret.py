"""How well a search chooses from a fixed number of deals: its regret against a many-deal truth (it prints).

A 1 s match of 40 deals takes an hour on a core and moves by more than a point from one deal set to the next, so
a change to how a search *estimates* (how it samples deals, shares them among candidates, weighs its prior) is
measured here first, in minutes: on the same positions, each ``--arm`` (an ``isearch`` spec counted in deals,
``iterations=N``, so the machine's speed does not enter) decides ``--repeats`` times under different seeds, and
each choice is charged its regret: the best candidate's value less the chosen one's, both read from one long
search of the first arm's settings with every candidate played out on ``--truth`` deals (no halving, no prior).

What it measures is estimation alone: every arm is judged by the first arm's model of play (its network and
play-outs), so arms that change the model itself (another network, other opponents in the play-outs) are not
comparable here; they need matches. The truth is itself an estimate (its noise charges every arm alike).

Positions: decisions with three or more legal actions from rounds the shipped network plays against itself
(those of ``lab/studies/playouts.py``). The table gives each arm's mean regret a decision (points of one card
left) with a 95% interval over positions, and each arm less the first, position by position.

Run: python lab/studies/regret.py [--positions 60] [--truth 300] [--repeats 6] [--workers 2]
         [--arm "isearch(iterations=48, utility='cards', playout='learned')" --arm "...(iterations=96)" ...]
"""

from __future__ import annotations

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")  # one core a process (before numpy is first imported)

import argparse
import multiprocessing
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bigtwo import load_rules
from bigtwo.arena.stats import mean_interval
from bigtwo.bots.spec import BotSpec
from playouts import positions

DEFAULT_ARMS = (
    "isearch(iterations=48, utility='cards', playout='learned')",
    "isearch(iterations=48, utility='cards', playout='learned', prior=0)",
    "isearch(iterations=96, utility='cards', playout='learned')",
)


def truth_spec(arm: str, deals: int) -> BotSpec:
    """The first arm's settings on ``deals`` deals (built by :func:`truth_bot`, which plays every candidate on
    every deal): the values regrets are read from."""
    spec = BotSpec.parse(arm)
    if spec.name != "isearch" or "iterations" not in spec.options:
        raise SystemExit(f"--arm {arm!r}: an isearch counted in deals (iterations=N) is what this measures")
    return BotSpec("isearch", {**spec.options, "iterations": deals})


def truth_bot(arm: str, deals: int, seed: int) -> Any:
    """:func:`truth_spec`'s search with every candidate played out on every deal (no successive halving)."""
    return truth_spec(arm, deals).build(seed).adjust_plan(halving=False)


def regrets_at(job: dict) -> dict | None:
    """One position's truth and every arm's regret on each repeat (None: fewer than two candidates searched)."""
    rules = load_rules(job["rules"])
    obs = job["observation"]
    judge = truth_bot(job["arms"][0], job["truth"], 7)
    judge.choose_play(rules, obs)
    truth = {mask: value for mask, (value, _deals) in judge.last_values.items()}
    if len(truth) < 2:
        return None
    best = max(truth.values())
    out: dict = {"index": job["index"], "regret": [], "ms": []}
    for arm in job["arms"]:
        spec = BotSpec.parse(arm)
        regrets, ms = [], []
        for r in range(job["repeats"]):
            bot = spec.build(100 + r)
            t0 = time.perf_counter()
            choice = bot.choose_play(rules, obs)
            ms.append(1000 * (time.perf_counter() - t0))
            # a choice the truth did not value (another candidate set) counts as the best: none here, every arm
            # weighing the same candidates, which come from the observation alone
            regrets.append(best - truth.get(choice.mask, best))
        out["regret"].append(statistics.fmean(regrets))
        out["ms"].append(statistics.fmean(ms))
    return out


def measure(
    arms: list[str], count: int, truth: int, repeats: int, workers: int, seed: int, rules: str, players: int
) -> list[dict]:
    """Every position's regrets (in position order), ``workers`` processes sharing the positions."""
    table_rules = load_rules(rules)
    jobs = [
        {"arms": arms, "index": i, "observation": obs, "truth": truth, "repeats": repeats, "rules": rules}
        for i, obs in enumerate(positions(table_rules, players, count, seed))
    ]
    if workers <= 1:
        got = [regrets_at(job) for job in jobs]
    else:
        with multiprocessing.get_context("fork").Pool(workers) as pool:
            got = pool.map(regrets_at, jobs, chunksize=1)
    return [g for g in got if g is not None]


def table(arms: list[str], rows: list[dict]) -> list[str]:
    """The Markdown table of each arm's regret, and its difference from the first arm position by position."""
    lines = [
        f"{len(rows)} positions; regret a decision, points of one card left [95% CI over positions]",
        "| arm | regret | less the first arm | ms a decision |",
        "| --- | --- | --- | --- |",
    ]
    for a, arm in enumerate(arms):
        own = mean_interval([r["regret"][a] for r in rows])
        diff = "" if a == 0 else mean_interval([r["regret"][a] - r["regret"][0] for r in rows])
        ms = statistics.fmean(r["ms"][a] for r in rows)
        less = "(the baseline)" if a == 0 else f"{diff.mean:+.3f} [{diff.low:+.3f}, {diff.high:+.3f}]"
        lines.append(f"| `{arm}` | {own.mean:.3f} [{own.low:.3f}, {own.high:.3f}] | {less} | {ms:.0f} |")
    return lines


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--arm", action="append", default=None, help="an isearch spec with iterations=N (repeatable)")
    ap.add_argument("--positions", type=int, default=60)
    ap.add_argument("--truth", type=int, default=300, help="deals every candidate is played out on for the truth")
    ap.add_argument("--repeats", type=int, default=6, help="decisions an arm makes at a position, seeds apart")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--seed", type=int, default=300, help="the positions' rounds")
    ap.add_argument("--rules", default="classic")
    ap.add_argument("--players", type=int, default=4)
    args = ap.parse_args()
    arms = args.arm or list(DEFAULT_ARMS)
    truth_spec(arms[0], args.truth)  # refused now, in words, not in a worker
    t0 = time.perf_counter()
    rows = measure(arms, args.positions, args.truth, args.repeats, args.workers, args.seed, args.rules, args.players)
    print("\n".join(table(arms, rows)))
    print(f"({time.perf_counter() - t0:.0f} s)")


if __name__ == "__main__":
    main()
