"""The state protocol: one shape for everything that can be played, and the legal actions of an observation.

A :class:`~bigtwo.match.Match` (a single round is a match of one round) and a :class:`~bigtwo.game.Game`
(one round's play, for puzzles and search) both speak it, the way OpenSpiel's states and python-chess's
board do::

    state.to_move, state.legal_actions(), state.apply(action), state.why_not(action)
    state.undo(), state.clone(), state.observe(seat), state.is_over, state.result

Whoever knows only a seat's observation (a bot, an environment, a client) asks :func:`legal_actions` and gets
exactly what the state would list, in every phase: plays and the pass, exchange answers, deal-time choices.
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

from bigtwo.actions import Action, Answer
from bigtwo.exchange import exchange_answers
from bigtwo.legal import legal_plays_from_observation
from bigtwo.observation import Observation
from bigtwo.rules.ruleset import Ruleset


@runtime_checkable
class State(Protocol):
    """What every playable state offers (see the module docstring)."""

    rules: Ruleset

    @property
    def to_move(self) -> int | None: ...

    @property
    def is_over(self) -> bool: ...

    @property
    def result(self) -> Any: ...

    def legal_actions(self) -> list[Any]: ...

    def apply(self, action: Any) -> Any: ...

    def why_not(self, action: Any) -> str | None: ...

    def undo(self) -> None: ...

    def clone(self) -> State: ...

    def observe(self, seat: int | None) -> Observation: ...


def legal_actions(rules: Ruleset, observation: Observation) -> list[Action]:
    """Every legal action of the observing seat, from its observation alone (empty when it is not to move).

    The same list, in the same order, as the state's own ``legal_actions()`` for that position.
    """
    obs = observation
    if obs.seat is None or obs.is_over or obs.to_move != obs.seat:
        return []
    d = obs.decision
    if d is not None:
        if d.answered_by_options:
            return [Answer(d.kind, word) for word in d.options]
        return list(exchange_answers(rules, obs))
    return list(legal_plays_from_observation(rules, obs))
