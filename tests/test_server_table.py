"""The table's tools on the server (issue 14): standing orders to pass, taking back a turn against bots, hints and
explanations, the chat, the rematch, and the players' words, checked without a browser.

The referee tests move an injected clock by hand; the room tests run the application on loopback and talk to it
as a browser does, over its WebSocket.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
import time
from typing import Any

import httpx
import pytest
import websockets
from hypothesis import given, settings
from hypothesis import strategies as st

from bigtwo.bots import make
from bigtwo.cards import CardSet, to_mask
from bigtwo.legal import legal_plays_from_observation
from bigtwo.match import Match
from bigtwo.observation import Observation
from bigtwo.server import store
from bigtwo.server.db import make_engine, migrate
from bigtwo.server.messages import EMOTES, parse_client_message
from bigtwo.server.referee import AUTO_PASS_SECONDS, Referee, Rejected
from bigtwo.server.rooms import Rooms
from bigtwo.server.views import match_view, rounds_done, spectator_view
from bigtwo.words import Wording
from tests.server_support import (
    LiveServer,
    Transcript,
    audit_hidden_cards,
    auth,
    cards_named,
    create_room,
    message_for,
    rules_of,
    secrets_by_seq,
    settings_for_tests,
)


class Clock:
    def __init__(self, t: float = 1000.0):
        self.t = t

    def __call__(self) -> float:
        return self.t


def referee(kinds: list[str], seed: int = 7, **row: Any) -> tuple[Referee, Clock]:
    """A started classic table with seats of these kinds; a person's token is ``secret-<seat>``."""
    clock = Clock()
    rules = rules_of(row.pop("preset", "classic"), row.pop("changes", None))
    seats = [
        {
            "seat": i,
            "kind": k,
            "name": ["Ann", "Bob", "Cy", "Di"][i] if k == "person" else f"Bot {i}",
            "bot": "greedy" if k == "bot" else None,
            "token": store.token_hash(f"secret-{i}") if k == "person" else None,
        }
        for i, k in enumerate(kinds)
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
        "seed": seed,
        "status": "waiting",
        "public": 1,
        "host_token": store.token_hash("host"),
        "move_seconds": 30,
        "bot_delay": 0.8,
        "break_seconds": 20,
        "bot": "greedy",
        "created_at": None,
        **row,
    }
    ref = Referee(base, seats, clock)
    ref.start("host", fill_with_bots=True).apply()
    return ref, clock


def act(ref: Referee, answer: Any, by: str = "player") -> None:
    seat = ref.match.to_move
    token = f"secret-{seat}" if by == "player" else None
    ref.confirm(ref.move(answer, token=token, seat=None if by == "player" else seat, by=by))


def seed_where(rules, holders: dict[str, int], players: int = 4) -> int:
    """The first seed whose deal gives each named card to the named seat."""
    for seed in range(10_000):
        dealt = Match(rules, players=players, seed=seed).current.dealt
        if all(dealt[s] & to_mask(c) for c, s in holders.items()):
            return seed
    raise AssertionError(f"no deal with {holders}")


# --- standing orders to pass ------------------------------------------------------------------------------


def test_auto_pass_passes_only_when_the_public_table_shows_the_seat_cannot_beat():
    rules = rules_of("classic")
    seed = seed_where(rules, {"3D": 1, "2S": 3, "4D": 2})
    ref, clock = referee(["person"] * 4, seed=seed)
    ref.set_orders(0, auto=True, trick=None)
    assert ref.view(0)["you"]["auto"] and not ref.view(1)["you"]["auto"]
    act(ref, "3D")  # Bob leads the 3 of diamonds
    act(ref, "4D")  # Cy beats it: Di could too, and so could Ann: no standing order passes for anyone
    assert ref.turn is not None and ref.turn.kind == "timer" and ref.turn.seat == 3
    act(ref, "2S")  # Di plays the highest single: nothing can beat it, whatever Ann holds
    assert ref.match.to_move == 0 and ref.auto_pass_reason(0) == "public"
    turn = ref.turn
    assert turn is not None and turn.kind == "auto" and turn.due == clock.t + AUTO_PASS_SECONDS
    act(ref, "pass", by="auto")
    assert ref.actions[-1]["by"] == "auto" and ref.actions[-1]["answer"] == "pass"
    # Bob has not asked: the table waits for him (under the move timer)
    assert ref.match.to_move == 1 and ref.turn.kind == "timer"


