"""The stronger search, ``isearch`` (issue 15, part 3): belief inference, the learned prior, successive halving.

Small budgets in sampled deals (``iterations``), so every check is reproducible; no clock reading is asserted.
"""

from __future__ import annotations

import itertools
import math
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bigtwo import Game, load_rules
from bigtwo.bots import make
from bigtwo.bots.halving import effective_size, tempered_weights
from bigtwo.bots.heuristic import WIN, policy_for
from bigtwo.bots.playouts import NetworkPlayouts, rollout
from bigtwo.bots.sampling import DealSampler, PlayModel
from bigtwo.bots.search import InferenceSearchBot
from bigtwo.bots.search_config import SearchConfig
from bigtwo.bots.search_plan import resolve_plan
from bigtwo.bots.view import engine_of, played_in, view_from_game, view_from_observation
from bigtwo.errors import BigTwoError
from bigtwo.utilities import round_utility
from tests.test_bots import HIDDEN_CASES, midgame, play_out, ruleset, scrambled

TINY = {"iterations": 3, "candidates": 3, "learned_candidates": 1}


@pytest.mark.parametrize(
    "name,players", [("classic", 4), ("classic", 3), ("winner", 4), ("two-decks", 5), ("two-player-draw", 2)]
)
def test_isearch_plays_only_legal_actions(name, players):
    """With the learned prior (classic, four players) and without it, with and without beliefs (two decks, a
    stock), every action is one of the engine's."""
    rules = ruleset(name)
    bots = [make("isearch", seed=s, **TINY) if s % 2 == 0 else make("heuristic") for s in range(players)]
    assert play_out(rules, players, bots, seed=players).result is not None


@pytest.mark.parametrize("name,players,seed,actions", [c for c in HIDDEN_CASES if c[0] in ("classic", "two-decks")])
def test_isearch_does_not_see_other_seats_hidden_cards(name, players, seed, actions):
    rules = ruleset(name)
    g = midgame(rules, seed, actions, players)
    seat = g.to_move
    twin = scrambled(g, seat, random.Random(seed))
    a = make("isearch", seed=7, **TINY).choose(rules, g.observe(seat))
    b = make("isearch", seed=7, **TINY).choose(rules, twin.observe(seat))
    assert a == b


PLAYOUT_OPTIONS = [
    {"playout": "learned"},
    {"playout": "mixed"},
    {"playout": "heuristic"},
    {"playout": "learned", "opponent_weights": None},
    {"playout": "learned", "belief_weights": "shipped"},
]


@pytest.mark.parametrize("options", PLAYOUT_OPTIONS, ids=str)
def test_network_play_outs_and_values_play_only_legal_actions(options):
    """The learned network as the play-out policy (in every seat, or in the searching seat's), with and without
    the opponents' model and the belief network; without weights (winner) the heuristic plays out."""
    for name in ("classic", "winner"):
        rules = ruleset(name)
        bots = [make("isearch", seed=s, **TINY, **options) if s % 2 == 0 else make("heuristic") for s in range(4)]
        assert play_out(rules, 4, bots, seed=2).result is not None


@pytest.mark.parametrize("options", [*PLAYOUT_OPTIONS[:2], *PLAYOUT_OPTIONS[-2:]], ids=str)
@pytest.mark.parametrize("name,players,seed,actions", [c for c in HIDDEN_CASES if c[0] == "classic"])
def test_network_play_outs_do_not_see_hidden_cards(options, name, players, seed, actions):
    rules = ruleset(name)
    g = midgame(rules, seed, actions, players)
    seat = g.to_move
    twin = scrambled(g, seat, random.Random(seed))
    a = make("isearch", seed=7, **TINY, **options).choose(rules, g.observe(seat))
    b = make("isearch", seed=7, **TINY, **options).choose(rules, twin.observe(seat))
    assert a == b


def test_the_search_reads_positions_as_the_learned_bot_does():
    """The fast path a search uses (features straight from a Game) chooses what the learned bot chooses from its
    observation, and its value is the best Q in points."""
    from bigtwo.bots.learned import scorer_for

    rules = load_rules("classic")
    scorer = scorer_for(rules, 4)
    assert scorer is not None and scorer_for(ruleset("winner"), 4) is None
    bot = make("learned")
    checked = 0
    for seed in range(8):
        g = midgame(rules, seed, 3 + 2 * seed)
        if g.is_over:
            continue
        assert scorer.act(g) == bot.choose(rules, g.observe(g.to_move))
        legal = g.legal_plays()
        assert scorer.value(g) == pytest.approx(13.0 * max(scorer.q(g, legal)), rel=1e-6)
        checked += 1
    assert checked >= 6


def midgames_searched_by(bot, rules, count=10):
    """Ten positions of random play, with the seat to move and the heuristic the bot searches with there."""
    for seed in range(count):
        g = midgame(rules, seed, 2 * seed)
        if not g.is_over:
            yield g, g.to_move, policy_for(engine_of(rules, g.observe(g.to_move)))


def lines_after_every_action(game):
    """A copy of ``game`` after each of its legal actions, with the cards played in each (a play-out's start)."""
    lines, marks = [], []
    for action in game.legal_plays():
        line = game.clone()
        marks.append(played_in(game) | line.play(action).mask)
        lines.append(line)
    return lines, marks


