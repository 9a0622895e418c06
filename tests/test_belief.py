"""The belief network (bigtwo.bots.belief): what it reads, the deals it samples and their weights, and the search
that uses it."""

from __future__ import annotations

import itertools
import math
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bigtwo import Game, load_rules
from bigtwo.bots.belief import (
    BeliefEncoder,
    BeliefNet,
    BeliefSampler,
    belief_for,
    belief_network,
    class_masks,
    probabilities,
    public_tricks,
    shipped_beliefs,
)
from bigtwo.bots.heuristic import HeuristicBot, policy_for
from bigtwo.bots.registry import make
from bigtwo.bots.sampling import DealSampler
from bigtwo.bots.view import engine_of
from bigtwo.cards import bits
from bigtwo.errors import BigTwoError
from tests.rulesets import renamed_cards

RULES = load_rules("classic")


def random_net(seed: int = 0, players: int = 4, hidden: int = 32, scale: float = 0.3) -> BeliefNet:
    """A belief network with random weights: probabilities far from uniform, as a fitted one's may be."""
    rng = np.random.default_rng(seed)
    size = BeliefEncoder(RULES, players).size
    dims = (size, hidden, 52 * players)
    layers = tuple(
        (rng.normal(0, scale, (a, b)).astype(np.float32), rng.normal(0, scale, b).astype(np.float32))
        for a, b in itertools.pairwise(dims)
    )
    return BeliefNet(layers, {"rules": "classic", "players": players, "history": 8})


def played_to(seed: int, moves: int) -> Game:
    """A classic round after ``moves`` of the heuristic's moves (fewer if it ends first)."""
    game = Game(RULES, players=4, seed=seed)
    bot = HeuristicBot()
    for _ in range(moves):
        if game.is_over:
            break
        obs = game.observe(game.to_move)
        game.play(bot.choose_play(RULES, obs))
    if game.is_over:  # step back one move: a position with a seat to move
        game.undo()
    return game


def few_hidden(seed: int, most: int):
    """The first observation of a heuristic round's seat to move with at most ``most`` cards hidden from it and
    two opponents holding some, or None if the round ends first."""
    game = Game(RULES, players=4, seed=seed)
    bot = HeuristicBot()
    while not game.is_over:
        seat = game.to_move
        sizes = game.hand_sizes()
        if sum(sizes) - sizes[seat] <= most and sum(1 for s in range(4) if s != seat and sizes[s]) >= 2:
            return game.observe(seat)
        game.play(bot.choose_play(RULES, game.observe(seat)))
    return None


def test_the_encoding_is_the_same_whatever_the_hidden_cards():
    """The hidden-card swap: two deals that differ only in which opponent holds two unplayed cards give the
    observer the same input, while the truth the labels read differs."""
    game = played_to(5, 18)
    seat = game.to_move
    others = [s for s in range(4) if s != seat]
    a, b = others[0], others[1]
    ca, cb = bits(game.hand(a).mask)[0], bits(game.hand(b).mask)[0]
    history = [(s, p) for s, p in game.history]
    # the deal with the two cards swapped, the same history replayed on it
    start = [game.hand(s).mask for s in range(4)]
    for s, p in history:
        start[s] |= p.mask
    swapped = list(start)
    swapped[a] = swapped[a] & ~(1 << ca) | 1 << cb
    swapped[b] = swapped[b] & ~(1 << cb) | 1 << ca
    twin = Game(RULES, hands=swapped, first=history[0][0])
    for _s, p in history:
        twin.play(p)
    encoder = BeliefEncoder(RULES, 4)
    one, two = game.observe(seat), twin.observe(seat)
    assert np.array_equal(encoder.encode(one), encoder.encode(two))
    assert twin.hand(a).mask != game.hand(a).mask


