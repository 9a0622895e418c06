"""The round: deal, tricks, going out, result; play / pass / undo; what each seat may see.

Seats are 0..n-1 and the next seat is always ``seat + 1 (mod n)`` (the ruleset's ``direction`` only says
which way that is round a real table). State is a handful of ints and immutable objects, so ``undo()`` is a
snapshot pop and every accepted action can be replayed from the deal.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Any

from bigtwo import native
from bigtwo.actions import Decision, DecisionKind, Redeal, Swap, Word
from bigtwo.cards import THREE, CardSet, CardsLike, bits, checked_mask, held_copies, to_mask
from bigtwo.combos.play import PASS, Play
from bigtwo.deal import (
    Deal,
    deal,
    four_of_a_kind,
    four_twos,
    holder,
    lead_card_mask,
    malta_dragon,
    redeal_reasons,
)
from bigtwo.errors import BigTwoError, CardParseError, IllegalPlay, whole_number
from bigtwo.i18n import _
from bigtwo.legal import fewest_to_beat, hand_actions, last_play_reason, pass_decided
from bigtwo.moves import HandIndex
from bigtwo.observation import HistoryEntry, Note, Observation, Phase
from bigtwo.rules.choices import FourTwos
from bigtwo.rules.kinds import Kind
from bigtwo.rules.ruleset import Ruleset, load_rules
from bigtwo.scoring import RoundOutcome, RoundResult, Verdict, instant_result, score_round
from bigtwo.words import plural

AUTO_PASS = Play(0, Kind.PASS)  # a pass the automatic turn skip made; equal to Play.PASS
MAX_REDEALS = 100  # deals thrown in by a rule (all four 2s) before a round gives up
MAX_REDEAL_REQUESTS = 20  # new deals players may ask for in one round, so every round ends


@dataclass(frozen=True, slots=True)
class Snapshot:
    """The round's state before one action: what :meth:`Game.undo` restores (everything else is derived
    from it, or is the history, cut back to ``history_length``)."""

    hands: tuple[int, ...]
    indexes: tuple[HandIndex, ...]
    to_move: int
    top: Play | None
    top_seat: int
    passed: int
    blocked: int
    required: int
    active: int
    finished: tuple[int, ...]
    history_length: int
    trick_open: int
    stock_pos: int
    uncalled: int
    looked: int
    viewer: int
    forfeited: tuple[int, ...]


class Game:
    """One round of a climbing game under a :class:`Ruleset`.

    ``Game(rules, players=4, seed=7)`` deals a shuffled pack; ``Game(rules, hands=[...])`` starts from given
    hands (any sizes: puzzles, duplicate deals). ``first`` names the seat that leads; by default it is the
    holder of ``rules.lead_card`` (or of the lowest card dealt when nobody holds it), who must then play it.
    ``dealer`` (default: the last seat) decides who is dealt to first and who gets a 'dealer' leftover.
    ``stock`` gives the draw pile, top first, for explicit hands under ``draw_on_pass``. ``twos_low`` fixes
    whether the 2s rank lowest this round (by default the deal decides, under ``dealt_bomb_twos_low``).

    Where the compiled core is built and covers the rules (:func:`bigtwo.native.covers`), the play phase runs in
    C++ behind this same API, with identical results; ``native=False`` keeps the round in the Python engine
    (the reference), as ``BIGTWO_NATIVE=0`` does for every round.
    """

    def __init__(
        self,
        rules: Ruleset | str = "classic",
        players: int | None = None,
        seed: int | None = None,
        hands: Sequence[CardsLike] | None = None,
        first: int | None = None,
        dealer: int | None = None,
        stock: CardsLike | list[CardsLike] | None = None,
        twos_low: bool | None = None,
        *,
        native: bool = True,
    ):
        self.rules = load_rules(rules) if not isinstance(rules, Ruleset) else rules
        self.seed = seed
        self._native_wanted = native
        self._twos_low_given = twos_low
        players = whole_number(players, "players")
        first = whole_number(first, "first")
        dealer = whole_number(dealer, "dealer")
        if hands is not None:
            pack = CardSet.deck(self.rules.jokers, self.rules.decks).mask
            if isinstance(hands, str | CardSet | int) or not isinstance(hands, Sequence):
                raise BigTwoError(f"hands={hands!r}: give a list of hands, one per seat, such as ['3D 4D', '5S']")
            masks = [checked_mask(h, pack, f" under {self.rules.name!r}") for h in hands]
            n = len(masks)
            if players is not None and players != n:
                raise BigTwoError(f"players={players} but {n} hands were given")
            seen = 0
            for seat, m in enumerate(masks):
                if seen & m:
                    dup = CardSet.from_mask(seen & m)
                    raise BigTwoError(f"hand {seat} repeats {dup}, which another hand already holds")
                seen |= m
        else:
            n = self.rules.players if players is None else players
        if not 2 <= n <= 8:
            raise BigTwoError(f"{plural(n, 'player')}: a round needs 2 to 8")
        if hands is None and not self.rules.min_players <= n <= self.rules.max_players:
            raise BigTwoError(
                f"{n} players: {self.rules.name!r} is for {self.rules.min_players}-{self.rules.max_players} players"
            )
        self.n = n
        self.ev = self.rules.engine_for(n)
        self.dealer = n - 1 if dealer is None else dealer
        if not 0 <= self.dealer < n:
            raise BigTwoError(f"dealer={dealer} is not a seat (0-{n - 1})")
        try:
            self._rng = random.Random(seed)
        except TypeError:
            raise BigTwoError(f"seed={seed!r}: a seed is a whole number") from None
        self._rng_shared = False  # clones share the generator until one of them deals again
        self.redeals: list[str] = []  # why each earlier deal of this round was thrown in, in words
        self.requests: list[tuple[int, str]] = []  # deal-time decisions taken: (seat, 'redeal' or 'swap')
        if hands is not None:
            d = Deal(hands=masks)
            if stock is not None:
                if isinstance(stock, list):
                    d.stock = [to_mask(c).bit_length() - 1 for c in stock]
                else:
                    d.stock = bits(to_mask(stock))
            self._dealt_by_game = False
        else:
            d = self._deal_with_redeals()
            self._dealt_by_game = True
        self._first = first
        self._setup(d)

    # --- setup ---------------------------------------------------------------------------------------
    def _deal_with_redeals(self) -> Deal:
        if self._rng_shared:  # copy on write: a clone and its original deal alike but apart
            rng = random.Random()
            rng.setstate(self._rng.getstate())
            self._rng, self._rng_shared = rng, False
        self.ev = self.rules.engine_for(self.n)  # the pack's own order, whatever the last deal made of it
        for _attempt in range(MAX_REDEALS):
            d = deal(self.rules, self.ev, self.n, self._rng, self.dealer)
            if self.rules.four_twos == FourTwos.REDEAL and any(four_twos(self.ev, h) for h in d.hands):
                seat = next(s for s, h in enumerate(d.hands) if four_twos(self.ev, h))
                self.redeals.append(f"seat {seat} held all four 2s")
                continue
            return d
        raise BigTwoError("no playable deal after 100 redeals")

    def _round_engine(self, masks: Sequence[int]) -> None:
        """The evaluator of this deal: under ``dealt_bomb_twos_low`` a dealt four of a kind makes the 2s the
        lowest cards (002 Four-of-a-kind), which everyone is told (``twos_low`` in every observation)."""
        low = self.rules.dealt_bomb_twos_low and any(four_of_a_kind(self.ev, m) for m in masks)
        if self._twos_low_given is not None:
            low = self._twos_low_given  # a position rebuilt from an observation keeps the round's order
        self.twos_low = low
        self.ev = self.rules.engine_for(self.n, twos_low=low)

    def _setup(self, d: Deal, dealt: bool = True) -> None:
        if "_nat" in self.__dict__:  # a new deal or exchanged hands: the Python engine sets the round up again
            del self.__dict__["_nat"]
            self.__dict__.pop("is_over", None)
            self.__class__ = Game
        n = self.n
        masks = d.hands
        if dealt:
            self._round_engine(masks)
        self.dealt: tuple[int, ...] = tuple(masks)
        self.dealt_sizes = [m.bit_count() for m in masks]
        self.face_up = d.face_up  # set aside, seen by everyone
        self._hidden = d.hidden  # set aside, seen by no one
        self._stock = tuple(d.stock)
        self._stock_pos = 0
        self._swap_offer = d.swap_offer
        self._known = tuple(d.known.get(s, 0) for s in range(n))
        self._hands = list(masks)
        self._idx = [HandIndex.build(self.ev, m) for m in masks]
        self._active = sum(1 << s for s in range(n) if masks[s])
        self._finished: tuple[int, ...] = tuple(s for s in range(n) if not masks[s])
        self._top: Play | None = None
        self._top_seat = -1
        self._passed = 0
        self._blocked = 0
        self._uncalled = 0  # seats that reached one card without calling 'last card'
        # the Horse Game (004): hands lie face down; seats that looked and must now play, the seat that played
        # last (it may look on until the next play), and the hands given up, in order
        self._horse = bool(self.rules.horse_game)
        self._looked = 0
        self._viewer = -1
        self._forfeited: tuple[int, ...] = ()
        self._over = False
        self._result: RoundResult | None = None
        self._history: list[tuple[int, Play]] = []
        self._notes: list[Note | None] = []  # per action: 'auto' (skipped), 'drew', 'called', or None
        self._entries: list[HistoryEntry] = []  # observation history entries, built once per action
        self._entries_of = self._notes
        self._trick_open = 0  # history index where the current trick began
        self._undo: list[Snapshot] = []
        self._lock = self.rules.pass_locks_out
        self._one_pass = self.rules.one_pass_ends_trick
        self._forbid = self.rules.last_play_forbidden
        self._skip_cache: tuple[int, int, int] | None = None
        first = self._first
        if first is not None:
            if not 0 <= first < n:
                raise BigTwoError(f"first={first} is not a seat (0-{n - 1})")
            self.to_move = first
            self._required = 0
        else:
            self.to_move, self._required = self._first_lead(masks)
        if not self._active or self._active & (self._active - 1) == 0:
            self._finish()
            return
        self._instant_results()
        if not self._over and self.__dict__.get("_native_wanted", True) and _compiled_core_plays(self.rules):
            _NativeGame._attach(self)

    def _first_lead(self, hands: list[int]) -> tuple[int, int]:
        if self.rules.horse_game:
            # 004 Horse Game: "pick a player to start" (nobody knows where the lead card lies): the dealer's left
            return (self.dealer + 1) % self.n, 0
        dealt = 0
        for h in hands:
            dealt |= h
        mask = lead_card_mask(self.rules, self.ev, dealt)
        seat = holder(hands, mask) if mask else 0
        required = mask if self.rules.lead_card_must_be_played else 0
        return (seat if seat is not None else 0), required

    def _instant_results(self) -> None:
        rules, ev = self.rules, self.ev
        for seat, h in enumerate(self._hands):
            if rules.malta_dragon:
                verdict = malta_dragon(ev, h)
                if verdict == Verdict.WIN:
                    return self._finish(instant=(seat, Verdict.WIN, "a Malta dragon: six pairs and a single"))
                if verdict == Verdict.LOSE:
                    return self._finish(instant=(seat, Verdict.LOSE, "a Malta dragon holding a pair of 3s"))
            if rules.four_twos in (FourTwos.WIN, FourTwos.DRAW) and four_twos(ev, h):
                outcome = Verdict.WIN if rules.four_twos == FourTwos.WIN else Verdict.DRAW
                return self._finish(instant=(seat, outcome, "all four 2s"))
        return None

    def replace_hands(
        self,
        hands: list[CardsLike],
        first: int | None = None,
        face_up: int | None = None,
        known: dict[int, int] | None = None,
    ) -> None:
        """The hands after card exchanges between the deal and the first play (a match's exchanges).

        Each hand keeps its size and no card appears or vanishes; what the deal set aside (the stock, the hidden
        cards) stays, and so do the face-up cards unless ``face_up`` says what lies there now (an auction of the
        out cards). ``first`` names a seat that leads freely (None: the lead card's holder). ``known``: cards
        everyone saw or heard go into a hand during the exchanges (bids, offers, cards bought).
        """
        if self._history:
            raise IllegalPlay("hands can only change before the first play")
        masks = [to_mask(h) for h in hands]
        if len(masks) != self.n or [m.bit_count() for m in masks] != [h.bit_count() for h in self._hands]:
            raise BigTwoError("an exchange must leave every hand its size")
        table = self.face_up if face_up is None else face_up
        union = table
        for m in masks:
            if union & m:
                raise BigTwoError(f"{CardSet.from_mask(union & m)} would be in two places")
            union |= m
        old = self.face_up
        for h in self._hands:
            old |= h
        if union != old:
            raise BigTwoError("an exchange may only move cards between hands and the table")
        seen = dict(enumerate(self._known))
        for s, k in (known or {}).items():
            seen[s] = seen.get(s, 0) | k
        known = {s: k & masks[s] for s, k in seen.items() if k & masks[s]}
        self._first = first
        self._setup(
            Deal(
                hands=masks,
                stock=list(self._stock[self._stock_pos :]),
                face_up=table,
                hidden=self._hidden,
                swap_offer=self._swap_offer,
                known=known,
            ),
            dealt=False,  # the deal decided the round's rank order; exchanges do not
        )

    # --- deal-time decisions ----------------------------------------------------------------------------
    def redeal_reasons(self, seat: int) -> list[str]:
        """Why ``seat`` may ask for a new deal now (before any play); empty when it may not."""
        if self._history or self._over or not self._dealt_by_game:
            return []
        return redeal_reasons(self.rules, self.ev, self._hands[seat])

    def request_redeal(self, seat: int) -> None:
        """Throw the deal in at ``seat``'s request (002 Reshuffling); the cards are shuffled and dealt again."""
        reasons = self.redeal_reasons(seat)
        if not reasons:
            why = "play has begun" if self._history else "its hand does not qualify under these rules"
            raise IllegalPlay(f"seat {seat} may not ask for a new deal: {why}")
        self.redeals.append(f"seat {seat} asked: {reasons[0]}")
        self.requests.append((seat, "redeal"))
        self._setup(self._deal_with_redeals())

    @property
    def can_swap_leftover(self) -> bool:
        """The lead card's holder may still swap it for the leftover card (before the first play)."""
        return bool(self._swap_offer) and not self._history and not self._over

    @property
    def swap_offer(self) -> CardSet | None:
        return CardSet.from_mask(self._swap_offer) if self.can_swap_leftover else None

    def deal_decision(self, kept: Collection[int] = (), swap_answered: bool = False) -> Decision | None:
        """The next deal-time choice, before any play: a seat whose hand qualifies may ask for a new deal (in
        turn from the dealer's left, seats in ``kept`` having kept this deal), then the lead card's holder may
        swap it for the leftover card on offer (unless ``swap_answered``). None when there is none left.

        A round asks no more than :data:`MAX_REDEAL_REQUESTS` new deals, so every round ends."""
        if self._history or self._over:
            return None
        if sum(1 for _s, kind in self.requests if kind == DecisionKind.REDEAL) < MAX_REDEAL_REQUESTS:
            for k in range(1, self.n + 1):
                seat = (self.dealer + k) % self.n
                if seat in kept:
                    continue
                reasons = self.redeal_reasons(seat)
                if reasons:
                    why = f"you may ask for a new deal: {reasons[0]}"
                    return Redeal(seat, 0, why, options=(Word.REDEAL, Word.KEEP))
        if self.can_swap_leftover and not swap_answered:
            offer = self.swap_offer
            shown = f" ({offer})" if self.rules.leftover_shown and offer else ""
            why = f"you may take the leftover card{shown} and set {self.required_card or 'the lead card'} aside"
            return Swap(self.swap_seat, 1, why, options=(Word.SWAP, Word.KEEP))
        return None

    def take_deal_answer(self, decision: Decision, word: str, kept: set[int]) -> None:
        """Carry out the answer to :meth:`deal_decision`: a new deal (``kept`` is emptied: everyone may ask
        again), the swap, or keeping (the seat joins ``kept``). A word the decision does not offer is refused."""
        if word not in decision.options:
            raise IllegalPlay(f"{word!r}: answer {' or '.join(repr(o) for o in decision.options)}")
        if word == Word.REDEAL:
            self.request_redeal(decision.seat)
            kept.clear()
        elif word == Word.SWAP:
            self.swap_leftover()
        elif decision.kind == DecisionKind.REDEAL:
            kept.add(decision.seat)

    @property
    def swap_seat(self) -> int:
        """The seat the leftover swap is offered to: the lead card's holder."""
        dealt = 0
        for h in self._hands:
            dealt |= h
        seat = holder(self._hands, lead_card_mask(self.rules, self.ev, dealt))
        return seat if seat is not None else 0

    def swap_leftover(self) -> None:
        """The lead card's holder takes the leftover card and sets the lead card aside (002 Variations)."""
        if not self.can_swap_leftover:
            raise IllegalPlay("there is no leftover card to swap for")
        dealt = 0
        for h in self._hands:
            dealt |= h
        lead = lead_card_mask(self.rules, self.ev, dealt)
        seat = holder(self._hands, lead)
        assert seat is not None
        hands = list(self._hands)
        hands[seat] = (hands[seat] & ~lead) | self._swap_offer
        known = {s: k for s, k in enumerate(self._known) if k}
        if self.rules.leftover_shown:
            known[seat] = known.get(seat, 0) | self._swap_offer
        self.redeals.append(f"seat {seat} swapped {CardSet.from_mask(lead)} for the leftover card")
        self.requests.append((seat, "swap"))
        self._setup(
            Deal(hands=hands, face_up=self.face_up | lead, hidden=self._hidden, stock=list(self._stock), known=known)
        )

    # --- reading the state ----------------------------------------------------------------------------
    @property
    def players(self) -> int:
        return self.n

    def hand(self, seat: int) -> CardSet:
        return CardSet.from_mask(self._hands[_seat_arg(seat, self.n)])

    def hand_sizes(self) -> list[int]:
        return [h.bit_count() for h in self._hands]

    @property
    def trick(self) -> Play | None:
        """The play to beat, or None when the player to move leads."""
        return self._top

    @property
    def trick_seat(self) -> int | None:
        return self._top_seat if self._top is not None else None

    @property
    def trick_start(self) -> int:
        """The history index where the current trick began."""
        return self._trick_open

    @property
    def required_card(self) -> CardSet | None:
        """The card the next play must contain (the first lead), if any."""
        return CardSet.from_mask(self._required) if self._required else None

    @property
    def history(self) -> list[tuple[int, Play]]:
        """Every action of the round: (seat, play), a pass being ``Play.PASS``."""
        return list(self._history)

    @property
    def history_notes(self) -> list[Note | None]:
        """Per action: 'auto' (a pass made by the automatic skip), 'drew' (passed and drew), 'called'."""
        return list(self._notes)

    @property
    def drawn_cards(self) -> CardSet:
        """Every card drawn from the stock so far (who drew each is known only to them)."""
        return CardSet.from_mask(sum(1 << c for c in self._stock[: self._stock_pos]))

    @property
    def stock_size(self) -> int:
        return len(self._stock) - self._stock_pos

    @property
    def finishing_order(self) -> list[int]:
        return list(self._finished)

    @property
    def is_over(self) -> bool:
        return self._over

    @property
    def result(self) -> RoundResult | None:
        return self._result

    def passed_seats(self) -> list[int]:
        return [s for s in range(self.n) if self._passed >> s & 1]

    def active_seats(self) -> list[int]:
        return [s for s in range(self.n) if self._active >> s & 1]

    # --- legal plays ------------------------------------------------------------------------------------
    def legal_plays(self) -> list[Play]:
        """Every legal action for the player to move: plays lowest first, then ``Play.PASS`` where allowed.

        In the Horse Game a hand not yet looked at may only pass (blind): :meth:`look` first to play."""
        if self._over:
            return []
        seat = self.to_move
        if self.look_pending:
            return [PASS]
        required = self._required
        return hand_actions(
            self.ev,
            self._idx[seat],
            self._top,
            required & self._hands[seat],
            self._forbid,
            self._must_answer(),
            lead_elsewhere=bool(required) and not required & self._hands[seat],
            must_play=self._must_play(),
        )

    def pass_allowed(self) -> bool:
        """Whether the player to move may pass: ``PASS in legal_plays()``, without listing the plays where the
        rules decide it alone (:func:`~bigtwo.legal.pass_decided`)."""
        if self._over:
            return False
        if self.look_pending:
            return True
        seat, required = self.to_move, self._required
        decided = pass_decided(
            self.ev,
            self._hands[seat],
            self._top,
            required & self._hands[seat],
            self._must_answer(),
            self._must_play(),
            lead_elsewhere=bool(required) and not required & self._hands[seat],
        )
        return decided if decided is not None else PASS in self.legal_plays()

    # --- the Horse Game (004): face-down hands ---------------------------------------------------------------
    @property
    def look_pending(self) -> bool:
        """The seat to move follows with its hand face down: it may pass blind, or :meth:`look` and then play."""
        return self._horse and not self._over and self._top is not None and not self._looked >> self.to_move & 1

    def _must_play(self) -> bool:
        """The seat to move looked at its hand to follow: it must play (a pass gives the hand up)."""
        return self._horse and self._top is not None and bool(self._looked >> self.to_move & 1)

    def look(self) -> None:
        """The seat to move picks its hand up (004 Horse Game: "Any player who picks up their deck to look at
        their cards must play, or else that deck gets last place")."""
        if not self.look_pending:
            raise IllegalPlay("there is no face-down hand to look at now")
        self._looked |= 1 << self.to_move

    def turn_hands_up(self) -> None:
        """Play on as if every hand looked when it is to move (a search's rebuilt position): no more blind
        passes; hands already given up stay out."""
        self._horse = False
        self._looked = 0

    def sees_own_hand(self, seat: int) -> bool:
        """Whether ``seat`` may see its cards now: always, except a face-down hand in the Horse Game (seen while
        its owner looks and plays, "until the next person has played")."""
        if not self._horse:
            return True
        if seat == self._viewer:
            return True
        return not self._over and seat == self.to_move and (self._top is None or bool(self._looked >> seat & 1))

    legal_actions = legal_plays  # the state protocol's name (a round's actions are plays and passes)

    def _must_answer(self) -> bool:
        """The "three 3s" rule: the player right after a lead of three 3s, holding three 2s, may not pass."""
        if not self.rules.three_threes_force_twos or self._top is None:
            return False
        top = self._top
        if top.kind != Kind.TRIPLE or top.value != THREE or self._trick_open != len(self._history) - 1:
            return False
        return self._next_active(self._top_seat) == self.to_move

    def _last_play_reason(self, p: Play) -> str | None:
        return last_play_reason(self.ev, self._forbid, p)

    def why_not(self, cards: CardsLike | Play) -> str | None:
        """Why the player to move may not play ``cards`` now, in words; None if they may."""
        try:
            self._check(cards)
        except IllegalPlay as e:
            return e.reason
        except CardParseError as e:  # text that is not cards at all
            return str(e)
        return None

    def _check(self, cards: CardsLike | Play) -> Play:
        if self._over:
            raise IllegalPlay(_("the round is over"))
        s = self.to_move
        if isinstance(cards, str) and cards.strip().lower() == "pass":
            cards = PASS
        if self.look_pending and not (isinstance(cards, Play) and cards.is_pass):
            raise IllegalPlay(f"seat {s}'s hand lies face down: look at it first (then you must play), or pass")
        if isinstance(cards, Play) and cards.is_pass:
            # a pass is legal when following, except under the three-3s rule; when leading, only if blocked
            if (self._top is None or self._must_answer()) and not self.pass_allowed():
                if self._top is None:
                    raise IllegalPlay(f"seat {s} leads this trick and cannot pass")
                raise IllegalPlay(f"seat {s} may not pass: after a lead of three 3s, three 2s must be played")
            return PASS
        mask = cards.mask if isinstance(cards, Play) else self._mask_arg(cards)
        hand = self._hands[s]
        if mask & ~hand:
            mask = held_copies(mask, hand)
            if mask & ~hand:
                missing = CardSet.from_mask(mask & ~hand)
                raise IllegalPlay(f"seat {s} does not hold {missing}")
        p = self.ev.classify(mask)
        if p is None:
            raise IllegalPlay(self.ev.why_not(mask) or _("not a combination"))
        if self._required and not mask & self._required:
            raise IllegalPlay(_("the first play must contain {cards}").format(cards=CardSet.from_mask(self._required)))
        top = self._top
        if top is not None and not self.ev.beats(p, top):
            raise IllegalPlay(self.ev.why_not(p, top) or _("{play} does not beat {top}").format(play=p, top=top))
        if mask == hand:
            reason = self._last_play_reason(p)
            if reason:
                raise IllegalPlay(reason)
        return p

    def _mask_arg(self, cards: object) -> int:
        """The cards named. Text that is not cards at all (``"3X"``) raises :class:`CardParseError`, as
        python-chess tells a move it cannot read from an illegal one; cards this pack does not hold (a joker
        without jokers, a card twice with one deck) are well formed, a play the rules refuse: IllegalPlay."""
        mask = checked_mask(cards)
        try:
            return checked_mask(mask, self.ev.pack, f" under {self.rules.name!r}")
        except CardParseError as e:
            raise IllegalPlay(str(e)) from None

    # --- acting ---------------------------------------------------------------------------------------
    def play(self, cards: CardsLike | Play, call_last_card: bool = True) -> Play:
        """Play ``cards`` (notation, a CardSet or a Play; ``"pass"`` passes) for the seat to move.

        Raises :class:`IllegalPlay` with the reason, leaving the state unchanged. Returns the Play made.
        Under ``last_card_call``, a play that leaves one card is announced unless ``call_last_card=False``.
        """
        p = self._check(cards)
        if p.is_pass:
            self._undo.append(self._snapshot())
            if self._must_play():
                self._forfeit()
                self._auto_skip()
                return p
            self._do_pass()
        else:
            self._undo.append(self._snapshot())
            self._do_play(p, call_last_card)
        self._auto_skip()
        return p

    def pass_turn(self) -> None:
        """Pass; illegal when leading a trick (unless nothing may legally be led)."""
        self.play(PASS)

    def apply(self, action: Play | CardsLike, call_last_card: bool = True) -> Play:
        """The state protocol's name for :meth:`play`."""
        return self.play(action, call_last_card)

    def _snapshot(self) -> Snapshot:
        return Snapshot(
            hands=tuple(self._hands),
            indexes=tuple(self._idx),
            to_move=self.to_move,
            top=self._top,
            top_seat=self._top_seat,
            passed=self._passed,
            blocked=self._blocked,
            required=self._required,
            active=self._active,
            finished=self._finished,
            history_length=len(self._history),
            trick_open=self._trick_open,
            stock_pos=self._stock_pos,
            uncalled=self._uncalled,
            looked=self._looked,
            viewer=self._viewer,
            forfeited=self._forfeited,
        )

    def position_key(self) -> tuple[Any, ...]:
        """A hashable key of the round's position: what its rest depends on, not the order of play that led here.

        Two positions of one round (the same deal, any order of play) with equal keys have the same legal
        plays and, after the same actions, the same result, so a table of positions (the endgame solver's) may
        value them once. The history enters only where the rules read it: once a seat has gone out, the actions
        up to that moment (the scores of a round played on count the cards left then, and its last play); under
        ``assistance_penalty`` the last play made and who has acted since; under ``three_threes_force_twos``
        whether the play to beat opened its trick. Keys of different rounds are not comparable."""
        history = self._history
        top = self._top
        first_out: tuple[tuple[int, int], ...] = ()
        if self._finished and history:
            winner = self._finished[0]
            for at in range(len(history) - 1, -1, -1):
                seat, play = history[at]
                if seat == winner and not play.is_pass:
                    first_out = tuple((s, p.mask) for s, p in history[: at + 1])
                    break
        last_play: tuple[int, ...] = ()
        if self.rules.assistance_penalty:
            acted = 0
            for seat, play in reversed(history):
                if not play.is_pass:
                    last_play = (seat, play.mask, acted)
                    break
                acted |= 1 << seat
        opened = bool(self.rules.three_threes_force_twos and top is not None and self._trick_open == len(history) - 1)
        return (
            tuple(self._hands),
            self.to_move,
            -1 if top is None else top.mask,
            self._top_seat,
            self._passed,
            self._blocked,
            self._required,
            self._active,
            self._finished,
            self._stock_pos,
            self._uncalled,
            self._looked,
            self._viewer,
            self._horse,
            self._forfeited,
            self._over,
            self.can_swap_leftover,
            opened,
            last_play,
            first_out,
        )

    @property
    def can_undo(self) -> bool:
        """Whether an action has been taken since the deal (so :meth:`undo` has something to take back)."""
        return bool(self._undo)

    def undo(self) -> None:
        """Take back the last action (play or pass, with any automatic skips it caused); back to the deal."""
        if not self._undo:
            raise IllegalPlay("nothing to undo: the round is at the deal")
        snap = self._undo.pop()
        self._hands = list(snap.hands)
        self._idx = list(snap.indexes)
        self.to_move = snap.to_move
        self._top = snap.top
        self._top_seat = snap.top_seat
        self._passed = snap.passed
        self._blocked = snap.blocked
        self._required = snap.required
        self._active = snap.active
        self._finished = snap.finished
        self._trick_open = snap.trick_open
        self._stock_pos = snap.stock_pos
        self._uncalled = snap.uncalled
        self._looked = snap.looked
        self._viewer = snap.viewer
        self._forfeited = snap.forfeited
        n = snap.history_length
        del self._history[n:]
        del self._notes[n:]
        del self._entries[n:]
        self._over = False
        self._result = None

    def _do_play(self, p: Play, call_last_card: bool = True) -> None:
        s = self.to_move
        if self._horse:
            self._looked &= ~(1 << s)
            self._viewer = s
        hand = self._hands[s] & ~p.mask
        self._hands[s] = hand
        self._idx[s] = self._idx[s].without(p.mask)
        self._history.append((s, p))
        note = None
        if self.rules.last_card_call and hand.bit_count() == 1:
            if call_last_card:
                note = Note.CALLED
            else:
                self._uncalled |= 1 << s
        self._notes.append(note)
        self._required = 0
        self._blocked = 0
        self._top = p
        self._top_seat = s
        if not self._lock:
            self._passed = 0
        if hand == 0:
            self._finished += (s,)
            self._active &= ~(1 << s)
            if not self.rules.plays_to_last or self._active & (self._active - 1) == 0:
                self._finish()
                return
            if self.rules.trick_ends_on_out:
                self._new_trick(self._next_active(s))
                return
        self.to_move = self._next_to_move(s)

    def _do_pass(self, note: Note | None = None) -> None:
        s = self.to_move
        self._history.append((s, AUTO_PASS if note == Note.AUTO else PASS))
        self._notes.append(note)
        if self.rules.draw_on_pass and self._stock_pos < len(self._stock):
            c = self._stock[self._stock_pos]
            self._stock_pos += 1
            self._hands[s] |= 1 << c
            self._idx[s] = HandIndex.build(self.ev, self._hands[s])
            if note is None:
                self._notes[-1] = Note.DREW
        if self._top is None:
            # a leader with nothing legal to lead (end restrictions) hands the lead on
            self._blocked += 1
            if self._blocked >= self._active.bit_count():
                self._finish()
                return
            self.to_move = self._next_active(s)
            self._trick_open = len(self._history)
            return
        self._passed |= 1 << s
        top_seat = self._top_seat
        others = self._active & ~(1 << top_seat)
        if self._one_pass or not others & ~self._passed:
            lead = top_seat if self._active >> top_seat & 1 else self._next_active(top_seat)
            self._new_trick(lead)
            return
        self.to_move = self._next_to_move(s)

    def _forfeit(self) -> None:
        """A looked-at hand that did not play is given up: it takes the last free place (004 Horse Game: "that
        deck gets last place (or, if last place is taken, second-to-last place)")."""
        s = self.to_move
        self._looked &= ~(1 << s)
        self._do_pass(Note.FORFEIT)
        if self._over:
            return
        self._forfeited += (s,)
        self._active &= ~(1 << s)
        self._passed &= ~(1 << s)
        if self._active & (self._active - 1) == 0:
            self._finish()
            return
        if self.to_move == s:
            self.to_move = self._next_active(s)
        if self._top is not None and not self._active & ~(1 << self._top_seat) & ~self._passed:
            top_seat = self._top_seat
            self._new_trick(top_seat if self._active >> top_seat & 1 else self._next_active(top_seat))

    def _new_trick(self, leader: int) -> None:
        self._top = None
        self._top_seat = -1
        self._passed = 0
        self.to_move = leader
        self._trick_open = len(self._history)

    def _next_active(self, seat: int) -> int:
        n, active = self.n, self._active
        for step in range(1, n + 1):
            t = (seat + step) % n
            if active >> t & 1:
                return t
        return seat

    def _next_to_move(self, seat: int) -> int:
        n, active = self.n, self._active
        skip = self._passed if self._lock else 0
        for step in range(1, n + 1):
            t = (seat + step) % n
            if active >> t & 1 and not skip >> t & 1:
                return t
        return seat

    # --- automatic turn skip (BGA) ----------------------------------------------------------------------
    def _auto_skip(self) -> None:
        if not self.rules.auto_skip:
            return
        while not self._over and self._top is not None:
            if self._hands[self.to_move].bit_count() >= self._fewest_to_beat():
                return
            self._do_pass(Note.AUTO)

    def _fewest_to_beat(self) -> int:
        """Fewest cards a play beating the one on the table could have, judged from public information only:
        the cards not yet played and not face up on the table could be anywhere (BGA automatic turn skip)."""
        played = 0
        for _s, p in self._history:
            played |= p.mask
        pool = self.ev.pack & ~played & ~self.face_up
        top = self._top
        assert top is not None
        key = (pool, top.mask)
        if self._skip_cache is not None and self._skip_cache[:2] == key:
            return self._skip_cache[2]
        fewest = fewest_to_beat(self.ev, pool, top)
        self._skip_cache = (pool, top.mask, fewest)
        return fewest

    # --- the end --------------------------------------------------------------------------------------
    def _finish(self, instant: tuple[int, Verdict, str] | None = None) -> None:
        self._over = True
        finished = list(self._finished)
        if instant is not None:
            seat, verdict, _why = instant
            others = [(seat + k) % self.n for k in range(1, self.n)]
            finished = [*others, seat] if verdict == Verdict.LOSE else [seat, *others]
            rest: list[int] = []
        else:
            gone = set(self._forfeited)
            rest = [s for s in range(self.n) if s not in finished and s not in gone]
            ref = finished[0] if finished else self.to_move
            rest.sort(key=lambda s: (self._hands[s].bit_count(), (s - ref) % self.n))
            rest += reversed(self._forfeited)  # the first hand given up takes the last place
        order = tuple(finished + rest)
        history = tuple([(s, p.mask) for s, p in self._history])
        played = {s for s, m in history if m}
        outcome = RoundOutcome(
            finishing_order=order,
            cards_left=tuple(h.bit_count() for h in self._hands),
            dealt=tuple(self.dealt_sizes),
            played_any=tuple(s in played for s in range(self.n)),
            hands=tuple(self._hands),
            dealt_hands=self.dealt,
            history=history,
            last_card_uncalled=tuple(s for s in range(self.n) if self._uncalled >> s & 1),
        )
        if instant is not None:
            self._result = instant_result(self.rules, outcome, instant)
            return
        result = score_round(self.rules, outcome)
        self._result = result

    # --- what a seat may see ----------------------------------------------------------------------------
    def observe(self, seat: int | None) -> Observation:
        """What ``seat`` may know: its own hand and public information only; ``None``: a spectator's view."""
        seat = _seat_arg(seat, self.n, spectator=True)
        top = self._top
        hands = self._hands
        offer = self._swap_offer if self._swap_offer and self.can_swap_leftover and self.rules.leftover_shown else 0
        own = hands[seat] if seat is not None and self.sees_own_hand(seat) else 0
        required = self._required
        mine = seat is not None and seat == self.to_move and not self._over
        passed = self._passed
        known = self._known
        return Observation.made(
            {
                "seat": seat,
                "players": self.n,
                "rules": self.rules.name,
                "phase": Phase.OVER if self._over else Phase.PLAY,
                "hand": own,
                "hand_sizes": tuple(map(int.bit_count, hands)),
                "dealt_sizes": tuple(self.dealt_sizes),
                "to_move": None if self._over else self.to_move,
                "trick": top,
                "trick_seat": self._top_seat if top is not None else None,
                "passed": tuple(s for s in range(self.n) if passed >> s & 1) if passed else (),
                # who holds the lead card is public once they lead, but the card is shown only to its holder
                "required": required & own,
                "lead_elsewhere": mine and bool(required) and not required & own,
                "must_answer": mine and self._must_answer(),
                "must_play": mine and self._must_play(),
                "finished": self._finished,
                "history": self._history_entries(),
                "trick_start": self._trick_open,
                "face_up": self.face_up,
                "twos_low": self.twos_low,
                "known": tuple(k & hands[s] if s != seat else 0 for s, k in enumerate(known)) if any(known) else known,
                "swap_offer": offer,
                "stock_size": len(self._stock) - self._stock_pos,
                "is_over": self._over,
                "result": self._result,
                "ev": self.ev,
            }
        )

    def _history_entries(self) -> tuple[HistoryEntry, ...]:
        """The observation's history: each action's entry is built once, as the action is first observed."""
        if self._entries_of is not self._notes:  # the notes were replaced wholesale: build them all again
            self._entries, self._entries_of = [], self._notes
        entries = self._entries
        history, notes = self._history, self._notes
        for i in range(len(entries), len(history)):
            s, p = history[i]
            entries.append(HistoryEntry(s, PASS if p.is_pass else p, notes[i]))
        return tuple(entries)

    def clone(self) -> Game:
        """An independent copy of the round (cheap: the state is ints and immutable objects)."""
        g = object.__new__(Game)
        g.__dict__.update(self.__dict__)
        g._hands = list(self._hands)
        g._idx = list(self._idx)
        g._history = list(self._history)
        g._notes = list(self._notes)
        g._entries, g._entries_of = list(self._entries), g._notes
        g._undo = list(self._undo)
        self._rng_shared = g._rng_shared = True  # the generator is copied only if either deals again
        return g

    def __repr__(self) -> str:
        state = "over" if self._over else f"seat {self.to_move} to move"
        return f"<Game {self.rules.name!r} {self.n} players, {len(self._history)} actions, {state}>"


def _seat_arg(seat: Any, n: int, spectator: bool = False) -> Any:
    """A seat number of this table (None too, for a spectator, where one is allowed), refused in words."""
    if seat is None and spectator:
        return None
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < n:
        raise BigTwoError(f"seat {seat!r} is not at this table (seats 0-{n - 1})")
    return seat


# --- the compiled core behind the same API ------------------------------------------------------------------
def _compiled_core_plays(rules: Ruleset) -> bool:
    """Whether a round under ``rules`` runs its play phase in the compiled core: built, not switched off, and
    covering the rules."""
    if not native.available():
        native.say_pure_python_once()
        return False
    return native.covers(rules)


# the state the compiled round holds, which the Python side copies (``_sync``) only when something reads it
_MIRRORED = (
    "_hands",
    "_idx",
    "to_move",
    "_top",
    "_top_seat",
    "_passed",
    "_blocked",
    "_required",
    "_active",
    "_finished",
    "_over",
    "_stock_pos",
    "_trick_open",
)
# what, written from outside, hands the round back to the Python engine (a search's rebuilt position)
_HANDS_BACK = frozenset(
    (
        *(k for k in _MIRRORED if k != "_over"),
        "_stock",
        "rules",
        "ev",
        "_horse",
        "_looked",
        "_viewer",
        "_forfeited",
        "_undo",
    )
)


class _NativeGame(Game):
    """A :class:`Game` whose play phase runs in the compiled core (``bigtwo._core.Round``).

    It is a Game in every way a caller can see: :meth:`Game._setup` turns a Game into one where the core covers
    the rules, and back where it does not. The round's state lives in C++; the Python attributes that mirror it
    (:data:`_MIRRORED`) are copied over lazily, only when some method reads them, so random play, search
    play-outs and bots that only list and take actions never pay for them. Plays, passes, undo and the result
    go through the core; everything else (observations, notation, why-not messages, scoring) is the Python
    engine's own code reading the mirrored state. Writing the round's state from outside (as a search's
    rebuilt position does) hands the round back to the Python engine, with its undo history.
    """

    _nat: Any

    @staticmethod
    def _attach(g: Game) -> None:
        """Put the compiled round beside ``g`` (a Python-engine Game in its play phase, not over, with no action
        taken since it was set up) and hand the round over to it."""
        d = g.__dict__
        ev = g.ev
        top = g._top
        d["_nat"] = native.core().Round.from_state(
            native.tables(ev),
            list(g._hands),
            g.to_move,
            None if top is None else top.mask,
            g._top_seat,
            g._passed,
            g._blocked,
            g._required,
            g._active,
            list(g._finished),
            len(g._history) - g._trick_open,
            list(g._stock),
            g._stock_pos,
        )
        d["_plays"] = native.plays_of(ev)
        d["_uncalled_log"] = []
        d["_watch"] = bool(g.rules.last_card_call or g.rules.draw_on_pass)
        d["is_over"] = False
        g.__class__ = _NativeGame
        for k in _MIRRORED:  # the round's state now lives in C++
            d.pop(k, None)
        d.pop("_undo", None)

    # --- the mirror -----------------------------------------------------------------------------------
    def _sync(self) -> None:
        """Copy the compiled round's state into the Python attributes the engine's own methods read."""
        (hands, to_move, has_top, top, top_seat, passed, blocked, required, active, finished, over, stock_pos,
         since_open) = self._nat.mirror()  # fmt: skip
        d = self.__dict__
        d["_hands"] = hands
        d["to_move"] = to_move
        d["_top"] = self._play_of(top) if has_top else None
        d["_top_seat"] = top_seat
        d["_passed"] = passed
        d["_blocked"] = blocked
        d["_required"] = required
        d["_active"] = active
        d["_finished"] = finished
        d["_over"] = over
        d["_stock_pos"] = stock_pos
        d["_trick_open"] = len(d["_history"]) - since_open

    def _stale(self) -> None:
        """Forget the mirrored state (the round moved): the next read copies it again."""
        d = self.__dict__
        for k in _MIRRORED:
            d.pop(k, None)

    def __getattr__(self, name: str) -> Any:
        # only called for attributes not in the instance: the mirrored ones since the round last moved
        if name == "to_move":
            return self.__dict__["_nat"].to_move
        if name == "_idx":
            ev = self.ev
            idx = self.__dict__["_idx"] = [HandIndex.build(ev, h) for h in self._hands]
            return idx
        if name == "_undo":
            return self._snapshots()
        if name == "_result" and self.__dict__.get("is_over"):
            self._finish()  # the Python engine scores the round from the mirrored state
            return self.__dict__["_result"]
        if name in _MIRRORED and "_nat" in self.__dict__:
            self._sync()
            return self.__dict__[name]
        raise AttributeError(name)

    def __setattr__(self, name: str, value: Any) -> None:
        d = self.__dict__
        if name in _HANDS_BACK and "_nat" in d:
            if name == "rules" and value is d.get("rules"):
                return
            at_deal = not d["_history"]
            self._to_python()
            object.__setattr__(self, name, value)
            # at the deal (a position set up by hand: its first lead, its stock) the core takes the round again
            if at_deal and not self._over and d.get("_native_wanted", True) and _compiled_core_plays(self.rules):
                _NativeGame._attach(self)
            return
        object.__setattr__(self, name, value)

    def _play_of(self, mask: int) -> Play:
        """The Python engine's Play of a mask the core listed: its kind, key and value as the core's tables read
        them (the tests hold those equal to the Python classifier's), its class and order made by the Python
        Evaluator itself."""
        p: Play | None = self._plays.get(mask)
        if p is None:
            p = self._plays[mask] = native.play_of(self.ev, mask)
        return p

    def _snapshots(self) -> list[Snapshot]:
        """The Python engine's undo history of this round: the state before each action taken."""
        ev, log = self.ev, self.__dict__["_uncalled_log"]
        out = []
        for i, st in enumerate(self.__dict__["_nat"].undo_states()):
            (hands, to_move, has_top, top, top_seat, passed, blocked, required, active, finished, _over,
             stock_pos, since_open) = st  # fmt: skip
            out.append(
                Snapshot(
                    hands=tuple(hands),
                    indexes=tuple(HandIndex.build(ev, h) for h in hands),
                    to_move=to_move,
                    top=self._play_of(top) if has_top else None,
                    top_seat=top_seat,
                    passed=passed,
                    blocked=blocked,
                    required=required,
                    active=active,
                    finished=finished,
                    history_length=i,
                    trick_open=i - since_open,
                    stock_pos=stock_pos,
                    uncalled=log[i] if i < len(log) else 0,
                    looked=0,
                    viewer=-1,
                    forfeited=(),
                )
            )
        return out

    def _to_python(self) -> None:
        """Hand the round back to the Python engine: its state, its result, its indexes and its undo history."""
        d = self.__dict__
        if "_result" not in d:
            self._finish()
        self._sync()
        undo = self._snapshots()
        ev = self.ev
        d["_idx"] = [HandIndex.build(ev, h) for h in d["_hands"]]
        d["_hands"] = list(d["_hands"])
        d["_undo"] = undo
        for k in ("_nat", "_plays", "_uncalled_log", "is_over"):
            d.pop(k, None)
        self.__class__ = Game  # type: ignore[assignment]

    # --- the fast path: listing and taking actions ---------------------------------------------------------
    # whether the round is over: an attribute of the instance, kept by play and undo (a property costs a call)
    is_over = False

    @property
    def can_undo(self) -> bool:
        return bool(self._history)

    def legal_plays(self) -> list[Play]:
        got: list[Play] | None = self._nat.legal_objects(self._plays)
        if got is None:  # a play not seen before under these rules
            got = [self._play_of(m) for m in self._nat.legal_masks()]
        return got

    legal_actions = legal_plays

    def pass_allowed(self) -> bool:
        return 0 in self._nat.legal_masks()

    def play(self, cards: CardsLike | Play, call_last_card: bool = True) -> Play:
        d = self.__dict__
        nat = d["_nat"]
        watch = d["_watch"]
        drawn = nat.stock_pos if watch else 0
        p: Play | None
        if cards.__class__ is Play:  # the fast path: the core checks it against its own listing
            mask = cards.mask
            try:
                seat = nat.step(mask)
            except ValueError:
                self._check(cards)  # raises IllegalPlay with the reason in words
                raise
            p = d["_plays"].get(mask)
            if p is None:
                p = self._play_of(mask)
        else:
            p = self._check(cards)
            mask = p.mask
            seat = nat.step(mask)
        if "_hands" in d or "_over" in d:
            self._stale()
        over = seat < 0
        if over:
            seat = -1 - seat
        d["_history"].append((seat, p))
        d["_notes"].append(self._note(seat, mask, call_last_card, drawn) if watch else None)
        if over:  # the result is scored when first read (random play and play-outs often never read it)
            d["is_over"] = True
            d.pop("_result", None)
        return p

    def _note(self, seat: int, mask: int, call_last_card: bool, drawn: int) -> Note | None:
        """Under the rules that note an action (the last-card call, the draw on a pass): what the Python engine
        notes of the action just taken (:meth:`Game._do_play`, :meth:`Game._do_pass`)."""
        d = self.__dict__
        nat, rules = d["_nat"], self.rules
        if rules.last_card_call:
            d["_uncalled_log"].append(d["_uncalled"])
            if mask and nat.hands[seat].bit_count() == 1:
                if call_last_card:
                    return Note.CALLED
                d["_uncalled"] |= 1 << seat
        if not mask and rules.draw_on_pass and nat.stock_pos != drawn:
            return Note.DREW
        return None

    def undo(self) -> None:
        d = self.__dict__
        if not d["_history"]:
            raise IllegalPlay("nothing to undo: the round is at the deal")
        d["_nat"].undo()
        self._stale()
        n = len(d["_history"]) - 1
        del d["_history"][n:]
        del d["_notes"][n:]
        del d["_entries"][n:]
        log = d["_uncalled_log"]
        if len(log) > n:
            d["_uncalled"] = log[n]
            del log[n:]
        d["_result"] = None
        d["is_over"] = False

    def clone(self) -> Game:
        g = object.__new__(_NativeGame)
        d = g.__dict__
        d.update(self.__dict__)
        if "_hands" in d:
            d["_hands"] = list(d["_hands"])
        d.pop("_idx", None)
        d["_nat"] = self._nat.clone()
        d["_history"] = list(self._history)
        d["_notes"] = list(self._notes)
        d["_entries"], d["_entries_of"] = list(self._entries), d["_notes"]
        d["_uncalled_log"] = list(d["_uncalled_log"])
        d["_rng_shared"] = True
        self.__dict__["_rng_shared"] = True
        return g

    def __reduce_ex__(self, protocol: Any) -> Any:
        g = self.clone()
        assert isinstance(g, _NativeGame)
        g._to_python()  # a pickle (or deepcopy) holds the Python engine's state, which needs no compiled part
        return (_python_game, (g.__dict__,))


def _python_game(state: dict[str, Any]) -> Game:
    """A Game in the Python engine from its attributes (how a pickled or copied compiled round comes back)."""
    g = object.__new__(Game)
    g.__dict__.update(state)
    return g
