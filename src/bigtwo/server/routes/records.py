"""Records: finished public games, each downloadable in the record format, and replayed step by step."""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from typing import Annotated, Any

from fastapi import APIRouter, Query
from fastapi.responses import Response

from bigtwo.errors import BigTwoError
from bigtwo.record import format_text
from bigtwo.server import store
from bigtwo.server.botpool import BOTS_ALONE, JobTimeout
from bigtwo.server.context import Context, ServerContext
from bigtwo.server.messages import RecordSummary
from bigtwo.server.middleware import StrictJSONRoute
from bigtwo.server.records import FORMATS, replay_steps, review_payload
from bigtwo.server.referee import Rejected
from bigtwo.server.room import Room
from bigtwo.server.routes.common import ERRORS, RoomId
from bigtwo.words import direction_said

router = APIRouter(route_class=StrictJSONRoute)


@router.get("/api/records", response_model=list[RecordSummary], tags=["records"])
async def records(
    ctx: Context,
    limit: Annotated[int, Query(ge=1, le=200)] = 50,
    offset: Annotated[int, Query(ge=0, le=1_000_000)] = 0,
) -> list[RecordSummary]:
    """Finished public games, newest first, with links to download each record."""

    def read() -> tuple[list[dict[str, Any]], dict[str, list[dict[str, Any]]]]:
        with ctx.engine.connect() as conn:
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
            downloads={f: ctx.settings.link(f"/api/records/{r['id']}?format={f}") for f in FORMATS},
        )
        for r in rows
    ]


async def finished(ctx: ServerContext, room_id: str) -> Room:
    """A finished room (409 while it is still played)."""
    room = await ctx.rooms.get(room_id)
    if room.status != "over":
        raise Rejected("the game is still being played: its record is ready when it ends", 409)
    return room


@router.get(
    "/api/records/{room_id}",
    responses={**ERRORS, 200: {"content": {f.media_type.split(";")[0]: {} for f in FORMATS.values()}}},
    tags=["records"],
)
async def record(
    room_id: RoomId,
    ctx: Context,
    format: Annotated[str, Query(pattern="^(" + "|".join(FORMATS) + ")$")] = "text",
) -> Response:
    """A finished game's record as a file, in the record format (``bigtwo-record/1``): ``text`` (PGN-like) or
    ``json``. Every deal, exchange, play and payment; ``bigtwo replay`` and ``bigtwo.record`` read it back."""
    room = await finished(ctx, room_id)
    fmt = FORMATS[format]
    text = fmt.render(await room.record())
    return Response(
        text,
        media_type=fmt.media_type,
        headers={"Content-Disposition": f'attachment; filename="bigtwo-{room.id}.{fmt.extension}"'},
    )


@router.get("/api/records/{room_id}/replay", responses=ERRORS, tags=["records"])
async def replay(room_id: RoomId, ctx: Context) -> dict[str, Any]:
    """A finished game step by step (every hand, the trick, the totals), for the replay viewer, with which way
    play went in words (``direction_said``, as the table's view sends it; None at two players)."""
    room = await finished(ctx, room_id)
    names = [s.name for s in room.seats]
    steps = await asyncio.to_thread(replay_steps, await room.record(), names)
    return {
        "id": room.id,
        "name": room.name,
        "rules": room.rules.name,
        "ranks_only": room.rules.ranks_only,  # rounds scored by the order players go out in: no points to show
        "direction_said": direction_said(room.rules.direction, len(names)),
        "seats": names,
        "frames": steps,
    }


REVIEW_DEALS = 40  # sampled deals a decision (bigtwo.review.DEFAULT_DEALS): a round in a few seconds of a worker
REVIEWS_KEPT = 256  # reviews kept in memory (a finished game's record never changes)
_reviews: OrderedDict[tuple[str, int, int], dict[str, Any]] = OrderedDict()


@router.get("/api/records/{room_id}/review", responses=ERRORS, tags=["records"])
async def review(
    room_id: RoomId,
    ctx: Context,
    seat: Annotated[int, Query(ge=0, le=7)] = 0,
    round: Annotated[int, Query(ge=1, le=1000)] = 1,
) -> dict[str, Any]:
    """One seat's play decisions in one round of a finished game, each rated from that seat's own view (the
    cards it could not see dealt again at random, the moves worth weighing played out on the same deals): the
    move played, the move preferred, the points given up, and a label (``good``, ``inaccuracy``, ``mistake``,
    ``blunder``). Computed once in a bot worker, after the tables' own bots, within the workers' job deadline,
    then kept."""
    room = await finished(ctx, room_id)
    if seat >= len(room.seats):
        raise Rejected(f"seat {seat} is not at this {len(room.seats)}-player table", 422)
    key = (room.id, seat, round)
    if key in _reviews:
        _reviews.move_to_end(key)
        return _reviews[key]
    record = await room.record()
    if round > len(record.rounds):
        raise Rejected(f"round {round}: the game had rounds 1-{len(record.rounds)}", 422)
    try:
        got = await ctx.rooms.bots.call(
            review_payload, format_text(record), seat, round - 1, REVIEW_DEALS, priority=BOTS_ALONE, table=room.id
        )
    except JobTimeout:
        raise Rejected("the review took too long: try again later", 503) from None
    except BigTwoError as e:
        raise Rejected(str(e), 422) from None
    _reviews[key] = got
    while len(_reviews) > REVIEWS_KEPT:
        _reviews.popitem(last=False)
    return got
