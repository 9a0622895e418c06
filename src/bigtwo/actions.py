"""Actions: everything a seat can do, as one family of immutable values.

A seat either plays (a :class:`~bigtwo.combos.play.Play`, ``Play.PASS`` included) or answers a
:class:`Decision` the rules put to it: an exchange between rounds, or a choice at the deal (ask for a new deal,
swap the lead card for the leftover). An answer is an :class:`Answer`. ``Action = Play | Answer``: the match's
``legal_actions()`` lists them, ``apply(action)`` takes one, records write them, environments number them.

Text reads into an action through the decision it answers (:meth:`Decision.read`), the way python-chess
reads a move through the board: ``"2S AS"`` answers a ``give``, ``"highest S"`` an ``ask``, ``"keep"`` a
``redeal`` offer.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Union

from bigtwo.cards import CardSet, HoldsCards, bits, checked_mask, mask_of_tokens, to_mask, token, tokens
from bigtwo.combos.play import Play
from bigtwo.errors import IllegalPlay
from bigtwo.vocabulary import Vocabulary


class DecisionKind(Vocabulary):
    """What a :class:`Decision` asks (see its docstring for each). Members equal their words, so records and
    observations write them unchanged; the order is the environments' one-hot order."""

    GIVE = "give"
    SURRENDER = "surrender"
    ASK = "ask"
    DEMAND = "demand"
    REDEAL = "redeal"
    SWAP = "swap"
    BID = "bid"
    TRADE = "trade"
    REPLY = "reply"
    REQUEST = "request"
    GRANT = "grant"
    LOOK = "look"


class Must(Vocabulary):
    """Which cards a ``give`` decision allows: any, or the giver's highest or lowest (of a suit when named)."""

    ANY = "any"
    HIGHEST = "highest"
    LOWEST = "lowest"


class Word(Vocabulary):
    """The words an :class:`Answer` may carry (beside cards and the questions of an ``ask``): the one source of
    them. Members equal their words, so records and observations write them unchanged; the ``repr`` is the
    word's."""

    KEEP = "keep"  # redeal, swap: keep the deal as it is
    REDEAL = "redeal"
    SWAP = "swap"
    LOOK = "look"  # look: see the face-down cards
    PASS = "pass"  # look: play blind; bid: no bid
    DONE = "done"  # trade: let trading end
    PLAY = "play"  # trade: the lead starts play
    OFFER = "offer"  # trade: an offer of cards for cards
    ACCEPT = "accept"  # reply
    DECLINE = "decline"  # reply; surrender: decline to surrender
    NONE = "none"  # request: ask for nothing
    GRANT = "grant"
    REFUSE = "refuse"  # grant
    SURRENDER = "surrender"
    LOWEST = "lowest"  # demand
    ANY = "any"  # demand


