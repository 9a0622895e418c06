"""Invariants over random games of every preset and player count (hypothesis).

- cards are conserved: hands and played cards always partition what was dealt;
- every game ends;
- every generated play is accepted, and every accepted play is generated;
- refused input leaves the state unchanged; undo restores the exact state;
- an observation never contains another seat's unplayed card.
"""

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from bigtwo import Game, IllegalPlay
from bigtwo.cards import CARDS, bits
from bigtwo.positions import position_from_observation
from bigtwo.scoring import is_zero_sum
from tests.rulesets import every_ruleset, rules_named

MAX_ACTIONS = 3000


@st.composite
def games(draw):
    preset = draw(st.sampled_from(every_ruleset()))
    rules = rules_named(preset)
    players = draw(st.integers(rules.min_players, rules.max_players))
    seed = draw(st.integers(0, 2**32 - 1))
    return Game(rules, players=players, seed=seed), random.Random(seed)


def state(g: Game):
    return (
        tuple(g.hand(s).mask for s in range(g.n)),
        g.to_move,
        g.trick,
        g.trick_seat,
        tuple(g.passed_seats()),
        tuple(g.finishing_order),
        tuple(g.history),
        g.required_card,
        g.is_over,
    )


def check_conservation(g: Game):
    dealt = 0
    for m in g.dealt:
        dealt |= m
    played = 0
    for _s, p in g.history:
        assert not played & p.mask, "a card was played twice"
        played |= p.mask
    hands = 0
    for s in range(g.n):
        h = g.hand(s).mask
        assert not hands & h and not played & h
        hands |= h
    drawn = g.drawn_cards.mask
    assert not dealt & drawn
    assert hands | played == dealt | drawn
    # and nothing is lost: what is in no hand and not played is face up, set aside, or still in the stock
    assert (
        bin(hands | played | g.face_up).count("1") + g.stock_size + bin(g._hidden).count("1") == len(bits(g.ev.pack))
        or g.dealt != g.dealt
    )  # explicit-hand games may use part of a pack


def check_observations(g: Game):
    played = 0
    for _s, p in g.history:
        played |= p.mask
    for seat in range(g.n):
        obs = g.observe(seat).to_json()
        known = obs.pop("known_cards")
        for other, cards in known.items():  # shown to everyone (e.g. a leftover claimed face up): still held
            assert {str(c) for c in g.hand(int(other))} >= set(cards)
        text = json.dumps(obs)
        # cards are named by face (two decks hold two 3S): a face may appear when a copy of it is public or own
        public = {c % 54 for c in bits(g.hand(seat).mask | played | g.face_up)}
        for other in range(g.n):
            if other == seat:
                continue
            for c in bits(g.hand(other).mask):
                if c % 54 not in public:
                    assert f'"{CARDS[c]}"' not in text, f"seat {seat} sees {CARDS[c]} of seat {other}"


@settings(max_examples=300)
@given(games())
def test_random_games_conserve_cards_end_and_hide_cards(game):
    g, rng = game
    for _ in range(MAX_ACTIONS):
        if g.is_over:
            break
        check_conservation(g)
        if rng.random() < 0.2:
            check_observations(g)
        g.play(rng.choice(g.legal_plays()))
    assert g.is_over, "the game did not end"
    check_conservation(g)
    check_observations(g)
    res = g.result
    assert sorted(res.finishing_order) == list(range(g.n))
    if is_zero_sum(g.rules):
        assert sum(res.scores) == 0


@settings(max_examples=120)
@given(games())
def test_generated_plays_are_accepted_and_accepted_plays_are_generated(game):
    g, rng = game
    steps = 0
    while not g.is_over and steps < 60:
        legal = g.legal_plays()
        legal_masks = {p.mask for p in legal}
        before = state(g)
        # every generated play is accepted (and undone exactly)
        for p in rng.sample(legal, min(len(legal), 8)):
            g.play(p)
            g.undo()
            assert state(g) == before
        # random card sets from the hand: accepted exactly when generated
        hand = bits(g.hand(g.to_move).mask)
        for _ in range(12):
            k = rng.randint(1, min(5, len(hand)))
            pick = rng.sample(hand, k)
            mask = sum(1 << c for c in pick)
            try:
                g.play([CARDS[c] for c in pick])
            except IllegalPlay:
                assert mask not in legal_masks
                assert state(g) == before
            else:
                assert mask in legal_masks
                g.undo()
                assert state(g) == before
        g.play(rng.choice(legal))
        steps += 1


@given(games(), st.integers(1, 30))
def test_undo_restores_the_exact_state(game, k):
    g, rng = game
    for _ in range(rng.randint(0, 40)):
        if g.is_over:
            break
        g.play(rng.choice(g.legal_plays()))
    before = state(g)
    obs_before = [g.observe(s).to_json() for s in range(g.n)]
    done = 0
    for _ in range(k):
        if g.is_over:
            break
        g.play(rng.choice(g.legal_plays()))
        done += 1
    for _ in range(done):
        g.undo()
    assert state(g) == before
    assert [g.observe(s).to_json() for s in range(g.n)] == obs_before


@settings(max_examples=80)
@given(games())
def test_from_observation_rebuilds_the_observed_position(game):
    """A determinisation with the true hands reproduces the seat's view and its legal plays exactly."""

    g, rng = game
    for _ in range(rng.randint(0, 60)):
        if g.is_over:
            break
        g.play(rng.choice(g.legal_plays()))
    if g.is_over:
        return
    seat = g.to_move
    obs = g.observe(seat)
    rebuilt = position_from_observation(g.rules, obs, [g.hand(s) for s in range(g.n)])
    assert rebuilt.observe(seat) == obs
    assert rebuilt.legal_plays() == g.legal_plays()
    before = state(g)
    twin = g.clone()
    twin.play(twin.legal_plays()[0])
    assert state(g) == before and state(twin) != before


@settings(max_examples=60)
@given(games())
def test_legal_plays_survive_undo_and_clone_branches(game):
    """After undo or on a clone taking another line, legal plays equal those of a freshly built position."""
    g, rng = game
    for _ in range(rng.randint(0, 30)):
        if g.is_over:
            return
        g.play(rng.choice(g.legal_plays()))
    if g.is_over:
        return
    twin = g.clone()
    for line in (g, twin):
        for _ in range(rng.randint(1, 12)):
            if line.is_over:
                break
            line.play(rng.choice(line.legal_plays()))
    steps = rng.randint(1, 6)
    for _ in range(min(steps, len(g.history))):
        g.undo()
    for line in (g, twin):
        if line.is_over:
            continue
        fresh = Game(line.rules, hands=[line.hand(s) for s in range(line.n)], first=line.to_move)
        if line.trick is None and not line.required_card:
            assert line.legal_plays() == fresh.legal_plays()
        seat_index = line._idx[line.to_move]
        from bigtwo.moves import HandIndex

        assert seat_index.plays == HandIndex.build(line.ev, line.hand(line.to_move).mask).plays
