"""Typer application: one small function per subcommand, the work done in the modules below it."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Annotated, NoReturn

import typer
from rich.markup import escape
from rich.table import Table

from bigtwo import native
from bigtwo.cli.bots import bots_app
from bigtwo.cli.group import CommandGroup
from bigtwo.cli.ladder import ladder_app
from bigtwo.cli.learn import learn
from bigtwo.cli.output import console
from bigtwo.cli.serve import serve
from bigtwo.cli.train import train
from bigtwo.errors import BigTwoError
from bigtwo.i18n import _
from bigtwo.rules.explain import explain
from bigtwo.rules.ruleset import Ruleset, field_section, list_presets, load_rules

app = typer.Typer(
    cls=CommandGroup,  # play first, then the rest in CommandGroup.ORDER; flags shown as flags
    help="Big Two and its family of climbing card games.",
    no_args_is_help=False,
    add_completion=False,
    invoke_without_command=True,
)
rules_app = typer.Typer(help="List and inspect rule sets.", no_args_is_help=True)
app.add_typer(rules_app, name="rules")
app.add_typer(ladder_app, name="ladder")
app.command()(learn)
app.command()(serve)
app.command()(train)


def _error(e: object, code: int = 2) -> NoReturn:
    """Print an error (its text as text: square brackets in it are not markup) and exit with ``code``."""
    console().print(f"[red]{escape(str(e))}[/red]")
    raise typer.Exit(code)


def _load(rules: str) -> Ruleset:
    try:
        return load_rules(rules)
    except BigTwoError as e:
        _error(e)


def _choose_language(lang: str | None) -> None:
    """The table's language: ``--lang`` (a language we speak, by any of its tags: ``zh-TW``, ``vi``), else the
    environment's locale, else English. An unknown ``--lang`` is refused in words."""
    from bigtwo import i18n

    if lang is None:
        i18n.use_language(i18n.from_environment())
        return
    code = i18n.negotiate([lang])
    if code is None:
        _error(f"--lang {lang!r}: not a language the table speaks; one of {', '.join(i18n.LANGUAGES)}")
    i18n.use_language(code)


@app.callback()
def _root(ctx: typer.Context) -> None:
    """With no command, start a game (the same as ``bigtwo play``)."""
    if ctx.invoked_subcommand is None:
        command = ctx.command.get_command(ctx, "play")  # type: ignore[attr-defined]
        ctx.invoke(command)  # a click command: its options take their defaults


