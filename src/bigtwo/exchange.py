"""Roles and card exchanges between the deal and the first play, as decisions.

Every exchange is a sequence of *decisions*, each made by one seat through the same path as a play: the seat's
observation carries ``phase == "exchange"`` and a ``decision`` dict, and the seat answers. A wrong answer
raises :class:`IllegalExchange` naming the cards and the rule, and changes nothing. Decision kinds:

``give``
    ``{"kind": "give", "count": k, "to": seat, "must": "any" | "highest" | "lowest", "reason": ...}``,
    optionally ``"suit": "S"`` (only cards of that suit: the house code's "surrender any club").
    Answer: a CardSet (or notation, or a Play) of exactly ``count`` cards from the hand. ``highest`` means no
    card kept may rank above a card given (ties, as with no suit order, leave a choice); ``lowest`` likewise.
``surrender``
    The house code's bum, 003 section 3.2.2.1: ``{"kind": "surrender", "count": k, "to": president}``.
    Answer: the ``count`` highest cards (surrender them) or an empty CardSet (decline: the president asks).
``ask``
    The house code's president stealing by questions, 003 section 3.2.2.2:
    ``{"kind": "ask", "count": still to take, "from": bum, "suit": suit the president is bound to or None,
    "committed": cards of that suit still owed, "answers": [{"question", "answer", "cards"}, ...]}``.
    Answer: a question (a string); :func:`legal_questions` lists them. Every question commits the president to
    accept what it reveals, as the privacy rule's examples require:
    ``have 9S`` ("Do you have the nine of spades?": taken if so), ``lowest`` / ``highest`` (the bum's lowest /
    highest card, taken), ``lowest S`` / ``highest S`` (in that suit, taken unless there is none),
    ``highest pair`` (taken, when two are still to take), ``any S`` ("Do you have any spades?": if so the
    president must now take a spade, and may only ask about spades until one is taken), ``two S`` ("Do you have
    at least two spades?"), and, once bound to a suit, ``give S`` (the bum surrenders any card(s) of that suit
    of their own choosing: a ``give`` decision for the bum with ``"suit"``). Questions the privacy rule allows the
    bum to refuse ("your three highest cards", "any triples?") are not offered.
``demand``
    The house code's equalisation, 003 section 3.2.3.1: ``{"kind": "demand", "count": k, "from": president,
    "options": ["lowest", "any"]}``. Answer ``"lowest"`` (the president must give their lowest cards) or
    ``"any"`` (the president chooses).

Systems (``rules.exchange``), with the readings taken where the texts leave a choice:

- ``mandatory-trading`` (003 sections 1.2, 3.2): roles from the last round's finishing order; from the second
  round the president steals 2 from the bum (1 or 2 at 2-3 players, ``steal_small_table``) and the
  vice-president 1 from the vice-bum, then each gives back as many. Questions and answers are private to the
  two players; the others see only that cards changed hands. The bum's own requests to the president
  (3.2.3.2, which the president may refuse or answer untruthfully) bind nobody and are not modelled, nor is the
  optional free trade (3.3), a negotiation between people.
- ``big-two-president`` (002 "Big two president variation"): from the second round the scum gives the 2
  highest cards to the president, who gives 2 lowest (simultaneously: the president's lowest before
  receiving); vice-scum and vice-president likewise with 1 card. ``president_gives = "any-after-receiving"``:
  president and vice-president give any cards once they have received (the text names the president; the
  vice-president follows "mutatis mutandis").
- ``loser-to-winner`` (000 End Game): from the second round the loser (last of the finishing order) gives
  their highest card to the winner, who gives any card of their own in exchange (not the one just received);
  both cards are shown to everyone.
- ``pass-around`` (004 Zheng Shangyou trading): every round, each player passes ``pass_count`` cards to the
  next seat; cards received are seen only once one's own are passed (all passes happen before any arrives).

Cards given in one *stage* arrive when the stage ends, so nobody can give on what they are about to receive
unless the rule says they receive first. A seat's observation shows its hand without the cards it has
handed over, the public facts (who gave how many to whom), and the cards of exchanges it took part in.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Generator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from bigtwo.actions import Answer, Decision, IllegalAnswer
from bigtwo.cards import CARDS, SUIT_CHARS, CardSet, bits, card, held_copies, to_mask, token
from bigtwo.combos.play import Play
from bigtwo.errors import CardParseError
from bigtwo.observation import Observation

ROLE_NAMES = {
    "mandatory-trading": ("president", "vice-president", "neutral", "vice-bum", "bum"),
    "big-two-president": ("president", "vice-president", "neutral", "vice-scum", "scum"),
}
_SUIT_WORDS = {
    "d": "D",
    "c": "C",
    "h": "H",
    "s": "S",
    "♦": "D",
    "♣": "C",
    "♥": "H",
    "♠": "S",
    "diamond": "D",
    "diamonds": "D",
    "club": "C",
    "clubs": "C",
    "heart": "H",
    "hearts": "H",
    "spade": "S",
    "spades": "S",
}
_SUIT_NAMES = {"D": "diamond", "C": "club", "H": "heart", "S": "spade"}


# an exchange script: it yields each decision and is sent the answer's value (cards as a mask, or a word)
Steps = Generator[Decision, Any, None]


class IllegalExchange(IllegalAnswer):
    """An exchange answer the rules forbid; ``.reason`` names the cards and the rule, the state is unchanged."""


def roles_for(rules: Any, order: Sequence[int] | None, n: int) -> list[str] | None:
    """Each seat's role from the previous round's finishing order (003 section 1.2), or None without roles."""
    if order is None:
        return None
    system = rules.exchange
    if system == "loser-to-winner":
        roles = ["neutral"] * n
        roles[order[0]], roles[order[-1]] = "winner", "loser"
        return roles
    names = ROLE_NAMES.get(system)
    if names is None:
        return None
    president, vice, neutral, vice_bum, bum = names
    roles = [neutral] * n
    roles[order[0]], roles[order[-1]] = president, bum
    if n >= 4:
        roles[order[1]], roles[order[-2]] = vice, vice_bum
    return roles


# --- choosing legally -----------------------------------------------------------------------------------


def _suit_mask(mask: int, suit: str | None) -> int:
    if suit is None:
        return mask
    s = SUIT_CHARS.index(suit)
    return sum(1 << c for c in bits(mask) if CARDS[c].suit == s)


def extreme_ok(ev: Any, hand: int, chosen: int, must: str) -> bool:
    """Whether ``chosen`` are ``hand``'s highest (or lowest) cards: no kept card ranks above (below) one given."""
    rest = hand & ~chosen
    if must == "any" or not rest or not chosen:
        return True
    pw = ev.power
    if must == "highest":
        return bool(min(pw[c] for c in bits(chosen)) >= max(pw[c] for c in bits(rest)))
    return bool(max(pw[c] for c in bits(chosen)) <= min(pw[c] for c in bits(rest)))


