"""The observation vector: what one seat may know, as a flat ``int8`` array of documented fields.

Seats are **relative** to the observer: row or entry ``r`` of a per-seat field is the seat ``r`` places after
the observer in turn order (``r = 0`` is the observer), so one policy serves every seat. Card fields are card
vectors (entry ``i`` is card index ``i`` of :mod:`bigtwo.cards`), as wide as the ruleset's pack needs: 52 for
one deck, 54 with jokers, 106 for two decks (108 with jokers). With two decks the copies of a card are folded
(:func:`bigtwo.envs.actions.fold_copies`: the first copy's entry says "at least one", the second's "both"),
since nobody at the table can tell them apart. Fields, in order (``D`` card entries, ``n`` seats, ``k`` the
history length, ``K`` the ruleset's kinds); a field the ruleset can never fill has no entries (shape 0):

====================  ===========  ====================================================================
field                 shape        meaning
====================  ===========  ====================================================================
``hand``              D            the observer's cards
``played``            n x D        cards each seat has played this round
``trick``             D            the play to beat (all zero when the seat to move leads)
``required``          D            the card the next play must contain (the first lead), only if the
                                   observer holds it
``face_up``           D or 0       cards set aside face up for everyone to see (rules whose leftover is
                                   ``face-up`` or ``swap``; otherwise no entries)
``known``             (n-1) x D    cards each *other* seat (relative seats 1..n-1) is publicly known to
                      or 0         hold: a leftover everyone saw it take (``leftover_shown``), or (with
                                   ``procedures``) cards bid, bought or offered in the open in auctions and
                                   free trade, still in its hand; otherwise no entries
``history_cards``     k x D        cards of the last ``k`` actions, most recent first (zero: a pass or
                                   before the round began)
``cards_left``        n            cards left in each seat's hand
``stock``             1 or 0       cards left in the stock to draw from (``leftover = "stock"``;
                                   otherwise no entries)
``to_move``           n            one-hot: the seat to move (all zero once the round is over)
``leader``            n            one-hot: the seat that led the current trick (while nobody has played
                                   to it yet: the seat that is to lead it)
``trick_seat``        n            one-hot: who played the play to beat
``passed``            n            seats that passed since the last play of this trick
``trick_kind``        K            one-hot: the kind of the play to beat, in ``rules.combinations`` order
``history_seat``      k x n        one-hot per row: who made each of the last ``k`` actions
``history_pass``      k            1 where that action was a pass
``procedure``         1 or 0       1 while the procedures before play run (environments made with
                                   ``procedures``; otherwise this and the fields below have no entries)
``decision_kind``     12 or 0      one-hot: the kind of the observer's own pending decision, in
                                   ``bigtwo.actions.DECISION_KINDS`` order (zero when another seat decides)
``decision_count``    1 or 0       its count (cards to give, to offer at most, to ask for)
``decision_party``    n or 0       one-hot: the other party (relative seat: the best bidder, the offerer,
                                   the seat given to or asked)
``decision_cards``    D or 0       the card on auction; the cards offered to the observer
``decision_want``     D or 0       the cards an offer or a request asks of the observer
``decision_best``     D or 0       the best bid so far
====================  ===========  ====================================================================

Passes the engine makes itself (``auto_skip``: a seat that cannot possibly beat the table is skipped) are
passes like any other in ``passed``, ``history_*`` and the seat order; a card drawn on a pass
(``draw_on_pass``) shows in the drawer's own ``hand`` and in everyone's ``cards_left`` and ``stock``.

Everything here is public or the observer's own (the round's history, hand sizes, the observer's hand):
:meth:`ObservationEncoder.from_observation` builds the same vector from the seat's observation alone,
which is how the tests prove nothing hidden leaks in.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from bigtwo.actions import DECISION_KINDS
from bigtwo.cards import DECK_SIZE
from bigtwo.envs.actions import card_width, fold_copies, masks_to_vectors, pack_mask
from bigtwo.observation import Observation, Phase
from bigtwo.rules.choices import ExchangeMode, Leftover
from bigtwo.rules.ruleset import Ruleset, load_rules

_ONE_COPY = (1 << DECK_SIZE) - 1
_KNOWN_LEFTOVER = (
    Leftover.LEAD_HOLDER,
    Leftover.HIGHEST_HOLDER,
    Leftover.LOWEST_DIAMOND_HOLDER,
    Leftover.DEALER,
    Leftover.SWAP,
)


def add_cards(a: int, b: int) -> int:
    """The folded mask of two folded sets put together (counts add up, two copies at most)."""
    a0, b0 = a & _ONE_COPY, b & _ONE_COPY
    return a0 | b0 | ((a >> DECK_SIZE) | (b >> DECK_SIZE) | (a0 & b0)) << DECK_SIZE


@dataclass(frozen=True)
class Field:
    """One named slice of the observation vector."""

    name: str
    shape: tuple[int, ...]
    start: int
    high: int
    doc: str

    @property
    def size(self) -> int:
        return int(np.prod(self.shape))

    @property
    def slice(self) -> slice:
        return slice(self.start, self.start + self.size)


class ObservationEncoder:
    """Builds observation vectors for one ruleset, table size and history length."""

    def __init__(self, rules: Ruleset | str, players: int, history: int = 8, *, decisions: bool = False):
        self.rules = rules = load_rules(rules)
        if history < 0:
            raise ValueError(f"history={history}: the number of past actions shown must be 0 or more")
        self.n = n = players
        self.k = k = history
        pack = pack_mask(rules)
        self.card_width = d = card_width(pack)
        self.folded = rules.decks > 1
        self.kinds = tuple(rules.combinations)
        self.kind_index = {kd: i for i, kd in enumerate(self.kinds)}
        most = min(127, pack.bit_count())
        self.has_face_up = rules.leftover_on_table
        # cards publicly known in a hand: a leftover everyone saw taken; with the procedures before play, also
        # the cards bid, bought or offered in the open (auctions, free trade)
        in_the_open = (
            rules.exchange in (ExchangeMode.HIGHER_BID_AUCTION, ExchangeMode.FREE_BID_AUCTION) or rules.free_trade
        )
        self.has_known = (rules.leftover_shown and rules.leftover in _KNOWN_LEFTOVER) or (decisions and in_the_open)
        self.has_stock = rules.leftover_to_stock
        specs = [
            ("hand", (d,), 1, "the observer's cards"),
            ("played", (n, d), 1, "cards each seat has played this round (relative seats)"),
            ("trick", (d,), 1, "the play to beat (zero when leading)"),
            ("required", (d,), 1, "the card the next play must contain, if the observer holds it"),
            ("face_up", (d if self.has_face_up else 0,), 1, "cards set aside face up"),
            ("known", (n - 1 if self.has_known else 0, d), 1, "cards each other seat is known to hold"),
            ("history_cards", (k, d), 1, "cards of the last k actions, most recent first"),
            ("cards_left", (n,), most, "cards left in each seat's hand"),
            ("stock", (1 if self.has_stock else 0,), most, "cards left in the stock"),
            ("to_move", (n,), 1, "one-hot: the seat to move"),
            ("leader", (n,), 1, "one-hot: the seat that led (or leads) the current trick"),
            ("trick_seat", (n,), 1, "one-hot: who played the play to beat"),
            ("passed", (n,), 1, "seats that passed since the last play of this trick"),
            ("trick_kind", (len(self.kinds),), 1, "one-hot: kind of the play to beat"),
            ("history_seat", (k, n), 1, "one-hot per row: who made each of the last k actions"),
            ("history_pass", (k,), 1, "1 where that action was a pass"),
        ]
        self.decisions = decisions
        on = 1 if decisions else 0
        specs += [
            ("procedure", (on,), 1, "1 while the procedures before play run"),
            ("decision_kind", (on * len(DECISION_KINDS),), 1, "one-hot: the observer's pending decision"),
            ("decision_count", (on,), most, "its count"),
            ("decision_party", (on * n,), 1, "one-hot: the other party of the decision (relative seat)"),
            ("decision_cards", (on * d,), 1, "the card on auction; the cards offered to the observer"),
            ("decision_want", (on * d,), 1, "the cards an offer or a request asks of the observer"),
            ("decision_best", (on * d,), 1, "the best bid so far"),
        ]
        fields = []
        start = 0
        for name, shape, high, doc in specs:
            f = Field(name, shape, start, high, doc)
            fields.append(f)
            start += f.size
        self.fields: tuple[Field, ...] = tuple(fields)
        self.field = {f.name: f for f in self.fields}
        self.size = start
        self.high = np.zeros(self.size, dtype=np.int8)
        for f in self.fields:
            self.high[f.slice] = f.high
        self._rot = [[(seat + r) % n for r in range(n)] for seat in range(n)]
        # the fields after the card rows, with offsets counted from the first of them (cards_left)
        self._small_start = s0 = self.field["cards_left"].start
        self._small_size = self.size - s0
        self._stock_off = self.field["stock"].start - s0
        self._to_move_off = self.field["to_move"].start - s0
        self._leader_off = self.field["leader"].start - s0
        self._trick_seat_off = self.field["trick_seat"].start - s0
        self._passed_off = self.field["passed"].start - s0
        self._kind_off = self.field["trick_kind"].start - s0
        self._hseat_off = self.field["history_seat"].start - s0
        self._hpass_off = self.field["history_pass"].start - s0

    def space(self) -> Any:
        """The gymnasium ``Box`` these vectors live in."""
        from gymnasium import spaces

        return spaces.Box(low=0, high=self.high.copy(), shape=(self.size,), dtype=np.int8)

    def encode(
        self,
        seat: int,
        hand: int,
        played: Sequence[int],
        cards_left: Sequence[int],
        to_move: int | None,
        leader: int | None,
        trick: int,
        trick_kind: str | None,
        trick_seat: int | None,
        passed: Sequence[int],
        required: int,
        history: Sequence[tuple[int, int]],
        face_up: int = 0,
        known: Mapping[int, int] | None = None,
        stock: int = 0,
    ) -> np.ndarray:
        """The vector from plain state (the reference the environment's fast path is tested against): card
        masks (with two decks, ``played`` must count both copies: raw masks or :func:`add_cards` sums),
        absolute seats, the round's actions as ``(seat, mask)`` (a pass has mask 0), oldest first, and the
        cards each other seat is known to hold, by seat."""
        k = self.k
        rot = self._rot[seat]
        masks = [hand]
        masks += [played[s] for s in rot]
        masks.append(trick)
        masks.append(required)
        if self.has_face_up:
            masks.append(face_up)
        if self.has_known:
            known = known or {}
            masks += [known.get(s, 0) for s in rot[1:]]
        recent = history[-k:][::-1] if k else []
        masks += [m for _, m in recent]
        masks += [0] * (k - len(recent))
        if self.folded:
            masks = [fold_copies(m) for m in masks]
        out = np.zeros(self.size, dtype=np.int8)
        d = self.card_width
        out[: len(masks) * d] = masks_to_vectors(masks, d).reshape(-1)
        self._fill_small(
            out,
            seat,
            cards_left,
            stock,
            to_move,
            leader,
            trick_seat,
            passed,
            trick_kind,
            [(s, not m) for s, m in recent],
        )
        return out

    def _fill_small(
        self,
        out: np.ndarray,
        seat: int,
        cards_left: Sequence[int],
        stock: int,
        to_move: int | None,
        leader: int | None,
        trick_seat: int | None,
        passed: Sequence[int],
        trick_kind: str | None,
        recent: Sequence[tuple[int, bool]],
    ) -> None:
        """The per-seat and per-action fields of ``out`` (everything after the card rows)."""
        n = self.n
        small = bytearray(self._small_size)  # built as bytes, copied into ``out`` once: cheaper than numpy indexing
        if to_move is not None:
            small[self._to_move_off + (to_move - seat) % n] = 1
        if leader is not None:
            small[self._leader_off + (leader - seat) % n] = 1
        if trick_seat is not None:
            small[self._trick_seat_off + (trick_seat - seat) % n] = 1
        p0 = self._passed_off
        for s in passed:
            small[p0 + (s - seat) % n] = 1
        if trick_kind is not None:
            small[self._kind_off + self.kind_index[trick_kind]] = 1
        hs, hp = self._hseat_off, self._hpass_off
        for i, (s, was_pass) in enumerate(recent):
            small[hs + i * n + (s - seat) % n] = 1
            if was_pass:
                small[hp + i] = 1
        small[:n] = bytes([*cards_left[seat:], *cards_left[:seat]])
        if self.has_stock:
            small[self._stock_off] = stock
        out.data.cast("B")[self._small_start :] = small

    def fill_decision(self, out: np.ndarray, observation: Observation) -> None:
        """The decision fields of ``out`` from the seat's observation (nothing without ``decisions``)."""
        if not self.decisions:
            return
        obs = observation
        f = self.field
        out[f["procedure"].start] = 1 if obs.phase == Phase.EXCHANGE else 0
        d = obs.decision
        if d is None or obs.seat is None:
            return
        out[f["decision_kind"].start + DECISION_KINDS.index(d.kind)] = 1
        out[f["decision_count"].start] = min(d.count, int(f["decision_count"].high))
        party = d.source if d.source is not None else d.to
        if party is not None:
            out[f["decision_party"].start + (party - obs.seat) % self.n] = 1
        masks = [getattr(d, name, 0) for name in ("cards", "want", "best")]  # the kinds that have them
        if self.folded:
            masks = [fold_copies(m) for m in masks]
        rows = masks_to_vectors(masks, self.card_width)
        for name, row in zip(("decision_cards", "decision_want", "decision_best"), rows, strict=True):
            out[f[name].slice] = row

    def from_observation(self, observation: Observation) -> np.ndarray:
        """The vector from a seat's observation alone (its JSON form reads too): for bots, tests, records."""
        obs = observation
        n = self.n
        played = [0] * n
        history: list[tuple[int, int]] = []
        for entry in obs.history:
            m = entry.play.mask
            played[entry.seat] = add_cards(played[entry.seat], fold_copies(m))
            history.append((entry.seat, m))
        trick = obs.trick
        to_move = obs.to_move
        leader = to_move
        if trick is not None:
            leader = next(s for s, m in history[obs.trick_start :] if m)
        assert obs.seat is not None, "a spectator's observation has no seat to encode for"
        out = self.encode(
            seat=obs.seat,
            hand=obs.hand,
            played=played,
            cards_left=list(obs.hand_sizes),
            to_move=to_move,
            leader=leader,
            trick=trick.mask if trick is not None else 0,
            trick_kind=trick.kind if trick is not None else None,
            trick_seat=obs.trick_seat if trick is not None else None,
            passed=list(obs.passed),
            required=obs.required,
            history=history,
            face_up=obs.face_up,
            known={s: k for s, k in enumerate(obs.known) if k},
            stock=obs.stock_size,
        )
        self.fill_decision(out, obs)
        return out

    def explain(self, vector: np.ndarray) -> dict[str, np.ndarray]:
        """The vector split into its named fields (each reshaped), for reading and debugging."""
        v = np.asarray(vector)
        return {f.name: v[f.slice].reshape(f.shape) for f in self.fields}

    def describe(self) -> str:
        """The layout, one line per field."""
        lines = [f"observation: {self.size} int8 entries ({self.n} seats, {self.card_width} card entries, k={self.k})"]
        for f in self.fields:
            shape = " x ".join(str(x) for x in f.shape)
            lines.append(f"  {f.start:>5}  {f.name:<14} {shape:<9} {f.doc}")
        return "\n".join(lines)


class ObservationTracker:
    """One round's observation inputs kept as arrays and updated per action, so an observation costs a few
    slice copies instead of a rebuild. The environment's fast path; tests hold it equal to ``encode``.

    ``card_rows`` are precomputed card vectors by action index (the catalogue's ``cards``, one deck only);
    without them each action's vector is computed when it is recorded. Rules that change hands or the
    history outside the seat's own action (two decks, automatic skips, draws) take a slower, general path.
    """

    def __init__(self, encoder: ObservationEncoder, card_rows: np.ndarray | None = None):
        self.enc = encoder
        rules = encoder.rules
        self.folded = encoder.folded
        self.card_rows = None if self.folded else card_rows
        self.auto = rules.auto_skip or rules.draw_on_pass  # the engine may add actions or cards by itself
        self.draws = rules.draw_on_pass
        d, n, k = encoder.card_width, encoder.n, encoder.k
        self._zero = np.zeros(d, dtype=np.int8)
        self.hands = np.zeros((n, d), dtype=np.int8)
        self.played = np.zeros((n, d), dtype=np.int8)
        self.hand_masks = [0] * n
        self.played_masks = [0] * n
        self.hist = np.zeros((k, d), dtype=np.int8)
        self.recent: list[tuple[int, bool]] = []  # (seat, was a pass), most recent first, at most k
        self.trick_row = self._zero
        self.leader: int | None = None
        self.count = 0  # actions of the round recorded so far
        self.face_down = False  # the Horse Game with the look offered: a hand not looked at is not seen
        self._face_up = (-1, self._zero)
        f = encoder.field
        self._played0 = f["played"].start
        self._trick = f["trick"].slice
        self._required = f["required"].slice
        self._face = f["face_up"].slice
        self._known = f["known"]
        self._hist = f["history_cards"].slice

    def _rows(self, masks: Sequence[int]) -> np.ndarray:
        if self.folded:
            masks = [fold_copies(m) for m in masks]
        return masks_to_vectors(masks, self.enc.card_width)

    def start(self, game: Any) -> None:
        """Take up ``game`` at its current position (its hands, and its public history replayed)."""
        n = self.enc.n
        self.hand_masks = [game.hand(s).mask for s in range(n)]
        # cards publicly known in each hand when play began (a shown leftover, cards bought or traded in the
        # open): known while still held, so each observation takes them from the hands as they stand
        self.known_masks = list(game.observe(None).known) if self.enc.has_known else []
        self.played_masks = [0] * n
        self.hands = self._rows(self.hand_masks).copy()
        self.played[:] = 0
        self.hist[:] = 0
        self.recent = []
        self.trick_row = self._zero
        self.leader = None
        history = game.history
        for s, p in history:
            self._record(s, p.mask, self._rows([p.mask])[0], opened=False, hand_too=False)
        self.count = len(history)
        # the leader of the current trick: the first play since the trick opened
        if game.trick is None:
            self.leader = None if game.is_over else game.to_move
        else:
            start = game.trick_start
            self.leader = next(s for s, p in history[start:] if p.mask)

    def _record(self, seat: int, mask: int, row: np.ndarray, opened: bool, hand_too: bool = True) -> None:
        if mask:
            self.played_masks[seat] |= mask
            self.hand_masks[seat] &= ~mask
            if self.folded:  # folded rows do not subtract: build them again from the masks
                rows = self._rows([self.hand_masks[seat], self.played_masks[seat]])
                if hand_too:
                    self.hands[seat] = rows[0]
                self.played[seat] = rows[1]
            else:
                if hand_too:
                    self.hands[seat] -= row
                self.played[seat] += row
            self.trick_row = row
            if opened:
                self.leader = seat
        k = self.enc.k
        if k:
            self.hist[1:] = self.hist[:-1]
            self.hist[0] = row if mask else self._zero
            self.recent.insert(0, (seat, not mask))
            del self.recent[k:]

    def record(self, game: Any, seat: int, mask: int, action: int | None, opened: bool) -> None:
        """After ``seat`` played ``mask`` (0: passed; ``action`` its catalogue index) on a trick that was empty
        (``opened``) or not; ``game`` is the position after it (and after any passes the engine made itself)."""
        if self.card_rows is not None and action is not None:
            row = self.card_rows[action]
        else:
            row = self._rows([mask])[0]
        self._record(seat, mask, row, opened)
        self.count += 1
        if self.auto:
            history = game.history
            for s, p in history[self.count :]:  # automatic skips: passes
                self._record(s, p.mask, self._rows([p.mask])[0], opened=False)
            self.count = len(history)
            if self.draws:  # a pass may have drawn a card: take every hand up again (the stock is small)
                self.hand_masks = [game.hand(s).mask for s in range(self.enc.n)]
                self.hands = self._rows(self.hand_masks).copy()
        if game.trick is None:
            self.leader = None if game.is_over else game.to_move

    def vector(self, game: Any, seat: int) -> np.ndarray:
        """The observation vector of ``seat`` at the game's current position."""
        enc = self.enc
        n, d = enc.n, enc.card_width
        out = np.zeros(enc.size, dtype=np.int8)
        if not self.face_down or game.sees_own_hand(seat):
            out[:d] = self.hands[seat]
        p0 = self._played0
        cut = p0 + (n - seat) * d
        out[p0:cut] = self.played[seat:].reshape(-1)
        out[cut : p0 + n * d] = self.played[:seat].reshape(-1)
        trick = game.trick
        if trick is not None:
            out[self._trick] = self.trick_row
        req = game.required_card
        if req is not None and req.mask & self.hand_masks[seat]:
            out[self._required] = self._rows([req.mask & self.hand_masks[seat]])[0]
        if enc.has_face_up:
            face = game.face_up
            if face != self._face_up[0]:
                self._face_up = (face, self._rows([face])[0])
            out[self._face] = self._face_up[1]
        if enc.has_known:
            known, hands = self.known_masks or [0] * n, self.hand_masks
            rows = self._rows([known[(seat + r) % n] & hands[(seat + r) % n] for r in range(1, n)])
            out[self._known.slice] = rows.reshape(-1)
        out[self._hist] = self.hist.reshape(-1)
        over = game.is_over
        enc._fill_small(
            out,
            seat,
            game.hand_sizes(),
            game.stock_size if enc.has_stock else 0,
            None if over else game.to_move,
            self.leader,
            game.trick_seat,
            game.passed_seats(),
            trick.kind if trick is not None else None,
            self.recent,
        )
        return out