@app.command()
def play(
    rules: str = typer.Option("classic", "--rules", "-r", help="Preset name or path to a rules .toml file"),
    players: int = typer.Option(None, "--players", "-p", help="Number of players (default: the rules' own)"),
    seat: int = typer.Option(0, "--seat", help="Your seat (0 is the first)"),
    bots: str = typer.Option(
        None,
        "--bots",
        help="Computer players: one for all, or one per seat, comma-separated; options in parentheses, e.g. "
        "'greedy,random,search(iterations=40)'. 'bigtwo bots' lists them. Default: the strongest bot that "
        "answers within --delay at this table",
        show_default=False,
    ),
    seed: int = typer.Option(None, "--seed", help="Deal seed (default: random, and shown)"),
    delay: float = typer.Option(0.4, "--delay", help="Seconds a computer player pauses before acting"),
    ascii_cards: bool = typer.Option(False, "--ascii", help="Letters instead of suit symbols (10H, 3D)"),
    rounds: int = typer.Option(None, "--rounds", help="Play a match of this many rounds (exchanges, scores)"),
    points: int = typer.Option(None, "--points", help="Play a match until a total reaches this many points"),
    plain: bool = typer.Option(False, "--plain", help="The line-by-line table (also used when not in a terminal)"),
    save: str = typer.Option(None, "--save", help="Save the record to this file (.json for JSON) when done"),
    theme: str = typer.Option(None, "--theme", help="Colour theme, e.g. textual-light, ansi-dark, ansi-light"),
    names: str = typer.Option(
        None,
        "--names",
        help="The computer players' names, one a seat in seat order, comma-separated (default: Ana, Ben, Chloe, ...)",
        show_default=False,
    ),
    lang: str = typer.Option(
        None,
        "--lang",
        help="The table's language: en, zh_Hant, zh_Hans, fil, id, ms, vi (default: the environment's locale, "
        "LANGUAGE / LC_ALL / LC_MESSAGES / LANG, else English)",
        show_default=False,
    ),
) -> None:
    """Play a round (or a match, with --rounds / --points, or where a rules file sets one) in the terminal.

    \b
    Examples:
      bigtwo play                                                      # classic, against the strongest bots for --delay
      bigtwo play --rules winner --players 3 --seed 11
      bigtwo play --plain --bots 'greedy,random,search(iterations=40)'  # one bot a seat, options in parentheses
      bigtwo play --rules house-code --rounds 5 --save match.txt       # a match: roles, trading, scores
      bigtwo play --rules ./our-rules.toml --ascii                     # your own rules (see 'bigtwo rules show')
      bigtwo play --names 'Mum,Dad,Grandpa'                            # the computer players' names
    """
    import math
    import sys

    if not (math.isfinite(delay) and delay >= 0):
        _error(f"--delay {delay:g}: a computer player's pause is a number of seconds, 0 or more")
    _choose_language(lang)
    r = _load(rules)
    if rounds is None and points is None and r.match_set is not None:
        rounds, points = r.match_set  # a rules file that sets a match's length plays that match
    named = None if names is None else names.split(",")
    if not plain and sys.stdin.isatty() and sys.stdout.isatty():
        from bigtwo.cli.session import TableSession
        from bigtwo.cli.tui import run_table

        def new_session(fresh_seed: int | None = None) -> TableSession:
            return TableSession(
                r,
                players=players,
                seat=seat,
                bots=bots,
                seed=fresh_seed,
                rounds=rounds,
                points=points,
                delay=delay,
                names=named,
                ascii_cards=ascii_cards,
            )

        try:
            session = new_session(seed)
        except (BigTwoError, ValueError) as e:
            _error(e)
        run_table(session, delay=delay, save=save, theme=theme, make_session=new_session)
        return
    from bigtwo.cli.plain import PlainTable

    try:
        table = PlainTable(
            r,
            players=players,
            seat=seat,
            bots=bots,
            seed=seed,
            delay=delay,
            ascii_cards=ascii_cards,
            rounds=rounds,
            points=points,
            console=console(),
            names=named,
            offer_save=not save,  # with --save the record is saved anyway
        )
    except (BigTwoError, ValueError) as e:
        _error(e)
    table.run()
    if save and table.save(save) is None:
        raise typer.Exit(1)


@app.command()
def replay(
    file: str = typer.Argument(..., help="A record (text or .json) saved by 'bigtwo play --save' or the table"),
    plain: bool = typer.Option(False, "--plain", help="Print the replay instead of opening the viewer"),
    at: int = typer.Option(None, "--at", help="With --plain: only the position after this many steps"),
    check: bool = typer.Option(False, "--check", help="Only check the record against the engine"),
    review: bool = typer.Option(False, "--review", help="Rate one player's decisions from that player's view"),
    seat: str = typer.Option(None, "--seat", help="With --review: the player (a name or seat number; default 1)"),
    deals: int = typer.Option(40, "--deals", help="With --review: sampled deals each decision is weighed on"),
) -> None:
    """Step through a saved game forwards and backwards, every hand visible.

    \b
    Examples:
      bigtwo replay match.txt                 # the viewer: arrows step, up/down a trick, n/p a round
      bigtwo replay match.txt --plain --at 3  # the position after 3 steps, as text
      bigtwo replay match.txt --check         # check a record against the engine
      bigtwo replay match.txt --review --seat you  # rate your decisions: inaccuracies, mistakes, blunders
    """
    import sys

    from bigtwo.record import load_record
    from bigtwo.record.frames import frames_of

    try:
        record = load_record(file)  # its errors name the file
    except BigTwoError as e:
        _error(e)
    try:
        frames = frames_of(record)
    except BigTwoError as e:
        _error(f"{file}: {e}")
    if review:
        from bigtwo.cli.review_view import print_review, seat_named
        from bigtwo.review import MAX_DEALS

        if not 1 <= deals <= MAX_DEALS:
            _error(f"--deals {deals}: from 1 to {MAX_DEALS}")
        try:
            print_review(record, seat_named(record, seat), deals, console())
        except BigTwoError as e:
            _error(f"{file}: {e}")
        return
    if check:
        from bigtwo.cli.replay_view import replay_words

        result = replay_words(record).render(record.result)
        console().print(escape(f"{file}: a valid record, {len(frames) - 1} steps. Result: {result}"))
        return
    if plain or not (sys.stdin.isatty() and sys.stdout.isatty()):
        from bigtwo.cli.replay_view import print_replay

        if at is not None and not 0 <= at < len(frames):
            _error(f"--at {at}: the record {file} has steps 0-{len(frames) - 1}")
        print_replay(record, frames, console(), at=at)
        return
    from bigtwo.cli.replay_view import ReplayApp

    ReplayApp(record, frames).run()


