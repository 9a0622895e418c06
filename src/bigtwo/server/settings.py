"""Every limit the server keeps, in one place: defaults, what each is for, and where they are read from.

A public server must not trust its visitors, so every resource a client can make the server spend (memory for
its messages, CPU for its bots, rows for its rooms, sockets) has a bound here. ``bigtwo serve --help`` lists
them as options; each can also be set by an environment variable (``BIGTWO_`` and the name in capitals, e.g.
``BIGTWO_MAX_ROOMS=200``) or in a settings file (TOML, the same names: ``max_rooms = 200``; ``bigtwo serve
--settings FILE`` or ``BIGTWO_SETTINGS``). An option beats the environment, which beats the file, which beats
the default.

The shapes of the API's messages (a room name's length, a card's spelling, ...) are fixed by its schema rather
than set here; they are listed in ``SCHEMA_LIMITS`` so the README and the models read the same numbers.
"""

from __future__ import annotations

import ipaddress
import os
import tomllib
import types
import typing
from collections.abc import Mapping
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from bigtwo.bounds import LARGE_HAND

ENV_PREFIX = "BIGTWO_"

# The API's fixed shapes (its OpenAPI schema says the same).
SCHEMA_LIMITS = {
    "room_name_chars": 60,
    "player_name_chars": 24,
    "bot_name_chars": 40,
    "preset_name_chars": 40,
    "token_chars": 128,
    "answer_chars": 40,
    "cards_per_message": 54,
    "seats": 8,
    "ws_message_bytes": 8192,
    "chat_chars": 200,
}


