"""benchmarks/ceiling.py's cheating variants: what they see, and how they are built from a spec."""

from __future__ import annotations

import pytest

from bigtwo import Game, load_rules
from tests.benchmark_scripts import benchmark_module


def test_omniscient_searched_is_the_spec_s_search_on_the_true_deal():
    ceiling = benchmark_module("ceiling")
    game = Game("classic", players=4, seed=21)
    spec = "isearch(budget_ms=50, utility='cards', prior=5)"
    bot = ceiling.build("omniscient-searched", 3, game, 50, 2, spec, 0.5)
    # the spec's options, with beliefs off (every searched deal is the true one) and the other seats' softmax
    assert (bot.budget_ms, bot.prior, bot.beliefs, bot.opponent_temperature) == (50, 5, False, 0.5)
    rules = load_rules("classic")
    sampler = bot._deal_sampler(rules, game.observe(game.to_move))
    assert sampler.sample(None) == [game.hand(s).mask for s in range(4)]
    assert bot.choose(rules, game.observe(game.to_move)) in game.legal_plays()
    shipped = ceiling.build("shipped", 3, game, 50, 2, "", 0.5)
    assert (shipped.budget_ms, shipped.beliefs, shipped.prior) == (50, True, 20.0)


def test_a_spec_that_is_not_an_isearch_is_refused():
    ceiling = benchmark_module("ceiling")
    with pytest.raises(SystemExit, match="--spec 'heuristic' is not an isearch"):
        ceiling.searched_spec("heuristic", 1000)
