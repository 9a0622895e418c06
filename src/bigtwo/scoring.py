"""Per-round payments. Pure functions of a round's outcome, so the game and a match share them."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class RoundOutcome:
    """What scoring needs to know about a finished round."""

    finishing_order: tuple[int, ...]
    cards_left: tuple[int, ...]  # by seat
    dealt: tuple[int, ...]  # cards dealt, by seat
    played_any: tuple[bool, ...]  # by seat


@dataclass(frozen=True)
class RoundResult:
    """A finished round: who went out in what order, what everyone pays, and why."""

    finishing_order: list[int]
    scores: list[int]
    cards_left: list[int]
    details: list[str] = field(default_factory=list)

    @property
    def winner(self) -> int:
        return self.finishing_order[0]

    @property
    def places(self) -> list[int]:
        """1-based place of each seat."""
        out = [0] * len(self.finishing_order)
        for place, seat in enumerate(self.finishing_order, 1):
            out[seat] = place
        return out

    def to_dict(self) -> dict[str, Any]:
        return {
            "finishing_order": list(self.finishing_order),
            "scores": list(self.scores),
            "cards_left": list(self.cards_left),
            "details": list(self.details),
        }


def double_threshold(rules: Any, dealt: int) -> int:
    """Cards left from which a loser pays double; hand sizes the ruleset does not list scale from 10 of 13."""
    table = rules.double_at
    if dealt in table:
        return table[dealt]
    return math.ceil(dealt * 10 / 13)


def score_round(rules: Any, outcome: RoundOutcome) -> RoundResult:
    n = len(outcome.cards_left)
    order = list(outcome.finishing_order)
    if rules.scoring == "ranking":
        return RoundResult(order, [0] * n, list(outcome.cards_left), ["ranking only: no points"])
    # encyclopedia: each loser pays 1 a card, x2 at the threshold, x3 when they played nothing
    winner = order[0]
    scores = [0] * n
    details = []
    for seat in range(n):
        left = outcome.cards_left[seat]
        if seat == winner or left == 0:
            continue
        if rules.triple_when_untouched and not outcome.played_any[seat]:
            mult, why = 3, "played no card"
        elif left >= double_threshold(rules, outcome.dealt[seat]):
            mult, why = 2, f"{left} cards, at least {double_threshold(rules, outcome.dealt[seat])}"
        else:
            mult, why = 1, f"{left} cards"
        pay = left * mult
        scores[seat] -= pay
        scores[winner] += pay
        details.append(f"seat {seat} pays {pay} ({why}, x{mult})")
    return RoundResult(order, scores, list(outcome.cards_left), details)
