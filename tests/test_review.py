"""The review (bigtwo.review, `bigtwo replay --review`): decisions rated from the seat's own view."""

import re

from typer.testing import CliRunner

from bigtwo.bots import make
from bigtwo.cards import bits
from bigtwo.cli import app
from bigtwo.game import Game
from bigtwo.record import read_record, record_of, save_record
from bigtwo.record.text import format_text
from bigtwo.review import THRESHOLDS, Label, decisions, label_for, rate_decision, review_record
from bigtwo.rules.choices import Measure
from bigtwo.rules.ruleset import load_rules

RULES = load_rules("classic")
BLUNDER_SEED = 8  # with heuristic bots, seat 1 (index 0) can go out with a pair while a pass is legal too


def bots():
    return [make("heuristic", seed=s) for s in range(4)]


def play_on(g: Game, players, stop=None) -> Game:
    """Heuristic moves until the round is over (or ``stop(g)`` says to stop)."""
    while not g.is_over and not (stop and stop(g)):
        s = g.to_move
        g.play(players[s].choose(RULES, g.observe(s)))
    return g


def can_go_out(g: Game) -> bool:
    return g.to_move == 0 and any(p.mask == g.hand(0).mask for p in g.legal_plays() if not p.is_pass)


def planted_blunder():
    """A round where seat 0 passes with a pair that would have gone out, then plays on; the step of the pass."""
    players = bots()
    g = play_on(Game(RULES, seed=BLUNDER_SEED), players, stop=can_go_out)
    assert can_go_out(g) and g.hand(0).mask.bit_count() == 2
    step = len(g.history)
    before = g.clone()
    g.play("pass")
    play_on(g, players)
    return g, step, before


def test_the_planted_blunder_is_marked_and_going_out_is_not():
    g, step, before = planted_blunder()
    record = read_record(format_text(record_of(g, names=["you", "bot 1", "bot 2", "bot 3"])))
    ratings = review_record(record, 0, deals=30)
    at = {r.step: r for r in ratings}
    assert at[step].played.is_pass
    assert at[step].label == Label.BLUNDER
    assert at[step].best.mask == before.hand(0).mask  # the pair that goes out
    assert at[step].loss >= THRESHOLDS[Measure.SCORE][2]
    # going out, at the same decision, gives nothing up
    out = next(p for p in before.legal_plays() if p.mask == before.hand(0).mask)
    good = rate_decision(RULES, before.observe(0), out, deals=30, step=step)
    assert good is not None and good.label == Label.GOOD and good.loss == 0
    # and the round played well by the heuristic has no blunder at that point: it goes out
    well = play_on(Game(RULES, seed=BLUNDER_SEED), bots())
    rated = {r.step: r for r in review_record(record_of(well), 0, deals=30)}
    if step in rated:
        assert rated[step].label == Label.GOOD


def test_labels_follow_the_thresholds():
    low, mid, high = THRESHOLDS[Measure.SCORE]
    assert label_for(0.0, "score") == Label.GOOD
    assert label_for(low, "score") == Label.INACCURACY
    assert label_for(mid, "score") == Label.MISTAKE
    assert label_for(high, "score") == Label.BLUNDER
    assert low < mid < high


def test_a_rating_does_not_see_the_cards_the_seat_could_not():
    """Swapping cards seat 0 could not see between two opponents (cards neither had played yet) leaves every
    rating up to that point unchanged: each is computed from seat 0's observation alone."""
    start = Game(RULES, seed=0)
    choices = []

    def third_choice(g):  # seat 0's third decision with more than one legal move
        if g.to_move == 0 and len(g.legal_plays()) > 1:
            choices.append(len(g.history))
        return len(choices) >= 3

    g = play_on(start.clone(), bots(), stop=third_choice)
    assert not g.is_over and g.to_move == 0
    played = 0
    for _s, p in g.history:
        played |= p.mask
    a, b = 1, 2
    ha, hb = [c for c in bits(start.dealt[a] & ~played)], [c for c in bits(start.dealt[b] & ~played)]
    k = min(3, len(ha), len(hb))
    assert k >= 1
    swap_a = sum(1 << c for c in ha[:k])
    swap_b = sum(1 << c for c in hb[:k])
    hands = list(start.dealt)
    hands[a] = hands[a] & ~swap_a | swap_b
    hands[b] = hands[b] & ~swap_b | swap_a
    other = Game(RULES, hands=hands)
    for _s, p in g.history:
        other.play(p)
    assert other.hand(a).mask != g.hand(a).mask
    assert other.observe(0) == g.observe(0)
    one = review_record(record_of(g), 0, deals=10, seed=3)
    two = review_record(record_of(other), 0, deals=10, seed=3)
    assert one and one == two
    # the decision now pending, rated through each game's own observation of seat 0
    move = make("heuristic").choose(RULES, g.observe(0))
    here = rate_decision(RULES, g.observe(0), move, deals=10, seed=3, step=len(g.history))
    there = rate_decision(RULES, other.observe(0), move, deals=10, seed=3, step=len(g.history))
    assert here is not None and here == there
    # the rating a review gives equals the one rated from the observation directly
    step, obs, play = next(d for d in decisions(g, 0) if d[0] == one[-1].step)
    assert rate_decision(RULES, obs, play, deals=10, seed=3, step=step) == one[-1]


def test_the_cli_prints_a_review(tmp_path):
    g, _step, _before = planted_blunder()
    path = save_record(record_of(g, names=["you", "bot 1", "bot 2", "bot 3"]), tmp_path / "round.txt")
    res = CliRunner().invoke(
        app, ["replay", str(path), "--review", "--seat", "you", "--deals", "20"], env={"COLUMNS": "120"}
    )
    assert res.exit_code == 0, res.output
    assert "Review of you's decisions" in res.output
    assert re.search(r"blunder: [1-9]\d*,", res.output)  # the planted pass among them
    assert re.search(r"│\s+\d+ │ pass\s+│ AD AS\s+│\s+\d+\.\d │ blunder │", res.output)
    assert "decisions rated on 20 deals each" in res.output
    bad = CliRunner().invoke(app, ["replay", str(path), "--review", "--seat", "nobody"])
    assert bad.exit_code == 2 and "no such player" in bad.output
    big = CliRunner().invoke(app, ["replay", str(path), "--review", "--deals", "100000"])
    assert big.exit_code == 2
