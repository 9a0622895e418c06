"""The multiplayer server (issue: play in the browser): rooms, the referee, hidden cards, persistence, records."""

from __future__ import annotations

import asyncio
import json
import re
import threading
import time
import warnings
from typing import Any

import httpx
import pytest
import websockets
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from hypothesis import given, settings
from hypothesis import strategies as st
from sqlalchemy import create_engine, func, select

from bigtwo import Match, Play
from bigtwo.bots import BOTS, make
from bigtwo.bots.base import BaseBot
from bigtwo.errors import BigTwoError
from bigtwo.record import read_record, replay
from bigtwo.rules.ruleset import Ruleset
from bigtwo.server.db import actions, database_url, make_engine, metadata, migrate
from bigtwo.server.messages import parse_client_message
from bigtwo.server.referee import Rejected
from bigtwo.server.room import answer_of, phase_of
from bigtwo.server.store import ActionRow
from bigtwo.words import Wording
from tests.server_support import (
    LiveServer,
    Transcript,
    audit_hidden_cards,
    auth,
    churn,
    create_room,
    message_for,
    play_seat,
    postgres_url_or_skip,
    reset_postgres,
    rules_of,
    wait_for,
)

warnings.filterwarnings("ignore", message=".*httpx.*", category=DeprecationWarning)
NAMES = ["Ann", "Bob", "Cy", "Di"]
CARDS = [f"{r}{s}" for r in "3456789TJQKA2" for s in "DCHS"]


@pytest.fixture
def server(tmp_path):
    with LiveServer(str(tmp_path / "games.sqlite3")) as live:
        yield live


def four_people(base: str, **spec) -> tuple[dict, list[str]]:
    """A room whose four seats are people (the host in seat 0), started."""
    made = create_room(base, host_name=NAMES[0], bot_delay=0, move_seconds=0, break_seconds=0, **spec)
    room_id = made["room"]["id"]
    tokens = [made["token"]]
    for name in NAMES[1 : made["room"]["players"]]:
        r = httpx.post(f"{base}/api/rooms/{room_id}/join", json={"name": name})
        assert r.status_code == 200, r.text
        tokens.append(r.json()["token"])
    r = httpx.post(f"{base}/api/rooms/{room_id}/start", json={}, headers=auth(made["host_token"]))
    assert r.status_code == 200, r.text
    return made, tokens


def stored_actions(room) -> int:
    with room.manager.engine.connect() as conn:
        return conn.execute(select(func.count()).where(actions.c.room_id == room.id)).scalar_one()


def snapshot(room) -> tuple:
    """Everything that must not move when a bad message arrives."""
    return (room.seq, json.dumps(room.match.to_dict(), sort_keys=True), stored_actions(room), room.status)


# --- rooms and rules ------------------------------------------------------------------------------------------


def test_house_rules_are_validated_and_refused_in_words(server):
    base = server.url

    def refused(status: int, **spec) -> str:
        r = httpx.post(f"{base}/api/rooms", json=spec)
        assert r.status_code == status, r.text
        detail = r.json()["detail"]
        return detail if isinstance(detail, str) else json.dumps(detail)

    assert "presets: bga" in refused(400, preset="no-such-game")
    assert "setting 'suit_order'" in refused(400, rules={"suit_order": "XYZ"})
    assert "did you mean 'pass_locks_out'" in refused(400, rules={"pass_lock_out": True})
    assert "'classic' is for 2-4 players" in refused(400, players=5)
    assert "no bot named 'nope'" in refused(400, bot="nope")
    assert "house rules TOML" in refused(400, rules_toml="suit_order = ")
    assert "not a preset" in refused(400, rules_toml='base = "../../etc/passwd"')
    assert "seats lists 2 seats but the table has 4" in refused(400, seats=[{"kind": "open"}, {"kind": "bot"}])
    assert "players" in refused(422, players=9)
    assert "extra" in refused(422, colour="red").lower()
    assert "a points target needs a scoring system with points" in refused(400, preset="house-code", points=50)
    assert server.rooms.rooms == {}  # nothing was created by a refused request


def test_a_table_takes_any_preset_with_house_rules(server):
    made = create_room(
        server.url,
        preset="taiwan",
        rules={"play": {"pass_locks_out": True}, "last_play_forbidden": "two-single-or-pair"},
        rules_toml='flush_order = "suit-then-ranks"',
        rounds=2,
    )
    room = server.rooms.rooms[made["room"]["id"]]
    assert room.rules.pass_locks_out and room.rules.suit_order == load_suits("taiwan")
    assert room.rules.flush_order == "suit-then-ranks" and room.rules.last_play_forbidden == "two-single-or-pair"
    changes = made["room"]["changes"]
    assert changes["pass_locks_out"] is True and changes["flush_order"] == "suit-then-ranks"
    assert made["room"]["rounds"] == 2 and made["invite"].endswith(f"/room/{room.id}")
    to_points = create_room(server.url, preset="pusoy-dos", points=30)["room"]  # a match to a points total
    assert to_points["points"] == 30 and to_points["rounds"] is None
    assert server.rooms.rooms[to_points["id"]].match.points == 30


def load_suits(preset: str) -> str:
    return rules_of(preset).suit_order


def test_lobby_lists_public_tables_that_are_not_finished(server):
    public = create_room(server.url, name="open one")
    create_room(server.url, name="secret one", public=False)
    listed = httpx.get(f"{server.url}/api/rooms").json()
    assert [r["name"] for r in listed] == ["open one"]
    assert listed[0]["seats"][0]["kind"] == "open" and listed[0]["status"] == "waiting"
    r = httpx.get(f"{server.url}/api/rooms/{public['room']['id']}")
    assert r.status_code == 200 and "seed" not in r.text and "token" not in r.text


