"""The table's referee, its clients' limits and the server's settings, tested without a server or an event loop.

The referee takes its time from an injected clock, so its timers, bots' pauses and breaks are checked by moving
that clock by hand: no test here sleeps.
"""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from bigtwo.bots import make
from bigtwo.server import store
from bigtwo.server.connections import CLOSE_NOT_READING, CLOSE_TOO_MANY, Connection, Limits, RateLimit
from bigtwo.server.db import make_engine, migrate
from bigtwo.server.inputs import BadInput, house_rules_toml, strict_json
from bigtwo.server.messages import CreateRoom
from bigtwo.server.referee import Referee, Rejected
from bigtwo.server.rooms import Rooms
from bigtwo.server.settings import Settings
from bigtwo.server.setup import build_rules
from tests.rulesets import PROCEDURES
from tests.server_support import rules_of


class Clock:
    """A clock moved by hand."""

    def __init__(self, t: float = 1000.0):
        self.t = t

    def __call__(self) -> float:
        return self.t


def table(kinds: list[str], clock: Clock, **row: Any) -> tuple[Referee, str, list[str | None]]:
    """A referee for a classic table with seats of these kinds ("person", "bot", "open"): its host token and
    the people's tokens."""
    rules = rules_of("classic")
    tokens: list[str | None] = [f"secret-{i}" if k == "person" else None for i, k in enumerate(kinds)]
    seats = [
        {
            "seat": i,
            "kind": k,
            "name": f"P{i}" if k == "person" else "x",
            "bot": "greedy" if k == "bot" else None,
            "token": store.token_hash(t) if t else None,
        }
        for i, (k, t) in enumerate(zip(kinds, tokens, strict=True))
    ]
    base = {
        "id": "t1",
        "name": "test",
        "preset": "classic",
        "changes": {},
        "rules": rules.to_dict(),
        "players": len(kinds),
        "rounds": 2,
        "points": None,
        "seed": 7,
        "status": "waiting",
        "public": 1,
        "host_token": store.token_hash("host"),
        "move_seconds": 30,
        "bot_delay": 0.8,
        "break_seconds": 20,
        "bot": "greedy",
        "created_at": datetime(2024, 1, 1, tzinfo=UTC),
    }
    return Referee({**base, **row}, seats, clock, min_bot_delay_alone=2.0), "host", tokens


def started(ref: Referee) -> Referee:
    ref.start("host", fill_with_bots=True).apply()
    return ref


def lowest(ref: Referee, seat: int) -> Any:
    return make("greedy").choose(ref.rules, ref.match.observe(seat))


def test_the_move_timer_and_a_bots_pause_are_deadlines_on_the_injected_clock():
    clock = Clock()
    ref = table(["person", "bot", "person", "bot"], clock)[0]
    assert ref.plan() is None  # waiting: nothing runs
    started(ref)
    turn = ref.turn
    assert turn is not None and turn.seat == ref.match.to_move and turn.seq == 0
    if turn.kind == "timer":
        assert turn.due == clock.t + 30
        view = ref.view(turn.seat)
        assert view["timer"] == {"seat": turn.seat, "seconds": 30, "seconds_left": 30.0}
        clock.t += 12.5
        assert ref.view(None)["timer"]["seconds_left"] == 17.5 and not ref.time_up(turn)
        clock.t += 17.5
        assert ref.time_up(turn)
    else:
        assert turn.kind == "bot" and turn.due == clock.t + 0.8  # people at the table: the room's own pause
    # bots alone: at least the server's pause, whatever the room asked for
    alone, _, _ = table(["bot"] * 4, clock, bot_delay=0)
    started(alone)
    assert alone.bots_alone and alone.turn is not None and alone.turn.due == clock.t + 2.0


