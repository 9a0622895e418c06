"""Player-facing text in the player's language: the one place every message for players is translated through.

Messages are written in English in the code and marked with :func:`_` (or :func:`ngettext` where a count picks
the form), so that Babel's extractor finds them (``babel.cfg``; ``docs/languages.md`` has the commands). The
translations are gettext catalogs, one ``locale/<language>/LC_MESSAGES/bigtwo.po`` a language, beside the
template ``locale/bigtwo.pot``. Only the ``.po`` files are kept: a language's catalog is compiled from its ``.po``
the first time it is asked for (Babel's ``write_mo`` into memory, cached for the process), so the same files serve
a wheel, an editable install and a source checkout, and a compiled file can never be older than its source.

Which language a message is said in is a :class:`~contextvars.ContextVar`: each thread and each asyncio task
(one a browser's connection) has its own, set with :func:`use_language` or :func:`language`; English until set.
Plural forms follow CLDR's rules as Babel has them (gettext's ``Plural-Forms`` comes from them, and the browser's
catalog carries the same rule as data, :func:`catalog_json`).

``en_XA`` is a pseudo-language generated from the template: every message visibly marked (``[!! Ýóú ļéáð !!]``),
placeholders and markup untouched, so a test can see any text that does not go through this module.
"""

from __future__ import annotations

import gettext as _gettext
import os
import re
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache
from io import BytesIO
from pathlib import Path
from typing import Any

from bigtwo.locale import FOLDER

_ENGLISH = _gettext.NullTranslations()
_current: ContextVar[_gettext.NullTranslations | None] = ContextVar("bigtwo_translations", default=None)
_current_code: ContextVar[str] = ContextVar("bigtwo_language", default="en")

DOMAIN = "bigtwo"
LOCALE_DIR = FOLDER
TEMPLATE = LOCALE_DIR / f"{DOMAIN}.pot"
ENGLISH = "en"
COOKIE = "bigtwo_lang"  # the browser's choice from the picker (static/i18n.js writes it)
PSEUDO = "en_XA"
# the languages the tables speak, each in its own words (as a picker lists them); English is the source
LANGUAGES: dict[str, str] = {
    "en": "English",
    "zh_Hant": "繁體中文",
    "zh_Hans": "简体中文",
    "fil": "Filipino",
    "id": "Bahasa Indonesia",
    "ms": "Bahasa Melayu",
    "vi": "Tiếng Việt",
}
# BCP 47 tags for <html lang> and the browser (the catalogs' names are Babel's, with an underscore)
HTML_LANG = {"zh_Hant": "zh-Hant", "zh_Hans": "zh-Hans", PSEUDO: "en-XA"}
# tags a browser or a system may send that name one of ours under another name
_ALIASES = {"tl": "fil", "in": "id", "zsm": "ms", "zh_TW": "zh_Hant", "zh_HK": "zh_Hant", "zh_MO": "zh_Hant"}


def known(code: str) -> bool:
    """A language this package has a catalog for (the pseudo-language included)."""
    return code in LANGUAGES or code == PSEUDO


def use(translations: _gettext.NullTranslations, code: str | None = None) -> None:
    """Translate this context's messages (this thread, this asyncio task) with these catalogs."""
    _current.set(translations)
    if code is not None:
        _current_code.set(code)


def use_language(code: str) -> None:
    """Speak ``code`` (one of :data:`LANGUAGES`, or the pseudo-language) in this context from now on."""
    use(translations(code), code)


@contextmanager
def language(code: str) -> Iterator[None]:
    """Speak ``code`` inside the ``with`` block only (a server building one client's view among many)."""
    t1, t2 = _current.set(translations(code)), _current_code.set(code)
    try:
        yield
    finally:
        _current.reset(t1)
        _current_code.reset(t2)


def current() -> str:
    """The language this context speaks."""
    return _current_code.get()


