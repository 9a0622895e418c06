"""Confidence intervals for arena results.

In duplicate play the games of one deal are not independent: the same cards are played once per seat
rotation, which is the point (the luck of the deal cancels), so the unit of the statistics is the *deal*: a
bot's mean over the games of one deal is one observation, and the interval is Student's t over those
per-deal means. (Treating every game as independent would understate the interval when the rotations are
positively correlated and overstate it when, as intended, they cancel each other's luck.)

A win rate is a proportion: a t interval around it can leave [0, 1] on a small run ([-267.7%, 367.7%] on a
handful of games). :func:`wilson_interval` gives Wilson's score interval instead, which always lies inside
[0, 1], with the number of games replaced by the *effective* number the deals' spread implies (Korn and
Graubard's adjustment for clustered samples), so it keeps the per-deal unit of the rest of the statistics.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from scipy.special import ndtri, stdtrit


@dataclass(frozen=True)
class Interval:
    """A mean with its two-sided confidence interval, from ``n`` independent units."""

    mean: float
    low: float
    high: float
    n: int
    sd: float
    confidence: float = 0.95

    @property
    def half_width(self) -> float:
        return (self.high - self.low) / 2

    def to_dict(self) -> dict[str, float]:
        return {
            "mean": self.mean,
            "low": self.low,
            "high": self.high,
            "n": self.n,
            "sd": self.sd,
            "confidence": self.confidence,
        }


def mean_interval(values: Sequence[float], confidence: float = 0.95) -> Interval:
    """Mean of independent ``values`` with the t interval; with fewer than two values the bounds are NaN."""
    if not 0 < confidence < 1:
        raise ValueError(f"confidence {confidence} must lie strictly between 0 and 1")
    n = len(values)
    if n == 0:
        raise ValueError("no values: an interval needs at least one observation")
    mean = math.fsum(values) / n
    if n < 2:
        return Interval(mean, math.nan, math.nan, n, math.nan, confidence)
    sd = math.sqrt(math.fsum((v - mean) ** 2 for v in values) / (n - 1))
    half = float(stdtrit(n - 1, 0.5 + confidence / 2)) * sd / math.sqrt(n)  # Student's t quantile
    return Interval(mean, mean - half, mean + half, n, sd, confidence)


def clustered_interval(units: Mapping[Any, list[float]], confidence: float = 0.95) -> Interval:
    """The interval of a mean over clusters (deals): each cluster's own mean is one observation."""
    means = [math.fsum(v) / len(v) for v in units.values() if v]
    return mean_interval(means, confidence)


def wilson_interval(units: Mapping[Any, list[float]], confidence: float = 0.95) -> Interval:
    """A rate (the mean of 0/1 outcomes, clustered by deal) with Wilson's score interval, always in [0, 1].

    The sample size is the effective one, ``p(1-p) / var`` with ``var`` the variance of the rate estimated
    from the per-deal means (as :func:`clustered_interval` does), capped at the number of outcomes: the
    interval is never narrower than if every game were independent. With no spread to estimate it from (one
    deal, or a rate of exactly 0 or 1) every game counts as one observation. The quantile is Student's t
    with one degree of freedom fewer than the deals (the normal one for a single deal).
    """
    if not 0 < confidence < 1:
        raise ValueError(f"confidence {confidence} must lie strictly between 0 and 1")
    values = [v for vs in units.values() for v in vs]
    if not values:
        raise ValueError("no values: an interval needs at least one observation")
    if any(v not in (0, 1) for v in values):
        raise ValueError("a rate's outcomes are 0 or 1")
    means = [math.fsum(v) / len(v) for v in units.values() if v]
    k, games = len(means), len(values)
    p = math.fsum(means) / k
    sd = math.sqrt(math.fsum((m - p) ** 2 for m in means) / (k - 1)) if k > 1 else math.nan
    n = float(games)
    if k > 1 and 0 < p < 1 and sd > 0:
        n = min(n, p * (1 - p) / (sd * sd / k))
    z = float(stdtrit(k - 1, 0.5 + confidence / 2)) if k > 1 else float(ndtri(0.5 + confidence / 2))
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z / (1 + z2 / n) * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    low, high = min(max(0.0, centre - half), p), max(min(1.0, centre + half), p)  # rounding aside
    return Interval(p, low, high, k, sd, confidence)
