"""The full-screen card table (Textual): ``bigtwo play`` in a terminal.

The seats with their card counts and states, the trick to beat and who played it, a log of the round, your
hand as cards to select with the keyboard (or type as notation), the scores between rounds, exchange
decisions, a hint, an explanation of why a selection is not legal, undo against the computer players, and a
record of the game to save. The game itself lives in :class:`~bigtwo.cli.session.TableSession`.
"""

from __future__ import annotations

import contextlib
import time
from pathlib import Path
from typing import Any, ClassVar

from rich.console import Group
from rich.markup import escape
from rich.table import Table
from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Footer, Input, RichLog, Static

from bigtwo.actions import DecisionKind
from bigtwo.cards import CardSet, held_copies, to_mask
from bigtwo.cli.session import TableSession, bound_text, decision_question, procedure_text
from bigtwo.cli.widgets import CardsPanel, CardStyles, HandView, said_bindings
from bigtwo.cli.words import play_direction
from bigtwo.errors import BigTwoError, CardParseError
from bigtwo.exchange import NEUTRAL
from bigtwo.i18n import N_, _, ngettext
from bigtwo.observation import Phase
from bigtwo.rules.kinds import Kind
from bigtwo.words import place_said, preset_title, spec_name

KEYS_HELP = """\
[b]Your hand[/b]   left/right move   space select   up/down select/unselect   c clear
[b]Play[/b]        enter play the selected cards   p pass   / or t type cards (e.g. 9h 9s), enter
[b]Help[/b]        h hint   e explain why the selection is (not) legal   l list the legal plays
[b]Table[/b]       u undo your last turn   s save the record   a announce 'last card' (when the rules ask)
            r ask for a new deal / w swap the leftover card (when the rules allow)
            n next round or new game   ? this help   q quit (asks first; offers to save)
[dim]Exchanges: select the cards to give and press enter; questions and choices are typed (/).[/dim]"""


class InfoScreen(ModalScreen[str | None]):
    """A panel over the table (scores, a result, help); its keys answer with a word the app acts on."""

    DEFAULT_CSS = """
    InfoScreen { align: center middle; }
    InfoScreen > Vertical { width: 78; max-width: 100%; height: auto; max-height: 100%;
                            border: thick $accent; background: $surface; padding: 0 1; }
    InfoScreen #scroll { width: 100%; height: auto; max-height: 18; }
    InfoScreen #body { width: 100%; height: auto; }
    InfoScreen #keys { color: $text-muted; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,enter", "answer('close')", "Close"),
        Binding("n", "answer('next')", "Next"),
        Binding("s", "answer('save')", "Save"),
        Binding("u", "answer('undo')", "Undo", show=False),
        Binding("q", "answer('quit')", "Quit"),
    ]

    def __init__(self, body: Any, keys: str, name: str = "info"):
        super().__init__(name=name)
        self.body = body
        self.keys = keys

    def compose(self) -> ComposeResult:
        with Vertical():
            with VerticalScroll(id="scroll"):
                yield Static(self.body, id="body")
            yield Static(self.keys, id="keys")

    def on_mount(self) -> None:
        self.query_one("#scroll").focus()  # up/down, page up/down scroll a long panel

    def action_answer(self, word: str) -> None:
        if word in ("save", "undo"):
            self.app.call_later(getattr(self.app, f"action_{word}"))
            if word == "save":
                return
        self.dismiss(word)


class SaveScreen(ModalScreen[str | None]):
    """Ask where to save the record (.json for the JSON form, anything else for the text form)."""

    DEFAULT_CSS = """
    SaveScreen { align: center middle; }
    SaveScreen > Vertical { width: 70; height: auto; border: thick $accent; background: $surface; padding: 0 1; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, default: str):
        super().__init__()
        self.default = default

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(_("Save the record to (.json for JSON):"))
            yield Input(value=self.default, id="path")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.dismiss(event.value.strip() or None)

    def action_cancel(self) -> None:
        self.dismiss(None)


