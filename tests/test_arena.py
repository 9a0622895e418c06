"""The arena: duplicate deals, intervals over deals, files, plot, local processes and Ray (issue 5)."""

import math

import pytest
from typer.testing import CliRunner

from bigtwo import Game, load_rules
from bigtwo.arena import (
    ArenaResult,
    BotSpec,
    GameRecord,
    clustered_interval,
    mean_interval,
    parse_lineup,
    run_arena,
    wilson_interval,
)
from bigtwo.arena.play import seating
from bigtwo.cli import app
from bigtwo.errors import BigTwoError
from bigtwo.scoring import RoundOutcome, score_round
from bigtwo.utilities import round_utility

T_975_4 = 2.7764451051977987  # Student's t, 97.5% quantile, 4 degrees of freedom (statistical tables)


def test_interval_of_a_known_sample():
    iv = mean_interval([1, 2, 3, 4, 5])
    assert iv.mean == 3 and iv.n == 5
    assert iv.sd == pytest.approx(math.sqrt(2.5))
    assert iv.half_width == pytest.approx(T_975_4 * math.sqrt(2.5) / math.sqrt(5))  # 1.9632
    assert (iv.low, iv.high) == pytest.approx((3 - 1.963243, 3 + 1.963243), abs=1e-6)


def test_interval_needs_two_units_and_a_sane_confidence():
    one = mean_interval([4.0])
    assert one.mean == 4 and math.isnan(one.low) and math.isnan(one.high)
    with pytest.raises(ValueError, match="no values"):
        mean_interval([])
    with pytest.raises(ValueError, match="confidence"):
        mean_interval([1, 2], confidence=1.5)


def test_the_unit_of_a_duplicate_interval_is_the_deal():
    # per-deal means 1, 4, 2 whatever the number of games in each deal
    iv = clustered_interval({0: [0, 2], 1: [4, 4, 4, 4], 2: [1, 3]})
    assert iv == mean_interval([1, 4, 2])


def test_a_win_rate_interval_stays_in_zero_one_however_few_the_games():
    # 1 win in 4 games of one deal: the textbook Wilson interval for 1/4 at 95% (z = 1.959964) is [4.56%, 69.94%]
    one = wilson_interval({0: [1, 0, 0, 0]})
    assert one.mean == 0.25 and (one.low, one.high) == pytest.approx((0.045587, 0.699358), abs=1e-5)
    # a t interval over these per-deal means leaves [0, 1] ([-29.7%, 79.7%]); Wilson's does not
    units = {0: [1, 0, 0, 0], 1: [0, 0, 0, 0], 2: [1, 1, 0, 0]}
    assert clustered_interval(units).low < 0
    iv = wilson_interval(units)
    assert 0 <= iv.low < iv.mean < iv.high <= 1 and iv.n == 3
    for rate in ({0: [0, 0, 0, 0], 1: [0, 0, 0, 0]}, {0: [1, 1], 1: [1, 1]}):  # every game lost, or every game won
        iv = wilson_interval(rate)
        assert 0 <= iv.low <= iv.mean <= iv.high <= 1 and iv.high - iv.low > 0.2
    # many deals: close to the per-deal t interval (the same unit), and never narrower than Wilson on every game
    import random

    rng = random.Random(1)
    many = {d: [float(rng.random() < 0.3) for _ in range(4)] for d in range(400)}
    iv, t = wilson_interval(many), clustered_interval(many)
    assert iv.half_width == pytest.approx(t.half_width, rel=0.05) and iv.mean == pytest.approx(t.mean)
    with pytest.raises(ValueError, match="0 or 1"):
        wilson_interval({0: [2.0]})


