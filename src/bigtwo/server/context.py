"""The state every route shares: the settings, the database engine, the rooms, the accounts and the
WebSocket limits. :func:`bigtwo.server.app.create_app` builds one :class:`ServerContext` and keeps it on
``app.state``; a route asks for it with the :data:`Context` dependency rather than closing over it, so the
routes live in modules of their own (:mod:`bigtwo.server.routes`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

from fastapi import Depends
from sqlalchemy.engine import Engine
from starlette.requests import HTTPConnection

from bigtwo.server.accounts import Accounts
from bigtwo.server.connections import Limits
from bigtwo.server.rooms import Rooms
from bigtwo.server.settings import Settings


@dataclass
class ServerContext:
    """One application's shared state (one per :func:`~bigtwo.server.app.create_app`)."""

    settings: Settings
    engine: Engine
    rooms: Rooms
    accounts: Accounts
    limits: Limits
    ready: bool = False  # started (tables resumed or adopted) and not shutting down: /readyz


def context_of(conn: HTTPConnection) -> ServerContext:
    """The context of the application serving this request or WebSocket."""
    context: ServerContext = conn.app.state.context
    return context


Context = Annotated[ServerContext, Depends(context_of)]
