"""The referee of one table, synchronous: who may act, the engine's ruling, the clocks' deadlines.

It holds a table's seats, its live :class:`~bigtwo.match.Match` and its accepted actions, and decides every
question of procedure: is this token a seat, is it that seat's turn, is the move legal (the engine says), what
does the table wait for next and until when, is the break between rounds over. It does no input or output and
never sleeps: time comes from an injected ``clock`` (seconds, monotonic), so a test can move it by hand.

Changes reach memory in two steps so that memory never runs ahead of the database. A move is applied by the
engine (to learn whether it is legal and its canonical spelling) and returned as a :class:`Move`; the room
writes it, then calls :meth:`Referee.confirm` (or :meth:`Referee.undo` when the write failed). A host's change
is returned as a :class:`Change`: the writes it needs, and ``apply`` to call once they are committed.

:class:`bigtwo.server.room.Room` is the asynchronous shell around it: the lock, the database journal, the
WebSockets, the bots' thinking and the timers' sleeping.
"""

from __future__ import annotations

import hmac
import logging
import secrets
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from typing import Any, Literal

from bigtwo.actions import action_text
from bigtwo.errors import BigTwoError, IllegalPlay
from bigtwo.i18n import _
from bigtwo.legal import fewest_to_beat
from bigtwo.match import Match
from bigtwo.observation import Phase
from bigtwo.rules.ruleset import Ruleset
from bigtwo.server import store
from bigtwo.server.names import bot_shaped, skeleton
from bigtwo.server.views import ScoreTable, match_view, spectator_view
from bigtwo.words import TABLE_NAMES, Wording, direction_said

log = logging.getLogger("bigtwo.server")
Clock = Callable[[], float]
AUTO_PASS_SECONDS = 0.4  # the pause before a standing order passes: long enough to see, short enough not to wait
SEATING_GRACE = 30.0  # seconds a signed-in person just seated counts as at the table before their page connects


class Rejected(Exception):
    """A request the server refuses, in words; ``status`` is the HTTP status it maps to."""

    def __init__(self, message: str, status: int = 400):
        super().__init__(message)
        self.message = message
        self.status = status


class SeatKind(StrEnum):
    """Who holds a seat: nobody yet (``open``), a ``person`` (a guest or an account), or a ``bot``. Members equal
    their words, as the database and the views write them."""

    OPEN = "open"
    PERSON = "person"
    BOT = "bot"


@dataclass
class Seat:
    seat: int
    kind: SeatKind
    name: str
    bot: str | None = None
    token: str | None = None  # sha256 of the secret
    account: int | None = None  # a signed-in person's account (None: a guest, a bot, an open seat)

    def to_row(self, room_id: str) -> dict[str, Any]:
        return {
            "room_id": room_id,
            "seat": self.seat,
            "kind": self.kind,
            "name": self.name,
            "bot": self.bot,
            "token": self.token,
            "account_id": self.account,
        }

    @property
    def player(self) -> str:
        """Who the seat is for ratings and player pages: ``account:<id>``, ``bot:<name>`` or ``guest``."""
        # a bot playing out an account's seat is still the account's
        if self.account is not None and self.kind in (SeatKind.PERSON, SeatKind.BOT):
            return f"account:{self.account}"
        if self.kind == SeatKind.BOT:
            return f"bot:{self.bot or 'greedy'}"
        return "guest"


def called(name: str) -> str:
    """What a seat's name is called by, to tell two apart: its skeleton (:func:`bigtwo.server.names.skeleton`:
    any case, spacing, invisible characters, compatibility forms or look-alike letters), a bot's without its kind
    (``Chloe (learned)`` is ``chloe``)."""
    folded = skeleton(name)
    split = bot_shaped(folded)
    return split[0] if split else folded


def bot_name(seat: Seat, others: Sequence[Seat] = ()) -> str:
    """A bot's name at the table: the tables' name for its seat (or the first of them no other seat is called by),
    with its kind (``Chloe (learned)``), so that the players read names, as everywhere else, and still see
    which bot it is."""
    used = {called(s.name) for s in others if s.seat != seat.seat and s.kind != SeatKind.OPEN}
    names = [TABLE_NAMES[seat.seat % len(TABLE_NAMES)], *TABLE_NAMES]
    name = next((n for n in names if n.casefold() not in used), f"Bot {seat.seat}")
    return f"{name} ({seat.bot or 'greedy'})"