def fake_record(deal, rotation, points, winner):
    n = len(points)
    return GameRecord(
        deal=deal,
        rotation=rotation,
        deal_seed=deal,
        entries=seating(n, rotation),
        labels=["x" if e == 0 else "y" for e in seating(n, rotation)],
        points=points,
        scores=[0] * n,
        cards_left=[0] * n,
        finishing_order=[winner] + [s for s in range(n) if s != winner],
        actions=1,
        think_seconds=[0.0] * n,
        decisions=[1] * n,
        max_think_seconds=[0.0] * n,
    )


def test_summary_intervals_use_per_deal_means():
    lineup = [{"name": "greedy", "options": {}, "label": "x"}, {"name": "greedy", "options": {}, "label": "y"}]
    records = []
    # bot x scores per-deal means 1, 2, 3, 4, 5 (two rotations each, spread differently)
    for deal, m in enumerate([1, 2, 3, 4, 5]):
        for rot, xs in enumerate([m - 3, m + 3]):
            seat_x = seating(2, rot).index(0)
            pts = [0.0, 0.0]
            pts[seat_x] = xs
            pts[1 - seat_x] = -xs
            records.append(fake_record(deal, rot, pts, seat_x if xs > 0 else 1 - seat_x))
    result = ArenaResult({"lineup": lineup, "rules": {"name": "classic"}, "utility": "cards"}, records)
    x = next(s for s in result.summary() if s.label == "x")
    assert x.games == 10 and x.deals == 5
    assert x.points.mean == 3 and x.points.half_width == pytest.approx(T_975_4 * math.sqrt(2.5) / math.sqrt(5))


def test_pooled_results_count_every_deal_set_and_refuse_other_lineups():
    a = run_arena("classic", "heuristic,greedy,greedy,greedy", games=8, seed=1, workers=1, utility="cards")
    b = run_arena("classic", "heuristic,greedy,greedy,greedy", games=12, seed=2, workers=1, utility="cards")
    both = ArenaResult.pooled([a, b])
    assert both.games == 20 and both.config["deals"] == 5 and both.config["seed"] == [1, 2]
    assert sorted({r.deal for r in both.records}) == [0, 1, 2, 3, 4]
    deals = list(a.points_by_deal(0).values()) + list(b.points_by_deal(0).values())
    h = next(s for s in both.summary() if s.label == "heuristic")
    assert h.deals == 5 and h.points.mean == pytest.approx(math.fsum(deals) / 5)
    assert list(both.points_by_deal(0).values()) == deals
    assert ArenaResult.pooled([a]).records == a.records
    c = run_arena("classic", "random,greedy,greedy,greedy", games=4, seed=1, workers=1, utility="cards")
    with pytest.raises(ValueError, match=r"result 2 cannot be pooled with result 1: lineup \['random'"):
        ArenaResult.pooled([a, c])
    with pytest.raises(ValueError, match=r"c\.json cannot be pooled with a\.json: lineup"):
        ArenaResult.pooled([a, c], ["a.json", "c.json"])
    with pytest.raises(ValueError, match="1 name for 2 results"):
        ArenaResult.pooled([a, c], ["a.json"])
    with pytest.raises(ValueError, match="at least one"):
        ArenaResult.pooled([])


def test_pooled_results_refuse_other_rules_lengths_and_bots_that_would_play_otherwise():
    lineup = "heuristic,greedy,greedy,greedy"
    a = run_arena("classic", lineup, games=4, seed=1, workers=1, utility="cards")
    other_rules = run_arena("winner", lineup, games=4, seed=2, workers=1, utility="cards")
    with pytest.raises(
        ValueError, match="result 2 cannot be pooled with result 1: its rules are winner, result 1's classic"
    ):
        ArenaResult.pooled([a, other_rules])
    longer = run_arena("classic", lineup, games=4, seed=2, workers=1, utility="cards", rounds=2)
    with pytest.raises(ValueError, match="its games last 2 rounds, result 1's 1 round"):
        ArenaResult.pooled([a, longer])
    with pytest.raises(ValueError, match=r"its games last 2 rounds, short\.json's 1 round"):
        ArenaResult.pooled([a, longer], ["short.json", "long.json"])
    # the same spec words, but saved when a default of the heuristic was otherwise: not the same bot
    b = run_arena("classic", lineup, games=4, seed=2, workers=1, utility="cards")
    b.config["provenance"]["bots"][0]["settings"]["contest"] = False
    with pytest.raises(
        ValueError, match="its bots would play otherwise: heuristic's setting contest: False \\(now True\\)"
    ):
        ArenaResult.pooled([b, a])
    del b.config["provenance"]  # a run saved before provenance was recorded: nothing to compare
    assert ArenaResult.pooled([a, b]).games == 8


