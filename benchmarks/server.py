"""The server under load, on loopback, beside the bare engine measured in the same run.

Starts ``bigtwo serve`` as its own process with a fresh SQLite file, opens ``--bot-games`` tables of four bots
(no pause between moves) and ``--clients`` WebSocket clients seated four to a table, each playing the lowest
legal play from its own view as soon as it is its turn. Over a measuring window it counts the actions the
server accepted (every one committed to the database before anyone hears of it) and times each client move
from sending it to receiving the view that contains it. The baseline is the engine alone: the same bots playing
``Match`` in this process, no network, no database.

Run: python benchmarks/server.py [--bot-games 200] [--clients 100] [--seconds 10] [--bot-delay 0] [--bot greedy]

``--abuse`` measures something else: how much an unfriendly visitor slows a normal table. The server runs with
``bigtwo serve``'s default limits; one table of four clients (each thinking ``--think-ms`` before a move, as a
quick person would) is timed alone, then while a socket floods the server (from its own process, reconnecting
whenever it is cut off), then while ``--large-tables`` tables of Winner for two (26-card hands: a client thinking
as long against the heuristic bot) play, then while 8 tables of ``search`` bots alone play, all in the same
run. The ratios of p99 move latency to the table alone are the result (the aim: within 2x).

Then the attacks of a hostile stranger (issue 88), each in its own window: house rules whose turns offer tens of
millions of plays (refused when the table is opened: the window says whether), ``--ghost-tables`` tables of
search bots whose host never connects (counted as bots alone: the most allowed start), ``--spectators``
spectators asking for permessage-deflate from several addresses (never compressed; capped per table and
address), a flood of ``GET /api/rooms/ID/view`` from one address (paced: 429 past it), and ``--idle-connections``
idle connections from twenty addresses (capped per address, closed after the header timeout). Beside the table of
four clients, a table of one client and three search bots (``bot_delay`` 0.5 s) is watched: the p99 of its bots'
move delays against the same table alone is the second result.

``--workers 1,2,4`` measures many processes on one PostgreSQL (issue 90): for each count N, a fresh schema in the
database named by ``--database`` (or ``$BIGTWO_TEST_POSTGRES_URL``), ``bigtwo serve --workers N`` on it, and for
N above 1 nginx in front of the processes with the project's own configuration (deploy/nginx.conf, on loopback
without TLS), routing by table. The same load as above (tables of bots flat out, WebSocket clients playing) is
driven through the front door; accepted actions are counted in the database. Each N prints beside N=1 of the
same run (always measured first), as ratios.

Run: python benchmarks/server.py --workers 1,2,4 [--database postgresql://...] [--seconds 10] [--bot-games 200]
     [--clients 100]

Run: python benchmarks/server.py --abuse [--seconds 10] [--think-ms 50] [--large-tables 2] [--search-tables 8]
     [--ghost-tables 20] [--spectators 62] [--idle-connections 1100]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import functools
import json
import multiprocessing
import os
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import websockets

from bigtwo import Match, load_rules
from bigtwo.actions import Answer
from bigtwo.bots import make
from bigtwo.cards import CardSet
from bigtwo.combos.play import Play
from bigtwo.observation import Observation

ROOT = Path(__file__).resolve().parents[1]
RULES = load_rules("classic")
WINNER = load_rules("winner")


def engine_actions_per_second(seconds: float, bot: str) -> float:
    """Baseline: four bots of the tables' kind playing matches through ``Match`` in this process."""
    bots = [make(bot, seed=i) for i in range(4)]
    actions, seed = 0, 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        m = Match(RULES, players=4, seed=seed, rounds=5)
        while not m.is_over:
            s = m.to_move
            m.apply(bots[s].choose(RULES, m.observe(s)))
            actions += 1
        seed += 1
    return actions / (time.perf_counter() - t0)


# The load benchmark plays flat out from one address: the limits meant for strangers are opened up for it.
LOAD_LIMITS = [
    f"--{name}={value}"
    for name, value in {
        "messages-per-second": 100000,
        "message-burst": 100000,
        "max-bot-tables": 100000,
        "bot-table-min-delay": 0,
        "rooms-per-address": 100000,
        "rooms-per-address-per-minute": 100000,
        "max-rooms": 100000,
        "sockets-per-address": 100000,
        "sockets-per-address-per-minute": 1000000,
    }.items()
]


