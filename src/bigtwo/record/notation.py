"""Cards as records write them: the package's notation, with the second deck's copy of a card marked ``'``.

With two decks the copies of a card play alike, but which copy a seat holds can matter (the holder of the
first 3D leads), so a record names copies exactly: ``3D 3D'`` is both 3Ds, ``3D'`` the second one alone. An
unmarked card repeated in one list still means the next copy, as everywhere in the package.
"""

from __future__ import annotations

import re
from typing import Any

from bigtwo.cards import CARDS, DECK_SIZE, card, free_copy
from bigtwo.errors import CardParseError

_SPLIT = re.compile(r"[\s,;]+")


def write_cards(ev: Any, mask: int) -> str:
    """Cards lowest first under the rules, the second copy of a card marked ``'``."""
    return " ".join(str(c) + ("'" if c.copy else "") for c in ev.sort_cards(mask))


def read_cards(text: str) -> int:
    """The mask of cards written by :func:`write_cards` (or plain notation); a bad token raises CardParseError."""
    mask = 0
    plain = []
    for token in _SPLIT.split(text.strip()):
        if not token:
            continue
        if token.endswith("'"):
            c = card(token[:-1].strip(), copy=1)
            if mask >> c & 1:
                raise CardParseError(token, f"{token} appears twice")
            mask |= 1 << c
        else:
            plain.append(token)
    for token in plain:
        mask |= free_copy(mask, int(card(token)), token)
    return mask


def shown(mask: int) -> str:
    """Cards in index order with copies marked (for messages)."""
    return " ".join(str(CARDS[i]) + ("'" if i >= DECK_SIZE else "") for i in range(2 * DECK_SIZE) if mask >> i & 1)
