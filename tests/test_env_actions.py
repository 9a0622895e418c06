"""Action encodings: the catalogue's layout, encode/decode round trips, card vectors, masks against the engine."""

import itertools
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import bigtwo
from bigtwo import Game, Play, load_rules
from bigtwo.cards import CardSet, bits
from bigtwo.envs import (
    CatalogueTooLarge,
    catalogue,
    estimate_catalogue_size,
    fits_catalogue,
    fold_copies,
    legal_play_bound,
    masks_to_vectors,
    max_hand_size,
    pack_mask,
    raw_env,
    vector_to_mask,
)
from bigtwo.moves import all_combos, legal_answers_bruteforce
from tests.env_house_rules import HOUSE_RULES

PRESETS = bigtwo.list_presets()
FITTING = [p for p in PRESETS if fits_catalogue(p)]
# every preset at its own table size, and the table sizes where straight lengths or hand sizes change
TABLES = [(p, load_rules(p).players) for p in PRESETS] + [
    ("zheng-shangyou", 3),
    ("zheng-shangyou", 5),
    ("winner", 3),
    ("tien-len", 2),
    ("house-code", 8),
    *((name, n) for name, (_rules, n) in HOUSE_RULES.items()),
]


def rules_of(name):
    return HOUSE_RULES[name][0] if name in HOUSE_RULES else load_rules(name)


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


