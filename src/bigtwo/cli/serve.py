"""``bigtwo serve``: the multiplayer server on uvicorn (see :mod:`bigtwo.server`)."""

from __future__ import annotations

import logging

import typer


def serve(
    host: str = typer.Option("127.0.0.1", "--host", help="Address to listen on (0.0.0.0: every interface)"),
    port: int = typer.Option(8000, "--port", help="Port to listen on"),
    database: str = typer.Option(
        "bigtwo.sqlite3", "--database", help="A SQLite file path, or a postgresql://user:pass@host/db URL"
    ),
    log_level: str = typer.Option("info", "--log-level", help="critical, error, warning, info or debug"),
) -> None:
    """Serve tables in the browser: rooms, invite links, bots, spectators, records. Games survive restarts.

    \b
    Examples:
      bigtwo serve --port 8080 --database games.sqlite3   # then open http://localhost:8080/
    """
    try:
        import uvicorn

        from bigtwo.server import create_app
    except ImportError as e:
        typer.echo(f'bigtwo serve needs the server extra: pip install "bigtwo[server]" ({e.name} is missing)', err=True)
        raise typer.Exit(2) from None
    try:
        app = create_app(database)
    except (ValueError, ImportError) as e:
        typer.echo(f"--database {database!r}: {e}", err=True)
        raise typer.Exit(2) from None
    logging.basicConfig(level=log_level.upper(), format="%(levelname)s:     %(name)s: %(message)s")
    shown = "localhost" if host in ("127.0.0.1", "::1") else host
    typer.echo(f"bigtwo: open http://{shown}:{port}/ in a browser (database: {database})")
    uvicorn.run(app, host=host, port=port, log_level=log_level, ws_max_size=65536, proxy_headers=True)