def test_a_move_is_applied_then_confirmed_or_undone_and_memory_never_runs_ahead():
    clock = Clock()
    ref, _, tokens = table(["person"] * 4, clock)
    started(ref)
    seat = ref.match.to_move
    before = json.dumps(ref.match.to_dict(), sort_keys=True)
    move = ref.move(lowest(ref, seat), token=tokens[seat], seq=0, phase="play")
    assert move.seat == seat and move.seq == 0 and ref.seq == 0  # applied by the engine, not yet recorded
    ref.undo()  # the database refused it
    assert json.dumps(ref.match.to_dict(), sort_keys=True) == before and ref.seq == 0
    move = ref.move(lowest(ref, seat), token=tokens[seat], seq=0)
    ref.confirm(move)
    assert ref.seq == 1 and ref.actions[0]["by"] == "player" and ref.turn.seq == 1


def test_a_token_is_a_seat_only_while_the_seat_is_its_own():
    clock = Clock()
    ref, host, tokens = table(["person"] * 4, clock)
    started(ref)
    seat = ref.match.to_move
    other = (seat + 1) % 4
    choice = lowest(ref, seat)
    with pytest.raises(Rejected, match="it is not your turn") as e:
        ref.move(choice, token=tokens[other])
    assert e.value.status == 409
    names = [s.name for s in ref.seats]
    with pytest.raises(Rejected, match=f"this token is {names[other]}'s: it cannot act for {names[seat]}'s seat"):
        ref.move(choice, token=tokens[other], seat=seat)
    with pytest.raises(Rejected, match="only the host"):
        ref.change_seat(tokens[0], seat, "open", None, connected=False)
    with pytest.raises(Rejected, match="is connected"):
        ref.change_seat(host, seat, "bot", "greedy", connected=True)
    ref.change_seat(host, seat, "open", None, connected=False).apply()  # the host revokes the seat
    with pytest.raises(Rejected, match="not a seat at this table") as e:
        ref.move(choice, token=tokens[seat])
    assert e.value.status == 403
    change = ref.join("Newcomer", seat)
    change.apply()
    _, fresh = change.result
    with pytest.raises(Rejected, match="not a seat"):  # the seat is taken again: the old token is still nobody
        ref.move(choice, token=tokens[seat])
    ref.confirm(ref.move(choice, token=fresh))
    assert ref.actions[-1]["seat"] == seat
    # a bot's move for a seat that is no longer a bot's is refused too
    with pytest.raises(Rejected, match="no longer a bot's"):
        ref.move("pass", seat=ref.match.to_move, by="bot")


def test_the_break_between_rounds_ends_when_everyone_is_ready_or_time_is_up():
    clock = Clock()
    ref, _, tokens = table(["person", "bot", "bot", "bot"], clock)
    started(ref)
    while ref.match.round_index == 0:
        seat = ref.match.to_move
        by = "player" if seat == 0 else "bot"
        ref.confirm(ref.move(lowest(ref, seat), token=tokens[0] if by == "player" else None, seat=seat, by=by))
    brk = ref.brk
    assert brk is not None and brk.until == clock.t + 20 and ref.turn is None
    with pytest.raises(Rejected, match="the round is over"):
        ref.move(lowest(ref, ref.match.to_move), seat=ref.match.to_move, by="bot")
    clock.t += 19.9
    assert not ref.break_over(brk)
    clock.t += 0.1
    assert ref.break_over(brk)
    assert ref.ready(0) and ref.brk is None and ref.turn is not None  # the only person is ready: play on


def test_a_host_change_touches_memory_only_when_applied():
    clock = Clock()
    ref, host, _ = table(["person", "open", "open", "open"], clock)
    with pytest.raises(Rejected, match="seats 1, 2, 3 are empty: invite friends, give them to bots, or fill"):
        ref.start(host, fill_with_bots=False)
    one, _, _ = table(["person", "person", "open", "person"], clock)
    with pytest.raises(Rejected, match=r"^seat 2 is empty: invite a friend, give it to a bot, or fill with bots$"):
        one.start(host, fill_with_bots=False)
    change = ref.start(host, fill_with_bots=True)
    assert len(change.writes) == 4 and ref.status == "waiting" and ref.seats[1].kind == "open"
    change.apply()
    assert ref.status == "playing" and [s.kind for s in ref.seats] == ["person", "bot", "bot", "bot"]
    assert ref.bots_alone  # Ann's seat with nobody connected to it: nobody is at the table
    ref.present = {0}
    assert ref.would_be_bots_alone(seat=0) and not ref.bots_alone