DECISION_KINDS: tuple[DecisionKind, ...] = tuple(DecisionKind)
# decisions made at the deal, before any exchange or play
DEAL_DECISIONS = frozenset({DecisionKind.REDEAL, DecisionKind.SWAP})
# decisions whose answers are exactly their options, whatever the hand
WORD_DECISIONS = frozenset({DecisionKind.REDEAL, DecisionKind.SWAP, DecisionKind.LOOK})
# the exchanges between rounds a bot answers with cards or a question (``choose_exchange``)
EXCHANGE_DECISIONS = frozenset({DecisionKind.GIVE, DecisionKind.SURRENDER, DecisionKind.ASK, DecisionKind.DEMAND})
# the procedures before play (auctions, free trade, requests) and the Horse Game's look (``choose_procedure``)
PROCEDURE_DECISIONS = frozenset(
    {
        DecisionKind.BID,
        DecisionKind.TRADE,
        DecisionKind.REPLY,
        DecisionKind.REQUEST,
        DecisionKind.GRANT,
        DecisionKind.LOOK,
    }
)
# the words each decision kind understands, beside cards: (word typed, answer meant)
_SYNONYMS: dict[DecisionKind, dict[str, Word]] = {
    DecisionKind.REDEAL: {
        "no": Word.KEEP,
        "decline": Word.KEEP,
        "pass": Word.KEEP,
        "yes": Word.REDEAL,
        "new deal": Word.REDEAL,
        "reshuffle": Word.REDEAL,
    },
    DecisionKind.SWAP: {"no": Word.KEEP, "decline": Word.KEEP, "pass": Word.KEEP, "yes": Word.SWAP},
    DecisionKind.LOOK: {"yes": Word.LOOK, "no": Word.PASS, "blind": Word.PASS},
    DecisionKind.BID: {"no": Word.PASS, "": Word.PASS},
    DecisionKind.TRADE: {
        "no": Word.DONE,
        "pass": Word.DONE,
        "end": Word.DONE,
        "stop": Word.DONE,
        "": Word.DONE,
        "start": Word.PLAY,
    },
    DecisionKind.REPLY: {"yes": Word.ACCEPT, "no": Word.DECLINE, "refuse": Word.DECLINE},
    DecisionKind.REQUEST: {"no": Word.NONE, "nothing": Word.NONE, "pass": Word.NONE, "": Word.NONE},
    DecisionKind.GRANT: {"yes": Word.GRANT, "no": Word.REFUSE, "decline": Word.REFUSE},
}
_OFFER = re.compile(r"^(?:offer\s+)?(.+?)\s+for\s+(.+?)\s+to\s+(?:seat\s+|p)?(\d)$", re.IGNORECASE)


class IllegalAnswer(IllegalPlay):
    """An answer the rules forbid; ``.reason`` names the answer and the rule, the state is unchanged."""


@dataclass(frozen=True, slots=True)
class Answer(HoldsCards):
    """A seat's answer to a :class:`Decision`: cards given (``cards``, a mask) or a word (``word``).

    ``kind`` is the decision's kind. ``give`` answers carry cards; ``surrender`` answers are ``surrender``
    (with the cards surrendered) or ``decline``; ``ask`` a question (``"highest S"``); ``demand`` ``"lowest"``
    or ``"any"``; ``redeal`` ``"redeal"`` or ``"keep"``; ``swap`` ``"swap"`` or ``"keep"``.
    """

    kind: str
    word: str = ""
    mask: int = 0  # the cards given, surrendered, bid, offered or requested
    want: int = 0  # a trade offer: the cards asked for in return
    to: int | None = None  # a trade offer: the seat it is made to

    @property
    def is_pass(self) -> bool:
        """An answer is never a pass (so code asking any action ``is_pass`` needs no type test)."""
        return False

    def __str__(self) -> str:
        if self.kind == DecisionKind.TRADE and self.word == Word.OFFER:
            return f"offer {CardSet.from_mask(self.mask)} for {CardSet.from_mask(self.want)} to seat {self.to}"
        if self.kind in (DecisionKind.GIVE, DecisionKind.BID, DecisionKind.REQUEST) and self.mask:
            return str(CardSet.from_mask(self.mask))
        return self.word

    def __repr__(self) -> str:
        extra = f", cards={str(CardSet.from_mask(self.mask))!r}" if self.mask else ""
        if self.want:
            extra += f", want={str(CardSet.from_mask(self.want))!r}, to={self.to}"
        word = f", {self.word!r}" if self.word else ""
        return f"Answer({self.kind!r}{word}{extra})"

    def to_dict(self) -> dict[str, Any]:
        """The answer as a match record keeps it (exact cards as masks: two decks lose nothing)."""
        d: dict[str, Any] = {"kind": self.kind, "answer": str(self)}
        if self.mask:
            d["mask"] = self.mask
        if self.want:
            d["want"] = self.want
        if self.to is not None:
            d["to"] = self.to
        return d

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Answer:
        """The answer a :meth:`to_dict` entry describes (the word is read from ``answer`` where no cards are)."""
        kind = str(d["kind"])
        mask, want = int(d.get("mask", 0)), int(d.get("want", 0))
        if kind == DecisionKind.TRADE and want:
            return cls(kind, Word.OFFER, mask, want, d.get("to"))
        if mask and kind in (DecisionKind.GIVE, DecisionKind.BID, DecisionKind.REQUEST):
            return cls(kind, "", mask)
        if kind == DecisionKind.SURRENDER and mask:
            return cls(kind, Word.SURRENDER, mask)
        return cls(kind, str(d.get("answer", "")))


