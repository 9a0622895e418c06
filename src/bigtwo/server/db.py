"""The database: rooms, seats and actions; accounts, sessions and ratings; the engine for a URL; migrations.

A game is stored as its seed, its rules and the ordered list of accepted actions; the live state is rebuilt by
replaying them through the engine, so the tables never hold a position that could disagree with the rules.
SQLite (a file, the default) and PostgreSQL share this schema; Alembic migrations under ``migrations/`` create
and evolve it, and ``migrate(url)`` brings any database to the latest one.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Column,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    create_engine,
    event,
    text,
)
from sqlalchemy.engine import Engine, make_url

MIGRATIONS = Path(__file__).with_name("migrations")

metadata = MetaData()

rooms = Table(
    "rooms",
    metadata,
    Column("id", String(16), primary_key=True),
    Column("name", String(80), nullable=False),
    Column("preset", String(40), nullable=False),
    Column("changes", JSON, nullable=False),  # the house-rule changes as asked for (for display)
    Column("rules", JSON, nullable=False),  # the full ruleset, so a later preset edit cannot change a stored game
    Column("players", Integer, nullable=False),
    Column("rounds", Integer),
    Column("points", Integer),
    Column("seed", BigInteger, nullable=False),
    Column("status", String(16), nullable=False, index=True),  # waiting, playing, paused, over
    Column("public", Integer, nullable=False),
    Column("host_token", String(64), nullable=False),  # sha256 of the host's secret
    Column("move_seconds", Integer, nullable=False),
    Column("bot_delay", Float, nullable=False),
    Column("break_seconds", Integer, nullable=False),
    Column("bot", String(40), nullable=False),  # the strength of bots added later
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("finished_at", DateTime(timezone=True)),
    Column("standings", JSON),  # final places and totals, for the records list
    # the room of the rematch (the same seats), once one is asked for (indexed: a rematch room deleted before it
    # started is unlinked from the finished room that named it)
    Column("rematch", String(16), index=True),
    Column("rated", Integer, nullable=False, server_default="0"),  # a rated table (see bigtwo.server.ratings)
    # the client address that opened it: the per-address limit on tables not yet finished counts these, so every
    # server process (and a restarted one) counts the same tables
    Column("creator", String(64), index=True),
)

seats = Table(
    "seats",
    metadata,
    Column("room_id", String(16), ForeignKey("rooms.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer, primary_key=True, autoincrement=False),
    Column("kind", String(8), nullable=False),  # open, person, bot
    Column("name", String(40), nullable=False),
    Column("bot", String(40)),
    Column("token", String(64), index=True),  # sha256 of the seat's secret
    Column("account_id", Integer, index=True),  # the signed-in person's account (None: a guest, a bot, open)
)

actions = Table(
    "actions",
    metadata,
    Column("room_id", String(16), ForeignKey("rooms.id", ondelete="CASCADE"), primary_key=True),
    Column("seq", Integer, primary_key=True, autoincrement=False),
    Column("seat", Integer, nullable=False),
    Column("answer", Text, nullable=False),  # a play ("3D 3S"), "pass", or an exchange answer
    Column("by", String(8), nullable=False),  # player, bot, timeout, auto (a standing order to pass)
    Column("at", DateTime(timezone=True), nullable=False),
)

# --- many processes, one database (bigtwo.server.leases, bigtwo.server.shared) -----------------------------------
# Which process serves a table: one row per table held, its owner renewing ``expires_at`` while it lives. Another
# process may take a table whose lease expired (its owner died) or that its owner handed over (``wanted_by``).
leases = Table(
    "leases",
    metadata,
    Column("room_id", String(16), primary_key=True),
    Column("owner", String(40), nullable=False, index=True),  # a process's id (fresh at each start)
    Column("address", String(200), nullable=False),  # where that process listens (told to a client that asks)
    Column("expires_at", DateTime(timezone=True), nullable=False),
    Column("wanted_by", String(40)),  # a process that was asked for this table and waits for it
)

# The lobby as every process sees it: each owner writes its public tables' summaries when they change.
listings = Table(
    "listings",
    metadata,
    Column("room_id", String(16), primary_key=True),
    Column("status", String(16), nullable=False),
    Column("created_at", DateTime(timezone=True)),
    Column("summary", JSON, nullable=False),
)

# Events per key in a sliding window (sign-in attempts per address, wrong passwords per username, tables opened
# and connections made per address): every process counts the same events. ``at`` is Unix time in seconds.
limit_events = Table(
    "limit_events",
    metadata,
    Column("id", BigInteger().with_variant(Integer, "sqlite"), primary_key=True, autoincrement=True),
    Column("key", String(120), nullable=False),
    Column("at", Float, nullable=False),
    Index("ix_limit_events_key_at", "key", "at"),
)

# The addresses each username last signed in from (a few per username): the lockout spares its owner's own.
known_addresses = Table(
    "known_addresses",
    metadata,
    Column("username_key", String(24), primary_key=True),
    Column("address", String(64), primary_key=True),
    Column("at", Float, nullable=False),
)

# --- accounts (bigtwo.server.accounts) ------------------------------------------------------------------------
accounts = Table(
    "accounts",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("username", String(24), nullable=False),  # as typed at sign-up
    Column("username_key", String(24), nullable=False, unique=True),  # lower case: one account per name
    Column("password_hash", String(256), nullable=False),  # argon2id, with its parameters and salt
    Column("created_at", DateTime(timezone=True), nullable=False),
)

sessions = Table(
    "sessions",
    metadata,
    Column("id", String(64), primary_key=True),  # sha256 of the cookie's secret
    Column("account_id", Integer, ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False, index=True),
    Column("csrf", String(64), nullable=False),  # the token every state-changing request must echo
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("expires_at", DateTime(timezone=True), nullable=False),
)

# --- ratings (bigtwo.server.ratings) --------------------------------------------------------------------------
# A player is "account:<id>" or "bot:<name>"; one rating per player and rules family.
ratings = Table(
    "ratings",
    metadata,
    Column("player", String(64), primary_key=True),
    Column("family", String(24), primary_key=True),
    Column("name", String(40), nullable=False),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("matches", Integer, nullable=False),
    Column("updated_at", DateTime(timezone=True), nullable=False),
)

# One row per finished match whose results are stored: its key makes storing them happen once.
finished_matches = Table(
    "finished_matches",
    metadata,
    Column("id", String(96), primary_key=True),  # "room:<id>" or "arena:<digest>:<deal>:<rotation>"
    Column("room_id", String(16)),
    Column("family", String(24), nullable=False),
    Column("preset", String(40), nullable=False),
    Column("rated", Integer, nullable=False),
    Column("public", Integer, nullable=False),
    Column("at", DateTime(timezone=True), nullable=False),
)

match_results = Table(
    "match_results",
    metadata,
    Column("match_id", String(96), ForeignKey("finished_matches.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer, primary_key=True, autoincrement=False),
    Column("player", String(64), nullable=False, index=True),  # account:<id>, bot:<name> or guest
    Column("name", String(40), nullable=False),
    Column("place", Integer, nullable=False),  # 1 = best; tied seats share a place
    Column("points", Float, nullable=False),
    Column("mu_before", Float),
    Column("sigma_before", Float),
    Column("mu_after", Float),  # the player's rating after this match (None: unrated)
    Column("sigma_after", Float),
    Column("at", DateTime(timezone=True), nullable=False),
)


def database_url(target: str) -> str:
    """A SQLAlchemy URL from what a user types: a file path (SQLite) or a ``postgresql://`` / ``sqlite://`` URL."""
    if "://" not in target:
        return f"sqlite:///{Path(target).expanduser().resolve()}"
    url = make_url(target)
    if url.drivername in ("postgresql", "postgres"):
        url = url.set(drivername="postgresql+psycopg")
    elif url.drivername not in ("sqlite", "postgresql+psycopg", "sqlite+pysqlite"):
        raise ValueError(f"database {url.drivername!r} is not supported: use a file path, sqlite:/// or postgresql://")
    return url.render_as_string(hide_password=False)