def test_auto_pass_reads_the_public_observation_and_nothing_else(monkeypatch):
    """Whether a standing order passes is decided from what everyone sees: the engine is only asked for the
    spectator's observation (seat None), never for a seat's."""
    rules = rules_of("classic")
    ref, _ = referee(["person"] * 4, seed=seed_where(rules, {"3D": 1, "2S": 3}))
    asked: list[int | None] = []
    real = ref.match.observe
    monkeypatch.setattr(ref.match, "observe", lambda seat: (asked.append(seat), real(seat))[1])
    ref.auto.add(0)
    for _ in range(3):
        seat = ref.match.to_move
        ref.auto_pass_reason(seat)
        ref.cannot_beat_in_public(seat)
        choice = make("greedy").choose(rules, real(seat))
        ref.confirm(ref.move(choice, token=f"secret-{seat}"))
    assert asked and set(asked) == {None}


@pytest.mark.parametrize("preset", ["classic", "winner", "zheng-shangyou"])
def test_a_seat_the_public_table_rules_out_really_cannot_beat(preset):
    """Whenever the public test says no hand of the seat's size could beat the play, the seat's own hand has no
    legal play but the pass: a standing order never passes for someone who could have played. (Games of greedy
    bots; the test counts how often it was put to the proof.)"""
    rules = rules_of(preset)
    proved = 0
    for seed in range(6):
        ref, _ = referee(["person"] * 4, seed=seed, preset=preset)
        greedy = make("greedy")
        while not ref.match.is_over and ref.match.round_index == 0:
            seat = ref.match.to_move
            obs = ref.match.observe(seat)
            if ref.match.pending is None and obs.trick is not None and ref.cannot_beat_in_public(seat):
                assert all(p.is_pass for p in legal_plays_from_observation(rules, obs)), (preset, seed, seat)
                proved += 1
            ref.confirm(ref.move(greedy.choose(rules, obs), token=f"secret-{seat}"))
    assert proved >= 3


def test_pass_until_the_next_trick_passes_in_this_trick_only():
    rules = rules_of("classic")
    seed = seed_where(rules, {"3D": 1})
    ref, _ = referee(["person"] * 4, seed=seed)
    with pytest.raises(Rejected, match="no play to beat"):
        ref.set_orders(0, auto=None, trick=True)  # Bob leads: there is no trick yet
    act(ref, "3D")
    with pytest.raises(Rejected, match="yours is the play to beat"):
        ref.set_orders(1, auto=None, trick=True)
    ref.set_orders(0, auto=None, trick=True)  # Ann will pass this trick, whatever comes
    assert ref.view(0)["you"]["pass_trick"]
    passes = 0
    while True:
        seat = ref.match.to_move
        if seat == 0:
            assert ref.turn is not None and ref.turn.kind == "auto" and ref.auto_pass_reason(0) == "trick"
            act(ref, "pass", by="auto")
            passes += 1
            continue
        obs = ref.match.observe(seat)
        if obs.trick is None:  # a new trick: the order is over
            break
        plays = [p for p in legal_plays_from_observation(rules, obs) if not p.is_pass]
        act(ref, plays[0] if plays and passes < 2 else "pass")
    assert passes >= 1 and not ref.view(0)["you"]["pass_trick"] and ref.auto_pass_reason(0) is None
    act(ref, make("greedy").choose(rules, ref.match.observe(ref.match.to_move)))  # the new trick's lead
    if ref.match.to_move == 0:
        assert ref.turn is not None and ref.turn.kind == "timer"


# --- taking back a turn -----------------------------------------------------------------------------------


def test_undo_takes_back_a_persons_turn_and_the_bots_answers_at_a_table_of_bots_only():
    rules = rules_of("classic")
    ref, _ = referee(["person", "bot", "bot", "bot"], seed=seed_where(rules, {"3D": 0}))
    with pytest.raises(Rejected, match="nothing to take back"):
        ref.take_back(0)
    greedy = make("greedy")
    act(ref, greedy.choose(rules, ref.match.observe(0)))
    while ref.match.to_move != 0:
        act(ref, greedy.choose(rules, ref.match.observe(ref.match.to_move)), by="bot")
    before_hand = ref.match.observe(0).hand
    assert ref.view(0)["you"]["may_undo"]
    point = ref.take_back(0)
    assert point == 0
    ref.cut(point)
    assert ref.seq == 0 and ref.match.to_move == 0 and ref.match.observe(0).hand.bit_count() == 13
    assert ref.match.observe(0).hand != before_hand
    # the position is the one the stored actions rebuild
    fresh = Match(rules, players=4, seed=ref.seed, rounds=2)
    assert json.dumps(fresh.to_dict(), sort_keys=True) == json.dumps(ref.match.to_dict(), sort_keys=True)


def test_undo_is_refused_in_words_when_another_person_plays():
    rules = rules_of("classic")
    ref, _ = referee(["person", "person", "bot", "bot"], seed=seed_where(rules, {"3D": 0}))
    act(ref, make("greedy").choose(rules, ref.match.observe(0)))
    with pytest.raises(Rejected, match="every other seat is a bot's") as e:
        ref.take_back(0)
    assert e.value.status == 409 and not ref.view(0)["you"]["may_undo"]


