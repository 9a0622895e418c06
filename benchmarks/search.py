"""How many sampled deals and play-outs isearch searches a decision, with the compiled core and in pure Python.

The same positions (seeded deals played a few moves by the heuristic, at the seats with a real choice) are decided
by ``isearch`` at a fixed ``budget_ms`` twice in the same run: in a process with the compiled core and in one with
``BIGTWO_NATIVE=0`` (pure Python, as before the core). Each side is run ``--repeats`` times, alternating, and the
best total (the run the shared machine disturbed least) is kept. Printed: deals and play-outs (a candidate played
out on a deal) a decision, each side, and their ratio.

``--match DEALS`` plays a paired duplicate match instead: on each seeded deal, at each seat in turn, ``isearch`` at
``--budget-ms`` against three ``heuristic`` (deterministic, so both sides meet the same opponents' play), once with
the compiled core and once in pure Python, one process after the other on one core; the gain is the per-deal
difference of isearch's points (one a card left), with Student's t 95% interval. ``--out FILE`` keeps every game.

Run: python benchmarks/search.py [--budget-ms 200] [--positions 12] [--preset classic] [--players 4]
     [--playout auto] [--utility auto] [--repeats 3]
     python benchmarks/search.py --match 200 --budget-ms 1000 --out runs/search-match-1s.json
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from typing import Any


def positions(preset: str, players: int, count: int) -> list[Any]:
    """``count`` observations from seeded deals: every fourth decision of a heuristic game with a real choice."""
    from bigtwo import Game, load_rules
    from bigtwo.bots import make

    rules = load_rules(preset)
    out = []
    seed = 0
    while len(out) < count:
        g = Game(rules, players=players, seed=seed)
        h = make("heuristic", seed=seed)
        k = 0
        while not g.is_over and len(out) < count:
            obs = g.observe(g.to_move)
            if k % 4 == 1 and len(g.legal_plays()) > 2:
                out.append(obs)
            g.play(h.choose(rules, obs))
            k += 1
        seed += 1
    return out


def measure(preset: str, players: int, count: int, budget_ms: float, playout: str, utility: str) -> dict[str, Any]:
    """Deals and play-outs of every position's decision, in this process (its engine as imported)."""
    from bigtwo import load_rules, native
    from bigtwo.bots import make

    rules = load_rules(preset)
    deals, playouts = [], []
    for i, obs in enumerate(positions(preset, players, count)):
        bot = make("isearch", seed=1000 + i, budget_ms=budget_ms, playout=playout, utility=utility)
        bot.plan_for(rules, players)  # (the networks are read once a table, outside the timed decision)
        bot.choose(rules, obs)
        deals.append(bot.last_iterations)
        playouts.append(sum(bot.last_counts.values()))
    return {"engine": native.status(), "deals": deals, "playouts": playouts}


def match(preset: str, players: int, deals: int, budget_ms: float, playout: str, utility: str) -> dict[str, Any]:
    """isearch's points (one a card left) at each seat of each deal against the heuristic, in this process."""
    from bigtwo import Game, load_rules, native
    from bigtwo.bots import make
    from bigtwo.utilities import round_utility

    rules = load_rules(preset)
    points = []
    for d in range(deals):
        row = []
        for seat in range(players):
            g = Game(rules, players=players, seed=d)
            bots = [make("heuristic", seed=d) for _ in range(players)]
            bots[seat] = make("isearch", seed=d * 8 + seat, budget_ms=budget_ms, playout=playout, utility=utility)
            while not g.is_over:
                s = g.to_move
                g.play(bots[s].choose(rules, g.observe(s)))
            assert g.result is not None
            row.append(round_utility(g.result, "cards")[seat])
        points.append(row)
        print(json.dumps({"deal": d, "points": row}), file=sys.stderr, flush=True)
    return {"engine": native.status(), "points": points}


def interval(xs: list[float]) -> tuple[float, float, float]:
    """Mean and Student's t 95% interval."""
    import statistics

    from scipy import stats

    m = statistics.fmean(xs)
    if len(xs) < 2:
        return m, float("nan"), float("nan")
    half = stats.t.ppf(0.975, len(xs) - 1) * statistics.stdev(xs) / len(xs) ** 0.5
    return m, m - half, m + half


