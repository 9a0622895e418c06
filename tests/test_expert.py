"""Expert iteration (issue 15): the network fitted to what isearch finds in the network's own games.

Needs torch (the ``[rl]`` extra); skipped without it. The network is the shipped classic four-player one; the
runs search a handful of games with two deals a candidate, so each takes seconds.
"""

from __future__ import annotations

import json
import math
import shutil
from importlib import resources

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from typer.testing import CliRunner  # noqa: E402

from bigtwo import load_rules  # noqa: E402
from bigtwo.bots import make  # noqa: E402
from bigtwo.bots.learned import QPolicy, load_weights, scorer_for  # noqa: E402
from bigtwo.cli.app import app  # noqa: E402
from bigtwo.errors import BigTwoError  # noqa: E402
from bigtwo.lab import expert as expert_module  # noqa: E402
from bigtwo.lab.expert import ExpertConfig, Labels, expert, label_shard, targets  # noqa: E402
from tests.benchmark_scripts import study_module  # noqa: E402
from tests.test_bots import play_out  # noqa: E402

SMALL = ExpertConfig(games=4, iterations=2, share=0.5, shard_games=2, epochs=5, lr=1e-3, holdout=0.25, seed=2)


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    out = tmp_path_factory.mktemp("expert")
    return out, expert(out, SMALL, rules="classic", players=4)


def test_the_labels_are_the_searchs_values_of_its_candidates_beside_the_networks():
    rules = load_rules("classic")
    scorer = scorer_for(rules, 4)
    data = label_shard(scorer, rules, 4, first=0, games=1, cfg=SMALL, weights=None)
    assert len(data) > 3 and set(data.game_of) == {0}
    for d, (lo, hi) in enumerate(zip(data.offsets[:-1], data.offsets[1:], strict=True)):
        found = data.searched[lo:hi]
        assert hi - lo >= 2 and np.count_nonzero(~np.isnan(found)) >= 2  # a ranking among two or more
        assert np.all(np.abs(found[~np.isnan(found)]) <= 13 * 3)  # points of a card left
        # the network's values are its own of the position it was asked about
        state, rows = data.states[[d]].astype(np.float32), data.actions[lo:hi].astype(np.float32)
        assert np.allclose(scorer.net.q_batch(state, rows, np.array([0, hi - lo])), data.q[lo:hi], atol=2e-2)


def test_the_labels_are_the_same_whatever_deals_are_played_out_side_by_side(monkeypatch):
    """Labelling plays every sampled deal of a decision side by side for speed: the values must be those of one
    deal at a time."""
    rules = load_rules("classic")
    scorer = scorer_for(rules, 4)
    cfg = ExpertConfig(**{**SMALL.__dict__, "iterations": 5})
    together = label_shard(scorer, rules, 4, first=0, games=1, cfg=cfg, weights=None)
    monkeypatch.setattr(expert_module, "LABEL_DEALS_TOGETHER", 1)
    alone = label_shard(scorer, rules, 4, first=0, games=1, cfg=cfg, weights=None)
    assert len(together) > 3
    for key in ("states", "actions", "q", "searched", "offsets", "game_of"):
        assert np.array_equal(getattr(together, key), getattr(alone, key), equal_nan=True), key


def test_the_search_teaches_its_ranking_and_the_network_keeps_the_positions_value():
    data = Labels(
        np.zeros((2, 1), np.float16), np.zeros((5, 1), np.float16),
        np.array([0.1, 0.2, 0.3, 1.0, 2.0], np.float32), np.array([np.nan, 5, 3, 4, 4], np.float32), [0, 3, 5], [0, 0],
    )  # fmt: skip
    target, searched = targets(data, scale=10.0)
    assert searched.tolist() == [False, True, True, True, True]
    # 0.5 and 0.3 (points / scale) centred on the network's mean over them, 0.25; the unsearched row keeps its own
    assert target == pytest.approx([0.1, 0.35, 0.15, 1.5, 1.5])