@pytest.mark.parametrize("preset", FITTING)
def test_catalogue_is_every_combination_of_the_pack_once(preset):
    rules = load_rules(preset)
    cat = catalogue(rules)
    assert catalogue(preset) is cat and catalogue(preset, rules.players) is cat  # built once, then shared
    assert len(set(p.mask for p in cat.plays)) == len(cat)
    step = max(1, len(cat) // 20_000)  # a sample of the largest catalogues keeps this quick
    assert all(rules.engine.classify(p.mask) == p for p in cat.plays[1::step])
    assert estimate_catalogue_size(rules) >= len(cat) - 1  # the guard never under-counts the presets
    assert cat.card_width == pack_mask(rules).bit_length() == 52


@pytest.mark.parametrize("preset", sorted(set(PRESETS) - set(FITTING)))
def test_long_sequence_presets_get_the_legal_encoding(preset):
    """Straights and pair straights of many lengths: hundreds of millions of combinations, so no catalogue; the
    environment picks the legal encoding by itself, as wide as a bound no position can exceed."""
    rules = load_rules(preset)
    assert estimate_catalogue_size(rules) > 10**8 and not fits_catalogue(rules)  # Winner: pair straights to 12
    with pytest.raises(CatalogueTooLarge, match=f"'{preset}' allows about"):
        catalogue(rules)
    env = raw_env(rules)
    assert env.action_encoding == "legal" and env.catalogue is None
    assert env.num_play_actions == legal_play_bound(rules, rules.players) < 10_000
    explicit = raw_env(rules, action_encoding="legal", max_legal=500)  # explicit settings win
    assert explicit.num_play_actions == 500 == explicit.num_actions - explicit.num_answer_actions
    with pytest.raises(CatalogueTooLarge):
        raw_env(rules, action_encoding="catalogue")


def test_catalogue_follows_the_table_size():
    """Straight lengths may depend on the number of players: the catalogue is the table's evaluator's."""
    rules = load_rules("house-code").replace(name="longer at five", straight_lengths_five_plus=(5, 6))
    four, five = catalogue(rules, 4), catalogue(rules, 5)
    assert four is not five and catalogue(rules, 6) is not five
    sizes = {s.cards for s in five.sections if s.kind == "straight"}
    assert sizes == {5, 6} and {s.cards for s in four.sections if s.kind == "straight"} == {5}
    assert len(five) - len(four) == estimate_catalogue_size(rules, players=5) - estimate_catalogue_size(rules)
    env = raw_env(rules, 5)
    assert env.catalogue is five
    six_straight = next(p for p in five.plays if p.size == 6)
    assert rules.engine_for(5).classify(six_straight.mask) == six_straight
    assert rules.engine_for(4).classify(six_straight.mask) is None


def test_catalogue_matches_brute_force_on_a_small_pack():
    """Every subset of three ranks' cards that classifies is in the catalogue (cross-check of enumeration)."""
    rules = load_rules("chor-dai-di")
    cat = catalogue(rules)
    small = CardSet("3D 3C 3H 3S 4D 4C 4H 4S 5D 5C 5H 5S 6S 7S").mask
    brute = legal_answers_bruteforce(rules.engine, small, None)
    in_cat = {p.mask for p in cat.plays if p.mask and p.mask & ~small == 0}
    assert brute == in_cat


def env_at(rules, players, game):
    env = raw_env(rules, players)
    env.reset(options={"game": game})
    return env


@pytest.mark.parametrize(("preset", "players"), TABLES)
@settings(max_examples=6)
@given(seed=st.integers(0, 10**6))
def test_decode_encode_round_trip_for_every_legal_play(preset, players, seed):
    rules = rules_of(preset)
    env = raw_env(rules, players)
    cat = env.catalogue
    for g in random_positions(rules, players, seed, stride=7):
        env.reset(options={"game": g})
        legal = g.legal_plays()
        actions = [env.encode(p) for p in legal]
        assert [env.decode(a) for a in actions] == legal
        assert [env.decode(np.int64(a)) for a in actions] == legal
        rows = env.action_cards()
        assert [vector_to_mask(r) for r in rows] == [fold_copies(p.mask) for p in legal]
        if cat is not None:
            assert actions == env.legal_actions()
            for p, i in zip(legal, actions, strict=True):
                assert cat.decode(i) is cat.plays[i] and cat.decode_cards(cat.card_vector(p)) == p
                assert cat.decode_cards(cat.cards[i]) == p and vector_to_mask(cat.card_vector(i)) == p.mask
        else:
            assert actions == list(range(len(legal))) == env.legal_actions()


@pytest.mark.parametrize(("preset", "players"), TABLES)
def test_mask_equals_the_engines_legal_plays(preset, players):
    rules = rules_of(preset)
    env = raw_env(rules, players)
    bombs = 0
    for seed in range(3):
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        while not env.game.is_over:
            mask = env.observe(env.agent_selection)["action_mask"]
            if env.pending is not None:  # a procedure before play (the pass-around): its block of answers
                start = env.answer_start
                assert np.flatnonzero(mask).tolist() == list(range(start, start + len(env.legal_answers())))
                env.step(int(rng.choice(np.flatnonzero(mask))))
                continue
            legal = env.game.legal_plays()
            assert [env.decode(i) for i in np.flatnonzero(mask)] == (
                sorted(legal, key=env.encode) if env.catalogue is not None else legal
            )
            assert mask.sum() == len(legal) <= env.num_actions
            top = env.game.trick
            bombs += sum(1 for p in legal if p.bomb and top is not None and top.kind != p.kind)
            for other in env.agents:
                if other != env.agent_selection:
                    assert not env.observe(other)["action_mask"].any()
            env.step(int(rng.choice(np.flatnonzero(mask))))
    if rules.bombs and players == rules.players:
        assert bombs  # bombs answering other kinds were among the masks checked


@pytest.mark.parametrize(
    ("preset", "hands", "trick", "bomb"),
    [
        # 004 Zheng Shangyou, Bomb: "Can be played after hands of a different type"
        ("zheng-shangyou", ["3H 4H", "9S 9H 9D 9C 5D", "6D 7D", "8D 8S"], "3H", "9S 9H 9D 9C"),
        # tien-len chops: "single of 2 < 3 sequential pairs"
        ("tien-len", ["3S 2H", "4D 4C 5D 5C 6D 6C 8S", "7D 7C", "8D 8C"], "2H", "4D 4C 5D 5C 6D 6C"),
    ],
)
def test_bombs_are_in_the_mask(preset, hands, trick, bomb):
    rules = load_rules(preset)
    env = raw_env(rules, procedures=False)  # the hands given are the hands played
    env.reset(options={"hands": hands, "first": 0})
    if preset == "tien-len":
        env.step(env.encode(env.game.legal_plays()[0]))  # the 3S
        env.step(env.encode(next(p for p in env.game.legal_plays() if p.is_pass)))
        env.step(env.encode(next(p for p in env.game.legal_plays() if p.is_pass)))
        env.step(env.encode(next(p for p in env.game.legal_plays() if p.is_pass)))
    play = next(p for p in env.game.legal_plays() if str(p.cardset) == str(CardSet(trick)))
    env.step(env.encode(play))
    legal = env.game.legal_plays()
    chop = next(p for p in legal if p.mask == CardSet(bomb).mask)
    assert chop.bomb and chop.kind != env.game.trick.kind
    mask = env.observe(env.agent_selection)["action_mask"]
    assert mask[env.encode(chop)] == 1 and env.decode(env.encode(chop)) == chop


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


def concentrated_hands(ev, size, rng):
    """Hands of ``size`` cards, half of them crowded into a few neighbouring ranks (where runs multiply)."""
    pack = bits(ev.pack)
    for i in range(12):
        if i % 2:
            low = rng.randrange(0, 9)
            pool = [c for c in pack if low <= ev.rank_of[c] < low + rng.randint(3, 6) or ev.rank_of[c] == 13]
        else:
            pool = pack
        if len(pool) >= size:
            yield sum(1 << c for c in rng.sample(pool, size))


@pytest.mark.parametrize("name", [*PRESETS, *HOUSE_RULES])
@settings(max_examples=4)
@given(seed=st.integers(0, 10**6), size=st.integers(1, 10))
def test_bounds_are_never_exceeded(name, seed, size):
    """The legal encoding's width bounds every hand's combinations (plus pass), and the catalogue guard's
    estimate bounds what the move generator lists, for any set of cards."""
    rules = rules_of(name)
    ev = rules.engine
    bound = legal_play_bound(rules, hand_size=size)
    for hand in concentrated_hands(ev, size, random.Random(seed)):
        found = len(all_combos(ev, hand))
        assert found + 1 <= bound, (name, CardSet.from_mask(hand))
        assert found <= estimate_catalogue_size(rules, hand), (name, CardSet.from_mask(hand))


def test_legal_bound_is_exact_where_a_hand_can_reach_it():
    # a 13-card classic hand: 13 singles; 6 x 3 pairs (three full ranks and a 4th card) at most; 4 x 3
    # triples; and every 5 cards of 13 may be a five-card hand (a flush of 13 spades has C(13, 5) of them)
    assert legal_play_bound("classic", 4) == 1 + 13 + 18 + 12 + 1287
    assert max_hand_size("classic", 3) == 18 and max_hand_size("classic", 4) == 13
    stock, n = HOUSE_RULES["stock"]
    assert max_hand_size(stock, n) == 13 + 26  # a hand may draw the whole stock


def test_legal_plays_never_repeat_a_combination():
    """A 13-card straight on a line that wraps (A-K and 2-A hold the same ranks) is one play, not two: the
    legal encoding gives every legal play its own index and takes it back."""
    rules = load_rules("winner")
    game = Game(rules, hands=["3D 4H 5H 5S 6S 7C 7S 8S 9C 9S TC TH JH QS KS AC AS 2S", "3C 4C", "3H 4D"], first=0)
    legal = game.legal_plays()
    assert len({p.mask for p in legal}) == len(legal)
    longest = [p for p in legal if p.size == 13]
    assert len(longest) == 2**5  # two of 5, 7, 9, 10 and A each
    assert all(rules.engine_for(3).classify(p.mask).key == p.key and p.kind == "straight" for p in longest)
    env = raw_env(rules, 3)
    env.reset(options={"game": game})
    assert [env.encode(p) for p in legal] == list(range(len(legal)))