# --- connections --------------------------------------------------------------------------------------------


def test_the_rate_limit_allows_a_burst_then_the_rate():
    clock = Clock(0)
    limit = RateLimit(rate=10, burst=5, clock=clock)
    assert [limit.take() for _ in range(7)] == [True] * 5 + [False] * 2
    assert limit.over == 2
    clock.t += 0.1  # one more message's worth
    assert limit.take() and not limit.take()
    clock.t += 10
    assert sum(limit.take() for _ in range(10)) == 5  # never more than the burst saved up


class Silent:
    """A WebSocket whose client never reads: sending blocks forever."""

    def __init__(self) -> None:
        self.closed_with: tuple[int, str] | None = None

    async def send_text(self, text: str) -> None:
        await asyncio.Event().wait()

    async def send(self, message: dict[str, Any]) -> None:
        await asyncio.Event().wait()


class Reader:
    """A WebSocket whose client reads everything at once."""

    def __init__(self) -> None:
        self.got: list[str] = []
        self.closed_with: tuple[int, str] | None = None

    async def send_text(self, text: str) -> None:
        self.got.append(text)

    async def send(self, message: dict[str, Any]) -> None:
        self.closed_with = (message["code"], message["reason"])


def test_a_client_that_does_not_read_costs_a_bounded_queue_and_is_disconnected():
    async def main() -> tuple[Connection, int]:
        conn = Connection(Silent(), Limits(max_queued_messages=8, send_timeout_seconds=60, close_timeout_seconds=0.01))
        conn.start()
        most = 0
        for i in range(10_000):
            conn.send_view("v" * 1000 + str(i))  # views replace each other: one is kept
            conn.send({"type": "error", "message": "x" * 1000})
            most = max(most, conn.queued_bytes())
            await asyncio.sleep(0)
        await asyncio.wait_for(conn.gone.wait(), 5)
        return conn, most

    conn, most = asyncio.run(main())
    assert conn.close_code == CLOSE_NOT_READING and conn.closed
    assert most <= 10 * 1100  # the bound: 8 messages waiting, one view, one message being sent


def test_views_coalesce_and_a_flooding_client_is_told_then_closed():
    async def main() -> tuple[Reader, Connection]:
        ws = Reader()
        conn = Connection(ws, Limits(messages_per_second=1, message_burst=3))
        conn.start()
        for i in range(1000):
            conn.send_view(f"view {i}")
        await asyncio.sleep(0)
        admitted = [conn.admit() for _ in range(15)]
        assert admitted == [True] * 3 + [False] * 12  # told at the first refused, closed past 10 more
        await asyncio.wait_for(conn.gone.wait(), 5)
        return ws, conn

    ws, conn = asyncio.run(main())
    assert ws.got[0] == "view 999" and len([g for g in ws.got if g.startswith("view")]) == 1
    errors = [json.loads(g) for g in ws.got if g.startswith("{")]
    assert len(errors) == 1 and "too many messages: at most 1 a second (3 at once)" in errors[0]["message"]
    assert ws.closed_with is not None and ws.closed_with[0] == CLOSE_TOO_MANY and conn.close_code == CLOSE_TOO_MANY


# --- inputs and settings --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "words"),
    [
        (b'{"a": NaN}', "NaN is not a number JSON allows"),
        (b'{"a": -Infinity}', "-Infinity is not a number JSON allows"),
        (b'{"a": "x\\ud800"}', "a: \\ud800 is half of a surrogate pair"),
        (b"[" * 10_000 + b"]" * 10_000, "more than 8 deep"),
        (b'{"a": "\xff"}', "not valid UTF-8 (byte 0xff at offset 7)"),
        (b'{"a": 1', "not JSON"),
        (b"9" * 5000, "not JSON"),
    ],
)
def test_a_body_is_json_in_the_strict_sense_or_refused_in_words(body, words):
    with pytest.raises(BadInput, match=None) as e:
        strict_json(body, 8)
    assert words in str(e.value)


