"""The full-screen table and the replay viewer, driven with Textual's own test pilot (App.run_test)."""

import asyncio
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bigtwo import CardSet, Play, load_rules
from bigtwo.bots import BOTS
from bigtwo.bots.simple import GreedyBot
from bigtwo.cli import app as cli_app
from bigtwo.cli.replay_view import ReplayApp
from bigtwo.cli.session import TableSession, bot_specs, parse_bot_spec
from bigtwo.cli.tui import InfoScreen, SaveScreen, TableApp
from bigtwo.cli.words import card_face
from bigtwo.errors import BigTwoError
from bigtwo.record import format_text, load_record, replay
from bigtwo.record.frames import frames_of
from bigtwo.words import TABLE_NAMES
from tests.screen import screen_text

runner = CliRunner()


def run(coro):
    return asyncio.run(coro)


async def settle(pilot, app):
    await pilot.pause()


async def human_turn(pilot, app):
    """Play the human's turn as the hint says: the suggested cards (preselected) or a pass; typed answers."""
    s = app.session
    d = s.decision
    if d is not None and d["kind"] in ("ask", "demand"):
        await pilot.press("slash")
        app.query_one("#entry").value = str(s.hint().answer)
        await pilot.press("enter")
    else:
        await pilot.press("h")
        await pilot.press("enter" if app.hand.selected_mask else "p")
    await settle(pilot, app)


def test_a_whole_game_at_80x24_with_a_mistake_a_hint_an_undo_a_save_and_a_replay(tmp_path):
    session = TableSession(load_rules("classic"), seed=12, date="2025-06-01")
    table = TableApp(session, delay=0)
    path = tmp_path / "game.txt"

    async def scenario():
        async with table.run_test(size=(80, 24)) as pilot:
            await settle(pilot, table)
            screen = screen_text(table)
            assert "Your hand" in screen and "Ana learned" in screen  # the default opponent: quickest strong
            assert all(len(line) <= 80 for line in screen.splitlines()) and len(screen.splitlines()) <= 24
            g = session.game
            assert session.human_to_move
            # an illegal selection: the first and last cards of the hand make no combination
            hand = table.hand.cards
            await pilot.press("space", "end", "space")
            chosen = CardSet(1 << int(hand[0]) | 1 << int(hand[-1]))
            assert table.hand.selected_mask == chosen.mask
            await pilot.press("e")
            reason = session.words.render(g.why_not(chosen))  # in the table's words and card faces
            assert reason and reason in screen_text(table)
            before = len(g.history)
            await pilot.press("enter")
            assert len(g.history) == before and "Not allowed: " + reason in screen_text(table)
            # a hint preselects its cards and says whose suggestion it is (the heuristic bot's)
            await pilot.press("c", "h")
            hint = session.hint()
            assert hint.source == "heuristic" and hint.text.startswith("Hint: ")
            assert "Hint: " in screen_text(table) and table.hand.selected_mask == hint.cards
            await pilot.press("enter")
            await settle(pilot, table)
            mine = [i for i, (s, _p) in enumerate(g.history) if s == 0]
            assert mine and g.history[mine[-1]][1].mask == hint.cards
            # undo takes back the human's turn and the answers after it
            await pilot.press("u")
            await settle(pilot, table)
            assert len(g.history) == mine[-1] and session.human_to_move
            assert any("You take back your turn." in line for line in session.log)
            # typed notation plays too
            legal = next(p for p in g.legal_plays() if not p.is_pass)
            await pilot.press("slash")
            table.query_one("#entry").value = " ".join(str(c).lower() for c in legal.cards)
            await pilot.press("enter")
            await settle(pilot, table)
            assert g.history[mine[-1]][1] == legal
            while not isinstance(table.screen, InfoScreen):
                await human_turn(pilot, table)
            assert g.is_over and "Round over" in screen_text(table)
            # the scoring details under the result name the players, in the table's words
            assert re.search(r"(You pay|Seat \d pays) \d+", screen_text(table))
            assert not re.search(r"\bseat \d", screen_text(table))
            # save from the end of the game: the save panel asks where
            await pilot.press("s")
            await settle(pilot, table)
            assert isinstance(table.screen, SaveScreen)
            table.screen.query_one("#path").value = str(path)
            await pilot.press("enter")
            await settle(pilot, table)
        return table

    run(scenario())
    rec = load_record(path)
    assert format_text(rec) == format_text(session.record())
    again = replay(rec)
    assert again.result.scores == session.single.result.scores
    assert rec.names[0] == "you" and rec.result != "*"

    viewer = ReplayApp(rec, frames_of(rec))

    async def watch():
        async with viewer.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            first = screen_text(viewer)
            assert "step 0/" in first and "The deal" in first
            for seat, hand in enumerate(rec.rounds[0].game.hands):  # every hand is visible, by name
                name = "You" if seat == 0 else f"{TABLE_NAMES[seat - 1]} learned"
                assert name in first and hand.split()[0].replace("T", "10")[:-1] in first
            assert "P0" not in first and "P1" not in first
            await pilot.press("right", "right", "right")
            assert viewer.index == 3 and "step 3/" in screen_text(viewer)
            await pilot.press("left")
            assert viewer.index == 2
            await pilot.press("down")
            assert viewer.frame.trick_number == 2
            await pilot.press("end")
            assert viewer.index == len(viewer.frames) - 1 and "the deal is over" in screen_text(viewer)
            await pilot.press("home")
            assert viewer.index == 0

    run(watch())


