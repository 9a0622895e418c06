"""The page in the players' languages, in Debian's chromium driven by Playwright: the language picker (which
persists), the browser's Accept-Language, and the pseudo-language, in which no visible text may be unmarked."""

from __future__ import annotations

import json
import re
from typing import Any

import httpx
import pytest

from tests.server_support import LiveServer, auth, chromium, create_room
from tests.test_i18n import unmarked_words
from tests.test_server_browser import DESKTOP, wait_for_view, watch_errors

pytestmark = pytest.mark.slow  # a real browser

playwright = pytest.importorskip("playwright.sync_api")


@pytest.fixture(scope="module")
def browser():
    yield from chromium()


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with LiveServer(str(tmp_path_factory.mktemp("i18n") / "i18n.sqlite3")) as live:
        yield live


def seated_table(server, page) -> dict[str, Any]:
    """A started table of greedy bots with the page's person in seat 0 (the host)."""
    made = create_room(
        server.url,
        preset="classic",
        players=4,
        host_name="Ann",
        seats=[{"kind": "open"}] + [{"kind": "bot"}] * 3,
        rounds=1,
        bot_delay=0,
        bot="greedy",
        move_seconds=0,
    )
    r = httpx.post(f"{server.url}/api/rooms/{made['room']['id']}/start", json={}, headers=auth(made["host_token"]))
    assert r.status_code == 200, r.text
    mine = {"seat": 0, "token": made["token"], "host": made["host_token"]}
    page.add_init_script(f"localStorage.setItem('bigtwo:{made['room']['id']}', JSON.stringify({json.dumps(mine)}))")
    page.goto(f"{server.url}/room/{made['room']['id']}")
    wait_for_view(page, "v => v.you.seat !== null && v.match && v.match.to_move === v.you.seat")
    return made


def test_the_browsers_accept_language_picks_the_pages_language(browser, server):
    context = browser.new_context(viewport=DESKTOP, locale="vi-VN")
    page = context.new_page()
    errors = watch_errors(page)
    page.goto(server.url)
    page.wait_for_selector("text=Bàn mới")  # "New table"
    assert page.evaluate("document.documentElement.lang") == "vi"
    assert page.locator("#language").input_value() == "vi"
    seated_table(server, page)
    page.wait_for_selector("#play:has-text('Đánh')")
    assert page.locator("#pass").inner_text() == "Bỏ lượt"
    assert "Đến lượt bạn" in page.locator("#prompt").inner_text()
    assert errors == []
    context.close()


def test_the_picker_chooses_a_language_that_persists(browser, server):
    context = browser.new_context(viewport=DESKTOP, locale="en-US")
    page = context.new_page()
    errors = watch_errors(page)
    page.goto(server.url)
    page.wait_for_selector("text=New table")
    assert page.evaluate("document.documentElement.lang") == "en"
    page.select_option("#language", "zh_Hant")
    page.wait_for_selector("text=新牌桌")
    assert page.evaluate("document.documentElement.lang") == "zh-Hant"
    assert page.evaluate("localStorage.getItem('bigtwo:lang')") == "zh_Hant"
    assert any(c["name"] == "bigtwo_lang" and c["value"] == "zh_Hant" for c in context.cookies())
    page.reload()
    page.wait_for_selector("text=新牌桌")
    assert "大老二" in page.locator("#preset").inner_text()  # the presets' local names
    seated_table(server, page)
    page.wait_for_selector("#play:has-text('出牌')")
    assert "輪到你" in page.locator("#prompt").inner_text()
    # the server's own words for this connection: which way play goes, in the page's language
    assert "輪到右手邊的玩家" in page.locator("#direction").inner_text()
    page.locator("#hint").click()
    page.wait_for_selector("#help .text")
    assert (
        page.locator("#help .text").inner_text().startswith("提示：")
    )  # the server's hint, in this connection's words
    assert errors == []
    context.close()


def visible_text(page) -> str:
    return page.evaluate("document.body.innerText")


