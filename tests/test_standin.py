"""The stand-in for ``search`` (:mod:`bigtwo.lab.standin`): collected play-out values and the network fitted to them."""

from __future__ import annotations

import json
import os

import numpy as np
import pytest

pytest.importorskip("torch")

from bigtwo import Game, load_rules
from bigtwo.bots import make
from bigtwo.bots.features import ActionEncoder, StateEncoder
from bigtwo.bots.heuristic import policy_for, search_candidates
from bigtwo.bots.learned import load_weights
from bigtwo.bots.view import engine_of, view_from_observation
from bigtwo.errors import BigTwoError
from bigtwo.lab.standin import (
    CollectConfig,
    FitConfig,
    collect,
    collect_parallel,
    fit,
    position_values,
    read_values,
)


@pytest.fixture(scope="module")
def shards(tmp_path_factory):
    out = tmp_path_factory.mktemp("values")
    return collect(CollectConfig(positions=600, seed=3, shard_positions=250), out)


def test_collect_writes_every_position_with_its_candidates_play_outs(shards):
    """``positions`` positions in shards of ``shard_positions``; each holds the seat's state vector, one action
    vector and one play-out's points a candidate (two to five: the heuristic's best four and the pass), and the
    shards say what table, features, candidates and points they were collected for."""
    assert shards.positions == 600 and len(shards.files) == 3
    data = read_values(shards.files)
    rules = load_rules("classic")
    assert len(data) == 600 and data.offsets[-1] == len(data.points) == len(data.actions) == shards.playouts
    counts = np.diff(data.offsets)
    assert counts.min() >= 2 and counts.max() <= 5
    assert data.states.shape[1] == StateEncoder(rules, 4, 8).size
    assert data.actions.shape[1] == ActionEncoder(rules, 4).size
    assert data.meta["candidates"] == 4 and data.meta["utility"] == "cards" and data.meta["players"] == 4
    # one point a card left: a loser pays its cards (at most 13), the winner takes the others' (at most 39)
    assert np.all(data.points == np.round(data.points)) and data.points.min() >= -13 and data.points.max() <= 39
    # the pass is a candidate wherever it is legal (search always weighs holding back): a pass row's cards are empty
    width = ActionEncoder(rules, 4).width
    passes = data.actions[:, :width].sum(axis=1) == 0
    assert passes.any() and not passes.all()


def test_collect_is_reproducible_and_shared_among_workers(tmp_path):
    a = collect(CollectConfig(positions=40, seed=9), tmp_path / "a")
    b = collect(CollectConfig(positions=40, seed=9), tmp_path / "b")
    x, y = read_values(a.files), read_values(b.files)
    assert np.array_equal(x.states, y.states) and np.array_equal(x.points, y.points)
    both = collect_parallel(CollectConfig(positions=41, seed=9), tmp_path / "c", workers=2)
    assert both.positions == 42 and len(both.files) == 2  # each worker its share, rounded up
    assert read_values(both.files).meta["seeds"] == [9, 10]


def test_a_positions_values_come_from_the_seats_observation_alone():
    """What a position records (its state vector, the candidates' vectors and their play-outs' points) is the same
    when the cards the seat cannot see are dealt otherwise: the deal played out is sampled, never the true one.
    The candidates are search's: the heuristic's best four and the pass."""
    import random

    from tests.test_bots import midgame, scrambled

    rules = load_rules("classic")
    states, actions = StateEncoder(rules, 4, 8), ActionEncoder(rules, 4)
    checked = 0
    for seed in range(8):
        g = midgame(rules, seed, 6 + 3 * seed)
        got = position_values(g, 4, "cards", random.Random(1), states, actions)
        if got is None:
            continue
        other = position_values(
            scrambled(g, g.to_move, random.Random(seed)), 4, "cards", random.Random(1), states, actions
        )
        assert other is not None
        assert np.array_equal(got[0], other[0]) and np.array_equal(got[1], other[1]) and got[2] == other[2]
        obs = g.observe(g.to_move)
        cands = search_candidates(got[3], 4)
        assert np.array_equal(got[1], actions.encode(obs.hand, cands)) and len(got[2]) == len(cands)
        checked += 1
    assert checked >= 4