def test_a_match_with_exchanges_scores_between_rounds_and_a_saved_record(tmp_path):
    """president: the human is a president or a bum in round 2 and answers by selection or typing."""
    path = tmp_path / "match.json"
    session = TableSession(load_rules("president"), seed=3, rounds=2, date="2025-06-01")
    table = TableApp(session, delay=0, save_path=path)
    seen = {"scores": 0, "decisions": set()}

    async def scenario():
        async with table.run_test(size=(80, 24)) as pilot:
            await settle(pilot, table)
            for _ in range(400):
                if isinstance(table.screen, InfoScreen):
                    seen["scores"] += "Scores after round" in screen_text(table) or "Match over" in screen_text(table)
                    if session.is_over:
                        break
                    await pilot.press("enter")
                    await settle(pilot, table)
                    continue
                if session.decision:
                    seen["decisions"].add(session.decision["kind"])
                    assert "Exchanges before the play" in screen_text(table)
                await human_turn(pilot, table)

    run(scenario())
    assert session.is_over and seen["scores"] == 2
    assert seen["decisions"]  # the human took part in the exchanges
    rec = load_record(path)  # saved on its own when the match ended (--save)
    assert rec.kind == "match" and replay(rec).totals == session.match.totals
    assert any(r.trades for r in rec.rounds)


def test_the_table_fits_80x24_with_eight_players():
    session = TableSession(load_rules("house-code"), players=8, seed=2, bots="random")
    table = TableApp(session, delay=0)

    async def scenario():
        async with table.run_test(size=(80, 24)) as pilot:
            await settle(pilot, table)
            screen = screen_text(table)
            for seat in range(1, 8):
                assert f"{TABLE_NAMES[seat - 1]} random" in screen
            assert "Your hand" in screen

    run(scenario())


@pytest.mark.parametrize(
    ("preset", "players", "said"),
    [("classic", 4, "↺ Play passes to the right"), ("house-code", 8, "↻ Play passes to the left")],
)
def test_the_list_of_players_says_which_way_play_goes_whole_at_80x24(preset, players, said):
    session = TableSession(load_rules(preset), players=players, seed=2, bots="random")
    table = TableApp(session, delay=0)

    async def scenario():
        async with table.run_test(size=(80, 24)) as pilot:
            await settle(pilot, table)
            screen = screen_text(table)
            assert said in screen, screen
            assert f"{TABLE_NAMES[players - 2]} random" in screen  # the last player is still listed

    run(scenario())