def test_a_run_labels_fits_and_writes_weights_the_bots_play(run):
    out, result = run
    assert result.decisions > 10 and 0 < result.heldout_decisions < result.decisions
    assert [e.epoch for e in result.epochs] == list(range(SMALL.epochs + 1))
    assert math.isnan(result.epochs[0].train_loss) and 0 <= result.epochs[0].agreement <= 1
    assert result.epochs[-1].train_loss < result.epochs[1].train_loss  # the fit moves towards the labels
    saved = json.loads((out / "result.json").read_text())
    assert saved["decisions"] == result.decisions and saved["best_epoch"] == result.best_epoch
    net = load_weights(out / "expert.npz")
    assert net.meta["expert_from"] == "shipped classic 4p" and net.meta["expert"]["iterations"] == 2
    assert net.meta["utility"] == "cards" and net.meta["players"] == 4
    rules = load_rules("classic")
    bots = [make("learned", weights=str(out / "expert.npz"))] + [make("heuristic") for _ in range(3)]
    assert play_out(rules, 4, bots, seed=4).result is not None
    bot = make("isearch", seed=1, iterations=2, weights=str(out / "expert.npz"))
    assert play_out(rules, 4, [bot] + [make("greedy") for _ in range(3)], seed=5).result is not None


def test_an_interrupted_run_resumes_with_the_labels_of_an_uninterrupted_one(run, tmp_path):
    out, result = run
    part = ExpertConfig(**{**SMALL.__dict__, "games": 2, "epochs": 1, "holdout": 0.5})
    expert(tmp_path, part, rules="classic", players=4)  # stopped after its first shard
    assert sorted(p.name for p in (tmp_path / "labels").iterdir()) == ["shard-00000.npz"]
    again = expert(tmp_path, SMALL, rules="classic", players=4)
    for name in ("shard-00000.npz", "shard-00001.npz"):
        a, b = Labels.load(out / "labels" / name), Labels.load(tmp_path / "labels" / name)
        for key in ("states", "actions", "q", "searched", "offsets", "game_of"):
            assert np.array_equal(getattr(a, key), getattr(b, key), equal_nan=True), (name, key)
    assert again.decisions == result.decisions and again.label_seconds >= 0
    assert [e.agreement for e in again.epochs] == [e.agreement for e in result.epochs]


def test_a_short_last_shard_is_labelled_again_when_a_run_grows(run, tmp_path):
    out, result = run
    three = ExpertConfig(**{**SMALL.__dict__, "games": 3, "epochs": 1})
    expert(tmp_path, three, rules="classic", players=4)  # its second shard holds game 2 alone
    assert Labels.games_in(tmp_path / "labels" / "shard-00001.npz") == (2, 1)
    grown = expert(tmp_path, SMALL, rules="classic", players=4)
    assert Labels.games_in(tmp_path / "labels" / "shard-00001.npz") == (2, 2)
    a, b = Labels.load(out / "labels" / "shard-00001.npz"), Labels.load(tmp_path / "labels" / "shard-00001.npz")
    assert np.array_equal(a.game_of, b.game_of) and np.array_equal(a.searched, b.searched, equal_nan=True)
    assert grown.decisions == result.decisions
    # a fit on fewer games than the labels hold reads only those games
    fewer = expert(tmp_path, three, rules="classic", players=4)
    both = Labels.joined([Labels.load(out / "labels" / f"shard-0000{k}.npz") for k in (0, 1)])
    assert fewer.decisions == int(np.count_nonzero(both.game_of < 3)) < result.decisions
    assert Labels.games_in(tmp_path / "labels" / "shard-00001.npz") == (2, 2)  # not cut back


def test_labels_made_by_several_processes_are_the_same(run, tmp_path):
    out, _result = run
    expert(tmp_path, ExpertConfig(**{**SMALL.__dict__, "workers": 2, "epochs": 1}), rules="classic", players=4)
    for name in ("shard-00000.npz", "shard-00001.npz"):
        a, b = Labels.load(out / "labels" / name), Labels.load(tmp_path / "labels" / name)
        assert all(np.array_equal(getattr(a, k), getattr(b, k), equal_nan=True) for k in ("states", "q", "searched"))


