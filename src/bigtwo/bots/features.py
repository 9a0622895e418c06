"""Input features for learned players: what one seat knows as a vector, and each of its legal actions as another.

The encoder reads a deliberately **narrow** description of the seat's knowledge, :class:`SeatInfo`, never a
Game or an observation dict directly. Two builders fill it with identical content:

- :func:`info_from_game`: straight from a :class:`~bigtwo.game.Game` (fast: training, simulations);
- :func:`info_from_observation`: from the seat's observation alone (how a bot at the table sees the game).

Tests hold the two equal on random positions of every preset, so a policy trained on the fast path plays at
the table exactly as it trained, and the observation path proves that nothing hidden reaches the features.
When the observation becomes a typed object, only :func:`info_from_observation` changes.

Seats are **relative** (0 is the observer, 1 the next seat in turn order, ...), so one network serves every
seat. Card sets are bit masks in the layout of :mod:`bigtwo.cards`; with two decks the copies are folded
(the first copy's bit: "at least one"; the second's: "both"), since nobody at the table can tell them apart.

State vector (``D`` card entries, ``n`` seats, ``k`` recent actions, ``K`` kinds of the ruleset), in order:
hand (D), unseen cards: neither in hand, played nor face up (D), cards played by each seat (n x D), the play
to beat (D), cards face up (D, rules that show some), cards each other seat is known to hold ((n-1) x D, rules
that show a leftover), the last ``k`` actions' cards (k x D); then per seat: cards left one-hot 0..15+
(n x 16) and scaled (n), who played the play to beat (n), seats that passed in this trick (n), seats that
have gone out (n); leading (1), the kind of the play to beat (K); who made each of the last ``k`` actions
(k x n) and which were passes (k).

Action vector: the move's cards (D), the hand left after it (D), its kind one-hot (pass first, then the
ruleset's kinds), its size / 5, whether it empties the hand, whether it splits a pair, a triple or four of a
kind held in the hand, and how many ranks it splits / 4 (DouZero's "breaks a combination of the hand").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from bigtwo.cards import DECK_SIZE, CardSet
from bigtwo.cards import fold_copies as fold
from bigtwo.combos.play import Play
from bigtwo.observation import Observation
from bigtwo.rules.choices import Leftover
from bigtwo.rules.ruleset import Ruleset

FEATURES_VERSION = 1
"""Bumped whenever a vector's layout or meaning changes: weights record the version they were trained on."""

_ONE_COPY = (1 << DECK_SIZE) - 1
_KNOWN_LEFTOVER = (
    Leftover.LEAD_HOLDER,
    Leftover.HIGHEST_HOLDER,
    Leftover.LOWEST_DIAMOND_HOLDER,
    Leftover.DEALER,
    Leftover.SWAP,
)
CARDS_LEFT_ONE_HOT = 16


def add_folded(a: int, b: int) -> int:
    """Two folded sets put together (counts add, two copies at most)."""
    if not (a >> DECK_SIZE or b >> DECK_SIZE or a & b):
        return a | b
    a0, b0 = a & _ONE_COPY, b & _ONE_COPY
    return a0 | b0 | ((a >> DECK_SIZE) | (b >> DECK_SIZE) | (a0 & b0)) << DECK_SIZE


def sub_folded(a: int, b: int) -> int:
    """Folded ``a`` less folded ``b`` (counts subtract, never below zero)."""
    if not (a >> DECK_SIZE or b >> DECK_SIZE):
        return a & ~b
    a0, a1 = a & _ONE_COPY, a >> DECK_SIZE
    b0, b1 = b & _ONE_COPY, b >> DECK_SIZE
    # counts: a = a0 + a1, b = b0 + b1 (a1 implies a0); a - b per card
    two = a1 & ~b0  # 2 - 0
    one = (a0 & ~a1 & ~b0) | (a1 & b0 & ~b1)  # 1 - 0, or 2 - 1
    return one | two | two << DECK_SIZE


