"""Rewards at the end of a round, from the ruleset's own scoring.

``"score"`` pays each seat what the ruleset's scoring pays it (zero-sum wherever the scoring is: the
encyclopedia's, where the winner collects what the losers pay). ``"place"`` pays by finishing place,
``(n + 1) / 2 - place`` (zero-sum; the natural reward of rules that keep no points, such as the house code's
finishing order). ``"auto"`` (the default) is ``"score"`` unless the ruleset scores by ranking only.

``normalize=True`` divides by a constant per ruleset and table size so every reward lies in [-1, 1] and
ratios (and zero sums) are kept: for ``"score"``, the most any seat can win or lose in one round (found by
scoring the worst rounds the deal allows: every loser holding every card dealt, untouched); for ``"place"``,
``(n - 1) / 2``.
"""

from __future__ import annotations

from typing import Literal

from bigtwo.game import Game
from bigtwo.rules.ruleset import Ruleset
from bigtwo.scoring import RoundOutcome, RoundResult, score_round

RewardMode = Literal["auto", "score", "place"]


class Rewards:
    """Turns a finished round's result into one float per seat."""

    def __init__(self, rules: Ruleset, players: int, mode: RewardMode = "auto", normalize: bool = False):
        if mode not in ("auto", "score", "place"):
            raise ValueError(f"reward={mode!r} is not a reward mode; allowed: 'auto', 'score', 'place'")
        self.rules = rules
        self.n = players
        self.mode = ("place" if rules.scoring == "ranking" else "score") if mode == "auto" else mode
        self.normalize = normalize
        if self.mode == "place":
            self.scale = (players - 1) / 2 if normalize else 1.0
        else:
            self.scale = (self.largest_payment() or 1.0) if normalize else 1.0

    def largest_payment(self) -> float:
        """The most any seat can win or lose in one round under these rules (0 when nothing is paid)."""
        n = self.n
        sizes = [m.bit_count() for m in Game(self.rules, players=n, seed=0).dealt]
        most = 0
        for shift in range(n):  # every seat may be dealt any of the hand sizes
            dealt = tuple(sizes[(s + shift) % n] for s in range(n))
            for winner in range(n):
                order = (winner, *(s for s in range(n) if s != winner))
                outcome = RoundOutcome(
                    finishing_order=order,
                    cards_left=tuple(0 if s == winner else dealt[s] for s in range(n)),
                    dealt=dealt,
                    played_any=tuple(s == winner for s in range(n)),
                )
                most = max(most, *(abs(x) for x in score_round(self.rules, outcome).scores))
        return float(most)

    def __call__(self, result: RoundResult) -> list[float]:
        if self.mode == "place":
            mid = (self.n + 1) / 2
            return [(mid - place) / self.scale for place in result.places]
        return [s / self.scale for s in result.scores]
