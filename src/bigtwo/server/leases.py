"""Which server process serves a table, when several share one PostgreSQL: a lease per table, in the database.

A table lives in one process's memory (its referee, its clocks, its sockets), so exactly one process may serve
it at a time. That process holds the table's lease: a row ``(room_id, owner, address, expires_at)`` it renews
while it lives (every third of the lease time). Another process may take a table when

- its lease expired: the owner died (kill -9, a lost machine) and stopped renewing;
- there is no lease: the owner let it go (a deploy's SIGTERM, a finished table leaving its cache);
- the owner handed it over: a process asked for a table (a client reached it: the reverse proxy routes by table,
  so that is where the table's clients will be) marks the lease ``wanted_by`` itself, and the owner, at its next
  look (every half second), closes the table's sockets with a code that tells the page to reconnect, and writes
  the asking process in as owner.

Whoever takes a table rebuilds it from its committed actions (as a restart does). Every accepted action is
written under the lease: the journal's transaction locks the lease rows of the tables it writes actions for and
refuses the actions of a table this process no longer owns (:meth:`Leases.fence`), so a process that stalled
past its lease (and lost the table) cannot add a move behind the new owner's back; a taker's claim waits for that
transaction, then reads what it committed.

Polling, not LISTEN/NOTIFY: each process asks three small indexed questions every half second (leases to renew,
tables wanted from it, tables nobody holds), whatever the number of tables, so the cost is bounded and known; it
needs no connection held open for notifications, and works through a connection pooler. A hand-over takes up to
half a second more than a notification would, which a reconnecting client does not notice.

SQLite stays the single-process default: no leases there (:class:`bigtwo.server.rooms.Rooms` is given none).
"""

from __future__ import annotations

import os
import secrets
from typing import Any

from sqlalchemy import text
from sqlalchemy.engine import Connection, Engine

LIVE = ("waiting", "playing", "paused")
UNTIL = "now() + make_interval(secs => CAST(:ttl AS double precision))"  # a lease's expiry, by the database's clock


class LeaseLost(Exception):
    """A write for a table this process no longer owns (another process took it over)."""


