"""The standard evaluation, `bigtwo benchmark` (issue 15, part 4): fixed deals, the field, files, any bot."""

from __future__ import annotations

import json
import re
import textwrap
from importlib import resources

import pytest
from typer.testing import CliRunner

from bigtwo.arena.benchmark import (
    DEAL_SETS,
    FIELD,
    Leaderboard,
    deal_fingerprint,
    deal_set,
    run_benchmark,
)
from bigtwo.bots.spec import BotSpec
from bigtwo.cli import app
from bigtwo.errors import BigTwoError

runner = CliRunner()


def said(res) -> str:
    """What a command printed, its lines joined: rich wraps a long error at whatever width the console has."""
    return " ".join(res.output.split())


CHEAP = "greedy,heuristic"  # opponent sets that play in milliseconds


def without_timing(board: dict) -> dict:
    data = json.loads(json.dumps(board))
    for e in data["entries"]:
        e.pop("timing")
    return data


def run_cli(*args: str) -> object:
    res = runner.invoke(app, ["benchmark", *args], env={"COLUMNS": "200"})
    return res


def test_forty_deals_reproduce_their_own_json_for_a_seed(tmp_path):
    boards = []
    for name in ("a", "b"):
        res = run_cli("--bot", "heuristic", "--deals", "40", "--seed", "11", "--opponents", CHEAP, "-w", "1", "-q",
                      "-o", str(tmp_path / name))  # fmt: skip
        assert res.exit_code == 0, res.output
        boards.append(json.loads((tmp_path / name / "leaderboard.json").read_text()))
        assert (tmp_path / name / "leaderboard.png").read_bytes()[:4] == b"\x89PNG"
        assert "| `heuristic` |" in (tmp_path / name / "leaderboard.md").read_text()
    assert without_timing(boards[0]) == without_timing(boards[1])
    board = boards[0]
    ds = board["protocol"]["deal_set"]
    assert (ds["version"], ds["seed"], ds["deals_played"], ds["rotations"]) == ("custom", 11, 40, 4)
    (entry,) = board["entries"]
    assert entry["sets"]["greedy"]["games"] == 160 and entry["sets"]["greedy"]["deals"] == 40
    # a bot against copies of itself on duplicate deals: the luck cancels and so does the skill, exactly
    assert entry["sets"]["heuristic"]["points"]["mean"] == 0
    assert entry["sets"]["greedy"]["points"]["low"] > 0  # the heuristic beats greedy even on 40 deals
    # another seed is other deals
    res = run_cli("--bot", "heuristic", "--deals", "40", "--seed", "12", "--opponents", "greedy", "-w", "1", "-q",
                  "--no-plot", "-o", str(tmp_path / "c"))  # fmt: skip
    other = json.loads((tmp_path / "c" / "leaderboard.json").read_text())
    assert other["entries"][0]["sets"]["greedy"] != entry["sets"]["greedy"]


def test_the_standard_deal_set_is_checked_against_its_fingerprint(monkeypatch):
    ds = deal_set("v1")
    assert (ds.seed, ds.deals) == (1515, 10_000)
    assert deal_fingerprint(ds.seed) == ds.fingerprint
    tampered = {"v1": DEAL_SETS["v1"].__class__("v1", seed=1515, deals=10_000, fingerprint="0" * 64)}
    monkeypatch.setattr("bigtwo.arena.benchmark.DEAL_SETS", tampered)
    with pytest.raises(BigTwoError, match="deals its first 100 deals differently"):
        deal_set("v1")


USER_BOTS = textwrap.dedent(
    """
    from bigtwo.bots.base import BaseBot

    class LowestFirst:
        '''A policy: the engine lists the legal plays lowest first, so score them in that order.'''

        def scores(self, rules, observation, legal):
            return [-i for i in range(len(legal))]

    class Highest(BaseBot):
        name = "highest"

        def __init__(self, seed=None, keep_pass=True):
            super().__init__(seed)
            self.keep_pass = keep_pass

        def choose_play(self, rules, observation):
            legal = self.legal(rules, observation)
            plays = [p for p in legal if not p.is_pass] or legal
            return plays[-1]

    class NotABot:
        pass
    """
)


