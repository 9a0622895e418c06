"""What an operator relies on: /healthz and /readyz, the Prometheus metrics, a SIGTERM that lets every table go with
a close code the page reconnects on, and ``--workers`` refused in words on SQLite."""

from __future__ import annotations

import asyncio
import json

import httpx
import pytest
import websockets
from typer.testing import CliRunner

from bigtwo.cli.app import app as cli
from bigtwo.server.connections import CLOSE_MOVED
from bigtwo.server.store import action_count
from tests.server_support import LiveServer, auth, create_room, postgres_url_or_skip, reset_postgres, wait_for


def test_health_readiness_and_metrics(tmp_path):
    with LiveServer(str(tmp_path / "games.sqlite3")) as live:
        assert httpx.get(f"{live.url}/healthz").json() == {"status": "alive"}
        assert httpx.get(f"{live.url}/readyz").status_code == 200
        made = create_room(live.url, seats=[{"kind": "bot"}] * 4, bot_delay=0, rounds=1, bot="greedy")
        r = httpx.post(f"{live.url}/api/rooms/{made['room']['id']}/start", json={}, headers=auth(made["host_token"]))
        assert r.status_code == 200
        text = httpx.get(f"{live.url}/metrics").text
        for name in ("bigtwo_tables", "bigtwo_actions_total", "bigtwo_move_seconds_bucket", "bigtwo_bot_queue"):
            assert name in text, name
        assert 'bigtwo_tables{status="playing"}' in text or 'bigtwo_tables{status="over"} 1.0' in text
        live.rooms.draining = True  # shutting down: no longer ready, still alive
        assert httpx.get(f"{live.url}/readyz").status_code == 503
        assert httpx.get(f"{live.url}/healthz").status_code == 200
        live.rooms.draining = False


def test_a_draining_server_tells_the_page_to_reconnect(tmp_path):
    """Letting the tables go (as SIGTERM does) closes each table's sockets with the code the page reconnects on
    at once; every action shown is stored first."""
    with LiveServer(str(tmp_path / "games.sqlite3")) as live:
        made = create_room(live.url, host_name="Ann", seats=[{"kind": "open"}] + [{"kind": "bot"}] * 3, bot_delay=0.05)
        rid = made["room"]["id"]
        httpx.post(f"{live.url}/api/rooms/{rid}/start", json={}, headers=auth(made["host_token"]))

        async def watch() -> tuple[int, int]:
            async with websockets.connect(f"{live.ws_url}/ws/rooms/{rid}") as ws:
                await ws.send(json.dumps({"type": "hello", "token": made["token"]}))
                seq = json.loads(await ws.recv())["seq"]
                live.server.should_exit = True  # what SIGTERM does
                try:
                    while True:
                        msg = json.loads(await asyncio.wait_for(ws.recv(), 10))
                        seq = max(seq, msg.get("seq", seq))
                except websockets.ConnectionClosed as e:
                    assert e.rcvd is not None
                    return e.rcvd.code, seq

        code, seq = asyncio.run(watch())
        assert code == CLOSE_MOVED
        live.thread.join(timeout=20)
        with live.rooms.engine.connect() as conn:
            assert action_count(conn, rid) >= seq  # nothing shown is missing


def test_workers_need_postgresql(tmp_path):
    result = CliRunner().invoke(cli, ["serve", "--workers", "2", "--database", str(tmp_path / "g.sqlite3")])
    assert result.exit_code == 2
    assert "needs PostgreSQL" in result.output and "SQLite" in result.output


