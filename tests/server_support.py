"""Shared pieces of the server tests: a live server in a thread, scripted players, the hidden-card audit."""

from __future__ import annotations

import asyncio
import json
import os
import re
import secrets
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets
from sqlalchemy import create_engine, make_url, text

from bigtwo import CardSet, Match, Play
from bigtwo.bots import make
from bigtwo.cards import bits
from bigtwo.observation import Observation
from bigtwo.rules.ruleset import Ruleset, load_rules
from bigtwo.server import create_app
from bigtwo.server.db import database_url
from bigtwo.server.serving import DrainingServer, server_config
from bigtwo.server.settings import Settings

ROOT = Path(__file__).resolve().parents[1]
ARTIFACTS = ROOT / "artifacts"
CARD_TOKEN = re.compile(r"\b(?:[3-9TJQKA2][DCHS]|BJ|RJ)\b")
# a card as the players read it (``10♦``, ``3♣``): the same audit covers both notations
CARD_FACE = re.compile(r"(?<![0-9A-Za-z])(10|[2-9JQKA])([♦♣♥♠])")
SUIT_OF_SYMBOL = {"♦": "D", "♣": "C", "♥": "H", "♠": "S"}


def cards_named(text: str) -> set[str]:
    """Every card a text names, in record notation (``TD``) or as a face (``10♦``)."""
    named = set(CARD_TOKEN.findall(text))
    for rank, suit in CARD_FACE.findall(text):
        named.add(("T" if rank == "10" else rank) + SUIT_OF_SYMBOL[suit])
    return named


POSTGRES_URL = os.environ.get("BIGTWO_TEST_POSTGRES_URL")


def postgres_url_or_skip() -> str:
    """The test PostgreSQL URL; CI must provide one (a skip there would hide a missing backend)."""
    if POSTGRES_URL:
        return POSTGRES_URL
    if os.environ.get("CI"):
        pytest.fail("BIGTWO_TEST_POSTGRES_URL is not set: .ci/run starts PostgreSQL and exports it")
    pytest.skip("no PostgreSQL here: set BIGTWO_TEST_POSTGRES_URL (as .ci/run does) to test it")


def reset_postgres(url: str) -> str:
    """An empty database for a test: a schema of its own in the test database, named afresh, and the URL whose
    connections use it (libpq's ``search_path`` option). No test can drop or fill another's tables, whichever
    worker or leftover process runs it; the schemas of earlier runs are dropped once they are an hour old."""
    engine = create_engine(database_url(url))
    schema = f"t{int(time.time())}_{secrets.token_hex(4)}"
    with engine.begin() as conn:
        for (old,) in conn.execute(text("SELECT nspname FROM pg_namespace WHERE nspname ~ '^t[0-9]+_[0-9a-f]+$'")):
            if int(old[1:].split("_")[0]) < time.time() - 3600:
                conn.execute(text(f'DROP SCHEMA IF EXISTS "{old}" CASCADE'))
        conn.execute(text(f'CREATE SCHEMA "{schema}"'))
    engine.dispose()
    return make_url(url).update_query_dict({"options": f"-csearch_path={schema}"}).render_as_string(hide_password=False)


# The tests' own server: the limits meant for strangers on the internet are opened up for the tests' one address
# and for bots playing flat out (the abuse tests set the limits they test).
TEST_SETTINGS: dict[str, Any] = {
    "rooms_per_address": 10_000,
    "rooms_per_address_per_minute": 10_000,
    "max_rooms": 10_000,
    "sockets_per_address": 10_000,
    "connections_per_address": 10_000,
    "views_per_second": 10_000,
    "view_burst": 10_000,
    "spectators_per_address": 10_000,
    "sockets_per_address_per_minute": 100_000,
    "bot_table_min_delay": 0.0,
    "max_bot_tables": 1_000,
    "messages_per_second": 10_000,  # scripted players answer the moment it is their turn, flat out
    "message_burst": 10_000,
    "signups_per_address_per_hour": 10_000,
    "argon2_memory_kib": 8192,  # cheaper hashes for the tests' many sign-ups (the default is 64 MiB)
    "argon2_parallelism": 1,
}


def settings_for_tests(**overrides: Any) -> Settings:
    return Settings(**{**TEST_SETTINGS, **overrides})


def wait_for(condition: Any, seconds: float = 15) -> bool:
    """Whether ``condition()`` came true within ``seconds`` (polled)."""
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class LiveServer:
    """The application on a real uvicorn server in a background thread (a port on loopback)."""

    def __init__(self, database: str, public_host: str = "127.0.0.1", **settings: Any):
        self.port = free_port()
        self.settings = settings_for_tests(public_url=f"http://{public_host}:{self.port}", **settings)
        self.app = create_app(database, self.settings)
        config = server_config(self.app, self.settings, "127.0.0.1", self.port, "warning")
        self.server = DrainingServer(config, self.app.state.context.rooms.drain)  # as `bigtwo serve` runs it
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    @property
    def rooms(self) -> Any:
        return self.app.state.context.rooms

    def __enter__(self) -> LiveServer:
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the server did not start")
            time.sleep(0.02)
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=20)


