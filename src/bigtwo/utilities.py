"""What a finished round is worth to each seat, by a chosen measure: for search bots and the arena.

- ``score``: the ruleset's own payments (``result.scores``);
- ``cards``: one point a card left: each loser pays a point for every card still in hand, the winner
  receives the sum (the measure of the strength benchmark, computed here from ``result.cards_left``
  whatever scoring the ruleset uses);
- ``place``: the finishing order as points that sum to zero: first ``(n-1)/2``, ..., last ``-(n-1)/2``;
- ``win``: 1 for the winner, 0 for everyone else.
"""

from __future__ import annotations

from bigtwo.rules.choices import Measure
from bigtwo.scoring import RoundResult

UTILITIES: tuple[Measure, ...] = tuple(Measure)
# what a figure in each measure counts, for axes and summaries
MEASURE_WORDS: dict[Measure, str] = {
    Measure.SCORE: "the rules' points a game",
    Measure.CARDS: "points a game, one a card left",
    Measure.PLACE: "places a game",
    Measure.WIN: "wins a game",
}


def cards_left_points(result: RoundResult) -> list[float]:
    winner = result.finishing_order[0]
    pts = [-float(c) for c in result.cards_left]
    pts[winner] = float(sum(c for s, c in enumerate(result.cards_left) if s != winner))
    return pts


def round_utility(result: RoundResult, measure: str = Measure.SCORE) -> list[float]:
    """Points for every seat of a finished round under ``measure`` (one of :data:`UTILITIES`)."""
    n = len(result.cards_left)
    if measure == Measure.SCORE:
        return [float(s) for s in result.scores]
    if measure == Measure.CARDS:
        return cards_left_points(result)
    if measure == Measure.PLACE:
        mid = (n + 1) / 2
        return [mid - p for p in result.places]
    if measure == Measure.WIN:
        return [1.0 if s == result.finishing_order[0] else 0.0 for s in range(n)]
    raise ValueError(f"utility {measure!r} is not one of {', '.join(UTILITIES)}")


def default_measure(rules) -> Measure:
    """What a player under these rules plays for: the rules' payments, or the finishing order when unscored."""
    return Measure(rules.play_measure)
