"""Cards, card sets and their notation.

A card is a small int (its bit in a :class:`CardSet` mask), so sets of cards are plain integers and the
engine's hot loops are bit operations. Layout, per deck copy: ``rank * 4 + suit`` for the 52 ranked cards
(ranks 3..2 are 0..12, suits D C H S are 0..3: this fixes the bits, not the ruleset's suit order), then the
black joker (52) and the red joker (53). A second deck copy adds 54 to every index.

Notation: ``3D``, ``TD`` (``10D`` accepted), ``2♠``, suit-first ``H3`` as the rule texts write it, any case;
jokers are ``BJ`` and ``RJ``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import Union

from bigtwo.errors import CardParseError

RANK_CHARS = "3456789TJQKA2"
SUIT_CHARS = "DCHS"
SUIT_SYMBOLS = "♦♣♥♠"
SUIT_NAMES = ("diamonds", "clubs", "hearts", "spades")
SUIT_NAMES_SINGULAR = ("diamond", "club", "heart", "spade")
RANK_NAMES = ("3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2")
RANK_PLURALS = ("3s", "4s", "5s", "6s", "7s", "8s", "9s", "10s", "jacks", "queens", "kings", "aces", "2s")

DECK_SIZE = 54  # indices per deck copy: 52 ranked cards and two jokers
BLACK_JOKER = 52
RED_JOKER = 53
JOKER_RANK = 13  # the rank slot both jokers report; the ruleset decides how they compare
# rank indices the rules name (3..2 are 0..12)
THREE, JACK, QUEEN, KING, ACE, TWO = 0, 8, 9, 10, 11, 12
JOKER_CHARS = {BLACK_JOKER: "BJ", RED_JOKER: "RJ"}
MAX_COPIES = 2
_ONE_COPY = (1 << DECK_SIZE) - 1  # the first deck copy's bits

_RANK_OF_CHAR = {c: i for i, c in enumerate(RANK_CHARS)}
_RANK_OF_CHAR["1"] = _RANK_OF_CHAR["T"]  # only reached through "10"
_SUIT_OF_CHAR = {c: i for i, c in enumerate(SUIT_CHARS)}
_SUIT_OF_CHAR.update({c: i for i, c in enumerate(SUIT_SYMBOLS)})
_SUIT_OF_CHAR.update({"♢": 0, "♧": 1, "♡": 2, "♤": 3})
_JOKER_TOKENS = {"BJ": BLACK_JOKER, "RJ": RED_JOKER}
_SPLIT = re.compile(r"[\s,;]+")


class Card(int):
    """One card; an int whose value is its bit index. Use :func:`card` or :meth:`Card.parse` to make one."""

    __slots__ = ()

    @property
    def copy(self) -> int:
        """Which deck copy (0 or 1) the card comes from; equal-looking cards differ only here."""
        return int(self) // DECK_SIZE

    @property
    def face(self) -> int:
        """The card's index within its deck copy (0..53): two copies of 3D share a face."""
        return int(self) % DECK_SIZE

    @property
    def is_joker(self) -> bool:
        return self.face >= BLACK_JOKER

    @property
    def rank(self) -> int:
        """Rank index 0..12 for 3..2; 13 for a joker."""
        f = self.face
        return JOKER_RANK if f >= BLACK_JOKER else f >> 2

    @property
    def suit(self) -> int | None:
        """Suit index 0..3 for D C H S, ``None`` for a joker."""
        f = self.face
        return None if f >= BLACK_JOKER else f & 3

    @classmethod
    def parse(cls, token: str) -> Card:
        return CARDS[_parse_face(token)]

    def symbol(self) -> str:
        """The card with a suit symbol, e.g. ``3♦``."""
        f = self.face
        if f >= BLACK_JOKER:
            return JOKER_CHARS[f]
        return RANK_CHARS[f >> 2] + SUIT_SYMBOLS[f & 3]

    def __str__(self) -> str:
        f = self.face
        if f >= BLACK_JOKER:
            return JOKER_CHARS[f]
        return RANK_CHARS[f >> 2] + SUIT_CHARS[f & 3]

    def __repr__(self) -> str:
        return f"Card({str(self)!r})" if self.copy == 0 else f"Card({str(self)!r}, copy={self.copy})"


CARDS: tuple[Card, ...] = tuple(Card(i) for i in range(DECK_SIZE * MAX_COPIES))


def card(token: str | int, copy: int = 0) -> Card:
    """The card for a token (``"3D"``) or an index; ``copy=1`` gives the second deck's copy."""
    face = token if isinstance(token, int) else _parse_face(token)
    if not 0 <= face < DECK_SIZE or not 0 <= copy < MAX_COPIES:
        raise CardParseError(str(token), f"{token!r} (copy {copy}) is not a card index")
    return CARDS[face + copy * DECK_SIZE]