def test_utilities_of_a_round():
    # 002 Scoring: "North player wins, and East, West, and South respectively still had 3, 11, and 8 cards left,
    # then East would score -3, West would score -22, South would score -8, and North would score +33."
    outcome = RoundOutcome(
        finishing_order=(0, 1, 3, 2), cards_left=(0, 3, 11, 8), dealt=(13,) * 4, played_any=(True,) * 4
    )
    res = score_round(load_rules("classic"), outcome)
    assert round_utility(res, "score") == [33, -3, -22, -8]
    assert round_utility(res, "cards") == [22, -3, -11, -8]  # one point a card left, no doubling
    assert round_utility(res, "place") == [1.5, 0.5, -1.5, -0.5]
    assert round_utility(res, "win") == [1, 0, 0, 0]
    with pytest.raises(ValueError, match="utility 'glory'"):
        round_utility(res, "glory")


def test_duplicate_deals_seat_every_bot_once_in_every_seat_of_the_same_deal():
    lineup = "heuristic,greedy,random,greedy"
    result = run_arena("classic", lineup, games=12, seed=3, workers=1, utility="cards")
    assert result.games == 12 and result.config["deals"] == 3
    for deal in range(3):
        games = [r for r in result.records if r.deal == deal]
        assert sorted(r.rotation for r in games) == [0, 1, 2, 3]
        assert len({r.deal_seed for r in games}) == 1  # the same cards every rotation
        for entry in range(4):
            assert sorted(r.entries.index(entry) for r in games) == [0, 1, 2, 3]  # each entry in every seat
        hands = [Game(load_rules("classic"), players=4, seed=r.deal_seed).dealt for r in games]
        assert all(h == hands[0] for h in hands)


def test_equal_bots_on_duplicate_deals_cancel_the_luck_exactly():
    """Four copies of a deterministic bot: every rotation is the same game, so each copy's per-deal mean is
    the table's mean, zero under a zero-sum measure; on independent deals the luck does not cancel."""
    lineup = [BotSpec("heuristic", label=f"h{i}") for i in range(4)]
    dup = run_arena("classic", lineup, games=24, seed=1, workers=1, utility="cards")
    for s in dup.summary():
        assert s.points.mean == 0 and s.points.half_width == 0
    solo = run_arena("classic", lineup, games=24, seed=1, workers=1, utility="cards", duplicate=False)
    assert any(s.points.half_width > 0 for s in solo.summary())


def test_results_round_trip_through_json_and_csv(tmp_path):
    result = run_arena("classic", "heuristic,greedy,greedy", games=9, seed=2, workers=1, utility="score")
    for name in ("r.json", "r.csv", "r.json.gz", "R.JSON.GZ"):
        path = result.save(tmp_path / name)
        back = ArenaResult.load(path)
        assert back.records == result.records
        assert back.config == result.config
        assert back.summary() == result.summary()
    with pytest.raises(
        ValueError, match=r"r\.txt: results are written as \.json, \.json\.gz or \.csv files, not '\.txt'"
    ):
        result.save(tmp_path / "r.txt")
    with pytest.raises(ValueError, match=r"my\.results\.txt: results are written as .* not '\.txt'"):
        result.save(tmp_path / "my.results.txt")
    with pytest.raises(ValueError, match=r"r\.tar\.gz: results are read from .* not '\.tar\.gz'"):
        ArenaResult.load(tmp_path / "r.tar.gz")


