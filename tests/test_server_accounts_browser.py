"""Accounts in the browser (Debian's chromium, driven by Playwright): sign up, play a rated quick match against
bots by clicking the cards, then find the rating on the player page and the leaderboard, on a desktop and on a
phone. With ``BIGTWO_README_SCREENSHOTS=1`` the player page's screenshots are written to ``docs/``."""

from __future__ import annotations

import os
import re
import shutil

import httpx
import pytest

from tests.server_support import ARTIFACTS, ROOT, LiveServer, rules_of
from tests.test_server_browser import DESKTOP, PHONE, browser, take_turn, watch_errors

pytestmark = pytest.mark.slow  # a real browser: the suite's slowest tests

__all__ = ["browser"]  # the module's browser fixture, shared


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with LiveServer(str(tmp_path_factory.mktemp("accounts") / "accounts.sqlite3")) as live:
        yield live


def screenshot(page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)
    if os.environ.get("BIGTWO_README_SCREENSHOTS"):
        shutil.copy(ARTIFACTS / f"{name}.png", ROOT / "docs" / f"{name}.png")


def test_sign_up_play_a_rated_match_and_find_the_rating(browser, server):
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    errors = watch_errors(page)
    page.goto(server.url + "/")
    page.wait_for_selector("#account-password")  # the lobby's script draws the boxes after the page loads
    # the two boxes look alike: as wide as each other, each under its label
    boxes = page.eval_on_selector_all(
        "#account-username, #account-password",
        "els => els.map(e => { const r = e.getBoundingClientRect(), l = e.parentElement.getBoundingClientRect();"
        " return [r.width, r.top - l.top]; })",
    )
    (user_width, user_below), (pass_width, pass_below) = boxes
    assert abs(user_width - pass_width) <= 1 and user_below > 10 and pass_below > 10, boxes
    page.fill("#account-username", "Mei")
    page.fill("#account-password", "a long enough password")
    page.click("#signup")
    page.wait_for_selector("#account-name")
    assert page.inner_text("#account-name") == "Signed in as Mei"
    cookie = next(c for c in context.cookies() if c["name"] == "bigtwo_session")
    assert cookie["httpOnly"] and cookie["sameSite"] == "Lax"
    assert page.evaluate("document.cookie") == ""  # the page's scripts cannot read the session
    # a quick match: one round against any bots, no pause
    page.select_option("#quick-band", "any")
    page.fill("#quick-rounds", "1")
    page.fill("#quick-delay", "0")
    page.click("#quick-button")
    page.wait_for_url(re.compile(r"/room/[0-9a-f]+$"))
    room = page.url.rsplit("/", 1)[1]
    rules = rules_of("classic")
    for _ in range(200):
        if take_turn(page, rules) == "over":
            break
    else:
        pytest.fail("the match did not end in 200 turns")
    # the rating, from the API, then on the player page and the leaderboard
    me = httpx.get(f"{server.url}/api/players/Mei").json()
    rating = me["ratings"]["classic"]
    assert rating["matches"] == 1 and rating["provisional"]
    change = me["recent"][0]["change"]
    assert me["recent"][0]["room"] == room and change == rating["rating"]  # from a newcomer's 0.0
    page.goto(server.url + "/")
    page.click("#my-page")
    page.wait_for_selector("#ratings")
    assert f"{rating['rating']:.1f}" in page.inner_text('#ratings tr[data-family="classic"] .rating')
    assert page.locator("svg.history circle").count() == 1
    assert page.locator(f'#recent a[href="/replay/{room}"]').count() == 1
    assert f"{change:+.1f}" in page.inner_text("#recent")
    screenshot(page, "accounts-desktop")
    page.click('a[href="/leaderboard/classic"]')
    page.wait_for_selector("#leaderboard")
    row = page.locator("#leaderboard tr", has=page.locator('a[href="/players/Mei"]'))
    assert f"{rating['rating']:.1f}" in row.inner_text()
    # the replay of the rated match opens from the player page
    page.goto(f"{server.url}/players/Mei")
    page.click(f'#recent a[href="/replay/{room}"]')
    page.wait_for_selector("#replay")
    # on a phone: the same session, the player page and the leaderboard fit the screen
    phone = browser.new_context(viewport=PHONE, storage_state=context.storage_state())
    small = phone.new_page()
    small.goto(server.url + "/")
    small.wait_for_selector("#account-name")
    assert "classic" not in small.inner_text("#my-ratings") or "Big Two" in small.inner_text("#my-ratings")
    small.goto(f"{server.url}/players/Mei")
    small.wait_for_selector("#ratings")
    assert small.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    screenshot(small, "accounts-phone")
    small.goto(f"{server.url}/leaderboard/classic")
    assert small.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    # signing out from the lobby ends the session
    page.goto(server.url + "/")
    page.click("#signout")
    page.wait_for_selector("#account-form")
    assert not [c for c in context.cookies() if c["name"] == "bigtwo_session"]
    assert errors == []
    phone.close()
    context.close()