@pytest.mark.parametrize("playout", ["learned", "mixed"])
def test_play_outs_side_by_side_score_as_one_at_a_time(playout):
    """A deal's play-outs after every candidate go on side by side, the network moving all waiting lines in one
    pass: each line ends as it ends played alone (the same moves, so the same points for the searching seat)."""
    from bigtwo.bots.learned import scorer_for

    rules = load_rules("classic")
    scorer = scorer_for(rules, 4)
    bot = InferenceSearchBot(seed=1, iterations=3, playout=playout, utility="cards")
    assert bot.plan_for(rules, 4).plays_together
    assert not InferenceSearchBot(playout="heuristic").plan_for(rules, 4).plays_together
    compared = 0
    for g, seat, policy in midgames_searched_by(bot, rules):
        lines, marks = lines_after_every_action(g)
        runner = NetworkPlayouts(seat, "cards", policy, scorer, playout == "learned")
        alone = []
        for line, mark in zip(lines, marks, strict=True):
            (points,) = runner.points([line.clone()], [mark])
            alone.append(points)
        together = runner.points(lines, marks)
        assert all(line.is_over for line in lines)
        # a value read from a pass over many lines may differ from one line's in the last bits of float32
        assert together == pytest.approx(alone, rel=1e-5, abs=1e-5)
        compared += len(lines)
    assert compared >= 40


def test_auto_play_outs_put_the_network_in_every_seat_where_that_was_measured_stronger():
    """``playout='auto'`` (the default): the network plays every seat of the play-outs where that was measured ahead
    (four players, one point a card left, 1 s a decision), the searching seat's only elsewhere; an explicit
    choice is kept everywhere. The plan says so before any decision."""
    classic, tien_len = load_rules("classic"), load_rules("tien-len")

    def playout(players=4, rules=classic, **options):
        return resolve_plan(SearchConfig(**options), rules, players, "net").playout

    assert playout(budget_ms=1000, utility="cards") == playout(budget_ms=2500, utility="cards") == "learned"
    assert playout(budget_ms=999, utility="cards") == playout(iterations=8, utility="cards") == "mixed"
    assert playout(3, budget_ms=1000, utility="cards") == playout(budget_ms=1000, utility="place") == "mixed"
    assert playout(budget_ms=1000) == "mixed"  # classic's own measure is its scoring, not cards left
    assert playout(rules=tien_len, budget_ms=1000) == "mixed"  # (places)
    assert playout(budget_ms=100, playout="learned") == "learned"
    rules = classic
    g = midgame(rules, 3, 6)
    for options, played in (
        ({"budget_ms": 1000, "iterations": 2, "utility": "cards"}, "learned"),
        ({"budget_ms": 1000, "iterations": 2, "utility": "place"}, "mixed"),
        ({"iterations": 2, "utility": "cards"}, "mixed"),
        ({"budget_ms": 1000, "iterations": 2, "utility": "cards", "playout": "heuristic"}, "heuristic"),
    ):
        bot = make("isearch", seed=1, **options)
        assert bot.plan_for(rules, 4).playout == played
        bot.choose(rules, g.observe(g.to_move))
        assert bot.playout == options.get("playout", "auto") and bot.last_playout == played


def test_the_plan_is_found_once_a_table_and_printed():
    """A bot resolves its plan once for each table (the same object at every decision there) and prints it in
    words: the crossover, and why a table is on one side of it."""
    bot = make("isearch", budget_ms=1000, utility="cards")
    classic = load_rules("classic")
    plan = bot.plan_for(classic, 4)
    assert bot.plan_for(classic, 4) is plan and bot.plan_for(classic, 3) is not plan
    words = "\n".join(plan.describe())
    assert "at or above the crossover" in words and "the network in every seat" in words
    assert "standin/classic-4p.npz" in words and "belief/classic-4p.npz" in words
    short = "\n".join(make("isearch", budget_ms=999, utility="cards").plan_for(classic, 4).describe())
    assert "below the crossover" in short and "a limit under 1000 ms" in short
    assert "heuristic's best 6 and the network's best 2" in short
    three = "\n".join(bot.plan_for(classic, 3).describe())
    assert "3 players, not 4" in three


def test_the_candidates_are_fewer_where_the_network_plays_every_seat():
    """Left to the table, the candidates are the heuristic's best three and the network's best three where the
    network plays every seat of the play-outs, the heuristic's six and the network's two elsewhere (and where the
    table has no network); a count given is kept everywhere."""
    classic = load_rules("classic")

    def counts(players=4, network="net", **options):
        plan = resolve_plan(SearchConfig(**{"utility": "cards", **options}), classic, players, network)
        return plan.heuristic_candidates, plan.network_candidates

    assert counts(budget_ms=1000) == (3, 3)
    assert counts(budget_ms=1000, network=None) == counts(3, budget_ms=1000) == (6, 2)
    assert counts(budget_ms=1000, utility="place") == counts(budget_ms=100) == (6, 2)
    assert counts(budget_ms=100, playout="learned") == (3, 3)
    assert counts(budget_ms=1000, playout="mixed") == (6, 2)
    assert counts(budget_ms=1000, candidates=5) == (5, 3)
    assert counts(budget_ms=1000, learned_candidates=0) == (3, 0)
    rules = load_rules("classic")
    obs = next(decisions_with_a_choice(rules, [(s, 4) for s in range(40) if s % 3 == 0]))
    bot = make("isearch", seed=1, budget_ms=1000, iterations=2, utility="cards").adjust_plan(halving=False)
    bot.choose(rules, obs)
    view = view_from_observation(rules, obs, bot.legal(rules, obs))
    top = [str(p) for _s, p in policy_for(engine_of(rules, obs)).scores(view)[:3]]
    assert set(top) <= set(bot.last_counts) and len(bot.last_counts) <= 3 + 3 + 1  # and the pass