def test_compressed_results_are_smaller_the_same_bytes_each_time_and_refused_when_not_gzip(tmp_path):
    """A long match's every game is kept compressed (a tenth of the JSON for a 1 s match, a third here), written
    without a name or time in the gzip header, so saving the same result twice makes the same file. A file that
    ends in .json.gz but is not compressed is refused in words, not read as garbage."""
    result = run_arena("classic", "heuristic,greedy,greedy,greedy", games=8, seed=3, workers=1, utility="cards")
    plain = result.save(tmp_path / "r.json").stat().st_size
    packed = result.save(tmp_path / "a.json.gz").read_bytes()
    assert len(packed) * 3 < plain
    assert result.save(tmp_path / "b.json.gz").read_bytes() == packed
    (tmp_path / "fake.json.gz").write_text("{}")
    with pytest.raises(ValueError, match=r"fake\.json\.gz: not a gzip-compressed file"):
        ArenaResult.load(tmp_path / "fake.json.gz")


def test_a_decision_is_timed_on_the_wall_clock_and_in_the_bots_own_cpu_time(tmp_path, monkeypatch):
    """Each seat's longest decision is kept twice: on the wall clock, and in the CPU time of the thread that chose
    (the bot's own time, which a process waiting for a core does not add to). A bot that waits shows the wait
    on the wall clock alone; a result saved before the CPU time was kept still reads, without it."""
    import json
    import time

    from bigtwo.bots.simple import GreedyBot

    choose = GreedyBot.choose

    def waiting(self, rules, obs):
        time.sleep(0.02)
        return choose(self, rules, obs)

    monkeypatch.setattr(GreedyBot, "choose", waiting)
    result = run_arena("classic", "heuristic,greedy,greedy", games=3, seed=2, workers=1, utility="cards")
    for r in result.records:
        for seat, label in enumerate(r.labels):
            assert 0 <= r.max_cpu_seconds[seat] <= r.max_think_seconds[seat] + 1e-3
            if label == "greedy":
                assert r.max_think_seconds[seat] >= 0.02 > r.max_cpu_seconds[seat]
    data = json.loads(result.save(tmp_path / "r.json").read_text())
    for g in data["games"]:
        del g["max_cpu_seconds"]
    (tmp_path / "old.json").write_text(json.dumps(data))
    old = ArenaResult.load(tmp_path / "old.json")
    assert all(r.max_cpu_seconds == [] for r in old.records) and old.summary() == result.summary()
    # a bot's slowest decision is judged in its own CPU time, and on the wall clock where that was not kept
    for new_record, old_record in zip(result.records, old.records, strict=True):
        assert new_record.slowest_seconds(1) < 0.02 <= old_record.slowest_seconds(1)
        seat = new_record.entries.index(0)
        assert new_record.slowest_seconds(0) == new_record.max_cpu_seconds[seat]
        assert old_record.slowest_seconds(0) == old_record.max_think_seconds[seat]
    lines = result.save(tmp_path / "r.csv").read_text().splitlines()
    cut = lines[1].split(",").index("max_cpu_seconds")
    (tmp_path / "old.csv").write_text(
        "\n".join([lines[0]] + [",".join(line.split(",")[:cut]) for line in lines[1:]]) + "\n"
    )
    assert all(r.max_cpu_seconds == [] for r in ArenaResult.load(tmp_path / "old.csv").records)


def without_timing(records):
    return [(r.deal, r.rotation, r.entries, r.points, r.finishing_order, r.actions) for r in records]


def test_local_processes_give_the_same_games_as_one_process():
    one = run_arena("classic", "heuristic,greedy,greedy,random", games=16, seed=4, workers=1)
    many = run_arena("classic", "heuristic,greedy,greedy,random", games=16, seed=4, workers=2, chunk=1)
    assert without_timing(many.records) == without_timing(one.records)


