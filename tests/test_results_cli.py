"""Saved arena results pooled and compared deal by deal (``bigtwo results``, ``bigtwo.arena.compare``)."""

import json
import math

import pytest
from typer.testing import CliRunner

from bigtwo.arena.compare import compare
from bigtwo.arena.results import ArenaResult
from bigtwo.arena.run import run_arena
from bigtwo.arena.stats import mean_interval
from bigtwo.cli import app

runner = CliRunner()
ENV = {"COLUMNS": "200"}
FIELD = "greedy,greedy,greedy"


def match(first: str, seed: int, games: int = 8, rules: str = "classic", utility: str = "cards") -> ArenaResult:
    return run_arena(rules, f"{first},{FIELD}", games=games, seed=seed, workers=1, utility=utility)


@pytest.fixture(scope="module")
def played():
    return {
        ("heuristic", 1): match("heuristic", 1),
        ("heuristic", 2): match("heuristic", 2, games=12),
        ("random", 1): match("random", 1),
        ("random", 2): match("random", 2, games=12),
    }


def test_the_gain_is_the_mean_of_the_per_deal_differences_of_the_same_cards(played):
    h, r = played["heuristic", 1], played["random", 1]
    c = compare(h, r)
    assert (c.bot, c.other, c.opponents) == ("heuristic", "random", ["greedy"] * 3)
    by_hand = [h.points_by_deal(0)[d] - r.points_by_deal(0)[d] for d in range(2)]
    assert c.deals == 2 and c.gain == mean_interval(by_hand)
    assert c.bot_points.mean == pytest.approx(math.fsum(h.points_by_deal(0).values()) / 2)
    assert (c.only_bot, c.only_other, c.notes) == (0, 0, ())


def test_deals_pair_by_their_cards_whatever_order_the_sets_were_pooled_in(played):
    h = ArenaResult.pooled([played["heuristic", 1], played["heuristic", 2]])
    r = ArenaResult.pooled([played["random", 2], played["random", 1]])  # deal 0 of one is deal 0 of the other
    c = compare(h, r)
    mine, theirs = h.points_by_deal(0, key="deal_seed"), r.points_by_deal(0, key="deal_seed")
    assert c.deals == 5 and set(mine) == set(theirs)
    assert c.gain.mean == pytest.approx(math.fsum(mine[d] - theirs[d] for d in mine) / 5)
    # numbered as pooled, the deals would pair the wrong cards
    assert h.points_by_deal(0).keys() == r.points_by_deal(0).keys()
    # deals only one side played are left out and counted
    part = compare(h, played["random", 2])
    assert (part.deals, part.only_bot, part.only_other) == (3, 2, 0)
    with pytest.raises(ValueError, match="key 'seat'"):
        h.points_by_deal(0, key="seat")


def test_a_bot_compared_with_itself_on_the_same_games_gains_nothing(played):
    h = played["heuristic", 2]
    c = compare(h, h)
    assert (c.bot, c.other, c.deals) == ("heuristic", "heuristic", 3)
    assert (c.gain.mean, c.gain.low, c.gain.high) == (0.0, 0.0, 0.0)
    # an opponent entry of the same lineup may be named instead
    assert compare(h, h, entry=2).bot == "greedy"
    with pytest.raises(ValueError, match="entry 7: the lineup has entries 0 to 3"):
        compare(h, h, entry=7)


