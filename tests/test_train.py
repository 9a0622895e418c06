"""The self-play training harness (issue 15): it learns, it resumes bit for bit, its policy is the bot's.

Needs torch (the ``[rl]`` extra); skipped without it. Runs are a few hundred frames with small networks.
"""

from __future__ import annotations

import json
from itertools import pairwise

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from typer.testing import CliRunner  # noqa: E402

from bigtwo import Game, load_rules  # noqa: E402
from bigtwo.bots import make  # noqa: E402
from bigtwo.bots.learned import QPolicy  # noqa: E402
from bigtwo.cli.app import app  # noqa: E402
from bigtwo.rl.dmc import TrainConfig, Trainer  # noqa: E402

pytestmark = pytest.mark.usefixtures("torch_one_thread")


def small(**changes):
    base = dict(num_envs=8, hidden=(32, 32), history=4, batch_size=64, lr=1e-3, eval_every=0, seed=3)
    return TrainConfig(**{**base, **changes})


def test_loss_falls_on_a_few_hundred_frames(tmp_path):
    t = Trainer(small(), tmp_path / "run")
    untrained = Trainer(small(), tmp_path / "same-start")  # same seed: the same initial network
    batches = []
    learn = t.learn
    t.learn = lambda batch: (batches.append(batch), learn(batch))[1]
    t.run(frames=600, report_every=1e9, checkpoint_every=1e9)
    assert t.updates >= 6
    first = batches[0]  # the first frames it learned from
    assert t.loss_on(first) < 0.95 * untrained.loss_on(first)


def params(t):
    return [p.detach().clone() for p in t.model.parameters()]


@pytest.mark.parametrize("share,replay", [(0.0, 1), (0.5, 3)])
def test_checkpoint_resumes_bit_for_bit(tmp_path, share, replay):
    cfg = small(opponent_share=share, epsilon=0.2, replay=replay, replay_frames=100)
    straight = Trainer(cfg, tmp_path / "a")
    straight.run(frames=500, report_every=1e9, checkpoint_every=1e9)
    straight.run(frames=1000, report_every=1e9, checkpoint_every=1e9)

    halves = Trainer(cfg, tmp_path / "b")
    halves.run(frames=500, report_every=1e9, checkpoint_every=1e9)  # saves its checkpoint on the way out
    del halves
    resumed = Trainer.load(tmp_path / "b" / "checkpoint.pt")
    resumed.run(frames=1000, report_every=1e9, checkpoint_every=1e9)

    assert (resumed.frames, resumed.games, resumed.updates) == (straight.frames, straight.games, straight.updates)
    assert resumed.updates > 0
    for a, b in zip(params(straight), params(resumed), strict=True):
        assert torch.equal(a, b)
    for a, b in zip(straight.queue, resumed.queue, strict=True):
        assert np.array_equal(a[0], b[0]) and a[2] == b[2]


def test_split_scoring_equals_the_joined_network(tmp_path):
    t = Trainer(small(), tmp_path)
    d = t.decisions
    joined = np.concatenate([d.state[d.segment()], d.actions], axis=1)
    with torch.no_grad():
        a = t.model(torch.from_numpy(joined)).numpy()
        b = t.model.score(torch.from_numpy(d.state), torch.from_numpy(d.actions), torch.from_numpy(d.segment())).numpy()
    assert np.allclose(a, b, atol=1e-5)
    p = t.policy()  # float16-rounded weights: close, not equal
    assert np.allclose(p.q_batch(d.state, d.actions, d.offsets), a, atol=0.05)


def test_exported_weights_drive_the_learned_bot(tmp_path):
    t = Trainer(small(), tmp_path)
    t.run(frames=200, report_every=1e9, checkpoint_every=1e9)
    path = t.policy().save(tmp_path / "w.npz")
    loaded = QPolicy.load(path)
    assert loaded.meta["rules"] == "classic" and loaded.meta["players"] == 4
    rules = load_rules("classic")
    assert loaded.meta["rules_settings"] == rules.settings()  # what its inputs mean, setting by setting
    bots = [make("learned", weights=str(path)) for _ in range(4)]
    g = Game(rules, seed=11)
    while not g.is_over:
        g.play(bots[g.to_move].choose(rules, g.observe(g.to_move)))


