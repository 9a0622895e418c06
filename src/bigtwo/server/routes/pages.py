"""The browser client: the single page (lobby, table, replay viewer), the server-rendered player, bot and
leaderboard pages, the API's Swagger UI when its package is installed, and the static files. Every page is
served under a strict Content-Security-Policy: it may load nothing but this server's own files."""

from __future__ import annotations

import asyncio
import importlib.util
from pathlib import Path as FilePath
from typing import Annotated

from fastapi import APIRouter, FastAPI, Path, Query, Request
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse
from fastapi.staticfiles import StaticFiles

from bigtwo import i18n
from bigtwo.server import pages, ratings
from bigtwo.server.context import Context
from bigtwo.server.messages import Problem
from bigtwo.server.referee import Rejected
from bigtwo.server.routes.ratings import account_player, bot_player, read_leaderboard, read_player
from bigtwo.server.setup import available_bots

STATIC = FilePath(__file__).parent.with_name("static")
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

router = APIRouter()


def swagger_ui_files() -> FilePath | None:
    """Swagger UI's files from the installed ``swagger-ui-py`` package (None when it is not installed)."""
    spec = importlib.util.find_spec("swagger_ui")
    if spec is None or spec.origin is None:
        return None
    folder = FilePath(spec.origin).with_name("static")
    return folder if (folder / "swagger-ui-bundle.js").exists() else None


def page() -> FileResponse:
    """The single page (lobby, table and replay viewer); it may load nothing but this server's own files."""
    return FileResponse(STATIC / "index.html", headers=PAGE_HEADERS)


def html(text: str, status: int = 200) -> HTMLResponse:
    return HTMLResponse(text, status_code=status, headers=PAGE_HEADERS)


@router.get("/", include_in_schema=False)
async def index() -> FileResponse:
    return page()


@router.get("/room/{room_id}", include_in_schema=False)
async def room_page(room_id: str) -> FileResponse:
    return page()


@router.get("/replay/{room_id}", include_in_schema=False)
async def replay_page(room_id: str) -> FileResponse:
    return page()


@router.get("/learn", include_in_schema=False)
async def learn_page() -> FileResponse:
    """The guided first round (drawn by /static/learn.js from /api/learn)."""
    return page()


@router.get("/rules/{name}", include_in_schema=False)
async def rules_page(name: str) -> FileResponse:
    """A preset's rules explained, with card pictures (or, under /rules/table/ID, a table's own)."""
    return page()


@router.get("/rules/table/{room_id}", include_in_schema=False)
async def table_rules_page(room_id: str) -> FileResponse:
    return page()


@router.get("/players/{username}", include_in_schema=False)
async def player_html(username: str, ctx: Context) -> HTMLResponse:
    try:
        name, data = await account_player(ctx, username[:40])
    except Rejected as e:
        return html(pages.missing_page(e.message), 404)
    return html(pages.player_page(name, "player", data["ratings"], data["history"], data["recent"], data["presets"]))


@router.get("/bots/{name}", include_in_schema=False)
async def bot_html(name: str, ctx: Context) -> HTMLResponse:
    try:
        bot = bot_player(name[:40])
    except Rejected as e:
        return html(pages.missing_page(e.message), 404)
    data = await asyncio.to_thread(read_player, ctx, f"bot:{bot}")
    kind = f"bot: {available_bots()[bot]}"
    return html(pages.player_page(bot, kind, data["ratings"], data["history"], data["recent"], data["presets"]))


@router.get("/leaderboard", include_in_schema=False)
@router.get("/leaderboard/{family}", include_in_schema=False)
async def leaderboard_html(
    ctx: Context,
    family: str = "classic",
    limit: Annotated[int, Query(ge=1, le=100)] = 25,
    offset: Annotated[int, Query(ge=0, le=1_000_000)] = 0,
) -> HTMLResponse:
    if family not in ratings.FAMILY_NAMES:
        return html(pages.missing_page(f"no rules family {family[:40]!r}"), 404)
    rows, total = await asyncio.to_thread(read_leaderboard, ctx, family, limit, offset)
    return html(pages.leaderboard_page(family, rows, total, limit, offset))


@router.get("/api/i18n/{lang}", tags=["pages"], responses={404: {"model": Problem}})
async def catalog(
    request: Request, lang: Annotated[str, Path(min_length=2, max_length=12, pattern=r"^[A-Za-z_-]+$")]
) -> JSONResponse:
    """The page's words in a language (``auto``: the one this browser chose with the picker, its ``bigtwo_lang``
    cookie, else the best of its Accept-Language, else English): the messages and the language's CLDR plural
    rule (see ``bigtwo.i18n.catalog_json``). Only the languages the server has catalogs for; any other is
    refused in words."""
    code = lang.replace("-", "_")
    if code == "auto":
        code = i18n.from_request(request.cookies.get(i18n.COOKIE), request.headers.get("accept-language"))
    if not i18n.known(code):
        listed = ", ".join(sorted(i18n.LANGUAGES))
        return JSONResponse({"detail": f"no catalog for {lang!r}: the languages are {listed}"}, status_code=404)
    data = await asyncio.to_thread(i18n.catalog_json, code)
    return JSONResponse(data, headers={"Cache-Control": "no-cache", "Vary": "Cookie, Accept-Language"})


async def docs() -> HTMLResponse:
    """The API's Swagger UI, from the installed package's files, under the pages' own CSP."""
    return HTMLResponse(DOCS_PAGE, headers=PAGE_HEADERS)


def add_pages(app: FastAPI, docs_enabled: bool) -> None:
    """Serve the pages, the Swagger UI (when enabled and its package is installed), and the static files."""
    app.include_router(router)
    swagger = swagger_ui_files() if docs_enabled else None
    if swagger is not None:
        app.add_api_route("/docs", docs, methods=["GET"], include_in_schema=False)
        app.mount("/docs/static", StaticFiles(directory=swagger), name="swagger-ui")
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
