"""Observation vectors: documented fields, the fast path equal to the reference, and no hidden card leaking."""

import random
import re

import numpy as np
import pytest
from gymnasium.utils.env_checker import data_equivalence
from hypothesis import given, settings
from hypothesis import strategies as st

import bigtwo
from bigtwo import load_rules
from bigtwo.cards import CardSet, bits, card, to_mask
from bigtwo.envs import ObservationEncoder, raw_env
from bigtwo.envs import observations as observations_module
from bigtwo.positions import position_from_observation
from tests.env_house_rules import HOUSE_RULES

PRESETS = bigtwo.list_presets()
# presets at other table sizes (straight lengths, hand sizes and face-up cards change with them), house rules
OTHER_TABLES = [("zheng-shangyou", 3), ("zheng-shangyou", 6), ("winner", 3), ("tien-len", 2)]


def rules_of(name):
    return HOUSE_RULES[name][0] if name in HOUSE_RULES else load_rules(name)


def cards_of(vector_part):
    return sum(1 << int(i) for i in np.flatnonzero(vector_part))


def seat_observation(env, seat):
    """What the seat may know now: the procedures' observation before play, the round's during it."""
    return env.decision_observation(seat) if env.pending is not None else env.game.observe(seat)


def play_randomly(env, seed, every=None):
    """Random legal actions until the round ends, calling ``every(env)`` before each action and at the end."""
    rng = np.random.default_rng(seed)
    while not env.game.is_over:
        if every:
            every(env)
        env.step(int(rng.choice(env.legal_actions())))
    if every:
        every(env)


def test_every_field_is_documented_in_order():
    enc = ObservationEncoder("classic", 4, history=8)
    documented = re.findall(r"^``(\w+)``", observations_module.__doc__, flags=re.M)
    assert documented == [f.name for f in enc.fields]
    assert enc.size == 52 + 4 * 52 + 52 + 52 + 8 * 52 + 4 * 5 + 8 + 8 * 4 + 8 == 848
    assert "history_pass" in enc.describe()


def test_fields_say_what_the_seat_sees():
    env = raw_env("classic")
    env.reset(options={"hands": ["3D 4D 5D 6D", "3C 9C", "3H 9H KH", "3S 9S"]})
    env.step(env.catalogue.encode("3D"))  # seat 0 leads the 3D
    env.step(env.catalogue.encode("9C"))  # seat 1 beats it
    env.step(0)  # seat 2 passes
    f = env.encoder.explain(env.observation_vector(3))  # seat 3 to move
    assert cards_of(f["hand"]) == to_mask("3S 9S")
    assert [cards_of(row) for row in f["played"]] == [0, to_mask("3D"), to_mask("9C"), 0]  # self, then seats 0, 1, 2
    assert f["cards_left"].tolist() == [2, 3, 1, 3]
    assert cards_of(f["trick"]) == to_mask("9C") and f["trick_seat"].tolist() == [0, 0, 1, 0]
    assert f["trick_kind"].tolist() == [1, 0, 0, 0, 0, 0, 0, 0]  # single
    assert f["to_move"].tolist() == [1, 0, 0, 0] and f["leader"].tolist() == [0, 1, 0, 0]
    assert f["passed"].tolist() == [0, 0, 0, 1]
    assert [cards_of(r) for r in f["history_cards"][:4]] == [0, to_mask("9C"), to_mask("3D"), 0]
    assert f["history_seat"][:3].tolist() == [[0, 0, 0, 1], [0, 0, 1, 0], [0, 1, 0, 0]]
    assert f["history_pass"].tolist() == [1, 0, 0, 0, 0, 0, 0, 0]
    assert not f["required"].any()


def test_required_card_is_shown_to_its_holder_only():
    env = raw_env("classic")
    env.reset(options={"hands": ["4D 5D", "3D 9S", "6D 7D", "8D 9D"]})
    holder = env.encoder.explain(env.observation_vector(1))
    assert cards_of(holder["required"]) == to_mask("3D")
    assert holder["leader"].tolist() == [1, 0, 0, 0] and not holder["trick"].any()
    for seat in (0, 2, 3):
        assert not env.encoder.explain(env.observation_vector(seat))["required"].any()


@pytest.mark.parametrize(
    ("preset", "players"),
    [(p, None) for p in PRESETS] + OTHER_TABLES + [(name, n) for name, (_r, n) in HOUSE_RULES.items()],
)
def test_fast_path_equals_the_reference_built_from_the_seats_observation(preset, players):
    """Every seat's vector, at every position, is a function of ``Game.observe(seat).to_json()`` alone."""
    env = raw_env(rules_of(preset), players)

    def check(env):
        for seat in range(env.n):
            assert np.array_equal(
                env.observation_vector(seat), env.encoder.from_observation(seat_observation(env, seat))
            )

    for seed in range(2):
        env.reset(seed=seed)
        play_randomly(env, seed, check)


