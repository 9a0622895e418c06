"""The web application: a JSON API for rooms and records (documented by OpenAPI), the table's WebSocket,
and the browser client's static files.

``create_app(database, settings)`` builds it; ``bigtwo serve`` runs it on uvicorn. At start the database is
migrated to the latest schema and every unfinished game is rebuilt from its stored actions, so a restart resumes
them. One process serves every room (rooms live in its memory): run a single worker. Every limit it keeps is a
setting (:mod:`bigtwo.server.settings`); every input is read as hostile (:mod:`bigtwo.server.inputs`).
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib.util
import logging
import re
import time
from collections.abc import AsyncIterator, Callable, Coroutine
from contextlib import asynccontextmanager
from datetime import datetime
from pathlib import Path as FilePath
from typing import Annotated, Any

from fastapi import Depends, FastAPI, HTTPException, Path, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, PlainTextResponse, Response
from fastapi.routing import APIRoute
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from fastapi.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from bigtwo import __version__
from bigtwo.rules.ruleset import list_presets, load_rules
from bigtwo.server import pages, ratings, store
from bigtwo.server.accounts import COOKIE, CSRF_HEADER, Accounts, Credentials, PasswordChange, Session
from bigtwo.server.connections import CLOSE_FORBIDDEN, CLOSE_FULL, CLOSE_NO_ROOM, Connection, Limits
from bigtwo.server.db import make_engine, migrate
from bigtwo.server.inputs import BadInput, strict_json
from bigtwo.server.messages import (
    Action,
    BotInfo,
    Created,
    CreateRoom,
    Join,
    Joined,
    Preset,
    Problem,
    QuickMatch,
    RecordSummary,
    RoomOut,
    SeatChange,
    Start,
    describe,
    parse_client_message,
)
from bigtwo.server.records import FORMATS, replay_steps
from bigtwo.server.rooms import (
    Rejected,
    Room,
    Rooms,
    answer_of,
    available_bots,
    default_bot,
    phase_of,
)
from bigtwo.server.settings import Settings
from bigtwo.words import direction_said

log = logging.getLogger("bigtwo.server")
STATIC = FilePath(__file__).with_name("static")
ROOM_ID = re.compile(r"^[A-Za-z0-9_-]{1,16}$")
RoomId = Annotated[str, Path(min_length=1, max_length=16, pattern=r"^[A-Za-z0-9_-]+$")]
Family = Annotated[str, Path(pattern="^(" + "|".join(ratings.FAMILY_NAMES) + ")$")]
PlayerName = Annotated[str, Path(min_length=1, max_length=40, pattern=r"^[A-Za-z0-9_.-]+$")]
bearer = HTTPBearer(auto_error=False, description="a seat's token (moves) or the host's token (host actions)")
Bearer = Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)]
CSP = (
    "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; connect-src 'self'; "
    "frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
)
PAGE_HEADERS = {
    "Cache-Control": "no-cache",
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
}
ERRORS: dict[int | str, dict[str, Any]] = {
    code: {"model": Problem} for code in (400, 401, 403, 404, 409, 413, 422, 429, 503)
}
DOCS_PAGE = """<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>bigtwo: the API</title>
  <link rel="icon" href="data:,">
  <link rel="stylesheet" href="/docs/static/swagger-ui.css">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="/docs/static/swagger-ui-bundle.js"></script>
  <script src="/static/docs.js"></script>
</body>
</html>
"""


def swagger_ui_files() -> FilePath | None:
    """Swagger UI's files from the installed ``swagger-ui-py`` package (None when it is not installed)."""
    spec = importlib.util.find_spec("swagger_ui")
    if spec is None or spec.origin is None:
        return None
    folder = FilePath(spec.origin).with_name("static")
    return folder if (folder / "swagger-ui-bundle.js").exists() else None


