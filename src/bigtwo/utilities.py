"""What a finished round is worth to each seat, by a chosen measure: for search bots and the arena.

- ``score``: the ruleset's own payments (``result.scores``);
- ``cards``: one point a card left: each loser pays a point for every card still in hand, the winner
  receives the sum (the measure of the strength benchmark, computed here from ``result.cards_left``
  whatever scoring the ruleset uses);
- ``place``: the finishing order as points that sum to zero: first ``(n-1)/2``, ..., last ``-(n-1)/2``;
- ``win``: 1 for the winner, 0 for everyone else.
"""

from __future__ import annotations

from bigtwo.scoring import RoundResult

UTILITIES = ("score", "cards", "place", "win")
# what a figure in each measure counts, for axes and summaries
MEASURE_WORDS = {
    "score": "the rules' points a game",
    "cards": "points a game, one a card left",
    "place": "places a game",
    "win": "wins a game",
}


def cards_left_points(result: RoundResult) -> list[float]:
    winner = result.finishing_order[0]
    pts = [-float(c) for c in result.cards_left]
    pts[winner] = float(sum(c for s, c in enumerate(result.cards_left) if s != winner))
    return pts


def round_utility(result: RoundResult, measure: str = "score") -> list[float]:
    """Points for every seat of a finished round under ``measure`` (one of :data:`UTILITIES`)."""
    n = len(result.cards_left)
    if measure == "score":
        return [float(s) for s in result.scores]
    if measure == "cards":
        return cards_left_points(result)
    if measure == "place":
        mid = (n + 1) / 2
        return [mid - p for p in result.places]
    if measure == "win":
        return [1.0 if s == result.finishing_order[0] else 0.0 for s in range(n)]
    raise ValueError(f"utility {measure!r} is not one of {', '.join(UTILITIES)}")


def default_measure(rules) -> str:
    """What a player under these rules plays for: the rules' payments, or the finishing order when unscored."""
    return str(rules.play_measure)
