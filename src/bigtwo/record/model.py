"""What a game record holds: plain values, one class per part, shared by the text and JSON forms.

A record says what happened (the deal, each decision, each play) and states what follows from it (the
scores, the finishing order, the result) so a person can read it; :mod:`bigtwo.record.replay` plays it through
the engine and checks every stated fact, so a record is never trusted for what the engine can work out.
Line numbers (``line``) and JSON paths (``where``) only locate errors: they take no part in equality.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bigtwo.actions import DecisionKind
from bigtwo.errors import BigTwoError
from bigtwo.observation import Note
from bigtwo.rules.ruleset import Ruleset
from bigtwo.vocabulary import Vocabulary

FORMAT = "bigtwo-record/1"
# an automatic pass, a pass that drew from the stock, a called last card, a Horse Game hand given up
NOTES: tuple[Note, ...] = tuple(Note)
# the decisions a record's exchange section holds, and its requests at the deal
TRADE_KINDS = tuple(k for k in DecisionKind if k not in (DecisionKind.REDEAL, DecisionKind.SWAP, DecisionKind.LOOK))
REQUESTS = (DecisionKind.REDEAL, DecisionKind.SWAP)
RESERVED_TAGS = frozenset(
    [
        "Format",
        "Type",
        "Date",
        "Rules",
        "Description",
        "Rule",
        "Players",
        "Player",
        "Seed",
        "Rounds",
        "Points",
        "Result",
        "Round",
        "Dealer",
        "Roles",
        "Request",
        "Deal",
        "FaceUp",
        "Stock",
        "Exchange",
        "Hands",
        "Lead",
        "Order",
        "Scores",
        "Shootout",
        "Totals",
    ]
)


class RecordError(BigTwoError):
    """A malformed or inconsistent record: ``line`` (text) or ``where`` (a JSON path) and ``problem``."""

    def __init__(self, problem: str, line: int | None = None, where: str | None = None):
        self.problem = problem
        self.line = line
        self.where = where
        if line is not None:
            super().__init__(f"line {line}: {problem}")
        elif where:
            super().__init__(f"{where}: {problem}")
        else:
            super().__init__(problem)


@dataclass
class Action:
    """One action of a round: ``cards`` in notation (``None`` for a pass), with an engine note.

    ``note`` is ``"auto"`` (a pass the automatic turn skip made), ``"drew"`` (a pass that drew ``drew`` from the
    stock) or ``"called"`` (a play announced as leaving the last card).
    """

    seat: int
    cards: str | None = None
    note: str | None = None
    drew: str | None = None
    line: int | None = field(default=None, compare=False, repr=False)
    where: str | None = field(default=None, compare=False, repr=False)

    @property
    def is_pass(self) -> bool:
        return self.cards is None


@dataclass
class Trade:
    """One exchange decision: ``seat`` answers a decision of ``kind`` involving ``other`` (to or from)."""

    seat: int
    kind: str
    answer: str
    other: int
    line: int | None = field(default=None, compare=False, repr=False)
    where: str | None = field(default=None, compare=False, repr=False)


@dataclass
class Request:
    """A deal-time request: a new deal (002 Reshuffling) or the swap of the leftover card."""

    seat: int
    kind: str
    line: int | None = field(default=None, compare=False, repr=False)
    where: str | None = field(default=None, compare=False, repr=False)


@dataclass
class Deal:
    """One deal played out: the round's own, or a five-card shoot-out. Hands, tricks and the result."""

    hands: list[str]  # each seat's cards as dealt (for a round: before any exchange)
    tricks: list[list[Action]] = field(default_factory=list)
    order: list[int] | None = None  # the finishing order, once the game is over
    scores: list[int] | None = None
    line: int | None = field(default=None, compare=False, repr=False)
    where: str | None = field(default=None, compare=False, repr=False)
    order_line: int | None = field(default=None, compare=False, repr=False)  # where [Order] stands
    scores_line: int | None = field(default=None, compare=False, repr=False)

    @property
    def actions(self) -> list[Action]:
        return [a for t in self.tricks for a in t]


@dataclass
class Round:
    """One round: dealer, deal, requests, exchanges, the play, shoot-outs and the running totals."""

    number: int
    dealer: int
    game: Deal
    roles: list[str] | None = None
    requests: list[Request] = field(default_factory=list)
    face_up: str | None = None
    stock: int | None = None  # cards in the stock when play starts
    trades: list[Trade] = field(default_factory=list)
    exchanged: list[str] | None = None  # the hands after the exchanges (stated when there were any)
    lead: int | None = None  # a seat that leads freely (the previous winner)
    shootouts: list[Deal] = field(default_factory=list)
    totals: list[int] | None = None  # match totals after the round
    line: int | None = field(default=None, compare=False, repr=False)
    where: str | None = field(default=None, compare=False, repr=False)


class RecordKind(Vocabulary):
    """What a :class:`Record` holds (its ``[Type]``, its JSON ``type``): one round, or a match of rounds."""

    GAME = "game"
    MATCH = "match"


@dataclass
class Record:
    """A whole record: a single round (``kind == "game"``) or a match of rounds (``"match"``)."""

    kind: RecordKind
    rules: dict[str, Any]  # Ruleset.changes(): the name, the description and every non-default setting
    players: int
    names: list[str]
    rounds: list[Round]
    seed: int | None = None
    date: str | None = None
    max_rounds: int | None = None
    points: int | None = None
    result: str = "*"
    tags: dict[str, str] = field(default_factory=dict)  # any other headers (Event, Site, ...), kept in order
    line_of: dict[str, int] = field(default_factory=dict, compare=False, repr=False)

    def ruleset(self) -> Any:
        """The rules the record was played under (a RecordError if the settings are not valid rules)."""
        try:
            return Ruleset.from_dict(dict(self.rules), source="record")
        except BigTwoError as e:
            raise RecordError(str(e), line=self.line_of.get("Rules"), where="rules") from None
        except (TypeError, ValueError) as e:  # a setting of the wrong shape
            raise RecordError(f"record: rules: {e}", line=self.line_of.get("Rules"), where="rules") from None


def seat_token(seat: int) -> str:
    """A seat as records write it: ``P0`` ... ``P7`` (``S`` would read as a suit in ``S2``)."""
    return f"P{seat}"