def test_the_pseudo_language_leaves_no_visible_text_unmarked(browser, server):
    """The lobby and a table in the pseudo-language: every visible word is marked, but for what players and the
    server named (names, bots, the brand, the languages' own names in the picker, the rules' identifiers)."""
    context = browser.new_context(viewport=DESKTOP)
    context.add_init_script("localStorage.setItem('bigtwo:lang', 'en_XA')")
    page = context.new_page()
    errors = watch_errors(page)
    page.goto(server.url)
    page.wait_for_selector("#create")
    assert page.evaluate("document.documentElement.lang") == "en-XA"
    bots = [b["name"] for b in httpx.get(f"{server.url}/api/bots").json()]
    # the brand, "GG" (the emote every language's players write so), the picker's languages in their own words
    words = {"bigtwo", "JSON", "GG", "English", "Filipino", "Bahasa", "Indonesia", "Melayu", "Ti", "ng", "Vi", "t"}
    words |= {w for b in bots for w in re.findall(r"[A-Za-z][A-Za-z']+", b)}
    for listed in httpx.get(f"{server.url}/api/rooms").json():  # the tables the lobby lists, as their hosts named them
        words |= set(re.findall(r"[A-Za-z][A-Za-z']+", f"{listed['name']} {listed['rules_name']}"))
    lobby = visible_text(page)
    assert "[!!" in lobby
    assert unmarked_words(lobby, words) == [], lobby
    made = seated_table(server, page)
    page.wait_for_selector("#play")
    room = httpx.get(f"{server.url}/api/rooms/{made['room']['id']}").json()
    words |= {w for s in room["seats"] for w in re.findall(r"[A-Za-z][A-Za-z']+", s["name"])}
    words |= set(re.findall(r"[A-Za-z][A-Za-z']+", room["rules_name"] + " " + room["name"]))
    table = visible_text(page)
    assert unmarked_words(table, words) == [], table
    assert errors == []
    context.close()


def test_the_lesson_and_the_rules_pages_in_the_pseudo_language_leave_nothing_unmarked(browser, server):
    """The guided round played through and a preset's rules page, in the pseudo-language: the lesson's words, the
    table's, the moves' and the result's, and every rule explained from the Ruleset, are all marked (the seats'
    names and the preset's identifier aside)."""
    from tests.test_server_learn_browser import YOUR_MOVES, wait_for_your_step

    context = browser.new_context(viewport=DESKTOP)
    context.add_init_script("localStorage.setItem('bigtwo:lang', 'en_XA')")
    context.add_cookies([{"name": "bigtwo_lang", "value": "en_XA", "url": server.url}])  # the API's language
    page = context.new_page()
    errors = watch_errors(page)
    words = {"bigtwo", "GG", "English", "Filipino", "Bahasa", "Indonesia", "Melayu", "Ti", "ng", "Vi", "t"}
    words |= {"Ana", "Ben", "Chloe", "classic", "tien", "len"}
    page.goto(f"{server.url}/learn")
    page.wait_for_selector("#learn-teach .text")
    assert page.evaluate("document.documentElement.lang") == "en-XA"
    assert "[!!" in page.inner_text("#learn-teach")
    assert "3♦" in page.inner_text("#learn-teach")  # the lead card in the table's notation, inside the sentence
    assert unmarked_words(visible_text(page), words) == [], visible_text(page)
    last = 0
    for cards in YOUR_MOVES:
        wait_for_your_step(page, last)
        last = page.evaluate("window.bigtwo.lesson.step")
        for c in cards:
            page.click(f'#hand .card[data-card="{c}"]')
        page.click("#play" if cards else "#pass")
        page.wait_for_function("n => window.bigtwo.lesson.step > n || window.bigtwo.lesson.done", arg=last)
    page.wait_for_selector("#learn-end")
    done = visible_text(page)
    assert "[!!" in page.inner_text("#learn-end")
    assert unmarked_words(done, words) == [], done
    for name in ("classic", "tien-len"):
        page.goto(f"{server.url}/rules/{name}")
        page.wait_for_selector(".rule-point")
        shown = visible_text(page)
        assert unmarked_words(shown, words) == [], shown
    assert errors == []
    context.close()
