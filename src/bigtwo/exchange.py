"""Roles and card exchanges between the deal and the first play, as decisions.

Every exchange is a sequence of *decisions*, each made by one seat through the same path as a play: the seat's
observation carries ``phase == Phase.EXCHANGE`` and a ``decision`` dict, and the seat answers. A wrong answer
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
  two players; the others see only that cards changed hands. With ``trade_requests`` the bum who leaves the
  give-back to the president may ask for particular cards (3.2.3.2): ``request`` (cards, or ``none``) and the
  president's ``grant`` (``grant`` / ``refuse``); the questions of 3.2.3.2, which may be answered untruthfully,
  bind nobody and are table talk.
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

- ``higher-bid-auction`` and ``free-bid-auction`` (004 Zheng Shangyou): every round, the face-up out cards are
  sold by ``bid`` decisions (a card, or ``pass``), called out for everyone; see docs/rules.md.
- ``free_trade`` (003 3.3; 004 Trading), after any of the above: ``trade`` turns (an offer of cards for named
  cards to one player, ``done``, or ``play`` for the lead card's holder) and ``reply`` decisions (``accept`` /
  ``decline``), called out for everyone.

Cards given in one *stage* arrive when the stage ends, so nobody can give on what they are about to receive
unless the rule says they receive first. A seat's observation shows its hand without the cards it has
handed over, the public facts (who gave how many to whom), and the cards of exchanges it took part in.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Generator, Sequence
from dataclasses import dataclass, field
from typing import Any

from bigtwo.actions import (
    Answer,
    Ask,
    Bid,
    Decision,
    DecisionKind,
    Demand,
    Give,
    Grant,
    IllegalAnswer,
    Must,
    Reply,
    Request,
    Surrender,
    Trade,
    Word,
)
from bigtwo.cards import CARDS, JOKER_RANK, SUIT_CHARS, CardSet, bits, card, checked_mask, held_copies, to_mask, token
from bigtwo.combos.play import Play
from bigtwo.deal import holder, lead_card_mask
from bigtwo.errors import CardParseError
from bigtwo.observation import ExchangeEvent, Observation, Phase
from bigtwo.rules.choices import ExchangeMode, FreeTradeEnd, PresidentGives

# the role of a seat that neither gives nor takes in the exchanges (the tables leave it unsaid)
NEUTRAL = "neutral"
ROLE_NAMES = {
    ExchangeMode.MANDATORY_TRADING: ("president", "vice-president", NEUTRAL, "vice-bum", "bum"),
    ExchangeMode.BIG_TWO_PRESIDENT: ("president", "vice-president", NEUTRAL, "vice-scum", "scum"),
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
SUIT_NAMES = {"D": "diamond", "C": "club", "H": "heart", "S": "spade"}


MAX_REQUESTS = 3  # requests a bum may make for cards back (003 3.2.3.2 sets none: a bound so the trading ends)

# an exchange script: it yields each decision and is sent the answer's value (cards as a mask, or a word)
Steps = Generator[Decision, Any, None]


class IllegalExchange(IllegalAnswer):
    """An exchange answer the rules forbid; ``.reason`` names the cards and the rule, the state is unchanged."""


# the exchange systems that need no previous round: they take place before every round's play, the first too
ORDERLESS_SYSTEMS = ("pass-around", "higher-bid-auction", "free-bid-auction")


def exchanges_before_first_round(rules: Any) -> bool:
    """Whether the rules exchange cards before the first round's play too (a pass-around, auctions of the out
    cards, free trading): a dealt round alone (a bare Game) would skip them, so such a round is a match of one."""
    return rules.exchange in ORDERLESS_SYSTEMS or bool(rules.free_trade)


def roles_for(rules: Any, order: Sequence[int] | None, n: int) -> list[str] | None:
    """Each seat's role from the previous round's finishing order (003 section 1.2), or None without roles."""
    if order is None:
        return None
    system = rules.exchange
    if system == ExchangeMode.LOSER_TO_WINNER:
        roles = [NEUTRAL] * n
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
    if must == Must.ANY or not rest or not chosen:
        return True
    pw = ev.power
    if must == Must.HIGHEST:
        return bool(min(pw[c] for c in bits(chosen)) >= max(pw[c] for c in bits(rest)))
    return bool(max(pw[c] for c in bits(chosen)) <= min(pw[c] for c in bits(rest)))


def give_choices(ev: Any, hand: int, count: int, must: str = "any", suit: str | None = None) -> list[CardSet]:
    """Every set of ``count`` cards the hand may give under ``must`` (and ``suit``)."""
    pool = _suit_mask(hand, suit)
    cs = bits(pool)
    if count > len(cs):
        return []
    if must == Must.ANY:
        return [CardSet(sum(1 << c for c in combo)) for combo in itertools.combinations(cs, count)]
    pw = ev.power
    ordered = sorted(cs, key=lambda c: (pw[c], c), reverse=must == Must.HIGHEST)
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
    ordered = sorted(bits(hand), key=lambda c: (pw[c], c), reverse=must == Must.HIGHEST)
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


def _pending(obs: Observation) -> tuple[dict[str, Any], int] | None:
    """The exchange decision an observation asks of its seat (as a dict) and the seat's hand, or None."""
    if obs.phase != Phase.EXCHANGE or obs.decision is None:
        return None
    return obs.decision.to_dict(), obs.hand


