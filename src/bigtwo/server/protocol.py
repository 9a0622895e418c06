"""The WebSocket protocol the server runs on: uvicorn's own, with a bound on a peer that will not stop.

After the server closes a connection (a client sending too fast, a table closed), uvicorn goes on reading and
parsing whatever the peer sends, for up to ten seconds, waiting for its reply to the close: a flooding client
could keep the server busy parsing its frames all that while. Here the wait is two seconds and at most 4 KiB
are read after the server's close; past either, the connection is dropped (the kernel's buffers and the client's
own sending then hold what it keeps sending, at no cost to the server).
"""

from __future__ import annotations

from typing import Any

try:  # uvicorn >= 0.35
    from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
except ImportError:  # pragma: no cover - an older uvicorn: its own protocol, without this bound
    WebSocketsSansIOProtocol = None  # type: ignore[assignment,misc]

CLOSE_TIMEOUT = 2.0
READ_AFTER_CLOSE = 4096


if WebSocketsSansIOProtocol is not None:

    class BoundedWebSocketProtocol(WebSocketsSansIOProtocol):
        """uvicorn's sans-I/O WebSocket protocol, reading little and briefly after the server's close."""

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self.close_timeout = CLOSE_TIMEOUT
            self._read_after_close = 0

        def data_received(self, data: bytes) -> None:
            if getattr(self, "close_sent", False):
                self._read_after_close += len(data)
                if self._read_after_close > READ_AFTER_CLOSE:
                    self.transport.close()  # it is not answering the close: it is flooding
                    return
            super().data_received(data)

    WS_PROTOCOL: Any = BoundedWebSocketProtocol
else:  # pragma: no cover
    WS_PROTOCOL = "auto"