class ServerProcess:
    """``bigtwo serve`` as a real subprocess, to be killed."""

    def __init__(self, database: str, port: int, env: dict[str, str] | None = None, args: list[str] | None = None):
        self.database, self.port = database, port
        self.env, self.args = env or {}, args or []
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> ServerProcess:
        env = dict(os.environ, PYTHONPATH=str(ROOT / "src") + os.pathsep + os.environ.get("PYTHONPATH", ""))
        env.update(self.env)
        cmd = [sys.executable, "-m", "bigtwo", "serve", "--port", str(self.port), "--database", self.database]
        self.proc = subprocess.Popen(
            [*cmd, "--log-level", "warning", *self.args], env=env, cwd=ROOT, stdout=subprocess.DEVNULL
        )
        deadline = time.monotonic() + 30
        while True:
            try:
                if httpx.get(f"{self.url}/api/presets", timeout=1).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            if self.proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("bigtwo serve did not start")
            time.sleep(0.05)

    def kill(self) -> None:
        assert self.proc is not None
        self.proc.kill()  # SIGKILL: no shutdown handler runs
        self.proc.wait(timeout=10)

    def rss_bytes(self) -> int:
        """The server process's resident memory now (Linux /proc)."""
        assert self.proc is not None
        for line in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
        raise RuntimeError("no VmRSS in /proc: this test needs Linux")


def create_room(base: str, **spec: Any) -> dict[str, Any]:
    r = httpx.post(f"{base}/api/rooms", json=spec, timeout=10)
    assert r.status_code == 201, r.text
    return r.json()


def bots_table(base: str, preset: str, players: int, changes: dict[str, Any] | None = None) -> dict[str, Any]:
    """A one-round table of greedy bots that answer at once, its first seat left open (waiting to start)."""
    return create_room(
        base,
        preset=preset,
        rules=changes or {},
        players=players,
        seats=[{"kind": "open"}] + [{"kind": "bot"}] * (players - 1),
        rounds=1,
        bot_delay=0,
        bot="greedy",
    )


def play_out(base: str, made: dict[str, Any], seconds: float = 60) -> None:
    """Start a table made by :func:`bots_table` with its open seat filled by a bot, and wait until it is over."""
    rid = made["room"]["id"]
    r = httpx.post(f"{base}/api/rooms/{rid}/start", json={"fill_with_bots": True}, headers=auth(made["host_token"]))
    assert r.status_code == 200, r.text
    assert wait_for(lambda: httpx.get(f"{base}/api/rooms/{rid}").json()["status"] == "over", seconds), rid


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def rules_of(preset: str, changes: dict[str, Any] | None = None) -> Ruleset:
    rules = load_rules(preset)
    return rules.replace(**changes) if changes else rules


def message_for(choice: Any, seq: int) -> dict[str, Any]:
    """A bot's choice as the WebSocket message a browser would send."""
    if isinstance(choice, Play):
        if choice.is_pass:
            return {"type": "pass", "seq": seq}
        return {"type": "play", "cards": [str(c) for c in choice.cards], "seq": seq}
    if isinstance(choice, CardSet):
        return {"type": "exchange", "cards": [str(c) for c in choice], "seq": seq}
    return {"type": "exchange", "answer": str(choice), "seq": seq}


@dataclass
class Transcript:
    """Every message a client received: (seat or None for a spectator, raw text)."""

    messages: list[tuple[int | None, str]] = field(default_factory=list)


async def play_seat(
    ws_url: str,
    room_id: str,
    token: str | None,
    rules: Ruleset,
    transcript: Transcript,
    seed: int = 0,
    bot: str = "random",
    stop_after: int | None = None,
) -> dict[str, Any]:
    """A scripted browser: says hello, and whenever its seat is to move answers with a bot's choice from the
    view alone. Returns the last view once the match is over (or after ``stop_after`` own moves)."""
    chooser = make(bot, seed=seed)
    moves = 0
    acted_at = -1
    me: int | None = None
    async with websockets.connect(f"{ws_url}/ws/rooms/{room_id}", max_size=2**20) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        last: dict[str, Any] | None = None
        while True:
            raw = await asyncio.wait_for(ws.recv(), timeout=30)
            msg = json.loads(raw)
            if msg["type"] == "view":
                me = msg["you"]["seat"]
            transcript.messages.append((me, raw))
            if msg["type"] == "error":
                continue
            last = msg
            g = msg["match"]
            if g is not None and g["is_over"]:
                return msg
            if token is None or me is None or g is None or msg["room"]["status"] != "playing":
                continue
            if msg["break"] is not None:
                if me not in msg["break"]["ready"] and acted_at != -2 - msg["seq"]:
                    acted_at = -2 - msg["seq"]
                    await ws.send(json.dumps({"type": "continue"}))
                continue
            if g["to_move"] == me and acted_at != msg["seq"]:
                if stop_after is not None and moves >= stop_after:
                    return msg
                acted_at = msg["seq"]
                await ws.send(
                    json.dumps(message_for(chooser.choose(rules, Observation.from_json(g, rules)), msg["seq"]))
                )
                moves += 1
    assert last is not None
    return last