def test_at_two_decks_the_candidates_are_distinct_plays(tmp_path, monkeypatch):
    """With two decks the engine lists each copy's set as a play (the copies are distinct cards): a hand holding
    both copies of a card has that single listed twice, the heuristic ranks the two side by side and the network
    values them alike. The candidates of ``search`` and ``isearch`` (and the moves a play-out's
    searching seat weighs) hold each play once, the next distinct play in the other's place."""
    from bigtwo.bots.heuristic import search_candidates
    from bigtwo.bots.search import SearchBot
    from bigtwo.cards import DECK_SIZE, fold_copies

    def distinct(plays):
        return len({fold_copies(p.mask) for p in plays}) == len(plays)

    rules = ruleset("two-decks")
    g = midgame(rules, 0, 3, players=5)
    obs = g.observe(g.to_move)
    assert obs.hand & obs.hand >> DECK_SIZE  # both copies of a card
    weights = random_network(tmp_path / "n.npz", rules, 5, 3, rules_settings=rules.to_dict(sectioned=False))
    legal = g.legal_plays()
    ranked = policy_for(engine_of(rules, obs)).scores(view_from_observation(rules, obs, legal))
    assert not distinct([p for _s, p in ranked[:4]])  # the heuristic's best four hold one play twice
    q = make("isearch", weights=weights)._network_for(rules, 5).values(rules, obs, legal)
    assert q is not None and not distinct([legal[i] for i in sorted(range(len(legal)), key=lambda i: -q[i])[:2]])
    first_four: list = []  # the heuristic's best four distinct plays, the better ranked copy of each
    for _s, p in ranked:
        if len(first_four) < 4 and distinct([*first_four, p]):
            first_four.append(p)

    options = search_candidates(ranked, 4)
    assert options[:4] == first_four and options[4:] == [p for p in legal if p.is_pass and p not in first_four]

    seen = {}

    def spy_search(self, rules, obs, policy, cands, deadline):
        seen[self.name] = cands
        return cands[0]

    def spy_candidates(self, rules, obs, plan, policy, cands, *rest):
        seen[self.name] = cands
        return cands[0]

    monkeypatch.setattr(SearchBot, "_search", spy_search)
    monkeypatch.setattr(InferenceSearchBot, "_search_candidates", spy_candidates)
    make("search", seed=1, iterations=2, candidates=4).choose(rules, obs)
    make("isearch", seed=1, iterations=2, candidates=4, learned_candidates=2, weights=weights).choose(rules, obs)
    assert seen["search"] == options
    cands = seen["isearch"]  # and the network's best two distinct plays the heuristic's four lack
    assert distinct(cands) and cands[:4] == first_four, [str(p) for p in cands]
    assert len(cands) == 4 + 2, [str(p) for p in cands]


def test_at_one_deck_the_candidates_are_the_best_listed(monkeypatch):
    """With one deck no two plays are equal up to copies, and the candidates are as they always were: the
    heuristic's best ``k`` as ranked and the pass; for ``isearch`` beside them the network's best ``n`` it lacks."""
    from bigtwo.bots.heuristic import search_candidates

    seen, networked = [], 0

    def spy(self, rules, obs, plan, policy, cands, *rest):
        seen.append(cands)

    monkeypatch.setattr(InferenceSearchBot, "_search_candidates", spy)
    for name in ("classic", "winner", "wild-jokers"):
        rules = ruleset(name)
        for obs in decisions_with_a_choice(rules, [(s, a) for s in range(4) for a in (4, 9, 17)]):
            bot = make("isearch", seed=1, iterations=1, candidates=3, learned_candidates=2)
            legal = bot.legal(rules, obs)
            ranked = policy_for(engine_of(rules, obs)).scores(view_from_observation(rules, obs, legal))
            for k in (1, 3, 6):
                assert (
                    search_candidates(ranked, k)
                    == [p for _s, p in ranked[:k]] + [p for _s, p in ranked[k:] if p.is_pass]
                    or ranked[0][0] >= WIN
                )
            seen.clear()
            bot.choose(rules, obs)
            if not seen:
                continue  # it went out
            expected = [p for _s, p in ranked[:3]]
            q = bot._network_for(rules, obs.players).values(rules, obs, legal)
            if q is not None:
                expected += [legal[i] for i in sorted(range(len(legal)), key=lambda i: -q[i])[:2]]
                networked += 1
            expected = list(dict.fromkeys(expected)) + [p for p in legal if p.is_pass and p not in expected]
            assert seen == [expected]
    assert networked  # (classic's four seats have the shipped network)


def test_the_same_seed_plays_the_same_game():
    rules = load_rules("classic")
    lineup = lambda: [make("isearch", seed=s, **TINY) for s in range(4)]  # noqa: E731
    games = [play_out(rules, 4, lineup(), seed=5) for _ in range(2)]
    assert games[0].history == games[1].history


def test_successive_halving_plays_the_best_candidates_on_more_deals():
    rules = load_rules("classic")
    g = midgame(rules, 8, 6)
    obs = g.observe(g.to_move)
    bot = make("isearch", seed=1, iterations=8, candidates=6, learned_candidates=2)
    choice = bot.choose(rules, obs)
    counts = bot.last_counts
    assert len(counts) >= 4 and bot.last_iterations == 8
    assert max(counts.values()) == 8 and min(counts.values()) < 8  # some were dropped after the first stage
    assert counts[str(choice)] == 8  # the choice survived every stage
    flat = make("isearch", seed=1, iterations=8, candidates=6, learned_candidates=2).adjust_plan(halving=False)
    flat.choose(rules, obs)
    assert set(flat.last_counts.values()) == {8}
    # each candidate's mean play-out value is kept with its deals (what expert iteration learns from)
    by_name = {str(p): p.mask for p in g.legal_plays()}
    assert {by_name[k]: n for k, n in counts.items()} == {m: n for m, (_v, n) in bot.last_values.items()}
    assert {n for _v, n in flat.last_values.values()} == {8} and len(flat.last_values) == len(flat.last_counts)
    assert all(-13 * 3 <= v <= 13 * 3 for v, _n in flat.last_values.values())  # points of a card left