def test_a_hosts_bots_are_named_around_the_host(server):
    """The host takes seat 0 under their name; the bots seated at the start take their seats' names, except one
    the host already has."""
    seats = [{"kind": "bot", "bot": "random"}] * 4
    made = create_room(server.url, host_name="Ben", seats=seats)
    names = [s["name"] for s in made["room"]["seats"]]
    assert names == ["Ben", "Ana (random)", "Chloe (random)", "Dev (random)"]


def test_seats_invites_and_the_hosts_powers(server):
    base = server.url
    made = create_room(
        base, seats=[{"kind": "open"}, {"kind": "open"}, {"kind": "bot", "bot": "random"}, {"kind": "open"}]
    )
    rid, host = made["room"]["id"], made["host_token"]
    for nameless in ("", "   "):  # no silent stand-in name, which a second nameless guest would clash with
        r = httpx.post(f"{base}/api/rooms/{rid}/join", json={"name": nameless})
        assert (
            r.status_code == 422
            and r.json()["detail"] == "name: a name is needed: the one the others at the table will know you by"
        )
    ann = httpx.post(f"{base}/api/rooms/{rid}/join", json={"name": "  Ann  "}).json()
    assert ann["seat"] == 0 and ann["room"]["seats"][0]["name"] == "Ann"
    r = httpx.post(f"{base}/api/rooms/{rid}/join", json={"name": "Bob", "seat": 2})
    bot = made["room"]["seats"][2]["name"]
    assert r.status_code == 409 and f"seat 2 is taken by {bot}; open seats: 1, 3" in r.json()["detail"]
    r = httpx.post(f"{base}/api/rooms/{rid}/join", json={"name": bot.split(" (")[0].upper()})
    assert r.status_code == 409 and f"{bot} is already at this table: choose another name" in r.json()["detail"]
    for name in ("Dev (random)", "Zed (isearch(prior=2))"):  # no one passes for a bot
        r = httpx.post(f"{base}/api/rooms/{rid}/join", json={"name": name})
        assert r.status_code == 400 and f"{name} reads as a bot's name" in r.json()["detail"], r.text
    r = httpx.post(f"{base}/api/rooms", json={"host_name": "Ann (learned)"})
    assert r.status_code == 400 and "reads as a bot's name" in r.json()["detail"]
    assert httpx.post(f"{base}/api/rooms/{rid}/start", json={}).status_code == 401
    r = httpx.post(f"{base}/api/rooms/{rid}/start", json={}, headers=auth(ann["token"]))
    assert r.status_code == 403 and "only the host" in r.json()["detail"]
    r = httpx.post(f"{base}/api/rooms/{rid}/start", json={}, headers=auth(host))
    assert r.status_code == 409 and "seats 1, 3 are empty" in r.json()["detail"]
    r = httpx.post(f"{base}/api/rooms/{rid}/seats/1", json={"kind": "bot", "bot": "greedy"}, headers=auth(host))
    assert r.status_code == 200 and r.json()["seats"][1]["kind"] == "bot"
    r = httpx.post(f"{base}/api/rooms/{rid}/start", json={"fill_with_bots": True}, headers=auth(host))
    assert r.status_code == 200 and r.json()["status"] == "playing"
    assert [s["kind"] for s in r.json()["seats"]] == ["person", "bot", "bot", "bot"]
    assert httpx.post(f"{base}/api/rooms/{rid}/start", json={}, headers=auth(host)).status_code == 409
    assert httpx.post(f"{base}/api/rooms/{rid}/join", json={"name": "Late"}).status_code == 409
    # the host may close a table only before it starts: then it is gone
    r = httpx.post(f"{base}/api/rooms/{rid}/close", headers=auth(host))
    assert r.status_code == 409 and "only a table not yet started can be closed" in r.json()["detail"]
    waiting = create_room(base, players=2, seats=[{"kind": "open"}, {"kind": "open"}])
    wid = waiting["room"]["id"]
    assert httpx.post(f"{base}/api/rooms/{wid}/close").status_code == 401
    assert httpx.post(f"{base}/api/rooms/{wid}/close", headers=auth(ann["token"])).status_code == 403
    assert httpx.post(f"{base}/api/rooms/{wid}/close", headers=auth(waiting["host_token"])).status_code == 204
    assert httpx.get(f"{base}/api/rooms/{wid}").status_code == 404
    assert wid not in [r["id"] for r in httpx.get(f"{base}/api/rooms").json()]


# --- the referee --------------------------------------------------------------------------------------------


def test_a_token_cannot_act_for_another_seat(server):
    made, tokens = four_people(server.url)
    rid = made["room"]["id"]
    room = server.rooms.rooms[rid]
    mover = room.match.to_move
    other = (mover + 1) % 4
    before = snapshot(room)
    hand = room.match.observe(mover).to_json()["hand"]
    # another seat's token, naming the seat to move
    r = httpx.post(
        f"{server.url}/api/rooms/{rid}/actions",
        json={"type": "play", "cards": [hand[0]], "seat": mover},
        headers=auth(tokens[other]),
    )
    names = [s.name for s in room.ref.seats]
    assert r.status_code == 403 and f"this token is {names[other]}'s: it cannot act for {names[mover]}'s seat" in r.text
    # another seat's token, acting as itself out of turn
    r = httpx.post(
        f"{server.url}/api/rooms/{rid}/actions", json={"type": "play", "cards": [hand[0]]}, headers=auth(tokens[other])
    )
    assert r.status_code == 409 and "it is not your turn" in r.text
    # the host's token is not a seat's
    r = httpx.post(f"{server.url}/api/rooms/{rid}/actions", json={"type": "pass"}, headers=auth(made["host_token"]))
    assert r.status_code == 403
    # a made-up token
    r = httpx.post(f"{server.url}/api/rooms/{rid}/actions", json={"type": "pass"}, headers=auth("x" * 32))
    assert r.status_code == 403
    assert snapshot(room) == before

    async def over_the_websocket() -> list[dict]:
        async with websockets.connect(f"{server.ws_url}/ws/rooms/{rid}") as ws:
            await ws.send(json.dumps({"type": "hello", "token": tokens[other]}))
            await ws.send(json.dumps({"type": "play", "cards": [hand[0]]}))
            got = []
            while not any(m["type"] == "error" for m in got):
                got.append(json.loads(await asyncio.wait_for(ws.recv(), 10)))
            return got

    got = asyncio.run(over_the_websocket())
    error = next(m for m in got if m["type"] == "error")
    assert "it is not your turn" in error["message"]
    assert all(m["you"]["seat"] == other for m in got[1:] if m["type"] == "view")
    assert snapshot(room) == before
    # the right token moves
    r = httpx.post(
        f"{server.url}/api/rooms/{rid}/actions",
        json={
            "type": "play",
            "cards": [str(c) for c in make("greedy").choose(room.rules, room.match.observe(mover)).cards],
        },
        headers=auth(tokens[mover]),
    )
    assert r.status_code == 200 and r.json()["seq"] == 1 and stored_actions(room) == 1