def has_face_up(rules: Ruleset) -> bool:
    """Whether cards may lie face up for everyone to see under these rules."""
    return rules.leftover in (Leftover.FACE_UP, Leftover.SWAP)


def has_known(rules: Ruleset) -> bool:
    """Whether other seats may be publicly known to hold some cards under these rules."""
    return bool(rules.leftover_shown) and rules.leftover in _KNOWN_LEFTOVER


@dataclass(slots=True)
class SeatInfo:
    """Everything one seat may know at a decision, as folded masks and relative seats (0 = the observer)."""

    n: int
    hand: int
    played: tuple[int, ...]  # cards each seat has played this round
    trick: int  # the play to beat; 0 when the observer leads
    trick_kind: str | None
    trick_seat: int  # who played it; -1 when leading
    cards_left: tuple[int, ...]
    passed: int  # bit r: seat r passed since the last play of this trick
    finished: int  # bit r: seat r has gone out
    face_up: int
    known: tuple[int, ...]  # cards each seat is publicly known to hold (entry 0, the observer's, is 0)
    recent: tuple[tuple[int, int], ...]  # the last actions, most recent first: (seat, cards; 0 = a pass)


def _rel_bits(seats: Sequence[int], seat: int, n: int) -> int:
    out = 0
    for s in seats:
        out |= 1 << ((s - seat) % n)
    return out


def info_from_game(game: Any, seat: int, history: int) -> SeatInfo:
    """The seat's knowledge read straight from a Game (the fast path; equal to :func:`info_from_observation`)."""
    n = game.n
    played = [0] * n
    hist = game.history
    for s, p in hist:
        if p.mask:
            played[s] = add_folded(played[s], fold(p.mask))
    recent = tuple(((s - seat) % n, fold(p.mask)) for s, p in hist[: -history - 1 : -1]) if history else ()
    top = game.trick
    rules = game.rules
    known: tuple[int, ...] = (0,) * n
    if has_known(rules):
        seen = game.observe(seat).known
        known = tuple(fold(seen[(seat + r) % n]) if r else 0 for r in range(n))
    sizes = game.hand_sizes()
    return SeatInfo(
        n=n,
        hand=fold(game.hand(seat).mask),
        played=tuple(played[(seat + r) % n] for r in range(n)),
        trick=fold(top.mask) if top is not None else 0,
        trick_kind=top.kind if top is not None else None,
        trick_seat=(game.trick_seat - seat) % n if top is not None else -1,
        cards_left=tuple(sizes[(seat + r) % n] for r in range(n)),
        passed=_rel_bits(game.passed_seats(), seat, n),
        finished=_rel_bits(game.finishing_order, seat, n),
        face_up=fold(game.face_up) if has_face_up(rules) else 0,
        known=known,
        recent=recent,
    )


def info_from_observation(rules: Ruleset, observation: Observation, history: int) -> SeatInfo:
    """The seat's knowledge from its observation alone (how a bot at the table sees it)."""
    obs = observation
    n = obs.players
    seat = obs.seat
    assert seat is not None, "a spectator does not decide"
    played = [0] * n
    entries = obs.history
    for e in entries:
        if not e.is_pass:
            played[e.seat] = add_folded(played[e.seat], fold(e.play.mask))
    recent = tuple(((e.seat - seat) % n, fold(e.play.mask)) for e in entries[: -history - 1 : -1]) if history else ()
    trick = obs.trick
    known: tuple[int, ...] = (0,) * n
    if has_known(rules):
        known = tuple(fold(obs.known[(seat + r) % n]) if r else 0 for r in range(n))
    sizes = obs.hand_sizes
    return SeatInfo(
        n=n,
        hand=fold(obs.hand),
        played=tuple(played[(seat + r) % n] for r in range(n)),
        trick=fold(trick.mask) if trick is not None else 0,
        trick_kind=trick.kind if trick is not None else None,
        trick_seat=((obs.trick_seat or 0) - seat) % n if trick is not None else -1,
        cards_left=tuple(sizes[(seat + r) % n] for r in range(n)),
        passed=_rel_bits(obs.passed, seat, n),
        finished=_rel_bits(obs.finished, seat, n),
        face_up=fold(obs.face_up) if has_face_up(rules) else 0,
        known=known,
        recent=recent,
    )