def give_choices(ev: Any, hand: int, count: int, must: str = "any", suit: str | None = None) -> list[CardSet]:
    """Every set of ``count`` cards the hand may give under ``must`` (and ``suit``)."""
    pool = _suit_mask(hand, suit)
    cs = bits(pool)
    if count > len(cs):
        return []
    if must == "any":
        return [CardSet(sum(1 << c for c in combo)) for combo in itertools.combinations(cs, count)]
    pw = ev.power
    ordered = sorted(cs, key=lambda c: (pw[c], c), reverse=must == "highest")
    if count == 0:
        return [CardSet(0)]
    edge = pw[ordered[count - 1]]
    beyond = [c for c in ordered[:count] if pw[c] != edge]
    ties = [c for c in cs if pw[c] == edge]
    base = sum(1 << c for c in beyond)
    return [CardSet(base | sum(1 << c for c in combo)) for combo in itertools.combinations(ties, count - len(beyond))]


def extreme_cards(ev: Any, hand: int, count: int, must: str) -> int:
    """One set of the ``count`` highest or lowest cards (ties broken by card order)."""
    pw = ev.power
    ordered = sorted(bits(hand), key=lambda c: (pw[c], c), reverse=must == "highest")
    return sum(1 << c for c in ordered[:count])


def _norm_question(text: str) -> str:
    words = text.strip().lower().replace("?", "").split()
    if not words:
        raise ValueError("an empty question")
    if words[0] == "have" and len(words) == 2:
        return f"have {card(words[1])}"
    if len(words) == 1:
        if words[0] in ("lowest", "highest"):
            return words[0]
        return f"have {card(words[0])}"
    if len(words) == 2:
        head, tail = words
        if head == "highest" and tail == "pair":
            return "highest pair"
        if head in ("lowest", "highest", "any", "two", "give") and tail in _SUIT_WORDS:
            return f"{head} {_SUIT_WORDS[tail]}"
    raise ValueError(f"{text!r} is not a question")