def test_strings_with_brackets_do_not_count_as_nesting():
    assert strict_json(b'{"a": "[[[[[[[[[[[[[[[[", "b": ["\\"[[[["]}', 3) == {"a": "[" * 16, "b": ['"[[[[']}


def test_house_rules_are_bounded_before_the_engine_reads_them():
    settings = Settings(max_rules_text_chars=50)
    with pytest.raises(Rejected, match="at most 50") as e:
        build_rules(CreateRoom(rules={"name": "x" * 51}), settings)
    assert e.value.status == 422
    with pytest.raises(Rejected, match="RIGHT-TO-LEFT OVERRIDE"):
        build_rules(CreateRoom(rules={"description": "abc\u202edef"}), settings)
    with pytest.raises(Rejected, match="nests too deep"):
        build_rules(CreateRoom(rules={"play": {"x": [[1]]}}), settings)
    with pytest.raises(BadInput, match="more than 4 deep"):
        house_rules_toml("a = " + "[" * 5000 + "]" * 5000, 20000, 4, 64, 200)
    with pytest.raises(BadInput, match="more than 4 deep"):
        house_rules_toml("a.b.c.d.e.f = 1", 20000, 4, 64, 200)
    with pytest.raises(BadInput, match="20,001 bytes; at most 20,000"):
        house_rules_toml("#" * 20001, 20000, 4, 64, 200)
    rules, changes = build_rules(CreateRoom(rules={"name": "Our rules", "play": {"pass_locks_out": True}}), settings)
    assert rules.name == "Our rules" and changes["pass_locks_out"] is True


def test_settings_come_from_the_file_then_the_environment_then_options(tmp_path):
    path = tmp_path / "bigtwo.toml"
    path.write_text('max_rooms = 7\nrooms_per_address = 3\nallowed_origins = ["https://a.example"]\n')
    env = {"BIGTWO_MAX_ROOMS": "9", "BIGTWO_ALLOWED_ORIGINS": "https://b.example, https://c.example/"}
    s = Settings.load(path, env, rooms_per_address=None, sockets_per_room=5)
    assert (s.max_rooms, s.rooms_per_address, s.sockets_per_room) == (9, 3, 5)
    assert s.allowed_origins == ["https://b.example", "https://c.example"]
    with pytest.raises(ValueError, match="environment variable BIGTWO_MAX_ROOMS: Input should be greater"):
        Settings.load(None, {"BIGTWO_MAX_ROOMS": "0"})
    with pytest.raises(ValueError, match="no setting named 'max_roms'"):
        Settings.load(None, {}, max_roms=3)
    with pytest.raises(ValueError, match="--public-url: Value error, a public URL is http"):
        Settings.load(None, {}, public_url="ftp://x")
    public = Settings(public_url="https://cards.example/")
    assert public.link("/room/a") == "https://cards.example/room/a"
    assert public.origin_allowed("https://cards.example", "evil.example")
    assert not public.origin_allowed("https://evil.example", "cards.example")
    assert public.origin_allowed(None, None)  # not a browser page
    assert Settings().origin_allowed("http://localhost:8000", "localhost:8000")
    assert not Settings().origin_allowed("http://evil.example", "localhost:8000")
    # a page of the address the request was sent to is this server's own, whatever the public URL names, when
    # that address is an IP address, localhost or the public URL's host
    local = Settings(public_url="http://localhost:8000")
    assert local.origin_allowed("http://127.0.0.1:8000", "127.0.0.1:8000", "http")
    assert local.origin_allowed("http://127.0.0.1:8000", "127.0.0.1:8000", "ws")  # the table's socket
    # but a name the server was not told of may be a stranger's domain resolving here (DNS rebinding): no
    assert not local.origin_allowed("https://Cards.Example", "cards.example", "wss")
    assert Settings(public_url="https://cards.example").origin_allowed("https://Cards.Example", "cards.example", "wss")
    assert not local.origin_allowed("http://127.0.0.1:8000", "127.0.0.1:8001", "http")  # another port
    assert not local.origin_allowed("https://127.0.0.1:8000", "127.0.0.1:8000", "http")  # another scheme
    assert not local.origin_allowed("http://evil.example", "127.0.0.1:8000", "http")
    assert not Settings(allowed_origins=["https://a.example"]).origin_allowed("http://evil.example", "x.example")


