"""The heuristic's weights tuned for points (issue 15: a stronger play-out policy for the search)."""

from __future__ import annotations

import dataclasses
import json
import math

import pytest

from bigtwo.arena.stats import mean_interval
from bigtwo.bots import make
from bigtwo.bots.fitted import tuned_weights, weights_for
from bigtwo.bots.heuristic import DEFAULT_WEIGHTS, HeuristicWeights
from bigtwo.lab.tuning import HOLDOUT_SEED, TRAIN_SEED, TUNED, Evaluator, deal_points, main, tune
from tests.test_bots import play_out, ruleset

CLASSIC = ruleset("classic")


def test_the_heuristic_against_itself_scores_nothing():
    """Cards-left points are zero-sum and every seat plays alike: any seat rotation that leaked another seat's
    policy, or deals that differed between rotations, would show here."""
    assert deal_points(CLASSIC, 4, DEFAULT_WEIGHTS, TRAIN_SEED, range(6)) == [0.0] * 6


def test_a_worse_heuristic_loses_points():
    """Weights that never defend nor shed lose to the heuristic's own on the same deals."""
    bad = dataclasses.replace(DEFAULT_WEIGHTS, defend=0.0, defend_high=0.0, dump=-2.0, dump_urgent=-2.0)
    got = deal_points(CLASSIC, 4, bad, TRAIN_SEED, range(20))
    assert math.fsum(got) / len(got) < 0


def test_the_evaluation_does_not_depend_on_the_workers():
    bent = dataclasses.replace(DEFAULT_WEIGHTS, take_lead=DEFAULT_WEIGHTS.take_lead + 1)
    with Evaluator(CLASSIC, 4, TRAIN_SEED, 9) as one, Evaluator(CLASSIC, 4, TRAIN_SEED, 9, workers=2) as two:
        assert one.per_deal(bent) == two.per_deal(bent)


def test_the_climb_improves_on_its_own_deals_and_is_reproducible():
    with Evaluator(CLASSIC, 4, TRAIN_SEED, 6) as train:
        got = tune(train.mean, steps=12, seed=3)
        again = tune(train.mean, steps=12, seed=3)
        assert got.start_points == pytest.approx(0.0)
        assert got.points > got.start_points and got.kept
        assert train.mean(got.weights) == got.points  # the figure is the weights' own, not a stale one
    assert again == got
    points = [k["points"] for k in got.kept]
    assert points == sorted(points) and len(set(points)) == len(points)
    changed = {
        f.name
        for f in dataclasses.fields(got.weights)
        if getattr(got.weights, f.name) != getattr(DEFAULT_WEIGHTS, f.name)
    }
    assert changed and changed <= set(TUNED)


def test_the_held_out_interval_is_students_t():
    """The tool reports the arena's t interval over deals."""
    iv = mean_interval([1.0, 2.0, 3.0, 4.0])
    assert iv.mean == 2.5
    # s = 1.291, t(0.975, 3) = 3.182: 2.5 -+ 3.182 * 1.291 / 2
    assert iv.low == pytest.approx(2.5 - 2.054, abs=1e-3) and iv.high == pytest.approx(2.5 + 2.054, abs=1e-3)


def test_the_tune_command(tmp_path):
    out = tmp_path / "tuned.json"
    main([str(out), "--deals", "3", "--steps", "4", "--holdout", "5", "--seed", "2"])
    report = json.loads(out.read_text())
    assert report["format"] == "bigtwo-heuristic-tune-1" and report["rules"] == "classic"
    assert report["train"]["seed"] == TRAIN_SEED and report["holdout"]["seed"] == HOLDOUT_SEED
    low, high = report["holdout"]["interval"]
    assert low <= report["holdout"]["points"] <= high
    with Evaluator(CLASSIC, 4, HOLDOUT_SEED, 5) as held:
        iv = mean_interval(held.per_deal(HeuristicWeights.from_dict(report["weights"])))
    assert [report["holdout"]["points"], low, high] == [round(x, 4) for x in (iv.mean, iv.low, iv.high)]
    assert set(report["weights"]) == {f.name for f in dataclasses.fields(DEFAULT_WEIGHTS)}


def test_shipped_tuned_weights_only_for_their_table():
    classic = ruleset("classic")
    assert tuned_weights(classic, 4) is not None
    assert tuned_weights(classic, 3) is None and weights_for("tuned", classic, 3) == DEFAULT_WEIGHTS
    assert tuned_weights(ruleset("winner"), 4) is None
    changed = classic.replace(lead_card_must_be_played=not classic.lead_card_must_be_played)
    assert tuned_weights(changed, 4) is None


def test_the_shipped_tuned_weights_beat_the_heuristic_on_other_deals():
    """Deals neither tuned nor measured on: the tuned weights take points from three default heuristics."""
    got = deal_points(CLASSIC, 4, tuned_weights(CLASSIC, 4), 9, range(60))
    assert math.fsum(got) / len(got) > 0.5


def test_bots_with_the_tuned_weights_play_legal_actions_everywhere():
    for name in ("classic", "winner"):
        rules = ruleset(name)
        bots = [make("heuristic", weights="tuned") if s % 2 else make("heuristic") for s in range(4)]
        assert play_out(rules, 4, bots, seed=5).result is not None


def test_the_shipped_weights_serve_their_game_under_any_name_and_with_the_suits_renamed():
    """The tuned and fitted weights score plays by what they are and keep, never by suit: classic's serve
    classic renamed, Hong Kong (classic's settings) and Taiwan (classic with clubs and diamonds renamed), and
    not a table whose game differs (a suit order without its lead card, another straight table)."""
    from bigtwo.bots.fitted import fitted_model
    from bigtwo.rules.ruleset import load_rules

    classic = load_rules("classic")
    tuned = tuned_weights(classic, 4)
    assert tuned is not None
    for rules in (
        classic.replace(name="ours", description="as we play"),
        load_rules("hong-kong"),
        load_rules("taiwan"),
    ):
        assert tuned_weights(rules, 4) == tuned and fitted_model(rules, 4) == fitted_model(classic, 4)
    for rules in (classic.replace(suit_order="CDHS"), load_rules("indonesia")):
        assert tuned_weights(rules, 4) is None and weights_for("tuned", rules, 4) == DEFAULT_WEIGHTS
    assert tuned_weights(classic, 3) is None  # no file for three players
