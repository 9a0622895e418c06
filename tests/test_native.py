"""The compiled core (bigtwo._core) against the Python engine, its reference: the build, the rules compiler,
and rounds played through both engines side by side, compared bit for bit (tests/native_diff.py).

Tests that need the extension skip, saying why, where it is not built (a machine without a C++ compiler)."""

from __future__ import annotations

import os
import random
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bigtwo import Game, list_presets, load_rules, native
from bigtwo.cards import parse_cards
from bigtwo.moves import HandIndex
from tests.house_rules import house_rules
from tests.native_diff import Tally, compare_round, compare_rules

needs_core = pytest.mark.skipif(not native.available(), reason=f"no compiled core here: {native.status()}")
PRESETS = list_presets()
TABLES = [(name, n) for name in PRESETS for n in range(load_rules(name).min_players, load_rules(name).max_players + 1)]


def run_python(code: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=300, env={**os.environ, **env}
    )


# --- the build ----------------------------------------------------------------------------------------------
@needs_core
def test_the_extension_imports_when_built():
    from bigtwo import _core  # type: ignore[attr-defined]

    assert native.status().startswith("compiled core")
    assert len(native.SHAPES) == _core.NSHAPES


def test_bigtwo_native_0_reports_pure_python():
    done = run_python("from bigtwo import native; print(native.available()); print(native.status())", BIGTWO_NATIVE="0")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["False", "pure Python: BIGTWO_NATIVE=0 asks for pure Python"]


def test_without_the_extension_the_package_plays_and_rules_show_says_so():
    code = """
import importlib.abc, sys
class NotBuilt(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name == "bigtwo._core":
            raise ImportError("not built here")
sys.meta_path.insert(0, NotBuilt())
from typer.testing import CliRunner
from bigtwo import Game, native
from bigtwo.cli.app import app
for seed in (3, 4):
    g = Game("classic", seed=seed)
    while not g.is_over:
        g.apply(g.legal_plays()[0])
print(native.available(), g.result.finishing_order[0] in range(4))
shown = CliRunner().invoke(app, ["rules", "show", "classic"]).output
print(" ".join(shown.split()).count("Engine: pure Python: the compiled core (bigtwo._core) is not built here"))
"""
    done = run_python(code, BIGTWO_NATIVE="1")  # the extension missing, not switched off (also under BIGTWO_NATIVE=0)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["False", "True", "1"]
    # said once, as a log line, not once a round
    assert done.stderr.count("rounds play in pure Python") == 1, done.stderr


def test_bigtwo_native_0_plays_the_python_engine_without_a_word():
    code = """
from bigtwo import Game
g = Game("classic", seed=3)
print("_nat" in vars(g), type(g).__name__)
"""
    done = run_python(code, BIGTWO_NATIVE="0")
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["False", "Game"]
    assert "pure Python" not in done.stderr


# --- the rules compiler -------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", PRESETS)
def test_every_preset_is_covered(name):
    assert native.covers(load_rules(name)), native.uncovered(load_rules(name))


def test_uncovered_rules_say_why_in_words():
    rules = load_rules("house-code").replace(decks=2, max_players=8)
    assert not native.covers(rules)
    assert any("64-bit" in why for why in native.uncovered(rules))
    with pytest.raises(ValueError, match="two decks"):
        native.compile_tables(rules.engine_for(4))


