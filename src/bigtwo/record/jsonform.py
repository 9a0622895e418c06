"""The JSON form of a record: the same content as the text form, as plain data.

``record_to_dict`` / ``record_from_dict`` convert; ``from_json`` reports bad JSON with its line number and a
bad structure with the path of the offending value (``rounds[0].game.tricks[3][1].seat``).
"""

from __future__ import annotations

import json
from typing import Any

from bigtwo.errors import BigTwoError
from bigtwo.observation import Note
from bigtwo.record.model import (
    FORMAT,
    NOTES,
    REQUESTS,
    RESERVED_TAGS,
    TRADE_KINDS,
    Action,
    Deal,
    Record,
    RecordError,
    RecordKind,
    Request,
    Round,
    Trade,
)
from bigtwo.record.notation import read_cards, write_cards


def _action(a: Action) -> dict[str, Any]:
    out: dict[str, Any] = {"seat": a.seat, "cards": a.cards}
    if a.note:
        out["note"] = a.note
    if a.drew:
        out["drew"] = a.drew
    return out


def _deal(d: Deal) -> dict[str, Any]:
    return {
        "hands": list(d.hands),
        "tricks": [[_action(a) for a in t] for t in d.tricks],
        "order": d.order,
        "scores": d.scores,
    }


def record_to_dict(record: Record) -> dict[str, Any]:
    """Plain data (JSON-ready) holding everything the text form holds."""
    return {
        "format": FORMAT,
        "type": record.kind,
        "date": record.date,
        "rules": dict(record.rules),
        "players": record.players,
        "names": list(record.names),
        "seed": record.seed,
        "rounds_limit": record.max_rounds,
        "points": record.points,
        "result": record.result,
        "tags": dict(record.tags),
        "rounds": [
            {
                "round": r.number,
                "dealer": r.dealer,
                "roles": r.roles,
                "requests": [{"seat": q.seat, "request": q.kind} for q in r.requests],
                "face_up": r.face_up,
                "stock": r.stock,
                "trades": [{"seat": t.seat, "kind": t.kind, "answer": t.answer, "other": t.other} for t in r.trades],
                "exchanged": r.exchanged,
                "lead": r.lead,
                "game": _deal(r.game),
                "shootouts": [_deal(d) for d in r.shootouts],
                "totals": r.totals,
            }
            for r in record.rounds
        ],
    }


def to_json(record: Record, indent: int | None = 1) -> str:
    return json.dumps(record_to_dict(record), indent=indent, ensure_ascii=False) + "\n"


