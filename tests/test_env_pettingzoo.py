"""The PettingZoo AEC environment: PettingZoo's own API and seed tests for every preset, rewards, illegal moves."""

import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test
from pettingzoo.utils import wrappers

import bigtwo
from bigtwo import load_rules
from bigtwo.envs import (
    BigTwoAECEnv,
    CatalogueTooLarge,
    IllegalAction,
    aec_env,
    legal_play_bound,
    raw_env,
)
from bigtwo.errors import BigTwoError
from bigtwo.scoring import is_zero_sum
from tests.env_house_rules import HOUSE_RULES

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


@pytest.mark.parametrize(
    ("preset", "players"),
    [
        ("classic", 2),
        ("classic", 3),
        ("house-code", 5),
        ("house-code", 8),
        ("zheng-shangyou", 3),
        ("zheng-shangyou", 6),
        ("winner", 3),
        ("tien-len", 2),
    ],
)
def test_other_table_sizes_pass_the_api_test(preset, players):
    env = aec_env(preset, players)
    run_quietly(api_test, env, num_cycles=30)
    assert env.possible_agents == [f"player_{i}" for i in range(players)]


@pytest.mark.parametrize("name", list(HOUSE_RULES))
def test_house_rules_pass_the_api_and_seed_tests(name):
    """Two decks, wild jokers, automatic skips, stock draws, publicly known cards."""
    rules, players = HOUSE_RULES[name]
    run_quietly(api_test, aec_env(rules, players), num_cycles=30)
    run_quietly(seed_test, lambda: aec_env(rules, players), num_cycles=30)


def test_legal_encoding_serves_rules_too_large_for_a_catalogue():
    long_straights = load_rules("classic").replace(name="long straights", straight_lengths=tuple(range(3, 13)))
    with pytest.raises(CatalogueTooLarge, match="action_encoding='legal'"):
        aec_env(long_straights, action_encoding="catalogue")
    env = aec_env(long_straights)  # chosen by itself
    assert env.action_encoding == "legal" and env.num_actions == legal_play_bound(long_straights, 4)
    run_quietly(api_test, env, num_cycles=30)
    run_quietly(seed_test, lambda: aec_env(long_straights), num_cycles=30)
    env.reset(seed=3)
    agent = env.agent_selection
    plays = env.legal_plays()
    cards = env.infos[agent]["action_cards"]
    assert cards.shape == (len(plays), 52)
    assert [env.decode(i) for i in range(len(plays))] == plays
    assert [int(r.sum()) for r in cards] == [p.size for p in plays]
    mask = env.observe(agent)["action_mask"]
    assert mask.tolist() == [1] * len(plays) + [0] * (env.num_actions - len(plays))
    assert np.array_equal(env.unwrapped.action_cards(), cards)
    small = raw_env(long_straights, max_legal=len(plays) - 1)  # narrower than the bound: refused where exceeded
    with pytest.raises(BigTwoError, match=f"{len(plays)} legal plays here, more than max_legal={len(plays) - 1}"):
        small.reset(seed=3)


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


@pytest.mark.parametrize("preset", [*PRESETS, "stock", "auto-skip"])
def test_rewards_are_the_rulesets_scoring(preset):
    rules, players = HOUSE_RULES[preset] if preset in HOUSE_RULES else (load_rules(preset), None)
    env = raw_env(rules, players)
    scaled = raw_env(rules, players, normalize_rewards=True)
    ranks_only = rules.scoring == "ranking" and not rules.teams
    for seed in range(4):
        env.reset(seed=seed)
        scaled.reset(seed=seed)
        game = env.game
        totals = play_out(env, seed)
        res = game.result
        got = [totals[a] for a in env.possible_agents]
        if ranks_only:  # finishing order only: paid by place, (n + 1) / 2 - place
            assert got == [(env.n + 1) / 2 - place for place in res.places]
        else:
            assert got == res.scores  # the engine's own scoring of the round
        if ranks_only or is_zero_sum(rules):
            assert sum(got) == 0
        norm = play_out(scaled, seed)
        assert all(-1 <= x <= 1 for x in norm.values())
        assert [norm[a] for a in env.possible_agents] == pytest.approx([x / scaled.reward_fn.scale for x in got])