def test_bot_kinds_and_options(monkeypatch):
    assert [str(b) for b in bot_specs("greedy, random", 2)] == ["greedy", "random"]
    assert [b.name for b in bot_specs("random", 3)] == ["random"] * 3
    with pytest.raises(BigTwoError, match=r"no bot named 'grabby'; bots: .*greedy"):
        parse_bot_spec("grabby")
    with pytest.raises(BigTwoError, match="lists 2 players; this table needs 3"):
        bot_specs("greedy,random", 3)
    with pytest.raises(BigTwoError, match="options are written"):
        parse_bot_spec("greedy(3)")

    class Tunable(GreedyBot):
        name = "tunable"

        def __init__(self, seed=None, strength=1):
            super().__init__(seed)
            self.strength = strength

    monkeypatch.setitem(BOTS, "tunable", Tunable)
    path = str(Path(__file__).resolve().parents[1] / "src" / "bigtwo" / "bots" / "weights" / "classic-4p.npz")
    net = parse_bot_spec(path)  # a network's file: the learned bot plays it
    assert (net.name, net.options) == ("learned", {"weights": path})
    assert (
        type(TableSession(load_rules("classic"), seed=1, bots=f"{path},greedy,random").bots[1]).__name__ == "LearnedBot"
    )
    spec = parse_bot_spec("tunable(strength=3)")
    assert spec.build(1).strength == 3 and str(spec) == "tunable(strength=3)"
    session = TableSession(load_rules("classic"), seed=1, bots="tunable(strength=2),greedy,random")
    assert session.bots[1].strength == 2 and session.record_names()[1] == "Ana (tunable(strength=2))"
    with pytest.raises(BigTwoError, match="greedy has no option 'strength'; it takes none"):
        parse_bot_spec("greedy(strength=2)").build(1)


def test_the_hint_uses_the_heuristic_bot_and_its_reason(monkeypatch):
    class Heuristic(GreedyBot):
        name = "heuristic"

        def explain(self, rules, obs):
            play = self.choose(rules, obs)
            return play, "it keeps the pairs together"

    monkeypatch.setitem(BOTS, "heuristic", Heuristic)
    session = TableSession(load_rules("classic"), seed=4)
    while not session.human_to_move:
        session.bot_step()
    h = session.hint()
    assert h.source == "heuristic" and h.text.endswith(": it keeps the pairs together")
    assert h.cards == session.game.legal_plays()[0].mask


def test_explain_says_why_or_that_it_is_legal():
    session = TableSession(load_rules("classic"), seed=4)
    while not session.human_to_move:
        session.bot_step()
    g = session.game
    ok, text = session.explain(g.legal_plays()[0].mask)
    assert ok and "legal" in text
    cards = list(g.hand(0))
    ok, text = session.explain(1 << int(cards[0]) | 1 << int(cards[-1]))
    assert not ok and text == session.words.render(g.why_not(CardSet(1 << int(cards[0]) | 1 << int(cards[-1]))))


def test_bigtwo_replay_plain_and_check(tmp_path):
    session = TableSession(load_rules("zheng-shangyou"), seed=8, rounds=2, bots="random")
    while not session.is_over:
        session.act(session.hint().answer) if session.human_to_move else session.bot_step()
    path = session.save(tmp_path / "zsy.txt")
    res = runner.invoke(cli_app, ["replay", str(path), "--plain"], env={"COLUMNS": "120"})
    assert res.exit_code == 0, res.output
    assert "Round 2: " in res.output and "Totals: You " in res.output
    assert not re.search(r"\bP\d\b", res.output)  # names, not the record's seat tokens
    assert "You play" in res.output and "Ana plays" in res.output
    res = runner.invoke(cli_app, ["replay", str(path), "--plain", "--at", "5"], env={"COLUMNS": "120"})
    assert res.exit_code == 0 and "Step 5 of" in res.output
    res = runner.invoke(cli_app, ["replay", str(path), "--plain", "--at", "4000"], env={"COLUMNS": "120"})
    assert res.exit_code == 2 and "--at 4000: the record" in res.output and "has steps 0-" in res.output
    res = runner.invoke(cli_app, ["replay", str(path), "--check"], env={"COLUMNS": "200"})
    assert res.exit_code == 0 and "a valid record" in res.output
    text = path.read_text().replace("[Round 2]", "[Round 3]")
    bad = tmp_path / "bad.txt"
    bad.write_text(text)
    res = runner.invoke(cli_app, ["replay", str(bad), "--plain"], env={"COLUMNS": "200"})
    line = text.splitlines().index("[Round 3]") + 1
    assert res.exit_code == 2 and f"line {line}: round 3 is out of order" in res.output
    assert res.output.count(str(bad)) == 1, "the file is named once"
    missing = tmp_path / "nofile.txt"
    res = runner.invoke(cli_app, ["replay", str(missing)], env={"COLUMNS": "200"})
    assert res.exit_code == 2 and res.output.strip() == f"no record file at {missing}"
    res = runner.invoke(cli_app, ["replay", str(tmp_path)], env={"COLUMNS": "200"})
    assert res.exit_code == 2 and res.output.strip() == f"{tmp_path} is a directory, not a record"


