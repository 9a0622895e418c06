"""Accounts: who this browser is, signing up, in and out, and changing a password. A session is an HttpOnly
cookie; every change it makes carries its CSRF token (:mod:`bigtwo.server.accounts` keeps the rules)."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from bigtwo.server import ratings
from bigtwo.server.accounts import COOKIE, Credentials, PasswordChange, Session
from bigtwo.server.context import Context, ServerContext
from bigtwo.server.middleware import StrictJSONRoute
from bigtwo.server.routes.common import ERRORS, check_origin, client_address, must_sign_in, session_of

router = APIRouter(route_class=StrictJSONRoute)


def secure_cookie(ctx: ServerContext, request: Request) -> bool:
    """Whether the session cookie is marked Secure: as set, else when the server is reached over TLS."""
    if ctx.settings.secure_cookies is not None:
        return ctx.settings.secure_cookies
    return (ctx.settings.public_url or "").startswith("https://") or request.url.scheme == "https"


def account_out(session: Session | None) -> dict[str, Any]:
    """An account as its own browser sees it (with the CSRF token its page sends)."""
    if session is None:
        return {"signed_in": False, "username": None, "csrf": None}
    return {
        "signed_in": True,
        "username": session.username,
        "csrf": session.csrf,
        "page": f"/players/{session.username}",
    }


def signed_in(ctx: ServerContext, request: Request, session: Session, secret: str) -> JSONResponse:
    """The answer that signs a browser in: the account, and the session's cookie."""
    response = JSONResponse(account_out(session))
    response.set_cookie(
        COOKIE,
        secret,
        max_age=int(ctx.settings.session_days * 86400),
        path="/",
        httponly=True,
        samesite="lax",
        secure=secure_cookie(ctx, request),
    )
    return response


@router.get("/api/account", responses=ERRORS, tags=["accounts"])
async def account(request: Request, ctx: Context) -> dict[str, Any]:
    """Who this browser is signed in as (from its session cookie), with the CSRF token its page must send in
    the X-CSRF-Token header of every change, and the account's ratings."""
    session = await session_of(ctx, request)
    out = account_out(session)
    if session is not None:

        def read() -> dict[str, Any]:
            with ctx.engine.connect() as conn:
                return ratings.player_ratings(conn, f"account:{session.account_id}")

        out["ratings"] = await asyncio.to_thread(read)
    return out


@router.post("/api/account/signup", status_code=201, responses=ERRORS, tags=["accounts"])
async def sign_up(body: Credentials, request: Request, ctx: Context) -> JSONResponse:
    """Open an account and sign in (a session cookie: HttpOnly, SameSite=Lax, Secure behind TLS)."""
    check_origin(request)
    session, secret = await asyncio.to_thread(
        ctx.accounts.sign_up, body.username, body.password, client_address(request)
    )
    response = signed_in(ctx, request, session, secret)
    response.status_code = 201
    return response


@router.post("/api/account/signin", responses=ERRORS, tags=["accounts"])
async def sign_in(body: Credentials, request: Request, ctx: Context) -> JSONResponse:
    """Sign in: a new session every time (the one this browser had, if any, ends). Attempts are limited per
    address and wrong passwords per username (429 in words past them)."""
    check_origin(request)
    session, secret = await asyncio.to_thread(
        ctx.accounts.sign_in, body.username, body.password, client_address(request), request.cookies.get(COOKIE)
    )
    return signed_in(ctx, request, session, secret)


@router.post("/api/account/signout", responses=ERRORS, tags=["accounts"])
async def sign_out(request: Request, ctx: Context) -> JSONResponse:
    """End this browser's session (needs the CSRF token)."""
    session = await must_sign_in(ctx, request)
    await asyncio.to_thread(ctx.accounts.sign_out, session)
    response = JSONResponse(account_out(None))
    response.delete_cookie(COOKIE, path="/", httponly=True, samesite="lax", secure=secure_cookie(ctx, request))
    return response


@router.post("/api/account/password", responses=ERRORS, tags=["accounts"])
async def change_password(body: PasswordChange, request: Request, ctx: Context) -> JSONResponse:
    """Change the password (the current one is asked for); every other session of the account ends."""
    session = await must_sign_in(ctx, request)
    new_session, secret = await asyncio.to_thread(
        ctx.accounts.change_password, session, body.current, body.new, client_address(request)
    )
    return signed_in(ctx, request, new_session, secret)