@pytest.fixture
def user_module(tmp_path, monkeypatch):
    (tmp_path / "user_bots_for_test.py").write_text(USER_BOTS)
    monkeypatch.syspath_prepend(str(tmp_path))
    return "user_bots_for_test"


def test_a_users_class_and_policy_are_loaded_and_played(user_module):
    specs = [
        BotSpec.parse(f"{user_module}:LowestFirst"),
        BotSpec.parse(f"{user_module}:Highest:keep_pass=false"),
        BotSpec.parse("greedy"),
    ]
    assert specs[1].name == f"{user_module}:Highest" and specs[1].options == {"keep_pass": False}
    board = run_benchmark(specs, deals=3, seed=4, opponents=["heuristic"], workers=1)
    got = {e.label: e for e in board.entries}
    # the policy playing lowest first is greedy, play for play: the same points on the same deals
    policy, greedy = got[f"{user_module}:LowestFirst"], got["greedy"]
    assert policy.sets == greedy.sets
    assert got[f"{user_module}:Highest:keep_pass=false"].sets != greedy.sets
    assert policy.sets["heuristic"]["games"] == 12


def test_a_weights_file_is_played_by_the_learned_bot(tmp_path):
    shipped = resources.files("bigtwo.bots") / "weights" / "classic-4p.npz"
    copy = tmp_path / "my-weights.npz"
    copy.write_bytes(shipped.read_bytes())
    res = run_cli("--bot", str(copy), "--bot", "learned", "--deals", "2", "--seed", "3", "--opponents", "greedy",
                  "-w", "1", "-q", "--no-plot", "-o", str(tmp_path / "out"))  # fmt: skip
    assert res.exit_code == 0, res.output
    board = json.loads((tmp_path / "out" / "leaderboard.json").read_text())
    by_label = {e["bot"]: e for e in board["entries"]}
    assert by_label[str(copy)]["spec"]["options"]["weights"] == str(copy.resolve())
    assert by_label[str(copy)]["sets"] == by_label["learned"]["sets"]  # the same network, the same games


def test_a_training_checkpoint_is_exported_and_played(tmp_path):
    pytest.importorskip("torch")
    from bigtwo.bots.learned import QPolicy
    from bigtwo.rl.dmc import TrainConfig, Trainer

    trainer = Trainer(TrainConfig(num_envs=2, hidden=(16,), history=4, eval_every=0, seed=5), tmp_path / "run")
    ckpt = trainer.save()
    res = run_cli("--bot", str(ckpt), "--deals", "2", "--seed", "3", "--opponents", "greedy", "-w", "1", "-q",
                  "--no-plot", "-o", str(tmp_path / "out"))  # fmt: skip
    assert res.exit_code == 0, res.output
    (entry,) = json.loads((tmp_path / "out" / "leaderboard.json").read_text())["entries"]
    exported = QPolicy.load(entry["spec"]["options"]["weights"])
    expected = trainer.policy()
    assert all((a == b).all() for a, b in zip(exported.rest[0], expected.rest[0], strict=True))
    assert entry["sets"]["greedy"]["games"] == 8


@pytest.mark.parametrize(
    "args,message",
    [
        (["--bot", "wizard"], "no bot named 'wizard'"),
        (["--bot", "search:fast"], "option 'fast' is not key=value"),
        (["--bot", "no_such_module_xyz:Bot"], "cannot import module 'no_such_module_xyz'"),
        (["--bot", "bigtwo.bots.simple:Nothing"], "has no 'Nothing'"),
        (["--bot", "bigtwo.cards:Card"], "neither a bot"),
        (["--bot", "missing.npz"], "there is no file missing.npz"),
        (["--bot", "heuristic", "--opponents", "greedy,wizards"], "no opponent set 'wizards'"),
        (["--bot", "heuristic", "--deals", "1"], "a benchmark plays 2 to 10,000 deals"),
        (["--bot", "heuristic", "--deals", "10001"], "a benchmark plays 2 to 10,000 deals"),
        (["--bot", "heuristic", "--deal-set", "v0"], "no deal set 'v0'; deal sets: v1"),
        (["--bot", "heuristic", "--bot", "heuristic"], "two bots are labelled 'heuristic'"),
    ],
)
def test_bad_inputs_are_clear_errors(tmp_path, args, message):
    res = run_cli(*args, "-w", "1", "-q", "--no-plot", "-o", str(tmp_path / "out"))
    assert res.exit_code == 2 and message in said(res), res.output
    assert not (tmp_path / "out" / "leaderboard.json").exists()


