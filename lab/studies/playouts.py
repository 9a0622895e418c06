"""How many sampled deals a search plays out in its time: isearch's deals a decision at a fixed budget (it prints).

``isearch`` with the network in every seat of its play-outs (``playout='learned'``, what ``auto`` chooses at four
players from 1 s a decision) decides the same positions (``--positions`` decisions with at least three legal
actions, from rounds the shipped network plays against itself on seeded deals) under several settings, each
position under every setting in turn so that a busy machine slows them alike. The baseline is the shipped network
playing one deal's play-outs at a time (the plan's ``deals_together=1``), beside four deals side by side, the
plan's default (the distilled play-out network and the value cut-off once measured here were deleted with their
options, docs/lab/2026-12-07-search-options-retired.md).
For each: the mean and median deals a decision and the ratio to the baseline's on the same positions (geometric
mean of the per-position ratios).

Run: python lab/studies/playouts.py [--budget-ms 1000] [--positions 30] [--rules classic] [--players 4]
"""

from __future__ import annotations

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")  # one core (before numpy is first imported)

import argparse
import math
import statistics

from bigtwo import Game, load_rules
from bigtwo.bots.learned import scorer_for
from bigtwo.bots.search import InferenceSearchBot

# changes to the search's plan (the distilled play-out network and the value cut-off, measured here once, were
# deleted with their options: docs/lab/2026-12-07-search-options-retired.md)
SETTINGS = {
    "one deal at a time, the shipped network (baseline)": {"deals_together": 1},
    "4 deals side by side, the shipped network": {"deals_together": 4},
}


def positions(rules, players: int, count: int, seed: int) -> list:
    """Observations of decisions with three or more legal actions, a few to two dozen moves into rounds the
    shipped network plays in every seat."""
    scorer = scorer_for(rules, players)
    if scorer is None:
        raise SystemExit(f"no shipped network for {rules.name} with {players} players")
    out = []
    i = 0
    while len(out) < count:
        g = Game(rules, players=players, seed=seed + i)
        for _ in range(2 + (i * 7) % 24):
            if g.is_over:
                break
            g.play(scorer.act(g))
        i += 1
        if not g.is_over and len(g.legal_plays()) >= 3:
            out.append(g.observe(g.to_move))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--budget-ms", type=float, default=1000.0)
    ap.add_argument("--positions", type=int, default=30)
    ap.add_argument("--rules", default="classic")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--seed", type=int, default=300)
    args = ap.parse_args()
    rules = load_rules(args.rules)
    obs = positions(rules, args.players, args.positions, args.seed)
    deals: dict[str, list[int]] = {name: [] for name in SETTINGS}
    for o in obs:
        for name, options in SETTINGS.items():
            bot = InferenceSearchBot(seed=1, budget_ms=args.budget_ms, playout="learned", utility="cards")
            bot.adjust_plan(**options)
            bot.choose_play(rules, o)
            deals[name].append(bot.last_iterations)
    base = deals[next(iter(SETTINGS))]
    print(f"isearch at {args.budget_ms:g} ms a decision, {len(obs)} positions ({rules.name}, {args.players} players):")
    print("| play-outs | deals a decision, mean | median | x baseline (geometric mean) |")
    print("| --- | --- | --- | --- |")
    for name, got in deals.items():
        pairs = [(g, b) for g, b in zip(got, base, strict=True) if g > 0 and b > 0]
        ratio = math.exp(statistics.fmean(math.log(g / b) for g, b in pairs)) if pairs else float("nan")
        print(f"| {name} | {statistics.fmean(got):.1f} | {statistics.median(got):g} | {ratio:.2f}x |")


if __name__ == "__main__":
    main()
