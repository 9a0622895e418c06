"""Accessibility, in Debian's chromium (Playwright): axe-core (bundled by ``axe-playwright-python``, so nothing is
fetched) finds no serious or critical violation on the lobby, a table mid-round, the replay, a player page and
the tutorial, in the light and the dark theme; and a round is played from the keyboard alone: Tab reaches the
hand, the arrows move along it, Space selects, Enter plays, P passes, with a visible focus ring."""

from __future__ import annotations

import pytest

from tests.server_support import bots_table, chromium, play_out

pytestmark = pytest.mark.slow  # a real browser

playwright = pytest.importorskip("playwright.sync_api")
axe_playwright = pytest.importorskip("axe_playwright_python.sync_playwright")
LAPTOP = {"width": 1280, "height": 800}
SEVERE = {"serious", "critical"}


@pytest.fixture(scope="module")
def browser():
    yield from chromium()


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    from tests.server_support import LiveServer

    with LiveServer(str(tmp_path_factory.mktemp("a11y") / "a11y.sqlite3")) as live:
        yield live


@pytest.fixture(scope="module")
def finished(server):
    made = bots_table(server.url, "classic", 4)
    play_out(server.url, made)
    return made["room"]["id"]


def severe(page) -> list[str]:
    """The serious and critical violations axe-core finds on the page as it is now, one line each."""
    results = axe_playwright.Axe().run(page)
    found = []
    for v in results.response["violations"]:
        if v["impact"] in SEVERE:
            where = [n["target"] for n in v["nodes"][:3]]
            found.append(f"{v['id']} ({v['impact']}): {v['help']} at {where}")
    return found


def open_table(page, url: str) -> None:
    page.goto(f"{url}/")
    page.click("#play-now")
    page.wait_for_url("**/room/**")
    page.wait_for_function(
        "() => { const v = window.bigtwo && window.bigtwo.view; "
        "return !!v && !!v.match && v.room.status === 'playing'; }",
        timeout=30000,
    )
    page.wait_for_selector("#hand .card")


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_no_serious_violation_on_any_page(browser, server, finished, scheme):
    context = browser.new_context(viewport=LAPTOP, color_scheme=scheme)
    page = context.new_page()
    found: dict[str, list[str]] = {}
    page.goto(f"{server.url}/")
    page.wait_for_selector("#play-now")
    page.wait_for_selector("#records li")
    found["lobby"] = severe(page)
    open_table(page, server.url)
    page.click("#hand .card >> nth=0")  # a selection, as mid-turn
    found["table"] = severe(page)
    page.goto(f"{server.url}/replay/{finished}")
    page.wait_for_selector("#replay .hands")
    found["replay"] = severe(page)
    page.goto(f"{server.url}/bots/greedy")
    page.wait_for_selector("main")
    found["player page"] = severe(page)
    page.goto(f"{server.url}/learn")
    page.wait_for_selector("#learn-teach")
    found["tutorial"] = severe(page)
    context.close()
    assert not any(found.values()), found


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


def focused(page) -> str | None:
    return page.evaluate("() => document.activeElement && document.activeElement.dataset.card || null")


def test_a_turn_is_played_and_a_trick_passed_from_the_keyboard(browser, server, you_lead):
    page = browser.new_page(viewport=LAPTOP)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    open_table(page, server.url)
    page.wait_for_function("() => window.bigtwo.view.match.to_move === 0", timeout=30000)
    # Tab reaches the hand in one stop, whatever its size: only one card is in the Tab order
    assert page.eval_on_selector_all('#hand .card[tabindex="0"]', "els => els.length") == 1
    for _ in range(60):
        page.keyboard.press("Tab")
        if focused(page):
            break
    else:
        pytest.fail("Tab never reached the hand")
    ring = page.evaluate("() => getComputedStyle(document.activeElement).outlineStyle")
    assert ring != "none"  # the focus is visible
    # the arrows move along the hand to the lead card; Space selects it, Space again lets it go, Enter takes it back
    page.keyboard.press("Home")
    hand = page.eval_on_selector_all("#hand .card", "els => els.map(e => e.dataset.card)")
    assert focused(page) == hand[0]
    for _ in range(hand.index("3D")):
        page.keyboard.press("ArrowRight")
    assert focused(page) == "3D"
    page.keyboard.press("Space")
    assert page.get_attribute('#hand .card[data-card="3D"]', "aria-pressed") == "true"
    page.keyboard.press("Enter")  # on a card, Enter selects like Space: here it lets the card go
    assert page.get_attribute('#hand .card[data-card="3D"]', "aria-pressed") == "false"
    page.keyboard.press("Space")
    assert page.get_attribute('#hand .card[data-card="3D"]', "aria-pressed") == "true"
    page.keyboard.press("Control+Enter")  # plays the selection from the card itself
    page.wait_for_function("() => window.bigtwo.view.match.to_move !== 0", timeout=10000)
    assert "3D" not in page.eval_on_selector_all("#hand .card", "els => els.map(e => e.dataset.card)")
    # the bots play on; when it is this seat's turn again, P passes (or, leading, Enter plays a selected card)
    for _ in range(20):
        page.wait_for_function("() => window.bigtwo.view.match.to_move === 0", timeout=30000)
        if page.evaluate("window.bigtwo.view.match.can_pass"):
            seq = page.evaluate("window.bigtwo.view.seq")
            page.evaluate("document.activeElement && document.activeElement.blur()")
            page.keyboard.press("p")
            page.wait_for_function("n => window.bigtwo.view.seq > n", arg=seq, timeout=10000)
            log = page.inner_text("#log")
            assert "You pass" in log, log
            break
        page.keyboard.press("Escape")  # Escape clears what was selected
        assert page.eval_on_selector_all("#hand .card.selected", "els => els.length") == 0
        page.focus("#hand .card >> nth=0")
        page.keyboard.press("Space")
        page.evaluate("document.activeElement.blur()")
        page.keyboard.press("Enter")  # the focus on no control: Enter plays the selection
        page.wait_for_function(
            "() => window.bigtwo.view.match.to_move !== 0 || !!document.querySelector('#error')", timeout=10000
        )
        if page.query_selector("#error"):
            pytest.fail(page.inner_text("#error"))
    else:
        pytest.fail("never had a trick to pass")
    assert not errors, errors
    page.close()


