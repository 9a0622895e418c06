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
    **options: Any,
) -> None:
    try:
        import uvicorn

        from bigtwo.server import create_app
        from bigtwo.server.serving import server_config
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
        app = create_app(database, settings)
    except (ValueError, ImportError) as e:
        typer.echo(f"--database {database!r}: {e}", err=True)
        raise typer.Exit(2) from None
    logging.basicConfig(level=log_level.upper(), format="%(levelname)s:     %(name)s: %(message)s")
    typer.echo(f"bigtwo: open {settings.public_url}/ in a browser (database: {database})")
    if host not in ("127.0.0.1", "::1", "localhost"):
        typer.echo(
            f"bigtwo: listening on {host}: on the open internet, serve behind a reverse proxy that terminates TLS "
            "(and name it with --trusted-proxies and --public-url)",
            err=True,
        )
    uvicorn.Server(server_config(app, settings, host, port, log_level)).run()


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
    **options: Any,
) -> None:
    """Serve tables in the browser: rooms, invite links, bots, spectators, records. Games survive restarts.

    Every limit below can also be set by an environment variable (BIGTWO_ and the option's name in capitals,
    e.g. BIGTWO_MAX_ROOMS=200) or in the settings file; an option wins over both.

    \b
    Examples:
      bigtwo serve --port 8080 --database games.sqlite3   # then open http://localhost:8080/
    """
    _serve(host, port, database, log_level, settings_file, **options)


_fixed = [p for p in inspect.signature(serve).parameters.values() if p.kind is not inspect.Parameter.VAR_KEYWORD]
serve.__signature__ = inspect.Signature([*_fixed, *_options()])  # type: ignore[attr-defined]
serve.__annotations__ = {p.name: p.annotation for p in serve.__signature__.parameters.values()}  # type: ignore[attr-defined]