class Settings(BaseModel):
    """The server's limits and addresses. Build with :meth:`Settings.load` (file, environment, options)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    # --- addresses -----------------------------------------------------------------------------------------
    public_url: str | None = Field(
        None,
        description="the address people open (https://cards.example.org): invite and record links are built "
        "from it, never from a request's Host header (bigtwo serve: http://localhost:PORT when unset)",
    )
    allowed_origins: list[str] = Field(
        default_factory=list,
        description="web pages (origins) of other addresses allowed to open the table's WebSocket and change "
        "state, comma-separated; '*' allows any (unset: the public URL's origin only); a page of the address a "
        "request was sent to is allowed too when it is an IP address, localhost or the public URL's host",
    )
    trusted_proxies: str = Field(
        "127.0.0.1",
        description="addresses of reverse proxies whose X-Forwarded-For is believed (comma-separated, '*' for "
        "any): the client address every per-address limit counts",
    )
    docs: bool = Field(
        True, description="serve the API's Swagger UI at /docs (from the installed swagger-ui-py package)"
    )

    # --- connections ---------------------------------------------------------------------------------------
    max_connections: int = Field(
        900,
        ge=1,
        description="HTTP connections open at once, all clients together (keep it under the process's file "
        "descriptors, often 1,024): one past it is answered 503 and closed",
    )
    connections_per_address: int = Field(
        64,
        ge=1,
        description="HTTP connections one address may hold open at once (a trusted proxy is not counted): one past "
        "it is answered 429 and closed",
    )
    header_timeout_seconds: float = Field(
        10, gt=0, le=600, description="time a connection has to send a whole request's headers before it is closed"
    )
    body_timeout_seconds: float = Field(
        30, gt=0, le=3600, description="time a request's body has to arrive (answered 408 past it)"
    )
    keep_alive_seconds: float = Field(5, ge=1, le=600, description="time an idle kept-alive HTTP connection stays open")
    ws_ping_seconds: float = Field(
        20, gt=0, le=600, description="a WebSocket is pinged this often, and closed when the answer takes as long"
    )

    # --- requests ------------------------------------------------------------------------------------------
    max_body_bytes: int = Field(65536, ge=1024, description="largest request body; a larger one is answered 413")
    max_json_depth: int = Field(8, ge=2, le=64, description="deepest nesting of arrays and objects in a body")
    max_rules_text_chars: int = Field(
        200, ge=1, le=10000, description="longest house-rule text (a ruleset's name or description)"
    )
    max_rules_items: int = Field(64, ge=1, le=1000, description="most house-rule changes (and items of a list)")
    max_rules_toml_bytes: int = Field(20000, ge=100, description="largest house-rules TOML text")
    max_rules_toml_depth: int = Field(4, ge=1, le=32, description="deepest nesting of tables and arrays in it")

    # --- rooms ---------------------------------------------------------------------------------------------
    max_rooms: int = Field(500, ge=1, description="tables not yet finished, all clients together")
    rooms_per_address: int = Field(20, ge=1, description="tables not yet finished that one address opened")
    rooms_per_address_per_minute: int = Field(10, ge=1, description="tables one address may open a minute")
    waiting_room_minutes: float = Field(
        60, gt=0, description="a table not started this long after it was opened is closed (and not reloaded)"
    )
    idle_table_minutes: float = Field(
        180,
        gt=0,
        description="a table in play (or paused) with no seated person connected this long (spectators do not "
        "count) is played out by the server: each absent person's move made for them (the pass when allowed, "
        "else the lowest play), so abandoned tables finish and stop counting against max_rooms",
    )
    abandoned_move_seconds: float = Field(
        1.0, ge=0, le=60, description="seconds the server waits before moving for a person at an abandoned table"
    )
    max_hand_cards: int = Field(
        LARGE_HAND,
        ge=1,
        le=108,
        description="most cards one player may come to hold at a table, counting a leftover and a stock (every "
        "preset deals at most 26): house rules past it are refused, as a 39-card hand has half a million plays",
    )
    quick_table_plays: int = Field(
        10000,
        ge=1,
        description="at a table whose turns can offer more legal plays than this (by the engine's bound; every "
        "preset for four or more players is under it), even the quick bots, hints and the list of legal plays "
        "are worked out in the bot worker processes, off the event loop",
    )
    max_table_plays: int = Field(
        2_000_000,
        ge=1,
        description="most legal plays one turn may offer at a table, by the engine's bound (computed from the "
        "rules when the table is opened): house rules past it are refused, as every bot, hint and check at the "
        "table would list them (Winner for two, the largest preset, is bounded by about one million)",
    )
    max_bot_tables: int = Field(
        8, ge=0, description="tables playing with bots alone (no person seated) at once, all clients together"
    )
    bot_table_min_delay: float = Field(
        0.5, ge=0, le=10, description="seconds a bot waits before moving at a table of bots alone (at least)"
    )
    bot_workers: int = Field(
        1, ge=1, le=64, description="processes that run the bots that search (off the event loop, at low priority)"
    )
    bot_budget_ms: float = Field(
        500, gt=0, description="thinking time of a bot that takes a budget (search), per decision"
    )
    bot_table_budget_ms: float = Field(
        200,
        gt=0,
        description="thinking time of a searching bot at a table of bots alone, per decision (at most): a worker "
        "busy with it keeps a people's table's bot waiting no longer than this",
    )
    bot_job_seconds: float = Field(
        10,
        gt=0,
        le=600,
        description="longest one job (a bot's decision, a hint, a list of legal plays) may hold a bot worker: past "
        "it the worker is stopped and replaced, the question answered in words and a bot's move made by the engine",
    )
    lease_seconds: float = Field(
        6,
        ge=1,
        le=60,
        description="with PostgreSQL, several server processes may share the database: each table is served by "
        "one of them under a lease it renews while it lives; a process killed outright has its tables taken over "
        "by another within this time (and the renewal interval, a third of it)",
    )
    bots: dict[str, str] = Field(
        default_factory=dict,
        description="bots of this server's own, offered at its tables beside the built-in ones: NAME=SPEC, "
        "separated by ';' (mynet=runs/mynet.npz, a trained network played by the learned bot; "
        "fast=isearch(prior=10); mine=mybots.strong:StrongBot); in the settings file, a table named bots",
    )

    # --- WebSockets ----------------------------------------------------------------------------------------
    sockets_per_room: int = Field(64, ge=1, description="WebSockets open on one table")
    sockets_per_address: int = Field(32, ge=1, description="WebSockets open from one address")
    spectators_per_room: int = Field(
        32,
        ge=0,
        description="WebSockets watching one table (no seat), beside one for each seat whose player is not connected",
    )
    spectators_per_address: int = Field(
        4, ge=0, description="WebSockets one address may have watching one table (beside one for each free seat)"
    )
    views_per_second: float = Field(
        20, gt=0, description="table views one address may read a second over HTTP (GET /api/rooms/ID/view)"
    )
    view_burst: int = Field(40, ge=1, description="table views one address may read at once over HTTP")
    sockets_per_address_per_minute: int = Field(
        120, ge=1, description="WebSockets one address may open a minute (a client reconnecting as fast as it can)"
    )
    messages_per_second: float = Field(
        10, gt=0, description="messages a WebSocket may send a second (on average; refusals count)"
    )
    message_burst: int = Field(
        30, ge=1, description="messages a WebSocket may send at once; past it the client is told, then disconnected"
    )
    max_queued_messages: int = Field(
        32, ge=1, description="messages waiting for a client that is not reading before it is disconnected"
    )
    send_timeout_seconds: float = Field(
        10, gt=0, description="longest wait for a client to take one message before it is disconnected"
    )

    # --- at the table --------------------------------------------------------------------------------------
    chat_per_minute: float = Field(
        12, gt=0, description="chat lines and emotes a seat may send a minute (on average; spectators do not chat)"
    )
    chat_burst: int = Field(4, ge=1, description="chat lines and emotes a seat may send at once")
    chat_kept: int = Field(40, ge=1, le=500, description="chat lines a table keeps and shows (the latest)")
    help_per_minute: float = Field(
        30, gt=0, description="hints, explanations, legal-play lists and undos a seat may ask for a minute"
    )
    help_burst: int = Field(6, ge=1, description="hints, explanations, legal-play lists and undos at once")

    # --- accounts and ratings ------------------------------------------------------------------------------
    secure_cookies: bool | None = Field(
        None,
        description="mark the session cookie Secure (sent over TLS only); unset: when the public URL or the "
        "request is https (behind a TLS proxy, set it on)",
    )
    session_days: float = Field(30, gt=0, le=366, description="days a sign-in lasts (a new sign-in starts afresh)")
    login_window_minutes: float = Field(
        15, gt=0, description="the window the sign-in limits below count in, in minutes"
    )
    login_attempts_per_address: int = Field(
        20, ge=1, description="sign-in attempts one address may make in the window (right or wrong)"
    )
    login_failures_per_username: int = Field(
        5,
        ge=1,
        description="wrong passwords for one username in the window, from all addresses together (past it, only "
        "the addresses its owner signed in from before may try)",
    )
    signups_per_address_per_hour: int = Field(5, ge=1, description="accounts one address may open an hour")
    argon2_time_cost: int = Field(3, ge=1, le=20, description="argon2id passes over memory when hashing a password")
    argon2_memory_kib: int = Field(
        65536, ge=1024, le=4_194_304, description="argon2id memory per password hash, in KiB"
    )
    argon2_parallelism: int = Field(4, ge=1, le=16, description="argon2id lanes per password hash")
    quick_match_band: float = Field(
        5, gt=0, le=100, description="a quick match's band of bots' ratings around the player's (rating points)"
    )

    @field_validator("public_url")
    @classmethod
    def _public_url(cls, v: str | None) -> str | None:
        if v is None or v == "":
            return None
        parts = urlsplit(v)
        if parts.scheme not in ("http", "https") or not parts.netloc or parts.query or parts.fragment:
            raise ValueError("a public URL is http(s)://host[:port][/path], without a query")
        return v.rstrip("/")

    @field_validator("bots", mode="before")
    @classmethod
    def _bots(cls, v: Any) -> Any:
        if isinstance(v, str):
            pairs = [p.strip() for p in v.split(";") if p.strip()]
            if any("=" not in p for p in pairs):
                raise ValueError("bots are NAME=SPEC, separated by ';'")
            v = {name.strip(): spec.strip() for name, spec in (p.split("=", 1) for p in pairs)}
        return v

    @field_validator("bots")
    @classmethod
    def _bots_make(cls, v: dict[str, str]) -> dict[str, str]:
        from bigtwo.bots.named import named_bot

        for name, spec in v.items():
            named_bot(name, spec)  # refused in words: a bad name, an unknown bot or option, a missing file
        return v

    @field_validator("allowed_origins", mode="before")
    @classmethod
    def _origins(cls, v: Any) -> Any:
        if isinstance(v, str):
            v = [o for o in (p.strip() for p in v.split(",")) if o]
        return [o.rstrip("/") for o in v] if isinstance(v, list) else v

    # --- reading -------------------------------------------------------------------------------------------
    @classmethod
    def load(
        cls,
        file: str | os.PathLike[str] | None = None,
        env: Mapping[str, str] | None = None,
        **options: Any,
    ) -> Settings:
        """Defaults, then the settings file, then ``BIGTWO_*`` variables, then ``options`` (None: not given).

        Raises ValueError naming the setting, where it came from and what it accepts.
        """
        env = os.environ if env is None else env
        values: dict[str, Any] = {}
        sources: dict[str, str] = {}
        file = file or env.get(f"{ENV_PREFIX}SETTINGS") or None
        if file:
            path = Path(file)
            try:
                data = tomllib.loads(path.read_text(encoding="utf-8"))
            except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as e:
                raise ValueError(f"settings file {str(path)!r}: {e}") from None
            for key, value in data.items():
                if key not in cls.model_fields:
                    raise ValueError(f"settings file {str(path)!r}: no setting named {key!r}; {_names()}")
                values[key], sources[key] = value, f"settings file {str(path)!r}"
        for key in cls.model_fields:
            name = ENV_PREFIX + key.upper()
            if name in env:
                values[key], sources[key] = _from_text(key, env[name]), f"environment variable {name}"
        for key, value in options.items():
            if key not in cls.model_fields:
                raise ValueError(f"no setting named {key!r}; {_names()}")
            if value is not None:
                values[key], sources[key] = value, f"--{key.replace('_', '-')}"
        try:
            return cls(**values)
        except ValidationError as e:
            err = e.errors()[0]
            key = str(err["loc"][0]) if err.get("loc") else "?"
            raise ValueError(f"{sources.get(key, key)}: {err['msg']}") from None

    def origin_allowed(self, origin: str | None, host: str | None, scheme: str = "http") -> bool:
        """May a page from ``origin`` act here (open a table's WebSocket, change state)? A client that sends no
        Origin is not a browser page and passes (Origin is how browsers say whose page sent a request). A page
        from the address the request was sent to (``scheme``://``host``) is this server's own when that address
        surely names this server (an IP address, ``localhost``, the public URL's host: ``127.0.0.1`` where the
        public URL says ``localhost``), never by a Host alone, which a stranger's domain resolving here would
        send (DNS rebinding); any other page must be an allowed origin, or the public URL's."""
        if origin is None:
            return True
        origin = origin.rstrip("/").lower()
        if host is not None and not self._known_host(host):
            host = None  # a name this server was not told of may be anyone's (DNS rebinding): it counts for nothing
        if host is not None and origin == f"{_page_scheme(scheme)}://{host}".lower():
            return True
        if "*" in self.allowed_origins:
            return True
        if self.allowed_origins:
            return origin in (o.lower() for o in self.allowed_origins)
        if self.public_url is not None:
            p = urlsplit(self.public_url)
            return origin == f"{p.scheme}://{p.netloc}".lower()
        return host is not None and urlsplit(origin).netloc == host.lower()

    def _known_host(self, host: str) -> bool:
        """Whether a request's Host names this server for sure: an address (a page cannot be served from an
        address by a site that does not hold it), ``localhost``, or the public URL's host. Any other name may
        be a stranger's domain pointed at this server (DNS rebinding), whose pages must not pass for its own."""
        name = urlsplit(f"//{host}").hostname or ""
        if name == "localhost":
            return True
        try:
            ipaddress.ip_address(name)
            return True
        except ValueError:
            pass
        return self.public_url is not None and (urlsplit(self.public_url).hostname or "") == name

    def link(self, path: str) -> str:
        """An absolute link when the public URL is known, else a path on this server."""
        return f"{self.public_url or ''}{path}"


def _page_scheme(scheme: str) -> str:
    """The scheme of the page that opened a request: a WebSocket (ws, wss) is opened from http or https."""
    return {"ws": "http", "wss": "https"}.get(scheme, scheme)


def _names() -> str:
    return "settings: " + ", ".join(Settings.model_fields)


def _from_text(key: str, text: str) -> Any:
    """An environment variable's text as the setting's type (pydantic converts numbers and booleans)."""
    annotation = Settings.model_fields[key].annotation
    args = typing.get_args(annotation)
    if typing.get_origin(annotation) in (list, dict) or annotation in (list, dict):
        return text
    if isinstance(annotation, types.UnionType) and type(None) in args and text == "":
        return None
    return text


def option_type(key: str) -> type:
    """The plain type of a setting, for a command-line option."""
    annotation = Settings.model_fields[key].annotation
    if typing.get_origin(annotation) in (list, dict):
        return str
    args = [a for a in typing.get_args(annotation) if a is not type(None)]
    return args[0] if args else annotation  # type: ignore[return-value]