def legal_questions(ev: Any, own_hand: int, decision: dict[str, Any]) -> list[str]:
    """The questions a stealing president may ask now, from their hand and the decision in their observation."""
    left = decision["count"]
    suit = decision.get("suit")
    asked = {a["question"]: a for a in decision.get("answers", ())}
    known = own_hand
    empty_suits = set()
    for a in decision.get("answers", ()):
        q = a["question"]
        if q.startswith("have "):
            known |= to_mask(q[5:])
        for c in a.get("cards", ()):
            known |= to_mask(c)
        words = q.split()
        negative = a["answer"] in ("no", "none") and len(words) == 2
        if negative and words[0] in ("any", "lowest", "highest") and words[1] in SUIT_CHARS:
            empty_suits.add(words[1])
    suits = [suit] if suit else [s for s in SUIT_CHARS if s not in empty_suits]
    out: list[str] = []
    if suit is None:
        out += ["lowest", "highest"]
        if left >= 2 and "highest pair" not in asked:
            out.append("highest pair")
    for s in suits:
        out += [f"highest {s}", f"lowest {s}"]
        if suit is None:
            if f"any {s}" not in asked or asked[f"any {s}"]["answer"] == "yes":
                out.append(f"any {s}")
            if left >= 2 and f"two {s}" not in asked:
                out.append(f"two {s}")
        else:
            out.append(f"give {s}")
    for s in empty_suits:
        known |= _suit_mask((1 << 52) - 1, s)
    pool = _suit_mask(((1 << 52) - 1) & ~known, suit)
    out += [f"have {CARDS[c]}" for c in sorted(bits(pool), key=lambda c: ev.power[c])]
    return out


def _pending(obs: Observation | Mapping[str, Any]) -> tuple[dict[str, Any], int] | None:
    """The exchange decision an observation asks of its seat (as a dict) and the seat's hand, or None."""
    if isinstance(obs, Observation):
        if obs.phase != "exchange" or obs.decision is None:
            return None
        return obs.decision.to_dict(), obs.hand
    d = obs.get("decision")
    if obs.get("phase") != "exchange" or not d:
        return None
    return d, to_mask(obs["hand"])


def exchange_answers(rules: Any, obs: Observation | Mapping[str, Any]) -> list[Answer]:
    """Every legal answer to the exchange decision in ``obs``, as actions (empty when the seat has none)."""
    pending = _pending(obs)
    if pending is None:
        return []
    kind = pending[0]["kind"]
    out: list[Answer] = []
    for c in legal_exchange_choices(rules, obs):
        if isinstance(c, CardSet):
            if kind == "surrender":
                out.append(Answer("surrender", "surrender", c.mask) if c.mask else Answer("surrender", "decline"))
            else:
                out.append(Answer(kind, "", c.mask))
        else:
            out.append(Answer(kind, c))
    return out


def legal_exchange_choices(rules: Any, obs: Observation | Mapping[str, Any]) -> list[CardSet | str]:
    """Every legal answer to the decision in ``obs`` (empty when the seat has none).

    CardSets for ``give`` and ``surrender`` (the empty CardSet declines), strings for ``ask`` and ``demand``.
    """
    pending = _pending(obs)
    if pending is None:
        return []
    d, hand = pending
    ev = rules.engine
    kind = d["kind"]
    if kind == "give":
        return list(give_choices(ev, hand, d["count"], d.get("must", "any"), d.get("suit")))
    if kind == "surrender":
        return [CardSet(0), *give_choices(ev, hand, d["count"], "highest")]
    if kind == "ask":
        return list(legal_questions(ev, hand, d))
    if kind == "demand":
        return list(d["options"])
    raise ValueError(f"unknown decision kind {kind!r}")


