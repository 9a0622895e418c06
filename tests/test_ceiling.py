"""lab/studies/ceiling.py's cheating variants: what they see, and how they are built from a spec."""

from __future__ import annotations

import pytest

from bigtwo import Game, load_rules
from tests.benchmark_scripts import study_module


def test_omniscient_searched_is_the_spec_s_search_on_the_true_deal():
    ceiling = study_module("ceiling")
    game = Game("classic", players=4, seed=21)
    spec = "isearch(budget_ms=50, utility='cards', prior=5)"
    bot = ceiling.build("omniscient-searched", 3, game, 50, 2, spec)
    rules = load_rules("classic")
    # the spec's options, with beliefs off (every searched deal is the true one)
    assert (bot.budget_ms, bot.prior, bot.plan_for(rules, 4).weigh_beliefs) == (50, 5, False)
    sampler = bot._deal_sampler(rules, game.observe(game.to_move))
    assert sampler.sample(None) == [game.hand(s).mask for s in range(4)]
    assert bot.choose(rules, game.observe(game.to_move)) in game.legal_plays()
    shipped = ceiling.build("shipped", 3, game, 50, 2, "")
    assert (shipped.budget_ms, shipped.plan_for(rules, 4).weigh_beliefs, shipped.prior) == (50, True, 20.0)


def test_a_spec_that_is_not_an_isearch_is_refused():
    ceiling = study_module("ceiling")
    with pytest.raises(SystemExit, match="--spec 'heuristic' is not an isearch"):
        ceiling.searched_spec("heuristic", 1000)


@pytest.mark.parametrize(("variant", "cheats_at_first"), [("omniscient-late", False), ("omniscient-early", True)])
def test_the_phase_cheats_see_the_true_deal_only_in_their_part_of_the_round(variant, cheats_at_first):
    """At the first play 39 cards are hidden: the early cheat searches the true deal there, the late one samples
    with its beliefs as the spec plays; with 20 or fewer hidden it is the other way round."""
    ceiling = study_module("ceiling")
    rules = load_rules("classic")
    game = Game(rules, players=4, seed=10)  # eight ways to lead with the 3D: a decision that searches
    spec = "isearch(iterations=4, utility='cards')"
    bot = ceiling.build(variant, 3, game, 50, 2, spec, late=20)
    seen = []
    real = bot._deal_sampler
    bot._deal_sampler = lambda r, o: seen.append(type(real(r, o)).__name__) or real(r, o)
    assert bot.choose(rules, game.observe(game.to_move)) in game.legal_plays()
    assert seen == ["TrueDeal" if cheats_at_first else "DealSampler"]
    assert bot.plan_for(rules, 4).weigh_beliefs is not cheats_at_first
    while sum(game.hand_sizes()) - game.hand(game.to_move).mask.bit_count() > 20 or len(game.legal_plays()) < 3:
        game.play(game.legal_plays()[0])  # the lowest play, as greedy plays
        assert not game.is_over
    seen.clear()
    bot.choose(rules, game.observe(game.to_move))
    assert seen == ["DealSampler" if cheats_at_first else "TrueDeal"]
