"""Information-set MCTS, ``ismcts`` (issue 15, part 3: a search that looks past its own decision).

Small budgets in iterations, so every check is reproducible; no clock reading is asserted.
"""

from __future__ import annotations

import random

import pytest

from bigtwo import load_rules
from bigtwo.bots import make
from bigtwo.bots.heuristic import WIN, policy_for
from bigtwo.bots.ismcts import DealPool, ISMCTSBot, Node
from bigtwo.bots.search import played_in, rollout
from bigtwo.bots.view import engine_of, view_from_observation
from bigtwo.cards import DECK_SIZE, fold_copies
from bigtwo.utilities import round_utility
from tests.test_bots import HIDDEN_CASES, midgame, play_out, ruleset, scrambled

TINY = {"iterations": 12, "candidates": 3, "learned_candidates": 1}


@pytest.mark.parametrize(
    "name,players", [("classic", 4), ("classic", 3), ("winner", 4), ("two-decks", 5), ("two-player-draw", 2)]
)
def test_ismcts_plays_only_legal_actions(name, players):
    """With the learned prior (classic, four players) and without it, with and without beliefs (two decks: the
    tree's moves are the same on deals holding either copy of a card; a stock)."""
    rules = ruleset(name)
    bots = [make("ismcts", seed=s, **TINY) if s % 2 == 0 else make("heuristic") for s in range(players)]
    assert play_out(rules, players, bots, seed=players).result is not None


@pytest.mark.parametrize("name,players,seed,actions", [c for c in HIDDEN_CASES if c[0] in ("classic", "two-decks")])
def test_ismcts_does_not_see_other_seats_hidden_cards(name, players, seed, actions):
    rules = ruleset(name)
    g = midgame(rules, seed, actions, players)
    seat = g.to_move
    twin = scrambled(g, seat, random.Random(seed))
    a = make("ismcts", seed=7, **TINY).choose(rules, g.observe(seat))
    b = make("ismcts", seed=7, **TINY).choose(rules, twin.observe(seat))
    assert a == b


def test_the_same_seed_plays_the_same_game():
    rules = load_rules("classic")
    lineup = lambda: [make("ismcts", seed=s, **TINY) for s in range(4)]  # noqa: E731
    games = [play_out(rules, 4, lineup(), seed=5) for _ in range(2)]
    assert games[0].history == games[1].history


def _nodes(node: Node, depth: int = 0):
    for child in node.children.values():
        yield depth + 1, child
        yield from _nodes(child, depth + 1)


@pytest.mark.parametrize("prior", [0.0, 5.0])
@pytest.mark.parametrize("seed,actions", [(8, 6), (3, 11), (4, 12), (6, 2)])
def test_every_iteration_adds_one_node_and_is_counted_on_its_path(seed, actions, prior):
    """The tree's bookkeeping: the root's moves hold every iteration once, beside the prior's virtual play-outs
    (the network has values for every candidate here); a node with moves below it was reached once more than
    they were (the iteration that added it: a root move with virtual play-outs is never added by one), and a
    move was possible at least as often as it was played."""
    rules = load_rules("classic")
    g = midgame(rules, seed, actions)
    obs = g.observe(g.to_move)
    bot = make("ismcts", seed=1, iterations=80, prior=prior, utility="cards")
    bot.choose(rules, obs)
    root = bot.last_tree
    assert root is not None and bot.last_iterations == 80
    assert sum(bot.last_counts.values()) == 80
    deepest = 0
    for depth, node in _nodes(root):
        deepest = max(deepest, depth)
        assert node.avail >= node.visits
        real = node.visits - (prior if depth == 1 else 0.0)
        if node.children:
            added = 0 if depth == 1 and prior else 1
            assert real == added + sum(c.visits for c in node.children.values())
    assert deepest == bot.last_depth >= 2  # it looked past its own move


class _TrueDeal:
    """A sampler that deals the cards as they lie (the test knows them)."""

    def __init__(self, game):
        self.hands = [game.hand(s).mask for s in range(game.n)]

    def sample(self, rng):
        return list(self.hands)

    def sample_weighted(self, rng):
        return self.sample(rng), 0.0


class _Omniscient(ISMCTSBot):
    """ismcts searching the true deal only."""

    def __init__(self, game, **options):
        super().__init__(**options)
        self.game = game

    def _deal_pool(self, rules, obs, model):
        pool = DealPool(rules, obs, None, self.min_ess, self.rng)
        pool.sampler = _TrueDeal(self.game)
        return pool


