"""The server under load, on loopback, beside the bare engine measured in the same run.

Starts ``bigtwo serve`` as its own process with a fresh SQLite file, opens ``--bot-games`` tables of four bots
(no pause between moves) and ``--clients`` WebSocket clients seated four to a table, each playing the lowest
legal play from its own view as soon as it is its turn. Over a measuring window it counts the actions the
server accepted (every one committed to the database before anyone hears of it) and times each client move
from sending it to receiving the view that contains it. The baseline is the engine alone: the same bots playing
``Match`` in this process, no network, no database.

Run: python benchmarks/server.py [--bot-games 200] [--clients 100] [--seconds 10] [--bot-delay 0] [--bot greedy]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
import websockets

from bigtwo import Match, load_rules
from bigtwo.bots import make

ROOT = Path(__file__).resolve().parents[1]
RULES = load_rules("classic")


def engine_actions_per_second(seconds: float, bot: str) -> float:
    """Baseline: four bots of the tables' kind playing matches through ``Match`` in this process."""
    bots = [make(bot, seed=i) for i in range(4)]
    actions, seed = 0, 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        m = Match(RULES, players=4, seed=seed, rounds=5)
        while not m.is_over:
            s = m.to_move
            m.act(bots[s].choose(RULES, m.observation(s)))
            actions += 1
        seed += 1
    return actions / (time.perf_counter() - t0)


def start_server(database: str) -> tuple[subprocess.Popen[bytes], str]:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src") + os.pathsep + os.environ.get("PYTHONPATH", ""))
    cmd = [sys.executable, "-m", "bigtwo", "serve", "--port", str(port), "--database", database, "--log-level", "error"]
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"{url}/api/presets", timeout=1).status_code == 200:
                return proc, url
        except httpx.HTTPError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit("the server did not start")


def cpu_seconds(pid: int) -> float:
    """CPU time a process has used (Linux /proc; 0 elsewhere)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return 0.0


def stored_actions(database: str) -> int:
    with sqlite3.connect(database, timeout=30) as conn:
        return conn.execute("SELECT count(*) FROM actions").fetchone()[0]


async def client(ws_url: str, rid: str, token: str, stop: asyncio.Event, latencies: list[float]) -> int:
    """One browser-like client: plays its seat's lowest legal play from its view, timing each move."""
    bot = make("greedy")
    moves = 0
    sent_at: float | None = None
    sent_seq = -1
    async with websockets.connect(f"{ws_url}/ws/rooms/{rid}", max_size=2**22) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        while not stop.is_set():
            try:
                raw = await asyncio.wait_for(ws.recv(), timeout=1)
            except TimeoutError:
                continue
            msg = json.loads(raw)
            if msg["type"] != "view" or msg["match"] is None:
                continue
            if sent_at is not None and msg["seq"] > sent_seq:
                latencies.append(time.perf_counter() - sent_at)
                sent_at = None
            g, me = msg["match"], msg["you"]["seat"]
            if g["is_over"] or g["to_move"] != me or msg["seq"] == sent_seq or msg["room"]["status"] != "playing":
                continue
            choice = bot.choose(RULES, g)
            move = {"type": "pass"} if choice.is_pass else {"type": "play", "cards": [str(c) for c in choice.cards]}
            sent_seq, sent_at = msg["seq"], time.perf_counter()
            await ws.send(json.dumps({**move, "seq": msg["seq"]}))
            moves += 1
    return moves


