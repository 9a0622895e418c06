"""`bigtwo replay FILE --review`: one seat's decisions rated, as a table in the terminal."""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from bigtwo.combos.play import Play
from bigtwo.errors import BigTwoError
from bigtwo.i18n import _, ngettext
from bigtwo.record import Record
from bigtwo.record.build import notation
from bigtwo.review import LABEL_WORDS, THRESHOLDS, Label, Rating, review_record, summary
from bigtwo.rules.choices import Measure

LABEL_STYLE = {Label.GOOD: "", Label.INACCURACY: "yellow", Label.MISTAKE: "dark_orange", Label.BLUNDER: "bold red"}


def seat_named(record: Record, name: str | None) -> int:
    """The seat ``name`` gives: a player's name as the record has it, or a seat number from 1; the first seat
    when none is given."""
    if name is None:
        return 0
    for s, n in enumerate(record.names):
        if n.casefold() == name.casefold():
            return s
    if name.isdigit() and 1 <= int(name) <= record.players:
        return int(name) - 1
    names = ", ".join(record.names)
    raise BigTwoError(
        _("--seat {name}: no such player; the players are {names} (or a seat number 1-{n})").format(
            name=name, names=names, n=record.players
        )
    )


def _move(ev: Any, play: Play) -> str:
    """A move in the record's card notation (the pass in words)."""
    return _("pass") if play.is_pass else notation(ev, play.mask)


def print_review(record: Record, seat: int, deals: int, console: Console, seed: int = 0) -> list[Rating]:
    """Rate ``seat``'s decisions in ``record`` and print them with a count of each label."""
    ratings = review_record(record, seat, deals, seed=seed)
    rules = record.ruleset()
    ev = rules.engine_for(record.players)
    measure = Measure(rules.play_measure)
    name = record.names[seat] if seat < len(record.names) else str(seat + 1)
    table = Table(title=escape(_("Review of {name}'s decisions").format(name=name)))
    several = len({r.round_index for r in ratings}) > 1
    table.add_column(_("Decision"), justify="right")
    table.add_column(_("Played"))
    table.add_column(_("Better"))
    table.add_column(_("Points lost"), justify="right")
    table.add_column(_("Label"))
    for i, r in enumerate(ratings, 1):
        label = _(LABEL_WORDS[r.label])
        style = LABEL_STYLE[r.label]
        where = f"{r.round_index + 1}.{i}" if several else str(i)
        better = "" if r.label == Label.GOOD else _move(ev, r.best)
        table.add_row(
            where,
            escape(_move(ev, r.played)),
            escape(better),
            f"{r.loss:.1f}",
            f"[{style}]{escape(label)}[/{style}]" if style else escape(label),
        )
    console.print(table)
    counts = summary(ratings)
    parts = [f"{_(LABEL_WORDS[k])}: {counts[k]}" for k in (Label.BLUNDER, Label.MISTAKE, Label.INACCURACY)]
    rated = ngettext(
        "{n} decision rated on {deals} deals each: {counts}.",
        "{n} decisions rated on {deals} deals each: {counts}.",
        len(ratings),
    )
    console.print(escape(rated.format(n=len(ratings), deals=deals, counts=", ".join(parts))))
    low, mid, high = THRESHOLDS[measure]
    scale = _("Points lost: inaccuracy from {a}, mistake from {b}, blunder from {c}.").format(a=low, b=mid, c=high)
    console.print(f"[dim]{escape(scale)}[/dim]")
    return ratings