class BodyLimit:
    """Refuse (413, in words) a request body larger than the limit, before the application reads any of it: a
    declared length is checked at once, a streamed body as it arrives."""

    def __init__(self, app: ASGIApp, max_bytes: int, seconds: float = 30.0):
        self.app = app
        self.max_bytes = max_bytes
        self.seconds = seconds  # the longest a body may take to arrive (a client sending it slowly holds a socket)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope["headers"]).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.max_bytes):
            await self._too_large(send, int(declared) if declared.isdigit() else None)
            return
        chunks, size = [], 0
        try:
            async with asyncio.timeout(self.seconds):
                while True:
                    message = await receive()
                    if message["type"] == "http.disconnect":
                        return
                    body = message.get("body", b"")
                    size += len(body)
                    if size > self.max_bytes:
                        await self._too_large(send, None)
                        return
                    chunks.append(body)
                    if not message.get("more_body", False):
                        break
        except TimeoutError:
            detail = f"the request body did not arrive within {self.seconds:g} s"
            response = JSONResponse({"detail": detail}, status_code=408, headers={"Connection": "close"})
            await response({"type": "http"}, _nothing, send)
            return
        whole, given = b"".join(chunks), False

        async def replay() -> Message:
            nonlocal given
            if not given:
                given = True
                return {"type": "http.request", "body": whole, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)

    async def _too_large(self, send: Send, size: int | None) -> None:
        said = f"is {size:,} bytes" if size is not None else "is larger than that"
        detail = f"the request body {said}: at most {self.max_bytes:,} bytes are accepted"
        await JSONResponse({"detail": detail}, status_code=413)({"type": "http"}, _nothing, send)


async def _nothing() -> Message:
    return {"type": "http.disconnect"}


