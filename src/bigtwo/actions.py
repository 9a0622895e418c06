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
from enum import StrEnum
from typing import Any, Union

from bigtwo.cards import CardSet, HoldsCards, bits, checked_mask, mask_of_tokens, to_mask, token, tokens
from bigtwo.combos.play import Play
from bigtwo.errors import IllegalPlay


class DecisionKind(StrEnum):
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

    def __repr__(self) -> str:
        return repr(self.value)


class Must(StrEnum):
    """Which cards a ``give`` decision allows: any, or the giver's highest or lowest (of a suit when named)."""

    ANY = "any"
    HIGHEST = "highest"
    LOWEST = "lowest"

    def __repr__(self) -> str:
        return repr(self.value)


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
_SYNONYMS: dict[str, dict[str, str]] = {
    "redeal": {
        "no": "keep",
        "decline": "keep",
        "pass": "keep",
        "yes": "redeal",
        "new deal": "redeal",
        "reshuffle": "redeal",
    },
    "swap": {"no": "keep", "decline": "keep", "pass": "keep", "yes": "swap"},
    "look": {"yes": "look", "no": "pass", "blind": "pass"},
    "bid": {"no": "pass", "": "pass"},
    "trade": {"no": "done", "pass": "done", "end": "done", "stop": "done", "": "done", "start": "play"},
    "reply": {"yes": "accept", "no": "decline", "refuse": "decline"},
    "request": {"no": "none", "nothing": "none", "pass": "none", "": "none"},
    "grant": {"yes": "grant", "no": "refuse", "decline": "refuse"},
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
        if self.kind == DecisionKind.TRADE and self.word == "offer":
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
            return cls(kind, "offer", mask, want, d.get("to"))
        if mask and kind in (DecisionKind.GIVE, DecisionKind.BID, DecisionKind.REQUEST):
            return cls(kind, "", mask)
        if kind == DecisionKind.SURRENDER and mask:
            return cls(kind, "surrender", mask)
        return cls(kind, str(d.get("answer", "")))


Action = Union[Play, Answer]  # noqa: UP007  (a runtime alias: isinstance checks and annotations alike)


@dataclass(frozen=True, slots=True)
class Decision:
    """One seat's pending choice: what it is asked, how many cards, to or from whom, and why (in words).

    ``kind``: ``give`` (``count`` cards ``to`` a seat; ``must`` be ``any``, the ``highest`` or the ``lowest``,
    of ``suit`` when one is named), ``surrender`` (the highest ``count`` cards ``to`` a seat, or decline),
    ``ask`` (a question to the seat ``source``; ``suit``/``committed`` bind the asker, ``answers`` so far),
    ``demand`` (one of ``options``), ``redeal`` (ask for a new deal: ``options`` redeal/keep) and ``swap`` (take
    the leftover card for the lead card: swap/keep). The procedures before play: ``bid`` (the card on auction
    is ``cards``, the best bid ``best`` by ``source``; a card or pass), ``trade`` (an offer of up to ``count``
    cards for as many named, or ``done``/``play``), ``reply`` (``source`` offers ``cards`` for ``want``:
    accept/decline), ``request`` (ask ``source`` for up to ``count`` cards, or none), ``grant`` (``source``
    asks for ``want``: grant/refuse); and during play ``look`` (a Horse Game hand face down: look/pass).
    """

    seat: int
    kind: str
    count: int
    reason: str
    to: int | None = None
    source: int | None = None  # "from": the other party of a surrender, ask or demand
    must: str = "any"
    suit: str | None = None
    shown: bool = False
    committed: int = 0
    answers: tuple[dict[str, Any], ...] = ()
    options: tuple[str, ...] = ()
    cards: int = 0  # the card on auction; the cards offered to this seat
    want: int = 0  # the cards an offer or a request asks of this seat
    best: int = 0  # the highest bid so far (made by ``source``)

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"kind": self.kind, "count": self.count, "reason": self.reason}
        for name in ("cards", "want", "best"):
            mask = getattr(self, name)
            if mask:
                d[name] = tokens(bits(mask))
        if self.to is not None:
            d["to"] = self.to
        if self.source is not None:
            d["from"] = self.source
        if self.kind == DecisionKind.GIVE:
            d["must"] = self.must
            if self.shown:
                d["shown"] = True
        if self.suit is not None or self.kind == DecisionKind.ASK:
            d["suit"] = self.suit
        if self.kind == DecisionKind.ASK:
            d["committed"] = self.committed
            d["answers"] = [dict(a) for a in self.answers]
        if self.options:
            d["options"] = list(self.options)
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any], seat: int) -> Decision:
        """The decision of an observation's JSON form (``to_dict`` plus the deciding seat)."""
        return cls(
            seat=seat,
            kind=d["kind"],
            count=int(d.get("count", 0)),
            reason=d.get("reason", ""),
            to=d.get("to"),
            source=d.get("from"),
            must=d.get("must", "any"),
            suit=d.get("suit"),
            shown=bool(d.get("shown", False)),
            committed=int(d.get("committed", 0)),
            answers=tuple(dict(a) for a in d.get("answers", ())),
            options=tuple(d.get("options", ())),
            cards=mask_of_tokens(d.get("cards", ())),
            want=mask_of_tokens(d.get("want", ())),
            best=mask_of_tokens(d.get("best", ())),
        )

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
                if kind == DecisionKind.SURRENDER and word in ("decline", "no", ""):
                    return Answer("surrender", "decline")
                if kind == DecisionKind.SURRENDER and word in ("surrender", "yes"):
                    return Answer("surrender", "surrender")  # the cards are the state's to fill in
            mask = _cards_of(value)
            if kind == DecisionKind.SURRENDER:
                return Answer("surrender", "surrender", mask) if mask else Answer("surrender", "decline")
            return Answer("give", "", mask)
        if kind in (DecisionKind.BID, DecisionKind.REQUEST, DecisionKind.TRADE):
            return self._read_cards_or_word(value)
        if value is None or (isinstance(value, Play | CardSet) and kind != DecisionKind.ASK):
            raise IllegalAnswer(f"{value!r} is not an answer to this decision: answer {_words(self)}")
        if kind == DecisionKind.ASK:
            text = value if isinstance(value, str) else str(CardSet(to_mask(value)))
            return Answer("ask", text.strip())
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
                return Answer("trade", "offer", give, want, int(m.group(3)))
        if kind == DecisionKind.TRADE:
            raise IllegalAnswer(f"{value!r} is not an offer: write e.g. '5D for 2S to seat 1'")
        return Answer(kind, "", _cards_of(value))


def action_text(action: Action) -> str:
    """An action as text that reads back to the same action (through its decision, for answers): the pass
    ``pass``, cards in notation with the second deck's copies marked (``3D'``), offers as ``5D for 2S to seat
    1``, words as they are."""
    if isinstance(action, Play):
        return "pass" if action.is_pass else " ".join(token(c) for c in bits(action.mask))
    if action.kind == DecisionKind.TRADE and action.word == "offer":
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