def start_server(database: str, limits: list[str] | None = None) -> tuple[subprocess.Popen[bytes], str]:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src") + os.pathsep + os.environ.get("PYTHONPATH", ""))
    cmd = [sys.executable, "-m", "bigtwo", "serve", "--port", str(port), "--database", database, "--log-level", "error"]
    cmd += LOAD_LIMITS if limits is None else limits
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


def message_of(choice: Any) -> dict[str, Any]:
    """A bot's choice as the message a browser sends (without the move's ``seq``)."""
    if isinstance(choice, Answer) and choice.kind in ("give", "surrender", "bid"):  # an exchange's cards
        return {"type": "exchange", "cards": [str(c) for c in CardSet.from_mask(choice.mask)]}
    if not isinstance(choice, Play):  # an exchange's answer in words
        return {"type": "exchange", "answer": str(choice)}
    if choice.is_pass:
        return {"type": "pass"}
    return {"type": "play", "cards": [str(c) for c in choice.cards]}


async def client(
    ws_url: str,
    rid: str,
    token: str,
    stop: asyncio.Event,
    latencies: list[float],
    think: float = 0.0,
    rules: Any = RULES,
) -> int:
    """One browser-like client: plays its seat's lowest legal play from its view (after ``think`` seconds),
    timing each move from sending it to receiving the view that contains it."""
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
            move = message_of(bot.choose(rules, Observation.from_json(g, rules)))
            if think:
                await asyncio.sleep(think)
            sent_seq, sent_at = msg["seq"], time.perf_counter()
            await ws.send(json.dumps({**move, "seq": msg["seq"]}))
            moves += 1
    return moves


async def run(
    args: argparse.Namespace, url: str, count_actions: Callable[[], int], cpu: Callable[[], float], stats: bool = True
) -> dict[str, float]:
    """The load through ``url``; ``count_actions`` reads the actions stored, ``cpu`` the server's CPU seconds.
    ``stats`` reads the server's ``/api/stats`` (one process's own: not asked behind a proxy)."""
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
        a0, t0 = count_actions(), time.perf_counter()
        s0, c0 = cpu(), time.process_time()
        j0 = (await http.get("/api/stats")).json() if stats else {}
        await asyncio.sleep(args.seconds)
        a1, t1 = count_actions(), time.perf_counter()
        s1, c1 = cpu(), time.process_time()
        j1 = (await http.get("/api/stats")).json() if stats else {}
        window = list(latencies)
        stop.set()
        client_moves = sum(await asyncio.gather(*clients))
    window.sort()
    db: dict[str, float] = {}
    if stats:
        commits = max(1, j1["commits"] - j0["commits"])
        db = {
            "commits_per_s": (j1["commits"] - j0["commits"]) / (t1 - t0),
            "batch": (j1["writes"] - j0["writes"]) / commits,
            "commit_ms": 1000 * (j1["commit_seconds"] - j0["commit_seconds"]) / commits,
        }
    return {
        **db,
        "actions_per_s": (a1 - a0) / (t1 - t0),
        "client_moves_per_s": len(window) / (t1 - t0),
        "p50_ms": 1000 * statistics.median(window) if window else float("nan"),
        "p99_ms": 1000 * window[min(len(window) - 1, int(0.99 * len(window)))] if window else float("nan"),
        "client_moves": client_moves,
        "server_cpu": (s1 - s0) / (t1 - t0),
        "client_cpu": (c1 - c0) / (t1 - t0),
    }


# --- the abuse scenario ---------------------------------------------------------------------------------------


def flood(ws_url: str, seconds: float, counts: Any) -> None:
    """In its own process: send {"type":"continue"} as fast as possible, reconnecting whenever cut off."""

    async def run() -> None:
        message = json.dumps({"type": "continue"})
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            try:
                connecting = websockets.connect(ws_url, local_addr=("127.0.0.2", 0), open_timeout=5, close_timeout=0.1)
                async with connecting as ws:
                    with contextlib.suppress(websockets.ConnectionClosed, TimeoutError):
                        while time.monotonic() < deadline:
                            # a send the server no longer takes (it stopped reading): connect again at once
                            await asyncio.wait_for(ws.send(message), 0.2)
                            counts[0] += 1
                            if counts[0] % 20 == 0:
                                await asyncio.sleep(0)
                    counts[1] += 1
            except (OSError, websockets.InvalidStatus, websockets.ConnectionClosed, TimeoutError):
                await asyncio.sleep(0.01)

    asyncio.run(run())


