"""The search bots through the compiled core: the same algorithm as in pure Python, move for move and bit for bit.

``bigtwo._core.Heuristic`` (src/bigtwo/_search.hpp) is the heuristic player of bots/heuristic.py and bots/plan.py on
the compiled round. The search's play-outs are the heuristic's, which is deterministic, so there is no random stream
to match: the compiled heuristic must score every action exactly as the Python one (the same floating-point values,
in the same order), a play-out must end where the Python play-out ends and be scored the same under every measure,
and the belief model's log-likelihood of a sampled deal must be the same number. A search with a budget in deals
then decides exactly as it does in pure Python (its values too), which the last tests check on isearch and search.

The deal sampler stays in Python (it is a few percent of a decision: benchmarks/search.py's profile in the lab log);
its tests here: every sampled deal agrees with the observation, and the hidden cards never reach it.
"""

from __future__ import annotations

import math
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bigtwo import Game, list_presets, load_rules, native
from bigtwo.bots import make, playouts
from bigtwo.bots import native_playouts as npo
from bigtwo.bots.heuristic import policy_for
from bigtwo.bots.sampling import DealSampler, PlayModel
from bigtwo.bots.view import played_in, view_from_game
from bigtwo.positions import position_from_observation
from bigtwo.utilities import UTILITIES, round_utility
from tests.house_rules import house_rules

needs_core = pytest.mark.skipif(not native.available(), reason=native.status())
COVERED = [p for p in list_presets() if native.covers(load_rules(p))]


def positions(preset: str, players: int, seed: int, share: float = 0.3):
    """Positions of a game in which the heuristic and random moves alternate (so that odd positions come up too)."""
    rules = load_rules(preset)
    g = Game(rules, players=players, seed=seed)
    policy = policy_for(g.ev)
    rng = random.Random(seed)
    while not g.is_over:
        yield rules, g, policy
        legal = g.legal_plays()
        g.play(rng.choice(legal) if rng.random() < share else policy.act(view_from_game(g, played_in(g))))


def tables_of(rules) -> list[int]:
    return sorted({rules.min_players, rules.players, rules.max_players})


@needs_core
@pytest.mark.parametrize("preset", COVERED)
def test_the_compiled_heuristic_scores_every_action_as_the_python_one(preset):
    rules = load_rules(preset)
    checked = 0
    for players in tables_of(rules):
        for seed in range(2):
            for _rules, g, policy in positions(preset, players, seed):
                fast = npo.compiled(policy)
                assert fast is not None
                played = played_in(g)
                view = view_from_game(g, played)
                want = [(sc, p.mask) for sc, p in policy.scores(view)]
                assert fast.scores(native.round_of(g), played, g.face_up) == want, (preset, players, seed)
                assert fast.choose(native.round_of(g), played, g.face_up) == policy.act(view).mask
                checked += 1
    assert checked > 20


@needs_core
@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(house_rules(), st.integers(0, 2**31 - 1))
def test_under_house_rules_the_compiled_heuristic_scores_and_plays_out_as_the_python_one(drawn, seed):
    """Rules no preset has (drawn by hypothesis: a preset with settings changed), wherever the core covers them."""
    rules, players = drawn
    if not native.covers(rules):
        return
    g = Game(rules, players=players, seed=seed)
    policy = policy_for(g.ev)
    fast = npo.compiled(policy)
    assert fast is not None
    rng = random.Random(seed)
    while not g.is_over:
        played = played_in(g)
        view = view_from_game(g, played)
        want = [(sc, p.mask) for sc, p in policy.scores(view)]
        assert fast.scores(native.round_of(g), played, g.face_up) == want
        if rng.random() < 0.2:
            with pytest.MonkeyPatch.context() as m:
                m.setattr(playouts, "compiled", lambda policy: None)
                ref = playouts.rollout(g.clone(), policy, played)
            r = native.round_of(g)
            masks, seats, _late = fast.play_out(r, played, g.face_up)
            assert ref.result is not None and not g._forfeited
            assert npo.result_of(g, r, masks, seats) == ref.result
        g.play(rng.choice(g.legal_plays()))


