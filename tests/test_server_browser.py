"""The browser table, driven in Debian's chromium by Playwright: whole games, as a person would play them.

Screenshots land in ``artifacts/`` (ignored by git). The moves are chosen from the page's own view (the lowest
legal play, as the greedy bot would) and made by clicking the cards and the buttons.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from bigtwo.bots import make
from bigtwo.cards import CardSet, to_mask
from bigtwo.legal import legal_plays_from_observation
from bigtwo.positions import position_from_observation
from bigtwo.record import read_record, replay
from tests.server_support import ARTIFACTS, LiveServer, rules_of

playwright = pytest.importorskip("playwright.sync_api")
CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 860}
STATE = "window.bigtwo && window.bigtwo.view"
READY = """() => {
  const v = window.bigtwo && window.bigtwo.view;
  if (!v || !v.match) return false;
  return v.match.is_over || !!v.break || (v.match.to_move === v.you.seat && v.room.status === "playing");
}"""


@pytest.fixture(scope="module")
def browser():
    if not CHROMIUM.exists():
        pytest.fail("Debian's chromium is missing: .ci/run installs it (apt-get install chromium)")
    with playwright.sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield b
        b.close()


@pytest.fixture
def server(tmp_path):
    with LiveServer(str(tmp_path / "browser.sqlite3")) as live:
        yield live


def shot(page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def watch_errors(page) -> list[str]:
    """Script errors and console errors (a blocked resource, a content-security-policy violation) on a page."""
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    return errors


def reason_for(rules, obs, cards: list[str]) -> str | None:
    """The engine's reason a play is refused, from the seat's own view (other hands are guessed: the
    reason depends only on the seat's cards and the public table)."""
    mine = to_mask(obs["hand"])
    seen = mine | to_mask([c for a in obs["history"] if a["action"] == "play" for c in a["cards"]])
    unseen = [i for i in range(52) if not seen >> i & 1]
    random.Random(0).shuffle(unseen)
    hands = []
    for s, size in enumerate(obs["hand_sizes"]):
        if s == obs["seat"]:
            hands.append(CardSet.from_mask(mine))
        else:
            hands.append(CardSet.from_mask(sum(1 << i for i in unseen[:size])))
            unseen = unseen[size:]
    return position_from_observation(rules, obs, hands).why_not(" ".join(cards))


def click_cards(page, hand: list[str], cards: list[str]) -> None:
    used: set[int] = set()
    for c in cards:
        i = next(k for k, h in enumerate(hand) if h == c and k not in used)
        used.add(i)
        page.click(f'#hand .card[data-index="{i}"]')


def take_turn(page, rules) -> str:
    """Wait until this page must act; act. Returns 'over', 'break' or 'moved'."""
    page.wait_for_function(READY, timeout=30000)
    view = page.evaluate(STATE)
    g = view["match"]
    if g["is_over"]:
        return "over"
    if view["break"]:
        if view["you"]["seat"] not in view["break"]["ready"]:
            page.wait_for_selector("#break")
            shot(page, "score-table-between-rounds")
            page.click("#continue")
        page.wait_for_function("s => !window.bigtwo.view.break", arg=view["seq"], timeout=30000)
        return "break"
    choice = make("greedy").choose(rules, g)
    if g["phase"] == "exchange":
        decision = g["decision"]
        if decision["kind"] == "give":
            click_cards(page, g["hand"], [str(c) for c in choice.cards])
            shot(page, "exchange-between-rounds")
            page.click("#give")
        elif decision["kind"] == "surrender":
            page.click("#decline" if choice.word == "decline" else "#surrender")
        else:
            page.select_option("#answer-pick", str(choice))
            page.click("#answer")
    elif choice.is_pass:
        page.click("#pass")
    else:
        click_cards(page, g["hand"], [str(c) for c in choice.cards])
        page.click("#play")
    page.wait_for_function("s => window.bigtwo.view.seq > s", arg=view["seq"], timeout=30000)
    return "moved"


def test_one_person_and_three_bots_play_a_whole_match(browser, server):
    rules = rules_of("classic", {"exchange": "big-two-president"})
    page = browser.new_page(viewport=PHONE)
    errors = watch_errors(page)
    page.goto(server.url)
    page.fill("#host-name", "Ann")
    page.fill("#rounds", "2")
    page.fill("#bot-delay", "0.05")
    page.fill("#move-seconds", "120")
    page.fill("#house-rules", 'exchange = "big-two-president"  # scum and president trade cards between rounds')
    shot(page, "1-lobby")
    page.click("#create-button")
    page.wait_for_selector("#start")
    assert "/room/" in page.url and page.inner_text("#invite").endswith(page.url.rsplit("/", 1)[1])
    shot(page, "1-waiting-room")
    page.click("#start")
    page.wait_for_function(READY, timeout=30000)

    # the table: a hand of card images, names with counts, whose turn it is, a running move timer
    view = page.evaluate(STATE)
    g = view["match"]
    assert page.locator("#hand .card svg").count() == len(g["hand"]) == 13
    for s in (1, 2, 3):
        assert page.inner_text(f"#seat-{s} .n") == str(g["hand_sizes"][s])
        assert "Bot" in page.inner_text(f"#seat-{s} .who")
    assert page.locator("#seat-0.turn .timer").count() == 1 and "Your turn" in page.inner_text("#prompt")
    # an illegal play is answered with the engine's reason, and nothing moves
    legal = {p.mask for p in legal_plays_from_observation(rules, g)}
    bad = next([a, b] for i, a in enumerate(g["hand"]) for b in g["hand"][i + 1 :] if to_mask([a, b]) not in legal)
    click_cards(page, g["hand"], bad)
    page.click("#play")
    page.wait_for_selector("#error")
    assert page.inner_text("#error") == reason_for(rules, g, bad)
    assert page.evaluate(STATE)["seq"] == view["seq"]
    shot(page, "1-illegal-play")
    page.click("#clear")

    outcomes = []
    while True:
        outcome = take_turn(page, rules)
        outcomes.append(outcome)
        if len(outcomes) == 4:
            shot(page, "1-mid-round")
        if outcome == "over":
            break
        if outcomes.count("moved") > 60:
            pytest.fail("the match did not end")
    assert "break" in outcomes  # the score table showed between the rounds
    assert (ARTIFACTS / "exchange-between-rounds.png").exists()  # and seat 0 traded cards in the browser
    page.wait_for_selector("#summary")
    final = page.evaluate(STATE)["match"]
    assert final["is_over"] and len(final["rounds_done"]) == 2
    assert page.locator("#standings tbody tr").count() == 4
    shot(page, "1-end-of-match")

    # the record downloads, and the replay viewer steps through the game
    href = page.get_attribute("#download", "href")
    text = page.request.get(server.url + href).text()
    assert text.startswith('[Format "bigtwo-record/1"]') and '[Player P0 "Ann"]' in text
    assert replay(read_record(text)).totals == final["totals"]
    page.click("#replay-link")
    page.wait_for_selector("#replay")
    assert re.fullmatch(r"Round 1: (Ann|Bot \d \((?:heuristic|greedy)\)) deals", page.inner_text("#replay-note"))
    for _ in range(5):
        page.click("#replay-next")
    assert re.search(r"\d\. (Ann|Bot \d \((?:heuristic|greedy)\)) (plays|passes)", page.inner_text("#replay-note"))
    assert page.locator("#replay .hands .card").count() >= 52 - 5 * 5  # every hand shown: 5 steps play 25 cards at most
    shot(page, "1-replay")
    assert errors == []


def test_two_people_play_in_two_browsers_while_someone_watches(browser, server):
    rules = rules_of("classic", {"deal": "fixed", "hand_size": 13, "leftover": "discard"})
    ann_ctx, bob_ctx, eve_ctx = (browser.new_context(viewport=DESKTOP) for _ in range(3))
    ann, bob, eve = ann_ctx.new_page(), bob_ctx.new_page(), eve_ctx.new_page()
    errors = watch_errors(ann) + watch_errors(bob)
    ann.goto(server.url)
    ann.fill("#host-name", "Ann")
    ann.select_option("#preset", "classic")
    ann.fill("#players", "2")
    ann.dispatch_event("#players", "input")
    ann.select_option(".seat-choice", "open")
    ann.fill("#rounds", "1")
    ann.fill("#move-seconds", "0")
    ann.fill("#house-rules", 'deal = "fixed"\nhand_size = 13\nleftover = "discard"')
    ann.click("#create-button")
    ann.wait_for_selector("#invite")
    invite = ann.inner_text("#invite")

    bob.goto(invite)
    bob.wait_for_selector(".join-seat")
    bob.fill("#join-name", "Bob")
    bob.click(".join-seat")
    bob.wait_for_function("() => window.bigtwo.view.you.seat === 1")
    ann.wait_for_function("() => window.bigtwo.view.room.seats[1].name === 'Bob'")
    shot(ann, "2-waiting-room-host")
    ann.click("#start")
    eve.goto(invite)
    eve.wait_for_selector("#table")
    assert eve.locator("#hand").count() == 0 and "watching" in eve.inner_text("#room-status")

    moves = 0
    while True:
        ready = [p for p in (ann, bob) if p.evaluate(f"({READY})()")]
        if not ready:
            ann.wait_for_timeout(30)
            continue
        if ready[0].evaluate(STATE)["match"]["is_over"]:
            break
        assert take_turn(ready[0], rules) == "moved"
        moves += 1
        if moves == 6:
            shot(ann, "2-ann-mid-game")
            shot(bob, "2-bob-mid-game")
            shot(eve, "2-spectator-mid-game")
            spectator = eve.evaluate(STATE)
            assert spectator["match"]["hand"] == [] and spectator["you"]["seat"] is None
            # Bob's browser reloads (a dropped connection, a closed tab): he is back at his seat, hand and all
            held = bob.evaluate(STATE)
            bob.reload()
            bob.wait_for_function("s => window.bigtwo.view && window.bigtwo.view.seq >= s", arg=held["seq"])
            back = bob.evaluate(STATE)
            assert back["you"]["seat"] == 1 and back["match"]["hand"] == held["match"]["hand"]
            assert bob.locator("#hand .card svg").count() == len(held["match"]["hand"])
        assert moves < 80, "the game did not end"
    for page, name in ((ann, "ann"), (bob, "bob"), (eve, "spectator")):
        page.wait_for_selector("#summary")
        shot(page, f"2-{name}-end")
    names = [ann.inner_text("#standings tbody tr:nth-child(1) td:nth-child(2)")]
    assert names[0] in ("Ann", "Bob")
    assert errors == []
    for ctx in (ann_ctx, bob_ctx, eve_ctx):
        ctx.close()


def test_the_api_page_runs_under_the_pages_csp_with_files_from_this_server_only(browser, server):
    """/docs: Swagger UI from the installed package, nothing from elsewhere, no CSP violation, every route shown."""
    page = browser.new_page(viewport=DESKTOP)
    errors = watch_errors(page)
    elsewhere: list[str] = []
    page.on("request", lambda r: elsewhere.append(r.url) if not r.url.startswith(server.url) else None)
    page.goto(f"{server.url}/docs")
    page.wait_for_selector(".opblock-summary-path", timeout=30_000)
    paths = page.locator(".opblock-summary-path").all_inner_texts()
    assert any("/api/rooms/{room_id}/actions" in p.replace("\u200b", "") for p in paths), paths
    shot(page, "api-docs")
    assert errors == [] and elsewhere == []
    page.close()
