"""The guided first round (bigtwo.lesson, ``bigtwo learn``): played through the real engine, it teaches leading
with the lead card, beating a single and a pair, passing, a five-card hand and going out, and the terminal walks
it to the end with the answers typed, refusing wrong ones in the rules' own words."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

import bigtwo.lesson as lesson_module
from bigtwo.cli.app import app
from bigtwo.cli.learn import run_lesson
from bigtwo.errors import BigTwoError
from bigtwo.lesson import check, lesson

ANSWERS = ["3D", "KS", "pass", "6C 6H", "8D 9C 10H JS QD"]


def test_the_lesson_teaches_each_thing_once_and_you_go_out():
    shown = lesson()
    mine = [s for s in shown.steps if s.yours]
    assert [s.cards for s in mine] == [
        a.split() if a != "pass" else [] for a in ["3D", "KS", "pass", "6C 6H", "8D 9C TH JS QD"]
    ]
    assert "3♦" in mine[0].teach and "lead" in mine[0].teach  # the lead card
    assert mine[1].trick == ["JD"]  # beating a single
    assert mine[2].trick == ["2D"] and "pass" in mine[2].teach  # passing
    assert mine[3].trick == ["4D", "4S"]  # beating a pair
    assert mine[4].trick == [] and "straight" in mine[4].teach  # a five-card hand, and going out
    assert mine[4].hand == ["8D", "9C", "TH", "JS", "QD"]
    assert shown.result and all("pays" in line for line in shown.result)
    assert lesson().as_dict() == shown.as_dict()  # always the same round


def test_a_script_the_rules_refuse_cannot_be_taught(monkeypatch):
    swapped = (lesson_module.HANDS[1], lesson_module.HANDS[0], *lesson_module.HANDS[2:])
    monkeypatch.setattr(lesson_module, "HANDS", swapped)
    with pytest.raises(BigTwoError):
        lesson()


def test_a_wrong_answer_is_refused_in_words():
    assert check(0, "3D") is None
    assert check(0, "3♦") is None
    assert "3♦" in check(0, "KS")  # the first play must contain the lead card
    assert "cannot pass" in check(0, "pass")
    assert "K♠" in check(4, "QD")  # allowed, but the lesson plays K♠
    assert "do not hold" in check(8, "2D")
    assert check(8, "p") is None
    with pytest.raises(BigTwoError):
        check(1, "4C")  # not one of your moves


def test_the_terminal_walks_the_lesson_to_the_end():
    said: list[str] = []
    typed = iter(["KS", "hint", *ANSWERS])  # a wrong first answer, then the hint, then the lesson's moves
    assert run_lesson(lambda _prompt: next(typed), said.append)
    text = "\n".join(said)
    assert "The first play must contain 3♦" in text  # the wrong first answer, refused
    assert "Type: 3♦" in text  # the hint
    assert "You play 8♦ 9♣ 10♥ J♠ Q♦ (straight)" in text
    assert "Ana pays 8" in text


def test_quit_stops_and_ascii_writes_no_suit_symbols():
    said: list[str] = []
    assert not run_lesson(lambda _prompt: "quit", said.append)
    assert "Lesson stopped" in said[-1]
    plain: list[str] = []
    typed = iter(ANSWERS)
    assert run_lesson(lambda _prompt: next(typed), plain.append, ascii_cards=True)
    shown = [line for line in plain if not line.startswith("Type cards as they read")]  # the notations it reads
    assert not [line for line in shown if any(s in line for s in "♦♣♥♠")]
    assert "You play 6C 6H (pair)." in "\n".join(shown)


def test_enter_after_a_hint_makes_the_move():
    said: list[str] = []
    typed = iter(["hint", ""] * 5)
    assert run_lesson(lambda _prompt: next(typed), said.append)
    assert "You went out first" in "\n".join(said)


def test_bigtwo_learn_command():
    res = CliRunner().invoke(app, ["learn", "--ascii"], input="\n".join(ANSWERS) + "\n")
    assert res.exit_code == 0, res.output
    assert "You play 8D 9C 10H JS QD (straight)" in res.output
    assert "You went out first" in res.output
