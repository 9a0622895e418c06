"""A server's own bots: an operator seats a trained network or a tuned search by a name of its own (issue 15: a
trained network plays in the arena, at the tables and in the server)."""

from __future__ import annotations

import asyncio
import warnings
from pathlib import Path

import httpx
import pytest
from typer.testing import CliRunner

from bigtwo.bots import BOTS, make
from bigtwo.bots.named import register_spec, unregister
from bigtwo.bots.simple import GreedyBot
from bigtwo.cli import app
from bigtwo.server.settings import Settings
from tests.server_support import (
    LiveServer,
    Transcript,
    audit_hidden_cards,
    auth,
    create_room,
    play_seat,
    rules_of,
    wait_for,
)

warnings.filterwarnings("ignore", message=".*httpx.*", category=DeprecationWarning)
NETWORK = str(Path(__file__).resolve().parents[1] / "src" / "bigtwo" / "bots" / "weights" / "classic-4p.npz")


@pytest.fixture
def named_server(tmp_path):
    bots = {"mynet": NETWORK, "deep": "isearch(budget_ms=40, prior=10)"}
    try:
        with LiveServer(str(tmp_path / "games.sqlite3"), bots=bots) as live:
            yield live
    finally:
        for name in bots:  # registered in this process by the server: gone with it
            unregister(name)


def test_a_servers_own_bots_are_offered_seated_and_play_where_they_can(named_server):
    server = named_server
    bots = {b["name"]: b for b in httpx.get(f"{server.url}/api/bots").json()}
    assert {"mynet", "deep", "learned", "isearch"} <= set(bots)
    assert bots["mynet"]["description"] == "the learned bot as this server sets it up"
    assert NETWORK not in str(bots)  # the server's files are not shown
    assert not bots["mynet"]["default"] and not bots["deep"]["default"]  # the default stays the strength order's
    # the network was trained for classic with four players: elsewhere its seat is refused in words
    bad = httpx.post(
        f"{server.url}/api/rooms", json={"preset": "winner", "seats": [{"kind": "bot", "bot": "mynet"}] * 4}
    )
    assert bad.status_code == 400
    assert "mynet cannot play here: its network was trained for 'classic' with 4 players, not 'winner'" in bad.text
    seats = [{"kind": "open"}, {"kind": "bot", "bot": "mynet"}, {"kind": "bot", "bot": "deep"}, {"kind": "bot"}]
    made = create_room(server.url, host_name="Ann", seats=seats, bot_delay=0, move_seconds=0, break_seconds=0)
    rid = made["room"]["id"]
    room = server.rooms.rooms[rid]
    assert [s["bot"] for s in made["room"]["seats"]][1:3] == ["mynet", "deep"]
    assert server.rooms.bots.quick("mynet") and not server.rooms.bots.quick("deep")  # the search thinks elsewhere
    httpx.post(f"{server.url}/api/rooms/{rid}/start", json={}, headers=auth(made["host_token"]))
    transcript = Transcript()
    final = asyncio.run(play_seat(server.ws_url, rid, made["token"], rules_of("classic"), transcript, seed=5))
    assert final["match"]["is_over"]
    assert wait_for(lambda: room.status == "over")
    assert {a["seat"] for a in room.actions if a["by"] == "bot"} == {1, 2, 3}
    assert server.rooms.bots.decisions > 0  # the named search decided in a worker process, which knew its name
    audit_hidden_cards(room, transcript)


def test_a_servers_own_bots_are_refused_in_words_when_they_cannot_be_made(tmp_path):
    for text, words in [
        ("mynet", "bots are NAME=SPEC, separated by ';'"),
        ("Net=heuristic", "bot name 'Net': a lower-case letter"),
        ("learned=heuristic", "bot name 'learned' is a built-in bot's"),
        ("x=nosuch(depth=2)", "bot 'x' (nosuch(depth=2)): no bot named 'nosuch'"),
        ("x=heuristic(depth=2)", "heuristic has no option 'depth'; its options: contest, weights"),
        (f"x={tmp_path / 'missing.npz'}", "missing.npz: no such file"),
    ]:
        with pytest.raises(ValueError, match="bots") as got:
            Settings.load(None, env={}, bots=text)
        assert words in str(got.value), (text, str(got.value))
    assert "x" not in BOTS and "Net" not in BOTS  # nothing registered by a refusal
    # a class of one's own under a name: made with the spec's options, and the name it is listed by
    try:
        factory = register_spec("plain", "bigtwo.bots.simple:GreedyBot")
        bot = make("plain", seed=1)
        assert (
            type(bot).__name__ == "GreedyBot" and bot.name == "plain" and factory.base == "bigtwo.bots.simple:GreedyBot"
        )
        assert register_spec("plain", "random") and type(make("plain")).__name__ == "RandomBot"  # named again
    finally:
        unregister("plain")
    assert "plain" not in BOTS
    # in a settings file, a [bots] table; on the command line, the same words as above
    file = tmp_path / "server.toml"
    file.write_text(f'[bots]\nmynet = "{NETWORK}"\nfast = "isearch(prior=10)"\n')
    assert Settings.load(file, env={}).bots == {"mynet": NETWORK, "fast": "isearch(prior=10)"}
    res = CliRunner().invoke(app, ["serve", "--bots", "x=nosuch"])
    assert res.exit_code == 2 and "bot 'x' (nosuch): no bot named 'nosuch'" in res.output


