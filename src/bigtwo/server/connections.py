"""One WebSocket client: what it may cost the server, both ways.

Out: each client has its own queue, drained by its own task, so a slow client never holds up a room. A view
replaces any unsent older view in O(1) (only the latest position matters), and so does the table's chat (it is
sent whole, the latest lines); other messages (errors, pongs, answers to a seat's questions) wait in a queue of
bounded length. A client that lets that queue fill, or takes longer than a limit to accept one
message, is not reading: it is disconnected with a close code and a reason before it can cost more memory.

In: a token bucket per client. Past its burst a client is told once to slow down; if it keeps sending (more than
a few messages already on their way) it is disconnected. Refused messages count like any other: refusing costs
the server work too.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bigtwo.words import plural

log = logging.getLogger("bigtwo.server")

# Close codes (4000-4999 are the application's own): each close also carries a reason in words.
CLOSE_NOT_READING = 4408
CLOSE_TOO_MANY = 4429
CLOSE_FORBIDDEN = 4403
CLOSE_NO_ROOM = 4404
CLOSE_FULL = 4503
CLOSE_ROOM_CLOSED = 4410
# the table moved to another server process (a deploy, a hand-over): the page reconnects at once and reaches it
CLOSE_MOVED = 4301
IGNORED_BEFORE_CLOSE = 10  # messages already on their way that a client told to slow down may still send


class RateLimit:
    """A token bucket: ``rate`` messages a second on average, ``burst`` at once. ``clock`` is injectable."""

    def __init__(self, rate: float, burst: int, clock: Callable[[], float] = time.monotonic):
        self.rate, self.burst, self.clock = rate, burst, clock
        self.tokens = float(burst)
        self.stamp = clock()
        self.over = 0  # messages refused in a row since the bucket ran dry

    def take(self) -> bool:
        """Whether one more message may be handled now."""
        now = self.clock()
        self.tokens = min(float(self.burst), self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            self.over = 0
            return True
        self.over += 1
        return False


@dataclass(frozen=True)
class Limits:
    """What one connection may cost (from the server's settings)."""

    messages_per_second: float = 10
    message_burst: int = 30
    max_queued_messages: int = 32
    send_timeout_seconds: float = 10
    close_timeout_seconds: float = 2


class Connection:
    """One WebSocket client: its seat, its outgoing queue (bounded), its incoming rate limit."""

    def __init__(
        self, ws: Any, limits: Limits | None = None, address: str = "", clock: Callable[[], float] = time.monotonic
    ):
        self.ws = ws
        self.limits = limits or Limits()
        self.address = address
        self.seat: int | None = None  # the seat this client shows (its token is checked again for every move)
        self.token: str | None = None  # the token it said hello with
        self.lang = "en"  # the language its views and messages are said in (bigtwo.i18n; set at the handshake)
        self._view: str | None = None
        self._chat: str | None = None
        self._messages: deque[str] = deque()
        self._wake = asyncio.Event()
        self._goodbye: tuple[int, str] | None = None
        self.closed = False  # nothing more is queued for it
        self.gone = asyncio.Event()  # set once it is disconnected (the receiving side stops then)
        self.close_code: int | None = None
        self.incoming = RateLimit(self.limits.messages_per_second, self.limits.message_burst, clock)
        self.on_kick: Callable[[], None] | None = None
        self._pump: asyncio.Task[None] | None = None
        self._farewell: asyncio.Task[None] | None = None

    # --- out ------------------------------------------------------------------------------------------------
    def send_view(self, text: str) -> None:
        """The latest view; an older one not yet sent is dropped (O(1))."""
        if self.closed:
            return
        self._view = text
        self._wake.set()

    def send_chat(self, text: str) -> None:
        """The table's latest chat lines; older lines not yet sent are dropped (they are in this one)."""
        if self.closed:
            return
        self._chat = text
        self._wake.set()

    def send(self, message: dict[str, Any]) -> None:
        """A message in order (an error, a pong). A client that lets them pile up is disconnected."""
        if self.closed:
            return
        if len(self._messages) >= self.limits.max_queued_messages:
            self.kick(
                CLOSE_NOT_READING,
                f"not reading: {plural(len(self._messages), 'message')} waited unread, the most allowed",
            )
            return
        self._messages.append(json.dumps(message, separators=(",", ":"), ensure_ascii=False))
        self._wake.set()

    @property
    def queued(self) -> int:
        """Messages waiting to be sent (a view counts as one, the chat as one)."""
        return len(self._messages) + (self._view is not None) + (self._chat is not None)

    def queued_bytes(self) -> int:
        return sum(len(m) for m in self._messages) + len(self._view or "") + len(self._chat or "")

    def start(self) -> asyncio.Task[None]:
        self._pump = asyncio.get_running_loop().create_task(self._run())
        return self._pump

    def _next(self) -> str | None:
        if self._messages:
            return self._messages.popleft()
        if self._chat is not None:
            chat, self._chat = self._chat, None
            return chat
        view, self._view = self._view, None
        return view

    async def _run(self) -> None:
        """Send what is queued, in order, the latest view last; then the goodbye, if one was asked for."""
        try:
            while True:
                await self._wake.wait()
                self._wake.clear()
                while (text := self._next()) is not None:
                    try:
                        await asyncio.wait_for(self.ws.send_text(text), self.limits.send_timeout_seconds)
                    except TimeoutError:
                        seconds = self.limits.send_timeout_seconds
                        self.kick(CLOSE_NOT_READING, f"not reading: a message waited {seconds:g} s to be taken")
                        return
                if self._goodbye is not None:
                    await self._say_goodbye()
                    return
        except asyncio.CancelledError:
            raise
        except Exception:  # the client went away; the receiving side cleans up
            self.closed = True
            self.gone.set()

    async def _say_goodbye(self) -> None:
        code, reason = self._goodbye or (1000, "")
        with contextlib.suppress(Exception):
            await asyncio.wait_for(
                self.ws.send({"type": "websocket.close", "code": code, "reason": reason[:120]}),
                self.limits.close_timeout_seconds,
            )
        self.closed = True
        self.gone.set()
        if self.on_kick is not None:
            self.on_kick()

    def close_after_sending(self, code: int, reason: str) -> None:
        """Send what is queued (the client is reading), then close with ``code`` and ``reason``."""
        if self._goodbye is None and not self.closed:
            self.close_code = code
            self._goodbye = (code, reason)
            self._wake.set()

    def kick(self, code: int, reason: str) -> None:
        """Disconnect now, dropping what is queued: the client is not reading, so it cannot cost more."""
        if self.closed:
            return
        log.info("disconnecting a client at %s: %s", self.address or "?", reason)
        self.closed = True
        self.close_code = code
        self._messages.clear()
        self._view = self._chat = None
        self._goodbye = (code, reason)
        if self._pump is not None and self._pump is not asyncio.current_task():
            self._pump.cancel()
        # held (a task nobody holds may be collected before it ends) and awaited by finish()
        self._farewell = asyncio.get_running_loop().create_task(self._say_goodbye())

    @property
    def ending(self) -> bool:
        """Disconnected, or about to be: nothing more it sends is read."""
        return self.closed or self._goodbye is not None

    async def finish(self) -> None:
        """Let a goodbye under way (the queued messages, then the close) reach a client that reads, for at most
        the close timeout; then stop. A client that does not read is not waited for any longer."""
        if self._goodbye is not None and not self.gone.is_set():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.gone.wait(), self.limits.close_timeout_seconds)
        self.stop()
        # the sending task and a goodbye under way end here, before the socket's handler returns: a task left
        # pending when the server's loop closes is reported destroyed ("Task was destroyed but it is pending")
        tasks = {t for t in (self._pump, self._farewell) if t is not None and t is not asyncio.current_task()}
        for task in tasks:
            task.cancel()
        if tasks:
            await asyncio.wait(tasks, timeout=self.limits.close_timeout_seconds)

    def stop(self) -> None:
        """The client is gone: stop sending."""
        self.closed = True
        self.gone.set()
        if self._pump is not None and self._pump is not asyncio.current_task():
            self._pump.cancel()

    # --- in -------------------------------------------------------------------------------------------------
    def admit(self) -> bool:
        """May the next incoming message be handled? When not, the client is told once, and disconnected if it
        goes on sending (more than a few already on their way)."""
        if self.incoming.take():
            return True
        limits = self.limits
        if self.incoming.over == 1:
            self.send(
                {
                    "type": "error",
                    "message": f"too many messages: at most {limits.messages_per_second:g} a second "
                    f"({limits.message_burst} at once); slow down or be disconnected",
                }
            )
        elif self.incoming.over > IGNORED_BEFORE_CLOSE:
            self.close_after_sending(
                CLOSE_TOO_MANY, f"too many messages: more than {limits.messages_per_second:g} a second"
            )
        return False
