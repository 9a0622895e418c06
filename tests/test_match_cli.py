"""`bigtwo play --rounds N`: a match in the terminal, with exchanges typed by the human (issue: matches)."""

import io
import random

import pytest
from rich.console import Console
from typer.testing import CliRunner

from bigtwo import load_rules
from bigtwo.bots import make
from bigtwo.cli import app
from bigtwo.cli.plain import PlainTable
from bigtwo.exchange import legal_exchange_choices

runner = CliRunner()


def scripted_table(preset, rounds=5, seed=4, players=None, **changes):
    """A plain match table whose human types: a wrong exchange answer first, then legal answers; greedy plays."""
    out = io.StringIO()
    console = Console(file=out, width=140, highlight=False)
    rules = load_rules(preset).replace(**changes) if changes else load_rules(preset)
    helper = make("greedy", seed=3)
    rng = random.Random(seed)
    holder = {}
    typed = {"bad exchange": False, "bad play": False, "exchanges": 0}

    def human(prompt: str) -> str:
        m = holder["table"].match
        obs = m.observe(0)
        if obs.phase == "exchange":
            if not typed["bad exchange"]:
                typed["bad exchange"] = True
                return "2S 2H 2D 2C AS" if obs.decision.kind != "ask" else "what are your three highest cards"
            typed["exchanges"] += 1
            choice = rng.choice(legal_exchange_choices(m.rules, obs))
            if isinstance(choice, str):
                return choice
            return str(choice) or "decline"
        if not typed["bad play"]:
            typed["bad play"] = True
            return "4S 4H 5D"
        p = helper.choose(m.rules, obs)
        return "pass" if p.is_pass else " ".join(str(c) for c in p.cards)

    table = PlainTable(
        rules,
        players=players,
        seat=0,
        seed=seed,
        rounds=rounds,
        delay=0,
        console=console,
        input_fn=human,
        ascii_cards=True,
    )
    holder["table"] = table
    return table, out, typed


def test_a_whole_president_match_in_the_terminal():
    """`bigtwo play --rules president --rounds 5`: roles and trading, the human typing exchange decisions,
    the score table between rounds."""
    table, out, typed = scripted_table("president", rounds=5, seed=4)
    table.run()
    text = out.getvalue()
    assert table.match.is_over and len(table.match.completed) == 5
    for r in range(1, 6):
        assert f"Round {r} of 5" in text and f"Scores after round {r} of 5" in text
    assert "Roles from the last round" in text and "president" in text and "bum" in text
    assert "Not allowed" in text and typed["exchanges"] > 0
    assert "Match over." in text and "places" in text


@pytest.mark.parametrize(
    "preset, changes",
    [
        ("classic", {"exchange": "big-two-president", "later_lead": "previous-winner"}),
        ("classic", {"exchange": "loser-to-winner"}),
        ("classic", {"exchange": "pass-around"}),
        ("bga", {}),
    ],
)
def test_matches_with_other_exchanges_and_scores(preset, changes):
    table, out, _typed = scripted_table(preset, rounds=3, seed=7, **changes)
    table.run()
    text = out.getvalue()
    assert table.match.is_over
    assert "Scores after round 3 of 3" in text and "total" in text and "Match over." in text


def test_quitting_a_match_and_the_command_line():
    res = runner.invoke(
        app,
        ["play", "--rules", "house-code", "--rounds", "5", "--seed", "1", "--delay", "0", "--ascii"],
        input="quit\n",
    )
    assert res.exit_code == 0, res.output
    assert "A match of 5 rounds" in res.output and "Round 1 of 5" in res.output and "Bye." in res.output
    res = runner.invoke(app, ["play", "--rules", "house-code", "--points", "10", "--delay", "0"], input="quit\n")
    assert res.exit_code == 2 and "points target needs a scoring system with points" in res.output
    # a single round is still the default
    res = runner.invoke(app, ["play", "--seed", "1", "--delay", "0", "--ascii"], input="quit\n")
    assert res.exit_code == 0 and "Round 1" not in res.output


def test_a_person_answers_deal_time_decisions_at_the_plain_table():
    """A match offers a qualifying hand a new deal and the lead card's holder the leftover: the person types the
    answer, the table says what happened, and the match goes on."""
    out = io.StringIO()
    console = Console(file=out, width=140, highlight=False)
    rules = load_rules("classic").replace(redeal_requests=("low-points",), redeal_points=100)
    helper = make("greedy", seed=3)
    holder = {}
    said = {"redeal": 0, "keep": 0}

    def human(prompt: str) -> str:
        m = holder["table"].match
        obs = m.observe(0)
        if obs.decision is not None and obs.decision.kind == "redeal":
            word = "redeal" if not said["redeal"] else "keep"
            said[word] += 1
            return word
        p = helper.choose(m.rules, obs)
        return "pass" if p.is_pass else " ".join(str(c) for c in p.cards)

    table = PlainTable(rules, seat=0, seed=2, rounds=1, delay=0, console=console, input_fn=human, ascii_cards=True)
    holder["table"] = table
    table.run()
    text = out.getvalue()
    assert said["redeal"] == 1 and said["keep"] >= 1
    assert "Ask for a new deal? Type redeal or keep" in text and "You ask for a new deal" in text
    assert table.match.is_over and table.match.records[0].deal_answers[0] == {
        "seat": 0,
        "kind": "redeal",
        "answer": "redeal",
    }
