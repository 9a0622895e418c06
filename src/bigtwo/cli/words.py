"""The tables' words (:mod:`bigtwo.words`) for the terminal: the same wording, escaped for rich markup.

The wording itself lives below the user interfaces so the server's browser table says things the same way.
"""

from __future__ import annotations

from typing import Any

from rich.markup import escape

from bigtwo.words import Wording as _Wording
from bigtwo.words import card_face, faces, play_direction, plural


class Wording(_Wording):
    """:class:`bigtwo.words.Wording`, with :meth:`markup` for printing through rich."""

    def markup(self, message: Any, opens: bool = True) -> str:
        """:meth:`render`, escaped for rich (square brackets in it are text, not markup)."""
        return escape(self.render(message, opens))


__all__ = ["Wording", "card_face", "faces", "play_direction", "plural"]