def decisions_with_a_choice(rules, cases):
    """The seat to move's observation in each ``(seed, actions)`` mid-game position with three or more legal
    actions (the others left out)."""
    for seed, actions in cases:
        g = midgame(rules, seed, actions)
        if not g.is_over and len(g.legal_plays()) >= 3:
            yield g.observe(g.to_move)


def test_the_learned_network_is_a_candidate_and_the_fallback():
    """Out of time before one deal is searched, the choice is the search's network's (the prior's best), which is
    always among the candidates; the heuristic's top choice is among them too."""
    from importlib import resources

    from bigtwo.bots.learned import shipped_weights

    rules = load_rules("classic")
    own = resources.files("bigtwo.bots") / "weights" / shipped_weights("search")[("classic", 4)]
    network = make("learned", weights=str(own))
    for obs in decisions_with_a_choice(rules, [(8, 6), (3, 11), (4, 19)]):
        bot = make("isearch", seed=1, budget_ms=1e-6)
        assert bot.choose(rules, obs) == network.choose(rules, obs)
        assert bot.last_iterations == 0


def random_network(path, rules, players, seed, **meta):
    """A network of the learned bot's shape with random weights, saved as a weights file."""
    import numpy as np

    from bigtwo.bots.features import FEATURES_VERSION, ActionEncoder, StateEncoder
    from bigtwo.bots.learned import QPolicy

    s, a = StateEncoder(rules, players, 8).size, ActionEncoder(rules, players).size
    rng = np.random.default_rng(seed)
    sizes = [s + a, 32, 1]
    layers = [(rng.normal(0, 0.1, (i, o)), rng.normal(0, 0.1, o)) for i, o in itertools.pairwise(sizes)]
    info = {"rules": rules.name, "players": players, "history": 8, "features_version": FEATURES_VERSION, **meta}
    return str(QPolicy(layers, s, info).save(path))


def test_a_weights_file_is_the_searchs_network(tmp_path):
    """``weights=`` puts another network in the shipped one's place: out of time, the choice is that network's;
    a file for another table, or one fitted to a bot's choices (no values), is refused in words."""
    rules = load_rules("classic")
    other = random_network(tmp_path / "other.npz", rules, 4, seed=1)
    differ = 0
    for obs in decisions_with_a_choice(rules, [(8, 6), (3, 11), (4, 19), (5, 2)]):
        bot = make("isearch", seed=1, budget_ms=1e-6, weights=other)
        mine = bot.choose(rules, obs)
        assert mine == make("learned", weights=other).choose(rules, obs)
        differ += mine != make("learned").choose(rules, obs)
    assert differ  # the file's network, not the shipped one
    three = random_network(tmp_path / "three.npz", rules, 3, seed=2)
    g = midgame(rules, 3, 11)
    with pytest.raises(BigTwoError, match=r"three\.npz were trained for 'classic' with 3 players"):
        make("isearch", iterations=2, weights=three).choose(rules, g.observe(g.to_move))
    fitted = random_network(tmp_path / "fitted.npz", rules, 4, seed=3, target="policy", beta=5.0)
    with pytest.raises(BigTwoError, match=r"fitted\.npz were fitted to a bot's choices: a search weighs the values"):
        make("isearch", weights=fitted)


def test_deals_played_out_side_by_side_choose_as_one_deal_at_a_time():
    """Where the network plays the play-outs, several sampled deals go on side by side (the plan's
    ``deals_together``); with
    a budget in deals the groups end where the stages of the halving end, so every choice, and the deals each
    candidate was played out on, are those of one deal at a time."""
    rules = load_rules("classic")
    compared = 0
    for obs in decisions_with_a_choice(rules, [(8, 6), (3, 11), (4, 19), (5, 2), (6, 9), (7, 14)]):
        seen = []
        for together in (1, 3, 8):
            bot = make("isearch", seed=2, iterations=7, playout="learned", utility="cards")
            bot.adjust_plan(deals_together=together)
            seen.append((bot.choose(rules, obs), bot.last_counts, bot.last_iterations))
        assert seen[0] == seen[1] == seen[2]
        assert seen[0][2] == 7
        compared += 1
    assert compared >= 4