# --- words ------------------------------------------------------------------------------------------------


def test_views_say_the_engines_sentences_with_names_plurals_and_faces():
    m = Match("classic", players=4, seed=3, rounds=2)
    greedy = make("greedy")
    while not m.completed:
        m.apply(greedy.choose(m.rules, m.observe(m.to_move)))
    names = ["Ann", "Bob", "Cy", "Di"]
    done = rounds_done(m, Wording(1, names))[0]
    assert done["details"] and all("seat" in d for d in done["details"])
    for raw, said in zip(done["details"], done["said"], strict=True):
        assert not re.search(r"\bseat \d", said, re.I) and not re.search(r"\b1 cards\b", said)
        if raw.startswith("seat 1 pays"):
            assert said.startswith("You pay")
    # the hands left are the round's own, and each seat's count says as much
    for s, cards in enumerate(done["hands_left"]):
        assert len(cards) == done["cards_left"][s]
        assert to_mask(cards) == m.completed[0].game.hand(s).mask
    view = match_view(m, 0, Wording(0, names))
    assert view["rounds_done"][0]["said"][0].split()[0] in [*names, "You"]


def test_a_steals_questions_and_the_answers_so_far_are_sent_in_the_tables_words():
    """The answers to a stealing president's decision come with the table's words for each question (the page's
    menu shows them, as the hint and the list of answers say them), and the questions asked so far with theirs:
    card faces and suit symbols, never a bare suit letter or a card in record notation."""
    from bigtwo.server import advice
    from tests.server_support import CARD_TOKEN

    m = Match(rules_of("president"), players=4, seed=7, rounds=2)
    greedy = make("greedy")
    while m.pending is None or m.pending.kind != "ask":
        if m.pending is not None and m.pending.kind == "surrender":  # the bum declines: the president asks
            m.apply(CardSet(0))
        else:
            m.apply(greedy.choose(m.rules, m.observe(m.to_move)))
    seat = m.to_move
    words = Wording(seat, ["Ann", "Bob", "Cy", "Di"])
    view = match_view(m, seat, words)
    answers, said = view["answers"], view["answers_said"]
    shown = dict(zip(answers, said, strict=True))
    assert shown["highest"] == "ask for their highest card" and shown["highest pair"] == "ask for their highest pair"
    assert shown["lowest D"] == "ask for their lowest ♦" and shown["any S"] == "ask whether they have any ♠"
    assert shown["two H"] == "ask whether they have two ♥ or more" and shown["have TD"] == "ask whether they have 10♦"
    assert not [t for t in said if re.search(r"\b[DCHS]\b", t) or CARD_TOKEN.search(t)]
    assert [p["text"] for p in advice.legal(m.rules, m.observe(seat), words)["plays"]] == said  # the list says so too
    assert view["decision"]["answers"] == [] and spectator_view(m)["answers_said"] is None
    # the questions asked so far, with their answers, as the decision lists them
    m.apply("highest")
    m.apply("any S")
    assert m.to_move == seat and m.pending.kind == "ask"
    asked = match_view(m, seat, words)["decision"]["answers"]
    assert [a["said"] for a in asked] == ["Asked for their highest card: took 2♥", "Asked whether they have any ♠: yes"]
    ascii_said = match_view(m, seat, Wording(seat, ascii_cards=True))["decision"]["answers"]
    assert ascii_said[0]["said"] == "Asked for their highest card: took 2H"


# --- the room: chat, help, undo, rematch, over the WebSocket --------------------------------------------------


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with LiveServer(str(tmp_path_factory.mktemp("table") / "table.sqlite3")) as live:
        yield live


def table_of(server, kinds: list[str], seed: int | None = None, **spec: Any) -> tuple[dict, list[str | None], Any]:
    """A started table: Ann (seat 0, host) and seats of these kinds after her; people join over the API."""
    default = server.rooms.new_seed
    if seed is not None:
        server.rooms.new_seed = lambda: seed
    try:
        seats = [{"kind": "open"}] + [{"kind": "bot" if k == "bot" else "open"} for k in kinds[1:]]
        made = create_room(
            server.url, host_name="Ann", seats=seats, bot="greedy", **{"move_seconds": 0, "bot_delay": 0, **spec}
        )
    finally:
        server.rooms.new_seed = default
    rid = made["room"]["id"]
    tokens: list[str | None] = [made["token"]]
    for i, k in enumerate(kinds[1:], 1):
        if k == "person":
            r = httpx.post(f"{server.url}/api/rooms/{rid}/join", json={"name": ["Bob", "Cy", "Di"][i - 1], "seat": i})
            assert r.status_code == 200, r.text
            tokens.append(r.json()["token"])
        else:
            tokens.append(None)
    r = httpx.post(f"{server.url}/api/rooms/{rid}/start", json={}, headers=auth(made["host_token"]))
    assert r.status_code == 200, r.text
    return made, tokens, server.rooms.rooms[rid]


