"""Record speed on one core, beside a baseline measured in the same run.

For rounds played by uniformly random legal actions: the time to play them (the baseline: the engine itself),
then to write each as a record (text), to parse it back, to replay and check it through the engine, and the
JSON form both ways. A record costs a few replays of its round: the figures say how many.

Run: python benchmarks/record.py [--rounds 300]
"""

from __future__ import annotations

import argparse
import random
import time

from bigtwo import Game, load_rules
from bigtwo.record import format_text, from_json, parse_text, record_of, replay, to_json


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=300)
    args = ap.parse_args()
    print(f"{'preset':16} {'play ms':>8} {'write':>7} {'parse':>7} {'replay':>7} {'json out':>8} {'json in':>8}")
    for preset in ("classic", "house-code", "zheng-shangyou", "bga"):
        rules = load_rules(preset)
        t = dict.fromkeys(("play", "write", "parse", "replay", "json_out", "json_in"), 0.0)
        for seed in range(args.rounds):
            rng = random.Random(seed)
            t0 = time.perf_counter()
            g = Game(rules, seed=seed)
            while not g.is_over:
                g.play(rng.choice(g.legal_plays()))
            t1 = time.perf_counter()
            text = format_text(record_of(g))
            t2 = time.perf_counter()
            rec = parse_text(text)
            t3 = time.perf_counter()
            replay(rec)
            t4 = time.perf_counter()
            js = to_json(rec)
            t5 = time.perf_counter()
            from_json(js)
            t6 = time.perf_counter()
            for key, dt in zip(t, (t1 - t0, t2 - t1, t3 - t2, t4 - t3, t5 - t4, t6 - t5), strict=True):
                t[key] += dt
        ms = {k: v / args.rounds * 1000 for k, v in t.items()}
        print(
            f"{preset:16} {ms['play']:8.2f} {ms['write']:7.2f} {ms['parse']:7.2f} {ms['replay']:7.2f} "
            f"{ms['json_out']:8.2f} {ms['json_in']:8.2f}"
        )


if __name__ == "__main__":
    main()