@needs_core
@pytest.mark.parametrize("preset", COVERED)
def test_a_compiled_playout_ends_and_scores_as_the_python_one(preset, monkeypatch):
    rules = load_rules(preset)
    for players in tables_of(rules):
        for seed in range(2):
            for i, (_rules, g, policy) in enumerate(positions(preset, players, seed)):
                if i % 3:
                    continue
                fast = npo.compiled(policy)
                played = played_in(g)
                with monkeypatch.context() as m:
                    m.setattr(playouts, "compiled", lambda policy: None)
                    ref = playouts.rollout(g.clone(), policy, played)
                mine = playouts.rollout(g.clone(), policy, played)  # the compiled moves, played on the Game
                assert [(s, p.mask) for s, p in mine.history] == [(s, p.mask) for s, p in ref.history]
                assert mine.result == ref.result
                r = native.round_of(g)
                masks, seats, late = fast.play_out(r, played, g.face_up)
                assert not late and r.over
                assert npo.result_of(g, r, masks, seats) == ref.result  # scored from the compiled round alone
                for measure in UTILITIES:
                    assert ref.result is not None
                    want = round_utility(ref.result, measure)[g.to_move]
                    assert playouts.heuristic_points(g.clone(), g.to_move, measure, policy, played, None) == want


@needs_core
@pytest.mark.parametrize("preset", COVERED)
def test_the_belief_model_weighs_a_deal_as_the_python_one(preset):
    rules = load_rules(preset)
    weighed = 0
    for players in tables_of(rules)[:2]:
        for i, (_rules, g, policy) in enumerate(positions(preset, players, 7)):
            if i % 6 != 5:
                continue
            obs = g.observe(g.to_move)
            model = PlayModel(rules, obs, policy)
            if not model.active:
                continue
            rng = random.Random(i)
            sampler = DealSampler(rules, obs)
            for _ in range(2):
                hands = sampler.sample(rng)
                fast = model.log_likelihood(hands)
                model._fast = None  # the Python replay
                slow = model.log_likelihood(hands)
                del model._fast
                assert fast == slow or (math.isinf(fast) and math.isinf(slow))
                weighed += 1
    if not weighed:  # (a pass locks the seat out of the trick, or the like: the model does not apply)
        pytest.skip(f"the belief model weighed no deal of these games under {preset}")


@needs_core
@pytest.mark.parametrize(
    ("preset", "players", "seed", "moves", "options"),
    [
        ("classic", 4, 11, 5, {"playout": "heuristic"}),
        ("classic", 4, 12, 14, {}),
        ("classic", 3, 14, 7, {"playout": "heuristic", "utility": "cards"}),
        ("tien-len", 4, 15, 9, {}),
        ("classic", 4, 13, 9, {"utility": "cards", "budget_ms": 10_000_000}),  # the network in every seat
    ],
)
def test_isearch_decides_with_the_core_as_in_pure_python(preset, players, seed, moves, options, monkeypatch):
    rules = load_rules(preset)
    game = Game(rules, players=players, seed=seed)
    heuristic = make("heuristic", seed=0)
    for _ in range(moves):
        game.play(heuristic.choose(rules, game.observe(game.to_move)))
    obs = game.observe(game.to_move)

    def decide():
        bot = make("isearch", seed=5, iterations=6, **options)
        return bot.choose(rules, obs), bot.last_values, bot.last_counts

    fast = decide()
    with monkeypatch.context() as m:
        m.setattr(playouts, "compiled", lambda policy: None)
        m.setattr(npo, "compiled", lambda policy: None)
        slow = decide()
    assert fast == slow


@needs_core
def test_search_decides_with_the_core_as_in_pure_python():
    rules = load_rules("classic")
    game = Game(rules, players=4, seed=3)
    heuristic = make("heuristic", seed=0)
    for _ in range(6):
        game.play(heuristic.choose(rules, game.observe(game.to_move)))
    obs = game.observe(game.to_move)
    fast = make("search", seed=2, iterations=8).choose(rules, obs)
    with pytest.MonkeyPatch.context() as m:
        m.setattr(playouts, "compiled", lambda policy: None)
        slow = make("search", seed=2, iterations=8).choose(rules, obs)
    assert fast == slow