def test_bad_files_are_clear_errors(tmp_path):
    junk = tmp_path / "junk.npz"
    junk.write_bytes(b"not a zip")
    res = run_cli("--bot", str(junk), "--deals", "2", "-q", "-o", str(tmp_path / "out"))
    assert res.exit_code == 2 and "not a weights file of the learned bot" in said(res)
    assert "pickle" not in said(res), res.output  # numpy's advice to load pickles unsafely is no help here
    one = tmp_path / "one.npz"
    with one.open("wb") as f:
        __import__("numpy").save(f, __import__("numpy").zeros(2))  # one array, not an archive: no traceback
    res = run_cli("--bot", str(one), "--deals", "2", "-q", "-o", str(tmp_path / "out"))
    assert res.exit_code == 2 and "not a weights file of the learned bot" in said(res), res.output
    arrays = tmp_path / "arrays.npz"
    __import__("numpy").savez(arrays, w0=__import__("numpy").zeros(2))  # arrays, but no network
    res = run_cli("--bot", str(arrays), "--deals", "2", "-q", "-o", str(tmp_path / "out"))
    assert res.exit_code == 2 and "not a network the learned bot reads (meta is not a file" in said(res), res.output
    from bigtwo.bots.learned import QPolicy, policy_for
    from bigtwo.rules.ruleset import load_rules

    net = policy_for(load_rules("classic"), 4)
    other = QPolicy([(__import__("numpy").concatenate([net.w_state, net.w_action]), net.b0), *net.rest],
                    net.state_size, {**{k: v for k, v in net.meta.items() if k != "rules_settings"},
                                     "rules": "winner"})  # fmt: skip
    res = run_cli("--bot", str(other.save(tmp_path / "winner.npz")), "--deals", "2", "-q", "-o", str(tmp_path / "o"))
    assert res.exit_code == 2 and "trained for 'winner' with 4 players" in said(res)
    if __import__("importlib").util.find_spec("torch") is not None:
        bad = tmp_path / "bad.pt"
        bad.write_bytes(b"nonsense")
        res = run_cli("--bot", str(bad), "--deals", "2", "-q", "-o", str(tmp_path / "o"))
        assert res.exit_code == 2, res.output
        assert said(res) == f"--bot {bad}: not a training checkpoint (bigtwo train writes OUT/checkpoint.pt)"


def test_boards_add_up_only_when_measured_alike(tmp_path):
    out = str(tmp_path / "board")
    common = ["--seed", "2", "--opponents", "greedy", "-w", "1", "-q", "--no-plot", "-o", out]
    assert run_cli("--bot", "heuristic", "--deals", "3", *common).exit_code == 0
    assert run_cli("--bot", "random", "--deals", "3", *common).exit_code == 0
    board = Leaderboard.load(tmp_path / "board" / "leaderboard.json")
    assert [e.label for e in board.ranked()] == ["heuristic", "random"]
    res = run_cli("--bot", "greedy", "--deals", "4", *common)
    assert res.exit_code == 2 and "deal set deals_played: 3 and 4" in said(res)
    assert f"--out {out} holds a leaderboard measured differently" in said(res) and "add --fresh" in said(res)
    assert len(Leaderboard.load(tmp_path / "board" / "leaderboard.json").entries) == 2  # left as it was
    assert run_cli("--bot", "greedy", "--deals", "4", *common, "--fresh").exit_code == 0
    assert [e.label for e in Leaderboard.load(tmp_path / "board" / "leaderboard.json").entries] == ["greedy"]


def test_a_field_whose_bot_had_other_defaults_is_another_field(tmp_path):
    out = tmp_path / "board"
    common = ["--seed", "2", "--opponents", "heuristic", "--deals", "2", "-w", "1", "-q", "--no-plot", "-o", str(out)]
    assert run_cli("--bot", "greedy", *common).exit_code == 0
    data = json.loads((out / "leaderboard.json").read_text())
    assert data["protocol"]["field"]["settings"]["heuristic"]["contest"] is True  # a default the spec leaves out
    # the board as a heuristic that did not contest the lead (its default once) would have made it
    data["protocol"]["field"]["settings"]["heuristic"]["contest"] = False
    (out / "leaderboard.json").write_text(json.dumps(data))
    res = run_cli("--bot", "random", *common)
    assert res.exit_code == 2 and "opponent set heuristic's settings: contest=False and True" in said(res)
    assert [e.label for e in Leaderboard.load(out / "leaderboard.json").entries] == ["greedy"]  # left as it was