def _unpack(masks: list[int], width: int) -> np.ndarray:
    """Masks as rows of 0/1 float32 (bit ``i`` of a mask is column ``i``), one numpy call for all."""
    nbytes = (width + 7) // 8
    raw = b"".join([m.to_bytes(nbytes, "little") for m in masks])
    arr = np.frombuffer(raw, dtype=np.uint8).reshape(len(masks), nbytes)
    return np.unpackbits(arr, axis=1, count=width, bitorder="little").astype(np.float32)


def suit_columns(width: int, relabel: Sequence[int] | None) -> np.ndarray | None:
    """The order of card columns that shows one table's cards as another's (``relabel[s]``: the other's suit for
    this table's suit ``s``, :meth:`Ruleset.suit_relabeling`), for ``unpacked[:, columns]``; None for the
    identity. Jokers keep their columns."""
    if relabel is None or tuple(relabel) == (0, 1, 2, 3):
        return None
    columns = np.arange(width)
    for c in range(width):
        copy, face = divmod(c, DECK_SIZE)
        if face < 52:  # ranked cards: index rank * 4 + suit
            columns[copy * DECK_SIZE + (face & ~3) + relabel[face & 3]] = c
    return columns


def _input_order(columns: np.ndarray | None, blocks: int, width: int, size: int) -> np.ndarray:
    """Where each entry of a vector written with ``columns`` comes from in one written without: the card blocks'
    columns renamed, the rest in place."""
    order = np.arange(size)
    if columns is not None:
        for b in range(blocks):
            order[b * width : (b + 1) * width] = b * width + columns
    return order


class StateEncoder:
    """The state vector of one ruleset at one table size (layout in the module docstring); ``suits`` (a suit
    relabeling) writes the cards as the game another network learned sees them."""

    def __init__(self, rules: Ruleset, players: int, history: int = 8, suits: Sequence[int] | None = None):
        if history < 0:
            raise ValueError(f"history={history}: the number of recent actions must be 0 or more")
        self.rules = rules
        self.n = n = players
        self.k = k = history
        self.pack = fold(CardSet.deck(jokers=rules.jokers, decks=rules.decks).mask)
        self.width = d = max(self.pack.bit_length(), 1)
        self.face_up = has_face_up(rules)
        self.known = has_known(rules)
        self.kinds = tuple(rules.combinations)
        self.kind_index = {kd: i for i, kd in enumerate(self.kinds)}
        self.card_rows = 3 + n + (1 if self.face_up else 0) + ((n - 1) if self.known else 0) + k
        self.small = n * (CARDS_LEFT_ONE_HOT + 5) + 1 + len(self.kinds) + k * n + k
        self.size = self.card_rows * d + self.small
        self.columns = suit_columns(d, suits)

    def input_order(self) -> np.ndarray:
        """``encoded[order]`` of this table's own vector is the renamed one this encoder writes."""
        return _input_order(self.columns, self.card_rows, self.width, self.size)

    def encode(self, info: SeatInfo) -> np.ndarray:
        """The state vector (float32) of one seat's knowledge."""
        out = np.empty(self.size, dtype=np.float32)
        self.encode_into(info, out)
        return out

    def encode_into(self, info: SeatInfo, out: np.ndarray) -> None:
        """Write the state vector into ``out`` (a float32 row of ``size`` entries)."""
        n, k, d = self.n, self.k, self.width
        seen = add_folded(info.hand, info.face_up)
        for m in info.played:
            seen = add_folded(seen, m)
        masks = [info.hand, sub_folded(self.pack, seen), *info.played, info.trick]
        if self.face_up:
            masks.append(info.face_up)
        if self.known:
            masks += info.known[1:]
        recent = info.recent[:k]
        masks += [m for _, m in recent]
        masks += [0] * (k - len(recent))
        rows = len(masks) * d
        cards = _unpack(masks, d)
        out[:rows] = (cards if self.columns is None else cards[:, self.columns]).reshape(-1)
        small = [0.0] * self.small
        oh = CARDS_LEFT_ONE_HOT
        for r, c in enumerate(info.cards_left):
            small[r * oh + min(c, oh - 1)] = 1.0
        i = n * oh
        for r, c in enumerate(info.cards_left):
            small[i + r] = c / 13.0
        i += n
        if info.trick_seat >= 0:
            small[i + info.trick_seat] = 1.0
        i += n
        for r in range(n):
            if info.passed >> r & 1:
                small[i + r] = 1.0
            if info.finished >> r & 1:
                small[i + n + r] = 1.0
        i += 2 * n
        if info.trick_seat < 0:
            small[i] = 1.0
        i += 1
        if info.trick_kind is not None and info.trick_kind in self.kind_index:
            small[i + self.kind_index[info.trick_kind]] = 1.0
        i += len(self.kinds)
        for j, (s, m) in enumerate(recent):
            small[i + j * n + s] = 1.0
            if not m:
                small[i + k * n + j] = 1.0
        out[rows:] = small