def make_engine(target: str) -> Engine:
    """An engine for a database; SQLite gets WAL journaling so readers never wait for the writer."""
    url = database_url(target)
    if url.startswith("sqlite"):
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30})

        @event.listens_for(engine, "connect")
        def _pragmas(conn: Any, _record: Any) -> None:
            cur = conn.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA synchronous=FULL")  # an acknowledged action survives a power cut, not only a crash
            cur.execute("PRAGMA foreign_keys=ON")
            cur.close()

        return engine
    return create_engine(url, pool_pre_ping=True, pool_size=5, max_overflow=5)


# PostgreSQL's advisory lock taken while the schema is brought up to date (any fixed number: "bigtwo" in ASCII)
MIGRATION_LOCK = 0x626967_74776F


def migrate(engine: Engine) -> None:
    """Bring the database to the latest schema (Alembic ``upgrade head``)."""
    # Alembic says each step at INFO (seven lines at every start of a server): a host wants them only when they
    # asked for Alembic's messages by its logger's own level
    quiet = logging.getLogger("alembic")
    before = quiet.level
    if before == logging.NOTSET:
        quiet.setLevel(logging.WARNING)
    try:
        from alembic import command
        from alembic.config import Config

        cfg = Config()
        cfg.set_main_option("script_location", str(MIGRATIONS))
        with engine.begin() as conn:
            if conn.dialect.name == "postgresql":
                # processes started together on an empty database (bigtwo serve --workers) would each create the
                # schema at once, and all but one fail: each waits for the one before it to commit
                conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
            cfg.attributes["connection"] = conn
            command.upgrade(cfg, "head")
    finally:
        quiet.setLevel(before)
