"""Confidence intervals for arena results.

In duplicate play the games of one deal are not independent: the same cards are played once per seat
rotation, which is the point (the luck of the deal cancels), so the unit of the statistics is the *deal*: a
bot's mean over the games of one deal is one observation, and the interval is Student's t over those
per-deal means. (Treating every game as independent would understate the interval when the rotations are
positively correlated and overstate it when, as intended, they cancel each other's luck.)
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from scipy.special import stdtrit


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
