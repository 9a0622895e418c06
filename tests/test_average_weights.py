"""The mean of a run's snapshots (issue 15): ``bigtwo lab average`` and :func:`bigtwo.rl.average.average_weights`.

Numpy alone; the networks are small ones made here, and the shipped classic four-player network for a mean that
must play.
"""

from __future__ import annotations

import numpy as np
import pytest
from typer.testing import CliRunner

from bigtwo import load_rules
from bigtwo.bots import make
from bigtwo.bots.learned import QPolicy, policy_for
from bigtwo.cli.app import app
from bigtwo.errors import BigTwoError
from bigtwo.rl.average import average_weights
from tests.test_bots import play_out

META = {"rules": "classic", "players": 4, "history": 8, "utility": "cards", "reward_scale": 13.0, "hidden": [3]}


def tiny(path, seed, frames, **meta):
    """A two-layer network of random weights (5 state inputs, 2 action inputs, 3 hidden units), saved as float32."""
    rng = np.random.default_rng(seed)
    layers = [(rng.normal(size=(7, 3)), rng.normal(size=3)), (rng.normal(size=(3, 1)), rng.normal(size=1))]
    evaluation = {"points": 1.0}
    return QPolicy(layers, 5, {**META, "frames": frames, "evaluation": evaluation, **meta}).save(path, "float32")


def test_every_weight_is_the_mean_of_the_snapshots(tmp_path):
    paths = [tiny(tmp_path / f"f{i}.npz", i, 1000 * (i + 1)) for i in range(3)]
    mean = average_weights(paths)
    got, want = mean.layers(), [QPolicy.load(p).layers() for p in paths]
    for i, (w, b) in enumerate(got):
        np.testing.assert_allclose(w, np.mean([x[i][0] for x in want], axis=0), rtol=1e-6)
        np.testing.assert_allclose(b, np.mean([x[i][1] for x in want], axis=0), rtol=1e-6)
    # its own description: the snapshots named, the most frames, and no evaluation of one snapshot
    assert mean.meta["averaged_from"] == [{"file": f"f{i}.npz", "frames": 1000 * (i + 1)} for i in range(3)]
    assert mean.meta["frames"] == 3000 and "evaluation" not in mean.meta
    # and it reads back as weights
    back = QPolicy.load(mean.save(tmp_path / "mean.npz", "float32"))
    np.testing.assert_allclose(back.layers()[0][0], got[0][0])


def test_the_mean_of_a_network_with_itself_is_that_network_and_plays(tmp_path):
    shipped = policy_for(load_rules("classic"), 4)
    path = shipped.save(tmp_path / "a.npz")
    mean = average_weights([path, path])
    for (w, b), (w0, b0) in zip(mean.layers(), QPolicy.load(path).layers(), strict=True):
        np.testing.assert_array_equal(w, w0)
        np.testing.assert_array_equal(b, b0)
    out = mean.save(tmp_path / "mean.npz")
    bots = [make("learned", weights=str(out)), make("heuristic")] * 2
    assert play_out(load_rules("classic"), 4, bots, seed=5).result is not None


def test_only_snapshots_of_one_network_are_averaged(tmp_path):
    a = tiny(tmp_path / "a.npz", 1, 10)
    with pytest.raises(BigTwoError, match="two weights files or more, not 1"):
        average_weights([a])
    other_table = tiny(tmp_path / "b.npz", 2, 20, players=3)
    with pytest.raises(BigTwoError, match=r"b\.npz: players 3 where .*a\.npz has 4; only snapshots"):
        average_weights([a, other_table])
    other_values = tiny(tmp_path / "c.npz", 3, 30, utility="place")
    with pytest.raises(BigTwoError, match=r"c\.npz: utility 'place' where .*a\.npz has 'cards'"):
        average_weights([a, other_values])
    other_rules = tiny(tmp_path / "e.npz", 5, 50, rules_settings={"suit_order": "CDHS", "decks": 1})
    ours = tiny(tmp_path / "f.npz", 6, 60, rules_settings={"suit_order": "DCHS", "decks": 1})
    with pytest.raises(BigTwoError, match=r"e\.npz: rules settings other than .*f\.npz's \(these differ: suit_order\)"):
        average_weights([ours, other_rules])
    rng = np.random.default_rng(4)
    wider = QPolicy(
        [(rng.normal(size=(7, 4)), rng.normal(size=4)), (rng.normal(size=(4, 1)), rng.normal(size=1))], 5, META
    )
    with pytest.raises(BigTwoError, match=r"d\.npz: layers of shapes \[\(7, 4\), \(4, 1\)\]"):
        average_weights([a, wider.save(tmp_path / "d.npz")])
    with pytest.raises(BigTwoError, match=r"none\.npz"):
        average_weights([a, tmp_path / "none.npz"])


def test_cli_average_writes_the_mean_and_refuses_in_words(tmp_path):
    paths = [str(tiny(tmp_path / f"f{i}.npz", i, 2_000_000 * (i + 1))) for i in range(2)]
    out = tmp_path / "mean.npz"
    r = CliRunner().invoke(app, ["lab", "average", *paths, "--out", str(out)], env={"COLUMNS": "300"})
    assert r.exit_code == 0, r.output
    assert "the mean of 2 networks (2,000,000 to 4,000,000 frames)" in r.output
    assert QPolicy.load(out).meta["frames"] == 4_000_000
    bad = CliRunner().invoke(app, ["lab", "average", paths[0], "--out", str(out)], env={"COLUMNS": "300"})
    assert bad.exit_code == 2 and "two weights files or more, not 1" in bad.output
    folder = CliRunner().invoke(app, ["lab", "average", *paths, "--out", str(tmp_path)], env={"COLUMNS": "300"})
    assert folder.exit_code == 2 and "cannot be written" in folder.output, folder.output
