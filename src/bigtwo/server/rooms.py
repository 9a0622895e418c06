"""Rooms: a table's seats, its match, its connections, bots and timers; the server as the only referee.

A room holds the live :class:`~bigtwo.match.Match` and changes it in one place, :meth:`Room.submit`, under the
room's lock: the seat must be the one to move, the engine must accept the answer (a refusal carries the
engine's reason and leaves the match as it was), the action is committed to the database, and only then is
anyone told. A room is rebuilt from its stored seed, rules and actions by replaying them through the engine,
which is how a restarted server resumes every game where it stood.
"""

from __future__ import annotations

import asyncio
import hmac
import json
import logging
import secrets
import tomllib
from collections import OrderedDict, deque
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy.engine import Engine

from bigtwo import bots as bot_registry
from bigtwo.bots import make as make_bot
from bigtwo.cards import CardSet
from bigtwo.combos.play import Play
from bigtwo.errors import BigTwoError, IllegalPlay
from bigtwo.match import Match, derived_seed
from bigtwo.record import Record
from bigtwo.rules.ruleset import SECTIONS, Ruleset, list_presets, load_rules, rules_from_toml
from bigtwo.server import store
from bigtwo.server.messages import (
    Continue,
    CreateRoom,
    ExchangeAnswer,
    Hello,
    Pass,
    Ping,
    PlayCards,
)
from bigtwo.server.records import room_record
from bigtwo.server.views import match_view, spectator_view

log = logging.getLogger("bigtwo.server")

INLINE_BOTS = frozenset({"random", "greedy"})  # answer in well under a millisecond: no worker thread needed
PREFERRED_BOTS = ("heuristic", "greedy")  # the default strength: the strongest quick bot that is installed
LIVE = ("waiting", "playing", "paused")
FINISHED_KEPT = 64  # finished rooms kept in memory for their records and replays (the rest are read again)


class Rejected(Exception):
    """A request the server refuses, in words; ``status`` is the HTTP status it maps to."""

    def __init__(self, message: str, status: int = 400):
        super().__init__(message)
        self.message = message
        self.status = status


def available_bots() -> dict[str, str]:
    """Every registered bot (its name is its strength), with the first line of its docstring."""
    make_bot("random")  # importing the built-in bots registers them
    out = {}
    for name, factory in bot_registry.BOTS.items():
        doc = (factory.__doc__ or "").strip().splitlines()
        out[name] = doc[0] if doc else name
    return out


def default_bot() -> str:
    """The strength a table gets unless it asks: the first of PREFERRED_BOTS that is installed."""
    names = available_bots()
    return next((n for n in PREFERRED_BOTS if n in names), next(iter(names)))


def check_bot(name: str | None, default: str) -> str:
    name = name or default
    names = available_bots()
    if name not in names:
        raise Rejected(f"no bot named {name!r}; bots: {', '.join(names)}")
    return name


def build_rules(spec: CreateRoom) -> tuple[Ruleset, dict[str, Any]]:
    """The room's ruleset: a preset, a TOML file's text on top of it, then single setting changes."""
    presets = list_presets()
    if spec.preset not in presets:
        raise Rejected(f"no preset named {spec.preset!r}; presets: {', '.join(presets)}")
    base = load_rules(spec.preset)
    try:
        rules = base
        if spec.rules_toml:
            try:
                data = tomllib.loads(spec.rules_toml)
            except tomllib.TOMLDecodeError as e:
                raise Rejected(f"house rules TOML: {e}") from None
            named = data.get("base", spec.preset)
            if named not in presets:
                raise Rejected(f"house rules TOML: base {named!r} is not a preset; presets: {', '.join(presets)}")
            text = spec.rules_toml if "base" in data else f'base = "{spec.preset}"\n{spec.rules_toml}'
            rules = rules_from_toml(text, source="house rules TOML")
        if spec.rules:
            flat = rules.to_dict(sectioned=False)
            for key, value in spec.rules.items():
                if key in SECTIONS and isinstance(value, dict):
                    flat.update(value)
                else:
                    flat[key] = value
            if "name" not in spec.rules:
                flat["name"] = f"{base.name} (house rules)"
            rules = Ruleset.from_dict(flat, source="house rules")
    except BigTwoError as e:
        raise Rejected(str(e)) from None
    base_flat = base.to_dict(sectioned=False)
    changes = {
        k: v for k, v in rules.to_dict(sectioned=False).items() if base_flat.get(k) != v and k not in ("description",)
    }
    return rules, changes