def test_play_refuses_a_delay_that_is_no_pause():
    for delay in ("-1", "nan", "inf"):
        res = runner.invoke(cli_app, ["play", "--plain", "--delay", delay], input="quit\n", env={"COLUMNS": "200"})
        assert res.exit_code == 2 and "a computer player's pause is a number of seconds, 0 or more" in res.output


def test_play_plain_saves_the_record(tmp_path):
    path = tmp_path / "plain.txt"
    res = runner.invoke(
        cli_app, ["play", "--plain", "--seed", "1", "--delay", "0", "--save", str(path)], input="quit\n"
    )
    assert res.exit_code == 0, res.output
    rec = load_record(path)
    assert rec.result == "*" and replay(rec).history  # the bots' plays before the human quit


def test_the_table_shows_no_other_seats_cards():
    """Hidden information: nothing on the screen names a card another seat still holds."""
    from bigtwo.cli.session import card_face

    session = TableSession(load_rules("classic"), seed=21, bots="random")
    table = TableApp(session, delay=0)

    async def scenario():
        async with table.run_test(size=(80, 24)) as pilot:
            await settle(pilot, table)
            while not session.is_over:
                screen = screen_text(table)
                g = session.game
                for seat in range(1, 4):
                    for c in g.hand(seat):
                        assert card_face(c) not in screen, (card_face(c), seat)
                await human_turn(pilot, table)

    run(scenario())


def test_computer_players_take_their_time_and_themes_apply():
    session = TableSession(load_rules("classic"), seed=5)
    table = TableApp(session, delay=0.01, theme="textual-light")

    async def scenario():
        async with table.run_test(size=(80, 24)) as pilot:
            for _ in range(50):
                if session.human_to_move:
                    break
                await pilot.pause(0.02)
            assert session.human_to_move and session.game.history  # the bots before you have played
            assert table.theme == "textual-light" and not table.current_theme.dark
            g = session.game
            leading, before = g.trick is None, len(g.history)
            await pilot.press("p")  # a pass on the lead is refused, with the reason; otherwise it is made
            if leading:
                assert "leads this trick and cannot pass" in screen_text(table) and len(g.history) == before
            else:
                assert g.history[before] == (0, Play.PASS)

    run(scenario())


def test_the_replay_viewer_steps_through_a_match():
    session = TableSession(load_rules("winner"), seed=4, rounds=2, bots="random")
    while not session.is_over:
        session.act(session.hint().answer) if session.human_to_move else session.bot_step()
    rec = session.record()
    frames = frames_of(rec)
    viewer = ReplayApp(rec, frames, theme="ansi-dark")

    async def watch():
        async with viewer.run_test(size=(80, 24)) as pilot:
            await pilot.press("n")
            assert viewer.frame.round == 2 and viewer.frame.label.startswith("Round 2")
            await pilot.press("p")
            assert viewer.frame.round == 1
            await pilot.press("end")
            assert viewer.frame.totals == session.match.totals
            assert "Totals:" in screen_text(viewer)

    run(watch())