def test_malformed_illegal_and_out_of_turn_messages_change_nothing(server):
    made, tokens = four_people(server.url)
    rid = made["room"]["id"]
    room = server.rooms.rooms[rid]
    mover = room.match.to_move
    hand = room.match.observe(mover).to_json()["hand"]
    not_mine = next(c for c in room.match.observe((mover + 1) % 4).to_json()["hand"])
    game = room.match.game
    lowest = room.match.observe(mover).to_json()["required_card"]
    wrong_combo = [c for c in hand if c != lowest][:2]  # two unrelated cards, or a pair missing the lead card
    bad_messages = [
        ("not json at all", "bad message"),
        ("[1, 2, 3]", "bad message"),
        ("{}", "bad message"),
        ('{"type": "dance"}', "bad message"),
        ('{"type": "play"}', "bad message"),
        ('{"type": "play", "cards": []}', "bad message"),
        ('{"type": "play", "cards": ["ZZZ"]}', "'ZZZ' is not a card"),
        ('{"type": "exchange", "cards": ["0"]}', "'0' is not a card"),
        ('{"type": "play", "cards": ["3D"], "seat": 0}', "bad message"),
        ('{"type": "play", "cards": [1, 2]}', "bad message"),
        ('{"type": "play", "cards": "3D"}', "bad message"),
        ("x" * 10000, "too long"),
        (json.dumps({"type": "play", "cards": [not_mine]}), None),
        (json.dumps({"type": "play", "cards": wrong_combo}), None),
        (json.dumps({"type": "pass"}), None),
        (json.dumps({"type": "play", "cards": [hand[0]], "seq": 99}), "the table has moved on"),
        (json.dumps({"type": "exchange", "cards": [hand[0]]}), "the table waits for a play or a pass"),
        (json.dumps({"type": "continue"}), "there is no break"),
        (json.dumps({"type": "hello", "token": "forged"}), "not a seat"),
    ]
    # the engine's reasons, in the players' words (names, card faces, no citations)
    words = Wording(mover, [s.name for s in room.seats])
    expected_reasons = {
        json.dumps({"type": "play", "cards": [not_mine]}): words.render(game.why_not(not_mine)),
        json.dumps({"type": "play", "cards": wrong_combo}): words.render(game.why_not(" ".join(wrong_combo))),
        json.dumps({"type": "pass"}): words.render(game.why_not("pass")),
    }
    before = snapshot(room)

    async def send_all() -> list[tuple[str, str]]:
        answers = []
        async with websockets.connect(f"{server.ws_url}/ws/rooms/{rid}", max_size=2**20) as ws:
            await ws.send(json.dumps({"type": "hello", "token": tokens[mover]}))
            for raw, _ in bad_messages:
                await ws.send(raw)
                while True:
                    m = json.loads(await asyncio.wait_for(ws.recv(), 10))
                    if m["type"] == "error":
                        answers.append((raw, m["message"]))
                        break
            # a spectator cannot act either
        async with websockets.connect(f"{server.ws_url}/ws/rooms/{rid}") as ws:
            await ws.send(json.dumps({"type": "play", "cards": [hand[0]]}))
            while True:
                m = json.loads(await asyncio.wait_for(ws.recv(), 10))
                if m["type"] == "error":
                    answers.append(("spectator play", m["message"]))
                    break
        return answers

    answers = asyncio.run(send_all())
    assert len(answers) == len(bad_messages) + 1
    for (raw, want), (_, got) in zip(bad_messages, answers, strict=False):
        reason = expected_reasons.get(raw)
        if reason:  # the engine's own reason, word for word (in the players' words)
            assert got == reason, (raw, got)
        elif want:
            assert want in got, (raw[:40], got)
        assert snapshot(room) == before, raw[:40]
    assert "spectators cannot act" in answers[-1][1]
    # over HTTP: a body the schema refuses, and an illegal play
    r = httpx.post(
        f"{server.url}/api/rooms/{rid}/actions", json={"type": "play", "cards": "3D"}, headers=auth(tokens[mover])
    )
    assert r.status_code == 422
    r = httpx.post(
        f"{server.url}/api/rooms/{rid}/actions",
        json={"type": "play", "cards": wrong_combo},
        headers=auth(tokens[mover]),
    )
    assert r.status_code == 422 and r.json()["detail"] == words.render(game.why_not(" ".join(wrong_combo)))
    assert snapshot(room) == before


