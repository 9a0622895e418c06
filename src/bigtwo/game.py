"""The round: deal, tricks, going out, result; play / pass / undo; what each seat may see.

Seats are 0..n-1 and the next seat is always ``seat + 1 (mod n)`` (the ruleset's ``direction`` only says
which way that is round a real table). State is a handful of ints and immutable objects, so ``undo()`` is a
snapshot pop and every accepted action can be replayed from the deal.
"""

from __future__ import annotations

import random
from typing import Any

from bigtwo.cards import (
    CARDS,
    DECK_SIZE,
    CardSet,
    CardsLike,
    bits,
    card,
    to_mask,
)
from bigtwo.combos.play import PASS, Play
from bigtwo.errors import BigTwoError, IllegalPlay
from bigtwo.moves import HandIndex
from bigtwo.rules.ruleset import Ruleset, load_rules
from bigtwo.scoring import RoundOutcome, RoundResult, score_round

_TWO = 12


def highest_card(ev: Any) -> int:
    """The highest card of a standard pack under these rules (what 'the 2S' means in end restrictions)."""
    return max(range(52), key=lambda c: (ev.power[c], c))


def last_play_reason(ev: Any, rule: str, p: Play) -> str | None:
    """Why ``p`` may not be a player's last play under ``last_play_forbidden`` = ``rule``; None if it may."""
    if rule == "none":
        return None
    cs = bits(p.mask)
    all_twos = all(ev.rank_of[c] == _TWO for c in cs)
    top = highest_card(ev)
    if rule == "two-single-or-pair" and p.kind in ("single", "pair") and all_twos:
        return "you may not go out with a single 2 or a pair of 2s"
    if rule == "two-single" and p.kind == "single" and all_twos:
        return "you may not go out with a single 2"
    if rule == "highest-single" and p.kind == "single" and cs[0] % DECK_SIZE == top:
        return f"you may not go out with {CARDS[top]} as a single"
    if rule == "highest-card" and any(c % DECK_SIZE == top for c in cs):
        return f"you may not go out with a play containing {CARDS[top]}"
    return None


def legal_actions(ev: Any, idx: HandIndex, top: Play | None, required: int, forbid: str) -> list[Play]:
    """The legal actions of a hand (as its index) facing ``top`` (None: leading); shared by Game and bots."""
    plays = (idx.containing(required) if required else list(idx.plays)) if top is None else idx.answers(top)
    if forbid != "none":
        hand = idx.hand
        plays = [p for p in plays if p.mask != hand or last_play_reason(ev, forbid, p) is None]
    if top is None:
        return plays if plays else [PASS]
    plays.append(PASS)
    return plays


def legal_plays_from_observation(rules: Ruleset, obs: dict[str, Any]) -> list[Play]:
    """The legal actions of the observing seat, from its observation alone (empty when not its turn)."""
    if obs.get("is_over") or obs.get("to_move") != obs["seat"]:
        return []
    ev = rules.engine
    hand = to_mask(obs["hand"])
    idx = HandIndex.build(ev, hand)
    trick = obs.get("trick")
    top = ev.classify(to_mask(trick["cards"])) if trick else None
    required = to_mask(obs["required_card"]) & hand if obs.get("required_card") else 0
    return legal_actions(ev, idx, top, required, rules.last_play_forbidden)