class QuitScreen(ModalScreen[str | None]):
    """Leaving the table: confirm, and offer to save the record first (an unfinished game too)."""

    DEFAULT_CSS = """
    QuitScreen { align: center middle; }
    QuitScreen > Vertical { width: 64; max-width: 100%; height: auto; border: thick $error; background: $surface;
                            padding: 0 1; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y,q", "answer('quit')", "Quit"),
        Binding("s", "answer('save')", "Save and quit"),
        Binding("n,escape", "answer('stay')", "Stay"),
    ]

    def __init__(self, question: str | Text, keys: str):
        super().__init__()
        self.question = question
        self.keys = keys

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(self.question, id="question")
            yield Static(self.keys, id="keys")

    def action_answer(self, word: str) -> None:
        self.dismiss(word)


MIN_WIDTH, MIN_HEIGHT = 80, 24  # the smallest terminal the full-screen table is drawn for


class TableApp(App[None]):
    """The table: one human seat (``session.seat``) and computer players."""

    TITLE = "bigtwo"
    CSS = """
    Screen { layout: vertical; }
    #title { height: 1; background: $primary; color: $text; padding: 0 1; }
    #top { height: auto; max-height: 11; }
    #seats { width: 46; height: auto; border: round $secondary; padding: 0 1; }
    #table { width: 1fr; height: auto; min-height: 4; border: round $secondary; padding: 0 1; }
    #log { height: 1fr; min-height: 3; border: round $panel; padding: 0 1; scrollbar-size-vertical: 1; }
    #hand { border: round $accent; }
    #hand:focus { border: round $accent-lighten-2; }
    #message { height: auto; min-height: 1; max-height: 3; padding: 0 1; }
    #message.bad { color: $text-error; }
    #message.good { color: $text-success; }
    #entry { height: 1; border: none; padding: 0 1; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "play", N_("Play")),
        Binding("p", "pass_turn", N_("Pass")),
        Binding("h", "hint", N_("Hint")),
        Binding("e", "explain", N_("Explain")),
        Binding("u", "undo", N_("Undo")),
        Binding("s", "save", N_("Save")),
        Binding("slash,t", "type", N_("Type")),
        Binding("question_mark", "help", N_("Keys")),
        Binding("q", "ask_quit", N_("Quit")),
        Binding("c", "clear", N_("Clear"), show=False),
        Binding("l", "legal", N_("Legal"), show=False),
        Binding("a", "announce", N_("Last card"), show=False),
        Binding("n", "next", N_("Next"), show=False),
        Binding("r", "redeal", N_("Redeal"), show=False),
        Binding("w", "swap", N_("Swap"), show=False),
    ]

    def __init__(
        self,
        session: TableSession,
        delay: float = 0.4,
        save_path: str | Path | None = None,
        theme: str | None = None,
        make_session: Any = None,
    ):
        super().__init__()
        self.session = session
        self.delay = delay
        self.save_path = Path(save_path) if save_path else None
        self.make_session = make_session  # builds a fresh session for "new game" (same settings)
        self.announce = False
        self._logged = 0
        self._results_shown = 0
        self._end_shown = False
        self._waiting = False  # a computer player's move is scheduled
        self._paused = False  # a panel is over the table
        self._hinted: tuple[int, Any] | None = None  # a typed answer the hint gave (log length then, answer)
        if theme:
            self.theme = theme
        said_bindings(self)

    # --- layout ------------------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield Static(id="title")
        with Horizontal(id="top"):
            yield Static(id="seats")
            yield CardsPanel(id="table")
        yield RichLog(id="log", markup=True, wrap=True, min_width=20)
        yield HandView(id="hand")
        yield Static(id="message")
        yield Input(id="entry", placeholder=_("/ to type cards (9h 9s), pass, or an answer; Esc back to the hand"))
        yield Footer()

    def on_mount(self) -> None:
        self.query_one(HandView).focus()
        self.refresh_view()
        self.advance()
        self.check_size(self.size.width, self.size.height)

    def on_resize(self, event: Any) -> None:
        self.check_size(event.size.width, event.size.height)

    def check_size(self, width: int, height: int) -> None:
        """Below 80x24 the table's boxes overlap and cut lines: say so, rather than break without a word."""
        if width < MIN_WIDTH or height < MIN_HEIGHT:
            message = _(
                "This terminal is {width}x{height}: the table needs {min_width}x{min_height}. "
                "Make the window larger, or play with --plain."
            )
            self.say(message.format(width=width, height=height, min_width=MIN_WIDTH, min_height=MIN_HEIGHT), "bad")

    @property
    def hand(self) -> HandView:
        return self.query_one(HandView)

    # --- the game loop -----------------------------------------------------------------------------
    def advance(self) -> None:
        """Move the game on until the human has something to do (or a panel is shown)."""
        s = self.session
        while not self._paused:
            if self._show_results():
                break
            only = s.only_answer()
            if only is not None:
                s.act(only)
                self.say(_("Your only choice was made for you: {choice}.").format(choice=s.describe(only)))
                continue
            if not s.bot_to_move:
                break
            if self.delay > 0:
                if not self._waiting:
                    turn = s.bot_to_think()
                    if turn is not None:
                        self._waiting = True
                        self.run_worker(lambda t=turn: self._think(*t), thread=True, group="bot")
                break
            s.bot_step()
        self.refresh_view()

    def _think(self, seat: int, obs: Any) -> None:
        """In a worker thread: the bot chooses (the table stays responsive), and its answer is shown once the
        table's delay has passed since its turn began (its thinking counts as part of the pause)."""
        start = time.perf_counter()
        answer = self.session.bot_choose(seat, obs)
        time.sleep(max(0.0, self.delay - (time.perf_counter() - start)))
        with contextlib.suppress(RuntimeError):  # the table was closed meanwhile
            self.call_from_thread(self._bot_turn, seat, obs, answer)

    def _bot_turn(self, seat: int, obs: Any, answer: Any) -> None:
        self._waiting = False
        if self._paused or not self.session.bot_to_move:
            return
        self.session.bot_answer(seat, obs, answer)  # nothing, if the table moved on meanwhile (undo, new game)
        self.advance()

    def _show_results(self) -> bool:
        """Show the score table after each round of a match, or the result of a single round; True if shown."""
        s = self.session
        m = s.shown_match
        if m is not None:
            done = len(m.completed)
            if done > self._results_shown:
                self._results_shown = done
                self._autosave()
                over = m.is_over
                keys = "[b]s[/b] save  [b]n[/b] new match  [b]q[/b] quit" if over else "[b]enter[/b] next round"
                keys += "  [b]esc[/b] look at the table" if over else "  [b]s[/b] save so far"
                self.show_panel(scores_table(s, final=over), keys)
                return True
            return False
        if s.is_over and not self._end_shown:
            self._end_shown = True
            self._autosave()
            keys = "[b]s[/b] save  [b]n[/b] new game  [b]u[/b] undo  [b]esc[/b] look at the table  [b]q[/b] quit"
            self.show_panel(round_result(s), keys)
            return True
        return False

    def show_panel(self, body: Any, keys: str) -> None:
        self._paused = True
        self.refresh_view()

        def done(word: str | None) -> None:
            self._paused = False
            if word == "quit":
                self.action_ask_quit()
                return
            if word == "next" and self.session.is_over:
                self.action_next()
                return
            self.advance()

        self.push_screen(InfoScreen(body, keys), done)

    def _autosave(self) -> None:
        if self.save_path is not None and self.session.is_over:
            self.session.save(self.save_path)
            self.say(_("Saved the record to {path}.").format(path=self.save_path), "good")

    # --- drawing -----------------------------------------------------------------------------------
    def say(self, text: str, tone: str = "", markup: bool = False) -> None:
        """A line under the hand: plain text, or rich markup with ``markup`` (its own text escaped)."""
        msg = self.query_one("#message", Static)
        msg.set_classes(tone)
        msg.update(Text.from_markup(text) if markup else Text(text))

    def refresh_view(self) -> None:
        s = self.session
        self.query_one("#title", Static).update(title_line(s, self.save_path))
        seats = self.query_one("#seats", Static)
        seats.update(seats_table(s))
        seats.border_subtitle = seats_subtitle(s)
        table = self.query_one("#table", CardsPanel)
        table.ascii_cards = s.words.ascii
        table.update(table_panel(s, table.styles_for_cards, self.announce))
        log = self.query_one(RichLog)
        if s.log_cut is not None:  # an undo took plays back: the log is written again as the round now stands
            s.log_cut = None
            log.clear()
            self._logged = 0
        for line in s.log[self._logged :]:
            log.write(Text.from_markup(line))
        self._logged = len(s.log)
        hand = self.hand
        hand.ascii_cards = s.words.ascii
        hand.active = s.human_to_move
        hand.set_cards(s.hand())
        hand.border_title = hand_title(s)

    # --- actions -----------------------------------------------------------------------------------
    def _blocked(self) -> bool:
        """The human may not act now (a panel, or another seat to move); says why."""
        s = self.session
        if self._paused:
            return True
        if s.is_over:
            self.say(_("The game is over: n for a new one, s to save it."))
            return True
        if not s.human_to_move:
            who = s.to_move
            self.say(_("Wait: it is {name}'s turn.").format(name=s.name(who)) if who is not None else _("Wait."))
            return True
        return False

    def submit(self, answer: Any, typed: str | None = None) -> bool:
        """Send the human's answer; an illegal one is explained and changes nothing."""
        s = self.session
        try:
            s.act(answer, call_last_card=self.announce)
        except CardParseError as e:
            self.say(str(e), "bad")
            return False
        except BigTwoError as e:
            why = s.say(getattr(e, "reason", e))
            self.say(_("Not allowed: {why}  [dim](e explains, h hints)[/dim]").format(why=why), "bad", markup=True)
            return False
        self.announce = False
        self.hand.clear()
        self.say("")
        self.advance()
        self.focus_for_turn()
        return True

    def focus_for_turn(self) -> None:
        """The entry line for typed answers (questions, demands), the hand for everything else."""
        d = self.session.decision
        if d is not None and d["kind"] in (DecisionKind.ASK, DecisionKind.DEMAND):
            self.query_one("#entry", Input).focus()
        else:
            self.hand.focus()

    def action_play(self) -> None:
        if self._blocked():
            return
        d = self.session.decision
        mask = self.hand.selected_mask
        hinted, self._hinted = self._hinted, None
        if d is not None and hinted is not None and hinted[0] == len(self.session.log):
            self.submit(hinted[1])  # enter takes the answer the hint just gave, as it plays hinted cards
            return
        if d is not None and d["kind"] in (DecisionKind.ASK, DecisionKind.DEMAND):
            self.say(_("Type your answer: press / then e.g. 'highest S' or 'lowest'."))
            self.action_type()
            return
        if d is None and not mask:
            self.say(_("Select cards first (space), or press p to pass."))
            return
        self.submit(CardSet.from_mask(mask))

    def action_pass_turn(self) -> None:
        if self._blocked():
            return
        d = self.session.decision
        if d is not None:
            if d["kind"] == DecisionKind.SURRENDER:
                self.submit(CardSet(0))
                return
            self.say(_("This is an exchange: it cannot be passed."))
            return
        self.submit("pass")

    def action_clear(self) -> None:
        self.hand.clear()

    def action_hint(self) -> None:
        if self._blocked():
            return
        h = self.session.hint()
        if h.cards:
            self.hand.select_mask(h.cards)
        elif self.session.decision is not None and h.answer is not None:
            self._hinted = (len(self.session.log), h.answer)  # an answer, not cards: enter takes it
        said = "  " + _("[dim](enter plays it)[/dim]") if h.cards else ""
        said = "  " + _("[dim](enter takes it)[/dim]") if self._hinted is not None else said
        self.say(escape(h.text) + said, markup=True)

    def action_explain(self) -> None:
        if self._blocked():
            return
        ok, text = self.session.explain(self.hand.selected_mask)
        self.say(text, "good" if ok else "bad")

    def action_legal(self) -> None:
        if self._blocked():
            return
        s = self.session
        legal = s.legal_choices()
        what = "answers" if s.decision is not None else "plays"
        count = f"{len(legal)} legal {what[:-1] if len(legal) == 1 else what}"
        if s.unlisted() is not None:
            count += f" ({s.unlisted()})"
        if len(legal) <= 6:  # a short list fits under the hand
            self.say(f"{count}: " + ", ".join(s.describe(x) for x in legal))
            return
        # a long list (five-card plays, an exchange's questions): a panel that scrolls, every choice shown
        body = Text(f"{count}:\n", style="bold")
        body.append("\n".join(s.describe(x) for x in legal), style="")
        self.show_panel(body, "[b]up/down[/b] scroll  [b]esc[/b] back to the table")

    def action_undo(self) -> None:
        if self._paused and not self.session.is_over:
            return
        if self.session.undo():
            self._end_shown = False
            self.hand.clear()
            self.say(_("Your last turn is taken back."))
            self.advance()
        else:
            self.say(_("Nothing of yours to undo in this round."))

    def action_announce(self) -> None:
        if not self.session.rules.last_card_call:
            self.say(_("These rules have no 'last card' call."))
            return
        self.announce = not self.announce
        self.say(_("You will announce 'last card' with your next play.") if self.announce else "No announcement.")
        self.refresh_view()

    def action_redeal(self) -> None:
        if self._blocked():
            return
        try:
            self.session.request_redeal()
        except BigTwoError as e:
            self.say(self.session.words.render(e), "bad")
            return
        self.hand.clear()
        self.advance()

    def action_swap(self) -> None:
        if self._blocked():
            return
        try:
            self.session.swap()
        except BigTwoError as e:
            self.say(self.session.words.render(e), "bad")
            return
        self.advance()

    def action_type(self) -> None:
        self.query_one("#entry", Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if event.input.id != "entry":
            return
        text = event.value.strip()
        event.input.value = ""
        word = text.lower()
        commands = {"hint": self.action_hint, "explain": self.action_explain, "undo": self.action_undo}
        commands.update({"save": self.action_save, "legal": self.action_legal, "help": self.action_help})
        if not text:
            if self._hinted is not None:  # enter on the empty line takes the answer the hint just gave
                self.action_play()
                return
            self.hand.focus()
            return
        if word in commands:
            commands[word]()
            return
        if word in ("quit", "exit"):
            self.action_ask_quit()
            return
        if self._blocked():
            return
        d = self.session.decision
        if word == "pass" and d is None:
            self.submit("pass")
        elif d is not None and d["kind"] != DecisionKind.GIVE:
            self.submit(text)
        else:
            try:
                mask = to_mask(text)
            except CardParseError as e:
                self.say(str(e), "bad")
                return
            held = sum(1 << int(c) for c in self.hand.cards)
            self.hand.select_mask(mask | held_copies(mask, held))  # '3D' may name the copy the hand holds
            self.submit(CardSet.from_mask(mask))

    def on_key(self, event: Any) -> None:
        if event.key == "escape" and self.focused is not None and self.focused.id == "entry":
            self.hand.focus()
            event.stop()

    def action_save(self) -> None:
        if self.save_path is not None:
            self._save(str(self.save_path))
            return

        def chosen(path: str | None) -> None:
            if path:
                self._save(path)

        self.push_screen(SaveScreen(self.session.default_path()), chosen)

    def _save(self, path: str) -> bool:
        try:
            p = self.session.save(path)
        except (OSError, BigTwoError) as e:
            self.say(_("Could not save: {why}").format(why=e), "bad")
            return False
        state = "" if self.session.is_over else " (unfinished)"
        self.say(f"Saved the record{state} to {p}.", "good")
        self.refresh_view()
        return True

    def action_ask_quit(self) -> None:
        """q: confirm before leaving, offering to save the record (kept already with --save)."""
        if isinstance(self.screen, QuitScreen):
            return
        s = self.session
        question = _("Quit the table?") if s.is_over else _("Quit now? The game is not over.")
        if self.save_path is not None:
            question += f" The record is saved to {self.save_path} as you leave."
            keys = "[b]y[/b] quit  [b]n[/b]/[b]esc[/b] stay"
        elif s.saved_to is not None and s.is_over:
            question += f" (Saved to {s.saved_to}.)"
            keys = "[b]y[/b] quit  [b]s[/b] save again and quit  [b]n[/b]/[b]esc[/b] stay"
        else:
            keys = "[b]y[/b] quit without saving  [b]s[/b] save the record, then quit  [b]n[/b]/[b]esc[/b] stay"
        was_paused = self._paused
        self._paused = True

        def answered(word: str | None) -> None:
            self._paused = was_paused
            if word == "quit":
                self.call_later(self.action_quit)
            elif word == "save":
                if self.save_path is not None:
                    self.call_later(self.action_quit)
                    return

                def chosen(path: str | None) -> None:
                    if path and self._save(path):
                        self.call_later(self.action_quit)

                self.push_screen(SaveScreen(s.default_path()), chosen)
            elif not was_paused:
                self.advance()

        self.push_screen(QuitScreen(Text(question), keys), answered)

    def action_help(self) -> None:
        self.show_panel(Text.from_markup(KEYS_HELP), "[b]esc[/b] back to the table")

    def action_next(self) -> None:
        s = self.session
        if not s.is_over:
            self.say(_("The game is not over yet."))
            return
        if self.make_session is None:
            self.say(_("Start bigtwo again for a new game."))
            return
        self.session = self.make_session()
        self._logged = self._results_shown = 0
        self._end_shown = False
        self.query_one(RichLog).clear()
        self.say(_("A new deal."))
        self.refresh_view()
        self.advance()

    async def action_quit(self) -> None:
        if self.save_path is not None and self.session.saved_to is None:
            self.session.save(self.save_path)  # keep what was played, finished or not
        self.exit()


# --- what the panels show (plain functions of the session, so tests can read them too) -------------------
def title_line(s: TableSession, save_path: Path | None) -> Text:
    players = ngettext("{n} player", "{n} players", s.n).format(n=s.n)
    parts = [f"bigtwo · {preset_title(s.rules.name)}", players, _("seed {n}").format(n=s.seed)]
    m = s.shown_match
    if m is not None:
        n = m.round_index + 1
        said = _("round {n} of {total}").format(n=n, total=m.max_rounds) if m.max_rounds else _("round {n}").format(n=n)
        if m.points:
            said += ", " + _("to {n} points").format(n=m.points)
        parts.insert(1, said)
    if s.saved_to:
        parts.append(_("saved: {name}").format(name=s.saved_to.name))
    return Text("  ·  ".join(parts), overflow="ellipsis", no_wrap=True)


def hand_title(s: TableSession) -> str:
    d = s.decision
    if d is not None:
        return _("Your hand: choose for the exchange ({kind})").format(kind=d["kind"])
    if s.human_to_move:
        return _("Your hand: your turn (space select, enter play, p pass)")
    return _("Your hand")


def seats_table(s: TableSession) -> Table:
    obs = s.observation()
    t = Table(
        box=None,
        padding=(0, 1),
        collapse_padding=True,
        pad_edge=False,
        show_header=True,
        header_style="dim",
        expand=True,
    )
    t.add_column("", width=1)
    t.add_column(_("player"), min_width=14, ratio=1, no_wrap=True, overflow="ellipsis")
    t.add_column(_("cards"), justify="right", width=5)
    t.add_column("", no_wrap=True, max_width=15, overflow="ellipsis")
    m = s.shown_match
    if m is not None:
        t.add_column(_("places") if _ranking(s) else _("total"), justify="right", width=6)
    g = s.game
    sizes = obs.get("hand_sizes") or [0] * s.n
    finished = obs.get("finished") or []
    passed = obs.get("passed") or []
    roles = obs.get("roles")
    for seat in range(s.n):
        state = ""
        if seat in finished:
            state = _("out {place}").format(place=place_said(finished.index(seat) + 1))
        elif seat in passed:
            state = _("passed")
        elif g is not None and not g.is_over and g.trick is not None and g.trick_seat == seat:
            state = _("on top")
        if roles and roles[seat] != NEUTRAL:
            state = (state + " " if state else "") + roles[seat]
        name = _("You") if seat == s.seat else f"{s.name(seat)} {spec_name(str(s.specs[seat]))}"  # not its options
        if m is not None and m.current.dealer == seat:
            name += " [D]"
        row = ["▶" if s.to_move == seat else "", escape(name), str(sizes[seat]), escape(state)]
        if m is not None:
            row.append(f"{m.totals[seat]:+d}" if not _ranking(s) else str(m.places[seat]))
        style = "bold" if seat == s.seat else ""
        t.add_row(*row, style=style)
    return t


def seats_subtitle(s: TableSession) -> str | None:
    """Under the list of players: which way play goes round the table (nothing at two players)."""
    return play_direction(s.rules.direction, s.n, short=True)


def _ranking(s: TableSession) -> bool:
    return s.rules.ranks_only


def table_panel(s: TableSession, styles: CardStyles, announce: bool = False) -> Group:
    lines: list[Text] = []
    d = s.decision
    g = s.game
    if s.match is not None and s.match.phase in (Phase.DEAL, Phase.EXCHANGE):
        who = s.to_move
        heading = (
            _("The deal: a choice before the play.") if s.match.phase == Phase.DEAL else _("Exchanges before the play.")
        )
        lines.append(Text(heading, style="bold"))
        if d is not None:
            lines.append(Text.from_markup(decision_text(s, d)))
        elif who is not None:
            lines.append(Text(f"{s.name(who)} is deciding..."))
        return Group(*lines)
    if g is None:
        return Group(Text(""))
    if g.is_over:
        lines.append(Text(_("The round is over."), style="bold"))
    elif g.trick is not None:
        t = Text(_("To beat:") + " ", style="bold")
        t.append_text(styles.text(g.ev.sort_cards(g.trick.mask)))
        lines.append(t)
        what = (
            _("a single")
            if g.trick.kind == Kind.SINGLE
            else s.words.play_words(s.words.render(g.ev.describe(g.trick, detail=True), opens=False), g.trick.kind)
        )
        lines.append(Text(_("{what}, by {name}").format(what=what, name=s.name(g.trick_seat or 0)), style="dim"))
    else:
        leader = _("You lead") if g.to_move == s.seat else _("{name} leads").format(name=s.name(g.to_move))
        lines.append(Text(_("{leader}: any combination.").format(leader=leader), style="bold"))
    req = g.required_card
    if req and not g.is_over and g.to_move == s.seat and req.mask & g.hand(s.seat).mask:
        t = Text(_("Your play must contain") + " ")
        t.append_text(styles.text(req))
        lines.append(t)
    if g.face_up:
        t = Text(_("Face up:") + " ")
        t.append_text(styles.text(g.ev.sort_cards(g.face_up)))
        lines.append(t)
    if g.stock_size:
        stock = ngettext("Stock: {n} card (a pass draws one)", "Stock: {n} cards (a pass draws one)", g.stock_size)
        lines.append(Text(stock.format(n=g.stock_size)))
    if s.human_to_move:
        reasons = s.redeal_reasons()
        if reasons:
            lines.append(Text(f"r: ask for a new deal ({reasons[0]})", style="italic"))
        if s.can_swap:
            lines.append(Text("w: swap your lead card for the leftover card", style="italic"))
    if s.rules.last_card_call and announce:
        lines.append(Text(_("You will announce 'last card'."), style="bold"))
    return Group(*lines)


def decision_text(s: TableSession, d: dict[str, Any]) -> str:
    """The human's decision as markup: what is asked, how to answer it here, and why (in the table's words)."""
    what, why = decision_question(s, d)
    kind = d["kind"]
    if kind == DecisionKind.GIVE:
        return f"{what}: select, enter.{why}"
    if kind == DecisionKind.SURRENDER:
        return f"{what} Select them and enter, or p to decline (they then steal by questions).{why}"
    if kind == DecisionKind.ASK:
        # each question asked so far, its answer and the cards it took ("highest: takes 2♥")
        asked = "; ".join(
            f"{a['question']}: {a['answer']}" + (f" {' '.join(a['cards'])}" if a.get("cards") else "")
            for a in d.get("answers", [])
        )
        bound = f" {bound_text(d)}" if d.get("suit") else ""
        return f"{what[:-1]}: type one (/), e.g. highest, highest S, have 9S; l lists them.{bound}" + (
            " " + _("[dim]Asked: {answers}[/dim]").format(answers=s.words.markup(asked, opens=False)) if asked else ""
        )
    if kind == DecisionKind.DEMAND:
        return f"{what} Type (/) lowest, or any to let them choose."
    if kind in (DecisionKind.REDEAL, DecisionKind.SWAP):
        key = "r" if kind == DecisionKind.REDEAL else "w"
        return f"{what} Press {key} (or type {kind}), or type keep.{why}"
    return procedure_text(s, d) or what


def round_result(s: TableSession) -> Table:
    g = s.game
    assert g is not None and g.result is not None
    res = g.result
    t = Table(title=_("Round over"), show_lines=False, expand=False)
    t.add_column(_("place"))
    t.add_column(_("seat"))
    t.add_column(_("cards left"), justify="right")
    if not _ranking(s):
        t.add_column(_("score"), justify="right")
    for place, seat in enumerate(res.finishing_order, 1):
        row = [place_said(place), escape(s.label(seat)), str(res.cards_left[seat])]
        if not _ranking(s):
            row.append(f"{res.scores[seat]:+d}")
        t.add_row(*row, style="bold" if seat == s.seat else "")
    if res.details:
        t.caption = "; ".join(s.say(d) for d in res.details)
    return t


def scores_table(s: TableSession, final: bool = False) -> Table:
    m = s.match
    assert m is not None
    ranking = _ranking(s)
    done = len(m.completed)
    if final:
        title = ngettext("Match over after {n} round", "Match over after {n} rounds", done).format(n=done)
    elif m.max_rounds:
        title = _("Scores after round {n} of {total}").format(n=done, total=m.max_rounds)
    else:
        title = _("Scores after round {n}").format(n=done)
    t = Table(title=title)
    t.add_column(_("round"), justify="right")
    for seat in range(s.n):
        t.add_column(s.name(seat), justify="right")
    for rec in m.completed[-12:]:
        assert rec.result is not None
        places = rec.result.places
        cells = [
            place_said(places[x]) if ranking else f"{rec.result.scores[x]:+d} {place_said(places[x])}"
            for x in range(s.n)
        ]
        t.add_row(str(rec.index + 1), *cells)
    t.add_section()
    if ranking:
        t.add_row(_("places"), *[str(p) for p in m.places], style="bold")
    else:
        t.add_row(_("total"), *[f"{x:+d}" for x in m.totals], style="bold")
    if final:
        standings = ", ".join(f"{place_said(i)} {s.name(x)}" for i, x in enumerate(m.standings(), 1))
        t.caption = _("Standings: {list}").format(list=standings)
    return t


def run_table(session: TableSession, delay: float, save: str | None, theme: str | None, make_session: Any) -> None:
    TableApp(session, delay=delay, save_path=save, theme=theme, make_session=make_session).run()