def view_flood(url: str, rid: str, seconds: float, counts: Any) -> None:
    """In its own process: read a table's view over HTTP as fast as possible, from one address."""
    transport = httpx.HTTPTransport(local_address="127.0.0.4")
    with httpx.Client(base_url=url, transport=transport, timeout=5) as c:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            with contextlib.suppress(httpx.HTTPError):
                status = c.get(f"/api/rooms/{rid}/view").status_code
                counts[0 if status == 200 else 1] += 1


def idle_connections(port: int, count: int, seconds: float, counts: Any) -> None:
    """In its own process: open ``count`` connections from twenty addresses and send nothing; count those the
    server answered at once (over a cap) and those it closed before ``seconds`` ran out."""
    import resource
    import selectors

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    with contextlib.suppress(ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, count + 256)), hard))
    held: list[socket.socket] = []
    for i in range(count):
        with contextlib.suppress(OSError):
            s = socket.create_connection(("127.0.0.1", port), timeout=5, source_address=(f"127.0.1.{1 + i % 20}", 0))
            s.setblocking(False)
            held.append(s)
    counts[0] = len(held)
    sel = selectors.DefaultSelector()
    for s in held:
        sel.register(s, selectors.EVENT_READ)
    deadline = time.monotonic() + seconds
    closed = 0
    while time.monotonic() < deadline and closed < len(held):
        for key, _ in sel.select(timeout=0.5):
            sock = key.fileobj
            assert isinstance(sock, socket.socket)
            with contextlib.suppress(OSError):
                while sock.recv(65536):
                    pass
            sel.unregister(sock)
            closed += 1
    counts[1] = closed
    for s in held:
        s.close()


async def bot_pace(ws_url: str, rid: str, stop: asyncio.Event, delays: list[float], bots: set[int]) -> None:
    """A spectator timing each bot move at a table: from the view where a bot is to move to the one with its move."""
    async with websockets.connect(f"{ws_url}/ws/rooms/{rid}", max_size=2**22) as ws:
        waiting: tuple[int, float] | None = None
        while not stop.is_set():
            try:
                msg = json.loads(await asyncio.wait_for(ws.recv(), timeout=1))
            except TimeoutError:
                continue
            if msg["type"] != "view" or msg["match"] is None:
                continue
            if waiting is not None and msg["seq"] > waiting[0]:
                delays.append(time.perf_counter() - waiting[1])
                waiting = None
            g = msg["match"]
            if not g["is_over"] and g["to_move"] in bots and msg["room"]["status"] == "playing" and waiting is None:
                waiting = (msg["seq"], time.perf_counter())


async def deflate_spectators(ws_url: str, rid: str, count: int, stop: asyncio.Event, counts: list[int]) -> None:
    """``count`` spectators asking for permessage-deflate, from eight addresses, reading every view."""

    async def one(i: int) -> None:
        try:
            async with websockets.connect(
                f"{ws_url}/ws/rooms/{rid}", compression="deflate", local_addr=(f"127.0.2.{1 + i % 8}", 0)
            ) as ws:
                first = json.loads(await ws.recv())
                if first["type"] == "error":
                    counts[1] += 1
                    return
                counts[0] += 1
                counts[2] += bool(ws.protocol.extensions)
                while not stop.is_set():
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(ws.recv(), 1)
        except (OSError, websockets.InvalidStatus, websockets.ConnectionClosed):
            counts[1] += 1

    await asyncio.gather(*(one(i) for i in range(count)))


HEAVY_RULES = {
    "jokers": 1,
    "joker_mode": "wild",
    "combinations": [
        "single", "pair", "triple", "quad", "two_pairs", "straight", "flush", "full_house", "four_of_a_kind",
        "straight_flush", "royal_flush", "two_pair_junk", "triple_junk", "sisters", "pair_straight",
        "triple_straight", "five_of_a_kind", "joker_pair", "dragon",
    ],
    "deal": "fixed",
    "hand_size": 26,
    "straight_lengths": list(range(3, 13)),
    "pair_straight_min": 2,
}  # fmt: skip


def p99(window: list[float]) -> float:
    ordered = sorted(window)
    return 1000 * ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))] if ordered else float("nan")


