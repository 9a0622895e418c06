"""The line-by-line table for ``bigtwo play --plain`` (and when not in a terminal): a round or a whole match.

It is the full-screen table's :class:`~bigtwo.cli.session.TableSession` read out line by line, so both tables
say the same things the same way (names, plurals, card faces) and share the bots, the hint, undo and saving.
The human types cards, ``pass``, an exchange answer, or a command (``help`` lists them).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from bigtwo.actions import DecisionKind
from bigtwo.cli.session import TableSession, bound_text, decision_question, procedure_text
from bigtwo.cli.words import play_direction
from bigtwo.errors import BigTwoError, CardParseError
from bigtwo.game import Game
from bigtwo.i18n import N_, _, ngettext
from bigtwo.match import Match
from bigtwo.rules.kinds import Kind
from bigtwo.rules.ruleset import Ruleset
from bigtwo.words import description, place_said, preset_title

HELP = N_(
    "Type the cards to play, e.g. [bold]3D[/bold] or [bold]9h 9s[/bold] or [bold]10c jc qc kc ac[/bold]; "
    "[bold]pass[/bold]; [bold]hint[/bold] (or h) suggests a play and why, enter then plays it; [bold]legal[/bold] "
    "lists every legal "
    "play; [bold]undo[/bold] takes back your last turn; [bold]save[/bold] [i]file[/i] saves the record; "
    "[bold]help[/bold] (or ?) shows this; [bold]quit[/bold] leaves."
)
ASK_HELP = N_(
    "Ask the player you steal from a question; you must take what it reveals: [bold]lowest[/bold], "
    "[bold]highest[/bold], "
    "[bold]highest S[/bold] / [bold]lowest S[/bold] (a suit), [bold]highest pair[/bold], [bold]have 9S[/bold], "
    "[bold]any S[/bold] (then you must take a spade), [bold]two S[/bold], and once bound to a suit "
    "[bold]give S[/bold] (they pick). [bold]legal[/bold] lists every question you may ask now."
)


class PlainTable:
    """One human seat and computer players for the rest, over a round, or a match with ``rounds``/``points``."""

    def __init__(
        self,
        rules: Ruleset,
        players: int | None = None,
        seat: int = 0,
        bots: str | None = None,
        seed: int | None = None,
        delay: float = 0.4,
        ascii_cards: bool = False,
        console: Console | None = None,
        input_fn: Callable[[str], str] = input,
        rounds: int | None = None,
        points: int | None = None,
        names: Sequence[str] | None = None,
        offer_save: bool = False,
    ):
        self.rules = rules
        self.offer_save = offer_save  # quitting a game not over asks whether to save its record first
        self.session = TableSession(
            rules,
            players=players,
            seat=seat,
            bots=bots,
            seed=seed,
            rounds=rounds,
            points=points,
            ascii_cards=ascii_cards,
            delay=delay,
            names=names,
        )
        self.delay = delay
        self.console = console or Console(highlight=False)
        self.input = input_fn
        self._printed = 0  # session log lines printed
        self._rounds_shown = 0  # match rounds whose score table was printed

    # --- what it plays ------------------------------------------------------------------------------
    @property
    def seat(self) -> int:
        return self.session.seat

    @property
    def bots(self) -> dict[int, Any]:
        return self.session.bots

    @property
    def game(self) -> Game:
        """The round being played (in a match: the current one, or the last while exchanging)."""
        s = self.session
        if s.single is not None:
            return s.single
        assert s.match is not None
        rec = s.match.current
        g = rec.game if rec.game is not None else s.match.completed[-1].game if s.match.completed else None
        assert g is not None
        return g

    @property
    def match(self) -> Match | None:
        return self.session.match

    def say(self, markup: str) -> None:
        self.console.print(markup)

    # --- the loop -----------------------------------------------------------------------------------
    def run(self) -> None:
        s = self.session
        title = preset_title(self.rules.name)
        self.say(f"[bold]{escape(title)}[/bold] - {escape(description(self.rules.shown_description()))}")
        m = s.shown_match
        if m is not None:
            rounds = ngettext("{n} round", "{n} rounds", m.max_rounds).format(n=m.max_rounds) if m.max_rounds else ""
            points = ngettext("{n} point", "{n} points", m.points).format(n=m.points) if m.points else ""
            if rounds and points:
                self.say(_("A match of {rounds} or {points}.").format(rounds=rounds, points=points))
            else:
                self.say(_("A match of {length}.").format(length=rounds or points))
        way = play_direction(self.rules.direction, s.n)
        if way is not None:
            after = _("{way}: {name} plays after you.").format(way=way, name=s.name((s.seat + 1) % s.n))
            self.say(escape(after))
        self.say(_(HELP))
        while True:
            self.flush_log()
            if s.is_over:
                break
            only = s.only_answer()
            if only is not None:
                made = _("(your only choice, made for you: {choice})").format(choice=escape(s.describe(only)))
                self.say(f"[dim]{made}[/dim]")
                s.act(only)
                continue
            if s.bot_to_move:
                start = time.perf_counter()
                s.bot_step()
                if self.delay:  # the bot's thinking is part of its pause, not added to it
                    time.sleep(max(0.0, self.delay - (time.perf_counter() - start)))
                continue
            if not self.human_turn():
                self.flush_log()
                if self.offer_save:
                    self.ask_to_save()
                self.say(_("Bye."))
                return
        self.show_final()

    def flush_log(self) -> None:
        """Print what happened since the last call (the session's log), and a match's scores after a round."""
        s = self.session
        for line in s.log[self._printed :]:
            self.say(line)
        self._printed = len(s.log)
        m = s.shown_match
        if m is not None and len(m.completed) > self._rounds_shown:
            self._rounds_shown = len(m.completed)
            self.show_scores()

    # --- the human's turn -----------------------------------------------------------------------------
    def show_table(self) -> None:
        s = self.session
        obs = s.observation()
        w = s.words
        parts = []
        sizes = obs.get("hand_sizes") or []
        for seat in range(s.n):
            tag = f"{s.label(seat)}: {sizes[seat] if sizes else '?'}"
            if seat in obs.get("finished", []):
                tag += " " + _("(out, {place})").format(place=place_said(obs["finished"].index(seat) + 1))
            elif seat in obs.get("passed", []):
                tag += " " + _("(passed)")
            parts.append(tag)
        self.say("[dim]" + escape(" | ".join(parts)) + "[/dim]")
        d = s.decision
        if d is not None:
            self.say(_("Your hand: {cards}").format(cards=s.cards_markup([str(c) for c in s.hand()])))
            self.say(self.describe_decision(d))
            return
        g = s.game
        assert g is not None
        if g.trick is not None:
            what = (
                _("a single")
                if g.trick.kind == Kind.SINGLE
                else escape(w.play_words(w.render(g.ev.describe(g.trick, detail=True), opens=False), g.trick.kind))
            )
            top = s.cards_markup([str(c) for c in g.ev.sort_cards(g.trick.mask)])
            by = escape(w.object(g.trick_seat or 0))
            self.say(_("To beat: {cards}  ({what}, by {who})").format(cards=top, what=what, who=by))
        else:
            self.say(_("You lead: play any combination."))
        if obs.get("required_card"):
            must = s.cards_markup(obs["required_card"].split())
            self.say(_("Your play must contain {cards}.").format(cards=must))
        reasons = s.redeal_reasons()
        if reasons:
            self.say(_("[i]You may ask for a new deal ({why}): type redeal.[/i]").format(why=escape(reasons[0])))
        if s.can_swap:
            self.say(_("[i]You may swap your lead card for the leftover card: type swap.[/i]"))
        self.say(_("Your hand: {cards}").format(cards=s.cards_markup([str(c) for c in s.hand()])))

    def human_turn(self) -> bool:
        """Read commands until the human acts (True) or leaves (False)."""
        s = self.session
        self.show_table()
        d = s.decision
        hint = None  # a hint given on the line before: an empty line plays it (as enter does at the full screen)
        while True:
            try:
                text = self.input("> ").strip()
            except EOFError:
                return False
            # any other line leaves the hint behind: after an undo it is another position's, and after a
            # mistyped play an empty line should not play a card the player has since moved on from
            offered, hint = hint, None
            low = text.lower()
            head, _sep, arg = text.partition(" ")
            if low in ("quit", "exit", "q"):
                return False
            if low in ("help", "?"):
                self.say(_(ASK_HELP) if d is not None and d["kind"] == DecisionKind.ASK else _(HELP))
                continue
            if low in ("hint", "h"):
                hint = s.hint()
                self.say(escape(hint.text) + "  " + _("[dim](enter plays it)[/dim]"))
                continue
            if low == "legal":
                self.show_legal()
                continue
            if low == "undo":
                if not s.undo():
                    self.say(_("[yellow]Nothing of yours to undo in this round.[/yellow]"))
                    continue
                if s.log_cut is not None:  # lines already printed stay on screen; the log goes on from the cut
                    self._printed = min(self._printed, s.log_cut)
                    s.log_cut = None
                self.flush_log()
                self.show_table()
                continue
            if head.lower() == "save":
                self.save(arg.strip() or s.default_path())
                continue
            if low in ("redeal", "swap") and d is None:
                try:
                    s.request_redeal() if low == "redeal" else s.swap()
                except BigTwoError as e:
                    self.say(f"[red]{s.say(e)}[/red]")
                    continue
                return True
            if not text and offered is None:
                continue
            try:
                s.act(text or (offered.answer if offered is not None else ""))
            except CardParseError as e:
                self.say(f"[red]{escape(str(e))}[/red]")
                continue
            except BigTwoError as e:
                self.say("[red]" + _("Not allowed: {why}").format(why=s.say(getattr(e, "reason", e))) + "[/red]")
                continue
            return True

    def ask_to_save(self) -> None:
        """Before leaving a game not over: save its record where the player says (Enter: the usual name)."""
        default = self.session.default_path()
        question = _(
            "Save the unfinished game first? Enter saves it to {path}, a file name saves it there, 'no' does not: "
        )
        try:
            answer = self.input(question.format(path=default)).strip()
        except EOFError:
            return
        if answer.lower() not in ("no", "n"):
            self.save(answer or default)

    def show_legal(self) -> None:
        """Every legal play or exchange answer, with their count (never cut short)."""
        s = self.session
        legal = s.legal_choices()
        n = len(legal)
        if s.decision is not None:
            self.say(ngettext("{n} legal answer:", "{n} legal answers:", n).format(n=n))
        else:
            self.say(ngettext("{n} legal play:", "{n} legal plays:", n).format(n=n))
        self.say(escape(", ".join(s.describe(x) for x in legal)))
        if s.unlisted() is not None:
            self.say(escape(f"({s.unlisted()})"))

    def save(self, path: str | Path) -> Path | None:
        try:
            p = self.session.save(path)
        except (OSError, BigTwoError) as e:
            failed = _("Could not save to {path}: {why}").format(path=escape(str(path)), why=escape(str(e)))
            self.say(f"[red]{failed}[/red]")
            return None
        if self.session.is_over:
            self.say(_("Saved the record to {path}.").format(path=escape(str(p))))
        else:
            self.say(_("Saved the record (unfinished) to {path}.").format(path=escape(str(p))))
        return p

    def describe_decision(self, d: dict[str, Any]) -> str:
        """The human's decision as markup: what is asked, what to type, and why (in the table's words)."""
        s = self.session
        w = s.words
        what, why = decision_question(s, d)
        kind = d["kind"]
        if kind == DecisionKind.GIVE:
            return _("{what}: type the cards.").format(what=what) + why
        if kind == DecisionKind.SURRENDER:
            how = _("Type [bold]surrender[/bold] or [bold]decline[/bold] (then they steal by questions).")
            return f"{what} {how}{why}"
        if kind == DecisionKind.ASK:
            lines = [what]
            if d.get("suit"):
                lines.append(bound_text(d))
            for a in d.get("answers", []):
                taken = f" {s.cards_markup(a['cards'])}" if a["cards"] else ""
                asked, answer = w.markup(a["question"], opens=False), w.markup(a["answer"], opens=False)
                lines.append(f"  asked '{asked}': {answer}{taken}")
            if not d.get("answers"):
                lines.append(_(ASK_HELP))
            return "\n".join(lines)
        if kind == DecisionKind.DEMAND:
            return f"{what} " + _("Type [bold]lowest[/bold], or [bold]any[/bold] to let them choose.") + why
        if kind in (DecisionKind.REDEAL, DecisionKind.SWAP):
            return f"{what} " + _("Type [bold]{word}[/bold] or [bold]keep[/bold].").format(word=kind) + why
        return procedure_text(s, d) or what

    # --- results ------------------------------------------------------------------------------------
    def show_scores(self) -> None:
        s = self.session
        m = s.match
        assert m is not None
        ranking = m.rules.ranks_only
        done = len(m.completed)
        if m.max_rounds:
            title = _("Scores after round {n} of {total}").format(n=done, total=m.max_rounds)
        else:
            title = _("Scores after round {n}").format(n=done)
        t = Table(title=title)
        t.add_column(_("round"), justify="right")
        for seat in range(m.n):
            t.add_column(s.name(seat), justify="right")
        for rec in m.completed:
            assert rec.result is not None
            places = rec.result.places
            cells = [
                place_said(places[x]) if ranking else f"{rec.result.scores[x]:+d} ({place_said(places[x])})"
                for x in range(m.n)
            ]
            t.add_row(str(rec.index + 1), *cells)
        t.add_section()
        if ranking:
            t.add_row(_("places"), *[str(p) for p in m.places], style="bold")
        else:
            t.add_row(_("total"), *[f"{x:+d}" for x in m.totals], style="bold")
        self.console.print(t)

    def show_final(self) -> None:
        """A match's final standings. A single round's order, scores and payments are already in the log."""
        s = self.session
        m = s.shown_match
        if m is None:
            return
        self.say(_("[bold]Match over.[/bold]"))
        ranking = m.rules.ranks_only
        for place, seat in enumerate(m.standings(), 1):
            score = _("places {n}").format(n=m.places[seat]) if ranking else f"{m.totals[seat]:+d}"
            self.say(f"{place_said(place)}: {escape(s.label(seat))}, {score}")


__all__ = ["ASK_HELP", "HELP", "PlainTable"]
