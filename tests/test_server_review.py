"""The browser's review of a finished game (GET /api/records/{id}/review), rated in a bot worker and kept."""

from __future__ import annotations

import asyncio

import httpx
import pytest

from bigtwo.server.routes import records as record_routes
from tests.server_support import LiveServer, Transcript, auth, chromium, create_room, play_seat, rules_of


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with LiveServer(str(tmp_path_factory.mktemp("review") / "games.sqlite3")) as live:
        yield live


@pytest.fixture(scope="module")
def finished_room(server) -> str:
    """A one-round game of Ann (played by the test) against three bots, finished."""
    made = create_room(
        server.url,
        host_name="Ann",
        seats=[{"kind": "open"}, {"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "random"}, {"kind": "bot"}],
        rounds=1,
        bot_delay=0,
        move_seconds=0,
        break_seconds=0,
    )
    rid = made["room"]["id"]
    assert httpx.get(f"{server.url}/api/records/{rid}/review").status_code == 409  # still being played
    httpx.post(f"{server.url}/api/rooms/{rid}/start", json={}, headers=auth(made["host_token"]))
    final = asyncio.run(play_seat(server.ws_url, rid, made["token"], rules_of("classic"), Transcript(), seed=3))
    assert final["match"]["is_over"]
    return rid


def test_a_finished_game_is_reviewed_seat_by_seat_round_by_round(server, finished_room):
    rid = finished_room
    url = f"{server.url}/api/records/{rid}/review"
    got = httpx.get(url, params={"seat": 2, "round": 1}, timeout=60)
    assert got.status_code == 200, got.text
    review = got.json()
    assert review["seat"] == 2 and review["round"] == 1 and review["measure"] == "score"
    assert review["decisions"], "the random bot made choices"
    for d in review["decisions"]:
        assert d["label"] in {"good", "inaccuracy", "mistake", "blunder"}
        assert d["loss"] >= 0 and d["best_points"] >= d["played_points"] - 1e-9
        assert d["played"] is None or all(isinstance(c, str) for c in d["played"])
    assert sum(review["counts"].values()) == len(review["decisions"])
    # kept: asked again, the same answer without a worker
    assert (rid, 2, 1) in record_routes._reviews
    assert httpx.get(url, params={"seat": 2, "round": 1}).json() == review
    # hostile or wrong input is refused in words
    assert httpx.get(url, params={"seat": 4}).status_code == 422
    assert httpx.get(url, params={"seat": 99}).status_code == 422
    assert httpx.get(url, params={"round": 2}).status_code == 422
    assert httpx.get(url, params={"round": "x"}).status_code == 422
    assert httpx.get(f"{server.url}/api/records/nosuchroom/review").status_code == 404


@pytest.fixture(scope="module")
def browser():
    yield from chromium()


@pytest.mark.slow  # a real browser
def test_the_replay_viewer_shows_the_review(server, finished_room, browser):
    from tests.test_server_browser import watch_errors

    page = browser.new_page()
    errors = watch_errors(page)
    page.goto(f"{server.url}/replay/{finished_room}")
    page.wait_for_selector("#replay")
    page.click("#replay-next")
    page.select_option("#review-seat", "1")
    page.click("#review-button")
    page.wait_for_selector("#review table", timeout=60000)
    text = page.inner_text("#review")
    assert "round 1" in text and "Blunders: " in text and "mistake from 3" in text
    assert page.locator("#review tbody tr").count() >= 1
    assert errors == []
