"""What a seat knows when it decides, as bit masks: built from an observation, or (inside a search's
simulated deals) straight from a Game for the seat to move, with exactly the same content.

Both paths give the same :class:`SeatView` for the same position, so a policy that reads only a view
behaves identically at the table and inside a search's rollouts.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bigtwo.cards import CARDS, DECK_SIZE, CardSet, to_mask
from bigtwo.combos.play import Play
from bigtwo.game import Game, legal_plays_from_observation
from bigtwo.rules.ruleset import Ruleset


def deck_of(rules: Ruleset) -> int:
    """The mask of every card the ruleset's pack holds (jokers and a second deck where the rules have them)."""
    jokers = int(getattr(rules, "jokers", 0) or 0)
    decks = int(getattr(rules, "decks", 1) or 1)
    return CardSet.deck(jokers=jokers, decks=decks).mask


@dataclass(slots=True)
class SeatView:
    """One seat's decision: its hand, the trick, the table's hand sizes and the cards it cannot see."""

    seat: int
    n: int
    hand: int
    top: Play | None  # the play to beat; None when leading
    top_seat: int  # -1 when leading
    sizes: tuple[int, ...]  # cards in each seat's hand
    unseen: int  # cards neither in this hand nor played yet (some may be undealt)
    played: int
    legal: list[Play]
    finished: tuple[int, ...]

    @property
    def opponents(self) -> list[int]:
        """Seats still holding cards, other than this one, in turn order after it."""
        return [(self.seat + i) % self.n for i in range(1, self.n) if self.sizes[(self.seat + i) % self.n]]


_BIT_OF = {str(CARDS[i]): 1 << i for i in range(DECK_SIZE)}


def tokens_mask(tokens: list[str]) -> int:
    """The mask of a list of card tokens as observations write them (fast path; any notation falls back)."""
    m = 0
    for t in tokens:
        b = _BIT_OF.get(t)
        if b is None or m & b:
            return to_mask(tokens)  # other notation, or a second deck's copy
        m |= b
    return m


def played_from_history(history: list[dict[str, Any]], start: int = 0, mask: int = 0) -> int:
    """Every card played in ``history`` (from entry ``start`` on, added to ``mask``)."""
    for entry in history[start:]:
        if entry["action"] == "play":
            mask |= tokens_mask(entry["cards"])
    return mask


class HistoryCache:
    """Remembers the cards played up to a point of a round's history, so the next decision reads only the
    new entries. A history that does not extend the remembered one is read from the start."""

    __slots__ = ("_first", "_last", "_length", "_played")

    def __init__(self) -> None:
        self._length = 0
        self._first: Any = None
        self._last: Any = None
        self._played = 0

    def played(self, history: list[dict[str, Any]]) -> int:
        n = self._length
        if n and len(history) >= n and history[0] == self._first and history[n - 1] == self._last:
            mask = played_from_history(history, n, self._played)
        else:
            mask = played_from_history(history)
        self._length = len(history)
        self._first = history[0] if history else None
        self._last = history[-1] if history else None
        self._played = mask
        return mask


def view_from_observation(
    rules: Ruleset, obs: dict[str, Any], legal: list[Play] | None = None, cache: HistoryCache | None = None
) -> SeatView:
    ev = rules.engine
    hand = tokens_mask(obs["hand"])
    trick = obs.get("trick")
    top = ev.classify(tokens_mask(trick["cards"])) if trick else None
    played = cache.played(obs["history"]) if cache is not None else played_from_history(obs["history"])
    return SeatView(
        seat=obs["seat"],
        n=obs["players"],
        hand=hand,
        top=top,
        top_seat=trick["seat"] if trick else -1,
        sizes=tuple(obs["hand_sizes"]),
        unseen=deck_of(rules) & ~hand & ~played,
        played=played,
        legal=legal if legal is not None else legal_plays_from_observation(rules, obs),
        finished=tuple(obs["finished"]),
    )


def view_from_game(game: Game, deck: int, played: int) -> SeatView:
    """The view of the seat to move in ``game``; ``played`` is every card played so far (kept by the caller)."""
    seat = game.to_move
    hand = game.hand(seat).mask
    top = game.trick
    return SeatView(
        seat=seat,
        n=game.n,
        hand=hand,
        top=top,
        top_seat=game.trick_seat if top is not None else -1,
        sizes=tuple(game.hand_sizes()),
        unseen=deck & ~hand & ~played,
        played=played,
        legal=game.legal_plays(),
        finished=tuple(game.finishing_order),
    )