class _Reader:
    """Typed access to nested plain data; every complaint names the path."""

    def __init__(self, players: int = 8):
        self.n = players

    def get(self, d: Any, key: str, where: str, kind: Any, optional: bool = False) -> Any:
        if not isinstance(d, dict):
            raise RecordError(f"expected an object, found {_kind(d)}", where=where)
        if key not in d:
            if optional:
                return None
            raise RecordError(f"missing {key!r}", where=where)
        v = d[key]
        path = f"{where}.{key}" if where else key
        if v is None and optional:
            return None
        return self.check(v, path, kind)

    def check(self, v: Any, path: str, kind: Any) -> Any:
        if kind is int:
            if not isinstance(v, int) or isinstance(v, bool):
                raise RecordError(f"expected a whole number, found {_kind(v)}", where=path)
        elif kind == "seat":
            if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v < self.n:
                raise RecordError(f"expected a seat 0-{self.n - 1}, found {v!r}"[:120], where=path)
        elif kind is str:
            if not isinstance(v, str):
                raise RecordError(f"expected text, found {_kind(v)}", where=path)
        elif kind is list:
            if not isinstance(v, list):
                raise RecordError(f"expected a list, found {_kind(v)}", where=path)
        elif kind is dict and not isinstance(v, dict):
            raise RecordError(f"expected an object, found {_kind(v)}", where=path)
        return v

    def ints(self, d: Any, key: str, where: str, kind: Any = int, optional: bool = True) -> list[Any] | None:
        v = self.get(d, key, where, list, optional)
        if v is None:
            return None
        path = f"{where}.{key}" if where else key
        if len(v) != self.n:
            raise RecordError(f"expected {self.n} entries, one per seat; found {len(v)}", where=path)
        return [self.check(x, f"{path}[{i}]", kind) for i, x in enumerate(v)]

    def cards(self, v: Any, path: str, ev: Any) -> str:
        self.check(v, path, str)
        try:
            mask = read_cards(v)
        except BigTwoError as e:
            raise RecordError(str(e), where=path) from None
        if mask & ~ev.pack:
            raise RecordError(f"{v!r}: not every card is in this pack", where=path)
        return write_cards(ev, mask)

    def hands(self, d: Any, key: str, where: str, ev: Any, optional: bool = False) -> list[str] | None:
        v = self.ints(d, key, where, str, optional)
        if v is None:
            return None
        return [self.cards(h, f"{where}.{key}[{i}]", ev) for i, h in enumerate(v)]

    def deal(self, d: Any, where: str, ev: Any) -> Deal:
        tricks = []
        for i, t in enumerate(self.get(d, "tricks", where, list)):
            tw = f"{where}.tricks[{i}]"
            self.check(t, tw, list)
            if not t:
                raise RecordError("a trick holds at least one action", where=tw)
            trick = []
            for j, a in enumerate(t):
                aw = f"{tw}[{j}]"
                action = Action(self.get(a, "seat", aw, "seat"), where=aw)
                cards = self.get(a, "cards", aw, str, optional=True)
                action.cards = None if cards is None else self.cards(cards, f"{aw}.cards", ev)
                if action.cards == "":
                    raise RecordError("a play needs cards (a pass is null)", where=f"{aw}.cards")
                note = self.get(a, "note", aw, str, optional=True)
                if note is not None and note not in NOTES:
                    raise RecordError(f"{note!r} is not a note: {', '.join(NOTES)}", where=f"{aw}.note")
                if note is not None and (note == Note.CALLED) != (action.cards is not None):
                    raise RecordError(f"note {note!r} does not go with this action", where=f"{aw}.note")
                action.note = note
                drew = self.get(a, "drew", aw, str, optional=True)
                if drew is not None:
                    if note != Note.DREW:
                        raise RecordError("'drew' goes with the note 'drew'", where=f"{aw}.drew")
                    action.drew = self.cards(drew, f"{aw}.drew", ev)
                trick.append(action)
            tricks.append(trick)
        order = self.ints(d, "order", where, "seat")
        if order is not None and sorted(order) != list(range(self.n)):
            raise RecordError("the finishing order must name every seat once", where=f"{where}.order")
        hands = self.hands(d, "hands", where, ev)
        assert hands is not None
        return Deal(hands=hands, tricks=tricks, order=order, scores=self.ints(d, "scores", where), where=where)


def _kind(v: Any) -> str:
    return {dict: "an object", list: "a list", str: "text", bool: "true/false", type(None): "null"}.get(
        type(v), "a number"
    )


