"""Ratings: a rules family's leaderboard, a player's or a bot's page data, and the rated quick match."""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request

from bigtwo.server import ratings
from bigtwo.server.context import Context, ServerContext
from bigtwo.server.messages import Created, QuickMatch
from bigtwo.server.middleware import StrictJSONRoute
from bigtwo.server.referee import Rejected
from bigtwo.server.routes.common import ERRORS, Family, PlayerName, client_address, room_out, signed_in_for_change
from bigtwo.server.setup import available_bots

router = APIRouter(route_class=StrictJSONRoute)


def read_leaderboard(ctx: ServerContext, family: str, limit: int, offset: int) -> tuple[list[dict[str, Any]], int]:
    """One page of a family's ladder and how many it holds (reads the database: run it in a thread)."""
    with ctx.engine.connect() as conn:
        return ratings.leaderboard(conn, family, limit, offset)


def read_player(ctx: ServerContext, player: str) -> dict[str, Any]:
    """A player's ratings, histories, recent matches and preset statistics (reads the database)."""
    with ctx.engine.connect() as conn:
        by_family = ratings.player_ratings(conn, player)
        return {
            "ratings": by_family,
            "history": {f: ratings.history(conn, player, f) for f in by_family},
            "recent": ratings.recent_matches(conn, player),
            "presets": ratings.preset_stats(conn, player),
        }


async def account_player(ctx: ServerContext, username: str) -> tuple[str, dict[str, Any]]:
    """An account's name as spelt and its page data (404 when nobody has that name)."""
    found = await asyncio.to_thread(ctx.accounts.account_by_name, username)
    if found is None:
        raise Rejected(f"no player named {username!r}", 404)
    return found["username"], await asyncio.to_thread(read_player, ctx, f"account:{found['id']}")


def bot_player(name: str) -> str:
    """A bot's name, checked (404 naming the bots there are)."""
    if name not in available_bots():
        raise Rejected(f"no bot named {name!r}; bots: {', '.join(available_bots())}", 404)
    return name


@router.get("/api/leaderboard/{family}", responses=ERRORS, tags=["ratings"])
async def leaderboard(
    family: Family,
    ctx: Context,
    limit: Annotated[int, Query(ge=1, le=100)] = 25,
    offset: Annotated[int, Query(ge=0, le=1_000_000)] = 0,
) -> dict[str, Any]:
    """A rules family's players and bots, best rating (μ − 3σ) first, one page."""
    rows, total = await asyncio.to_thread(read_leaderboard, ctx, family, limit, offset)
    return {"family": family, "name": ratings.FAMILY_NAMES[family], "total": total, "players": rows}


@router.get("/api/players/{username}", responses=ERRORS, tags=["ratings"])
async def player(username: PlayerName, ctx: Context) -> dict[str, Any]:
    """A player's ratings, rating history, recent finished matches and statistics per preset."""
    name, data = await account_player(ctx, username)
    return {"name": name, "kind": "person", **data}


@router.get("/api/bots/{name}", responses=ERRORS, tags=["ratings"])
async def bot_page_data(name: PlayerName, ctx: Context) -> dict[str, Any]:
    """A bot's place on the ladder: the same as a player's page."""
    bot = bot_player(name)
    return {"name": bot, "kind": "bot", **await asyncio.to_thread(read_player, ctx, f"bot:{bot}")}


@router.post("/api/quick-match", response_model=Created, status_code=201, responses=ERRORS, tags=["ratings"])
async def quick_match(body: QuickMatch, request: Request, ctx: Context) -> Created:
    """A table on a preset, started at once, you against bots of a rating band (around your own rating in that
    preset's family): rated when signed in; a guest gives a name and plays unrated, matched as a newcomer."""
    session = await signed_in_for_change(ctx, request)
    account = (session.account_id, session.username) if session is not None else None
    room, host_token, seat, token = await ctx.rooms.quick_match(body, account, client_address(request))
    out = await room_out(room)
    return Created(room=out, host_token=host_token, seat=seat, token=token, invite=out.invite)
