"""``bigtwo replay FILE``: step through a record, every hand visible; a viewer (Textual) and a plain printout."""

from __future__ import annotations

from typing import ClassVar

from rich.console import Console, Group
from rich.markup import escape
from rich.table import Table
from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.widgets import Footer, Static

from bigtwo.cards import card
from bigtwo.cli.widgets import CardsPanel, CardStyles
from bigtwo.cli.words import Wording, card_face, plural
from bigtwo.exchange import NEUTRAL
from bigtwo.record.build import ordinal
from bigtwo.record.frames import Frame
from bigtwo.record.model import Record
from bigtwo.words import TABLE_NAMES, bracketed, spec_name


def _cards_text(notation: str, styles: CardStyles | None) -> Text:
    # in the record's order (the rules' order); a trailing ' marks a second deck's copy
    cards = [card(t.rstrip("'"), copy=1 if t.endswith("'") else 0) for t in notation.split()]
    if styles is None:
        return Text(" ".join(card_face(c) for c in cards))
    return styles.text(cards)


def replay_words(record: Record) -> Wording:
    """The names the replay uses, as the table did: "You" for the human who saved it, a computer player's name at
    the table (recorded as ``Ana (learned)``, its bot shown beside; an older record's bare bot gets the table's
    name for its seat, :data:`TABLE_NAMES` in seat order with the human's seat skipped), a person's own name."""
    you = record.names.index("you") if "you" in record.names else -1
    names = []
    for s, name in enumerate(record.names):
        called, bot = computer_player(name)
        if s == you:
            names.append("You")
        elif bot is not None and called is None:
            k = s - (0 <= you < s)  # the table's k-th computer player
            names.append(TABLE_NAMES[k] if k < len(TABLE_NAMES) else f"Seat {s}")
        else:
            names.append(called or name)
    return Wording(you, [name if names.count(name) == 1 else f"{name} ({s})" for s, name in enumerate(names)])


def _player(record: Record, words: Wording, s: int) -> str:
    """A seat in the seat list: its name, and the bot that played it."""
    name = words.name(s)
    bot = computer_player(record.names[s])[1] if s < len(record.names) and s != words.seat else None
    return f"{name} {bot}" if bot else name


def computer_player(name: str) -> tuple[str | None, str | None]:
    """A record's player as (the name the table gave it, its bot): ``Ana (learned)`` is ('Ana', 'learned'), an
    older record's bare ``search(iterations=40)`` (None, the bot) or empty name (None, ''), a person (None, None)."""
    from bigtwo.cli.session import available_bots

    bots = available_bots()
    if not name:
        return None, ""  # a computer player whose bot the record does not say
    if spec_name(name) in bots:
        return None, name
    split = bracketed(name)
    if split is not None and split[0] and spec_name(split[1]) in bots:
        return split
    return None, None


def seat_rows(record: Record, f: Frame, styles: CardStyles | None) -> Table:
    """Every seat: name, cards held (all visible), and its state at this position."""
    words = replay_words(record)
    t = Table(box=None, show_header=False, padding=(0, 1), expand=True)
    t.add_column("", width=1, no_wrap=True)
    t.add_column("seat", no_wrap=True, width=16, overflow="ellipsis")
    t.add_column("n", justify="right", width=2)
    t.add_column("cards", ratio=1)
    for s, hand in enumerate(f.hands):
        state = []
        if s in f.finished:
            state.append(f"out {ordinal(f.finished.index(s) + 1)}")
        elif s in f.passed:
            state.append("passed")
        if f.roles and f.roles[s] != NEUTRAL:
            state.append(f.roles[s])
        cards = _cards_text(hand, styles)
        if state:
            cards.append(f"  ({', '.join(state)})", style="dim")
        name = _player(record, words, s)
        count = len(hand.split()) if hand else 0
        t.add_row("▶" if f.to_move == s else "", escape(name), str(count), cards, style="bold" if f.actor == s else "")
    return t


def label(record: Record, f: Frame) -> str:
    """A step in words: names, the table's card faces."""
    return replay_words(record).render(f.label)


def _scores(record: Record, head: str, values: list[int]) -> str:
    words = replay_words(record)
    return f"{head}: " + "  ".join(f"{words.name(s)} {x:+d}" for s, x in enumerate(values))


def table_lines(record: Record, f: Frame, styles: CardStyles | None) -> Group:
    words = replay_words(record)
    lines = [Text(words.render(f.label), style="bold")]
    if f.trick:
        t = Text("To beat: ")
        t.append_text(_cards_text(f.trick, styles))
        t.append(f" by {words.object(f.trick_seat or 0)}", style="dim")
        lines.append(t)
    if f.face_up:
        t = Text("Face up: ")
        t.append_text(_cards_text(f.face_up, styles))
        lines.append(t)
    if f.stock:
        lines.append(Text(f"Stock: {plural(f.stock, 'card')}"))
    if f.scores is not None:
        lines.append(Text(_scores(record, "Scores", f.scores)))
    if f.totals is not None:
        lines.append(Text(_scores(record, "Totals", f.totals)))
    return Group(*lines)


