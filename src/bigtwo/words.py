"""How the tables word things for a player: names for seats, plurals, one card notation, and engine messages.

Shared by the terminal tables (:mod:`bigtwo.cli.words` adds rich markup) and the server's browser table, so
both say the same thing the same way; it sits below both layers and imports only the cards.

The engine speaks in seat numbers and record notation, and cites the rule texts it follows ("seat 0 does not
hold 5D", "... (003 section 3.2.2)"): right for records, logs and tests, wrong for a player, who reads names
("You do not hold 5♦"), the table's own card faces, and no citations (those stay in the docs and tests).
:class:`Wording` turns the one into the other, so every message of a table reads the same way.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from decimal import Decimal
from math import isfinite
from typing import Any

from bigtwo.cards import card
from bigtwo.i18n import ENGLISH, N_, _, current, language, ngettext

# a card in record notation: 2-9, T (or 10), J, Q, K, A and a suit letter (a trailing ' marks a second copy)
_CARD = re.compile(r"(?<![\w'♦♣♥♠])(?:10|[2-9TJQKA])[DCHS]'?(?![\w'])")
# "seat 3", "seats 0 and 2", "P3" (records), with a possessive and the verb that follows
_SEAT = re.compile(r"\b(?:[Ss]eat (\d)|P(\d))\b('s)?(?: ([a-z]+)\b)?")
_SEATS = re.compile(r"\b[Ss]eats (\d) and (\d)\b")
# a citation of a source text: "(003 section 3.2.2)", "(000 End Game)", "(003 section 3.2.2.2.2, the privacy rule)"
_CITED_WITH_NOTE = re.compile(r"\(\d{3} sections? [\d.]+(?:(?:,| and) [\d.]+)*, ([^()]+)\)")
_CITATION = re.compile(r"\s*\(\d{3}\b[^()]*\)")
# a ten inside a run of ranks ("7-8-9-T-J"): written 10 as on the cards
_RUN_TEN = re.compile(r"(?<=[\dJQKA]-)T\b|\bT(?=-[JQKA\d])")
# "1 cards" (an engine message counting without a plural rule): one thing is singular
_ONE_OF = re.compile(r"(?<![\d.,])(?<![Ss]eat )(?<!Round )\b1 (card|play|point|round|place|trick|game|deal)s\b")
_IRREGULAR = {"is": "are", "was": "were", "has": "have", "does": "do", "goes": "go"}
_NOT_VERBS = {"its", "this", "plus", "less", "us", "as", "always", "was"}


# the combination kinds' names as players say them (the rules' ``Kind`` words, which this layer may not import)
KIND_NAMES: dict[str, str] = {
    "single": N_("single"),
    "pair": N_("pair"),
    "triple": N_("triple"),
    "quad": N_("four of a kind"),
    "two_pairs": N_("two pairs"),
    "straight": N_("straight"),
    "flush": N_("flush"),
    "full_house": N_("full house"),
    "four_of_a_kind": N_("four of a kind"),
    "straight_flush": N_("straight flush"),
    "royal_flush": N_("royal flush"),
    "two_pair_junk": N_("two pairs and a junk card"),
    "triple_junk": N_("triple and two junk cards"),
    "sisters": N_("sisters"),
    "pair_straight": N_("pair straight"),
    "triple_straight": N_("triple straight"),
    "five_of_a_kind": N_("five of a kind"),
    "joker_pair": N_("joker pair"),
    "dragon": N_("dragon"),
}
SUIT_WORDS: dict[str, str] = {"D": N_("diamonds"), "C": N_("clubs"), "H": N_("hearts"), "S": N_("spades")}
# each preset's name as its players call it (the lobby's menu, the terminal's heading); the file names stay the
# presets' identifiers
PRESET_TITLES: dict[str, str] = {
    "classic": N_("Big Two"),
    "bga": N_("Big Two (Board Game Arena)"),
    "chor-dai-di": N_("Chor Dai Di"),
    "hong-kong": N_("Big Two (Hong Kong)"),
    "house-code": N_("Big Two (the written house code)"),
    "indonesia": N_("Capsa (Indonesia)"),
    "malaysia": N_("Big Two (Malaysia)"),
    "president": N_("President"),
    "pusoy-dos": N_("Pusoy Dos"),
    "singapore": N_("Big Two (Singapore)"),
    "taiwan": N_("Big Two (Taiwan)"),
    "tien-len": N_("Tien Len"),
    "vietnam": N_("Tien Len (Big Two rules)"),
    "winner": N_("Winner"),
    "zheng-shangyou": N_("Zheng Shangyou"),
}


def kind_name(kind: str) -> str:
    """A combination kind's name in the player's language (``full_house``: ``full house``, 葫蘆 ...)."""
    return _(KIND_NAMES[kind]) if kind in KIND_NAMES else kind.replace("_", " ")


def preset_title(name: str) -> str:
    """A preset's name as its players say it (``chor-dai-di``: 鋤大弟 in Hong Kong's Chinese); the identifier
    for a preset without one."""
    return _(PRESET_TITLES[name]) if name in PRESET_TITLES else name


def description(text: str) -> str:
    """A preset's description (from its file: the catalogs hold them) in the player's language."""
    return _(text) if text else text


# what a terminal table calls its computer players, in seat order, the person's seat skipped (eight seats at most)
TABLE_NAMES = ("Ana", "Ben", "Chloe", "Dev", "Eli", "Fay", "Gus", "Hana")
NAME_LENGTH = 16  # the longest name a table shows (the full-screen table's seat boxes are narrow)


def bracketed(name: str) -> tuple[str, str] | None:
    """A name of the form ``Name (kind)``, as the tables name their bots, split into ``('Name', 'kind')``; None
    for a name of any other form."""
    called, sep, rest = name.partition(" (")
    return (called, rest[:-1]) if sep and rest.endswith(")") else None


def spec_name(spec: str) -> str:
    """The registered bot a spec names: ``search(iterations=40)`` and ``search:iterations=40`` are ``search``."""
    return spec.split("(", 1)[0].split(":", 1)[0].strip()


def table_names(seat: int, n: int, given: Sequence[str] | None = None) -> list[str]:
    """Every seat's name at a table of ``n`` seats with the person in ``seat`` (``"You"``): the computer players
    get ``given`` (one each, in seat order) or :data:`TABLE_NAMES`. A wrong count, an empty, long or repeated
    name, or one that reads as the person ("you") is refused in words."""
    others = n - 1
    if given is None:
        chosen = list(TABLE_NAMES[:others])
    else:
        chosen = [name.strip() for name in given]
        if len(chosen) != others:
            given_n = ngettext("--names gives {n} name", "--names gives {n} names", len(chosen)).format(n=len(chosen))
            wanted = ngettext("for {n} computer player", "for {n} computer players", others).format(n=others)
            raise ValueError(
                _("{given} {wanted}: one each, in seat order, separated by commas").format(given=given_n, wanted=wanted)
            )
        for name in chosen:
            if not name or len(name) > NAME_LENGTH or not name.isprintable():
                message = _("{name} is not a name a table can show: 1 to {n} printable characters")
                raise ValueError(message.format(name=repr(name), n=NAME_LENGTH))
            if name.casefold() == "you":
                raise ValueError(_("{name} is what the table calls you: choose another name").format(name=repr(name)))
            if sum(other.casefold() == name.casefold() for other in chosen) > 1:
                message = _("{name} is given to two players: every name must be different")
                raise ValueError(message.format(name=repr(name)))
    chosen.reverse()
    return [_("You") if s == seat else chosen.pop() for s in range(n)]


def plural(n: float, word: str, many: str | None = None) -> str:
    """``1 card``, ``2 cards`` (``many`` for an irregular plural). A quantity may be fractional, as a setting in
    minutes is: ``1 minute``, ``0.5 minutes``, ``1.5 minutes``; a whole one reads as a whole number (``2.0`` as
    ``2 minutes``), and none in powers of ten (``0.00001``, not ``1e-05``)."""
    return f"{_number(n)} {word if n == 1 else many or word + 's'}"


def place_said(place: int) -> str:
    """A finishing place in the player's language: ``1st``, ``第1名``, ``ika-1``."""
    suffix = "th" if place % 100 in (11, 12, 13) else {1: "st", 2: "nd", 3: "rd"}.get(place % 10, "th")
    # English's suffix picks the message; other languages word all four alike
    said = {"st": _("{n}st"), "nd": _("{n}nd"), "rd": _("{n}rd")}.get(suffix) or _("{n}th")
    return said.format(n=place)


