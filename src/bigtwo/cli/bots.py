"""``bigtwo bots``: the computer players, and what a search will do at a table (``bigtwo bots show``)."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.markup import escape

from bigtwo.cli.output import console

bots_app = typer.Typer(invoke_without_command=True)


@bots_app.callback()
def bots_list(ctx: typer.Context) -> None:
    """The computer players --bots accepts, and the tables with a network (shipped or trained here); `bigtwo bots
    show isearch` prints what the search will do at a table.

    \b
    Examples:
      bigtwo bots
    """
    if ctx.invoked_subcommand is not None:
        return
    from bigtwo.bots.registry import bot_words
    from bigtwo.cli.session import available_bots

    for name in available_bots():
        console().print(f"[bold]{escape(name)}[/bold]  {escape(bot_words(name))}")
    _networks()


def _networks() -> None:
    """The tables (rules and players) the learned bot has a network for, shipped and trained here."""
    from rich.table import Table

    from bigtwo.bots.learned import table_networks

    table = Table(title="Tables with a network (learned, isearch)", title_justify="left")
    for column in ("rules", "players", "network", "frames", "evaluation"):
        table.add_column(column, justify="right" if column in ("players", "frames") else "left")
    for net in table_networks():
        ev = net.evaluation
        said = (
            f"{ev['points']:+.2f} [{ev['low']:+.2f}, {ev['high']:+.2f}] vs {ev.get('opponents', 3)} {ev['opponent']}"
            if ev and {"points", "low", "high", "opponent"} <= ev.keys()
            else "-"
        )
        frames = f"{net.frames:,}" if net.frames is not None else "-"
        table.add_row(escape(net.rules), str(net.players), escape(net.where), frames, escape(said))
    console().print()
    console().print(table)
    console().print("Other tables: bigtwo train --rules RULES --players N --minutes 30 makes one.", markup=False)


@bots_app.command("show")
def bots_show(
    bot: Annotated[str, typer.Argument(help='A search bot: isearch, or a spec with options, "isearch(prior=10)".')],
    rules: Annotated[str, typer.Option("--rules", help="A preset's name or a rules file.")] = "classic",
    players: Annotated[int, typer.Option("--players", help="Players at the table.")] = 4,
    budget_ms: Annotated[
        float | None, typer.Option("--budget-ms", help="Its thinking limit a decision, in milliseconds.")
    ] = None,
    iterations: Annotated[int | None, typer.Option("--iterations", help="Its budget in sampled deals.")] = None,
) -> None:
    """What a search bot will do at a table: its options' 'auto' resolved into a plan, in words.

    \b
    Examples:
      bigtwo bots show isearch --rules classic --players 4 --budget-ms 1000
      bigtwo bots show "isearch(utility='cards')" --budget-ms 400
      bigtwo bots show isearch --rules tien-len --players 4 --budget-ms 1000
    """
    from bigtwo.bots.search_plan import SearchPlan
    from bigtwo.bots.spec import BotSpec
    from bigtwo.errors import BigTwoError
    from bigtwo.rules.ruleset import load_rules

    try:
        spec = BotSpec.parse(bot)
        table = load_rules(rules)
        if not table.min_players <= players <= table.max_players:
            raise BigTwoError(
                f"{table.name} is played by {table.min_players} to {table.max_players} players, not {players}"
            )
        options = dict(spec.options)
        if budget_ms is not None:
            options["budget_ms"] = budget_ms
        if iterations is not None:
            options["iterations"] = iterations
        built = BotSpec(spec.name, options).build(0)
        plan_for = getattr(built, "plan_for", None)
        if plan_for is None:
            raise BigTwoError(f"{spec.name} makes no search plan: only isearch does")
        plan: SearchPlan = plan_for(table, players)
    except (BigTwoError, ValueError) as e:
        console().print(f"[red]{escape(str(e))}[/red]")
        raise typer.Exit(2) from None
    for line in plan.describe():
        console().print(escape(line), soft_wrap=True)
