"""A record as a list of positions to step through, every hand visible (what ``bigtwo replay`` shows).

The record is first replayed and checked (:func:`~bigtwo.record.replay.replay`); the positions are then read
off the rebuilt games: the deal, each exchange decision, the hands play starts with, and the position after
each action (an action's automatic passes go with it).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bigtwo.game import Game
from bigtwo.match import Match
from bigtwo.observation import Note
from bigtwo.record.build import notation, start_of_play
from bigtwo.record.model import Record, seat_token
from bigtwo.record.replay import replay
from bigtwo.record.text import trade_text
from bigtwo.record.trades import trade_of


@dataclass
class Frame:
    """One position: every seat's cards, the table, and the step that led here."""

    round: int  # 1-based
    label: str  # what just happened, in words
    hands: list[str]
    to_move: int | None = None
    trick: str | None = None  # the cards to beat
    trick_seat: int | None = None
    passed: list[int] = field(default_factory=list)
    finished: list[int] = field(default_factory=list)
    face_up: str | None = None
    stock: int = 0
    scores: list[int] | None = None  # when a deal has just ended
    totals: list[int] | None = None  # match totals after the round
    roles: list[str] | None = None
    trick_number: int = 0  # the numbered line of the record this step belongs to (0: before play)
    actor: int | None = None  # the seat that acted


def _position(g: Game, rnd: int, label: str, **extra: Any) -> Frame:
    ev = g.ev
    res = g.result
    return Frame(
        round=rnd,
        label=label,
        hands=[notation(ev, g.hand(s).mask) for s in range(g.n)],
        to_move=None if g.is_over else g.to_move,
        trick=notation(ev, g.trick.mask) if g.trick is not None else None,
        trick_seat=g.trick_seat,
        passed=g.passed_seats(),
        finished=g.finishing_order,
        face_up=notation(ev, g.face_up) or None,
        stock=g.stock_size,
        scores=list(res.scores) if res is not None else None,
        **extra,
    )


def _walk(game: Game, rnd: int, out: list[Frame], roles: list[str] | None, title: str) -> None:
    """Frames for each action of ``game``, from its first play."""
    walk = start_of_play(game)
    out.append(_position(walk, rnd, title, roles=roles))
    hist, notes = game.history, game.history_notes
    trick = 0
    i = 0
    while i < len(hist):
        seat, p = hist[i]
        if walk.trick is None:
            trick += 1
        if walk.look_pending and (not p.is_pass or notes[i] == Note.FORFEIT):
            walk.look()  # the Horse Game: the hand was looked at first
        walk.play(p, call_last_card=notes[i] == Note.CALLED)
        words = "passes" if p.is_pass else f"plays {notation(walk.ev, p.mask)}"
        if notes[i] == Note.FORFEIT:
            words = "looks, cannot play, and gives the hand up (last free place)"
        if notes[i] == Note.DREW:
            words += " and draws a card"
        if notes[i] == Note.CALLED:
            words += ", calling 'last card'"
        i += 1
        skipped = []
        while i < len(hist) and notes[i] == Note.AUTO:
            skipped.append(seat_token(hist[i][0]))
            i += 1
        label = f"{trick}. {seat_token(seat)} {words}"
        if skipped:
            label += f" ({', '.join(skipped)} skipped: nothing could beat it)"
        if walk.is_over:
            label += ": the deal is over"
        out.append(_position(walk, rnd, label, roles=roles, trick_number=trick, actor=seat))


def frames_of(record: Record) -> list[Frame]:
    """Every position of the record, in order (the record is checked first: a RecordError if it is wrong)."""
    played = replay(record)
    out: list[Frame] = []
    if isinstance(played, Game):
        _walk(played, 1, out, None, "The deal")
        return out
    _match_frames(played, out)
    return out


def _match_frames(m: Match, out: list[Frame]) -> None:
    ev = m.rules.engine_for(m.n)
    for i, rec in enumerate(m.records):
        rnd = i + 1
        hands = [notation(ev, h) for h in rec.dealt]
        dealer = seat_token(rec.dealer)
        out.append(Frame(round=rnd, label=f"Round {rnd}: {dealer} deals", hands=hands, roles=rec.roles))
        if rec.exchange is None:
            continue
        again = rec.exchange.fresh()
        for a in rec.exchange.answers:
            d = again.pending
            assert d is not None
            trade, answer = trade_of(d, a, again.ev)
            words = trade_text(trade)
            again.decide(answer)
            out.append(
                Frame(
                    round=rnd,
                    label=f"Exchange: {seat_token(d.seat)} {words}",
                    hands=[notation(ev, again.hand(s)) for s in range(m.n)],
                    roles=rec.roles,
                    actor=d.seat,
                )
            )
        if rec.game is None:
            continue
        free = f", {seat_token(rec.first)} leads freely" if rec.first is not None else ""
        title = f"Round {rnd}: play starts{free}"
        _walk(rec.game, rnd, out, rec.roles, title)
        for k, g in enumerate(rec.shootouts, 1):
            _walk(g, rnd, out, rec.roles, f"Round {rnd}: shoot-out {k} between the tied teams")
        if rec.totals is not None:
            last = out[-1]
            last.totals = list(rec.totals)
            assert rec.result is not None
            last.scores = list(rec.result.scores)