def brightness(rgb: str) -> float:
    r, g, b = (int(x) for x in rgb[rgb.index("(") + 1 : rgb.index(")")].split(",")[:3])
    return 0.299 * r + 0.587 * g + 0.114 * b


def test_the_theme_toggle_overrides_the_system_and_is_kept(browser, server):
    context = browser.new_context(viewport=LAPTOP, color_scheme="light")
    page = context.new_page()

    def body() -> str:
        return page.evaluate("getComputedStyle(document.body).backgroundColor")

    page.goto(f"{server.url}/")
    page.wait_for_selector("#theme")
    assert page.input_value("#theme") == "system"
    light = body()
    page.select_option("#theme", "dark")
    dark = body()
    assert dark != light and page.evaluate("document.documentElement.dataset.theme") == "dark"
    page.goto(f"{server.url}/learn")  # kept for the next page
    page.wait_for_selector("#theme")
    assert page.input_value("#theme") == "dark" and body() == dark
    page.goto(f"{server.url}/bots/greedy")  # the server-rendered pages too
    assert page.evaluate("document.documentElement.dataset.theme") == "dark" and brightness(body()) < 60
    page.goto(f"{server.url}/learn")
    page.wait_for_selector("#theme")
    page.select_option("#theme", "system")
    assert body() == light
    page.emulate_media(color_scheme="dark")  # "system" follows the system as it changes
    page.wait_for_function("() => document.documentElement.dataset.theme === 'dark'")
    assert body() == dark
    page.select_option("#theme", "light")  # and light stays light on a dark system
    assert body() == light
    page.reload()
    page.wait_for_selector("#theme")
    assert page.input_value("#theme") == "light" and body() == light
    context.close()


def in_view(page, selector: str, screen: dict[str, int]) -> bool:
    box = page.query_selector(selector).bounding_box()
    return (
        box is not None
        and box["y"] >= 0
        and box["y"] + box["height"] <= screen["height"]
        and box["x"] >= 0
        and box["x"] + box["width"] <= screen["width"]
    )


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize(
    "screen", [{"width": 1280, "height": 720}, {"width": 390, "height": 844}], ids=["laptop", "phone"]
)
def test_the_hand_the_buttons_and_the_trick_are_in_view_in_either_theme(browser, server, you_lead, screen, scheme):
    """What docs/browser_screenshots.py shows: the whole table mid-round, without scrolling, at both sizes."""
    context = browser.new_context(viewport=screen, color_scheme=scheme)
    page = context.new_page()
    open_table(page, server.url)
    page.wait_for_function("() => window.bigtwo.view.match.to_move === 0", timeout=30000)
    page.click('#hand .card[data-card="3D"]')
    page.click("#play")
    page.wait_for_function(
        "() => window.bigtwo.view.match.to_move === 0 && !!window.bigtwo.view.match.trick", timeout=30000
    )
    assert page.evaluate("document.documentElement.dataset.theme") == scheme
    for selector in ("#trick", "#hand", "#hand .card >> nth=0", "#hand .card >> nth=-1", "#play", "#pass", "#clear"):
        assert in_view(page, selector, screen), selector
    assert page.evaluate("window.scrollY") == 0
    context.close()


def test_a_guest_plays_an_unrated_quick_match_from_the_lobby(browser, server):
    page = browser.new_page(viewport=LAPTOP)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{server.url}/")
    page.wait_for_selector("#quick-button")
    page.fill("#play-name", "Quinn")
    page.select_option("#quick-band", "any")
    page.fill("#quick-rounds", "1")
    page.fill("#quick-delay", "0")
    page.click("#quick-button")
    page.wait_for_url("**/room/**")
    page.wait_for_function("() => window.bigtwo && window.bigtwo.view && !!window.bigtwo.view.match", timeout=30000)
    view = page.evaluate("window.bigtwo.view")
    assert view["you"]["seat"] == 0 and view["room"]["seats"][0]["name"] == "Quinn"
    assert view["room"]["status"] == "playing" and not view["room"]["rated"]
    assert not errors, errors
    page.close()
