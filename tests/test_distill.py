"""Distillation (issue 15): a smaller network fitted to a trained one's values, for cheaper play-outs.

Needs torch (the ``[rl]`` extra); skipped without it. The teacher is the shipped classic four-player network;
the students are tiny and see a few dozen games, so each fit takes seconds.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from typer.testing import CliRunner  # noqa: E402

from bigtwo import load_rules  # noqa: E402
from bigtwo.bots import make  # noqa: E402
from bigtwo.bots.learned import load_weights, policy_for, scorer_for  # noqa: E402
from bigtwo.cli.app import app  # noqa: E402
from bigtwo.errors import BigTwoError  # noqa: E402
from bigtwo.lab.distill import DistillConfig, distill, teacher_positions  # noqa: E402
from tests.test_bots import play_out  # noqa: E402

SMALL = DistillConfig(games=60, lockstep=16, hidden=(32, 16), epochs=5, lr=3e-3, batch=128, holdout=0.2, seed=3)


@pytest.fixture(scope="module")
def fitted(tmp_path_factory):
    out = tmp_path_factory.mktemp("student")
    return out, distill("shipped", out, SMALL, rules="classic", players=4)


def test_the_teachers_positions_are_its_own_values_of_every_choice():
    """Every recorded decision has a choice, and its values are the teacher's for the position as a play-out
    meets it (the same network, read from the game)."""
    rules = load_rules("classic")
    scorer = scorer_for(rules, 4)
    data = teacher_positions(scorer, rules, 4, games=3, lockstep=2, explore=0.2, seed=1)
    sizes = np.diff(data.offsets)
    assert len(data) > 30 and sizes.min() >= 2 and len(data.q) == sizes.sum() == len(data.actions)
    assert set(data.game_of.tolist()) == {0, 1, 2}
    again = teacher_positions(scorer, rules, 4, games=3, lockstep=3, explore=0.2, seed=1)
    # the lockstep width changes nothing (each game has its own seed) but the rounding of a batched product
    assert np.array_equal(again.actions, data.actions) and np.allclose(again.q, data.q, atol=1e-5)
    q = scorer.net.q_batch(data.states.astype(np.float32), data.actions.astype(np.float32), data.offsets)
    assert np.allclose(q, data.q, atol=2e-2)  # (the stored vectors are float16: the inputs are 0/1 and small steps)


def test_the_student_learns_the_teachers_values(fitted):
    _out, result = fitted
    first, best = result.epochs[0], result.epochs[result.best_epoch - 1]
    assert best.heldout_mse < first.heldout_mse and result.epochs[-1].train_mse < first.train_mse
    decisions = result.heldout_decisions
    assert decisions > 100
    assert result.kept_agreement > 0.5  # a random choice among two or more actions agrees at most half the time
    assert result.kept_regret >= 0


def test_the_kept_figures_are_the_saved_students_own(fitted):
    """The figures in result.json are measured on the saved file's (float16) weights, and re-measured here from
    the file with numpy on the same held-out games."""
    out, result = fitted
    saved = json.loads((out / "result.json").read_text())
    assert saved["kept_agreement"] == result.kept_agreement and saved["best_epoch"] == result.best_epoch
    rules = load_rules("classic")
    student = load_weights(out / "student.npz")
    assert student.meta["distilled_from"] == "shipped classic 4p" and student.meta["hidden"] == [32, 16]
    assert student.meta["utility"] == "cards" and student.meta["players"] == 4
    teacher = scorer_for(rules, 4)  # the search's network (the learned bot's), whose play-outs a student serves
    data = teacher_positions(teacher, rules, 4, SMALL.games, SMALL.lockstep, SMALL.explore, SMALL.seed)
    held_games = round(SMALL.holdout * SMALL.games)
    held = np.flatnonzero(data.game_of >= SMALL.games - held_games)
    assert len(held) == result.heldout_decisions
    agree = 0
    for d in held:
        lo, hi = data.offsets[d], data.offsets[d + 1]
        q = student.q_values(data.states[d].astype(np.float32), data.actions[lo:hi].astype(np.float32))
        agree += int(np.argmax(q) == np.argmax(data.q[lo:hi]))
    assert agree / len(held) == pytest.approx(result.kept_agreement, abs=2 / len(held))


def test_the_same_seed_distils_the_same_student(fitted, tmp_path):
    out, _result = fitted
    distill("shipped", tmp_path, SMALL, rules="classic", players=4)
    a, b = load_weights(out / "student.npz"), load_weights(tmp_path / "student.npz")
    assert all(np.array_equal(x, y) for (x, _), (y, _) in zip(a.layers(), b.layers(), strict=True))


def test_the_student_plays_and_plays_the_searchs_play_outs(fitted):
    out, _result = fitted
    rules = load_rules("classic")
    path = str(out / "student.npz")
    bots = [make("learned", weights=path), make("isearch", seed=1, iterations=2, weights=path)] * 2
    assert play_out(rules, 4, bots, seed=4).result is not None


def test_bad_inputs_are_refused_in_words(tmp_path):
    with pytest.raises(BigTwoError, match=r"hidden \(0,\): every layer needs at least one unit"):
        distill("shipped", tmp_path, DistillConfig(hidden=(0,)), rules="classic", players=4)
    with pytest.raises(BigTwoError, match="games=1: at least two"):
        distill("shipped", tmp_path, DistillConfig(games=1), rules="classic", players=4)
    for option, message in (
        ({"holdout": 0.9}, r"holdout=0.9: must lie in \(0, 0.5\]"),
        ({"explore": -0.1}, r"explore=-0.1: must lie in \[0, 1\]"),
        ({"epochs": 0}, "epochs=0: must be 1 or more"),
    ):
        with pytest.raises(BigTwoError, match=message):
            distill("shipped", tmp_path, DistillConfig(**option), rules="classic", players=4)
    with pytest.raises(BigTwoError, match=r"teacher .*none\.npz: no such weights file"):
        distill(str(tmp_path / "none.npz"), tmp_path, DistillConfig(games=2))
    with pytest.raises(BigTwoError, match="no weights for 'winner' with 4 players"):
        distill("shipped", tmp_path, DistillConfig(games=2), rules="winner", players=4)
    policy_for(load_rules("classic"), 4)  # (the shipped teacher the others use exists)


def test_cli_distill_reports_each_epoch(tmp_path):
    r = CliRunner().invoke(
        app,
        [
            "lab",
            "distill",
            "--out",
            str(tmp_path),
            "--games",
            "12",
            "--epochs",
            "2",
            "--hidden",
            "16",
            "--players",
            "4",
        ],
    )
    assert r.exit_code == 0, r.output
    assert "epoch 2: error" in r.output and "kept epoch" in r.output
    assert (tmp_path / "student.npz").exists() and (tmp_path / "result.json").exists()
    # wide enough for a temporary path (under xdist they are longer), read as one line wherever it wraps
    bad = CliRunner().invoke(
        app, ["lab", "distill", "--out", str(tmp_path), "--teacher", str(tmp_path / "none.npz")], env={"COLUMNS": "300"}
    )
    assert bad.exit_code == 2 and f"{tmp_path / 'none.npz'}" in " ".join(bad.output.split()), bad.output
