"""The search plays what it played before its options were cut to ten and its 'auto' became a printed plan.

The expected plays were computed by the code on main before the change (commit 96b3f7d, ``isearch`` with its 30
options) and are recorded here, not recomputed: positions from games the heuristic plays, ``isearch`` with a
seed and a budget in deals, in both regimes of the crossover (no time limit plans as any budget under 1 s does; a
limit above 1 s with cards left as 1 s does). ``lab/studies/search_equivalence.py`` makes the same comparison on
hundreds of positions.
"""

from __future__ import annotations

import pytest

from bigtwo import Game, load_rules
from bigtwo.bots import make

BELOW = {"iterations": 4}  # the plan of every budget under 1 s
ABOVE = {"iterations": 4, "utility": "cards", "budget_ms": 10_000_000}  # the network in every seat at four players
CARDS = {"iterations": 4, "utility": "cards"}

# (preset, players, game seed, heuristic moves before the decision): the plays of BELOW, ABOVE and CARDS on main
PINNED = [
    (("classic", 4, 11, 5), ("5S", "8H", "5S")),
    (("classic", 4, 12, 14), ("pass", "2S", "2S")),
    (("classic", 4, 13, 9), ("pass", "pass", "KH")),
    (("classic", 3, 14, 7), ("9C 9H", "9C 9H", "9C 9H")),
    (("tien-len", 4, 15, 9), ("5D 6H 7C", "5D 6C 7C", "5D 6C 7C")),
    (("tien-len", 4, 17, 3), ("KD", "TS", "KD")),
]


def position(preset: str, players: int, seed: int, moves: int) -> tuple:
    rules = load_rules(preset)
    game = Game(rules, players=players, seed=seed)
    heuristic = make("heuristic", seed=0)
    for _ in range(moves):
        game.play(heuristic.choose(rules, game.observe(game.to_move)))
    return rules, game


@pytest.mark.parametrize(("case", "plays"), PINNED, ids=[f"{c[0]}-{c[1]}p-{c[2]}" for c, _ in PINNED])
def test_the_default_search_plays_what_it_played_on_main(case, plays):
    rules, game = position(*case)
    obs = game.observe(game.to_move)
    got = tuple(str(make("isearch", seed=5, **options).choose(rules, obs)) for options in (BELOW, ABOVE, CARDS))
    assert got == plays
