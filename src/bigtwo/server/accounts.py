"""Accounts: sign up, sign in, sign out, change password; sessions kept in the database behind a cookie.

Passwords are hashed with argon2id (``argon2-cffi``; its parameters are settings). A session is a random secret
in an HttpOnly, SameSite=Lax cookie; the database keeps only its SHA-256, so a copy of the database signs nobody
in. Every sign-in makes a new session (a session id planted before sign-in is never adopted: no fixation), and
changing the password ends every other session of the account.

Cross-site requests: every state-changing request a cookie authenticates must carry the session's own CSRF
token in the ``X-CSRF-Token`` header (the synchronizer-token pattern: the token lives in the session row and is
handed to the page by ``GET /api/account``), and a request whose ``Origin`` header names another site is refused
outright (that also covers signing up and in, where no session exists yet: login CSRF).

Sign-in attempts are limited per client address (right or wrong) and wrong passwords per username (from all
addresses), in a sliding window; sign-ups per address and hour. One process keeps these limits in memory; processes
sharing a PostgreSQL keep them in the database, so each enforces the same limits (:mod:`bigtwo.server.shared`).

Whether an account exists is public, by decision: a username is what its owner is shown as at every table, on the
leaderboards and on their player page (``/players/<name>``, ``/api/players/<name>``), so sign-up says a name is
taken (409) and a player page answers 404 for nobody. What stays private is whether a password is right for a
name: sign-in answers the same words for an unknown name as for a wrong password, and the lockout counts wrong
passwords for names that exist and names that do not alike.
"""

from __future__ import annotations

import hmac
import re
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError
from pydantic import Field, field_validator
from sqlalchemy import delete, insert, select, update
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError

from bigtwo.server import store
from bigtwo.server.db import accounts, sessions
from bigtwo.server.messages import Strict, text_problem
from bigtwo.server.referee import Rejected
from bigtwo.server.settings import Settings
from bigtwo.server.shared import DatabaseKnown, DatabaseWindow, Known, LocalKnown, LocalWindow
from bigtwo.server.shared import Window as WindowType
from bigtwo.words import plural

COOKIE = "bigtwo_session"
CSRF_HEADER = "X-CSRF-Token"
USERNAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{2,23}$")
MIN_PASSWORD, MAX_PASSWORD = 8, 128


def _password(v: str) -> str:
    if not MIN_PASSWORD <= len(v) <= MAX_PASSWORD:
        raise ValueError(f"a password is {MIN_PASSWORD} to {MAX_PASSWORD} characters long, not {len(v)}")
    problem = text_problem(v)
    if problem:
        raise ValueError(problem)
    return v


class Credentials(Strict):
    """A username and a password (sign up, sign in)."""

    model_config = Strict.model_config | {"str_strip_whitespace": False}
    username: str = Field(min_length=1, max_length=24, description="3-24 letters, digits, '_', '.', '-'")
    password: str = Field(
        min_length=1, max_length=MAX_PASSWORD, description=f"{MIN_PASSWORD}-{MAX_PASSWORD} characters"
    )

    @field_validator("username")
    @classmethod
    def _username(cls, v: str) -> str:
        if not USERNAME.match(v):
            raise ValueError(
                "a username is 3 to 24 letters (a-z), digits, '_', '.' or '-', starting with a letter or digit"
            )
        return v

    @field_validator("password")
    @classmethod
    def _pw(cls, v: str) -> str:
        return _password(v)


class PasswordChange(Strict):
    model_config = Strict.model_config | {"str_strip_whitespace": False}
    current: str = Field(min_length=1, max_length=MAX_PASSWORD)
    new: str = Field(min_length=1, max_length=MAX_PASSWORD)

    @field_validator("new")
    @classmethod
    def _pw(cls, v: str) -> str:
        return _password(v)


@dataclass(frozen=True)
class Session:
    """A signed-in browser: its account and the CSRF token its state-changing requests must carry."""

    id: str  # sha256 of the cookie's secret
    account_id: int
    username: str
    csrf: str


# the in-memory forms keep their old names here (the database forms are in bigtwo.server.shared)
Window = LocalWindow
KnownAddresses = LocalKnown