def test_fine_tuning_starts_from_exported_weights(tmp_path):
    first = Trainer(small(), tmp_path / "a")
    first.run(frames=200, report_every=1e9, checkpoint_every=1e9)
    exported = first.policy().save(tmp_path / "w.npz")  # float16, as the weights ship
    second = Trainer(small(seed=4, init_from=str(exported)), tmp_path / "b")
    d = second.decisions
    with torch.no_grad():
        q = second.model.score(torch.from_numpy(d.state), torch.from_numpy(d.actions), torch.from_numpy(d.segment()))
    assert np.allclose(q.numpy(), QPolicy.load(exported).q_batch(d.state, d.actions, d.offsets), atol=1e-5)
    fresh = Trainer(small(seed=4), tmp_path / "c")  # the same seed without the file: other weights
    assert not all(torch.equal(a, b) for a, b in zip(params(second), params(fresh), strict=True))
    with pytest.raises(
        ValueError,
        match=r"w\.npz: a network with hidden layers 32,32, where this run's are 16 \(--hidden\)",
    ):
        Trainer(small(hidden=(16,), init_from=str(exported)), tmp_path / "d")
    # nor grown to a larger one (growing the shipped mean to 1024-1024-512 played level with it: the lab log)
    with pytest.raises(ValueError, match=r"hidden layers 32,32, where this run's are 48,32,32 \(--hidden\)"):
        Trainer(small(hidden=(48, 32, 32), init_from=str(exported)), tmp_path / "e")


def test_a_start_network_for_another_table_is_refused(tmp_path):
    first = Trainer(small(), tmp_path / "a")  # classic, four players, history 4
    exported = first.policy().save(tmp_path / "w.npz")
    first.save()
    for start in (exported, tmp_path / "a" / "checkpoint.pt"):
        with pytest.raises(ValueError, match=r"another table \(history 4, not 5\)"):
            Trainer(small(history=5, init_from=str(start)), tmp_path / "b")
    policy = QPolicy.load(exported)
    policy.meta["rules"] = "tien-len"  # same shapes, other rules: its inputs would mean other things
    policy.meta["rules_settings"] = load_rules("tien-len").settings()
    other = policy.save(tmp_path / "other.npz")
    with pytest.raises(ValueError, match=r"other\.npz: a network for another table \(rules 'tien-len', not 'cl"):
        Trainer(small(init_from=str(other)), tmp_path / "c")
    assert Trainer(small(init_from=str(tmp_path / "a" / "checkpoint.pt")), tmp_path / "d").frames == 0


def test_a_network_starts_a_table_whose_rounds_are_its_own_with_the_suits_renamed(tmp_path):
    """Pusoy Dos plays classic's rounds with every suit renamed: a run on it may start from a classic network,
    the renaming folded into the first layer, so it starts as the same player reading its own cards."""
    from bigtwo.bots.features import ActionEncoder, StateEncoder

    exported = Trainer(small(), tmp_path / "a").policy().save(tmp_path / "classic.npz")
    pusoy = load_rules("pusoy-dos")
    run = Trainer(small(rules="pusoy-dos", utility="score", init_from=str(exported)), tmp_path / "b")
    d = run.decisions  # encoded with Pusoy Dos's own cards
    with torch.no_grad():
        q = run.model.score(torch.from_numpy(d.state), torch.from_numpy(d.actions), torch.from_numpy(d.segment()))
    relabel = pusoy.suit_relabeling(load_rules("classic"), scoring=False)
    states = d.state[:, StateEncoder(pusoy, 4, 4, relabel).input_order()]  # as the classic network reads them
    actions = d.actions[:, ActionEncoder(pusoy, 4, relabel).input_order()]
    assert np.allclose(q.numpy(), QPolicy.load(exported).q_batch(states, actions, d.offsets), atol=1e-5)
    assert not np.allclose(q.numpy(), QPolicy.load(exported).q_batch(d.state, d.actions, d.offsets), atol=1e-3)
    with pytest.raises(ValueError, match="a network for another table"):  # its straights are not classic's
        Trainer(small(rules="indonesia", init_from=str(exported)), tmp_path / "c")