class Client:
    """One WebSocket client of a table: says hello, keeps every message it receives."""

    def __init__(self, server, rid: str, token: str | None, transcript: Transcript | None = None):
        self.url = f"{server.ws_url}/ws/rooms/{rid}"
        self.token = token
        self.transcript = transcript if transcript is not None else Transcript()
        self.seat: int | None = None
        self.view: dict[str, Any] | None = None

    async def __aenter__(self) -> Client:
        self.ws = await websockets.connect(self.url, max_size=2**20)
        await self.ws.send(json.dumps({"type": "hello", "token": self.token}))
        if self.token:
            await self.until(lambda m: m["type"] == "view" and m["you"]["seat"] is not None)
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.ws.close()

    async def send(self, msg: dict[str, Any]) -> None:
        await self.ws.send(json.dumps(msg))

    async def until(self, pred, seconds: float = 20) -> dict[str, Any]:
        deadline = time.monotonic() + seconds
        while True:
            raw = await asyncio.wait_for(self.ws.recv(), max(0.01, deadline - time.monotonic()))
            msg = json.loads(raw)
            if msg["type"] == "view":
                self.seat, self.view = msg["you"]["seat"], msg
            self.transcript.messages.append((self.seat, raw))
            if pred(msg):
                return msg

    async def ask(self, msg: dict[str, Any], kinds: tuple[str, ...] = ("help", "error", "chat")) -> dict[str, Any]:
        await self.send(msg)
        return await self.until(lambda m: m["type"] in kinds)


def test_chat_lines_and_emotes_reach_everyone_bounded_and_paced(server):
    _made, tokens, room = table_of(server, ["person", "person", "bot", "bot"])

    async def run() -> None:
        async with (
            Client(server, room.id, tokens[0]) as ann,
            Client(server, room.id, tokens[1]) as bob,
            Client(server, room.id, None) as eve,
        ):
            got = await ann.ask({"type": "chat", "text": "  good   luck <b>all</b> "})
            assert got["messages"][-1] == {"id": 1, "seat": 0, "name": "Ann", "text": "good luck <b>all</b>"}
            seen = await bob.until(lambda m: m["type"] == "chat")
            assert seen["messages"] == got["messages"]
            got = await bob.ask({"type": "chat", "emote": "good-game"})
            assert got["messages"][-1] == {"id": 2, "seat": 1, "name": "Bob", "emote": "good-game", "text": "GG"}
            # a spectator watches in silence; a bad line is refused in words and nothing is kept
            said = await eve.ask({"type": "chat", "text": "hi"}, ("error",))
            assert said["type"] == "error" and "spectators watch in silence" in said["message"]
            for bad, words in (
                ({"type": "chat", "text": "x" * 201}, "at most 200 characters"),
                ({"type": "chat", "text": "evil\u202eenil"}, "not allowed: printable characters only"),
                ({"type": "chat", "text": "a\u0007b"}, "U+0007"),
                ({"type": "chat", "emote": "dance"}, "Input should be"),
                ({"type": "chat"}, "a text or an emote"),
                ({"type": "chat", "text": "hi", "emote": "wow", "seat": 2}, "bad message"),
            ):
                answer = await ann.ask(bad, ("error",))
                assert answer["type"] == "error" and words in answer["message"], (bad, answer)
            assert len(room.chat) == 2
            # past its burst a seat is told to wait, in words; other seats still chat
            answers = [await ann.ask({"type": "chat", "text": f"line {i}"}) for i in range(6)]
            refused = [a for a in answers if a["type"] == "error"]
            assert refused and all("too many chat messages: at most 12 a minute" in a["message"] for a in refused)
            assert all(a["about"] == "chat" for a in refused)
            await bob.send({"type": "chat", "text": "still here"})
            await bob.until(lambda m: m["type"] == "chat" and m["messages"][-1]["text"] == "still here")
            # a newcomer gets the lines said so far; the chat keeps only the latest
            async with Client(server, room.id, None) as late:
                lines = await late.until(lambda m: m["type"] == "chat")
                assert [c["id"] for c in lines["messages"]] == [c["id"] for c in room.chat]
            for line in room.chat:
                assert set(line) <= {"id", "seat", "name", "text", "emote"}

    asyncio.run(run())