class Accounts:
    """Accounts and sessions on the server's database. Methods are synchronous (run them off the event loop)."""

    def __init__(
        self,
        engine: Engine,
        settings: Settings,
        clock: Callable[[], float] = time.monotonic,
        now: Callable[[], datetime] = store.now,
        shared: bool = False,
    ):
        """``shared``: keep the limits in the database, where every process sharing it sees them."""
        self.engine = engine
        self.settings = settings
        self.now = now
        self.hasher = PasswordHasher(
            time_cost=settings.argon2_time_cost,
            memory_cost=settings.argon2_memory_kib,
            parallelism=settings.argon2_parallelism,
        )
        self._dummy = self.hasher.hash(secrets.token_urlsafe(16))  # verified when there is no such user
        window = settings.login_window_minutes * 60
        self.attempts: WindowType
        self.failures: WindowType
        self.signups: WindowType
        self.known: Known
        if shared:
            self.attempts = DatabaseWindow(engine, "sign-in", window)  # per address
            self.failures = DatabaseWindow(engine, "wrong-password", window)  # per username
            self.signups = DatabaseWindow(engine, "sign-up", 3600)  # per address
            self.known = DatabaseKnown(engine)  # per username: where its owner signed in from
        else:
            self.attempts = LocalWindow(window, clock)
            self.failures = LocalWindow(window, clock)
            self.signups = LocalWindow(3600, clock)
            self.known = LocalKnown()

    # --- sessions --------------------------------------------------------------------------------------------
    def _new_session(self, conn: Any, account_id: int) -> tuple[str, str]:
        secret = secrets.token_urlsafe(32)
        csrf = secrets.token_urlsafe(24)
        at = self.now()
        conn.execute(
            insert(sessions).values(
                id=store.token_hash(secret),
                account_id=account_id,
                csrf=csrf,
                created_at=at,
                expires_at=at + timedelta(days=self.settings.session_days),
            )
        )
        return secret, csrf

    def session(self, secret: str | None) -> Session | None:
        """The live session for a cookie's secret (None: no cookie, unknown, or expired)."""
        if not secret or len(secret) > 128:
            return None
        q = (
            select(sessions.c.id, sessions.c.account_id, sessions.c.csrf, sessions.c.expires_at, accounts.c.username)
            .join(accounts, accounts.c.id == sessions.c.account_id)
            .where(sessions.c.id == store.token_hash(secret))
        )
        with self.engine.connect() as conn:
            row = conn.execute(q).first()
        if row is None:
            return None
        expires = store.as_utc(row.expires_at)
        if expires is not None and expires <= self.now():
            return None
        return Session(row.id, row.account_id, row.username, row.csrf)

    @staticmethod
    def check_csrf(session: Session, token: str | None) -> None:
        """Refuse (403, in words) a cookie-authenticated change without the session's CSRF token."""
        if not token or not hmac.compare_digest(session.csrf.encode(), token.encode("utf-8", "replace")):
            raise Rejected(
                f"this change needs the {CSRF_HEADER} header your page was given (GET /api/account): "
                "it is missing or wrong, so the request may come from another site",
                403,
            )

    # --- signing up and in -----------------------------------------------------------------------------------
    def sign_up(self, username: str, password: str, address: str) -> tuple[Session, str]:
        """A new account, signed in at once. Returns the session and the cookie's secret."""
        limit = self.settings.signups_per_address_per_hour
        if self.signups.count(address) >= limit:
            raise Rejected(
                f"your address opened {plural(limit, 'account')} in the last hour, the most allowed: try again in "
                f"{plural(self.signups.wait(address), 'minute')}",
                429,
            )
        hashed = self.hasher.hash(password)
        try:
            with self.engine.begin() as conn:
                key = conn.execute(
                    insert(accounts).values(
                        username=username, username_key=username.lower(), password_hash=hashed, created_at=self.now()
                    )
                ).inserted_primary_key
                assert key is not None
                account_id = key[0]
                secret, csrf = self._new_session(conn, int(account_id))
        except IntegrityError:
            raise Rejected(f"the username {username!r} is taken: choose another", 409) from None
        self.signups.add(address)
        self.known.add(username.lower(), address)
        return Session(store.token_hash(secret), int(account_id), username, csrf), secret

    def sign_in(self, username: str, password: str, address: str, old_secret: str | None) -> tuple[Session, str]:
        """Check the password (within the limits) and start a new session; the old one, if any, ends."""
        s = self.settings
        key = username.lower()
        if self.attempts.count(address) >= s.login_attempts_per_address:
            raise Rejected(
                f"too many sign-in attempts from your address ({s.login_attempts_per_address} in "
                f"{plural(s.login_window_minutes, 'minute')}): try again in "
                f"{plural(self.attempts.wait(address), 'minute')}",
                429,
            )
        locked = self._check_lockout(username, address)
        self.attempts.add(address)
        with self.engine.connect() as conn:
            row = conn.execute(select(accounts).where(accounts.c.username_key == key)).mappings().first()
        try:
            self.hasher.verify(row["password_hash"] if row else self._dummy, password)
            ok = row is not None
        except (VerifyMismatchError, VerificationError, InvalidHashError):
            ok = False
        if not ok or row is None:
            self.failures.add(key)
            raise Rejected("wrong username or password", 401)
        if not locked:  # (a lockout stays for the strangers who caused it while its owner signs in)
            self.failures.clear(key)
        self.known.add(key, address)
        with self.engine.begin() as conn:
            if self.hasher.check_needs_rehash(row["password_hash"]):  # the settings' parameters went up
                conn.execute(
                    update(accounts).where(accounts.c.id == row["id"]).values(password_hash=self.hasher.hash(password))
                )
            if old_secret:
                conn.execute(delete(sessions).where(sessions.c.id == store.token_hash(old_secret[:128])))
            conn.execute(delete(sessions).where(sessions.c.expires_at <= self.now()))
            secret, csrf = self._new_session(conn, row["id"])
        return Session(store.token_hash(secret), row["id"], row["username"], csrf), secret

    def _check_lockout(self, username: str, address: str) -> bool:
        """Refuse (429, in words) a password tried for a locked username from an address its owner has not used;
        returns whether the username is locked (its owner's own addresses may still try)."""
        s = self.settings
        key = username.lower()
        locked = self.failures.count(key) >= s.login_failures_per_username
        if locked and (key, address) not in self.known:
            raise Rejected(
                f"too many wrong passwords for {username!r} ({s.login_failures_per_username} in "
                f"{plural(s.login_window_minutes, 'minute')}): try again in "
                f"{plural(self.failures.wait(key), 'minute')}",
                429,
            )
        return locked

    def sign_out(self, session: Session) -> None:
        with self.engine.begin() as conn:
            conn.execute(delete(sessions).where(sessions.c.id == session.id))

    def change_password(self, session: Session, current: str, new: str, address: str) -> tuple[Session, str]:
        """Check the current password, set the new one, end every session of the account and start a new one."""
        self._check_lockout(session.username, address)
        with self.engine.connect() as conn:
            stored = conn.execute(
                select(accounts.c.password_hash).where(accounts.c.id == session.account_id)
            ).scalar_one()
        try:
            self.hasher.verify(stored, current)
        except (VerifyMismatchError, VerificationError, InvalidHashError):
            self.failures.add(session.username.lower())
            raise Rejected("the current password is wrong: the password was not changed", 401) from None
        if current == new:
            raise Rejected("the new password is the current one: choose another", 422)
        hashed = self.hasher.hash(new)
        with self.engine.begin() as conn:
            conn.execute(update(accounts).where(accounts.c.id == session.account_id).values(password_hash=hashed))
            conn.execute(delete(sessions).where(sessions.c.account_id == session.account_id))
            secret, csrf = self._new_session(conn, session.account_id)
        return Session(store.token_hash(secret), session.account_id, session.username, csrf), secret

    def account_by_name(self, username: str) -> dict[str, Any] | None:
        with self.engine.connect() as conn:
            row = (
                conn.execute(
                    select(accounts.c.id, accounts.c.username, accounts.c.created_at).where(
                        accounts.c.username_key == username.lower()
                    )
                )
                .mappings()
                .first()
            )
        return dict(row) if row else None
