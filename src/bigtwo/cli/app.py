"""Typer application: one small function per subcommand, the work done in the modules below it."""

from __future__ import annotations

import typer
from rich.console import Console
from rich.table import Table

from bigtwo.cli.serve import serve
from bigtwo.errors import BigTwoError
from bigtwo.rules.ruleset import Ruleset, field_section, list_presets, load_rules

app = typer.Typer(
    help="Big Two and its family of climbing card games.",
    no_args_is_help=False,
    add_completion=False,
    invoke_without_command=True,
)
rules_app = typer.Typer(help="List and inspect rule sets.", no_args_is_help=True)
app.add_typer(rules_app, name="rules")
app.command()(serve)
console = Console(highlight=False)


def _load(rules: str) -> Ruleset:
    try:
        return load_rules(rules)
    except BigTwoError as e:
        console.print(f"[red]{e}[/red]")
        raise typer.Exit(2) from None


@app.callback()
def _root(ctx: typer.Context) -> None:
    """With no command, start a game (the same as ``bigtwo play``)."""
    if ctx.invoked_subcommand is None:
        ctx.invoke(play)


@app.command()
def play(
    rules: str = typer.Option("classic", "--rules", "-r", help="Preset name or path to a rules .toml file"),
    players: int = typer.Option(None, "--players", "-p", help="Number of players (default: the rules' own)"),
    seat: int = typer.Option(0, "--seat", help="Your seat (0 is the first)"),
    bots: str = typer.Option("greedy", "--bots", help="Computer players: one name for all, or comma-separated"),
    seed: int = typer.Option(None, "--seed", help="Deal seed (default: random)"),
    delay: float = typer.Option(0.4, "--delay", help="Seconds a computer player pauses before acting"),
    ascii_cards: bool = typer.Option(False, "--ascii", help="Letters instead of suit symbols"),
    rounds: int = typer.Option(None, "--rounds", help="Play a match of this many rounds (exchanges, scores)"),
    points: int = typer.Option(None, "--points", help="Play a match until a total reaches this many points"),
) -> None:
    """Play a round (or a match, with --rounds / --points) in the terminal; type cards like '3D 3S', or 'pass'."""
    from bigtwo.cli.match_table import MatchTable
    from bigtwo.cli.plain import PlainTable

    r = _load(rules)
    try:
        common = dict(players=players, seat=seat, bots=bots, seed=seed, delay=delay, ascii_cards=ascii_cards)
        if rounds is not None or points is not None:
            table: PlainTable = MatchTable(r, rounds=rounds, points=points, console=console, **common)
        else:
            table = PlainTable(r, console=console, **common)
    except (BigTwoError, ValueError) as e:
        console.print(f"[red]{e}[/red]")
        raise typer.Exit(2) from None
    table.run()


@rules_app.command("list")
def rules_list() -> None:
    """The presets shipped with bigtwo."""
    t = Table(title="Presets", show_lines=False)
    t.add_column("name", style="bold")
    t.add_column("players")
    t.add_column("description")
    for name in list_presets():
        r = load_rules(name)
        t.add_row(name, f"{r.min_players}-{r.max_players}", r.description)
    console.print(t)


@rules_app.command("show")
def rules_show(
    name: str = typer.Argument(..., help="Preset name or path to a rules .toml file"),
    toml: bool = typer.Option(False, "--toml", help="Print as TOML (a starting point for house rules)"),
) -> None:
    """Every setting of a rule set, with what it means."""
    r = _load(name)
    if toml:
        console.print(r.to_toml(), markup=False)
        return
    defaults = Ruleset.model_construct()
    console.print(f"[bold]{r.name}[/bold]: {r.description}")
    t = Table(show_lines=False)
    t.add_column("section", style="dim")
    t.add_column("setting", style="bold")
    t.add_column("value")
    t.add_column("meaning", overflow="fold")
    for key, field in Ruleset.model_fields.items():
        if key in ("name", "description"):
            continue
        value = getattr(r, key)
        shown = _show_value(value)
        if value != getattr(defaults, key):
            shown = f"[yellow]{shown}[/yellow]"
        t.add_row(field_section(key), key, shown, field.description or "")
    console.print(t)
    console.print("[dim]Yellow: differs from the classic defaults.[/dim]")


def _show_value(value: object) -> str:
    if isinstance(value, tuple):
        return ", ".join(str(v) for v in value)
    if isinstance(value, dict):
        return ", ".join(f"{k}: {v}" for k, v in value.items())
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def main() -> None:
    app()
