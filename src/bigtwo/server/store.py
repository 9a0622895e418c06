"""Reading and writing rooms, seats and actions; writes go through one journal that commits them in groups.

Every write a room makes (an accepted action, a seat change, a status change) is awaited until its transaction
has committed, and only then does the room tell anyone about it. Writes from all rooms that arrive while a
commit is in flight are committed together in the next transaction (group commit), so hundreds of tables
cost a handful of commits a second rather than one per card played.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.engine import Connection, Engine

from bigtwo.server.db import actions, listings, rooms, seats

log = logging.getLogger("bigtwo.server")
Write = Callable[[Connection], Any]


def now() -> datetime:
    return datetime.now(UTC)


def token_hash(token: str) -> str:
    """Secrets are stored hashed: a copy of the database does not let anyone act for a seat."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


# --- writes, as functions of a connection ---------------------------------------------------------------


def insert_room(room: dict[str, Any], seat_rows: list[dict[str, Any]]) -> Write:
    def run(conn: Connection) -> None:
        conn.execute(insert(rooms).values(**room))
        conn.execute(insert(seats), seat_rows)

    return run


def update_room(room_id: str, **values: Any) -> Write:
    def run(conn: Connection) -> None:
        conn.execute(update(rooms).where(rooms.c.id == room_id).values(**values))

    return run


def update_seat(room_id: str, seat: int, **values: Any) -> Write:
    def run(conn: Connection) -> None:
        conn.execute(update(seats).where(seats.c.room_id == room_id, seats.c.seat == seat).values(**values))

    return run


def together(writes: list[Write]) -> Write:
    """Several writes in one transaction (a host's change that touches seats and the room at once)."""

    def run(conn: Connection) -> None:
        for write in writes:
            write(conn)

    return run


@dataclass(frozen=True)
class ActionRow:
    """An accepted action to store; the journal inserts the rows of one commit in a single statement."""

    row: dict[str, Any]


def insert_action(room_id: str, seq: int, seat: int, answer: str, by: str) -> ActionRow:
    return ActionRow({"room_id": room_id, "seq": seq, "seat": seat, "answer": answer, "by": by, "at": now()})


def delete_actions(room_id: str, from_seq: int) -> Write:
    """Delete a room's actions from ``from_seq`` on (a turn taken back at a table of one person and bots)."""

    def run(conn: Connection) -> None:
        conn.execute(delete(actions).where(actions.c.room_id == room_id, actions.c.seq >= from_seq))

    return run


def delete_room(room_id: str) -> Write:
    def run(conn: Connection) -> None:
        conn.execute(delete(listings).where(listings.c.room_id == room_id))
        conn.execute(delete(actions).where(actions.c.room_id == room_id))
        conn.execute(delete(seats).where(seats.c.room_id == room_id))
        conn.execute(delete(rooms).where(rooms.c.id == room_id))

    return run


class Journal:
    """The single writer: ``await journal.write(fn)`` returns once ``fn``'s transaction has committed."""

    def __init__(self, engine: Engine, fence: Callable[[Connection, set[str]], None] | None = None):
        self.engine = engine
        # several processes on one database: refuses a batch with actions of a table this one no longer owns
        self.fence = fence
        self._pending: list[tuple[Write | ActionRow, asyncio.Future[None]]] = []
        self._wake: asyncio.Event | None = None
        self._task: asyncio.Task[None] | None = None
        self._pool: ThreadPoolExecutor | None = None
        self._busy: asyncio.Future[Any] | None = None  # the commit under way
        self.commits = 0
        self.writes = 0
        self.actions = 0  # accepted actions stored
        self.commit_seconds = 0.0

    def start(self) -> None:
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="bigtwo-journal")
        self._wake = asyncio.Event()
        self._task = asyncio.get_running_loop().create_task(self._run(), name="bigtwo-journal")

    async def stop(self) -> None:
        """Finish the writes under way, then stop (a later ``start`` begins again)."""
        if self._task is not None:
            while self._pending:
                await asyncio.sleep(0.01)
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        self._wake = None
        if self._pool is not None:
            self._pool.shutdown(wait=True)
            self._pool = None

    async def flush(self) -> None:
        """Wait until every write handed in so far has committed (or failed)."""
        while self._pending or (self._busy is not None and not self._busy.done()):
            await asyncio.sleep(0.01)

    async def write(self, fn: Write | ActionRow) -> None:
        if self._wake is None:  # not started (tools, tests): write at once
            self._commit([fn])
            return
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._pending.append((fn, fut))
        self._wake.set()
        await fut

    async def _run(self) -> None:
        assert self._wake is not None
        loop = asyncio.get_running_loop()
        while True:
            await self._wake.wait()
            self._wake.clear()
            batch, self._pending = self._pending, []
            if not batch:
                continue
            try:
                self._busy = loop.run_in_executor(self._pool, self._commit, [fn for fn, _ in batch])
                await self._busy
            except Exception:
                # one bad write must not sink the others: retry each in its own transaction
                for fn, fut in batch:
                    try:
                        await loop.run_in_executor(self._pool, self._commit, [fn])
                    except Exception as e:
                        log.exception("a database write failed")
                        if not fut.done():
                            fut.set_exception(e)
                    else:
                        if not fut.done():
                            fut.set_result(None)
                continue
            for _, fut in batch:
                if not fut.done():
                    fut.set_result(None)

    def _commit(self, items: list[Write | ActionRow]) -> None:
        """One transaction for a batch, in order; runs of action rows go in as one multi-row insert."""
        started = time.perf_counter()
        with self.engine.begin() as conn:
            if self.fence is not None:
                self.fence(conn, {item.row["room_id"] for item in items if isinstance(item, ActionRow)})
            rows: list[dict[str, Any]] = []
            for item in items:
                if isinstance(item, ActionRow):
                    rows.append(item.row)
                    continue
                if rows:
                    conn.execute(insert(actions), rows)
                    rows = []
                item(conn)
            if rows:
                conn.execute(insert(actions), rows)
        self.commits += 1
        self.writes += len(items)
        self.actions += sum(1 for item in items if isinstance(item, ActionRow))
        self.commit_seconds += time.perf_counter() - started