def test_an_opponents_network_moves_the_other_seats_of_the_play_outs(monkeypatch, tmp_path):
    """``opponent_weights=FILE`` moves the other seats of the network's play-outs by that file's network, in a pass
    of its own, and the searching seat by the play-outs' network; a file fitted among the moves a search weighs
    (``candidates`` in its meta) has them choose among those. The same network as the play-outs' own plays
    exactly as without the option."""
    from bigtwo.bots.heuristic import search_candidates
    from bigtwo.bots.learned import GameScorer

    rules = load_rules("classic")
    mine_file = random_network(tmp_path / "mine.npz", rules, 4, seed=4, utility="cards")
    theirs_file = random_network(tmp_path / "theirs.npz", rules, 4, seed=5, candidates=2)
    asked = []  # (the network asked, the seat to move, the options, the game) of each pass's positions
    q_many = GameScorer.q_many

    def spy(self, games, legals):
        asked.extend((self.label, g.to_move, list(o), g.clone()) for g, o in zip(games, legals, strict=True))
        return q_many(self, games, legals)

    monkeypatch.setattr(GameScorer, "q_many", spy)
    restricted = 0
    for obs in decisions_with_a_choice(rules, [(8, 6), (3, 11), (4, 19)]):
        options = {"seed": 2, "iterations": 3, "playout": "learned", "utility": "cards", "weights": mine_file}
        asked.clear()
        alone = make("isearch", opponent_weights=None, **options)
        alone_choice = alone.choose(rules, obs)
        same = make("isearch", opponent_weights=mine_file, **options)
        assert same.choose(rules, obs) == alone_choice
        assert same.last_values == alone.last_values
        asked.clear()
        bot = make("isearch", opponent_weights=theirs_file, **options)
        bot.choose(rules, obs)
        assert {label for label, *_ in asked} == {mine_file, theirs_file}
        for label, mover, moves, game in asked:
            assert label == (mine_file if mover == obs.seat else theirs_file)
            if mover == obs.seat:
                assert moves == game.legal_plays()
                continue
            ranked = policy_for(game.ev).scores(view_from_game(game, played_in(game)))
            assert moves == search_candidates(ranked, 2)
            restricted += len(moves) < len(game.legal_plays())
    assert restricted


def test_where_the_network_plays_every_seat_the_defaults_read_the_shipped_stand_in_and_beliefs():
    """By default, where the network plays every seat of the play-outs (1 s a decision and more at four players
    scored by cards left), the package's stand-in for `search` moves the other seats and its belief network
    deals the hidden cards: the spec that met the 1 s target, chosen by name alone. The search plays exactly as
    with those files named; elsewhere (the tables' shorter delays, 'mixed' play-outs) exactly as with neither,
    and at tables the package has no stand-in or beliefs for, the play-outs' own network and the heuristic's
    likelihood. A match's record keeps the digests of the shipped files the settings read."""
    from importlib import resources

    from bigtwo.arena.provenance import bot_settings, shipped_models
    from bigtwo.bots.belief import belief_for
    from bigtwo.bots.learned import policy_for as network_for
    from bigtwo.bots.spec import BotSpec

    rules = load_rules("classic")
    weights = resources.files("bigtwo.bots") / "weights"
    with (
        resources.as_file(weights / "standin" / "classic-4p.npz") as standin,
        resources.as_file(weights / "belief" / "classic-4p.npz") as belief,
    ):
        compared = 0
        for obs in decisions_with_a_choice(rules, [(8, 6), (3, 11), (4, 19)]):
            for playout, files in (
                ("learned", {"opponent_weights": str(standin), "belief_weights": str(belief)}),
                ("mixed", {"opponent_weights": None, "belief_weights": None}),
            ):
                options = {"seed": 3, "iterations": 4, "playout": playout, "utility": "cards"}
                by_default, named = make("isearch", **options), make("isearch", **options, **files)
                assert by_default.choose(rules, obs) == named.choose(rules, obs)
                assert by_default.last_values == named.last_values and by_default.last_values
                compared += 1
        assert compared >= 4
    at_1s = make("isearch", budget_ms=1000, utility="cards")
    assert at_1s._network_for(rules, 4).opponents.net is network_for(rules, 4, "standin")
    g = midgame(rules, 8, 6)
    assert at_1s._belief_net(rules, g.observe(g.to_move))[0] is belief_for("shipped", rules, 4)[0]
    for elsewhere in ({"budget_ms": 500, "utility": "cards"}, {"budget_ms": 1000}):  # 'mixed' (classic's score)
        assert make("isearch", **elsewhere)._belief_net(rules, g.observe(g.to_move)) is None
    assert make("isearch", budget_ms=1000, opponent_weights=None)._network_for(rules, 4).opponents is None
    for name, players in (("classic", 3), ("tien-len", 4)):
        assert at_1s._network_for(load_rules(name), players).opponents is None
    models = shipped_models(("classic", 4))
    spec = BotSpec.parse("isearch(budget_ms=1000, utility='cards')")
    assert bot_settings(spec, ("classic", 4))["files"] == {
        "belief_weights": models["belief/classic-4p.npz"],
        "opponent_weights": models["standin/classic-4p.npz"],
    }
    assert bot_settings(BotSpec.parse("isearch(budget_ms=500)"), ("classic", 4))["files"] == {}
    assert bot_settings(spec, ("classic", 3))["files"] == {}


def test_the_search_weighs_with_its_own_network_else_the_learned_bots(tmp_path):
    """The search's candidates, prior and play-outs take the searches' own shipped network where the package has
    one (``weights/search/``: classic with four players, and the rounds played as classic's with the suits
    renamed), else the learned bot's at every table it has one for, and ``weights=`` a file's."""
    from bigtwo.bots.learned import load_weights, policy_for, shipped_weights

    assert ("classic", 4) in shipped_weights("search") and ("classic", 3) not in shipped_weights("search")
    for name, players, kind in (("classic", 4, "search"), ("taiwan", 4, "search"), ("classic", 3, "")):
        rules = load_rules(name)
        own = policy_for(rules, players, kind)
        network = make("isearch")._network_for(rules, players)
        assert network.scorer.net is own
    rules = load_rules("classic")
    assert policy_for(rules, 4, "search") is not policy_for(rules, 4)  # the learned bot keeps its own
    mine = random_network(tmp_path / "mine.npz", rules, 4, seed=6)
    assert make("isearch", weights=mine)._network_for(rules, 4).scorer.net is load_weights(mine)