def test_the_opponents_can_be_a_mixed_field(tmp_path):
    field = "heuristic,heuristic(weights='tuned'),greedy"
    t = Trainer(small(opponent=field, opponent_share=1.0, num_envs=4), tmp_path)
    seated = [(b.name, getattr(b, "weights", None)) for row in t.env.bots for b in row if b is not None]
    assert len(seated) == 12  # three bots in each of the four games, the field dealt in turn
    assert {s: seated.count(s) for s in set(seated)} == {
        ("heuristic", "default"): 4, ("heuristic", "tuned"): 4, ("greedy", None): 4}  # fmt: skip
    t.run(frames=300, report_every=1e9, checkpoint_every=1e9)
    assert t.frames >= 300
    with pytest.raises(ValueError, match="no bot named 'nobody'"):
        Trainer(small(opponent="heuristic,nobody", opponent_share=0.5), tmp_path / "bad")
    with pytest.raises(ValueError, match="no bot named 'nobody'"):
        Trainer(small(eval_every=100, eval_opponent="nobody"), tmp_path / "bad-eval")
    with pytest.raises(ValueError, match=r"reward_scale=0\.0: the points a unit of the values, above 0"):
        Trainer(small(reward_scale=0.0), tmp_path / "bad-scale")


def test_exported_weights_say_what_their_values_are_points_of(tmp_path):
    """A network trained for places (a preset played for the finishing order) says so in its weights: a search
    reads its values as places, and weighs them beside play-outs scored in places (not in cards left)."""
    from bigtwo.bots.learned import scorer_of
    from bigtwo.bots.search import InferenceSearchBot

    t = Trainer(small(rules="tien-len", utility="place", reward_scale=2.0, num_envs=4), tmp_path)
    t.run(frames=200, report_every=1e9, checkpoint_every=1e9)
    path = t.policy().save(tmp_path / "w.npz")
    loaded = QPolicy.load(path)
    assert loaded.meta["utility"] == "place" and loaded.meta["reward_scale"] == 2.0
    rules = load_rules("tien-len")
    scorer = scorer_of(loaded, rules, 4, str(path))
    assert scorer.utility == "place" and scorer.scale == 2.0
    g = Game(rules, seed=5)
    legal = g.legal_plays()
    raw = scorer.q_observed(rules, g.observe(g.to_move), legal)
    bot = InferenceSearchBot(seed=1, iterations=4, weights=str(path))
    values = bot._network_for(rules, 4).values(rules, g.observe(g.to_move), legal)
    assert values == pytest.approx([2.0 * float(v) for v in raw])  # points of a place, not a card
    # weights written before the utility was recorded were all trained on cards left, scaled by 13
    del loaded.meta["utility"], loaded.meta["reward_scale"]
    old = scorer_of(loaded, load_rules("tien-len"), 4, "old")
    assert old.utility == "cards" and old.scale == 13.0


def test_other_presets_and_table_sizes_train(tmp_path):
    for rules, players in (("tien-len", 4), ("classic", 3), ("president", 5)):
        t = Trainer(small(rules=rules, players=players, num_envs=4), tmp_path / f"{rules}{players}")
        t.run(frames=400, report_every=1e9, checkpoint_every=1e9)
        assert t.games > 0 and t.frames >= 400
        assert t.env.n == players and {len(r) for r in t.pending} == {players}


