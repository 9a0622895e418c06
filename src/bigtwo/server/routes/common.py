"""What several routers share: the error responses they document, typed path parameters, the bearer token,
the caller's address, the origin check, and the session a change acts for."""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from fastapi import Depends, Path, Request, WebSocket
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from bigtwo.server import ratings
from bigtwo.server.accounts import COOKIE, CSRF_HEADER, Session
from bigtwo.server.context import ServerContext
from bigtwo.server.messages import Problem, RoomOut
from bigtwo.server.referee import Rejected
from bigtwo.server.room import Room
from bigtwo.server.settings import Settings

RoomId = Annotated[str, Path(min_length=1, max_length=16, pattern=r"^[A-Za-z0-9_-]+$")]
Family = Annotated[str, Path(pattern="^(" + "|".join(ratings.FAMILY_NAMES) + ")$")]
PlayerName = Annotated[str, Path(min_length=1, max_length=40, pattern=r"^[A-Za-z0-9_.-]+$")]
bearer = HTTPBearer(auto_error=False, description="a seat's token (moves) or the host's token (host actions)")
Bearer = Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)]
ERRORS: dict[int | str, dict[str, Any]] = {
    code: {"model": Problem} for code in (400, 401, 403, 404, 409, 413, 422, 429, 503)
}


def client_address(conn: Request | WebSocket) -> str:
    """The client's address (uvicorn puts a trusted proxy's X-Forwarded-For here: see ``trusted_proxies``)."""
    return conn.client.host if conn.client else "?"


def origin_refused(conn: Request | WebSocket) -> str | None:
    """Why a browser page may not act here (None: it may). Our own page reached by an address the server was
    not told of (a proxy that rewrites Host) is told how to fix it: its browser says it is same-origin, which a
    page cannot forge; a page of another site hears only that it is refused."""
    settings: Settings = conn.app.state.context.settings
    origin = conn.headers.get("origin")
    if settings.origin_allowed(origin, conn.headers.get("host"), conn.url.scheme):
        return None
    if conn.headers.get("sec-fetch-site") == "same-origin":
        return (
            f"this server does not know the address this page was opened at ({str(origin)[:80]}): "
            "its operator can name it with --public-url or --allowed-origins"
        )
    return "a page from another site may not do this here"


def check_origin(request: Request) -> None:
    """A state-changing request from a page of another site is refused (browsers always say whose page sent
    a cross-site request; a client without an Origin header is not a page and is not refused here)."""
    refused = origin_refused(request)
    if refused is not None:
        raise Rejected(refused, 403)


async def session_of(ctx: ServerContext, request: Request) -> Session | None:
    """The session this browser's cookie names (None: a guest)."""
    return await asyncio.to_thread(ctx.accounts.session, request.cookies.get(COOKIE))


async def signed_in_for_change(ctx: ServerContext, request: Request) -> Session | None:
    """The session a state-changing request acts for: None for a guest (no or an unknown cookie); refused
    (403) when the cookie is a live session but the request lacks its CSRF token or comes from another site."""
    check_origin(request)
    session = await session_of(ctx, request)
    if session is not None:
        ctx.accounts.check_csrf(session, request.headers.get(CSRF_HEADER))
    return session


async def must_sign_in(ctx: ServerContext, request: Request) -> Session:
    """The session a change needs (401 for a guest)."""
    session = await signed_in_for_change(ctx, request)
    if session is None:
        raise Rejected("sign in first", 401)
    return session


def token_of(credentials: HTTPAuthorizationCredentials | None) -> str:
    """The bearer token a seat's move or a host's action carries (401 without one)."""
    if credentials is None or not credentials.credentials:
        raise Rejected("this needs a token: send 'Authorization: Bearer <token>'", 401)
    return credentials.credentials


async def room_out(room: Room) -> RoomOut:
    """A room as the API shows it."""
    # under the room's lock, as its views are: a move (or the match's end) the engine has taken but the
    # database not yet stored is never shown, so a client told "over" finds the results stored
    return RoomOut(**await room.shown())