# --- rooms: limits and expiry, on a database without a server ------------------------------------------------------


def test_rooms_per_address_per_minute_and_in_total_and_tables_never_started_expire(tmp_path):
    clock, wall = Clock(), [datetime(2024, 5, 1, 12, 0, tzinfo=UTC)]
    engine = make_engine(str(tmp_path / "rooms.sqlite3"))
    migrate(engine)
    settings = Settings(rooms_per_address_per_minute=2, rooms_per_address=3, max_rooms=5, waiting_room_minutes=30)
    rooms = Rooms(engine, settings, clock=clock, now=lambda: wall[0])

    async def main() -> None:
        opened = [await rooms.create(CreateRoom(), "10.0.0.1") for _ in range(2)]
        with pytest.raises(Rejected, match="you opened 2 tables in the last minute, the most allowed") as e:
            await rooms.create(CreateRoom(), "10.0.0.1")
        assert e.value.status == 429
        await rooms.create(CreateRoom(), "10.0.0.2")  # another address is not held up
        clock.t += 61
        opened.append(await rooms.create(CreateRoom(), "10.0.0.1"))
        clock.t += 61
        with pytest.raises(Rejected, match="you have 3 tables not yet finished") as e:
            await rooms.create(CreateRoom(), "10.0.0.1")
        assert "close one not yet started" in e.value.message and "by itself 30 minutes after" in e.value.message
        # the host closes a table never started: it is gone, and the address may open another
        first, host_token = opened[0][0], opened[0][1]
        with pytest.raises(Rejected, match="only the host may do this") as e:
            await first.close_by_host(opened[1][1])
        await first.close_by_host(host_token)
        with pytest.raises(Rejected, match="no room"):
            await rooms.get(first.id)
        with pytest.raises(Rejected, match="the host closed this table"):
            await first.join("Late", None)
        await rooms.create(CreateRoom(), "10.0.0.1")
        await rooms.create(CreateRoom(), "10.0.0.3")
        with pytest.raises(Rejected, match=r"the server is full \(5 tables") as e:
            await rooms.create(CreateRoom(), "10.0.0.4")
        assert e.value.status == 503
        wall[0] += timedelta(minutes=29)
        assert await rooms.sweep() == 0
        wall[0] += timedelta(minutes=2)
        assert await rooms.sweep() == 5 and rooms.rooms == {}

    asyncio.run(main())
    with engine.connect() as conn:
        assert store.room_ids(conn, ("waiting",)) == []
    engine.dispose()


def test_the_limits_on_tables_count_them_and_their_minutes_in_words(tmp_path):
    """One table, one minute: singular; a fractional setting in minutes reads as a decimal."""
    wall = [datetime(2024, 5, 1, 12, 0, tzinfo=UTC)]
    engine = make_engine(str(tmp_path / "rooms.sqlite3"))
    migrate(engine)

    async def main(minutes: float) -> tuple[str, str | None]:
        settings = Settings(rooms_per_address=1, waiting_room_minutes=minutes)
        rooms = Rooms(engine, settings, clock=Clock(), now=lambda: wall[0])
        room = (await rooms.create(CreateRoom(), "10.0.0.1"))[0]
        with pytest.raises(Rejected) as e:
            await rooms.create(CreateRoom(), "10.0.0.1")
        wall[0] += timedelta(minutes=minutes + 1)
        assert await rooms.sweep() == 1
        return e.value.message, room.gone

    refused, gone = asyncio.run(main(1))
    assert refused.startswith("you have 1 table not yet finished") and "by itself 1 minute after" in refused
    assert gone == "this table was closed: nobody started it within 1 minute"
    refused, gone = asyncio.run(main(0.5))
    assert "by itself 0.5 minutes after" in refused
    assert gone == "this table was closed: nobody started it within 0.5 minutes"
    engine.dispose()