def test_a_falling_learning_rate_follows_the_frames_and_resumes_bit_for_bit(tmp_path):
    cfg = small(lr=1e-3, lr_final=1e-4, lr_frames=700)
    straight = Trainer(cfg, tmp_path / "a")
    steps = []  # (frames, the step size each gradient step took)
    learn = straight.learn

    def record(batch):
        loss = learn(batch)
        steps.append((straight.frames, straight.optimizer.param_groups[0]["lr"]))
        return loss

    straight.learn = record
    assert straight.learning_rate() == 1e-3
    straight.run(frames=1000, report_every=1e9, checkpoint_every=1e9)
    assert steps and all(lr == pytest.approx(1e-3 - 9e-4 * min(1.0, f / 700)) for f, lr in steps)
    assert [lr for _, lr in steps] == sorted((lr for _, lr in steps), reverse=True)
    assert steps[0][1] > 5e-4 and steps[-1][1] == pytest.approx(1e-4)  # it fell, then stayed at the end
    assert Trainer(small(), tmp_path / "c").learning_rate() == 1e-3  # without lr_final: constant

    halves = Trainer(cfg, tmp_path / "b")
    halves.run(frames=500, report_every=1e9, checkpoint_every=1e9)
    resumed = Trainer.load(tmp_path / "b" / "checkpoint.pt")
    resumed.run(frames=1000, report_every=1e9, checkpoint_every=1e9)
    assert resumed.updates == straight.updates
    for a, b in zip(params(straight), params(resumed), strict=True):
        assert torch.equal(a, b)


CANNOT_FALL = "falling learning rate ends at 0 or above, over a number of frames"


@pytest.mark.parametrize(
    "changes,refusal",
    [
        (dict(lr_final=1e-4), CANNOT_FALL),
        (dict(lr_final=-1e-4, lr_frames=100), CANNOT_FALL),
        (dict(lr_frames=100), "lr_frames=100: frames for the learning rate to fall over, to no lr_final"),
    ],
)
def test_a_learning_rate_that_cannot_fall_is_refused_in_words(tmp_path, changes, refusal):
    with pytest.raises(ValueError, match=refusal):
        Trainer(small(**changes), tmp_path)


def test_cli_train_writes_log_weights_and_curve_then_resumes(tmp_path):
    runner = CliRunner()
    args = ["lab", "dmc", "--out", str(tmp_path), "--frames", "600", "--envs", "4", "--hidden", "16", "--history", "2",
            "--batch-size", "64", "--eval-every", "300", "--eval-deals", "2", "--report-every", "0",
            "--lr-final", "1e-4", "--lr-frames", "800"]  # fmt: skip
    r = runner.invoke(app, args)
    assert r.exit_code == 0, r.output
    assert "frames/s" in r.output and "eval vs 3 heuristic" in r.output and "lr 1." in r.output
    for name in ("checkpoint.pt", "best.npz", "latest.npz", "log.jsonl", "curve.png"):
        assert (tmp_path / name).exists(), name
    lines = [json.loads(x) for x in (tmp_path / "log.jsonl").read_text().splitlines()]
    assert any(x["evaluation"] for x in lines)
    assert not (tmp_path / "snapshots").exists()  # kept only when asked
    r = runner.invoke(app, [*args[:5], "1000", *args[6:], "--snapshots"])
    assert r.exit_code == 0, r.output
    assert "resuming" in r.output
    assert Trainer.load(tmp_path / "checkpoint.pt").frames >= 1000
    # every network evaluated after the resumption kept by its frames, and a mean of them is a network
    kept = sorted((tmp_path / "snapshots").glob("f*.npz"))
    assert kept and [QPolicy.load(k).meta["frames"] for k in kept] == [int(k.stem[1:]) for k in kept]
    if len(kept) == 1:
        kept = [kept[0], tmp_path / "best.npz"]
    r = runner.invoke(app, ["lab", "average", *map(str, kept), "--out", str(tmp_path / "mean.npz")])
    assert r.exit_code == 0 and QPolicy.load(tmp_path / "mean.npz").meta["averaged_from"], r.output