def test_a_seated_bot_whose_network_is_gone_gets_a_stand_in_and_the_table_plays_on(tmp_path):
    """The operator moved a network's file away while the server ran: a new table is refused the bot, in words;
    at the table already seated the default bot plays its seats (which keep its name), and the table ends."""
    network = tmp_path / "net.npz"
    network.write_bytes(Path(NETWORK).read_bytes())
    try:
        with LiveServer(str(tmp_path / "games.sqlite3"), bots={"moved": str(network)}) as server:
            seats = [{"kind": "bot", "bot": "moved"}, {"kind": "bot", "bot": "greedy"}] * 2
            made = create_room(server.url, seats=seats, rounds=1, bot_delay=0, move_seconds=0)
            rid = made["room"]["id"]
            room = server.rooms.rooms[rid]
            network.unlink()
            refused = httpx.post(f"{server.url}/api/rooms", json={"seats": seats})
            assert refused.status_code == 400 and "moved cannot load its network" in refused.text
            httpx.post(f"{server.url}/api/rooms/{rid}/start", json={}, headers=auth(made["host_token"]))
            assert wait_for(lambda: room.status == "over")
            assert {a["seat"] for a in room.actions} == {0, 1, 2, 3}
            assert [room.playing_bot(s) for s in range(4)] == ["learned", "greedy"] * 2
            assert [s.bot for s in room.seats] == ["moved", "greedy"] * 2
    finally:
        unregister("moved")


def test_a_restart_without_a_servers_own_bot_seats_a_stand_in_for_it(tmp_path):
    """A table began with a server's own bot; the server restarted with settings that no longer name it. The game
    resumes with the table's default bot in those seats, not the engine's fallback move at every turn."""
    database = str(tmp_path / "games.sqlite3")
    seats = [{"kind": "open"}, {"kind": "bot", "bot": "mynet"}, {"kind": "bot", "bot": "mynet"}, {"kind": "bot"}]
    try:
        with LiveServer(database, bots={"mynet": NETWORK}) as first:
            made = create_room(first.url, host_name="Ann", seats=seats, rounds=1, bot_delay=0, move_seconds=0)
            rid = made["room"]["id"]
            httpx.post(f"{first.url}/api/rooms/{rid}/start", json={}, headers=auth(made["host_token"]))
            httpx.post(f"{first.url}/api/rooms/{rid}/pause", headers=auth(made["host_token"]))
    finally:
        unregister("mynet")
    with LiveServer(database) as second:
        assert "mynet" not in BOTS
        room = second.rooms.rooms[rid]
        assert [s.bot for s in room.seats][1:3] == ["mynet", "mynet"]
        httpx.post(f"{second.url}/api/rooms/{rid}/resume", headers=auth(made["host_token"]))
        transcript = Transcript()
        final = asyncio.run(play_seat(second.ws_url, rid, made["token"], rules_of("classic"), transcript, seed=3))
        assert final["match"]["is_over"]
        assert room.playing_bot(1) == room.playing_bot(2) == "learned"  # the classic table's default at no delay
        assert {a["seat"] for a in room.actions if a["by"] == "bot"} == {1, 2, 3}
        audit_hidden_cards(room, transcript)


class Fragile(GreedyBot):
    """A bot of one's own that can be made when the server starts and fails to be made later."""

    broken = False

    def __init__(self, seed: int | None = None):
        if Fragile.broken:
            raise RuntimeError("this bot broke")
        super().__init__(seed)


def test_a_bot_that_cannot_be_made_at_its_turn_does_not_stall_the_table(tmp_path):
    """A bot of the server's that the server still lists fails when its turn comes: the engine moves for it, in
    the log, and the table plays on."""
    try:
        with LiveServer(str(tmp_path / "games.sqlite3"), bots={"fragile": f"{__name__}:Fragile"}) as server:
            seats = [{"kind": "bot", "bot": "fragile"}, {"kind": "bot", "bot": "greedy"}] * 2
            made = create_room(server.url, seats=seats, rounds=1, bot_delay=0, move_seconds=0)
            rid = made["room"]["id"]
            room = server.rooms.rooms[rid]
            Fragile.broken = True
            httpx.post(f"{server.url}/api/rooms/{rid}/start", json={}, headers=auth(made["host_token"]))
            # its turns go to a bot worker at the lowest CPU priority, which a machine busy with other work can
            # starve for many seconds: the table must finish, however long that takes
            assert wait_for(lambda: room.status == "over", 180)
            assert {a["seat"] for a in room.actions} == {0, 1, 2, 3}
            assert room.playing_bot(0) == "fragile"  # listed and able to play: no stand-in, the engine's moves
    finally:
        Fragile.broken = False
        unregister("fragile")