def test_refusals_name_the_setting(run, tmp_path):
    out, _result = run
    with pytest.raises(BigTwoError, match=r"holds labels made otherwise: iterations 2 \(now 3\)"):
        expert(out, ExpertConfig(**{**SMALL.__dict__, "iterations": 3}), rules="classic", players=4)
    # the teacher is its weights: the same network from another file is the same, other weights are not
    record = json.loads((out / "labels.json").read_text())
    assert record["teacher"] == "shipped classic 4p" and len(record["teacher_digest"]) == 16
    folder = tmp_path / "again"
    shutil.copytree(out / "labels", folder / "labels")
    shutil.copy(out / "labels.json", folder)
    copy = tmp_path / "copy.npz"
    copy.write_bytes((resources.files("bigtwo.bots") / "weights" / "classic-4p.npz").read_bytes())
    assert expert(folder, ExpertConfig(**{**SMALL.__dict__, "epochs": 1}), weights=str(copy)).label_seconds == 0
    net = load_weights(copy)
    layers = [(w.copy(), b.copy()) for w, b in net.layers()]  # the read network is shared: not changed in place
    layers[-1][1][0] += 0.5  # another network, one bias apart
    QPolicy(layers, net.state_size, net.meta).save(tmp_path / "other.npz")
    with pytest.raises(BigTwoError, match=r"another teacher: shipped classic 4p, now .*other\.npz \(weights "):
        expert(folder, SMALL, weights=str(tmp_path / "other.npz"))
    with pytest.raises(BigTwoError, match=r"share=0: must lie in \(0, 1\]"):
        expert(tmp_path, ExpertConfig(share=0), rules="classic", players=4)
    with pytest.raises(BigTwoError, match=r"weights nope\.npz: no such weights file"):
        expert(tmp_path, SMALL, weights="nope.npz")
    res = CliRunner().invoke(
        app, ["lab", "expert", "--out", str(tmp_path / "x"), "--games", "1"], env={"COLUMNS": "200"}
    )
    assert res.exit_code == 2 and "games=1: must be 2 or more" in res.output


def test_the_epoch_kept_is_the_one_whose_choices_cost_least_or_agree_most(run, tmp_path):
    """By default the kept epoch is the first with the least held-out regret; ``select="agreement"`` keeps the
    first that agrees most. A fit to another run's labels (``labels=``) reads them in place and makes the
    same epochs."""
    out, result = run
    regrets = [e.regret for e in result.epochs]
    assert result.best_epoch == regrets.index(min(regrets))
    cfg = ExpertConfig(**{**SMALL.__dict__, "select": "agreement"})
    other = expert(tmp_path, cfg, rules="classic", players=4, labels=out)
    assert not (tmp_path / "labels").exists() and (tmp_path / "expert.npz").is_file()
    assert other.label_seconds == 0 and other.decisions == result.decisions
    assert [e.regret for e in other.epochs] == regrets  # the same fit, epoch by epoch
    agreements = [e.agreement for e in other.epochs]
    assert other.best_epoch == agreements.index(max(agreements))
    # two runs that keep other epochs write other weights
    kept = {e: load_weights(d / "expert.npz") for e, d in ((result.best_epoch, out), (other.best_epoch, tmp_path))}
    if len(kept) == 2:
        a, b = (w.layers() for w in kept.values())
        assert any(not np.array_equal(x[0], y[0]) for x, y in zip(a, b, strict=True))
    with pytest.raises(BigTwoError, match=r"labels .*nowhere: no run's labels there"):
        expert(tmp_path / "fit", SMALL, rules="classic", players=4, labels=tmp_path / "nowhere")
    assert not (tmp_path / "nowhere").exists()
    with pytest.raises(BigTwoError, match=r"select=best: must be one of regret, agreement"):
        expert(tmp_path, ExpertConfig(**{**SMALL.__dict__, "select": "best"}), rules="classic", players=4)
    res = CliRunner().invoke(
        app,
        ["lab", "expert", "--out", str(tmp_path / "cli"), "--labels", str(out), "--games", "4", "--iterations", "2",
         "--share", "0.5", "--shard-games", "2", "--epochs", "1", "--holdout", "0.25", "--seed", "2"],
        env={"COLUMNS": "200"},
    )  # fmt: skip
    assert res.exit_code == 0, res.output
    assert "(by regret)" in res.output and "its regret" in res.output


def test_two_teachers_of_the_same_games_are_compared_choice_by_choice(run, tmp_path):
    """lab/studies/teachers.py: a teacher agrees with itself in every decision; a teacher with other deals a
    candidate labels the same decisions, and a shard one run cut short is skipped, not compared."""
    teachers = study_module("teachers")
    out, result = run
    same = teachers.compare(out, out)
    assert same["decisions"] == result.decisions and same["shards"] == 2 and same["skipped"] == 0
    assert same["agreement"]["coarse = sharp"].mean == 1 and same["regret_by_sharp"]["coarse"] == 0
    sharp = ExpertConfig(**{**SMALL.__dict__, "iterations": 3, "games": 3, "epochs": 1})
    expert(tmp_path, sharp, rules="classic", players=4)  # its second shard holds one game of two
    got = teachers.compare(out, tmp_path)
    assert got["shards"] == 1 and got["skipped"] == 1 and got["teachers"] == {str(out): 2, str(tmp_path): 3}
    assert got["decisions"] > 0 and got["regret_by_sharp"]["coarse"] >= 0