def test_an_evaluation_counts_the_bots_at_its_table(tmp_path):
    args = ["lab", "dmc", "--out", str(tmp_path), "--players", "3", "--frames", "200", "--envs", "2", "--hidden", "8",
            "--history", "2", "--batch-size", "32", "--eval-every", "100", "--eval-deals", "2",
            "--report-every", "0"]  # fmt: skip
    r = CliRunner().invoke(app, args)
    assert r.exit_code == 0, r.output
    assert "eval vs 2 heuristic (6 games)" in r.output and "vs 3" not in r.output
    lines = [json.loads(x) for x in (tmp_path / "log.jsonl").read_text().splitlines()]
    assert {x["evaluation"]["opponents"] for x in lines if x["evaluation"]} == {2}


def test_cli_train_says_when_it_learns_another_measure_than_the_preset_plays_for(tmp_path):
    small_run = ["--frames", "64", "--envs", "2", "--hidden", "8", "--history", "2", "--batch-size", "32",
                 "--eval-every", "0", "--report-every", "0"]  # fmt: skip
    r = CliRunner().invoke(app, ["lab", "dmc", "--out", str(tmp_path / "a"), "--rules", "tien-len", *small_run])
    assert r.exit_code == 0, r.output
    assert "tien-len is played for places, and this run learns cards left" in " ".join(r.output.split())
    r = CliRunner().invoke(
        app, ["lab", "dmc", "--out", str(tmp_path / "b"), "--rules", "tien-len", "--utility", "place", *small_run]
    )
    assert r.exit_code == 0 and "played for places" not in r.output


def test_cli_train_rejects_bad_settings(tmp_path):
    r = CliRunner().invoke(app, ["lab", "dmc", "--out", str(tmp_path), "--hidden", "a,b", "--frames", "1"])
    assert r.exit_code != 0 and "whole numbers" in r.output
    r = CliRunner().invoke(app, ["lab", "dmc", "--out", str(tmp_path), "--opponent-share", "2", "--frames", "1"])
    assert r.exit_code == 2 and "fraction" in r.output
    r = CliRunner().invoke(app, ["lab", "dmc", "--out", str(tmp_path), "--lr-final", "1e-5", "--frames", "1"])
    assert r.exit_code == 2 and "lr_frames=0" in r.output
    r = CliRunner().invoke(app, ["lab", "dmc", "--out", str(tmp_path), "--lr-frames", "100", "--frames", "1"])
    assert r.exit_code == 2 and "to no lr_final" in r.output


def test_a_stop_request_ends_the_run_with_a_checkpoint(tmp_path):
    t = Trainer(small(), tmp_path)

    def stop(_progress):
        t.stop_requested = True

    t.run(frames=100_000, report_every=0, checkpoint_every=1e9, on_progress=stop)
    assert 0 < t.frames < 100_000
    assert Trainer.load(tmp_path / "checkpoint.pt").frames == t.frames