def test_hint_explain_and_legal_answer_the_asker_alone_in_words(server):
    rules = rules_of("classic")
    _made, tokens, room = table_of(server, ["person", "person", "bot", "bot"], seed=seed_where(rules, {"3D": 0}))

    async def run() -> None:
        async with Client(server, room.id, tokens[0]) as ann, Client(server, room.id, tokens[1]) as bob:
            hint = await ann.ask({"type": "hint"})
            assert hint["kind"] == "hint" and hint["ok"] and hint["text"].startswith("Hint: ")
            assert "3D" in hint["cards"] and "3♦" in hint["text"]
            legal = await ann.ask({"type": "legal"})
            plays = legal_plays_from_observation(rules, room.match.observe(0))
            assert legal["count"] == len(plays) and [to_mask(p["cards"]) for p in legal["plays"]] == [
                p.mask for p in plays
            ]
            assert legal["text"] == f"{len(plays)} legal plays"
            hand = room.match.observe(0).to_json()["hand"]
            bad = await ann.ask({"type": "explain", "cards": [hand[-1]]})
            assert not bad["ok"] and "3♦" in bad["text"] and "3D" not in bad["text"]
            good = await ann.ask({"type": "explain", "cards": ["3D"]})
            assert good["ok"] and good["text"] == "3♦: a legal lead."
            not_yours = await bob.ask({"type": "hint"})
            assert not not_yours["ok"] and "not your turn" in not_yours["text"]
            # out of turn, a single card is only itself; a combination is still named
            bobs = room.match.observe(1).to_json()["hand"]
            single = await bob.ask({"type": "explain", "cards": [bobs[-1]]})
            assert not single["ok"] and single["text"] == "It is not your turn."
            pair = next([a, b] for i, a in enumerate(bobs) for b in bobs[i + 1 :] if a[:-1] == b[:-1])
            named = await bob.ask({"type": "explain", "cards": pair})
            assert re.fullmatch(r"It is not your turn; \S+ \S+ is a pair of \w+\.", named["text"]), named["text"]
            # only Ann was answered about Ann's turn
            assert not [m for s, m in bob.transcript.messages if '"kind":"hint","ok":true' in m]
            # asking without pause is paced, in words
            answers = [await ann.ask({"type": "legal"}) for _ in range(8)]
            assert any(a["type"] == "error" and "too many requests for help" in a["message"] for a in answers)

    asyncio.run(run())


def test_undo_deletes_the_stored_actions_and_a_restart_rebuilds_the_same_position(server, tmp_path):
    rules = rules_of("classic")
    _made, tokens, room = table_of(server, ["person", "bot", "bot", "bot"], seed=seed_where(rules, {"3D": 0}))

    async def run() -> None:
        async with Client(server, room.id, tokens[0]) as ann:
            view = ann.view
            assert not view["you"]["may_undo"]
            refused = await ann.ask({"type": "undo"})
            assert refused["type"] == "error" and "nothing to take back" in refused["message"]
            choice = make("greedy").choose(rules, room.match.observe(0))
            await ann.send(message_for(choice, view["seq"]))
            view = await ann.until(lambda m: m["type"] == "view" and m["match"]["to_move"] == 0 and m["seq"] > 0)
            assert view["you"]["may_undo"]
            stale = await ann.ask({"type": "undo", "seq": view["seq"] - 1})
            assert stale["type"] == "error" and "the table has moved on" in stale["message"]
            await ann.send({"type": "undo", "seq": view["seq"]})
            back = await ann.until(lambda m: m["type"] == "view" and m["seq"] == 0)
            assert len(back["match"]["hand"]) == 13 and back["match"]["history"] == []

    asyncio.run(run())
    with room.manager.engine.connect() as conn:
        assert store.action_count(conn, room.id) == room.seq == 0
        loaded = store.load_room(conn, room.id)
    assert loaded is not None
    again = Referee(loaded[0], loaded[1])
    again.replay(loaded[2])
    assert json.dumps(again.match.to_dict(), sort_keys=True) == json.dumps(room.match.to_dict(), sort_keys=True)


def test_standing_orders_pass_for_a_person_over_the_websocket(server):
    rules = rules_of("classic")
    seed = seed_where(rules, {"3D": 1, "2S": 3})
    _made, tokens, room = table_of(server, ["person"] * 4, seed=seed)

    async def run() -> None:
        async with (
            Client(server, room.id, tokens[0]) as ann,
            Client(server, room.id, tokens[1]) as bob,
            Client(server, room.id, tokens[2]) as cy,
            Client(server, room.id, tokens[3]) as di,
        ):
            bad = await ann.ask({"type": "autopass", "auto": "yes"}, ("error",))
            assert "valid boolean" in bad["message"]
            early = await bob.ask({"type": "autopass", "trick": True}, ("error",))
            assert "no play to beat" in early["message"]
            await ann.send({"type": "autopass", "auto": True})
            await ann.until(lambda m: m["type"] == "view" and m["you"]["auto"])
            for who, cards in ((bob, ["3D"]), (cy, None), (di, ["2S"])):
                seq = room.seq
                await who.send({"type": "play", "cards": cards, "seq": seq} if cards else {"type": "pass", "seq": seq})
                await who.until(lambda m, s=seq: m["type"] == "view" and m["seq"] > s)
            passed = await ann.until(lambda m: m["type"] == "view" and m["last"] and m["last"]["by"] == "auto")
            assert passed["last"] == {"seq": 3, "seat": 0, "by": "auto", "action": "pass"}
            # Bob's turn: he passes until the next trick, and the server passes for him at once
            await bob.send({"type": "autopass", "trick": True})
            view = await bob.until(lambda m: m["type"] == "view" and m["seq"] == 5)
            assert view["you"]["pass_trick"]  # the trick goes on (Cy is to move): the order stands
            await cy.send({"type": "pass", "seq": 5})
            view = await bob.until(lambda m: m["type"] == "view" and m["seq"] == 6)
            assert view["match"]["trick"] is None and not view["you"]["pass_trick"]  # Di leads a new trick
            assert [(a["seat"], a["by"], a["answer"]) for a in room.actions[3:5]] == [
                (0, "auto", "pass"),
                (1, "auto", "pass"),
            ]

    asyncio.run(run())


