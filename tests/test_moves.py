"""Legal plays against a brute-force reference (every subset, classify + beats), for every preset.

Each test draws random positions: a hand of 1-13 cards and, most of the time, a trick to beat taken from
cards the hand does not hold. The generator must list every legal answer exactly once, with the same
classification the classifier gives.
"""

import random
from itertools import combinations

import pytest

from bigtwo import Game, load_rules
from bigtwo.cards import CardSet, bits
from bigtwo.legal import answers, hand_actions
from bigtwo.moves import HandIndex, all_combos, legal_answers_bruteforce
from tests.rulesets import WILD_TABLES, every_ruleset, rules_named

POSITIONS = 400  # per preset; x 11+ presets = thousands of positions


def random_position(rules, rng):
    deck = bits(rules.engine.pack)
    rng.shuffle(deck)
    size = rng.choice([rng.randint(1, 13), 13, rng.randint(5, 10)])
    hand = sum(1 << c for c in deck[:size])
    top = None
    if rng.random() < 0.8:
        other = sum(1 << c for c in deck[size : size + rng.randint(1, 20)])
        candidates = all_combos(rules.engine, other)
        if candidates:
            top = rng.choice(candidates)
    return hand, top


@pytest.mark.parametrize("preset", every_ruleset())
def test_generator_matches_bruteforce(preset):
    rules = rules_named(preset)
    ev = rules.engine
    rng = random.Random(f"moves-{preset}")
    for _ in range(POSITIONS):
        hand, top = random_position(rules, rng)
        idx = HandIndex.build(ev, hand)
        masks = [p.mask for p in idx.plays]
        assert len(masks) == len(set(masks)), "a combination was generated twice"
        plays = idx.plays if top is None else answers(ev, idx, top)
        got = {p.mask for p in plays}
        want = legal_answers_bruteforce(ev, hand, top)
        assert got == want, (preset, CardSet.from_mask(hand), top, got ^ want)
        for p in plays:
            q = ev.classify(p.mask)
            assert (q.kind, q.cls, q.order) == (p.kind, p.cls, p.order)


@pytest.mark.parametrize("preset", ["classic", "house-code", "chor-dai-di"])
def test_legal_actions_add_pass_only_when_following(preset):
    rules = load_rules(preset)
    rng = random.Random(preset)
    for _ in range(100):
        hand, top = random_position(rules, rng)
        idx = HandIndex.build(rules.engine, hand)
        acts = hand_actions(rules.engine, idx, top, 0, "none")
        assert (acts[-1].is_pass) == (top is not None) or (top is None and acts == [])
        assert sum(p.is_pass for p in acts) == (1 if top is not None else 0)


def test_every_combination_of_a_full_pack_is_classified_the_same_way():
    """On the whole 52-card pack, generation and classification agree for every kind of every preset."""
    for preset in every_ruleset():
        rules = rules_named(preset)
        long_runs = max(rules.engine.straight_lengths) > 5 or {"pair_straight", "triple_straight"} & set(
            rules.combinations
        )
        if (rules.joker_mode == "wild" and rules.jokers) or rules.decks > 1 or long_runs:
            continue  # millions of sets (4^13 thirteen-card straights alone): the random positions cover these
        ev = rules.engine
        plays = all_combos(ev, ev.pack)
        assert len({p.mask for p in plays}) == len(plays)
        for p in plays:
            assert ev.classify(p.mask).kind == p.kind
        kinds = {p.kind for p in plays}
        possible = set(rules.combinations) - ({"five_of_a_kind"} if rules.decks == 1 else set())
        assert kinds == possible, (preset, possible - kinds)


WILD_HANDS = {"wild-jokers": lambda: rules_named("wild-jokers"), **WILD_TABLES}


@pytest.mark.parametrize("table", WILD_HANDS)
def test_wild_joker_hands_list_every_combination(table):
    """A whole hand holding wild jokers lists exactly the sets of it that classify as a kind (every subset of
    every playable size tried), though the listing looks only at sets beside a joker that could make one."""
    ev = WILD_HANDS[table]().engine
    rng = random.Random(f"wild-{table}")
    naturals = bits(ev.pack & ~ev.joker_mask)
    jokers = bits(ev.pack & ev.joker_mask)
    for trial in range(6):
        held = rng.sample(jokers, 1 + trial % 2)
        cards = held + rng.sample(naturals, 13 - len(held))
        hand = sum(1 << c for c in cards)
        want = {
            m
            for n in ev.kinds_by_size
            if n <= len(cards)
            for combo in combinations(cards, n)
            if ev.classify(m := sum(1 << c for c in combo)) is not None
        }
        got = [p.mask for p in all_combos(ev, hand)]
        assert len(got) == len(set(got)), "a combination was listed twice"
        assert set(got) == want, (table, CardSet.from_mask(hand), set(got) ^ want)
        for n in ev.kinds_by_size:  # one size at a time, as a hand's index asks
            assert {p.mask for p in all_combos(ev, hand, frozenset((n,)))} == {m for m in want if m.bit_count() == n}


def test_the_tables_list_a_play_of_two_decks_once_whichever_copy_it_holds():
    """With two decks a hand may hold both copies of a card: the engine lists a set for each copy (they are two
    cards), and ``distinct_plays`` (the tables' list) keeps one of each, so no play is shown twice."""
    from bigtwo.cards import fold_copies
    from bigtwo.legal import distinct_plays

    rules = load_rules("house-code").replace(decks=2, max_players=8)
    doubled = 0
    for seed in range(12):
        g = Game(rules, players=6, seed=seed)
        plays = g.legal_plays()
        shown = distinct_plays(plays)
        assert len({fold_copies(p.mask) for p in plays}) == len(shown)
        faces = [tuple(sorted(str(p).split())) for p in shown]
        assert len(set(faces)) == len(faces) == len({tuple(sorted(str(p).split())) for p in plays})
        doubled += len(plays) > len(shown)
    assert doubled  # some deal holds both copies of a card
    one = Game("classic", seed=3)
    assert distinct_plays(one.legal_plays()) == one.legal_plays()


def test_the_listings_behind_the_turn_skip_and_the_bombs_leave_every_set_its_own_kind():
    """The automatic turn skip (legal.fewest_to_beat) and the heuristic's strongest bombs once listed one kind at a
    time, and a set listed under a lesser kind was remembered as that kind (a suited straight as a plain straight):
    the same cards played later were misread. After those listings, every set the evaluator has seen must read as a
    fresh evaluator reads it."""
    from bigtwo.bots.heuristic import strongest_bombs
    from bigtwo.combos.evaluator import Evaluator
    from bigtwo.legal import fewest_to_beat
    from bigtwo.rules.ruleset import list_presets

    for preset in list_presets():
        rules = load_rules(preset)
        ev, fresh = Evaluator(rules), Evaluator(rules)
        rng = random.Random(7)
        for seed in range(10):
            game = Game(rules, seed=seed)
            for seat in range(game.players):
                hand = game.hand(seat).mask
                strongest_bombs(ev, hand)
                plays = all_combos(fresh, hand)
                for top in rng.sample(plays, min(4, len(plays))):
                    fewest_to_beat(ev, hand, top)
        wrong = [(m, p.kind) for m, p in ev.cache.items() if p is not None and fresh.classify(m).kind != p.kind]
        assert not wrong, (preset, wrong[:3])