def _(message: str) -> str:
    """The message in the current language."""
    return (_current.get() or _ENGLISH).gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of the message for a count of ``n``, by the current language's plural rules."""
    return (_current.get() or _ENGLISH).ngettext(singular, plural, n)


def N_(message: str) -> str:
    """Marks a message for the catalogs where it is written, to be translated with :func:`_` where it is said
    (a table of names built at import time, before anyone's language is known)."""
    return message


# --- the catalogs -------------------------------------------------------------------------------------------


def po_path(code: str) -> Path:
    return LOCALE_DIR / code / "LC_MESSAGES" / f"{DOMAIN}.po"


@cache
def catalog(code: str) -> Any:
    """The language's Babel :class:`~babel.messages.catalog.Catalog` (the pseudo-language's generated from the
    template). An unknown code is refused in words."""
    from babel.messages.pofile import read_po

    if not known(code) or code == ENGLISH:
        raise ValueError(f"{code!r} is not a language with a catalog: one of {', '.join(sorted(LANGUAGES)[1:])}")
    if code == PSEUDO:
        with TEMPLATE.open("rb") as f:
            cat = read_po(f, locale="en")
        for message in cat:
            if not message.id:
                continue
            source: Any = message.id
            message.string = tuple(pseudo(m) for m in source) if isinstance(source, tuple) else pseudo(source)
        return cat
    with po_path(code).open("rb") as f:
        return read_po(f, locale=code, domain=DOMAIN)


@cache
def translations(code: str) -> _gettext.NullTranslations:
    """The language's compiled catalog (English: the messages as written), built once per process."""
    from babel.messages.mofile import write_mo
    from babel.support import Translations

    if code == ENGLISH:
        return _ENGLISH
    buffer = BytesIO()
    write_mo(buffer, catalog(code), use_fuzzy=False)
    buffer.seek(0)
    return Translations(fp=buffer, domain=DOMAIN)


def plural_rule(code: str) -> Any:
    """The language's CLDR plural rule (Babel's :class:`~babel.plural.PluralRule`)."""
    from babel import Locale

    return Locale.parse("en" if code == PSEUDO else code).plural_form


_CLDR_ORDER = ("zero", "one", "two", "few", "many", "other")  # the order gettext numbers the forms in (Babel's)


def plural_tags(code: str) -> list[str]:
    """The plural categories in the order of gettext's forms (``msgstr[0]``, ``msgstr[1]`` ...), as Babel's
    ``Plural-Forms`` numbers them."""
    tags = plural_rule(code).tags
    return [t for t in _CLDR_ORDER if t in tags or t == "other"]


def catalog_json(code: str) -> dict[str, Any]:
    """What the browser loads: the language's messages (a string each, or a list of plural forms), and its plural
    rule as data (the CLDR conditions as Babel parses them, evaluated by ``static/i18n.js``): the page may run no
    code it is sent (its Content-Security-Policy forbids eval), so the rule travels as a tree, not a function."""
    rule = plural_rule(code)
    messages: dict[str, Any] = {}
    if code != ENGLISH:
        for m in catalog(code):
            if not m.id or m.fuzzy:
                continue
            if isinstance(m.id, tuple):
                forms = list(m.string) if isinstance(m.string, tuple | list) else [m.string]
                if all(forms):
                    messages[m.id[0]] = forms
            elif m.string:
                messages[m.id] = m.string
    return {
        "lang": code,
        "html_lang": HTML_LANG.get(code, code),
        "name": LANGUAGES.get(code, "pseudo"),
        "plural": {"tags": plural_tags(code), "rules": [[tag, _tree(ast)] for tag, ast in rule.abstract]},
        "messages": messages,
    }


def _tree(node: Any) -> Any:
    """Babel's parsed condition as JSON (tuples to lists)."""
    if isinstance(node, tuple | list):
        return [_tree(x) for x in node]
    return node


# --- which language ------------------------------------------------------------------------------------------


