"""Widgets shared by the table and the replay viewer: a hand of cards, and how cards and seats are drawn.

Colours come from the Textual theme (``$text-error`` for red suits, the theme's text colour for black ones,
reverse video for a selection), so they read on dark and light themes alike, including the ``ansi-*``
themes that keep the terminal's own background.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import Any, ClassVar

from rich.style import Style
from rich.text import Text
from textual.binding import Binding, BindingsMap, BindingType
from textual.reactive import reactive
from textual.widget import Widget
from textual.widgets import Static

from bigtwo.cards import Card
from bigtwo.cli.words import card_face
from bigtwo.i18n import N_, _


class CardStyles:
    """Rich styles for cards under the running app's theme (looked up from a widget's component classes)."""

    def __init__(self, widget: Widget):
        self.ascii = bool(getattr(widget, "ascii_cards", False))  # --ascii: 10H, not 10♥
        self.red = widget.get_component_rich_style("cards--red")
        self.black = widget.get_component_rich_style("cards--black")
        self.joker = widget.get_component_rich_style("cards--joker")

    def of(self, c: Card) -> Style:
        if c.is_joker:
            return self.joker
        return self.red if c.suit in (0, 2) else self.black

    def text(self, cards: Iterable[Card], sep: str = " ") -> Text:
        out = Text()
        for i, c in enumerate(cards):
            if i:
                out.append(sep)
            out.append(card_face(c, self.ascii), self.of(c))
        return out


CARD_CSS = """
    .cards--red { color: $text-error; text-style: bold; }
    .cards--black { color: $text; text-style: bold; }
    .cards--joker { color: $text-accent; text-style: bold; }
"""


def said_bindings(node: Any) -> None:
    """The node's key bindings described in the player's language (the footer shows them): the descriptions are
    written in English and marked with ``N_`` in the classes, which are built before anyone's language is known."""
    keys = {
        key: [replace(b, description=_(b.description)) if b.description else b for b in bindings]
        for key, bindings in node._bindings.key_to_bindings.items()
    }
    node._bindings = BindingsMap.from_keys(keys)


class HandView(Widget, can_focus=True):
    """A hand as a row of cards: a cursor to move, cards to select (reverse video), wrapped to the width."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {"cards--red", "cards--black", "cards--joker", "hand--cursor"}
    DEFAULT_CSS = """
    HandView { height: auto; min-height: 2; padding: 0 1; }
    HandView .hand--cursor { text-style: bold underline; }
    """ + CARD_CSS.replace(".cards", "HandView .cards")
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "move(-1)", N_("Left"), show=False),
        Binding("right", "move(1)", N_("Right"), show=False),
        Binding("home", "jump(0)", show=False),
        Binding("end", "jump(-1)", show=False),
        Binding("space", "toggle_card", N_("Select"), show=True),
        Binding("up", "pick(True)", N_("Select"), show=False),
        Binding("down", "pick(False)", N_("Unselect"), show=False),
    ]

    cursor: reactive[int] = reactive(0)
    CHIP = 4  # cells per card: "10♦ "

    def __init__(self, **kwargs: Any):
        super().__init__(**kwargs)
        said_bindings(self)
        self.cards: list[Card] = []
        self.selected: set[int] = set()
        self.active = True  # False: the cards are shown, not offered (not your turn)
        self.ascii_cards = False  # --ascii: cards as letters (10H), read by CardStyles

    def set_cards(self, cards: list[Card]) -> None:
        """Show ``cards`` (lowest first), keeping the selection of cards still held."""
        held = {int(c) for c in cards}
        self.selected &= held
        self.cards = list(cards)
        self.cursor = min(self.cursor, max(len(cards) - 1, 0))
        self.refresh(layout=True)

    @property
    def selected_mask(self) -> int:
        m = 0
        for c in self.selected:
            m |= 1 << c
        return m

    def select_mask(self, mask: int) -> None:
        self.selected = {int(c) for c in self.cards if mask >> int(c) & 1}
        self.refresh()

    def clear(self) -> None:
        self.selected = set()
        self.refresh()

    def action_move(self, step: int) -> None:
        if self.cards:
            self.cursor = (self.cursor + step) % len(self.cards)

    def action_jump(self, where: int) -> None:
        if self.cards:
            self.cursor = where % len(self.cards)

    def action_toggle_card(self) -> None:
        if self.cards:
            c = int(self.cards[self.cursor])
            self.selected ^= {c}
            self.refresh()

    def action_pick(self, on: bool) -> None:
        if self.cards:
            c = int(self.cards[self.cursor])
            if on:
                self.selected.add(c)
            else:
                self.selected.discard(c)
            self.refresh()

    def watch_cursor(self) -> None:
        self.refresh()

    def per_row(self) -> int:
        return max(1, (self.size.width - 2) // self.CHIP) if self.size.width else 19

    def get_content_height(self, container: Any, viewport: Any, width: int) -> int:
        per = max(1, width // self.CHIP)
        return max(1, -(-len(self.cards) // per)) * 2

    def render(self) -> Text:
        if not self.cards:
            return Text("(no cards)", style="dim")
        styles = CardStyles(self)
        cursor_style = self.get_component_rich_style("hand--cursor")
        per = self.per_row()
        out = Text()
        for start in range(0, len(self.cards), per):
            row = self.cards[start : start + per]
            marks = Text()
            for j, c in enumerate(row, start):
                face = card_face(c, styles.ascii).ljust(3)
                style = styles.of(c)
                if int(c) in self.selected:
                    style = style + Style(reverse=True)
                out.append(face, style)
                out.append(" ")
                here = j == self.cursor and self.has_focus and self.active
                mark = "^^^" if here else ("───" if int(c) in self.selected else "   ")
                marks.append(mark + " ", cursor_style if here else "")
            out.append("\n")
            out.append_text(marks)
            if start + per < len(self.cards):
                out.append("\n")
        return out


class CardsPanel(Static):
    """A text panel that draws cards in the theme's card colours (see :class:`CardStyles`)."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {"cards--red", "cards--black", "cards--joker"}
    DEFAULT_CSS = CARD_CSS.replace(".cards", "CardsPanel .cards")

    ascii_cards = False  # --ascii: cards as letters (10H), read by CardStyles

    @property
    def styles_for_cards(self) -> CardStyles:
        return CardStyles(self)