@dataclass
class Break:
    """The pause between rounds, while the score table is shown: until every person is ready, or time is up."""

    round: int
    until: float
    ready: set[int] = field(default_factory=set)


@dataclass(frozen=True)
class Turn:
    """What the table waits for: a bot's move (due when its pause is over), a person's (due when time is up), or
    a person's standing order to pass (``auto``: due after a short pause)."""

    kind: Literal["bot", "timer", "auto"]
    seat: int
    seq: int
    due: float


@dataclass(frozen=True)
class Move:
    """A move the engine accepted, not yet stored: the room writes it, then confirms it (or undoes it)."""

    seq: int
    seat: int
    answer: str
    by: str
    phase: Phase
    round_before: int

    def row(self, room_id: str) -> store.ActionRow:
        return store.insert_action(room_id, self.seq, self.seat, self.answer, self.by)


@dataclass
class Change:
    """A host's (or a joining player's) change: the writes it needs, and what to do once they are committed."""

    writes: list[store.Write]
    apply: Callable[[], None]
    result: Any = None


class Referee:
    """One table's state and rules of procedure. ``row`` and ``seat_rows`` are the stored room and seats."""

    def __init__(
        self,
        row: dict[str, Any],
        seat_rows: list[dict[str, Any]],
        clock: Clock = time.monotonic,
        min_bot_delay_alone: float = 0.0,
    ):
        self.clock = clock
        self.min_bot_delay_alone = min_bot_delay_alone  # the least pause of a bot at a table of bots alone
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
        # set while the table is abandoned (nobody connected for a long time): the server moves for absent people
        self.abandoned_move_seconds: float | None = None
        self.bot_delay: float = float(row["bot_delay"])
        self.break_seconds: int = row["break_seconds"]
        self.bot: str = row["bot"]  # the strength of bots added later
        self.created_at: datetime | None = row["created_at"]
        self.finished_at: datetime | None = row.get("finished_at")
        self.rated = bool(row.get("rated") or 0)  # results move ratings (bigtwo.server.ratings)
        self.seats = [
            Seat(r["seat"], SeatKind(r["kind"]), r["name"], r["bot"], r["token"], r.get("account_id"))
            for r in sorted(seat_rows, key=lambda r: r["seat"])
        ]
        self.match = self.new_match()
        self.actions: list[dict[str, Any]] = []  # seq, seat, answer, by, phase: mirrors the actions table
        self.round_start = 0  # seq at which the current round began
        self.brk: Break | None = None
        self.turn: Turn | None = None
        self.broken: str | None = None  # why a stored game could not be replayed (the table is then read-only)
        self._break_due = False
        # where the tricks of the game being played began in its history (public; rebuilt with the match)
        self.tricks: list[int] = []
        self._tricks_of: Any = None
        # people's standing orders: pass whenever the public table shows they cannot beat (``auto``), and pass
        # until the trick in progress ends (the seat, and the trick: round, shoot-out, where it began)
        self.auto: set[int] = set()
        self.pass_trick: dict[int, tuple[int, int, int]] = {}
        self.rematch_votes: set[int] = set()
        self.present: set[int] = set()  # seats with a live connection (the room keeps this up to date)
        self.seated_at: dict[int, float] = {}  # when a person took each seat (this process's clock)
        self.next_room: str | None = row.get("rematch")
        self.scores = ScoreTable()

    def new_match(self) -> Match:
        return Match(self.rules, players=self.players, seed=self.seed, rounds=self.rounds, points=self.points)

    # --- reading -------------------------------------------------------------------------------------------
    @property
    def seq(self) -> int:
        return len(self.actions)

    @property
    def people(self) -> set[int]:
        return {s.seat for s in self.seats if s.kind == SeatKind.PERSON}

    def people_here(self, seats: Sequence[Seat] | None = None) -> set[int]:
        """The people's seats someone is actually at: a live connection (:attr:`present`), or a signed-in person
        seated moments ago (:data:`SEATING_GRACE`: a quick match starts before its page connects). A guest's seat
        nobody connects to is nobody's."""
        now = self.clock()
        return {
            s.seat
            for s in (self.seats if seats is None else seats)
            if s.kind == SeatKind.PERSON
            and (
                s.seat in self.present
                or (s.account is not None and now - self.seated_at.get(s.seat, -SEATING_GRACE) < SEATING_GRACE)
            )
        }

    @property
    def bots_alone(self) -> bool:
        """Nobody is at the table (every seat a bot's, or the people's seats without a live connection): nobody's
        game waits on it, so it gets the least of the server's time and counts against ``max_bot_tables``."""
        return not self.people_here()

    def seat_for_token(self, token: str | None) -> int | None:
        """The seat whose secret ``token`` is, now (None: no seat; a revoked token is no seat)."""
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

    def summary(self, connected: set[int] | frozenset[int] = frozenset(), link: str = "") -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "status": self.status,
            "preset": self.preset,
            "rules_name": self.rules.name,
            "changes": self.changes,
            "players": self.players,
            # which way play goes, for the waiting room's list of seats (before the match view exists)
            "direction_said": direction_said(self.rules.direction, self.players),
            "rounds": self.match.max_rounds,
            "points": self.match.points,
            "move_seconds": self.move_seconds,
            "bot_delay": self.bot_delay,
            "break_seconds": self.break_seconds,
            "bot": self.bot,
            "public": self.public,
            "rated": self.rated,
            "seats": [
                {
                    "seat": s.seat,
                    "kind": s.kind,
                    "name": s.name,
                    "bot": s.bot,
                    "connected": s.seat in connected,
                    "account": s.account is not None,
                }
                for s in self.seats
            ],
            "actions": self.seq,
            "round": self.match.round_index if self.status != "waiting" else None,
            "invite": f"{link}/room/{self.id}",
        }

    def view(self, seat: int | None, connected: set[int] | frozenset[int] = frozenset()) -> dict[str, Any]:
        """Everything one client may see now (a seat's, or a spectator's when ``seat`` is None)."""
        if self.status == "waiting":
            game = None
        else:
            words = self.words(seat)
            tricks = self.tricks if self._tricks_of is not None and self._tricks_of is self.match.game else []
            done = self.scores.rows(self.match, seat, words)
            if seat is not None:
                game = match_view(self.match, seat, words, tricks, done)
            else:
                game = spectator_view(self.match, words, tricks, done)
        now = self.clock() if self.turn or self.brk else 0.0
        timer = None
        if self.turn is not None and self.turn.kind == "timer":
            timer = {
                "seat": self.turn.seat,
                "seconds": self.move_seconds,
                "seconds_left": round(max(0.0, self.turn.due - now), 1),
            }
        brk = None
        if self.brk is not None:
            people = sorted(self.people)
            brk = {
                "round": self.brk.round,
                "seconds_left": round(max(0.0, self.brk.until - now), 1),
                "ready": sorted(self.brk.ready),
                "waiting_for": [s for s in people if s not in self.brk.ready],
            }
        you: dict[str, Any] = {"seat": seat}
        if seat is not None:
            you["auto"] = seat in self.auto
            you["pass_trick"] = self.pass_trick.get(seat) is not None and self.pass_trick[seat] == self._trick_key()
            you["may_undo"] = self._undo_refusal(seat) is None
        rematch = None
        if self.status == "over":
            people = sorted(self.people)
            rematch = {"votes": sorted(self.rematch_votes), "people": people, "room": self.next_room}
        return {
            "type": "view",
            "seq": self.seq,
            "room": self.summary(connected),
            "you": you,
            "match": game,
            "timer": timer,
            "break": brk,
            "last": self._last_public(),
            "recent": self._recent_public(),
            "rematch": rematch,
            "broken": self.broken,
        }

    def words(self, seat: int | None) -> Wording:
        """The table's words for ``seat`` (None: a spectator): names for seats, "you" for its own."""
        return Wording(seat, [s.name for s in self.seats])

    def _last_public(self) -> dict[str, Any] | None:
        """Who made the latest move and how (a person, a bot, the timer); the cards are in the history."""
        recent = self._recent_public(1)
        return recent[0] if recent else None

    def _recent_public(self, count: int = 8) -> list[dict[str, Any]]:
        """Who made the latest moves and how, oldest first: a client that missed a view (views replace each
        other on the way to a slow client) still learns that the timer, or a standing order, moved for someone."""
        out = []
        for a in self.actions[-count:]:
            deciding = a["phase"] in (Phase.EXCHANGE, Phase.DEAL)
            kind = "exchange" if deciding else "pass" if a["answer"] == "pass" else "play"
            out.append({"seq": a["seq"], "seat": a["seat"], "by": a["by"], "action": kind})
        return out

    # --- rebuilding ----------------------------------------------------------------------------------------
    def replay(self, action_rows: list[dict[str, Any]]) -> None:
        """Rebuild the match from stored actions through the engine (each one is checked again)."""
        self.match = self.new_match()
        self.actions = []
        self.round_start = 0
        self.tricks, self._tricks_of = [], None
        for row in action_rows:
            if row["seq"] != len(self.actions):
                self.broken = f"action {len(self.actions)} is missing from the database"
                break
            before, phase = self.match.round_index, self.match.phase
            try:
                self.match.apply(row["answer"], seat=row["seat"])
            except BigTwoError as e:
                self.broken = f"stored action {row['seq']} ({row['answer']!r} by seat {row['seat']}) was refused: {e}"
                log.error("room %s: %s", self.id, self.broken)
                break
            self.actions.append(
                {"seq": row["seq"], "seat": row["seat"], "answer": row["answer"], "by": row["by"], "phase": phase}
            )
            if self.match.round_index != before:
                self.round_start = len(self.actions)
            self._note_trick()
        if self.match.is_over:
            self.status = "over"
        # a round had just ended: the score table shows again when the table resumes (see resume())
        self._break_due = bool(
            self.status == "playing"
            and self.match.round_index > 0
            and self.round_start == len(self.actions)
            and self.break_seconds
            and self.people
        )

    def resume(self) -> Turn | None:
        """After a rebuild: the break it was in starts again, or the turn is planned."""
        if self._break_due:
            self._break_due = False
            self.brk = Break(self.match.round_index, self.clock() + self.break_seconds)
        return self.plan()

    def _note_trick(self) -> None:
        """After an action: remember where the trick in progress began (a new game starts a new list)."""
        g = self.match.game if self.match.phase in (Phase.PLAY, Phase.OVER) else None
        if g is None:
            return
        if g is not self._tricks_of:
            self._tricks_of, self.tricks = g, []
        start = g.trick_start
        if not self.tricks or self.tricks[-1] != start:
            self.tricks.append(start)

    def _trick_key(self) -> tuple[int, int, int] | None:
        """The trick in progress (round, shoot-out, where it began), or None when there is none to beat."""
        m = self.match
        if m.phase != Phase.PLAY or m.pending is not None:
            return None
        g = m.game
        if g is None or g.is_over or g.trick is None:
            return None
        return (m.round_index, len(m.current.shootouts), g.trick_start)

    # --- what the table waits for --------------------------------------------------------------------------
    def plan(self) -> Turn | None:
        """The turn the table now waits for (a bot's move, a person's standing order to pass, or a person's move
        under the move timer), or None."""
        self.turn = None
        if self.status != "playing" or self.brk is not None or self.match.is_over or self.broken:
            return None
        seat = self.match.to_move
        if seat is None:
            return None
        if self.seats[seat].kind == SeatKind.BOT:
            delay = self.bot_delay if self.people_here() else max(self.bot_delay, self.min_bot_delay_alone)
            self.turn = Turn("bot", seat, self.seq, self.clock() + delay)
        elif self.abandoned_move_seconds is not None:  # nobody came back: the table plays itself out
            self.turn = Turn("timer", seat, self.seq, self.clock() + self.abandoned_move_seconds)
        elif self.auto_pass_reason(seat) is not None:
            self.turn = Turn("auto", seat, self.seq, self.clock() + AUTO_PASS_SECONDS)
        elif self.move_seconds > 0:
            self.turn = Turn("timer", seat, self.seq, self.clock() + self.move_seconds)
        return self.turn

    # --- standing orders to pass ---------------------------------------------------------------------------
    def auto_pass_reason(self, seat: int) -> str | None:
        """Why a standing order passes for ``seat`` now ("trick": it passes until the next trick; "public": the
        table shows no hand of its size could beat the play), or None. Decided from public information only (the
        seat's card count, the cards played, the play to beat): passing at once then tells nobody anything."""
        if seat not in self.auto and seat not in self.pass_trick:
            return None
        key = self._trick_key()
        if key is None or self.match.to_move != seat:
            return None
        if self.match.why_not("pass") is not None:
            return None
        if self.pass_trick.get(seat) == key:
            return "trick"
        if seat in self.auto and self.cannot_beat_in_public(seat):
            return "public"
        return None

    def cannot_beat_in_public(self, seat: int) -> bool:
        """Could no hand of ``seat``'s size beat the play on the table, whatever it held of the cards not yet
        seen? (The engine's "automatic turn skip" test, for one seat that asked for it.)"""
        obs = self.match.observe(None)
        if obs.trick is None or obs.ev is None:
            return False
        pool = obs.ev.pack & ~obs.played & ~obs.face_up
        return obs.hand_sizes[seat] < fewest_to_beat(obs.ev, pool, obs.trick)

    def set_orders(self, seat: int, auto: bool | None, trick: bool | None) -> None:
        """A person's standing orders: ``auto`` on or off, ``trick`` (pass until the next trick) on or off."""
        if trick:
            key = self._trick_key()
            if key is None:
                raise Rejected(_("there is no play to beat now: passing until the next trick needs a trick on"), 409)
            g = self.match.game
            assert g is not None
            if seat in g.finishing_order:
                raise Rejected(_("you are out of this round: there is nothing to pass"), 409)
            if g.trick_seat == seat:
                raise Rejected(_("yours is the play to beat: there is nothing to pass"), 409)
        if auto is not None:
            (self.auto.add if auto else self.auto.discard)(seat)
        if trick is not None:
            if trick:
                key = self._trick_key()
                assert key is not None
                self.pass_trick[seat] = key
            else:
                self.pass_trick.pop(seat, None)
        self.plan()

    def waiting_for(self, turn: Turn) -> bool:
        """Is ``turn`` still what the table waits for (no move, pause or seat change since)?"""
        return self.turn == turn and self.seq == turn.seq and self.match.to_move == turn.seat

    def time_up(self, turn: Turn) -> bool:
        """Has ``turn``'s time come (and is it still the table's turn)?"""
        return self.waiting_for(turn) and self.clock() >= turn.due

    # --- moves ---------------------------------------------------------------------------------------------
    def move(
        self,
        answer: Any,
        *,
        token: str | None = None,
        seat: int | None = None,
        by: str = "player",
        seq: int | None = None,
        phase: Phase | None = None,
    ) -> Move:
        """Apply a move to the match if the mover may make it and the engine accepts it; raises :class:`Rejected`.

        A player is named by ``token``, resolved to a seat here, in the same step that applies the move: a token
        revoked a moment ago is no seat. ``seat``, with a token, is the seat the client believes it has. A bot
        (``by="bot"``) or the move timer (``by="timeout"``) name the ``seat``, which must still be a bot's, or a
        person's. ``phase`` ("play" or "exchange"), when given, is the kind of move meant: a play sent during an
        exchange is refused rather than read as an exchange answer. The match is then ahead of the database until
        :meth:`confirm` or :meth:`undo`.
        """
        if by == "player":
            mine = self.seat_for_token(token)
            if mine is None:
                raise Rejected("this token is not a seat at this table", 403)
            if seat is not None and seat != mine:
                raise Rejected(f"this token is {self.seats[mine].name}'s: it cannot act for {self._called(seat)}", 403)
            seat = mine
        elif seat is None or not 0 <= seat < self.players:
            raise Rejected("no seat named for this move", 400)
        elif by == "bot" and self.seats[seat].kind != SeatKind.BOT:
            raise Rejected(f"{self.seats[seat].name}'s seat is no longer a bot's", 409)
        elif by in ("timeout", "auto") and self.seats[seat].kind == SeatKind.BOT:
            raise Rejected(f"{self.seats[seat].name} is a bot: the {by} move is for people", 409)
        m = self.match
        try:
            self._check_turn(seat, seq)
            deciding = m.pending is not None  # a decision (at the deal or in an exchange), not a play
            if phase is not None and (phase == Phase.PLAY) == deciding:
                if deciding:
                    wanted = _("that is not a move for now: the table waits for an answer to the decision")
                else:
                    wanted = _("that is not a move for now: the table waits for a play or a pass")
                raise Rejected(wanted, 409)
            phase, before = m.phase, m.round_index
            taken = m.apply(answer)
        except IllegalPlay as e:
            raise Rejected(self.words(seat).render(e.reason), 422) from None
        except BigTwoError as e:
            raise Rejected(self.words(seat).render(e), 422) from None
        # stored as text that reads back to this very action (cards with their deck copy marked)
        return Move(self.seq, seat, action_text(taken), by, phase, before)

    def _check_turn(self, seat: int, seq: int | None) -> None:
        if self.broken:
            raise Rejected(_("this game cannot go on: {why}").format(why=self.broken), 409)
        if self.status == "waiting":
            raise Rejected(_("the game has not started yet: the host starts it"), 409)
        if self.status == "paused":
            raise Rejected(_("the game is paused: the host resumes it"), 409)
        if self.status == "over" or self.match.is_over:
            raise Rejected(_("the game is over"), 409)
        if self.brk is not None:
            raise Rejected(_("the round is over: the next one starts when everyone is ready"), 409)
        if seq is not None and seq != self.seq:
            moved = _("the table has moved on (your view is at move {seq}, the table at {now})")
            raise Rejected(moved.format(seq=seq, now=self.seq), 409)
        to_move = self.match.to_move
        if to_move != seat:
            who = self.seats[to_move].name if to_move is not None else _("nobody")
            raise Rejected(_("it is not your turn: {name} is to move").format(name=who), 409)

    def confirm(self, move: Move, finished_at: datetime | None = None) -> None:
        """The move is stored: record it, and move on (the end of the match, the break between rounds, the next
        turn)."""
        self.actions.append(
            {"seq": move.seq, "seat": move.seat, "answer": move.answer, "by": move.by, "phase": move.phase}
        )
        if self.match.round_index != move.round_before:
            self.round_start = self.seq
        self._note_trick()
        if self.match.is_over:
            self.status = "over"
            self.finished_at = finished_at or store.now()
        elif self.match.round_index != move.round_before and self.break_seconds and self.people:
            self.brk = Break(self.match.round_index, self.clock() + self.break_seconds)
        self.plan()

    def undo(self, action_rows: list[dict[str, Any]] | None = None) -> None:
        """The move could not be stored: rebuild the match from the stored actions (by default, the ones
        confirmed here), so that memory never runs ahead of the database."""
        self.replay(list(self.actions) if action_rows is None else action_rows)
        self.plan()

    # --- taking back a turn, at a table of one person and bots -----------------------------------------------
    def _undo_refusal(self, seat: int) -> str | None:
        """Why ``seat`` may not take back its last turn now (None: it may)."""
        if self.rated:
            return "a rated match stands as played: no turn is taken back"
        if self.status != "playing" or self.broken or self.match.is_over:
            return "only a game being played can take back a turn"
        if self.brk is not None:
            return "the round is over: a finished round stands"
        if any(s.kind != SeatKind.BOT for s in self.seats if s.seat != seat):
            return "a turn can be taken back only at a table where every other seat is a bot's"
        if self.undo_point(seat) is None:
            return "you have not played in this round yet: there is nothing to take back"
        return None

    def undo_point(self, seat: int) -> int | None:
        """The move (its seq) where ``seat``'s last turn of this round's play began, or None."""
        for a in reversed(self.actions[self.round_start :]):
            if a["phase"] != Phase.PLAY:
                return None
            if a["seat"] == seat:
                return int(a["seq"])
        return None

    def take_back(self, seat: int) -> int:
        """Check that ``seat`` may take back its last turn; the seq the game goes back to (the room deletes the
        stored actions from there, then calls :meth:`cut`)."""
        why = self._undo_refusal(seat)
        if why is not None:
            raise Rejected(why, 409)
        point = self.undo_point(seat)
        assert point is not None
        return point

    def cut(self, seq: int) -> None:
        """The stored actions from ``seq`` on are deleted: the match goes back to the position before them."""
        self.replay(self.actions[:seq])
        self._break_due = False
        self.plan()

    # --- a rematch -----------------------------------------------------------------------------------------
    def vote_rematch(self, seat: int, connected: set[int]) -> bool:
        """A person asks for a rematch; True when every connected person has (the room then opens it)."""
        if self.status != "over":
            raise Rejected(_("a rematch can be asked for once the match is over"), 409)
        if self.seats[seat].kind != SeatKind.PERSON:
            raise Rejected(_("only a person at the table can ask for a rematch"), 403)
        self.rematch_votes.add(seat)
        wanted = self.people & connected
        return self.next_room is None and wanted <= self.rematch_votes

    def standings(self) -> dict[str, Any]:
        m = self.match
        return {"standings": m.standings(), "totals": list(m.totals), "places": list(m.places)}

    # --- the break between rounds --------------------------------------------------------------------------
    def ready(self, seat: int) -> bool:
        """A person is ready for the next round; True when that ended the break (every person is ready)."""
        if self.brk is None:
            raise Rejected(_("there is no break to end: the round is on"), 409)
        self.brk.ready.add(seat)
        if self.people <= self.brk.ready:
            self.end_break()
            return True
        return False

    def end_break(self) -> None:
        self.brk = None
        self.plan()

    def break_over(self, brk: Break) -> bool:
        """Has ``brk``'s time run out (and is it still the break)?"""
        return self.brk is brk and self.clock() >= brk.until

    # --- the host and the seats ----------------------------------------------------------------------------
    def check_host(self, token: str | None) -> None:
        if not self.is_host(token):
            raise Rejected("only the host may do this (the host token is missing or wrong)", 403)

    def start(self, token: str | None, fill_with_bots: bool) -> Change:
        self.check_host(token)
        if self.status != "waiting":
            raise Rejected(f"the game has already started (it is {self.status})", 409)
        empty = [s.seat for s in self.seats if s.kind == SeatKind.OPEN]
        if empty and not fill_with_bots:
            if len(empty) == 1:
                said = f"seat {empty[0]} is empty: invite a friend, give it to a bot"
            else:
                said = f"seats {', '.join(map(str, empty))} are empty: invite friends, give them to bots"
            raise Rejected(f"{said}, or fill with bots", 409)
        filled = [Seat(i, SeatKind.BOT, "", self.bot) for i in empty]
        named = [s for s in self.seats if s.kind != SeatKind.OPEN]
        for s in filled:
            s.name = bot_name(s, named)
            named.append(s)
        writes = [
            store.update_seat(self.id, s.seat, kind=SeatKind.BOT, bot=s.bot, name=s.name, token=None) for s in filled
        ]
        writes.append(store.update_room(self.id, status="playing"))

        def apply() -> None:
            for s in filled:
                self.seats[s.seat] = s
            self.status = "playing"
            self.plan()

        return Change(writes, apply)

    def would_be_bots_alone(self, fill_with_bots: bool = False, seat: int | None = None) -> bool:
        """Would the table be bots alone (:attr:`bots_alone`) after a start (filling the empty seats) or after
        ``seat`` goes to a bot?"""
        seats = [s for s in self.seats if s.seat != seat]
        return not self.people_here(seats)

    def abandon(self, move_seconds: float) -> Change:
        """Nobody has been connected for a long time: the server moves for absent people after ``move_seconds``
        (a paused game resumes), until someone comes back (:meth:`come_back`)."""
        writes = [store.update_room(self.id, status="playing")] if self.status == "paused" else []

        def apply() -> None:
            self.status = "playing"
            self.abandoned_move_seconds = move_seconds
            self.plan()

        return Change(writes, apply)

    def come_back(self) -> bool:
        """Somebody connected to an abandoned table: it waits for its people again. Whether it was abandoned."""
        if self.abandoned_move_seconds is None:
            return False
        self.abandoned_move_seconds = None
        self.plan()
        return True

    def pause(self, token: str | None, paused: bool) -> Change:
        self.check_host(token)
        want, have = ("paused", "playing") if paused else ("playing", "paused")
        if self.status != have:
            raise Rejected(
                f"the game is {self.status}: only a {have} game can be {'paused' if paused else 'resumed'}", 409
            )

        def apply() -> None:
            self.status = want
            self.plan()

        return Change([store.update_room(self.id, status=want)], apply)

    def _called(self, seat: int | None) -> str:
        """A seat as players know it: by who sits there (its number when it is empty or not at the table)."""
        if seat is None or not 0 <= seat < self.players:
            return f"seat {seat}"
        s = self.seats[seat]
        return f"seat {seat}" if s.kind == SeatKind.OPEN else f"{s.name}'s seat"

    def change_seat(self, token: str | None, seat: int, kind: str, bot: str | None, connected: bool) -> Change:
        """The host gives a seat to a bot (``bot``: its checked name) or opens it; a connected person keeps it."""
        self.check_host(token)
        if not 0 <= seat < self.players:
            raise Rejected(f"seat {seat} is not at this table (0-{self.players - 1})", 404)
        if self.status == "over":
            raise Rejected("the game is over", 409)
        s = self.seats[seat]
        # a rated match is played by the seats it started with: a seat opened mid-match would hand its cards to
        # whoever joins, and a seat left open would leave the match unrated; a player who leaves is played out
        # by a bot (:meth:`take_over`), and the result is theirs
        if self.rated and self.status != "waiting":
            raise Rejected(
                "this table is rated: its seats stay as they are until the match ends (a player who leaves is "
                "played out by a bot, and the result is still theirs)",
                409,
            )
        if s.kind == SeatKind.PERSON and connected:
            raise Rejected(f"{s.name} is connected: only a disconnected player can be replaced", 409)
        new = Seat(seat, SeatKind.BOT, "", bot) if kind == SeatKind.BOT else Seat(seat, SeatKind.OPEN, "empty")
        if kind == SeatKind.BOT:
            new.name = bot_name(new, self.seats)

        def apply() -> None:
            self.seats[seat] = new  # the old token is no seat from now on
            if self.brk is not None and self.people <= self.brk.ready:
                self.end_break()
            else:
                self.plan()

        write = store.update_seat(
            self.id, seat, kind=new.kind, bot=new.bot, name=new.name, token=None, account_id=new.account
        )
        return Change([write], apply)

    def take_over(self, seat: int, bot: str) -> Change:
        """A person's time ran out while they were away from a rated match: ``bot`` plays their seat out for them
        (the seat keeps their account, so the result moves their rating: leaving cannot escape it)."""
        s = self.seats[seat]
        new = Seat(seat, SeatKind.BOT, "", bot, None, s.account)
        new.name = bot_name(new, self.seats)

        def apply() -> None:
            self.seats[seat] = new
            self.plan()

        write = store.update_seat(
            self.id, seat, kind=SeatKind.BOT, bot=bot, name=new.name, token=None, account_id=s.account
        )
        return Change([write], apply)

    def join(self, name: str, seat: int | None, account: int | None = None) -> Change:
        """A person takes an open seat (for ``account`` when signed in); ``Change.result`` is (seat, the seat's
        secret token). A rated table seats signed-in people only, and an account once."""
        if self.status == "over":
            raise Rejected("the game is over", 409)
        if self.rated and account is None:
            raise Rejected(_("this table is rated: sign in to take a seat (or watch as a guest)"), 403)
        mine = [s.seat for s in self.seats if account is not None and s.account == account]
        if mine:
            raise Rejected(f"you already have a seat at this table, as {self.seats[mine[0]].name}", 409)
        open_seats = [s.seat for s in self.seats if s.kind == SeatKind.OPEN]
        if seat is None:
            if not open_seats:
                raise Rejected(_("the table is full: you can watch"), 409)
            seat = open_seats[0]
        elif not 0 <= seat < self.players:
            raise Rejected(f"seat {seat} is not at this table (0-{self.players - 1})", 404)
        elif seat not in open_seats:
            raise Rejected(
                f"seat {seat} is taken by {self.seats[seat].name}; open seats: "
                f"{', '.join(map(str, open_seats)) or 'none'}",
                409,
            )
        same = [s for s in self.seats if s.kind != SeatKind.OPEN and called(s.name) == called(name)]
        if same:
            fix = "choose another name" if account is None else "a signed-in player plays under their username"
            raise Rejected(f"{same[0].name} is already at this table: {fix}", 409)
        token = secrets.token_urlsafe(24)
        new = Seat(seat, SeatKind.PERSON, name, None, store.token_hash(token), account)
        taken = seat

        def apply() -> None:
            self.seats[taken] = new
            self.seated_at[taken] = self.clock()
            self.plan()

        write = store.update_seat(
            self.id, seat, kind=SeatKind.PERSON, name=name, bot=None, token=new.token, account_id=account
        )
        return Change([write], apply, (seat, token))
