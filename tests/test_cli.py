"""The first `bigtwo` command: rules list / show, and a whole game of `bigtwo play` (engine core, item 7)."""

import io

import pytest
from rich.console import Console
from typer.testing import CliRunner

from bigtwo import list_presets, load_rules
from bigtwo.bots import make
from bigtwo.cli import app
from bigtwo.cli.plain import PlainTable

runner = CliRunner()


def test_rules_list_names_every_preset():
    res = runner.invoke(app, ["rules", "list"])
    assert res.exit_code == 0
    for name in list_presets():
        assert name in res.output


def test_rules_show_lists_every_setting():
    res = runner.invoke(app, ["rules", "show", "house-code"], env={"COLUMNS": "200"})
    assert res.exit_code == 0
    for key in (
        "suit_order",
        "straight_table",
        "no-twos",
        "flush_order",
        "suit-then-ranks",
        "trick_ends_on_out",
    ):
        assert key in res.output
    toml = runner.invoke(app, ["rules", "show", "taiwan", "--toml"])
    assert 'suit_order = "CDHS"' in toml.output


def test_unknown_rules_give_a_clear_error():
    res = runner.invoke(app, ["rules", "show", "clasic"])
    assert res.exit_code == 2 and "did you mean 'classic'" in res.output


def test_play_answers_illegal_input_and_continues():
    res = runner.invoke(app, ["play", "--seed", "1", "--delay", "0", "--ascii"], input="pass\n3D\nzz\nlegal\nquit\n")
    assert res.exit_code == 0, res.output
    assert "You do not hold 3D" in res.output  # the player's name, the table's card notation
    assert "'zz' is not a card" in res.output
    assert "pass" in res.output and "Bye." in res.output


@pytest.mark.parametrize("preset", ["classic", "taiwan", "house-code", "chor-dai-di", "bga"])
def test_a_whole_game_in_the_terminal(preset):
    """A scripted human (greedy choices, typed as notation, with a mistake and an undo) plays to the end."""
    out = io.StringIO()
    console = Console(file=out, width=120, highlight=False)
    helper = make("greedy", seed=3)
    holder = {}
    typed = {"mistake": False, "undo": False}

    def human(prompt: str) -> str:
        g = holder["table"].game
        if not typed["mistake"]:
            typed["mistake"] = True
            return "4S 4H 5D"
        if not typed["undo"] and len(g.history) > 8 and any(s == 0 for s, _ in g.history):
            typed["undo"] = True
            return "undo"
        p = helper.choose(g.rules, g.observe(g.to_move))
        return "pass" if p.is_pass else " ".join(str(c) for c in p.cards)

    table = PlainTable(load_rules(preset), seat=0, seed=4, delay=0, console=console, input_fn=human, ascii_cards=True)
    holder["table"] = table
    table.run()
    text = out.getvalue()
    assert table.game.is_over
    assert "Not allowed" in text
    assert text.count("Round over") == 1, "a single round ends once: order, scores and payments in one place"
    assert ("Ranking only" if table.game.rules.ranks_only else "Scores: ") in text


@pytest.mark.parametrize(("preset", "players"), [("winner", 4), ("zheng-shangyou", 5), ("tien-len", 4), ("winner", 3)])
def test_the_family_plays_whole_games_in_the_terminal(preset, players):
    """`bigtwo play --rules winner` and `--rules zheng-shangyou --players 5` play whole games; a single round of
    Zheng Shangyou begins with its pass-around, as a match's first round does (004 Variations, "Pass-around")."""
    helper = make("greedy", seed=1)
    holder = {}

    def human(prompt: str) -> str:
        session = holder["table"].session
        if session.decision is not None:
            given = helper.choose(session.rules, session.observe())
            return " ".join(str(c) for c in given.cards) if hasattr(given, "cards") else str(given)
        g = holder["table"].game
        p = helper.choose(g.rules, g.observe(g.to_move))
        return "pass" if p.is_pass else " ".join(str(c) for c in p.cards)

    out = io.StringIO()
    table = PlainTable(
        load_rules(preset),
        players=players,
        seat=0,
        seed=5,
        delay=0,
        console=Console(file=out, width=120),
        input_fn=human,
        ascii_cards=True,
    )
    holder["table"] = table
    table.run()
    text = out.getvalue()
    assert table.game.is_over and "Round over:" in text
    assert ("You give 3 cards to" in text) == (preset == "zheng-shangyou")
    assert "Match over" not in text and "A match of" not in text
    res = runner.invoke(
        app, ["play", "--rules", preset, "--players", str(players), "--seed", "2", "--delay", "0"], input="quit\n"
    )
    assert res.exit_code == 0, res.output


@pytest.mark.parametrize("preset", list_presets())
def test_rules_show_toml_is_valid_toml_for_every_preset(preset):
    """`bigtwo rules show NAME --toml > our.toml` (not a terminal: nothing wrapped) loads back as the same rules."""
    import tomllib

    from bigtwo.rules.ruleset import Ruleset

    res = runner.invoke(app, ["rules", "show", preset, "--toml"], env={"COLUMNS": "80"})
    assert res.exit_code == 0, res.output
    data = tomllib.loads(res.output)
    assert Ruleset.from_dict(data, source=preset) == load_rules(preset)


