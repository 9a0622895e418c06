"""``bigtwo lab dmc``: one Deep Monte-Carlo self-play run with every setting in reach (needs the ``[rl]`` extra).

The stages the lab ran by hand (curricula, fields of opponents, fine-tuning from a network) are runs of this
command; the product's ``bigtwo train`` runs the recipe they found as one command (:mod:`bigtwo.rl.recipe`)."""

from __future__ import annotations

import signal
from pathlib import Path
from typing import Annotated

import typer

from bigtwo.bots.spec import split_lineup
from bigtwo.cli.output import console
from bigtwo.cli.simulate import find_classes_beside_the_user
from bigtwo.rules.choices import Measure


def _say(text: str, style: str | None = None) -> None:
    """Print ``text`` as it is: brackets in it (bigtwo[rl]) are not markup, nor ``:x:`` an emoji."""
    console().print(text, style=style, markup=False, emoji=False)


def _parse_hidden(text: str) -> tuple[int, ...]:
    try:
        sizes = tuple(int(x) for x in text.split(",") if x.strip())
    except ValueError:
        raise typer.BadParameter(f"--hidden {text!r}: layer sizes are whole numbers, e.g. 512,512,256") from None
    if not sizes or min(sizes) < 1:
        raise typer.BadParameter(f"--hidden {text!r}: at least one layer, each of one unit or more")
    return sizes