def test_public_tricks_are_the_plays_to_beat_the_engine_saw():
    game = Game(RULES, players=4, seed=8)
    bot = HeuristicBot()
    seen = []
    for _ in range(30):
        if game.is_over:
            break
        seen.append(game.trick)
        game.play(bot.choose_play(RULES, game.observe(game.to_move)))
    if game.is_over:
        game.undo()
        seen.pop()
    assert public_tricks(RULES, game.observe(game.to_move)) == seen


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), moves=st.integers(0, 40), draw=st.integers(0, 2**31))
def test_every_sampled_deal_keeps_what_the_observation_makes_certain(seed, moves, draw):
    game = played_to(seed, moves)
    obs = game.observe(game.to_move)
    sampler = BeliefSampler(RULES, obs, random_net(seed % 7), BeliefEncoder(RULES, 4))
    hands, logw = sampler.sample_weighted(random.Random(draw))
    assert math.isfinite(logw)
    assert [h.bit_count() for h in hands] == list(obs.hand_sizes)
    assert hands[obs.seat] == obs.hand
    union = 0
    for h in hands:
        assert not h & union
        union |= h
    assert not union & obs.played
    assert union == game.hand(0).mask | game.hand(1).mask | game.hand(2).mask | game.hand(3).mask


def test_the_weighted_deals_are_the_product_of_the_card_probabilities():
    """On a position with few hidden cards, every deal it allows is enumerated: the self-normalised weights of
    many sampled deals give each deal its share of the product of its cards' probabilities."""
    obs = next(o for seed in range(100) if (o := few_hidden(seed, 7)) is not None)
    sampler = BeliefSampler(RULES, obs, random_net(3, scale=0.6), BeliefEncoder(RULES, 4))
    cards, need = class_masks(sampler)
    p = np.array(sampler.p)
    seat = obs.seat
    places = [k for k in range(4) for _ in range(need[k])]
    target: dict[tuple[int, ...], float] = {}
    for perm in set(itertools.permutations(places)):
        target[perm] = math.prod(p[i, k] for i, k in enumerate(perm))
    total = sum(target.values())
    rng = random.Random(4)
    got: dict[tuple[int, ...], float] = dict.fromkeys(target, 0.0)
    draws = 40_000
    for _ in range(draws):
        hands, logw = sampler.sample_weighted(rng)
        key = tuple(next(k for k in range(1, 4) if hands[(seat + k) % 4] >> c & 1) for c in cards)
        got[key] += math.exp(logw)
    weight = sum(got.values())
    for deal, t in target.items():
        assert got[deal] / weight == pytest.approx(t / total, abs=0.02)


def test_the_search_deals_from_the_network_and_refuses_what_does_not_fit(tmp_path):
    path = tmp_path / "beliefs.npz"
    random_net(1).save(path)
    game = played_to(2, 9)
    obs = game.observe(game.to_move)
    bot = make("isearch", seed=1, iterations=8, utility="cards", belief_weights=str(path))
    assert isinstance(bot._deal_sampler(RULES, obs), BeliefSampler)
    policy = policy_for(engine_of(RULES, obs))
    assert bot._belief_model(RULES, obs, policy) is None  # the network replaces it
    assert bot.choose_play(RULES, obs) in game.legal_plays()
    plain = make("isearch", seed=1, iterations=8, utility="cards")
    assert type(plain._deal_sampler(RULES, obs)) is DealSampler
    with pytest.raises(BigTwoError, match="no belief weights at"):
        make("isearch", belief_weights=str(tmp_path / "none.npz"))
    three = tmp_path / "three.npz"
    random_net(1, players=3).save(three)
    with pytest.raises(BigTwoError, match="fitted for 'classic' with 3 players, not 'classic' with 4"):
        belief_network(str(three), RULES, 4)
    np.savez(tmp_path / "other.npz", w0=np.zeros((2, 2)))
    with pytest.raises(BigTwoError, match="not a belief network's"):
        BeliefNet.load(tmp_path / "other.npz")