def _number(n: float) -> str:
    """A quantity as a player reads it: ``3``, ``0.5``; a whole float without its ``.0``."""
    if isinstance(n, float) and isfinite(n):
        return str(int(n)) if n.is_integer() else format(Decimal(repr(n)), "f")
    return str(n)


# each of the rules' ``direction`` words (``bigtwo.rules.choices.Direction``, which this layer may not import;
# tests/test_table_words.py holds the keys equal to its members): the side play passes to, seen from above, and
# its arrow
_WAYS: dict[str, tuple[str, str]] = {"clockwise": ("left", "↻"), "counter-clockwise": ("right", "↺")}


def direction_said(direction: str, players: int) -> dict[str, str] | None:
    """Which way play goes round the table (the rules' ``direction``), in the words every table uses; None at two
    players, where play goes back and forth. Seen from above, clockwise play passes to the left:

    - ``long``: ``Play passes to the left (clockwise)``
    - ``short``: ``Play passes to the left``, for beside the ``arrow`` (``↻``; counter-clockwise ``↺``)
    - ``listed``: ``Play passes to the left (clockwise): the seats are listed in the order of play.``, under a
      list of the seats in seat order (the waiting room's, the replay's), which is the order of play."""
    if players < 3:
        return None
    side, arrow = _WAYS[direction]
    if side == "left":
        short, long = _("Play passes to the left"), _("Play passes to the left (clockwise)")
    else:
        short, long = _("Play passes to the right"), _("Play passes to the right (counter-clockwise)")
    return {
        "long": long,
        "short": short,
        "arrow": arrow,
        "listed": _("{way}: the seats are listed in the order of play.").format(way=long),
    }


