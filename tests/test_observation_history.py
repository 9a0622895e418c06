"""Game.observation builds each history entry once: what it returns must equal a rebuild from scratch, through
undo, clones, automatic skips and stock draws, and callers own what they are given."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from bigtwo import Game, load_rules
from tests.env_house_rules import HOUSE_RULES


def history_from_scratch(game):
    out = []
    for (s, p), note in zip(game.history, game.history_notes, strict=True):
        entry = {"seat": s, "action": "pass" if p.is_pass else "play"}
        if not p.is_pass:
            entry["cards"] = [str(c) for c in game.ev.sort_cards(p.mask)]
            entry["kind"] = p.kind
        if note:
            entry["note"] = note
        out.append(entry)
    return out


@settings(max_examples=10)
@given(seed=st.integers(0, 10**6), rules=st.sampled_from(["classic", "tien-len", "auto-skip", "stock"]))
def test_observation_history_equals_a_rebuild(seed, rules):
    rules, players = HOUSE_RULES[rules] if rules in HOUSE_RULES else (load_rules(rules), None)
    rng = random.Random(seed)
    game = Game(rules, players=players, seed=seed)
    games = [game]
    while not game.is_over:
        seat = rng.randrange(game.n)
        assert game.observe(seat).to_json()["history"] == history_from_scratch(game)
        roll = rng.random()
        if roll < 0.15 and game.history:
            game.undo()
        elif roll < 0.25:
            game = game.clone()  # the original stays as it was
            games.append(game)
        else:
            game.play(rng.choice(game.legal_plays()))
    for g in games:
        assert g.observe(0).to_json()["history"] == history_from_scratch(g)


def test_callers_own_the_history_they_are_given():
    game = Game("classic", seed=4)
    game.play(game.legal_plays()[0])
    first = game.observe(0).to_json()
    first["history"][0]["cards"].append("2S")
    first["history"][0]["seat"] = 3
    first["history"].append({})
    assert game.observe(0).to_json()["history"] == history_from_scratch(game)
