"""Babel's extractor for the presets' TOML files (``babel.cfg``): a preset's ``description`` is a message players
read (the lobby's rules menu, the terminal's heading), written in the preset's file rather than in the code."""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterator
from typing import IO, Any

_DESCRIPTION = re.compile(rb"^description\s*=")


def presets(
    fileobj: IO[bytes], keywords: Any, comment_tags: Any, options: Any
) -> Iterator[tuple[int, str, str, list[str]]]:
    """Each preset's description, with the line it is written on and the preset's name as a translator's note."""
    data = fileobj.read()
    parsed = tomllib.loads(data.decode("utf-8"))
    text = parsed.get("description")
    if not isinstance(text, str) or not text:
        return
    line = next((i for i, raw in enumerate(data.splitlines(), 1) if _DESCRIPTION.match(raw)), 1)
    yield line, "", text, [f"the description of the preset {parsed.get('name', '?')!r}"]


# the browser's markers (static/i18n.js): t(msgid, vars) and tn(singular, plural, n, vars), and the gettext
# keywords that take their arguments the same way (Babel reads each message's arguments by the keyword's name)
PAGE_KEYWORDS = {"t": None, "tn": (1, 2)}
AS_GETTEXT = {"t": "_", "tn": "ngettext"}


def page(fileobj: IO[bytes], keywords: Any, comment_tags: Any, options: Any) -> Iterator[tuple[Any, ...]]:
    """The browser's scripts through Babel's JavaScript extractor, with the page's own markers (``t``, ``tn``):
    given here rather than to ``pybabel -k``, where they would apply to the Python files too."""
    from babel.messages.extract import extract_javascript

    found: Iterator[tuple[Any, ...]] = extract_javascript(fileobj, PAGE_KEYWORDS, comment_tags, options)
    for lineno, funcname, messages, comments in found:
        yield lineno, AS_GETTEXT.get(funcname, funcname), messages, comments