def test_the_server_moves_for_absent_people_only_at_an_abandoned_table():
    clock = Clock()
    ref, _host, _tokens = table(["person", "bot", "bot", "bot"], clock, move_seconds=0)
    started(ref)
    while ref.match.to_move != 0:  # the bots' moves, until the person's turn
        ref.confirm(ref.move(lowest(ref, ref.match.to_move), seat=ref.match.to_move, by="bot", seq=ref.seq))
    assert ref.plan() is None  # no move timer: the table waits for its person
    ref.abandon(0.5).apply()
    turn = ref.turn
    assert turn is not None and (turn.kind, turn.seat, turn.due) == ("timer", 0, clock.t + 0.5)
    assert ref.come_back() and ref.turn is None
    assert not ref.come_back()


def test_an_abandoned_table_is_played_out_and_finishes(tmp_path):
    """No seated person connected for ``idle_table_minutes``: the server moves for the absent person, even at a
    table without a move timer, until the match is over and stored; before that, nothing is done for them. A
    spectator watching does not hold the table; the person coming back takes it back, and leaving again lets
    the server finish it."""
    from bigtwo.server.messages import Hello

    engine = make_engine(str(tmp_path / "rooms.sqlite3"))
    migrate(engine)
    # (a table nobody is at plays at the pace of bots alone: that least delay is set to none here, to finish fast)
    settings = Settings(idle_table_minutes=0.005, abandoned_move_seconds=0.05, bot_table_min_delay=0)
    rooms = Rooms(engine, settings)
    spec = CreateRoom(host_name="Ann", move_seconds=0, bot_delay=0, bot="greedy", rounds=1, break_seconds=0)

    async def until(done, steps: int = 1000) -> None:
        for _ in range(steps):  # bounded: a few hundred moves at most
            if done():
                return
            await asyncio.sleep(0.01)

    async def main() -> str:
        room, host, _seat, ann_token = await rooms.create(spec, "10.0.0.1")
        watcher = Connection(None)
        await room.attach(watcher)  # a spectator, there all along
        await room.start(host, fill_with_bots=True)
        assert await rooms.play_out_abandoned() == 0  # not idle long enough
        await until(lambda: room.ref.turn is None and room.match.to_move == 0, 200)  # the bots, then Ann's turn
        assert room.status == "playing" and room.ref.turn is None
        await asyncio.sleep(0.35)
        assert await rooms.play_out_abandoned() == 1  # the spectator did not hold it
        ann = Connection(None)
        await room.attach(ann)
        await room.handle(ann, Hello(type="hello", token=ann_token))
        assert room.ref.abandoned_move_seconds is None and room.idle_since is None  # Ann is back: hers again
        await until(lambda: room.ref.turn is None and room.match.to_move == 0, 200)
        assert room.status == "playing" and room.ref.turn is None  # and it waits for her
        await room.detach(ann)
        await asyncio.sleep(0.35)
        assert await rooms.play_out_abandoned() == 1
        await until(lambda: room.status == "over")
        assert room.status == "over"
        return room.id

    room_id = asyncio.run(main())
    with engine.connect() as conn:
        assert store.room_ids(conn, ("over",)) == [room_id]
    engine.dispose()


def test_a_restart_deletes_the_tables_never_started_instead_of_loading_them(tmp_path):
    wall = [datetime(2024, 5, 1, 12, 0, tzinfo=UTC)]
    engine = make_engine(str(tmp_path / "rooms.sqlite3"))
    migrate(engine)
    settings = Settings(waiting_room_minutes=60)
    first = Rooms(engine, settings, now=lambda: wall[0])

    async def open_two() -> str:
        old = await first.create(CreateRoom(name="old"), "a")
        wall[0] += timedelta(minutes=50)
        await first.create(CreateRoom(name="new"), "a")
        return old[0].id

    old_id = asyncio.run(open_two())
    wall[0] += timedelta(minutes=15)  # the first is 65 minutes old, the second 15
    second = Rooms(engine, settings, now=lambda: wall[0])
    assert second.load_live() == 1 and [r.name for r in second.rooms.values()] == ["new"] and second.expired == 1
    with engine.connect() as conn:
        assert store.load_room(conn, old_id) is None
    engine.dispose()


