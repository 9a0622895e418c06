"""A run's provenance: what played it beyond its spec words, so that a saved match is reused or pooled only
with one its bots would play again (issue 15, the strength benchmark's saved matches)."""

import json

import numpy as np

from bigtwo.arena import BotSpec, run_arena
from bigtwo.arena.provenance import bot_settings, differences, provenance, shipped_models
from bigtwo.arena.results import ArenaResult
from tests.benchmark_scripts import benchmark_module


def test_settings_carry_the_defaults_a_spec_leaves_out():
    got = bot_settings(BotSpec.parse("isearch(budget_ms=1000, utility='cards')"))
    assert got["name"] == "isearch" and got["files"] == {}
    assert got["settings"]["budget_ms"] == 1000 and got["settings"]["utility"] == "cards"
    # the options the spec does not write, with today's defaults
    assert got["settings"]["playout"] == "auto" and got["settings"]["prior"] == 20.0
    assert "seed" not in got["settings"]
    assert bot_settings(BotSpec.parse("heuristic(contest=False)"))["settings"]["contest"] is False


def test_a_match_saved_with_the_searchs_deleted_options_at_their_defaults_is_still_todays():
    """isearch's options that measured no gain were deleted; a match saved with them at the values that played as
    today's bot plays (what main's record held) is reused, one saved with another value is not."""
    spec = BotSpec.parse("isearch(budget_ms=1000, utility='cards')")
    now = provenance([spec], ("classic", 4))
    saved = json.loads(json.dumps(now))
    saved["bots"][0]["settings"].update(
        {"win_bonus": 0.0, "horizon": 0, "model": "heuristic", "temperature": None, "halving": True, "lookahead": 1}
    )
    assert differences(saved, now) == []
    saved["bots"][0]["settings"]["win_bonus"] = 5.0
    assert differences(saved, now) == ["isearch's setting win_bonus: 5.0 (now 'unset')"]


def test_a_weights_file_named_by_an_option_is_known_by_its_digest(tmp_path):
    path = tmp_path / "net.npz"
    path.write_bytes(b"first network")
    spec = BotSpec.parse(f"learned(weights={str(path)!r})")
    before = provenance([spec])
    assert set(before["bots"][0]["files"]) == {"weights"}
    path.write_bytes(b"another network under the same name")
    changed = differences(before, provenance([spec]))
    assert len(changed) == 1 and changed[0].startswith("learned's weights file weights:")


def test_the_shipped_models_are_listed_and_a_changed_one_is_named():
    models = shipped_models()
    assert "classic-4p.npz" in models and all(len(d) == 16 for d in models.values())
    now = provenance([BotSpec.parse("learned")])
    old = json.loads(json.dumps(now))
    old["models"]["classic-4p.npz"] = "0" * 16
    assert differences(old, now) == ["shipped models classic-4p.npz differ"]
    assert differences(now, now) == []
    old = json.loads(json.dumps(now))
    old["version"] = "0.0.1"
    old["source"] = "another"  # a code edit alone is not a difference in play
    assert differences(old, now) == [f"package version 0.0.1 (now {now['version']})"]
    assert differences(None, now) == ["it was saved without a record of its bots' settings and models"]


def test_only_the_models_for_the_table_played_count():
    """A network shipped for another table cannot change play at this one: a match saved before it shipped is
    still today's (an older record, which listed every model, included)."""
    now = provenance([BotSpec.parse("learned")], ("classic", 4))
    assert now["table"] == ["classic", 4]
    assert set(now["models"]) == {n for n in shipped_models() if n.rsplit(".", 1)[0].endswith("classic-4p")}
    assert provenance([BotSpec.parse("learned")], ("classic", 2))["models"] == {}
    older = json.loads(json.dumps(now))
    older["models"]["tien-len-4p.npz"] = "0" * 16  # listed then, changed or gone since: another table's
    older["models"]["heuristic-winner-4p.json"] = "1" * 16
    del older["table"]
    assert differences(older, now) == []
    older["models"]["heuristic-classic-4p.json"] = "2" * 16  # this table's
    assert differences(older, now) == ["shipped models heuristic-classic-4p.json differ"]
    recorded = run_arena("classic", "greedy,greedy,greedy", games=3, seed=1, workers=1)
    assert recorded.config["provenance"]["table"] == ["classic", 3]


def test_a_run_saves_its_provenance_and_reads_it_back(tmp_path):
    result = run_arena("classic", "heuristic,greedy,greedy,greedy", games=4, seed=3, workers=1, utility="cards")
    p = result.config["provenance"]
    assert [b["name"] for b in p["bots"]] == ["heuristic", "greedy", "greedy", "greedy"]  # one a lineup entry
    result.save(tmp_path / "run.json")
    again = ArenaResult.load(tmp_path / "run.json")
    assert (
        again.config["provenance"] == p
        and differences(p, provenance(list(map(BotSpec.parse, ["heuristic"] + ["greedy"] * 3)))) == []
    )


def test_the_strength_benchmark_reuses_a_saved_match_only_if_its_bots_would_play_it_again(tmp_path):
    strength = benchmark_module("strength")
    lineup = ["heuristic", "greedy", "greedy", "greedy"]
    result = run_arena("classic", lineup, games=4, seed=5, workers=1, utility="cards")
    result.save(tmp_path / "baseline.json")
    (tmp_path / "summary.json").write_text(json.dumps({"not": "an arena file"}))
    found = strength.saved_match(tmp_path, "classic", lineup, 4, 5, "cards")
    assert found is not None and found[1] == tmp_path / "baseline.json"
    assert [r.points for r in found[0].records] == [r.points for r in result.records]
    assert strength.saved_match(tmp_path, "classic", lineup, 4, 6, "cards") is None  # other deals
    kept = tmp_path / "kept"  # a match kept compressed (as the repository keeps its long ones) is found too
    kept.mkdir()
    result.save(kept / "baseline.json.gz")
    found = strength.saved_match(kept, "classic", lineup, 4, 5, "cards")
    assert found is not None and found[1] == kept / "baseline.json.gz"

    # the same words played by a heuristic whose default was otherwise: played again, not read back
    data = json.loads((tmp_path / "baseline.json").read_text())
    data["config"]["provenance"]["bots"][0]["settings"]["contest"] = False
    (tmp_path / "baseline.json").write_text(json.dumps(data))
    assert strength.saved_match(tmp_path, "classic", lineup, 4, 5, "cards") is None

    # saved before runs recorded their provenance: nothing can tell, so it is reused (with a warning)
    del data["config"]["provenance"]
    (tmp_path / "baseline.json").write_text(json.dumps(data))
    found = strength.saved_match(tmp_path, "classic", lineup, 4, 5, "cards")
    assert found is not None and np.array_equal(
        [r.points for r in found[0].records], [r.points for r in result.records]
    )


def test_a_weights_file_missing_here_is_said_to_be_missing_not_unset(tmp_path):
    """A saved match names its network by the path it was played with; where that path holds no file now, the
    difference says so and names the file (not 'unset', which reads as if the option were dropped)."""
    path = tmp_path / "net.npz"
    path.write_bytes(b"a network")
    spec = BotSpec.parse(f"learned(weights={str(path)!r})")
    before = provenance([spec])
    path.unlink()
    changed = differences(before, provenance([spec]))
    digest = before["bots"][0]["files"]["weights"]
    assert changed == [
        f"learned's weights file weights: {str(path)!r} is not found here (it was {digest!r}), "
        "so whether it is the same is unknown"
    ]
