"""What a seat knows when it decides, as bit masks: built from its observation, or (inside a search's
simulated deals) straight from a Game for the seat to move, with exactly the same content.

Both paths give the same :class:`SeatView` for the same position, so a policy that reads only a view
behaves identically at the table and inside a search's rollouts.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from bigtwo.combos.play import Play
from bigtwo.game import Game
from bigtwo.legal import legal_plays_from_observation
from bigtwo.observation import HistoryEntry, Observation
from bigtwo.rules.ruleset import Ruleset

if TYPE_CHECKING:
    from bigtwo.combos.evaluator import Evaluator


def engine_of(rules: Ruleset, obs: Observation) -> Evaluator:
    """The evaluator the engine uses for this observation's table (it may depend on the player count)."""
    return obs.ev if obs.ev is not None else rules.engine_for(obs.players or rules.players)


@dataclass(slots=True)
class SeatView:
    """One seat's decision: its hand, the trick, the table's hand sizes and the cards it cannot see."""

    seat: int
    n: int
    hand: int
    top: Play | None  # the play to beat; None when leading
    top_seat: int  # -1 when leading
    sizes: tuple[int, ...]  # cards in each seat's hand
    unseen: int  # cards this seat cannot place: in other hands, undealt, or in a stock
    played: int
    legal: list[Play]
    finished: tuple[int, ...]

    @property
    def opponents(self) -> list[int]:
        """Seats still holding cards, other than this one, in turn order after it."""
        return [(self.seat + i) % self.n for i in range(1, self.n) if self.sizes[(self.seat + i) % self.n]]


class HistoryCache:
    """Remembers the cards played up to a point of a round's history, so the next decision reads only the
    new entries. A history that does not extend the remembered one (its entries are the engine's own
    objects, compared by identity) is read from the start."""

    __slots__ = ("_first", "_last", "_length", "_played")

    def __init__(self) -> None:
        self._length = 0
        self._first: HistoryEntry | None = None
        self._last: HistoryEntry | None = None
        self._played = 0

    def played(self, history: tuple[HistoryEntry, ...]) -> int:
        n = self._length
        start, mask = 0, 0
        if n and len(history) >= n and history[0] is self._first and history[n - 1] is self._last:
            start, mask = n, self._played
        for e in history[start:]:
            mask |= e.play.mask
        self._length = len(history)
        self._first = history[0] if history else None
        self._last = history[-1] if history else None
        self._played = mask
        return mask


def view_from_observation(
    rules: Ruleset,
    observation: Observation,
    legal: list[Play] | None = None,
    cache: HistoryCache | None = None,
) -> SeatView:
    obs = observation
    ev = engine_of(rules, obs)
    played = cache.played(obs.history) if cache is not None else obs.played
    seat = obs.seat
    assert seat is not None, "a spectator does not decide"
    return SeatView(
        seat=seat,
        n=obs.players,
        hand=obs.hand,
        top=obs.trick,
        top_seat=-1 if obs.trick is None or obs.trick_seat is None else int(obs.trick_seat),
        sizes=obs.hand_sizes,
        unseen=ev.pack & ~obs.hand & ~played & ~obs.face_up,
        played=played,
        legal=legal if legal is not None else legal_plays_from_observation(rules, obs),
        finished=obs.finished,
    )


def played_in(game: Game) -> int:
    """Every card played so far in ``game``."""
    played = 0
    for _seat, p in game.history:
        played |= p.mask
    return played


def view_from_game(game: Game, played: int) -> SeatView:
    """The view of the seat to move in ``game``; ``played`` is every card played so far (kept by the caller)."""
    seat = game.to_move
    hand = game.hand(seat).mask
    top = game.trick
    return SeatView(
        seat=seat,
        n=game.n,
        hand=hand,
        top=top,
        top_seat=game._top_seat if top is not None else -1,
        sizes=tuple(game.hand_sizes()),
        unseen=game.ev.pack & ~hand & ~played & ~game.face_up,
        played=played,
        legal=game.legal_plays(),
        finished=tuple(game.finishing_order),
    )