def play_out(server, rid: str, tokens: list[str | None], rules) -> None:
    """The people at a table play greedy moves over the HTTP API (the bots play themselves) until it is over."""
    greedy = make("greedy")
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        for seat, token in enumerate(tokens):
            if token is None:
                continue
            view = httpx.get(f"{server.url}/api/rooms/{rid}/view", headers=auth(token)).json()
            g = view["match"]
            if g["is_over"]:
                return
            if g["to_move"] == seat and not view["break"]:
                body = message_for(greedy.choose(rules, Observation.from_json(g, rules)), view["seq"])
                httpx.post(f"{server.url}/api/rooms/{rid}/actions", json=body, headers=auth(token))
        time.sleep(0.01)
    raise AssertionError("the match did not end")


def test_a_rematch_keeps_the_seats_and_their_secrets(server):
    made, tokens, room = table_of(server, ["person", "person", "bot", "bot"], rounds=1)
    rules = rules_of("classic")

    async def run() -> str:
        async with Client(server, room.id, tokens[0]) as ann:
            early = await ann.ask({"type": "rematch"}, ("error",))
            assert "once the match is over" in early["message"]
        await asyncio.to_thread(play_out, server, room.id, tokens, rules)
        async with Client(server, room.id, tokens[0]) as ann, Client(server, room.id, tokens[1]) as bob:
            await ann.send({"type": "rematch"})
            asked = await bob.until(lambda m: m["type"] == "view" and m["rematch"] and m["rematch"]["votes"] == [0])
            assert asked["rematch"]["room"] is None and asked["rematch"]["people"] == [0, 1]
            async with Client(server, room.id, None) as eve:
                refused = await eve.ask({"type": "rematch"}, ("error",))
                assert "spectators cannot act" in refused["message"]
            await bob.send({"type": "rematch"})
            done = await ann.until(lambda m: m["type"] == "view" and m["rematch"]["room"])
            return done["rematch"]["room"]

    new_id = asyncio.run(run())
    new = server.rooms.rooms[new_id]
    assert [(s.kind, s.name, s.bot) for s in new.seats] == [(s.kind, s.name, s.bot) for s in room.seats]
    assert new.status == "playing" and new.seed != room.seed and new.rules == room.rules
    # each person's secret is their seat at the new table too, and the host's is the host's
    for seat in (0, 1):
        view = httpx.get(f"{server.url}/api/rooms/{new_id}/view", headers=auth(tokens[seat])).json()
        assert view["you"]["seat"] == seat
    r = httpx.post(f"{server.url}/api/rooms/{new_id}/pause", headers=auth(made["host_token"]))
    assert r.status_code == 200
    with room.manager.engine.connect() as conn:
        assert store.load_room(conn, room.id)[0]["rematch"] == new_id