def random_exchange_choice(rules: Any, obs: Observation | Mapping[str, Any], rng: random.Random) -> CardSet | str:
    """A uniformly random legal answer, without listing every set of cards (a 6-card pass from 26 is 230,230)."""
    pending = _pending(obs)
    if pending is None:
        raise ValueError(f"seat {_seat(obs)} has no exchange decision to make")
    d, hand = pending
    if d["kind"] != "give":
        return rng.choice(legal_exchange_choices(rules, obs))
    ev = rules.engine
    pool = bits(_suit_mask(hand, d.get("suit")))
    k, must = d["count"], d.get("must", "any")
    if must == "any":
        return CardSet(sum(1 << c for c in rng.sample(pool, k)))
    pw = ev.power
    ordered = sorted(pool, key=lambda c: (pw[c], c), reverse=must == "highest")
    edge = pw[ordered[k - 1]]
    beyond = [c for c in ordered[:k] if pw[c] != edge]
    ties = [c for c in pool if pw[c] == edge]
    return CardSet(sum(1 << c for c in beyond + rng.sample(ties, k - len(beyond))))


def default_exchange_choice(rules: Any, obs: Observation | Mapping[str, Any]) -> CardSet | str:
    """A legal, cheap, sensible answer: give the lowest cards allowed, decline to surrender, take the highest."""
    pending = _pending(obs)
    if pending is None:
        raise ValueError(f"seat {_seat(obs)} has no exchange decision to make")
    d, hand = pending
    ev = rules.engine
    kind = d["kind"]
    if kind == "give":
        must = d.get("must", "any")
        pool = _suit_mask(hand, d.get("suit"))
        if must == "highest":
            return CardSet(extreme_cards(ev, pool, d["count"], "highest"))
        return CardSet(extreme_cards(ev, pool, d["count"], "lowest"))
    if kind == "surrender":
        return CardSet(0)
    if kind == "ask":
        legal = legal_questions(ev, hand, d)
        want = "highest" if d.get("suit") is None else f"highest {d['suit']}"
        return want if want in legal else legal[0]
    return str(d["options"][0])


def _seat(obs: Observation | Mapping[str, Any]) -> Any:
    return obs.seat if isinstance(obs, Observation) else obs.get("seat")


# --- the exchange state machine ---------------------------------------------------------------------------


@dataclass
class _Stage:
    out: list[int]
    moves: list[tuple[int, int, int]] = field(default_factory=list)


