"""``bigtwo train``, the recipe (issue 87): a tiny run for a house rule goes end to end, stops with a checkpoint,
resumes, installs its network for exactly its rules and table size, and the table's bots find it there and
nowhere else.

Needs torch (the ``[rl]`` extra); skipped without it. The run is a few hundred frames, evaluations of two deals.
"""

from __future__ import annotations

import json
import random

import pytest

torch = pytest.importorskip("torch")

from typer.testing import CliRunner  # noqa: E402

from bigtwo import Game, load_rules  # noqa: E402
from bigtwo.bots import make  # noqa: E402
from bigtwo.bots.installed import installed_path  # noqa: E402
from bigtwo.bots.learned import QPolicy, installed_policy, policy_for, table_networks  # noqa: E402
from bigtwo.bots.search_network import SearchNetwork  # noqa: E402
from bigtwo.bots.strength import strongest_bot  # noqa: E402
from bigtwo.cli.app import app  # noqa: E402
from bigtwo.errors import BigTwoError  # noqa: E402
from bigtwo.rl.recipe import STAGES, Recipe  # noqa: E402
from tests.test_bots import midgame, scrambled  # noqa: E402

pytestmark = pytest.mark.usefixtures("torch_one_thread")


def test_the_rules_digest_is_their_settings_not_their_name():
    classic = load_rules("classic")
    assert classic.replace(name="ours", description="x").digest() == classic.digest()
    assert classic.replace(pass_locks_out=True).digest() != classic.digest()
    assert len({load_rules(p).digest() for p in ("classic", "tien-len", "winner")}) == 3


def test_a_tiny_run_stops_resumes_and_installs_for_exactly_its_table(tmp_path, monkeypatch):
    monkeypatch.setenv("BIGTWO_DATA_DIR", str(tmp_path / "data"))
    house = load_rules("classic").replace(name="our house", pass_locks_out=True)
    house_file = tmp_path / "house.toml"
    house.save(house_file)
    run_dir = tmp_path / "run"
    # a first start, stopped after its first evaluation: a checkpoint and recipe.json, nothing installed
    recipe, resumed = Recipe.start(house_file, 3, run_dir, minutes=None, frames=500, eval_deals=2)
    assert not resumed and (run_dir / "rules.toml").exists()

    def stop_at_the_first_evaluation(p):
        if p.evaluation is not None:
            recipe.request_stop()

    assert recipe.run(on_progress=stop_at_the_first_evaluation) is False
    assert (run_dir / "stage-1" / "checkpoint.pt").exists()
    saved = json.loads((run_dir / "recipe.json").read_text())["state"]
    assert saved["segment"] == 1 and len(saved["snapshots"]) == 1 and saved["final"] is None
    assert not installed_path(house, 3).exists()
    recipe.stop_requested = False  # the same object goes on from its checkpoint, to the next evaluation
    assert recipe.run(on_progress=stop_at_the_first_evaluation) is False
    assert json.loads((run_dir / "recipe.json").read_text())["state"]["segment"] == 2
    # the same command resumes it (the rules file may be gone: the run keeps its copy) and installs the result
    house_file.unlink()
    house.save(house_file)
    out = tmp_path / "ours-3p.npz"
    args = ["train", "--rules", str(house_file), "--players", "3", "--frames", "500", "--run-dir", str(run_dir),
            "--eval-deals", "2", "--out", str(out)]  # fmt: skip
    r = CliRunner().invoke(app, args, env={"COLUMNS": "200"})
    assert r.exit_code == 0, r.output
    assert "resuming" in r.output and "installed" in r.output and "against 2 heuristic" in r.output
    state = json.loads((run_dir / "recipe.json").read_text())["state"]
    assert [s["stage"] for s in state["snapshots"]] == [i for i, s in enumerate(STAGES) for _ in range(s.evaluations)]
    assert sum(state["stage_frames"]) >= 500 and (run_dir / "curve.png").exists()
    final = QPolicy.load(run_dir / "final.npz")
    assert final.meta["frames"] == sum(state["stage_frames"]) and final.meta["evaluation"]["games"] == 18
    assert QPolicy.load(out).meta["rules_settings"] == house.settings()
    # found for exactly these rules and this table size ...
    mine = installed_policy(house, 3)
    assert mine is not None and mine.meta["recipe"]["averaged"] == state["final"]["averaged"]
    assert policy_for(house, 3) is mine
    assert policy_for(house.replace(name="renamed"), 3) is mine
    searched = SearchNetwork(house, 3)  # isearch's prior and play-outs weigh with it too, and its plan says so
    assert searched.scorer is not None and searched.scorer.net is mine and "trained here" in str(searched.label)
    assert SearchNetwork(house, 4).scorer is None
    # ... and refused, in words that give the command, at another table size or under other rules
    with pytest.raises(BigTwoError, match=r"no weights for 'our house' with 4 players.*bigtwo train --rules"):
        policy_for(house, 4)
    assert policy_for(load_rules("classic"), 3) is not mine  # classic's own shipped network
    with pytest.raises(BigTwoError, match="trained for 'our house' with 3 players, not 'our house' with 4"):
        g4 = Game(house, players=4, seed=1)
        make("learned", weights=str(out)).choose(house, g4.observe(g4.to_move))
    # the table's default opponent is the network here, and not where none was trained
    assert strongest_bot(house, 3, 0.01)[0] == "learned"
    assert strongest_bot(house, 4, 0.01)[0] != "learned"
    listed = [(n.rules, n.players, n.where) for n in table_networks()]
    assert ("our house", 3, "trained here") in listed and ("classic", 4, "shipped") in listed
    r = CliRunner().invoke(app, ["bots"], env={"COLUMNS": "200"})
    assert r.exit_code == 0 and "our house" in r.output and "trained here" in r.output, r.output
    # it plays whole games from each seat's observation alone: swapping the cards it cannot see changes nothing
    rng = random.Random(5)
    for seed in range(3):
        g = midgame(house, seed, 6 + seed, 3)
        if g.is_over:
            continue
        twin = scrambled(g, g.to_move, rng)
        obs, obs2 = g.observe(g.to_move), twin.observe(g.to_move)
        assert make("learned").choose(house, obs) == make("learned").choose(house, obs2)
    # running the finished command again installs the same network without training
    r = CliRunner().invoke(app, args, env={"COLUMNS": "200"})
    assert r.exit_code == 0 and "installed" in r.output, r.output
    assert json.loads((run_dir / "recipe.json").read_text())["state"] == state