app.add_typer(bots_app, name="bots")


@app.command()
def simulate(
    bots: Annotated[
        str, typer.Option("--bots", "-b", help="One bot per seat, comma-separated (name:key=value for options)")
    ],
    rules: Annotated[str, typer.Option("--rules", "-r", help="Preset name or path to a rules .toml file")] = "classic",
    games: Annotated[
        int, typer.Option("--games", "-g", help="Games to play (rounded up to whole deals when duplicate)")
    ] = 1000,
    players: Annotated[
        int | None, typer.Option("--players", "-p", help="Seats, when --bots names a single bot for all")
    ] = None,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the deals and bots (a run is reproducible)")] = 0,
    utility: Annotated[
        str | None, typer.Option("--utility", help="Points: score (the rules' own), cards, place or win")
    ] = None,
    duplicate: Annotated[
        bool, typer.Option("--duplicate/--no-duplicate", help="Play every deal once per seat rotation")
    ] = True,
    workers: Annotated[int | None, typer.Option("--workers", "-w", help="Local processes (default: every CPU)")] = None,
    ray: Annotated[str | None, typer.Option("--ray", help="Run on a Ray cluster: its address, or 'auto'")] = None,
    out: Annotated[
        list[Path] | None, typer.Option("--out", "-o", help="Write the results to .json, .json.gz or .csv (repeatable)")
    ] = None,
    plot: Annotated[Path | None, typer.Option("--plot", help="Write the score distribution to a PNG")] = None,
    record_decisions: Annotated[
        Path | None,
        typer.Option("--record-decisions", help="Write every play decision to a .npz file (imitation data)"),
    ] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar")] = False,
    rounds: Annotated[
        int, typer.Option("--rounds", help="Rounds in each game: a match, its points summed (exchanges included)")
    ] = 1,
) -> None:
    """Play bots against each other on duplicate deals: points and win rates with 95% intervals.

    \b
    Examples:
      bigtwo simulate --bots heuristic,greedy,greedy,greedy --games 2000
      bigtwo simulate --bots 'search(iterations=30),heuristic,heuristic,heuristic' --games 400 --utility cards
      bigtwo simulate --rules winner --bots heuristic,greedy,greedy,greedy -o results.json --plot scores.png
      bigtwo simulate --bots heuristic --games 400 --record-decisions heuristic-400.npz
    """
    from bigtwo.cli.simulate import simulate as run

    r = _load(rules)
    try:
        run(
            r,
            bots,
            games,
            players=players,
            seed=seed,
            utility=utility,
            duplicate=duplicate,
            workers=workers,
            ray=ray,
            out=out,
            plot=plot,
            record_decisions=record_decisions,
            quiet=quiet,
            console=console(),
            rounds=rounds,
        )
    except (BigTwoError, ValueError) as e:
        _error(e)


