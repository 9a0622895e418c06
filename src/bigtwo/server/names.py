"""When two names at a table read the same: the comparison that keeps one person from passing for another.

A name is compared by its *skeleton* (after Unicode's security mechanisms, UTS #39): compatibility forms are
folded (NFKC: fullwidth ``Ｃｈｌｏｅ（ｇｒｅｅｄｙ）`` is ``Chloe(greedy)``), characters that show nothing are dropped
(zero-width joiners and spaces, variation selectors, soft hyphens: ``A\u200clice`` is ``Alice``), case is folded,
and each letter that looks like a Latin one is read as it (Cyrillic ``А``, Greek ``Ο``: the confusables data of
the ``confusable-homoglyphs`` package, drawn from Unicode's own). Two names with the same skeleton are the same
name at a table; a name whose skeleton is shaped like a bot's (``Ben (greedy)``) is refused for a person.
"""

from __future__ import annotations

import functools
import re
import unicodedata

# code points that show nothing though they are not format characters (Unicode's Default_Ignorable_Code_Point
# beside category Cf): a combining grapheme joiner, Hangul fillers, Khmer inherent vowels, Mongolian variation
# selectors, variation selectors
_IGNORABLE_RANGES = (
    (0x034F, 0x034F),
    (0x115F, 0x1160),
    (0x17B4, 0x17B5),
    (0x180B, 0x180F),
    (0x3164, 0x3164),
    (0xFE00, 0xFE0F),
    (0xFFA0, 0xFFA0),
    (0xE0100, 0xE01EF),
)


def shows_nothing(ch: str) -> bool:
    """Whether a character is invisible in a name: a format character (zero-width space and joiners, bidi marks,
    soft hyphen, ...) or another default-ignorable code point."""
    cp = ord(ch)
    return unicodedata.category(ch) == "Cf" or any(lo <= cp <= hi for lo, hi in _IGNORABLE_RANGES)


@functools.cache
def _latin_lookalikes() -> dict[str, str]:
    """Each non-ASCII character that Unicode lists as confusable with exactly one ASCII letter or digit -> it."""
    from confusable_homoglyphs.confusables import confusables_data

    out: dict[str, str] = {}
    for ch, entries in confusables_data.items():
        if len(ch) != 1 or ch.isascii():
            continue
        ascii_alike = {e["c"] for e in entries if len(e["c"]) == 1 and e["c"].isascii() and e["c"].isalnum()}
        if len(ascii_alike) == 1:
            out[ch] = ascii_alike.pop()
    return out


def skeleton(name: str) -> str:
    """What a name reads as, for comparing names (see the module): equal skeletons are the same name."""
    text = unicodedata.normalize("NFKC", name)
    text = "".join(ch for ch in text if not shows_nothing(ch)).casefold()
    alike = _latin_lookalikes()
    text = "".join(alike.get(ch, ch) for ch in unicodedata.normalize("NFD", text))
    return " ".join(unicodedata.normalize("NFC", text).casefold().split())


_BRACKETED = re.compile(r"^(.*?)\s*\(\s*(.*?)\s*\)$")


def bot_shaped(folded: str) -> tuple[str, str] | None:
    """A skeleton of the form ``name (kind)``, as the tables name their bots (spaces or none around the
    brackets), split into ``(name, kind)``; None for any other form."""
    m = _BRACKETED.match(folded)
    return (m.group(1), m.group(2)) if m else None