class ActionEncoder:
    """The vectors of a hand's legal actions (layout in the module docstring); ``suits`` as for the states."""

    def __init__(self, rules: Ruleset, players: int, suits: Sequence[int] | None = None):
        self.rules = rules
        ev = rules.engine_for(players)
        self.rank_of = list(ev.rank_of)
        self.width = d = max(fold(CardSet.deck(jokers=rules.jokers, decks=rules.decks).mask).bit_length(), 1)
        self.kinds = ("pass", *rules.combinations)
        self.kind_index = {kd: i for i, kd in enumerate(self.kinds)}
        self.extra = len(self.kinds) + 6
        self.size = 2 * d + self.extra
        self.columns = suit_columns(d, suits)

    def input_order(self) -> np.ndarray:
        """As :meth:`StateEncoder.input_order`, for an action's vector."""
        return _input_order(self.columns, 2, self.width, self.size)

    def encode(self, hand: int, plays: Sequence[Play]) -> np.ndarray:
        """One row per play: ``hand`` and the plays' masks as the engine holds them (unfolded)."""
        d = self.width
        masks = [fold(p.mask) for p in plays] + [fold(hand & ~p.mask) for p in plays]
        cards = _unpack(masks, d)
        if self.columns is not None:
            cards = cards[:, self.columns]
        L = len(plays)
        out = np.zeros((L, self.size), dtype=np.float32)
        out[:, :d] = cards[:L]
        out[:, d : 2 * d] = cards[L:]
        rank_of = self.rank_of
        held: dict[int, int] = {}
        m = hand
        while m:
            low = m & -m
            r = rank_of[low.bit_length() - 1]
            held[r] = held.get(r, 0) + 1
            m ^= low
        base = 2 * d
        x = base + len(self.kinds)
        for i, p in enumerate(plays):
            row = out[i]
            ki = self.kind_index.get("pass" if not p.mask else p.kind)
            if ki is not None:
                row[base + ki] = 1.0
            if not p.mask:
                continue
            row[x] = p.size / 5.0
            if not hand & ~p.mask:
                row[x + 1] = 1.0
            used: dict[int, int] = {}
            m = p.mask
            while m:
                low = m & -m
                r = rank_of[low.bit_length() - 1]
                used[r] = used.get(r, 0) + 1
                m ^= low
            split = 0
            for r, u in used.items():
                h = held.get(r, 0)
                if u < h:
                    split += 1
                    row[x + 2 + min(h, 4) - 2] = 1.0
            row[x + 5] = split / 4.0
        return out


__all__ = [
    "FEATURES_VERSION",
    "ActionEncoder",
    "SeatInfo",
    "StateEncoder",
    "add_folded",
    "fold",
    "has_face_up",
    "has_known",
    "info_from_game",
    "info_from_observation",
    "sub_folded",
]
