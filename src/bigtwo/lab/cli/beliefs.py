"""``bigtwo lab beliefs``: the belief network that deals a search's hidden cards (:mod:`bigtwo.lab.belief`)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

from bigtwo.cli.output import console
from bigtwo.errors import BigTwoError
from bigtwo.lab.cli.dmc import _parse_hidden, _say

beliefs_app = typer.Typer(
    help="Beliefs for the search: collect where the hidden cards were in simulated rounds, then fit a network.",
    no_args_is_help=True,
)


@beliefs_app.command("collect")
def collect(
    out: Annotated[Path, typer.Argument(help="The shard to write (.npz)")],
    rules: Annotated[str, typer.Option("--rules", "-r", help="Preset name")] = "classic",
    players: Annotated[int | None, typer.Option("--players", "-p", help="Seats (default: the rules' own)")] = None,
    rounds: Annotated[int, typer.Option("--rounds", help="Rounds to play")] = 1000,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the rounds")] = 0,
    field: Annotated[
        str | None,
        typer.Option("--field", help="The network the field plays (weights .npz; default: the shipped learned bot)"),
    ] = None,
    heuristic_share: Annotated[
        float, typer.Option("--heuristic-share", help="Share of seats the heuristic plays")
    ] = 0.2,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress display")] = False,
) -> None:
    """Play rounds with a field of quick bots and record, at every decision, the seat's belief input and where
    each card it cannot see truly is.

    Examples:
      bigtwo lab beliefs collect runs/beliefs/data/classic-4p-1.npz --rounds 6000 --seed 1
    """
    from bigtwo.lab.belief import collect as collect_rounds

    for wrong, words in (
        (rounds < 1, f"--rounds {rounds}: must be 1 or more"),
        (not 0 <= heuristic_share <= 1, f"--heuristic-share {heuristic_share}: must lie in [0, 1]"),
    ):
        if wrong:
            _say(words, style="red")
            raise typer.Exit(2)
    columns = (
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        TextColumn("{task.completed:,.0f} of {task.total:,.0f} rounds, {task.fields[positions]:,} positions"),
        TimeElapsedColumn(),
        TextColumn("ETA"),
        TimeRemainingColumn(),
    )
    try:
        with Progress(*columns, console=console(), disable=quiet, transient=False) as bar:
            task = bar.add_task(escape(f"{rules}: beliefs"), total=rounds, positions=0)
            data = collect_rounds(
                rules,
                players,
                rounds,
                seed,
                field,
                heuristic_share,
                progress=lambda done, positions: bar.update(task, completed=done, positions=positions),
            )
    except BigTwoError as e:
        _say(str(e), style="red")
        raise typer.Exit(2) from None
    out.parent.mkdir(parents=True, exist_ok=True)
    data.save(out)
    positions = len(data.x)
    console().print(f"{positions:,} {'position' if positions == 1 else 'positions'} from {rounds:,} rounds: {out}")


@beliefs_app.command("fit")
def fit(
    data: Annotated[list[Path], typer.Argument(help="Shards written by bigtwo lab beliefs collect")],
    out: Annotated[Path, typer.Option("--out", "-o", help="The belief weights to write (.npz)")],
    rules: Annotated[str, typer.Option("--rules", "-r", help="The preset the shards were collected under")] = (
        "classic"
    ),
    players: Annotated[int | None, typer.Option("--players", "-p", help="Seats (default: the rules' own)")] = None,
    epochs: Annotated[int, typer.Option("--epochs", help="Passes over the training positions")] = 6,
    lr: Annotated[float, typer.Option("--lr", help="Adam learning rate (cosine decay to 0)")] = 1e-3,
    batch_size: Annotated[int, typer.Option("--batch-size", help="Positions a gradient step")] = 512,
    hidden: Annotated[str, typer.Option("--hidden", help="Hidden layer sizes")] = "512,512",
    seed: Annotated[int, typer.Option("--seed", help="Seed of the held-out positions and the steps")] = 0,
    threads: Annotated[int, typer.Option("--threads", help="Torch threads (1: one core)")] = 1,
) -> None:
    """Fit the belief network: each hidden card's place, by cross-entropy; prints the held-out nats a hidden card
    beside those of dealing uniformly.

    Examples:
      bigtwo lab beliefs fit runs/beliefs/data/*.npz --out runs/beliefs/classic-4p.npz --epochs 2
    """
    try:
        import torch

        from bigtwo.lab.belief import BeliefData, FitConfig
        from bigtwo.lab.belief import fit as fit_beliefs
    except ImportError as e:
        _say(f"bigtwo lab beliefs fit needs the rl extra (pip install 'bigtwo[rl]'): {e}", style="red")
        raise typer.Exit(2) from None
    from bigtwo.rules.ruleset import load_rules

    torch.set_num_threads(threads)
    try:
        ruleset = load_rules(rules)
        shards = BeliefData.load(data)
        cfg = FitConfig(hidden=_parse_hidden(hidden), epochs=epochs, batch=batch_size, lr=lr, seed=seed)
        result = fit_beliefs(
            shards,
            ruleset.name,
            players or ruleset.players,
            cfg,
            out,
            progress=lambda row: console().print(
                f"epoch {row['epoch']}: loss {row['train_loss']:.4f}, held out {row['validation_loss']:.4f} nats"
            ),
        )
    except BigTwoError as e:
        _say(str(e), style="red")
        raise typer.Exit(2) from None
    console().print(
        f"{result.positions:,} positions; held out: {result.epochs[-1]['validation_loss']:.4f} nats a hidden card "
        f"(uniform deals: {result.uniform_loss:.4f}); {result.seconds:.0f} s: {out}"
    )


__all__ = ["beliefs_app"]
