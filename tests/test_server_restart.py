"""Killing ``bigtwo serve`` (SIGKILL, a real uvicorn process) in the middle of a game loses no action."""

from __future__ import annotations

import asyncio
import json
import sqlite3

import httpx
import pytest
import websockets

from bigtwo import Match
from bigtwo.bots import make
from bigtwo.observation import Observation
from tests.server_support import ServerProcess, auth, create_room, free_port, message_for, rules_of


async def play_until(ws_url: str, rid: str, token: str, views: list[dict], stop) -> dict:
    """Play seat 0 with the greedy bot's choices, keeping every view, until ``stop(view)`` says so."""
    rules = rules_of("classic")
    greedy = make("greedy")
    acted = -1
    async with websockets.connect(f"{ws_url}/ws/rooms/{rid}", max_size=2**20) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        while True:
            msg = json.loads(await asyncio.wait_for(ws.recv(), 30))
            if msg["type"] != "view" or msg["you"]["seat"] != 0:
                continue
            views.append(msg)
            if stop(msg):
                return msg
            g = msg["match"]
            if g["to_move"] == 0 and acted != msg["seq"] and msg["room"]["status"] == "playing":
                acted = msg["seq"]
                await ws.send(
                    json.dumps(message_for(greedy.choose(rules, Observation.from_json(g, rules)), msg["seq"]))
                )


def stored(database: str) -> list[tuple[int, int, str]]:
    with sqlite3.connect(database) as conn:
        return conn.execute("SELECT seq, seat, answer FROM actions ORDER BY seq").fetchall()


@pytest.mark.slow
def test_killing_the_server_mid_game_loses_no_action(tmp_path):
    database = str(tmp_path / "games.sqlite3")
    port = free_port()
    server = ServerProcess(database, port).start()
    ws_url = f"ws://127.0.0.1:{port}"
    try:
        made = create_room(
            server.url,
            host_name="Ann",
            seats=[{"kind": "open"}] + [{"kind": "bot", "bot": "random"}] * 3,
            rounds=2,
            bot_delay=0.01,
            move_seconds=0,
            break_seconds=0,
        )
        rid, token = made["room"]["id"], made["token"]
        r = httpx.post(f"{server.url}/api/rooms/{rid}/start", json={}, headers=auth(made["host_token"]))
        assert r.status_code == 200
        before: list[dict] = []
        mine = {"moves": 0}

        def stop(view: dict) -> bool:
            # stop (and kill) while the bots are moving, after a few moves of our own
            if view["last"] and view["last"]["seat"] == 0:
                mine["moves"] += 1
            return mine["moves"] >= 3 and view["match"]["to_move"] != 0

        asyncio.run(play_until(ws_url, rid, token, before, stop))
        server.kill()
        acknowledged = max(v["seq"] for v in before)
        kept = stored(database)
        assert [seq for seq, _, _ in kept] == list(range(len(kept)))  # no gaps
        assert len(kept) >= acknowledged  # every move anyone was shown is on disk

        server = ServerProcess(database, port).start()  # the same port: the browser's link still works
        resumed = httpx.get(f"{server.url}/api/rooms/{rid}/view", headers=auth(token)).json()
        assert resumed["seq"] >= acknowledged and resumed["room"]["status"] == "playing"
        after: list[dict] = []
        final = asyncio.run(play_until(ws_url, rid, token, after, lambda v: v["match"]["is_over"]))
        assert final["room"]["status"] == "over"
    finally:
        server.kill()

    # the whole game, as stored, agrees with everything seat 0 was shown before and after the kill
    kept = stored(database)
    assert kept[-1][0] + 1 == final["seq"]
    with sqlite3.connect(database) as conn:
        rules_row = conn.execute("SELECT seed, rounds FROM rooms WHERE id = ?", (rid,)).fetchone()
    m = Match(rules_of("classic"), players=4, seed=rules_row[0], rounds=rules_row[1])
    views = {v["seq"]: v for v in before + after}
    for seq in range(len(kept) + 1):
        if seq in views:
            obs = m.observe(0).to_json()
            assert views[seq]["match"]["hand"] == obs["hand"], seq
            assert views[seq]["match"].get("history") == obs.get("history"), seq
            assert views[seq]["match"]["totals"] == obs["totals"], seq
        if seq < len(kept):
            m.apply(kept[seq][2], seat=kept[seq][1])
    assert m.is_over and m.totals == final["match"]["totals"]
