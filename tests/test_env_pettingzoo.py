"""The PettingZoo AEC environment: PettingZoo's own API and seed tests for every preset, rewards, illegal moves."""

import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test
from pettingzoo.utils import wrappers

import bigtwo
from bigtwo import load_rules
from bigtwo.envs import BigTwoAECEnv, CatalogueTooLarge, IllegalAction, Rewards, aec_env, raw_env
from bigtwo.errors import BigTwoError

PRESETS = bigtwo.list_presets()
# PettingZoo whitelists its own dict-observation environments by name; any other env with the standard
# {"observation", "action_mask"} dict draws these two notes, which say nothing about the environment
DICT_OBSERVATION_NOTES = ("Observation is not a NumPy array", "Observation space for each agent probably should be")


def run_quietly(test, *args, **kwargs):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        test(*args, **kwargs)
    other = [str(w.message) for w in caught if not str(w.message).startswith(DICT_OBSERVATION_NOTES)]
    assert not other, other


@pytest.mark.parametrize("preset", PRESETS)
def test_pettingzoo_api_and_seed_tests(preset):
    run_quietly(api_test, aec_env(preset), num_cycles=30)
    run_quietly(seed_test, lambda: aec_env(preset), num_cycles=30)


@pytest.mark.parametrize(("preset", "players"), [("classic", 2), ("classic", 3), ("house-code", 5), ("house-code", 8)])
def test_other_table_sizes_pass_the_api_test(preset, players):
    env = aec_env(preset, players)
    run_quietly(api_test, env, num_cycles=30)
    assert env.possible_agents == [f"player_{i}" for i in range(players)]


def test_legal_encoding_serves_rules_too_large_for_a_catalogue():
    long_straights = load_rules("classic").replace(name="long straights", straight_lengths=tuple(range(3, 13)))
    with pytest.raises(CatalogueTooLarge, match="action_encoding='legal'"):
        aec_env(long_straights)
    env = aec_env(long_straights, action_encoding="legal", max_legal=2048)
    run_quietly(api_test, env, num_cycles=30)
    run_quietly(seed_test, lambda: aec_env(long_straights, action_encoding="legal", max_legal=2048), num_cycles=30)
    env.reset(seed=3)
    agent = env.agent_selection
    plays = env.legal_plays()
    cards = env.infos[agent]["action_cards"]
    assert cards.shape == (len(plays), 52)
    assert [env.decode(i) for i in range(len(plays))] == plays
    assert [int(r.sum()) for r in cards] == [p.size for p in plays]
    assert env.observe(agent)["action_mask"].tolist() == [1] * len(plays) + [0] * (2048 - len(plays))
    assert np.array_equal(env.unwrapped.action_cards(), cards)


def test_action_cards_are_the_legal_actions_card_vectors():
    env = raw_env("classic")
    env.reset(seed=2)
    cards = env.action_cards()
    legal = env.legal_actions()
    assert cards.shape == (len(legal), 52)
    assert [env.catalogue.decode_cards(row) for row in cards] == env.legal_plays()


def play_out(env, seed):
    rng = np.random.default_rng(seed)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        totals[agent] += reward
        env.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return totals


@pytest.mark.parametrize("preset", PRESETS)
def test_rewards_are_the_rulesets_scoring_and_zero_sum(preset):
    rules = load_rules(preset)
    assert rules.scoring in ("encyclopedia", "ranking")  # both pay zero-sum; a new scoring needs its own check
    env = raw_env(rules)
    for seed in range(4):
        env.reset(seed=seed)
        game = env.game
        totals = play_out(env, seed)
        res = game.result
        got = [totals[a] for a in env.possible_agents]
        if rules.scoring == "encyclopedia":
            assert got == res.scores
        else:  # finishing order only: paid by place, (n + 1) / 2 - place
            assert got == [(env.n + 1) / 2 - place for place in res.places]
        assert sum(got) == 0


def test_normalised_rewards_keep_ratios_within_one():
    rules = load_rules("classic")
    # 002 Scoring: a loser pays a point a card, x3 when they played none; so at worst 3 x 13 = 39 from each of
    # three losers, and the winner collects 117
    assert Rewards(rules, 4).largest_payment() == 117
    assert Rewards(rules, 3).largest_payment() == 3 * (18 + 17)  # 3 players: 17 each, the 3D holder gets the 18th
    plain, scaled = raw_env(rules), raw_env(rules, normalize_rewards=True)
    for seed in range(5):
        plain.reset(seed=seed)
        scaled.reset(seed=seed)
        a, b = play_out(plain, seed), play_out(scaled, seed)
        for agent in a:
            assert b[agent] == pytest.approx(a[agent] / 117)
            assert -1 <= b[agent] <= 1
    places = raw_env("house-code", normalize_rewards=True)
    places.reset(seed=1)
    assert sorted(play_out(places, 1).values()) == pytest.approx([-1, -1 / 3, 1 / 3, 1])
    with pytest.raises(ValueError, match="reward='points'"):
        raw_env("classic", reward="points")