@dataclass
class Seat:
    seat: int
    kind: str  # open, person, bot
    name: str
    bot: str | None = None
    token: str | None = None  # sha256 of the secret

    def to_row(self, room_id: str) -> dict[str, Any]:
        return {
            "room_id": room_id,
            "seat": self.seat,
            "kind": self.kind,
            "name": self.name,
            "bot": self.bot,
            "token": self.token,
        }


@dataclass
class Break:
    """The pause between rounds, while the score table is shown: until every person is ready, or time is up."""

    round: int
    until: float
    ready: set[int] = field(default_factory=set)


class Connection:
    """One WebSocket client. Messages queue per client; a newer view replaces an unsent older one."""

    def __init__(self, ws: Any):
        self.ws = ws
        self.seat: int | None = None
        self._out: deque[tuple[str, str]] = deque()
        self._wake = asyncio.Event()
        self.closed = False

    def send_view(self, text: str) -> None:
        if any(kind == "view" for kind, _ in self._out):
            self._out = deque(item for item in self._out if item[0] != "view")
        self._out.append(("view", text))
        self._wake.set()

    def send(self, message: dict[str, Any]) -> None:
        self._out.append(("message", json.dumps(message, separators=(",", ":"))))
        self._wake.set()

    async def pump(self) -> None:
        """Send queued messages in order (one task per client, so a slow client never holds up a room)."""
        try:
            while not self.closed:
                await self._wake.wait()
                self._wake.clear()
                while self._out:
                    _, text = self._out.popleft()
                    await self.ws.send_text(text)
        except Exception:  # the client went away; the receiving side cleans up
            self.closed = True