@pytest.mark.xdist_group("ray")  # one local Ray instance at a time
@pytest.mark.slow
def test_the_same_run_on_a_local_ray_instance():
    ray = pytest.importorskip("ray")
    lineup = "heuristic,greedy,random"
    here = run_arena("classic", lineup, games=9, seed=5, workers=1)
    ray.init(num_cpus=1, include_dashboard=False, log_to_driver=False)
    try:
        done = []
        there = run_arena("classic", lineup, games=9, seed=5, ray="auto", chunk=1, progress=lambda d, t: done.append(d))
    finally:
        ray.shutdown()
    assert without_timing(there.records) == without_timing(here.records)
    assert done[-1] == 9 and len(done) == 4  # progress at the start and after each deal


def test_the_plot_is_a_png(tmp_path):
    from bigtwo.arena.plot import plot_scores

    result = run_arena("classic", "heuristic,greedy,greedy,greedy", games=8, seed=6, workers=1, utility="cards")
    path = plot_scores(result, tmp_path / "scores.png")
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_the_tables_title_counts_games_and_deals_in_words():
    one = run_arena("classic", "greedy,greedy", games=1, seed=1, workers=1, duplicate=False)
    assert one.table().title.endswith(": 1 game, independent deals, points: score, intervals over 1 deal")
    two = run_arena("classic", "greedy,greedy", games=4, seed=1, workers=1)
    assert two.table().title.endswith(": 4 games, duplicate deals, points: score, intervals over 2 deals")


def test_bad_lineups_are_refused_with_the_reason():
    with pytest.raises(ValueError, match="no bot named 'wizard'"):
        parse_lineup("heuristic,wizard")
    with pytest.raises(BigTwoError, match="a lineup of 5 bots: 'classic' is for 2-4 players"):
        run_arena("classic", "greedy,greedy,greedy,greedy,greedy", games=5, workers=1)
    with pytest.raises(BigTwoError, match="a lineup of 1 bot: 'classic' is for 2-4 players"):
        run_arena("classic", "greedy", games=5, workers=1)
    with pytest.raises(ValueError, match="option 'fast' is not key=value"):
        BotSpec.parse("search:fast")
    with pytest.raises(ValueError, match=r"'search:budget=3'.*budget"):
        parse_lineup("search:budget=3,greedy")
    with pytest.raises(ValueError, match=r"options are written name\(key=value"):
        parse_lineup("search(3),greedy")
    # a text without its quotes: the refusal shows it quoted, as it should be written
    with pytest.raises(ValueError, match=r"the value of weights, runs/x.npz, is not .* write weights='runs/x.npz'"):
        parse_lineup("learned(weights=runs/x.npz),greedy")
    with pytest.raises(ValueError, match=r"the value of iterations, abc, .* write iterations='abc' for a text"):
        parse_lineup("search(iterations=abc),greedy")
    # a seed among the options: the table's seed seeds every bot (not Python's "got multiple values")
    with pytest.raises(BigTwoError) as e:
        parse_lineup("random(seed=1),greedy")
    assert str(e.value) == "bot spec 'random(seed=1)': random takes no seed option: the table seeds every bot (--seed)"
    with pytest.raises(BigTwoError, match=r"^bot spec 'greedy\(foo=1\)': greedy has no option 'foo'; it takes none$"):
        parse_lineup("greedy(foo=1)")
    # the table's spelling too: commas inside the parentheses belong to the spec
    specs = parse_lineup("search(iterations=3, utility='cards'),greedy")
    assert [(b.name, b.options) for b in specs] == [("search", {"iterations": 3, "utility": "cards"}), ("greedy", {})]
    spec = BotSpec.parse("search:iterations=3:utility=cards")
    assert spec.options == {"iterations": 3, "utility": "cards"} and spec.display == "search:iterations=3:utility=cards"
    net = BotSpec.parse("runs/x/best.npz")  # a network's weights file: the learned bot playing it
    assert (net.name, net.options, net.display) == ("learned", {"weights": "runs/x/best.npz"}, "runs/x/best.npz")
    for text in ("learned:weights=runs/x/best.npz", "isearch:weights=runs/x/best.npz", "learned(weights='x.npz')"):
        spec = BotSpec.parse(text)  # options that name a weights file: still the spec's own bot
        assert spec.name == text.split(":")[0].split("(")[0] and spec.options["weights"].endswith(".npz")


