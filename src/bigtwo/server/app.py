"""The web application: a JSON API for rooms and records (documented by OpenAPI), the table's WebSocket,
and the browser client's static files.

``create_app(database, settings)`` builds it; ``bigtwo serve`` runs it on uvicorn. At start the database is
migrated to the latest schema and every unfinished game is rebuilt from its stored actions, so a restart resumes
them. One process serves every room (rooms live in its memory): run a single worker. Every limit it keeps is a
setting (:mod:`bigtwo.server.settings`); every input is read as hostile (:mod:`bigtwo.server.inputs`). The
routes live by concern in :mod:`bigtwo.server.routes` and share one :class:`~bigtwo.server.context.ServerContext`.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from datetime import datetime

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse

from bigtwo import __version__
from bigtwo.server import store
from bigtwo.server.accounts import Accounts
from bigtwo.server.connections import Limits
from bigtwo.server.context import ServerContext
from bigtwo.server.db import make_engine, migrate
from bigtwo.server.messages import describe
from bigtwo.server.middleware import BodyLimit, StrictJSONRoute
from bigtwo.server.referee import Rejected
from bigtwo.server.rooms import Rooms
from bigtwo.server.routes import accounts, learn, pages, ratings, records, rooms, table
from bigtwo.server.settings import Settings

log = logging.getLogger("bigtwo.server")


def create_app(
    database: str = "bigtwo.sqlite3",
    settings: Settings | None = None,
    clock: Callable[[], float] = time.monotonic,
    now: Callable[[], datetime] = store.now,
    seeds: Callable[[], int] | None = None,
) -> FastAPI:
    """The application for a database (a file path, ``sqlite:///...`` or ``postgresql://...``) under ``settings``
    (the defaults when None); ``clock`` and ``now`` are the monotonic and wall clocks, ``seeds`` gives each new
    table its deal's seed (random by default; tests pass their own)."""
    settings = settings or Settings()
    engine = make_engine(database)
    context = ServerContext(
        settings=settings,
        engine=engine,
        rooms=Rooms(engine, settings, clock=clock, now=now, seeds=seeds),
        accounts=Accounts(engine, settings, clock=clock, now=now),
        limits=Limits(
            messages_per_second=settings.messages_per_second,
            message_burst=settings.message_burst,
            max_queued_messages=settings.max_queued_messages,
            send_timeout_seconds=settings.send_timeout_seconds,
        ),
    )

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        live = context.rooms
        await asyncio.to_thread(migrate, engine)
        count = await asyncio.to_thread(live.load_live)
        log.info("resumed %d unfinished rooms", count)
        live.journal.start()
        live.resume_all()
        sweeper = asyncio.get_running_loop().create_task(live.sweeper())
        try:
            yield
        finally:
            sweeper.cancel()
            live.stop()
            await live.journal.stop()
            engine.dispose()

    app = FastAPI(
        title="bigtwo",
        version=__version__,
        summary="Big Two and its family online: rooms, seats for people and bots, records of finished games.",
        lifespan=lifespan,
        docs_url=None,
        redoc_url=None,
    )
    app.router.route_class = StrictJSONRoute
    # a path with a trailing slash is not redirected: the redirect's address would be built from the request's
    # Host header, which any client sets (links come from the public URL only)
    app.router.redirect_slashes = False
    app.add_middleware(BodyLimit, max_bytes=settings.max_body_bytes, seconds=settings.body_timeout_seconds)
    app.state.context = context
    app.exception_handler(Rejected)(rejected)
    app.exception_handler(RequestValidationError)(invalid)
    for concern in (accounts, ratings, rooms, records, table, learn):
        app.include_router(concern.router)
    pages.add_pages(app, settings.docs)
    return app


async def rejected(request: Request, exc: Rejected) -> JSONResponse:
    """A refusal in words, with its status (429s say when to try again)."""
    headers = {"Retry-After": "60"} if exc.status == 429 else None
    return JSONResponse({"detail": exc.message}, status_code=exc.status, headers=headers)


async def invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
    """An input that failed validation, in words, without echoing the input (it may be huge, or hold what JSON
    cannot carry)."""
    return JSONResponse({"detail": describe(list(exc.errors()), prefix="")}, status_code=422)