class Room:
    """One table. Build with :meth:`Room.restore` from stored rows; all changes go through its methods."""

    def __init__(self, manager: Rooms, row: dict[str, Any], seat_rows: list[dict[str, Any]]):
        self.manager = manager
        self.id: str = row["id"]
        self.name: str = row["name"]
        self.preset: str = row["preset"]
        self.changes: dict[str, Any] = dict(row["changes"] or {})
        self.rules = Ruleset.from_dict(row["rules"], source=f"room {self.id}")
        self.players: int = row["players"]
        self.rounds: int | None = row["rounds"]
        self.points: int | None = row["points"]
        self.seed: int = int(row["seed"])
        self.status: str = row["status"]
        self.public = bool(row["public"])
        self.host_token: str = row["host_token"]
        self.move_seconds: int = row["move_seconds"]
        self.bot_delay: float = float(row["bot_delay"])
        self.break_seconds: int = row["break_seconds"]
        self.bot: str = row["bot"]  # the strength of bots added later
        self.created_at = row["created_at"]
        self.finished_at = row.get("finished_at")
        self._record: Record | None = None  # a finished game's record, built once
        self.seats = [
            Seat(r["seat"], r["kind"], r["name"], r["bot"], r["token"])
            for r in sorted(seat_rows, key=lambda r: r["seat"])
        ]
        self.match = self._new_match()
        self.actions: list[dict[str, Any]] = []  # seq, seat, answer, by: mirrors the actions table
        self.round_start = 0  # seq at which the current round began
        self.lock = asyncio.Lock()
        self.conns: set[Connection] = set()
        self.turn_task: asyncio.Task[None] | None = None
        self.break_task: asyncio.Task[None] | None = None
        self.deadline: float | None = None
        self.brk: Break | None = None
        self._bots: dict[int, Any] = {}
        self.broken: str | None = None  # why a stored game could not be replayed (the room is then read-only)
        self._break_due = False

    def _new_match(self) -> Match:
        return Match(self.rules, players=self.players, seed=self.seed, rounds=self.rounds, points=self.points)

    # --- rebuilding ------------------------------------------------------------------------------------------
    def replay(self, action_rows: list[dict[str, Any]]) -> None:
        """Rebuild the match from stored actions through the engine (each one is checked again)."""
        self.match = self._new_match()
        self.actions = []
        self.round_start = 0
        for row in action_rows:
            if row["seq"] != len(self.actions):
                self.broken = f"action {len(self.actions)} is missing from the database"
                break
            before, phase = self.match.round_index, self.match.phase
            try:
                self.match.act(row["answer"], seat=row["seat"])
            except BigTwoError as e:
                self.broken = f"stored action {row['seq']} ({row['answer']!r} by seat {row['seat']}) was refused: {e}"
                log.error("room %s: %s", self.id, self.broken)
                break
            self.actions.append(
                {"seq": row["seq"], "seat": row["seat"], "answer": row["answer"], "by": row["by"], "phase": phase}
            )
            if self.match.round_index != before:
                self.round_start = len(self.actions)
        if self.match.is_over:
            self.status = "over"
        # a round had just ended: the score table shows again when the room resumes (see resume())
        self._break_due = bool(
            self.status == "playing"
            and self.match.round_index > 0
            and self.round_start == len(self.actions)
            and self.break_seconds
            and any(s.kind == "person" for s in self.seats)
        )

    def resume(self) -> None:
        """Start the room's clocks after a rebuild (on the event loop): the break it was in, or the turn."""
        if self._break_due:
            self._break_due = False
            self._start_break()
        self._schedule()

    # --- reading ----------------------------------------------------------------------------------------------
    @property
    def seq(self) -> int:
        return len(self.actions)

    def connected(self, seat: int) -> bool:
        return any(c.seat == seat for c in self.conns)

    def summary(self, base_url: str = "") -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "status": self.status,
            "preset": self.preset,
            "rules_name": self.rules.name,
            "changes": self.changes,
            "players": self.players,
            "rounds": self.match.max_rounds,
            "points": self.match.points,
            "move_seconds": self.move_seconds,
            "bot_delay": self.bot_delay,
            "break_seconds": self.break_seconds,
            "bot": self.bot,
            "public": self.public,
            "seats": [
                {"seat": s.seat, "kind": s.kind, "name": s.name, "bot": s.bot, "connected": self.connected(s.seat)}
                for s in self.seats
            ],
            "actions": self.seq,
            "round": self.match.round_index if self.status != "waiting" else None,
            "invite": f"{base_url}/room/{self.id}",
        }

    def seat_for_token(self, token: str | None) -> int | None:
        if not token:
            return None
        digest = store.token_hash(token)
        found = None
        for s in self.seats:
            if s.token is not None and hmac.compare_digest(s.token, digest):
                found = s.seat
        return found

    def is_host(self, token: str | None) -> bool:
        return bool(token) and hmac.compare_digest(self.host_token, store.token_hash(token or ""))

    def view(self, seat: int | None) -> dict[str, Any]:
        """Everything one client may see now (a seat's, or a spectator's when ``seat`` is None)."""
        if self.status == "waiting":
            game = None
        else:
            game = match_view(self.match, seat) if seat is not None else spectator_view(self.match)
        loop_now = asyncio.get_running_loop().time() if self.deadline or self.brk else 0.0
        timer = None
        if self.deadline is not None and self.match.to_move is not None:
            timer = {
                "seat": self.match.to_move,
                "seconds": self.move_seconds,
                "seconds_left": round(max(0.0, self.deadline - loop_now), 1),
            }
        brk = None
        if self.brk is not None:
            people = [s.seat for s in self.seats if s.kind == "person"]
            brk = {
                "round": self.brk.round,
                "seconds_left": round(max(0.0, self.brk.until - loop_now), 1),
                "ready": sorted(self.brk.ready),
                "waiting_for": [s for s in people if s not in self.brk.ready],
            }
        return {
            "type": "view",
            "seq": self.seq,
            "room": self.summary(),
            "you": {"seat": seat},
            "match": game,
            "timer": timer,
            "break": brk,
            "last": self._last_public(),
            "broken": self.broken,
        }

    def _last_public(self) -> dict[str, Any] | None:
        """Who made the latest move and how (a person, a bot, the timer); the cards are in the history."""
        if not self.actions:
            return None
        a = self.actions[-1]
        kind = "exchange" if a["phase"] == "exchange" else "pass" if a["answer"] == "pass" else "play"
        return {"seq": a["seq"], "seat": a["seat"], "by": a["by"], "action": kind}

    # --- connections ------------------------------------------------------------------------------------------
    # Views are built only under the room's lock: between the engine accepting a move and the database
    # committing it, the match is ahead of the disk, and nobody may see it then.
    async def attach(self, conn: Connection) -> None:
        async with self.lock:
            self.conns.add(conn)
            conn.send_view(self._dump(self.view(None)))

    async def detach(self, conn: Connection) -> None:
        self.conns.discard(conn)
        conn.closed = True
        if conn.seat is not None:
            async with self.lock:
                self.broadcast()
        self.manager.release(self)

    async def current_view(self, seat: int | None) -> dict[str, Any]:
        async with self.lock:
            return self.view(seat)

    def broadcast(self) -> None:
        """Send every client its own view (computed once per seat and once for all spectators); call under the lock."""
        if not self.conns:
            return
        cache: dict[int | None, str] = {}
        for conn in list(self.conns):
            text = cache.get(conn.seat)
            if text is None:
                text = cache[conn.seat] = self._dump(self.view(conn.seat))
            conn.send_view(text)

    @staticmethod
    def _dump(view: dict[str, Any]) -> str:
        return json.dumps(view, separators=(",", ":"), ensure_ascii=False)

    async def handle(self, conn: Connection, msg: Any) -> None:
        """One validated message from a client."""
        try:
            if isinstance(msg, Hello):
                async with self.lock:
                    seat = self.seat_for_token(msg.token)
                    if msg.token and seat is None:
                        raise Rejected("this token is not a seat at this table: you are watching", 403)
                    was = conn.seat
                    conn.seat = seat
                    if was != seat:
                        self.broadcast()
                    else:
                        conn.send_view(self._dump(self.view(seat)))
            elif isinstance(msg, Ping):
                conn.send({"type": "pong", "seq": self.seq})
            elif isinstance(msg, Continue):
                async with self.lock:
                    self.ready(self._own_seat(conn))
            else:
                seat = self._own_seat(conn)
                await self.submit(seat, answer_of(msg), by="player", seq=msg.seq, phase=phase_of(msg))
        except Rejected as e:
            async with self.lock:
                conn.send({"type": "error", "message": e.message, "seq": self.seq})
                conn.send_view(self._dump(self.view(conn.seat)))

    @staticmethod
    def _own_seat(conn: Connection) -> int:
        if conn.seat is None:
            raise Rejected("spectators cannot act: take a seat with its token first", 403)
        return conn.seat

    # --- the referee ------------------------------------------------------------------------------------------
    async def submit(
        self,
        seat: int,
        answer: Any,
        by: str = "player",
        seq: int | None = None,
        phase: str | None = None,
    ) -> dict[str, Any]:
        """Make ``seat``'s move if it is legal; commit it; then tell everyone. Raises :class:`Rejected`.

        ``phase`` ("play" or "exchange"), when given, is the kind of move the client meant: a play sent during an
        exchange (or an exchange answer during play) is refused rather than read as the other kind.
        """
        async with self.lock:
            m = self.match
            try:
                self._check_turn(seat, seq)
                if phase is not None and phase != m.phase:
                    wanted = "a play or a pass" if m.phase == "play" else "an answer to the exchange decision"
                    raise Rejected(f"that is not a move for now: the table waits for {wanted}", 409)
                phase, before = m.phase, m.round_index
                value = m.act(answer, seat=seat)
            except IllegalPlay as e:
                raise Rejected(e.reason, 422) from None
            except BigTwoError as e:
                raise Rejected(str(e), 422) from None
            if phase == "exchange":
                canonical = m.records[before].exchange.answers[-1]["answer"]
            else:
                assert isinstance(value, Play)
                canonical = str(value)
            number = self.seq
            try:
                await self.manager.journal.write(store.insert_action(self.id, number, seat, canonical, by))
            except Exception:
                log.exception("room %s: could not store action %d", self.id, number)
                await self._reload()  # memory never runs ahead of the database
                raise Rejected("the server could not save this move, so it was not made; try again", 503) from None
            self.actions.append({"seq": number, "seat": seat, "answer": canonical, "by": by, "phase": phase})
            if m.round_index != before:
                self.round_start = self.seq
            if m.is_over:
                await self._finish()
            elif m.round_index != before and self.break_seconds and any(s.kind == "person" for s in self.seats):
                self._start_break()
            self._schedule()
            self.broadcast()
            return self.actions[-1]

    def _check_turn(self, seat: int, seq: int | None) -> None:
        if self.broken:
            raise Rejected(f"this game cannot go on: {self.broken}", 409)
        if self.status == "waiting":
            raise Rejected("the game has not started yet: the host starts it", 409)
        if self.status == "paused":
            raise Rejected("the game is paused: the host resumes it", 409)
        if self.status == "over" or self.match.is_over:
            raise Rejected("the game is over", 409)
        if self.brk is not None:
            raise Rejected("the round is over: the next one starts when everyone is ready", 409)
        if seq is not None and seq != self.seq:
            raise Rejected(f"the table has moved on (your view is at move {seq}, the table at {self.seq})", 409)
        to_move = self.match.to_move
        if to_move != seat:
            who = self.seats[to_move].name if to_move is not None else "nobody"
            raise Rejected(f"it is not your turn: {who} (seat {to_move}) is to move", 409)

    async def _reload(self) -> None:
        def read() -> Any:
            with self.manager.engine.connect() as conn:
                return store.load_room(conn, self.id)

        try:
            loaded = await asyncio.to_thread(read)
        except Exception:
            log.exception("room %s: could not reload from the database; replaying from memory", self.id)
            self.replay(list(self.actions))
            return
        if loaded is not None:
            self.replay(loaded[2])

    async def record(self) -> Record:
        """The finished match's record (names, date, table), built once off the event loop."""
        if self._record is None:
            names = [s.name for s in self.seats]
            self._record = await asyncio.to_thread(room_record, self.match, names, self.name, self.id, self.finished_at)
        return self._record

    async def _finish(self) -> None:
        self.status = "over"
        self.finished_at = store.now()
        m = self.match
        standings = {"standings": m.standings(), "totals": list(m.totals), "places": list(m.places)}
        try:
            await self.manager.journal.write(
                store.update_room(self.id, status="over", finished_at=self.finished_at, standings=standings)
            )
        except Exception:  # the actions are stored: a restart sees the match is over and says so
            log.exception("room %s: could not mark the game over", self.id)
        self.manager.release(self)

    # --- turns, bots, timers, breaks -------------------------------------------------------------------------
    def _schedule(self) -> None:
        """Start whatever the seat to move needs: a bot's turn, or the move timer of a person."""
        current = asyncio.current_task()
        if self.turn_task is not None and self.turn_task is not current:
            self.turn_task.cancel()
        self.turn_task = None
        self.deadline = None
        if self.status != "playing" or self.brk is not None or self.match.is_over or self.broken:
            return
        seat = self.match.to_move
        if seat is None:
            return
        loop = asyncio.get_running_loop()
        if self.seats[seat].kind == "bot":
            self.turn_task = loop.create_task(self._bot_turn(seat, self.seq))
        elif self.move_seconds > 0:
            self.deadline = loop.time() + self.move_seconds
            self.turn_task = loop.create_task(self._timeout(seat, self.seq))

    def _bot(self, seat: int) -> tuple[str, Any]:
        """The seat's bot (kept between turns, as a bot may plan ahead), by its registered name."""
        name = self.seats[seat].bot or "greedy"
        held = self._bots.get(seat)
        if held is None or held[0] != name:
            held = self._bots[seat] = (name, make_bot(name, seed=derived_seed(self.seed, "bot", seat, self.seq)))
        return held

    async def _bot_turn(self, seat: int, seq: int) -> None:
        try:
            if self.bot_delay > 0:
                await asyncio.sleep(self.bot_delay)
            async with self.lock:
                if self.seq != seq or self.match.to_move != seat:
                    return
                name, bot = self._bot(seat)
                obs = self.match.observation(seat)
            try:
                if name in INLINE_BOTS:
                    choice = bot.choose(self.rules, obs)
                else:  # a bot that thinks (search) must not hold up the other tables
                    choice = await asyncio.to_thread(bot.choose, self.rules, obs)
            except Exception:  # a bot that fails must not stall the table: the safe default moves instead
                log.exception("room %s: bot %s failed to choose; the greedy bot moves for seat %d", self.id, name, seat)
                self._bots.pop(seat, None)
                choice = make_bot("greedy").choose(self.rules, obs)
            try:
                await self.submit(seat, choice, by="bot", seq=seq)
            except Rejected as e:
                if not (self.seq == seq and e.status == 422):
                    raise
                # the bot's own mistake: the safe default plays instead
                log.error("room %s: bot %s chose %s: %s", self.id, name, choice, e.message)
                await self.submit(seat, make_bot("greedy").choose(self.rules, obs), by="bot", seq=seq)
        except asyncio.CancelledError:
            raise
        except Rejected as e:  # the table moved on (paused, or the seat changed hands): nothing to do
            if e.status == 503:
                await self._retry_turn(seq)
        except Exception:
            log.exception("room %s: bot turn failed", self.id)

    async def _retry_turn(self, seq: int) -> None:
        """The database refused the server's own move (a bot's, or the timer's): try again in a second."""
        await asyncio.sleep(1.0)
        async with self.lock:
            if self.seq == seq:
                self._schedule()

    async def _timeout(self, seat: int, seq: int) -> None:
        """Time is up: the server plays for the seat (pass when allowed, else the lowest legal play)."""
        try:
            await asyncio.sleep(self.move_seconds)
            async with self.lock:
                if self.seq != seq or self.match.to_move != seat:
                    return
                obs = self.match.observation(seat)
            await self.submit(seat, make_bot("greedy").choose(self.rules, obs), by="timeout", seq=seq)
        except asyncio.CancelledError:
            raise
        except Rejected as e:
            if e.status == 503:
                await self._retry_turn(seq)
        except Exception:
            log.exception("room %s: timeout move failed", self.id)

    def _start_break(self) -> None:
        loop = asyncio.get_running_loop()
        self.brk = Break(self.match.round_index, loop.time() + self.break_seconds)
        if self.break_task is not None:
            self.break_task.cancel()
        self.break_task = loop.create_task(self._break_timer(self.brk))

    async def _break_timer(self, brk: Break) -> None:
        await asyncio.sleep(max(0.0, brk.until - asyncio.get_running_loop().time()))
        async with self.lock:
            if self.brk is brk:
                self._end_break()

    def _end_break(self) -> None:
        self.brk = None
        if self.break_task is not None and self.break_task is not asyncio.current_task():
            self.break_task.cancel()
        self.break_task = None
        self._schedule()
        self.broadcast()

    def ready(self, seat: int) -> None:
        """A person is ready for the next round; the break ends when every person is (call under the lock)."""
        if self.brk is None:
            raise Rejected("there is no break to end: the round is on", 409)
        self.brk.ready.add(seat)
        people = {s.seat for s in self.seats if s.kind == "person"}
        if people <= self.brk.ready:
            self._end_break()
        else:
            self.broadcast()

    # --- the host ---------------------------------------------------------------------------------------------
    def _host(self, token: str | None) -> None:
        if not self.is_host(token):
            raise Rejected("only the host may do this (the host token is missing or wrong)", 403)

    async def start(self, token: str | None, fill_with_bots: bool) -> None:
        self._host(token)
        async with self.lock:
            if self.status != "waiting":
                raise Rejected(f"the game has already started (it is {self.status})", 409)
            empty = [s for s in self.seats if s.kind == "open"]
            if empty and not fill_with_bots:
                names = ", ".join(str(s.seat) for s in empty)
                raise Rejected(f"seats {names} are empty: invite friends, give them to bots, or fill with bots", 409)
            for s in empty:
                s.kind, s.bot, s.name, s.token = "bot", self.bot, "", None
                s.name = bot_name(s)
                await self.manager.journal.write(
                    store.update_seat(self.id, s.seat, kind="bot", bot=s.bot, name=s.name, token=None)
                )
            await self.manager.journal.write(store.update_room(self.id, status="playing"))
            self.status = "playing"
            self._schedule()
            self.broadcast()

    async def pause(self, token: str | None, paused: bool) -> None:
        self._host(token)
        async with self.lock:
            want, have = ("paused", "playing") if paused else ("playing", "paused")
            if self.status != have:
                raise Rejected(
                    f"the game is {self.status}: only a {have} game can be {'paused' if paused else 'resumed'}", 409
                )
            await self.manager.journal.write(store.update_room(self.id, status=want))
            self.status = want
            self._schedule()
            self.broadcast()

    async def change_seat(self, token: str | None, seat: int, kind: str, bot: str | None) -> None:
        self._host(token)
        async with self.lock:
            if not 0 <= seat < self.players:
                raise Rejected(f"seat {seat} is not at this table (0-{self.players - 1})", 404)
            if self.status == "over":
                raise Rejected("the game is over", 409)
            s = self.seats[seat]
            if s.kind == "person" and self.connected(seat):
                raise Rejected(f"seat {seat} ({s.name}) is connected: only a disconnected player can be replaced", 409)
            if kind == "bot":
                name = check_bot(bot, self.bot)
                s.kind, s.bot, s.token = "bot", name, None
                s.name = bot_name(s)
            else:
                s.kind, s.bot, s.token, s.name = "open", None, None, "empty"
            await self.manager.journal.write(
                store.update_seat(self.id, seat, kind=s.kind, bot=s.bot, name=s.name, token=None)
            )
            self._bots.pop(seat, None)
            for c in self.conns:
                if c.seat == seat:  # a revoked token no longer acts
                    c.seat = None
            if self.brk is not None and kind == "bot":
                people = {x.seat for x in self.seats if x.kind == "person"}
                if people <= self.brk.ready:
                    self._end_break()
                    return
            self._schedule()
            self.broadcast()

    async def join(self, name: str, seat: int | None) -> tuple[int, str]:
        async with self.lock:
            if self.status == "over":
                raise Rejected("the game is over", 409)
            open_seats = [s.seat for s in self.seats if s.kind == "open"]
            if seat is None:
                if not open_seats:
                    raise Rejected("the table is full: you can watch", 409)
                seat = open_seats[0]
            elif not 0 <= seat < self.players:
                raise Rejected(f"seat {seat} is not at this table (0-{self.players - 1})", 404)
            elif seat not in open_seats:
                raise Rejected(f"seat {seat} is taken; open seats: {open_seats or 'none'}", 409)
            token = secrets.token_urlsafe(24)
            s = self.seats[seat]
            await self.manager.journal.write(
                store.update_seat(self.id, seat, kind="person", name=name, bot=None, token=store.token_hash(token))
            )
            s.kind, s.name, s.bot, s.token = "person", name, None, store.token_hash(token)
            self._schedule()
            self.broadcast()
            return seat, token

    def stop(self) -> None:
        for task in (self.turn_task, self.break_task):
            if task is not None:
                task.cancel()
        self.turn_task = self.break_task = None