def _parse_face(token: str) -> int:
    t = token.strip().upper()
    if t in _JOKER_TOKENS:
        return _JOKER_TOKENS[t]
    rank = suit = None
    if len(t) == 2:
        a, b = t[0], t[1]
        if a in _RANK_OF_CHAR and a != "1" and b in _SUIT_OF_CHAR:
            rank, suit = _RANK_OF_CHAR[a], _SUIT_OF_CHAR[b]
        elif a in _SUIT_OF_CHAR and b in _RANK_OF_CHAR and b != "1":
            suit, rank = _SUIT_OF_CHAR[a], _RANK_OF_CHAR[b]
    elif len(t) == 3:
        if t[:2] == "10" and t[2] in _SUIT_OF_CHAR:
            rank, suit = _RANK_OF_CHAR["T"], _SUIT_OF_CHAR[t[2]]
        elif t[0] in _SUIT_OF_CHAR and t[1:] == "10":
            rank, suit = _RANK_OF_CHAR["T"], _SUIT_OF_CHAR[t[0]]
    if rank is None or suit is None:
        raise CardParseError(token)
    return rank * 4 + suit


def iter_bits(mask: int) -> Iterator[int]:
    """The set bit indices of ``mask``, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def bits(mask: int) -> list[int]:
    """The set bit indices of ``mask`` as a list, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


CardsLike = Union["CardSet", str, int, Iterable[Card | str | int]]


class CardSet:
    """An immutable set of cards backed by an integer bitmask (bit ``i`` is ``CARDS[i]``).

    Iterates in index order (by rank, then D C H S); ``str()`` is the canonical notation ``"3D TD 2S"``.
    """

    __slots__ = ("mask",)

    def __init__(self, cards: CardsLike = 0):
        self.mask = to_mask(cards)

    @classmethod
    def from_mask(cls, mask: int) -> CardSet:
        s = object.__new__(cls)
        s.mask = mask
        return s

    @classmethod
    def deck(cls, jokers: int = 0, decks: int = 1) -> CardSet:
        """A full pack: 52 cards plus ``jokers`` (0-2, black first), repeated for ``decks`` copies."""
        one = (1 << 52) - 1
        if jokers >= 1:
            one |= 1 << BLACK_JOKER
        if jokers >= 2:
            one |= 1 << RED_JOKER
        mask = 0
        for d in range(decks):
            mask |= one << (d * DECK_SIZE)
        return cls.from_mask(mask)

    def __iter__(self) -> Iterator[Card]:
        return (CARDS[i] for i in iter_bits(self.mask))

    def __len__(self) -> int:
        return self.mask.bit_count()

    def __bool__(self) -> bool:
        return self.mask != 0

    def __contains__(self, item: object) -> bool:
        try:
            m = to_mask(item)  # type: ignore[arg-type]
        except (CardParseError, TypeError):
            return False
        return m != 0 and m & self.mask == m

    def __eq__(self, other: object) -> bool:
        if isinstance(other, CardSet):
            return self.mask == other.mask
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.mask)

    def __or__(self, other: CardsLike) -> CardSet:
        return CardSet.from_mask(self.mask | to_mask(other))

    def __and__(self, other: CardsLike) -> CardSet:
        return CardSet.from_mask(self.mask & to_mask(other))

    def __sub__(self, other: CardsLike) -> CardSet:
        return CardSet.from_mask(self.mask & ~to_mask(other))

    def __xor__(self, other: CardsLike) -> CardSet:
        return CardSet.from_mask(self.mask ^ to_mask(other))

    __ror__ = __or__
    __rand__ = __and__

    def issubset(self, other: CardsLike) -> bool:
        return self.mask & ~to_mask(other) == 0

    def cards(self) -> tuple[Card, ...]:
        return tuple(self)

    def symbols(self) -> str:
        return " ".join(c.symbol() for c in self)

    def __str__(self) -> str:
        return " ".join(str(c) for c in self)

    def __repr__(self) -> str:
        return f"CardSet({str(self)!r})"


class HoldsCards:
    """What carries its cards as a ``mask`` (a play, an answer that gives cards) reads them the same way."""

    __slots__ = ()
    mask: int

    @property
    def cards(self) -> tuple[Card, ...]:
        return tuple(CARDS[i] for i in iter_bits(self.mask))

    @property
    def cardset(self) -> CardSet:
        return CardSet.from_mask(self.mask)


def to_mask(cards: CardsLike) -> int:
    """The bitmask of anything card-like: a CardSet, notation string, Card, index, or iterable of them.

    A token repeated in a string or iterable means the next deck copy (two decks hold two 3Ds).
    """
    if isinstance(cards, CardSet):
        return cards.mask
    if isinstance(cards, Card):
        return 1 << cards
    if isinstance(cards, int):
        return cards  # already a mask
    if isinstance(cards, str):
        cards = [t for t in _SPLIT.split(cards.strip()) if t]
    else:
        cards = list(cards)
    if any(isinstance(t, str) and t.endswith("'") for t in cards):
        # the second deck's copies named exactly: ``3D'``
        return mask_of_tokens(t if isinstance(t, str) else token(int(t)) for t in cards)
    mask = 0
    for item in cards:
        if isinstance(item, Card):
            bit = 1 << item
            if mask & bit:
                raise CardParseError(str(item), f"{item} appears twice")
            mask |= bit
            continue
        face = _parse_face(item) if isinstance(item, str) else int(item)
        mask |= free_copy(mask, face, str(item))
    return mask