def well_formed(tables: dict, ev) -> None:
    """The invariants the C++ reads the tables under (it checks ranges too, and refuses bad tables)."""
    for name in ("power", "full_power", "poker_power", "rank_of", "suit_of"):
        assert tables[name].shape == (54,) and tables[name].dtype == np.int64, name
        assert (tables[name] >= 0).all() and (tables[name] < 128).all(), name
    assert set(tables["rank_of"][:52] == np.arange(52) // 4) == {True}
    assert tables["pack"] == ev.pack and tables["pack"] < 1 << 54
    kinds = list(tables["kinds"])
    assert len(kinds) == len(set(kinds)) == len(ev.kinds) and all(0 <= k < len(native.SHAPES) for k in kinds)
    assert all(0 < s < 1 << 64 for s in tables["kind_sizes"])
    rows = tables["straights"].reshape(-1, 4)
    for length, ranks, pos, tb in rows:
        assert int(ranks).bit_count() == length and ranks >> tb & 1 and pos >= 0
    assert len({(int(r[0]), int(r[1])) for r in rows}) == len(rows), "one reading per set of ranks"
    for width, count, ranks, _pos, top in tables["runs"].reshape(-1, 5):
        assert width in (2, 3) and int(ranks).bit_count() == count and ranks >> top & 1
    for shape, length, targets in tables["bombs"].reshape(-1, 3):
        assert shape in kinds and (length == -1 or length > 0) and 0 <= targets < 64


@settings(max_examples=100)
@given(house_rules())
def test_the_compiler_makes_well_formed_tables_or_says_why_not(drawn):
    rules, players = drawn
    ev = rules.engine_for(players)
    if native.covers(rules):
        well_formed(native.compile_tables(ev), ev)
    else:
        with pytest.raises(ValueError, match="does not cover"):
            native.compile_tables(ev)


# --- classification and generation --------------------------------------------------------------------------
@needs_core
@pytest.mark.parametrize(("name", "players"), TABLES)
def test_combinations_and_their_classes_match_the_reference(name, players):
    rng = random.Random(f"{name}-{players}")
    rules = load_rules(name)
    for _ in range(5):
        g = Game(rules, players=players, seed=rng.randrange(1 << 30))
        t = native.tables(g.ev)
        for hand in g._hands:
            plays = HandIndex.build(g.ev, hand).plays
            assert t.combos(hand) == [p.mask for p in plays]
            for p in plays:
                assert t.classify(p.mask) == (
                    p.mask,
                    native.SHAPES[p.kind],
                    p.cat,
                    p.key,
                    p.value,
                    p.cls,
                    p.order,
                    p.bomb,
                )


# --- rounds through both engines ------------------------------------------------------------------------------
def assert_clean(tally: Tally) -> None:
    assert not tally.mismatches, "\n".join(tally.mismatches[:5])
    assert tally.decisions > 0


@needs_core
@pytest.mark.parametrize(("name", "players"), TABLES)
def test_random_rounds_match_the_python_engine(name, players):
    assert_clean(compare_rules(load_rules(name), players, rounds=8, seed=players))


@needs_core
@settings(max_examples=60)
@given(house_rules(), st.integers(0, 2**31 - 1))
def test_house_rules_rounds_match_the_python_engine(drawn, seed):
    rules, players = drawn
    if not native.covers(rules):
        return
    rng = random.Random(seed)
    tally = compare_round(Game(rules, players=players, seed=seed, native=False), rng, undo_rate=0.2)
    assert not tally.mismatches, "\n".join(tally.mismatches)


@needs_core
def test_a_wrong_action_is_refused_and_undo_goes_back_to_the_deal():
    g = Game("classic", seed=5)
    r = native.core().Round(native.tables(g.ev), list(g._hands), g.to_move, g._required)
    with pytest.raises(ValueError, match="not a legal action"):
        r.apply(1 << 51)  # the 2S: not the 3D the first play must hold
    with pytest.raises(ValueError, match="nothing to undo"):
        r.undo()
    start = r.state
    r.apply(r.legal_masks()[0])
    r.undo()
    assert r.state == start


@needs_core
def test_playouts_end_the_round():
    g = Game("tien-len", players=4, seed=9)
    r = native.core().Round(native.tables(g.ev), list(g._hands), g.to_move, g._required)
    for play in (lambda x: x.random_playout(7), lambda x: x.greedy_playout()):
        x = r.clone()
        decisions = play(x)
        assert x.over and decisions == x.decisions > 0 and sorted(x.finishing_order) == [0, 1, 2, 3]
    assert not r.over  # the clones played, not the round


@needs_core
def test_greedy_playout_is_the_greedy_bots_game():
    g = Game("classic", players=4, seed=11)
    r = native.core().Round(native.tables(g.ev), list(g._hands), g.to_move, g._required)
    r.greedy_playout()
    while not g.is_over:
        g.apply(g.legal_plays()[0])
    assert list(r.finishing_order) == list(g.result.finishing_order)
    assert list(r.hands) == list(g._hands)


@needs_core
def test_batched_random_games_count_their_decisions():
    t = native.tables(load_rules("classic").engine_for(4))
    decisions, games = t.random_games(4, 50, seed=1)
    assert games == 50 and decisions >= 50 * 4
    assert t.random_games(4, 50, seed=1) == (decisions, games)  # a seed replays


@pytest.mark.long
@needs_core
def test_long_differential_run(request):
    """Every preset at every table size, ``BIGTWO_DIFF_DECISIONS`` decisions in all (default 200,000): run with
    ``-m long``; benchmarks/native_differential.py runs a million or more with a seed."""
    if "long" not in (request.config.getoption("-m") or ""):
        pytest.skip("a long run: select it with -m long")
    target = int(os.environ.get("BIGTWO_DIFF_DECISIONS", "200000"))
    tally = Tally()
    seed = 0
    while tally.decisions < target:
        for name, players in TABLES:
            tally.add(compare_rules(load_rules(name), players, rounds=2, seed=seed))
        seed += 1
    print(f"{tally.decisions} decisions, {tally.rounds} rounds, {len(tally.mismatches)} mismatches")
    assert_clean(tally)


@pytest.mark.long
def test_sanitized_build_is_clean(request):
    """The C++ built with AddressSanitizer and UndefinedBehaviorSanitizer plays every covered preset through
    the differential check without a report (tests/native_sanitizers.py; needs g++ and pybind11)."""
    if "long" not in (request.config.getoption("-m") or ""):
        pytest.skip("a long run: select it with -m long")
    pytest.importorskip("pybind11", reason="the sanitized build needs pybind11's headers")
    script = os.path.join(os.path.dirname(__file__), "native_sanitizers.py")
    done = subprocess.run([sys.executable, script, "--rounds", "1"], capture_output=True, text=True, timeout=1800)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-4000:]
    assert "0 mismatches" in done.stdout


