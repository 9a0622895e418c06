"""Records from live objects: a :class:`~bigtwo.game.Game` (one round) or a :class:`~bigtwo.match.Match`.

The record is read off the engine's own state (deals, exchange answers, history and its notes, results), so
there is one source of truth. Where a fact is not kept as such (which action led a trick, the card a pass
drew), the round is played again from its start on a clone of the game.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bigtwo.actions import Word
from bigtwo.game import Game
from bigtwo.match import Match
from bigtwo.observation import Note
from bigtwo.record.model import Action, Deal, Record, RecordKind, Request, Round, Trade, seat_token
from bigtwo.record.notation import write_cards
from bigtwo.record.trades import trade_of


def notation(ev: Any, mask: int) -> str:
    """Cards in the rules' order, lowest first, second deck copies marked: the form every record writes."""
    return write_cards(ev, mask)


def ordinal(n: int) -> str:
    return f"{n}{'tsnrhtdd'[(n // 10 % 10 != 1) * (n % 10 < 4) * n % 10 :: 4]}"


def result_text(order: Sequence[int], values: Sequence[int] | None, ranking: bool) -> str:
    """The Result header: seats best first, with their score (or sum of places) unless ranking only."""
    parts = []
    for place, s in enumerate(order, 1):
        tail = "" if values is None else (f" {values[s]}" if ranking else f" {values[s]:+d}")
        parts.append(f"{ordinal(place)} {seat_token(s)}{tail}")
    return ", ".join(parts)


def start_of_play(game: Game) -> Game:
    """A copy of ``game`` taken back to its first action (after any exchanges)."""
    start = game.clone()
    while start.history:
        start.undo()
    return start


def played_deal(game: Game, dealt: Sequence[int] | None = None) -> tuple[Deal, Game]:
    """The game's tricks, notes and result as a :class:`Deal` (``dealt``: the hands to state, default the game's).

    Returns the deal and the game taken back to its start (for the facts of the start position).
    """
    ev = game.ev
    start = start_of_play(game)
    walk = start.clone()
    tricks: list[list[Action]] = []
    for (seat, p), note in zip(game.history, game.history_notes, strict=True):
        if note == Note.AUTO:  # the engine made it during the action before
            tricks[-1].append(Action(seat, None, Note.AUTO))
            continue
        lead = walk.trick is None
        before = walk.hand(seat).mask
        if walk.look_pending and (not p.is_pass or note == Note.FORFEIT):
            walk.look()  # the Horse Game: a hand is looked at before it plays (or is given up)
        walk.play(p, call_last_card=note == Note.CALLED)
        a = Action(seat, None if p.is_pass else notation(ev, p.mask), note)
        if note == Note.DREW:
            a.drew = notation(ev, walk.hand(seat).mask & ~before)
        if lead or not tricks:
            tricks.append([a])
        else:
            tricks[-1].append(a)
    res = game.result
    deal = Deal(
        hands=[notation(ev, m) for m in (game.dealt if dealt is None else dealt)],
        tricks=tricks,
        order=list(res.finishing_order) if res else None,
        scores=list(res.scores) if res else None,
    )
    return deal, start


def _is_ranking(rules: Any) -> bool:
    return rules.ranks_only


def _free_lead(game: Game, start: Game) -> int | None:
    """The seat told to lead freely, when the game was not left to the lead card (Game's ``first``)."""
    if start.is_over:
        return None
    plain = Game(game.rules, hands=list(game.dealt), dealer=game.dealer)
    if plain.to_move == start.to_move and plain.required_card == start.required_card:
        return None
    return start.to_move


def record_game(
    game: Game, names: Sequence[str] | None = None, date: str | None = None, tags: dict[str, str] | None = None
) -> Record:
    """The record of one round played as a :class:`Game` (finished or not)."""
    n = game.n
    deal, start = played_deal(game)
    requests = [Request(seat, kind) for seat, kind in game.requests]
    rnd = Round(
        number=1,
        dealer=game.dealer,
        game=deal,
        requests=requests,
        face_up=notation(game.ev, start.face_up) or None,
        stock=start.stock_size or None,
        lead=_free_lead(game, start),
    )
    res = game.result
    result = result_text(res.finishing_order, res.scores, False) if res else "*"
    if res and _is_ranking(game.rules):
        result = result_text(res.finishing_order, None, True)
    return Record(
        kind=RecordKind.GAME,
        rules=game.rules.changes(),
        players=n,
        names=_names(names, n),
        rounds=[rnd],
        seed=game.seed,
        date=date,
        result=result,
        tags=dict(tags or {}),
    )


def _names(names: Sequence[str] | None, n: int) -> list[str]:
    if names is None:
        return [f"seat {s}" for s in range(n)]
    if len(names) != n:
        raise ValueError(f"{len(names)} names for {n} seats")
    return [str(x) for x in names]


def _trades(match: Match, index: int) -> list[Trade]:
    """A round's exchange answers, with the other party of each decision (the exchange is run again)."""
    rec = match.records[index]
    if rec.exchange is None:
        return []  # the deal's own decisions are pending: no exchange yet
    again = rec.exchange.fresh()
    out = []
    for a in rec.exchange.answers:
        d = again.pending
        assert d is not None and d.seat == a["seat"]
        trade, answer = trade_of(d, a, again.ev)
        again.decide(answer)
        out.append(trade)
    return out


def record_match(
    match: Match, names: Sequence[str] | None = None, date: str | None = None, tags: dict[str, str] | None = None
) -> Record:
    """The record of a match (finished or not): every round's deal, exchanges, plays, shoot-outs and totals."""
    n = match.n
    ev = match.rules.engine_for(n)
    rounds = []
    for i, rec in enumerate(match.records):
        trades = _trades(match, i)
        if rec.game is not None:
            deal, start = played_deal(rec.game, rec.dealt)
            face_up = notation(ev, start.face_up) or None
            stock = start.stock_size or None
        else:
            deal, face_up, stock = Deal(hands=[notation(ev, m) for m in rec.dealt]), None, None
        rounds.append(
            Round(
                number=rec.index + 1,
                dealer=rec.dealer,
                game=deal,
                roles=list(rec.roles) if rec.roles else None,
                requests=[Request(a["seat"], a["answer"]) for a in rec.deal_answers if a["answer"] != Word.KEEP],
                face_up=face_up,
                stock=stock,
                trades=trades,
                exchanged=[notation(ev, m) for m in rec.hands] if trades and rec.game is not None else None,
                lead=rec.first if rec.game is not None else None,
                shootouts=[played_deal(g)[0] for g in rec.shootouts],
                totals=list(rec.totals) if rec.totals is not None else None,
            )
        )
    result = "*"
    if match.is_over:
        ranking = _is_ranking(match.rules)
        result = result_text(match.standings(), match.places if ranking else match.totals, ranking)
    return Record(
        kind=RecordKind.MATCH,
        rules=match.rules.changes(),
        players=n,
        names=_names(names, n),
        rounds=rounds,
        seed=match.seed,
        date=date,
        max_rounds=match.max_rounds,
        points=match.points,
        result=result,
        tags=dict(tags or {}),
    )


def record_of(played: Game | Match, names: Sequence[str] | None = None, date: str | None = None, **tags: str) -> Record:
    """The record of a game or a match."""
    if isinstance(played, Match):
        return record_match(played, names, date, tags)
    return record_game(played, names, date, tags)