def test_a_rematch_table_closed_or_expired_before_it_starts_is_no_rematch_any_more(tmp_path):
    """A rematch table that waits for a seat (one opened during the match) and is closed by its host, or expires,
    is deleted: the finished table then names no rematch, in memory and in the database (so a finished table
    read again later, or after a restart, offers no dead link), and its people may ask for another afresh."""
    from datetime import UTC, datetime, timedelta

    from bigtwo.server.connections import Connection
    from bigtwo.server.messages import CreateRoom, SeatSpec

    engine = make_engine(str(tmp_path / "rooms.sqlite3"))
    migrate(engine)
    wall = [datetime(2026, 5, 1, 12, 0, tzinfo=UTC)]
    settings = settings_for_tests(waiting_room_minutes=30)
    rooms = Rooms(engine, settings, clock=Clock(), now=lambda: wall[0])
    greedy = make("greedy")

    def linked(room_id: str) -> str | None:
        with engine.connect() as conn:
            return store.load_room(conn, room_id)[0]["rematch"]

    async def main() -> tuple[str, str]:
        spec = CreateRoom(host_name="Ann", seats=[SeatSpec()] * 4, rounds=1, move_seconds=0, bot_delay=0)
        room, host, _, ann = await rooms.create(spec, "10.0.0.1")
        tokens = [ann] + [(await room.join(name, seat))[1] for seat, name in enumerate(("Bob", "Cy", "Di"), 1)]
        await room.start(host, fill_with_bots=False)
        await room.change_seat(host, 3, "open", None)  # Di left: her seat is open, the server moves for it
        while not room.match.is_over:
            seat = room.match.to_move
            answer = greedy.choose(room.rules, room.match.observe(seat))
            if seat == 3:
                await room.submit(seat, answer, "timer")
            else:
                await room.act(tokens[seat], answer)
        assert room.status == "over"
        asker = Connection(None, address="10.0.0.1")
        asker.token = tokens[0]

        async def rematch() -> str:
            await room.rematch(asker)
            new_id = room.view(0)["rematch"]["room"]
            assert new_id is not None and (await rooms.get(new_id)).status == "waiting"  # seat 3 is open there
            assert linked(room.id) == new_id
            return new_id

        # the host closes the rematch table before it starts
        first = await rematch()
        await (await rooms.get(first)).close_by_host(host)
        assert room.view(0)["rematch"] == {"votes": [], "people": [0, 1, 2], "room": None}
        assert room.view(None)["rematch"]["room"] is None and linked(room.id) is None
        # another is asked for; nobody starts it, and it expires while the finished table is in memory
        second = await rematch()
        assert second != first
        wall[0] += timedelta(minutes=31)
        assert await rooms.sweep() == 1
        assert room.view(1)["rematch"] == {"votes": [], "people": [0, 1, 2], "room": None}
        assert linked(room.id) is None
        # a third expires while the finished table lives only in the database: read again, it names none
        third = await rematch()
        rooms.release(room)
        rooms.finished.pop(room.id)
        wall[0] += timedelta(minutes=31)
        assert await rooms.sweep() == 1
        again = await rooms.get(room.id)
        assert again is not room and again.view(0)["rematch"]["room"] is None
        # a fourth is left waiting when the server stops, and has expired by the time it starts again
        asker_again = Connection(None, address="10.0.0.1")
        asker_again.token = tokens[0]
        await again.rematch(asker_again)
        fourth = again.view(0)["rematch"]["room"]
        assert fourth is not None and linked(room.id) == fourth
        return room.id, third

    room_id, third = asyncio.run(main())
    rooms.stop()
    wall[0] += timedelta(minutes=31)
    restarted = Rooms(engine, settings, clock=Clock(), now=lambda: wall[0])
    restarted.load_live()

    async def after_restart() -> dict[str, Any]:
        with pytest.raises(Rejected, match="no room"):
            await restarted.get(third)
        return (await restarted.get(room_id)).view(0)["rematch"]

    assert asyncio.run(after_restart())["room"] is None and linked(room_id) is None
    restarted.stop()
    engine.dispose()


# --- every message: nothing another seat holds, in either notation --------------------------------------------


def test_no_chat_help_or_view_of_a_whole_match_shows_a_hidden_card(server):
    """Four people chat, ask for hints, legal plays and explanations, and play a match of two rounds with
    exchanges: no message any of them (or a spectator) receives names a card another seat holds."""
    rules = rules_of("classic", {"exchange": "big-two-president"})
    _made, tokens, room = table_of(
        server, ["person"] * 4, rules={"exchange": "big-two-president"}, rounds=2, break_seconds=0
    )
    transcript = Transcript()
    lines = ["good luck", "nice one", "hmm", "your turn", "well played", "oops", "let us go"]

    async def seat_loop(seat: int) -> None:
        rng = random.Random(seat)
        chooser = make("greedy")
        acted = -1
        async with Client(server, room.id, tokens[seat], transcript) as me:
            msg = me.view
            while True:
                g = msg["match"]
                if g is None or g["is_over"]:
                    return
                if g["to_move"] == seat and not msg["break"] and acted != msg["seq"]:
                    acted = msg["seq"]
                    if rng.random() < 0.5:
                        line = (
                            {"text": rng.choice(lines)} if rng.random() < 0.7 else {"emote": rng.choice(list(EMOTES))}
                        )
                        await me.send({"type": "chat", **line})
                    kind = rng.choice(["hint", "legal", "explain"])
                    await me.send({"type": kind, **({"cards": g["hand"][:2]} if kind == "explain" else {})})
                    await me.send(message_for(chooser.choose(rules, Observation.from_json(g, rules)), msg["seq"]))
                msg = await me.until(lambda m: m["type"] == "view", 60)

    async def run() -> None:
        async with Client(server, room.id, None, transcript) as eve:
            await asyncio.gather(
                *(seat_loop(s) for s in range(4)),
                eve.until(lambda m: m["type"] == "view" and m["match"]["is_over"], 120),
            )

    asyncio.run(run())
    assert room.match.is_over
    kinds = {json.loads(raw)["type"] for _, raw in transcript.messages}
    assert {"view", "chat", "help"} <= kinds
    checked = audit_hidden_cards(room, transcript)
    assert checked > 4 * room.seq
    # the audit reads faces too: a chat line naming a card Bob holds, sent to Ann, is caught
    secrets = secrets_by_seq(room)
    hidden = sorted(secrets[0][0])
    assert hidden and cards_named(f"I have {CardSet(hidden[0]).symbols().replace('T', '10')}") == {hidden[0]}
    leak = json.dumps(
        {"type": "chat", "seq": 0, "messages": [{"text": CardSet(hidden[0]).symbols()}]}, ensure_ascii=False
    )
    with pytest.raises(AssertionError, match="shows"):
        audit_hidden_cards(room, Transcript([(0, leak)]))


