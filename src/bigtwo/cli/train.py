"""``bigtwo train``: a learned player for any rules and table size, from one command (needs the ``[rl]`` extra).

Runs the recipe (:mod:`bigtwo.rl.recipe`) with a progress display, then installs the network where ``learned``,
``isearch`` and the table's default opponent find it for exactly these rules and this table size.
"""

from __future__ import annotations

import signal
from pathlib import Path
from typing import Annotated, Any

import typer

from bigtwo.cli.output import console


def _say(text: str, style: str | None = None) -> None:
    """Print ``text`` as it is: brackets in it (bigtwo[rl]) are not markup."""
    console().print(text, style=style, markup=False, emoji=False)


def _evaluation(ev: dict[str, Any], unit: str) -> str:
    return (
        f"{ev['points']:+.2f} {unit} [{ev['low']:+.2f}, {ev['high']:+.2f}] against {ev.get('opponents', 3)} "
        f"{ev['opponent']} ({ev['games']} games, won {ev['win_rate']:.0%})"
    )


def train(
    rules: Annotated[str, typer.Option("--rules", "-r", help="A preset's name or a rules .toml file")] = "classic",
    players: Annotated[
        int | None, typer.Option("--players", "-p", help="Players at the table (default: the rules' own)")
    ] = None,
    minutes: Annotated[
        float | None,
        typer.Option(
            "--minutes", "-m", help="Wall time of the whole run, evaluations included (default: 30 without --frames)"
        ),
    ] = None,
    frames: Annotated[int | None, typer.Option("--frames", help="Or stop at this many self-play frames")] = None,
    out: Annotated[
        Path | None, typer.Option("--out", "-o", help="Also write the finished network to this file, to share or ship")
    ] = None,
    run_dir: Annotated[
        Path | None,
        typer.Option(
            "--run-dir",
            help="The run's checkpoints, snapshots and curve (default: a folder a table in the data folder)",
        ),
    ] = None,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the network, the deals and exploration")] = 0,
    actors: Annotated[
        int, typer.Option("--actors", help="Processes playing games while one learns (2 on a two-core machine)")
    ] = 0,
    eval_deals: Annotated[
        int, typer.Option("--eval-deals", help="Duplicate deals an evaluation (0: from the budget)")
    ] = 0,
    threads: Annotated[int, typer.Option("--threads", help="Torch threads (1: one core)")] = 1,
) -> None:
    """Train a network for these rules and this table size and install it for `learned` and `isearch`.

    One command runs the whole recipe: self-play beside the heuristic, then two stages against a field of the
    heuristic and its own earlier networks, evaluations against the heuristic on duplicate deals, and the mean of
    the last snapshots where it is not behind. Running the same command again resumes a stopped run (Ctrl-C
    stops it with a checkpoint). The result is installed in your data folder for exactly these rules and player
    count; `bigtwo bots` lists the tables that have a network.

    \b
    Examples:
      bigtwo train --rules classic --players 3 --minutes 30
      bigtwo train --rules zheng-shangyou --players 5 --minutes 60 --out zheng-shangyou-5p.npz
    """
    try:
        import torch

        from bigtwo.rl.recipe import Recipe, RecipeProgress
    except ImportError as e:
        _say(f"bigtwo train needs the rl extra (pip install 'bigtwo[rl]'): {e}", style="red")
        raise typer.Exit(2) from None
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    from bigtwo.errors import BigTwoError

    torch.set_num_threads(threads)
    if minutes is None and frames is None:
        minutes = 30.0
    try:
        recipe, resumed = Recipe.start(
            rules, players, run_dir, minutes=minutes, frames=frames, seed=seed, actors=actors, eval_deals=eval_deals
        )
    except (ValueError, OSError, BigTwoError) as e:
        _say(str(e), style="red")
        raise typer.Exit(2) from None
    cfg = recipe.config
    unit = "places a game" if recipe.utility == "place" else "points a game (one a card left)"
    table = f"{recipe.rules.name} with {cfg.players} players"
    budget = " and ".join(
        x
        for x in (f"{cfg.minutes:g} minutes" if cfg.minutes else "", f"{cfg.frames:,} frames" if cfg.frames else "")
        if x
    )
    if resumed:
        _say(f"resuming the run in {recipe.run_dir} ({table}, {budget}: its own plan applies)")
    else:
        _say(f"training {table} for {budget}; run folder {recipe.run_dir}")

    def request_stop(signum: int, _frame: object) -> None:
        if recipe.stop_requested:  # a second signal: stop now
            raise KeyboardInterrupt
        _say(f"signal {signum}: saving a checkpoint after this step, then stopping")
        recipe.request_stop()

    signal.signal(signal.SIGINT, request_stop)
    signal.signal(signal.SIGTERM, request_stop)
    bar = Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        TextColumn("{task.percentage:>3.0f}%"),
        TimeElapsedColumn(),
        console=console(),
        transient=True,
    )
    task = bar.add_task("starting", total=1.0)

    def show(p: RecipeProgress) -> None:
        speed = f"  {p.frames_per_second:,.0f} frames/s" if p.frames_per_second else ""
        bar.update(
            task, completed=p.done, description=f"stage {p.stage + 1}: {p.stage_name}  {p.frames:,} frames{speed}"
        )
        if p.evaluation is not None:
            said = f"stage {p.stage + 1}, {p.frames:,} frames: {_evaluation(p.evaluation, unit)}"
            bar.console.print(said, markup=False)

    try:
        if recipe.finished:
            done = True
        else:
            with bar:
                done = recipe.run(on_progress=show)
    except (ValueError, BigTwoError) as e:
        _say(str(e), style="red")
        raise typer.Exit(2) from None
    if not done:
        _say(f"stopped at {recipe.frames:,} frames with a checkpoint: run the same command to go on")
        raise typer.Exit(130)
    final = recipe.state.final
    assert final is not None
    which = "the mean of the last snapshots" if final["averaged"] else "the last snapshot"
    _say(f"finished: {final['frames']:,} frames in {final['seconds'] / 60:.1f} minutes; {which} kept")
    _say(f"against the heuristic on {recipe.final_deals} new deals: {_evaluation(final['evaluation'], unit)}")
    try:
        installed = recipe.install(out)
    except (BigTwoError, OSError) as e:
        _say(str(e), style="red")
        raise typer.Exit(2) from None
    if installed is None:
        shipped = final["shipped"]
        _say(
            f"not installed: the network the package ships for {table} scored {shipped['points']:+.2f} on the same "
            f"deals, and stays the one `learned` and `isearch` play there (this run's is in {final['file']})"
        )
    else:
        _say(f"installed {installed}: `learned` and `isearch` play it at {table}")
    if out is not None:
        _say(f"also written to {out}")
