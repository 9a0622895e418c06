"""Action encodings: the catalogue's layout, encode/decode round trips, card vectors, masks against the engine."""

import itertools
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import bigtwo
from bigtwo import Game, Play, load_rules
from bigtwo.cards import CardSet
from bigtwo.envs import (
    CatalogueTooLarge,
    catalogue,
    estimate_catalogue_size,
    fits_catalogue,
    masks_to_vectors,
    pack_mask,
    raw_env,
    vector_to_mask,
)
from bigtwo.moves import legal_answers_bruteforce

PRESETS = bigtwo.list_presets()


def random_positions(rules, players, seed, stride=3):
    """Positions along a random round (every ``stride``-th action), reached through the public API."""
    rng = random.Random(seed)
    g = Game(rules, players=players, seed=seed)
    i = 0
    while not g.is_over:
        if i % stride == 0:
            yield g
        g.play(rng.choice(g.legal_plays()))
        i += 1


def test_layout_pass_first_then_by_size_kind_and_strength():
    cat = catalogue("classic")
    assert cat.plays[0] == Play.PASS and cat.encode("pass") == 0
    assert [(s.cards, s.kind) for s in cat.sections] == [
        (0, "pass"),
        (1, "single"),
        (2, "pair"),
        (3, "triple"),
        (5, "straight"),
        (5, "flush"),
        (5, "full_house"),
        (5, "four_of_a_kind"),
        (5, "straight_flush"),
    ]
    # sections tile the catalogue, and inside each the ruleset's order runs weakest to strongest
    assert [s.indices.start for s in cat.sections[1:]] == [s.indices.stop for s in cat.sections[:-1]]
    assert cat.sections[-1].indices.stop == len(cat)
    rules = load_rules("classic")
    for s in cat.sections[1:]:
        plays = [cat.plays[i] for i in s.indices]
        assert all(p.kind == s.kind and p.size == s.cards for p in plays)
        for a, b in itertools.pairwise(plays):
            assert not rules.beats(a.cards, b.cards)
    # 002 Rules: "3♦ is the lowest single card, 2♠ the highest"
    singles = cat.sections[1].indices
    assert str(cat.plays[singles.start]) == "3D" and str(cat.plays[singles.stop - 1]) == "2S"
    assert len(cat) == 1 + 52 + 78 + 52 + 10200 + 5108 + 3744 + 624 + 40
    assert "straight_flush (40)" in cat.describe()


@pytest.mark.parametrize("preset", PRESETS)
def test_catalogue_is_every_combination_of_the_pack_once(preset):
    rules = load_rules(preset)
    cat = catalogue(rules)
    assert catalogue(preset) is cat  # built once per ruleset, then shared
    assert len(set(p.mask for p in cat.plays)) == len(cat)
    step = max(1, len(cat) // 20_000)  # a sample of the largest catalogues keeps this quick
    assert all(rules.engine.classify(p.mask) == p for p in cat.plays[1::step])
    assert estimate_catalogue_size(rules) >= len(cat) - 1  # the guard never under-counts the presets
    assert cat.card_width == 52 and pack_mask(rules) == CardSet.deck().mask


def test_catalogue_matches_brute_force_on_a_small_pack():
    """Every subset of three ranks' cards that classifies is in the catalogue (cross-check of enumeration)."""
    rules = load_rules("chor-dai-di")
    cat = catalogue(rules)
    small = CardSet("3D 3C 3H 3S 4D 4C 4H 4S 5D 5C 5H 5S 6S 7S").mask
    brute = legal_answers_bruteforce(rules.engine, small, None)
    in_cat = {p.mask for p in cat.plays if p.mask and p.mask & ~small == 0}
    assert brute == in_cat


@pytest.mark.parametrize("preset", PRESETS)
@settings(max_examples=15)
@given(seed=st.integers(0, 10**6))
def test_decode_encode_round_trip_for_every_legal_play(preset, seed):
    rules = load_rules(preset)
    cat = catalogue(rules)
    for g in random_positions(rules, rules.players, seed, stride=5):
        for p in g.legal_plays():
            i = cat.encode(p)
            assert cat.decode(i) == p and cat.decode(np.int64(i)) is cat.plays[i]
            assert cat.decode_cards(cat.card_vector(p)) == p
            assert cat.decode_cards(cat.cards[i]) == p
            assert vector_to_mask(cat.card_vector(i)) == p.mask


@pytest.mark.parametrize("preset", PRESETS)
def test_mask_equals_the_engines_legal_plays(preset):
    rules = load_rules(preset)
    env = raw_env(rules)
    for seed in range(3):
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        while not env.game.is_over:
            mask = env.observe(env.agent_selection)["action_mask"]
            legal = env.game.legal_plays()
            assert {env.catalogue.plays[i] for i in np.flatnonzero(mask)} == set(legal)
            assert mask.sum() == len(legal)
            for other in env.agents:
                if other != env.agent_selection:
                    assert not env.observe(other)["action_mask"].any()
            env.step(int(rng.choice(np.flatnonzero(mask))))


def test_card_vectors_follow_the_card_layout():
    cat = catalogue("classic")
    v = cat.card_vector(cat.encode("3D 3S"))
    assert v.dtype == np.int8 and v.shape == (52,)
    assert np.flatnonzero(v).tolist() == [0, 3]  # 3D is card 0, 3S card 3 (rank * 4 + suit)
    assert not cat.cards[0].any()  # pass
    assert cat.cards.shape == (len(cat), 52) and not cat.cards.flags.writeable
    assert (cat.cards.sum(axis=1) == [p.size for p in cat.plays]).all()
    # the encoding leaves room for jokers and a second deck: vectors are as wide as the pack
    assert masks_to_vectors([1 << 53, 1 << 107], 108).nonzero()[1].tolist() == [53, 107]


def test_bad_input_is_named():
    cat = catalogue("classic")
    with pytest.raises(KeyError, match="4H 4S 5D is not a combination under 'classic'"):
        cat.encode("4S 4H 5D")
    with pytest.raises(IndexError, match="outside the catalogue"):
        cat.decode(len(cat))
    with pytest.raises(KeyError, match="from a card vector"):
        cat.decode_cards(cat.card_vector(cat.encode("3D")) + cat.card_vector(cat.encode("5S")))


def test_enormous_catalogues_are_refused_with_the_alternative():
    long_straights = load_rules("classic").replace(name="long straights", straight_lengths=tuple(range(3, 13)))
    assert estimate_catalogue_size(long_straights) > 10**7
    assert not fits_catalogue(long_straights) and fits_catalogue("classic")
    with pytest.raises(CatalogueTooLarge, match="action_encoding='legal'"):
        catalogue(long_straights)