runner = CliRunner()


def test_simulate_prints_the_table_and_writes_the_files(tmp_path):
    out_json, out_csv, png = tmp_path / "r.json", tmp_path / "r.csv", tmp_path / "r.png"
    res = runner.invoke(
        app,
        [
            "simulate",
            "--rules",
            "classic",
            "--bots",
            "heuristic,greedy,greedy,greedy",
            "--games",
            "8",
            "--workers",
            "1",
            "--utility",
            "cards",
            "--out",
            str(out_json),
            "--out",
            str(out_csv),
            "--plot",
            str(png),
        ],
        env={"COLUMNS": "160"},
    )
    assert res.exit_code == 0, res.output
    assert "heuristic" in res.output and "points/game" in res.output and "8/8" in res.output
    assert ArenaResult.load(out_json).records == ArenaResult.load(out_csv).records
    assert png.exists()


def test_simulate_explains_a_bad_bot():
    res = runner.invoke(app, ["simulate", "--bots", "heuristic,nobody", "--games", "4", "--workers", "1"])
    assert res.exit_code == 2 and "no bot named 'nobody'" in res.output


def test_simulate_refuses_a_bad_output_file_or_plot_before_playing(tmp_path, monkeypatch):
    """`bigtwo simulate -o x.txt` and `--plot` without matplotlib stop at once, no game played."""
    import sys

    import bigtwo.cli.simulate as sim

    def no_games(*args, **kwargs):
        raise AssertionError("a game was played before the refusal")

    monkeypatch.setattr(sim, "run_arena", no_games)
    base = ["simulate", "--bots", "heuristic,greedy,greedy,greedy", "--games", "4", "--workers", "1"]
    res = runner.invoke(app, [*base, "-o", str(tmp_path / "x.txt")], env={"COLUMNS": "200"})
    assert res.exit_code == 2 and "results are written as .json, .json.gz or .csv" in res.output
    res = runner.invoke(app, [*base, "-o", str(tmp_path / "nowhere" / "x.json")], env={"COLUMNS": "200"})
    assert res.exit_code == 2 and "there is no folder" in res.output
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # as if it were not installed
    res = runner.invoke(app, [*base, "--plot", str(tmp_path / "p.png")], env={"COLUMNS": "200"})
    assert res.exit_code == 2 and "pip install 'bigtwo[plot]'" in res.output  # the brackets survive


def test_small_simulations_print_win_rates_inside_zero_one():
    res = runner.invoke(
        app,
        ["simulate", "--bots", "heuristic,greedy,greedy,greedy", "--games", "8", "--workers", "1", "-q"],
        env={"COLUMNS": "200"},
    )
    assert res.exit_code == 0, res.output
    import re

    bounds = [float(x) for lo_hi in re.findall(r"\[(-?[\d.]+)%, (-?[\d.]+)%\]", res.output) for x in lo_hi]
    assert len(bounds) == 4 and all(0 <= b <= 100 for b in bounds), res.output


FAULTY_BOTS = """
from bigtwo.bots.base import BaseBot
from bigtwo.combos.play import Play


class Raises(BaseBot):
    def choose_play(self, rules, observation):
        raise RuntimeError("boom inside my bot")


class PassesAlways(BaseBot):
    def choose_play(self, rules, observation):
        return Play.PASS


class AnswersNone:
    name = "none"

    def choose(self, rules, observation):
        return None
"""