Action = Union[Play, Answer]  # noqa: UP007  (a runtime alias: isinstance checks and annotations alike)


@dataclass(frozen=True, slots=True)
class Decision:
    """One seat's pending choice: what it is asked, how many cards, to or from whom, and why (in words).

    A tagged union: each kind of decision is a frozen type of its own (:class:`Give`, :class:`Surrender`,
    :class:`Ask`, :class:`Demand`, :class:`Redeal`, :class:`Swap`, :class:`Bid`, :class:`Trade`, :class:`Reply`,
    :class:`Request`, :class:`Grant`, :class:`Look`), each with its ``kind`` (a :class:`DecisionKind`) and the
    fields that kind has. Every one carries what every consumer reads: the ``seat`` deciding, ``count`` cards,
    the ``reason`` in words, the other party (``to`` the seat given to, ``source`` the seat asked or bidding),
    and the ``options`` that are words. ``isinstance(d, Give)`` narrows to a kind's own fields.
    """

    kind: ClassVar[DecisionKind]
    seat: int
    count: int
    reason: str
    to: int | None = None
    source: int | None = None  # "from": the other party of a surrender, ask, demand, bid, offer or request
    options: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """The decision as an observation's JSON form writes it (the deciding seat is the observation's)."""
        d: dict[str, Any] = {"kind": self.kind, "count": self.count, "reason": self.reason}
        for name in ("cards", "want", "best"):
            mask = getattr(self, name, 0)
            if mask:
                d[name] = tokens(bits(mask))
        if self.to is not None:
            d["to"] = self.to
        if self.source is not None:
            d["from"] = self.source
        if isinstance(self, Give):
            d["must"] = self.must
            if self.shown:
                d["shown"] = True
        suit = getattr(self, "suit", None)
        if suit is not None or isinstance(self, Ask):
            d["suit"] = suit
        if isinstance(self, Ask):
            d["committed"] = self.committed
            d["answers"] = [dict(a) for a in self.answers]
        if self.options:
            d["options"] = list(self.options)
        return d

    @staticmethod
    def from_dict(d: Mapping[str, Any], seat: int) -> Decision:
        """The decision of an observation's JSON form (``to_dict`` plus the deciding seat), of its kind's type."""
        kind = d["kind"]
        cls = _DECISION_TYPES.get(kind)
        if cls is None:
            raise ValueError(f"decision kind {kind!r} is not one of {', '.join(DECISION_KINDS)}")
        fields: dict[str, Any] = {
            "seat": seat,
            "count": int(d.get("count", 0)),
            "reason": d.get("reason", ""),
            "to": d.get("to"),
            "source": d.get("from"),
            "options": tuple(d.get("options", ())),
        }
        if cls is Give:
            must = d.get("must", Must.ANY)
            if must not in tuple(Must):
                raise ValueError(f"a give's 'must' {must!r} is not one of 'any', 'highest', 'lowest'")
            fields.update(must=Must(must), suit=d.get("suit"), shown=bool(d.get("shown", False)))
        elif cls is Ask:
            fields.update(
                suit=d.get("suit"),
                committed=int(d.get("committed", 0)),
                answers=tuple(dict(a) for a in d.get("answers", ())),
            )
        elif cls is Bid:
            fields.update(cards=mask_of_tokens(d.get("cards", ())), best=mask_of_tokens(d.get("best", ())))
        elif cls is Reply:
            fields.update(cards=mask_of_tokens(d.get("cards", ())), want=mask_of_tokens(d.get("want", ())))
        elif cls is Grant:
            fields.update(want=mask_of_tokens(d.get("want", ())))
        return cls(**fields)

    @property
    def at_deal(self) -> bool:
        """Whether the decision is made at the deal (a new deal, the leftover swap) rather than an exchange."""
        return self.kind in DEAL_DECISIONS

    @property
    def answered_by_options(self) -> bool:
        """Whether the legal answers are exactly the options, whatever the hand (a new deal, a swap, a look)."""
        return self.kind in WORD_DECISIONS

    def read(self, value: Any) -> Answer:
        """``value`` as an answer to this decision: an Answer, cards (a CardSet, notation, a Play) or a word.

        Only the form is read here; whether the answer is legal is the state's to say (``why_not``).
        A value that is not even an answer of this kind raises :class:`IllegalAnswer` naming it.
        """
        if isinstance(value, Answer):
            if value.kind != self.kind:
                raise IllegalAnswer(f"{value} answers a {value.kind!r} decision, not this {self.kind!r} one")
            return value
        kind = self.kind
        if kind in (DecisionKind.GIVE, DecisionKind.SURRENDER):
            if isinstance(value, str):
                word = value.strip().lower()
                if kind == DecisionKind.SURRENDER and word in (Word.DECLINE, "no", ""):
                    return Answer(DecisionKind.SURRENDER, Word.DECLINE)
                if kind == DecisionKind.SURRENDER and word in (Word.SURRENDER, "yes"):
                    return Answer(DecisionKind.SURRENDER, Word.SURRENDER)  # the cards are the state's to fill in
            mask = _cards_of(value)
            if kind == DecisionKind.SURRENDER:
                return (
                    Answer(DecisionKind.SURRENDER, Word.SURRENDER, mask)
                    if mask
                    else Answer(DecisionKind.SURRENDER, Word.DECLINE)
                )
            return Answer(DecisionKind.GIVE, "", mask)
        if kind in (DecisionKind.BID, DecisionKind.REQUEST, DecisionKind.TRADE):
            return self._read_cards_or_word(value)
        if value is None or (isinstance(value, Play | CardSet) and kind != DecisionKind.ASK):
            raise IllegalAnswer(f"{value!r} is not an answer to this decision: answer {_words(self)}")
        if kind == DecisionKind.ASK:
            text = value if isinstance(value, str) else str(CardSet(to_mask(value)))
            return Answer(DecisionKind.ASK, text.strip())
        word = str(value).strip().lower()
        word = _SYNONYMS.get(kind, {}).get(word, word)
        return Answer(kind, word)

    def _read_cards_or_word(self, value: Any) -> Answer:
        """A bid (a card, or pass), a request (cards, or none) or a trade (an offer, done or play)."""
        kind = self.kind
        if isinstance(value, str):
            text = value.strip()
            word = _SYNONYMS[kind].get(text.lower(), text.lower())
            if word in self.options or word in _SYNONYMS[kind].values():
                return Answer(kind, word)
            if kind == DecisionKind.TRADE:
                m = _OFFER.match(text)
                if m is None:
                    raise IllegalAnswer(
                        f"{value!r} is not an offer: write e.g. '5D for 2S to seat 1', or answer {_words(self)}"
                    )
                give, want = _cards_of(m.group(1)), _cards_of(m.group(2))
                return Answer(DecisionKind.TRADE, Word.OFFER, give, want, int(m.group(3)))
        if kind == DecisionKind.TRADE:
            raise IllegalAnswer(f"{value!r} is not an offer: write e.g. '5D for 2S to seat 1'")
        return Answer(kind, "", _cards_of(value))


