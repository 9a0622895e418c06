"""What a person sets on the search player ``isearch``: ten options, typed, frozen and checked in words.

Every option here changes what the bot plays or how long it thinks, and each was measured (the lab log keeps the
evidence; the options whose experiments found no gain were deleted:
``docs/lab/2026-12-07-search-options-retired.md``). Whatever an
option leaves to ``'auto'`` is decided once per table by :func:`bigtwo.bots.search_plan.resolve_plan`, into a
:class:`~bigtwo.bots.search_plan.SearchPlan` that ``bigtwo bots show isearch`` prints.

=====================  ==========================================================================================
option                 meaning
=====================  ==========================================================================================
``budget_ms``          a hard limit on a decision's thinking, in milliseconds (1,000 when neither budget is given)
``iterations``         a budget in sampled deals (reproducible with a seed); with ``budget_ms``, the first to end
``utility``            what the play-outs score: ``'auto'`` (the rules' own measure) or one of ``UTILITIES``
``candidates``         how many of the heuristic's best plays are weighed (None: the plan's count)
``learned_candidates`` how many of the network's best plays are added to them (None: the plan's count)
``prior``              how many sampled deals the network's value of a candidate weighs as (0: none)
``playout``            who moves in the play-outs: ``'auto'``, ``'heuristic'``, ``'learned'`` or ``'mixed'``
``weights``            a network file in place of the package's for the candidates, prior and play-outs
``opponent_weights``   the opponents' model in network play-outs: ``'shipped'``, a file, or None (the network's)
``belief_weights``     who deals the hidden cards: ``'auto'``, ``'shipped'``, a file, or None (the heuristic's
                       likelihood of the opponents' plays)
=====================  ==========================================================================================
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from bigtwo.utilities import UTILITIES

DEFAULT_BUDGET_MS = 1000.0  # a decision's limit when neither budget is given


class Playout(StrEnum):
    """Who moves in a search's play-outs. ``AUTO`` is resolved per table (:mod:`bigtwo.bots.search_plan`)."""

    AUTO = "auto"
    HEURISTIC = "heuristic"  # the heuristic in every seat
    LEARNED = "learned"  # the network in every seat (the opponents' model, where one is set, in the others)
    MIXED = "mixed"  # the network in the searching seat, the heuristic in the others


AUTO = "auto"
SHIPPED = "shipped"


def _refuse(option: str, value: Any, rule: str) -> ValueError:
    return ValueError(f"isearch's {option} must {rule}, not {value!r}")


def _number(option: str, value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or math.isnan(value):
        raise _refuse(option, value, "be a number")
    return float(value)


def _whole(option: str, value: Any, least: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise _refuse(option, value, f"be a whole number, {least} or more")
    if value < least:
        raise _refuse(option, value, f"be {least} or more")
    return value


def _file_or(option: str, value: Any, words: tuple[str, ...]) -> None:
    if value is None or value in words:
        return
    if not isinstance(value, str) or not value:
        said = "".join(f"{w!r}, " for w in words)
        raise _refuse(option, value, f"be {said}None or a file name")


@dataclass(frozen=True)
class SearchConfig:
    """``isearch``'s options, checked when made: a bad value raises ``ValueError`` naming the option and its rule."""

    budget_ms: float | None = None
    iterations: int | None = None
    utility: str = AUTO
    candidates: int | None = None
    learned_candidates: int | None = None
    prior: float = 20.0
    playout: Playout = Playout.AUTO
    weights: str | None = None
    opponent_weights: str | None = SHIPPED
    belief_weights: str | None = AUTO

    def __post_init__(self) -> None:
        if self.budget_ms is not None and _number("budget_ms", self.budget_ms) <= 0:
            raise _refuse("budget_ms", self.budget_ms, "be positive (milliseconds a decision)")
        if self.iterations is not None:
            _whole("iterations", self.iterations, 1)
        if self.budget_ms is None and self.iterations is None:
            object.__setattr__(self, "budget_ms", DEFAULT_BUDGET_MS)
        if self.utility != AUTO and self.utility not in UTILITIES:
            raise _refuse("utility", self.utility, f"be 'auto' or one of {', '.join(UTILITIES)}")
        if self.candidates is not None:
            _whole("candidates", self.candidates, 1)
        if self.learned_candidates is not None:
            _whole("learned_candidates", self.learned_candidates, 0)
        if _number("prior", self.prior) < 0:
            raise _refuse("prior", self.prior, "be 0 or more (sampled deals the network's value weighs as)")
        try:
            object.__setattr__(self, "playout", Playout(self.playout))
        except ValueError:
            raise _refuse("playout", self.playout, f"be one of {', '.join(p.value for p in Playout)}") from None
        _file_or("weights", self.weights, ())
        _file_or("opponent_weights", self.opponent_weights, (SHIPPED,))
        _file_or("belief_weights", self.belief_weights, (AUTO, SHIPPED))


__all__ = ["AUTO", "DEFAULT_BUDGET_MS", "SHIPPED", "Playout", "SearchConfig"]
