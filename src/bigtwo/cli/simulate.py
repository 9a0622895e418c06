"""``bigtwo simulate``: a tournament between bots with a live progress bar and the results table."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from rich.console import Console
from rich.markup import escape
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from bigtwo.arena.decisions import check_decisions_path, write_decisions
from bigtwo.arena.play import needs_match
from bigtwo.arena.plot import check_plot_path, plot_scores
from bigtwo.arena.results import ArenaResult
from bigtwo.arena.run import run_arena
from bigtwo.bots.spec import BotSpec, is_class_target, split_lineup
from bigtwo.cli import output
from bigtwo.rules.ruleset import Ruleset
from bigtwo.utilities import default_measure
from bigtwo.words import plural


def find_classes_beside_the_user(bots: list[str]) -> None:
    """Let a ``module:Class`` among ``bots`` be imported from the folder the command runs from, as ``python -m``
    would find it (the installed ``bigtwo`` script does not put that folder on the import path)."""
    if any(is_class_target(BotSpec.parse(b).name) for b in bots) and "" not in sys.path and os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())


def simulate(
    rules: Ruleset,
    bots: str,
    games: int,
    *,
    players: int | None = None,
    seed: int = 0,
    utility: str | None = None,
    duplicate: bool = True,
    workers: int | None = None,
    ray: str | None = None,
    out: list[Path] | None = None,
    plot: Path | None = None,
    record_decisions: Path | None = None,
    quiet: bool = False,
    console: Console | None = None,
    rounds: int = 1,
) -> ArenaResult:
    console = console or output.console()
    # everything that can be refused is refused before the first game is played
    for path in out or []:
        ArenaResult.check_path(path)
    if plot is not None:
        check_plot_path(plot)
    if record_decisions is not None:
        check_decisions_path(record_decisions)
        if needs_match(rules, rounds):
            raise ValueError(
                f"--record-decisions records single rounds as dealt; {rules.name!r}"
                + (f" with --rounds {rounds}" if rounds > 1 else "")
                + " is played as a match (decisions before play)"
            )
    names = split_lineup(bots)
    if len(names) == 1:
        names = names * (rules.horse_game or players or rules.players)
    elif players is not None and players != len(names):
        raise ValueError(f"--bots lists {plural(len(names), 'bot')} but --players is {players}")
    find_classes_beside_the_user(names)
    measure = utility or default_measure(rules)
    columns = (
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("games"),
        TimeElapsedColumn(),
        TextColumn("ETA"),
        TimeRemainingColumn(),
    )
    with Progress(*columns, console=console, disable=quiet, transient=False) as bar:
        task = bar.add_task(escape(f"{rules.name}: {', '.join(names)}"), total=None)

        def progress(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        result = run_arena(
            rules,
            names,
            games,
            seed=seed,
            utility=measure,
            duplicate=duplicate,
            workers=workers,
            ray=ray,
            progress=progress,
            rounds=rounds,
            record_decisions=record_decisions is not None,
        )
    console.print(result.table())
    for path in out or []:
        console.print(f"results: {escape(str(result.save(path)))}")
    if plot is not None:
        console.print(f"plot: {escape(str(plot_scores(result, plot)))}")
    if record_decisions is not None:
        written = write_decisions(record_decisions, result)
        count = sum(len(g["chosen"]) for g in result.decisions)
        console.print(f"decisions: {escape(str(written))} ({count:,} decision{'s' if count != 1 else ''})")
    return result