def _candidates(rules, obs, candidates):
    legal = make("heuristic").legal(rules, obs)
    ranked = policy_for(engine_of(rules, obs)).scores(view_from_observation(rules, obs, legal))
    cands = [p for _s, p in ranked[:candidates]]
    if legal[-1].is_pass and legal[-1] not in cands:
        cands.append(legal[-1])
    return ranked, cands


def _played_out(game, seat, moves):
    """The points of every seat after ``moves`` and the heuristic to the end, on the true deal."""
    g = game.clone()
    for m in moves:
        g.play(m)
    policy = policy_for(g.ev)
    rollout(g, policy, played_in(g), None, (seat, policy))
    return round_utility(g.result, "cards")


@pytest.mark.parametrize("seed,actions", [(8, 6), (3, 11), (7, 7), (5, 9), (2, 14)])
def test_on_the_true_deal_each_node_holds_its_movers_points(seed, actions):
    """Searching the true deal (the play-outs are deterministic): the first iterations try each candidate once
    and the best of those single play-outs would be chosen; then every node reached once and left a leaf holds
    the points of the seat that made its move (an opponent's, below a candidate) for the line that leads to it,
    recomputed here by playing that line and the heuristic to the end."""
    rules = load_rules("classic")
    g = midgame(rules, seed, actions)
    seat = g.to_move
    obs = g.observe(seat)
    ranked, cands = _candidates(rules, obs, 4)
    assert ranked[0][0] < WIN and len(cands) >= 2  # a choice to search
    options = {"seed": 1, "candidates": 4, "learned_candidates": 0, "prior": 0.0, "utility": "cards"}
    first = _Omniscient(g, iterations=len(cands), **options).choose(rules, obs)
    values = [_played_out(g, seat, [c])[seat] for c in cands]
    assert first == cands[values.index(max(values))]

    bot = _Omniscient(g, iterations=60, **options)
    bot.choose(rules, obs)
    checked = 0
    opponents = 0

    def walk(node, line, game):
        nonlocal checked, opponents
        for key, child in node.children.items():
            if child.visits != 1 or child.children:
                if child.children:
                    move = next(p for p in game.legal_plays() if fold_copies(p.mask) == key)
                    after = game.clone()
                    after.play(move)
                    walk(child, [*line, move], after)
                continue
            move = next(p for p in game.legal_plays() if fold_copies(p.mask) == key)
            mover = game.to_move
            points = _played_out(g, seat, [*line, move])
            assert child.total == pytest.approx(points[mover] / 13.0)
            checked += 1
            opponents += mover != seat

    walk(bot.last_tree, [], g.clone())
    assert checked >= 3 and opponents >= 1


def test_move_keys_fold_the_two_copies_of_a_card():
    three_d, other_three_d = 1 << 0, 1 << DECK_SIZE
    assert fold_copies(three_d) == fold_copies(other_three_d) != fold_copies(three_d | other_three_d)
    assert fold_copies(0b1011) == 0b1011  # one deck: the cards themselves


@pytest.mark.parametrize(
    "options,words",
    [
        ({"width": 0}, "width must be 1 or more, not 0"),
        ({"exploration": -1}, "exploration must be 0 or more"),
        ({"reuse": 0}, "reuse must be 1 or more, not 0"),
    ],
)
def test_bad_options_are_refused_in_words(options, words):
    with pytest.raises(ValueError, match=words):
        make("ismcts", **options)


class _Impossible:
    """Beliefs under which no deal explains the table."""

    def log_likelihood(self, hands, deadline=None):
        return float("-inf")


class _Contradicted(ISMCTSBot):
    def _deal_pool(self, rules, obs, model):
        return DealPool(rules, obs, _Impossible(), self.min_ess, self.rng)


def test_when_no_sampled_deal_explains_the_table_it_plays_the_heuristics_choice():
    """Every sampled deal ruled out: the search gives up on sampling after a bounded number of tries, without an
    error, and plays its first candidate (the heuristic's choice)."""
    rules = load_rules("classic")
    g = midgame(rules, 8, 6)
    obs = g.observe(g.to_move)
    ranked, _cands = _candidates(rules, obs, 4)
    bot = _Contradicted(seed=1, iterations=50, utility="cards")
    assert bot.choose(rules, obs) == ranked[0][1]
    assert bot.last_iterations == 0
