"""Finished games as downloadable records, one entry per format.

A format is a media type, a file extension and a function from the finished :class:`~bigtwo.match.Match` to
text. JSON (``Match.to_json``, replayable with ``Match.replay``) is served now; the text record format is one
more entry here when it lands, e.g. ``"text": RecordFormat("text/plain", "b2", format_record)``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from bigtwo.match import Match


@dataclass(frozen=True)
class RecordFormat:
    media_type: str
    extension: str
    render: Callable[[Match], str]


FORMATS: dict[str, RecordFormat] = {
    "json": RecordFormat("application/json", "json", lambda m: m.to_json(indent=2)),
}