@pytest.mark.xdist_group("postgresql")
def test_two_processes_list_each_others_tables_and_hand_a_table_over():
    """The lobby of either process lists the tables of both; a process asked for a table the other serves takes
    it over (the owner closes its sockets with the code the page reconnects on), and play goes on there."""
    url = reset_postgres(postgres_url_or_skip())
    with LiveServer(url) as a, LiveServer(url) as b:
        made = create_room(a.url, host_name="Ann", seats=[{"kind": "open"}] + [{"kind": "bot"}] * 3, bot_delay=0)
        rid = made["room"]["id"]

        def listed(base: str) -> bool:
            return any(r["id"] == rid for r in httpx.get(f"{base}/api/rooms").json())

        assert wait_for(lambda: listed(a.url) and listed(b.url), 10)

        async def watch_then_move() -> int:
            async with websockets.connect(f"{a.ws_url}/ws/rooms/{rid}") as ws:
                await ws.recv()
                r = await asyncio.to_thread(
                    httpx.post, f"{b.url}/api/rooms/{rid}/start", json={}, headers=auth(made["host_token"]), timeout=20
                )
                assert r.status_code == 200, r.text
                try:
                    while True:
                        await asyncio.wait_for(ws.recv(), 10)
                except websockets.ConnectionClosed as e:
                    assert e.rcvd is not None
                    return e.rcvd.code

        assert asyncio.run(watch_then_move()) == CLOSE_MOVED
        assert rid in b.rooms.rooms and rid not in a.rooms.rooms
        moved = b.rooms.rooms[rid]
        # the bots play on at the new owner (unless the deal gave the lead to Ann's seat: then the table waits for her)
        assert wait_for(lambda: moved.seq > 0 or moved.match.to_move == 0, 10)


def test_structured_logs_are_one_json_object_a_line():
    import logging

    from bigtwo.server.serving import JsonLogs

    record = logging.LogRecord("bigtwo.server", logging.WARNING, __file__, 1, "room %s: taken over", ("ab12",), None)
    line = JsonLogs(8001).format(record)
    assert "\n" not in line
    out = json.loads(line)
    assert out["message"] == "room ab12: taken over" and out["level"] == "warning" and out["port"] == 8001


@pytest.mark.xdist_group("postgresql")
def test_a_process_that_lost_a_tables_lease_cannot_store_a_move():
    """A process that stalled past its lease (another took the table over) has its next action for that table
    refused by the database transaction itself, so the new owner's game is the only one stored."""
    from sqlalchemy import text

    from bigtwo.server import store
    from bigtwo.server.leases import LeaseLost, Leases

    url = reset_postgres(postgres_url_or_skip())
    with LiveServer(url) as a:
        made = create_room(a.url, host_name="Ann", seats=[{"kind": "open"}] + [{"kind": "bot"}] * 3)
        rid = made["room"]["id"]
        other = Leases(a.rooms.engine, "http://elsewhere:8009", 6)
        held, where = other.claim(rid)
        assert not held and where == a.rooms.leases.address  # told who serves it
        for _ in range(5):  # the owner stalls: its lease runs out (its renewal may race this once)
            with a.rooms.engine.begin() as conn:
                conn.execute(
                    text("UPDATE leases SET expires_at = now() - interval '1 second' WHERE room_id = :r"), {"r": rid}
                )
            held, _ = other.claim(rid)
            if held:
                break
        assert held
        with pytest.raises(LeaseLost):
            a.rooms.journal._commit([store.insert_action(rid, 0, 0, "pass", "player")])
        with a.rooms.engine.connect() as conn:
            assert action_count(conn, rid) == 0
        assert wait_for(lambda: rid not in a.rooms.rooms, 10)  # and the stalled process lets the table go


def test_processes_started_together_on_an_empty_database_all_build_it():
    """`bigtwo serve --workers N` starts N processes at once on a database that may be empty: each brings the
    schema up to date, one after another (without the lock all but one failed creating the same tables)."""
    from concurrent.futures import ThreadPoolExecutor

    from sqlalchemy import inspect

    from bigtwo.server.db import make_engine, migrate

    url = reset_postgres(postgres_url_or_skip())
    engines = [make_engine(url) for _ in range(4)]
    try:
        with ThreadPoolExecutor(4) as pool:
            list(pool.map(migrate, engines))  # re-raises the first failure
        assert "actions" in inspect(engines[0]).get_table_names()
    finally:
        for engine in engines:
            engine.dispose()