async def abuse(args: argparse.Namespace, url: str) -> dict[str, Any]:
    ws_url = url.replace("http", "ws")
    out: dict[str, Any] = {}
    async with httpx.AsyncClient(base_url=url, timeout=30) as http:
        spec = {"rounds": 100, "move_seconds": 0, "break_seconds": 0, "public": False}
        made = (await http.post("/api/rooms", json={**spec, "host_name": "Ann"})).json()
        rid = made["room"]["id"]
        tokens = [made["token"]]
        for name in ("Bob", "Cy", "Di"):
            tokens.append((await http.post(f"/api/rooms/{rid}/join", json={"name": name})).json()["token"])
        stop = asyncio.Event()
        latencies: list[float] = []
        think = args.think_ms / 1000
        clients: list[asyncio.Task[Any]] = [
            asyncio.create_task(client(ws_url, rid, t, stop, latencies, think)) for t in tokens
        ]
        # the honest table of bots: one person (a client) and three search bots, paced at 0.5 s a move
        seats = [{"kind": "open"}] + [{"kind": "bot", "bot": "search"}] * 3
        honest = (
            await http.post("/api/rooms", json={**spec, "host_name": "Hal", "seats": seats, "bot_delay": 0.5})
        ).json()
        hid = honest["room"]["id"]
        delays: list[float] = []
        clients.append(asyncio.create_task(client(ws_url, hid, honest["token"], stop, [], think)))
        clients.append(asyncio.create_task(bot_pace(ws_url, hid, stop, delays, {1, 2, 3})))
        await asyncio.sleep(1)
        await http.post(f"/api/rooms/{rid}/start", json={}, headers={"Authorization": f"Bearer {made['host_token']}"})
        await http.post(f"/api/rooms/{hid}/start", json={}, headers={"Authorization": f"Bearer {honest['host_token']}"})

        async def window(name: str) -> None:
            latencies.clear()
            delays.clear()
            await asyncio.sleep(args.seconds)
            got, bots = list(latencies), list(delays)
            out[name] = {"p50": 1000 * statistics.median(got) if got else float("nan"), "p99": p99(got), "n": len(got)}
            out[name]["bots_p99"], out[name]["bots_n"] = p99(bots), len(bots)

        await asyncio.sleep(args.warmup)
        await window("alone")
        # (issue 88) the heavy house rule: refused when the table is opened, or it would hold the bots' workers
        heavy = await http.post("/api/rooms", json={**spec, "players": 2, "rules": HEAVY_RULES, "host_name": "Hv"})
        out["heavy_status"] = heavy.status_code
        if heavy.status_code == 201:  # (a server without the bound) its host asks for the legal plays
            table = heavy.json()
            await http.post(
                f"/api/rooms/{table['room']['id']}/start", json={"fill_with_bots": True},
                headers={"Authorization": f"Bearer {table['host_token']}"},
            )  # fmt: skip

            async def ask_legal() -> None:
                async with websockets.connect(f"{ws_url}/ws/rooms/{table['room']['id']}") as ws:
                    await ws.send(json.dumps({"type": "hello", "token": table["token"]}))
                    await ws.send(json.dumps({"type": "legal"}))
                    with contextlib.suppress(TimeoutError, websockets.ConnectionClosed):
                        await asyncio.wait_for(ws.recv(), args.seconds + 5)

            asker = asyncio.create_task(ask_legal())
            await window("heavy")
            asker.cancel()
        else:
            out["heavy_said"] = heavy.json().get("detail", "")[:100]
        # (issue 88) ghost hosts: tables of search bots whose guest host never connects, the bots at no delay (an
        # address may open 10 tables a minute: ten from each address)
        started = refused = 0
        paused_later: list[tuple[str, str]] = []
        for i in range(args.ghost_tables):
            transport = httpx.AsyncHTTPTransport(local_address=f"127.0.0.{5 + i // 10}")
            async with httpx.AsyncClient(base_url=url, timeout=30, transport=transport) as ghost:
                seats = [{"kind": "open"}] + [{"kind": "bot", "bot": "search"}] * 3
                body = {**spec, "host_name": "Gh", "seats": seats, "bot_delay": 0, "move_seconds": 1}
                r = await ghost.post("/api/rooms", json=body)
                if r.status_code != 201:
                    refused += 1
                    continue
                t = r.json()
                r = await ghost.post(
                    f"/api/rooms/{t['room']['id']}/start", json={},
                    headers={"Authorization": f"Bearer {t['host_token']}"},
                )  # fmt: skip
                started += r.status_code == 200
                refused += r.status_code != 200
                if r.status_code == 200:
                    paused_later.append((t["room"]["id"], t["host_token"]))
        out["ghost_tables"] = {"started": started, "refused": refused}
        await asyncio.sleep(args.warmup)
        await window("ghosts")
        for gid, host_token in paused_later:  # paused (their hosts' right), so they stop counting for what follows
            await http.post(f"/api/rooms/{gid}/pause", headers={"Authorization": f"Bearer {host_token}"})
        # (issue 88) spectators asking for permessage-deflate
        watch_stop, watched = asyncio.Event(), [0, 0, 0]
        watchers = asyncio.create_task(deflate_spectators(ws_url, rid, args.spectators, watch_stop, watched))
        await asyncio.sleep(1)
        await window("deflate")
        watch_stop.set()
        await watchers
        out["watched"] = {"admitted": watched[0], "refused": watched[1], "compressed": watched[2]}
        # (issue 88) a flood of HTTP views from one address, in its own process
        reads = multiprocessing.Array("q", 2, lock=False)
        reader = multiprocessing.Process(target=view_flood, args=(url, rid, args.seconds + 2, reads))
        reader.start()
        await asyncio.sleep(1)
        await window("views")
        reader.join()
        out["views_flood"] = {"answered": reads[0], "refused": reads[1]}
        # (issue 88) idle connections, in their own process
        port = int(url.rsplit(":", 1)[1])
        held = multiprocessing.Array("q", 2, lock=False)
        idler = multiprocessing.Process(
            target=idle_connections, args=(port, args.idle_connections, args.seconds + 20, held)
        )
        idler.start()
        await asyncio.sleep(1)
        await window("idle")
        idler.join()
        out["idle_held"] = {"opened": held[0], "closed": held[1]}
        # (a) a flooding socket, from its own process (its CPU is not the table's clients')
        counts = multiprocessing.Array("q", 2, lock=False)
        flooder = multiprocessing.Process(target=flood, args=(f"{ws_url}/ws/rooms/{rid}", args.seconds + 2, counts))
        flooder.start()
        await asyncio.sleep(1)
        await window("flood")
        flooder.join()
        out["flooded"] = {"messages": counts[0], "connections": counts[1]}
        # (b) tables of large hands: Winner for two (26 cards a hand, up to 43,000 plays a turn), a client (thinking as
        # the table's do) against the heuristic bot; their clients stop after the window, so the tables wait
        # (opened from another loopback address: an address may open 10 tables a minute)
        large_stop, large_moves = asyncio.Event(), list[float]()
        large_clients = []
        other = httpx.AsyncClient(
            base_url=url, timeout=30, transport=httpx.AsyncHTTPTransport(local_address="127.0.0.3")
        )
        async with other:
            for _ in range(args.large_tables):
                seats = [{"kind": "open"}, {"kind": "bot", "bot": "heuristic"}]
                body = {**spec, "preset": "winner", "players": 2, "seats": seats, "bot_delay": 0, "host_name": "Bo"}
                table = (await other.post("/api/rooms", json=body)).json()
                tid = table["room"]["id"]
                large_clients.append(
                    asyncio.create_task(client(ws_url, tid, table["token"], large_stop, large_moves, think, WINNER))
                )
                await asyncio.sleep(0.5)
                r = await other.post(
                    f"/api/rooms/{tid}/start", json={}, headers={"Authorization": f"Bearer {table['host_token']}"}
                )
                r.raise_for_status()
        if args.large_tables:
            await asyncio.sleep(args.warmup)
            s0 = (await http.get("/api/stats")).json()
            await window("large")
            s1 = (await http.get("/api/stats")).json()
            out["large_moves"] = len(large_moves)
            out["large_decisions"] = s1["bot_decisions_in_workers"] - s0["bot_decisions_in_workers"]
            large_stop.set()
            await asyncio.gather(*large_clients)
        # (c) tables of search bots alone
        for _ in range(args.search_tables):
            seats = [{"kind": "bot", "bot": "search"}] * 4
            table = (await http.post("/api/rooms", json={**spec, "seats": seats, "bot_delay": 0})).json()
            r = await http.post(
                f"/api/rooms/{table['room']['id']}/start",
                json={},
                headers={"Authorization": f"Bearer {table['host_token']}"},
            )
            # past max_bot_tables a table of bots alone is refused (the large tables, their clients gone, count)
            out["search_refused"] = out.get("search_refused", 0) + (r.status_code == 429)
        await asyncio.sleep(args.warmup)
        s0 = (await http.get("/api/stats")).json()
        await window("search")
        s1 = (await http.get("/api/stats")).json()
        out["search_decisions_per_s"] = (s1["bot_decisions_in_workers"] - s0["bot_decisions_in_workers"]) / args.seconds
        out["bots_alone"] = s1["bots_alone"]
        stop.set()
        await asyncio.gather(*clients)
    return out


