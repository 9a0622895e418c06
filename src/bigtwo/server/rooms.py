"""The registry of rooms: every room the server holds, and the limits on them.

:class:`Rooms` opens tables (checked by :mod:`bigtwo.server.setup`, built as :class:`~bigtwo.server.room.Room`),
finds them (reading a finished one back from the database), reloads the unfinished ones after a restart, and
keeps the limits: rooms in total and per client address (and per minute), WebSockets per room and per address,
tables of bots alone (counted by the people actually connected), tables never started (they expire), and
tables in play that everyone left (the server plays them out).

Several processes on one PostgreSQL (:mod:`bigtwo.server.leases`): each holds the tables it serves under a lease,
takes a table it is asked for from its owner (or from nobody, when the owner died), adopts the unfinished tables
nobody holds, writes its public tables to the lobby every process lists, and counts the per-address limits in the
database (:mod:`bigtwo.server.shared`). The limits on a process's own load (tables in memory, tables of bots
alone, views read a second, sockets open) stay per process: they protect that process."""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import time
from collections import Counter, OrderedDict
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy.engine import Engine

from bigtwo.bots.named import register_spec
from bigtwo.bots.registry import cannot_play
from bigtwo.rules.ruleset import load_rules
from bigtwo.server import ratings, store
from bigtwo.server.botpool import BotPool
from bigtwo.server.connections import RateLimit
from bigtwo.server.leases import Leases
from bigtwo.server.messages import CreateRoom, QuickMatch
from bigtwo.server.referee import Rejected, Seat, SeatKind
from bigtwo.server.room import Room, finish_write
from bigtwo.server.settings import Settings
from bigtwo.server.setup import (
    available_bots,
    person_name,
    plan_table,
    table_seats,
)
from bigtwo.server.shared import DatabaseWindow, LocalWindow, Window, sweep_events
from bigtwo.words import plural

log = logging.getLogger("bigtwo.server")

__all__ = ["Rooms"]

LIVE = ("waiting", "playing", "paused")
FINISHED_KEPT = 64  # finished rooms kept in memory for their records and replays (the rest are read again)
RATED_MOVE_SECONDS = 60  # a rated table's move clock when it asks for none (a player away is played out)
READ_PACES_KEPT = 10_000  # addresses whose pace of reading views is remembered
LEASE_TICK = 0.5  # seconds between looks at the leases (hand-overs asked for, tables nobody holds)
# a table stays at least this long with the process that took it before it is handed over again: requests that
# reach two processes by turns (a proxy not routing by table) move it at most once in this time, not per request
HOLD_SECONDS = 2.0
ADOPT_AT_ONCE = 16  # tables nobody holds taken at one look (the others at the next ones, or by other processes)
MOVED = "this table moved to another server process: reconnecting"


