"""Which way play goes, as the server says it: the table's view, the waiting room's summary and the replay carry
the words of :func:`bigtwo.words.direction_said` (the terminal tables' words), so the browser never builds them."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from bigtwo.words import direction_said
from tests.server_support import LiveServer, bots_table, play_out, rules_of

LEFT = "Play passes to the left (clockwise)"
RIGHT = "Play passes to the right (counter-clockwise)"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with LiveServer(str(tmp_path_factory.mktemp("direction") / "direction.sqlite3")) as live:
        yield live


def finished_table(server, preset: str, players: int, changes: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """A table of bots with one seat left open, its view while it waits, then played out (one round)."""
    made = bots_table(server.url, preset, players, changes)
    rid = made["room"]["id"]
    waiting = httpx.get(f"{server.url}/api/rooms/{rid}/view").json()
    assert waiting["room"]["status"] == "waiting" and waiting["match"] is None
    play_out(server.url, made)
    return rid, waiting


@pytest.mark.parametrize(
    ("preset", "players", "changes", "long"),
    [
        ("classic", 4, {}, RIGHT),  # the preset's own direction
        ("winner", 3, {}, LEFT),
        ("classic", 3, {"direction": "clockwise"}, LEFT),  # a house rule turns the table round: the words follow
    ],
)
def test_the_view_the_waiting_room_and_the_replay_say_which_way_play_goes(server, preset, players, changes, long):
    rules = rules_of(preset, changes)
    rid, waiting = finished_table(server, preset, players, changes)
    said = direction_said(rules.direction, players)
    assert said is not None and said["long"] == long
    assert said["listed"] == f"{long}: the seats are listed in the order of play."
    # before the match starts there is no match view: the room's summary carries the words
    assert waiting["room"]["direction_said"] == said
    view = httpx.get(f"{server.url}/api/rooms/{rid}/view").json()
    assert view["match"]["direction"] == rules.direction
    assert view["room"]["direction_said"] == said and "direction_said" not in view["match"]  # sent once a view
    replayed = httpx.get(f"{server.url}/api/records/{rid}/replay").json()
    assert replayed["direction_said"] == said and replayed["frames"]


def test_two_players_are_sent_no_direction(server):
    """At two players play goes back and forth: the view, the room and the replay name no side."""
    rid, waiting = finished_table(server, "classic", 2, {})
    assert waiting["room"]["direction_said"] is None
    view = httpx.get(f"{server.url}/api/rooms/{rid}/view").json()
    assert view["room"]["direction_said"] is None and "direction_said" not in view["match"]
    replayed = httpx.get(f"{server.url}/api/records/{rid}/replay").json()
    assert "direction_said" in replayed and replayed["direction_said"] is None
