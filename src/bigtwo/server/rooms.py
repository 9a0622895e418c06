"""Rooms: the asynchronous shell around each table's referee, and the server's bounded set of rooms.

A :class:`Room` holds one table's :class:`~bigtwo.server.referee.Referee` (the synchronous judge of every move
and every question of procedure) and does what takes time around it, under the room's lock: it asks the
referee, writes what the referee decided to the database and waits for the commit, and only then lets the
referee's memory move on and tells every client. It also sleeps the referee's deadlines (bots' pauses, move
timers, breaks) and has bots think (quick ones at once, the others in worker processes).

:class:`Rooms` is every room the server holds, and the limits on them: rooms in total and per client address
(and per minute), WebSockets per room and per address, tables of bots alone, tables never started (they
expire), and tables in play that everyone left (the server plays them out).
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import time
from collections import Counter, OrderedDict, deque
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy.engine import Engine

from bigtwo import bots as bot_registry
from bigtwo.bots import make as make_bot
from bigtwo.bots.named import register_spec
from bigtwo.bots.registry import bot_words, cannot_play
from bigtwo.bots.strength import strongest_bot
from bigtwo.bounds import legal_play_bound, max_hand_size
from bigtwo.cards import CardSet
from bigtwo.errors import BigTwoError
from bigtwo.match import Match, derived_seed
from bigtwo.record import Record
from bigtwo.rules.ruleset import SECTIONS, Ruleset, list_presets, load_rules, rules_from_toml
from bigtwo.server import advice, ratings, store
from bigtwo.server.botpool import BOTS_ALONE, PEOPLE, BotPool, JobTimeout, lowest_play, rules_text
from bigtwo.server.connections import CLOSE_ROOM_CLOSED, Connection, RateLimit
from bigtwo.server.inputs import BadInput, check_house_rules, house_rules_toml
from bigtwo.server.messages import (
    EMOTES,
    MAX_POINTS,
    MAX_ROUNDS,
    AutoPass,
    Chat,
    Continue,
    CreateRoom,
    ExchangeAnswer,
    Explain,
    Hello,
    Hint,
    Legal,
    Pass,
    Ping,
    PlayCards,
    QuickMatch,
    Rematch,
    Undo,
    text_problem,
)
from bigtwo.server.names import bot_shaped, skeleton
from bigtwo.server.records import room_record
from bigtwo.server.referee import Break, Change, Move, Referee, Rejected, Seat, Turn, bot_name
from bigtwo.server.settings import Settings
from bigtwo.words import plural, spec_name

log = logging.getLogger("bigtwo.server")

__all__ = ["Break", "Connection", "Referee", "Rejected", "Room", "Rooms", "Seat", "answer_of", "phase_of"]

DEFAULT_BOT_DELAY = 0.8  # a new table's bot delay unless it asks (CreateRoom.bot_delay)
MIN_THINK_MS = 100.0  # a searching bot at a table whose delay is shorter thinks the server's budget, as asked
LIVE = ("waiting", "playing", "paused")
FINISHED_KEPT = 64  # finished rooms kept in memory for their records and replays (the rest are read again)
RATED_MOVE_SECONDS = 60  # a rated table's move clock when it asks for none (a player away is played out)
READ_PACES_KEPT = 10_000  # addresses whose pace of reading views is remembered
SLEEP_TRIES = 8  # sleeps to reach a deadline, when the event loop wakes a timer early


def available_bots() -> dict[str, str]:
    """Every registered bot, with what it is in a player's words (:func:`bigtwo.bots.registry.bot_words`)."""
    make_bot("random")  # importing the built-in bots registers them
    return {name: bot_words(name) for name in bot_registry.BOTS}


def default_bot(
    rules: Ruleset | None = None,
    players: int | None = None,
    delay: float = DEFAULT_BOT_DELAY,
    budget_ms: float | None = None,
) -> str:
    """The strength a table gets unless it asks: the strongest bot that answers within the table's bot delay
    (:func:`bigtwo.bots.registry.strongest_bot`: a searching bot starts thinking when its turn begins and stops
    within the delay, or within ``budget_ms``, the server's thinking budget, if that is less; the learned bot only
    where it has weights for the table). Without a table: a classic table at the default delay."""
    available_bots()  # importing the built-in bots registers them
    rules = rules or load_rules("classic")
    return strongest_bot(rules, players or rules.players, delay, budget_ms)[0]


def person_name(name: str) -> str:
    """A guest's name, refused where it reads as a bot's (``Dev (random)``: a name, then a bot in brackets), the
    shape the tables give their bots, so that no one at a table passes for one: read by its skeleton
    (:func:`bigtwo.server.names.skeleton`), so a zero-width joiner, fullwidth brackets or a look-alike letter
    do not make it another name."""
    split = bot_shaped(skeleton(name))
    if split is not None and spec_name(split[1]) in bot_registry.BOTS:
        raise Rejected(f"{name} reads as a bot's name (a name, then a bot in brackets): choose another name")
    return name


def check_bot(name: str | None, default: str, rules: Ruleset, players: int) -> str:
    """The bot for a seat, by name (or the table's default), refused in words if it cannot play this table."""
    name = name or default
    names = available_bots()
    if name not in names:
        raise Rejected(f"no bot named {name!r}; bots: {', '.join(names)}")
    why = cannot_play(name, rules, players)
    if why:
        raise Rejected(why)
    return name