def abuse_main(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory(prefix="bigtwo-bench-") as tmp:
        proc, url = start_server(str(Path(tmp) / "bench.sqlite3"), limits=[])  # bigtwo serve's defaults
        try:
            got = asyncio.run(abuse(args, url))
        finally:
            proc.terminate()  # a clean stop: the server's bot workers end with it
            try:
                proc.wait(20)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
    alone = got["alone"]
    print(
        f"one table of 4 WebSocket clients (each thinking {args.think_ms:g} ms before a move), bigtwo serve's default "
        f"limits, SQLite; {args.seconds:g} s windows in one run:"
    )
    print(f"  {'alone:':<34}p50 {alone['p50']:.1f} ms, p99 {alone['p99']:.1f} ms ({alone['n']} moves)")
    for key, label, extra in (
        (
            "flood",
            "+ a flooding socket:",
            f"{got['flooded']['messages']:,} messages sent in "
            f"{got['flooded']['connections']} connections, each cut off",
        ),
        (
            "large",
            f"+ {args.large_tables} tables of 26-card hands:",
            f"Winner for two against the heuristic, {got.get('large_moves', 0)} client moves, "
            f"{got.get('large_decisions', 0)} decisions in the worker",
        ),
        (
            "search",
            f"+ {args.search_tables} tables of search bots:",
            f"{got['bots_alone']} tables of bots alone running ({got.get('search_refused', 0)} refused), "
            f"{got['search_decisions_per_s']:.1f} search decisions/s in the worker",
        ),
        ("heavy", "+ the heavy house rule:", "its table opened (no bound): its host asked for the legal plays"),
        (
            "ghosts",
            f"+ {args.ghost_tables} ghost-host tables:",
            f"{got['ghost_tables']['started']} started, {got['ghost_tables']['refused']} refused",
        ),
        (
            "deflate",
            f"+ {args.spectators} deflate spectators:",
            f"{got['watched']['admitted']} admitted, {got['watched']['refused']} refused, "
            f"{got['watched']['compressed']} compressed",
        ),
        (
            "views",
            "+ an HTTP view flood:",
            f"{got['views_flood']['answered']:,} answered, {got['views_flood']['refused']:,} refused (429)",
        ),
        (
            "idle",
            f"+ {args.idle_connections:,} idle connections:",
            f"{got['idle_held']['opened']:,} opened, {got['idle_held']['closed']:,} closed by the server",
        ),
    ):
        if key not in got:
            continue
        w = got[key]
        print(
            f"  {label:<34}p50 {w['p50']:.1f} ms, p99 {w['p99']:.1f} ms ({w['n']} moves): "
            f"p99 {w['p99'] / alone['p99']:.2f}x alone; search bots' move delay p99 {w['bots_p99']:.0f} ms, "
            f"{w['bots_p99'] / alone['bots_p99']:.2f}x alone ({extra})"
        )
    if "heavy" not in got:
        print(f"  the heavy house rule: answered {got['heavy_status']} ({got.get('heavy_said', '')}...)")
    print(f"  the table alone: search bots' move delay p99 {alone['bots_p99']:.0f} ms ({alone['bots_n']} moves)")


# --- many processes on one PostgreSQL (issue 90) -------------------------------------------------------------


NGINX_CONF = ROOT / "deploy" / "nginx.conf"


def fresh_schema(url: str) -> str:
    """A schema of its own in the PostgreSQL database at ``url`` (named afresh, so no run sees another's tables)
    and the URL whose connections use it (libpq's ``search_path`` option)."""
    import secrets

    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url

    from bigtwo.server.db import database_url

    schema = f"bench{int(time.time())}_{secrets.token_hex(4)}"
    engine = create_engine(database_url(url))
    with engine.begin() as conn:
        conn.execute(text(f'CREATE SCHEMA "{schema}"'))
    engine.dispose()
    return make_url(url).update_query_dict({"options": f"-csearch_path={schema}"}).render_as_string(hide_password=False)


def drop_schema(url: str) -> None:
    """Drops the schema a :func:`fresh_schema` URL names."""
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url

    from bigtwo.server.db import database_url

    parsed = make_url(url)
    schema = str(parsed.query["options"]).split("=", 1)[1]
    engine = create_engine(database_url(parsed.difference_update_query(["options"]).render_as_string(False)))
    with engine.begin() as conn:
        conn.execute(text(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'))
    engine.dispose()


def nginx_config(prefix: Path, port: int, upstreams: list[int]) -> str:
    """deploy/nginx.conf as documented, on loopback without TLS, in front of these processes' ports."""
    import re

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
        f"events {{ worker_connections 4096; }}\nhttp {{\n    access_log off;\n{temp}\n{doc}\n}}\n"
    )


def free_ports(count: int) -> int:
    """The first of ``count`` consecutive loopback ports that are free now (``bigtwo serve --workers`` takes
    PORT .. PORT+N-1)."""
    for _ in range(200):
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            first = s.getsockname()[1]
        if first + count > 65535:
            continue
        ok = True
        for p in range(first, first + count):
            with socket.socket() as s:
                try:
                    s.bind(("127.0.0.1", p))
                except OSError:
                    ok = False
                    break
        if ok:
            return first
    raise SystemExit("no free ports on loopback")


def tree_cpu_seconds(pid: int) -> float:
    """CPU time of a process and every process under it (the supervisor of ``--workers`` and its servers)."""
    total, todo = 0.0, [pid]
    while todo:
        p = todo.pop()
        total += cpu_seconds(p)
        with contextlib.suppress(OSError):
            for task in Path(f"/proc/{p}/task").iterdir():
                todo += [int(c) for c in (task / "children").read_text().split()]
    return total


def wait_http(url: str, what: str, seconds: float = 90) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(f"{url}/api/presets", timeout=1).status_code == 200:
                return
        time.sleep(0.2)
    raise SystemExit(f"{what} did not answer at {url}")


@contextlib.contextmanager
def cluster(workers: int, database: str, tmp: Path) -> Any:
    """``bigtwo serve --workers N`` on ``database``, behind nginx when N is above 1; yields (front URL, the
    supervisor's pid)."""
    first = free_ports(workers)
    ports = list(range(first, first + workers))
    front = free_ports(1) if workers > 1 else first
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src") + os.pathsep + os.environ.get("PYTHONPATH", ""))
    cmd = [sys.executable, "-m", "bigtwo", "serve", "--port", str(first), "--database", database]
    cmd += ["--log-level", "error", "--workers", str(workers), *LOAD_LIMITS]
    cmd += ["--trusted-proxies", "127.0.0.1", "--public-url", f"http://127.0.0.1:{front}"]
    procs: list[subprocess.Popen[bytes]] = []
    try:
        procs.append(subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, start_new_session=True))
        for p in ports:
            wait_http(f"http://127.0.0.1:{p}", f"the process on port {p}")
        if workers > 1:
            import shutil

            nginx = shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None)
            if nginx is None:
                raise SystemExit("--workers above 1 runs behind nginx: install it (apt-get install nginx)")
            prefix = tmp / f"nginx{workers}"
            for kind in ("", "client_body", "proxy", "fastcgi", "uwsgi", "scgi"):
                (prefix / kind).mkdir(parents=True, exist_ok=True)
            conf = prefix / "nginx.conf"
            conf.write_text(nginx_config(prefix, front, ports))
            procs.append(subprocess.Popen([nginx, "-p", str(prefix), "-c", str(conf)], stderr=subprocess.DEVNULL))
            wait_http(f"http://127.0.0.1:{front}", "nginx")
        yield f"http://127.0.0.1:{front}", procs[0].pid
    finally:
        for proc in reversed(procs):  # nginx first, then the servers (each lets its tables go)
            proc.terminate()
            try:
                proc.wait(20)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(OSError):
                    os.killpg(proc.pid, 9)  # the supervisor's own session: it and its servers only
                proc.wait()