def test_a_run_folder_of_another_table_is_refused_in_words(tmp_path, monkeypatch):
    monkeypatch.setenv("BIGTWO_DATA_DIR", str(tmp_path / "data"))
    recipe, _ = Recipe.start("classic", 3, tmp_path / "run", minutes=None, frames=10, eval_deals=2)
    recipe.save()
    r = CliRunner().invoke(app, ["train", "--rules", "classic", "--players", "4", "--frames", "10", "--run-dir",
                                 str(tmp_path / "run")], env={"COLUMNS": "200"})  # fmt: skip
    assert r.exit_code == 2 and "holds a run for 'classic' with 3 players" in r.output, r.output
    r = CliRunner().invoke(app, ["train", "--rules", "classic", "--players", "9", "--frames", "10"])
    assert r.exit_code == 2 and "not 9" in r.output, r.output
    r = CliRunner().invoke(app, ["train", "--frames", "10", "--eval-deals", "1", "--run-dir", str(tmp_path / "b")])
    assert r.exit_code == 2 and "an interval needs two deals or more" in r.output, r.output


def test_a_network_behind_the_shipped_one_is_not_installed(tmp_path, monkeypatch):
    """At a table the package ships a network for, the run's network is installed only where it is not behind
    that one on the same deals: a few hundred frames are, so classic's own stays the table's (the file is kept)."""
    monkeypatch.setenv("BIGTWO_DATA_DIR", str(tmp_path / "data"))
    args = ["train", "--rules", "classic", "--players", "3", "--frames", "200", "--eval-deals", "2",
            "--run-dir", str(tmp_path / "run"), "--out", str(tmp_path / "mine.npz")]  # fmt: skip
    r = CliRunner().invoke(app, args, env={"COLUMNS": "200"})
    assert r.exit_code == 0 and "not installed: the network the package ships" in r.output, r.output
    classic = load_rules("classic")
    assert installed_policy(classic, 3) is None and not installed_path(classic, 3).exists()
    assert QPolicy.load(tmp_path / "mine.npz").meta["players"] == 3
    final = json.loads((tmp_path / "run" / "recipe.json").read_text())["state"]["final"]
    assert final["shipped"]["points"] > final["evaluation"]["points"] and final["shipped"]["games"] == 18