class Exchange:
    """The exchanges of one round, from the dealt hands to the hands play starts with.

    ``pending`` is the current :class:`Decision` (None when done); :meth:`decide` answers it. ``events`` is the
    full record (every card; for audits), :meth:`events_for` what one seat may see, ``answers`` the decisions
    made, in order (enough to replay).
    """

    def __init__(
        self,
        rules: Any,
        hands: Sequence[int],
        previous_order: Sequence[int] | None = None,
        dealer: int = 0,
    ):
        self.rules = rules
        self.ev = rules.engine
        self.n = len(hands)
        self.hands = list(hands)
        self.previous = list(previous_order) if previous_order is not None else None
        self.dealer = dealer
        self.roles = roles_for(rules, self.previous, self.n)
        self.events: list[dict[str, Any]] = []
        self.answers: list[dict[str, Any]] = []
        self._stage_no = 0
        self._stage = _Stage([0] * self.n)
        self.pending: Decision | None = None
        self._script_iter = self._script()
        self._advance(None)

    # --- reading -----------------------------------------------------------------------------------------
    @property
    def is_done(self) -> bool:
        return self.pending is None

    def hand(self, seat: int) -> int:
        """The seat's cards now: without those it has handed over, and without those not yet arrived."""
        return self.hands[seat] & ~self._stage.out[seat]

    def events_for(self, seat: int) -> list[dict[str, Any]]:
        """The exchange events ``seat`` may see: the cards only where it took part, or where they are shown."""
        out = []
        for e in self.events:
            parties = (e.get("from"), e.get("to"))
            if e["type"] != "give":
                if seat in parties:
                    out.append(dict(e))
                continue
            arrived = e["stage"] < self._stage_no or self.is_done
            sees = e.get("shown") or seat == e["from"] or (seat == e["to"] and (arrived or e.get("seen")))
            if sees:
                out.append(dict(e))
            else:
                out.append({k: v for k, v in e.items() if k != "cards"})
        return out

    def decision_for(self, seat: int) -> dict[str, Any] | None:
        d = self.pending
        return d.to_dict() if d is not None and d.seat == seat else None

    # --- acting ------------------------------------------------------------------------------------------
    def decide(self, answer: Any) -> Any:
        """Answer the pending decision; raises :class:`IllegalExchange` (state unchanged) when it breaks a rule."""
        d = self.pending
        if d is None:
            raise IllegalExchange("no exchange decision is pending")
        value = self._validate(d, answer)
        shown = str(CardSet(value)) if isinstance(value, int) else value
        entry = {"seat": d.seat, "kind": d.kind, "answer": shown}
        if isinstance(value, int):
            entry["mask"] = value  # the exact cards: with two decks, notation does not say which copy
        self.answers.append(entry)
        self._advance(value)
        return value

    def why_not(self, answer: Any) -> str | None:
        """Why ``answer`` may not answer the pending decision, in words; None if it may (nothing changes)."""
        if self.pending is None:
            return "no exchange decision is pending"
        try:
            self._validate(self.pending, answer)
        except IllegalExchange as e:
            return e.reason
        return None

    def _advance(self, value: Any) -> None:
        try:
            self.pending = self._script_iter.send(value)
        except StopIteration:
            self.pending = None
            self._end_stage()

    def _validate(self, d: Decision, answer: Any) -> Any:
        who = f"seat {d.seat}"
        if isinstance(answer, Answer):
            if answer.kind != d.kind:
                raise IllegalExchange(f"{answer} answers a {answer.kind!r} decision, not this {d.kind!r} one")
            if d.kind == "give" or (d.kind == "surrender" and answer.mask):
                answer = CardSet.from_mask(answer.mask)
            else:
                answer = answer.word
        if d.kind in ("give", "surrender"):
            if isinstance(answer, str) and d.kind == "surrender" and answer.strip().lower() in ("decline", "no", ""):
                return 0
            if isinstance(answer, str) and d.kind == "surrender" and answer.strip().lower() in ("surrender", "yes"):
                return extreme_cards(self.ev, self.hand(d.seat), d.count, "highest")
            try:
                mask = answer.mask if isinstance(answer, Play | CardSet) else to_mask(answer)
            except (CardParseError, TypeError, ValueError) as e:
                raise IllegalExchange(f"{answer!r} is not a set of cards: {e}") from None
            hand = self.hand(d.seat)
            if d.kind == "surrender" and mask == 0:
                return 0
            if mask & ~hand:
                mask = held_copies(mask, hand)
            cards = CardSet(mask)
            if mask & ~hand:
                raise IllegalExchange(f"{who} does not hold {CardSet(mask & ~hand)}")
            if mask.bit_count() != d.count:
                raise IllegalExchange(
                    f"{cards or 'no cards'}: {who} must give exactly {d.count} card{'s' if d.count > 1 else ''} "
                    f"({d.reason})"
                )
            must = "highest" if d.kind == "surrender" else d.must
            pool = _suit_mask(hand, d.suit)
            if d.suit and mask & ~pool:
                raise IllegalExchange(f"{cards}: {who} must give {_SUIT_NAMES[d.suit]}s only ({d.reason})")
            if not extreme_ok(self.ev, pool, mask, must):
                raise IllegalExchange(f"{cards} are not {who}'s {d.count} {must} cards ({d.reason})")
            return mask
        if d.kind == "ask":
            legal = legal_questions(self.ev, self.hand(d.seat), d.to_dict())
            hint = f"ask e.g. {', '.join(legal[:6])}"
            try:
                q = _norm_question(answer if isinstance(answer, str) else str(CardSet(to_mask(answer))))
            except (ValueError, CardParseError):
                raise IllegalExchange(
                    f"{answer!r} is not a question the bum must answer (003 section 3.2.2.2.2, the privacy rule); "
                    f"{hint}"
                ) from None
            if q not in legal:
                raise IllegalExchange(f"{q!r} may not be asked now ({d.reason}); {hint}")
            return q
        if d.kind == "demand":
            choice = str(answer).strip().lower()
            if choice not in d.options:
                raise IllegalExchange(f"{answer!r}: answer one of {', '.join(d.options)} ({d.reason})")
            return choice
        raise IllegalExchange(f"unknown decision kind {d.kind!r}")

    # --- bookkeeping -------------------------------------------------------------------------------------
    def _give(self, giver: int, receiver: int, mask: int, reason: str, shown: bool = False, seen: bool = False) -> None:
        """Hand ``mask`` over (it arrives when the stage ends); ``seen``: the receiver knows the cards at once."""
        self._stage.out[giver] |= mask
        self._stage.moves.append((giver, receiver, mask))
        event: dict[str, Any] = {
            "stage": self._stage_no,
            "type": "give",
            "from": giver,
            "to": receiver,
            "count": mask.bit_count(),
            "cards": [token(c) for c in self.ev.sort_cards(mask)],  # the second deck's copies marked
            "reason": reason,
        }
        if shown:
            event["shown"] = True
        if seen:
            event["seen"] = True
        self.events.append(event)

    def _note(self, kind: str, giver: int, receiver: int, **extra: Any) -> None:
        self.events.append({"stage": self._stage_no, "type": kind, "from": giver, "to": receiver, **extra})

    def _end_stage(self) -> None:
        for giver, receiver, mask in self._stage.moves:
            self.hands[giver] &= ~mask
            self.hands[receiver] |= mask
        if self._stage.moves:
            self._stage_no += 1
        self._stage = _Stage([0] * self.n)

    # --- the systems -------------------------------------------------------------------------------------
    def _script(self) -> Steps:
        system = self.rules.exchange
        if system == "pass-around":
            yield from self._pass_around()
        elif self.previous is None or self.n < 2:
            return
        elif system == "mandatory-trading":
            yield from self._mandatory_trading()
        elif system == "big-two-president":
            yield from self._big_two_president()
        elif system == "loser-to-winner":
            yield from self._loser_to_winner()

    def _pass_around(self) -> Steps:
        n = self.n
        for i in range(n):
            seat = (self.dealer + 1 + i) % n
            k = min(self.rules.pass_count, self.hand(seat).bit_count())
            if not k:
                continue
            to = (seat + 1) % n
            why = f"pass-around: every player passes {k} cards to the next player (004 Zheng Shangyou, Trading)"
            mask = yield Decision(seat, "give", k, why, to=to)
            self._give(seat, to, mask, "pass-around")
        self._end_stage()

    def _loser_to_winner(self) -> Steps:
        assert self.previous is not None
        winner, loser = self.previous[0], self.previous[-1]
        why = "the loser gives their highest card to the winner; the cards are shown to all (000 End Game)"
        mask = yield Decision(loser, "give", 1, why, to=winner, must="highest", shown=True)
        self._give(loser, winner, mask, "the loser's highest card", shown=True)
        why = "the winner gives any card of their choosing in exchange; shown to all (000 End Game)"
        mask = yield Decision(winner, "give", 1, why, to=loser, must="any", shown=True)
        self._give(winner, loser, mask, "the winner's choice", shown=True)
        self._end_stage()

    def _pairs(self, small: int) -> list[tuple[int, int, int]]:
        """(higher role, lower role, cards) for the president/bum and vice-president/vice-bum trades."""
        order = self.previous
        assert order is not None
        pairs = [(order[0], order[-1], small if self.n <= 3 else 2)]
        if self.n >= 4:
            pairs.append((order[1], order[-2], 1))
        return pairs

    def _role(self, seat: int) -> str:
        return self.roles[seat] if self.roles else f"seat {seat}"

    def _big_two_president(self) -> Steps:
        src = "002 Big two president variation"
        pairs = self._pairs(2)
        after = self.rules.president_gives == "any-after-receiving"
        for hi, lo, k in pairs:
            cards = f"{k} highest card{'s' if k > 1 else ''}"
            why = f"the {self._role(lo)} passes their {cards} to the {self._role(hi)} ({src})"
            mask = yield Decision(lo, "give", k, why, to=hi, must="highest")
            self._give(lo, hi, mask, f"the {self._role(lo)}'s highest")
            if not after:
                cards = f"{k} lowest card{'s' if k > 1 else ''}"
                why = f"the {self._role(hi)} passes their {cards} to the {self._role(lo)} ({src})"
                mask = yield Decision(hi, "give", k, why, to=lo, must="lowest")
                self._give(hi, lo, mask, f"the {self._role(hi)}'s lowest")
        if after:
            self._end_stage()
            for hi, lo, k in pairs:
                why = f"the {self._role(hi)} passes any {k} card{'s' if k > 1 else ''} after receiving ({src}, variant)"
                mask = yield Decision(hi, "give", k, why, to=lo, must="any")
                self._give(hi, lo, mask, f"the {self._role(hi)}'s choice")
        self._end_stage()

    def _mandatory_trading(self) -> Steps:
        for taker, giver, want in self._pairs(self.rules.steal_small_table):
            k = min(want, self.hand(giver).bit_count(), self.hand(taker).bit_count())
            if not k:
                continue
            t_role, g_role = self._role(taker), self._role(giver)
            plural = "s" if k > 1 else ""
            why = (
                f"the {g_role} may surrender their {k} highest card{plural} to the {t_role}, or let the "
                f"{t_role} steal {k} by questions (003 section 3.2.2)"
            )
            mask = yield Decision(giver, "surrender", k, why, to=taker, options=("surrender", "decline"))
            if mask:
                self._note("surrender", giver, taker, count=k)
                self._give(giver, taker, mask, f"surrendered by the {g_role}", seen=True)
            else:
                self._note("decline", giver, taker, count=k)
                yield from self._questions(taker, giver, k)
            self._end_stage()
            why = (
                f"the {g_role} may demand the {t_role}'s {k} lowest card{plural}; otherwise the {t_role} chooses "
                "(003 section 3.2.3.1)"
            )
            demand = yield Decision(giver, "demand", k, why, source=taker, options=("lowest", "any"))
            self._note("demand", giver, taker, choice=demand)
            why = (
                f"the {t_role} gives {k} card{plural} back to the {g_role}"
                + (", their lowest as demanded" if demand == "lowest" else ", of their choosing")
                + " (003 section 3.2.3)"
            )
            mask = yield Decision(taker, "give", k, why, to=giver, must=demand)
            self._give(taker, giver, mask, f"given back by the {t_role}")
            self._end_stage()

    def _questions(self, taker: int, giver: int, k: int) -> Steps:
        ev = self.ev
        answers: list[dict[str, Any]] = []
        suit: str | None = None
        committed = 0
        taken = 0
        why = f"the {self._role(taker)} steals {k} card{'s' if k > 1 else ''} by questions (003 section 3.2.2.2)"
        while taken < k:
            q = yield Decision(
                taker,
                "ask",
                k - taken,
                why,
                source=giver,
                suit=suit,
                committed=committed,
                answers=tuple(answers),
            )
            bum = self.hand(giver)
            head, _, arg = q.partition(" ")
            got, reply = 0, ""
            if head == "have":
                c = to_mask(arg)
                got, reply = (c, "yes") if c & bum else (0, "no")
            elif head in ("lowest", "highest") and not arg:
                got = extreme_cards(ev, bum, 1, head)
            elif head in ("lowest", "highest") and arg == "pair":
                best = None
                for c in sorted(bits(bum), key=lambda c: (ev.power[c], c), reverse=True):
                    same = [x for x in bits(bum) if ev.rank_of[x] == ev.rank_of[c]]
                    if len(same) >= 2:
                        best = extreme_cards(ev, sum(1 << x for x in same), 2, "highest")
                        break
                got, reply = (best, "") if best else (0, "none")
            elif head in ("lowest", "highest"):
                pool = _suit_mask(bum, arg)
                got, reply = (extreme_cards(ev, pool, 1, head), "") if pool else (0, "none")
            elif head in ("any", "two"):
                need = 1 if head == "any" else 2
                if _suit_mask(bum, arg).bit_count() >= need:
                    reply, suit, committed = "yes", arg, need
                else:
                    reply = "no"
            elif head == "give":
                why_give = (
                    f"the {self._role(taker)} asks you to surrender any {committed} {_SUIT_NAMES[arg]}"
                    f"{'s' if committed > 1 else ''} of your choosing (003 section 3.2.2.2.4)"
                )
                got = yield Decision(giver, "give", committed, why_give, to=taker, must="any", suit=arg)
            if got:
                reply = reply or "takes"
                if suit is not None:
                    committed -= got.bit_count()
                    if committed <= 0:
                        suit, committed = None, 0
                taken += got.bit_count()
            entry = {"question": q, "answer": reply, "cards": [token(c) for c in ev.sort_cards(got)]}
            answers.append(entry)
            self._note("question", taker, giver, question=q, answer=reply, cards=entry["cards"])
            if got:
                self._give(giver, taker, got, f"stolen by the {self._role(taker)}", seen=True)
