"""``bigtwo lab imitate | distill | expert | average``: the pipelines that fitted the shipped networks (the ``rl``
extra: torch, CPU), the work done in the modules beside this package (:mod:`bigtwo.lab.imitate`, ...)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from bigtwo.cli.output import console
from bigtwo.lab.cli.dmc import _parse_hidden, _say


def imitate(
    data: Annotated[list[Path], typer.Argument(help="Decisions files (bigtwo simulate --record-decisions)")],
    out: Annotated[Path, typer.Option("--out", "-o", help="Directory for policy.npz and report.json")],
    init_from: Annotated[
        Path | None, typer.Option("--init-from", help="Start from this network: exported .npz weights or a checkpoint")
    ] = None,
    epochs: Annotated[int, typer.Option("--epochs", help="Passes over the training decisions")] = 6,
    lr: Annotated[float, typer.Option("--lr", help="Adam learning rate")] = 3e-4,
    batch_size: Annotated[int, typer.Option("--batch-size", help="Decisions a gradient step")] = 256,
    holdout: Annotated[float, typer.Option("--holdout", help="Share of the games held out to measure the fit")] = 0.1,
    hidden: Annotated[str, typer.Option("--hidden", help="Hidden layer sizes (without --init-from)")] = "512,512,256",
    candidates: Annotated[
        int,
        typer.Option(
            "--candidates", help="Choose among the heuristic's best K moves and the pass, as search does (0: all)"
        ),
    ] = 0,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the held-out games and the order of the steps")] = 0,
    threads: Annotated[int, typer.Option("--threads", help="Torch threads (1: one core)")] = 1,
) -> None:
    """Fit a network to a bot's recorded decisions: a fast stand-in that plays as it plays.

    Prints, epoch by epoch, how often the network's most likely action on held-out games is the one the bot
    chose and the log probability it gives that action (epoch 0: the starting network); the best epoch's
    weights go to OUT/policy.npz, which `learned(weights='OUT/policy.npz')` plays.

    Examples:
      bigtwo simulate --bots "search(iterations=30, utility='cards')" -p 4 --no-duplicate --record-decisions search.npz
      bigtwo lab imitate search.npz --out runs/proxy --init-from runs/classic/best.npz --candidates 4
    """
    try:
        import torch

        from bigtwo.lab.imitate import Epoch, ImitationConfig
        from bigtwo.lab.imitate import imitate as fit
    except ImportError as e:
        _say(f"bigtwo lab imitate needs the rl extra (pip install 'bigtwo[rl]'): {e}", style="red")
        raise typer.Exit(2) from None
    from bigtwo.errors import BigTwoError

    torch.set_num_threads(threads)
    config = ImitationConfig(
        epochs=epochs,
        lr=lr,
        batch_size=batch_size,
        holdout=holdout,
        seed=seed,
        hidden=_parse_hidden(hidden),
        init_from=str(init_from) if init_from else None,
        candidates=candidates,
    )

    def show(e: Epoch) -> None:
        loss = "" if e.epoch == 0 else f"loss {e.loss:.4f}  "
        console().print(
            f"epoch {e.epoch}: {loss}held out: agrees {e.agreement:.1%}, log probability {e.log_probability:.3f} "
            f"a decision (beta {e.beta:.1f}), {e.seconds:.0f} s"
        )

    try:
        result = fit(data, out, config, on_epoch=show)
    except BigTwoError as e:
        _say(str(e), style="red")
        raise typer.Exit(2) from None
    heuristic = (
        f"; the heuristic's first choice agrees {result.heuristic_agreement:.1%}"
        if result.heuristic_agreement is not None
        else ""
    )
    console().print(
        f"{result.decisions:,} decisions with a choice, {result.held_out:,} held out (a uniform choice: log "
        f"probability {result.uniform_log_probability:.3f}{heuristic}); kept epoch {result.kept}: {out / 'policy.npz'}"
    )


def distill(
    out: Annotated[Path, typer.Option("--out", "-o", help="Directory for student.npz and result.json")],
    teacher: Annotated[
        str, typer.Option("--teacher", help="The network to distil: a weights file, or 'shipped' (--rules, --players)")
    ] = "shipped",
    rules: Annotated[
        str, typer.Option("--rules", "-r", help="Preset or TOML file (with --teacher shipped)")
    ] = "classic",
    players: Annotated[int | None, typer.Option("--players", "-p", help="Seats (with --teacher shipped)")] = None,
    hidden: Annotated[str, typer.Option("--hidden", help="The student's hidden layer sizes")] = "256,256,128",
    games: Annotated[int, typer.Option("--games", help="Self-play games of the teacher to learn from")] = 20000,
    explore: Annotated[float, typer.Option("--explore", help="Share of the teacher's moves played at random")] = 0.1,
    epochs: Annotated[int, typer.Option("--epochs", help="Passes over the training decisions")] = 8,
    lr: Annotated[float, typer.Option("--lr", help="Adam learning rate (annealed to 0 over the epochs)")] = 1e-3,
    holdout: Annotated[float, typer.Option("--holdout", help="Share of the games held out to measure the fit")] = 0.05,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the games and of the student's start")] = 0,
    threads: Annotated[int, typer.Option("--threads", help="Torch threads (1: one core)")] = 1,
) -> None:
    """Fit a smaller network to a trained one's values: cheaper play-outs for isearch.

    The teacher plays self-play games; the student learns its value of every legal action at every decision with
    a choice. Prints, epoch by epoch, the held-out error and how often the two choose the same action; the best
    epoch goes to OUT/student.npz, which `isearch(playout_weights='OUT/student.npz')` plays its play-outs with.

    Examples:
      bigtwo lab distill --out runs/small --rules classic --players 4 --hidden 256,256,128 --games 30000
    """
    try:
        from bigtwo.lab.distill import DistillConfig
        from bigtwo.lab.distill import distill as fit
    except ImportError as e:
        _say(f"bigtwo lab distill needs the rl extra (pip install 'bigtwo[rl]'): {e}", style="red")
        raise typer.Exit(2) from None
    from bigtwo.errors import BigTwoError

    config = DistillConfig(
        games=games,
        explore=explore,
        hidden=_parse_hidden(hidden),
        epochs=epochs,
        lr=lr,
        holdout=holdout,
        seed=seed,
        threads=threads,
    )
    try:
        result = fit(teacher, out, config, rules=rules, players=players, log=console().print)
    except BigTwoError as e:
        _say(str(e), style="red")
        raise typer.Exit(2) from None
    kept = result.epochs[result.best_epoch - 1]
    console().print(
        f"kept epoch {kept.epoch}: held-out error {kept.heldout_mse:.5f}, the teacher's choice {kept.agreement:.1%} "
        f"of {result.heldout_decisions:,} held-out decisions: {out / 'student.npz'}"
    )


def average(
    weights: Annotated[list[Path], typer.Argument(help="Weights files of one run (two or more)")],
    out: Annotated[Path, typer.Option("--out", "-o", help="Where the mean network goes (.npz)")],
) -> None:
    """Average a run's snapshots: one network whose every weight is the mean of theirs.

    The snapshots of one training run (the same shape, table, inputs and values) average into one network; in
    the run measured, the mean of the last seven played better head to head than any of them. Any other file
    is refused, naming what differs. Numpy alone.

    Examples:
      bigtwo lab average runs/classic/best.npz runs/classic/latest.npz --out runs/classic/mean.npz
    """
    from bigtwo.errors import BigTwoError
    from bigtwo.rl.average import average_weights

    try:
        policy = average_weights(weights)
    except BigTwoError as e:
        _say(str(e), style="red")
        raise typer.Exit(2) from None
    try:
        policy.save(out)
    except OSError as e:
        _say(f"--out {out}: cannot be written ({e.strerror})", style="red")
        raise typer.Exit(2) from None
    frames = [f["frames"] for f in policy.meta["averaged_from"] if isinstance(f.get("frames"), int)]
    span = f" ({min(frames):,} to {max(frames):,} frames)" if frames else ""
    _say(f"the mean of {len(weights)} networks{span}: {out}")


def expert(
    out: Annotated[Path, typer.Option("--out", "-o", help="Directory for labels/, expert.npz and result.json")],
    weights: Annotated[
        str, typer.Option("--weights", help="The network to improve: a weights file, or 'shipped' (--rules, --players)")
    ] = "shipped",
    rules: Annotated[
        str, typer.Option("--rules", "-r", help="Preset or TOML file (with --weights shipped)")
    ] = "classic",
    players: Annotated[int | None, typer.Option("--players", "-p", help="Seats (with --weights shipped)")] = None,
    games: Annotated[int, typer.Option("--games", help="Self-play games of the network to search in")] = 2000,
    iterations: Annotated[int, typer.Option("--iterations", help="Sampled deals a searched candidate")] = 16,
    share: Annotated[float, typer.Option("--share", help="Share of the decisions with a choice searched")] = 0.25,
    explore: Annotated[float, typer.Option("--explore", help="Share of the network's moves played at random")] = 0.1,
    shard_games: Annotated[int, typer.Option("--shard-games", help="Games a saved shard of labels")] = 50,
    epochs: Annotated[int, typer.Option("--epochs", help="Passes over the searched decisions")] = 4,
    lr: Annotated[float, typer.Option("--lr", help="Adam learning rate")] = 1e-4,
    anchor: Annotated[
        float, typer.Option("--anchor", help="Weight of the actions the search did not value (kept at their values)")
    ] = 0.25,
    holdout: Annotated[float, typer.Option("--holdout", help="Share of the games held out to measure the fit")] = 0.1,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the games and the searches")] = 0,
    threads: Annotated[int, typer.Option("--threads", help="Torch threads (1: one core)")] = 1,
    workers: Annotated[int, typer.Option("--workers", "-w", help="Processes labelling side by side")] = 1,
    select: Annotated[
        str,
        typer.Option(
            "--select",
            help="The epoch kept: 'regret' (the least the search gives up for the network's choice) "
            "or 'agreement' (the network's choice the search's most often)",
        ),
    ] = "regret",
    labels: Annotated[
        Path | None,
        typer.Option("--labels", help="Another run's directory whose labels/ to fit to (and add to), not OUT's"),
    ] = None,
) -> None:
    """Expert iteration: fit the network to what isearch finds when it searches the network's own games.

    The network plays self-play games; in a share of its decisions isearch values its candidates on sampled deals
    (the labels, saved in shards: a stopped run resumes where it stopped). The network is then fitted to the
    search's ranking of them, and the epoch whose choices cost the least by the search's values on held-out
    games (or, with --select agreement, agree with it most) goes to OUT/expert.npz, which `learned(weights=...)`
    and `isearch(weights=...)` play. --labels DIR fits to another run's labels (another learning rate, say)
    without copying them.

    Examples:
      bigtwo lab expert --out runs/expert --rules classic --players 4 --games 2000 --iterations 16
      bigtwo lab expert --out runs/expert-lr3 --labels runs/expert --games 2000 --iterations 16 --lr 3e-4
    """
    try:
        from bigtwo.lab.expert import ExpertConfig
        from bigtwo.lab.expert import expert as run
    except ImportError as e:
        _say(f"bigtwo lab expert needs the rl extra (pip install 'bigtwo[rl]'): {e}", style="red")
        raise typer.Exit(2) from None
    from bigtwo.errors import BigTwoError

    config = ExpertConfig(
        games=games, iterations=iterations, share=share, explore=explore, shard_games=shard_games, seed=seed,
        epochs=epochs, lr=lr, anchor=anchor, holdout=holdout, threads=threads, workers=workers, select=select,
    )  # fmt: skip
    try:
        result = run(out, config, weights, rules=rules, players=players, log=console().print, labels=labels)
    except BigTwoError as e:
        _say(str(e), style="red")
        raise typer.Exit(2) from None
    before, kept = result.epochs[0], result.epochs[result.best_epoch]
    console().print(
        f"kept epoch {kept.epoch} (by {select}): the search's choice in {kept.agreement:.1%} of "
        f"{result.heldout_decisions:,} held-out decisions (before: {before.agreement:.1%}), its regret "
        f"{kept.regret:.3f} points (before: {before.regret:.3f}): {out / 'expert.npz'}"
    )