@dataclass(frozen=True, slots=True)
class Give(Decision):
    """Give ``count`` cards ``to`` a seat: any, the ``highest`` or the ``lowest`` (``must``), of ``suit`` when one
    is named; ``shown``: everyone sees them."""

    kind: ClassVar[DecisionKind] = DecisionKind.GIVE
    must: Must = Must.ANY
    suit: str | None = None
    shown: bool = False


@dataclass(frozen=True, slots=True)
class Surrender(Decision):
    """Surrender the highest ``count`` cards ``to`` a seat, or decline (``options``)."""

    kind: ClassVar[DecisionKind] = DecisionKind.SURRENDER


@dataclass(frozen=True, slots=True)
class Ask(Decision):
    """A question to the seat ``source`` (a steal by questions): ``suit`` and ``committed`` bind the asker,
    ``answers`` are those given so far."""

    kind: ClassVar[DecisionKind] = DecisionKind.ASK
    suit: str | None = None
    committed: int = 0
    answers: tuple[dict[str, Any], ...] = ()


@dataclass(frozen=True, slots=True)
class Demand(Decision):
    """What to demand of the seat ``source``: one of ``options``."""

    kind: ClassVar[DecisionKind] = DecisionKind.DEMAND


@dataclass(frozen=True, slots=True)
class Redeal(Decision):
    """Ask for a new deal (a poor hand): ``options`` redeal or keep."""

    kind: ClassVar[DecisionKind] = DecisionKind.REDEAL


