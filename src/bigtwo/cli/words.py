"""The tables' words (:mod:`bigtwo.words`) for the terminal: the same wording, escaped for rich markup.

The wording itself lives below the user interfaces so the server's browser table says things the same way.
"""

from __future__ import annotations

from typing import Any

from rich.markup import escape

from bigtwo.words import Wording as _Wording
from bigtwo.words import card_face, faces, plural


def play_direction(direction: str, players: int, short: bool = False) -> str | None:
    """Which way play goes round the table, in the browser table's words: ``Play passes to the left
    (clockwise)``, or ``to the right (counter-clockwise)``; ``short``: an arrow for the turn's name (``↺ Play
    passes to the right``), to fit under the list of players. None at two players: play goes back and forth."""
    if players < 3:
        return None
    ccw = direction == "counter-clockwise"
    side = "right" if ccw else "left"
    if short:
        return f"{'↺' if ccw else '↻'} Play passes to the {side}"
    return f"Play passes to the {side} ({direction})"


class Wording(_Wording):
    """:class:`bigtwo.words.Wording`, with :meth:`markup` for printing through rich."""

    def markup(self, message: Any, opens: bool = True) -> str:
        """:meth:`render`, escaped for rich (square brackets in it are text, not markup)."""
        return escape(self.render(message, opens))


__all__ = ["Wording", "card_face", "faces", "play_direction", "plural"]