NEW_MESSAGES = st.fixed_dictionaries(
    {"type": st.sampled_from(["chat", "hint", "explain", "legal", "undo", "autopass", "rematch"])},
    optional={
        "text": st.one_of(st.text(max_size=250), st.integers()),
        "emote": st.one_of(st.sampled_from([*EMOTES, "x"]), st.none()),
        "cards": st.lists(st.text(max_size=4), max_size=4),
        "auto": st.one_of(st.booleans(), st.text(max_size=3), st.none()),
        "trick": st.one_of(st.booleans(), st.integers(0, 2)),
        "seq": st.integers(-1, 3),
    },
).map(json.dumps)


@given(raw=NEW_MESSAGES)
@settings(max_examples=300, deadline=None)
def test_the_tables_new_messages_are_read_or_refused_in_words(raw):
    try:
        msg = parse_client_message(raw)
    except ValueError as e:
        assert str(e).startswith("bad message") and len(str(e)) < 700
        return
    if msg.type == "chat":
        assert (msg.text is None) != (msg.emote is None)
        assert msg.text is None or (0 < len(msg.text) <= 200 and msg.text == " ".join(msg.text.split()))
    if msg.type == "autopass":
        assert isinstance(msg.auto, bool | None) and isinstance(msg.trick, bool | None)


def test_a_database_from_before_rematches_is_upgraded(tmp_path):
    """The rematch column comes with a migration: a database made by the first schema upgrades in place."""
    from alembic import command
    from alembic.config import Config

    from bigtwo.server.db import MIGRATIONS

    engine = make_engine(str(tmp_path / "old.sqlite3"))
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "0001")
    migrate(engine)
    rooms = Rooms(engine, settings_for_tests())
    assert rooms.load_live() == 0
    engine.dispose()


def test_the_server_and_the_words_import_downward_only():
    """The server says things in the terminal's words without importing the terminal: the wording lives below both
    (bigtwo.words, which needs only the cards)."""
    import ast

    from tests.server_support import ROOT

    def imports(path) -> set[str]:
        out = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module:
                out.add(node.module)
            elif isinstance(node, ast.Import):
                out.update(a.name for a in node.names)
        return out

    src = ROOT / "src" / "bigtwo"
    for path in (src / "server").rglob("*.py"):
        assert not {m for m in imports(path) if m.startswith("bigtwo.cli")}, path
    # the words below both tables: the cards, and the player's language (layer 0)
    assert {m for m in imports(src / "words.py") if m.startswith("bigtwo")} == {"bigtwo.cards", "bigtwo.i18n"}


def test_a_deadline_is_slept_to_even_when_the_event_loop_wakes_early(tmp_path):
    """The move timer acts only once the room's clock has reached its deadline; an event loop that wakes a timer
    early by that clock (uvloop counts milliseconds) must not make it give up. Here the room's clock runs 1% slow,
    so every sleep ends a little early by it: the room sleeps the rest until the deadline is reached."""
    from bigtwo.server.room import Room

    start = time.monotonic()

    def slow() -> float:
        return start + (time.monotonic() - start) * 0.99

    engine = make_engine(str(tmp_path / "clock.sqlite3"))
    rooms = Rooms(engine, settings_for_tests(), clock=slow)
    ref, _ = referee(["person", "bot", "bot", "bot"])
    row = {k: getattr(ref, k) for k in ("id", "name", "preset", "changes", "players", "rounds", "points", "seed")}
    row.update(
        rules=ref.rules.to_dict(),
        status="playing",
        public=1,
        host_token=ref.host_token,
        move_seconds=30,
        bot_delay=0.8,
        break_seconds=20,
        bot="greedy",
        created_at=None,
    )
    room = Room(rooms, row, [s.to_row(ref.id) for s in ref.seats])
    due = slow() + 0.15
    asyncio.run(room._sleep_until(due))
    assert slow() >= due
    engine.dispose()