def actions_in(engine: Any) -> int:
    """The actions stored in a PostgreSQL database (every process's)."""
    from sqlalchemy import text

    with engine.connect() as conn:
        return int(conn.execute(text("SELECT count(*) FROM actions")).scalar_one())


def workers_main(args: argparse.Namespace) -> None:
    base = args.database or os.environ.get("BIGTWO_TEST_POSTGRES_URL")
    if not base or not base.startswith(("postgresql", "postgres")):
        raise SystemExit("--workers needs PostgreSQL: --database postgresql://... or $BIGTWO_TEST_POSTGRES_URL")
    counts = sorted({1, *(int(n) for n in args.workers.split(","))})
    from bigtwo.server.db import make_engine

    rows: dict[int, dict[str, float]] = {}
    with tempfile.TemporaryDirectory(prefix="bigtwo-bench-") as tmp:
        for n in counts:
            url = fresh_schema(base)
            engine = make_engine(url)
            try:
                with cluster(n, url, Path(tmp)) as (front, pid):
                    count = functools.partial(actions_in, engine)
                    rows[n] = asyncio.run(run(args, front, count, lambda: tree_cpu_seconds(pid), stats=False))
            finally:
                engine.dispose()
                drop_schema(url)
    load = os.getloadavg()
    print(
        f"bigtwo serve --workers N on PostgreSQL ({args.bot_games} tables of {args.bot} bots flat out + "
        f"{args.clients} WebSocket clients at {args.clients // 4} tables; N above 1 behind nginx, routed by table; "
        f"{args.seconds:g} s windows in one run; {os.cpu_count()} CPUs, load average {load[0]:.2f} {load[1]:.2f}):"
    )
    one = rows[1]
    print(
        f"  {'N':>2}  {'actions/s':>10} {'x N=1':>6}  {'client moves/s':>14}  {'p50 ms':>7} {'x N=1':>6}  "
        f"{'p99 ms':>7} {'x N=1':>6}  {'server CPU':>10}"
    )
    for n, r in rows.items():
        print(
            f"  {n:>2}  {r['actions_per_s']:>10,.0f} {r['actions_per_s'] / one['actions_per_s']:>6.2f}  "
            f"{r['client_moves_per_s']:>14,.0f}  {r['p50_ms']:>7.1f} {r['p50_ms'] / one['p50_ms']:>6.2f}  "
            f"{r['p99_ms']:>7.1f} {r['p99_ms'] / one['p99_ms']:>6.2f}  {r['server_cpu']:>10.0%}"
        )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bot-games", type=int, default=200)
    ap.add_argument("--clients", type=int, default=100)
    ap.add_argument("--seconds", type=float, default=10.0, help="measuring window")
    ap.add_argument("--warmup", type=float, default=2.0)
    ap.add_argument("--bot", default="greedy", help="the bots' kind at the bot tables (and in the baseline)")
    ap.add_argument("--bot-delay", type=float, default=0.0, help="seconds a bot waits before moving (0: flat out)")
    ap.add_argument("--abuse", action="store_true", help="the abuse scenario instead of the load (see above)")
    ap.add_argument("--think-ms", type=float, default=50.0, help="abuse: a client's pause before each move")
    ap.add_argument("--search-tables", type=int, default=8, help="abuse: tables of search bots alone")
    ap.add_argument("--large-tables", type=int, default=2, help="abuse: tables of Winner for two (26-card hands)")
    ap.add_argument("--ghost-tables", type=int, default=20, help="abuse: tables of search bots whose host never comes")
    ap.add_argument("--spectators", type=int, default=62, help="abuse: spectators asking for permessage-deflate")
    ap.add_argument("--idle-connections", type=int, default=1100, help="abuse: connections that send nothing")
    ap.add_argument("--workers", help="server processes to compare, e.g. 1,2,4 (on PostgreSQL: see above)")
    ap.add_argument("--database", help="--workers: the PostgreSQL URL (default: $BIGTWO_TEST_POSTGRES_URL)")
    args = ap.parse_args()
    if args.workers:
        workers_main(args)
        return
    if args.abuse:
        abuse_main(args)
        return

    baseline = engine_actions_per_second(min(args.seconds, 5), args.bot)
    with tempfile.TemporaryDirectory(prefix="bigtwo-bench-") as tmp:
        database = str(Path(tmp) / "bench.sqlite3")
        proc, url = start_server(database)
        try:
            got = asyncio.run(run(args, url, lambda: stored_actions(database), lambda: cpu_seconds(proc.pid)))
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