def test_a_start_network_or_checkpoint_that_cannot_be_read_is_refused_in_one_line(tmp_path):
    """--init-from a missing file, a folder, a file of another kind or a network of other layer sizes, and a
    run folder whose checkpoint is not one: one line naming the file, never Python's [Errno 2], a pickle error
    or torch's listing of every mismatched tensor."""
    first = Trainer(small(), tmp_path / "a")
    first.save()
    exported = first.policy().save(tmp_path / "w.npz")
    (tmp_path / "notes.pt").write_text("not a checkpoint")
    refused = {
        str(tmp_path / "nope.pt"): r"nope\.pt: there is no such file$",
        str(tmp_path / "nope.npz"): r"nope\.npz: there is no such file$",
        str(tmp_path): r" is a directory, not a network \(a checkpoint \.pt or weights \.npz\)$",
        str(tmp_path / "notes.pt"): r"notes\.pt: not a training checkpoint \(bigtwo train writes OUT/checkpoint\.pt\)$",
    }
    for start, message in refused.items():
        with pytest.raises(ValueError, match=r"^init_from .*" + message):
            Trainer(small(init_from=start), tmp_path / "b")
    for start in (exported, tmp_path / "a" / "checkpoint.pt"):
        with pytest.raises(
            ValueError, match=r"a network with hidden layers 32,32, where this run's are 8 \(--hidden\)"
        ):
            Trainer(small(hidden=(8,), init_from=str(start)), tmp_path / "b")
    base = ["lab", "dmc", "--frames", "1", "--envs", "2", "--hidden", "8", "--eval-every", "0"]
    r = CliRunner().invoke(
        app, [*base, "--out", str(tmp_path / "c"), "--init-from", str(tmp_path / "nope.pt")], env={"COLUMNS": "300"}
    )
    assert r.exit_code == 2 and r.output.strip().endswith("nope.pt: there is no such file"), r.output
    (tmp_path / "d").mkdir()
    (tmp_path / "d" / "checkpoint.pt").write_text("{}")
    r = CliRunner().invoke(app, [*base, "--out", str(tmp_path / "d")], env={"COLUMNS": "300"})
    assert r.exit_code == 2 and "Traceback" not in r.output, r.output
    assert r.output.strip().endswith("checkpoint.pt: not a training checkpoint (bigtwo train writes OUT/checkpoint.pt)")


def test_bad_table_sizes_and_measures_are_refused_before_the_first_deal(tmp_path):
    """--players outside the rules' range and an unknown --utility: refused by name at once (not 'a round needs
    2 to 8' for a classic table of 6, nor a traceback at the first finished game)."""
    with pytest.raises(ValueError, match=r"^players=6: 'classic' is for 2-4 players$"):
        Trainer(small(players=6), tmp_path / "a")
    with pytest.raises(ValueError, match=r"^utility='foo': the points are one of score, cards, place, win$"):
        Trainer(small(utility="foo"), tmp_path / "b")
    r = CliRunner().invoke(app, ["lab", "dmc", "--out", str(tmp_path / "c"), "--utility", "foo", "--frames", "300"])
    assert r.exit_code == 2 and "Traceback" not in r.output and "utility='foo'" in r.output, r.output


def test_cli_train_prints_its_words_as_written(tmp_path, monkeypatch):
    """Brackets are not markup (pip install 'bigtwo[rl]' lost its [rl]), and the run's last line gives the best
    evaluation as the progress lines do (not -5.4375, nor 'None' when nothing was evaluated)."""
    import re
    import sys

    small_run = ["--frames", "200", "--envs", "2", "--hidden", "8", "--history", "2", "--batch-size", "32",
                 "--report-every", "0"]  # fmt: skip
    r = CliRunner().invoke(app, ["lab", "dmc", "--out", str(tmp_path / "a"), "--eval-every", "0", *small_run])
    assert r.exit_code == 0 and r.output.strip().endswith("(200 frames); no evaluation yet"), r.output
    args = ["lab", "dmc", "--out", str(tmp_path / "b"), "--eval-every", "100", "--eval-deals", "2", *small_run]
    r = CliRunner().invoke(app, args, env={"COLUMNS": "200"})
    assert r.exit_code == 0 and re.search(r"; best evaluation [+-]\d+\.\d\d a game$", r.output.strip()), r.output
    monkeypatch.setitem(sys.modules, "torch", None)  # as if the rl extra were not installed
    commands = (["lab", "dmc", "--out", str(tmp_path / "c")], ["lab", "imitate", "x.npz", "--out", str(tmp_path / "d")])
    for command in commands:
        r = CliRunner().invoke(app, command, env={"COLUMNS": "200"})
        assert r.exit_code == 2 and "needs the rl extra (pip install 'bigtwo[rl]')" in r.output, r.output


