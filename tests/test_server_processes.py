"""Three `bigtwo serve` processes on one PostgreSQL behind nginx (the documented configuration, deploy/nginx.conf):
tables of people (WebSocket clients that reconnect by themselves) and of bots play through nginx while a process
is killed outright, or while every process is restarted in turn. Every table must finish with every action any
client was shown kept, in order; the takeover time and each client's gap are reported (printed, not asserted).

These are the suite's heavy tests (``slow``): they skip, saying why, without PostgreSQL or nginx."""

from __future__ import annotations

import asyncio
import json
import os
import random
import re
import shutil
import signal
import socket
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets
from sqlalchemy import text

from bigtwo.bots import make
from bigtwo.observation import Observation
from bigtwo.server.db import make_engine
from bigtwo.server.settings import Settings
from tests.server_support import (
    ROOT,
    TEST_SETTINGS,
    ServerProcess,
    auth,
    free_port,
    message_for,
    postgres_url_or_skip,
    reset_postgres,
    rules_of,
)

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("postgresql")]

NGINX_CONF = ROOT / "deploy" / "nginx.conf"
PROCESSES = 3
PEOPLE_TABLES = 3  # four WebSocket clients each
BOT_TABLES = 3  # one WebSocket client and three bots each
THINK = (0.03, 0.09)  # a scripted person's pause before each move (seconds)


def nginx_or_skip() -> str:
    found = shutil.which("nginx") or next((p for p in ("/usr/sbin/nginx",) if Path(p).exists()), None)
    if found:
        return found
    if os.environ.get("CI"):
        pytest.fail("nginx is not installed: .ci/run installs it (apt-get install nginx)")
    pytest.skip("no nginx here: install Debian's nginx (apt-get install nginx) to test routing by table")


def nginx_config(prefix: Path, port: int, upstreams: list[int]) -> str:
    """deploy/nginx.conf as documented, on loopback without TLS and with these processes' ports."""
    doc = NGINX_CONF.read_text()
    servers = "\n".join(f"    server 127.0.0.1:{p} max_fails=1 fail_timeout=3s;" for p in upstreams)
    doc = re.sub(r"(?m)^    server 127\.0\.0\.1:\d+ .*\n", "", doc)
    doc = doc.replace("    keepalive 32;", servers + "\n    keepalive 32;")
    doc = re.sub(r"(?m)^\s*(listen 443 ssl|http2 on|server_name|ssl_certificate(_key)?)\b.*\n", "", doc)
    doc = doc.replace("server {\n", f"server {{\n    listen 127.0.0.1:{port};\n", 1)
    temp = "\n".join(
        f"    {kind}_temp_path {prefix / kind};" for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    user = "user root;\n" if os.geteuid() == 0 else ""
    return (
        f"{user}worker_processes 1;\ndaemon off;\npid {prefix / 'nginx.pid'};\nerror_log {prefix / 'error.log'} warn;\n"
        f"events {{ worker_connections 1024; }}\nhttp {{\n    access_log off;\n{temp}\n{doc}\n}}\n"
    )


def wait_port(port: int, seconds: float = 15) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.05)
    raise RuntimeError(f"nothing listens on port {port}")


class Cluster:
    """Three server processes and nginx in front of them."""

    def __init__(self, tmp: Path):
        self.nginx_bin = nginx_or_skip()
        self.url = reset_postgres(postgres_url_or_skip())
        self.port = free_port()
        self.ports = [free_port() for _ in range(PROCESSES)]
        settings = {**TEST_SETTINGS, "trusted_proxies": "127.0.0.1", "public_url": f"http://127.0.0.1:{self.port}"}
        env = {f"BIGTWO_{k.upper()}": str(v) for k, v in settings.items()}
        self.servers = {p: ServerProcess(self.url, p, env=env) for p in self.ports}
        self.prefix = tmp / "nginx"
        self.prefix.mkdir()
        for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"):
            (self.prefix / kind).mkdir()
        (self.prefix / "nginx.conf").write_text(nginx_config(self.prefix, self.port, self.ports))
        self.nginx: subprocess.Popen[bytes] | None = None
        self.engine = make_engine(self.url)

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def __enter__(self) -> Cluster:
        try:
            conf = self.prefix / "nginx.conf"
            check = subprocess.run([self.nginx_bin, "-t", "-p", str(self.prefix), "-c", str(conf)], capture_output=True)
            assert check.returncode == 0, check.stderr.decode()
            for server in self.servers.values():
                server.start()
            self.nginx = subprocess.Popen([self.nginx_bin, "-p", str(self.prefix), "-c", str(conf)])
            wait_port(self.port)
        except BaseException:
            self.__exit__()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        if self.nginx is not None:
            self.nginx.send_signal(signal.SIGQUIT)
            self.nginx.wait(timeout=10)
        for server in self.servers.values():
            if server.proc is not None and server.proc.poll() is None:
                server.proc.send_signal(signal.SIGTERM)
        for server in self.servers.values():
            if server.proc is not None:
                try:
                    server.proc.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    server.proc.kill()
        self.engine.dispose()

    def owners(self, rooms: list[str]) -> dict[str, int]:
        """Each table's owner (its process's port) as the leases say."""
        with self.engine.connect() as conn:
            rows = conn.execute(text("SELECT room_id, address FROM leases WHERE room_id = ANY(:r)"), {"r": rooms})
            return {rid: int(address.rsplit(":", 1)[1]) for rid, address in rows if address}

    def stored(self, room_id: str) -> list[int]:
        with self.engine.connect() as conn:
            q = text("SELECT seq FROM actions WHERE room_id = :r ORDER BY seq")
            return [r[0] for r in conn.execute(q, {"r": room_id})]

    def restart(self, port: int) -> float:
        """SIGTERM one process, wait for it to end, start it again; returns the seconds it was away."""
        server = self.servers[port]
        assert server.proc is not None
        started = time.monotonic()
        server.proc.send_signal(signal.SIGTERM)
        server.proc.wait(timeout=30)
        server.start()
        return time.monotonic() - started