@app.command()
def benchmark(
    bot: Annotated[
        list[str],
        typer.Option(
            "--bot",
            "-b",
            help="A bot to measure (repeatable): a bot spec, a class as module:Class, weights (.npz) or a training "
            "checkpoint (.pt: read with pickle, so only one you trust)",
        ),
    ],
    deals: Annotated[int, typer.Option("--deals", "-d", help="Deals of the set to play, from the first")] = 10_000,
    deal_set: Annotated[str, typer.Option("--deal-set", help="The deal set's version")] = "v1",
    seed: Annotated[
        int | None, typer.Option("--seed", help="A custom deal set of this seed instead (not the standard one)")
    ] = None,
    opponents: Annotated[
        str | None,
        typer.Option(
            "--opponents",
            help="Opponent sets, comma-separated (default: all of random,greedy,heuristic,search,learned)",
        ),
    ] = None,
    workers: Annotated[int | None, typer.Option("--workers", "-w", help="Local processes (default: every CPU)")] = None,
    ray: Annotated[str | None, typer.Option("--ray", help="Run on a Ray cluster: its address, or 'auto'")] = None,
    out: Annotated[
        Path, typer.Option("--out", "-o", help="Folder for leaderboard.json, .md, .png (a board there is added to)")
    ] = Path("benchmark"),
    fresh: Annotated[bool, typer.Option("--fresh", help="Start a new board, not adding to --out's")] = False,
    plot: Annotated[
        bool | None,
        typer.Option(
            "--plot/--no-plot",
            help="Draw leaderboard.png (needs matplotlib; default: where it is installed)",
            show_default=False,
        ),
    ] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bars")] = False,
) -> None:
    """The standard evaluation: bots against the reference field on fixed duplicate deals, to a leaderboard.

    Each bot plays three copies of each reference bot on the first --deals deals of a versioned deal set (classic,
    four players, one point a card left, every seat rotation); the leaderboard gives points a game and win rates
    with 95% intervals, in leaderboard.json, leaderboard.md and leaderboard.png.

    \b
    Examples:
      bigtwo benchmark --bot heuristic --deals 1000
      bigtwo benchmark --bot 'search(iterations=30)' --opponents heuristic,learned --deals 200 --workers 2
      bigtwo benchmark --bot mybots:StrongBot --bot runs/classic/best.npz --ray auto
    """
    from bigtwo.cli.benchmark import benchmark as run

    try:
        run(
            bot,
            deals=deals,
            version=deal_set,
            seed=seed,
            opponents=opponents,
            workers=workers,
            ray=ray,
            out=out,
            fresh=fresh,
            plot=plot,
            quiet=quiet,
            console=console(),
        )
    except (BigTwoError, ValueError) as e:
        _error(e)