@dataclass(frozen=True, slots=True)
class Swap(Decision):
    """Take the leftover card for the lead card: ``options`` swap or keep."""

    kind: ClassVar[DecisionKind] = DecisionKind.SWAP


@dataclass(frozen=True, slots=True)
class Bid(Decision):
    """A bid for the card on auction (``cards``): a card, or pass; the best bid so far is ``best``, by
    ``source``."""

    kind: ClassVar[DecisionKind] = DecisionKind.BID
    cards: int = 0
    best: int = 0


@dataclass(frozen=True, slots=True)
class Trade(Decision):
    """A free-trade turn: an offer of up to ``count`` cards for as many named, or ``done``/``play``."""

    kind: ClassVar[DecisionKind] = DecisionKind.TRADE


@dataclass(frozen=True, slots=True)
class Reply(Decision):
    """The seat ``source`` offers ``cards`` for ``want``: accept or decline."""

    kind: ClassVar[DecisionKind] = DecisionKind.REPLY
    cards: int = 0
    want: int = 0


@dataclass(frozen=True, slots=True)
class Request(Decision):
    """Ask the seat ``source`` for up to ``count`` cards, or none."""

    kind: ClassVar[DecisionKind] = DecisionKind.REQUEST


@dataclass(frozen=True, slots=True)
class Grant(Decision):
    """The seat ``source`` asks for ``want``: grant or refuse."""

    kind: ClassVar[DecisionKind] = DecisionKind.GRANT
    want: int = 0


@dataclass(frozen=True, slots=True)
class Look(Decision):
    """The Horse Game: a hand lies face down; look at it (then play) or pass blind."""

    kind: ClassVar[DecisionKind] = DecisionKind.LOOK


_DECISION_TYPES: dict[str, type[Decision]] = {
    cls.kind: cls for cls in (Give, Surrender, Ask, Demand, Redeal, Swap, Bid, Trade, Reply, Request, Grant, Look)
}


def action_text(action: Action) -> str:
    """An action as text that reads back to the same action (through its decision, for answers): the pass
    ``pass``, cards in notation with the second deck's copies marked (``3D'``), offers as ``5D for 2S to seat
    1``, words as they are."""
    if isinstance(action, Play):
        return "pass" if action.is_pass else " ".join(token(c) for c in bits(action.mask))
    if action.kind == DecisionKind.TRADE and action.word == Word.OFFER:
        give, want = (" ".join(token(c) for c in bits(m)) for m in (action.mask, action.want))
        return f"{give} for {want} to seat {action.to}"
    if (
        action.kind in (DecisionKind.GIVE, DecisionKind.SURRENDER, DecisionKind.BID, DecisionKind.REQUEST)
        and action.mask
    ):
        return " ".join(token(c) for c in bits(action.mask))
    return action.word


def _cards_of(value: Any) -> int:
    """The cards an answer names; text that is not cards at all raises :class:`CardParseError` (a parse error,
    not an answer the rules refuse)."""
    if isinstance(value, Play | CardSet):
        return value.mask
    return checked_mask(value)


def _words(d: Decision) -> str:
    return " or ".join(repr(o) for o in d.options) if d.options else "with cards or a question"