def checked_mask(cards: object, pack: int | None = None, where: str = "") -> int:
    """:func:`to_mask` for input from outside, which may be anything: whatever is not a set of cards, or names
    a card the pack does not hold (a card written twice with one deck, a joker without jokers), is a
    :class:`CardParseError` saying so in words. ``where`` ends the message (e.g. " under 'classic'")."""
    shown = repr(cards) if cards is None or isinstance(cards, str | int | float | list | tuple) else ""
    kind = type(cards).__name__
    shown = shown if 0 < len(shown) <= 60 else f"{'an' if kind[0].lower() in 'aeiou' else 'a'} {kind}"
    refusal = f"{shown} is not a set of cards: write cards such as '3D 3S'"
    if cards is None or isinstance(cards, bool | float | complex):
        raise CardParseError(shown, refusal)
    try:
        mask = to_mask(cards)  # type: ignore[arg-type]
    except CardParseError:
        raise
    except (TypeError, ValueError, AttributeError, IndexError):
        raise CardParseError(shown, refusal) from None
    if mask < 0 or mask >> (DECK_SIZE * MAX_COPIES):
        raise CardParseError(shown, f"{shown} is not a set of cards (no card has that index)")
    if pack is not None and mask & ~pack:
        extra = mask & ~pack
        for i in bits(extra):
            twin = i - DECK_SIZE
            if twin >= 0 and mask >> twin & 1:
                name = str(CARDS[i])
                raise CardParseError(name, f"{name} appears twice{where}: the pack holds one {name}")
        shown = " ".join(str(CARDS[i]) for i in bits(extra))
        verb = "is" if extra & (extra - 1) == 0 else "are"
        raise CardParseError(shown, f"{shown} {verb} not in the pack{where}")
    return mask


def free_copy(mask: int, face: int, token: str) -> int:
    """The bit of the first deck copy of ``face`` not yet in ``mask`` (a repeated token is the next copy)."""
    for copy in range(MAX_COPIES):
        bit = 1 << (face + copy * DECK_SIZE)
        if not mask & bit:
            return bit
    raise CardParseError(token, f"{token} appears more than {MAX_COPIES} times (two decks at most)")


def token(index: int) -> str:
    """One card's notation with its deck copy marked: ``3D``, and ``3D'`` for the second deck's copy."""
    return str(CARDS[index]) + ("'" if index >= DECK_SIZE else "")


def tokens(indices: Iterable[int]) -> list[str]:
    """The notation of each card index, copies marked (see :func:`token`)."""
    return [token(i) for i in indices]


def mask_of_tokens(items: Iterable[str]) -> int:
    """The mask of card tokens as :func:`token` writes them: ``3D'`` is the second copy, and an unmarked card
    takes the first copy not already named (so plain notation reads as everywhere else); a card named twice
    raises CardParseError."""
    mask = 0
    plain = []
    for t in items:
        if t.endswith("'"):
            bit = 1 << card(t[:-1].strip(), copy=1)
            if mask & bit:
                raise CardParseError(t, f"{t} appears twice")
            mask |= bit
        else:
            plain.append(t)
    for t in plain:
        mask |= free_copy(mask, _parse_face(t), t)
    return mask


def fold_copies(mask: int) -> int:
    """The same cards with the deck copies folded: the first copy's bit where a set holds at least one of a
    card, the second copy's where it holds both (the identity for one deck). Two sets that differ only in
    which copy of a card they hold fold to one mask."""
    first = mask & _ONE_COPY
    second = mask >> DECK_SIZE
    return first | second | (first & second) << DECK_SIZE


def held_copies(mask: int, hand: int) -> int:
    """``mask`` with each card the hand does not hold moved to its other deck copy where the hand holds that one.

    Notation names the first copy of a card; a person who types ``3D`` while holding the second deck's 3D means
    the card in their hand. Cards the hand holds in neither copy are left as they are (the caller says so)."""
    for i in bits(mask & ~hand):
        alt = (i + DECK_SIZE) % (2 * DECK_SIZE)
        if hand >> alt & 1 and not mask >> alt & 1:
            mask = (mask & ~(1 << i)) | (1 << alt)
    return mask


def parse_cards(text: CardsLike) -> CardSet:
    """Parse notation such as ``"3D 10h 2♠"`` into a :class:`CardSet`; a bad token raises CardParseError."""
    return CardSet(text)