def test_matches_not_played_alike_are_refused_in_words(played):
    h = played["heuristic", 1]
    with pytest.raises(ValueError, match="differ in their rules: classic beside winner"):
        compare(h, match("random", 1, rules="winner"))
    with pytest.raises(ValueError, match="differ in their points: 'cards' beside 'score'"):
        compare(h, match("random", 1, utility="score"))
    with pytest.raises(ValueError, match=r"differ in 2 seats .*a comparison measures one bot"):
        compare(h, run_arena("classic", "random,random,greedy,greedy", games=8, seed=1, workers=1, utility="cards"))
    with pytest.raises(ValueError, match="entry 2 is greedy in both lineups; they differ in entry 0"):
        compare(h, played["random", 1], entry=2)
    for entry in (4, -1):
        with pytest.raises(ValueError, match=f"entry {entry}: the lineup has entries 0 to 3"):
            compare(h, played["random", 1], entry=entry)
    with pytest.raises(ValueError, match=r"no deal in common: the 2 deals of the first .* and the 3 deals of"):
        compare(h, played["random", 2])
    with pytest.raises(ValueError, match="one match seats 4 bots, the other 3 bots"):
        compare(h, run_arena("classic", "random,greedy,greedy", games=6, seed=1, workers=1, utility="cards"))


def test_opponents_recorded_as_playing_otherwise_are_noted(played):
    h, r = played["heuristic", 1], played["random", 1]
    changed = json.loads(json.dumps(r.config))
    changed["provenance"]["bots"][2]["settings"]["depth"] = 3
    c = compare(h, ArenaResult(changed, r.records))
    assert c.notes == ("opponent greedy (entry 2) depth: 'unset' beside 3",)
    assert c.gain == compare(h, r).gain


def test_the_command_pools_and_compares_saved_files(played, tmp_path):
    for (bot, seed), result in played.items():
        result.save(tmp_path / f"{bot}{seed}.json")
    played["random", 1].save(tmp_path / "random1.csv")
    h1, h2, r1 = (str(tmp_path / n) for n in ("heuristic1.json", "heuristic2.json", "random1.csv"))
    pooled = tmp_path / "heuristic.json"
    res = runner.invoke(app, ["results", h1, h2, "--out", str(pooled)], env=ENV)
    assert res.exit_code == 0, res.output
    assert "20 games" in res.output and "intervals over 5 deals" in res.output
    assert ArenaResult.load(pooled).games == 20
    res = runner.invoke(app, ["results", h1, h2, "--against", r1], env=ENV)
    assert res.exit_code == 0, res.output
    assert "against 3 greedy: 2 deals in common" in res.output
    assert "heuristic less random, deal by deal" in res.output
    assert "Left out: 3 deals only in the first results." in res.output
    res = runner.invoke(app, ["results", h1, "--against", r1, "--json"], env=ENV)
    assert res.exit_code == 0, res.output
    got = json.loads(res.output)
    assert got["deals"] == 2 and got["gain"]["mean"] == pytest.approx(
        compare(played["heuristic", 1], played["random", 1]).gain.mean
    )


def test_the_command_refuses_bad_files_naming_them(played, tmp_path):
    played["heuristic", 1].save(tmp_path / "h.json")
    played["random", 1].save(tmp_path / "r.json")
    (tmp_path / "notes.json").write_text('{"format": "something else"}')
    (tmp_path / "broken.json").write_text("{")
    h, r = str(tmp_path / "h.json"), str(tmp_path / "r.json")
    for argv, words in (
        ([str(tmp_path / "missing.json")], "missing.json: no such file"),
        ([str(tmp_path / "notes.json")], "format 'something else' is not 'bigtwo-arena/1'"),
        ([str(tmp_path / "broken.json")], "broken.json: not an arena results file"),
        ([h, r], "r.json cannot be pooled with"),
        ([h, "--against", r, "--out", str(tmp_path / "x.json")], "--out writes a pool of one lineup"),
        # a second set written after one --against is read into the first: the refusal says how to write it
        ([h, "--against", h, r], "r.json cannot be pooled with"),
        ([h, "--against", h, r], "(each file of the second set takes its own --against)"),
        ([h, "--out", str(tmp_path / "x.txt")], "results are written as .json, .json.gz or .csv"),
    ):
        res = runner.invoke(app, ["results", *argv], env=ENV)
        assert res.exit_code == 2, res.output
        assert words in " ".join(res.output.split()), res.output
        assert "Traceback" not in res.output