def print_replay(record: Record, frames: list[Frame], console: Console, at: int | None = None) -> None:
    """The replay as text: headers, then every step (or, with ``at``, the whole position after that step)."""
    rules = escape(str(record.rules.get("name", "custom")))
    result = escape(replay_words(record).render(record.result))
    console.print(f"[bold]{record.kind.title()} of {rules}[/bold], {record.players} players. Result: {result}")
    if at is not None:
        if not 0 <= at < len(frames):
            raise ValueError(f"--at {at}: the record has steps 0-{len(frames) - 1}")
        f = frames[at]
        console.print(f"Step {at} of {len(frames) - 1}, round {f.round}")
        console.print(table_lines(record, f, None))
        console.print(seat_rows(record, f, None))
        return
    for i, f in enumerate(frames):
        first_of_deal = i == 0 or f.trick_number == 0
        console.print(f"[dim]{i:>3}[/dim] {escape(label(record, f))}")
        if first_of_deal:
            console.print(seat_rows(record, f, None))
        if f.scores is not None:
            console.print("    " + escape(_scores(record, "Scores", f.scores)))
        if f.totals is not None:
            console.print("    " + escape(_scores(record, "Totals", f.totals)))


class ReplayApp(App[None]):
    """Forwards and backwards through a record, every hand visible."""

    TITLE = "bigtwo replay"
    CSS = """
    #title { height: 1; background: $primary; color: $text; padding: 0 1; }
    #top { height: auto; }
    #table { width: 1fr; height: auto; min-height: 4; border: round $secondary; padding: 0 1; }
    #seats { height: auto; border: round $accent; padding: 0 1; }
    #steps { height: 1fr; border: round $panel; padding: 0 1; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("right,space,l", "step(1)", "Next"),
        Binding("left,backspace,h", "step(-1)", "Back"),
        Binding("down,j", "trick(1)", "Next trick"),
        Binding("up,k", "trick(-1)", "Trick back"),
        Binding("pagedown,n", "round(1)", "Next round"),
        Binding("pageup,p", "round(-1)", "Round back"),
        Binding("home", "jump(0)", "Start", show=False),
        Binding("end", "jump(-1)", "End", show=False),
        Binding("q", "quit", "Quit"),
    ]

    def __init__(self, record: Record, frames: list[Frame], theme: str | None = None):
        super().__init__()
        self.record = record
        self.frames = frames
        self.words = replay_words(record)
        self.index = 0
        if theme:
            self.theme = theme

    def compose(self) -> ComposeResult:
        yield Static(id="title")
        with Horizontal(id="top"):
            yield CardsPanel(id="table")
        yield CardsPanel(id="seats")
        yield Static(id="steps")
        yield Footer()

    def on_mount(self) -> None:
        self.show()

    @property
    def frame(self) -> Frame:
        return self.frames[self.index]

    def show(self) -> None:
        r, f = self.record, self.frame
        rules = r.rules.get("name", "custom")
        self.query_one("#title", Static).update(
            Text(
                f"{rules} · {r.kind} · round {f.round} · step {self.index}/{len(self.frames) - 1} · "
                f"{self.words.render(r.result)}"
            )
        )
        table = self.query_one("#table", CardsPanel)
        table.update(table_lines(r, f, table.styles_for_cards))
        seats = self.query_one("#seats", CardsPanel)
        seats.update(seat_rows(r, f, seats.styles_for_cards))
        recent = [
            self.words.render(g.label)
            for g in self.frames[max(0, self.index - 40) : self.index + 1]
            if g.round == f.round
        ]
        steps = self.query_one("#steps", Static)
        height = max(1, steps.size.height - 2) if self.is_mounted(steps) else 8
        steps.update(Text("\n".join(recent[-height:]), style="dim"))

    def action_step(self, k: int) -> None:
        self.index = max(0, min(len(self.frames) - 1, self.index + k))
        self.show()

    def _seek(self, k: int, key: object) -> None:
        i = self.index
        here = key(self.frames[i])  # type: ignore[operator]
        while 0 <= i + k < len(self.frames):
            i += k
            if key(self.frames[i]) != here:  # type: ignore[operator]
                break
        if k < 0:  # to the first step of that trick or round
            there = key(self.frames[i])  # type: ignore[operator]
            while i > 0 and key(self.frames[i - 1]) == there:  # type: ignore[operator]
                i -= 1
        self.index = i
        self.show()

    def action_trick(self, k: int) -> None:
        self._seek(k, lambda f: (f.round, f.trick_number))

    def action_round(self, k: int) -> None:
        self._seek(k, lambda f: f.round)

    def action_jump(self, where: int) -> None:
        self.index = where % len(self.frames)
        self.show()