def play_direction(direction: str, players: int, short: bool = False) -> str | None:
    """:func:`direction_said` as one line: the ``long`` words, or (``short``) the arrow and the ``short`` words
    (``↺ Play passes to the right``); None at two players."""
    said = direction_said(direction, players)
    if said is None:
        return None
    return f"{said['arrow']} {said['short']}" if short else said["long"]


def card_face(c: Any, ascii_cards: bool = False) -> str:
    """``10♦``, ``3♣``, ``BJ`` (``10D``, ``3C`` with ``ascii_cards``): a card as the tables show it."""
    if c.is_joker:
        return str(c)
    text = str(c) if ascii_cards else c.symbol()
    return text.replace("T", "10", 1)


def faces(cards: Iterable[Any], ascii_cards: bool = False) -> str:
    return " ".join(card_face(c, ascii_cards) for c in cards)


def _you_form(verb: str) -> str:
    """The verb after "you": ``pays`` -> ``pay``, ``passes`` -> ``pass``, ``has`` -> ``have``."""
    if verb in _IRREGULAR:
        return _IRREGULAR[verb]
    if verb in _NOT_VERBS or not verb.endswith("s") or verb.endswith("ss") or len(verb) < 3:
        return verb
    if verb.endswith(("sses", "shes", "ches", "xes", "zes")):
        return verb[:-2]
    return verb[:-1]


def _sentence_start(text: str, at: int, opens: bool) -> bool:
    before = text[:at].rstrip()
    return opens if not before else before.endswith((".", "!", "?"))