@dataclass
class Client:
    """What one scripted browser saw: the highest action number shown, regressions (an action shown, then gone),
    disconnections and the gaps between losing the table and being shown it again."""

    room: str
    seat: int | None
    max_seq: int = -1
    regressions: list[tuple[int, int]] = field(default_factory=list)
    disconnects: int = 0
    gaps: list[float] = field(default_factory=list)
    down_since: float | None = None
    back_at: list[float] = field(default_factory=list)
    final: dict[str, Any] | None = None


async def person(ws_base: str, client: Client, token: str, rules: Any, seed: int) -> None:
    """A browser at a seat: answers its turns (after a pause), and reconnects by itself with backoff whenever the
    socket closes, as the page does."""
    chooser = make("random", seed=seed)
    rng = random.Random(seed)
    tries = 0
    while client.final is None:
        try:
            async with websockets.connect(f"{ws_base}/ws/rooms/{client.room}", open_timeout=20) as ws:
                await ws.send(json.dumps({"type": "hello", "token": token}))
                acted_at = -1
                while True:
                    msg = json.loads(await asyncio.wait_for(ws.recv(), 30))
                    if msg["type"] != "view":
                        continue
                    tries = 0
                    now = time.monotonic()
                    if client.down_since is not None:
                        client.gaps.append(now - client.down_since)
                        client.back_at.append(now)
                        client.down_since = None
                    if msg["seq"] < client.max_seq:
                        client.regressions.append((client.max_seq, msg["seq"]))
                    client.max_seq = max(client.max_seq, msg["seq"])
                    g = msg["match"]
                    if g is not None and g["is_over"]:
                        client.final = msg
                        return
                    me = msg["you"]["seat"]
                    if g is None or me is None or msg["room"]["status"] != "playing":
                        continue
                    if msg["break"] is not None:
                        if me not in msg["break"]["ready"] and acted_at != -2 - msg["seq"]:
                            acted_at = -2 - msg["seq"]
                            await ws.send(json.dumps({"type": "continue"}))
                        continue
                    if g["to_move"] == me and acted_at != msg["seq"]:
                        acted_at = msg["seq"]
                        await asyncio.sleep(rng.uniform(*THINK))
                        choice = chooser.choose(rules, Observation.from_json(g, rules))
                        await ws.send(json.dumps(message_for(choice, msg["seq"])))
        except (
            OSError,
            TimeoutError,
            websockets.ConnectionClosed,
            websockets.InvalidStatus,
            websockets.InvalidHandshake,
        ):
            client.disconnects += 1
            if client.down_since is None:
                client.down_since = time.monotonic()
            tries += 1
            await asyncio.sleep(min(2.0, 0.1 * 2**tries) * rng.uniform(0.5, 1.0))