def test_the_compiled_heuristic_is_used_only_where_the_core_covers_the_rules():
    for preset in list_presets():
        rules = load_rules(preset)
        policy = policy_for(rules.engine_for(rules.players))
        got = npo.compiled(policy)
        assert (got is not None) == (native.available() and native.covers(rules)), preset


# --- the deal sampler -------------------------------------------------------------------------------------------
def observed(preset: str, players: int, seed: int, moves: int):
    rules = load_rules(preset)
    g = Game(rules, players=players, seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if g.is_over:
            break
        g.play(rng.choice(g.legal_plays()))
    return rules, g


SAMPLED = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SAMPLED
@given(
    preset=st.sampled_from(["classic", "tien-len", "pusoy-dos", "winner"]),
    players=st.integers(3, 4),
    seed=st.integers(0, 10_000),
    moves=st.integers(0, 30),
    draw=st.integers(0, 2**32),
)
def test_a_sampled_deal_always_agrees_with_the_observation(preset, players, seed, moves, draw):
    rules, g = observed(preset, players, seed, moves)
    if g.is_over:
        return
    obs = g.observe(g.to_move)
    hands = DealSampler(rules, obs).sample(random.Random(draw))
    seat = obs.seat
    assert hands[seat] == obs.hand
    assert [h.bit_count() for h in hands] == list(obs.hand_sizes)
    union = 0
    for h in hands:
        assert not h & union  # no card twice
        union |= h
    assert not union & (obs.played | obs.face_up)
    assert not union & ~g.ev.pack
    position_from_observation(rules, obs, hands)  # the history replays on it


@SAMPLED
@given(
    preset=st.sampled_from(["classic", "tien-len", "pusoy-dos"]),
    seed=st.integers(0, 10_000),
    moves=st.integers(0, 25),
    other=st.integers(0, 2**32),
    draw=st.integers(0, 2**32),
)
def test_the_sampler_never_reads_the_hidden_cards(preset, seed, moves, other, draw):
    """Another deal of the hidden cards, as consistent with everything public as the real one (the same history,
    the same sizes), gives the same samples for the same seed: the sampler reads nothing the seat cannot see."""
    rules, g = observed(preset, 4, seed, moves)
    if g.is_over:
        return
    obs = g.observe(g.to_move)
    shuffled = DealSampler(rules, obs).sample(random.Random(other))  # the other seats' cards dealt otherwise
    twin = position_from_observation(rules, obs, shuffled)
    twin_obs = twin.observe(obs.seat)
    assert [twin.hand(s).mask for s in range(4)] == shuffled
    ours = DealSampler(rules, obs).sample(random.Random(draw))
    theirs = DealSampler(rules, twin_obs).sample(random.Random(draw))
    assert ours == theirs


@pytest.mark.parametrize("preset", ["classic", "tien-len"])
@pytest.mark.parametrize("seed", range(4))
def test_permuting_the_other_seats_hands_leaves_the_samples_unchanged(preset, seed):
    rules = load_rules(preset)
    dealt = [Game(rules, players=4, seed=seed).hand(s).mask for s in range(4)]
    permuted = [dealt[0], dealt[2], dealt[3], dealt[1]]
    samples = []
    for hands in (dealt, permuted):
        obs = Game(rules, players=4, hands=hands, first=0).observe(0)
        samples.append([DealSampler(rules, obs).sample(random.Random(seed * 7 + k)) for k in range(5)])
    assert samples[0] == samples[1]


def test_the_search_benchmark_counts_deals_and_play_outs():
    """benchmarks/search.py's measures, on one position at a short budget (no timing is asserted)."""
    from tests.benchmark_scripts import benchmark_module

    bench = benchmark_module("search")
    got = bench.measure("classic", 4, 1, 30.0, "heuristic", "auto")
    assert got["engine"] == native.status()
    assert len(got["deals"]) == len(got["playouts"]) == 1
    assert got["playouts"][0] >= got["deals"][0]
    mean, low, high = bench.interval([1.0, 2.0, 3.0])
    assert low < mean == 2.0 < high