def _candidates(tag: str) -> list[str]:
    """Our names a language tag (``zh-TW``, ``fil_PH.UTF-8``, ``en-XA``) may mean, the closest first."""
    from babel import Locale, UnknownLocaleError

    tag = tag.strip().split(".")[0].split("@")[0].replace("-", "_")
    if not tag or tag in ("C", "POSIX", "*"):
        return []
    if tag.lower() == PSEUDO.lower():
        return [PSEUDO]
    out: list[str] = []
    for name, ours in _ALIASES.items():
        if tag.lower() == name.lower() or tag.lower().startswith(name.lower() + "_"):
            out.append(ours)
    try:
        loc = Locale.parse(tag)
    except (ValueError, UnknownLocaleError):
        return out
    if loc.language == "zh":
        script = loc.script or ("Hant" if loc.territory in ("TW", "HK", "MO") else "Hans")
        out.append(f"zh_{script}")
    out.append(_ALIASES.get(loc.language, loc.language))
    return out


def negotiate(preferred: Iterable[str]) -> str | None:
    """The first of the preferred tags (best first) that we speak, or None."""
    for tag in preferred:
        for code in _candidates(tag):
            if known(code):
                return code
    return None


def accept_language(header: str | None) -> list[str]:
    """An ``Accept-Language`` header's tags, best first (by ``q``, then by order)."""
    weighted = []
    for i, part in enumerate((header or "").split(",")):
        tag, _sep, params = part.strip().partition(";")
        q = 1.0
        match = re.search(r"q=([0-9.]+)", params)
        if match:
            try:
                q = float(match.group(1))
            except ValueError:
                q = 0.0
        if tag and q > 0:
            weighted.append((-q, i, tag))
    return [tag for _q, _i, tag in sorted(weighted)]


def from_request(cookie: str | None, header: str | None) -> str:
    """The browser's language: the picker's choice (its cookie), else the best of Accept-Language, else English."""
    if cookie and known(cookie):
        return cookie
    return negotiate(accept_language(header)) or ENGLISH


def from_environment(environ: Mapping[str, str] | None = None) -> str:
    """The terminal's language from the locale variables, in gettext's order: ``LANGUAGE`` (a colon list),
    ``LC_ALL``, ``LC_MESSAGES``, ``LANG``; English when none names a language we speak."""
    env = os.environ if environ is None else environ
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(var, "")
        if value:
            found = negotiate(value.split(":"))
            if found is not None:
                return found
            if var != "LANGUAGE":  # the first locale set decides (LANGUAGE only adds preferences)
                return ENGLISH
    return ENGLISH


# --- the pseudo-language ----------------------------------------------------------------------------------------

_ACCENTED = str.maketrans(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
    "áƀçðéƒĝĥíĵķļɱñóþǫŕšţúṽŵẋýžÁƁÇÐÉƑĜĤÍĴĶĻṀÑÓÞǪŔŠŢÚṼŴẊÝŽ",
)
# what a message may hold that is not words: placeholders ({name}, %(name)s, %s), rich markup ([bold], [/i])
_KEPT = re.compile(r"\{[^{}]*\}|%(?:\([^)]*\))?[sdifr%]|\[/?[a-z][a-z .#-]*\]")


def pseudo(message: str) -> str:
    """``[!! Ýóú ļéáð !!]``: the message marked and its letters accented, placeholders and markup as written."""
    out, at = [], 0
    for m in _KEPT.finditer(message):
        out.append(message[at : m.start()].translate(_ACCENTED))
        out.append(m.group(0))
        at = m.end()
    out.append(message[at:].translate(_ACCENTED))
    return "[!! " + "".join(out) + " !!]"


__all__ = [
    "LANGUAGES",
    "N_",
    "PSEUDO",
    "_",
    "accept_language",
    "catalog_json",
    "current",
    "from_environment",
    "from_request",
    "known",
    "language",
    "negotiate",
    "ngettext",
    "pseudo",
    "translations",
    "use",
    "use_language",
]
