"""``bigtwo lab standin``: a learned stand-in for ``search``, fitted to its play-outs' values
(:mod:`bigtwo.lab.standin`)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

from bigtwo.cli.output import console
from bigtwo.errors import BigTwoError
from bigtwo.lab.cli.dmc import _parse_hidden, _say

standin_app = typer.Typer(
    help="A fast stand-in for the search bot: collect its play-outs' values, then fit a network to them.",
    no_args_is_help=True,
)


@standin_app.command("collect")
def collect(
    out: Annotated[Path, typer.Argument(help="Directory for the shards (SEED-K.npz)")],
    rules: Annotated[str, typer.Option("--rules", "-r", help="Preset name or path to a rules .toml file")] = "classic",
    players: Annotated[int | None, typer.Option("--players", "-p", help="Seats (default: the rules' own)")] = None,
    minutes: Annotated[float | None, typer.Option("--minutes", help="Stop after this much wall time")] = None,
    positions: Annotated[int | None, typer.Option("--positions", help="Stop at this many positions in all")] = None,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the games (a worker's is seed + its number)")] = 0,
    workers: Annotated[int, typer.Option("--workers", "-w", help="Processes collecting side by side")] = 1,
    candidates: Annotated[
        int, typer.Option("--candidates", help="The search's candidates: its heuristic's best K and the pass")
    ] = 4,
    utility: Annotated[str, typer.Option("--utility", help="Points played out for: cards, score, place or win")] = (
        "cards"
    ),
    learned_share: Annotated[
        float, typer.Option("--learned-share", help="Share of seats the learned network plays (the rest: heuristic)")
    ] = 0.5,
    explore: Annotated[float, typer.Option("--explore", help="Share of moves played at random")] = 0.03,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress display")] = False,
) -> None:
    """Record search's candidates at every decision of quick bots' games, with one play-out of each on one sampled
    deal: what a stand-in for the search is fitted to (`bigtwo lab standin fit`).

    Examples:
      bigtwo lab standin collect runs/standin/data --minutes 60 --workers 2
    """
    from bigtwo.lab.standin import CollectConfig, check_collection, collect_parallel

    cfg = CollectConfig(
        rules=rules,
        players=players,
        minutes=minutes,
        positions=positions,
        seed=seed,
        candidates=candidates,
        utility=utility,
        learned_share=learned_share,
        explore=explore,
    )
    # the bar fills by positions where there is a count to reach, else by the minutes
    columns = (
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        TextColumn("{task.fields[positions]:,} positions, {task.fields[playouts]:,} play-outs"),
        TimeElapsedColumn(),
        TextColumn("ETA"),
        TimeRemainingColumn(),
    )
    by_positions = positions is not None
    try:
        check_collection(cfg, out, workers)
        with Progress(*columns, console=console(), disable=quiet, transient=False) as bar:
            start = time.perf_counter()
            total = float(positions) if positions is not None else 60.0 * (minutes or 0.0)
            task = bar.add_task(escape(f"{rules}: search values"), total=total, positions=0, playouts=0)

            def progress(done: int, playouts: int) -> None:
                at = float(done) if by_positions else time.perf_counter() - start
                bar.update(task, completed=min(at, total), positions=done, playouts=playouts)

            got = collect_parallel(cfg, out, workers, progress=progress)
            bar.update(task, completed=total, positions=got.positions, playouts=got.playouts)
    except BigTwoError as e:
        _say(str(e), style="red")
        raise typer.Exit(2) from None
    console().print(
        f"{got.positions:,} positions ({got.playouts:,} play-outs) from {got.games:,} games in {got.seconds:.0f} s: "
        f"{len(got.files)} {'file' if len(got.files) == 1 else 'files'} in {out}"
    )


@standin_app.command("fit")
def fit(
    data: Annotated[list[Path], typer.Argument(help="Shards written by bigtwo lab standin collect")],
    out: Annotated[Path, typer.Option("--out", "-o", help="Directory for standin.npz and report.json")],
    init_from: Annotated[
        str | None,
        typer.Option("--init-from", help="Start from this network: .npz weights, a checkpoint, or 'shipped'"),
    ] = None,
    epochs: Annotated[int, typer.Option("--epochs", help="Passes over the training positions")] = 3,
    lr: Annotated[float, typer.Option("--lr", help="Adam learning rate")] = 3e-4,
    batch_size: Annotated[int, typer.Option("--batch-size", help="Positions a gradient step")] = 256,
    holdout: Annotated[float, typer.Option("--holdout", help="Share of the positions held out")] = 0.05,
    hidden: Annotated[str, typer.Option("--hidden", help="Hidden layer sizes (as --init-from's)")] = "512,512,256",
    seed: Annotated[int, typer.Option("--seed", help="Seed of the held-out positions and the order of the steps")] = 0,
    threads: Annotated[int, typer.Option("--threads", help="Torch threads (1: one core)")] = 1,
) -> None:
    """Fit a network to collected play-out values: a stand-in that plays as search would with every deal searched.

    Prints, epoch by epoch, the held-out squared error of each candidate's points and of its points less its
    decision's mean (what the choice depends on), and the share of the latter's variance explained; the best
    epoch goes to OUT/standin.npz, which `learned(weights='OUT/standin.npz')` plays and
    `isearch(opponent_weights='OUT/standin.npz')` moves the other seats of its play-outs with.

    Examples:
      bigtwo lab standin fit runs/standin/data/*.npz --out runs/standin/fit --init-from shipped --threads 2
    """
    try:
        import torch

        from bigtwo.lab.standin import FitConfig, FitEpoch
        from bigtwo.lab.standin import fit as fit_values
    except ImportError as e:
        _say(f"bigtwo lab standin fit needs the rl extra (pip install 'bigtwo[rl]'): {e}", style="red")
        raise typer.Exit(2) from None

    torch.set_num_threads(threads)
    cfg = FitConfig(
        epochs=epochs,
        lr=lr,
        batch_size=batch_size,
        holdout=holdout,
        hidden=_parse_hidden(hidden),
        init_from=init_from,
        seed=seed,
    )

    def show(e: FitEpoch) -> None:
        loss = "" if e.epoch == 0 else f"loss {e.loss:.4f}  "
        console().print(
            f"epoch {e.epoch}: {loss}held out: squared error {e.error:.2f}, less the decision's mean "
            f"{e.relative_error:.2f} ({e.explained:.1%} of its variance explained), {e.seconds:.0f} s"
        )

    try:
        result = fit_values(data, out, cfg, on_epoch=show)
    except BigTwoError as e:
        _say(str(e), style="red")
        raise typer.Exit(2) from None
    console().print(
        f"{result.positions:,} positions, {result.held_out:,} held out (their candidates' points vary by "
        f"{result.relative_variance:.2f} about the decision's mean); kept epoch {result.kept}: {out / 'standin.npz'}"
    )


__all__ = ["standin_app"]
