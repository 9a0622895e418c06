"""``bigtwo benchmark``: the standard evaluation (:mod:`bigtwo.arena.benchmark`) with a progress bar and files."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from bigtwo.arena.benchmark import (
    PLAYERS,
    RULES,
    Leaderboard,
    check_opponents,
    deal_set,
    protocol_of,
    run_benchmark,
)
from bigtwo.bots.spec import BotSpec
from bigtwo.cli import output
from bigtwo.cli.simulate import find_classes_beside_the_user
from bigtwo.errors import BigTwoError

WEIGHTS_SUFFIXES = (".npz",)
CHECKPOINT_SUFFIXES = (".pt", ".pth")
FILES = ("leaderboard.json", "leaderboard.md", "leaderboard.png")


def _weights_spec(text: str, path: Path) -> BotSpec:
    """A weights file (``bigtwo train``'s export, or any QPolicy ``.npz``) played by the learned bot."""
    from bigtwo.bots.learned import QPolicy, trained_elsewhere
    from bigtwo.rules.ruleset import load_rules

    if not path.is_file():
        raise BigTwoError(f"--bot {text}: there is no file {path}")
    try:
        meta = QPolicy.load(path).meta
    except BigTwoError as e:  # not a numpy archive, or one that is not a network (it says which part it lacks)
        raise BigTwoError(f"--bot {text}: {str(e).removeprefix(f'weights {path}: ')}") from None
    why = trained_elsewhere(meta, load_rules(RULES), PLAYERS)
    if why is not None:
        raise BigTwoError(f"--bot {text}: these weights were {why} (the benchmark's table)")
    return BotSpec("learned", {"weights": str(path.resolve())}, text)


def _checkpoint_spec(text: str, path: Path, out: Path) -> BotSpec:
    """A training checkpoint: its network exported next to the results, then played as weights."""
    if not path.is_file():
        raise BigTwoError(f"--bot {text}: there is no file {path}")
    try:
        from bigtwo.rl.dmc import Trainer
    except ImportError:
        raise BigTwoError(
            f"--bot {text}: reading a training checkpoint needs torch: pip install 'bigtwo[rl]' "
            "(or give the run's exported weights, best.npz)"
        ) from None
    try:
        policy = Trainer.load(path, out=out).policy()
    except ValueError as e:  # said in words by Trainer.load, most often naming the file first
        raise BigTwoError(f"--bot {text}: {str(e).removeprefix(f'{path}: ')}") from None
    except Exception as e:  # a checkpoint is a pickle: whatever it fails with, say which file and why
        raise BigTwoError(f"--bot {text}: not a checkpoint of bigtwo train ({type(e).__name__}: {e})") from None
    tag = hashlib.sha256(str(path.resolve()).encode()).hexdigest()[:8]  # two runs' checkpoint.pt stay apart
    saved = policy.save(out / "weights" / f"{path.stem}-{tag}.npz")
    return _weights_spec(text, saved)


def bot_spec(text: str, out: Path) -> BotSpec:
    """What ``--bot`` names: a weights file, a training checkpoint, a user's ``module:Class``, or a bot spec."""
    text = text.strip()
    if not text:
        raise BigTwoError("--bot is empty: name a bot, a module:Class, or a weights file")
    suffix = Path(text).suffix.lower()
    if suffix in WEIGHTS_SUFFIXES:
        return _weights_spec(text, Path(text))
    if suffix in CHECKPOINT_SUFFIXES:
        return _checkpoint_spec(text, Path(text), out)
    try:
        spec = BotSpec.parse(text)
    except ValueError as e:
        raise BigTwoError(str(e)) from None
    find_classes_beside_the_user([text])
    return spec


def _check_mergeable(
    previous: Leaderboard, out: Path, deals: int | None, version: str, seed: int | None, names: list[str] | None
) -> None:
    """Refuse, before the first game, a run whose board the one already in ``out`` cannot take (other deals, another
    field), saying how to go on: ``--fresh`` replaces the old board."""
    ds = deal_set(version, seed)
    played = ds.deals if deals is None else deals
    if not 2 <= played <= ds.deals:
        return  # the run refuses the count in its own words
    diff = previous.protocol_difference(protocol_of(ds, played, check_opponents(names)))
    if diff:
        raise BigTwoError(
            f"--out {out} holds a leaderboard measured differently ({diff}): add --fresh to replace it, "
            "or give another --out"
        )


def benchmark(
    bots: Sequence[str],
    *,
    deals: int | None = None,
    version: str = "v1",
    seed: int | None = None,
    opponents: str | None = None,
    workers: int | None = None,
    ray: str | None = None,
    out: Path = Path("benchmark"),
    fresh: bool = False,
    plot: bool | None = None,
    quiet: bool = False,
    console: Console | None = None,
) -> Leaderboard:
    """``plot``: draw the PNG (refused before any game where matplotlib is missing), or not; None: where
    matplotlib is installed, else the board's JSON and Markdown alone, with a line saying so."""
    from bigtwo.arena.plot import can_plot, check_plot_path

    console = console or output.console()
    if out.exists() and not out.is_dir():
        raise BigTwoError(f"--out {out}: not a folder")
    skipped = plot is None and not can_plot()
    plot = not skipped if plot is None else plot
    if plot:
        out.mkdir(parents=True, exist_ok=True)
        check_plot_path(out / FILES[2])
    previous = None
    if (out / FILES[0]).exists() and not fresh:
        previous = Leaderboard.load(out / FILES[0])
    specs = [bot_spec(b, out) for b in bots]
    names = [o.strip() for o in opponents.split(",")] if opponents is not None else None
    if previous is not None:
        _check_mergeable(previous, out, deals, version, seed, names)
    columns = (
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("games"),
        TimeElapsedColumn(),
    )
    with Progress(*columns, console=console, disable=quiet, transient=False) as bar:
        tasks: dict[str, Any] = {}

        def progress(what: str, done: int, total: int) -> None:
            if what not in tasks:
                tasks[what] = bar.add_task(escape(what), total=total)
            bar.update(tasks[what], completed=done, total=total)

        board = run_benchmark(
            specs, deals=deals, version=version, seed=seed, opponents=names, workers=workers, ray=ray, progress=progress
        )
    if previous is not None:
        previous.merge(board)  # refuses a board measured another way, before anything is written
        board = previous
    out.mkdir(parents=True, exist_ok=True)
    console.print(board.markdown(), markup=False, soft_wrap=True)
    console.print(f"leaderboard: {escape(str(board.save_json(out / FILES[0])))}")
    console.print(f"table: {escape(str(board.save_markdown(out / FILES[1])))}")
    if plot:
        console.print(f"plot: {escape(str(board.plot(out / FILES[2])))}")
    elif skipped:
        console.print(escape(f"plot: not drawn, it needs matplotlib (pip install 'bigtwo[plot]'); {FILES[2]} left out"))
    return board