def rebuild(room: Any) -> Match:
    """A fresh match from a room's seed and rules (to replay its actions one by one)."""
    return Match(room.rules, players=room.players, seed=room.seed, rounds=room.rounds, points=room.points)


def _cards(mask: int) -> set[str]:
    return {str(CardSet.from_mask(1 << i)) for i in bits(mask)}


def secrets_by_seq(room: Any) -> list[dict[int | None, set[str]]]:
    """For every position of a room's game (after 0, 1, 2 ... actions): the cards each seat must not see
    (other seats' unplayed cards, less what a rule shows or an exchange it took part in told it), and for a
    spectator (key None) every unplayed card a rule does not show."""
    m = rebuild(room)
    out = []

    def snapshot() -> dict[int | None, set[str]]:
        n = m.n
        if m.is_over:
            return {s: set() for s in [*range(n), None]}
        rec = m.current
        ex = rec.exchange
        if m.phase == "exchange":
            hands = list(ex.hands)
            public = 0
        else:
            g = m.game
            hands = [g.hand(s).mask for s in range(n)]
            public = 0
            for s in range(n):
                public |= g._known[s]
        shown, told = 0, [0] * n
        for e in ex.events:
            if e.get("type") != "give" or not e.get("cards"):
                continue
            mask = CardSet(" ".join(e["cards"])).mask
            if e.get("shown"):
                shown |= mask
            for party in (e.get("from"), e.get("to")):
                if party is not None:
                    told[party] |= mask
        result: dict[int | None, set[str]] = {}
        for seat in range(n):
            others = 0
            for s in range(n):
                if s != seat:
                    others |= hands[s]
            result[seat] = _cards(others & ~public & ~shown & ~told[seat])
        everyone = 0
        for s in range(n):
            everyone |= hands[s]
        result[None] = _cards(everyone & ~public & ~shown)
        return result

    out.append(snapshot())
    for a in room.actions:
        m.apply(a["answer"], seat=a["seat"])
        out.append(snapshot())
    return out


def hands_left(room: Any) -> list[list[set[str]]]:
    """The cards each seat held when each finished round ended (public once it has ended)."""
    m = room.match
    out = []
    for rec in m.completed:
        out.append([_cards(rec.game.hand(s).mask) if rec.game is not None else set() for s in range(m.n)])
    return out


def without_finished_rounds(msg: dict[str, Any], left: list[list[set[str]]]) -> dict[str, Any]:
    """A view without the hands left at the end of finished rounds (a past deal's cards, public once the round
    ended), after checking they are exactly those hands."""
    g = msg.get("match") if msg.get("type") == "view" else None
    if not g:
        return msg
    for r in g.get("rounds_done", []):
        shown = [{c.rstrip("'") for c in h} for h in r.pop("hands_left")]
        assert shown == left[r["round"]], f"round {r['round'] + 1}: the hands left are {shown}, not {left[r['round']]}"
    return msg


def audit_hidden_cards(room: Any, transcript: Transcript) -> int:
    """Check every message: no card a seat (or spectator) may not see appears anywhere in its text, in either
    notation (``TD``, ``10♦``). The hands left when a round ended are checked to be exactly those, then set
    aside: they are a finished deal's cards, public once it ended (and the next deal holds the same cards)."""
    secrets = secrets_by_seq(room)
    left = hands_left(room)
    checked = 0
    for seat, raw in transcript.messages:
        msg = json.loads(raw)
        seq = msg.get("seq")
        if seq is None:
            continue
        text = json.dumps(without_finished_rounds(msg, left), ensure_ascii=False)
        leaked = cards_named(text) & secrets[seq][seat]
        assert not leaked, (
            f"message at move {seq} to {'spectator' if seat is None else f'seat {seat}'} shows {leaked}: {raw[:1500]}"
        )
        checked += 1
    return checked


async def churn(ws_url: str, room_id: str, transcript: Transcript, done: asyncio.Event) -> int:
    """A spectator who keeps arriving and leaving while a game goes on: each arrival gets a fresh view, built
    while moves are being committed (the view must never run ahead of the database)."""
    visits = 0
    while not done.is_set():
        async with websockets.connect(f"{ws_url}/ws/rooms/{room_id}", max_size=2**20) as ws:
            transcript.messages.append((None, await asyncio.wait_for(ws.recv(), timeout=30)))
            visits += 1
    return visits


# --- a real browser: Debian's chromium driven by Playwright (playwright install cannot download here) ----------
CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--autoplay-policy=no-user-gesture-required",
]


def chromium() -> Iterator[Any]:
    """A launched chromium for a module's ``browser`` fixture (``yield from chromium()``). A missing browser fails
    the test rather than skipping it: .ci/run installs it, and a browser test that skips tests nothing."""
    sync_api = pytest.importorskip("playwright.sync_api")
    if not CHROMIUM.exists():
        pytest.fail("Debian's chromium is missing: .ci/run installs it (apt-get install chromium)")
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield browser
        browser.close()
