"""The terminal console a command prints to, made when the command runs.

rich reads ``COLUMNS`` once, when a console is made, and keeps that width for good: a console made at import
would print every later command of the process at the width of whatever environment imported the module (a
test runner's, a parent shell's), not the terminal's or the caller's ``COLUMNS`` of the moment.
"""

from __future__ import annotations

from rich.console import Console


def console() -> Console:
    """A console for the output of the command running now (its width and colours read from now). Text such as
    ``mybots:Bot:`` stays as written: no ``:name:`` in it becomes an emoji."""
    return Console(highlight=False, emoji=False)
