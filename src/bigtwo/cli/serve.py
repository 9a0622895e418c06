"""``bigtwo serve``: the multiplayer server on uvicorn (see :mod:`bigtwo.server`).

Besides the address and the database, every limit of :class:`bigtwo.server.settings.Settings` is an option
here (``--max-rooms 200``), generated from the settings themselves so that ``bigtwo serve --help`` and the
settings can never disagree; an option not given falls back to ``BIGTWO_*`` variables, then to the settings file.
"""

from __future__ import annotations

import inspect
import logging
import os
import sys
from typing import Any

import typer

from bigtwo.server.settings import Settings, option_type


def _serve(
    host: str,
    port: int,
    database: str,
    log_level: str,
    settings_file: str | None,
    log_json: bool = False,
    **options: Any,
) -> None:
    try:
        from bigtwo.server import create_app
        from bigtwo.server.serving import DrainingServer, JsonLogs, server_config
    except ImportError as e:
        typer.echo(f'bigtwo serve needs the server extra: pip install "bigtwo[server]" ({e.name} is missing)', err=True)
        raise typer.Exit(2) from None
    if os.getcwd() not in sys.path:  # the server's own bots may be classes beside it (mybots.strong:StrongBot)
        sys.path.append(os.getcwd())  # after the installed packages, so a local file never hides one
    try:
        settings = Settings.load(settings_file, **options)
        if settings.public_url is None:  # links then name the address this server listens on
            shown = "localhost" if host in ("127.0.0.1", "::1", "localhost") else host
            settings = settings.model_copy(update={"public_url": f"http://{shown}:{port}"})
    except ValueError as e:
        typer.echo(f"bigtwo serve: {e}", err=True)
        raise typer.Exit(2) from None
    try:
        app = create_app(database, settings, address=f"http://{host}:{port}")
    except (ValueError, ImportError) as e:
        typer.echo(f"--database {database!r}: {e}", err=True)
        raise typer.Exit(2) from None
    if log_json:  # one JSON object a line, for a log collector
        handler = logging.StreamHandler()
        handler.setFormatter(JsonLogs(port))
        logging.basicConfig(level=log_level.upper(), handlers=[handler])
    else:
        logging.basicConfig(
            level=log_level.upper(),
            format=f"%(asctime)s %(levelname)s pid={os.getpid()} port={port} %(name)s: %(message)s",
        )
    typer.echo(f"bigtwo: open {settings.public_url}/ in a browser (database: {database})")
    if host not in ("127.0.0.1", "::1", "localhost"):
        typer.echo(
            f"bigtwo: listening on {host}: on the open internet, serve behind a reverse proxy that terminates TLS "
            "(and name it with --trusted-proxies and --public-url)",
            err=True,
        )
    DrainingServer(server_config(app, settings, host, port, log_level), app.state.context.rooms.drain).run()


def _workers(
    workers: int,
    host: str,
    port: int,
    database: str,
    log_level: str,
    settings_file: str | None,
    log_json: bool = False,
    **options: Any,
) -> None:
    """Run ``workers`` server processes on ports ``port`` .. ``port + workers - 1`` (a reverse proxy in front
    routes by table: docs/hosting.md), restarting one that dies; SIGTERM or Ctrl-C stops them all, each letting
    its tables go first."""
    if "://" not in database or not database.startswith(("postgresql", "postgres")):
        typer.echo(
            "bigtwo serve: --workers above 1 needs PostgreSQL (--database postgresql://...): with SQLite one process "
            "serves every table, since a table lives in one process's memory and only PostgreSQL lets processes "
            "hand tables to each other",
            err=True,
        )
        raise typer.Exit(2)
    import multiprocessing
    import signal
    import time

    if options.get("public_url") is None:
        typer.echo(
            "bigtwo serve: with --workers, name the proxy's address with --public-url (invite links point there)",
            err=True,
        )
    spawn = multiprocessing.get_context("spawn")
    ports = [port + i for i in range(workers)]
    kwargs = {
        "host": host,
        "database": database,
        "log_level": log_level,
        "settings_file": settings_file,
        "log_json": log_json,
        **options,
    }
    procs = {p: spawn.Process(target=_serve, kwargs={**kwargs, "port": p}, name=f"bigtwo-{p}") for p in ports}
    stopping = False

    def stop(signum: int, _frame: Any) -> None:
        nonlocal stopping
        stopping = True
        for proc in procs.values():
            if proc.is_alive() and proc.pid is not None:
                os.kill(proc.pid, signal.SIGTERM)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    for proc in procs.values():
        proc.start()
    upstream = " ".join(f"server {host}:{p};" for p in ports)
    typer.echo(f"bigtwo: {workers} processes on ports {ports[0]}-{ports[-1]}; proxy to them by table: {upstream}")
    while not stopping:
        time.sleep(0.5)
        for p, proc in list(procs.items()):
            if not proc.is_alive() and not stopping:
                typer.echo(f"bigtwo: the process on port {p} ended ({proc.exitcode}): starting another", err=True)
                procs[p] = spawn.Process(target=_serve, kwargs={**kwargs, "port": p}, name=f"bigtwo-{p}")
                procs[p].start()
    for proc in procs.values():
        proc.join(timeout=30)


