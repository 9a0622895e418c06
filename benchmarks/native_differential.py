"""The compiled core against the Python engine, bit for bit, over a long run: every covered preset at every
table size it allows, rounds played through both engines side by side (tests/native_diff.py: the legal actions
in order, the state after every action, undo, the result), until ``--decisions`` decisions are compared.

Run: python benchmarks/native_differential.py [--decisions 1000000] [--seed 0] [--presets classic ...]
Prints the decisions, rounds and mismatches per preset and in all; exits 1 on any mismatch.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the tests' differential driver

from tests.native_diff import Tally, compare_rules

from bigtwo import list_presets, load_rules, native


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--decisions", type=int, default=1_000_000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--presets", nargs="*", default=list_presets())
    args = ap.parse_args()
    if not native.available():
        print(native.status())
        return 2
    tables = []
    for name in args.presets:
        rules = load_rules(name)
        if not native.covers(rules):
            print(f"{name}: not covered ({'; '.join(native.uncovered(rules))})")
            continue
        tables += [(name, n) for n in range(rules.min_players, rules.max_players + 1)]
    per: dict[str, Tally] = {name: Tally() for name, _ in tables}
    total = Tally()
    seed = args.seed
    t0 = time.perf_counter()
    while total.decisions < args.decisions and tables:
        for name, players in tables:
            got = compare_rules(load_rules(name), players, rounds=4, seed=seed)
            per[name].add(got)
            total.add(got)
            for m in got.mismatches:
                print("MISMATCH", m)
        seed += 1
    for name, t in per.items():
        print(f"{name:<18}{t.decisions:>10,} decisions{t.rounds:>8,} rounds{len(t.mismatches):>4} mismatches")
    print(
        f"{'all':<18}{total.decisions:>10,} decisions{total.rounds:>8,} rounds{len(total.mismatches):>4} mismatches"
        f"  (seeds {args.seed}..{seed - 1}, {time.perf_counter() - t0:.0f} s)"
    )
    return 1 if total.mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
