"""The table's WebSocket: views out, moves in, each connection admitted, rate-limited and ended on time."""

from __future__ import annotations

import asyncio
import contextlib
import re
import time

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from fastapi.responses import PlainTextResponse

from bigtwo import i18n
from bigtwo.server.connections import CLOSE_FORBIDDEN, CLOSE_FULL, CLOSE_MOVED, CLOSE_NO_ROOM, Connection
from bigtwo.server.context import Context
from bigtwo.server.messages import parse_client_message
from bigtwo.server.referee import Rejected
from bigtwo.server.routes.common import client_address, origin_refused

ROOM_ID = re.compile(r"^[A-Za-z0-9_-]{1,16}$")
MOVES = ("play", "pass", "exchange")  # the messages whose answer time is the move latency measured
router = APIRouter()


@router.websocket("/ws/rooms/{room_id}")
async def table(websocket: WebSocket, room_id: str, ctx: Context) -> None:
    """Views out, moves in. Send ``{"type": "hello", "token": ...}`` to act for a seat; without, you watch.

    A page from another site may not connect (its Origin must be allowed); a client that sends faster than
    the limit is told, then disconnected; one that does not read what it is sent is disconnected.

    Each connection speaks its own language, chosen at the handshake as for the page (the picker's cookie, else
    Accept-Language, else English): the server's sentences (the engine's reasons and scoring details in the
    table's words, errors, refusals) are translated here, in this connection's task (bigtwo.i18n's ContextVar)
    and, for the views every client is sent, per client (Room.broadcast). They are translated on the server
    rather than sent as message ids because they are built from the engine's own sentences and the seats'
    names, which only the server words; the page translates its own labels and buttons from its catalog."""
    rooms = ctx.rooms
    foreign = origin_refused(websocket)
    own_page = websocket.headers.get("sec-fetch-site") == "same-origin"
    if foreign is not None and not own_page:  # another site's page: an HTTP 403 before the handshake
        await websocket.close(code=CLOSE_FORBIDDEN, reason=foreign)
        return
    address = client_address(websocket)
    refused = await rooms.admit_connection(address)
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
        if e.status == 503:  # another process serves it, or this one is restarting: the page tries again
            await websocket.close(code=CLOSE_MOVED, reason=e.message[:120])
            return
        await websocket.send_json({"type": "error", "message": e.message})
        await websocket.close(code=CLOSE_NO_ROOM, reason=e.message[:120])
        return
    refused = rooms.admit_socket(room, address)
    if refused is not None:
        await websocket.send_json({"type": "error", "message": refused})
        await websocket.close(code=CLOSE_FULL, reason=refused[:120])
        return
    metrics = getattr(websocket.app.state, "metrics", None)
    conn = Connection(websocket, ctx.limits, address)
    conn.lang = i18n.from_request(websocket.cookies.get(i18n.COOKIE), websocket.headers.get("accept-language"))
    i18n.use_language(conn.lang)
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
                started = time.perf_counter()
                await room.handle(conn, parsed)
                if metrics is not None and getattr(parsed, "type", None) in MOVES:
                    metrics.observe_move(started)
            await asyncio.sleep(0)  # another client's turn before this one's next message
    except (TimeoutError, WebSocketDisconnect, RuntimeError):
        pass
    finally:
        conn.on_kick = None
        rooms.socket_closed(address, room)
        await conn.finish()
        await room.detach(conn)
