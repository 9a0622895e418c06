"""Match speed on one core, beside a baseline measured in the same run.

Rounds a second played through ``Match`` (deal, exchanges answered by the bots from their observations, play,
scoring, records), against the same number of bare ``Game`` rounds played by the same bots from
``Game.observation``: the ratio is what the match layer costs on top of the rounds themselves.

Run: python benchmarks/match.py [--seconds 3] [--bots greedy]
"""

from __future__ import annotations

import argparse
import time

from bigtwo import Game, Match, load_rules
from bigtwo.bots import make

SETUPS = [
    ("classic", {}),
    ("house-code", {}),
    ("classic", {"exchange": "big-two-president"}),
    ("classic", {"exchange": "loser-to-winner"}),
    ("classic", {"exchange": "pass-around"}),
    ("classic", {"teams": True}),
]


def match_rounds(rules, bot: str, seconds: float) -> tuple[float, int]:
    players = [make(bot, seed=i) for i in range(rules.players)]
    rounds, seed = 0, 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        m = Match(rules, seed=seed, rounds=10).play_out(players)
        rounds += len(m.records)
        seed += 1
    return rounds / (time.perf_counter() - t0), rounds


def game_rounds(rules, bot: str, count: int) -> float:
    players = [make(bot, seed=i) for i in range(rules.players)]
    t0 = time.perf_counter()
    for seed in range(count):
        g = Game(rules, seed=seed)
        while not g.is_over:
            g.play(players[g.to_move].choose(rules, g.observe(g.to_move)))
    return count / (time.perf_counter() - t0)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--seconds", type=float, default=3.0)
    ap.add_argument("--bots", default="greedy")
    args = ap.parse_args()
    print(f"{'rules':<44} {'match rounds/s':>15} {'bare rounds/s':>14} {'ratio':>6}")
    for preset, changes in SETUPS:
        rules = load_rules(preset).replace(**changes) if changes else load_rules(preset)
        label = preset + "".join(f" {k}={v}" for k, v in changes.items())
        rate, count = match_rounds(rules, args.bots, args.seconds)
        base = game_rounds(rules, args.bots, count)
        print(f"{label:<44} {rate:>15,.0f} {base:>14,.0f} {rate / base:>6.2f}")


if __name__ == "__main__":
    main()