def test_cli_train_finds_an_opponent_class_beside_the_user(tmp_path, monkeypatch):
    """--opponent mybots:MyBot run from the folder holding mybots.py, as bigtwo benchmark and simulate find it."""
    import os
    import sys

    (tmp_path / "train_bots_for_test.py").write_text(
        "from bigtwo.bots.base import BaseBot\n\n\n"
        "class Last(BaseBot):\n"
        "    def choose_play(self, rules, observation):\n"
        "        return self.legal(rules, observation)[-1]\n"
    )
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p not in ("", os.getcwd())])
    args = ["lab", "dmc", "--out", str(tmp_path / "run"), "--frames", "100", "--envs", "2", "--hidden", "8",
            "--opponent", "train_bots_for_test:Last", "--opponent-share", "1", "--eval-every", "0",
            "--report-every", "0"]  # fmt: skip
    r = CliRunner().invoke(app, args, env={"COLUMNS": "200"})
    assert r.exit_code == 0, r.output


def test_actor_processes_resume_bit_for_bit(tmp_path):
    """With --actors the games are played in other processes a round at a time; a run stopped between rounds and
    loaded from its checkpoint goes on exactly as the run that never stopped (each actor's games in it)."""
    cfg = small(actors=2, round_steps=4, opponent_share=0.5, epsilon=0.2)
    straight = Trainer(cfg, tmp_path / "a")
    try:
        straight.run(frames=300, report_every=1e9, checkpoint_every=1e9)
        straight.run(frames=700, report_every=1e9, checkpoint_every=1e9)
    finally:
        straight.close()
    halves = Trainer(cfg, tmp_path / "b")
    halves.run(frames=300, report_every=1e9, checkpoint_every=1e9)
    halves.close()
    resumed = Trainer.load(tmp_path / "b" / "checkpoint.pt")
    try:
        resumed.run(frames=700, report_every=1e9, checkpoint_every=1e9)
    finally:
        resumed.close()
    assert resumed.pool is not None and len(resumed.pool) == 2
    assert (resumed.frames, resumed.games, resumed.updates) == (straight.frames, straight.games, straight.updates)
    assert resumed.updates > 0 and resumed.frames >= 700
    for a, b in zip(params(straight), params(resumed), strict=True):
        assert torch.equal(a, b)
    assert len(straight.queue) == len(resumed.queue)
    for a, b in zip(straight.queue, resumed.queue, strict=True):
        assert np.array_equal(a[0], b[0]) and np.array_equal(a[1], b[1]) and a[2] == b[2]


def test_actors_learn_from_every_finished_game(tmp_path):
    """Every game an actor ends reaches the learner: a finished game's frames are each of its seats' decisions,
    labelled with that seat's points, and the points of a game add up to zero (one point a card)."""
    t = Trainer(small(actors=1, round_steps=8, batch_size=10_000), tmp_path)  # never a full batch: all queued
    try:
        t.run(frames=400, report_every=1e9, checkpoint_every=1e9)
    finally:
        t.close()
    assert t.updates == 0 and t.games > 0
    assert 0 < len(t.queue) <= t.frames
    targets = [y for _, _, y in t.queue]
    assert all(isinstance(y, float) for y in targets)
    assert abs(sum(targets)) > 0  # frames are labelled with returns, not zeros
    state_size, action_size = t.state_size, t.action_size
    assert all(s.shape == (state_size,) and a.shape == (action_size,) for s, a, _ in t.queue)


def test_an_actor_that_fails_says_which_and_why(tmp_path, monkeypatch):
    """A bot that raises inside an actor's games stops the run with the actor's traceback, not a hang."""
    import sys

    (tmp_path / "failing_bots_for_test.py").write_text(
        "from bigtwo.bots.base import BaseBot\n\n\n"
        "class Tired(BaseBot):\n"
        "    calls = 0\n\n"
        "    def choose_play(self, rules, observation):\n"
        "        Tired.calls += 1\n"
        "        if Tired.calls > 40:\n"
        "            raise RuntimeError('too tired to play on')\n"
        "        return self.legal(rules, observation)[0]\n"
    )
    monkeypatch.setattr(sys, "path", [str(tmp_path), *sys.path])
    t = Trainer(small(actors=1, opponent="failing_bots_for_test:Tired", opponent_share=1.0), tmp_path / "run")
    try:
        with pytest.raises(RuntimeError, match="actor 0 failed") as err:
            t.run(frames=5_000, report_every=1e9, checkpoint_every=1e9)
        assert "too tired to play on" in str(err.value)
    finally:
        t.close()


