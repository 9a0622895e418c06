"""Engine speed on one core, each figure beside a naive baseline measured in the same run.

- random-play games a second: four random players (uniform over legal actions) play whole rounds;
  baseline: the same games with legal actions found naively (every subset of the hand, classify + beats);
- microseconds to list every legal lead of a 13-card hand; baseline: the same by every subset.

The first table is the Python engine's (``Game(..., native=False)``). Then, where the compiled core is built
(bigtwo._core), the same random play four ways in the same run: the pure-Python ``Game``; ``Game`` with the
compiled core behind it (the default where the core covers the rules: the same API, deals in Python); the
compiled round driven from Python one decision at a time (``legal_masks`` and ``apply``); and the compiled
batched loop (``Tables.random_games``: deal and play in C++). Decisions and games a second, and each against the
pure-Python ``Game``. Rules the compiled core does not cover say so.

Run: python benchmarks/engine.py [--presets classic winner ... RULES.toml] [--seconds 5] [--native-only]
(benchmarks/rules/wild-jokers.toml: classic with two wild jokers, which no preset plays)
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from itertools import combinations

from bigtwo import Game, load_rules, native
from bigtwo.cards import bits
from bigtwo.combos.play import PASS
from bigtwo.moves import HandIndex, all_combos


def naive_legal(game: Game) -> list:
    """Legal actions by brute force: every subset of the hand of a playable size, classified and compared."""
    ev = game.ev
    hand = bits(game.hand(game.to_move).mask)
    top = game.trick
    req = game.required_card.mask if game.required_card else 0
    out = []
    for n in sorted(ev.kinds_by_size):
        if top is not None and n != top.size and game.rules.match != "kind":
            continue
        for combo in combinations(hand, n):
            m = sum(1 << c for c in combo)
            if req and not m & req:
                continue
            p = ev.classify(m)
            if p is not None and (top is None or ev.beats(p, top)):
                out.append(p)
    if top is not None:
        out.append(PASS)
    return out or [PASS]


def games_per_second(
    rules, legal, seconds: float, seed: int = 0, max_games: int | None = None, native: bool = False
) -> tuple[float, float]:
    rng = random.Random(seed)
    n = actions = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds and (max_games is None or n < max_games):
        g = Game(rules, seed=seed + n, native=native)
        while not g.is_over:
            g.play(rng.choice(legal(g)))
            actions += 1
        n += 1
    dt = time.perf_counter() - t0
    return n / dt, actions / n


def lead_listing_us(rules, hands: list[int], naive: bool) -> float:
    ev = rules.engine
    t0 = time.perf_counter()
    for h in hands:
        if naive:
            cs = bits(h)
            for n in ev.kinds_by_size:
                for combo in combinations(cs, n):
                    ev.classify(sum(1 << c for c in combo))
        else:
            ev.cache.clear()  # measure enumeration itself, not the cache of earlier runs
            _ = HandIndex.build(ev, h).plays  # every legal lead
    return (time.perf_counter() - t0) / len(hands) * 1e6


def python_random_play(rules, seconds: float, seed: int = 0, native: bool = False) -> tuple[float, float]:
    """(decisions/s, games/s) of ``Game`` under uniform random play: the pure-Python engine, or (``native``)
    the compiled core behind the same API."""
    gps, apg = games_per_second(rules, lambda g: g.legal_plays(), seconds, seed, native=native)
    return gps * apg, gps


def native_stepped_play(rules, seconds: float, seed: int = 0) -> tuple[float, float]:
    """(decisions/s, games/s) of the compiled round driven from Python: Python deals (``Game``) and picks,
    C++ lists the legal actions and applies them."""
    rng = random.Random(seed)
    core = native.core()
    decisions = games = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        g = Game(rules, seed=seed + games, native=False)
        r = core.Round(native.tables(g.ev), list(g._hands), g.to_move, g._required)
        while not r.over:
            r.apply(rng.choice(r.legal_masks()))
            decisions += 1
        games += 1
    dt = time.perf_counter() - t0
    return decisions / dt, games / dt


def native_batched_play(rules, seconds: float, seed: int = 0) -> tuple[float, float]:
    """(decisions/s, games/s) of the compiled batched loop: deal and random play in C++, batches of games until
    ``seconds`` pass."""
    tables = native.tables(rules.engine)
    decisions = games = 0
    t0 = time.perf_counter()
    batch = 200
    while time.perf_counter() - t0 < seconds:
        d, g = tables.random_games(rules.players, batch, seed=seed + games)
        decisions += d
        games += g
    dt = time.perf_counter() - t0
    return decisions / dt, games / dt


def native_table(presets: list[str], seconds: float) -> None:
    """Native against pure Python, random play, all in this run."""
    if not native.available():
        print(f"\nnative: {native.status()}")
        return
    print(
        f"\n{'rules':<22}{'python dec/s':>14}{'games/s':>9}{'Game+core dec/s':>17}{'games/s':>9}{'x':>6}"
        f"{'stepped dec/s':>15}{'x':>6}{'batched dec/s':>15}{'games/s':>10}{'x dec':>7}{'x games':>9}"
    )
    for preset in presets:
        rules = load_rules(preset)
        label = rules.name if preset.endswith(".toml") else preset
        if not native.covers(rules):
            print(f"{label:<22}not covered: {'; '.join(native.uncovered(rules))}")
            continue
        pd, pg = python_random_play(rules, seconds)
        gd, gg = python_random_play(rules, seconds, native=True)
        sd, _sg = native_stepped_play(rules, seconds)
        bd, bg = native_batched_play(rules, seconds)
        print(
            f"{label:<22}{pd:>14,.0f}{pg:>9,.0f}{gd:>17,.0f}{gg:>9,.0f}{gg / pg:>5.1f}x"
            f"{sd:>15,.0f}{sd / pd:>5.1f}x{bd:>15,.0f}{bg:>10,.0f}{bd / pd:>6.0f}x{bg / pg:>8.0f}x"
        )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--presets", nargs="*", default=["classic"], help="preset names or rules .toml files")
    ap.add_argument("--seconds", type=float, default=5.0)
    ap.add_argument("--native-only", action="store_true", help="only the native against pure Python table")
    args = ap.parse_args()
    if args.native_only:
        native_table(args.presets, args.seconds)
        return
    print(
        f"{'rules':<22}{'games/s':>10}{'naive games/s':>15}{'speed-up':>10}{'actions/game':>14}"
        f"{'leads us':>10}{'naive us':>10}{'speed-up':>10}{'leads/hand':>12}"
    )
    for preset in args.presets:
        rules = load_rules(preset)
        label = rules.name if preset.endswith(".toml") else preset
        rules.engine.cache.clear()
        gps, apg = games_per_second(rules, Game.legal_plays, args.seconds)
        ngps, _ = games_per_second(rules, naive_legal, max(1.0, args.seconds / 3), max_games=20)
        rng = random.Random(1)
        deck = bits(rules.engine.pack)  # the rules' own pack: with jokers where they play them
        hands = [sum(1 << c for c in rng.sample(deck, 13)) for _ in range(300)]
        us = statistics.median(lead_listing_us(rules, hands, naive=False) for _ in range(3))
        nus = lead_listing_us(rules, hands[:40], naive=True)
        per_hand = statistics.mean(len(all_combos(rules.engine, h)) for h in hands)
        print(
            f"{label:<22}{gps:>10.0f}{ngps:>15.1f}{gps / ngps:>9.0f}x{apg:>14.1f}"
            f"{us:>10.0f}{nus:>10.0f}{nus / us:>9.0f}x{per_hand:>12.1f}"
        )
    native_table(args.presets, args.seconds)


if __name__ == "__main__":
    main()
