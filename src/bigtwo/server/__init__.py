"""The multiplayer server: rooms, seats for people and bots, a browser table, games that survive restarts.

``bigtwo serve`` runs :func:`create_app` on uvicorn. Needs the ``server`` extra (FastAPI, uvicorn,
SQLAlchemy, Alembic, psycopg). :func:`create_app` is imported on first use, so the server's settings
(``bigtwo serve --help``'s options) load on a plain install, where ``bigtwo serve`` names the missing extra.
"""

from __future__ import annotations

from typing import Any

__all__ = ["create_app"]


def __getattr__(name: str) -> Any:
    if name == "create_app":
        from bigtwo.server.app import create_app

        return create_app
    raise AttributeError(f"module 'bigtwo.server' has no attribute {name!r}")