@needs_core
def test_three_threes_force_the_next_player_to_play_three_twos():
    rules = load_rules("classic").replace(three_threes_force_twos=True)
    hands = ["3D 3C 3H 5S 6S", "2D 2C 2H 9S", "4D 4C 7H", "8D 8C TD"]
    g = Game(rules, hands=hands)
    r = native.core().Round(native.tables(g.ev), list(g._hands), g.to_move, g._required)
    lead = g.legal_plays()[[p.kind for p in g.legal_plays()].index("triple")]
    g.apply(lead)
    r.apply(lead.mask)
    assert g.to_move == 1
    assert [p.mask for p in g.legal_plays()] == r.legal_masks() == [parse_cards("2D 2C 2H").mask]  # no pass


def test_rules_show_says_which_engine_plays():
    from typer.testing import CliRunner

    from bigtwo.cli.app import app

    shown = CliRunner().invoke(app, ["rules", "show", "classic", "--set", "decks=2", "--set", "max_players=8"])
    assert shown.exit_code == 0, shown.output
    words = " ".join(shown.output.split())
    if native.available():
        assert "the compiled core does not cover two decks" in words
    else:
        assert "Engine: pure Python" in words


HOUSE_DECISIONS = Tally()


@pytest.mark.long
@needs_core
@pytest.mark.skipif(
    "BIGTWO_DIFF_HOUSE_RULES" not in os.environ, reason="a long run: set BIGTWO_DIFF_HOUSE_RULES=N, with -m long"
)
@settings(max_examples=int(os.environ.get("BIGTWO_DIFF_HOUSE_RULES", "1000")), database=None)
@given(house_rules(), st.integers(0, 2**31 - 1))
def test_long_house_rules_run(drawn, seed):
    """``BIGTWO_DIFF_HOUSE_RULES`` drawn house rules, four rounds each, through both engines; the count is
    printed by the next test (with ``-s``)."""
    rules, players = drawn
    if not native.covers(rules):
        return
    tally = compare_rules(rules, players, rounds=4, seed=seed)
    HOUSE_DECISIONS.add(tally)
    assert not tally.mismatches, "\n".join(tally.mismatches[:3])


@pytest.mark.long
def test_long_house_rules_run_counted(request):
    """Runs after test_long_house_rules_run: its decisions in all (printed with ``-s``)."""
    if "BIGTWO_DIFF_HOUSE_RULES" not in os.environ:
        pytest.skip("a long run: set BIGTWO_DIFF_HOUSE_RULES=N, with -m long")
    print(f"house rules: {HOUSE_DECISIONS.decisions} decisions, {HOUSE_DECISIONS.rounds} rounds, 0 mismatches")


@needs_core
@pytest.mark.parametrize("name", PRESETS)
def test_a_round_taken_up_in_the_middle_plays_on_as_the_reference(name):
    """``native.round_of`` copies a position in the middle of the play phase: both engines play on alike."""
    rng = random.Random(name)
    rules = load_rules(name)
    tally = Tally()
    for _ in range(6):
        g = Game(rules, seed=rng.randrange(1 << 30), native=False)
        for _ in range(rng.randrange(30)):
            if g.is_over:
                break
            g.apply(rng.choice(g.legal_plays()))
        if not g.is_over:
            tally.add(compare_round(g, rng))
    assert not tally.mismatches, "\n".join(tally.mismatches[:3])


@needs_core
@pytest.mark.parametrize("players", [2, 3, 4])
def test_drawing_from_the_stock_on_a_pass_matches_the_reference(players):
    rules = load_rules("classic").replace(draw_on_pass=True, leftover="stock", deal="fixed", hand_size=7)
    assert native.covers(rules)
    tally = compare_rules(rules, players, rounds=12, seed=players)
    assert_clean(tally)


@needs_core
@pytest.mark.parametrize("name", PRESETS)
def test_beats_matches_the_reference(name):
    rng = random.Random(name)
    rules = load_rules(name)
    g = Game(rules, seed=rng.randrange(1 << 30))
    t = native.tables(g.ev)
    plays = [p for h in g._hands for p in HandIndex.build(g.ev, h).plays]
    for _ in range(400):
        a, b = rng.choice(plays), rng.choice(plays)
        assert t.beats(a.mask, b.mask) == g.ev.beats(a, b), (str(a), str(b))
    with pytest.raises(ValueError, match="not a combination"):
        t.beats(plays[0].mask, 1 << 60)


@needs_core
@pytest.mark.parametrize("players", [2, 3, 4])
def test_valueless_jokers_match_the_reference(players):
    rules = load_rules("classic").replace(jokers=2, joker_mode="valueless")
    assert native.covers(rules)
    assert_clean(compare_rules(rules, players, rounds=12, seed=players))
