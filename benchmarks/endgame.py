"""What exact endgame play would be worth: each bot's moves beside the max^n solver's, on the true deal.

A diagnostic for the search's play-outs. ``--driver`` plays every seat of ``--games`` rounds (classic, four
players, one point a card left); at the first decision of each round with a choice and no more than T cards in
all hands together (for each T of ``--cards``), :class:`~bigtwo.bots.endgame.EndgameSolver` values every legal
move with every hand known, and each bot of ``--bots`` chooses from its seat's observation alone. A bot's
*regret* is the mover's max^n value of the best move less that of its own (points, the rest of the round played
exactly by every seat); a *mistake* is a move with regret above zero. ``random`` is the baseline, measured in the
same run. Beside them, how many decisions with a choice a round has at or under each T (all seats together):
regret times that share of a seat's decisions bounds what an exact endgame would give a play-out a round.

The bots see only their observation and the solver sees everything, so the regret counts what a bot cannot know
as well as its misjudgment: it bounds what perfect endgame play, information included, would be worth.

Run: python benchmarks/endgame.py [--games 300] [--cards 6 8 10] [--bots learned heuristic random]
     [--driver learned] [--max-nodes 100000] [--workers 2] [--seed 5]
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")  # one core a worker (before numpy is first imported)

import argparse  # noqa: E402
import multiprocessing  # noqa: E402
import statistics  # noqa: E402
import time  # noqa: E402
from typing import Any  # noqa: E402

from bigtwo.bots.endgame import EndgameSolver  # noqa: E402
from rich.console import Console  # noqa: E402
from rich.table import Table  # noqa: E402

from bigtwo import Game, load_rules  # noqa: E402
from bigtwo.arena.play import bot_seed, deal_seed  # noqa: E402
from bigtwo.arena.stats import mean_interval  # noqa: E402
from bigtwo.bots.spec import BotSpec  # noqa: E402

console = Console(highlight=False, width=130)
PLAYERS = 4


def survey_round(job: dict[str, Any]) -> dict[str, Any]:
    """One round played by the driver, with the positions solved and every bot's move at each; a dict of
    plain values (it crosses processes)."""
    rules = load_rules("classic")
    index, seed = job["round"], job["seed"]
    game = Game(rules, players=PLAYERS, seed=deal_seed(seed, index))
    driver = BotSpec.parse(job["driver"]).build(bot_seed(seed, index, 0, 0))
    bots = {spec: BotSpec.parse(spec).build(bot_seed(seed, index, 0, k + 1)) for k, spec in enumerate(job["bots"])}
    solver = EndgameSolver("cards", job["max_nodes"])
    thresholds = sorted(job["cards"])
    pending = list(thresholds)
    decisions = dict.fromkeys(thresholds, 0)
    positions: list[dict[str, Any]] = []
    while not game.is_over:
        legal = game.legal_plays()
        total = sum(game.hand_sizes())
        if len(legal) > 1:
            for t in thresholds:
                decisions[t] += total <= t
            reached = [t for t in pending if total <= t]
            if reached:
                pending = [t for t in pending if total > t]
                positions.append(solved_position(game, bots, solver, rules, reached, total))
        game.apply(driver.choose(rules, game.observe(game.to_move)) if len(legal) > 1 else legal[0])
    return {"decisions": decisions, "positions": positions}


def solved_position(game: Game, bots: dict, solver: EndgameSolver, rules: Any, reached, total) -> dict:
    """The solver's value of the position and each bot's regret there (None where the solve gave up)."""
    solver.clear()
    start = time.perf_counter()
    got = solver.best(game)
    ms = (time.perf_counter() - start) * 1000
    row: dict[str, Any] = {"cards": reached, "total": total, "ms": ms, "nodes": len(solver.table), "regret": None}
    if got is None:
        return row
    _best, value = got
    mover = game.to_move
    observation = game.observe(mover)
    regret = {}
    for spec, bot in bots.items():
        child = game.clone()
        child.play(bot.choose(rules, observation))
        after = solver.solve(child)  # the best move's table holds this line: no new search
        assert after is not None
        regret[spec] = value[mover] - after[mover]
    row["regret"] = regret
    return row


def run(games: int, cards: list[int], bots: list[str], driver: str, max_nodes: int, workers: int, seed: int):
    jobs = [
        {"round": i, "seed": seed, "cards": cards, "bots": bots, "driver": driver, "max_nodes": max_nodes}
        for i in range(games)
    ]
    if workers > 1:
        with multiprocessing.get_context("spawn").Pool(workers) as pool:
            return list(pool.imap(survey_round, jobs))
    return [survey_round(j) for j in jobs]


def summary(rounds: list[dict], cards: list[int], bots: list[str]) -> list[dict[str, Any]]:
    """A row a threshold: positions solved and given up, the solver's cost, and each bot's regret and mistakes."""
    out = []
    for t in sorted(cards):
        rows = [p for r in rounds for p in r["positions"] if t in p["cards"]]
        solved = [p for p in rows if p["regret"] is not None]
        row: dict[str, Any] = {
            "cards": t,
            "positions": len(solved),
            "gave_up": len(rows) - len(solved),
            "decisions": statistics.mean(r["decisions"][t] for r in rounds),
            "ms": statistics.mean(p["ms"] for p in solved) if solved else float("nan"),
            "ms_max": max((p["ms"] for p in solved), default=float("nan")),
            "nodes": statistics.median(p["nodes"] for p in solved) if solved else float("nan"),
            "bots": {},
        }
        for spec in bots:
            regrets = [p["regret"][spec] for p in solved]
            if len(regrets) >= 2:
                iv = mean_interval(regrets)
                row["bots"][spec] = (iv.mean, iv.low, iv.high, sum(r > 0 for r in regrets) / len(regrets))
        out.append(row)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=300, help="rounds played by the driver")
    ap.add_argument("--cards", type=int, nargs="+", default=[6, 8, 10], help="thresholds: cards in all hands")
    ap.add_argument("--bots", nargs="+", default=["learned", "heuristic", "random"], help="bots judged (specs)")
    ap.add_argument("--driver", default="learned", help="the bot that plays every seat of the rounds")
    ap.add_argument("--max-nodes", type=int, default=100_000, help="positions a solve may visit")
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--seed", type=int, default=5)
    a = ap.parse_args()
    start = time.perf_counter()
    rounds = run(a.games, a.cards, a.bots, a.driver, a.max_nodes, a.workers, a.seed)
    rows = summary(rounds, a.cards, a.bots)
    table = Table(title=f"{a.games} rounds played by {a.driver}: regret in points beside exact (max^n) play")
    for column in ("cards in hands", "positions (gave up)", "decisions a round", "solve ms (max)", "nodes"):
        table.add_column(column, justify="right")
    for spec in a.bots:
        table.add_column(f"{spec}: regret [95% CI], mistakes", justify="right")
    for r in rows:
        cells = [
            f"<= {r['cards']}",
            f"{r['positions']} ({r['gave_up']})",
            f"{r['decisions']:.2f}",
            f"{r['ms']:.0f} ({r['ms_max']:.0f})",
            f"{r['nodes']:,.0f}",
        ]
        for spec in a.bots:
            got = r["bots"].get(spec)
            cells.append("-" if got is None else f"{got[0]:.3f} [{got[1]:.3f}, {got[2]:.3f}], {got[3]:.0%}")
        table.add_row(*cells)
    console.print(table)
    console.print(f"{time.perf_counter() - start:.0f} s on {a.workers} worker(s)")


if __name__ == "__main__":
    main()
