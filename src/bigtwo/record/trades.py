"""Exchange decisions in records: a match's answers as :class:`Trade` lines, and back into answers.

A record names the other party of each decision (``other``) so a reader sees who gave to whom; the answer is
written as the tables read it. The procedures of issue 16 write: a bid (``5H`` or ``pass``), a trade turn
(``5D for 2S``, with ``other`` the player offered to, or ``done`` / ``play``), a reply (``accept`` /
``decline``), a request (cards, or ``none``) and a grant (``grant`` / ``refuse``).
"""

from __future__ import annotations

from typing import Any

from bigtwo.actions import Answer, Decision, DecisionKind, Word
from bigtwo.cards import CardSet
from bigtwo.exchange import NEW_KINDS
from bigtwo.record.model import Trade
from bigtwo.record.notation import read_cards, write_cards

_OFFER_SPLIT = " for "


def decision_other(d: Decision, answer: Answer | None = None) -> int | None:
    """The other party of a decision: the seat given to, asked, offered to or answering an offer."""
    if d.kind in (DecisionKind.GIVE, DecisionKind.SURRENDER):
        return d.to
    if d.kind == DecisionKind.BID:
        return None
    if d.kind == DecisionKind.TRADE:
        return answer.to if answer is not None and answer.word == Word.OFFER else None
    return d.source


def trade_of(d: Decision, entry: dict[str, Any], ev: Any) -> tuple[Trade, Any]:
    """The record line of a match's exchange answer ``entry`` to ``d``, and the value that answers it again."""
    if d.kind in NEW_KINDS:
        a = Answer.from_dict(entry)
        if a.word == Word.OFFER:
            text = f"{write_cards(ev, a.mask)}{_OFFER_SPLIT}{write_cards(ev, a.want)}"
        elif a.mask:
            text = write_cards(ev, a.mask)
        else:
            text = a.word
        other = decision_other(d, a)
        return Trade(d.seat, d.kind, text, -1 if other is None else other), a
    other = decision_other(d)
    if d.kind in (DecisionKind.GIVE, DecisionKind.SURRENDER):
        exact = entry["mask"] if "mask" in entry else read_cards(entry["answer"])
        return Trade(d.seat, d.kind, write_cards(ev, exact), -1 if other is None else other), CardSet.from_mask(exact)
    return Trade(d.seat, d.kind, entry["answer"], -1 if other is None else other), entry["answer"]


def answer_of(t: Trade) -> Any:
    """What answers the decision a record's :class:`Trade` line describes (cards, a word or an Answer)."""
    if t.kind in (DecisionKind.GIVE, DecisionKind.SURRENDER):
        return CardSet.from_mask(read_cards(t.answer))
    if t.kind == DecisionKind.TRADE and _OFFER_SPLIT in t.answer:
        give, want = t.answer.split(_OFFER_SPLIT, 1)
        return Answer(DecisionKind.TRADE, Word.OFFER, read_cards(give), read_cards(want), t.other)
    if t.kind in (DecisionKind.BID, DecisionKind.REQUEST) and t.answer not in ("pass", "none"):
        return Answer(t.kind, "", read_cards(t.answer))
    return t.answer
