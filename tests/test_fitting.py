"""Heuristic weights fitted to a bot's choices (issue 15: a better model of the searches' play).

The fit rests on one property of the heuristic's scores, checked here rather than assumed: every score is
linear in every weight it fits, so a score is the score at zero weights plus each weight times its feature.
"""

from __future__ import annotations

import dataclasses
import pickle
import random

import numpy as np
import pytest

from bigtwo import Game, load_rules
from bigtwo.bots import make
from bigtwo.bots.fitted import fitted_model
from bigtwo.bots.heuristic import DEFAULT_WEIGHTS, HeuristicBot, HeuristicPolicy, HeuristicWeights
from bigtwo.bots.view import view_from_game
from bigtwo.lab.fitting import LINEAR, Decision, agreement, collect, features, fit, load, main
from tests.test_bots import play_out, ruleset


def _decisions(rules, games: int, weights: HeuristicWeights, seed: int = 0) -> list[Decision]:
    """Decisions of heuristic self-play, each labelled with the choice of a heuristic with ``weights``."""
    chooser = HeuristicPolicy(rules.engine_for(4), weights=weights)
    out = []
    for g_seed in range(seed, seed + games):
        game = Game(rules, seed=g_seed)
        played = 0
        policy = HeuristicPolicy(game.ev)
        while not game.is_over:
            view = view_from_game(game, played)
            if len(view.legal) > 1 and not any(p.mask == view.hand for p in view.legal):
                out.append(Decision(view, 0, chooser.act(view).mask))
            played |= game.play(policy.act(view)).mask
    return out


def _random_weights(rng: random.Random) -> HeuristicWeights:
    return dataclasses.replace(DEFAULT_WEIGHTS, **{n: rng.uniform(-2, 3) for n in LINEAR})


def test_a_score_is_its_base_plus_the_weighted_features():
    """The decomposition the fit relies on, for random weights: any weight the scorer stopped being linear in
    would fail it."""
    rules = load_rules("classic")
    ev = rules.engine_for(4)
    decisions = _decisions(rules, 3, DEFAULT_WEIGHTS)
    data = features(decisions, ev)
    assert data.dropped == 0 and len(data.chosen) == len(decisions)
    rng = random.Random(3)
    for _ in range(5):
        w = _random_weights(rng)
        vec = np.array([getattr(w, n) for n in LINEAR])
        policy = HeuristicPolicy(ev, weights=w)
        for i, d in enumerate(decisions):
            scored = policy.scores(d.view, d.parent)
            predicted = data.base[i] + data.features[i] @ vec
            got = {p.mask: sc for sc, p in scored}
            base_order = [p.mask for _sc, p in HeuristicPolicy(ev).scores(d.view, d.parent)]
            assert len(got) == int(data.valid[i].sum())
            # the arrays keep the order of the zero-weight scoring; compare as sets of (action, score)
            assert sorted(got.values()) == pytest.approx(sorted(predicted[data.valid[i]]))
            assert set(got) == set(base_order)


def test_the_fit_recovers_the_weights_that_made_the_choices():
    """Choices made by a heuristic with other weights: the fitted heuristic plays them far more often than
    the default one does."""
    rules = load_rules("classic")
    ev = rules.engine_for(4)
    target = dataclasses.replace(
        DEFAULT_WEIGHTS, size_bonus=1.5, cash_controls=0.2, dump=0.6, control_value=1.2, contest=0.0, defend_high=0
    )
    train = _decisions(rules, 40, target, seed=0)
    held = _decisions(rules, 20, target, seed=100)
    got = fit(features(train, ev))
    before, after = agreement(held, ev, DEFAULT_WEIGHTS), agreement(held, ev, got.weights)
    assert after >= 0.95 > before + 0.1
    assert got.temperature > 0


@pytest.mark.slow
def test_fitted_weights_predict_the_search_better_than_the_heuristics_own():
    """The shipped fit for classic: fitted to search's choices, measured here on decisions of another seed."""
    rules = load_rules("classic")
    model = fitted_model(rules, 4)
    assert model is not None and model.meta["rules"] == "classic"
    held = collect(rules, "search(iterations=20, utility='cards')", 150, seed=4242)
    ev = rules.engine_for(4)
    assert agreement(held, ev, model.weights) > agreement(held, ev, DEFAULT_WEIGHTS)


def test_the_fit_is_only_for_the_table_it_was_made_on():
    classic = load_rules("classic")
    assert fitted_model(classic, 4) is not None
    assert fitted_model(classic, 3) is None
    assert fitted_model(ruleset("winner"), 4) is None
    changed = classic.replace(lead_card_must_be_played=not classic.lead_card_must_be_played)
    assert fitted_model(changed, 4) is None


def test_bots_with_the_fitted_model_play_legal_actions_everywhere():
    """On classic the fit plays; elsewhere the heuristic's own weights do."""
    for name in ("classic", "winner"):
        rules = ruleset(name)
        bots = [make("heuristic", weights="fitted") if s % 2 else make("heuristic") for s in range(4)]
        assert play_out(rules, 4, bots, seed=3).result is not None


def test_bad_weights_are_refused():
    with pytest.raises(ValueError, match="weights 'best' is not one of default, fitted, tuned"):
        HeuristicBot(weights="best")
    with pytest.raises(ValueError, match="unknown bravery"):
        HeuristicWeights.from_dict({"bravery": 1})


def test_the_collect_and_fit_commands(tmp_path):
    data = tmp_path / "d.pkl"
    main(["collect", str(data), "--bot", "heuristic", "--decisions", "40", "--seed", "3"])
    got = load([data])
    assert len(got) == 40 and all(len(d.view.legal) > 1 for d in got)
    out = tmp_path / "fit.json"
    main(["fit", str(out), str(data), "--holdout", str(data)])
    import json

    report = json.loads(out.read_text())
    assert report["decisions"] == 40 and report["holdout"]["decisions"] == 40
    assert report["fitted_to"] == ["heuristic"] and report["collected"] == [{"file": str(data), "seed": 3}]
    # the data came from the default heuristic: its own weights explain it completely
    assert report["agreement_default"] == 1.0


def test_a_decisions_file_holds_only_the_projects_records(tmp_path):
    bad = tmp_path / "bad.pkl"
    bad.write_bytes(pickle.dumps([random.Random(1)]))
    with pytest.raises(pickle.UnpicklingError, match="only bigtwo's records"):
        load([bad])
    bare = tmp_path / "bare.pkl"
    bare.write_bytes(pickle.dumps([]))
    with pytest.raises(ValueError, match="is not a decisions file written by collect"):
        load([bare])
