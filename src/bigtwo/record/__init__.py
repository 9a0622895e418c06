"""Game records: a text form in the manner of chess's PGN and a JSON form of the same, for rounds and matches.

::

    from bigtwo.record import record_of, format_text, parse_text, replay
    text = format_text(record_of(game_or_match, names=["you", "greedy", "greedy", "greedy"]))
    again = replay(parse_text(text))          # a Game or Match, every stated fact checked

``write -> parse -> write`` gives the same text (and the same JSON). Anything malformed or inconsistent raises
:class:`RecordError` (a ``ValueError``) naming the line (text) or the path (JSON) and the problem.
"""

from __future__ import annotations

from pathlib import Path

from bigtwo.errors import read_text_file
from bigtwo.record.build import record_game, record_match, record_of
from bigtwo.record.jsonform import from_json, record_from_dict, record_to_dict, to_json
from bigtwo.record.model import FORMAT, Action, Deal, Record, RecordError, Request, Round, Trade
from bigtwo.record.replay import replay
from bigtwo.record.text import format_text, parse_text


def read_record(text: str) -> Record:
    """Parse either form: JSON when the text starts with ``{``, else the text form."""
    if not isinstance(text, str):
        raise RecordError(f"a record is text, not {type(text).__name__}")
    return from_json(text) if text.lstrip().startswith("{") else parse_text(text)


def load_record(path: str | Path) -> Record:
    """Read a record file (either form); a file that cannot be read is a RecordError too, and every error
    names the file once, in words (not Python's ``[Errno 2]``)."""
    text = read_text_file(Path(path), RecordError, "record", "a record", "records")
    try:
        return read_record(text)
    except RecordError as e:
        raise RecordError(f"{path}: {e}") from None


def save_record(record: Record, path: str | Path) -> Path:
    """Write a record: JSON for a ``.json`` path, the text form otherwise."""
    p = Path(path)
    p.write_text(to_json(record) if p.suffix.lower() == ".json" else format_text(record), encoding="utf-8")
    return p


__all__ = [
    "FORMAT",
    "Action",
    "Deal",
    "Record",
    "RecordError",
    "Request",
    "Round",
    "Trade",
    "format_text",
    "from_json",
    "load_record",
    "parse_text",
    "read_record",
    "record_from_dict",
    "record_game",
    "record_match",
    "record_of",
    "record_to_dict",
    "replay",
    "save_record",
    "to_json",
]