# --- the one protocol at the table (issue 12) -----------------------------------------------------------


def bot_table(rules, seed: int, bot: str, kinds: list[str] | None = None, **changes: Any) -> Referee:
    """A table of bots under ``rules``, started: the server's bot path without an event loop (``kinds``: other
    seats, people among the bots; ``changes``: the room's row)."""
    n = rules.players
    kinds = kinds or ["bot"] * n
    seats = [
        {
            "seat": i,
            "kind": k,
            "name": f"B{i}" if k == "bot" else f"P{i}",
            "bot": bot if k == "bot" else None,
            "token": store.token_hash(f"secret-{i}") if k == "person" else None,
        }
        for i, k in enumerate(kinds)
    ]
    row = {
        "id": f"t{seed}",
        "name": "test",
        "preset": "custom",
        "changes": {},
        "rules": rules.to_dict(),
        "players": n,
        "rounds": 1,
        "points": None,
        "seed": seed,
        "status": "waiting",
        "public": 1,
        "host_token": store.token_hash("host"),
        "move_seconds": 30,
        "bot_delay": 0.8,
        "break_seconds": 0,
        "bot": bot,
        "created_at": datetime(2024, 1, 1, tzinfo=UTC),
        **changes,
    }
    return started(Referee(row, seats, Clock(), min_bot_delay_alone=2.0))


def test_the_stall_house_rule_never_stalls_a_table_of_bots():
    """Regression: indonesia, 2 players, only triple straights and fours, one pass ends a trick. Bots offered
    plays the engine refused, and the server's bot, its fallback and its timer all picked them: the room waited
    for ever in 86 of 300 deals. Now every bot move goes through and the engine's default is always legal."""
    from bigtwo import load_rules

    rules = load_rules("indonesia").replace(
        players=2, combinations=["triple_straight", "four_of_a_kind"], trick_end="one-pass"
    )
    for seed in range(300):
        ref = bot_table(rules, seed, "heuristic" if seed % 2 else "greedy")
        bots = [make(ref.seats[s].bot or "greedy", seed=s) for s in range(2)]
        while not ref.match.is_over:
            seat = ref.match.to_move
            assert ref.match.why_not(ref.match.default_action()) is None
            move = ref.move(bots[seat].choose(ref.rules, ref.match.observe(seat)), seat=seat, by="bot")
            ref.confirm(move)
        assert ref.status == "over"


def test_deal_time_decisions_are_offered_at_the_table_and_replayed_from_the_database():
    from bigtwo import load_rules
    from bigtwo.server.views import match_view, spectator_view

    rules = load_rules("classic").replace(redeal_requests=("low-points",), redeal_points=100)
    clock = Clock()
    ref, _, tokens = table(["person"] * 4, clock, rules=rules.to_dict())
    started(ref)
    assert ref.match.phase == "deal"
    seat = ref.match.to_move
    view = match_view(ref.match, seat)
    assert view["decision"]["kind"] == "redeal" and view["answers"] == ["redeal", "keep"]
    assert spectator_view(ref.match)["decision"] is None and spectator_view(ref.match)["hand"] == []
    with pytest.raises(Rejected, match="waits for an answer to the decision"):
        ref.move("3D", token=tokens[seat], phase="play")
    dealt = ref.match.current.dealt
    ref.confirm(ref.move("redeal", token=tokens[seat], phase="exchange"))
    assert ref.match.current.dealt != dealt and ref.actions[-1]["answer"] == "redeal"
    while ref.match.phase == "deal":
        s = ref.match.to_move
        ref.confirm(ref.move("keep", token=tokens[s]))
    again = table(["person"] * 4, clock, rules=rules.to_dict())[0]
    again.replay([{**a, "seq": i} for i, a in enumerate(ref.actions)])
    assert again.match.current.dealt == ref.match.current.dealt and again.match.phase == "play"


NEW_DECISIONS = {"bid", "trade", "reply", "request", "grant", "look"}