async def run(args: argparse.Namespace, url: str, database: str, server_pid: int) -> dict[str, float]:
    ws_url = url.replace("http", "ws")
    async with httpx.AsyncClient(base_url=url, timeout=30) as http:
        common = {"rounds": 100, "bot_delay": args.bot_delay, "move_seconds": 0, "break_seconds": 0, "public": False}
        people_rooms = []
        for t in range(args.clients // 4):
            made = (await http.post("/api/rooms", json={**common, "host_name": f"p{t}a"})).json()
            rid = made["room"]["id"]
            tokens = [made["token"]]
            for k in "bcd":
                tokens.append((await http.post(f"/api/rooms/{rid}/join", json={"name": f"p{t}{k}"})).json()["token"])
            people_rooms.append((rid, made["host_token"], tokens))
        stop = asyncio.Event()
        latencies: list[float] = []
        clients = [
            asyncio.create_task(client(ws_url, rid, tok, stop, latencies))
            for rid, _, tokens in people_rooms
            for tok in tokens
        ]
        await asyncio.sleep(1)  # every client connected and seated
        for rid, host, _ in people_rooms:
            await http.post(f"/api/rooms/{rid}/start", json={}, headers={"Authorization": f"Bearer {host}"})
        for _ in range(args.bot_games):
            seats = [{"kind": "bot", "bot": args.bot}] * 4
            made = (await http.post("/api/rooms", json={**common, "seats": seats})).json()
            await http.post(
                f"/api/rooms/{made['room']['id']}/start",
                json={},
                headers={"Authorization": f"Bearer {made['host_token']}"},
            )
        await asyncio.sleep(args.warmup)
        latencies.clear()
        a0, t0 = stored_actions(database), time.perf_counter()
        s0, c0 = cpu_seconds(server_pid), time.process_time()
        j0 = (await http.get("/api/stats")).json()
        await asyncio.sleep(args.seconds)
        a1, t1 = stored_actions(database), time.perf_counter()
        s1, c1 = cpu_seconds(server_pid), time.process_time()
        j1 = (await http.get("/api/stats")).json()
        window = list(latencies)
        stop.set()
        client_moves = sum(await asyncio.gather(*clients))
    window.sort()
    return {
        "actions_per_s": (a1 - a0) / (t1 - t0),
        "client_moves_per_s": len(window) / (t1 - t0),
        "p50_ms": 1000 * statistics.median(window) if window else float("nan"),
        "p99_ms": 1000 * window[min(len(window) - 1, int(0.99 * len(window)))] if window else float("nan"),
        "client_moves": client_moves,
        "server_cpu": (s1 - s0) / (t1 - t0),
        "client_cpu": (c1 - c0) / (t1 - t0),
        "commits_per_s": (j1["commits"] - j0["commits"]) / (t1 - t0),
        "batch": (j1["writes"] - j0["writes"]) / max(1, j1["commits"] - j0["commits"]),
        "commit_ms": 1000 * (j1["commit_seconds"] - j0["commit_seconds"]) / max(1, j1["commits"] - j0["commits"]),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bot-games", type=int, default=200)
    ap.add_argument("--clients", type=int, default=100)
    ap.add_argument("--seconds", type=float, default=10.0, help="measuring window")
    ap.add_argument("--warmup", type=float, default=2.0)
    ap.add_argument("--bot", default="greedy", help="the bots' kind at the bot tables (and in the baseline)")
    ap.add_argument("--bot-delay", type=float, default=0.0, help="seconds a bot waits before moving (0: flat out)")
    args = ap.parse_args()

    baseline = engine_actions_per_second(min(args.seconds, 5), args.bot)
    with tempfile.TemporaryDirectory(prefix="bigtwo-bench-") as tmp:
        database = str(Path(tmp) / "bench.sqlite3")
        proc, url = start_server(database)
        try:
            got = asyncio.run(run(args, url, database, proc.pid))
        finally:
            proc.kill()
            proc.wait()
    rate = got["actions_per_s"]
    print(f"engine alone (Match + {args.bot} bots, this process): {baseline:,.0f} actions/s")
    print(
        f"server ({args.bot_games} games of {args.bot} bots, bots waiting {args.bot_delay:g} s, "
        f"+ {args.clients} WebSocket clients "
        f"at {args.clients // 4} tables; SQLite, every action committed before it is sent):"
    )
    print(f"  accepted actions:      {rate:,.0f} /s ({rate / baseline:.2f} of the engine alone)")
    print(f"  client moves:          {got['client_moves_per_s']:,.0f} /s")
    print(f"  client move latency:   p50 {got['p50_ms']:.1f} ms, p99 {got['p99_ms']:.1f} ms (send to the view with it)")
    print(f"  CPU busy:              server {got['server_cpu']:.0%} of a core, clients {got['client_cpu']:.0%}")
    print(
        f"  database:              {got['commits_per_s']:,.0f} commits/s, {got['batch']:.1f} writes each, "
        f"{got['commit_ms']:.1f} ms a commit"
    )


if __name__ == "__main__":
    main()
