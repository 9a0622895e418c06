"""Time a move of each bot on every preset (one process), beside greedy measured in the same games.

Every seat is played by the bot under test, so each of its decisions is timed through the public call,
``bot.choose(rules, game.observe(seat))``, observation excluded. Mean and the 99th percentile.

Run: python benchmarks/bots.py [--games 40] [--bots heuristic greedy] [--presets classic house-code]
"""

from __future__ import annotations

import argparse
import statistics
import time

from bigtwo import Game, list_presets, load_rules
from bigtwo.bots import make


def timings(preset: str, name: str, players: int, games: int) -> list[float]:
    rules = load_rules(preset)
    out = []
    for seed in range(games):
        g = Game(rules, players=players, seed=seed)
        bots = [make(name, seed=seed * 8 + s) for s in range(g.n)]
        while not g.is_over:
            s = g.to_move
            obs = g.observe(s).to_json()
            t0 = time.perf_counter()
            action = bots[s].choose(rules, obs)
            out.append(time.perf_counter() - t0)
            g.play(action)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--bots", nargs="*", default=["heuristic"])
    ap.add_argument("--presets", nargs="*", default=list_presets())
    args = ap.parse_args()
    print("| preset | players | bot | ms a move (mean) | p99 | greedy ms a move (mean) |")
    print("| --- | --- | --- | --- | --- | --- |")
    for preset in args.presets:
        rules = load_rules(preset)
        for players in sorted({rules.players, rules.min_players, rules.max_players}):
            base = timings(preset, "greedy", players, args.games)
            for name in args.bots:
                ts = sorted(timings(preset, name, players, args.games))
                p99 = ts[int(0.99 * (len(ts) - 1))]
                print(
                    f"| {preset} | {players} | {name} | {1000 * statistics.mean(ts):.2f} | {1000 * p99:.1f} "
                    f"| {1000 * statistics.mean(base):.2f} |",
                    flush=True,
                )


if __name__ == "__main__":
    main()
