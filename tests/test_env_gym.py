"""The Gymnasium environment: Gymnasium's checker for every preset, masks, opponents, seeding, vector form."""

import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env, data_equivalence

import bigtwo
from bigtwo.bots import make
from bigtwo.envs import ENV_VERSION, BigTwoGymEnv, gym_env, vector_env
from bigtwo.errors import BigTwoError

PRESETS = bigtwo.list_presets()


@pytest.mark.parametrize("preset", PRESETS)
def test_gymnasium_check_env_is_clean(preset, capsys):
    env = gymnasium.make(f"bigtwo/{preset}-v{ENV_VERSION}")
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # "clean": not even a warning
        check_env(env.unwrapped)
    env.close()
    assert env.unwrapped.rules.name == preset


@pytest.mark.parametrize(("preset", "opponents"), [("zheng-shangyou", "greedy"), ("tien-len", "random")])
def test_legal_encoding_against_bots(preset, opponents):
    """Presets without a catalogue: the learner's actions index its legal plays, with their card vectors."""
    env = gym_env(preset, opponents=opponents)
    assert env.aec.action_encoding == "legal"
    rng = np.random.default_rng(5)
    for seed in range(3):
        _steps, total, _info = play_episode(env, rng, seed)
        assert total == env.aec.reward_fn(env.game.result)[env.seat]  # places: ranking rules keep no points
    env = gym_env(preset, opponents=opponents, procedures=False)  # play from the deal: the plays' encoding
    env.reset(seed=9)
    legal = env.game.legal_plays()
    cards = env.action_cards()
    assert cards.shape == (len(legal), env.aec.encoder.card_width) and env.legal_actions() == list(range(len(legal)))
    assert [int(r.sum()) for r in cards] == [p.size for p in legal]
    vec = vector_env(
        3, preset, opponents=opponents, procedures=False
    )  # legal actions vary in number: per-environment arrays
    vec.reset(seed=2)
    for _ in range(20):
        masks, cards = vec.action_masks(), vec.action_cards()
        assert [len(c) for c in cards] == masks.sum(axis=1).tolist()
        vec.step([int(np.random.default_rng(0).integers(len(c))) for c in cards])
    vec.close()


def test_custom_rules_through_the_registry():
    env = gymnasium.make("bigtwo/custom-v1", rules=bigtwo.load_rules("taiwan").replace(name="ours"), players=3)
    obs, _info = env.reset(seed=0)
    assert env.unwrapped.n == 3 and obs.shape == env.observation_space.shape


def play_episode(env, rng, seed=None):
    obs, info = env.reset(seed=seed)
    steps, total = 0, 0.0
    while True:
        mask = env.action_masks()
        assert mask.dtype == bool and np.array_equal(mask, info["action_mask"].astype(bool))
        assert env.aec.seat_to_move == env.seat
        if env.aec.pending is not None:  # a procedure before play: the block of the engine's legal answers
            start = env.aec.answer_start
            assert np.flatnonzero(mask).tolist() == list(range(start, start + len(env.aec.legal_answers())))
        else:
            assert {env.aec.decode(i) for i in np.flatnonzero(mask)} == set(env.game.legal_plays())
        obs, reward, term, trunc, info = env.step(int(rng.choice(np.flatnonzero(mask))))
        steps += 1
        total += reward
        assert env.observation_space.contains(obs)
        if term or trunc:
            return steps, total, info


def test_masks_are_the_learning_seats_legal_plays_and_the_reward_its_score():
    env = gym_env("classic", opponents=["greedy", "random", "random"], seat="random")
    rng = np.random.default_rng(0)
    seats = set()
    for seed in range(6):
        _steps, total, info = play_episode(env, rng, seed)
        seats.add(env.seat)
        assert total == info["result"]["scores"][env.seat]
        assert not env.action_masks().any()
        with pytest.raises(BigTwoError, match="call reset"):
            env.step(0)
    assert len(seats) > 1  # the learning seat moves round the table


def test_opponents_are_bots_by_name_or_instance_and_reseeded():
    class Lowest:
        name = "lowest"

        def __init__(self):
            self.seen = []

        def choose(self, rules, observation):
            self.seen.append(observation)
            return bigtwo.legal.legal_plays_from_observation(rules, observation)[0]

    mine = Lowest()
    env = gym_env("classic", opponents=[mine, "random", make("greedy")])
    play_episode(env, np.random.default_rng(1), seed=3)
    assert mine.seen and all(o.seat == 1 for o in mine.seen)
    assert all(o.hand.bit_count() == o.hand_sizes[1] for o in mine.seen)
    runs = []
    for _ in range(2):
        env = gym_env("classic", opponents="random")
        rng = np.random.default_rng(2)
        histories = []
        for seed in (9, None, None):  # later episodes follow the first seed
            play_episode(env, rng, seed=seed)
            histories.append(env.game.history)
        runs.append(histories)
    assert runs[0] == runs[1]  # the same deals and the same bot choices
    assert runs[0][0] != runs[0][1]
    with pytest.raises(ValueError, match="no bot named 'randum'"):
        gym_env("classic", opponents="randum")
    with pytest.raises(ValueError, match="2 opponents given"):
        gym_env("classic", opponents=["random", "random"])
    with pytest.raises(ValueError, match="seat=4"):
        gym_env("classic", seat=4)


def test_an_illegal_action_ends_the_episode():
    env = gym_env("classic", illegal_reward=-5)
    env.reset(seed=0)
    illegal = int(np.flatnonzero(~env.action_masks())[0])
    _obs, reward, term, trunc, info = env.step(illegal)
    assert (reward, term, trunc, info["illegal_action"]) == (-5, True, False, True)


def test_vector_env_restarts_rounds_and_stacks_masks():
    env = vector_env(3, "classic", opponents="greedy")
    obs, _ = env.reset(seed=4)
    rng = np.random.default_rng(4)
    assert obs.shape == (3, env.single_observation_space.shape[0])
    finished = 0
    for _ in range(120):
        masks = env.action_masks()
        assert masks.shape == (3, env.single_action_space.n) and masks.any(axis=1).all()  # always a live round
        obs, reward, term, _trunc, _info = env.step([int(rng.choice(np.flatnonzero(m))) for m in masks])
        finished += int(term.sum())
        assert np.array_equal(reward[~term], np.zeros((~term).sum()))
    assert finished > 0
    env.close()
    for n in (0, -2):  # not an IndexError from inside Gymnasium
        with pytest.raises(ValueError, match=rf"^num_envs={n}: a vector environment needs at least one environment$"):
            vector_env(n, "classic")


def test_vector_env_in_worker_processes():
    env = vector_env(2, "classic", asynchronous=True)
    obs, _ = env.reset(seed=1)
    masks = env.action_masks()
    obs2, *_ = env.step([int(np.flatnonzero(m)[0]) for m in masks])
    assert masks.shape == (2, len(bigtwo.envs.catalogue("classic"))) and obs2.shape == obs.shape
    env.close()


def test_same_seed_same_episode():
    a, b = BigTwoGymEnv("house-code", 5), BigTwoGymEnv("house-code", 5)
    oa, _ = a.reset(seed=8)
    ob, _ = b.reset(seed=8)
    assert data_equivalence(oa, ob)
    for _ in range(5):
        act = int(np.flatnonzero(a.action_masks())[0])
        ra, rb = a.step(act), b.step(act)
        assert data_equivalence(ra, rb)
        if ra[2]:
            break
