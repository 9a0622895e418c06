"""The exact endgame solver: max^n over the engine's own moves, checked against a plain recursion."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bigtwo import load_rules
from bigtwo.bots.endgame import EndgameSolver
from bigtwo.cards import CardSet
from bigtwo.game import Game
from bigtwo.utilities import round_utility
from tests.benchmark_scripts import benchmark_module


def plain_maxn(game: Game, measure: str = "cards") -> tuple[float, ...]:
    """The reference: every line searched again (clones, no table), ties to the first move listed."""
    if game.is_over:
        assert game.result is not None
        return tuple(round_utility(game.result, measure))
    mover = game.to_move
    best = None
    for move in game.legal_plays():
        child = game.clone()
        child.play(move)
        v = plain_maxn(child, measure)
        if best is None or v[mover] > best[mover]:
            best = v
    assert best is not None
    return best


def small_position(seed: int, rules: str = "classic", most: int = 3) -> Game:
    """Four hands of one to ``most`` cards from a shuffled pack, a random seat to lead."""
    rng = random.Random(seed)
    pack = list(CardSet.deck())
    rng.shuffle(pack)
    hands, at = [], 0
    for _ in range(4):
        k = rng.randint(1, most)
        hands.append(" ".join(str(c) for c in pack[at : at + k]))
        at += k
    return Game(rules, hands=hands, first=rng.randrange(4))


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**9))
def test_solver_equals_plain_recursion_and_leaves_the_round_as_it_was(seed):
    game = small_position(seed)
    before = (game.position_key(), len(game.history), len(game._undo))
    got = EndgameSolver(max_nodes=10**6).solve(game)
    assert got == plain_maxn(game)
    assert (game.position_key(), len(game.history), len(game._undo)) == before


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10**9))
def test_best_move_is_the_mover_s_max_n_move(seed):
    game = small_position(seed)
    legal = game.legal_plays()
    index, value = EndgameSolver(max_nodes=10**6).best(game)
    child = game.clone()
    child.play(legal[index])
    assert plain_maxn(child) == value
    mover = game.to_move
    for move in legal:  # no move does better for the mover
        other = game.clone()
        other.play(move)
        assert plain_maxn(other)[mover] <= value[mover]


def test_solve_mid_round_after_plays_and_a_pass():
    """A position reached by play (a trick on the table, a seat passed), as a play-out hands it over."""
    game = Game("classic", hands=["3D 5S 2S", "4C 6H 6D", "7D KS", "8S 9S"], first=0)
    game.play("3D")
    game.play("4C")
    game.play("pass")
    assert EndgameSolver().solve(game) == plain_maxn(game)


def test_the_cards_values_sum_to_zero_and_the_obvious_win_is_found():
    # seat 0 leads the unbeatable 2S and goes out with the 3D; led first, the 3D would fall to the next seat's
    # 4C, its last card
    game = Game("classic", hands=["2S 3D", "4C", "5C", "6C"], first=0)
    index, value = EndgameSolver().best(game)
    assert sum(value) == 0
    assert str(game.legal_plays()[index]) == "2S"
    assert value[0] == 3.0  # it goes out: the three others pay a card each


def test_a_solve_that_would_visit_too_many_positions_gives_up_and_undoes_its_moves():
    game = Game("classic", seed=3)
    before = (game.position_key(), len(game.history), len(game._undo))
    solver = EndgameSolver(max_nodes=50)
    assert solver.solve(game) is None
    assert solver.best(game) is None
    assert (game.position_key(), len(game.history), len(game._undo)) == before
    assert game.legal_plays()  # still playable


def test_other_rules_and_measures_follow_the_engine():
    """The solver walks the engine, so a preset's rules and another measure need nothing of their own."""
    for seed in range(5):
        game = small_position(seed, rules="tien-len")
        for measure in ("cards", "place", "win"):
            assert EndgameSolver(measure, max_nodes=10**6).solve(game) == plain_maxn(game, measure)


def test_max_nodes_must_be_positive():
    with pytest.raises(ValueError, match="max_nodes must be 1 or more, not 0"):
        EndgameSolver(max_nodes=0)


def test_the_endgame_benchmark_judges_bots_against_the_solver():
    """benchmarks/endgame.py on a few rounds: the solver's own choice has no regret, random's is worse."""
    endgame = benchmark_module("endgame")
    rounds = endgame.run(40, [10], ["random"], "learned", 100_000, 1, 5)
    rows = endgame.summary(rounds, [10], ["random"])
    assert rows[0]["positions"] > 0 and rows[0]["gave_up"] == 0
    solved = [p for r in rounds for p in r["positions"]]
    assert all(p["total"] <= 10 and p["regret"]["random"] >= 0 for p in solved)
    assert rows[0]["decisions"] >= rows[0]["positions"] / 40


HISTORY_READING_RULES = {
    # a round played on to the last card, scored by the cards left when the first seat went out
    "winner": lambda: load_rules("winner"),
    # the seat whose single the winner's last single beat, holding one that would have stopped it, pays for all
    "assistance": lambda: load_rules("classic").replace(assistance_penalty=True),
    # the seat after a lead of three 3s, holding three 2s, may not pass: only on the trick's opening play
    "three 3s": lambda: load_rules("classic").replace(three_threes_force_twos=True),
}


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10**9), st.sampled_from(sorted(HISTORY_READING_RULES)))
def test_the_table_is_exact_where_the_rules_read_the_history(seed, name):
    """The table keys on ``Game.position_key()``: where scores or legal plays depend on the order of play that
    reached a position, two such orders must not share a value (the plain recursion has no table)."""
    game = small_position(seed, rules=HISTORY_READING_RULES[name]())
    for measure in ("score", "cards"):
        assert EndgameSolver(measure, max_nodes=10**6).solve(game) == plain_maxn(game, measure)
