"""Does the search still play what it played? Decisions of two versions of the package, position by position.

The positions come from real games (the heuristic in every seat, fixed seeds) at three tables: classic with four
players, classic with three, and Tien Len with four. At each of them every bot spec below chooses with a fixed
seed and a budget in deals (``iterations=``), so the choice depends on the code alone, not on the machine's speed.
The specs cover both sides of the search's crossover (:mod:`bigtwo.bots.search_plan`): no time limit, which
plans as any budget under 1 s does (the heuristic's play-outs for the other seats, six and two candidates, the
heuristic's likelihood as beliefs), and a limit far above 1 s, which plans as 1 s does (at four players scored
by cards left, the network in every seat, three and three, the belief network, the stand-in for the opponents).

Record each version's choices with its own source tree on the path, then compare the files::

    PYTHONPATH=/tmp/search-old/src python lab/studies/search_equivalence.py record --out /tmp/old.json
    python lab/studies/search_equivalence.py record --out /tmp/new.json
    python lab/studies/search_equivalence.py compare /tmp/old.json /tmp/new.json

The script uses the public API alone (``make``, ``BotSpec``, ``Game``), which both versions share.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from bigtwo import Game, load_rules
from bigtwo.bots import make
from bigtwo.bots.spec import BotSpec

TABLES = (("classic", 4), ("classic", 3), ("tien-len", 4))
SPECS = (
    "isearch(iterations={n})",  # no time limit: the plan of every budget under 1 s
    "isearch(iterations={n}, budget_ms=10000000)",  # far above 1 s: the plan from 1 s on
    "isearch(iterations={n}, utility='cards')",
    "isearch(iterations={n}, budget_ms=10000000, utility='cards')",  # the network in every seat at 4 players
    "search(iterations={n})",
)


def positions(preset: str, players: int, count: int, every: int) -> list[tuple[int, int, list[str]]]:
    """``count`` positions with a choice, from games the heuristic plays in every seat: (game seed, seat to move,
    the plays made so far as text), every ``every``-th decision with two or more legal plays."""
    rules = load_rules(preset)
    out: list[tuple[int, int, list[str]]] = []
    seed = 0
    while len(out) < count:
        game = Game(rules, players=players, seed=1000 + seed)
        bots = [make("heuristic", seed=seed * 10 + s) for s in range(players)]
        moves: list[str] = []
        decisions = 0
        while not game.is_over and len(out) < count:
            seat = game.to_move
            obs = game.observe(seat)
            legal = game.legal_plays()
            if len(legal) > 1:
                if decisions % every == seed % every:
                    out.append((1000 + seed, seat, list(moves)))
                decisions += 1
            play = bots[seat].choose(rules, obs)
            moves.append(str(game.play(play)))
        seed += 1
    return out


def replay(preset: str, players: int, game_seed: int, moves: list[str]) -> Game:
    game = Game(load_rules(preset), players=players, seed=game_seed)
    for text in moves:
        game.play(text)
    return game


def record(out: Path, count: int, every: int, iterations: int) -> None:
    found: dict[str, list[str]] = {}
    began = time.perf_counter()
    for preset, players in TABLES:
        rules = load_rules(preset)
        spots = positions(preset, players, count, every)
        for template in SPECS:
            spec = BotSpec.parse(template.format(n=iterations))
            key = f"{preset}/{players}p/{spec.label}"
            choices = []
            for i, (game_seed, seat, moves) in enumerate(spots):
                game = replay(preset, players, game_seed, moves)
                assert game.to_move == seat
                bot = spec.build(10_000 + i)
                choices.append(str(bot.choose(rules, game.observe(seat))))
            found[key] = choices
            print(f"{key}: {len(choices)} decisions, {time.perf_counter() - began:.0f} s", file=sys.stderr)
    out.write_text(json.dumps(found, indent=1))


def compare(old: Path, new: Path) -> int:
    a, b = json.loads(old.read_text()), json.loads(new.read_text())
    total = same = 0
    for key in a:
        x, y = a[key], b.get(key, [])
        agree = sum(1 for p, q in zip(x, y, strict=False) if p == q)
        print(f"{key}: {agree} of {len(x)} decisions identical")
        total += len(x)
        same += agree
    print(f"all: {same} of {total} decisions identical")
    return 0 if same == total else 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    rec = sub.add_parser("record", help="the choices of the package on the path")
    rec.add_argument("--out", type=Path, required=True)
    rec.add_argument("--positions", type=int, default=100, help="positions a table")
    rec.add_argument("--every", type=int, default=3, help="take every n-th decision of a game")
    rec.add_argument("--iterations", type=int, default=6, help="sampled deals a decision")
    cmp = sub.add_parser("compare", help="count the identical choices of two recordings")
    cmp.add_argument("old", type=Path)
    cmp.add_argument("new", type=Path)
    args = parser.parse_args()
    if args.command == "record":
        record(args.out, args.positions, args.every, args.iterations)
    else:
        raise SystemExit(compare(args.old, args.new))


if __name__ == "__main__":
    main()