class Game:
    """One round of a climbing game under a :class:`Ruleset`.

    ``Game(rules, players=4, seed=7)`` deals a shuffled pack; ``Game(rules, hands=[...])`` starts from given
    hands (any sizes: puzzles, duplicate deals). ``first`` names the seat that leads; by default it is the
    holder of ``rules.lead_card`` (or of the lowest card dealt when nobody holds it), who must then play it.
    """

    def __init__(
        self,
        rules: Ruleset | str = "classic",
        players: int | None = None,
        seed: int | None = None,
        hands: list[CardsLike] | None = None,
        first: int | None = None,
    ):
        self.rules = load_rules(rules) if not isinstance(rules, Ruleset) else rules
        self.ev = self.rules.engine
        self.seed = seed
        if hands is not None:
            masks = [to_mask(h) for h in hands]
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
            masks = self._deal(n, seed)
        if not 2 <= n <= 8:
            raise BigTwoError(f"{n} players: a round needs 2 to 8")
        if hands is None and not self.rules.min_players <= n <= self.rules.max_players:
            raise BigTwoError(
                f"{n} players: {self.rules.name!r} is for {self.rules.min_players}-{self.rules.max_players} players"
            )
        self.n = n
        self.dealt: tuple[int, ...] = tuple(masks)
        self._hands = list(masks)
        self._idx = [HandIndex.build(self.ev, m) for m in masks]
        self._active = sum(1 << s for s in range(n) if masks[s])
        self._finished: tuple[int, ...] = tuple(s for s in range(n) if not masks[s])
        self._top: Play | None = None
        self._top_seat = -1
        self._passed = 0
        self._blocked = 0
        self._over = False
        self._result: RoundResult | None = None
        self._history: list[tuple[int, Play]] = []
        self._trick_open = 0  # history index where the current trick began
        self._undo: list[tuple[Any, ...]] = []
        self._lock = self.rules.pass_locks_out
        self._one_pass = self.rules.trick_end == "one-pass"
        self._forbid = self.rules.last_play_forbidden
        if first is not None:
            if not 0 <= first < n:
                raise BigTwoError(f"first={first} is not a seat (0-{n - 1})")
            self.to_move = first
            self._required = 0
        else:
            self.to_move, self._required = self._first_lead(masks)
        if not self._active or self._active & (self._active - 1) == 0:
            self._finish()

    @classmethod
    def from_observation(cls, rules: Ruleset | str, obs: dict[str, Any], hands: list[CardsLike]) -> Game:
        """The position ``obs`` describes, with ``hands`` as every seat's current hand (a determinisation).

        The deal is rebuilt as each seat's current hand plus what it has played, and the public history is
        replayed on it, so the result is exactly the observed position (for search bots sampling the unseen
        cards). ``hands[obs["seat"]]`` must be the observer's own hand; sizes must match ``hand_sizes``.
        """
        rules = load_rules(rules) if not isinstance(rules, Ruleset) else rules
        masks = [to_mask(h) for h in hands]
        sizes = obs["hand_sizes"]
        if [m.bit_count() for m in masks] != list(sizes):
            raise BigTwoError(f"hands of sizes {[m.bit_count() for m in masks]} do not match {sizes}")
        dealt = list(masks)
        for entry in obs["history"]:
            if entry["action"] == "play":
                dealt[entry["seat"]] |= to_mask(entry["cards"])
        history = obs["history"]
        first = history[0]["seat"] if history else obs["to_move"]
        g = cls(rules, hands=dealt, first=first)
        if not history and obs.get("required_card"):
            g._required = to_mask(obs["required_card"]) & dealt[first]
        for entry in history:
            g.play("pass" if entry["action"] == "pass" else entry["cards"])
        return g

    def clone(self) -> Game:
        """An independent copy of the round (cheap: the state is ints and immutable objects)."""
        g = object.__new__(Game)
        g.__dict__.update(self.__dict__)
        g._hands = list(self._hands)
        g._idx = list(self._idx)
        g._history = list(self._history)
        g._undo = list(self._undo)
        return g

    # --- setup ---------------------------------------------------------------------------------------
    def _deal(self, n: int, seed: int | None) -> list[int]:
        deck = list(CardSet.deck())
        random.Random(seed).shuffle(deck)
        style = self.rules.deal
        if style == "thirteen" and 13 * n > len(deck):
            raise BigTwoError(f"deal 'thirteen' needs at most {len(deck) // 13} players, not {n}")
        each = 13 if style == "thirteen" else len(deck) // n
        hands = [0] * n
        if style == "all":
            each = len(deck)
        for i, c in enumerate(deck[: each * n]):
            hands[i % n] |= 1 << c
        leftover = [] if style != "equal" else deck[each * n :]
        if leftover:
            # 002 Rules: leftover cards go to the holder of the 3D, or of the next lowest card
            lowest = min((c for h in hands for c in bits(h)), key=lambda c: (self.ev.power[c], c))
            target = self._holder(hands, self._lead_mask(hands)) if self._lead_mask(hands) else None
            if target is None:
                target = self._holder(hands, 1 << lowest)
            for c in leftover:
                hands[target] |= 1 << c
        return hands

    def _lead_mask(self, hands: list[int]) -> int:
        lead = self.rules.lead_card
        all_cards = 0
        for h in hands:
            all_cards |= h
        if lead != "lowest":
            c = card(lead)
            for copy in (c, c + DECK_SIZE):
                if all_cards >> copy & 1:
                    return 1 << copy
        if not all_cards:
            return 0
        lowest = min(bits(all_cards), key=lambda c: (self.ev.power[c], c))
        return 1 << lowest

    @staticmethod
    def _holder(hands: list[int], mask: int) -> int | None:
        for seat, h in enumerate(hands):
            if h & mask:
                return seat
        return None

    def _first_lead(self, hands: list[int]) -> tuple[int, int]:
        mask = self._lead_mask(hands)
        seat = self._holder(hands, mask) if mask else 0
        required = mask if self.rules.lead_card_must_be_played else 0
        return (seat if seat is not None else 0), required

    # --- reading the state ----------------------------------------------------------------------------
    @property
    def players(self) -> int:
        return self.n

    def hand(self, seat: int) -> CardSet:
        return CardSet.from_mask(self._hands[seat])

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
    def required_card(self) -> CardSet | None:
        """The card the next play must contain (the first lead), if any."""
        return CardSet.from_mask(self._required) if self._required else None

    @property
    def history(self) -> list[tuple[int, Play]]:
        """Every action of the round: (seat, play), a pass being ``Play.PASS``."""
        return list(self._history)

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
        """Every legal action for the player to move: plays lowest first, then ``Play.PASS`` where allowed."""
        if self._over:
            return []
        return legal_actions(self.ev, self._idx[self.to_move], self._top, self._required, self._forbid)

    def _last_play_reason(self, p: Play) -> str | None:
        return last_play_reason(self.ev, self._forbid, p)

    def why_not(self, cards: CardsLike | Play) -> str | None:
        """Why the player to move may not play ``cards`` now, in words; None if they may."""
        try:
            self._check(cards)
        except IllegalPlay as e:
            return e.reason
        return None

    def _check(self, cards: CardsLike | Play) -> Play:
        if self._over:
            raise IllegalPlay("the round is over")
        s = self.to_move
        if isinstance(cards, str) and cards.strip().lower() == "pass":
            cards = PASS
        if isinstance(cards, Play) and cards.is_pass:
            if self._top is None and self.legal_plays() != [PASS]:
                raise IllegalPlay(f"seat {s} leads this trick and cannot pass")
            return PASS
        mask = cards.mask if isinstance(cards, Play) else to_mask(cards)
        hand = self._hands[s]
        if mask & ~hand:
            mask = self._match_copies(mask, hand)
            if mask & ~hand:
                missing = CardSet.from_mask(mask & ~hand)
                raise IllegalPlay(f"seat {s} does not hold {missing}")
        p = self.ev.classify(mask)
        if p is None:
            raise IllegalPlay(self.ev.why_not(mask) or "not a combination")
        if self._required and not mask & self._required:
            raise IllegalPlay(f"the first play must contain {CardSet.from_mask(self._required)}")
        top = self._top
        if top is not None and not self.ev.beats(p, top):
            raise IllegalPlay(self.ev.why_not(p, top) or f"{p} does not beat {top}")
        if mask == hand:
            reason = self._last_play_reason(p)
            if reason:
                raise IllegalPlay(reason)
        return p

    @staticmethod
    def _match_copies(mask: int, hand: int) -> int:
        """With two decks, '3D' may name either copy: swap in the copy the hand holds."""
        for i in bits(mask & ~hand):
            alt = (i + DECK_SIZE) % (2 * DECK_SIZE)
            if hand >> alt & 1 and not mask >> alt & 1:
                mask = (mask & ~(1 << i)) | (1 << alt)
        return mask

    # --- acting ---------------------------------------------------------------------------------------
    def play(self, cards: CardsLike | Play) -> Play:
        """Play ``cards`` (notation, a CardSet or a Play; ``"pass"`` passes) for the seat to move.

        Raises :class:`IllegalPlay` with the reason, leaving the state unchanged. Returns the Play made.
        """
        p = self._check(cards)
        if p.is_pass:
            self._do_pass()
        else:
            self._do_play(p)
        return p

    def pass_turn(self) -> None:
        """Pass; illegal when leading a trick (unless nothing may legally be led)."""
        self.play(PASS)

    def _snapshot(self) -> tuple[Any, ...]:
        return (
            tuple(self._hands),
            tuple(self._idx),
            self.to_move,
            self._top,
            self._top_seat,
            self._passed,
            self._blocked,
            self._required,
            self._active,
            self._finished,
            len(self._history),
            self._trick_open,
        )

    def undo(self) -> None:
        """Take back the last action (play or pass); repeatable back to the deal."""
        if not self._undo:
            raise IllegalPlay("nothing to undo: the round is at the deal")
        (
            hands,
            idx,
            self.to_move,
            self._top,
            self._top_seat,
            self._passed,
            self._blocked,
            self._required,
            self._active,
            self._finished,
            hist,
            self._trick_open,
        ) = self._undo.pop()
        self._hands = list(hands)
        self._idx = list(idx)
        del self._history[hist:]
        self._over = False
        self._result = None

    def _do_play(self, p: Play) -> None:
        s = self.to_move
        self._undo.append(self._snapshot())
        hand = self._hands[s] & ~p.mask
        self._hands[s] = hand
        self._idx[s] = self._idx[s].without(p.mask)
        self._history.append((s, p))
        self._required = 0
        self._blocked = 0
        self._top = p
        self._top_seat = s
        if not self._lock:
            self._passed = 0
        if hand == 0:
            self._finished += (s,)
            self._active &= ~(1 << s)
            if self.rules.round_end == "first-out" or self._active & (self._active - 1) == 0:
                self._finish()
                return
            if self.rules.trick_ends_on_out:
                self._new_trick(self._next_active(s))
                return
        self.to_move = self._next_to_move(s)

    def _do_pass(self) -> None:
        s = self.to_move
        self._undo.append(self._snapshot())
        self._history.append((s, PASS))
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

    def _finish(self) -> None:
        self._over = True
        finished = list(self._finished)
        rest = [s for s in range(self.n) if s not in finished]
        ref = finished[0] if finished else self.to_move
        rest.sort(key=lambda s: (self._hands[s].bit_count(), (s - ref) % self.n))
        order = tuple(finished + rest)
        played = {s for s, p in self._history if not p.is_pass}
        outcome = RoundOutcome(
            finishing_order=order,
            cards_left=tuple(h.bit_count() for h in self._hands),
            dealt=tuple(m.bit_count() for m in self.dealt),
            played_any=tuple(s in played for s in range(self.n)),
            hands=tuple(self._hands),
            dealt_hands=self.dealt,
            history=tuple((s, p.mask) for s, p in self._history),
        )
        self._result = score_round(self.rules, outcome)

    # --- what a seat may see ----------------------------------------------------------------------------
    def observation(self, seat: int) -> dict[str, Any]:
        """What ``seat`` may know: its own hand and public information only (JSON-serialisable)."""
        if not 0 <= seat < self.n:
            raise BigTwoError(f"seat {seat} is not at this table (0-{self.n - 1})")
        ev = self.ev
        hist = []
        for s, p in self._history:
            entry: dict[str, Any] = {"seat": s, "action": "pass" if p.is_pass else "play"}
            if not p.is_pass:
                entry["cards"] = [str(c) for c in ev.sort_cards(p.mask)]
                entry["kind"] = p.kind
            hist.append(entry)
        top = self._top
        return {
            "seat": seat,
            "players": self.n,
            "rules": self.rules.name,
            "hand": [str(c) for c in ev.sort_cards(self._hands[seat])],
            "hand_sizes": self.hand_sizes(),
            "dealt_sizes": [m.bit_count() for m in self.dealt],
            "to_move": None if self._over else self.to_move,
            "trick": None
            if top is None
            else {
                "seat": self._top_seat,
                "cards": [str(c) for c in ev.sort_cards(top.mask)],
                "kind": top.kind,
            },
            "passed": self.passed_seats(),
            # who holds the lead card is public once they lead, but the card is shown only to its holder
            "required_card": (str(CardSet.from_mask(self._required)) if self._required & self._hands[seat] else None),
            "finished": list(self._finished),
            "history": hist,
            "trick_start": self._trick_open,
            "is_over": self._over,
            "result": self._result.to_dict() if self._result else None,
        }

    def __repr__(self) -> str:
        state = "over" if self._over else f"seat {self.to_move} to move"
        return f"<Game {self.rules.name!r} {self.n} players, {len(self._history)} actions, {state}>"