def test_q_asks_before_leaving_and_offers_to_save(tmp_path):
    """q no longer quits at once: n (or esc) stays, s saves the record (unfinished) and then quits."""
    from bigtwo.cli.tui import QuitScreen

    session = TableSession(load_rules("classic"), seed=12)
    table = TableApp(session, delay=0)
    path = tmp_path / "left.txt"

    async def scenario():
        async with table.run_test(size=(80, 24)) as pilot:
            await settle(pilot, table)
            # an illegal typed play is answered in the player's words and card faces
            missing = next(c for c in session.rules.engine_for(4).sort_cards((1 << 52) - 1) if c not in session.hand())
            await pilot.press("slash")
            table.query_one("#entry").value = str(missing)
            await pilot.press("enter")
            await settle(pilot, table)
            assert f"Not allowed: You do not hold {card_face(missing)}" in screen_text(table)
            await pilot.press("escape", "q")
            await settle(pilot, table)
            assert isinstance(table.screen, QuitScreen) and table.is_running
            assert "Quit now? The game is not over." in screen_text(table) and "save the record" in screen_text(table)
            await pilot.press("n")
            await settle(pilot, table)
            assert not isinstance(table.screen, QuitScreen) and table.is_running and session.saved_to is None
            await pilot.press("q", "s")
            await settle(pilot, table)
            assert isinstance(table.screen, SaveScreen)
            table.screen.query_one("#path").value = str(path)
            await pilot.press("enter")
            await settle(pilot, table)
            assert not table.is_running  # saved, then left

    run(scenario())
    assert load_record(path).result == "*" and session.saved_to == path


def test_q_then_y_leaves_without_saving():
    session = TableSession(load_rules("classic"), seed=12)
    table = TableApp(session, delay=0)

    async def scenario():
        async with table.run_test(size=(80, 24)) as pilot:
            await settle(pilot, table)
            await pilot.press("q", "y")
            await settle(pilot, table)
            assert not table.is_running and session.saved_to is None

    run(scenario())


def test_a_long_exchange_answer_list_shows_every_answer_with_its_count():
    """president, seed 1: the human, president, steals by questions and may ask any of 53: `l` opens a panel
    that scrolls through all of them (no longer cut after three lines)."""
    session = TableSession(load_rules("president"), seed=1, rounds=2)
    while not (session.human_to_move and session.decision is not None and len(session.legal_choices()) > 40):
        session.act(session.hint().answer) if session.human_to_move else session.bot_step()
    legal = [session.describe(x) for x in session.legal_choices()]
    table = TableApp(session, delay=0)

    async def scenario():
        async with table.run_test(size=(80, 24)) as pilot:
            await settle(pilot, table)
            await pilot.press("escape", "l")  # from the entry line (a question is typed) back to the table keys
            await settle(pilot, table)
            assert isinstance(table.screen, InfoScreen)
            seen = set()
            screen = screen_text(table)
            assert f"{len(legal)} legal answers:" in screen
            for _ in range(12):  # scroll to the end, collecting what is shown
                rows = {m.group(1).strip() for m in re.finditer(r"█ (.*?)\s*█", screen)}  # the panel's lines
                seen |= rows & set(legal)
                if seen == set(legal):
                    break
                await pilot.press("pagedown")
                await settle(pilot, table)
                screen = screen_text(table)
            assert seen == set(legal)
            await pilot.press("escape")
            await settle(pilot, table)
            assert not isinstance(table.screen, InfoScreen) and session.human_to_move

    run(scenario())


def test_a_person_answers_a_deal_time_decision_at_the_full_screen_table():
    rules = load_rules("classic").replace(redeal_requests=("low-points",), redeal_points=100)
    session = TableSession(rules, seed=2, rounds=1, date="2025-06-01")
    table = TableApp(session, delay=0)

    async def scenario():
        async with table.run_test(size=(100, 30)) as pilot:
            await settle(pilot, table)
            assert session.decision is not None and session.decision["kind"] == "redeal"
            assert "Ask for a new deal? Press r" in screen_text(table)
            dealt = session.match.current.dealt
            await pilot.press("r")
            await settle(pilot, table)
            assert session.match.current.dealt != dealt
            assert session.match.current.deal_answers[0] == {"seat": 0, "kind": "redeal", "answer": "redeal"}
            while session.decision is not None and session.decision["kind"] == "redeal":
                await pilot.press("slash")
                table.query_one("#entry").value = "keep"
                await pilot.press("enter")
                await settle(pilot, table)
            assert session.match.phase == "play"

    run(scenario())
