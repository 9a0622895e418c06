"""Rooms: what can be played (presets, bots), the lobby, opening and joining a table, its host's actions,
moves over HTTP, and the server's own counts. The rules of each action live in :mod:`bigtwo.server.rooms`."""

from __future__ import annotations

import logging
from typing import Annotated, Any

from fastapi import APIRouter, Path, Query, Request
from fastapi.responses import Response

from bigtwo.rules.ruleset import list_presets, load_rules
from bigtwo.server.context import Context
from bigtwo.server.messages import (
    Action,
    BotInfo,
    Created,
    CreateRoom,
    Join,
    Joined,
    Preset,
    RoomOut,
    SeatChange,
    Start,
)
from bigtwo.server.middleware import StrictJSONRoute
from bigtwo.server.room import answer_of, phase_of
from bigtwo.server.routes.common import (
    ERRORS,
    Bearer,
    RoomId,
    client_address,
    room_out,
    signed_in_for_change,
    token_of,
)
from bigtwo.server.setup import available_bots, default_bot
from bigtwo.words import PRESET_TITLES

log = logging.getLogger("bigtwo.server")
router = APIRouter(route_class=StrictJSONRoute)


# --- what can be played ---------------------------------------------------------------------------------------
@router.get("/api/presets", response_model=list[Preset], tags=["rules"])
async def presets() -> list[Preset]:
    """The rule presets a table can start from (house rules change them setting by setting)."""
    out = []
    for name in list_presets():
        r = load_rules(name)
        out.append(
            Preset(
                name=name,
                title=PRESET_TITLES.get(name, name),
                description=r.description,
                min_players=r.min_players,
                max_players=r.max_players,
                players=r.players,
                exchange=r.exchange,
                scoring=r.scoring,
            )
        )
    return out


@router.get("/api/bots", response_model=list[BotInfo], tags=["rules"])
async def bots(ctx: Context) -> list[BotInfo]:
    """The computer players a seat can be given (their names are their strengths)."""
    default = default_bot(budget_ms=ctx.settings.bot_budget_ms)
    return [BotInfo(name=k, description=v, default=k == default) for k, v in available_bots().items()]


# --- rooms ----------------------------------------------------------------------------------------------------
@router.get("/api/rooms", response_model=list[RoomOut], tags=["rooms"])
async def lobby(
    ctx: Context,
    status: Annotated[str | None, Query(pattern="^(waiting|playing|paused)$")] = None,
) -> list[RoomOut]:
    """The lobby: public tables not yet finished, those waiting for players first."""
    out = []
    for listed in await ctx.rooms.lobby_listing(status):
        try:  # one table that cannot be shown must not hide the others
            out.append(RoomOut(**listed))
        except Exception:
            log.exception("room %s cannot be listed", listed.get("id"))
    return out


@router.post("/api/rooms", response_model=Created, status_code=201, responses=ERRORS, tags=["rooms"])
async def create_room(spec: CreateRoom, request: Request, ctx: Context) -> Created:
    """Open a table: a preset plus house rules, a match length, and the seats. Keep the host token.

    An address may open a limited number of tables a minute, and have a limited number not yet finished
    (429); a table nobody starts is closed after a while (see the server's settings). A signed-in host (the
    session cookie and its X-CSRF-Token) sits as their account; only they may open a rated table."""
    session = await signed_in_for_change(ctx, request)
    account = (session.account_id, session.username) if session else None
    room, host_token, seat, token = await ctx.rooms.create(spec, client_address(request), account)
    out = await room_out(room)
    return Created(room=out, host_token=host_token, seat=seat, token=token, invite=out.invite)


@router.get("/api/rooms/{room_id}", response_model=RoomOut, responses=ERRORS, tags=["rooms"])
async def get_room(room_id: RoomId, ctx: Context) -> RoomOut:
    return await room_out(await ctx.rooms.get(room_id))


