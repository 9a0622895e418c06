"""A network grown wider or deeper computes what it did, and training a grown network goes on from it."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from bigtwo.rl.widen import can_grow, grown


def forward(layers, x):
    h = x
    for i, (w, b) in enumerate(layers):
        h = h @ w + b
        if i < len(layers) - 1:
            h = np.maximum(h, 0.0)
    return h


def random_layers(sizes, seed=0):
    rng = np.random.default_rng(seed)
    return [
        ((rng.standard_normal((a, b)) / np.sqrt(a)).astype(np.float32), rng.standard_normal(b).astype(np.float32))
        for a, b in itertools.pairwise(sizes)
    ]


@pytest.mark.parametrize(
    "hidden",
    [[16, 12], [12, 8, 8], [20, 9, 9, 30], [40, 8]],  # wider; deeper; both (added layers wider too); 5x a layer
    ids=["wider", "deeper", "both", "many-copies"],
)
def test_a_grown_network_computes_the_same_values(hidden):
    layers = random_layers([10, 12, 8, 1])
    x = np.random.default_rng(1).standard_normal((200, 10)).astype(np.float32)
    bigger = grown(layers, hidden, seed=5)
    assert [w.shape[1] for w, _b in bigger[:-1]] == hidden and bigger[0][0].shape[0] == 10
    assert np.allclose(forward(bigger, x), forward(layers, x), atol=1e-4)
    again = grown(layers, hidden, seed=5)
    assert all(np.array_equal(a[0], b[0]) for a, b in zip(bigger, again, strict=True))  # seeded


def test_the_copies_of_a_unit_split_its_outgoing_weights_unequally():
    """Copies share a unit's incoming weights but not equal halves of its outgoing ones, so their gradients
    differ from the first step: equal halves would keep them one unit forever."""
    layers = random_layers([6, 4, 1])
    bigger = grown(layers, [8], seed=2)
    (w1, b1), (w2, _b2) = bigger
    for unit in range(4):
        copies = [
            j for j in range(8) if np.array_equal(w1[:, j], layers[0][0][:, unit]) and b1[j] == layers[0][1][unit]
        ]
        assert len(copies) == 2
        assert not np.isclose(w2[copies[0], 0], w2[copies[1], 0])
        assert np.isclose(w2[copies, 0].sum(), layers[1][0][unit, 0], atol=1e-6)


@pytest.mark.parametrize(
    "theirs,ours",
    [([12, 8], [12, 8]), ([12, 8], [11, 8]), ([12, 8], [12, 8, 4]), ([12, 8], [12])],
    ids=["same", "narrower", "added-narrower", "shallower"],
)
def test_what_cannot_grow_is_refused_in_words(theirs, ours):
    assert not can_grow(theirs, ours)
    sizes = ",".join(map(str, theirs))
    with pytest.raises(ValueError, match=rf"hidden layers {sizes} cannot grow into {','.join(map(str, ours))}: "):
        grown(random_layers([10, *theirs, 1]), ours)


def test_training_goes_on_from_a_grown_start(tmp_path):
    """``bigtwo train --init-from`` a smaller network with a wider and deeper ``--hidden``: the run starts from
    the same values (from exported weights and from a checkpoint), and training makes the copies differ."""
    pytest.importorskip("torch")
    import torch

    from bigtwo.bots.learned import QPolicy
    from bigtwo.rl.dmc import TrainConfig, Trainer

    torch.set_num_threads(1)
    base = dict(num_envs=8, history=4, batch_size=64, lr=1e-3, eval_every=0, seed=3)
    first = Trainer(TrainConfig(hidden=(32, 16), **base), tmp_path / "a")
    first.run(frames=200, report_every=1e9, checkpoint_every=1e9)
    first.save()
    exported = first.policy().save(tmp_path / "w.npz")
    for start in (exported, tmp_path / "a" / "checkpoint.pt"):
        name = start.name
        run = Trainer(TrainConfig(hidden=(48, 16, 16), init_from=str(start), **{**base, "seed": 4}), tmp_path / name)
        assert [w.shape[1] for w, _b in run.model.layers()[:-1]] == [48, 16, 16]
        d = run.decisions
        with torch.no_grad():
            args = (torch.from_numpy(d.state), torch.from_numpy(d.actions), torch.from_numpy(d.segment()))
            q = run.model.score(*args).numpy()
        small = QPolicy.load(exported) if start == exported else first.policy()
        assert np.allclose(q, small.q_batch(d.state, d.actions, d.offsets), atol=1e-4), name
    from typer.testing import CliRunner

    from bigtwo.cli.app import app

    argv = ["train", "--out", str(tmp_path / "cli"), "--frames", "1", "--envs", "2", "--history", "4"]
    r = CliRunner().invoke(
        app, [*argv, "--hidden", "48,16,16", "--eval-every", "0", "--init-from", str(exported)], env={"COLUMNS": "300"}
    )
    assert r.exit_code == 0, r.output
    assert "w.npz: its hidden layers 32,16 grown to 48,16,16, computing the same values" in r.output
    before = run.model.layers()[0][0]
    copies = [(j, next(i for i in range(32) if np.array_equal(before[:, i], before[:, j]))) for j in range(32, 48)]
    run.run(frames=400, report_every=1e9, checkpoint_every=1e9)
    after = run.model.layers()[0][0]
    apart = [not np.allclose(after[:, j], after[:, i]) for j, i in copies]
    assert sum(apart) >= len(copies) // 2, apart  # (a copy of a unit no input wakes stays as it was)