def run_match(args: argparse.Namespace) -> None:
    sides = {}
    for native_on in (True, False):
        env = dict(os.environ, BIGTWO_NATIVE="1" if native_on else "0")
        cmd = [sys.executable, __file__, "--worker", "--match", str(args.match), "--budget-ms", str(args.budget_ms)]
        cmd += ["--preset", args.preset, "--players", str(args.players), "--playout", args.playout]
        cmd += ["--utility", args.utility]
        out = subprocess.run(cmd, env=env, check=True, stdout=subprocess.PIPE, text=True).stdout  # (progress: stderr)
        sides[native_on] = json.loads(out.strip().splitlines()[-1])
    nat, py = sides[True]["points"], sides[False]["points"]
    gain = [sum(a) / len(a) - sum(b) / len(b) for a, b in zip(nat, py, strict=True)]
    m, lo, hi = interval(gain)
    mn, mp = interval([sum(a) / len(a) for a in nat])[0], interval([sum(b) / len(b) for b in py])[0]
    print(
        f"isearch at {args.budget_ms:g} ms against three heuristic, {args.preset}, {args.players} players, "
        f"{len(gain)} deals x {args.players} seats, points a game (one a card left)"
    )
    print(f"compiled core: {mn:+.2f}   pure Python: {mp:+.2f}   gain a deal: {m:+.2f} [{lo:+.2f}, {hi:+.2f}]")
    if args.out:
        with open(args.out, "w") as f:
            json.dump({"args": vars(args), "native": nat, "python": py}, f)


def run_side(native_on: bool, args: argparse.Namespace) -> dict[str, Any]:
    env = dict(os.environ, BIGTWO_NATIVE="1" if native_on else "0")
    cmd = [sys.executable, __file__, "--worker", "--budget-ms", str(args.budget_ms), "--positions", str(args.positions)]
    cmd += ["--preset", args.preset, "--players", str(args.players), "--playout", args.playout]
    cmd += ["--utility", args.utility]
    out = subprocess.run(cmd, env=env, check=True, capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--budget-ms", type=float, default=200.0)
    ap.add_argument("--positions", type=int, default=12)
    ap.add_argument("--preset", default="classic")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--playout", default="auto", help="isearch's playout option (auto, heuristic, mixed, learned)")
    ap.add_argument("--utility", default="auto", help="isearch's utility option (auto, score, cards, place, win)")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--match", type=int, default=0, help="deals of a paired match against the heuristic (0: none)")
    ap.add_argument("--out", default="", help="with --match: a JSON file for every game's points")
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        if args.match:
            got = match(args.preset, args.players, args.match, args.budget_ms, args.playout, args.utility)
            print(json.dumps(got))
        else:
            got = measure(args.preset, args.players, args.positions, args.budget_ms, args.playout, args.utility)
            print(json.dumps(got))
        return
    if args.match:
        run_match(args)
        return
    best: dict[bool, dict[str, Any]] = {}
    for _ in range(args.repeats):
        for side in (True, False):
            got = run_side(side, args)
            if side not in best or sum(got["deals"]) > sum(best[side]["deals"]):
                best[side] = got
    n = args.positions
    print(
        f"isearch, {args.preset}, {args.players} players, {args.budget_ms:g} ms a decision, playout={args.playout}, "
        f"utility={args.utility}, {n} positions, best of {args.repeats}"
    )
    print("| engine | deals a decision | play-outs a decision |")
    print("| --- | --- | --- |")
    for side in (True, False):
        b = best[side]
        print(f"| {b['engine']} | {sum(b['deals']) / n:.1f} | {sum(b['playouts']) / n:.1f} |")
    py, nat = best[False], best[True]
    ratio_d = sum(nat["deals"]) / max(1, sum(py["deals"]))
    ratio_p = sum(nat["playouts"]) / max(1, sum(py["playouts"]))
    print(f"ratio (compiled core / pure Python): deals {ratio_d:.2f}x, play-outs {ratio_p:.2f}x")


if __name__ == "__main__":
    main()