SEARCHES = [
    ("isearch", {"playout": "learned"}, "_play_out_deals"),
    ("search", {}, "_search"),
]


@pytest.mark.parametrize(("name", "options", "searching"), SEARCHES, ids=[s[0] for s in SEARCHES])
def test_a_decision_pauses_the_cycle_collector_and_leaves_no_cycles(name, options, searching):
    """Every search decides with Python's cycle collector paused (a full collection near the deadline would end
    past it: `search`'s seats went past 1 s in almost every game of a 1 s match) and restores it as it was;
    pausing keeps nothing alive, since a decision makes no reference cycles: a collection after one finds
    nothing to free."""
    import gc

    rules = load_rules("classic")
    g = midgame(rules, 8, 6)
    obs = g.observe(g.to_move)
    bot = make(name, seed=1, iterations=4, utility="cards", **options)
    seen = []
    searched = getattr(bot, searching)

    def spy(*args, **kwargs):
        seen.append(gc.isenabled())
        return searched(*args, **kwargs)

    setattr(bot, searching, spy)
    bot.choose(rules, obs)  # (the first decision fills the process's caches)
    was = gc.isenabled()
    try:
        gc.enable()
        seen.clear()
        bot.choose(rules, obs)
        assert seen and not any(seen) and gc.isenabled()
        gc.collect()
        gc.disable()
        bot.choose(rules, obs)
        assert not gc.isenabled()
        assert gc.collect() == 0
    finally:
        (gc.enable if was else gc.disable)()


@pytest.mark.parametrize(("name", "options", "searching"), SEARCHES, ids=[s[0] for s in SEARCHES])
def test_no_collection_of_an_older_generation_falls_inside_a_decision(name, options, searching):
    """A decision ends with a collection of the youngest generation alone, so the collection that was pending
    when the collector is enabled again, of whichever generation's turn it was (here the middle one's, made due
    by a threshold of 0), does not run inside the decision's time but later."""
    import gc

    rules = load_rules("classic")
    g = midgame(rules, 8, 6)
    obs = g.observe(g.to_move)
    bot = make(name, seed=1, iterations=4, utility="cards", **options)
    bot.choose(rules, obs)  # (the first decision fills the process's caches)
    started: list[int] = []

    def record(phase, info):
        if phase == "start":
            started.append(info["generation"])

    was, thresholds = gc.isenabled(), gc.get_threshold()
    gc.callbacks.append(record)
    try:
        gc.enable()
        gc.set_threshold(thresholds[0], 0, 0)
        gc.collect()
        gc.collect(0)  # the middle generation's turn is due at the next collection
        started.clear()
        bot.choose(rules, obs)
        assert started == [0]
    finally:
        gc.callbacks.remove(record)
        gc.set_threshold(*thresholds)
        (gc.enable if was else gc.disable)()


class _SeesTheDeal(InferenceSearchBot):
    """isearch whose one searched deal is the true one (what benchmarks/ceiling.py measures): its own sampler,
    with the heuristic's play-outs (that the tests replay by hand) unless told otherwise."""

    def __init__(self, game, **options):
        options.setdefault("playout", "heuristic")
        super().__init__(seed=1, iterations=1, prior=0.0, utility="cards", **options)
        self.adjust_plan(weigh_beliefs=False, halving=False)
        self.game = game

    def _deal_sampler(self, rules, obs):
        return self

    def sample(self, rng):
        return [self.game.hand(s).mask for s in range(self.game.n)]

    def sample_weighted(self, rng):
        return self.sample(rng), 0.0


def test_the_searched_deals_come_from_the_deal_sampler_hook():
    """Given the true deal, the search plays the candidate whose heuristic play-out on it scores best (the
    first of equals): the deals searched are the hook's, and one deal is exact."""
    rules = load_rules("classic")
    checked = 0
    for seed, actions in [(8, 6), (3, 11), (4, 19), (5, 2), (6, 27)]:
        g = midgame(rules, seed, actions)
        if g.is_over or len(g.legal_plays()) < 3:
            continue
        seat = g.to_move
        bot = _SeesTheDeal(g)
        choice = bot.choose(rules, g.observe(seat))
        if not bot.last_counts:
            continue  # going out at once: nothing searched
        policy = policy_for(engine_of(rules, g.observe(seat)))
        values = {}
        for play in g.legal_plays():
            if str(play) in bot.last_counts:
                after = g.clone()
                after.play(play)
                rollout(after, policy)
                values[str(play)] = round_utility(after.result, "cards")[seat]
        best = max(bot.last_counts, key=lambda c: (values[c], -list(bot.last_counts).index(c)))
        assert str(choice) == best
        checked += 1
    assert checked >= 3


def test_without_the_learned_network_the_fallback_is_the_heuristic():
    rules = ruleset("winner")  # no shipped weights for winner
    g = midgame(rules, 8, 6)
    obs = g.observe(g.to_move)
    bot = make("isearch", seed=1, budget_ms=1e-6)
    assert bot.choose(rules, obs) == make("heuristic").choose(rules, obs)