class StrictJSONRoute(APIRoute):
    """A route whose JSON body is read strictly (:func:`bigtwo.server.inputs.strict_json`): NaN, Infinity, lone
    surrogates and deep nesting are refused in words (422) before validation, so nothing can store them."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def run(request: Request) -> Response:
            return await handler(StrictRequest(request.scope, request.receive))

        return run


class StrictRequest(Request):
    async def json(self) -> Any:
        if not hasattr(self, "_json"):
            settings: Settings = self.app.state.settings
            try:
                self._json = strict_json(await self.body(), settings.max_json_depth)
            except BadInput as e:
                raise HTTPException(422, str(e)) from None
        return self._json


def client_address(conn: Request | WebSocket) -> str:
    """The client's address (uvicorn puts a trusted proxy's X-Forwarded-For here: see ``trusted_proxies``)."""
    return conn.client.host if conn.client else "?"


def origin_refused(conn: Request | WebSocket) -> str | None:
    """Why a browser page may not act here (None: it may). Our own page reached by an address the server was
    not told of (a proxy that rewrites Host) is told how to fix it: its browser says it is same-origin, which a
    page cannot forge; a page of another site hears only that it is refused."""
    settings: Settings = conn.app.state.settings
    origin = conn.headers.get("origin")
    if settings.origin_allowed(origin, conn.headers.get("host"), conn.url.scheme):
        return None
    if conn.headers.get("sec-fetch-site") == "same-origin":
        return (
            f"this server does not know the address this page was opened at ({str(origin)[:80]}): "
            "its operator can name it with --public-url or --allowed-origins"
        )
    return "a page from another site may not do this here"


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
    rooms = Rooms(engine, settings, clock=clock, now=now, seeds=seeds)
    people = Accounts(engine, settings, clock=clock, now=now)
    limits = Limits(
        messages_per_second=settings.messages_per_second,
        message_burst=settings.message_burst,
        max_queued_messages=settings.max_queued_messages,
        send_timeout_seconds=settings.send_timeout_seconds,
    )
    swagger = swagger_ui_files() if settings.docs else None

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        await asyncio.to_thread(migrate, engine)
        count = await asyncio.to_thread(rooms.load_live)
        log.info("resumed %d unfinished rooms", count)
        rooms.journal.start()
        rooms.resume_all()
        sweeper = asyncio.get_running_loop().create_task(rooms.sweeper())
        try:
            yield
        finally:
            sweeper.cancel()
            rooms.stop()
            await rooms.journal.stop()
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
    app.state.rooms = rooms
    app.state.accounts = people
    app.state.settings = settings

    @app.exception_handler(Rejected)
    async def _rejected(request: Request, exc: Rejected) -> JSONResponse:
        headers = {"Retry-After": "60"} if exc.status == 429 else None
        return JSONResponse({"detail": exc.message}, status_code=exc.status, headers=headers)

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        # in words, without echoing the input (it may be huge, or hold what JSON cannot carry)
        return JSONResponse({"detail": describe(list(exc.errors()), prefix="")}, status_code=422)

    async def room_out(room: Room) -> RoomOut:
        # under the room's lock, as its views are: a move (or the match's end) the engine has taken but the
        # database not yet stored is never shown, so a client told "over" finds the results stored
        return RoomOut(**await room.shown())

    def token_of(credentials: HTTPAuthorizationCredentials | None) -> str:
        if credentials is None or not credentials.credentials:
            raise Rejected("this needs a token: send 'Authorization: Bearer <token>'", 401)
        return credentials.credentials

    # --- accounts ---------------------------------------------------------------------------------------------
    def check_origin(request: Request) -> None:
        """A state-changing request from a page of another site is refused (browsers always say whose page sent
        a cross-site request; a client without an Origin header is not a page and is not refused here)."""
        refused = origin_refused(request)
        if refused is not None:
            raise Rejected(refused, 403)

    async def session_of(request: Request) -> Session | None:
        return await asyncio.to_thread(people.session, request.cookies.get(COOKIE))

    async def signed_in_for_change(request: Request) -> Session | None:
        """The session a state-changing request acts for: None for a guest (no or an unknown cookie); refused
        (403) when the cookie is a live session but the request lacks its CSRF token or comes from another site."""
        check_origin(request)
        session = await session_of(request)
        if session is not None:
            people.check_csrf(session, request.headers.get(CSRF_HEADER))
        return session

    async def must_sign_in(request: Request) -> Session:
        session = await signed_in_for_change(request)
        if session is None:
            raise Rejected("sign in first", 401)
        return session

    def secure_cookie(request: Request) -> bool:
        if settings.secure_cookies is not None:
            return settings.secure_cookies
        return (settings.public_url or "").startswith("https://") or request.url.scheme == "https"

    def signed_in(request: Request, session: Session, secret: str) -> JSONResponse:
        response = JSONResponse(account_out(session))
        response.set_cookie(
            COOKIE,
            secret,
            max_age=int(settings.session_days * 86400),
            path="/",
            httponly=True,
            samesite="lax",
            secure=secure_cookie(request),
        )
        return response

    def account_out(session: Session | None) -> dict[str, Any]:
        if session is None:
            return {"signed_in": False, "username": None, "csrf": None}
        return {
            "signed_in": True,
            "username": session.username,
            "csrf": session.csrf,
            "page": f"/players/{session.username}",
        }

    @app.get("/api/account", responses=ERRORS, tags=["accounts"])
    async def account(request: Request) -> dict[str, Any]:
        """Who this browser is signed in as (from its session cookie), with the CSRF token its page must send in
        the X-CSRF-Token header of every change, and the account's ratings."""
        session = await session_of(request)
        out = account_out(session)
        if session is not None:

            def read() -> dict[str, Any]:
                with engine.connect() as conn:
                    return ratings.player_ratings(conn, f"account:{session.account_id}")

            out["ratings"] = await asyncio.to_thread(read)
        return out

    @app.post("/api/account/signup", status_code=201, responses=ERRORS, tags=["accounts"])
    async def sign_up(body: Credentials, request: Request) -> JSONResponse:
        """Open an account and sign in (a session cookie: HttpOnly, SameSite=Lax, Secure behind TLS)."""
        check_origin(request)
        session, secret = await asyncio.to_thread(people.sign_up, body.username, body.password, client_address(request))
        response = signed_in(request, session, secret)
        response.status_code = 201
        return response

    @app.post("/api/account/signin", responses=ERRORS, tags=["accounts"])
    async def sign_in(body: Credentials, request: Request) -> JSONResponse:
        """Sign in: a new session every time (the one this browser had, if any, ends). Attempts are limited per
        address and wrong passwords per username (429 in words past them)."""
        check_origin(request)
        session, secret = await asyncio.to_thread(
            people.sign_in, body.username, body.password, client_address(request), request.cookies.get(COOKIE)
        )
        return signed_in(request, session, secret)

    @app.post("/api/account/signout", responses=ERRORS, tags=["accounts"])
    async def sign_out(request: Request) -> JSONResponse:
        """End this browser's session (needs the CSRF token)."""
        session = await must_sign_in(request)
        await asyncio.to_thread(people.sign_out, session)
        response = JSONResponse(account_out(None))
        response.delete_cookie(COOKIE, path="/", httponly=True, samesite="lax", secure=secure_cookie(request))
        return response

    @app.post("/api/account/password", responses=ERRORS, tags=["accounts"])
    async def change_password(body: PasswordChange, request: Request) -> JSONResponse:
        """Change the password (the current one is asked for); every other session of the account ends."""
        session = await must_sign_in(request)
        new_session, secret = await asyncio.to_thread(
            people.change_password, session, body.current, body.new, client_address(request)
        )
        return signed_in(request, new_session, secret)

    # --- ratings, players, the ladder -------------------------------------------------------------------------

    def read_leaderboard(family: str, limit: int, offset: int) -> tuple[list[dict[str, Any]], int]:
        with engine.connect() as conn:
            return ratings.leaderboard(conn, family, limit, offset)

    @app.get("/api/leaderboard/{family}", responses=ERRORS, tags=["ratings"])
    async def leaderboard(
        family: Family,
        limit: Annotated[int, Query(ge=1, le=100)] = 25,
        offset: Annotated[int, Query(ge=0, le=1_000_000)] = 0,
    ) -> dict[str, Any]:
        """A rules family's players and bots, best rating (μ − 3σ) first, one page."""
        rows, total = await asyncio.to_thread(read_leaderboard, family, limit, offset)
        return {"family": family, "name": ratings.FAMILY_NAMES[family], "total": total, "players": rows}

    def read_player(player: str) -> dict[str, Any]:
        with engine.connect() as conn:
            by_family = ratings.player_ratings(conn, player)
            return {
                "ratings": by_family,
                "history": {f: ratings.history(conn, player, f) for f in by_family},
                "recent": ratings.recent_matches(conn, player),
                "presets": ratings.preset_stats(conn, player),
            }

    async def account_player(username: str) -> tuple[str, dict[str, Any]]:
        found = await asyncio.to_thread(people.account_by_name, username)
        if found is None:
            raise Rejected(f"no player named {username!r}", 404)
        return found["username"], await asyncio.to_thread(read_player, f"account:{found['id']}")

    def bot_player(name: str) -> str:
        if name not in available_bots():
            raise Rejected(f"no bot named {name!r}; bots: {', '.join(available_bots())}", 404)
        return name

    @app.get("/api/players/{username}", responses=ERRORS, tags=["ratings"])
    async def player(username: PlayerName) -> dict[str, Any]:
        """A player's ratings, rating history, recent finished matches and statistics per preset."""
        name, data = await account_player(username)
        return {"name": name, "kind": "person", **data}

    @app.get("/api/bots/{name}", responses=ERRORS, tags=["ratings"])
    async def bot_page_data(name: PlayerName) -> dict[str, Any]:
        """A bot's place on the ladder: the same as a player's page."""
        bot = bot_player(name)
        return {"name": bot, "kind": "bot", **await asyncio.to_thread(read_player, f"bot:{bot}")}

    @app.post("/api/quick-match", response_model=Created, status_code=201, responses=ERRORS, tags=["ratings"])
    async def quick_match(body: QuickMatch, request: Request) -> Created:
        """Signed in: a rated table on a preset, started at once, you against bots of a rating band (around your
        own rating in that preset's family)."""
        session = await must_sign_in(request)
        room, host_token, seat, token = await rooms.quick_match(
            body, (session.account_id, session.username), client_address(request)
        )
        out = await room_out(room)
        return Created(room=out, host_token=host_token, seat=seat, token=token, invite=out.invite)

    # --- what can be played -----------------------------------------------------------------------------------
    @app.get("/api/presets", response_model=list[Preset], tags=["rules"])
    async def presets() -> list[Preset]:
        """The rule presets a table can start from (house rules change them setting by setting)."""
        out = []
        for name in list_presets():
            r = load_rules(name)
            out.append(
                Preset(
                    name=name,
                    description=r.description,
                    min_players=r.min_players,
                    max_players=r.max_players,
                    players=r.players,
                    exchange=r.exchange,
                    scoring=r.scoring,
                )
            )
        return out

    @app.get("/api/bots", response_model=list[BotInfo], tags=["rules"])
    async def bots() -> list[BotInfo]:
        """The computer players a seat can be given (their names are their strengths)."""
        default = default_bot(budget_ms=settings.bot_budget_ms)
        return [BotInfo(name=k, description=v, default=k == default) for k, v in available_bots().items()]

    # --- rooms ------------------------------------------------------------------------------------------------
    @app.get("/api/rooms", response_model=list[RoomOut], tags=["rooms"])
    async def lobby(
        status: Annotated[str | None, Query(pattern="^(waiting|playing|paused)$")] = None,
    ) -> list[RoomOut]:
        """The lobby: public tables not yet finished, those waiting for players first."""
        out = []
        for r in rooms.lobby(status):
            try:  # one table that cannot be shown must not hide the others
                out.append(RoomOut(**await r.listed()))  # a table busy storing a move is listed as last shown
            except Exception:
                log.exception("room %s cannot be listed", r.id)
        return out

    @app.post("/api/rooms", response_model=Created, status_code=201, responses=ERRORS, tags=["rooms"])
    async def create_room(spec: CreateRoom, request: Request) -> Created:
        """Open a table: a preset plus house rules, a match length, and the seats. Keep the host token.

        An address may open a limited number of tables a minute, and have a limited number not yet finished
        (429); a table nobody starts is closed after a while (see the server's settings). A signed-in host (the
        session cookie and its X-CSRF-Token) sits as their account; only they may open a rated table."""
        session = await signed_in_for_change(request)
        account = (session.account_id, session.username) if session else None
        room, host_token, seat, token = await rooms.create(spec, client_address(request), account)
        out = await room_out(room)
        return Created(room=out, host_token=host_token, seat=seat, token=token, invite=out.invite)

    @app.get("/api/rooms/{room_id}", response_model=RoomOut, responses=ERRORS, tags=["rooms"])
    async def get_room(room_id: RoomId) -> RoomOut:
        return await room_out(await rooms.get(room_id))

    @app.get("/api/rooms/{room_id}/view", responses=ERRORS, tags=["rooms"])
    async def get_view(room_id: RoomId, credentials: Bearer, request: Request) -> dict[str, Any]:
        """What a seat sees now (with its token), or a spectator (without): the same as the WebSocket's view. An
        address may read a limited number a second (429 past it): the WebSocket is how to follow a table."""
        rooms.admit_read(client_address(request))
        room = await rooms.get(room_id)
        return await room.view_for_token(credentials.credentials if credentials else None)

    @app.post("/api/rooms/{room_id}/join", response_model=Joined, responses=ERRORS, tags=["rooms"])
    async def join_room(room_id: RoomId, body: Join, request: Request) -> Joined:
        """Take an open seat (the first, or the one named). Keep the token: it is the only way to act. Signed in
        (the session cookie and its X-CSRF-Token), you sit under your username; a rated table needs that."""
        session = await signed_in_for_change(request)
        room = await rooms.get(room_id)
        account = (session.account_id, session.username) if session else None
        seat, token = await room.join(body.name, body.seat, account)
        return Joined(room=await room_out(room), seat=seat, token=token)

    @app.post("/api/rooms/{room_id}/seats/{seat}", response_model=RoomOut, responses=ERRORS, tags=["host"])
    async def change_seat(
        room_id: RoomId, seat: Annotated[int, Path(ge=0, le=7)], body: SeatChange, credentials: Bearer
    ) -> RoomOut:
        """Host: give a seat to a bot (an empty one, or a disconnected player's), or open it for a person. The
        player's token is revoked at once: a move of theirs racing this change is refused."""
        room = await rooms.get(room_id)
        await room.change_seat(token_of(credentials), seat, body.kind, body.bot)
        return await room_out(room)

    @app.post("/api/rooms/{room_id}/start", response_model=RoomOut, responses=ERRORS, tags=["host"])
    async def start(room_id: RoomId, body: Start, credentials: Bearer) -> RoomOut:
        """Host: start the match once every seat is taken (or fill the empty ones with bots). The server runs a
        limited number of tables of bots alone (429 past it)."""
        room = await rooms.get(room_id)
        await room.start(token_of(credentials), body.fill_with_bots)
        return await room_out(room)

    @app.post("/api/rooms/{room_id}/close", status_code=204, responses=ERRORS, tags=["host"])
    async def close_room(room_id: RoomId, credentials: Bearer) -> Response:
        """Host: close a table not yet started (409 once it has). It is deleted, as a table nobody starts is
        after a while: it no longer counts among the tables your address may have open, and everyone at it is
        told the host closed it."""
        room = await rooms.get(room_id)
        await room.close_by_host(token_of(credentials))
        return Response(status_code=204)

    @app.post("/api/rooms/{room_id}/pause", response_model=RoomOut, responses=ERRORS, tags=["host"])
    async def pause(room_id: RoomId, credentials: Bearer) -> RoomOut:
        """Host: pause the game (no moves, no timers) until resumed."""
        room = await rooms.get(room_id)
        await room.pause(token_of(credentials), True)
        return await room_out(room)

    @app.post("/api/rooms/{room_id}/resume", response_model=RoomOut, responses=ERRORS, tags=["host"])
    async def resume(room_id: RoomId, credentials: Bearer) -> RoomOut:
        room = await rooms.get(room_id)
        await room.pause(token_of(credentials), False)
        return await room_out(room)

    @app.post("/api/rooms/{room_id}/actions", responses=ERRORS, tags=["play"])
    async def act(room_id: RoomId, body: Action, credentials: Bearer) -> dict[str, Any]:
        """A move with a seat's token: play cards, pass, or answer an exchange decision. Answers the new view."""
        room = await rooms.get(room_id)
        token = token_of(credentials)
        seat = await room.act(token, answer_of(body), phase_of(body), body.seq, seat=body.seat)
        return await room.current_view(seat)

    @app.get("/api/stats", tags=["server"])
    async def stats() -> dict[str, Any]:
        """What the server is doing: rooms in memory, connections, and the database journal's work so far."""
        j = rooms.journal
        return {
            "rooms": len(rooms.rooms),
            "playing": sum(1 for r in rooms.rooms.values() if r.status == "playing"),
            "bots_alone": sum(1 for r in rooms.rooms.values() if r.status == "playing" and r.ref.bots_alone),
            "connections": sum(len(r.conns) for r in rooms.rooms.values()),
            "expired": rooms.expired,
            "bot_decisions_in_workers": rooms.bots.decisions,
            "commits": j.commits,
            "writes": j.writes,
            "commit_seconds": round(j.commit_seconds, 3),
        }

    # --- records ----------------------------------------------------------------------------------------------
    @app.get("/api/records", response_model=list[RecordSummary], tags=["records"])
    async def records(
        limit: Annotated[int, Query(ge=1, le=200)] = 50,
        offset: Annotated[int, Query(ge=0, le=1_000_000)] = 0,
    ) -> list[RecordSummary]:
        """Finished public games, newest first, with links to download each record."""

        def read() -> tuple[list[dict[str, Any]], dict[str, list[dict[str, Any]]]]:
            with engine.connect() as conn:
                rows = store.finished_rooms(conn, limit, offset)
                return rows, store.seat_names(conn, [r["id"] for r in rows])

        rows, names = await asyncio.to_thread(read)
        return [
            RecordSummary(
                id=r["id"],
                name=r["name"],
                preset=r["preset"],
                players=r["players"],
                finished_at=r["finished_at"].isoformat() if r["finished_at"] else None,
                seats=[s["name"] for s in names.get(r["id"], [])],
                standings=r["standings"],
                downloads={f: settings.link(f"/api/records/{r['id']}?format={f}") for f in FORMATS},
            )
            for r in rows
        ]

    async def finished(room_id: str) -> Room:
        room = await rooms.get(room_id)
        if room.status != "over":
            raise Rejected("the game is still being played: its record is ready when it ends", 409)
        return room

    @app.get(
        "/api/records/{room_id}",
        responses={**ERRORS, 200: {"content": {f.media_type.split(";")[0]: {} for f in FORMATS.values()}}},
        tags=["records"],
    )
    async def record(
        room_id: RoomId,
        format: Annotated[str, Query(pattern="^(" + "|".join(FORMATS) + ")$")] = "text",
    ) -> Response:
        """A finished game's record as a file, in the record format (``bigtwo-record/1``): ``text`` (PGN-like) or
        ``json``. Every deal, exchange, play and payment; ``bigtwo replay`` and ``bigtwo.record`` read it back."""
        room = await finished(room_id)
        fmt = FORMATS[format]
        text = fmt.render(await room.record())
        return Response(
            text,
            media_type=fmt.media_type,
            headers={"Content-Disposition": f'attachment; filename="bigtwo-{room.id}.{fmt.extension}"'},
        )

    @app.get("/api/records/{room_id}/replay", responses=ERRORS, tags=["records"])
    async def replay(room_id: RoomId) -> dict[str, Any]:
        """A finished game step by step (every hand, the trick, the totals), for the replay viewer, with which way
        play went in words (``direction_said``, as the table's view sends it; None at two players)."""
        room = await finished(room_id)
        names = [s.name for s in room.seats]
        steps = await asyncio.to_thread(replay_steps, await room.record(), names)
        return {
            "id": room.id,
            "name": room.name,
            "rules": room.rules.name,
            "direction_said": direction_said(room.rules.direction, len(names)),
            "seats": names,
            "frames": steps,
        }

    # --- the table's WebSocket --------------------------------------------------------------------------------
    @app.websocket("/ws/rooms/{room_id}")
    async def table(websocket: WebSocket, room_id: str) -> None:
        """Views out, moves in. Send ``{"type": "hello", "token": ...}`` to act for a seat; without, you watch.

        A page from another site may not connect (its Origin must be allowed); a client that sends faster than
        the limit is told, then disconnected; one that does not read what it is sent is disconnected."""
        foreign = origin_refused(websocket)
        own_page = websocket.headers.get("sec-fetch-site") == "same-origin"
        if foreign is not None and not own_page:  # another site's page: an HTTP 403 before the handshake
            await websocket.close(code=CLOSE_FORBIDDEN, reason=foreign)
            return
        address = client_address(websocket)
        refused = rooms.admit_connection(address)
        if refused is not None:  # answered before the handshake: the cheapest refusal, a 429 in words
            await websocket.send_denial_response(PlainTextResponse(refused, status_code=429))
            return
        if foreign is not None:  # this server's own page, which can read why only once the socket is open
            await websocket.accept()
            await websocket.send_json({"type": "error", "message": foreign})
            await websocket.close(code=CLOSE_FORBIDDEN, reason="this server does not know this page's address")
            return
        await websocket.accept()
        try:
            if not ROOM_ID.match(room_id):
                raise Rejected("no such room", 404)
            room = await rooms.get(room_id)
        except Rejected as e:
            await websocket.send_json({"type": "error", "message": e.message})
            await websocket.close(code=CLOSE_NO_ROOM, reason=e.message[:120])
            return
        refused = rooms.admit_socket(room, address)
        if refused is not None:
            await websocket.send_json({"type": "error", "message": refused})
            await websocket.close(code=CLOSE_FULL, reason=refused[:120])
            return
        conn = Connection(websocket, limits, address)
        conn.start()
        receiving: list[asyncio.Timeout] = []

        def cut_short() -> None:  # a client being disconnected stops being read at once
            for t in receiving:
                with contextlib.suppress(RuntimeError):
                    t.reschedule(asyncio.get_running_loop().time())

        conn.on_kick = cut_short
        try:
            await room.attach(conn)
            while not conn.ending:
                async with asyncio.timeout(None) as t:
                    receiving.append(t)
                    try:
                        msg = await websocket.receive()
                    finally:
                        receiving.clear()
                if msg["type"] == "websocket.disconnect":
                    break
                if not conn.admit():
                    continue
                text, data = msg.get("text"), msg.get("bytes")
                raw: str | bytes = text if isinstance(text, str) else data if isinstance(data, bytes) else b""
                try:
                    parsed = parse_client_message(raw)
                except ValueError as e:
                    conn.send({"type": "error", "message": str(e), "seq": room.seq})
                else:
                    await room.handle(conn, parsed)
                await asyncio.sleep(0)  # another client's turn before this one's next message
        except (TimeoutError, WebSocketDisconnect, RuntimeError):
            pass
        finally:
            conn.on_kick = None
            rooms.socket_closed(address, room)
            await conn.finish()
            await room.detach(conn)

    # --- the browser client -----------------------------------------------------------------------------------
    def page() -> FileResponse:
        """The single page (lobby, table and replay viewer); it may load nothing but this server's own files."""
        return FileResponse(STATIC / "index.html", headers=PAGE_HEADERS)

    @app.get("/", include_in_schema=False)
    async def index() -> FileResponse:
        return page()

    @app.get("/room/{room_id}", include_in_schema=False)
    async def room_page(room_id: str) -> FileResponse:
        return page()

    @app.get("/replay/{room_id}", include_in_schema=False)
    async def replay_page(room_id: str) -> FileResponse:
        return page()

    def html(text: str, status: int = 200) -> HTMLResponse:
        return HTMLResponse(text, status_code=status, headers=PAGE_HEADERS)

    @app.get("/players/{username}", include_in_schema=False)
    async def player_html(username: str) -> HTMLResponse:
        try:
            name, data = await account_player(username[:40])
        except Rejected as e:
            return html(pages.missing_page(e.message), 404)
        return html(
            pages.player_page(name, "player", data["ratings"], data["history"], data["recent"], data["presets"])
        )

    @app.get("/bots/{name}", include_in_schema=False)
    async def bot_html(name: str) -> HTMLResponse:
        try:
            bot = bot_player(name[:40])
        except Rejected as e:
            return html(pages.missing_page(e.message), 404)
        data = await asyncio.to_thread(read_player, f"bot:{bot}")
        kind = f"bot: {available_bots()[bot]}"
        return html(pages.player_page(bot, kind, data["ratings"], data["history"], data["recent"], data["presets"]))

    @app.get("/leaderboard", include_in_schema=False)
    @app.get("/leaderboard/{family}", include_in_schema=False)
    async def leaderboard_html(
        family: str = "classic",
        limit: Annotated[int, Query(ge=1, le=100)] = 25,
        offset: Annotated[int, Query(ge=0, le=1_000_000)] = 0,
    ) -> HTMLResponse:
        if family not in ratings.FAMILY_NAMES:
            return html(pages.missing_page(f"no rules family {family[:40]!r}"), 404)
        rows, total = await asyncio.to_thread(read_leaderboard, family, limit, offset)
        return html(pages.leaderboard_page(family, rows, total, limit, offset))

    if swagger is not None:

        @app.get("/docs", include_in_schema=False)
        async def docs() -> HTMLResponse:
            """The API's Swagger UI, from the installed package's files, under the pages' own CSP."""
            return HTMLResponse(DOCS_PAGE, headers=PAGE_HEADERS)

        app.mount("/docs/static", StaticFiles(directory=swagger), name="swagger-ui")

    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    return app
