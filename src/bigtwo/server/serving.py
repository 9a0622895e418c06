"""How the server meets the network: uvicorn's settings, and an HTTP protocol whose connections end.

A connection costs the server a file descriptor and some memory whether or not it ever sends a request, and a
process has about a thousand descriptors: left to itself, uvicorn keeps a connection that sends nothing (or a
header a byte at a time) open for ever, so a thousand idle connections stop every request. Here:

- a connection must finish a request's headers within ``header_timeout_seconds`` of opening (or of its last
  answer); past it, it is closed;
- an address may hold ``connections_per_address`` connections at once (a reverse proxy named in
  ``trusted_proxies`` is not counted: it speaks for many people), and the server ``max_connections``; a
  connection past either is answered at once and closed;
- an idle kept-alive connection is closed after ``keep_alive_seconds``; a body that does not arrive within
  ``body_timeout_seconds`` is answered 408 (:class:`bigtwo.server.middleware.BodyLimit`);
- a WebSocket is pinged every ``ws_ping_seconds`` and closed when the pong does not come as long again, and
  never compressed (permessage-deflate would let a spectator make the server compress every view for it).
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections import Counter
from typing import Any

import h11
import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

from bigtwo.server.protocol import WS_PROTOCOL
from bigtwo.server.settings import Settings

WS_MAX_BYTES = 65536  # the largest WebSocket frame read (the messages' own bound is far lower)
MAX_HEADER_BYTES = 16384  # the most an unfinished request's headers may take in memory


def _trusted(trusted_proxies: str) -> frozenset[str] | None:
    """The proxies' addresses (None: '*', every address is a proxy and none is counted)."""
    names = {p.strip() for p in trusted_proxies.split(",") if p.strip()}
    return None if "*" in names else frozenset(names)


class BoundedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol, with a deadline on a request's headers and caps on connections (set on a subclass
    made by :func:`bounded_http`)."""

    header_seconds: float = 10.0
    max_connections: int = 900
    per_address: int = 64
    proxies: frozenset[str] | None = frozenset()

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._header_timer: asyncio.TimerHandle | None = None
        self._counted: str | None = None
        host = self.client[0] if self.client else "?"
        counts: Counter[str] = self.server_state.__dict__.setdefault("bigtwo_addresses", Counter())
        if len(self.connections) > self.max_connections:
            self._refuse(b"503 Service Unavailable", b"the server has too many connections open: try again later")
            return
        if self.proxies is not None and host not in self.proxies:
            if counts[host] >= self.per_address:
                self._refuse(b"429 Too Many Requests", b"your address has too many connections open: close some")
                return
            counts[host] += 1
            self._counted = host
        self._arm()

    def _refuse(self, status: bytes, words: bytes) -> None:
        head = b"HTTP/1.1 " + status + b"\r\ncontent-type: text/plain; charset=utf-8\r\nconnection: close\r\n"
        self.transport.write(head + b"content-length: " + str(len(words)).encode() + b"\r\n\r\n" + words)
        self.transport.close()

    def _arm(self) -> None:
        self._disarm()
        self._header_timer = self.loop.call_later(self.header_seconds, self._headers_too_slow)

    def _disarm(self) -> None:
        timer = getattr(self, "_header_timer", None)
        if timer is not None:
            timer.cancel()
            self._header_timer = None

    def _headers_too_slow(self) -> None:
        """No whole request arrived in time (idle, or a header a byte at a time): the connection ends."""
        self._header_timer = None
        if self.conn.their_state is h11.IDLE and not self.transport.is_closing():
            self.transport.close()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self.conn.their_state is not h11.IDLE:  # a request's headers are in: its body has its own deadline
            self._disarm()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing():
            self._arm()  # the next request's headers, kept alive or not, have the same deadline

    def handle_websocket_upgrade(self, event: h11.Request) -> None:
        self._disarm()
        self._uncount()  # a WebSocket is counted by the application (sockets_per_address)
        super().handle_websocket_upgrade(event)

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        self._uncount()
        super().connection_lost(exc)

    def _uncount(self) -> None:
        host, self._counted = getattr(self, "_counted", None), None
        if host is not None:
            counts: Counter[str] = self.server_state.__dict__["bigtwo_addresses"]
            counts[host] -= 1
            if counts[host] <= 0:
                del counts[host]


def bounded_http(settings: Settings) -> type[BoundedH11Protocol]:
    """The HTTP protocol class under ``settings``' connection limits."""
    return type(
        "ServerHTTPProtocol",
        (BoundedH11Protocol,),
        {
            "header_seconds": settings.header_timeout_seconds,
            "max_connections": settings.max_connections,
            "per_address": settings.connections_per_address,
            "proxies": _trusted(settings.trusted_proxies),
        },
    )


def server_config(app: Any, settings: Settings, host: str, port: int, log_level: str = "info") -> uvicorn.Config:
    """uvicorn's configuration for the application under ``settings``: every connection ends (see the module)."""
    return uvicorn.Config(
        app,
        host=host,
        port=port,
        log_level=log_level,
        http=bounded_http(settings),
        ws=WS_PROTOCOL,
        ws_max_size=WS_MAX_BYTES,
        ws_per_message_deflate=False,
        ws_ping_interval=settings.ws_ping_seconds,
        ws_ping_timeout=settings.ws_ping_seconds,
        timeout_keep_alive=int(max(1, settings.keep_alive_seconds)),
        h11_max_incomplete_event_size=MAX_HEADER_BYTES,
        proxy_headers=True,
        forwarded_allow_ips=settings.trusted_proxies,
    )


class JsonLogs(logging.Formatter):
    """Structured logs: one JSON object a line (time, level, process id, port, logger, message, and the
    exception's text), for a collector that reads many processes' logs together."""

    def __init__(self, port: int):
        super().__init__()
        self.port = port

    def format(self, record: logging.LogRecord) -> str:
        out = {
            "time": self.formatTime(record, "%Y-%m-%dT%H:%M:%S"),
            "level": record.levelname.lower(),
            "pid": record.process,
            "port": self.port,
            "logger": record.name,
            "message": record.getMessage(),
        }
        if record.exc_info:
            out["exception"] = self.formatException(record.exc_info)
        return json.dumps(out, ensure_ascii=False)


DRAIN_SECONDS = 15.0  # the longest a SIGTERM waits for the tables to be let go before the sockets are closed


class DrainingServer(uvicorn.Server):
    """uvicorn's server, shutting down without losing a table: on SIGTERM (or Ctrl-C) it stops listening first,
    then lets every table go (:meth:`bigtwo.server.rooms.Rooms.drain`: clocks stopped, writes committed, clients
    told to reconnect with a code the page understands, leases released so another process takes each table at
    once), and only then closes what is left, as uvicorn does."""

    def __init__(self, config: uvicorn.Config, drain: Any):
        super().__init__(config)
        self._drain = drain

    async def shutdown(self, sockets: Any = None) -> None:
        for server in self.servers:
            server.close()  # no new connection reaches a process that is going away: the proxy tries another
        try:
            await asyncio.wait_for(self._drain(), DRAIN_SECONDS)
        except Exception:  # a stalled database: the leases expire by themselves, no accepted action is lost
            logging.getLogger("bigtwo.server").exception("could not let every table go before shutting down")
        await super().shutdown(sockets)