def dmc(
    out: Annotated[Path, typer.Option("--out", "-o", help="Run directory: checkpoint, log, weights, curve")],
    rules: Annotated[str, typer.Option("--rules", "-r", help="Preset name or path to a rules .toml file")] = "classic",
    players: Annotated[int | None, typer.Option("--players", "-p", help="Seats (default: the rules' own)")] = None,
    frames: Annotated[int | None, typer.Option("--frames", help="Stop at this many frames in all")] = None,
    hours: Annotated[float | None, typer.Option("--hours", help="Stop after this much more wall time")] = None,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the network, the deals and exploration")] = 0,
    envs: Annotated[int, typer.Option("--envs", help="Games in lockstep (one batched inference a step)")] = 32,
    hidden: Annotated[str, typer.Option("--hidden", help="Hidden layer sizes, comma-separated")] = "512,512,256",
    history: Annotated[int, typer.Option("--history", help="Recent actions in the state")] = 8,
    lr: Annotated[float, typer.Option("--lr", help="Adam learning rate")] = 3e-4,
    lr_final: Annotated[
        float | None,
        typer.Option("--lr-final", help="Let the learning rate fall in a straight line from --lr to this"),
    ] = None,
    lr_frames: Annotated[
        int | None, typer.Option("--lr-frames", help="Frames over which it falls (then it stays at --lr-final)")
    ] = None,
    batch_size: Annotated[int, typer.Option("--batch-size", help="Frames a gradient step")] = 512,
    replay: Annotated[
        int, typer.Option("--replay", help="Gradient steps per new batch (more reuse recent frames)")
    ] = 1,
    epsilon: Annotated[float, typer.Option("--epsilon", help="Probability of a random legal action")] = 0.05,
    utility: Annotated[
        str,
        typer.Option(
            "--utility", help="Points learned: cards, score, place or win (a preset played for places: place)"
        ),
    ] = "cards",
    reward_scale: Annotated[
        float,
        typer.Option(
            "--reward-scale",
            help="Points a unit of the network's values (13: a hand of cards; larger for points that run higher, "
            "as face values do)",
        ),
    ] = 13.0,
    opponent: Annotated[
        str,
        typer.Option(
            "--opponent",
            help="Bots in the games that are not self-play: a spec, or a comma-separated field of them",
        ),
    ] = "heuristic",
    opponent_share: Annotated[
        float, typer.Option("--opponent-share", help="Fraction of games with one learning seat among bots")
    ] = 0.0,
    eval_every: Annotated[int, typer.Option("--eval-every", help="Frames between evaluations (0: never)")] = 250_000,
    eval_deals: Annotated[int, typer.Option("--eval-deals", help="Duplicate deals an evaluation")] = 100,
    eval_opponent: Annotated[
        str, typer.Option("--eval-opponent", help="Bot the evaluation plays (a spec: learned(weights='old.npz'))")
    ] = "heuristic",
    init_from: Annotated[
        Path | None,
        typer.Option(
            "--init-from",
            help="Start from this network: a checkpoint or exported .npz weights (of this table, or of one whose "
            "rounds are this table's with the suits renamed: classic's for taiwan or pusoy-dos)",
        ),
    ] = None,
    export: Annotated[
        Path | None, typer.Option("--export", help="Also write each new best evaluation's weights here (.npz)")
    ] = None,
    snapshots: Annotated[
        bool,
        typer.Option(
            "--snapshots/--no-snapshots",
            help="Keep every evaluated network as OUT/snapshots/fFRAMES.npz (to average with bigtwo lab average)",
        ),
    ] = False,
    actors: Annotated[
        int,
        typer.Option(
            "--actors",
            help="Processes that play --envs games each while this one learns (0: play and learn in one process)",
        ),
    ] = 0,
    round_steps: Annotated[
        int, typer.Option("--round-steps", help="Moves an actor plays between two weight updates it receives")
    ] = 16,
    threads: Annotated[int, typer.Option("--threads", help="Torch threads (1: one core)")] = 1,
    report_every: Annotated[float, typer.Option("--report-every", help="Seconds between progress lines")] = 30.0,
    checkpoint_every: Annotated[float, typer.Option("--checkpoint-every", help="Seconds between checkpoints")] = 600.0,
) -> None:
    """Train the learned bot by self-play; an existing checkpoint in --out is resumed exactly.

    Prints frames/s, the loss and each periodic evaluation (the greedy policy against three bots on duplicate
    deals, 95% interval); the best evaluation's weights go to OUT/best.npz (and --export), the learning curve
    to OUT/curve.png.
    """
    try:
        import torch

        from bigtwo.rl.dmc import Progress, TrainConfig, Trainer
        from bigtwo.rl.evaluate import opponents_played
    except ImportError as e:
        _say(f"bigtwo lab dmc needs the rl extra (pip install 'bigtwo[rl]'): {e}", style="red")
        raise typer.Exit(2) from None
    torch.set_num_threads(threads)
    ckpt = out / "checkpoint.pt"
    try:
        # a module:Class of one's own among the bots, beside the user (rerunning the command resumes a run)
        find_classes_beside_the_user([*split_lineup(opponent), eval_opponent])
        if ckpt.exists():
            trainer = Trainer.load(ckpt)
            console().print(
                f"resuming {ckpt}: {trainer.frames:,} frames, {trainer.games:,} games, "
                f"{trainer.seconds / 3600:.2f} h (its own settings apply: {trainer.config.to_dict()})"
            )
        else:
            config = TrainConfig(
                rules=rules,
                players=players,
                seed=seed,
                num_envs=envs,
                history=history,
                hidden=_parse_hidden(hidden),
                lr=lr,
                lr_final=lr_final,
                lr_frames=lr_frames or 0,
                batch_size=batch_size,
                replay=replay,
                epsilon=epsilon,
                utility=utility,
                reward_scale=reward_scale,
                opponent=opponent,
                opponent_share=opponent_share,
                eval_every=eval_every,
                eval_deals=eval_deals,
                eval_opponent=eval_opponent,
                init_from=str(init_from) if init_from else None,
                actors=actors,
                round_steps=round_steps,
            )
            trainer = Trainer(config, out)
            console().print(f"training {config.to_dict()}")
            if utility == Measure.CARDS and trainer.rules.play_measure == Measure.PLACE:
                console().print(
                    f"[yellow]{trainer.rules.name} is played for places, and this run learns cards left: "
                    "--utility place learns what its players play for[/yellow]"
                )
    except (ValueError, OSError) as e:
        _say(str(e), style="red")
        raise typer.Exit(2) from None

    def show(p: Progress) -> None:
        loss = f"loss {p.loss:.4f}" if p.loss is not None else "loss -"
        line = (
            f"{p.frames:>12,} frames  {p.games:>9,} games  {p.frames_per_second:>7,.0f} frames/s  {loss}  "
            f"{p.seconds / 3600:6.2f} h"
        )
        if "lr" in p.extra:
            line += f"  lr {p.extra['lr']:.2e}"
        if p.evaluation:
            ev = p.evaluation
            line += (
                f"\n  eval vs {opponents_played(ev)} ({ev['games']} games): "
                f"{ev['points']:+.2f} a game [{ev['low']:+.2f}, {ev['high']:+.2f}], won {ev['win_rate']:.0%}"
            )
        console().print(line)

    def request_stop(signum: int, _frame: object) -> None:
        if trainer.stop_requested:  # a second signal: stop now, without a checkpoint of this step
            raise KeyboardInterrupt
        console().print(f"signal {signum}: saving a checkpoint after this step, then stopping")
        trainer.stop_requested = True

    signal.signal(signal.SIGINT, request_stop)
    signal.signal(signal.SIGTERM, request_stop)
    try:
        trainer.run(
            frames=frames,
            seconds=hours * 3600 if hours is not None else None,
            report_every=report_every,
            checkpoint_every=checkpoint_every,
            on_progress=show,
            export=export,
            snapshots=snapshots,
        )
    finally:
        trainer.close()
    best = "no evaluation yet" if trainer.best is None else f"best evaluation {trainer.best:+.2f} a game"
    _say(f"saved {ckpt} ({trainer.frames:,} frames); {best}")