def test_bad_actor_settings_are_refused_in_words(tmp_path):
    with pytest.raises(ValueError, match="actors=-1"):
        Trainer(small(actors=-1), tmp_path / "a")
    with pytest.raises(ValueError, match="round_steps=0"):
        Trainer(small(actors=1, round_steps=0), tmp_path / "b")


def test_cli_train_with_actors_resumes_with_them(tmp_path):
    args = ["lab", "dmc", "--out", str(tmp_path / "run"), "--envs", "4", "--hidden", "16", "--history", "2",
            "--actors", "2", "--round-steps", "4", "--eval-every", "0", "--report-every", "0"]  # fmt: skip
    r = CliRunner().invoke(app, [*args, "--frames", "200"], env={"COLUMNS": "200"})
    assert r.exit_code == 0, r.output
    assert "'actors': 2" in r.output and "frames/s" in r.output
    r = CliRunner().invoke(app, [*args, "--frames", "400"], env={"COLUMNS": "200"})
    assert r.exit_code == 0, r.output
    assert "resuming" in r.output
    t = Trainer.load(tmp_path / "run" / "checkpoint.pt")  # to read its network (bigtwo benchmark): no processes
    assert t.pool is None and t.actors is not None and len(t.actors) == 2
    assert t.config.actors == 2 and t.frames >= 400
    assert t.policy().meta["frames"] == t.frames


def test_ctrl_c_stops_a_run_with_actors_after_the_round_with_a_checkpoint(tmp_path):
    """A Ctrl-C at the terminal (SIGINT to the whole process group) is the learner's alone to answer: the actors
    do not fail with it, the run stops with a checkpoint, and no actor is left behind."""
    import os
    import signal
    import subprocess
    import sys
    import time

    out = tmp_path / "run"
    args = [sys.executable, "-m", "bigtwo", "lab", "dmc", "--out", str(out), "--envs", "4", "--hidden", "16",
            "--history", "2", "--actors", "2", "--eval-every", "0", "--report-every", "0"]  # fmt: skip
    p = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True)
    try:
        lines = []
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            line = p.stdout.readline()
            lines.append(line)
            if "frames/s" in line or not line:
                break
        assert any("frames/s" in x for x in lines), "".join(lines)
        os.killpg(p.pid, signal.SIGINT)
        rest, _ = p.communicate(timeout=60)
    finally:
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGKILL)
    assert p.returncode == 0, "".join(lines) + rest
    assert "signal 2: saving a checkpoint" in rest and "failed" not in rest, rest
    t = Trainer.load(out / "checkpoint.pt")
    assert t.frames > 0 and t.actors is not None and len(t.actors) == 2


def test_the_best_actions_of_a_batch_are_numpys_argmax_of_each_decision():
    from bigtwo.rl.actors import first_best

    rng = np.random.default_rng(3)
    counts = rng.integers(1, 9, size=200)
    offsets = np.concatenate([[0], np.cumsum(counts)])
    q = rng.integers(0, 4, size=int(offsets[-1])).astype(np.float32)  # many ties: the first of them wins
    want = [int(np.argmax(q[a:b])) for a, b in pairwise(offsets)]
    assert first_best(q, offsets).tolist() == want
    q[offsets[5] + counts[5] - 1] = np.nan
    assert first_best(q, offsets).tolist()[5] == counts[5] - 1


def test_self_play_games_are_the_compiled_batchs_where_the_core_is_built(tmp_path):
    from bigtwo import native

    trainer = Trainer(small(), tmp_path)
    assert trainer.env is not None and trainer.env.native == native.available()
    with_bots = Trainer(small(opponent_share=0.5), tmp_path / "bots")
    assert with_bots.env is not None and not with_bots.env.native  # the bots' seats are played in Python
