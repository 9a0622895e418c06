"""The text form of a record, in the manner of chess's PGN: tag lines, then numbered tricks.

::

    [Format "bigtwo-record/1"]
    [Type "game"]
    [Date "2025-06-01"]
    [Rules "taiwan"]
    [Rule suit_order "CDHS"]
    [Rule lead_card "3C"]
    [Players 4]
    [Player P0 "you"]
    ...
    [Seed 7]
    [Result "1st P2 +21, 2nd P0 -5, 3rd P3 -8, 4th P1 -8"]

    [Round 1]
    [Dealer "P3"]
    [Deal P0 "3C 4D 4H 6C ..."]
    ...
    1. P0: 3C  P1: 5D  P2: 9S  P3: pass  P0: pass  P1: pass
    2. P2: 4S 4H  P3: pass {auto}  ...
    [Order "P2 P0 P3 P1"]
    [Scores "+21 -5 -8 -8"]

A tag is ``[Name value]`` or ``[Name key value]`` (a seat ``P0`` or a setting name); the value is JSON (a
string in double quotes, a number, or a list). Each numbered line is one trick: ``P<seat>:`` then the cards or
``pass``, with at most one note in braces: ``{auto}`` (the automatic turn skip passed), ``{drew 7H}`` (a pass
that drew from the stock), ``{last card}`` (a play announced as leaving one card), ``{gave up}`` (a Horse Game
hand looked at that could not play). The Horse Game's other looks are implied: a play was looked at, another
pass was blind. Lines starting with ``;``
are comments. :func:`parse_text` raises :class:`RecordError` naming the line for anything else.

A round section may hold, in this order: ``Dealer``, ``Roles``, ``Request`` (``"redeal"``/``"swap"``),
``Deal`` (one per seat), ``FaceUp``, ``Stock``, ``Exchange`` (one per decision), ``Hands`` (after the
exchanges), ``Lead`` (a free lead), the tricks, ``Order``, ``Scores``, then ``Shootout`` sections (each:
``Deal`` tags, tricks, ``Order``, ``Scores``) and ``Totals``.
"""

from __future__ import annotations

import json
import re
from typing import Any

from bigtwo.actions import DecisionKind, Word
from bigtwo.errors import BigTwoError
from bigtwo.observation import Note
from bigtwo.record.model import FORMAT, Action, Deal, Record, RecordError, RecordKind, Request, Round, Trade, seat_token
from bigtwo.record.notation import read_cards, write_cards
from bigtwo.words import plural

_TAG = re.compile(r"^\[([A-Z][A-Za-z]*)(?: ([A-Za-z_][A-Za-z0-9_]*))? (.+)\]$")
_SEAT = re.compile(r"^P(\d)$")
_MOVE = re.compile(r"^(\d+)\.(?:\s+(.*))?$")
_MARK = re.compile(r"(?:^|(?<=\s))P(\d+):")
_NOTE = re.compile(r"\{([^{}]*)\}")
_TRADE = {
    "give": re.compile(r"^gives (.+) to P(\d)$"),
    "surrender": re.compile(r"^surrenders (.+) to P(\d)$"),
    "decline": re.compile(r"^declines to surrender to P(\d)$"),
    "ask": re.compile(r"^asks P(\d): (.+)$"),
    "demand": re.compile(r"^demands (.+) from P(\d)$"),
}
# the procedures before play: (kind, pattern, answer from the match, other party's group or None)
_PROCEDURES: list[tuple[str, re.Pattern[str], Any, int | None]] = [
    ("bid", re.compile(r"^passes on the auction$"), "pass", None),
    ("bid", re.compile(r"^bids (.+)$"), 1, None),
    ("trade", re.compile(r"^offers (.+ for .+) to P(\d)$"), 1, 2),
    ("trade", re.compile(r"^lets trading end$"), "done", None),
    ("trade", re.compile(r"^starts play$"), "play", None),
    ("reply", re.compile(r"^accepts P(\d)'s offer$"), "accept", 1),
    ("reply", re.compile(r"^declines P(\d)'s offer$"), "decline", 1),
    ("request", re.compile(r"^asks P(\d) for nothing$"), "none", 1),
    ("request", re.compile(r"^asks P(\d) for (.+)$"), 2, 1),
    ("grant", re.compile(r"^grants P(\d)'s request$"), "grant", 1),
    ("grant", re.compile(r"^refuses P(\d)'s request$"), "refuse", 1),
]


