"""How noisy is expert iteration's teacher? (Not a test: it prints.)

``bigtwo lab expert`` labels the same decisions whatever its ``--iterations``: the games are the network's own,
fixed by the run's seed, and the search only values them. So two label folders made from one network with one
seed and other deal counts hold two searches' judgments of the same positions, and their agreement measures
what the smaller count leaves to chance. For every decision both searched (two or more candidates valued by
both), this prints how often each teacher's best candidate and the network's agree (a mean over games, each
weighing alike, with Wilson's 95% interval clustered by game), and the sharper teacher's regret of the other
choices (by its own values, themselves noisy: an upper bound).

Run: python lab/studies/teachers.py runs/ex2 runs/ex3    (the second folder: the teacher with more deals)
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np

from bigtwo.arena.stats import wilson_interval
from bigtwo.lab.expert import Labels


def compare(coarse: Path, sharp: Path) -> dict[str, object]:
    """Agreement and regret over the shards both folders hold (refused where they label other decisions)."""
    settings = [json.loads((f / "labels.json").read_text()) for f in (coarse, sharp)]
    for key in ("teacher_digest", "seed", "share", "explore", "shard_games"):
        if settings[0][key] != settings[1][key]:
            raise SystemExit(f"{coarse} and {sharp} label other decisions: their {key} differ")
    names = sorted(
        {p.name for p in (sharp / "labels").glob("shard-*.npz")}
        & {p.name for p in (coarse / "labels").glob("shard-*.npz")}
    )
    pairs: dict[str, dict[int, list[float]]] = {"coarse = sharp": {}, "network = sharp": {}, "network = coarse": {}}
    regret = {"coarse": 0.0, "network": 0.0}
    decisions = compared = 0
    for name in names:
        a, b = Labels.load(coarse / "labels" / name), Labels.load(sharp / "labels" / name)
        if not (np.array_equal(a.states, b.states) and np.array_equal(a.offsets, b.offsets)):
            continue  # a shard one of the runs cut short: not the same games
        compared += 1
        for lo, hi, game in zip(b.offsets[:-1], b.offsets[1:], b.game_of, strict=True):
            mine, theirs = a.searched[lo:hi], b.searched[lo:hi]
            both = np.flatnonzero(~np.isnan(mine) & ~np.isnan(theirs))
            if len(both) < 2:
                continue
            best = {
                "coarse": both[np.argmax(mine[both])],
                "sharp": both[np.argmax(theirs[both])],
                "network": both[np.argmax(b.q[lo:hi][both])],
            }
            decisions += 1
            for pair in pairs:
                left, right = pair.split(" = ")
                pairs[pair].setdefault(int(game), []).append(float(best[left] == best[right]))
            for who in regret:
                regret[who] += float(theirs[best["sharp"]] - theirs[best[who]])
    if not decisions:
        raise SystemExit(f"no decision that both {coarse} and {sharp} searched")
    return {
        "decisions": decisions,
        "shards": compared,
        "skipped": len(names) - compared,
        "teachers": {str(f): s["iterations"] for f, s in zip((coarse, sharp), settings, strict=True)},
        "agreement": {k: wilson_interval(v) for k, v in pairs.items()},
        "regret_by_sharp": {k: v / decisions for k, v in regret.items()},
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("coarse", type=Path, help="a label folder (fewer deals a candidate)")
    ap.add_argument("sharp", type=Path, help="the same network's and seed's labels with more deals a candidate")
    args = ap.parse_args()
    got = compare(args.coarse, args.sharp)
    deals = got["teachers"]
    skipped = f" ({got['skipped']} more both hold, cut short in one: skipped)" if got["skipped"] else ""
    print(f"{got['decisions']} decisions in {got['shards']} shards{skipped}; deals a candidate: {deals}")
    for pair, rate in got["agreement"].items():
        print(f"  {pair:18} {rate.mean:6.1%} [{rate.low:.1%}, {rate.high:.1%}]")
    for who, r in got["regret_by_sharp"].items():
        print(f"  the sharp teacher's regret of the {who}'s choice: {r:.3f} points a decision")


if __name__ == "__main__":
    main()