def prepared_matches() -> list[tuple[Ruleset, int, list[tuple[int, Any]]]]:
    """A match waiting for a play, and ones waiting for each kind of exchange decision (give, ask): rules, seed
    and the moves that lead there."""
    out = [(rules_of("classic"), 1, [])]
    for preset, changes in (("classic", {"exchange": "big-two-president"}), ("president", {})):
        m = Match(rules_of(preset, changes), players=4, seed=2, rounds=3)
        greedy = make("greedy")
        moves = []
        while m.phase != "exchange":
            seat = m.to_move
            moves.append((seat, greedy.choose(m.rules, m.observe(seat))))
            m.apply(moves[-1][1], seat=seat)
        out.append((m.rules, 2, moves))
    return out


def prepared(which: int) -> Match:
    rules, seed, moves = PREPARED[which]
    m = Match(rules, players=4, seed=seed, rounds=3)
    for seat, choice in moves:
        m.apply(choice, seat=seat)
    return m


PREPARED = prepared_matches()
CLIENT_MESSAGES = st.fixed_dictionaries(
    {"type": st.sampled_from(["play", "pass", "exchange", "hello", "continue", "ping", "dance"])},
    optional={
        "cards": st.lists(
            st.one_of(st.sampled_from(CARDS), st.from_regex(r"[0-9A-Za-z♠♥♦♣]{1,4}", fullmatch=True), st.text()),
            max_size=6,
        ),
        "answer": st.text(max_size=20),
        "seq": st.integers(-2, 3),
        "token": st.text(max_size=10),
    },
).map(json.dumps)


@given(raw=st.one_of(CLIENT_MESSAGES, st.text(max_size=200), st.binary(max_size=200)), which=st.integers(0, 2))
@settings(max_examples=300, deadline=None)
def test_any_client_message_is_obeyed_or_refused_in_words(raw, which):
    """Whatever a client sends is a move the engine takes, or a refusal in words; never a crash, never a half-move."""
    try:
        msg = parse_client_message(raw)
    except ValueError as e:
        assert str(e).startswith(("bad message", "message too long"))
        return
    if msg.type not in ("play", "pass", "exchange"):
        return
    m = prepared(which)
    before = json.dumps(m.to_dict(), sort_keys=True)
    try:
        answer = answer_of(msg)  # the room's reading of a message: an answer, or a refusal (never another error)
    except Rejected as e:
        assert e.status == 422 and e.message
        return
    if phase_of(msg) != m.phase:
        return  # refused by the room before the engine is asked (see the malformed-messages test)
    try:
        m.apply(answer, seat=m.to_move)
    except BigTwoError as e:  # the room answers these in words (422), and the match is as it was
        assert str(e) and json.dumps(m.to_dict(), sort_keys=True) == before


@pytest.mark.parametrize(
    ("preset", "changes", "rounds"),
    [("classic", {}, 1), ("classic", {"exchange": "big-two-president"}, 2), ("winner", {}, 2)],
)
def test_no_message_of_whole_games_shows_a_hidden_card(server, preset, changes, rounds):
    made, tokens = four_people(server.url, preset=preset, rules=changes, rounds=rounds)
    rid = made["room"]["id"]
    room = server.rooms.rooms[rid]
    rules = rules_of(preset, changes)
    transcript = Transcript()

    async def table() -> list[dict]:
        done = asyncio.Event()
        visitor = asyncio.create_task(churn(server.ws_url, rid, transcript, done))
        players = [play_seat(server.ws_url, rid, t, rules, transcript, seed=i) for i, t in enumerate(tokens)]
        finals = await asyncio.gather(*players, play_seat(server.ws_url, rid, None, rules, transcript))
        done.set()
        assert await visitor > 3
        return finals

    finals = asyncio.run(table())
    assert all(f["match"]["is_over"] for f in finals)
    assert room.status == "over" and len(room.match.records) == rounds
    checked = audit_hidden_cards(room, transcript)
    seats_seen = {seat for seat, _ in transcript.messages}
    assert seats_seen == {0, 1, 2, 3, None} and checked > 4 * room.seq
    # the spectator never had a hand; each seat saw its own
    for seat, raw in transcript.messages:
        msg = json.loads(raw)
        if msg["type"] == "view" and msg["match"] and seat is None:
            assert msg["match"]["hand"] == [] and msg["match"]["decision"] is None
    # the audit itself can fail: a view of seat 0 sent to seat 1 would be caught
    leaky = Transcript([(1, json.dumps(room_view_of_seat0(room)))])
    if any(room.match.observe(0).to_json()["hand"]):
        with pytest.raises(AssertionError, match="shows"):
            audit_hidden_cards(room, leaky)


def room_view_of_seat0(room) -> dict:
    """A view at the start of the game for seat 0 (used to show the audit catches a leak)."""
    m = Match(room.rules, players=room.players, seed=room.seed, rounds=room.rounds)
    return {"seq": 0, "match": m.observe(0).to_json()}


# --- bots, records, replays ------------------------------------------------------------------------------------