@pytest.mark.parametrize("players", [2, 3, 5, 8])
def test_other_table_sizes(players):
    env = raw_env("house-code", players)
    env.reset(seed=players)

    def check(env):
        seat = env.game.to_move
        v = env.observation_vector(seat)
        assert env.observation_space(env.agents[0])["observation"].contains(v)
        assert np.array_equal(v, env.encoder.from_observation(env.game.observe(seat)))

    play_randomly(env, players, check)


def resample_hidden(game, seat, rng):
    """Another deal consistent with everything ``seat`` has seen: the unseen cards shuffled among the others."""
    obs = game.observe(seat).to_json()
    others = [s for s in range(game.n) if s != seat]
    known = {s: to_mask(obs["known_cards"].get(str(s), ())) for s in others}  # public: they stay put
    unseen = [c for s in others for c in bits(game.hand(s).mask & ~known[s])]
    rng.shuffle(unseen)
    hands = [0] * game.n
    hands[seat] = game.hand(seat).mask
    i = 0
    for s in others:
        k = obs["hand_sizes"][s] - known[s].bit_count()
        hands[s] = known[s] | sum(1 << c for c in unseen[i : i + k])
        i += k
    return position_from_observation(game.rules, game.observe(seat), hands), hands


# publicly known cards have their own test below: Game.from_observation does not carry over which cards
# everyone saw go into a hand
@pytest.mark.parametrize(
    "preset", ["classic", "house-code", "chor-dai-di", "zheng-shangyou", "tien-len", "two-decks", "stock", "auto-skip"]
)
@settings(max_examples=8)
@given(seed=st.integers(0, 10**6), cut=st.floats(0, 1))
def test_nothing_hidden_reaches_a_seat(preset, seed, cut):
    """Swap the other seats' unplayed cards (publicly known ones stay): the seat's observation, mask and
    info must not change."""
    rules = rules_of(preset)
    players = HOUSE_RULES[preset][1] if preset in HOUSE_RULES else None
    env = raw_env(rules, players, action_encoding="legal")
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    steps = int(cut * 60)
    while not env.game.is_over and (steps or env.pending is not None):  # the hidden cards of a round in play
        steps -= env.pending is None
        env.step(int(rng.choice(env.legal_actions())))
    if env.game.is_over:
        return
    shuffle = random.Random(seed)
    for seat in range(env.n):
        twin_game, hands = resample_hidden(env.game, seat, shuffle)
        twin = raw_env(rules, players, action_encoding="legal")
        twin.reset(options={"game": twin_game})
        agent = env.possible_agents[seat]
        assert data_equivalence(env.observe(agent), twin.observe(agent))
        assert data_equivalence(env.infos[agent], twin.infos[agent])
        if hands != [twin_game.hand(s).mask for s in range(env.n)]:
            raise AssertionError("the determinisation did not take the resampled hands")


def test_the_hidden_information_check_can_fail():
    """A different hand for the observer itself does change its observation (the test above is not vacuous)."""
    a, b = raw_env("classic"), raw_env("classic")
    a.reset(options={"hands": ["3D 4D", "5D 6D", "7D 8D", "9D TD"]})
    b.reset(options={"hands": ["3D 4C", "5D 6D", "7D 8D", "9D TD"]})
    assert not np.array_equal(a.observation_vector(0), b.observation_vector(0))
    assert np.array_equal(a.observation_vector(0)[52:], b.observation_vector(0)[52:])


def test_history_length_is_a_setting():
    env = raw_env("classic", history=0)
    env.reset(seed=1)
    assert "history_cards" in env.encoder.field and env.encoder.field["history_cards"].size == 0
    play_randomly(env, 1, lambda e: e.observation_vector(0))
    with pytest.raises(ValueError, match="history=-1"):
        ObservationEncoder("classic", 4, history=-1)


def test_two_decks_fold_the_copies_and_hide_the_other_hands():
    """Copies of a card cannot be told apart at the table: holding the first or the second 3D, or another
    seat holding other unseen cards, changes nothing in what seat 0 sees."""
    rules, n = HOUSE_RULES["two-decks"][0], 5
    base = ["3D 4D 9S 9S", "5C 7H KD", "6D 6D 8C", "TH JH", "QS AS"]
    other = ["3D 4D 9S 9S", "6D 8C KD", "5C 6D 7H", "QS AS", "TH JH"]  # unseen cards moved round
    envs = []
    for hands, first_copy in ((base, 0), (other, 1)):
        masks = [to_mask(h) for h in hands]
        if first_copy:  # seat 0 holds the second deck's 3D; seats 1 and 2 one 6D each
            masks[0] = masks[0] & ~to_mask("3D") | 1 << card("3D", copy=1)
            masks[2] = masks[2] & ~to_mask("6D") | 1 << card("6D", copy=1)
        env = raw_env(rules, n, action_encoding="legal")
        env.reset(options={"hands": [CardSet.from_mask(m) for m in masks], "first": 0})
        envs.append(env)
    for cards in ("3D", "pass", "pass", "pass", "pass", "9S 9S"):
        seen = [e.observe("player_0") for e in envs]
        assert data_equivalence(seen[0], seen[1]), cards
        assert data_equivalence(envs[0].infos["player_0"], envs[1].infos["player_0"])
        for e in envs:
            play = next(p for p in e.game.legal_plays() if str(p) == cards)
            e.step(e.encode(play))
    f = envs[0].encoder.explain(envs[0].observation_vector(0))
    assert envs[0].encoder.card_width == 106
    nine = card("9S").face
    assert f["played"][0][nine] == 1 and f["played"][0][nine + 54] == 1  # both 9Ss: at least one, and two
    assert f["history_cards"][0][nine] == f["history_cards"][0][nine + 54] == 1
    assert f["played"][0][card("3D").face] == 1 and f["played"][0][card("3D").face + 54] == 0