def _options() -> list[inspect.Parameter]:
    """One option per setting, its help from the setting's description and default."""
    out = []
    for name, info in Settings.model_fields.items():
        kind = option_type(name)
        flag = "--" + name.replace("_", "-")
        default = info.get_default(call_default_factory=True)
        shown = ",".join(default) if isinstance(default, list) else default
        help_text = info.description if shown in (None, "", [], {}) else f"{info.description} (default: {shown})"
        decls = [f"{flag}/--no-{name.replace('_', '-')}"] if kind is bool else [flag]
        option = typer.Option(None, *decls, help=help_text, show_default=False, rich_help_panel="Limits and addresses")
        out.append(inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=option, annotation=kind | None))
    return out


def serve(
    host: str = typer.Option(
        "127.0.0.1",
        "--host",
        help="Address to listen on (the default: this machine only). To serve others, run a reverse proxy with TLS "
        "in front (it listens publicly and forwards here) rather than listening on every interface",
    ),
    port: int = typer.Option(8000, "--port", help="Port to listen on"),
    database: str = typer.Option(
        "bigtwo.sqlite3", "--database", help="A SQLite file path, or a postgresql://user:pass@host/db URL"
    ),
    log_level: str = typer.Option("info", "--log-level", help="critical, error, warning, info or debug"),
    settings_file: str | None = typer.Option(
        None, "--settings", help="A TOML file of settings (the options below, by name: max_rooms = 200)"
    ),
    log_json: bool = typer.Option(
        False, "--log-json", help="Log one JSON object a line (time, level, process, port, logger, message)"
    ),
    workers: int = typer.Option(
        1,
        "--workers",
        min=1,
        max=64,
        help="Server processes (not threads), on ports PORT to PORT+N-1 behind a proxy that routes by table "
        "(docs/hosting.md). Above 1 needs PostgreSQL: SQLite is for one process",
    ),
    **options: Any,
) -> None:
    """Serve tables in the browser: rooms, invite links, bots, spectators, records. Games survive restarts.

    Every limit below can also be set by an environment variable (BIGTWO_ and the option's name in capitals,
    e.g. BIGTWO_MAX_ROOMS=200) or in the settings file; an option wins over both.

    \b
    Examples:
      bigtwo serve --port 8080 --database games.sqlite3   # then open http://localhost:8080/
    """
    if workers > 1:
        _workers(workers, host, port, database, log_level, settings_file, log_json, **options)
        return
    _serve(host, port, database, log_level, settings_file, log_json, **options)


_fixed = [p for p in inspect.signature(serve).parameters.values() if p.kind is not inspect.Parameter.VAR_KEYWORD]
serve.__signature__ = inspect.Signature([*_fixed, *_options()])  # type: ignore[attr-defined]
serve.__annotations__ = {p.name: p.annotation for p in serve.__signature__.parameters.values()}  # type: ignore[attr-defined]
