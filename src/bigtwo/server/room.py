"""The room: the asynchronous shell around one table's referee.

A :class:`Room` holds one table's :class:`~bigtwo.server.referee.Referee` (the synchronous judge of every move
and every question of procedure) and does what takes time around it, under the room's lock: it asks the
referee, writes what the referee decided to the database and waits for the commit, and only then lets the
referee's memory move on and tells every client. It also sleeps the referee's deadlines (bots' pauses, move
timers, breaks) and has bots think (quick ones at once, the others in worker processes). The registry that
holds every room, and its limits, is :class:`bigtwo.server.rooms.Rooms`."""

from __future__ import annotations

import asyncio
import json
import logging
from collections import deque
from typing import TYPE_CHECKING, Any

from bigtwo.bots import make as make_bot
from bigtwo.bots.registry import cannot_play
from bigtwo.bounds import legal_play_bound
from bigtwo.cards import CardSet
from bigtwo.errors import BigTwoError
from bigtwo.i18n import language
from bigtwo.match import derived_seed
from bigtwo.observation import Phase
from bigtwo.record import Record
from bigtwo.server import advice, ratings, store
from bigtwo.server.botpool import BOTS_ALONE, PEOPLE, JobTimeout, lowest_play, rules_text
from bigtwo.server.connections import CLOSE_MOVED, CLOSE_ROOM_CLOSED, Connection, RateLimit
from bigtwo.server.messages import (
    EMOTES,
    AutoPass,
    Chat,
    Continue,
    ExchangeAnswer,
    Explain,
    Hello,
    Hint,
    Legal,
    Pass,
    Ping,
    PlayCards,
    Rematch,
    Undo,
)
from bigtwo.server.records import room_record
from bigtwo.server.referee import Break, Change, Move, Referee, Rejected, SeatKind, Turn
from bigtwo.server.setup import check_bot, default_bot, person_name

if TYPE_CHECKING:
    from bigtwo.server.rooms import Rooms

log = logging.getLogger("bigtwo.server")

MIN_THINK_MS = 100.0  # a searching bot at a table whose delay is shorter thinks the server's budget, as asked
SLEEP_TRIES = 8  # sleeps to reach a deadline, when the event loop wakes a timer early


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


def phase_of(msg: PlayCards | Pass | ExchangeAnswer | Any) -> Phase:
    """The phase a client's move is meant for (its message type): an exchange answer, or a play or a pass."""
    return Phase.EXCHANGE if getattr(msg, "type", None) == "exchange" else Phase.PLAY


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
        self.moved_away = False  # another server process serves it now (``gone`` says so in words)

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
            if self.gone is not None:  # closed (or moved) while this client was connecting
                if self.moved_away:
                    conn.close_after_sending(CLOSE_MOVED, self.gone)
                    return
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
        cache: dict[tuple[int | None, str], str] = {}
        connected = self.connected_seats()
        for conn in list(self.conns):
            text = cache.get((conn.seat, conn.lang))
            if text is None:
                with language(conn.lang):  # each client's view in its own language
                    text = cache[conn.seat, conn.lang] = self._dump(self.ref.view(conn.seat, connected))
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
            if self.seats[seat].kind != SeatKind.PERSON:
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
        phase: Phase | None = None,
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
                if self.ref.rated and not self.connected(turn.seat) and self.seats[turn.seat].kind == SeatKind.PERSON:
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
            name = check_bot(bot, self.ref.bot, self.rules, self.ref.players) if kind == SeatKind.BOT else None
            change = self.ref.change_seat(token, seat, kind, name, connected=self.connected(seat))
            if kind == SeatKind.BOT and self.status == "playing" and self.ref.would_be_bots_alone(seat=seat):
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

    def moved(self, reason: str) -> None:
        """Another server process serves this table now (a deploy, a hand-over): its clocks stop here, and its
        clients are told to reconnect (the close code the page reconnects on at once)."""
        self.gone = reason
        self.moved_away = True
        for conn in list(self.conns):
            conn.close_after_sending(CLOSE_MOVED, reason)
        self.stop()

    def stop(self) -> None:
        for task in (self.turn_task, self.break_task):
            if task is not None:
                task.cancel()
        self.turn_task = self.break_task = None