def test_the_field_is_every_reference_bot():
    assert list(FIELD) == ["random", "greedy", "heuristic", "search", "learned"]
    for spec in FIELD.values():
        BotSpec.parse(spec).build(seed=0)
    assert "iterations" in FIELD["search"]  # a fixed number of deals, not a time limit: the same moves anywhere


@pytest.mark.xdist_group("ray")  # one local Ray instance at a time
@pytest.mark.slow
def test_the_ray_path_gives_the_same_board():
    ray = pytest.importorskip("ray")
    specs = [BotSpec.parse("heuristic")]
    here = run_benchmark(specs, deals=2, seed=9, opponents=["greedy"], workers=1)
    ray.init(num_cpus=1, include_dashboard=False, log_to_driver=False)
    try:
        there = run_benchmark(specs, deals=2, seed=9, opponents=["greedy"], ray="auto")
    finally:
        ray.shutdown()
    assert without_timing(there.to_dict()) == without_timing(here.to_dict())


def test_a_policy_must_score_every_legal_play():
    from bigtwo import Game, load_rules
    from bigtwo.bots.policy import PolicyBot

    class Short:
        def scores(self, rules, observation, legal):
            return [1.0]

    rules = load_rules("classic")
    game = Game(rules, seed=3)
    bot = PolicyBot(Short(), name="short")
    with pytest.raises(BigTwoError, match=r"policy 'short' gave 1 scores for \d+ legal plays"):
        bot.choose(rules, game.observe(game.to_move))
    with pytest.raises(BigTwoError, match="is not a policy"):
        PolicyBot(object())


def test_two_bots_are_compared_deal_by_deal(tmp_path):
    """The board keeps every bot's points on each deal, so two bots' results pair up deal by deal: the
    difference's mean is the difference of their means, and a bot beside itself under another label (the same
    games, as the seeds are the deal's and the seat's) differs by exactly nothing."""
    specs = [BotSpec.parse("heuristic"), BotSpec.parse("greedy"), BotSpec("heuristic", {}, "heuristic again")]
    board = run_benchmark(specs, deals=6, seed=4, opponents=["greedy", "heuristic"], workers=1)
    heuristic, greedy = board.entry("heuristic"), board.entry("greedy")
    for name in ("greedy", "heuristic"):
        per_deal = heuristic.per_deal(name)
        assert per_deal is not None and len(per_deal) == 6
        assert sum(per_deal) / 6 == pytest.approx(heuristic.points(name).mean)
        d = board.difference("heuristic", "greedy", name)
        assert d.n == 6 and d.mean == pytest.approx(heuristic.points(name).mean - greedy.points(name).mean)
    over = board.difference("heuristic", "greedy")
    assert over.mean == pytest.approx(heuristic.overall["mean"] - greedy.overall["mean"])
    same = board.difference("heuristic", "heuristic again")
    assert (same.mean, same.low, same.high) == (0, 0, 0)
    md = board.markdown()
    assert "Each bot minus the one ranked below it" in md
    greedy_row = next(line for line in md.splitlines() if line.startswith("| `greedy` |"))
    assert re.search(r"\| [0-9.]+ \(\d+(\.\d)?\) \|$", greedy_row) and " (0) |" not in greedy_row, greedy_row
    assert md.count(" - `") == 2  # two adjacent pairs of three bots
    # the per-deal results survive the file, and a board written without them compares nothing
    saved = Leaderboard.load(board.save_json(tmp_path / "b.json"))
    assert saved.difference("heuristic", "greedy") == over
    data = json.loads((tmp_path / "b.json").read_text())
    for e in data["entries"]:
        for s in e["sets"].values():
            del s["per_deal"]
    old = Leaderboard.from_dict(data)
    assert old.difference("heuristic", "greedy") is None
    assert "Each bot minus" not in old.markdown()
    with pytest.raises(BigTwoError, match="no bot 'nobody' on the leaderboard; its bots: "):
        board.difference("nobody", "greedy")