def _value(v: Any) -> str:
    return json.dumps(v, ensure_ascii=False)


def _tag(name: str, value: Any, key: str | None = None) -> str:
    return f"[{name} {key} {_value(value)}]" if key else f"[{name} {_value(value)}]"


def _seats(seats: list[int]) -> str:
    return " ".join(seat_token(s) for s in seats)


def _signed(values: list[int]) -> str:
    return " ".join(f"{v:+d}" for v in values)


def trade_text(t: Trade) -> str:
    """An exchange decision in words, as the ``Exchange`` tag writes it."""
    other = seat_token(t.other)
    if t.kind == DecisionKind.GIVE:
        return f"gives {t.answer} to {other}"
    if t.kind == DecisionKind.SURRENDER:
        return f"surrenders {t.answer} to {other}" if t.answer else f"declines to surrender to {other}"
    if t.kind == DecisionKind.ASK:
        return f"asks {other}: {t.answer}"
    if t.kind == DecisionKind.BID:
        return "passes on the auction" if t.answer == Word.PASS else f"bids {t.answer}"
    if t.kind == DecisionKind.TRADE:
        said: dict[str, str] = {Word.DONE: "lets trading end", Word.PLAY: "starts play"}
        return said.get(t.answer, f"offers {t.answer} to {other}")
    if t.kind == DecisionKind.REPLY:
        return f"{t.answer}s {other}'s offer"
    if t.kind == DecisionKind.REQUEST:
        return f"asks {other} for {'nothing' if t.answer == Word.NONE else t.answer}"
    if t.kind == DecisionKind.GRANT:
        return f"{t.answer}s {other}'s request"
    return f"demands {t.answer} from {other}"


def action_text(a: Action) -> str:
    body = f"{seat_token(a.seat)}: {a.cards if a.cards is not None else 'pass'}"
    if a.note == Note.AUTO:
        body += " {auto}"
    elif a.note == Note.DREW:
        body += f" {{drew {a.drew}}}" if a.drew else " {drew}"
    elif a.note == Note.CALLED:
        body += " {last card}"
    elif a.note == Note.FORFEIT:
        body += " {gave up}"
    return body


def _deal_lines(d: Deal) -> list[str]:
    lines = [_tag("Deal", h, seat_token(s)) for s, h in enumerate(d.hands)]
    for i, trick in enumerate(d.tricks, 1):
        lines.append(f"{i}. " + "  ".join(action_text(a) for a in trick))
    if d.order is not None:
        lines.append(_tag("Order", _seats(d.order)))
    if d.scores is not None:
        lines.append(_tag("Scores", _signed(d.scores)))
    return lines


def format_text(record: Record) -> str:
    """The record as text (the inverse of :func:`parse_text`)."""
    out = [_tag("Format", FORMAT), _tag("Type", record.kind)]
    if record.date:
        out.append(_tag("Date", record.date))
    rules = dict(record.rules)
    out.append(_tag("Rules", rules.pop("name", "custom")))
    description = rules.pop("description", "")
    if description:
        out.append(_tag("Description", description))
    out += [_tag("Rule", v, k) for k, v in rules.items()]
    out.append(_tag("Players", record.players))
    out += [_tag("Player", name, seat_token(s)) for s, name in enumerate(record.names)]
    if record.seed is not None:
        out.append(_tag("Seed", record.seed))
    if record.max_rounds is not None:
        out.append(_tag("Rounds", record.max_rounds))
    if record.points is not None:
        out.append(_tag("Points", record.points))
    out.append(_tag("Result", record.result))
    out += [_tag(k, v) for k, v in record.tags.items()]
    for r in record.rounds:
        out += ["", _tag("Round", r.number), _tag("Dealer", seat_token(r.dealer))]
        if r.roles is not None:
            out.append(_tag("Roles", r.roles))
        out += [_tag("Request", q.kind, seat_token(q.seat)) for q in r.requests]
        deal = _deal_lines(r.game)
        n_hands = len(r.game.hands)
        out += deal[:n_hands]
        if r.face_up:
            out.append(_tag("FaceUp", r.face_up))
        if r.stock:
            out.append(_tag("Stock", r.stock))
        out += [_tag("Exchange", trade_text(t), seat_token(t.seat)) for t in r.trades]
        if r.exchanged is not None:
            out += [_tag("Hands", h, seat_token(s)) for s, h in enumerate(r.exchanged)]
        if r.lead is not None:
            out.append(_tag("Lead", seat_token(r.lead)))
        out += deal[n_hands:]
        for k, sd in enumerate(r.shootouts, 1):
            out.append(_tag("Shootout", k))
            out += _deal_lines(sd)
        if r.totals is not None:
            out.append(_tag("Totals", _signed(r.totals)))
    return "\n".join(out) + "\n"