def test_beliefs_favour_the_hands_that_explain_the_opponents_play():
    """On rounds the heuristic played, the model (a softmax over the heuristic's scores) finds the true hands
    likelier than hands dealt uniformly at random from what the observer cannot see."""
    rules = load_rules("classic")
    policy = policy_for(rules.engine)
    hb = make("heuristic")
    margins = []
    for seed in range(6):
        g = Game(rules, seed=seed)
        for _ in range(14):
            g.play(hb.choose(rules, g.observe(g.to_move)))
        seat = g.to_move
        obs = g.observe(seat)
        model = PlayModel(rules, obs, policy)
        assert model.active
        truth = model.log_likelihood([g.hand(s).mask for s in range(4)])
        sampler = DealSampler(rules, obs)
        rng = random.Random(seed)
        others = [model.log_likelihood(sampler.sample(rng)) for _ in range(20)]
        assert truth is not None and all(o is not None for o in others)
        margins.append(truth - sum(others) / len(others))
    assert sum(m > 0 for m in margins) >= 5 and sum(margins) > 0


def test_beliefs_stay_out_where_a_pass_locks_the_seat_out_of_the_trick():
    """Tien Len: isearch without beliefs scored +0.15 [+0.06, +0.23] places a game more against three search
    (README, Tien Len): the model weighs no deal there, as at the other tables it does not read."""
    hb = make("heuristic")
    for preset, active in (("tien-len", False), ("classic", True)):
        rules = load_rules(preset)
        g = Game(rules, seed=3)
        for _ in range(10):
            g.play(hb.choose(rules, g.observe(g.to_move)))
        obs = g.observe(g.to_move)
        assert PlayModel(rules, obs, policy_for(rules.engine)).active is active, preset
        assert PlayModel(rules.replace(pass_locks_out=True), obs, policy_for(rules.engine)).active is False


def test_a_sample_that_contradicts_the_history_is_impossible():
    rules = load_rules("classic")
    g = midgame(rules, 2, 9)
    obs = g.observe(g.to_move)
    model = PlayModel(rules, obs, policy_for(rules.engine))
    hands = [g.hand(s).mask for s in range(4)]
    a, b = [s for s in range(4) if s != obs.seat][:2]
    # give seat a a card seat b played: the replay cannot deal it twice
    played_by_b = next(e.play.mask for e in obs.history if e.seat == b and not e.is_pass)
    low = played_by_b & -played_by_b
    hands[a] = (hands[a] & ~(hands[a] & -hands[a])) | low
    assert model.log_likelihood(hands) == -math.inf


@pytest.mark.parametrize("name", ["search", "isearch"])
def test_a_search_whose_sampled_deals_all_contradict_the_history_says_so(monkeypatch, name):
    import bigtwo.bots.sampling as sampling_module
    from bigtwo.errors import IllegalPlay

    def contradicted(*_args):
        raise IllegalPlay("the replay cannot deal a card twice")

    rules = load_rules("classic")
    g = midgame(rules, 2, 9)
    obs = g.observe(g.to_move)
    bot = make(name, seed=1, iterations=8, utility="cards")
    assert bot.choose_play(rules, obs) in g.legal_plays()
    monkeypatch.setattr(sampling_module, "position_from_observation", contradicted)
    with pytest.raises(IllegalPlay, match="none of 101 sampled deals agrees with the table's history"):
        bot.choose_play(rules, obs)


@pytest.mark.parametrize(
    "options,message",
    [
        ({"prior": -1}, "isearch's prior must be 0 or more"),
        ({"prior": "x"}, "isearch's prior must be a number, not 'x'"),
        ({"learned_candidates": -1}, "isearch's learned_candidates must be 0 or more, not -1"),
        ({"candidates": 0}, "isearch's candidates must be 1 or more, not 0"),
        ({"candidates": 2.5}, "isearch's candidates must be a whole number, 1 or more"),
        ({"budget_ms": 0}, "isearch's budget_ms must be positive"),
        ({"iterations": 0}, "isearch's iterations must be 1 or more"),
        ({"utility": "goals"}, "isearch's utility must be 'auto' or one of score, cards, place, win"),
        ({"playout": "random"}, "isearch's playout must be one of auto, heuristic, learned, mixed, not 'random'"),
        ({"opponent_weights": ""}, "isearch's opponent_weights must be 'shipped', None or a file name"),
        ({"belief_weights": 3}, "isearch's belief_weights must be 'auto', 'shipped', None or a file name"),
        ({"weights": ""}, "isearch's weights must be None or a file name"),
    ],
)
def test_bad_options_are_refused(options, message):
    with pytest.raises(ValueError, match=message):
        InferenceSearchBot(**options)
    with pytest.raises(ValueError, match=message):
        SearchConfig(**options)


def test_a_person_sets_few_options_and_the_deleted_ones_are_gone():
    """isearch takes at most twelve options (seed and SearchConfig's ten), each a field of the frozen config; the
    options whose experiments found no gain are no longer accepted."""
    import dataclasses
    import inspect

    params = inspect.signature(InferenceSearchBot).parameters
    assert len(params) <= 12 and len(inspect.signature(SearchConfig).parameters) <= 12
    assert [p for p in params if p != "seed"] == [f.name for f in dataclasses.fields(SearchConfig)]
    config = SearchConfig(budget_ms=400, utility="cards")
    with pytest.raises(dataclasses.FrozenInstanceError):
        config.prior = 3  # type: ignore[misc]
    assert InferenceSearchBot.from_config(config).config == config
    for gone in ("win_bonus", "lookahead", "model", "horizon", "replies", "blend", "halving", "playout_weights"):
        with pytest.raises(TypeError):
            make("isearch", **{gone: 1})