class Rooms:
    """Every room the server knows, the database behind them, the journal all writes go through, and the limits
    on rooms and sockets. ``clock`` (monotonic seconds) and ``now`` (UTC wall time) are injectable."""

    def __init__(
        self,
        engine: Engine,
        settings: Settings | None = None,
        clock: Callable[[], float] = time.monotonic,
        now: Callable[[], datetime] = store.now,
        seeds: Callable[[], int] | None = None,
        leases: Leases | None = None,
    ):
        """``leases``: this process shares the database with others (PostgreSQL); None: it is the only one."""
        self.engine = engine
        self.leases = leases
        self.settings = settings or Settings()
        self.clock = clock
        self.now = now
        self.new_seed: Callable[[], int] = seeds or (lambda: secrets.randbits(63))  # each new table's deal
        self.journal = store.Journal(engine, fence=leases.fence if leases is not None else None)
        for name, spec in self.settings.bots.items():  # the operator's own bots, offered beside the built-in ones
            register_spec(name, spec)
        s = self.settings
        self.bots = BotPool(s.bot_workers, s.bot_budget_ms, s.bots, job_seconds=s.bot_job_seconds)
        self.rooms: dict[str, Room] = {}  # live rooms, and finished ones someone is still looking at
        self.finished: OrderedDict[str, Room] = OrderedDict()  # the most recently used finished rooms
        # per address: when it opened its recent rooms, and when its recent WebSockets were admitted
        self.opened: Window
        self.connected: Window
        if leases is not None:
            self.opened = DatabaseWindow(engine, "tables-opened", 60)
            self.connected = DatabaseWindow(engine, "connections", 60)
        else:
            self.opened = LocalWindow(60, clock)
            self.connected = LocalWindow(60, clock)
        self.sockets: Counter[str] = Counter()  # open WebSockets per address
        self.room_sockets: Counter[Any] = Counter()  # open WebSockets per room id, and per (room id, address)
        self.pending: Counter[str] = Counter()  # tables being stored, per address
        self.reads: OrderedDict[str, RateLimit] = OrderedDict()  # per address: its pace of reading views
        self.expired = 0
        self.draining = False  # shutting down: no table is taken any more
        self.claiming: dict[str, asyncio.Future[None]] = {}  # tables whose lease this process is taking
        self.claimed_at: dict[str, float] = {}  # when this process took each table it holds (monotonic)
        self.to_release: set[str] = set()  # tables let go, whose leases the next look deletes
        self.listed: dict[str, str] = {}  # the lobby listing last written for each table (JSON)
        self.takeovers = 0  # tables taken from another process or from nobody

    # --- loading ---------------------------------------------------------------------------------------------
    def load_live(self) -> int:
        """Rebuild every unfinished room (at start, before serving): a restart resumes each game. Tables never
        started that have expired are deleted instead. With leases, tables are adopted instead (:meth:`adopt`):
        another process may be serving them."""
        if self.leases is not None:
            return 0
        cutoff = self.now() - timedelta(minutes=self.settings.waiting_room_minutes)
        with self.engine.begin() as conn:
            ages = store.room_ages(conn, LIVE)
            stale = [rid for rid, status, at in ages if status == "waiting" and at is not None and at < cutoff]
            store.delete_rooms(conn, stale)
        self.expired += len(stale)
        if stale:
            log.info("deleted %d tables that were never started", len(stale))
        count = 0
        ended: list[Room] = []
        with self.engine.connect() as conn:
            for rid, _, _ in ages:
                if rid in stale:
                    continue
                loaded = store.load_room(conn, rid)
                if loaded is not None:
                    room = self._restore(*loaded)
                    count += 1
                    if room.status == "over":  # its last move was stored, its end was not: end it now
                        ended.append(room)
        for room in ended:
            if room.finished_at is None:
                room.ref.finished_at = self.now()
            with self.engine.begin() as conn:
                finish_write(room.ref)(conn)
            log.info("room %s: the match had ended before the restart; its results are stored now", room.id)
        return count

    def _restore(self, row: dict[str, Any], seat_rows: list[dict[str, Any]], action_rows: list[dict[str, Any]]) -> Room:
        room = Room(self, row, seat_rows)
        room.creator = row.get("creator")
        room.ref.replay(action_rows)
        self.rooms[room.id] = room
        return room

    def release(self, room: Room) -> None:
        """Let go of a finished room nobody is watching: it moves to a small cache of recent finished rooms, and
        past that lives only in the database, where :meth:`get` reads it again when asked (its record, its last
        view). A server that runs for months keeps its live games in memory, not every game it ever had."""
        if room.status == "over" and not room.conns and self.rooms.get(room.id) is room:
            del self.rooms[room.id]
            self._keep_finished(room)

    def forget(self, room: Room) -> None:
        """A room deleted from the database leaves memory too (its id then reads as no such room)."""
        if self.rooms.get(room.id) is room:
            del self.rooms[room.id]
            self._let_go(room.id)

    def _keep_finished(self, room: Room) -> None:
        self.finished[room.id] = room
        self.finished.move_to_end(room.id)
        while len(self.finished) > FINISHED_KEPT:
            old, _ = self.finished.popitem(last=False)
            self._let_go(old)

    def _let_go(self, room_id: str) -> None:
        """A table this process no longer keeps: its lease goes at the next look (another process may take it)."""
        self.claimed_at.pop(room_id, None)
        if self.leases is not None:
            self.to_release.add(room_id)

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

        if self.leases is not None:
            await self._take(room_id)
            room = self.rooms.get(room_id) or self.finished.get(room_id)  # loaded meanwhile
            if room is not None:
                return room
        loaded = await asyncio.to_thread(read)
        if loaded is None:
            self._let_go(room_id)
            raise Rejected(f"no room {room_id!r}", 404)
        room = self.rooms.get(room_id) or self.finished.get(room_id)  # loaded meanwhile
        if room is None:
            room = self._restore(*loaded)
            if room.status == "over":
                if loaded[0]["status"] in LIVE:  # its last move was stored, its end was not (its owner died)
                    await self._store_end(room)
                del self.rooms[room.id]
                self._keep_finished(room)
            else:
                room.resume()
        return room

    async def _store_end(self, room: Room) -> None:
        if room.finished_at is None:
            room.ref.finished_at = self.now()
        await self.journal.write(finish_write(room.ref))
        log.info("room %s: the match had ended before it was taken over; its results are stored now", room.id)

    # --- leases (several processes) ----------------------------------------------------------------------------
    async def _take(self, room_id: str) -> None:
        """Hold ``room_id``'s lease: take it when free or expired, else ask its owner to hand it over and wait
        (at most the lease time and a little: by then the owner handed it over or stopped renewing it).
        Refused (503, in words) while this process shuts down, or when the owner neither answers nor expires."""
        assert self.leases is not None
        if self.draining:
            raise Rejected("this server process is restarting: try again in a moment", 503)
        under_way = self.claiming.get(room_id)
        if under_way is not None:
            await asyncio.shield(under_way)
            return
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.claiming[room_id] = done
        try:
            deadline = time.monotonic() + self.leases.seconds + 2
            asked = False
            while True:
                held, where = await asyncio.to_thread(self.leases.claim, room_id)
                if held:
                    self.claimed_at[room_id] = time.monotonic()
                    self.to_release.discard(room_id)
                    self.takeovers += 1
                    return
                if where is None:
                    raise Rejected(f"no room {room_id!r}", 404)
                if not asked:
                    await asyncio.to_thread(self.leases.ask, room_id)
                    asked = True
                if time.monotonic() > deadline or self.draining:
                    raise Rejected(f"this table is served by another server process ({where}): try again", 503)
                await asyncio.sleep(0.1)
        finally:
            self.claiming.pop(room_id, None)
            done.set_result(None)

    async def drop(self, room_id: str, reason: str = MOVED) -> None:
        """Let a table go to another process: its clocks stop, the writes under way finish (under its lock), and
        its clients are told to reconnect (they reach the new owner)."""
        room = self.rooms.pop(room_id, None) or self.finished.pop(room_id, None)
        self.claimed_at.pop(room_id, None)
        self.listed.pop(room_id, None)  # the new owner lists it
        if room is not None:
            async with room.lock:
                room.moved(reason)

    async def adopt(self) -> int:
        """Take the unfinished tables nobody holds (their owner died, or shut down) and those handed to this
        process, a few at a time. Returns how many were taken."""
        if self.leases is None or self.draining:
            return 0
        taken = 0
        for rid in await asyncio.to_thread(self.leases.orphans, ADOPT_AT_ONCE):
            if rid in self.rooms or rid in self.finished or rid in self.claiming:
                continue
            try:
                await self.get(rid)
                taken += 1
            except Rejected:
                continue
        if taken:
            log.info("took over %d tables nobody was serving", taken)
        return taken

    async def keep_leases(self) -> None:
        """Renew this process's leases (every third of the lease time), hand over the tables other processes ask
        for, adopt the tables nobody holds, let go of those released, and write the lobby's listings."""
        assert self.leases is not None
        leases = self.leases
        renewed = 0.0
        while True:
            try:
                started = time.monotonic()
                if started - renewed >= leases.seconds / 3:
                    held = await asyncio.to_thread(leases.renew)
                    renewed = started
                    for rid, at in list(self.claimed_at.items()):
                        if rid not in held and at < started and rid not in self.claiming:
                            log.warning("room %s: its lease was taken over by another process", rid)
                            await self.drop(rid)
                for rid, by in await asyncio.to_thread(leases.wanted):
                    if by == leases.owner or rid in self.claiming:
                        continue
                    held_since = self.claimed_at.get(rid)
                    if held_since is not None and time.monotonic() - held_since < HOLD_SECONDS:
                        continue  # taken a moment ago: handed over at a later look (a table never bounces)
                    await self.drop(rid)
                    await asyncio.to_thread(leases.hand_over, rid, by)
                    log.info("room %s: handed over to the process that was asked for it", rid)
                await self.adopt()
                if self.to_release:
                    gone, self.to_release = list(self.to_release), set()
                    await asyncio.to_thread(leases.release, [g for g in gone if g not in self.claimed_at])
                await self.write_listings()
            except Exception:
                log.exception("could not look after the leases")
            await asyncio.sleep(LEASE_TICK)

    async def write_listings(self) -> None:
        """Write the summaries of this process's public unfinished tables that changed since last written (and
        delete those of its tables that left the lobby), so every process's lobby lists them."""
        shown: dict[str, tuple[dict[str, Any], datetime | None]] = {}
        current: set[str] = set()
        for room in self.rooms.values():
            if not (room.public and room.status in LIVE and not room.broken):
                continue
            current.add(room.id)
            summary = room._listed if room.lock.locked() and room._listed is not None else room.summary()
            text = json.dumps(summary, sort_keys=True)
            if self.listed.get(room.id) != text:
                shown[room.id] = (summary, room.created_at)
                self.listed[room.id] = text
        gone = [rid for rid in self.listed if rid not in current]
        for rid in gone:
            del self.listed[rid]
        if shown or gone:
            await asyncio.to_thread(self._write_listings, shown, gone)

    def _write_listings(self, shown: dict[str, tuple[dict[str, Any], datetime | None]], gone: list[str]) -> None:
        with self.engine.begin() as conn:
            store.write_listings(conn, shown, gone)

    async def drain(self, reason: str = "the server is restarting: reconnecting") -> int:
        """Shut down without losing a table: take no more, stop every table's clocks, finish the writes under
        way, tell every client to reconnect (the page does, and reaches another process), and let every lease
        go so another process takes each table at once. Returns how many tables were let go."""
        self.draining = True
        held = [*self.rooms.values(), *self.finished.values()]
        for room in held:
            async with room.lock:
                room.stop()
        await self.journal.flush()
        told = [conn for room in held for conn in room.conns]
        for room in held:
            room.moved(reason)
        # the goodbyes go out before the server closes what is left (with its own code, which the page does not
        # take for a move): each reaches a reading client within the close timeout, one that does not read is
        # not waited for longer
        waits = [asyncio.ensure_future(conn.gone.wait()) for conn in told if not conn.gone.is_set()]
        if waits:
            longest = max(conn.limits.close_timeout_seconds for conn in told)
            _, pending = await asyncio.wait(waits, timeout=longest)
            for w in pending:
                w.cancel()
        self.rooms.clear()
        self.finished.clear()
        self.claimed_at.clear()
        if self.leases is not None:
            await asyncio.to_thread(self.leases.release_all)
        log.info("let go of %d tables", len(held))
        return len(held)

    # --- limits ----------------------------------------------------------------------------------------------
    def live(self) -> list[Room]:
        return [r for r in self.rooms.values() if r.status in LIVE]

    async def check_can_open(self, address: str) -> None:
        """Refuse (429, in words) an address that opened too many tables, or any when the server is full. With
        several processes, the address's tables and its pace are counted in the database (every process's)."""
        if self.leases is None:
            self._check_can_open(address, None)
            return
        mine, wait = await asyncio.to_thread(self._shared_counts, address)
        self._check_can_open(address, (mine, wait))

    def _shared_counts(self, address: str) -> tuple[int, tuple[int, float]]:
        with self.engine.connect() as conn:
            mine = store.live_rooms_of(conn, address, LIVE)
        return mine, (self.opened.count(address), self.opened.wait_seconds(address))

    def _check_can_open(self, address: str, shared: tuple[int, tuple[int, float]] | None) -> None:
        s = self.settings
        live = self.live()
        if len(live) + sum(self.pending.values()) >= s.max_rooms:
            raise Rejected(
                f"the server is full ({plural(s.max_rooms, 'table')} not yet finished): try again later", 503
            )
        if shared is None:
            mine = sum(1 for r in live if r.creator == address) + self.pending[address]
            recent, wait_s = self.opened.count(address), self.opened.wait_seconds(address)
        else:
            mine = shared[0] + self.pending[address]
            recent, wait_s = shared[1]
        if mine >= s.rooms_per_address:
            raise Rejected(
                f"you have {plural(mine, 'table')} not yet finished, the most one address may have: close one not "
                f"yet started (its page has a Close button for its host), or finish one; a table nobody starts "
                f"closes by itself {plural(s.waiting_room_minutes, 'minute')} after it was opened",
                429,
            )
        if recent >= s.rooms_per_address_per_minute:
            wait = int(wait_s) + 1
            opened = plural(recent, "table")
            raise Rejected(f"you opened {opened} in the last minute, the most allowed: try again in {wait} s", 429)

    def check_bot_tables(self, room: Room) -> None:
        """Refuse a table of bots alone past the server's limit (they would take people's tables' time)."""
        limit = self.settings.max_bot_tables
        running = sum(1 for r in self.rooms.values() if r is not room and r.status == "playing" and r.ref.bots_alone)
        if running >= limit:
            raise Rejected(
                f"the server already runs {plural(running, 'table')} of bots alone, the most it allows: seat a person, "
                "or try later",
                429,
            )

    async def admit_connection(self, address: str) -> str | None:
        """Why a new WebSocket from ``address`` is refused before any table is looked up (None: it may go on).

        Counts admitted connections in a sliding minute, at most the limit of them, so a client that reconnects
        flat out costs a refusal each time and no memory (with several processes, in the database: every
        process counts the same connections)."""
        if self.leases is None:
            return self._admit_connection(address)
        return await asyncio.to_thread(self._admit_connection, address)

    def _admit_connection(self, address: str) -> str | None:
        limit = self.settings.sockets_per_address_per_minute
        if self.connected.count(address) >= limit:
            wait = int(self.connected.wait_seconds(address)) + 1
            opened = plural(limit, "connection")
            return f"your address opened {opened} in the last minute, the most allowed: try again in {wait} s"
        self.connected.add(address)
        return None

    def admit_socket(self, room: Room, address: str) -> str | None:
        """Why a new WebSocket from ``address`` to ``room`` is refused (None: it is admitted, and counted). A new
        socket watches until it says hello with a seat's token: watchers are capped per table and per address
        there (each view sent costs the server a write per watcher), with room kept for every seat whose player
        is not connected, so a crowd of watchers never keeps a player from their seat."""
        s = self.settings
        # counted from admission (not from attaching, which waits for the table's lock): sockets admitted at once
        # are all counted
        here = self.room_sockets[room.id]
        if here >= s.sockets_per_room:
            return f"this table has {plural(here, 'connection')}, the most allowed: try again later"
        if self.sockets[address] >= s.sockets_per_address:
            return f"your address has {plural(self.sockets[address], 'connection')} open, the most allowed: close some"
        free = sum(1 for seat in room.seats if seat.kind == SeatKind.PERSON and not room.connected(seat.seat))
        seated = [c for c in room.conns if c.seat is not None]
        watching = here - len(seated)
        if watching >= s.spectators_per_room + free:
            return f"this table has {plural(watching, 'spectator')}, the most allowed: try again later"
        mine = self.room_sockets[(room.id, address)] - sum(1 for c in seated if c.address == address)
        if mine >= s.spectators_per_address + free:
            return f"your address watches this table {plural(mine, 'time')} over, the most allowed: close some"
        self.sockets[address] += 1
        self.room_sockets[room.id] += 1
        self.room_sockets[(room.id, address)] += 1
        return None

    def admit_read(self, address: str) -> None:
        """Refuse (429, in words) an address reading table views faster than ``views_per_second``."""
        s = self.settings
        pace = self.reads.get(address)
        if pace is None:
            pace = self.reads[address] = RateLimit(s.views_per_second, s.view_burst, self.clock)
            while len(self.reads) > READ_PACES_KEPT:  # many addresses: the least recently seen are forgotten
                self.reads.popitem(last=False)
        self.reads.move_to_end(address)
        if not pace.take():
            raise Rejected(f"too many table views: at most {s.views_per_second:g} a second from one address", 429)

    def socket_closed(self, address: str, room: Room | None = None) -> None:
        keys: list[Any] = [address]
        if room is not None:
            keys += [room.id, (room.id, address)]
        for counts, key in zip((self.sockets, self.room_sockets, self.room_sockets), keys, strict=False):
            counts[key] -= 1
            if counts[key] <= 0:
                del counts[key]

    async def sweep(self) -> int:
        """Close and delete the tables never started within ``waiting_room_minutes``. Returns how many."""
        cutoff = self.now() - timedelta(minutes=self.settings.waiting_room_minutes)
        stale = [
            r
            for r in self.rooms.values()
            if r.status == "waiting" and (at := store.as_utc(r.created_at)) is not None and at < cutoff
        ]
        if not stale:
            return 0
        ids = [r.id for r in stale]
        await self.journal.write(lambda conn: store.delete_rooms(conn, ids))
        minutes = plural(self.settings.waiting_room_minutes, "minute")
        for room in stale:
            if self.rooms.get(room.id) is room and room.status == "waiting":
                del self.rooms[room.id]
                self._let_go(room.id)
                room.close(f"this table was closed: nobody started it within {minutes}")
        self.expired += len(stale)
        log.info("closed %d tables that were never started", len(stale))
        await self.unlink_rematches(ids)
        return len(stale)

    async def unlink_rematches(self, deleted: list[str]) -> None:
        """Rooms deleted before they started (expired, or closed by their host) that were the rematch of a finished
        room: that room names no rematch now (the database's was cleared with the deletion), so nobody is sent
        to a table that is gone, and its people may ask for another (afresh: the old requests were answered)."""
        gone = set(deleted)
        for room in [*self.rooms.values(), *self.finished.values()]:
            if room.ref.next_room in gone:
                async with room.lock:
                    if room.ref.next_room in gone:
                        room.ref.next_room = None
                        room.ref.rematch_votes.clear()
                        room.broadcast()

    async def play_out_abandoned(self) -> int:
        """Tables in play (or paused) with no seated person connected for ``idle_table_minutes`` (spectators do not
        count: watching cannot hold a table open for ever): the server makes each absent person's move (after
        ``abandoned_move_seconds``), so they finish, are recorded, and stop counting against ``max_rooms``. A
        seated person connecting gives the table back to its people. Returns how many were taken over."""
        s = self.settings
        cutoff = self.clock() - s.idle_table_minutes * 60
        idle = [
            r
            for r in self.rooms.values()
            if r.status in ("playing", "paused")
            and r.idle_since is not None
            and r.idle_since <= cutoff
            and r.ref.abandoned_move_seconds is None
        ]
        for room in idle:
            await room.play_out(s.abandoned_move_seconds)
        if idle:
            log.info(
                "playing out %d tables no seated person was connected to for %g minutes",
                len(idle),
                s.idle_table_minutes,
            )
        return len(idle)

    async def sweeper(self) -> None:
        """Sweep now and then (every tenth of the expiry times, at most a minute apart)."""
        every = min(60.0, self.settings.waiting_room_minutes * 6, self.settings.idle_table_minutes * 6)
        while True:
            await asyncio.sleep(every)
            try:
                await self.sweep()
                await self.play_out_abandoned()
                if self.leases is not None:
                    await asyncio.to_thread(self.sweep_shared)
            except Exception:
                log.exception("could not close the expired tables")

    # --- opening ---------------------------------------------------------------------------------------------
    async def create(
        self, spec: CreateRoom, address: str = "", account: tuple[int, str] | None = None
    ) -> tuple[Room, str, int | None, str | None]:
        """Open a table. Everything is checked, and the room built in memory, before anything is stored. A
        signed-in host (``account``: id and username) takes seat 0 as themselves when ``host_name`` is given."""
        await self.check_can_open(address)
        plan = plan_table(spec, self.settings, account is not None, self.new_seed)
        rules, changes, players, seed, default = plan.rules, plan.changes, plan.players, plan.seed, plan.bot
        host_token = secrets.token_urlsafe(24)
        seat_token = None
        room_id = secrets.token_hex(5)
        host: Seat | None = None  # the host takes seat 0, and the bots are named around them
        host_seat = None
        if spec.host_name:
            seat_token = secrets.token_urlsafe(24)
            host_seat = 0
            if account is not None:
                host = Seat(0, SeatKind.PERSON, account[1], None, store.token_hash(seat_token), account[0])
            else:
                host = Seat(0, SeatKind.PERSON, person_name(spec.host_name), None, store.token_hash(seat_token))
        seat_list = table_seats(spec, players, rules, default, host)
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
            # a rated table keeps a move clock: a player who leaves is played out when their time runs out
            "move_seconds": spec.move_seconds or (RATED_MOVE_SECONDS if spec.rated else 0),
            "bot_delay": spec.bot_delay,
            "break_seconds": spec.break_seconds,
            "bot": default,
            "created_at": self.now(),
            "finished_at": None,
            "standings": None,
            "rated": int(spec.rated),
            "creator": address[:64],
        }
        seat_rows = [s.to_row(room_id) for s in seat_list]
        room = Room(self, row, seat_rows)
        room.creator = address
        if host_seat is not None:
            room.ref.seated_at[host_seat] = self.clock()
        try:  # what will be stored and shown must be shown to anyone without failing
            json.dumps(room.summary(), allow_nan=False).encode("utf-8")
            json.dumps(row["rules"], allow_nan=False).encode("utf-8")
        except (ValueError, UnicodeEncodeError) as e:
            raise Rejected(f"this table cannot be shown as it is: {e}", 422) from None
        # counted from here on (no await since the check), so tables opened meanwhile cannot pass the limits
        self.pending[address] += 1
        try:
            await self._opened(address)
            await self.journal.write(store.together([store.insert_room(row, seat_rows), self._lease(room_id)]))
        finally:
            self.pending[address] -= 1
            if not self.pending[address]:
                del self.pending[address]
        self._hold(room)
        return room, host_token, host_seat, seat_token

    async def rematch(self, old: Room, address: str) -> str:
        """Open the rematch of a finished room: its rules, length, clocks and seats (people keep their names and
        secrets, bots their strengths), a new deal. Counted against the asking address's limits like any table."""
        await self.check_can_open(address)
        ref = old.ref
        room_id = secrets.token_hex(5)
        seat_rows = [Seat(s.seat, s.kind, s.name, s.bot, s.token, s.account).to_row(room_id) for s in ref.seats]
        row = {
            "id": room_id,
            "name": ref.name,
            "preset": ref.preset,
            "changes": ref.changes,
            "rules": ref.rules.to_dict(),
            "players": ref.players,
            "rounds": ref.rounds,
            "points": ref.points,
            "seed": self.new_seed(),
            "status": "waiting" if any(s.kind == SeatKind.OPEN for s in ref.seats) else "playing",
            "public": int(ref.public),
            "host_token": ref.host_token,
            "move_seconds": ref.move_seconds,
            "bot_delay": ref.bot_delay,
            "break_seconds": ref.break_seconds,
            "bot": ref.bot,
            "created_at": self.now(),
            "finished_at": None,
            "standings": None,
            "rematch": None,
            "rated": int(ref.rated),
            "creator": address[:64],
        }
        room = Room(self, row, seat_rows)
        room.creator = address
        self.pending[address] += 1
        try:
            await self._opened(address)
            await self.journal.write(
                store.together(
                    [
                        store.insert_room(row, seat_rows),
                        store.update_room(old.id, rematch=room_id),
                        self._lease(room_id),
                    ]
                )
            )
        finally:
            self.pending[address] -= 1
            if not self.pending[address]:
                del self.pending[address]
        self._hold(room)
        room.resume()
        return room_id

    async def quick_match(
        self, spec: QuickMatch, account: tuple[int, str] | None, address: str = ""
    ) -> tuple[Room, str, int | None, str | None]:
        """A table started at once: the person at seat 0, bots of the chosen rating band at the others (the
        closest ratings to the person's first, each bot as often as needed). Rated for an account; a guest
        (``account`` None, named by ``spec.name``) plays it unrated, matched as a newcomer would be."""
        guest = None
        if account is None:
            guest = (spec.name or "").strip()
            if not guest:
                raise Rejected("type your name to play a quick match as a guest (or sign in for a rated one)", 422)
        family = ratings.family_of(spec.preset)
        if family is None:
            raise Rejected(f"no rated preset named {spec.preset!r}; presets: {', '.join(ratings.FAMILIES)}", 422)
        rules = load_rules(spec.preset)
        players = rules.players

        def read() -> tuple[float, dict[str, float]]:
            with self.engine.connect() as conn:
                me = f"account:{account[0]}" if account is not None else "guest:"  # a guest: a newcomer's rating
                mine = ratings.rating_of(conn, me, family)["rating"]
                theirs = {
                    name: ratings.rating_of(conn, f"bot:{name}", family)
                    for name in available_bots()
                    if cannot_play(name, rules, players) is None
                }
            # a bot that has played no rated game here shows a newcomer's rating whatever its strength (a search
            # would sit in a beginner's band): once some bots are rated, only those are matched
            rated = {name: r["rating"] for name, r in theirs.items() if r["matches"] > 0}
            return mine, rated or {name: r["rating"] for name, r in theirs.items()}

        mine, bots = await asyncio.to_thread(read)
        band = self.settings.quick_match_band
        fits = {
            "any": lambda r: True,
            "weaker": lambda r: r <= mine,
            "level": lambda r: abs(r - mine) <= band,
            "stronger": lambda r: r >= mine,
        }[spec.band]
        chosen = sorted((abs(r - mine), name) for name, r in bots.items() if fits(r))
        if not chosen:
            listed = ", ".join(f"{n} {r:.1f}" for n, r in sorted(bots.items(), key=lambda x: x[1]))
            raise Rejected(
                f"no bot is rated in the band {spec.band!r} around your {mine:.1f} in {ratings.FAMILY_NAMES[family]} "
                f"(bots: {listed}): choose another band",
                409,
            )
        seats = [{"kind": "open"}] + [{"kind": "bot", "bot": chosen[i % len(chosen)][1]} for i in range(players - 1)]
        who = account[1] if account is not None else str(guest)
        create = CreateRoom.model_validate(
            {
                "name": f"{who}'s quick match",
                "preset": spec.preset,
                "rounds": spec.rounds,
                "seats": seats,
                "host_name": who,
                "move_seconds": spec.move_seconds,
                "bot_delay": spec.bot_delay,
                "break_seconds": spec.break_seconds,
                "bot": chosen[0][1],
                "rated": account is not None,
            }
        )
        room, host_token, seat, token = await self.create(create, address, account)
        await room.start(host_token, fill_with_bots=False)
        return room, host_token, seat, token

    async def _opened(self, address: str) -> None:
        """Count a table opened by ``address`` (in the database when shared)."""
        if self.leases is None:
            self.opened.add(address)
        else:
            await asyncio.to_thread(self.opened.add, address)

    def _lease(self, room_id: str) -> store.Write:
        """A new table's lease, taken in the transaction that stores it (nothing to take with one process)."""
        leases = self.leases

        def run(conn: Any) -> None:
            if leases is not None and not leases.claim_in(conn, room_id):
                raise RuntimeError(f"room {room_id}: a new table's lease was taken by another process")

        return run

    def _hold(self, room: Room) -> None:
        self.rooms[room.id] = room
        if self.leases is not None:
            self.claimed_at[room.id] = time.monotonic()

    async def lobby_listing(self, status: str | None = None) -> list[dict[str, Any]]:
        """The lobby's tables as listed: this process's own (one process), or every process's (several)."""
        if self.leases is None:
            out = []
            for r in self.lobby(status):
                try:  # one table that cannot be shown must not hide the others
                    out.append(await r.listed())  # a table busy storing a move is listed as last shown
                except Exception:
                    log.exception("room %s cannot be listed", r.id)
            return out

        def read() -> list[dict[str, Any]]:
            with self.engine.connect() as conn:
                return store.read_listings(conn, status, 100)

        return await asyncio.to_thread(read)

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
        self.bots.stop()

    def sweep_shared(self) -> None:
        """Delete the shared limits' events older than every window (one process among many does it now and
        then; any may)."""
        s = self.settings
        sweep_events(self.engine, max(3600.0, s.login_window_minutes * 60.0, 60.0))
