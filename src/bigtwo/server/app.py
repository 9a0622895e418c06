"""The web application: a JSON API for rooms and records (documented by OpenAPI), the table's WebSocket,
and the browser client's static files.

``create_app(database)`` builds it; ``bigtwo serve`` runs it on uvicorn. At start the database is migrated to
the latest schema and every unfinished game is rebuilt from its stored actions, so a restart resumes them.
One process serves every room (rooms live in its memory): run a single worker.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path as FilePath
from typing import Annotated, Any

from fastapi import Depends, FastAPI, Path, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from fastapi.staticfiles import StaticFiles

from bigtwo import __version__
from bigtwo.rules.ruleset import list_presets, load_rules
from bigtwo.server import store
from bigtwo.server.db import make_engine, migrate
from bigtwo.server.messages import (
    Action,
    BotInfo,
    Created,
    CreateRoom,
    Join,
    Joined,
    Preset,
    Problem,
    RecordSummary,
    RoomOut,
    SeatChange,
    Start,
    parse_client_message,
)
from bigtwo.server.records import FORMATS, replay_steps
from bigtwo.server.rooms import (
    Connection,
    Rejected,
    Room,
    Rooms,
    answer_of,
    available_bots,
    default_bot,
    phase_of,
)

log = logging.getLogger("bigtwo.server")
STATIC = FilePath(__file__).with_name("static")
RoomId = Annotated[str, Path(min_length=1, max_length=16, pattern=r"^[A-Za-z0-9_-]+$")]
bearer = HTTPBearer(auto_error=False, description="a seat's token (moves) or the host's token (host actions)")
Bearer = Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)]
PAGE_HEADERS = {
    "Cache-Control": "no-cache",
    "Content-Security-Policy": (
        "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; connect-src 'self'; "
        "frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
}
ERRORS: dict[int | str, dict[str, Any]] = {code: {"model": Problem} for code in (400, 401, 403, 404, 409, 422, 503)}


def create_app(database: str = "bigtwo.sqlite3") -> FastAPI:
    """The application for a database (a file path, ``sqlite:///...`` or ``postgresql://...``)."""
    engine = make_engine(database)
    rooms = Rooms(engine)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        await asyncio.to_thread(migrate, engine)
        count = await asyncio.to_thread(rooms.load_live)
        log.info("resumed %d unfinished rooms", count)
        rooms.journal.start()
        rooms.resume_all()
        try:
            yield
        finally:
            rooms.stop()
            await rooms.journal.stop()
            engine.dispose()

    app = FastAPI(
        title="bigtwo",
        version=__version__,
        summary="Big Two and its family online: rooms, seats for people and bots, records of finished games.",
        lifespan=lifespan,
    )
    app.state.rooms = rooms

    @app.exception_handler(Rejected)
    async def _rejected(request: Request, exc: Rejected) -> JSONResponse:
        return JSONResponse({"detail": exc.message}, status_code=exc.status)

    def base_url(request: Request) -> str:
        return str(request.base_url).rstrip("/")

    def room_out(room: Room, request: Request) -> RoomOut:
        return RoomOut(**room.summary(base_url(request)))

    def token_of(credentials: HTTPAuthorizationCredentials | None) -> str:
        if credentials is None or not credentials.credentials:
            raise Rejected("this needs a token: send 'Authorization: Bearer <token>'", 401)
        return credentials.credentials

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
        default = default_bot()
        return [BotInfo(name=k, description=v, default=k == default) for k, v in available_bots().items()]

    # --- rooms ------------------------------------------------------------------------------------------------
    @app.get("/api/rooms", response_model=list[RoomOut], tags=["rooms"])
    async def lobby(
        request: Request,
        status: Annotated[str | None, Query(pattern="^(waiting|playing|paused)$")] = None,
    ) -> list[RoomOut]:
        """The lobby: public tables not yet finished, those waiting for players first."""
        return [room_out(r, request) for r in rooms.lobby(status)]

    @app.post("/api/rooms", response_model=Created, status_code=201, responses=ERRORS, tags=["rooms"])
    async def create_room(spec: CreateRoom, request: Request) -> Created:
        """Open a table: a preset plus house rules, a match length, and the seats. Keep the host token."""
        room, host_token, seat, token = await rooms.create(spec)
        out = room_out(room, request)
        return Created(room=out, host_token=host_token, seat=seat, token=token, invite=out.invite)

    @app.get("/api/rooms/{room_id}", response_model=RoomOut, responses=ERRORS, tags=["rooms"])
    async def get_room(room_id: RoomId, request: Request) -> RoomOut:
        return room_out(await rooms.get(room_id), request)

    @app.get("/api/rooms/{room_id}/view", responses=ERRORS, tags=["rooms"])
    async def get_view(room_id: RoomId, credentials: Bearer) -> dict[str, Any]:
        """What a seat sees now (with its token), or a spectator (without): the same as the WebSocket's view."""
        room = await rooms.get(room_id)
        token = credentials.credentials if credentials else None
        seat = room.seat_for_token(token)
        if token and seat is None:
            raise Rejected("this token is not a seat at this table", 403)
        return await room.current_view(seat)

    @app.post("/api/rooms/{room_id}/join", response_model=Joined, responses=ERRORS, tags=["rooms"])
    async def join_room(room_id: RoomId, body: Join, request: Request) -> Joined:
        """Take an open seat (the first, or the one named). Keep the token: it is the only way to act."""
        room = await rooms.get(room_id)
        seat, token = await room.join(body.name, body.seat)
        return Joined(room=room_out(room, request), seat=seat, token=token)

    @app.post("/api/rooms/{room_id}/seats/{seat}", response_model=RoomOut, responses=ERRORS, tags=["host"])
    async def change_seat(
        room_id: RoomId, seat: Annotated[int, Path(ge=0, le=7)], body: SeatChange, credentials: Bearer, request: Request
    ) -> RoomOut:
        """Host: give a seat to a bot (an empty one, or a disconnected player's), or open it for a person."""
        room = await rooms.get(room_id)
        await room.change_seat(token_of(credentials), seat, body.kind, body.bot)
        return room_out(room, request)

    @app.post("/api/rooms/{room_id}/start", response_model=RoomOut, responses=ERRORS, tags=["host"])
    async def start(room_id: RoomId, body: Start, credentials: Bearer, request: Request) -> RoomOut:
        """Host: start the match once every seat is taken (or fill the empty ones with bots)."""
        room = await rooms.get(room_id)
        await room.start(token_of(credentials), body.fill_with_bots)
        return room_out(room, request)

    @app.post("/api/rooms/{room_id}/pause", response_model=RoomOut, responses=ERRORS, tags=["host"])
    async def pause(room_id: RoomId, credentials: Bearer, request: Request) -> RoomOut:
        """Host: pause the game (no moves, no timers) until resumed."""
        room = await rooms.get(room_id)
        await room.pause(token_of(credentials), True)
        return room_out(room, request)

    @app.post("/api/rooms/{room_id}/resume", response_model=RoomOut, responses=ERRORS, tags=["host"])
    async def resume(room_id: RoomId, credentials: Bearer, request: Request) -> RoomOut:
        room = await rooms.get(room_id)
        await room.pause(token_of(credentials), False)
        return room_out(room, request)

    @app.post("/api/rooms/{room_id}/actions", responses=ERRORS, tags=["play"])
    async def act(room_id: RoomId, body: Action, credentials: Bearer) -> dict[str, Any]:
        """A move with a seat's token: play cards, pass, or answer an exchange decision. Answers the new view."""
        room = await rooms.get(room_id)
        seat = room.seat_for_token(token_of(credentials))
        if seat is None:
            raise Rejected("this token is not a seat at this table", 403)
        if body.seat is not None and body.seat != seat:
            raise Rejected(f"this token is seat {seat}'s: it cannot act for seat {body.seat}", 403)
        await room.submit(seat, answer_of(body), by="player", seq=body.seq, phase=phase_of(body))
        return await room.current_view(seat)

    @app.get("/api/stats", tags=["server"])
    async def stats() -> dict[str, Any]:
        """What the server is doing: rooms in memory, connections, and the database journal's work so far."""
        j = rooms.journal
        return {
            "rooms": len(rooms.rooms),
            "playing": sum(1 for r in rooms.rooms.values() if r.status == "playing"),
            "connections": sum(len(r.conns) for r in rooms.rooms.values()),
            "commits": j.commits,
            "writes": j.writes,
            "commit_seconds": round(j.commit_seconds, 3),
        }

    # --- records ----------------------------------------------------------------------------------------------
    @app.get("/api/records", response_model=list[RecordSummary], tags=["records"])
    async def records(
        request: Request,
        limit: Annotated[int, Query(ge=1, le=200)] = 50,
        offset: Annotated[int, Query(ge=0, le=1_000_000)] = 0,
    ) -> list[RecordSummary]:
        """Finished public games, newest first, with links to download each record."""

        def read() -> tuple[list[dict[str, Any]], dict[str, list[dict[str, Any]]]]:
            with engine.connect() as conn:
                rows = store.finished_rooms(conn, limit, offset)
                return rows, store.seat_names(conn, [r["id"] for r in rows])

        rows, names = await asyncio.to_thread(read)
        base = base_url(request)
        return [
            RecordSummary(
                id=r["id"],
                name=r["name"],
                preset=r["preset"],
                players=r["players"],
                finished_at=r["finished_at"].isoformat() if r["finished_at"] else None,
                seats=[s["name"] for s in names.get(r["id"], [])],
                standings=r["standings"],
                downloads={f: f"{base}/api/records/{r['id']}?format={f}" for f in FORMATS},
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
        """A finished game step by step (every hand, the trick, the totals), for the replay viewer."""
        room = await finished(room_id)
        names = [s.name for s in room.seats]
        steps = await asyncio.to_thread(replay_steps, await room.record(), names)
        return {"id": room.id, "name": room.name, "rules": room.rules.name, "seats": names, "frames": steps}

    # --- the table's WebSocket --------------------------------------------------------------------------------
    @app.websocket("/ws/rooms/{room_id}")
    async def table(websocket: WebSocket, room_id: str) -> None:
        """Views out, moves in. Send ``{"type": "hello", "token": ...}`` to act for a seat; without, you watch."""
        await websocket.accept()
        try:
            room = await rooms.get(room_id[:16])
        except Rejected as e:
            await websocket.send_json({"type": "error", "message": e.message})
            await websocket.close(code=4404)
            return
        conn = Connection(websocket)
        pump = asyncio.get_running_loop().create_task(conn.pump())
        await room.attach(conn)
        try:
            while True:
                msg = await websocket.receive()
                if msg["type"] == "websocket.disconnect":
                    break
                raw = msg.get("text") if msg.get("text") is not None else msg.get("bytes") or b""
                try:
                    parsed = parse_client_message(raw)
                except ValueError as e:
                    conn.send({"type": "error", "message": str(e), "seq": room.seq})
                    continue
                await room.handle(conn, parsed)
        except WebSocketDisconnect:
            pass
        finally:
            await room.detach(conn)
            pump.cancel()

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

    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    return app
