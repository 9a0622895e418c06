"""The web application: a JSON API for rooms and records (documented by OpenAPI), the table's WebSocket,
and the browser client's static files.

``create_app(database, settings)`` builds it; ``bigtwo serve`` runs it on uvicorn. At start the database is
migrated to the latest schema and every unfinished game is rebuilt from its stored actions, so a restart resumes
them. With SQLite one process serves every room (rooms live in its memory): run a single worker. With PostgreSQL
any number of processes share the database, each serving the tables it holds a lease on
(:mod:`bigtwo.server.leases`); ``bigtwo serve --workers N`` starts N of them. Every limit it keeps is a
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
from bigtwo.server.leases import Leases
from bigtwo.server.messages import describe
from bigtwo.server.middleware import BodyLimit, Language, StrictJSONRoute
from bigtwo.server.referee import Rejected
from bigtwo.server.rooms import Rooms
from bigtwo.server.routes import accounts, health, learn, pages, ratings, records, rooms, table
from bigtwo.server.routes.health import install_metrics
from bigtwo.server.settings import Settings

log = logging.getLogger("bigtwo.server")


def create_app(
    database: str = "bigtwo.sqlite3",
    settings: Settings | None = None,
    clock: Callable[[], float] = time.monotonic,
    now: Callable[[], datetime] = store.now,
    seeds: Callable[[], int] | None = None,
    address: str | None = None,
) -> FastAPI:
    """The application for a database (a file path, ``sqlite:///...`` or ``postgresql://...``) under ``settings``
    (the defaults when None); ``clock`` and ``now`` are the monotonic and wall clocks, ``seeds`` gives each new
    table its deal's seed (random by default; tests pass their own). ``address`` is where this process listens
    (told to a client that reaches another process about a table this one serves; the public URL by default).

    On PostgreSQL the process holds its tables under leases and keeps the shared limits in the database, so any
    number of processes may serve the same database; on SQLite it is the only one."""
    settings = settings or Settings()
    engine = make_engine(database)
    leases = None
    if engine.dialect.name.startswith("postgresql"):
        leases = Leases(engine, address or settings.public_url or "", settings.lease_seconds)
    context = ServerContext(
        settings=settings,
        engine=engine,
        rooms=Rooms(engine, settings, clock=clock, now=now, seeds=seeds, leases=leases),
        accounts=Accounts(engine, settings, clock=clock, now=now, shared=leases is not None),
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
        loop = asyncio.get_running_loop()
        tasks = [loop.create_task(live.sweeper())]
        if live.leases is not None:
            await live.adopt()
            tasks.append(loop.create_task(live.keep_leases()))
        context.ready = True
        try:
            yield
        finally:
            context.ready = False
            for task in tasks:
                task.cancel()
            if not live.draining:  # (a SIGTERM drained it already: see bigtwo.server.serving)
                await live.drain()
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
    app.add_middleware(Language)
    app.state.context = context
    install_metrics(app, context)
    app.exception_handler(Rejected)(rejected)
    app.exception_handler(RequestValidationError)(invalid)
    for concern in (accounts, ratings, rooms, records, table, health, learn):
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
