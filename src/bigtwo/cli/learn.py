"""``bigtwo learn``: the guided first round in the terminal, as plain lines (no full-screen table), so it reads the
same in any terminal, a screen reader or a pipe. The steps and their words are :mod:`bigtwo.lesson`'s, the ones
the browser's ``/learn`` page walks."""

from __future__ import annotations

from collections.abc import Callable

import typer

from bigtwo.i18n import _
from bigtwo.lesson import Step, check, lesson
from bigtwo.words import Wording


def _table(step: Step, words: Wording) -> list[str]:
    lines = []
    if step.trick:
        lines.append(_("On the table: {cards} ({who})").format(cards=words.cards(step.trick), who=step.trick_by))
    else:
        lines.append(_("The table is empty: you lead."))
    lines.append(_("Your hand: {cards}").format(cards=words.cards(step.hand)))
    return lines


def run_lesson(ask: Callable[[str], str], say: Callable[[str], None], ascii_cards: bool = False) -> bool:
    """Walk the lesson: the others' moves are said, each of yours is asked for until it is the one the lesson
    teaches. ``hint`` shows the move, ``quit`` stops. True when the round was played to the end."""
    words = Wording(0, None, ascii_cards)
    shown = lesson(ascii_cards)
    say(shown.intro)
    # the commands are typed as written in every language: placeholders, so no translation can change them
    say(
        _("Type cards as they read ({examples}), {pass_}, {hint} to be shown the move, or {quit}.").format(
            examples="3D / 3♦, 10H, 6C 6H", pass_="'pass'", hint="'hint'", quit="'quit'"
        )
    )
    for index, step in enumerate(shown.steps):
        if not step.yours:
            move = _("{move}.").format(move=step.said)
            say("  " + (_("{move}. {why}").format(move=step.said, why=step.teach) if step.teach else move))
            continue
        say("")
        for line in _table(step, words):
            say(line)
        say(step.teach)
        hinted: str | None = None  # after a hint, an empty line makes the move it showed (as at the tables)
        while True:
            try:
                answer = ask(_("Your move: ")).strip()
            except (EOFError, KeyboardInterrupt):
                answer = "quit"
            offered, hinted = hinted, None
            if not answer and offered is not None:
                answer = offered
            if answer.lower() in ("quit", "q", "exit"):
                again = _("Lesson stopped. Run {learn} to start it again, or {play} for a real round.")
                say(again.format(learn="'bigtwo learn'", play="'bigtwo play'"))
                return False
            if answer.lower() in ("hint", "h", "?"):
                move = words.cards(step.cards) if step.cards else "pass"
                say(_("Type: {move}  (enter makes it)").format(move=move))
                hinted = " ".join(step.cards) if step.cards else "pass"
                continue
            problem = check(index, answer, ascii_cards)
            if problem is None:
                say("  " + _("{move}.").format(move=step.said))
                break
            say(f"  {problem}")
    say("")
    say(shown.done)
    for line in shown.result:
        say(f"  {line}")
    after = _("Next: {rules} for the rules in short, {play} for a real round.")
    say(after.format(rules="'bigtwo rules show classic --brief'", play="'bigtwo play'"))
    return True


def learn(
    ascii_cards: bool = typer.Option(False, "--ascii", help="Write cards as 10H, 3D (no suit symbols)"),
) -> None:
    """Learn to play: a guided first round on a fixed deal, step by step (what to play, and why).

    \b
    Examples:
      bigtwo learn
      bigtwo learn --ascii      # cards written 10H, 3D
    """
    run_lesson(input, typer.echo, ascii_cards)