def test_rewards_need_not_be_zero_sum():
    # 001 Scoring, "Cumulative scoring: All players get penalty points": the winner gains nothing
    rules = load_rules("bga")
    assert not is_zero_sum(rules)
    env = raw_env(rules)
    env.reset(seed=0)
    totals = play_out(env, 0)
    winner = env.game.result.winner
    assert totals[f"player_{winner}"] == 0 and sum(totals.values()) < 0


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
    with pytest.raises(BigTwoError, match="players='4': players is a whole number"):
        BigTwoAECEnv("classic", "4")
    with pytest.raises(ValueError, match="action_encoding='moves'"):
        BigTwoAECEnv("classic", action_encoding="moves")
    with pytest.raises(ValueError, match="max_legal=0"):
        BigTwoAECEnv("winner", max_legal=0)


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
    assert np.array_equal(a.observation_vector(0), a.encoder.from_observation(mid.observe(0)))


def test_render_shows_public_state_and_the_hand_to_move():
    env = aec_env("classic", render_mode="ansi")
    env.reset(options={"hands": ["4D 5D", "3D 9S", "6D 7D", "8D 9D"]})
    text = env.render()
    assert "player_1 holds 3D 9S" in text and "4D" not in text
    env.step(env.unwrapped.catalogue.encode("3D"))
    assert "to beat: 3D (single) by player_1" in env.render()


def test_deal_time_decisions_are_actions_of_the_environment():
    """Under rules that offer a new deal (or the leftover swap), the agent asked answers with keep/take actions;
    the pettingzoo API test holds, and taking a new deal deals again."""
    from bigtwo import load_rules
    from bigtwo.envs import raw_env

    redeal = load_rules("classic").replace(redeal_requests=("low-points",), redeal_points=100)
    swap = load_rules("classic").replace(players=3, leftover="swap", leftover_shown=True)
    for rules in (redeal, swap):
        env = raw_env(rules)
        api_test(env, num_cycles=200)
        env.reset(seed=4)
        assert env.deal is not None
        agent = env.agent_selection
        obs, *_ = env.last()
        assert list(np.flatnonzero(obs["action_mask"])) == [env.keep_action, env.take_action]
        assert env.deal_observation(env.deal.seat).decision == env.deal
        hands = [env.game.hand(s).mask for s in range(env.n)]
        env.step(env.take_action)
        assert [env.game.hand(s).mask for s in range(env.n)] != hands, agent
        while env.deal is not None:
            env.step(env.keep_action)
        assert env.agent_selection == env.possible_agents[env.game.to_move]


def test_the_single_agent_env_lets_its_bots_answer_deal_time_decisions():
    from bigtwo import load_rules
    from bigtwo.envs import gym_env

    rules = load_rules("classic").replace(redeal_requests=("low-points",), redeal_points=100)
    env = gym_env(rules, opponents="random")
    rng = np.random.default_rng(0)
    for seed in range(5):
        env.reset(seed=seed)
        done = False
        while not done:
            legal = np.flatnonzero(env.action_masks())
            _, _, term, trunc, _ = env.step(int(legal[rng.integers(len(legal))]))
            done = term or trunc
    assert env.aec.game.requests  # somebody asked for a new deal along the way


def test_human_rendering_shows_every_step_a_deal_answer_too(capsys):
    """In human mode the table is printed after every step (PettingZoo's convention), a deal-time answer
    included, and the pending deal decision is part of the picture."""
    from bigtwo import load_rules
    from bigtwo.envs import raw_env

    rules = load_rules("classic").replace(redeal_requests=("low-points",), redeal_points=100)
    env = raw_env(rules, render_mode="human")
    env.reset(seed=4)
    assert env.deal is not None
    shown = env.describe()
    assert f"player_{env.deal.seat} answers a 'redeal' decision" in shown
    capsys.readouterr()
    env.step(env.keep_action)
    printed = capsys.readouterr().out
    assert printed.strip() and "players" in printed