@given(st.lists(st.floats(-60, 0), min_size=1, max_size=60), st.floats(0, 1))
def test_tempered_beliefs_keep_a_share_of_the_deals(logw, share):
    """Adaptive tempering: the weights keep at least ``share`` of the deals' effective number (all equal at
    worst), keep the likelihood's order, and are the full likelihood whenever it already does."""
    w = tempered_weights(logw, share)
    n = len(logw)
    assert effective_size(w) >= share * n - 1e-6 * n
    for i, j in itertools.combinations(range(n), 2):
        if logw[i] > logw[j]:
            assert w[i] >= w[j]
    full = [math.exp(x - max(logw)) for x in logw]
    if effective_size(full) >= share * n:
        assert w == pytest.approx(full)


def test_tempering_spreads_weights_the_full_likelihood_piles_on_a_few_deals():
    logw = [0.0, -1.0] + [-30.0] * 48
    assert effective_size(tempered_weights(logw, 0.0)) < 2
    assert effective_size(tempered_weights(logw, 0.3)) >= 15


class StallingClock:
    """A clock that moves only when read: ``tick`` seconds a reading (the work between two readings), and at
    every ``every``-th reading a ``stall`` more (the machine taking the process away for a while)."""

    def __init__(self, tick: float, stall: float, every: int):
        self.now, self.reads = 0.0, 0
        self.tick, self.stall, self.every = tick, stall, every

    def perf_counter(self) -> float:
        self.reads += 1
        self.now += self.tick + (self.stall if self.reads % self.every == 0 else 0.0)
        return self.now


@pytest.mark.parametrize("every", [43, 61])
def test_a_step_of_the_play_outs_begins_only_if_the_longest_so_far_ends_in_time(monkeypatch, every):
    """With a budget in time the side-by-side play-outs look at the clock before each step, and begin it only if a
    step as long as the longest of the decision so far would still end before the deadline; a group of deals
    begins only if the last group's pace says it ends in time. So a machine that stalls the process now and then
    does not push a decision past its budget: the last reading of the clock is within it."""
    import bigtwo.bots.playouts as playouts_module
    import bigtwo.bots.sampling as sampling_module
    import bigtwo.bots.search as search_module

    rules = load_rules("classic")
    budget = 0.4
    checked = 0
    for obs in decisions_with_a_choice(rules, [(8, 6), (3, 11), (4, 19), (5, 2)]):
        clock = StallingClock(tick=0.001, stall=0.04, every=every)
        monkeypatch.setattr(search_module, "time", clock)
        monkeypatch.setattr(sampling_module, "time", clock)
        monkeypatch.setattr(playouts_module, "time", clock)
        bot = make("isearch", seed=2, budget_ms=budget * 1000, playout="learned", utility="cards")
        bot.choose(rules, obs)
        monkeypatch.undo()
        start = clock.tick  # the first reading sets the deadline
        assert bot.last_cut and bot.last_iterations >= 1
        assert bot.longest_step >= clock.stall
        assert clock.now - start <= budget, f"the last reading, {clock.now - start:.3f} s, is past the budget"
        checked += 1
    assert checked >= 3


def test_search_stops_before_its_budget_as_isearch_does(monkeypatch):
    """`search` keeps its time limit as `isearch` does: it stops a little before it (5%, at most 20 ms), so the
    step in hand and the choice end within it, where it used to stop only once the limit had passed (nearly
    every decision of a 1 s match ended a little over 1 s)."""
    import bigtwo.bots.playouts as playouts_module
    import bigtwo.bots.sampling as sampling_module
    import bigtwo.bots.search as search_module

    rules = load_rules("classic")
    budget = 0.4
    checked = 0
    for obs in decisions_with_a_choice(rules, [(8, 6), (3, 11), (4, 19)]):
        clock = StallingClock(tick=0.001, stall=0.0, every=1)
        monkeypatch.setattr(search_module, "time", clock)
        monkeypatch.setattr(sampling_module, "time", clock)
        monkeypatch.setattr(playouts_module, "time", clock)
        bot = make("search", seed=2, budget_ms=budget * 1000, utility="cards")
        bot.choose(rules, obs)
        monkeypatch.undo()
        start = clock.tick  # the first reading sets the deadline
        assert bot.last_iterations >= 1
        assert clock.now - start < budget, f"the last reading, {clock.now - start:.3f} s, is not within the budget"
        checked += 1
    assert checked >= 2


def test_bigtwo_bots_lists_the_bots_and_shows_a_searchs_plan():
    """``bigtwo bots`` lists the bots as before; ``bigtwo bots show`` prints the plan a search resolves to at a
    table, on either side of the crossover, and refuses in words what makes no plan."""
    from typer.testing import CliRunner

    from bigtwo.cli import app

    runner = CliRunner()
    listed = runner.invoke(app, ["bots"])
    assert listed.exit_code == 0 and "isearch" in listed.output and "heuristic" in listed.output
    show = ["bots", "show", "isearch(utility='cards')", "--rules", "classic", "--players", "4", "--budget-ms"]
    at = runner.invoke(app, [*show, "1000"])
    assert at.exit_code == 0 and "at or above the crossover" in at.output, at.output
    assert "the network in every seat ('learned')" in at.output
    below = runner.invoke(app, [*show, "999"])
    assert below.exit_code == 0 and "a limit under 1000 ms" in below.output, below.output
    assert "('mixed')" in below.output
    for argv, words in (
        (["bots", "show", "heuristic"], "only isearch"),
        (["bots", "show", "isearch", "--players", "9"], "classic is played by 2 to 4 players, not 9"),
        (["bots", "show", "isearch(prior=-1)"], "prior must be 0 or more"),
    ):
        got = runner.invoke(app, argv)
        assert got.exit_code == 2 and words in " ".join(got.output.split()), got.output