@router.get("/api/rooms/{room_id}/view", responses=ERRORS, tags=["rooms"])
async def get_view(room_id: RoomId, credentials: Bearer, request: Request, ctx: Context) -> dict[str, Any]:
    """What a seat sees now (with its token), or a spectator (without): the same as the WebSocket's view. An
    address may read a limited number a second (429 past it): the WebSocket is how to follow a table."""
    ctx.rooms.admit_read(client_address(request))
    room = await ctx.rooms.get(room_id)
    return await room.view_for_token(credentials.credentials if credentials else None)


@router.post("/api/rooms/{room_id}/join", response_model=Joined, responses=ERRORS, tags=["rooms"])
async def join_room(room_id: RoomId, body: Join, request: Request, ctx: Context) -> Joined:
    """Take an open seat (the first, or the one named). Keep the token: it is the only way to act. Signed in
    (the session cookie and its X-CSRF-Token), you sit under your username; a rated table needs that."""
    session = await signed_in_for_change(ctx, request)
    room = await ctx.rooms.get(room_id)
    account = (session.account_id, session.username) if session else None
    seat, token = await room.join(body.name, body.seat, account)
    return Joined(room=await room_out(room), seat=seat, token=token)


@router.post("/api/rooms/{room_id}/seats/{seat}", response_model=RoomOut, responses=ERRORS, tags=["host"])
async def change_seat(
    room_id: RoomId, seat: Annotated[int, Path(ge=0, le=7)], body: SeatChange, credentials: Bearer, ctx: Context
) -> RoomOut:
    """Host: give a seat to a bot (an empty one, or a disconnected player's), or open it for a person. The
    player's token is revoked at once: a move of theirs racing this change is refused."""
    room = await ctx.rooms.get(room_id)
    await room.change_seat(token_of(credentials), seat, body.kind, body.bot)
    return await room_out(room)


@router.post("/api/rooms/{room_id}/start", response_model=RoomOut, responses=ERRORS, tags=["host"])
async def start(room_id: RoomId, body: Start, credentials: Bearer, ctx: Context) -> RoomOut:
    """Host: start the match once every seat is taken (or fill the empty ones with bots). The server runs a
    limited number of tables of bots alone (429 past it)."""
    room = await ctx.rooms.get(room_id)
    await room.start(token_of(credentials), body.fill_with_bots)
    return await room_out(room)


@router.post("/api/rooms/{room_id}/close", status_code=204, responses=ERRORS, tags=["host"])
async def close_room(room_id: RoomId, credentials: Bearer, ctx: Context) -> Response:
    """Host: close a table not yet started (409 once it has). It is deleted, as a table nobody starts is
    after a while: it no longer counts among the tables your address may have open, and everyone at it is
    told the host closed it."""
    room = await ctx.rooms.get(room_id)
    await room.close_by_host(token_of(credentials))
    return Response(status_code=204)


@router.post("/api/rooms/{room_id}/pause", response_model=RoomOut, responses=ERRORS, tags=["host"])
async def pause(room_id: RoomId, credentials: Bearer, ctx: Context) -> RoomOut:
    """Host: pause the game (no moves, no timers) until resumed."""
    room = await ctx.rooms.get(room_id)
    await room.pause(token_of(credentials), True)
    return await room_out(room)


@router.post("/api/rooms/{room_id}/resume", response_model=RoomOut, responses=ERRORS, tags=["host"])
async def resume(room_id: RoomId, credentials: Bearer, ctx: Context) -> RoomOut:
    room = await ctx.rooms.get(room_id)
    await room.pause(token_of(credentials), False)
    return await room_out(room)


@router.post("/api/rooms/{room_id}/actions", responses=ERRORS, tags=["play"])
async def act(room_id: RoomId, body: Action, credentials: Bearer, ctx: Context) -> dict[str, Any]:
    """A move with a seat's token: play cards, pass, or answer an exchange decision. Answers the new view."""
    room = await ctx.rooms.get(room_id)
    token = token_of(credentials)
    seat = await room.act(token, answer_of(body), phase_of(body), body.seq, seat=body.seat)
    return await room.current_view(seat)


@router.get("/api/stats", tags=["server"])
async def stats(ctx: Context) -> dict[str, Any]:
    """What the server is doing: rooms in memory, connections, and the database journal's work so far."""
    rooms = ctx.rooms
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
