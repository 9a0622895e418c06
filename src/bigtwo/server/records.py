"""Finished games as records (:mod:`bigtwo.record`): a file to download, and the replay viewer's steps.

A room's record is built from its finished :class:`~bigtwo.match.Match` with the seats' names, the date it
ended and the table's name and id as tags, in either form of the record format (``bigtwo-record/1``): the text
form modelled on PGN, or its JSON form. Both read back with :func:`bigtwo.record.read_record` and replay through
the engine with every stated fact checked.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from bigtwo.match import Match
from bigtwo.record import Record, format_text, read_record, record_of, to_json
from bigtwo.record.build import notation
from bigtwo.record.frames import frames_of
from bigtwo.words import Wording

_SEAT_TOKEN = re.compile(r"\bP(\d)\b")


@dataclass(frozen=True)
class RecordFormat:
    media_type: str
    extension: str
    render: Callable[[Record], str]


FORMATS: dict[str, RecordFormat] = {
    "text": RecordFormat("text/plain; charset=utf-8", "txt", format_text),
    "json": RecordFormat("application/json", "json", lambda r: to_json(r, indent=1)),
}


def room_record(match: Match, names: list[str], table: str, room_id: str, finished: datetime | None) -> Record:
    """The record of a room's match: the seats' names, the day it ended, the table's name and id as tags."""
    date = finished.date().isoformat() if finished is not None else None
    return record_of(match, names=names, date=date, Event=table, Table=room_id)


def replay_steps(record: Record, names: list[str]) -> list[dict[str, Any]]:
    """Every position of a finished match for the replay viewer, every hand face up (the game is over).

    The positions are the record module's own (:func:`~bigtwo.record.frames.frames_of`, which replays the record
    through the engine first); here seat tokens become names and the running totals are carried along.
    """
    totals = [0] * len(names)
    words = Wording(None, names)
    steps = []
    for f in frames_of(record):
        if f.totals is not None:
            totals = list(f.totals)
        steps.append(
            {
                "round": f.round,
                # names for seat tokens, and the cards as every table writes them (3♦, not 3D)
                "label": words.render(
                    _SEAT_TOKEN.sub(lambda m: names[int(m[1])] if int(m[1]) < len(names) else m[0], f.label)
                ),
                "hands": [h.split() for h in f.hands],
                "to_move": f.to_move,
                "trick": None if f.trick is None else {"seat": f.trick_seat, "cards": f.trick.split()},
                "passed": list(f.passed),
                "finished": list(f.finished),
                "roles": f.roles,
                "scores": f.scores,
                "totals": list(totals),
                "actor": f.actor,
            }
        )
    return steps


def review_payload(text: str, seat: int, round_index: int, deals: int) -> dict[str, Any]:
    """One seat's decisions in one round of a finished game rated (:func:`bigtwo.review.review_record`), as plain
    data for the replay viewer: work for a bot worker (``text``: the record in its text form). Each decision's
    moves are card tokens (``None`` for a pass), its label a word of :class:`bigtwo.review.Label` (the page
    words it)."""
    from bigtwo.review import THRESHOLDS, review_record, summary

    record = read_record(text)
    rules = record.ruleset()
    ev = rules.engine_for(record.players)
    ratings = review_record(record, seat, deals, only_round=round_index)

    def cards(play: Any) -> list[str] | None:
        return None if play.is_pass else notation(ev, play.mask).split()

    return {
        "seat": seat,
        "round": round_index + 1,
        "deals": deals,
        "measure": str(rules.play_measure),
        "thresholds": list(THRESHOLDS[rules.play_measure]),
        "decisions": [
            {
                "played": cards(r.played),
                "best": cards(r.best),
                "played_points": round(r.played_points, 2),
                "best_points": round(r.best_points, 2),
                "loss": round(r.loss, 2),
                "label": str(r.label),
            }
            for r in ratings
        ],
        "counts": {str(k): n for k, n in summary(ratings).items()},
    }