# --- parsing -------------------------------------------------------------------------------------------------

# where each tag may stand within a round (its stage must not go down)
_ROUND_STAGE = {
    "Dealer": 1,
    "Roles": 2,
    "Request": 3,
    "Deal": 4,
    "FaceUp": 5,
    "Stock": 6,
    "Exchange": 7,
    "Hands": 8,
    "Lead": 9,
    "move": 10,
    "Order": 11,
    "Scores": 12,
    "Shootout": 13,
    "Totals": 20,
}
_SHOOTOUT_STAGE = {"Deal": 14, "move": 15, "Order": 16, "Scores": 17, "Shootout": 13, "Totals": 20}
_HEADER = ("Format", "Type", "Date", "Rules", "Description", "Rule", "Players", "Player", "Seed", "Rounds", "Points")


class _Parser:
    def __init__(self, text: str):
        self.text = text
        self.line = 0
        self.head: dict[str, Any] = {}
        self.head_lines: dict[str, int] = {}
        self.rules: dict[str, Any] = {}
        self.names: dict[int, str] = {}
        self.tags: dict[str, str] = {}
        self.rounds: list[Round] = []
        self.ev: Any = None
        self.n = 0
        self.stage = 0
        self.deal: Deal | None = None  # the deal being read (the round's, or a shoot-out's)

    def fail(self, problem: str, line: int | None = None) -> RecordError:
        return RecordError(problem, line=self.line if line is None else line)

    # --- values ------------------------------------------------------------------------------------------
    def json_value(self, raw: str) -> Any:
        try:
            return json.loads(raw)
        except (ValueError, RecursionError):  # JSONDecodeError is a ValueError, as is a 5,000-digit number
            raise self.fail(f"{raw!r} is not a value: write text in double quotes, a number or a list") from None

    def string(self, name: str, v: Any) -> str:
        if not isinstance(v, str):
            raise self.fail(f"{name} must be text in double quotes, not {_value(v)}")
        return v

    def integer(self, name: str, v: Any, low: int | None = 0) -> int:
        if isinstance(v, str) and re.fullmatch(r"[+-]?\d{1,30}", v.strip()):
            v = int(v)
        if not isinstance(v, int) or isinstance(v, bool):
            raise self.fail(f"{name} must be a whole number, not {_value(v)}")
        if low is not None and v < low:
            raise self.fail(f"{name} must be at least {low}, not {v}")
        return v

    def seat(self, token: str, what: str = "seat") -> int:
        m = _SEAT.match(token.strip())
        if not m:
            raise self.fail(f"{token!r} is not a seat: write P0 to P{max(self.n, 1) - 1}")
        s = int(m.group(1))
        if self.n and s >= self.n:
            raise self.fail(f"{what} {token} is not at this {self.n}-player table (P0-P{self.n - 1})")
        return s

    def cards(self, text: str) -> str:
        try:
            mask = read_cards(text)
        except BigTwoError as e:
            raise self.fail(str(e)) from None
        if mask & ~self.ev.pack:
            raise self.fail(f"{text!r}: not every card is in this pack ({self.rules.get('name')!r})")
        return write_cards(self.ev, mask)

    def seat_list(self, name: str, v: Any) -> list[int]:
        seats = [self.seat(t) for t in self.string(name, v).split()]
        if sorted(seats) != list(range(self.n)):
            raise self.fail(f"{name} must name every seat once (P0-P{self.n - 1})")
        return seats

    def int_list(self, name: str, v: Any) -> list[int]:
        parts = self.string(name, v).split()
        if len(parts) != self.n:
            raise self.fail(f"{name} needs {self.n} numbers, one per seat; found {len(parts)}")
        return [self.integer(name, p, low=None) for p in parts]

    # --- the file ------------------------------------------------------------------------------------------
    def parse(self) -> Record:
        lines = self.text.split("\n")
        for i, raw in enumerate(lines, 1):
            self.line = i
            s = raw.strip()
            if not s or s.startswith(";"):
                continue
            if s.startswith("["):
                m = _TAG.match(s)
                if not m:
                    raise self.fail(f"{s[:40]!r} is not a tag: write [Name value] or [Name key value]")
                name, key, raw_value = m.groups()
                self.tag(name, key, self.json_value(raw_value))
                continue
            m = _MOVE.match(s)
            if not m:
                raise self.fail(f"{s[:40]!r} is neither a tag nor a numbered trick")
            self.trick(int(m.group(1)), m.group(2) or "")
        self.line = len(lines)
        if not self.rounds:
            self.start_rounds()
            if "Format" in self.head:
                raise self.fail("the record has no [Round] section")
        self.end_deal()
        return self.finish()

    def tag(self, name: str, key: str | None, v: Any) -> None:
        if not self.rounds and name != "Round":
            self.header_tag(name, key, v)
            return
        if name == "Round":
            self.round_tag(v)
            return
        if key is not None and name not in ("Deal", "Hands", "Request", "Exchange"):
            raise self.fail(f"[{name}] takes no key ({key!r})")
        self.round_part(name, key, v)

    def header_tag(self, name: str, key: str | None, v: Any) -> None:
        if name in ("Rule", "Player"):
            if key is None:
                raise self.fail(f"[{name}] needs a key: [{name} {'suit_order' if name == 'Rule' else 'P0'} ...]")
            if name == "Rule":
                if key in self.rules or key in ("name", "description"):
                    raise self.fail(f"rule setting {key!r} is given twice")
                self.rules[key] = v
                self.head_lines.setdefault("Rules", self.line)
            else:
                s = self.seat(key)
                if s in self.names or s != len(self.names):
                    raise self.fail(f"players must be listed once each, from P0 up; {key} is out of place")
                self.names[s] = self.string("Player", v)
            return
        if key is not None:
            raise self.fail(f"[{name}] takes no key ({key!r})")
        if name in self.head or name in self.tags:
            raise self.fail(f"[{name}] is given twice")
        if name in _HEADER or name == "Result":
            if name == "Format" and self.string(name, v) != FORMAT:
                raise self.fail(f"format {v!r} is not {FORMAT!r}")
            if name == "Type" and v not in tuple(RecordKind):
                raise self.fail(f'type must be "game" or "match", not {_value(v)}')
            if name in ("Date", "Rules", "Description", "Result"):
                self.string(name, v)
            if name == "Players":
                v = self.integer(name, v, low=2)
                if v > 8:
                    raise self.fail(f"{v} players: a table seats 2 to 8")
                self.n = v
            if name in ("Seed",):
                v = self.integer(name, v)
            if name in ("Rounds", "Points"):
                v = self.integer(name, v, low=1)
            self.head[name] = v
            self.head_lines[name] = self.line
            if name == "Rules":
                self.head_lines["Rules"] = self.line
            return
        if name in ("Round", *_ROUND_STAGE):
            raise self.fail(f"[{name}] belongs in a round, after [Round 1]")
        self.tags[name] = self.string(name, v)

    def start_rounds(self) -> None:
        for need in ("Format", "Type", "Rules", "Players", "Result"):
            if need not in self.head:
                raise self.fail(f"the header has no [{need}] tag")
        if len(self.names) != self.n:
            raise self.fail(f"[Player] tags name {plural(len(self.names), 'seat')}; the table has {self.n}")
        if self.head["Type"] == RecordKind.MATCH and "Seed" not in self.head:
            raise self.fail("a match record needs its [Seed]")
        rules = {"name": self.head["Rules"], "description": self.head.get("Description", ""), **self.rules}
        self.rules = rules
        record = Record(kind=RecordKind.GAME, rules=rules, players=self.n, names=[], rounds=[])
        record.line_of["Rules"] = self.head_lines.get("Rules", self.line)
        self.ev = record.ruleset().engine_for(self.n)

    def round_tag(self, v: Any) -> None:
        if not self.rounds:
            self.start_rounds()
        else:
            self.end_deal()
        number = self.integer("Round", v, low=1)
        if number != len(self.rounds) + 1:
            raise self.fail(f"round {number} is out of order: round {len(self.rounds) + 1} comes next")
        if self.head["Type"] == RecordKind.GAME and number > 1:
            raise self.fail('a record of [Type "game"] holds one round; use [Type "match"]')
        r = Round(number=number, dealer=-1, game=Deal(hands=[]), line=self.line)
        self.rounds.append(r)
        self.deal = r.game
        self.deal.line = self.line
        self.stage = 0

    def advance(self, name: str) -> None:
        table = _SHOOTOUT_STAGE if self.stage >= 13 and name in _SHOOTOUT_STAGE else _ROUND_STAGE
        if name not in table:
            raise self.fail(f"[{name}] is not a round tag here")
        stage = table[name]
        if stage < self.stage:
            raise self.fail(f"[{name}] is out of place in round {self.rounds[-1].number}")
        if self.stage < 4 <= stage and name != "Deal" and not self.rounds[-1].game.hands:
            raise self.fail(f"[{name}] comes after the round's [Deal] tags")
        if self.rounds[-1].dealer < 0 and name != "Dealer":
            raise self.fail(f"round {self.rounds[-1].number} needs its [Dealer] first")
        self.stage = stage

    def round_part(self, name: str, key: str | None, v: Any) -> None:
        r = self.rounds[-1]
        self.advance(name)
        if name == "Dealer":
            r.dealer = self.seat(self.string(name, v), "dealer")
        elif name == "Roles":
            if not isinstance(v, list) or len(v) != self.n or not all(isinstance(x, str) for x in v):
                raise self.fail(f"[Roles] needs a list of {self.n} role names")
            r.roles = list(v)
        elif name == "Request":
            kind = self.string(name, v)
            if kind not in (DecisionKind.REDEAL, DecisionKind.SWAP):
                raise self.fail(f'a request is "redeal" or "swap", not {_value(v)}')
            r.requests.append(Request(self.seat(key or "", "request by"), kind, line=self.line))
        elif name in ("Deal", "Hands"):
            hands = r.exchanged if name == "Hands" else self.deal.hands  # type: ignore[union-attr]
            if name == "Hands" and hands is None:
                hands = r.exchanged = []
            assert hands is not None
            s = self.seat(key or "")
            if s != len(hands):
                raise self.fail(f"[{name}] tags go P0, P1, ... once each; {key} is out of place")
            hands.append(self.cards(self.string(name, v)))
        elif name == "FaceUp":
            r.face_up = self.cards(self.string(name, v)) or None
        elif name == "Stock":
            r.stock = self.integer(name, v, low=1)
        elif name == "Exchange":
            r.trades.append(self.trade(self.seat(key or ""), self.string(name, v)))
        elif name == "Lead":
            r.lead = self.seat(self.string(name, v), "lead")
        elif name == "Order":
            self.deal_ready()
            if self.deal.order is not None:  # type: ignore[union-attr]
                raise self.fail("[Order] is given twice")
            self.deal.order = self.seat_list(name, v)  # type: ignore[union-attr]
            self.deal.order_line = self.line  # type: ignore[union-attr]
        elif name == "Scores":
            self.deal_ready()
            if self.deal.scores is not None:  # type: ignore[union-attr]
                raise self.fail("[Scores] is given twice")
            self.deal.scores = self.int_list(name, v)  # type: ignore[union-attr]
            self.deal.scores_line = self.line  # type: ignore[union-attr]
        elif name == "Shootout":
            self.end_deal()
            k = self.integer(name, v, low=1)
            if k != len(r.shootouts) + 1:
                raise self.fail(f"shoot-out {k} is out of order: {len(r.shootouts) + 1} comes next")
            self.deal = Deal(hands=[], line=self.line)
            r.shootouts.append(self.deal)
            self.stage = 13
        elif name == "Totals":
            self.end_deal()
            if r.totals is not None:
                raise self.fail("[Totals] is given twice")
            r.totals = self.int_list(name, v)

    def deal_ready(self) -> None:
        d = self.deal
        assert d is not None
        if len(d.hands) != self.n:
            raise self.fail(f"the deal lists {plural(len(d.hands), 'hand')}; the table has {self.n} seats")

    def end_deal(self) -> None:
        if self.deal is not None:
            if len(self.deal.hands) != self.n:
                line = self.deal.line if not self.deal.hands else self.line
                raise self.fail(
                    f"the deal lists {plural(len(self.deal.hands), 'hand')}; the table has {self.n} seats", line
                )
            if self.rounds and self.rounds[-1].exchanged is not None and len(self.rounds[-1].exchanged) != self.n:
                raise self.fail(
                    f"[Hands] lists {plural(len(self.rounds[-1].exchanged), 'hand')}; the table has {self.n}"
                )

    def trade(self, seat: int, text: str) -> Trade:
        for kind, pattern, answer, other in _PROCEDURES:
            m = pattern.match(text.strip())
            if m is None:
                continue
            said = m.group(answer).strip() if isinstance(answer, int) else answer
            if kind in (DecisionKind.BID, DecisionKind.REQUEST) and isinstance(answer, int):
                said = self.cards(said)
            elif kind == DecisionKind.TRADE and isinstance(answer, int):
                give, want = said.split(" for ", 1)
                said = f"{self.cards(give)} for {self.cards(want)}"
            party = self.seat(f"P{m.group(other)}") if other is not None else -1
            return Trade(seat, kind, said, party, line=self.line)
        for kind, pattern in _TRADE.items():
            m = pattern.match(text.strip())
            if not m:
                continue
            if kind == "decline":
                return Trade(seat, "surrender", "", self.seat(f"P{m.group(1)}"), line=self.line)
            if kind == DecisionKind.ASK:
                return Trade(seat, kind, m.group(2).strip(), self.seat(f"P{m.group(1)}"), line=self.line)
            answer = m.group(1).strip()
            if kind in (DecisionKind.GIVE, DecisionKind.SURRENDER):
                answer = self.cards(answer)
                if not answer:
                    raise self.fail(f"{kind} needs cards")
            return Trade(seat, kind, answer, self.seat(f"P{m.group(2)}"), line=self.line)
        raise self.fail(
            f"{text!r} is not an exchange: write 'gives CARDS to P0', 'surrenders CARDS to P0', "
            "'declines to surrender to P0', 'asks P4: QUESTION' or 'demands lowest from P0'"
        )

    def trick(self, number: int, body: str) -> None:
        if not self.rounds:
            raise self.fail("tricks belong in a round, after [Round 1] and its [Deal] tags")
        self.advance("move")
        d = self.deal
        assert d is not None
        self.deal_ready()
        if d.order is not None:
            raise self.fail("a trick after the deal's result")
        if number != len(d.tricks) + 1:
            raise self.fail(f"trick {number} is out of order: trick {len(d.tricks) + 1} comes next")
        marks = list(_MARK.finditer(body))
        if not marks or body[: marks[0].start()].strip():
            raise self.fail("a trick is a list of actions: 'P0: 3D  P1: pass ...'")
        actions = []
        for j, m in enumerate(marks):
            end = marks[j + 1].start() if j + 1 < len(marks) else len(body)
            actions.append(self.action(self.seat(f"P{m.group(1)}"), body[m.end() : end]))
        d.tricks.append(actions)

    def action(self, seat: int, text: str) -> Action:
        notes = _NOTE.findall(text)
        rest = _NOTE.sub(" ", text).strip()
        if "{" in rest or "}" in rest:
            raise self.fail(f"{text.strip()!r}: unbalanced braces")
        if len(notes) > 1:
            raise self.fail(f"{text.strip()!r}: one note at most")
        a = Action(seat, line=self.line)
        if not rest:
            raise self.fail(f"{seat_token(seat)}: cards or 'pass' expected")
        if rest.lower() != "pass":
            a.cards = self.cards(rest)
        if notes:
            note = notes[0].strip()
            if note == Note.AUTO:
                a.note = Note.AUTO
            elif note == "last card":
                a.note = Note.CALLED
            elif note == "gave up":
                a.note = Note.FORFEIT
            elif note == Note.DREW or note.startswith("drew "):
                a.note = Note.DREW
                drawn = note[4:].strip()
                a.drew = self.cards(drawn) if drawn else None
            else:
                raise self.fail(f"{{{note}}} is not a note: {{auto}}, {{drew CARD}}, {{last card}} or {{gave up}}")
            if (a.note == Note.CALLED) != (a.cards is not None):
                raise self.fail(f"{{{note}}} does not go with {'a pass' if a.cards is None else 'a play'}")
        return a

    def finish(self) -> Record:
        h = self.head
        record = Record(
            kind=RecordKind(h["Type"]),
            rules=self.rules,
            players=self.n,
            names=[self.names[s] for s in range(self.n)],
            rounds=self.rounds,
            seed=h.get("Seed"),
            date=h.get("Date"),
            max_rounds=h.get("Rounds"),
            points=h.get("Points"),
            result=h["Result"],
            tags=self.tags,
        )
        record.line_of = dict(self.head_lines)
        return record


def parse_text(text: str) -> Record:
    """Read a record's text form; anything malformed raises :class:`RecordError` with its line number."""
    if not isinstance(text, str):
        raise RecordError(f"a record is text, not {type(text).__name__}")
    return _Parser(text).parse()
