"""Learning to play and getting to a game, in Debian's chromium (Playwright): the guided first round played
through by clicking, the rules page with card pictures from the lobby and from a table, one click from the lobby
to a table of bots, the table fitting a 1280x800 screen without scrolling (a card click never scrolls the page),
dark mode under an emulated ``prefers-color-scheme: dark``, and a 390x844 phone."""

from __future__ import annotations

import json

import httpx
import pytest

from tests.server_support import ARTIFACTS, LiveServer, auth, bots_table, chromium, create_room, play_out

pytestmark = pytest.mark.slow  # a real browser

playwright = pytest.importorskip("playwright.sync_api")
LAPTOP = {"width": 1280, "height": 800}
SMALL_LAPTOP = {"width": 1280, "height": 720}
PHONE = {"width": 390, "height": 844}
YOUR_MOVES = [["3D"], ["KS"], [], ["6C", "6H"], ["8D", "9C", "TH", "JS", "QD"]]


@pytest.fixture(scope="module")
def browser():
    yield from chromium()


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with LiveServer(str(tmp_path_factory.mktemp("learn") / "learn.sqlite3")) as live:
        yield live


def watch_errors(page) -> list[str]:
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    return errors


def shot(page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"))


def wait_for_your_step(page, step: int) -> None:
    page.wait_for_function(
        "n => window.bigtwo && window.bigtwo.lesson && (window.bigtwo.lesson.done || "
        "(window.bigtwo.lesson.step >= n && !document.querySelector('#pass').disabled))",
        arg=step,
        timeout=20000,
    )


@pytest.mark.parametrize("screen", [LAPTOP, PHONE], ids=["laptop", "phone"])
def test_the_guided_round_is_played_through_by_clicking(browser, server, screen):
    page = browser.new_page(viewport=screen)
    errors = watch_errors(page)
    page.goto(f"{server.url}/")
    page.click("#lobby-learn")
    page.wait_for_selector("#learn-teach")
    assert "3♦" in page.inner_text("#learn-teach")
    assert "null" not in page.inner_text("#learn")  # nothing drawn that is not shown
    # a wrong first answer is refused in the rules' words, and nothing moves on
    page.click('#hand .card[data-card="KS"]')
    page.click("#play")
    page.wait_for_selector("#learn-error")
    assert "3♦" in page.inner_text("#learn-error")
    page.click('#hand .card[data-card="KS"]')  # unselect it
    last = 0
    for cards in YOUR_MOVES:
        wait_for_your_step(page, last)
        last = page.evaluate("window.bigtwo.lesson.step")
        if cards:
            for c in cards:
                page.click(f'#hand .card[data-card="{c}"]')
            page.click("#play")
        else:
            page.click("#pass")
        page.wait_for_function("n => window.bigtwo.lesson.step > n || window.bigtwo.lesson.done", arg=last)
    page.wait_for_selector("#learn-end")
    assert "You went out first" in page.inner_text("#learn-teach")
    assert "Ana pays" in page.inner_text("#learn-end")
    log = page.inner_text("#learn-log")
    assert "You play 8♦ 9♣ 10♥ J♠ Q♦ (straight)" in log and "Chloe plays 2♦" in log
    shot(page, f"learn-{'phone' if screen is PHONE else 'laptop'}")
    assert not errors, errors
    page.close()


def test_the_rules_page_from_the_lobby_and_from_a_table(browser, server):
    page = browser.new_page(viewport=LAPTOP)
    errors = watch_errors(page)
    page.goto(f"{server.url}/")
    page.wait_for_selector("#preset-rules")
    page.click("#preset-rules")
    page.wait_for_selector("#rules .rule-point")
    topics = page.eval_on_selector_all("#rules .rule-point", "els => els.map(e => e.dataset.topic)")
    assert {"Card order", "Beating a play", "Five-card hands", "Straights", "Leading", "Passing"} <= set(topics)
    assert page.locator('#rules .rule-point[data-topic="Five-card hands"] svg.card-face').count() == 25
    assert "2-3-4-5-6" in page.inner_text("#rules")  # the table's own straight order
    # a table's own rules: its house rule shows
    table = bots_table(server.url, "classic", 4, {"suit_order": "CDHS"})
    page.goto(f"{server.url}/room/{table['room']['id']}")
    link = page.wait_for_selector("#table-rules")
    assert link.get_attribute("target") == "_blank"  # the rules open beside the table, which goes on
    page.goto(server.url + link.get_attribute("href"))
    page.wait_for_selector("#rules .rule-point")
    assert "♣ < ♦ < ♥ < ♠" in page.inner_text('#rules .rule-point[data-topic="Card order"]')
    assert not errors, errors
    page.close()


def test_one_click_from_the_lobby_to_a_table_of_bots(browser, server):
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    errors = watch_errors(page)
    page.goto(f"{server.url}/")
    play = page.wait_for_selector("#play-now")
    account = page.wait_for_selector("#account")
    assert play.bounding_box()["y"] < account.bounding_box()["y"]  # on a phone, play comes before signing in
    assert play.bounding_box()["y"] + play.bounding_box()["height"] <= PHONE["height"]
    play.click()
    page.wait_for_url("**/room/**")
    # a function, not an expression: the page's CSP forbids eval
    page.wait_for_function("() => window.bigtwo && window.bigtwo.view && window.bigtwo.view.match", timeout=20000)
    view = page.evaluate("window.bigtwo.view")
    assert view["you"]["seat"] == 0 and view["room"]["status"] == "playing"
    assert [s["kind"] for s in view["room"]["seats"]] == ["person", "bot", "bot", "bot"]
    assert not view["room"]["rated"]
    # the whole table on the phone's screen: the seats, the trick, the hand and the buttons
    page.wait_for_selector("#play")
    for selector in ("#seats", "#trick", "#hand", "#play", "#pass"):
        assert in_view(page, selector, PHONE["height"]), selector
    assert not errors, errors
    context.close()


def leading_seed() -> int:
    """A deal where seat 0 holds the lead card (3♦) at a four-player classic table."""
    from bigtwo.match import Match

    return next(s for s in range(1, 200) if Match("classic", players=4, seed=s, rounds=3).game.to_move == 0)


@pytest.fixture
def you_lead(server):
    before = server.rooms.new_seed
    seed = leading_seed()
    server.rooms.new_seed = lambda: seed
    yield
    server.rooms.new_seed = before


def in_view(page, selector: str, height: int) -> bool:
    box = page.query_selector(selector).bounding_box()
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= height


@pytest.mark.parametrize("screen", [LAPTOP, SMALL_LAPTOP], ids=["1280x800", "1280x720"])
def test_the_table_fits_a_laptop_screen_and_a_click_never_scrolls(browser, server, you_lead, screen):
    page = browser.new_page(viewport=screen)
    errors = watch_errors(page)
    page.goto(f"{server.url}/")
    page.click("#play-now")
    page.wait_for_url("**/room/**")
    page.wait_for_function(
        "() => { const v = window.bigtwo && window.bigtwo.view; return !!v && !!v.match && v.match.to_move === 0 "
        "&& v.room.status === 'playing'; }",
        timeout=30000,
    )
    page.wait_for_selector("#play")
    assert page.evaluate("document.documentElement.scrollHeight") <= screen["height"]
    for selector in ("#hand", "#play", "#trick", "#prompt", "#log", "#seats"):
        assert in_view(page, selector, screen["height"]), selector
    prompt = page.inner_text("#prompt")
    assert "3♦" in prompt and "lead anything" not in prompt  # one instruction, not two that disagree
    # a card click selects without scrolling; a refused play's banner stays in view and Clear takes it away
    page.click('#hand .card:not([data-card="3D"])')
    assert page.evaluate("window.scrollY") == 0
    page.click("#play")
    page.wait_for_selector("#error")
    assert in_view(page, "#error", screen["height"])
    assert page.evaluate("window.scrollY") == 0
    page.click("#clear")
    assert page.query_selector("#error") is None
    page.click("#hint")
    page.wait_for_selector("#help:not(.empty)")
    assert page.evaluate("document.documentElement.scrollHeight") <= screen["height"]
    assert in_view(page, "#help", screen["height"])
    log = page.query_selector("#log").bounding_box()
    assert log["y"] + 30 <= screen["height"]  # the log's newest lines start above the fold (it scrolls within)
    # the running total in words, no bare Σ; kinds of plays in words, not identifiers
    assert "Σ" not in page.inner_text("#seats") and "pts" in page.inner_text("#seat-0 .total")
    named = page.evaluate("async () => (await import('/static/i18n.js')).kindName('full_house')")
    assert named == "full house"
    # a chat line's bubble sits above the seat's name, not over it
    page.fill("#chat-input", "hello")
    page.click("#chat-send")
    bubble = page.wait_for_selector("#seat-0 .bubble").bounding_box()
    name = page.query_selector("#seat-0 .who").bounding_box()
    assert bubble["y"] + bubble["height"] <= name["y"] + 2
    shot(page, f"table-laptop-{screen['width']}x{screen['height']}")
    assert not errors, errors
    page.close()


def colours(page) -> dict[str, str]:
    return page.evaluate(
        "() => ({ body: getComputedStyle(document.body).backgroundColor, "
        "panel: getComputedStyle(document.querySelector('section.panel')).backgroundColor, "
        "text: getComputedStyle(document.body).color })"
    )


def brightness(rgb: str) -> float:
    r, g, b = (int(x) for x in rgb[rgb.index("(") + 1 : rgb.index(")")].split(",")[:3])
    return 0.299 * r + 0.587 * g + 0.114 * b


def test_dark_mode_follows_the_system(browser, server):
    seen = {}
    for scheme in ("light", "dark"):
        context = browser.new_context(viewport=LAPTOP, color_scheme=scheme)
        page = context.new_page()
        page.goto(f"{server.url}/")
        page.wait_for_selector("#play-now")
        seen[scheme] = colours(page)
        shot(page, f"lobby-{scheme}")
        context.close()
    assert brightness(seen["light"]["body"]) > 200 and brightness(seen["light"]["panel"]) > 200
    assert brightness(seen["dark"]["body"]) < 60 and brightness(seen["dark"]["panel"]) < 60
    assert brightness(seen["dark"]["text"]) > 180  # light text on the dark page


def test_finished_games_say_when_and_who_won(browser, server):
    for _ in range(2):  # two games at one preset: their rows must still tell them apart
        play_out(server.url, bots_table(server.url, "classic", 4))
    page = browser.new_page(viewport=LAPTOP)
    page.goto(f"{server.url}/")
    page.wait_for_selector("#records li .result")
    rows = page.eval_on_selector_all("#records li", "els => els.map(e => e.innerText)")
    assert all("won by" in r for r in rows[:2])
    whens = page.eval_on_selector_all("#records li .when", "els => els.map(e => e.innerText)")
    assert len(whens) >= 2 and all(w.strip() for w in whens)
    page.close()


def test_the_break_between_rounds_counts_down_and_names_the_round_played(browser, server):
    # a person who never comes: the move timer moves for them, so the round ends and the break starts
    made = create_room(
        server.url,
        host_name="Pat",
        seats=[{"kind": "open"}, {"kind": "bot"}, {"kind": "bot"}, {"kind": "bot"}],
        rounds=2,
        move_seconds=1,
        bot_delay=0,
        bot="greedy",
        break_seconds=60,
    )
    rid = made["room"]["id"]
    r = httpx.post(f"{server.url}/api/rooms/{rid}/start", json={}, headers=auth(made["host_token"]))
    assert r.status_code == 200, r.text
    page = browser.new_page(viewport=LAPTOP)
    errors = watch_errors(page)
    page.goto(f"{server.url}/room/{rid}")  # watching
    page.wait_for_function("() => !!(window.bigtwo && window.bigtwo.view && window.bigtwo.view.break)", timeout=120000)
    page.wait_for_selector("#break-seconds")
    first = int(page.inner_text("#break-seconds"))
    page.wait_for_timeout(2300)
    assert int(page.inner_text("#break-seconds")) < first  # it ticks between views
    assert page.inner_text("#round").startswith("round 1 of 2")  # the round just played, not the next
    assert not errors, errors
    page.close()


def test_a_bots_seat_is_not_offered_to_a_bot_and_the_sort_is_kept_for_the_next_table(browser, server):
    made = bots_table(server.url, "classic", 4)
    rid = made["room"]["id"]
    page = browser.new_page(viewport=LAPTOP)
    page.goto(f"{server.url}/")
    page.evaluate("([k, v]) => localStorage.setItem(k, v)", [f"bigtwo:{rid}", json.dumps({"host": made["host_token"]})])
    page.goto(f"{server.url}/room/{rid}")
    page.wait_for_selector("#start")
    rows = page.eval_on_selector_all(
        "#table-root ul.rooms li", "els => els.map(e => [e.innerText, !!e.querySelector('.to-bot')])"
    )
    assert [offered for _text, offered in rows] == [True, False, False, False]  # only the empty seat
    # the hand's sort is this browser's choice: a new table (a rematch is one) keeps it
    for _ in range(2):
        page.goto(f"{server.url}/")
        page.click("#play-now")
        page.wait_for_url("**/room/**")
        page.wait_for_selector("#sort-suit")
        if page.get_attribute("#sort-suit", "class") != "on":
            page.click("#sort-suit")
    assert page.get_attribute("#sort-suit", "class") == "on"
    page.goto(f"{server.url}/")
    page.click("#play-now")
    page.wait_for_url("**/room/**")
    page.wait_for_selector("#sort-suit")
    assert page.get_attribute("#sort-suit", "class") == "on"
    page.close()


def test_the_replay_of_a_place_scored_match_shows_no_points(browser, server):
    made = bots_table(server.url, "president", 4)
    play_out(server.url, made)
    rid = made["room"]["id"]
    data = httpx.get(f"{server.url}/api/records/{rid}/replay").json()
    assert data["ranks_only"] is True
    page = browser.new_page(viewport=LAPTOP)
    page.goto(f"{server.url}/replay/{rid}")
    page.wait_for_selector("#replay .hands")
    page.click("text=Last")
    text = page.inner_text("#replay")
    assert "+0" not in text and "this round" not in text and "total" not in text
    page.close()
