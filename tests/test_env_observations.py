"""Observation vectors: documented fields, the fast path equal to the reference, and no hidden card leaking."""

import random
import re

import numpy as np
import pytest
from gymnasium.utils.env_checker import data_equivalence
from hypothesis import given, settings
from hypothesis import strategies as st

import bigtwo
from bigtwo import Game, load_rules
from bigtwo.cards import bits, to_mask
from bigtwo.envs import ObservationEncoder, raw_env
from bigtwo.envs import observations as observations_module

PRESETS = bigtwo.list_presets()


def cards_of(vector_part):
    return sum(1 << int(i) for i in np.flatnonzero(vector_part))


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


@pytest.mark.parametrize("preset", PRESETS)
def test_fast_path_equals_the_reference_built_from_the_seats_observation(preset):
    """Every seat's vector, at every position, is a function of ``Game.observation(seat)`` alone."""
    env = raw_env(preset)

    def check(env):
        for seat in range(env.n):
            assert np.array_equal(
                env.observation_vector(seat), env.encoder.from_observation(env.game.observation(seat))
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
        assert np.array_equal(v, env.encoder.from_observation(env.game.observation(seat)))

    play_randomly(env, players, check)


def resample_hidden(game, seat, rng):
    """Another deal consistent with everything ``seat`` has seen: the unseen cards shuffled among the others."""
    obs = game.observation(seat)
    others = [s for s in range(game.n) if s != seat]
    unseen = [c for s in others for c in bits(game.hand(s).mask)]
    rng.shuffle(unseen)
    hands = [0] * game.n
    hands[seat] = game.hand(seat).mask
    i = 0
    for s in others:
        k = obs["hand_sizes"][s]
        hands[s] = sum(1 << c for c in unseen[i : i + k])
        i += k
    return Game.from_observation(game.rules, obs, hands), hands


@pytest.mark.parametrize("preset", ["classic", "house-code", "chor-dai-di"])
@settings(max_examples=12)
@given(seed=st.integers(0, 10**6), cut=st.floats(0, 1))
def test_nothing_hidden_reaches_a_seat(preset, seed, cut):
    """Swap the other seats' unplayed cards: the seat's observation, mask and info must not change."""
    rules = load_rules(preset)
    env = raw_env(rules, action_encoding="legal")
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    steps = int(cut * 60)
    while not env.game.is_over and steps:
        env.step(int(rng.choice(env.legal_actions())))
        steps -= 1
    if env.game.is_over:
        return
    shuffle = random.Random(seed)
    for seat in range(env.n):
        twin_game, hands = resample_hidden(env.game, seat, shuffle)
        twin = raw_env(rules, action_encoding="legal")
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