def test_bots_fill_a_table_and_the_finished_game_is_a_record(server):
    made = create_room(
        server.url,
        host_name="Ann",
        seats=[{"kind": "open"}, {"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "random"}, {"kind": "bot"}],
        rounds=2,
        bot_delay=0,
        move_seconds=0,
        break_seconds=0,
    )
    rid = made["room"]["id"]
    room = server.rooms.rooms[rid]
    assert httpx.get(f"{server.url}/api/records/{rid}").status_code == 409  # not finished
    httpx.post(f"{server.url}/api/rooms/{rid}/start", json={}, headers=auth(made["host_token"]))
    transcript = Transcript()
    final = asyncio.run(play_seat(server.ws_url, rid, made["token"], rules_of("classic"), transcript, seed=3))
    assert final["match"]["is_over"] and final["room"]["status"] == "over"
    assert len(final["match"]["standings"]) == 4 and len(final["match"]["rounds_done"]) == 2
    # nobody is at the finished table: the server keeps it only among the recent finished rooms
    assert wait_for(lambda: rid not in server.rooms.rooms) and server.rooms.finished[rid] is room
    by = {a["by"] for a in room.actions}
    assert by == {"player", "bot"}
    # the record, in both forms of the record format, replays through the engine to the same totals
    r = httpx.get(f"{server.url}/api/records/{rid}")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/plain")
    assert f'filename="bigtwo-{rid}.txt"' in r.headers["content-disposition"]
    text = r.text
    assert text.startswith('[Format "bigtwo-record/1"]\n[Type "match"]') and '[Player P0 "Ann"]' in text
    assert f'[Table "{rid}"]' in text and '[Player P2 "Chloe (random)"]' in text
    again = replay(read_record(text))  # every deal, play and payment checked again
    assert again.totals == final["match"]["totals"] and again.is_over
    r = httpx.get(f"{server.url}/api/records/{rid}?format=json")
    assert r.status_code == 200 and r.headers["content-type"].startswith("application/json")
    assert f'filename="bigtwo-{rid}.json"' in r.headers["content-disposition"]
    as_json = read_record(r.text)
    assert as_json == read_record(text) and json.loads(r.text)["format"] == "bigtwo-record/1"
    listed = httpx.get(f"{server.url}/api/records").json()
    assert [x["id"] for x in listed] == [rid] and listed[0]["seats"][0] == "Ann"
    assert listed[0]["standings"]["totals"] == again.totals
    assert set(listed[0]["downloads"]) == {"text", "json"}
    assert httpx.get(listed[0]["downloads"]["text"]).text == text
    replayed = httpx.get(f"{server.url}/api/records/{rid}/replay").json()
    frames = replayed["frames"]
    # the record's own positions: a deal, the start of play, then every action but the automatic passes
    own = [a for a in room.actions if a["phase"] == "play"]
    assert len(frames) == len(own) + 2 * 2 + sum(len(r.exchange.answers) for r in room.match.records)
    dealer = room.seats[room.match.records[0].dealer].name
    assert frames[0]["label"] == f"Round 1: {dealer} deals" and frames[1]["label"] == "Round 1: play starts"
    assert sum(len(h) for h in frames[0]["hands"]) == 52 and frames[-1]["totals"] == again.totals
    assert any(f["label"].startswith("1. Ann ") for f in frames) and "P0" not in json.dumps(frames)
    # the cards as every table writes them (3♦, not the record's 3D); points shown, the rules scoring points
    labels = " ".join(f["label"] for f in frames)
    assert not re.search(r"(?<![\w'])(?:10|[2-9TJQKA])[DCHS]\b", labels) and "♦" in labels
    assert replayed["ranks_only"] is False
    assert httpx.get(f"{server.url}/api/records/{rid}?format=pdf").status_code == 422
    # and once out of memory altogether it is read again from the database, the same game
    server.rooms.finished.clear()
    assert httpx.get(f"{server.url}/api/records/{rid}").text == text
    view = httpx.get(f"{server.url}/api/rooms/{rid}/view", headers=auth(made["token"])).json()
    assert view["match"]["is_over"] and view["match"]["totals"] == final["match"]["totals"]
    assert rid not in server.rooms.rooms and server.rooms.finished[rid] is not room
    audit_hidden_cards(room, transcript)


def test_pause_and_replacing_a_disconnected_player_by_a_bot(server):
    made, tokens = four_people(server.url)
    rid, host = made["room"]["id"], made["host_token"]
    room = server.rooms.rooms[rid]
    mover = room.match.to_move
    assert httpx.post(f"{server.url}/api/rooms/{rid}/pause", headers=auth(tokens[0])).status_code == 403
    r = httpx.post(f"{server.url}/api/rooms/{rid}/pause", headers=auth(host))
    assert r.status_code == 200 and r.json()["status"] == "paused"
    cards = [str(c) for c in make("greedy").choose(room.rules, room.match.observe(mover)).cards]
    r = httpx.post(
        f"{server.url}/api/rooms/{rid}/actions", json={"type": "play", "cards": cards}, headers=auth(tokens[mover])
    )
    assert r.status_code == 409 and "paused" in r.json()["detail"] and room.seq == 0
    # while paused, a disconnected player's seat goes to a bot, which does not move until the game resumes
    r = httpx.post(
        f"{server.url}/api/rooms/{rid}/seats/{mover}", json={"kind": "bot", "bot": "greedy"}, headers=auth(host)
    )
    assert r.status_code == 200 and r.json()["seats"][mover]["kind"] == "bot"
    time.sleep(0.3)
    assert room.seq == 0
    r = httpx.post(f"{server.url}/api/rooms/{rid}/actions", json={"type": "pass"}, headers=auth(tokens[mover]))
    assert r.status_code == 403  # the replaced player's token is revoked
    assert httpx.post(f"{server.url}/api/rooms/{rid}/resume", headers=auth(host)).status_code == 200
    deadline = time.monotonic() + 10
    while room.seq == 0 and time.monotonic() < deadline:
        time.sleep(0.02)
    assert room.actions[0]["seat"] == mover and room.actions[0]["by"] == "bot"

    # a connected player cannot be replaced
    async def connected_then_replaced() -> tuple[int, int]:
        target = (mover + 2) % 4
        async with websockets.connect(f"{server.ws_url}/ws/rooms/{rid}") as ws:
            await ws.send(json.dumps({"type": "hello", "token": tokens[target]}))
            while True:
                m = json.loads(await asyncio.wait_for(ws.recv(), 10))
                if m["type"] == "view" and m["you"]["seat"] == target:
                    break
            with httpx.Client() as c:
                busy = c.post(
                    f"{server.url}/api/rooms/{rid}/seats/{target}", json={"kind": "bot"}, headers=auth(host)
                ).status_code
        await asyncio.sleep(0.1)
        with httpx.Client() as c:
            free = c.post(f"{server.url}/api/rooms/{rid}/seats/{target}", json={"kind": "bot"}, headers=auth(host))
        return busy, free.status_code

    assert asyncio.run(connected_then_replaced()) == (409, 200)


def test_the_move_timer_plays_for_a_seat_that_does_not_move(server):
    made = create_room(
        server.url, host_name="Ann", seats=[{"kind": "open"}] + [{"kind": "bot"}] * 3, move_seconds=1, bot_delay=0
    )
    rid = made["room"]["id"]
    room = server.rooms.rooms[rid]
    httpx.post(f"{server.url}/api/rooms/{rid}/start", json={}, headers=auth(made["host_token"]))
    deadline = time.monotonic() + 15
    while not any(a["seat"] == 0 for a in room.actions) and time.monotonic() < deadline:
        time.sleep(0.05)
    ann = [a for a in room.actions if a["seat"] == 0]
    assert ann and ann[0]["by"] == "timeout"
    view = httpx.get(f"{server.url}/api/rooms/{rid}/view", headers=auth(made["token"])).json()
    if view["match"]["to_move"] == 0:
        assert 0 < view["timer"]["seconds_left"] <= 1 and view["timer"]["seat"] == 0


def test_the_score_table_break_between_rounds(server):
    made = create_room(
        server.url,
        host_name="Ann",
        seats=[{"kind": "open"}] + [{"kind": "bot"}] * 3,
        rounds=2,
        bot_delay=0,
        move_seconds=0,
        break_seconds=300,
    )
    rid = made["room"]["id"]
    room = server.rooms.rooms[rid]
    httpx.post(f"{server.url}/api/rooms/{rid}/start", json={}, headers=auth(made["host_token"]))
    rules = rules_of("classic")
    greedy = make("greedy")
    while room.match.round_index == 0:
        if room.match.to_move == 0:
            obs = room.match.observe(0)
            httpx.post(
                f"{server.url}/api/rooms/{rid}/actions",
                json=message_for(greedy.choose(rules, obs), room.seq),
                headers=auth(made["token"]),
            )
        time.sleep(0.01)
    view = httpx.get(f"{server.url}/api/rooms/{rid}/view", headers=auth(made["token"])).json()
    assert view["break"] == {**view["break"], "round": 1, "ready": [], "waiting_for": [0]}
    assert view["match"]["rounds_done"][0]["scores"] == room.match.records[0].result.scores
    seq = room.seq
    time.sleep(0.2)
    assert room.seq == seq  # bots wait while the score table is up

    async def ready() -> dict:
        async with websockets.connect(f"{server.ws_url}/ws/rooms/{rid}") as ws:
            await ws.send(json.dumps({"type": "hello", "token": made["token"]}))
            await ws.send(json.dumps({"type": "continue"}))
            while True:
                m = json.loads(await asyncio.wait_for(ws.recv(), 10))
                if m["type"] == "view" and m["break"] is None:
                    return m

    assert asyncio.run(ready())["match"]["round"] == 1


# --- persistence -------------------------------------------------------------------------------------------------


def play_some(base: str, rid: str, tokens: list[str], room, moves: int) -> None:
    """Moves over HTTP by whoever is to move (lowest legal play, as the greedy bot would)."""
    chooser = make("greedy")
    with httpx.Client(base_url=base) as client:
        for _ in range(moves):
            seat = room.match.to_move
            choice = chooser.choose(room.rules, room.match.observe(seat))
            r = client.post(f"/api/rooms/{rid}/actions", json=message_for(choice, room.seq), headers=auth(tokens[seat]))
            assert r.status_code == 200, r.text


def seat_views(base: str, rid: str, tokens: list[str]) -> list[dict]:
    out = []
    for t in [*tokens, None]:
        v = httpx.get(f"{base}/api/rooms/{rid}/view", headers=auth(t) if t else {}).json()
        v["room"].pop("invite")
        for s in v["room"]["seats"]:
            s.pop("connected")
        out.append(v)
    return out


def restart_resumes(database: str) -> None:
    with LiveServer(database) as first:
        made, tokens = four_people(first.url, preset="classic", rules={"exchange": "big-two-president"}, rounds=3)
        rid = made["room"]["id"]
        room = first.rooms.rooms[rid]
        while room.match.round_index < 1 or room.match.phase != "play":  # into round 2, past its exchange
            play_some(first.url, rid, tokens, room, 1)
        play_some(first.url, rid, tokens, room, 3)
        paused = create_room(first.url, host_name="Eve", seats=[{"kind": "open"}] + [{"kind": "bot"}] * 3, bot_delay=0)
        httpx.post(f"{first.url}/api/rooms/{paused['room']['id']}/start", json={}, headers=auth(paused["host_token"]))
        httpx.post(f"{first.url}/api/rooms/{paused['room']['id']}/pause", headers=auth(paused["host_token"]))
        before = seat_views(first.url, rid, tokens)
        record = room.match.to_dict()
        paused_seq = first.rooms.rooms[paused["room"]["id"]].seq
    with LiveServer(database) as second:
        after = seat_views(second.url, rid, tokens)
        assert after == before  # every seat and the spectators see exactly what they saw
        again = second.rooms.rooms[rid]
        assert again.match.to_dict() == record
        other = second.rooms.rooms[paused["room"]["id"]]
        assert other.status == "paused" and other.seq == paused_seq
        play_some(second.url, rid, tokens, again, 5)  # and the game goes on
        assert again.seq == before[0]["seq"] + 5


@pytest.mark.slow
def test_a_restarted_server_resumes_every_game_where_it_stood(tmp_path):
    restart_resumes(str(tmp_path / "games.sqlite3"))


@pytest.mark.xdist_group("postgresql")  # one database for the suite: its tests take turns on one worker
def test_postgresql_serves_and_resumes_games_the_same_way():
    url = reset_postgres(postgres_url_or_skip())
    restart_resumes(url)
    engine = make_engine(url)
    with engine.connect() as conn:
        diff = compare_metadata(MigrationContext.configure(conn), metadata)
    engine.dispose()
    assert diff == []


def test_migrations_build_exactly_the_tables_the_server_uses(tmp_path):
    engine = make_engine(str(tmp_path / "fresh.sqlite3"))
    migrate(engine)
    migrate(engine)  # idempotent: a second start changes nothing
    with engine.connect() as conn:
        assert compare_metadata(MigrationContext.configure(conn), metadata) == []
    engine.dispose()
    assert database_url("postgresql://u:p@h/db") == "postgresql+psycopg://u:p@h/db"
    with pytest.raises(ValueError, match="not supported"):
        database_url("mysql://u@h/db")
    create_engine("sqlite://").dispose()


def test_a_move_the_database_refuses_is_not_made(server):
    made, tokens = four_people(server.url)
    rid = made["room"]["id"]
    room = server.rooms.rooms[rid]
    journal = server.rooms.journal
    real_commit = journal._commit
    failing = {"on": True}

    def commit(items):
        if failing["on"]:
            raise OSError("disk full")
        return real_commit(items)

    journal._commit = commit
    before = snapshot(room)
    mover = room.match.to_move
    choice = make("greedy").choose(room.rules, room.match.observe(mover))
    r = httpx.post(f"{server.url}/api/rooms/{rid}/actions", json=message_for(choice, 0), headers=auth(tokens[mover]))
    assert r.status_code == 503 and "could not save this move, so it was not made" in r.json()["detail"]
    assert snapshot(room) == before  # the engine's state was rebuilt from the database
    failing["on"] = False
    r = httpx.post(f"{server.url}/api/rooms/{rid}/actions", json=message_for(choice, 0), headers=auth(tokens[mover]))
    assert r.status_code == 200 and stored_actions(room) == 1


def test_a_bot_move_the_database_refuses_is_tried_again(server):
    made = create_room(server.url, seats=[{"kind": "bot"}] * 4, rounds=1, bot_delay=0, move_seconds=0)
    rid = made["room"]["id"]
    room = server.rooms.rooms[rid]
    journal = server.rooms.journal
    real_commit = journal._commit
    refused = {"on": True, "times": 0}

    def commit(items):
        if refused["on"] and any(isinstance(i, ActionRow) for i in items):
            refused["times"] += 1
            raise OSError("disk full")
        return real_commit(items)

    journal._commit = commit
    assert httpx.post(f"{server.url}/api/rooms/{rid}/start", json={}, headers=auth(made["host_token"])).is_success
    # the first bot's move and its retry a second later (each tried in its batch, then on its own)
    assert wait_for(lambda: refused["times"] >= 4)
    view = httpx.get(f"{server.url}/api/rooms/{rid}/view").json()  # built under the room's lock
    assert view["seq"] == 0 and view["match"]["history"] == [] and stored_actions(room) == 0
    refused["on"] = False
    assert wait_for(lambda: room.status == "over")  # the table did not stall: the bots play on to the end
    assert stored_actions(room) == room.seq


def test_a_table_is_shown_over_only_once_its_end_is_stored(server):
    """The engine knows the match is over before the database does (the write that stores its end and results
    follows the last move): the room is never shown over in between, so a client told "over" finds it stored."""
    from bigtwo.server.db import rooms as room_rows

    made = create_room(server.url, seats=[{"kind": "bot"}] * 4, rounds=1, bot_delay=0, move_seconds=0)
    rid = made["room"]["id"]
    room = server.rooms.rooms[rid]
    journal = server.rooms.journal
    real_commit = journal._commit
    slowed = {"times": 0}

    def commit(items):
        if room.status == "over":  # the end's write (and any after it) takes its time
            slowed["times"] += 1
            time.sleep(0.5)
        return real_commit(items)

    journal._commit = commit
    assert httpx.post(f"{server.url}/api/rooms/{rid}/start", json={}, headers=auth(made["host_token"])).is_success
    assert wait_for(lambda: room.status == "over")  # the engine's end: from here its write is under way
    shown = httpx.get(f"{server.url}/api/rooms/{rid}").json()["status"]
    with room.manager.engine.connect() as conn:
        stored = conn.execute(select(room_rows.c.status).where(room_rows.c.id == rid)).scalar_one()
    assert slowed["times"] >= 1 and shown == stored == "over"


def test_a_table_busy_storing_a_move_does_not_hold_up_the_lobby(server):
    """A table's write that does not finish (a slow disk, a stalled database) holds that table, not the lobby: the
    list answers at once, with the busy table as it was last shown (nothing the database has not stored) and the
    others fresh."""
    create_room(server.url, name="quiet one")
    busy = create_room(server.url, name="busy one", seats=[{"kind": "bot"}] * 4, bot_delay=0, move_seconds=0)
    rid = busy["room"]["id"]
    room = server.rooms.rooms[rid]
    journal = server.rooms.journal
    real_commit = journal._commit
    release, held = threading.Event(), threading.Event()

    def commit(items):
        if room.actions and not release.is_set():  # a bot's move is written: the write stalls until released
            held.set()
            release.wait(30)
        return real_commit(items)

    journal._commit = commit
    try:
        assert httpx.post(f"{server.url}/api/rooms/{rid}/start", json={}, headers=auth(busy["host_token"])).is_success
        assert held.wait(20) and room.lock.locked()
        listed = {r["name"]: r for r in httpx.get(f"{server.url}/api/rooms", timeout=10).json()}
        assert room.lock.locked() and not release.is_set()  # answered while the busy table's write still waits
        assert set(listed) == {"busy one", "quiet one"} and listed["busy one"]["status"] == "playing"
        assert listed["quiet one"]["status"] == "waiting"
    finally:
        release.set()
        journal._commit = real_commit


def test_every_registered_bot_is_offered_and_the_strongest_that_fits_the_delay_is_the_default(server, monkeypatch):
    bots = httpx.get(f"{server.url}/api/bots").json()
    assert [b["name"] for b in bots] == list(BOTS) and {"random", "greedy"} <= set(BOTS)
    # a classic table at the default delay (0.8 s) and the server's budget (0.5 s): the search with beliefs
    assert [b["name"] for b in bots if b["default"]] == ["isearch"]
    made = create_room(server.url, host_name="Ann", move_seconds=0)
    assert made["room"]["bot"] == "isearch"
    # no delay: the quickest strong bot, the learned one where it has weights (classic), the heuristic elsewhere
    made = create_room(server.url, host_name="Ann", bot_delay=0, move_seconds=0)
    assert made["room"]["bot"] == "learned"
    made = create_room(server.url, preset="winner", host_name="Ann", bot_delay=0.1, move_seconds=0)
    assert made["room"]["bot"] == "heuristic"

    class Planner(BaseBot):
        """Plans its hand (a stand-in for a stronger bot registered later)."""

        name = "heuristic"

        def choose(self, rules, observation):
            return make("greedy").choose(rules, observation)

    monkeypatch.setitem(BOTS, "heuristic", Planner)
    bots = httpx.get(f"{server.url}/api/bots").json()
    assert "Plans its hand" in next(b["description"] for b in bots if b["name"] == "heuristic")
    made = create_room(server.url, preset="winner", host_name="Ann", bot_delay=0, move_seconds=0)
    rid = made["room"]["id"]
    r = httpx.post(
        f"{server.url}/api/rooms/{rid}/start", json={"fill_with_bots": True}, headers=auth(made["host_token"])
    )
    assert [s["bot"] for s in r.json()["seats"]] == [None, "heuristic", "heuristic", "heuristic"]


def test_a_bot_that_fails_does_not_stall_the_table(server, monkeypatch):
    class Crashing(BaseBot):
        """Raises instead of choosing."""

        name = "crashing"

        def choose(self, rules, observation):
            raise RuntimeError("out of ideas")

    class Cheating(BaseBot):
        """Always passes, even when it must lead."""

        name = "cheating"

        def choose(self, rules, observation):
            return Play.PASS

    monkeypatch.setitem(BOTS, "crashing", Crashing)
    monkeypatch.setitem(BOTS, "cheating", Cheating)
    assert {"crashing", "cheating"} <= {b["name"] for b in httpx.get(f"{server.url}/api/bots").json()}
    seats = [{"kind": "bot", "bot": "crashing"}, {"kind": "bot", "bot": "cheating"}] * 2
    made = create_room(server.url, seats=seats, rounds=1, bot_delay=0, move_seconds=0)
    rid = made["room"]["id"]
    room = server.rooms.rooms[rid]
    httpx.post(f"{server.url}/api/rooms/{rid}/start", json={}, headers=auth(made["host_token"]))
    assert wait_for(lambda: room.status == "over")  # every failure answered by the safe default
    assert {a["seat"] for a in room.actions} == {0, 1, 2, 3} and stored_actions(room) == room.seq


def test_a_restart_during_the_score_table_keeps_the_break(tmp_path):
    database = str(tmp_path / "games.sqlite3")
    spec = {"seats": [{"kind": "open"}] + [{"kind": "bot"}] * 3, "rounds": 2, "bot_delay": 0, "move_seconds": 0}
    with LiveServer(database) as first:
        made = create_room(first.url, host_name="Ann", break_seconds=300, **spec)
        rid = made["room"]["id"]
        room = first.rooms.rooms[rid]
        httpx.post(f"{first.url}/api/rooms/{rid}/start", json={}, headers=auth(made["host_token"]))
        greedy = make("greedy")
        with httpx.Client(base_url=first.url) as client:
            while room.match.round_index == 0:
                if room.match.to_move == 0:
                    choice = greedy.choose(room.rules, room.match.observe(0))
                    client.post(
                        f"/api/rooms/{rid}/actions", json=message_for(choice, room.seq), headers=auth(made["token"])
                    )
                time.sleep(0.005)
        while room.brk is None:  # the round's last move is committed, then the score table shows
            time.sleep(0.005)
        seq = room.seq
    with LiveServer(database) as second:
        view = httpx.get(f"{second.url}/api/rooms/{rid}/view", headers=auth(made["token"])).json()
        assert view["seq"] == seq and view["break"]["round"] == 1 and view["break"]["waiting_for"] == [0]
        time.sleep(0.2)
        assert second.rooms.rooms[rid].seq == seq  # the bots still wait for Ann


def test_bigtwo_serve_refuses_an_unsupported_database_in_words():
    from typer.testing import CliRunner

    from bigtwo.cli import app

    res = CliRunner().invoke(app, ["serve", "--database", "mysql://u@h/db"])
    assert res.exit_code == 2 and "database 'mysql' is not supported" in res.output
    res = CliRunner().invoke(app, ["serve", "--help"])
    assert res.exit_code == 0 and "--database" in res.output


def test_a_bot_is_seated_only_at_a_table_it_can_play(server):
    """The learned bot ships weights for some tables only: elsewhere its seat is refused in words when the room
    is made, instead of failing at its first move."""
    from bigtwo.bots.learned import shipped_weights

    assert ("classic", 4) in shipped_weights()
    ok = httpx.post(
        f"{server.url}/api/rooms", json={"preset": "classic", "seats": [{"kind": "bot", "bot": "learned"}] * 4}
    )
    assert ok.status_code in (200, 201), ok.text
    bad = httpx.post(
        f"{server.url}/api/rooms", json={"preset": "winner", "seats": [{"kind": "bot", "bot": "learned"}] * 4}
    )
    assert bad.status_code == 400 and "has no weights for 'winner'" in bad.text and "classic" in bad.text