def build_rules(spec: CreateRoom, settings: Settings | None = None) -> tuple[Ruleset, dict[str, Any]]:
    """The room's ruleset: a preset, a TOML file's text on top of it, then single setting changes; every part
    bounded (size, nesting, text length, characters) before the engine reads it."""
    settings = settings or Settings()
    limits = (settings.max_rules_items, settings.max_rules_text_chars)
    presets = list_presets()
    if spec.preset not in presets:
        raise Rejected(f"no preset named {spec.preset!r}; presets: {', '.join(presets)}")
    base = load_rules(spec.preset)
    try:
        rules = base
        if spec.rules_toml:
            data = house_rules_toml(
                spec.rules_toml, settings.max_rules_toml_bytes, settings.max_rules_toml_depth, *limits
            )
            named = data.get("base", spec.preset)
            if named not in presets:
                raise Rejected(f"house rules TOML: base {named!r} is not a preset; presets: {', '.join(presets)}")
            text = spec.rules_toml if "base" in data else f'base = "{spec.preset}"\n{spec.rules_toml}'
            rules = rules_from_toml(text, source="house rules TOML")
        if spec.rules:
            check_house_rules(spec.rules, "house rules", *limits)
            flat = rules.to_dict(sectioned=False)
            for key, value in spec.rules.items():
                if key in SECTIONS and isinstance(value, dict):
                    flat.update(value)
                else:
                    flat[key] = value
            if "name" not in spec.rules:
                flat["name"] = f"{base.name} (house rules)"
            rules = Ruleset.from_dict(flat, source="house rules")
    except BadInput as e:
        raise Rejected(str(e), e.status) from None
    except BigTwoError as e:
        raise Rejected(str(e)) from None
    for what, text in (("name", rules.name), ("description", rules.description)):
        if text == getattr(base, what):
            continue
        if len(text) > settings.max_rules_text_chars:
            raise Rejected(
                f"house rules: the {what} is {len(text):,} characters long; at most {settings.max_rules_text_chars}",
                422,
            )
        problem = text_problem(text)
        if problem:
            raise Rejected(f"house rules: the {what}: {problem}", 422)
    base_flat = base.to_dict(sectioned=False)
    changes = {
        k: v for k, v in rules.to_dict(sectioned=False).items() if base_flat.get(k) != v and k not in ("description",)
    }
    return rules, changes


def check_hand_size(rules: Ruleset, players: int, most: int) -> None:
    """Refuse, in words, rules that can put more than ``most`` cards in one hand at ``players`` seats (the
    leftover or a stock counted): a turn's plays grow about tenfold with every three cards, and every bot, hint
    and check at the table would list them."""
    cards = max_hand_size(rules, players)
    if cards > most:
        raise Rejected(
            f"these rules can give one player {cards} cards at a table of {players}; a hand here holds at most "
            f"{most} (a larger one has too many possible plays to work through): play with more players, or "
            "give the cards left over from the deal another way",
            422,
        )


def check_table_plays(rules: Ruleset, players: int, most: int) -> None:
    """Refuse, in words, rules under which one turn can offer more than ``most`` legal plays (the engine's upper
    bound, :func:`bigtwo.bounds.legal_play_bound`, worked out from the rules alone when the table is opened):
    every bot, hint and list of legal plays at the table works through them, and the time that takes grows
    with them, so such a table would hold the bots' workers for minutes a question."""
    bound = legal_play_bound(rules, players)
    if bound > most:
        raise Rejected(
            f"these rules can offer one player up to {bound:,} different plays in a turn at a table of {players}; "
            f"a table here allows at most {most:,} (working through more takes too long for the bots and the "
            "hints): deal fewer cards, play with more players, or allow fewer kinds of combination, wild jokers "
            "or long straights",
            422,
        )


def check_match_length(rounds: int | None, points: int | None) -> None:
    """Refuse, in words, a match longer than a table may ask for (house rules' ``match_rounds`` and
    ``match_points`` included): the same caps as the API's ``rounds`` and ``points``."""
    if rounds is not None and rounds > MAX_ROUNDS:
        raise Rejected(f"a match here lasts at most {MAX_ROUNDS} rounds, not {rounds:,}", 422)
    if points is not None and points > MAX_POINTS:
        raise Rejected(f"a match here plays to at most {MAX_POINTS:,} points, not {points:,}", 422)


def results_entries(ref: Referee) -> list[ratings.Entry]:
    """A finished table's seats as rating entries: who, final place (ties shared), match points."""
    standings = ref.standings()
    places = ratings.match_places(standings, ref.rules.ranks_only)
    return [ratings.Entry(s.seat, s.player, s.name, places[s.seat], standings["totals"][s.seat]) for s in ref.seats]


def finish_write(ref: Referee) -> store.Write:
    """The room marked over with its standings and, when a signed-in person or a rating is involved, its results
    stored (ratings moved at a rated table: every seat an account or a bot), all in one transaction, once."""
    over = store.update_room(ref.id, status="over", finished_at=ref.finished_at, standings=ref.standings())
    entries = results_entries(ref)
    if not ref.rated and not any(e.player.startswith("account:") for e in entries):
        return over  # no account and no rating: nothing to keep beyond the room

    def results(conn: Any) -> None:
        ratings.record_match(
            conn,
            f"room:{ref.id}",
            ref.preset,
            entries,
            rated=ref.rated and not ref.changes,
            at=ref.finished_at or store.now(),
            public=ref.public,
            room_id=ref.id,
        )

    return store.together([over, results])


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


