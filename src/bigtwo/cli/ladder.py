"""``bigtwo ladder``: the bot ladder on a server's database (publish arena results, show a leaderboard).

Every game of an arena run (``bigtwo simulate -o results.json``) is one rated match of its bots: their finishing
order moves their ratings exactly as a finished table does on the server (:mod:`bigtwo.server.ratings`). A game
is keyed by the run's rules, lineup, seed, deal and rotation, so publishing the same results again adds nothing.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape
from rich.table import Table

from bigtwo.cli.output import console

ladder_app = typer.Typer(help="The bot ladder: publish arena results, show leaderboards.", no_args_is_help=True)
BATCH = 200  # games a transaction


def _fail(message: str) -> None:
    console().print(f"[red]{escape(message)}[/red]")
    raise typer.Exit(2)


def _needs_server() -> None:
    """The ladder lives in the server's database and rates with its ratings: refused in words without the
    ``server`` extra, before anything is read."""
    try:
        import bigtwo.server.db
        import bigtwo.server.ratings
        import bigtwo.server.rooms  # noqa: F401
    except ImportError as e:
        _fail(f'bigtwo ladder needs the server extra: pip install "bigtwo[server]" ({e.name} is missing)')


def _database(database: str, *, existing: bool = False) -> Any:
    """The database's engine, brought to the latest schema; ``existing``: refuse a SQLite file that is not there
    (reading a leaderboard from a mistyped path would create an empty database and show nobody rated)."""
    from sqlalchemy.engine import make_url

    from bigtwo.server.db import database_url, make_engine, migrate

    if existing:
        try:
            url = make_url(database_url(database))
        except Exception as e:  # a URL that is no database's
            _fail(f"--database {database!r}: {e}")
        path = url.database if url.drivername.startswith("sqlite") else None
        if path and path != ":memory:" and not Path(path).exists():
            _fail(f"--database {database!r}: no database file at {path} (ladder publish creates one)")
    try:
        engine = make_engine(database)
        migrate(engine)
    except Exception as e:  # a URL the driver refuses, a database that cannot be reached
        _fail(f"--database {database!r}: {e}")
    return engine


def arena_matches(path: Path) -> tuple[str, list[tuple[str, list[Any]]]]:
    """The preset and, per game, its match key and rating entries, from an arena results file; ValueError in
    words for results the ladder cannot take (house rules, bots under other names than their registered ones)."""
    from bigtwo.arena.results import ArenaResult
    from bigtwo.rules.ruleset import list_presets, load_rules
    from bigtwo.server.ratings import Entry, family_of
    from bigtwo.server.setup import available_bots

    try:
        result = ArenaResult.load(path)
    except (OSError, KeyError, json.JSONDecodeError) as e:
        raise ValueError(f"{path}: not an arena results file ({e})") from None
    rules = result.config.get("rules", {})
    name = rules.get("name", "")
    if name not in list_presets() or family_of(name) is None:
        raise ValueError(f"{path}: the rules {name!r} are not a rated preset; presets: {', '.join(list_presets())}")
    if load_rules(name).model_dump(mode="json") != rules.get("settings"):
        raise ValueError(f"{path}: the rules are {name!r} with house rules; only a preset as it is is rated")
    bots = available_bots()
    lineup = [s.get("label") or s.get("name") for s in result.config.get("lineup", [])]
    for label in lineup:
        if label not in bots:
            raise ValueError(
                f"{path}: {label!r} is not a registered bot's name (bots: {', '.join(bots)}); the ladder rates "
                "bots under their registered names, without options"
            )
    run = {k: result.config.get(k) for k in ("rules", "lineup", "seed", "utility", "duplicate")}
    digest = hashlib.sha256(json.dumps(run, sort_keys=True).encode()).hexdigest()[:24]
    out = []
    for g in result.records:
        place = {seat: i + 1 for i, seat in enumerate(g.finishing_order)}
        entries = [
            Entry(seat, f"bot:{label}", label, place[seat], float(g.scores[seat]))
            for seat, label in enumerate(g.labels)
        ]
        out.append((f"arena:{digest}:{g.deal}:{g.rotation}", entries))
    return name, out


@ladder_app.command("publish")
def publish(
    results: Annotated[
        Path, typer.Argument(help="An arena results file (bigtwo simulate -o results.json, .json.gz or .csv)")
    ],
    database: Annotated[
        str, typer.Option("--database", help="The server's database: a SQLite file path or a postgresql:// URL")
    ] = "bigtwo.sqlite3",
) -> None:
    """Rate every game of an arena run on the ladder (once: publishing it again adds nothing).

    \b
    Examples:
      bigtwo simulate --bots heuristic,greedy,random,greedy --games 200 -o run.json
      bigtwo ladder publish run.json --database bigtwo.sqlite3
    """
    _needs_server()
    from bigtwo.server import store
    from bigtwo.server.ratings import record_match

    try:
        preset, games = arena_matches(results)
    except ValueError as e:
        _fail(str(e))
    engine = _database(database)
    added = 0
    try:
        for start in range(0, len(games), BATCH):
            with engine.begin() as conn:
                for key, entries in games[start : start + BATCH]:
                    added += record_match(conn, key, preset, entries, rated=True, at=store.now(), public=False)
    finally:
        engine.dispose()
    skipped = len(games) - added
    game = "game" if len(games) == 1 else "games"
    console().print(f"{len(games)} {game} of {preset}: {added} rated now, {skipped} already on the ladder")


@ladder_app.command("show")
def show(
    family: Annotated[
        str, typer.Option("--family", help="classic, president, winner, zheng-shangyou, tien-len")
    ] = "classic",
    database: Annotated[
        str, typer.Option("--database", help="A SQLite file path or a postgresql:// URL")
    ] = "bigtwo.sqlite3",
    limit: Annotated[int, typer.Option("--limit", min=1, max=1000, help="Rows to show")] = 25,
) -> None:
    """A family's leaderboard: people and bots, best rating (mu - 3 sigma) first."""
    _needs_server()
    from bigtwo.server.ratings import FAMILY_NAMES, leaderboard

    if family not in FAMILY_NAMES:
        _fail(f"--family {family!r}: families are {', '.join(FAMILY_NAMES)}")
    engine = _database(database, existing=True)
    try:
        with engine.connect() as conn:
            rows, total = leaderboard(conn, family, limit, 0)
    finally:
        engine.dispose()
    t = Table(title=escape(f"{FAMILY_NAMES[family]}: {total} rated"))
    for col, just in (("#", "right"), ("player", "left"), ("rating", "right"), ("mu", "right"), ("sigma", "right")):
        t.add_column(col, justify=just)  # type: ignore[arg-type]
    t.add_column("matches", justify="right")
    for r in rows:
        shown = f"{r['rating']:.1f}" + (" (provisional)" if r["provisional"] else "")
        who = f"{r['name']} (bot)" if r["kind"] == "bot" else r["name"]
        t.add_row(str(r["rank"]), escape(who), shown, f"{r['mu']:.2f}", f"{r['sigma']:.2f}", str(r["matches"]))
    console().print(t)