# --- reads ------------------------------------------------------------------------------------------------


def load_room(
    conn: Connection, room_id: str
) -> tuple[dict[str, Any], list[dict[str, Any]], list[dict[str, Any]]] | None:
    """A room's row, its seats and its actions in order (None when there is no such room)."""
    row = conn.execute(select(rooms).where(rooms.c.id == room_id)).mappings().first()
    if row is None:
        return None
    seat_rows = conn.execute(select(seats).where(seats.c.room_id == room_id).order_by(seats.c.seat)).mappings()
    action_rows = conn.execute(select(actions).where(actions.c.room_id == room_id).order_by(actions.c.seq)).mappings()
    return dict(row), [dict(r) for r in seat_rows], [dict(r) for r in action_rows]


def room_ids(conn: Connection, statuses: tuple[str, ...]) -> list[str]:
    return list(conn.execute(select(rooms.c.id).where(rooms.c.status.in_(statuses))).scalars())


def room_ages(conn: Connection, statuses: tuple[str, ...]) -> list[tuple[str, str, datetime | None]]:
    """(id, status, created_at) of the rooms in ``statuses``; the time is in UTC."""
    q = select(rooms.c.id, rooms.c.status, rooms.c.created_at).where(rooms.c.status.in_(statuses))
    return [(rid, status, as_utc(at)) for rid, status, at in conn.execute(q)]


def as_utc(at: datetime | None) -> datetime | None:
    """SQLite gives back naive times (stored in UTC), PostgreSQL aware ones."""
    if at is not None and at.tzinfo is None:
        return at.replace(tzinfo=UTC)
    return at


def delete_rooms(conn: Connection, room_ids_: list[str]) -> None:
    """Delete rooms never started (expired, or closed by their host); a finished room whose rematch one of them
    was names no rematch from then on (its people may ask for another)."""
    if room_ids_:
        conn.execute(delete(listings).where(listings.c.room_id.in_(room_ids_)))
        conn.execute(delete(actions).where(actions.c.room_id.in_(room_ids_)))
        conn.execute(delete(seats).where(seats.c.room_id.in_(room_ids_)))
        conn.execute(delete(rooms).where(rooms.c.id.in_(room_ids_)))
        conn.execute(update(rooms).where(rooms.c.rematch.in_(room_ids_)).values(rematch=None))


def finished_rooms(conn: Connection, limit: int, offset: int) -> list[dict[str, Any]]:
    q = (
        select(rooms)
        .where(rooms.c.status == "over", rooms.c.public == 1)
        .order_by(rooms.c.finished_at.desc(), rooms.c.id)
        .limit(limit)
        .offset(offset)
    )
    return [dict(r) for r in conn.execute(q).mappings()]


def seat_names(conn: Connection, room_ids_: list[str]) -> dict[str, list[dict[str, Any]]]:
    out: dict[str, list[dict[str, Any]]] = {rid: [] for rid in room_ids_}
    if room_ids_:
        q = select(seats).where(seats.c.room_id.in_(room_ids_)).order_by(seats.c.room_id, seats.c.seat)
        for r in conn.execute(q).mappings():
            out[r["room_id"]].append(dict(r))
    return out


def live_rooms_of(conn: Connection, address: str, statuses: tuple[str, ...]) -> int:
    """How many rooms ``address`` opened that are in ``statuses`` (every process's)."""
    q = select(func.count()).where(rooms.c.creator == address[:64], rooms.c.status.in_(statuses))
    return int(conn.execute(q).scalar_one())


def action_count(conn: Connection, room_id: str) -> int:
    return int(conn.execute(select(func.count()).where(actions.c.room_id == room_id)).scalar_one())


# --- the lobby every process sees (bigtwo.server.leases) --------------------------------------------------------


def write_listings(conn: Connection, shown: dict[str, tuple[dict[str, Any], datetime | None]], gone: list[str]) -> None:
    """Replace the listings of the tables ``shown`` (id -> summary, opened at) and delete those of ``gone``."""
    ids = [*shown, *gone]
    if ids:
        conn.execute(delete(listings).where(listings.c.room_id.in_(ids)))
    if shown:
        conn.execute(
            insert(listings),
            [{"room_id": rid, "status": s["status"], "created_at": at, "summary": s} for rid, (s, at) in shown.items()],
        )


def read_listings(conn: Connection, status: str | None, limit: int) -> list[dict[str, Any]]:
    """The lobby's tables, waiting ones first, the newest first."""
    q = select(listings.c.summary)
    if status is not None:
        q = q.where(listings.c.status == status)
    waiting_first = (listings.c.status != "waiting").asc()
    q = q.order_by(waiting_first, listings.c.created_at.desc().nulls_last(), listings.c.room_id).limit(limit)
    return [dict(s) for s in conn.execute(q).scalars()]
