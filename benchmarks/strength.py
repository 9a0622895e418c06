"""Playing strength, measured on duplicate deals with 95% intervals (not a test: it prints).

Two matches on ``classic`` (4 players), scored one point a card left (each loser pays a point for every
card in hand, the winner takes the sum: the arena's ``cards`` utility, computed from ``result.cards_left``):

1. ``heuristic`` against three ``greedy``   (target: at least +5 points a game)
2. ``search``    against three ``heuristic`` (target: at least +1 point a game, the interval's lower bound
   above zero, at 1 second a move or less: the verdict checks the mean; the summary also counts the games
   in which one decision took longer)
3. ``learned`` against three ``heuristic`` (target: at least +2 points a game, the interval's lower bound
   above zero, under 2 ms a move on one core: the shipped self-play network, run in numpy). Besides the
   arena's wall time a move, which a busy machine inflates (time spent waiting for a core counts), a second
   pass over ``--cpu-games`` of the same games measures the CPU time of each ``choose`` call on its thread,
   the learned bot's and the heuristic opponents' side by side; the 2 ms verdict uses that CPU time.

4. ``isearch`` (the search with belief inference, the learned prior and successive halving) against three
   copies of today's ``search``, both with the same hard time limit a decision (``--budget-ms``; target at 1 s:
   at least +2 points a game, the interval's lower bound above zero, every decision within the limit in the
   bot's own time, the CPU time of its thread, as the verdict judges it; the summary also counts the games in
   which a decision took longer on the wall clock, which a machine running other processes beside it inflates)

5. ``heuristic`` against three ``greedy`` beside the heuristic as it was before it contested the lead
   (``heuristic(contest=False)``, the baseline) on the same deals, on ``winner`` (the rules' own points) and
   ``classic`` (one point a card left): the gain is the per-deal difference of their points, with its
   interval (target: above zero on both).

Every deal is played once per seat rotation; the interval is Student's t over per-deal means (win rates:
Wilson's score interval). The time a move of each bot is measured in the same run, the reference opponents'
beside it.

Run: python benchmarks/strength.py [--games 2000] [--search "search:iterations=30:budget_ms=900"] [--workers 2]
     [--only learned] [--learned "learned:weights=runs/x/best.npz"]
     python benchmarks/strength.py --only isearch --budget-ms 250 --games 400 --workers 2
     python benchmarks/strength.py --only isearch --budget-ms 100 --games 320 --isearch SPEC --versus SPEC2 --out DIR
     python benchmarks/strength.py --only contest [--games 2000]
     python benchmarks/strength.py --rules tien-len --utility place --only isearch --budget-ms 100 --games 320
     python benchmarks/strength.py --players 3 --only learned --games 1500   (another table: the bot against two)

The targets are for classic with four players in cards left; ``--rules``, ``--players`` and ``--utility`` measure
the same matches elsewhere (the bot under test against one fewer than the table's seats), without a target.
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    # one core a bot: the learned bot's matrix products stay on one thread (set before numpy is first imported,
    # in this process and in the arena's workers, which inherit it)
    os.environ.setdefault(_var, "1")

import argparse  # noqa: E402
import functools  # noqa: E402
import hashlib  # noqa: E402
import json  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

from rich.console import Console  # noqa: E402

from bigtwo import load_rules  # noqa: E402
from bigtwo.arena import run_arena  # noqa: E402
from bigtwo.arena.compare import compare  # noqa: E402
from bigtwo.arena.provenance import differences, provenance  # noqa: E402
from bigtwo.arena.results import ArenaResult  # noqa: E402
from bigtwo.bots.spec import BotSpec  # noqa: E402
from bigtwo.utilities import MEASURE_WORDS, UTILITIES  # noqa: E402

console = Console(highlight=False, width=130)


def match(
    rules: str, lineup: list[str], games: int, seed: int, workers: int | None, utility: str = "cards"
) -> tuple[ArenaResult, float]:
    t0 = time.perf_counter()
    done = {"n": 0}

    def progress(d: int, total: int) -> None:
        if d - done["n"] >= max(1, total // 20) or d == total:
            done["n"] = d
            el = time.perf_counter() - t0
            eta = el / d * (total - d) if d else float("nan")
            console.print(f"  {d}/{total} games, {el:.0f} s, ETA {eta:.0f} s", style="dim")

    result = run_arena(rules, lineup, games, seed=seed, utility=utility, workers=workers, progress=progress)
    return result, time.perf_counter() - t0


@functools.lru_cache(maxsize=256)
def _arena_file(path: str, mtime_ns: int, size: int) -> ArenaResult | None:
    """A saved arena run, read once while the file is unchanged (a --versus over several seeds and two specs
    looks through the folder for each), or None for another kind of JSON file."""
    try:
        return ArenaResult.load(path)
    except (ValueError, KeyError, TypeError):
        return None


def saved_match(
    out: Path, rules: str, lineup: list[str], games: int, seed: int, utility: str
) -> tuple[ArenaResult, Path] | None:
    """A match saved in ``out`` (any ``*.json`` or ``*.json.gz`` arena file) played with exactly this
    configuration by bots that would play it again, or None.

    Besides the rules, lineup, games, seed and scoring, the saved run's provenance (the bots' settings with their
    defaults, the weights files they name, the package's shipped models) must match today's: a match whose spec
    reads the same but whose bots would play otherwise is passed over, with the reason printed. A match saved
    before runs recorded their provenance is reused with a warning (nothing can tell)."""
    now = provenance([BotSpec.parse(x) for x in lineup])
    for path in sorted([*out.glob("*.json"), *out.glob("*.json.gz")]):
        stat = path.stat()
        result = _arena_file(str(path), stat.st_mtime_ns, stat.st_size)
        if result is None:
            continue  # not an arena results file (a summary, a note)
        c = result.config
        rules_name = c["rules"].get("name") if isinstance(c["rules"], dict) else c["rules"]
        same = (
            rules_name == rules
            and [e["label"] for e in c["lineup"]] == lineup
            and (c["games"], c["seed"], c["utility"]) == (games, seed, utility)
            and result.games == games
        )
        if not same:
            continue
        if "provenance" not in c:
            console.print(
                f"[yellow]{path} was saved without its bots' settings and models: reused as it is, but if a "
                "default or a shipped model changed since, its bots played otherwise (move it away to play again)"
            )
            return result, path
        changed = differences(c["provenance"], now)
        if not changed:
            return result, path
        console.print(f"{path} not reused, its bots would play otherwise: {'; '.join(changed)}", style="dim")
    return None


COUNTS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven"}


def against(lineup: list[str]) -> str:
    """The opponents of lineup entry 0, in words: ``three heuristic``."""
    return f"{COUNTS.get(len(lineup) - 1, len(lineup) - 1)} {lineup[1]}"


def paired_gain(
    rules: str,
    utility: str,
    before_label: str,
    now_label: str,
    opponent: str,
    games: int,
    seeds: list[int],
    workers: int | None,
    out: Path | None = None,
    players: int = 4,
) -> dict:
    """Two bots, each against ``players - 1`` ``opponent`` on the same deals (same seed, so the same hands and the
    opponents' same seeds): the gain of ``now_label`` over ``before_label`` is the per-deal difference of their
    mean points, a t interval over deals (what luck a deal brings both cancels in it).

    With ``out``, each match's games are saved there and a saved match of exactly the same configuration (rules,
    lineup, games, seed, utility) is read back instead of played again, whatever its file is called (the
    ``strength-isearch.json`` of a plain ``--only isearch`` run too), so a baseline is played once for all the
    variants compared with it.

    Several ``seeds`` play (or read back) a match on each deal set and pool them, deal by deal."""
    runs = {}
    for label in (before_label, now_label):
        lineup = [label, *[opponent] * (players - 1)]
        sets = []
        for seed in seeds:
            result = None
            path = None
            if out is not None:
                out.mkdir(parents=True, exist_ok=True)
                key = json.dumps([rules, lineup, games, seed, utility])
                path = out / f"paired-{hashlib.sha256(key.encode()).hexdigest()[:12]}.json"
                saved = saved_match(out, rules, lineup, games, seed, utility)
                if saved is not None:
                    result, where = saved
                    console.print(f"{label} against {against(lineup)}, seed {seed}: read from {where}")
            if result is None:
                console.rule(f"{label} against {against(lineup)}: {games} games on {rules} ({utility}), seed {seed}")
                result, _wall = match(rules, lineup, games, seed, workers, utility)
                if path is not None:
                    result.save(path)
            sets.append(result)
        result = ArenaResult.pooled(sets)
        console.print(result.table())
        runs[label] = (result, {s.label: s for s in result.summary()}[label])
    (b, before), (n, now) = runs[before_label], runs[now_label]
    gain = compare(n, b).gain  # deal by deal, the deals matched by their cards
    return {
        "rules": rules,
        "players": players,
        "utility": utility,
        "before_bot": before_label,
        "now_bot": now_label,
        "opponent": opponent,
        "games": now.games,
        "deals": now.deals,
        "before": before.points.mean,
        "before_low": before.points.low,
        "before_high": before.points.high,
        "now": now.points.mean,
        "now_low": now.points.low,
        "now_high": now.points.high,
        "gain": gain.mean,
        "gain_low": gain.low,
        "gain_high": gain.high,
        "win_before": before.win_rate.mean,
        "win_now": now.win_rate.mean,
        "win_now_low": now.win_rate.low,
        "win_now_high": now.win_rate.high,
        "met": gain.low > 0,
    }


def paired_table(rows: list[dict], first: str) -> None:
    print(
        f"| {first} | games | before: points a game [95% CI] | now: points a game [95% CI] "
        "| gain a game, deal by deal [95% CI] | win rate before -> now [95% CI] |"
    )
    print("| --- | --- | --- | --- | --- | --- |")
    for c in rows:
        bots = f"`{c['now_bot']}` - `{c['before_bot']}`"
        what = f"{c['rules']} ({c['utility']})" if first.startswith("rules") else bots
        print(
            f"| {what} | {c['games']} ({c['deals']} deals) "
            f"| {c['before']:+.2f} [{c['before_low']:+.2f}, {c['before_high']:+.2f}] "
            f"| {c['now']:+.2f} [{c['now_low']:+.2f}, {c['now_high']:+.2f}] "
            f"| **{c['gain']:+.2f}** [{c['gain_low']:+.2f}, {c['gain_high']:+.2f}] "
            f"| {c['win_before']:.1%} -> {c['win_now']:.1%} [{c['win_now_low']:.1%}, {c['win_now_high']:.1%}] |"
        )
    print(json.dumps(rows))


def cpu_ms_per_move(rules: str, lineup: list[str], games: int, seed: int) -> tuple[float, float, float]:
    """Mean CPU milliseconds a ``choose`` call of lineup entry 0 (and its maximum) and of the others, on this
    thread, over the first ``games`` games of the match (the arena's deals and seating, in this process)."""
    from bigtwo import Game
    from bigtwo.arena.play import bot_seed, seating

    r = load_rules(rules)
    specs = [BotSpec.parse(x) for x in lineup]
    n = len(specs)
    mine: list[float] = []
    theirs: list[float] = []
    clock = time.thread_time
    for g_i in range(games):
        deal, rotation = divmod(g_i, n)
        game = Game(r, players=n, seed=seed * 1_000_003 + deal)
        entries = seating(n, rotation)
        bots = [specs[e].build(bot_seed(seed, deal, rotation, e)) for e in entries]
        while not game.is_over:
            s = game.to_move
            obs = game.observe(s)
            t0 = clock()
            action = bots[s].choose(r, obs)
            (mine if entries[s] == 0 else theirs).append(clock() - t0)
            game.play(action)
    return 1000 * sum(mine) / len(mine), 1000 * max(mine), 1000 * sum(theirs) / len(theirs)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rules", default="classic")
    ap.add_argument("--games", type=int, default=2000, help="games a match (whole deals: one game a seat rotation)")
    ap.add_argument("--players", type=int, default=None, help="seats at the table (default: the rules' own)")
    ap.add_argument("--search", default="search:iterations=30:budget_ms=900", help="the search bot's spec")
    ap.add_argument(
        "--seed",
        type=int,
        nargs="+",
        default=[2024],
        help="the deals' seed; with --versus, several seeds pool their deal sets (each match saved on its own)",
    )
    ap.add_argument("--workers", type=int, default=None, help="local processes (default: every CPU)")
    ap.add_argument("--learned", default="learned", help="the learned bot's spec (e.g. other weights)")
    ap.add_argument("--budget-ms", type=float, default=1000.0, help="the time limit a decision of both searches")
    ap.add_argument("--isearch", default=None, help="the new search's spec (default: isearch at --budget-ms)")
    ap.add_argument("--baseline", default=None, help="today's search's spec (default: search at --budget-ms)")
    ap.add_argument(
        "--versus",
        default=None,
        help="with --only isearch: another spec played against the same three searches on the same deals; prints "
        "--isearch's gain over it deal by deal (with --out, a match saved there is reused)",
    )
    ap.add_argument(
        "--utility",
        default="cards",
        choices=UTILITIES,
        help="the points measured (the targets are for cards); a preset played for places: place",
    )
    ap.add_argument("--only", choices=["heuristic", "search", "learned", "isearch", "contest"], default=None)
    ap.add_argument("--cpu-games", type=int, default=400, help="games of the learned match timed in CPU time")
    ap.add_argument("--out", type=Path, default=None, help="directory for the JSON results")
    args = ap.parse_args()
    u = args.utility
    players = args.players or load_rules(args.rules).players
    others = players - 1
    search = args.search if "utility=" in args.search else args.search + f":utility={u}"
    isearch = args.isearch or f"isearch(budget_ms={args.budget_ms:g}, utility='{u}')"
    baseline = args.baseline or f"search(budget_ms={args.budget_ms:g}, utility='{u}')"
    if args.versus:
        if args.only != "isearch":
            ap.error("--versus compares two specs against the searches: give --only isearch")
        gain = paired_gain(
            args.rules, u, args.versus, isearch, baseline, args.games, args.seed, args.workers, args.out, players
        )
        console.rule(f"{isearch} beside {args.versus}, each against {against([isearch, *[baseline] * others])}")
        paired_table([gain], "bots")
        return
    if len(args.seed) > 1:
        ap.error("several --seed values pool deal sets in a --versus comparison only: give one seed")
    seed = args.seed[0]
    matches = [
        ("heuristic", ["heuristic", *["greedy"] * others], 5.0, "greedy"),
        ("search", [search, *["heuristic"] * others], 1.0, "heuristic"),
        ("learned", [args.learned, *["heuristic"] * others], 2.0, "heuristic"),
        ("isearch", [isearch, *[baseline] * others], 2.0, baseline),
    ]
    rows = []
    contest = []
    for key, lineup, target, opponent in matches:
        if (args.only and key != args.only) or args.only == "contest" or (key == "isearch" and args.only != key):
            continue  # the searches' duel runs only when asked: four searches a game
        console.rule(f"{lineup[0]} against {against(lineup)}: {args.games} games on {args.rules}, {players} players")
        result, wall = match(args.rules, lineup, args.games, seed, args.workers, u)
        console.print(result.table())
        if args.out:
            args.out.mkdir(parents=True, exist_ok=True)
            result.save(args.out / f"strength-{key}.json")
        summary = {s.label: s for s in result.summary()}
        me, them = summary[lineup[0]], summary[opponent]
        cpu = None
        if key == "learned":
            cpu = cpu_ms_per_move(args.rules, lineup, min(args.cpu_games, result.games), seed)
            console.print(
                f"CPU time a move over {min(args.cpu_games, result.games)} games: {lineup[0]} {cpu[0]:.2f} ms "
                f"(slowest {cpu[1]:.1f}), {opponent} {cpu[2]:.2f} ms"
            )
        # games in which the bot under test (lineup entry 0) took more than a second (isearch: its limit) over
        # one decision, and games in which an opponent's seat did: on the wall clock, and in the bot's own CPU
        # time (the target's measure: a machine running other processes beside it adds to the first alone)
        over = 1.0 if key != "isearch" else args.budget_ms / 1000
        slow = sum(1 for r in result.records if r.max_think_seconds[r.entries.index(0)] > over)
        slow_them = sum(
            1 for r in result.records for s, e in enumerate(r.entries) if e != 0 and r.max_think_seconds[s] > over
        )
        slow_cpu = sum(1 for r in result.records if r.slowest_seconds(0) > over)
        limit_ok = {
            "heuristic": True,
            "search": me.ms_per_move <= 1000,
            "learned": cpu is not None and cpu[0] <= 2,
            "isearch": me.ms_per_move <= args.budget_ms and slow_cpu == 0,
        }
        ok = me.points.mean >= target and (key == "heuristic" or (me.points.low > 0 and limit_ok[key]))
        rows.append(
            {
                "match": f"{lineup[0]} vs {others} {opponent}",
                "games": result.games,
                "deals": result.config["deals"],
                "points": me.points.mean,
                "low": me.points.low,
                "high": me.points.high,
                "win_rate": me.win_rate.mean,
                "win_low": me.win_rate.low,
                "win_high": me.win_rate.high,
                "ms_per_move": me.ms_per_move,
                "max_ms_per_move": me.max_ms_per_move,
                "opponent_ms_per_move": them.ms_per_move,
                "target": target,
                "met": ok,
                "games_with_a_move_over_1s": slow,
                "games_with_a_move_over_in_cpu_time": slow_cpu,
                "over_seconds": over,
                "opponent_seat_games_over": slow_them,
                "cpu_ms_per_move": cpu[0] if cpu else None,
                "cpu_max_ms_per_move": cpu[1] if cpu else None,
                "opponent_cpu_ms_per_move": cpu[2] if cpu else None,
                "wall_seconds": wall,
            }
        )
    if args.only in (None, "contest"):
        for rules, utility in (("winner", "score"), ("classic", "cards")):
            before = "heuristic(contest=False)"
            contest.append(paired_gain(rules, utility, before, "heuristic", "greedy", args.games, [seed], args.workers))
        console.rule("contesting the lead: heuristic vs three greedy, beside the heuristic before it (same deals)")
        paired_table(contest, "rules (points)")
        if args.only == "contest":
            return
    console.rule(f"summary ({MEASURE_WORDS[u]}, duplicate deals, 95% intervals over deals)")
    print(
        "| match | games | points a game [95% CI] | win rate [95% CI] | ms a move (max) | games with a move over "
        "the limit (1 s; isearch: its budget), wall clock (own CPU time) | opponent ms a move | target |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for r in rows:
        # the targets are points a card left on classic with four players: other measures and tables have none
        verdict = (
            (f">= {r['target']:+.0f}: " + ("met" if r["met"] else "NOT met"))
            if u == "cards" and args.rules == "classic" and players == 4
            else "none"
        )
        cpu = ""
        if r.get("cpu_ms_per_move") is not None:
            cpu = (
                f"; CPU {r['cpu_ms_per_move']:.2f} ({r['cpu_max_ms_per_move']:.1f}), "
                f"opponent CPU {r['opponent_cpu_ms_per_move']:.2f}"
            )
        print(
            f"| {r['match']} | {r['games']} ({r['deals']} deals) "
            f"| {r['points']:+.2f} [{r['low']:+.2f}, {r['high']:+.2f}] "
            f"| {r['win_rate']:.1%} [{r['win_low']:.1%}, {r['win_high']:.1%}] "
            f"| {r['ms_per_move']:.2f} ({r['max_ms_per_move']:.0f}){cpu} | {r['games_with_a_move_over_1s']} "
            f"({r['games_with_a_move_over_in_cpu_time']}; opponents' seats: {r['opponent_seat_games_over']}) "
            f"| {r['opponent_ms_per_move']:.2f} "
            f"| {verdict} |"
        )
    print(json.dumps(rows))


if __name__ == "__main__":
    main()