@pytest.mark.parametrize(("preset", "renamed"), [("taiwan", (1, 0, 2, 3)), ("pusoy-dos", (3, 0, 2, 1))])
def test_rules_whose_rounds_are_classic_s_with_the_suits_renamed_get_classic_s_beliefsrenamed_cards(
    preset, renamed, tmp_path
):
    """Taiwan's rounds (C<D<H<S, the 3C leads) are classic's with clubs and diamonds renamed, Pusoy Dos's with
    every suit renamed: a network fitted on classic believes of each card there exactly what it believes of the
    renamed card in the renamed round, whole rounds long, and refuses rules it does not play."""
    rules, classic = load_rules(preset), load_rules("classic")
    net = random_net(4)
    found = belief_for("shipped", rules, 4)
    assert found is not None and found[1].suits == renamed
    assert belief_for("shipped", classic, 4)[1].rows is None  # its own names: nothing to map
    here = BeliefEncoder(rules, 4, suits=renamed)
    there = BeliefEncoder(classic, 4)
    bot = HeuristicBot()
    for seed in range(2):
        gt = Game(rules, players=4, seed=seed)
        gc = Game(classic, players=4, hands=[renamed_cards(gt.hand(s).mask, renamed) for s in range(4)])
        assert gc.to_move == gt.to_move
        while not gt.is_over:
            obs_t, obs_c = gt.observe(gt.to_move), gc.observe(gc.to_move)
            assert np.array_equal(here.encode(obs_t), there.encode(obs_c))
            st_, sc = DealSampler(rules, obs_t), DealSampler(classic, obs_c)
            p_t = probabilities(net, here, obs_t, st_)
            p_c = probabilities(net, there, obs_c, sc)
            where = {c: i for i, c in enumerate(sc.pool)}
            assert np.allclose(p_t, p_c[[where[renamed_cards(1 << c, renamed).bit_length() - 1] for c in st_.pool]])
            move = bot.choose_play(rules, obs_t)
            gt.play(move)
            gc.play(next(p for p in gc.legal_plays() if p.mask == renamed_cards(move.mask, renamed)))
    path = tmp_path / "classic.npz"
    net.save(path)
    assert belief_for(str(path), rules, 4)[1].suits == renamed  # a file fitted on classic, alike
    with pytest.raises(BigTwoError, match="fitted for 'classic' with 4 players, not 'indonesia' with 4"):
        belief_for(str(path), load_rules("indonesia"), 4)


def test_a_table_the_network_does_not_read_samples_as_before(tmp_path):
    path = tmp_path / "beliefs.npz"
    random_net(1).save(path)
    rules = load_rules("classic")
    assert belief_network("shipped", load_rules("tien-len"), 4) is None or ("tien-len", 4) in shipped_beliefs()
    bot = make("isearch", seed=1, iterations=4, belief_weights=str(path)).adjust_plan(weigh_beliefs=False)
    game = played_to(2, 5)
    assert type(bot._deal_sampler(rules, game.observe(game.to_move))) is DealSampler


def test_collect_and_fit_learn_the_holders(tmp_path):
    pytest.importorskip("torch")
    from bigtwo.lab.belief import BeliefData, FitConfig, collect, fit

    data = collect("classic", 4, rounds=30, seed=3, heuristic_share=0.5)
    assert len(data.x) == len(data.y) == len(data.need) == len(data.rounds) > 300
    assert data.rounds.tolist() == sorted(data.rounds.tolist()) and data.rounds.max() == 29
    hidden = data.y >= 0
    assert (hidden.sum(axis=1) == data.need.sum(axis=1)).all()  # every hidden card labelled, none other
    data.save(tmp_path / "d.npz")
    again = BeliefData.load([tmp_path / "d.npz"])
    assert np.array_equal(again.y, data.y)
    out = tmp_path / "net.npz"
    result = fit(again, "classic", 4, FitConfig(hidden=(64,), epochs=4, seed=1), out)
    losses = [e["train_loss"] for e in result.epochs]
    assert losses[-1] < losses[0]
    held = [e["validation_loss"] for e in result.epochs]
    assert held[result.kept - 1] == min(held)  # the epoch kept is the best on the held-out rounds
    net = BeliefNet.load(out)
    game = played_to(4, 12)
    sampler = BeliefSampler(RULES, game.observe(game.to_move), net, BeliefEncoder(RULES, 4))
    assert np.allclose(np.array(sampler.p).sum(axis=1), 1.0)