def test_face_up_cards_are_shown_to_everyone():
    # 004 Zheng Shangyou, Gameplay: "The remainder 'out' cards are shown face-up." (54 cards, 4 players: 2)
    env = raw_env("zheng-shangyou")
    env.reset(seed=0)
    face_up = env.game.face_up
    assert face_up.bit_count() == 2 and env.encoder.card_width == 54
    for seat in range(4):
        assert cards_of(env.encoder.explain(env.observation_vector(seat))["face_up"]) == face_up
    assert env.encoder.field["face_up"].size == 54 and raw_env("classic").encoder.field["face_up"].size == 0


def test_publicly_known_cards_show_until_played():
    rules, n = HOUSE_RULES["known-leftover"]
    env = raw_env(rules, n)
    env.reset(seed=1)
    dealer = 2  # the last seat deals and takes the 52nd card, shown to everyone
    leftover = to_mask(env.game.observe(0).to_json()["known_cards"][str(dealer)])
    assert leftover.bit_count() == 1 and env.game.hand(dealer).mask & leftover
    for seat in range(n):
        known = env.encoder.explain(env.observation_vector(seat))["known"]
        assert known.shape == (n - 1, 52)
        rows = [cards_of(r) for r in known]
        if seat == dealer:
            assert rows == [0, 0]  # the rows are the other seats'
        else:
            assert rows[(dealer - seat) % n - 1] == leftover and sum(rows) == leftover
    rng = np.random.default_rng(0)
    while env.game.hand(dealer).mask & leftover and not env.game.is_over:
        env.step(int(rng.choice(env.legal_actions())))
    assert not env.game.is_over
    for seat in (0, 1):  # once played, the card is in the dealer's played row instead
        f = env.encoder.explain(env.observation_vector(seat))
        assert not f["known"].any() and cards_of(f["played"][(dealer - seat) % n]) & leftover


def test_stock_draws_show_only_to_the_drawer():
    rules, n = HOUSE_RULES["stock"]
    env = raw_env(rules, n)
    env.reset(seed=3)
    rng = np.random.default_rng(3)
    while True:
        legal = env.legal_plays()
        if legal[-1].is_pass and len(legal) > 1:
            break
        env.step(int(rng.choice(env.legal_actions())))
    seat, other = env.game.to_move, 1 - env.game.to_move
    before = env.encoder.explain(env.observation_vector(other))
    hand_before = env.game.hand(seat).mask
    env.step(env.encode(legal[-1]))  # pass, and draw
    drawn = env.game.hand(seat).mask & ~hand_before
    assert drawn.bit_count() == 1
    mine = env.encoder.explain(env.observation_vector(seat))
    theirs = env.encoder.explain(env.observation_vector(other))
    assert cards_of(mine["hand"]) & drawn
    assert theirs["stock"][0] == before["stock"][0] - 1 and theirs["cards_left"][1] == before["cards_left"][1] + 1
    assert not any(cards_of(theirs[f]) & drawn for f in ("hand", "played", "trick", "history_cards"))


def test_automatic_skips_are_passes():
    rules, n = HOUSE_RULES["auto-skip"]
    env = raw_env(rules, n)
    for seed in range(20):
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        while not env.game.is_over:
            before = len(env.game.history)
            env.step(int(rng.choice(env.legal_actions())))
            notes = env.game.history_notes
            if "auto" in notes[before:] and not env.game.is_over and env.game.trick is not None:
                skipped = [env.game.history[i][0] for i in range(before, len(notes)) if notes[i] == "auto"]
                seat = env.game.to_move
                f = env.encoder.explain(env.observation_vector(seat))
                recent = len(notes) - before
                assert f["history_pass"][: recent - 1].all()  # the skips, most recent first
                assert all(f["passed"][(s - seat) % n] for s in skipped if s in env.game.passed_seats())
                return
    raise AssertionError("no automatic skip in 20 random rounds")