@pytest.mark.parametrize(
    "options,message",
    [
        ({}, "say how much to collect"),
        ({"positions": 0}, "positions=0: must be 1 or more"),
        ({"minutes": 1, "candidates": 0}, "candidates=0: must be 1 or more"),
        ({"minutes": 1, "explore": 1.0}, r"explore=1.0: must lie in \[0, 1\)"),
        ({"minutes": 1, "utility": "money"}, "utility 'money' is not one of"),
    ],
)
def test_bad_collect_settings_are_refused(tmp_path, options, message):
    with pytest.raises(BigTwoError, match=message):
        collect(CollectConfig(**options), tmp_path)


def test_progress_is_heard_and_a_seeds_shards_are_never_overwritten(tmp_path):
    """The counts reach the caller as collection goes on (summed over the workers) and end at what was written; a
    second collection of a seed already in the directory is refused before anything is played, its files kept."""
    heard: list[tuple[int, int]] = []
    got = collect(CollectConfig(positions=30, seed=4), tmp_path, progress=lambda p, n: heard.append((p, n)))
    assert heard[-1] == (got.positions, got.playouts) == (30, got.playouts)
    assert [p for p, _ in heard] == sorted(p for p, _ in heard)
    before = {f: (tmp_path / f).read_bytes() for f in ("4-000.npz",)}
    for seed, workers in ((4, 1), (3, 2)):  # two workers from seed 3 write seeds 3 and 4
        with pytest.raises(BigTwoError, match=r"already holds shards of seed .*4-000\.npz.*another seed"):
            collect_parallel(CollectConfig(positions=10, seed=seed), tmp_path, workers)
    assert {f: (tmp_path / f).read_bytes() for f in before} == before and sorted(os.listdir(tmp_path)) == ["4-000.npz"]
    summed: list[tuple[int, int]] = []
    both = collect_parallel(
        CollectConfig(positions=40, seed=5), tmp_path, workers=2, progress=lambda p, n: summed.append((p, n))
    )
    assert summed[-1] == (both.positions, both.playouts) == (40, both.playouts)


def test_files_that_are_not_search_values_or_of_another_table_are_refused(tmp_path, shards):
    other = collect(CollectConfig(rules="tien-len", positions=5, seed=1), tmp_path / "tl")
    with pytest.raises(BigTwoError, match="was collected with other rules_settings"):
        read_values([shards.files[0], *other.files])
    np.savez(tmp_path / "plain.npz", x=np.zeros(3))
    with pytest.raises(BigTwoError, match=r"plain\.npz: not a file of search values"):
        read_values([tmp_path / "plain.npz"])
    with pytest.raises(BigTwoError, match="no files of search values"):
        read_values([])


def test_the_fit_learns_and_its_weights_play_among_the_searchs_candidates(tmp_path, shards):
    """The training loss falls epoch by epoch; the kept weights are learned-bot weights marked as search values,
    fitted among four candidates, and ``learned(weights=...)`` then plays among the search's candidates only."""
    result = fit(shards.files, tmp_path / "fit", FitConfig(epochs=4, hidden=(64, 32), lr=1e-3, holdout=0.2))
    losses = [e.loss for e in result.epochs[1:]]
    assert losses[-1] < losses[0]
    assert result.relative_variance > 0 and result.held_out > 0
    report = json.loads((tmp_path / "fit" / "report.json").read_text())
    assert report["kept"] == result.kept and len(report["epochs"]) == 5
    weights = tmp_path / "fit" / "standin.npz"
    meta = load_weights(weights).meta
    assert meta["target"] == "search-values" and meta["candidates"] == 4 and meta["utility"] == "cards"
    rules = load_rules("classic")
    bot = make("learned", weights=str(weights))
    for seed in range(3):
        g = Game(rules, seed=seed)
        while not g.is_over:
            obs = g.observe(g.to_move)
            legal = g.legal_plays()
            choice = bot.choose(rules, obs)
            if len(legal) > 1:
                ranked = policy_for(engine_of(rules, obs)).scores(view_from_observation(rules, obs, legal))
                assert choice in search_candidates(ranked, 4)
            g.play(choice)


def test_bad_fit_settings_are_refused(tmp_path, shards):
    with pytest.raises(BigTwoError, match="holdout=0: must lie between 0 and 1"):
        fit(shards.files, tmp_path, FitConfig(holdout=0))
    with pytest.raises(BigTwoError, match="epochs=0: must be 1 or more"):
        fit(shards.files, tmp_path, FitConfig(epochs=0))
