"""What every HTTP request passes through before a route reads it: a bounded body (:class:`BodyLimit`) and a
strictly read JSON body (:class:`StrictJSONRoute`). Both refuse in words, so nothing hostile reaches a route."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import Any

from fastapi import HTTPException, Request
from fastapi.responses import JSONResponse, Response
from fastapi.routing import APIRoute
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from bigtwo import i18n
from bigtwo.server.inputs import BadInput, strict_json
from bigtwo.server.settings import Settings


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


class Language:
    """Each HTTP request is answered in its browser's language (bigtwo.i18n: the picker's cookie, else
    Accept-Language, else English): the words the server puts in its answers (a replay's notes, the seats'
    order of play, refusals) follow it. The language is a ContextVar, so it holds for this request's task only."""

    def __init__(self, app: ASGIApp):
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            cookie, accept = None, None
            for key, value in scope.get("headers", ()):
                if key == b"accept-language":
                    accept = value.decode("latin-1")
                elif key == b"cookie":
                    for part in value.decode("latin-1").split(";"):
                        name, _sep, got = part.strip().partition("=")
                        if name == i18n.COOKIE:
                            cookie = got
            i18n.use_language(i18n.from_request(cookie, accept))
        await self.app(scope, receive, send)


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
            settings: Settings = self.app.state.context.settings
            try:
                self._json = strict_json(await self.body(), settings.max_json_depth)
            except BadInput as e:
                raise HTTPException(422, str(e)) from None
        return self._json