@app.command()
def results(
    files: Annotated[list[Path], typer.Argument(help="Saved arena results (.json, .json.gz or .csv), pooled as one")],
    against: Annotated[
        list[Path] | None,
        typer.Option("--against", "-a", help="Another bot's saved results to compare with, deal by deal (repeatable)"),
    ] = None,
    entry: Annotated[
        int | None,
        typer.Option("--entry", help="The lineup entry compared where both lineups are the same (default: the first)"),
    ] = None,
    out: Annotated[
        Path | None, typer.Option("--out", "-o", help="Write the pooled results to .json, .json.gz or .csv")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of a table")] = False,
) -> None:
    """Saved arena results read back: pooled over deal sets, or two bots compared deal by deal.

    Files of one lineup played on several deal sets (other seeds) pool as one, their intervals over every deal.
    With --against, the bot the two lineups differ in is compared on the deals both played (matched by their
    cards), against the same opponents: the difference of its points deal by deal, with its 95% interval.

    \b
    Examples:
      bigtwo simulate --bots heuristic,greedy,greedy,greedy --games 400 --seed 1 --out h1.json
      bigtwo simulate --bots heuristic,greedy,greedy,greedy --games 400 --seed 2 --out h2.json
      bigtwo simulate --bots random,greedy,greedy,greedy --games 400 --seed 1 --out r1.json
      bigtwo simulate --bots random,greedy,greedy,greedy --games 400 --seed 2 --out r2.json
      bigtwo results h1.json h2.json --out heuristic.json
      bigtwo results h1.json h2.json --against r1.json --against r2.json
    """
    from bigtwo.cli.results import show_results

    try:
        show_results(files, against, entry, out, as_json, console())
    except (BigTwoError, ValueError) as e:
        _error(e)


@rules_app.command("list")
def rules_list() -> None:
    """The presets shipped with bigtwo.

    \b
    Examples:
      bigtwo rules list
    """
    t = Table(title="Presets", show_lines=False)
    t.add_column("name", style="bold")
    t.add_column("players")
    t.add_column("description")
    for name in list_presets():
        r = load_rules(name)
        t.add_row(name, f"{r.min_players}-{r.max_players}", escape(r.description))
    console().print(t)


@rules_app.command("show")
def rules_show(
    name: str = typer.Argument(..., help="Preset name or path to a rules .toml file"),
    toml: bool = typer.Option(False, "--toml", help="Print as TOML (a starting point for house rules)"),
    brief: bool = typer.Option(False, "--brief", help="Only the short summary: what beats what, leading, passing"),
    set_: Annotated[
        list[str] | None,
        typer.Option(
            "--set", help="Change a setting first, as KEY=VALUE in TOML (jokers=0, suit_order='CDHS'); repeatable"
        ),
    ] = None,
) -> None:
    """Every setting of a rule set, with what it means.

    \b
    Examples:
      bigtwo rules show house-code
      bigtwo rules show tien-len --brief                   # the rules in a dozen lines
      bigtwo rules show zheng-shangyou --set jokers=0   # a house rule: what it changes, what drops out
      bigtwo rules show classic --toml > our-rules.toml   # a starting point for house rules
    """
    r = _with_settings(_load(name), set_ or [])
    if toml:
        if r.changes_from_preset():
            # a file of house rules does not carry the preset's name and words: it says what it changed
            r = r.replace(name=f"{r.name} (house rules)", description=r.shown_description())
        # plain text, never wrapped: the output is a file to edit (a wrapped string is invalid TOML)
        text = r.to_toml()
        typer.echo(text, nl=not text.endswith("\n"))
        return
    defaults = Ruleset.model_construct()
    shown = r.shown_description()
    if shown.startswith(f"{r.name} with changes"):  # "zheng-shangyou with changes: ...", the name said once
        console().print(f"[bold]{escape(r.name)}[/bold]{escape(shown[len(r.name) :])}")
    else:
        console().print(f"[bold]{escape(r.name)}[/bold]: {escape(shown)}")
    for point in explain(r):
        console().print(f"  [bold]{escape(point.topic)}[/bold]: {escape(point.text)}")
    if brief:
        return
    console().print(f"[dim]{escape(_('Every setting, with what it means:'))}[/dim]")
    t = Table(show_lines=False)
    t.add_column("section", style="dim")
    t.add_column("setting", style="bold")
    t.add_column("value")
    t.add_column("meaning", overflow="fold")
    for key, field in Ruleset.model_fields.items():
        if key in ("name", "description"):
            continue
        value = getattr(r, key)
        shown = escape(_show_value(value))
        if value != getattr(defaults, key):
            shown = f"[yellow]{shown}[/yellow]"
        t.add_row(field_section(key), key, shown, escape(field.description or ""))
    console().print(t)
    for note in r.notes():
        console().print(escape(note))
    console().print(escape(native.coverage_line(r)))
    console().print("[dim]Yellow: differs from the classic defaults.[/dim]")


def _with_settings(rules: Ruleset, settings: list[str]) -> Ruleset:
    """The rules with ``KEY=VALUE`` settings changed (values read as TOML; a bare word as a string)."""
    changes: dict[str, object] = {}
    for item in settings:
        key, sep, text = item.partition("=")
        key = key.strip()
        if not sep or not key:
            _error(f"--set {item!r}: write KEY=VALUE, e.g. --set jokers=0")
        try:
            changes[key] = tomllib.loads(f"value = {text.strip()}")["value"]
        except tomllib.TOMLDecodeError:
            changes[key] = text.strip()
    if not changes:
        return rules
    try:
        return rules.replace(**changes)
    except BigTwoError as e:
        _error(e)


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
