"""What a seat knows when it decides, as bit masks: built from an observation, or (inside a search's
simulated deals) straight from a Game for the seat to move, with exactly the same content.

Both paths give the same :class:`SeatView` for the same position, so a policy that reads only a view
behaves identically at the table and inside a search's rollouts.

With two decks, notation does not say which copy of a card is meant; the hand is read as the engine reads it
(first copy first) and every other card takes a copy not already accounted for, so counts are always right.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bigtwo.cards import CARDS, DECK_SIZE, bits, to_mask
from bigtwo.combos.play import Play
from bigtwo.game import Game
from bigtwo.legal import legal_plays_from_observation
from bigtwo.rules.ruleset import Ruleset


def engine_of(rules: Ruleset, obs: dict[str, Any]) -> Any:
    """The evaluator the engine uses for this observation's table (it may depend on the player count)."""
    return rules.engine_for(obs.get("players") or rules.players)


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


_BIT_OF = {str(CARDS[i]): 1 << i for i in range(DECK_SIZE)}


def add_cards(used: int, tokens: list[str]) -> int:
    """The mask of ``tokens`` taking, for each card, a copy not in ``used`` (the first copy when free)."""
    m = 0
    for t in tokens:
        b = _BIT_OF.get(t)
        if b is None:
            b = to_mask(t)
        if (used | m) & b:
            b <<= DECK_SIZE  # the second deck's copy
        m |= b
    return m


def tokens_mask(tokens: list[str]) -> int:
    """The mask of card tokens as the engine reads a hand (a repeated token is the second copy)."""
    return add_cards(0, tokens)


def played_from_history(history: list[dict[str, Any]], start: int = 0, mask: int = 0) -> int:
    """Every card played in ``history`` (from entry ``start`` on, added to ``mask``)."""
    for entry in history[start:]:
        if entry["action"] == "play":
            mask |= add_cards(mask, entry["cards"])
    return mask


def beside(hand: int, other: int) -> int:
    """``other`` with any copy it shares with ``hand`` moved to the card's other copy (two decks)."""
    clash = hand & other
    for c in bits(clash):
        other = other & ~(1 << c) | 1 << ((c + DECK_SIZE) % (2 * DECK_SIZE))
    return other


def held_copies(cards: int, hand: int) -> int:
    """The copies of ``cards`` that ``hand`` holds (either copy of each card, two decks)."""
    out = 0
    for c in bits(cards):
        if hand >> c & 1:
            out |= 1 << c
        else:
            alt = (c + DECK_SIZE) % (2 * DECK_SIZE)
            if hand >> alt & 1:
                out |= 1 << alt
    return out


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
    ev = engine_of(rules, obs)
    hand = tokens_mask(obs["hand"])
    trick = obs.get("trick")
    top = ev.classify(beside(hand, tokens_mask(trick["cards"]))) if trick else None
    history = obs["history"]
    played = beside(hand, cache.played(history) if cache is not None else played_from_history(history))
    face_up = beside(hand | played, tokens_mask(obs.get("face_up") or []))
    return SeatView(
        seat=obs["seat"],
        n=obs["players"],
        hand=hand,
        top=top,
        top_seat=trick["seat"] if trick else -1,
        sizes=tuple(obs["hand_sizes"]),
        unseen=ev.pack & ~hand & ~played & ~face_up,
        played=played,
        legal=legal if legal is not None else legal_plays_from_observation(rules, obs),
        finished=tuple(obs["finished"]),
    )


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
        top_seat=game.trick_seat if top is not None else -1,
        sizes=tuple(game.hand_sizes()),
        unseen=game.ev.pack & ~hand & ~played & ~game.face_up,
        played=played,
        legal=game.legal_plays(),
        finished=tuple(game.finishing_order),
    )
