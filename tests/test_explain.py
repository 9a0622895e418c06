"""The rules explained to a player (bigtwo.rules.explain): read from the Ruleset's fields, so a one-field house
rule changes what is said, every example is a play those rules accept, and the summary at the top of
``bigtwo rules show`` stays short."""

from __future__ import annotations

import itertools

import pytest
from typer.testing import CliRunner

import bigtwo  # noqa: F401  (registers the rules compiler the examples are checked with)
from bigtwo.cards import parse_cards
from bigtwo.cli.app import app
from bigtwo.rules.explain import explain, straight_order, summary
from bigtwo.rules.ruleset import list_presets, load_rules

PRESETS = list_presets()


def point(rules, topic):
    return next(p for p in explain(rules) if p.topic == topic)


@pytest.mark.parametrize("name", PRESETS)
def test_every_example_is_a_play_of_those_rules(name):
    rules = load_rules(name)
    for p in explain(rules):
        for ex in p.examples:
            assert rules.classify(parse_cards(ex)) is not None, (name, p.topic, ex)
        assert "_" not in p.text, (name, p.text)  # words, not identifiers (full_house)
    shown = point(rules, "What you may play")
    assert [rules.classify(parse_cards(ex)).kind for ex in shown.examples] == [
        k for k in rules.combinations if k in {rules.classify(parse_cards(ex)).kind for ex in shown.examples}
    ]


@pytest.mark.parametrize("name", PRESETS)
def test_examples_shown_in_order_climb(name):
    rules = load_rules(name)
    assert point(rules, "Beating a play").ordered
    for p in explain(rules):
        if p.ordered:
            for low, high in itertools.pairwise(parse_cards(ex) for ex in p.examples):
                assert rules.beats(high, low), (name, p.topic, low, high)


def test_a_house_rule_changes_the_explanation():
    classic = load_rules("classic")
    assert "♦ < ♣ < ♥ < ♠" in point(classic, "Card order").text
    assert "♣ < ♦ < ♥ < ♠" in point(classic.replace(suit_order="CDHS"), "Card order").text
    assert "3♦" in point(classic, "Leading").text
    assert "3♣" in point(classic.replace(lead_card="3C"), "Leading").text
    assert "out of that trick" not in point(classic, "Passing").text
    assert "out of that trick" in point(classic.replace(pass_locks_out=True), "Passing").text


def test_the_tables_own_straight_order():
    assert straight_order(load_rules("classic"))[-2:] == ["2-3-4-5-6", "A-2-3-4-5"]  # the Hong Kong table
    assert straight_order(load_rules("house-code"))[-1] == "10-J-Q-K-A"  # no 2 in a straight
    ends = point(load_rules("classic"), "Straights").examples
    assert [load_rules("classic").classify(parse_cards(e)).kind for e in ends] == ["straight", "straight"]


def test_five_card_hands_in_their_order():
    text = point(load_rules("classic"), "Five-card hands").text
    assert text.index("straight <") < text.index("flush <") < text.index("full house") < text.index("straight flush")
    assert "Five-card hands" not in [p.topic for p in explain(load_rules("tien-len"))]  # no five-card hands


@pytest.mark.parametrize("name", PRESETS)
def test_rules_show_starts_with_a_short_summary(name):
    runner = CliRunner()
    env = {"COLUMNS": "100", "NO_COLOR": "1"}
    brief = runner.invoke(app, ["rules", "show", name, "--brief"], env=env)
    assert brief.exit_code == 0, brief.output
    assert len(brief.output.strip().splitlines()) <= 16
    full = runner.invoke(app, ["rules", "show", name], env=env)
    assert full.output.startswith(brief.output.rstrip("\n").split("\n")[0])
    assert all(line.split(": ", 1)[0] in full.output[: len(brief.output) + 200] for line in summary(load_rules(name)))