class Leases:
    """This process's leases on a PostgreSQL database. Methods are synchronous (run them off the event loop)."""

    def __init__(self, engine: Engine, address: str, seconds: float = 6.0):
        if not engine.dialect.name.startswith("postgresql"):
            raise ValueError("leases need PostgreSQL: several processes cannot share a SQLite file's tables")
        self.engine = engine
        self.owner = f"{os.getpid()}-{secrets.token_hex(6)}"  # fresh at each start: a restart owns nothing
        self.address = address[:200]
        self.seconds = float(seconds)

    def _params(self, **more: Any) -> dict[str, Any]:
        return {"me": self.owner, "address": self.address, "ttl": self.seconds, **more}

    # --- taking a table ------------------------------------------------------------------------------------
    def claim(self, room_id: str) -> tuple[bool, str | None]:
        """Take a table's lease when it is free, expired or ours. Returns whether this process holds it, and
        when not the address of the process that does (None: no such table)."""
        with self.engine.begin() as conn:
            held = self.claim_in(conn, room_id)
            if held:
                return True, None
            row = conn.execute(text("SELECT address FROM leases WHERE room_id = :room"), {"room": room_id}).first()
        return False, (row[0] if row else None)

    def claim_in(self, conn: Connection, room_id: str) -> bool:
        """:meth:`claim` inside a transaction (a new table is stored and leased in one)."""
        row = conn.execute(
            text(
                "INSERT INTO leases (room_id, owner, address, expires_at, wanted_by) "
                "SELECT CAST(:room AS varchar), CAST(:me AS varchar), CAST(:address AS varchar), "
                f"{UNTIL}, NULL "
                "WHERE EXISTS (SELECT 1 FROM rooms WHERE id = CAST(:room AS varchar)) "
                "ON CONFLICT (room_id) DO UPDATE SET owner = EXCLUDED.owner, address = EXCLUDED.address, "
                "expires_at = EXCLUDED.expires_at, wanted_by = NULL "
                "WHERE leases.owner = EXCLUDED.owner OR leases.expires_at < now() "
                "RETURNING owner"
            ),
            self._params(room=room_id),
        ).first()
        return row is not None

    def ask(self, room_id: str) -> None:
        """Ask a table's owner to hand it over (it answers at its next look)."""
        with self.engine.begin() as conn:
            conn.execute(
                text("UPDATE leases SET wanted_by = :me WHERE room_id = :room AND owner <> :me"),
                self._params(room=room_id),
            )

    def orphans(self, limit: int) -> list[str]:
        """Tables to take: unfinished ones nobody holds (or whose owner stopped renewing), and any handed to this
        process; at most ``limit`` at a time (the oldest leases first)."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                text(
                    "SELECT r.id FROM rooms r LEFT JOIN leases l ON l.room_id = r.id "
                    "WHERE (r.status IN ('waiting', 'playing', 'paused') "
                    "AND (l.room_id IS NULL OR l.expires_at < now())) OR (l.owner = :me AND l.address = '') "
                    "ORDER BY l.expires_at NULLS FIRST LIMIT :n"
                ),
                self._params(n=limit),
            )
            return [r[0] for r in rows]

    # --- holding ----------------------------------------------------------------------------------------------
    def renew(self) -> set[str]:
        """Renew every lease this process holds; returns the tables it still holds (one taken over after this
        process stalled past its lease is missing: drop it)."""
        with self.engine.begin() as conn:
            rows = conn.execute(
                text(f"UPDATE leases SET expires_at = {UNTIL} WHERE owner = :me RETURNING room_id"),
                self._params(),
            )
            return {r[0] for r in rows}

    def wanted(self) -> list[tuple[str, str]]:
        """(table, asking process) for each table of this process another one asked for."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                text("SELECT room_id, wanted_by FROM leases WHERE owner = :me AND wanted_by IS NOT NULL"),
                self._params(),
            )
            return [(r[0], r[1]) for r in rows]

    def hand_over(self, room_id: str, to: str) -> bool:
        """Write the asking process in as the table's owner (after this one let it go)."""
        with self.engine.begin() as conn:
            done = conn.execute(
                text(
                    "UPDATE leases SET owner = :to, address = '', wanted_by = NULL, "
                    f"expires_at = {UNTIL} WHERE room_id = :room AND owner = :me"
                ),
                self._params(room=room_id, to=to[:40]),
            )
            return bool(done.rowcount)

    def release(self, room_ids: list[str]) -> None:
        """Let tables go: any process may take them at once."""
        if room_ids:
            with self.engine.begin() as conn:
                conn.execute(
                    text("DELETE FROM leases WHERE owner = :me AND room_id = ANY(:rooms)"),
                    self._params(rooms=list(room_ids)),
                )

    def release_all(self) -> int:
        with self.engine.begin() as conn:
            gone = conn.execute(text("DELETE FROM leases WHERE owner = :me"), self._params())
            return int(gone.rowcount or 0)

    # --- writing under the lease ------------------------------------------------------------------------------
    def fence(self, conn: Connection, room_ids: set[str]) -> None:
        """Inside the journal's transaction: lock the leases of the tables it writes actions for, and refuse
        (:class:`LeaseLost`) if this process owns any of them no more."""
        if not room_ids:
            return
        rows = conn.execute(
            text("SELECT room_id FROM leases WHERE owner = :me AND room_id = ANY(:rooms) FOR UPDATE"),
            self._params(rooms=sorted(room_ids)),
        )
        lost = room_ids - {r[0] for r in rows}
        if lost:
            raise LeaseLost(f"tables now served by another process: {', '.join(sorted(lost))}")

    def holders(self) -> dict[str, int]:
        """Leases held per process address (for the operator's metrics and the tests)."""
        with self.engine.connect() as conn:
            rows = conn.execute(text("SELECT address, count(*) FROM leases WHERE expires_at > now() GROUP BY address"))
            return {r[0]: int(r[1]) for r in rows}
