"""Text captures of a running Textual app (for the tests and the docs' screenshots): the screen as plain text."""

from __future__ import annotations

import io
from typing import Any

from rich.console import Console


def screen_text(app: Any) -> str:
    """The current screen (with any screens under a modal one) as plain text, one line per row."""
    width, height = app.size
    console = Console(
        width=width, height=height, file=io.StringIO(), force_terminal=True, color_system=None, record=True
    )
    console.print(app.screen._compositor.render_update(full=True, screen_stack=app._background_screens))
    return console.export_text()