def test_a_users_bot_that_fails_is_named_in_one_line_not_a_traceback(tmp_path, monkeypatch):
    """A class of one's own that raises, plays what the rules forbid or answers nothing: one line naming the
    bot, its seat and the game, and what was wrong; the CLI exits 2 without a traceback."""
    (tmp_path / "faulty_bots_for_test.py").write_text(FAULTY_BOTS)
    monkeypatch.syspath_prepend(str(tmp_path))
    expected = {
        "Raises": r"^faulty_bots_for_test:Raises in seat 0 \(deal 0, rotation 0\) raised RuntimeError: "
        r"boom inside my bot$",
        "PassesAlways": r"^faulty_bots_for_test:PassesAlways in seat \d \(deal 0, rotation \d\) made a move the rules "
        r"do not allow: seat \d leads this trick and cannot pass$",
        "AnswersNone": r"^faulty_bots_for_test:AnswersNone in seat 0 \(deal 0, rotation 0\) answered None: a bot "
        r"answers with a play \(a pass included\) or an answer$",
    }
    for name, pattern in expected.items():
        lineup = f"faulty_bots_for_test:{name},random,random,random"
        with pytest.raises(BigTwoError, match=pattern):
            run_arena("classic", lineup, games=4, workers=1)
        args = ["simulate", "--bots", lineup, "--games", "4", "-w", "1", "-q"]
        res = runner.invoke(app, args, env={"COLUMNS": "300"})
        assert res.exit_code == 2, res.output
        assert "Traceback" not in res.output and len(res.output.strip().splitlines()) == 1, res.output


def test_simulate_finds_a_users_module_beside_the_user_as_benchmark_does(tmp_path, monkeypatch):
    """`bigtwo simulate --bots mybots:MyBot,...` run from the folder holding mybots.py plays it (the installed
    `bigtwo` script does not put the current folder on the import path, as `python -m` would)."""
    import os
    import sys

    (tmp_path / "beside_bots_for_test.py").write_text(
        FAULTY_BOTS.replace("Play.PASS", "self.legal(rules, observation)[-1]")
    )
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p not in ("", os.getcwd())])
    args = ["simulate", "--bots", "beside_bots_for_test:PassesAlways,random", "--games", "2", "-w", "1", "-q"]
    res = runner.invoke(app, args, env={"COLUMNS": "200"})
    assert res.exit_code == 0, res.output
    assert "beside_bots_for_test:PassesAlways" in res.output


def test_reading_decisions_from_a_wrong_path_says_what_is_there(tmp_path):
    """A missing file, a folder, another file: one sentence each, not Python's [Errno 2] or numpy's pickle advice."""
    import re

    import numpy as np

    from bigtwo.arena.decisions import read_decisions

    with pytest.raises(BigTwoError, match=f"^no decisions file at {re.escape(str(tmp_path / 'nope.npz'))}$"):
        read_decisions(tmp_path / "nope.npz")
    with pytest.raises(BigTwoError, match=f"^{re.escape(str(tmp_path))} is a directory, not a decisions file$"):
        read_decisions(tmp_path)
    (tmp_path / "board.json").write_text('{"format": "bigtwo-benchmark/1"}')
    np.save(tmp_path / "one.npy", np.zeros(3))
    for name in ("board.json", "one.npy"):
        with pytest.raises(BigTwoError) as e:
            read_decisions(tmp_path / name)
        assert str(e.value).startswith(f"{tmp_path / name}: not a decisions file"), e.value
        assert "pickle" not in str(e.value) and str(e.value).endswith(
            "--record-decisions writes them, as compressed numpy (.npz)"
        )


def test_a_bot_refusing_the_table_is_named_without_a_game_it_never_played():
    with pytest.raises(BigTwoError, match=r"^learned: the learned bot has no weights for 'winner' with 4 players"):
        run_arena("winner", "learned,greedy,greedy,greedy", games=4, workers=1)