def record_from_dict(data: Any) -> Record:
    """Check and convert plain data (as :func:`record_to_dict` makes it) into a :class:`Record`."""
    r = _Reader()
    fmt = r.get(data, "format", "", str)
    if fmt != FORMAT:
        raise RecordError(f"format {fmt!r} is not {FORMAT!r}", where="format")
    kind = r.get(data, "type", "", str)
    if kind not in tuple(RecordKind):
        raise RecordError(f'type must be "game" or "match", not {kind!r}', where="type")
    players = r.get(data, "players", "", int)
    if not 2 <= players <= 8:
        raise RecordError(f"{players} players: a table seats 2 to 8", where="players")
    r.n = players
    rules = r.get(data, "rules", "", dict)
    for key in ("name", "description"):
        if not isinstance(rules.get(key, ""), str):
            raise RecordError("expected text", where=f"rules.{key}")
    record = Record(
        kind=RecordKind(kind),
        rules={"name": rules.get("name", "custom"), "description": rules.get("description", ""), **rules},
        players=players,
        names=r.ints(data, "names", "", str, optional=False) or [],
        rounds=[],
        seed=r.get(data, "seed", "", int, optional=True),
        date=r.get(data, "date", "", str, optional=True),
        max_rounds=r.get(data, "rounds_limit", "", int, optional=True),
        points=r.get(data, "points", "", int, optional=True),
        result=r.get(data, "result", "", str),
    )
    if record.seed is not None and record.seed < 0:
        raise RecordError("a seed is not negative", where="seed")
    for key in ("rounds_limit", "points"):
        v = data.get(key)
        if v is not None and v < 1:
            raise RecordError("must be at least 1", where=key)
    if kind == RecordKind.MATCH and record.seed is None:
        raise RecordError("a match record needs its seed", where="seed")
    tags = r.get(data, "tags", "", dict, optional=True) or {}
    for k, v in tags.items():
        r.check(v, f"tags.{k}", str)
        if not (k[:1].isupper() and k.isascii() and k.isalpha()) or k in RESERVED_TAGS:
            problem = "a tag name is letters, starting with a capital, and not one of the record's own"
            raise RecordError(problem, where=f"tags.{k}")
    record.tags = dict(tags)
    ev = record.ruleset().engine_for(players)
    rounds = r.get(data, "rounds", "", list)
    if not rounds:
        raise RecordError("a record holds at least one round", where="rounds")
    if kind == RecordKind.GAME and len(rounds) != 1:
        raise RecordError('a record of type "game" holds one round', where="rounds")
    for i, rd in enumerate(rounds):
        w = f"rounds[{i}]"
        number = r.get(rd, "round", w, int)
        if number != i + 1:
            raise RecordError(f"round {number} is out of order: round {i + 1} comes next", where=f"{w}.round")
        roles = r.ints(rd, "roles", w, str)
        requests = []
        for j, q in enumerate(r.get(rd, "requests", w, list, optional=True) or []):
            qw = f"{w}.requests[{j}]"
            kind_q = r.get(q, "request", qw, str)
            if kind_q not in REQUESTS:
                raise RecordError(f"{kind_q!r} is not a request: {', '.join(REQUESTS)}", where=qw)
            requests.append(Request(r.get(q, "seat", qw, "seat"), kind_q, where=qw))
        trades = []
        for j, t in enumerate(r.get(rd, "trades", w, list, optional=True) or []):
            tw = f"{w}.trades[{j}]"
            tk = r.get(t, "kind", tw, str)
            if tk not in TRADE_KINDS:
                raise RecordError(f"{tk!r} is not an exchange decision: {', '.join(TRADE_KINDS)}", where=tw)
            answer = r.get(t, "answer", tw, str)
            if tk in ("give", "surrender"):
                answer = r.cards(answer, f"{tw}.answer", ev)
                if tk == "give" and not answer:
                    raise RecordError("give needs cards", where=f"{tw}.answer")
            # a bid or a trade turn without an offer has no other party: -1
            none = isinstance(t, dict) and t.get("other") == -1 and tk in ("bid", "trade")
            other = -1 if none else r.get(t, "other", tw, "seat")
            trades.append(Trade(r.get(t, "seat", tw, "seat"), tk, answer, other, where=tw))
        face_up = r.get(rd, "face_up", w, str, optional=True)
        stock = r.get(rd, "stock", w, int, optional=True)
        if stock is not None and stock < 1:
            raise RecordError("a stock holds at least one card (null for none)", where=f"{w}.stock")
        record.rounds.append(
            Round(
                number=number,
                dealer=r.get(rd, "dealer", w, "seat"),
                game=r.deal(r.get(rd, "game", w, dict), f"{w}.game", ev),
                roles=roles,
                requests=requests,
                face_up=(r.cards(face_up, f"{w}.face_up", ev) or None) if face_up is not None else None,
                stock=stock,
                trades=trades,
                exchanged=r.hands(rd, "exchanged", w, ev, optional=True),
                lead=r.get(rd, "lead", w, "seat", optional=True),
                shootouts=[
                    r.deal(r.check(s, f"{w}.shootouts[{k}]", dict), f"{w}.shootouts[{k}]", ev)
                    for k, s in enumerate(r.get(rd, "shootouts", w, list, optional=True) or [])
                ],
                totals=r.ints(rd, "totals", w),
                where=w,
            )
        )
    return record


def from_json(text: str) -> Record:
    """Read a record's JSON form; bad JSON names its line, a bad structure the path of the value."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise RecordError(f"not valid JSON: {e.msg}", line=e.lineno) from None
    except (ValueError, RecursionError) as e:
        raise RecordError(f"not valid JSON: {e}") from None
    return record_from_dict(data)
