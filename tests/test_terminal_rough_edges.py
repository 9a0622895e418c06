"""The terminal's rough edges of issue 89, each reproduced: --ascii at the full-screen table, the seat list's
headings and bots named without their options, a notice below 80x24, undo taking the taken-back plays out of
the log, and quitting the line-by-line table offering to save."""

from __future__ import annotations

import asyncio

from bigtwo import load_rules
from bigtwo.cli.plain import PlainTable
from bigtwo.cli.session import TableSession
from bigtwo.cli.tui import InfoScreen, TableApp
from tests.screen import screen_text

SUITS = "♦♣♥♠"


def screen_of(session: TableSession, size=(80, 24)) -> tuple[str, str]:
    table = TableApp(session, delay=0)
    out: dict[str, str] = {}

    async def scenario():
        async with table.run_test(size=size) as pilot:
            await pilot.pause()
            out["screen"] = screen_text(table)
            out["message"] = str(table.query_one("#message").render())

    asyncio.run(scenario())
    return out["screen"], out["message"]


def test_ascii_reaches_the_full_screen_table():
    screen, _ = screen_of(TableSession(load_rules("classic"), seed=12, ascii_cards=True))
    assert not any(s in screen for s in SUITS), screen
    screen, _ = screen_of(TableSession(load_rules("classic"), seed=12))
    assert any(s in screen for s in SUITS)


def test_the_seat_list_has_headings_and_bots_by_name():
    session = TableSession(load_rules("classic"), seed=12, bots="search(iterations=40)", rounds=2)
    screen, _ = screen_of(session)
    assert "player" in screen and "cards" in screen and "total" in screen
    assert "iterations" not in screen and "Ana search" in screen


def test_a_terminal_below_80x24_is_told():
    _, message = screen_of(TableSession(load_rules("classic"), seed=12), size=(70, 20))
    assert "70x20" in message and "80x24" in message and "--plain" in message
    _, message = screen_of(TableSession(load_rules("classic"), seed=12), size=(80, 24))
    assert "80x24" not in message


def play_until_mine_is_answered(s: TableSession) -> str:
    """Play the hinted move at each of the person's turns until a bot has answered one of them; return the
    person's last play as the log wrote it."""
    mine = None
    while True:
        s.sync_log()
        if s.human_to_move:
            before = len(s.log)
            s.act(s.hint().answer)
            s.sync_log()
            lines = [line for line in s.log[before:] if line.startswith("You play")]
            mine = lines[0] if lines else mine
        elif s.bot_to_move:
            s.bot_step()
            s.sync_log()
            if mine is not None and s.log[-1] != mine:
                return mine


def test_undo_takes_the_plays_back_out_of_the_log():
    s = TableSession(load_rules("classic"), seed=12)
    mine = play_until_mine_is_answered(s)
    assert mine in s.log
    assert s.undo()
    s.sync_log()
    assert mine not in s.log and s.log[-1] == "[dim]You take back your turn.[/dim]"
    assert s.log_cut is not None


def test_quitting_the_plain_table_offers_to_save(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    typed = iter(["quit", ""])  # quit, then Enter: save under the usual name
    table = PlainTable(load_rules("classic"), seed=3, delay=0, input_fn=lambda _p: next(typed), offer_save=True)
    table.run()
    saved = list(tmp_path.glob("bigtwo-classic-*.txt"))
    assert len(saved) == 1 and saved[0].read_text().startswith('[Format "bigtwo-record/1"]')
    typed = iter(["quit", "no"])
    PlainTable(load_rules("classic"), seed=3, delay=0, input_fn=lambda _p: next(typed), offer_save=True).run()
    assert len(list(tmp_path.glob("bigtwo-classic-*.txt"))) == 1


def test_enter_takes_a_hinted_exchange_answer():
    s = TableSession(load_rules("president"), seed=1, bots="greedy", rounds=2)
    while not (s.human_to_move and s.decision is not None and s.decision["kind"] == "ask"):
        s.act(s.hint().answer) if s.human_to_move else s.bot_step()
    asked = s.decision
    table = TableApp(s, delay=0)

    async def scenario():
        async with table.run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            while isinstance(table.screen, InfoScreen):  # the last round's result, over the table
                await pilot.press("escape")
                await pilot.pause()
            await pilot.press("slash", *"hint", "enter")  # the answer is typed: the hint is asked for there too
            await pilot.pause()
            assert "enter takes it" in str(table.query_one("#message").render())
            await pilot.press("enter")
            await pilot.pause()
            assert s.decision != asked  # answered: the question moved on (or the exchange ended)

    asyncio.run(scenario())


def test_the_status_box_shows_each_answer_whole_and_the_names_fit():
    s = TableSession(load_rules("president"), seed=1, bots="greedy", rounds=2)
    while not (s.human_to_move and s.decision is not None and s.decision["kind"] == "ask"):
        s.act(s.hint().answer) if s.human_to_move else s.bot_step()
    s.act(s.hint().answer)  # one question asked: its answer took a card
    taken = s.decision["answers"][0]["cards"]
    table = TableApp(s, delay=0)
    out: dict[str, str] = {}

    async def scenario():
        async with table.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            while isinstance(table.screen, InfoScreen):
                await pilot.press("escape")
                await pilot.pause()
            out["screen"] = screen_text(table)

    asyncio.run(scenario())
    lines = out["screen"].splitlines()
    status = " ".join(line[46:].strip("│╭╮╰╯─ ") for line in lines[1:10])  # the box right of the seats (46 wide)
    assert f"Asked: highest: takes {s.words.cards(taken)}" in " ".join(status.split())
    assert all(f"{name} greedy" in out["screen"] for name in ("Ana", "Ben", "Chloe"))  # whole names beside headings