@pytest.mark.parametrize("name", sorted(PROCEDURES))
def test_auctions_trading_requests_and_face_down_hands_never_stall_a_table(name):
    """Issue 16's decisions at a server table: every turn is planned (a bot's, or the move timer's for a
    person), bots answer auctions, offers, requests and face-down hands through the referee, the timer answers
    with the engine's default (always legal, never a list of every offer), and the stored answers rebuild the
    same match from the database's rows."""
    from bigtwo.cards import CardSet
    from bigtwo.server import advice
    from bigtwo.server.views import match_view
    from bigtwo.words import Wording

    rules, n = PROCEDURES[name]()
    rules = rules.replace(players=n)
    kinds = ["person" if s % 2 else "bot" for s in range(n)]
    ref = bot_table(rules, 5, "heuristic", kinds, rounds=2, break_seconds=0)
    bots = {s: make("heuristic", seed=s) for s in range(n) if kinds[s] == "bot"}
    kinds_seen: set[str] = set()
    for _ in range(3000):
        if ref.match.is_over:
            break
        m = ref.match
        seat = m.to_move
        turn = ref.turn
        assert seat is not None and turn is not None and turn.seat == seat, "the table waits for nobody"
        if m.pending is not None:
            kinds_seen.add(m.pending.kind)
        if kinds[seat] == "bot":
            assert turn.kind == "bot"
            move = ref.move(bots[seat].choose(ref.rules, m.observe(seat)), seat=seat, by="bot")
        else:
            assert turn.kind in ("timer", "auto")
            if m.pending is not None:  # the browser's buttons: every word it offers is a legal answer
                words = match_view(m, seat)["answers"]
                assert all(m.why_not(word) is None for word in words or ()), (m.pending, words)
                assert words or m.pending.kind not in NEW_DECISIONS, m.pending
            if m.pending is not None and m.pending.kind in NEW_DECISIONS:  # the help panel: legal, never every offer
                obs, said = m.observe(seat), Wording(seat)
                listed = advice.legal(ref.rules, obs, said)
                assert listed["ok"] and all(m.why_not(p["answer"]) is None for p in listed["plays"]), listed
                tip = advice.hint(ref.rules, obs, said, seed=seat)
                sent = tip["answer"] if tip["action"] == "answer" else CardSet(" ".join(tip["cards"]))
                assert m.why_not(sent) is None, tip
            default = m.default_action()
            assert m.why_not(default) is None
            by = "timeout" if turn.kind == "timer" else "auto"
            move = ref.move(default if by == "timeout" else "pass", seat=seat, by=by)
        ref.confirm(move)
    assert ref.status == "over"
    assert kinds_seen & NEW_DECISIONS, f"{name}: no new decision came up at the table"
    again = bot_table(rules, 5, "heuristic", kinds, rounds=2, break_seconds=0)
    again.replay([{**a, "seq": i} for i, a in enumerate(ref.actions)])
    assert again.broken is None and again.match.is_over
    assert again.match.result == ref.match.result


def test_everyone_at_a_table_has_a_name_of_their_own():
    """A person may not join under a name someone at the table already has (any case or spacing, a bot's without
    its kind), and a bot takes its seat's name unless someone there is called by it, then the first free one."""
    from bigtwo.server.referee import called

    assert called("Chloe (learned)") == called("  chloe ") == "chloe" and called("Ann (the host)") == "ann"
    clock = Clock()
    ref, host, _tokens = table(["person", "open", "open", "open"], clock)
    ref.seats[0].name = "Ben"
    ref.join("Dev", 1).apply()
    with pytest.raises(Rejected, match="Dev is already at this table: choose another name") as e:
        ref.join(" dev ", 2)
    assert e.value.status == 409
    ref.change_seat(host, 3, "bot", "random", connected=False).apply()
    assert ref.seats[3].name == "Ana (random)"  # seat 3's own name is Dev's: the first free one
    with pytest.raises(Rejected, match=r"Ana \(random\) is already at this table"):
        ref.join("ANA", 2)
    started(ref)
    assert ref.seats[2].name == "Chloe (greedy)"
    assert len({called(s.name) for s in ref.seats}) == 4
