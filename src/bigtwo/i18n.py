"""Player-facing text in the player's language: the one place every message for players is translated through.

Messages are written in English in the code and marked with :func:`_` (or :func:`ngettext` where a count picks
the form), so that Babel's extractor finds them. The translations are gettext catalogs; until a language's catalog
is installed (:func:`use`), the English text is shown as written.
"""

from __future__ import annotations

import gettext as _gettext
from contextvars import ContextVar

_ENGLISH = _gettext.NullTranslations()
_current: ContextVar[_gettext.NullTranslations | None] = ContextVar("bigtwo_translations", default=None)


def use(translations: _gettext.NullTranslations) -> None:
    """Translate this context's messages (this thread, this asyncio task) with these catalogs."""
    _current.set(translations)


def _(message: str) -> str:
    """The message in the current language."""
    return (_current.get() or _ENGLISH).gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of the message for a count of ``n``, by the current language's plural rules."""
    return (_current.get() or _ENGLISH).ngettext(singular, plural, n)


__all__ = ["_", "ngettext", "use"]