def test_rounds_are_read_back_where_a_shard_did_not_record_them():
    from bigtwo.lab.belief import rounds_of

    need = np.array([[0, 13, 13, 13], [0, 12, 13, 13], [0, 12, 12, 12], [0, 13, 13, 13], [0, 13, 12, 13]])
    assert rounds_of(need).tolist() == [0, 0, 0, 1, 1]


def test_the_benchmark_judges_every_source_on_the_true_deal(tmp_path):
    import argparse

    from tests.benchmark_scripts import study_module

    path = tmp_path / "beliefs.npz"
    random_net(2).save(path)
    beliefs = study_module("beliefs")
    args = argparse.Namespace(
        rounds=1, field="heuristic", belief_weights=str(path), deals=8, every=3, workers=1, seed=4
    )
    rows = beliefs.run(args)
    assert rows
    for row in rows:
        assert set(beliefs.SOURCES) <= set(row)
        for source in beliefs.SOURCES:
            nats, right, ess, _ms = row[source]
            assert nats > 0 and 0 <= right <= 1 and 0 < ess <= 1
    # a sampled source's card probabilities are the weighted shares of the deals placing it
    one, two = [0, 1 << 5, 1 << 9, 0], [0, 1 << 9, 1 << 5, 0]
    p = beliefs.sampled_marginals([one, two], [3.0, 1.0], [5, 9], 0, 4)
    assert p.tolist() == [[0.0, 0.75, 0.25, 0.0], [0.0, 0.25, 0.75, 0.0]]
    nats, right = beliefs.judge(p, [1, 1])
    assert nats == pytest.approx(-(math.log(0.75) + math.log(0.25)) / 2) and right == 0.5


def test_the_shipped_network_is_classic_s_with_four_players():
    assert ("classic", 4) in shipped_beliefs()
    net = belief_network("shipped", RULES, 4)
    assert net is not None and net.players == 4 and net.rules_name == "classic"
    assert belief_network("shipped", RULES, 3) is None  # no network for three players: sampled as before
    # classic's rounds with the suits renamed (Taiwan's C<D<H<S): the same network, shown the cards renamed
    assert belief_network("shipped", load_rules("taiwan"), 4) is net
    assert belief_network("shipped", load_rules("hong-kong"), 4) is net  # classic's very settings, named otherwise
    game = played_to(6, 20)
    obs = game.observe(game.to_move)
    bot = make("isearch", seed=1, iterations=6, utility="cards", belief_weights="shipped")
    assert isinstance(bot._deal_sampler(RULES, obs), BeliefSampler)
    assert bot.choose_play(RULES, obs) in game.legal_plays()
    # fitted held out on whole rounds, better than dealing uniformly on its own field's play
    result = net.meta["result"]
    assert result["epochs"][result["kept"] - 1]["validation_loss"] < result["uniform_loss"]


def test_the_commands_refuse_bad_settings_in_words(tmp_path):
    from typer.testing import CliRunner

    from bigtwo.cli import app

    runner = CliRunner()
    res = runner.invoke(app, ["lab", "beliefs", "collect", str(tmp_path / "d.npz"), "--rounds", "0"])
    assert res.exit_code == 2 and "--rounds 0: must be 1 or more" in res.output
    res = runner.invoke(
        app, ["lab", "beliefs", "collect", str(tmp_path / "d.npz"), "--field", str(tmp_path / "no.npz")]
    )
    assert res.exit_code == 2 and "no.npz" in res.output
    assert not (tmp_path / "d.npz").exists()  # nothing written for a refused command
