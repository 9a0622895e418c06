"""Limits hold across processes: two server processes on one PostgreSQL give the same answers as one.

Each check makes the same requests twice: all through one server, then alternating between two servers on a
fresh database of their own; the answers (statuses) must be the same, refusals included. The client's address is
set by X-Forwarded-For (the servers trust loopback as their proxy), so one test plays several people."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from contextlib import ExitStack
from typing import Any

import httpx
import pytest
import websockets

from tests.server_support import LiveServer, postgres_url_or_skip, reset_postgres

pytestmark = pytest.mark.xdist_group("postgresql")

LIMITS: dict[str, Any] = {
    "rooms_per_address": 3,
    "rooms_per_address_per_minute": 5,
    "login_attempts_per_address": 4,
    "login_failures_per_username": 3,
    "sockets_per_address_per_minute": 4,
    "trusted_proxies": "127.0.0.1",
}


def answers(processes: int, script: Callable[[list[LiveServer]], list[int]]) -> list[int]:
    """The statuses ``script`` gets from ``processes`` servers on a database of their own."""
    url = reset_postgres(postgres_url_or_skip())
    with ExitStack() as stack:
        servers = [stack.enter_context(LiveServer(url, **LIMITS)) for _ in range(processes)]
        return script(servers)


def same_through_one_and_two(script: Callable[[list[LiveServer]], list[int]]) -> list[int]:
    one = answers(1, script)
    two = answers(2, script)
    assert two == one, f"one process answered {one}, two answered {two}"
    return one


def by(address: str, **more: str) -> dict[str, str]:
    return {"X-Forwarded-For": address, **more}


def test_the_per_address_table_limit_is_the_same_through_two_processes():
    def script(servers: list[LiveServer]) -> list[int]:
        out = []
        for i in range(5):
            base = servers[i % len(servers)].url
            spec = {"seats": [{"kind": "open"}, {"kind": "bot"}, {"kind": "bot"}, {"kind": "bot"}]}
            out.append(httpx.post(f"{base}/api/rooms", json=spec, headers=by("10.1.0.1"), timeout=10).status_code)
        # another address is not held back by the first one's tables
        other = httpx.post(f"{servers[-1].url}/api/rooms", json={}, headers=by("10.1.0.2"), timeout=10)
        return [*out, other.status_code]

    assert same_through_one_and_two(script) == [201, 201, 201, 429, 429, 201]


def test_sign_in_attempts_and_the_lockout_are_the_same_through_two_processes():
    def script(servers: list[LiveServer]) -> list[int]:
        def post(i: int, path: str, address: str, username: str, password: str) -> int:
            base = servers[i % len(servers)].url
            body = {"username": username, "password": password}
            return httpx.post(f"{base}/api/account/{path}", json=body, headers=by(address), timeout=20).status_code

        out = [post(0, "signup", "10.2.0.1", "alice", "correct horse")]
        # a stranger guesses alice's password: after three wrong ones, alice is locked to strangers
        out += [post(i, "signin", "10.2.0.2", "alice", f"wrong guess {i}") for i in range(4)]
        # alice's own address is known to every process: she may still sign in
        out.append(post(1, "signin", "10.2.0.1", "alice", "correct horse"))
        # attempts per address: a third address, four tries at a name that does not exist, the fifth refused
        out += [post(i, "signin", "10.2.0.3", f"nobody{i}", "whatever 1") for i in range(5)]
        return out

    assert same_through_one_and_two(script) == [201, 401, 401, 401, 429, 200, 401, 401, 401, 401, 429]


def test_the_connection_rate_is_the_same_through_two_processes():
    async def connect(base: str) -> int:
        try:
            async with websockets.connect(f"{base}/ws/rooms/nosuchroom", additional_headers=by("10.3.0.1")) as ws:
                await ws.recv()  # "no such room", then the close: the connection was admitted
                return 101
        except websockets.InvalidStatus as e:
            return e.response.status_code
        except websockets.ConnectionClosed:
            return 101

    def script(servers: list[LiveServer]) -> list[int]:
        async def run() -> list[int]:
            return [await connect(servers[i % len(servers)].ws_url) for i in range(6)]

        return asyncio.run(run())

    assert same_through_one_and_two(script) == [101, 101, 101, 101, 429, 429]


def test_the_message_rate_of_a_socket_is_its_own_whichever_process_serves_it():
    """The per-message limit belongs to one WebSocket, which one process serves: flooding past the burst is
    answered the same way by either of two processes sharing a database."""

    async def flood(base: str, rid: str) -> list[str]:
        seen = []
        async with websockets.connect(f"{base}/ws/rooms/{rid}") as ws:
            await ws.recv()  # the view
            for _ in range(8):
                await ws.send('{"type": "ping"}')
            try:
                while True:
                    msg = await asyncio.wait_for(ws.recv(), 2)
                    seen.append(msg.split('"type":"', 1)[1].split('"', 1)[0] if '"type":"' in msg else msg)
            except (TimeoutError, websockets.ConnectionClosed):
                pass
        return seen

    def script(servers: list[LiveServer]) -> list[int]:
        made = httpx.post(f"{servers[0].url}/api/rooms", json={}, headers=by("10.4.0.1"), timeout=10).json()
        rid = made["room"]["id"]
        out = []
        for s in servers:
            seen = asyncio.run(flood(s.ws_url, rid))
            out.append(sum(1 for t in seen if t == "pong"))
            out.append(sum(1 for t in seen if t == "error"))
        return out

    url = reset_postgres(postgres_url_or_skip())
    limits = {**LIMITS, "messages_per_second": 0.5, "message_burst": 3}
    with LiveServer(url, **limits) as a, LiveServer(url, **limits) as b:
        counts = script([a, b])
    assert counts[0:2] == counts[2:4] == [3, 1], counts  # three answered, then told once to slow down