class Room:
    """One table: its referee, and everything around it that takes time. Build with :meth:`Rooms._restore`."""

    def __init__(self, manager: Rooms, row: dict[str, Any], seat_rows: list[dict[str, Any]]):
        self.manager = manager
        self.ref = Referee(row, seat_rows, manager.clock, manager.settings.bot_table_min_delay)
        self.lock = asyncio.Lock()
        self.conns: set[Connection] = set()
        self.turn_task: asyncio.Task[None] | None = None
        self.break_task: asyncio.Task[None] | None = None
        self.creator: str | None = None  # the address that opened it (for the per-address limits)
        # since when no seated person has been connected (None: one is); spectators do not hold a table
        self.idle_since: float | None = manager.clock()
        self._record: Record | None = None  # a finished game's record, built once
        self._listed: dict[str, Any] | None = None  # the last summary shown (the lobby's while a write runs)
        self._bots: dict[int, tuple[str, Any]] = {}
        # whether a turn here can offer so many plays that even a quick bot, a hint or the list of legal plays
        # may take the event loop for a noticeable time (a 26-card hand of Winner: 43,000 plays, 0.5 s)
        self.large = legal_play_bound(self.rules, self.players) > manager.settings.quick_table_plays
        self._stand_ins: dict[str, str] = {}  # a seated bot this server cannot make now -> the bot playing for it
        # the table's chat: the latest lines (never the server's words about cards), and each seat's pace
        self.chat: deque[dict[str, Any]] = deque(maxlen=manager.settings.chat_kept)
        self._chat_id = 0
        self._chat_pace: dict[int, RateLimit] = {}
        self._help_pace: dict[int, RateLimit] = {}
        self.gone: str | None = None  # why the table was closed before it started (expired, or by its host)

    # --- the referee's state, read-only ----------------------------------------------------------------------
    id = property(lambda self: self.ref.id)
    name = property(lambda self: self.ref.name)
    rules = property(lambda self: self.ref.rules)
    players = property(lambda self: self.ref.players)
    seed = property(lambda self: self.ref.seed)
    rounds = property(lambda self: self.ref.rounds)
    points = property(lambda self: self.ref.points)
    public = property(lambda self: self.ref.public)
    status = property(lambda self: self.ref.status)
    seats = property(lambda self: self.ref.seats)
    match = property(lambda self: self.ref.match)
    actions = property(lambda self: self.ref.actions)
    seq = property(lambda self: self.ref.seq)
    brk = property(lambda self: self.ref.brk)
    broken = property(lambda self: self.ref.broken)
    created_at = property(lambda self: self.ref.created_at)
    finished_at = property(lambda self: self.ref.finished_at)

    def connected_seats(self) -> set[int]:
        return {c.seat for c in self.conns if c.seat is not None}

    def connected(self, seat: int) -> bool:
        return any(c.seat == seat for c in self.conns)

    def _presence_changed(self) -> None:
        """After a connection came, went, or changed seats: a seated person present gives an abandoned table
        back to its people; the last one leaving starts the idle clock. Watching alone holds no table."""
        self.ref.present = self.connected_seats()
        if any(c.seat is not None for c in self.conns):
            self.idle_since = None
            if self.ref.come_back():
                self._schedule()
        elif self.idle_since is None:
            self.idle_since = self.manager.clock()

    def summary(self) -> dict[str, Any]:
        return self.ref.summary(self.connected_seats(), self.manager.settings.link(""))

    async def shown(self) -> dict[str, Any]:
        """The table's summary, built under its lock (as views are: a move the database has not yet stored is
        never shown); kept as the one the lobby lists while a write holds the lock."""
        async with self.lock:
            self._listed = self.summary()
            return self._listed

    async def listed(self) -> dict[str, Any]:
        """The table's summary for the lobby: fresh when nothing holds the table, else the last one shown, so a
        table whose write is slow (a stalled database, a long bot move being stored) never holds up the list of
        every other table."""
        if self.lock.locked() and self._listed is not None:
            return self._listed
        return await self.shown()

    def seat_for_token(self, token: str | None) -> int | None:
        return self.ref.seat_for_token(token)

    def view(self, seat: int | None) -> dict[str, Any]:
        return self.ref.view(seat, self.connected_seats())

    # --- connections ---------------------------------------------------------------------------------------
    # Views are built only under the room's lock: between the engine accepting a move and the database
    # committing it, the match is ahead of the disk, and nobody may see it then.
    async def attach(self, conn: Connection) -> None:
        async with self.lock:
            self.conns.add(conn)
            if self.gone is not None:  # closed while this client was connecting
                conn.send({"type": "error", "message": self.gone, "seq": self.seq})
                conn.close_after_sending(CLOSE_ROOM_CLOSED, self.gone)
                return
            self._presence_changed()
            conn.send_view(self._dump(self.view(None)))
            if self.chat:
                conn.send_chat(self._chat_text())

    async def detach(self, conn: Connection) -> None:
        self.conns.discard(conn)
        conn.stop()
        self._presence_changed()
        if conn.seat is not None:
            async with self.lock:
                self.broadcast()
        self.manager.release(self)

    async def current_view(self, seat: int | None) -> dict[str, Any]:
        async with self.lock:
            return self.view(seat)

    async def view_for_token(self, token: str | None) -> dict[str, Any]:
        """A seat's view for its token (resolved under the lock), or a spectator's without one."""
        async with self.lock:
            seat = self.ref.seat_for_token(token)
            if token and seat is None:
                raise Rejected("this token is not a seat at this table", 403)
            return self.view(seat)

    def broadcast(self) -> None:
        """Send every client its own view (computed once per seat and once for all spectators); call under the lock."""
        if not self.conns:
            return
        cache: dict[int | None, str] = {}
        connected = self.connected_seats()
        for conn in list(self.conns):
            text = cache.get(conn.seat)
            if text is None:
                text = cache[conn.seat] = self._dump(self.ref.view(conn.seat, connected))
            conn.send_view(text)

    @staticmethod
    def _dump(view: dict[str, Any]) -> str:
        return json.dumps(view, separators=(",", ":"), ensure_ascii=False)

    async def handle(self, conn: Connection, msg: Any) -> None:
        """One validated message from a client."""
        try:
            if isinstance(msg, Hello):
                async with self.lock:
                    seat = self.ref.seat_for_token(msg.token)
                    was = conn.seat
                    conn.token, conn.seat = (msg.token, seat) if seat is not None else (None, None)
                    self._presence_changed()
                    if msg.token and seat is None:  # a wrong token leaves the seat it had: it only watches now
                        if was is not None:
                            self.broadcast()
                        raise Rejected("this token is not a seat at this table: you are watching", 403)
                    if was != seat:
                        self.broadcast()
                    else:
                        conn.send_view(self._dump(self.view(seat)))
            elif isinstance(msg, Ping):
                conn.send({"type": "pong", "seq": self.seq})
            elif isinstance(msg, Continue):
                async with self.lock:
                    seat = self._own_seat(conn)
                    ended = self.ref.ready(seat)
                    if ended:
                        self._schedule()
                        self._cancel_break_timer()
                    self.broadcast()
            elif isinstance(msg, Chat):
                await self.say(conn, msg)
            elif isinstance(msg, Hint | Explain | Legal):
                await self.advise(conn, msg)
            elif isinstance(msg, Undo):
                await self.undo(conn, msg.seq)
            elif isinstance(msg, AutoPass):
                await self.orders(conn, msg)
            elif isinstance(msg, Rematch):
                await self.rematch(conn)
            else:
                await self.act(conn.token, answer_of(msg), phase_of(msg), msg.seq, conn=conn)
        except Rejected as e:
            async with self.lock:
                about = getattr(msg, "type", None)
                conn.send({"type": "error", "message": e.message, "seq": self.seq, "about": about})
                if conn.seat is not None:  # a seated client's view may be stale: it gets the current one
                    conn.send_view(self._dump(self.view(conn.seat)))

    def _own_seat(self, conn: Connection) -> int:
        """The connection's seat, checked against its token now (call under the lock)."""
        seat = self.ref.seat_for_token(conn.token) if conn.token else None
        if seat is None:
            conn.seat = conn.token = None
            self._presence_changed()
            raise Rejected("spectators cannot act: take a seat with its token first", 403)
        return seat

    def _pace(self, pace: dict[int, RateLimit], seat: int, per_minute: float, burst: int, what: str) -> None:
        """Refuse (429, in words) a seat asking more often than ``per_minute`` (``burst`` at once)."""
        limit = pace.get(seat)
        if limit is None:
            limit = pace[seat] = RateLimit(per_minute / 60, burst, self.manager.clock)
        if not limit.take():
            wait = max(1, round((1 - limit.tokens) / limit.rate))
            raise Rejected(
                f"too many {what}: at most {per_minute:g} a minute ({burst} at once); try again in {wait} s", 429
            )

    # --- chat ----------------------------------------------------------------------------------------------
    def _chat_text(self) -> str:
        return self._dump({"type": "chat", "seq": self.seq, "messages": list(self.chat)})

    async def say(self, conn: Connection, msg: Chat) -> None:
        """A seat's chat line or emote, to everyone at the table. The server adds only who said it: a line
        never carries anything the server knows about cards."""
        async with self.lock:
            if conn.token is None:
                raise Rejected("spectators watch in silence: take a seat to chat", 403)
            seat = self._own_seat(conn)
            s = self.manager.settings
            self._pace(self._chat_pace, seat, s.chat_per_minute, s.chat_burst, "chat messages")
            self._chat_id += 1
            line: dict[str, Any] = {"id": self._chat_id, "seat": seat, "name": self.seats[seat].name}
            if msg.emote is not None:
                line["emote"] = msg.emote
                line["text"] = EMOTES[msg.emote]
            else:
                line["text"] = msg.text
            self.chat.append(line)
            text = self._chat_text()
            for c in self.conns:
                c.send_chat(text)

    # --- a seat's questions about its own turn ---------------------------------------------------------------
    def _ask(self, conn: Connection) -> int:
        """The asking connection's seat, within its pace for questions (call under the lock)."""
        seat = self._own_seat(conn)
        s = self.manager.settings
        self._pace(self._help_pace, seat, s.help_per_minute, s.help_burst, "requests for help")
        return seat

    async def advise(self, conn: Connection, msg: Hint | Explain | Legal) -> None:
        """A hint, an explanation of the selected cards, or the legal plays: to this connection alone. At a large
        table (:attr:`large`) a hint and the legal plays are worked out in a bot worker, the table free meanwhile;
        the answer names the move it was asked at (``seq``)."""
        async with self.lock:
            seat = self._ask(conn)
            if self.status != "playing" or self.ref.brk is not None or self.match.is_over:
                raise Rejected("there is no turn to help with now", 409)
            words, seq = self.ref.words(seat), self.seq
            work: tuple[Any, ...] | None = None
            if isinstance(msg, Explain):
                answer = advice.explain(self.match, seat, msg.cards, words)
            else:
                kind = "hint" if isinstance(msg, Hint) else "legal"
                seed, obs = derived_seed(self.seed, "hint", seat, seq), self.match.observe(seat)
                if self.large:
                    work = (kind, rules_text(self.rules), obs.to_json(), words, seed)
                else:
                    answer = advice.in_place(kind, self.rules, obs, words, seed)
        if work is not None:
            try:
                answer = await self.manager.bots.call(advice.in_worker, *work, table=self.id)
            except JobTimeout:
                raise Rejected("working that out took too long at this table: it was given up", 503) from None
        conn.send({"type": "help", "seq": seq, **answer})

    # --- standing orders, taking back, a rematch -----------------------------------------------------------
    async def orders(self, conn: Connection, msg: AutoPass) -> None:
        """A person's standing orders to pass (see :meth:`Referee.set_orders`)."""
        async with self.lock:
            seat = self._ask(conn)
            if self.seats[seat].kind != "person":
                raise Rejected("only a person's seat takes standing orders", 403)
            self.ref.set_orders(seat, msg.auto, msg.trick)
            self._schedule()
            self.broadcast()

    async def undo(self, conn: Connection, seq: int | None) -> None:
        """Take back the seat's last turn of this round and the bots' answers since, at a table where every other
        seat is a bot's. The stored actions are deleted first; only then does the match go back."""
        async with self.lock:
            seat = self._ask(conn)
            if seq is not None and seq != self.seq:
                raise Rejected(f"the table has moved on (your view is at move {seq}, the table at {self.seq})", 409)
            point = self.ref.take_back(seat)
            try:
                await self.manager.journal.write(store.delete_actions(self.id, point))
            except Exception:
                log.exception("room %s: could not delete actions from %d", self.id, point)
                raise Rejected("the server could not take the turn back; nothing changed: try again", 503) from None
            self.ref.cut(point)
            self._bots.clear()  # a bot that plans ahead starts its plan again
            self._schedule()
            self.broadcast()

    async def rematch(self, conn: Connection) -> None:
        """A person asks for another match with the same seats; once every connected person has, it opens (its
        seats keep their people, bots and secrets: each person's token is their seat there too)."""
        async with self.lock:
            seat = self._own_seat(conn)
            if self.ref.vote_rematch(seat, self.connected_seats()):
                self.ref.next_room = await self.manager.rematch(self, conn.address)
            self.broadcast()

    # --- moves ---------------------------------------------------------------------------------------------
    async def act(
        self,
        token: str | None,
        answer: Any,
        phase: str | None = None,
        seq: int | None = None,
        seat: int | None = None,
        conn: Connection | None = None,
    ) -> int:
        """A player's move with its token: the token is resolved to a seat under the lock, in the same step that
        applies the move, so a token revoked (or a seat re-taken) a moment ago never moves. Returns the seat."""
        async with self.lock:
            if conn is not None:
                self._own_seat(conn)
            move = self.ref.move(answer, token=token, seat=seat, by="player", seq=seq, phase=phase)
            await self._commit(move)
            return move.seat

    async def submit(self, seat: int, answer: Any, by: str, seq: int | None = None) -> None:
        """The server's own move for a seat (a bot's, or the move timer's)."""
        async with self.lock:
            await self._commit(self.ref.move(answer, seat=seat, by=by, seq=seq))

    async def _commit(self, move: Move) -> None:
        """Store an accepted move, then let the referee move on and tell everyone (call under the lock)."""
        try:
            await self.manager.journal.write(move.row(self.id))
        except Exception:
            log.exception("room %s: could not store action %d", self.id, move.seq)
            await self._reload()  # memory never runs ahead of the database
            raise Rejected("the server could not save this move, so it was not made; try again", 503) from None
        self.ref.confirm(move, finished_at=self.manager.now())
        if self.ref.status == "over":
            await self._finish()
        elif self.ref.brk is not None:  # this move ended a round: the score table shows
            self._start_break_timer()
        self._schedule()
        self.broadcast()

    async def _reload(self) -> None:
        def read() -> Any:
            with self.manager.engine.connect() as conn:
                return store.load_room(conn, self.id)

        try:
            loaded = await asyncio.to_thread(read)
        except Exception:
            log.exception("room %s: could not reload from the database; replaying from memory", self.id)
            self.ref.undo()
            return
        self.ref.undo(loaded[2] if loaded is not None else None)

    async def record(self) -> Record:
        """The finished match's record (names, date, table), built once off the event loop."""
        if self._record is None:
            names = [s.name for s in self.seats]
            self._record = await asyncio.to_thread(room_record, self.match, names, self.name, self.id, self.finished_at)
        return self._record

    async def _finish(self) -> None:
        """Mark the match over and store its results (ratings too, at a rated table) in one transaction: a
        restart that finds the last action stored but not this finds the match over and does it then."""
        try:
            await self.manager.journal.write(finish_write(self.ref))
        except Exception:  # the actions are stored: a restart sees the match is over and says so
            log.exception("room %s: could not mark the game over", self.id)
        self.manager.release(self)

    async def _apply(self, change: Change) -> Any:
        """Commit a host's (or a joining player's) change, then apply it and tell everyone (under the lock)."""
        await self.manager.journal.write(store.together(change.writes))
        change.apply()
        self._schedule()
        self.broadcast()
        return change.result

    # --- turns, bots, timers, breaks -------------------------------------------------------------------------
    def resume(self) -> None:
        """Start the room's clocks after a rebuild (on the event loop): the break it was in, or the turn."""
        self.ref.resume()
        if self.ref.brk is not None:
            self._start_break_timer()
        self._schedule()

    def _schedule(self) -> None:
        """Start whatever the referee's turn needs: a bot's move, or the move timer of a person."""
        current = asyncio.current_task()
        if self.turn_task is not None and self.turn_task is not current:
            self.turn_task.cancel()
        self.turn_task = None
        turn = self.ref.turn
        if turn is None:
            return
        loop = asyncio.get_running_loop()
        if turn.kind == "bot":
            self.turn_task = loop.create_task(self._bot_turn(turn))
        elif turn.kind == "auto":
            self.turn_task = loop.create_task(self._auto_pass(turn))
        else:
            self.turn_task = loop.create_task(self._timeout(turn))

    async def _sleep_until(self, due: float) -> None:
        """Sleep until the room's clock reads ``due``. An event loop may wake a timer a little early by that clock
        (uvloop counts whole milliseconds, so a sleep of 40 µs may end at once), and a deadline not yet reached is
        not acted on (``time_up``,
        ``break_over``): a move timer woken 0.1 ms early used to give up, and the table waited for ever. The rest is
        slept again (a few times at most: an injected clock that stands still does not hold the room)."""
        for _ in range(SLEEP_TRIES):
            left = due - self.manager.clock()
            if left <= 0:
                return
            await asyncio.sleep(max(left, 0.001))  # a shorter sleep may be rounded down to none at all

    def playing_bot(self, seat: int) -> str:
        """The bot that plays the seat: its own, or, where this server cannot make that one any more (a server's
        own bot left out of its settings since the table began, or whose network's file is gone), a stand-in:
        the table's default bot, so the seat plays on as well as the server can. The seat keeps its bot's name
        (its rating, its record); the substitution is logged once a table."""
        name = self.seats[seat].bot or "greedy"
        stand_in = self._stand_ins.get(name)
        if stand_in is None:
            why = cannot_play(name, self.rules, self.players)
            stand_in = name
            if why is not None:
                budget = self.manager.settings.bot_budget_ms
                stand_in = default_bot(self.rules, self.players, self.ref.bot_delay, budget)
                log.warning("room %s: bot %s cannot play here (%s); %s plays its seats", self.id, name, why, stand_in)
            self._stand_ins[name] = stand_in
        return stand_in

    def _bot(self, seat: int) -> tuple[str, Any]:
        """The seat's quick bot (kept between turns, as a bot may plan ahead), by its registered name."""
        name = self.playing_bot(seat)
        held = self._bots.get(seat)
        if held is None or held[0] != name:
            held = self._bots[seat] = (name, make_bot(name, seed=derived_seed(self.seed, "bot", seat, self.seq)))
        return held

    def _think(self, seat: int, due: float) -> tuple[asyncio.Future[Any] | None, float]:
        """A bot that thinks starts when its turn begins, in a worker process, so its thinking is part of the
        table's delay rather than added to it: its budget is the time until ``due`` (at most the server's; a
        delay shorter than MIN_THINK_MS leaves it the server's budget). None for a quick bot (it answers in place,
        when the delay is over). Called under the room's lock.

        Also when its answer may be given: not before its whole budget has passed, had it a choice or not. A
        bot with one legal play (a forced pass) answers at once, one that chooses at the end of its budget, so
        an answer given as soon as it came would tell the table which it was."""
        name = self.playing_bot(seat)
        if self.manager.bots.quick(name) and not self.large:
            return None, due
        now = self.manager.clock()
        settings = self.manager.settings
        alone = self.ref.bots_alone  # nobody's game waits: a shorter think, so a people's bot waits less for it
        server_budget = min(settings.bot_budget_ms, settings.bot_table_budget_ms) if alone else settings.bot_budget_ms
        budget = min(server_budget, 1000 * (due - now))
        given = budget if budget >= MIN_THINK_MS else (server_budget if alone else None)
        key = derived_seed(self.seed, "bot", seat, 0)
        priority = BOTS_ALONE if alone else PEOPLE
        thinking = asyncio.ensure_future(
            self.manager.bots.choose(
                self.id, seat, name, key, self.rules, self.match.observe(seat).to_json(), priority, given,
            )
        )  # fmt: skip
        return thinking, max(due, now + (server_budget if given is None else given) / 1000)

    async def _bot_turn(self, turn: Turn) -> None:
        seat, seq = turn.seat, turn.seq
        thinking: asyncio.Future[Any] | None = None
        answer_at = turn.due
        try:
            async with self.lock:
                if not self.ref.waiting_for(turn):
                    return
                thinking, answer_at = self._think(seat, turn.due)
            await self._sleep_until(turn.due)
            async with self.lock:
                if not self.ref.waiting_for(turn):  # the table moved on meanwhile: the thinking is dropped
                    return
                name = self.playing_bot(seat)
                obs = self.match.observe(seat)  # the position the thinking began on (the same turn, no move since)
            fallback: Any = None  # the engine's own legal action, should the bot fail (worked out only then)
            try:
                if thinking is None:  # (no await since the check above: still this turn)
                    choice = self._bot(seat)[1].choose(self.rules, obs)  # made here too: making one may fail
                else:  # a bot that thinks runs in a worker process, within its budget
                    choice = await thinking
                    await self._sleep_until(answer_at)  # a forced move waits as long as a chosen one
            except asyncio.CancelledError:
                raise
            except Exception:  # a bot that fails must not stall the table: the engine's default moves instead
                log.exception("room %s: bot %s failed to choose; the engine moves for seat %d", self.id, name, seat)
                self._bots.pop(seat, None)
                # asked again next turn: a bot that cannot be made any more (its file is gone) gets a stand-in then
                self._stand_ins.pop(self.seats[seat].bot or "greedy", None)
                choice = fallback = await self._fallback(seat, seq)
            try:
                await self.submit(seat, choice, by="bot", seq=seq)
            except Rejected as e:
                if not (self.seq == seq and e.status == 422):
                    raise
                # the bot's own mistake: the engine's legal default plays instead
                log.error("room %s: bot %s chose %s: %s", self.id, name, choice, e.message)
                if fallback is None:
                    fallback = await self._fallback(seat, seq)
                await self.submit(seat, fallback, by="bot", seq=seq)
        except asyncio.CancelledError:
            raise
        except Rejected as e:  # the table moved on (paused, or the seat changed hands): nothing to do
            if e.status == 503:
                await self._retry_turn(seq)
        except Exception:
            log.exception("room %s: bot turn failed", self.id)
        finally:
            if thinking is not None:  # dropped (the table moved on, or closed): no answer is waited for
                thinking.cancel()
                if thinking.done() and not thinking.cancelled():
                    thinking.exception()  # retrieved, so that a failure dropped with it is not reported later

    async def _plain_move(self, seat: int) -> Any:
        """The engine's move for a seat that did not choose (:meth:`Match.default_action`): a person whose time
        is up, a bot that failed. At a large table a lead (the lowest play: every play listed) is worked out in a
        bot worker, from the seat's observation."""
        m = self.match
        g = m.game
        if not self.large or m.pending is not None or g is None or g.pass_allowed():
            return m.default_action()
        return await self.manager.bots.call(
            lowest_play, rules_text(self.rules), m.observe(seat).to_json(), table=self.id
        )

    async def _fallback(self, seat: int, seq: int) -> Any:
        """The engine's own legal action for the turn ``seq`` (:meth:`_plain_move`), for a bot that failed; None
        when the table has moved on (the submission is then refused as stale). Asked only on a failure: listing
        a large hand's plays takes time."""
        return await self._plain_move(seat) if self.seq == seq and not self.match.is_over else None

    async def _retry_turn(self, seq: int) -> None:
        """The database refused the server's own move (a bot's, or the timer's): try again in a second."""
        await asyncio.sleep(1.0)
        async with self.lock:
            if self.seq == seq:
                self.ref.plan()
                self._schedule()

    async def _timeout(self, turn: Turn) -> None:
        """Time is up: the server plays for the seat (pass when allowed, else the lowest legal play)."""
        try:
            await self._sleep_until(turn.due)
            async with self.lock:
                if not self.ref.time_up(turn):
                    return
                if self.ref.rated and not self.connected(turn.seat) and self.seats[turn.seat].kind == "person":
                    # away from a rated match: a bot plays the seat out, and the result is still theirs
                    await self._apply(self.ref.take_over(turn.seat, self.ref.bot))
                    return
                choice = await self._plain_move(turn.seat)  # the pass when allowed, else the lowest play
                await self._commit(self.ref.move(choice, seat=turn.seat, by="timeout", seq=turn.seq))
        except asyncio.CancelledError:
            raise
        except Rejected as e:
            if e.status == 503:
                await self._retry_turn(turn.seq)
        except Exception:
            log.exception("room %s: timeout move failed", self.id)

    async def _auto_pass(self, turn: Turn) -> None:
        """A person's standing order: pass for them (after a short pause, so the table sees it happen)."""
        try:
            await self._sleep_until(turn.due)
            async with self.lock:
                if not self.ref.waiting_for(turn):
                    return
                await self._commit(self.ref.move("pass", seat=turn.seat, by="auto", seq=turn.seq))
        except asyncio.CancelledError:
            raise
        except Rejected as e:
            if e.status == 503:
                await self._retry_turn(turn.seq)
        except Exception:
            log.exception("room %s: standing-order pass failed", self.id)

    def _start_break_timer(self) -> None:
        self._cancel_break_timer()
        brk = self.ref.brk
        if brk is not None:
            self.break_task = asyncio.get_running_loop().create_task(self._break_timer(brk))

    def _cancel_break_timer(self) -> None:
        if self.break_task is not None and self.break_task is not asyncio.current_task():
            self.break_task.cancel()
        self.break_task = None

    async def _break_timer(self, brk: Break) -> None:
        await self._sleep_until(brk.until)
        async with self.lock:
            if self.ref.break_over(brk):
                self.break_task = None
                self.ref.end_break()
                self._schedule()
                self.broadcast()

    # --- the host, and joining -----------------------------------------------------------------------------
    async def start(self, token: str | None, fill_with_bots: bool) -> None:
        async with self.lock:
            self._check_open()
            change = self.ref.start(token, fill_with_bots)
            if self.ref.would_be_bots_alone(fill_with_bots=fill_with_bots):
                self.manager.check_bot_tables(self)
            await self._apply(change)

    async def play_out(self, move_seconds: float) -> None:
        """No seated person is here: the server moves for the absent people (unless one came back meanwhile)."""
        async with self.lock:
            if self.idle_since is not None and self.status in ("playing", "paused"):
                await self._apply(self.ref.abandon(move_seconds))

    async def pause(self, token: str | None, paused: bool) -> None:
        async with self.lock:
            change = self.ref.pause(token, paused)
            if not paused and self.ref.bots_alone:
                self.manager.check_bot_tables(self)
            await self._apply(change)

    async def change_seat(self, token: str | None, seat: int, kind: str, bot: str | None) -> None:
        async with self.lock:
            self._check_open()
            name = check_bot(bot, self.ref.bot, self.rules, self.ref.players) if kind == "bot" else None
            change = self.ref.change_seat(token, seat, kind, name, connected=self.connected(seat))
            if kind == "bot" and self.status == "playing" and self.ref.would_be_bots_alone(seat=seat):
                self.manager.check_bot_tables(self)
            await self.manager.journal.write(store.together(change.writes))
            change.apply()
            self._bots.pop(seat, None)
            for c in self.conns:
                if c.seat == seat:  # a revoked token no longer acts (nor shows the seat)
                    c.seat = c.token = None
            self._presence_changed()
            if self.ref.brk is None:
                self._cancel_break_timer()
            self._schedule()
            self.broadcast()

    async def join(self, name: str, seat: int | None, account: tuple[int, str] | None = None) -> tuple[int, str]:
        """A person takes a seat: a signed-in one (``account``: id and username) under their username."""
        async with self.lock:
            self._check_open()
            if account is not None:
                change = self.ref.join(account[1], seat, account[0])
            else:
                change = self.ref.join(person_name(name), seat)
            result: tuple[int, str] = await self._apply(change)
            return result

    async def close_by_host(self, token: str | None) -> None:
        """The host closes a table not yet started: it is deleted (as an expired one is), so it no longer counts
        among the tables its address may have open, and everyone at it is told."""
        async with self.lock:
            self._check_open()
            self.ref.check_host(token)
            if self.status != "waiting":
                raise Rejected(
                    f"only a table not yet started can be closed; this one is {self.status}: a game in play ends "
                    "when it is finished, or is played out once nobody seated stays connected",
                    409,
                )
            await self.manager.journal.write(lambda conn: store.delete_rooms(conn, [self.id]))
            self.manager.forget(self)
            self.close("the host closed this table")
        await self.manager.unlink_rematches([self.id])

    def _check_open(self) -> None:
        if self.gone is not None:
            raise Rejected(self.gone, 409)

    def close(self, reason: str) -> None:
        """The room is going away (expired, or closed by its host): tell its clients why, and stop its clocks."""
        self.gone = reason
        for conn in list(self.conns):
            conn.send({"type": "error", "message": reason, "seq": self.seq})
            conn.close_after_sending(CLOSE_ROOM_CLOSED, reason)
        self.stop()

    def stop(self) -> None:
        for task in (self.turn_task, self.break_task):
            if task is not None:
                task.cancel()
        self.turn_task = self.break_task = None


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
    ):
        self.engine = engine
        self.settings = settings or Settings()
        self.clock = clock
        self.now = now
        self.new_seed: Callable[[], int] = seeds or (lambda: secrets.randbits(63))  # each new table's deal
        self.journal = store.Journal(engine)
        for name, spec in self.settings.bots.items():  # the operator's own bots, offered beside the built-in ones
            register_spec(name, spec)
        s = self.settings
        self.bots = BotPool(s.bot_workers, s.bot_budget_ms, s.bots, job_seconds=s.bot_job_seconds)
        self.rooms: dict[str, Room] = {}  # live rooms, and finished ones someone is still looking at
        self.finished: OrderedDict[str, Room] = OrderedDict()  # the most recently used finished rooms
        self.opened: dict[str, deque[float]] = {}  # per address: when it opened its recent rooms
        self.sockets: Counter[str] = Counter()  # open WebSockets per address
        self.room_sockets: Counter[Any] = Counter()  # open WebSockets per room id, and per (room id, address)
        self.connected: dict[str, deque[float]] = {}  # per address: when its recent WebSockets were admitted
        self.pending: Counter[str] = Counter()  # tables being stored, per address
        self.reads: OrderedDict[str, RateLimit] = OrderedDict()  # per address: its pace of reading views
        self.expired = 0

    # --- loading ---------------------------------------------------------------------------------------------
    def load_live(self) -> int:
        """Rebuild every unfinished room (at start, before serving): a restart resumes each game. Tables never
        started that have expired are deleted instead."""
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

    # --- limits ----------------------------------------------------------------------------------------------
    def live(self) -> list[Room]:
        return [r for r in self.rooms.values() if r.status in LIVE]

    def check_can_open(self, address: str) -> None:
        """Refuse (429, in words) an address that opened too many tables, or any when the server is full."""
        s = self.settings
        live = self.live()
        if len(live) + sum(self.pending.values()) >= s.max_rooms:
            raise Rejected(
                f"the server is full ({plural(s.max_rooms, 'table')} not yet finished): try again later", 503
            )
        mine = sum(1 for r in live if r.creator == address) + self.pending[address]
        if mine >= s.rooms_per_address:
            raise Rejected(
                f"you have {plural(mine, 'table')} not yet finished, the most one address may have: close one not "
                f"yet started (its page has a Close button for its host), or finish one; a table nobody starts "
                f"closes by itself {plural(s.waiting_room_minutes, 'minute')} after it was opened",
                429,
            )
        now = self.clock()
        recent = self.opened.setdefault(address, deque())
        while recent and recent[0] <= now - 60:
            recent.popleft()
        if len(recent) >= s.rooms_per_address_per_minute:
            wait = int(recent[0] + 60 - now) + 1
            opened = plural(len(recent), "table")
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

    def admit_connection(self, address: str) -> str | None:
        """Why a new WebSocket from ``address`` is refused before any table is looked up (None: it may go on).

        Counts admitted connections in a sliding minute, at most the limit of them, so a client that reconnects
        flat out costs a refusal each time and no memory."""
        now = self.clock()
        recent = self.connected.setdefault(address, deque())
        while recent and recent[0] <= now - 60:
            recent.popleft()
        limit = self.settings.sockets_per_address_per_minute
        if len(recent) >= limit:
            wait = int(recent[0] + 60 - now) + 1
            opened = plural(limit, "connection")
            return f"your address opened {opened} in the last minute, the most allowed: try again in {wait} s"
        recent.append(now)
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
        free = sum(1 for seat in room.seats if seat.kind == "person" and not room.connected(seat.seat))
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
            except Exception:
                log.exception("could not close the expired tables")

    # --- opening ---------------------------------------------------------------------------------------------
    async def create(
        self, spec: CreateRoom, address: str = "", account: tuple[int, str] | None = None
    ) -> tuple[Room, str, int | None, str | None]:
        """Open a table. Everything is checked, and the room built in memory, before anything is stored. A
        signed-in host (``account``: id and username) takes seat 0 as themselves when ``host_name`` is given."""
        self.check_can_open(address)
        rules, changes = build_rules(spec, self.settings)
        if spec.rated:
            if account is None:
                raise Rejected("a rated table needs a signed-in host: sign in first", 403)
            if changes or ratings.family_of(spec.preset) is None:
                raise Rejected("a rated table plays a preset as it is: house rules make a table unrated", 422)
        players = rules.players if spec.players is None else spec.players
        seed = self.new_seed()
        try:
            match = Match(rules, players=players, seed=seed, rounds=spec.rounds, points=spec.points)
        except BigTwoError as e:
            raise Rejected(str(e)) from None
        check_match_length(match.max_rounds, match.points)
        check_hand_size(rules, players, self.settings.max_hand_cards)
        check_table_plays(rules, players, self.settings.max_table_plays)
        default = check_bot(
            spec.bot, default_bot(rules, players, spec.bot_delay, self.settings.bot_budget_ms), rules, players
        )
        specs = spec.seats or []
        if specs and len(specs) != players:
            raise Rejected(f"seats lists {plural(len(specs), 'seat')} but the table has {players}")
        host_token = secrets.token_urlsafe(24)
        seat_token = None
        room_id = secrets.token_hex(5)
        host: Seat | None = None  # the host takes seat 0, and the bots are named around them
        host_seat = None
        if spec.host_name:
            seat_token = secrets.token_urlsafe(24)
            host_seat = 0
            if account is not None:
                host = Seat(0, "person", account[1], None, store.token_hash(seat_token), account[0])
            else:
                host = Seat(0, "person", person_name(spec.host_name), None, store.token_hash(seat_token))
        seat_list: list[Seat] = []
        for i in range(players):
            sp = specs[i] if specs else None
            if i == 0 and host is not None:
                if sp is not None and sp.kind == "bot":
                    check_bot(sp.bot, default, rules, players)  # refused in words, as it always was
                s = host
            elif sp is not None and sp.kind == "bot":
                s = Seat(i, "bot", "", check_bot(sp.bot, default, rules, players))
                s.name = bot_name(s, [*seat_list, *([host] if host is not None else [])])
            else:
                s = Seat(i, "open", "empty")
            seat_list.append(s)
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
        self.opened.setdefault(address, deque()).append(self.clock())
        try:
            await self.journal.write(store.insert_room(row, seat_rows))
        finally:
            self.pending[address] -= 1
            if not self.pending[address]:
                del self.pending[address]
        self.rooms[room_id] = room
        return room, host_token, host_seat, seat_token

    async def rematch(self, old: Room, address: str) -> str:
        """Open the rematch of a finished room: its rules, length, clocks and seats (people keep their names and
        secrets, bots their strengths), a new deal. Counted against the asking address's limits like any table."""
        self.check_can_open(address)
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
            "status": "waiting" if any(s.kind == "open" for s in ref.seats) else "playing",
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
        }
        room = Room(self, row, seat_rows)
        room.creator = address
        self.pending[address] += 1
        self.opened.setdefault(address, deque()).append(self.clock())
        try:
            await self.journal.write(
                store.together([store.insert_room(row, seat_rows), store.update_room(old.id, rematch=room_id)])
            )
        finally:
            self.pending[address] -= 1
            if not self.pending[address]:
                del self.pending[address]
        self.rooms[room_id] = room
        room.resume()
        return room_id

    async def quick_match(
        self, spec: QuickMatch, account: tuple[int, str], address: str = ""
    ) -> tuple[Room, str, int | None, str | None]:
        """A rated table started at once: the person at seat 0, bots of the chosen rating band at the others
        (the closest ratings to the person's first, each bot as often as needed)."""
        family = ratings.family_of(spec.preset)
        if family is None:
            raise Rejected(f"no rated preset named {spec.preset!r}; presets: {', '.join(ratings.FAMILIES)}", 422)
        rules = load_rules(spec.preset)
        players = rules.players

        def read() -> tuple[float, dict[str, float]]:
            with self.engine.connect() as conn:
                mine = ratings.rating_of(conn, f"account:{account[0]}", family)["rating"]
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
        create = CreateRoom.model_validate(
            {
                "name": f"{account[1]}'s quick match",
                "preset": spec.preset,
                "rounds": spec.rounds,
                "seats": seats,
                "host_name": account[1],
                "move_seconds": spec.move_seconds,
                "bot_delay": spec.bot_delay,
                "break_seconds": spec.break_seconds,
                "bot": chosen[0][1],
                "rated": True,
            }
        )
        room, host_token, seat, token = await self.create(create, address, account)
        await room.start(host_token, fill_with_bots=False)
        return room, host_token, seat, token

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