class Wording:
    """The words of one table: who "you" are, what the other seats are called, and how cards are written."""

    def __init__(self, seat: int | None, names: Sequence[str] | None = None, ascii_cards: bool = False):
        self.seat = seat
        self.names = list(names) if names is not None else None
        self.ascii = ascii_cards

    def name(self, s: int) -> str:
        """``You`` or the seat's name at this table (``Seat 2`` unless the table gives names); a spectator's
        table (``seat`` None) has no "you"."""
        if s == self.seat:
            return _("You")
        if self.names is not None and s < len(self.names) and self.names[s]:
            return self.names[s]
        return _("Seat {n}").format(n=s)

    def object(self, s: int) -> str:
        """A seat after a verb or preposition: ``you``, ``Seat 2``."""
        return _("you") if s == self.seat else self.name(s)

    def said(self, s: int, you: str, other: str, **values: Any) -> str:
        """One of two translated sentences, the seat's own (``you``: "You play {cards}") or another's
        (``other``: "{who} plays {cards}", ``who`` the seat's name), filled with ``values``: whole sentences, so
        each language words both (English's verb agreement is not every language's)."""
        if s == self.seat:
            return you.format(**values)
        return other.format(who=self.name(s), **values)

    def play_words(self, english: str, kind: str) -> str:
        """A play described: the engine's English description (``a pair of 9s``) in English, the combination's
        name in the player's language otherwise (the engine's sentences are English only)."""
        return english if current() == ENGLISH else kind_name(kind)

    def subject(self, s: int, verb: str) -> str:
        """``You pay``, ``Seat 2 pays``: the seat and the verb (given in the third person) agreeing."""
        return f"{self.name(s)} {self.verb(s, verb)}"

    def verb(self, s: int, verb: str) -> str:
        """The verb (given in the third person) as it agrees with the seat: ``pay`` for you, ``pays`` else."""
        return _you_form(verb) if s == self.seat else verb

    def face(self, c: Any) -> str:
        return card_face(c, self.ascii)

    def token(self, token: str) -> str:
        """One card of record notation as this table writes it."""
        return self.face(card(token.rstrip("'"), copy=1 if token.endswith("'") else 0))

    def cards(self, tokens: Iterable[str]) -> str:
        return " ".join(self.token(t) for t in tokens)

    def render(self, message: Any, opens: bool = True) -> str:
        """An engine message for the player: names for seats (verbs agreeing), the table's card faces, and
        no citations of the rule texts. ``opens``: the message starts a sentence (else it follows a colon).
        Plain text (the terminal's :meth:`bigtwo.cli.words.Wording.markup` escapes it for rich).

        The engine's sentences are English, so the seats they name are named in English too ("You pay 4", not
        the player's language's word for "you" inside an English sentence)."""
        with language(ENGLISH):
            return self._render(message, opens)

    def _render(self, message: Any, opens: bool) -> str:
        text = str(message)
        text = _CITED_WITH_NOTE.sub(lambda m: f"({m.group(1)})", text)
        text = _CITATION.sub("", text)
        text = _SEATS.sub(lambda m: self._pair(m, text, opens), text)
        text = _SEAT.sub(lambda m: self._seat(m, text, opens), text)
        text = _CARD.sub(lambda m: self.token(m.group(0)), text)
        text = _RUN_TEN.sub("10", text)
        text = _ONE_OF.sub(r"1 \1", text)
        if not text or not opens:
            return text
        if any(name and text.startswith(name) for name in self.names or ()):
            return text  # a name is written as its player wrote it ("alice_nu pays 6")
        return text[:1].upper() + text[1:]

    def _pair(self, m: re.Match[str], text: str, opens: bool) -> str:
        a, b = int(m.group(1)), int(m.group(2))
        first = self.name(a) if _sentence_start(text, m.start(), opens) else self.object(a)
        return f"{first} and {self.object(b)}"

    def _seat(self, m: re.Match[str], text: str, opens: bool) -> str:
        s = int(m.group(1) or m.group(2))
        possessive, verb = m.group(3), m.group(4)
        start = _sentence_start(text, m.start(), opens)
        if possessive:
            who = ("Your" if start else "your") if s == self.seat else f"{self.name(s)}'s"
        else:
            who = self.name(s) if start or s != self.seat else self.object(s)
        if verb is None:
            return who
        if s == self.seat and not possessive:
            verb = _you_form(verb)
        return f"{who} {verb}"


__all__ = [
    "KIND_NAMES",
    "PRESET_TITLES",
    "Wording",
    "card_face",
    "description",
    "direction_said",
    "faces",
    "kind_name",
    "place_said",
    "play_direction",
    "plural",
    "preset_title",
]