def test_illegal_action_ends_the_round_as_pettingzoos_wrapper_does():
    ours = aec_env("classic")
    theirs = wrappers.TerminateIllegalWrapper(raw_env("classic"), illegal_reward=-1)
    for env in (ours, theirs):
        env.reset(seed=11)
        for _ in range(5):
            obs = env.observe(env.agent_selection)
            env.step(int(np.flatnonzero(obs["action_mask"])[-1]))
    assert ours.unwrapped.game.history == theirs.unwrapped.game.history
    offender = ours.agent_selection
    mask = ours.observe(offender)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for env in (ours, theirs):
            env.observe(env.agent_selection)
            env.step(illegal)
    for attr in ("rewards", "_cumulative_rewards", "terminations", "truncations", "agent_selection"):
        assert getattr(ours, attr) == getattr(theirs.unwrapped, attr), attr
    assert ours.rewards[offender] == -1 and sum(ours.rewards.values()) == -1
    assert ours.infos[offender] == {"illegal_action": illegal}
    assert not ours.observe(offender)["action_mask"].any()
    seen = [a for a in ours.agent_iter() if ours.step(None) is None]
    assert sorted(seen) == sorted(ours.possible_agents) and ours.agents == []


def test_raw_env_refuses_an_illegal_action_with_the_reason():
    env = raw_env("classic")
    env.reset(options={"hands": ["4D 5D", "3D 9S", "6D 7D", "8D 9D"]})
    before = env.observe("player_1")
    with pytest.raises(IllegalAction, match="the first play must contain 3D"):
        env.step(env.catalogue.encode("9S"))
    with pytest.raises(IllegalAction, match="outside the action space"):
        env.step(len(env.catalogue))
    with pytest.raises(IllegalAction, match="player_1 is to move"):
        env.step(None)
    after = env.observe("player_1")
    assert np.array_equal(before["observation"], after["observation"])  # refused input changes nothing
    env.step(env.catalogue.encode("3D"))
    assert env.agent_selection == "player_2"


def test_order_and_table_size_errors():
    env = aec_env("classic")
    with pytest.raises(BigTwoError, match="before reset"):
        env.step(0)
    with pytest.raises(BigTwoError, match="before reset"):
        env.observe("player_0")
    with pytest.raises(BigTwoError, match="'classic' is for 2-4 players"):
        BigTwoAECEnv("classic", 5)
    with pytest.raises(ValueError, match="action_encoding='moves'"):
        BigTwoAECEnv("classic", action_encoding="moves")


def test_seeding_and_deal_options():
    a, b = raw_env("classic"), raw_env("classic")
    a.reset(seed=5)
    b.reset(seed=5)
    assert a.game.dealt == b.game.dealt
    a.reset()
    b.reset()
    assert a.game.dealt == b.game.dealt  # later deals follow the seed
    a.reset(seed=6)
    assert a.game.dealt != b.game.dealt
    a.reset(options={"deal_seed": 42})
    b.reset(seed=1, options={"deal_seed": 42})
    assert a.game.dealt == b.game.dealt  # duplicate deals
    mid = bigtwo.Game("classic", seed=3)
    for _ in range(6):
        mid.play(mid.legal_plays()[0])
    a.reset(options={"game": mid})
    assert a.game.history == mid.history and a.game is not mid
    assert a.agent_selection == f"player_{mid.to_move}"
    assert np.array_equal(a.observation_vector(0), a.encoder.from_observation(mid.observation(0)))


def test_render_shows_public_state_and_the_hand_to_move():
    env = aec_env("classic", render_mode="ansi")
    env.reset(options={"hands": ["4D 5D", "3D 9S", "6D 7D", "8D 9D"]})
    text = env.render()
    assert "player_1 holds 3D 9S" in text and "4D" not in text
    env.step(env.unwrapped.catalogue.encode("3D"))
    assert "to beat: 3D (single) by player_1" in env.render()
