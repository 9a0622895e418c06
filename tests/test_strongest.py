"""The default opponent: the strongest bot that answers within the table's delay (bots/strength.py, strength.toml)."""

from __future__ import annotations

import pytest

from bigtwo import load_rules
from bigtwo.bots import BOTS, make
from bigtwo.bots.registry import cannot_play
from bigtwo.bots.strength import (
    ISEARCH,
    LEARNED,
    QUICK,
    SEARCH,
    STRENGTH,
    TABLE_STRENGTH,
    UNNOTICED_SECONDS,
    strongest_bot,
)
from bigtwo.cli.session import TableSession


@pytest.mark.parametrize("order", [STRENGTH, *TABLE_STRENGTH.values()])
def test_every_place_in_the_order_is_a_registered_bot_and_the_order_is_by_time(order):
    assert [s.name for s in order if s.name not in BOTS] == []
    assert sorted(s.name for s in order) == sorted(s.name for s in STRENGTH)  # a table reorders, never drops
    # a quicker bot never stands above a slower one it has not been measured to beat: thinking bots first
    thinking = [s.thinks for s in order]
    assert thinking == sorted(thinking, reverse=True)
    quick = [s.seconds for s in order if not s.thinks]
    assert quick == sorted(quick, reverse=True)
    assert all(s.evidence for s in order if s.name not in ("greedy", "random"))


def test_a_table_measured_otherwise_follows_its_own_order(monkeypatch):
    """A table with an order of its own follows it (found by the rules' settings, so a renamed preset too); any
    other table follows classic's four-player order."""
    classic = load_rules("classic")
    search_first = (SEARCH, ISEARCH, LEARNED, *QUICK)
    monkeypatch.setitem(TABLE_STRENGTH, ("classic", 3), search_first)
    assert strongest_bot(classic, 3, 0.4) == ("search", {"budget_ms": 400})
    assert strongest_bot(classic, 4, 0.4) == ("isearch", {"budget_ms": 400})
    assert strongest_bot(classic, 3, 0.05) == ("learned", {})
    house = classic.replace(name="my-classic", suit_order="CDHS")  # another table: classic's four-player order
    assert strongest_bot(house, 3, 0.4) == ("isearch", {"budget_ms": 400})
    renamed = classic.replace(name="my-classic", description="as we play it")  # classic by its settings
    assert strongest_bot(renamed, 3, 0.4) == ("search", {"budget_ms": 400})
    assert strongest_bot(renamed, 3, 0.05) == ("learned", {})
    assert strongest_bot(load_rules("singapore"), 3, 0.4) == ("search", {"budget_ms": 400})  # classic's settings
    # the same game with the suits renamed (Taiwan's rules are classic's so): classic's order and network
    assert strongest_bot(load_rules("taiwan"), 3, 0.4) == ("search", {"budget_ms": 400})
    assert strongest_bot(load_rules("taiwan"), 3, 0.05) == ("learned", {})


def test_three_player_classic_is_ordered_by_its_own_measurements():
    """With the stage 2 network isearch is ahead of search at three players too, so the table's order, with
    its own evidence, is the four-player order."""
    order = TABLE_STRENGTH[("classic", 3)]
    assert [s.name for s in order] == [s.name for s in STRENGTH]
    assert all("three players" in s.evidence for s in order[:3])
    assert strongest_bot(load_rules("classic"), 3, 0.4) == ("isearch", {"budget_ms": 400})


@pytest.mark.parametrize(
    ("preset", "delay", "budget", "expected"),
    [
        ("classic", 0.0, None, ("learned", {})),  # weights for classic: the learned bot, under 2 ms a move
        ("winner", 0.0, None, ("heuristic", {})),  # no weights: the heuristic
        ("pusoy-dos", 0.0, None, ("learned", {})),  # classic's rounds with the suits renamed: classic's network
        ("pusoy-dos", 0.4, None, ("search", {"budget_ms": 400})),  # measured there: isearch not ahead of search
        ("classic", 0.1, None, ("learned", {})),  # too short for a search to be worth its place
        ("classic", 0.4, None, ("isearch", {"budget_ms": 400})),  # the search thinks for the whole delay
        ("winner", 0.8, 500.0, ("isearch", {"budget_ms": 500})),  # at most the server's budget
        ("classic", 0.8, 150.0, ("learned", {})),  # a budget under the search's least: a quick bot
    ],
)
def test_the_strongest_bot_that_fits_the_delay(preset, delay, budget, expected):
    rules = load_rules(preset)
    got = strongest_bot(rules, rules.players, delay, budget)
    assert got == expected
    name, options = got
    assert cannot_play(name, rules, rules.players) is None
    assert options.get("budget_ms", 0) <= 1000 * max(delay, UNNOTICED_SECONDS)
    make(name, seed=1, **options)  # options the bot takes


def test_a_bot_that_is_missing_or_cannot_play_is_passed_over(monkeypatch):
    rules = load_rules("classic")
    monkeypatch.delitem(BOTS, "isearch")
    assert strongest_bot(rules, 4, 0.5) == ("search", {"budget_ms": 500})
    # two players: the learned bot has no weights for that table; three players: a network of their own
    assert cannot_play("learned", rules, 2) is not None
    assert strongest_bot(rules, 2, 0.0) == ("heuristic", {})
    assert strongest_bot(rules, 3, 0.0) == ("learned", {})


def test_the_terminal_tables_default_is_chosen_by_their_delay():
    classic = load_rules("classic")
    session = TableSession(classic, seed=3, delay=0.3)
    assert {s.label for s in session.specs.values()} == {"isearch(budget_ms=300)"}
    assert all(b.budget_ms == 300 for b in session.bots.values())
    assert {s.name for s in TableSession(classic, seed=3).specs.values()} == {"learned"}
    assert {s.name for s in TableSession(load_rules("winner"), seed=3).specs.values()} == {"heuristic"}
    assert {s.name for s in TableSession(classic, seed=3, bots="greedy", delay=0.3).specs.values()} == {"greedy"}


def test_a_bots_answer_from_another_thread_is_dropped_if_the_table_moved_on():
    first = TableSession(load_rules("classic"), seed=3, bots="greedy").to_move
    session = TableSession(load_rules("classic"), seed=3, bots="greedy", seat=(first + 1) % 4)
    turn = session.bot_to_think()
    assert turn is not None
    seat, obs = turn
    answer = session.bot_choose(seat, obs)
    assert session.bot_answer(seat, obs, answer)
    assert not session.bot_answer(seat, obs, answer)  # the same answer again: the table has moved on