def bot_name(seat: Seat) -> str:
    return f"Bot {seat.seat} ({seat.bot or 'greedy'})"


def phase_of(msg: PlayCards | Pass | ExchangeAnswer | Any) -> str:
    return "exchange" if getattr(msg, "type", None) == "exchange" else "play"


def answer_of(msg: PlayCards | Pass | ExchangeAnswer | Any) -> Any:
    """What the engine is asked: the cards, "pass", or an exchange answer (cards, a question, an option)."""
    if isinstance(msg, Pass) or getattr(msg, "type", None) == "pass":
        return "pass"
    if isinstance(msg, PlayCards) or getattr(msg, "type", None) == "play":
        if not msg.cards:
            raise Rejected("a play needs cards (or pass)", 422)
        return " ".join(msg.cards)
    if msg.cards is not None and msg.answer is not None:
        raise Rejected("an exchange answer is cards or a question/option, not both", 422)
    if msg.cards is not None:
        try:
            return CardSet(" ".join(msg.cards)) if msg.cards else CardSet(0)
        except BigTwoError as e:
            raise Rejected(str(e), 422) from None
    if msg.answer is None:
        raise Rejected("an exchange answer needs cards (empty to decline) or an answer", 422)
    return msg.answer


class Rooms:
    """Every room the server knows, the database behind them, and the journal all writes go through."""

    def __init__(self, engine: Engine):
        self.engine = engine
        self.journal = store.Journal(engine)
        self.rooms: dict[str, Room] = {}  # live rooms, and finished ones someone is still looking at
        self.finished: OrderedDict[str, Room] = OrderedDict()  # the most recently used finished rooms

    def load_live(self) -> int:
        """Rebuild every unfinished room (at start, before serving): a restart resumes each game."""
        with self.engine.connect() as conn:
            ids = store.room_ids(conn, LIVE)
            for rid in ids:
                loaded = store.load_room(conn, rid)
                if loaded is not None:
                    self._restore(*loaded)
        return len(ids)

    def _restore(self, row: dict[str, Any], seat_rows: list[dict[str, Any]], action_rows: list[dict[str, Any]]) -> Room:
        room = Room(self, row, seat_rows)
        room.replay(action_rows)
        self.rooms[room.id] = room
        return room

    def release(self, room: Room) -> None:
        """Let go of a finished room nobody is watching: it moves to a small cache of recent finished rooms, and
        past that lives only in the database, where :meth:`get` reads it again when asked (its record, its last
        view). A server that runs for months keeps its live games in memory, not every game it ever had."""
        if room.status == "over" and not room.conns and self.rooms.get(room.id) is room:
            del self.rooms[room.id]
            self._keep_finished(room)

    def _keep_finished(self, room: Room) -> None:
        self.finished[room.id] = room
        self.finished.move_to_end(room.id)
        while len(self.finished) > FINISHED_KEPT:
            self.finished.popitem(last=False)

    def resume_all(self) -> None:
        for room in self.rooms.values():
            room.resume()

    async def get(self, room_id: str) -> Room:
        room = self.rooms.get(room_id)
        if room is not None:
            return room
        room = self.finished.get(room_id)
        if room is not None:
            self.finished.move_to_end(room_id)
            return room

        def read() -> Any:
            with self.engine.connect() as conn:
                return store.load_room(conn, room_id)

        loaded = await asyncio.to_thread(read)
        if loaded is None:
            raise Rejected(f"no room {room_id!r}", 404)
        room = self.rooms.get(room_id) or self.finished.get(room_id)  # loaded meanwhile
        if room is None:
            room = self._restore(*loaded)
            if room.status == "over":
                del self.rooms[room.id]
                self._keep_finished(room)
            else:
                room.resume()
        return room

    async def create(self, spec: CreateRoom) -> tuple[Room, str, int | None, str | None]:
        rules, changes = build_rules(spec)
        players = rules.players if spec.players is None else spec.players
        seed = secrets.randbits(63)
        try:
            Match(rules, players=players, seed=seed, rounds=spec.rounds, points=spec.points)
        except BigTwoError as e:
            raise Rejected(str(e)) from None
        default = check_bot(spec.bot, default_bot())
        specs = spec.seats or []
        if specs and len(specs) != players:
            raise Rejected(f"seats lists {len(specs)} seats but the table has {players}")
        host_token = secrets.token_urlsafe(24)
        seat_token = None
        room_id = secrets.token_hex(5)
        seat_list = []
        for i in range(players):
            sp = specs[i] if specs else None
            if sp is not None and sp.kind == "bot":
                s = Seat(i, "bot", "", check_bot(sp.bot, default))
                s.name = bot_name(s)
            else:
                s = Seat(i, "open", "empty")
            seat_list.append(s)
        host_seat = None
        if spec.host_name:
            seat_token = secrets.token_urlsafe(24)
            host_seat = 0
            seat_list[0] = Seat(0, "person", spec.host_name, None, store.token_hash(seat_token))
        row = {
            "id": room_id,
            "name": spec.name or (f"{spec.host_name}'s table" if spec.host_name else f"table {room_id}"),
            "preset": spec.preset,
            "changes": changes,
            "rules": rules.to_dict(),
            "players": players,
            "rounds": spec.rounds,
            "points": spec.points,
            "seed": seed,
            "status": "waiting",
            "public": int(spec.public),
            "host_token": store.token_hash(host_token),
            "move_seconds": spec.move_seconds,
            "bot_delay": spec.bot_delay,
            "break_seconds": spec.break_seconds,
            "bot": default,
            "created_at": store.now(),
            "finished_at": None,
            "standings": None,
        }
        await self.journal.write(store.insert_room(row, [s.to_row(room_id) for s in seat_list]))
        room = Room(self, row, [s.to_row(room_id) for s in seat_list])
        self.rooms[room_id] = room
        return room, host_token, host_seat, seat_token

    def lobby(self, status: str | None = None) -> list[Room]:
        out = [
            r
            for r in self.rooms.values()
            if r.public and r.status in LIVE and (status is None or r.status == status) and not r.broken
        ]
        out.sort(key=lambda r: (r.status != "waiting", -r.created_at.timestamp() if r.created_at else 0))
        return out[:100]

    def stop(self) -> None:
        for room in self.rooms.values():
            room.stop()