def test_rules_show_toml_through_a_pipe():
    import subprocess
    import sys
    import tomllib

    out = subprocess.run(
        [sys.executable, "-m", "bigtwo", "rules", "show", "winner", "--toml"],
        capture_output=True,
        text=True,
        check=True,
        env={**__import__("os").environ, "COLUMNS": "60"},
    ).stdout
    assert tomllib.loads(out)["description"] == load_rules("winner").description


def test_a_table_of_huge_hands_opens_with_a_warning():
    """Tien Len for two with the undealt cards given to one player deals a 39-card hand, whose first turn has over
    half a million plays: the server refuses it; the terminal, the player's own machine, opens it and says why it
    may be slow. A preset's table says nothing of the kind."""
    from bigtwo.cli.session import TableSession

    huge = TableSession(load_rules("tien-len").replace(leftover="dealer"), players=2, seed=1, bots="random")
    said = [line for line in huge.log if "39 cards at a table of 2" in line]
    assert said and "many seconds a move" in said[0], huge.log
    plain = TableSession(load_rules("winner"), players=2, seed=1, bots="random")  # 26 cards: every preset's most
    assert not any("cards at a table of" in line for line in plain.log), plain.log


def test_a_single_round_with_a_first_round_exchange_reads_as_one_round_at_the_full_screen_table():
    """A single round of Zheng Shangyou is a match of one round underneath (its pass-around is an exchange),
    but the full-screen table speaks of a round: no 'round 1 of 1' in the title, no match totals by the seats."""
    from bigtwo.cli.session import TableSession
    from bigtwo.cli.tui import seats_table, title_line

    s = TableSession(load_rules("zheng-shangyou"), seed=3, bots="greedy")
    assert s.one_round and s.match is not None and s.phase == "exchange"
    assert "round" not in title_line(s, None).plain
    assert [c.header for c in seats_table(s).columns][-1] != "total"
    rounds = TableSession(load_rules("zheng-shangyou"), seed=3, bots="greedy", rounds=2)
    assert "round 1 of 2" in title_line(rounds, None).plain
    assert [c.header for c in seats_table(rounds).columns][-1] == "places"  # place-scored: named for what it holds


def test_an_empty_line_plays_only_the_hint_given_on_the_line_before():
    """A hint belongs to its position: after an undo (or a mistyped play) an empty line plays nothing, where it
    once played a card hinted for the position the undo left."""
    lines = ["6d", "h", "undo", "", "h", "foo", "", "quit"]
    res = runner.invoke(
        app, ["play", "--plain", "--seed", "1", "--bots", "greedy", "--delay", "0"], input="\n".join(lines) + "\n"
    )
    assert res.exit_code == 0, res.output
    after = res.output.split("You take back your turn.")[1]
    assert "Hint:" in after and "You play" not in after, after
    res = runner.invoke(
        app, ["play", "--plain", "--seed", "1", "--bots", "greedy", "--delay", "0"], input="h\n\nquit\n"
    )
    assert res.output.split("Hint:")[1].count("You play") == 1  # the hint itself is still played by enter


def test_a_house_rules_file_is_announced_with_its_changes(tmp_path):
    """`bigtwo play --rules our.toml` says what the file changed, not only the words of the preset it builds on."""
    path = tmp_path / "our.toml"
    path.write_text('base = "classic"\nname = "our table"\n[play]\npass_locks_out = true\n')
    res = runner.invoke(
        app,
        ["play", "--plain", "--rules", str(path), "--delay", "0", "--bots", "greedy"],
        input="quit\n",
        env={"COLUMNS": "200"},
    )
    assert res.exit_code == 0, res.output
    assert "our table - classic with changes: pass_locks_out = true." in res.output


def test_a_rules_file_that_sets_a_match_plays_that_match(tmp_path):
    """A group's file with match_rounds (or a points target) plays that match without --rounds; --rounds still
    decides; a file of settings alone is known by its file's name and described by what it changes."""
    ours = tmp_path / "our-rules.toml"
    ours.write_text("[match]\nmatch_rounds = 2\n")
    res = runner.invoke(app, ["play", "--rules", str(ours), "--plain", "--delay", "0", "--seed", "1"], input="quit\n")
    assert res.exit_code == 0, res.output
    assert "our-rules - classic's settings with changes: match_rounds = 2" in res.output
    assert "A match of 2 rounds." in res.output
    args = ["play", "--rules", str(ours), "--rounds", "3", "--plain", "--delay", "0", "--seed", "1"]
    assert "A match of 3 rounds." in runner.invoke(app, args, input="quit\n").output
    plain = runner.invoke(app, ["play", "--plain", "--delay", "0", "--seed", "1"], input="quit\n").output
    assert "A match of" not in plain  # a preset leaves the match to the table: one round
    assert load_rules("classic").match_set is None and all(load_rules(p).match_set is None for p in list_presets())
    assert load_rules("classic").replace(match_end="points", match_points=30).match_set == (None, 30)