def open_tables(cluster: Cluster, rounds: int) -> tuple[list[tuple[Client, str, Any]], list[str]]:
    """The tables, opened and started through nginx: (client, token, rules) for each seat a person holds."""
    base = cluster.base
    seats: list[tuple[Client, str, Any]] = []
    rooms = []
    rules = rules_of("classic")
    common = {"rounds": rounds, "break_seconds": 0, "move_seconds": 0, "bot_delay": 0.1, "bot": "greedy"}
    for t in range(PEOPLE_TABLES + BOT_TABLES):
        people = 4 if t < PEOPLE_TABLES else 1
        spec = {"host_name": "Host", "seats": [{"kind": "open"}] * 4 if people == 4 else None, **common}
        if people == 1:
            spec["seats"] = [{"kind": "open"}] + [{"kind": "bot", "bot": "greedy"}] * 3
        made = httpx.post(f"{base}/api/rooms", json=spec, timeout=30)
        assert made.status_code == 201, made.text
        made = made.json()
        rid = made["room"]["id"]
        rooms.append(rid)
        tokens = [made["token"]]
        for i in range(1, people):
            r = httpx.post(f"{base}/api/rooms/{rid}/join", json={"name": f"P{i}"}, timeout=30)
            assert r.status_code == 200, r.text
            tokens.append(r.json()["token"])
        r = httpx.post(f"{base}/api/rooms/{rid}/start", json={}, headers=auth(made["host_token"]), timeout=30)
        assert r.status_code == 200, r.text
        seats += [(Client(rid, i), tok, rules) for i, tok in enumerate(tokens)]
    return seats, rooms


def check_every_action_kept(cluster: Cluster, clients: list[Client], rooms: list[str]) -> None:
    for rid in rooms:
        stored = cluster.stored(rid)
        assert stored == list(range(len(stored))), f"room {rid}: the stored actions have a hole"
        status = httpx.get(f"{cluster.base}/api/rooms/{rid}", timeout=30).json()["status"]
        assert status == "over", f"room {rid} is {status}"
        for c in (c for c in clients if c.room == rid):
            assert c.final is not None
            assert c.regressions == [], f"room {rid}, seat {c.seat}: actions shown then lost {c.regressions}"
            assert c.max_seq == c.final["seq"] == len(stored), (rid, c.max_seq, len(stored))


async def play(cluster: Cluster, seats: list[tuple[Client, str, Any]], during: Any) -> None:
    tasks = [asyncio.create_task(person(cluster.ws, c, tok, rules, i)) for i, (c, tok, rules) in enumerate(seats)]
    await during()
    await asyncio.wait_for(asyncio.gather(*tasks), 50)


def test_killing_the_process_that_serves_half_the_tables_loses_no_action(tmp_path):
    with Cluster(tmp_path) as cluster:
        seats, rooms = open_tables(cluster, rounds=3)
        clients = [c for c, _, _ in seats]
        report: dict[str, Any] = {}

        async def kill_mid_trick() -> None:
            await asyncio.sleep(1.5)
            owners = cluster.owners(rooms)
            port = max(cluster.ports, key=lambda p: sum(1 for o in owners.values() if o == p))
            doomed = [rid for rid, o in owners.items() if o == port]
            report["doomed"] = doomed
            report["seq_at_kill"] = {rid: cluster.stored(rid)[-1:] for rid in doomed}
            report["killed"] = time.monotonic()
            await asyncio.to_thread(cluster.servers[port].kill)  # SIGKILL: no shutdown, no lease let go

        asyncio.run(play(cluster, seats, kill_mid_trick))
        check_every_action_kept(cluster, clients, rooms)
        doomed = report["doomed"]
        assert doomed, "the killed process served no table"
        back = [
            min(t for t in c.back_at if t > report["killed"]) - report["killed"]
            for c in clients
            if c.room in doomed and any(t > report["killed"] for t in c.back_at)
        ]
        assert all(c.disconnects > 0 for c in clients if c.room in doomed)
        print(
            f"\nkilled the process serving {len(doomed)} of {len(rooms)} tables; its clients were shown their "
            f"tables again after {min(back):.2f}-{max(back):.2f} s (lease {Settings().lease_seconds:g} s)"
        )


def test_a_rolling_restart_of_every_process_loses_no_table_and_no_action(tmp_path):
    with Cluster(tmp_path) as cluster:
        seats, rooms = open_tables(cluster, rounds=4)
        clients = [c for c, _, _ in seats]
        away: list[float] = []

        async def restart_each() -> None:
            await asyncio.sleep(1.0)
            for port in cluster.ports:
                away.append(await asyncio.to_thread(cluster.restart, port))
                await asyncio.sleep(0.5)

        asyncio.run(play(cluster, seats, restart_each))
        check_every_action_kept(cluster, clients, rooms)
        gaps = sorted(g for c in clients for g in c.gaps)
        moved = sum(1 for c in clients if c.gaps)
        assert moved > 0, "no client was moved: the restarts did not happen during play"
        print(
            f"\nrolling restart of {PROCESSES} processes (each away {', '.join(f'{a:.1f}' for a in away)} s): "
            f"{len(rooms)} tables, 0 lost; {moved} of {len(clients)} clients reconnected, gaps "
            + (f"median {gaps[len(gaps) // 2]:.2f} s, longest {gaps[-1]:.2f} s" if gaps else "none")
        )