NEW_KINDS = ("bid", "trade", "reply", "request", "grant")  # auctions, free trade, requests: answered by Answers


def card_price(ev: Any, c: int) -> int:
    """What a card is worth as a bid: its rank alone (004: "bought with a card higher than their rank"), the
    colour joker above the other."""
    p = int(ev.power[c])
    return (p // 8) * 2 + (p % 8 if ev.rank_of[c] == JOKER_RANK else 0)


def _bid_floor(ev: Any, d: Bid, higher_bid: bool) -> int:
    """The price a bid must exceed: the best bid so far, and under a higher-bid auction the card's own."""
    floor = -1
    if d.best:
        floor = card_price(ev, d.best.bit_length() - 1)
    if higher_bid and d.cards:
        floor = max(floor, card_price(ev, d.cards.bit_length() - 1))
    return floor


def _offer_pool(obs: Observation) -> int:
    """The cards a trader may ask for: any the pack holds outside their hand and off the table."""
    ev = obs.ev
    assert ev is not None
    return int(ev.pack) & ~obs.hand & ~obs.face_up


def new_kind_answers(rules: Any, obs: Observation) -> list[Answer]:
    """Every legal answer to a bid, trade, reply, request or grant decision, in a fixed order."""
    d = obs.decision
    assert d is not None and obs.ev is not None
    ev, hand, kind = obs.ev, obs.hand, d.kind
    order = sorted(bits(hand), key=lambda c: (ev.power[c], c))
    if isinstance(d, Bid):
        floor = _bid_floor(ev, d, rules.exchange == ExchangeMode.HIGHER_BID_AUCTION)
        return [Answer(DecisionKind.BID, Word.PASS)] + [
            Answer(DecisionKind.BID, "", 1 << c) for c in order if card_price(ev, c) > floor
        ]
    if isinstance(d, Reply | Grant):
        yes = Word.ACCEPT if kind == DecisionKind.REPLY else Word.GRANT
        return [Answer(kind, w) for w in d.options if w != yes or d.want & hand == d.want]
    pool = sorted(bits(_offer_pool(obs)), key=lambda c: (ev.power[c], c))
    if kind == DecisionKind.REQUEST:
        out = [Answer(DecisionKind.REQUEST, Word.NONE)]
        for k in range(1, d.count + 1):
            out += [
                Answer(DecisionKind.REQUEST, "", sum(1 << c for c in combo))
                for combo in itertools.combinations(pool, k)
            ]
        return out
    out = [Answer(DecisionKind.TRADE, w) for w in d.options]
    seat = obs.seat
    for k in range(1, d.count + 1):
        gives = [sum(1 << c for c in combo) for combo in itertools.combinations(order, k)]
        wants = [sum(1 << c for c in combo) for combo in itertools.combinations(pool, k)]
        for to in range(obs.players):
            if to != seat:
                out += [Answer(DecisionKind.TRADE, Word.OFFER, g, w, to) for g in gives for w in wants]
    return out


def exchange_answers(rules: Any, obs: Observation) -> list[Answer]:
    """Every legal answer to the exchange decision in ``obs``, as actions (empty when the seat has none)."""
    pending = _pending(obs)
    if pending is None:
        return []
    kind = pending[0]["kind"]
    if kind in NEW_KINDS:
        return new_kind_answers(rules, obs)
    out: list[Answer] = []
    for c in legal_exchange_choices(rules, obs):
        if isinstance(c, CardSet):
            if kind == DecisionKind.SURRENDER:
                out.append(
                    Answer(DecisionKind.SURRENDER, Word.SURRENDER, c.mask)
                    if c.mask
                    else Answer(DecisionKind.SURRENDER, Word.DECLINE)
                )
            else:
                out.append(Answer(kind, "", c.mask))
        else:
            out.append(Answer(kind, c))
    return out


def legal_exchange_choices(rules: Any, obs: Observation) -> list[CardSet | str]:
    """Every legal answer to the decision in ``obs`` (empty when the seat has none).

    CardSets for ``give`` and ``surrender`` (the empty CardSet declines), strings for ``ask`` and ``demand``.
    """
    pending = _pending(obs)
    if pending is None:
        return []
    d, hand = pending
    ev = rules.engine
    kind = d["kind"]
    if kind in NEW_KINDS:
        return [_as_choice(a) for a in new_kind_answers(rules, obs)]
    if kind == DecisionKind.GIVE:
        return list(give_choices(ev, hand, d["count"], d.get("must", "any"), d.get("suit")))
    if kind == DecisionKind.SURRENDER:
        return [CardSet(0), *give_choices(ev, hand, d["count"], "highest")]
    if kind == DecisionKind.ASK:
        return list(legal_questions(ev, hand, d))
    if kind == DecisionKind.DEMAND:
        return list(d["options"])
    raise ValueError(f"unknown decision kind {kind!r}")


def _as_choice(a: Answer) -> CardSet | str:
    """An answer as the tables list choices: cards (a bid, a request) or words (the rest, offers written out)."""
    if a.kind in (DecisionKind.BID, DecisionKind.REQUEST) and a.mask:
        return CardSet.from_mask(a.mask)
    return str(a)


def random_exchange_choice(rules: Any, obs: Observation, rng: random.Random) -> CardSet | str:
    """A uniformly random legal answer, without listing every set of cards (a 6-card pass from 26 is 230,230)."""
    pending = _pending(obs)
    if pending is None:
        raise ValueError(f"seat {_seat(obs)} has no exchange decision to make")
    d, hand = pending
    if d["kind"] == DecisionKind.TRADE and d["count"]:
        return _as_choice(_random_offer(rules, obs, rng))
    if d["kind"] != DecisionKind.GIVE:
        return rng.choice(legal_exchange_choices(rules, obs))
    ev = rules.engine
    pool = bits(_suit_mask(hand, d.get("suit")))
    k, must = d["count"], d.get("must", "any")
    if must == Must.ANY:
        return CardSet(sum(1 << c for c in rng.sample(pool, k)))
    pw = ev.power
    ordered = sorted(pool, key=lambda c: (pw[c], c), reverse=must == Must.HIGHEST)
    edge = pw[ordered[k - 1]]
    beyond = [c for c in ordered[:k] if pw[c] != edge]
    ties = [c for c in pool if pw[c] == edge]
    return CardSet(sum(1 << c for c in beyond + rng.sample(ties, k - len(beyond))))


def _random_offer(rules: Any, obs: Observation, rng: random.Random) -> Answer:
    """A trade answer drawn uniformly from the legal ones, without listing every offer."""
    d = obs.decision
    assert d is not None
    words = [Answer(DecisionKind.TRADE, w) for w in d.options]
    hand, pool = bits(obs.hand), bits(_offer_pool(obs))
    seats = [t for t in range(obs.players) if t != obs.seat]
    counts = [math.comb(len(hand), k) * math.comb(len(pool), k) * len(seats) for k in range(1, d.count + 1)]
    pick = rng.randrange(len(words) + sum(counts))
    if pick < len(words):
        return words[pick]
    pick -= len(words)
    k = 1
    while pick >= counts[k - 1]:
        pick -= counts[k - 1]
        k += 1
    give = sum(1 << c for c in rng.sample(hand, k))
    want = sum(1 << c for c in rng.sample(pool, k))
    return Answer(DecisionKind.TRADE, Word.OFFER, give, want, rng.choice(seats))


def default_exchange_choice(rules: Any, obs: Observation) -> CardSet | str:
    """A legal, cheap, sensible answer: give the lowest cards allowed, decline to surrender, take the highest;
    in the procedures before play, pass the bid, let trading end, request nothing and decline offers and requests."""
    pending = _pending(obs)
    if pending is None:
        raise ValueError(f"seat {_seat(obs)} has no exchange decision to make")
    d, hand = pending
    ev = rules.engine
    kind = d["kind"]
    if kind == DecisionKind.GIVE:
        must = d.get("must", "any")
        pool = _suit_mask(hand, d.get("suit"))
        if must == Must.HIGHEST:
            return CardSet(extreme_cards(ev, pool, d["count"], "highest"))
        return CardSet(extreme_cards(ev, pool, d["count"], "lowest"))
    if kind == DecisionKind.SURRENDER:
        return CardSet(0)
    if kind == DecisionKind.ASK:
        legal = legal_questions(ev, hand, d)
        want = "highest" if d.get("suit") is None else f"highest {d['suit']}"
        return want if want in legal else legal[0]
    if kind in _PLAIN_WORDS:
        return _PLAIN_WORDS[kind]
    return str(d["options"][0])


# the answer always legal to each procedure's decision, whatever the hand: no bid, no offer, no request, and
# declining what another asks (the cards asked for may not all be in hand)
_PLAIN_WORDS = {
    DecisionKind.BID: Word.PASS,
    DecisionKind.TRADE: Word.DONE,
    DecisionKind.REPLY: Word.DECLINE,
    DecisionKind.REQUEST: Word.NONE,
    DecisionKind.GRANT: Word.REFUSE,
}


def _seat(obs: Observation) -> Any:
    return obs.seat


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
        table: int = 0,
        ev: Any = None,
    ):
        self.rules = rules
        self.ev = ev if ev is not None else rules.engine_for(len(hands))
        self.n = len(hands)
        self.hands = list(hands)
        self.table = table  # the out cards lying face up (auctioned, and left where nobody buys them)
        self._start = (list(hands), list(previous_order) if previous_order is not None else None, dealer, table)
        self.known: dict[int, int] = {}  # seat -> cards everyone heard or saw go into (or be offered from) it
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

    def fresh(self) -> Exchange:
        """The same exchange from its start, before any answer (records run it again to name each party)."""
        hands, previous, dealer, table = self._start
        return Exchange(self.rules, hands, previous, dealer, table=table, ev=self.ev)

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
            if e.get("public"):
                out.append(dict(e))
                continue
            if e["type"] != ExchangeEvent.GIVE:
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
        if isinstance(value, Answer):
            entry = {"seat": d.seat, **value.to_dict()}
            self.answers.append(entry)
            self._advance(value)
            return value
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
        if d.kind in NEW_KINDS:
            if not isinstance(answer, Answer):
                answer = d.read(answer)
            return self._validate_new(d, answer)
        if isinstance(answer, Answer):
            if answer.kind != d.kind:
                raise IllegalExchange(f"{answer} answers a {answer.kind!r} decision, not this {d.kind!r} one")
            if d.kind == DecisionKind.GIVE or (d.kind == DecisionKind.SURRENDER and answer.mask):
                answer = CardSet.from_mask(answer.mask)
            else:
                answer = answer.word
        if d.kind in (DecisionKind.GIVE, DecisionKind.SURRENDER):
            if (
                isinstance(answer, str)
                and d.kind == DecisionKind.SURRENDER
                and answer.strip().lower() in ("decline", "no", "")
            ):
                return 0
            if (
                isinstance(answer, str)
                and d.kind == DecisionKind.SURRENDER
                and answer.strip().lower() in ("surrender", "yes")
            ):
                return extreme_cards(self.ev, self.hand(d.seat), d.count, "highest")
            try:
                mask = answer.mask if isinstance(answer, Play | CardSet) else to_mask(answer)
            except (CardParseError, TypeError, ValueError) as e:
                raise IllegalExchange(f"{answer!r} is not a set of cards: {e}") from None
            hand = self.hand(d.seat)
            if d.kind == DecisionKind.SURRENDER and mask == 0:
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
            must, suit = (d.must, d.suit) if isinstance(d, Give) else (Must.HIGHEST, None)  # a surrender: the highest
            pool = _suit_mask(hand, suit)
            if suit and mask & ~pool:
                raise IllegalExchange(f"{cards}: {who} must give {SUIT_NAMES[suit]}s only ({d.reason})")
            if not extreme_ok(self.ev, pool, mask, must):
                raise IllegalExchange(f"{cards} are not {who}'s {d.count} {must} cards ({d.reason})")
            return mask
        if d.kind == DecisionKind.ASK:
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
        if d.kind == DecisionKind.DEMAND:
            choice = str(answer).strip().lower()
            if choice not in d.options:
                raise IllegalExchange(f"{answer!r}: answer one of {', '.join(d.options)} ({d.reason})")
            return choice
        raise IllegalExchange(f"unknown decision kind {d.kind!r}")

    def _held(self, seat: int, mask: int) -> int:
        """``mask`` as the cards of ``seat``'s hand it names (two decks: the copy held), or an error."""
        hand = self.hand(seat)
        if mask & ~hand:
            mask = held_copies(mask, hand)
        if mask & ~hand:
            raise IllegalExchange(f"seat {seat} does not hold {CardSet(mask & ~hand)}")
        return mask

    def _validate_new(self, d: Decision, a: Answer) -> Answer:
        """An auction, free-trade or request answer, checked; the normalised Answer the script is sent."""
        if a.kind != d.kind:
            raise IllegalExchange(f"{a} answers a {a.kind!r} decision, not this {d.kind!r} one")
        ev, who, hand = self.ev, f"seat {d.seat}", self.hand(d.seat)
        try:
            for mask in (a.mask, a.want):
                checked_mask(mask, ev.pack, f" under {self.rules.name!r}")
        except CardParseError as e:
            raise IllegalExchange(str(e)) from None
        words = ", ".join(repr(o) for o in d.options)
        if not a.mask and not a.want:
            if a.word not in d.options or (d.kind == DecisionKind.TRADE and a.word == Word.OFFER):
                raise IllegalExchange(
                    f"{a.word or 'nothing'}: answer {words}" + (" or make an offer" if d.count else "")
                )
            if isinstance(d, Reply | Grant) and a.word in (Word.ACCEPT, Word.GRANT) and d.want & ~hand:
                raise IllegalExchange(f"{who} does not hold {CardSet(d.want & ~hand)} ({d.reason})")
            return Answer(d.kind, a.word)
        if d.kind in (DecisionKind.REPLY, DecisionKind.GRANT):
            raise IllegalExchange(f"{CardSet(a.mask)}: answer {words}")
        if isinstance(d, Bid):
            mask = self._held(d.seat, a.mask)
            if mask.bit_count() != 1:
                raise IllegalExchange(f"{CardSet(mask)}: a bid is one card ({d.reason})")
            floor = _bid_floor(ev, d, self.rules.exchange == ExchangeMode.HIGHER_BID_AUCTION)
            if card_price(ev, mask.bit_length() - 1) <= floor:
                what = f"the bid of {CardSet(d.best)}" if d.best else f"{CardSet(d.cards)}"
                raise IllegalExchange(f"{CardSet(mask)} does not outbid {what}: offer a card of higher rank")
            return Answer(DecisionKind.BID, "", mask)
        pool = int(ev.pack) & ~hand & ~self.table
        if d.kind == DecisionKind.REQUEST:
            if not 1 <= a.mask.bit_count() <= d.count:
                raise IllegalExchange(f"{CardSet(a.mask)}: ask for 1 to {d.count} cards ({d.reason})")
            if a.mask & ~pool:
                raise IllegalExchange(f"{CardSet(a.mask & ~pool)} cannot be asked for: it is not in another hand")
            return Answer(DecisionKind.REQUEST, "", a.mask)
        if not d.count:
            raise IllegalExchange(f"{who} has made every offer allowed; answer {words}")
        give = self._held(d.seat, a.mask)
        k = give.bit_count()
        if not 1 <= k <= d.count or a.want.bit_count() != k:
            raise IllegalExchange(
                f"{CardSet(give)} for {CardSet(a.want)}: an offer is 1 to {d.count} of your cards for as many "
                "named cards (hands keep their sizes)"
            )
        if a.want & ~pool:
            raise IllegalExchange(f"{CardSet(a.want & ~pool)} cannot be asked for: it is not in another hand")
        if not isinstance(a.to, int) or not 0 <= a.to < self.n or a.to == d.seat:
            raise IllegalExchange(f"an offer goes to another player at the table, not {a.to!r}")
        return Answer(DecisionKind.TRADE, Word.OFFER, give, a.want, a.to)

    # --- bookkeeping -------------------------------------------------------------------------------------
    def _give(self, giver: int, receiver: int, mask: int, reason: str, shown: bool = False, seen: bool = False) -> None:
        """Hand ``mask`` over (it arrives when the stage ends); ``seen``: the receiver knows the cards at once."""
        self._stage.out[giver] |= mask
        self._stage.moves.append((giver, receiver, mask))
        event: dict[str, Any] = {
            "stage": self._stage_no,
            "type": ExchangeEvent.GIVE,
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

    def _note(self, kind: ExchangeEvent, giver: int, receiver: int, **extra: Any) -> None:
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
        if system == ExchangeMode.PASS_AROUND:
            yield from self._pass_around()
        elif system in ORDERLESS_SYSTEMS:
            yield from self._auctions(system == ExchangeMode.HIGHER_BID_AUCTION)
        elif self.previous is None or self.n < 2:
            pass
        elif system == ExchangeMode.MANDATORY_TRADING:
            yield from self._mandatory_trading()
        elif system == ExchangeMode.BIG_TWO_PRESIDENT:
            yield from self._big_two_president()
        elif system == ExchangeMode.LOSER_TO_WINNER:
            yield from self._loser_to_winner()
        if self.rules.free_trade and self.n >= 2:
            yield from self._free_trade()

    # --- auctions of the out cards (004 Zheng Shangyou, Higher-Bid and Free-Bid Auction) --------------------
    def _public(self, kind: ExchangeEvent, **fields: Any) -> None:
        """An event everyone hears (bids and offers are called out): its cards are shown to all."""
        self.events.append({"stage": self._stage_no, "type": kind, "public": True, **fields})

    def _cards(self, mask: int) -> list[str]:
        return [token(c) for c in self.ev.sort_cards(mask)]  # the second deck's copies marked

    def _auctions(self, higher_bid: bool) -> Steps:
        """Each out card is auctioned; its payment card is auctioned next: at once and until nobody pays
        (higher-bid), or in the next of ``auction_rounds`` rounds (free-bid)."""
        ev = self.ev
        lots = sorted(bits(self.table), key=lambda c: (ev.power[c], c))
        rounds = 1 if higher_bid else self.rules.auction_rounds
        for _ in range(rounds):
            paid: list[int] = []
            for lot in lots:
                chain: int | None = lot
                while chain is not None:
                    payment = yield from self._auction(chain, higher_bid)
                    chain = payment if higher_bid else None
                    if payment is not None and not higher_bid:
                        paid.append(payment)
            lots = paid
            if not lots:
                break

    def _auction(self, lot: int, higher_bid: bool) -> Generator[Decision, Any, int | None]:
        """One card on auction: bids go round from the dealer's left, each above the last; the best bid buys
        it once everyone else has passed. Returns the payment card (now on the table), or None if unsold."""
        n, ev = self.n, self.ev
        best, bidder = 0, None
        passes, seat = 0, (self.dealer + 1) % n
        card_name = str(CARDS[lot])
        rule = "a card of higher rank than it" if higher_bid else "any card"
        while passes < (n if bidder is None else n - 1):  # until everyone (else) has passed in a row
            floor = _bid_floor(ev, Bid(seat, 1, "", cards=1 << lot, best=best), higher_bid)
            if any(card_price(ev, c) > floor for c in bits(self.hand(seat))):
                why = f"{card_name} is on auction: bid {rule}" + (", higher than the best bid" if best else "")
                a = yield Bid(seat, 1, why, source=bidder, options=(Word.PASS,), cards=1 << lot, best=best)
            else:
                a = Answer(DecisionKind.BID, Word.PASS)  # nothing in the hand could outbid: a pass without asking
            if a.mask:
                best, bidder, passes = a.mask, seat, 0
                self.known[seat] = self.known.get(seat, 0) | a.mask
                self._public(ExchangeEvent.BID, **{"from": seat}, card=card_name, cards=self._cards(a.mask))
            else:
                passes += 1
            seat = (seat + 1) % n
        if bidder is None:
            self._public(ExchangeEvent.UNSOLD, cards=[card_name])
            return None
        pay = best.bit_length() - 1
        self.hands[bidder] = (self.hands[bidder] & ~best) | (1 << lot)
        self.table = (self.table & ~(1 << lot)) | best
        self.known[bidder] = (self.known.get(bidder, 0) & ~best) | (1 << lot)
        self._public(ExchangeEvent.SOLD, to=bidder, cards=[card_name], paid=self._cards(best))
        return pay

    # --- free trade (003 section 3.3; 004 Zheng Shangyou, Trading) --------------------------------------------
    def _lead_holder(self) -> int | None:
        union = 0
        for h in self.hands:
            union |= h
        mask = lead_card_mask(self.rules, self.ev, union) if not self.rules.leads_lowest else 0
        return holder(self.hands, mask) if mask else None

    def _free_trade(self) -> Steps:
        """Players in turn from the dealer's left offer cards for named cards of another player, who accepts or
        declines; a player who lets trading end votes to end it. It ends when every player has (003), or a
        majority has, or the lead card's holder starts play (004); a player with no offer left votes to end."""
        rules, n = self.rules, self.n
        by_vote = rules.free_trade_end == FreeTradeEnd.LEAD_CARD_OR_VOTE
        need = n // 2 + 1 if by_vote else n
        left = [rules.free_trade_offers] * n
        votes: set[int] = set()
        seat = (self.dealer + 1) % n
        end = "a majority votes to end it" if by_vote else "every player has let it end"
        while len(votes) < need:
            lead = by_vote and self._lead_holder() == seat
            if left[seat] == 0 and not lead:
                votes.add(seat)
                seat = (seat + 1) % n
                continue
            options = ("done", "play") if lead else ("done",)
            k = min(rules.free_trade_cards, self.hand(seat).bit_count()) if left[seat] else 0
            why = (
                f"free trade: offer up to {k} of your cards for as many named cards of another player, or let "
                f"trading end ('done'); it ends when {end}"
                + ("; holding the lead card, you may end it now and start play ('play')" if lead else "")
                + " (003 section 3.3; 004 Zheng Shangyou, Trading)"
            )
            a = yield Trade(seat, k, why, options=options)
            if a.word == Word.PLAY:
                self._public(ExchangeEvent.TRADE_ENDED, **{"from": seat}, reason="play")
                return
            if a.word == Word.DONE:
                votes.add(seat)
                self._public(ExchangeEvent.VOTE, **{"from": seat}, votes=len(votes), needed=need)
            else:
                votes.discard(seat)
                left[seat] -= 1
                yield from self._offer(seat, a)
            seat = (seat + 1) % n
        self._public(ExchangeEvent.TRADE_ENDED, reason="vote")

    def _offer(self, seat: int, a: Answer) -> Steps:
        to = a.to
        assert to is not None
        give, want = a.mask, a.want
        self.known[seat] = self.known.get(seat, 0) | give
        self._public(ExchangeEvent.OFFER, **{"from": seat}, to=to, cards=self._cards(give), want=self._cards(want))
        why = f"seat {seat} offers {CardSet(give)} for your {CardSet(want)}: accept or decline"
        reply = yield Reply(
            to, give.bit_count(), why, source=seat, options=(Word.ACCEPT, Word.DECLINE), cards=give, want=want
        )
        accepted = reply.word == Word.ACCEPT
        self._public(ExchangeEvent.REPLY, **{"from": to}, to=seat, answer=reply.word)
        if accepted:
            have = held_copies(want, self.hands[to])
            self.hands[seat] = (self.hands[seat] & ~give) | have
            self.hands[to] = (self.hands[to] & ~have) | give
            for s, gone, came in ((seat, give, have), (to, have, give)):
                self.known[s] = (self.known.get(s, 0) & ~gone) | came

    def _pass_around(self) -> Steps:
        n = self.n
        for i in range(n):
            seat = (self.dealer + 1 + i) % n
            k = min(self.rules.pass_count, self.hand(seat).bit_count())
            if not k:
                continue
            to = (seat + 1) % n
            why = f"pass-around: every player passes {k} cards to the next player (004 Zheng Shangyou, Trading)"
            mask = yield Give(seat, k, why, to=to)
            self._give(seat, to, mask, "pass-around")
        self._end_stage()

    def _loser_to_winner(self) -> Steps:
        assert self.previous is not None
        winner, loser = self.previous[0], self.previous[-1]
        why = "the loser gives their highest card to the winner; the cards are shown to all (000 End Game)"
        mask = yield Give(loser, 1, why, to=winner, must=Must.HIGHEST, shown=True)
        self._give(loser, winner, mask, "the loser's highest card", shown=True)
        why = "the winner gives any card of their choosing in exchange; shown to all (000 End Game)"
        mask = yield Give(winner, 1, why, to=loser, must=Must.ANY, shown=True)
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
        after = self.rules.president_gives == PresidentGives.ANY_AFTER_RECEIVING
        for hi, lo, k in pairs:
            cards = f"{k} highest card{'s' if k > 1 else ''}"
            why = f"the {self._role(lo)} passes their {cards} to the {self._role(hi)} ({src})"
            mask = yield Give(lo, k, why, to=hi, must=Must.HIGHEST)
            self._give(lo, hi, mask, f"the {self._role(lo)}'s highest")
            if not after:
                cards = f"{k} lowest card{'s' if k > 1 else ''}"
                why = f"the {self._role(hi)} passes their {cards} to the {self._role(lo)} ({src})"
                mask = yield Give(hi, k, why, to=lo, must=Must.LOWEST)
                self._give(hi, lo, mask, f"the {self._role(hi)}'s lowest")
        if after:
            self._end_stage()
            for hi, lo, k in pairs:
                why = f"the {self._role(hi)} passes any {k} card{'s' if k > 1 else ''} after receiving ({src}, variant)"
                mask = yield Give(hi, k, why, to=lo, must=Must.ANY)
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
            mask = yield Surrender(giver, k, why, to=taker, options=(Word.SURRENDER, Word.DECLINE))
            if mask:
                self._note(ExchangeEvent.SURRENDER, giver, taker, count=k)
                self._give(giver, taker, mask, f"surrendered by the {g_role}", seen=True)
            else:
                self._note(ExchangeEvent.DECLINE, giver, taker, count=k)
                yield from self._questions(taker, giver, k)
            self._end_stage()
            why = (
                f"the {g_role} may demand the {t_role}'s {k} lowest card{plural}; otherwise the {t_role} chooses "
                "(003 section 3.2.3.1)"
            )
            demand = yield Demand(giver, k, why, source=taker, options=(Word.LOWEST, Word.ANY))
            self._note(ExchangeEvent.DEMAND, giver, taker, choice=demand)
            rest = k
            if demand == Word.ANY and self.rules.trade_requests:
                rest = yield from self._requests(taker, giver, k)
            if rest:
                plural = "s" if rest > 1 else ""
                why = (
                    f"the {t_role} gives {rest} card{plural} back to the {g_role}"
                    + (", their lowest as demanded" if demand == Word.LOWEST else ", of their choosing")
                    + " (003 section 3.2.3)"
                )
                mask = yield Give(taker, rest, why, to=giver, must=Must(demand))
                self._give(taker, giver, mask, f"given back by the {t_role}")
            self._end_stage()

    def _requests(self, taker: int, giver: int, k: int) -> Generator[Decision, Any, int]:
        """The bum asks the president for particular cards back, each request granted or refused (003
        section 3.2.3.2); at most MAX_REQUESTS requests. Returns how many cards are still to give back."""
        t_role, g_role = self._role(taker), self._role(giver)
        granted = 0
        for _ in range(MAX_REQUESTS):
            rest = k - granted
            if not rest:
                break
            why = (
                f"you may ask the {t_role} for any {'card' if rest == 1 else f'{rest} cards or fewer'} of theirs, "
                f"which they may grant or refuse; 'none' lets them choose (003 section 3.2.3.2)"
            )
            a = yield Request(giver, rest, why, source=taker, options=(Word.NONE,))
            if not a.mask:
                break
            self._note(ExchangeEvent.REQUEST, giver, taker, cards=self._cards(a.mask))
            why = f"the {g_role} asks you for {CardSet(a.mask)}: grant (give them) or refuse (003 section 3.2.3.2)"
            g = yield Grant(
                taker, a.mask.bit_count(), why, source=giver, options=(Word.GRANT, Word.REFUSE), want=a.mask
            )
            self._note(ExchangeEvent.GRANT, taker, giver, answer=g.word, cards=self._cards(a.mask))
            if g.word == Word.GRANT:
                have = held_copies(a.mask, self.hand(taker))
                self._give(taker, giver, have, f"granted to the {g_role} on request", seen=True)
                granted += have.bit_count()
        return k - granted

    def _questions(self, taker: int, giver: int, k: int) -> Steps:
        ev = self.ev
        answers: list[dict[str, Any]] = []
        suit: str | None = None
        committed = 0
        taken = 0
        why = f"the {self._role(taker)} steals {k} card{'s' if k > 1 else ''} by questions (003 section 3.2.2.2)"
        while taken < k:
            q = yield Ask(
                taker,
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
                    f"the {self._role(taker)} asks you to surrender any {committed} {SUIT_NAMES[arg]}"
                    f"{'s' if committed > 1 else ''} of your choosing (003 section 3.2.2.2.4)"
                )
                got = yield Give(giver, committed, why_give, to=taker, must=Must.ANY, suit=arg)
            if got:
                reply = reply or "takes"
                if suit is not None:
                    committed -= got.bit_count()
                    if committed <= 0:
                        suit, committed = None, 0
                taken += got.bit_count()
            entry = {"question": q, "answer": reply, "cards": [token(c) for c in ev.sort_cards(got)]}
            answers.append(entry)
            self._note(ExchangeEvent.QUESTION, taker, giver, question=q, answer=reply, cards=entry["cards"])
            if got:
                self._give(giver, taker, got, f"stolen by the {self._role(taker)}", seen=True)
