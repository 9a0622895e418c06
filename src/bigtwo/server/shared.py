"""Counters that every server process sees: the sliding windows behind the per-address and per-username limits,
and the addresses each username signed in from.

One process keeps them in memory (:class:`LocalWindow`, :class:`LocalKnown`): fast, and forgotten at a restart.
Several processes on one PostgreSQL keep them in the database (:class:`DatabaseWindow`, :class:`DatabaseKnown`),
so N processes enforce the same limits as one: an address refused by one process is refused by every other.
A database window's events are rows ``(key, at)``: a count is one indexed query, an event one insert, and the
events that left the window are deleted as the key is counted (the sweeper deletes those of keys not seen again),
so the table holds at most the limit's worth of rows per key. Times there are Unix seconds (the processes share
wall time, not a monotonic clock).

Each method is synchronous (a database round trip): call a database window off the event loop.
"""

from __future__ import annotations

import hashlib
import time
from collections import OrderedDict, deque
from collections.abc import Callable
from typing import Protocol

from sqlalchemy import and_, delete, func, insert, select
from sqlalchemy.engine import Engine

from bigtwo.server.db import known_addresses, limit_events

PRUNE_AT = 10_000  # keys remembered in memory before the stale ones are dropped
KEY_BYTES = 120


class Window(Protocol):
    """Events per key in a sliding window of ``seconds``."""

    seconds: float

    def count(self, key: str) -> int: ...

    def add(self, key: str) -> None: ...

    def clear(self, key: str) -> None: ...

    def wait_seconds(self, key: str) -> float:
        """Seconds until the oldest event of ``key`` leaves the window (0: none in it)."""
        ...

    def wait(self, key: str) -> int:
        """Whole minutes until the oldest event of ``key`` leaves the window."""
        ...


class Known(Protocol):
    """The addresses each username last signed in (or up) from, a few per username."""

    def add(self, key: str, address: str) -> None: ...

    def __contains__(self, pair: tuple[str, str]) -> bool: ...


def _minutes(seconds: float) -> int:
    return max(1, round(seconds / 60 + 0.49))


class LocalWindow:
    """A window in this process's memory (one process; a restart forgets it)."""

    def __init__(self, seconds: float, clock: Callable[[], float] = time.monotonic):
        self.seconds = seconds
        self.clock = clock
        self.events: dict[str, deque[float]] = {}

    def count(self, key: str) -> int:
        q = self.events.get(key)
        if q is None:
            return 0
        cutoff = self.clock() - self.seconds
        while q and q[0] <= cutoff:
            q.popleft()
        if not q:
            del self.events[key]
            return 0
        return len(q)

    def wait_seconds(self, key: str) -> float:
        q = self.events.get(key)
        if not q:
            return 0.0
        return max(0.0, q[0] + self.seconds - self.clock())

    def wait(self, key: str) -> int:
        return _minutes(self.wait_seconds(key)) if self.events.get(key) else 0

    def add(self, key: str) -> None:
        if len(self.events) >= PRUNE_AT:  # many keys (an attacker's guessed usernames): drop the stale ones
            for k in list(self.events):
                self.count(k)
        self.events.setdefault(key, deque()).append(self.clock())

    def clear(self, key: str) -> None:
        self.events.pop(key, None)


class LocalKnown:
    """Known addresses in memory. Bounded: ``per_key`` addresses a username, ``max_keys`` usernames (the least
    recently used forgotten first)."""

    def __init__(self, per_key: int = 8, max_keys: int = PRUNE_AT):
        self.per_key = per_key
        self.max_keys = max_keys
        self.seen: OrderedDict[str, deque[str]] = OrderedDict()

    def add(self, key: str, address: str) -> None:
        q = self.seen.pop(key, None) or deque(maxlen=self.per_key)
        if address in q:
            q.remove(address)
        q.append(address)
        self.seen[key] = q
        while len(self.seen) > self.max_keys:
            self.seen.popitem(last=False)

    def __contains__(self, pair: tuple[str, str]) -> bool:
        key, address = pair
        q = self.seen.get(key)
        return q is not None and address in q


def _stored_key(name: str, key: str) -> str:
    """``name:key``, hashed when it would not fit the column (a key is an address or a username: short)."""
    whole = f"{name}:{key}"
    if len(whole.encode("utf-8")) <= KEY_BYTES:
        return whole
    return f"{name}:#" + hashlib.sha256(key.encode("utf-8", "replace")).hexdigest()


class DatabaseWindow:
    """A window in the database: every process counts the same events (see the module)."""

    def __init__(self, engine: Engine, name: str, seconds: float, clock: Callable[[], float] = time.time):
        self.engine = engine
        self.name = name
        self.seconds = seconds
        self.clock = clock

    def count(self, key: str) -> int:
        k = _stored_key(self.name, key)
        cutoff = self.clock() - self.seconds
        with self.engine.begin() as conn:
            conn.execute(delete(limit_events).where(limit_events.c.key == k, limit_events.c.at <= cutoff))
            n = conn.execute(select(func.count()).where(limit_events.c.key == k)).scalar_one()
        return int(n)

    def wait_seconds(self, key: str) -> float:
        k = _stored_key(self.name, key)
        now = self.clock()
        with self.engine.connect() as conn:
            oldest = conn.execute(
                select(func.min(limit_events.c.at)).where(
                    and_(limit_events.c.key == k, limit_events.c.at > now - self.seconds)
                )
            ).scalar_one()
        return 0.0 if oldest is None else max(0.0, float(oldest) + self.seconds - now)

    def wait(self, key: str) -> int:
        seconds = self.wait_seconds(key)
        return _minutes(seconds) if seconds > 0 else 0

    def add(self, key: str) -> None:
        with self.engine.begin() as conn:
            conn.execute(insert(limit_events).values(key=_stored_key(self.name, key), at=self.clock()))

    def clear(self, key: str) -> None:
        with self.engine.begin() as conn:
            conn.execute(delete(limit_events).where(limit_events.c.key == _stored_key(self.name, key)))


def sweep_events(engine: Engine, older_than_seconds: float, clock: Callable[[], float] = time.time) -> int:
    """Delete the events older than every window (keys never counted again keep none for long)."""
    with engine.begin() as conn:
        gone = conn.execute(delete(limit_events).where(limit_events.c.at <= clock() - older_than_seconds))
    return int(gone.rowcount or 0)


class DatabaseKnown:
    """Known addresses in the database: ``per_key`` rows a username at most (the oldest dropped)."""

    def __init__(self, engine: Engine, per_key: int = 8, clock: Callable[[], float] = time.time):
        self.engine = engine
        self.per_key = per_key
        self.clock = clock

    def add(self, key: str, address: str) -> None:
        address = address[:64]
        t = known_addresses
        with self.engine.begin() as conn:
            conn.execute(delete(t).where(t.c.username_key == key, t.c.address == address))
            conn.execute(insert(t).values(username_key=key, address=address, at=self.clock()))
            kept = select(t.c.address).where(t.c.username_key == key).order_by(t.c.at.desc()).limit(self.per_key)
            conn.execute(delete(t).where(t.c.username_key == key, t.c.address.not_in(kept)))

    def __contains__(self, pair: tuple[str, str]) -> bool:
        key, address = pair
        t = known_addresses
        with self.engine.connect() as conn:
            found = conn.execute(
                select(t.c.address).where(t.c.username_key == key, t.c.address == address[:64])
            ).first()
        return found is not None
