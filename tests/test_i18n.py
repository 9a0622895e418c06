"""The players' languages (bigtwo.i18n, the catalogs under src/bigtwo/locale, static/i18n.js).

- the catalogs are complete: every message of the template translated in every language, placeholders and markup
  kept, as many plural forms as the language's rule has (CLDR's, as Babel has it), and the template up to date
  with the code (extraction finds no message the catalogs lack);
- the pseudo-language en_XA marks every message, so text that bypasses the catalogs shows: the terminal's table,
  the server's sentences and the page's catalog are checked in it;
- which language: the picker's cookie, Accept-Language, the terminal's locale and ``--lang``;
- the server serves a language's catalog (only known languages) and speaks each WebSocket client's own language;
- the page's plural rule (static/i18n.js, evaluating the CLDR conditions it is sent) agrees with Babel's.
"""

from __future__ import annotations

import io
import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from babel import Locale
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po
from rich.console import Console

from bigtwo import i18n
from bigtwo.cli.plain import PlainTable
from bigtwo.rules.ruleset import list_presets, load_rules
from bigtwo.words import KIND_NAMES, PRESET_TITLES, Wording, direction_said, kind_name, place_said, preset_title

ROOT = Path(__file__).resolve().parents[1]
LOCALE = ROOT / "src" / "bigtwo" / "locale"
STATIC = ROOT / "src" / "bigtwo" / "server" / "static"
LANGUAGES = [code for code in i18n.LANGUAGES if code != "en"]
PLACEHOLDER = re.compile(r"\{\w*\}")
MARKUP = re.compile(r"\[/?[a-z][a-z .#-]*\]")


@pytest.fixture(autouse=True)
def english():
    """Each test starts (and leaves) in English."""
    i18n.use_language("en")
    yield
    i18n.use_language("en")


def template():
    with (LOCALE / "bigtwo.pot").open("rb") as f:
        return read_po(f)


def key(message) -> str:
    return message.id[0] if isinstance(message.id, tuple) else message.id


# --- the catalogs ---------------------------------------------------------------------------------------------------


def test_the_template_is_up_to_date_with_the_code():
    """Extraction (babel.cfg, as docs/languages.md runs it) finds exactly the template's messages: a message added
    to the code without updating the catalogs fails here, and so does one the code no longer has."""
    with (ROOT / "babel.cfg").open() as f:
        method_map, options_map = parse_mapping_cfg(f)
    found = {}
    for _file, _line, message, _comments, _context in extract_from_dir(
        str(ROOT), method_map, options_map, keywords={"_": None, "ngettext": (1, 2), "N_": None}
    ):
        found[message[0] if isinstance(message, tuple) else message] = message
    held = {key(m) for m in template() if m.id}
    assert not sorted(set(found) - held), "in the code, not in bigtwo.pot (run the commands in docs/languages.md)"
    assert not sorted(held - set(found)), "in bigtwo.pot, no longer in the code"


@pytest.mark.parametrize("code", LANGUAGES)
def test_every_catalog_translates_every_message_keeping_placeholders_and_plural_forms(code):
    with i18n.po_path(code).open("rb") as f:
        catalog = read_po(f, locale=code)
    rule = Locale.parse(code).plural_form
    # gettext's Plural-Forms from Babel: one form for languages without plural categories, else one a category
    assert catalog.num_plurals in (1, len(i18n.plural_tags(code))), catalog.plural_forms
    assert catalog.num_plurals == 1 or rule.tags, code
    held = {key(m): m for m in catalog if m.id}
    missing, wrong = [], []
    for message in template():
        if not message.id:
            continue
        got = held.get(key(message))
        if got is None or got.fuzzy or not got.string or (isinstance(got.string, tuple) and not all(got.string)):
            missing.append(key(message))
            continue
        sources = message.id if isinstance(message.id, tuple) else (message.id,)
        forms = got.string if isinstance(got.string, tuple) else (got.string,)
        if isinstance(message.id, tuple) and len(forms) != catalog.num_plurals:
            wrong.append(f"{key(message)!r}: {len(forms)} forms, the language has {catalog.num_plurals}")
        for form in forms:
            for pattern in (PLACEHOLDER, MARKUP):
                if sorted(set(pattern.findall(form))) != sorted(set(pattern.findall(sources[-1]))):
                    wrong.append(f"{key(message)!r} -> {form!r}: {pattern.pattern} differ")
    assert not missing, f"{code}: {len(missing)} untranslated: {missing[:20]}"
    assert not wrong, "\n".join(wrong)


def test_the_gettext_plural_forms_agree_with_cldr():
    """Where a language has more than one form, gettext's expression picks form 0 exactly for CLDR's "one"."""
    for code in LANGUAGES:
        t = i18n.translations(code)
        rule = Locale.parse(code).plural_form
        if i18n.catalog(code).num_plurals == 1:
            continue
        for n in range(0, 1001):
            singular = t.ngettext("{n} card left", "{n} cards left", n)
            forms = next(m for m in i18n.catalog(code) if key(m) == "{n} card left").string
            assert (singular == forms[0]) == (rule(n) == "one"), (code, n)


def test_filipino_counts_by_its_own_rule():
    """Filipino's CLDR rule: 1, 2, 3 and numbers not ending in 4, 6 or 9 take the first form ("ng 4 na baraha")."""
    i18n.use_language("fil")
    one = i18n.ngettext("{n} card left", "{n} cards left", 1)
    assert i18n.ngettext("{n} card left", "{n} cards left", 5) == one
    assert i18n.ngettext("{n} card left", "{n} cards left", 4) != one
    assert i18n.ngettext("{n} card left", "{n} cards left", 16) != one


def test_an_unknown_language_is_refused_in_words():
    with pytest.raises(ValueError, match="not a language with a catalog"):
        i18n.translations("xx")


# --- the pseudo-language --------------------------------------------------------------------------------------------

MARKED = re.compile(r"\[!!((?:(?!\[!!|!!\]).)*)!!\]", re.S)
CARD = re.compile(r"(?:10|[2-9JQKA])[♦♣♥♠]|[BR]J\b")


def unmarked_words(text: str, allowed: set[str] = frozenset()) -> list[str]:
    """The English words of ``text`` outside the pseudo-language's marks (innermost marks first), card faces and
    the ``allowed`` words (names) set aside."""
    while True:
        stripped = MARKED.sub(" ", text)
        if stripped == text:
            break
        text = stripped
    text = CARD.sub(" ", text)
    return [w for w in re.findall(r"[A-Za-z][A-Za-z']+", text) if w not in allowed]


def test_the_check_catches_a_string_left_unmarked():
    """The checker itself: English outside the marks is found; marked text, names and cards are not."""
    i18n.use_language(i18n.PSEUDO)
    good = i18n._("Your hand: {cards}").format(cards="3♦ 10♠")
    assert unmarked_words(good) == []
    assert unmarked_words(f"{good} Ana", {"Ana"}) == []
    assert unmarked_words(good + " (your only choice)") == ["your", "only", "choice"]


def test_the_pseudo_language_marks_every_message_and_keeps_placeholders():
    catalog = i18n.catalog_json(i18n.PSEUDO)
    assert catalog["html_lang"] == "en-XA"
    for msgid, text in catalog["messages"].items():
        for form in text if isinstance(text, list) else [text]:
            assert form.startswith("[!! ") and form.endswith(" !!]"), msgid
            assert PLACEHOLDER.findall(form) == PLACEHOLDER.findall(msgid), msgid
            assert MARKUP.findall(form) == MARKUP.findall(msgid), msgid
    assert len(catalog["messages"]) == sum(1 for m in template() if m.id)


def plain_run(lang: str, inputs: list[str], seed: int = 3) -> tuple[str, PlainTable]:
    i18n.use_language(lang)
    out = Console(file=io.StringIO(), width=300, highlight=False, color_system=None)
    lines = iter(inputs)
    table = PlainTable(load_rules("classic"), seed=seed, delay=0, console=out, input_fn=lambda _prompt: next(lines))
    table.run()
    return out.file.getvalue(), table


def test_the_plain_table_in_the_pseudo_language_shows_no_unmarked_english():
    """A round's opening, a play, the bots' answers, the table line, the hand and leaving: every word is marked
    (the seats' names and their bots' names aside)."""
    text, table = plain_run(i18n.PSEUDO, ["3d", "quit"])
    s = table.session
    names = {w for seat in range(s.n) for w in re.findall(r"[A-Za-z][A-Za-z']+", s.label(seat))}
    names -= set(re.findall(r"[A-Za-z][A-Za-z']+", i18n._("You")))
    assert "[!!" in text
    assert unmarked_words(text, names) == [], text


def test_the_plain_table_speaks_chinese_and_vietnamese():
    text, _table = plain_run("zh_Hant", ["3d", "quit"])
    assert "你的手牌" in text and "再見" in text and "你出 3♦" in text
    text, _table = plain_run("vi", ["3d", "quit"])
    assert "Bài của bạn" in text and "Bạn đánh 3♦" in text and "Tạm biệt" in text


def test_the_words_of_the_tables_in_the_pseudo_language():
    """The server's sentences built by the words module: seats, the way play goes, places, kinds, presets."""
    i18n.use_language(i18n.PSEUDO)
    w = Wording(0, ["You", "Ana", "Ben", "Chloe"])
    said = direction_said("clockwise", 4)
    assert said is not None
    texts = [
        *said.values(),
        w.name(0),
        Wording(None).name(2),
        w.said(1, i18n._("You pass"), i18n._("{who} passes")),
        place_said(1),
        place_said(22),
        *(kind_name(k) for k in KIND_NAMES),
        *(preset_title(p) for p in PRESET_TITLES),
    ]
    for text in texts:
        assert unmarked_words(text.replace("↻", ""), {"Ana"}) == [], text


def test_the_server_questions_in_the_pseudo_language():
    from bigtwo.server.views import asked_words, question_words

    i18n.use_language(i18n.PSEUDO)
    w = Wording(0, ["You", "Ana", "Ben", "Chloe"])
    for question in ("lowest", "highest", "highest pair", "have 3D", "any S", "two H", "give C", "lowest D"):
        assert unmarked_words(question_words(question, w)) == [], question
    asked = asked_words({"question": "highest S", "answer": "takes", "cards": ["AS"]}, w)
    assert unmarked_words(asked) == [], asked


# --- which language -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("header", "code"),
    [
        ("zh-TW,zh;q=0.9,en;q=0.8", "zh_Hant"),
        ("zh-HK", "zh_Hant"),
        ("zh-CN,zh;q=0.9", "zh_Hans"),
        ("zh", "zh_Hans"),
        ("en-US,vi;q=0.5", "en"),
        ("fr-FR,vi;q=0.5", "vi"),
        ("tl-PH", "fil"),
        ("fil", "fil"),
        ("ms-MY,en;q=0.1", "ms"),
        ("id-ID", "id"),
        ("de, fr;q=0.3", "en"),
        ("", "en"),
        ("vi;q=0, id", "id"),
    ],
)
def test_accept_language_picks_our_best_language(header, code):
    assert i18n.from_request(None, header) == code


def test_the_pickers_cookie_wins_over_accept_language():
    assert i18n.from_request("vi", "zh-TW") == "vi"
    assert i18n.from_request("nonsense", "zh-TW") == "zh_Hant"


@pytest.mark.parametrize(
    ("env", "code"),
    [
        ({"LANG": "zh_TW.UTF-8"}, "zh_Hant"),
        ({"LANG": "vi_VN.UTF-8"}, "vi"),
        ({"LC_ALL": "id_ID.UTF-8", "LANG": "vi_VN.UTF-8"}, "id"),
        ({"LANGUAGE": "fr:ms", "LANG": "en_US.UTF-8"}, "ms"),
        ({"LC_MESSAGES": "C", "LANG": "vi_VN"}, "en"),
        ({"LANG": "C.UTF-8"}, "en"),
        ({}, "en"),
    ],
)
def test_the_terminal_speaks_the_environments_language(env, code):
    assert i18n.from_environment(env) == code


def test_bigtwo_play_lang(monkeypatch):
    from typer.testing import CliRunner

    from bigtwo.cli.app import app

    runner = CliRunner()
    result = runner.invoke(app, ["play", "--plain", "--seed", "3", "--delay", "0", "--lang", "zh-TW"], input="quit\n")
    assert "你的手牌" in result.output, result.output
    result = runner.invoke(app, ["play", "--plain", "--lang", "klingon"], input="quit\n")
    assert result.exit_code == 2 and "not a language the table speaks" in result.output
    monkeypatch.setenv("LANG", "vi_VN.UTF-8")
    monkeypatch.delenv("LANGUAGE", raising=False)
    monkeypatch.delenv("LC_ALL", raising=False)
    monkeypatch.delenv("LC_MESSAGES", raising=False)
    result = runner.invoke(app, ["play", "--plain", "--seed", "3", "--delay", "0"], input="quit\n")
    assert "Bài của bạn" in result.output, result.output


# --- the page's plural rule -----------------------------------------------------------------------------------------


NODE = shutil.which("node")


@pytest.mark.skipif(NODE is None, reason="no node to run the page's script")
def test_the_pages_plural_rule_agrees_with_babels(tmp_path):
    """static/i18n.js evaluates the CLDR rule the catalog carries; it picks Babel's category for every number."""
    shutil.copy(STATIC / "i18n.js", tmp_path / "i18n.mjs")
    numbers = [*range(0, 130), 0.5, 1.5, 2.25, 1004, 1016]
    rules = {code: i18n.catalog_json(code)["plural"] for code in ["en", *LANGUAGES]}
    script = (
        "import { loadCatalog, pluralCategory, tn } from './i18n.mjs';\n"
        f"const rules = {json.dumps(rules)}; const numbers = {json.dumps(numbers)};\n"
        "const out = { english: [tn('{n} card', '{n} cards', 1), tn('{n} card', '{n} cards', 2)] };\n"
        "for (const [code, plural] of Object.entries(rules)) {\n"
        "  loadCatalog({ lang: code, plural, messages: {} });\n"
        "  out[code] = numbers.map((n) => pluralCategory(n));\n"
        "}\n"
        "console.log(JSON.stringify(out));\n"
    )
    (tmp_path / "run.mjs").write_text(script)
    got = json.loads(subprocess.run([NODE, "run.mjs"], cwd=tmp_path, capture_output=True, text=True, check=True).stdout)
    assert got["english"] == ["1 card", "2 cards"]
    for code in ["en", *LANGUAGES]:
        rule = i18n.plural_rule(code)
        assert got[code] == [rule(n) for n in numbers], code


# --- the server -----------------------------------------------------------------------------------------------------


@pytest.fixture
def client(tmp_path):
    from fastapi.testclient import TestClient

    from bigtwo.server import create_app
    from tests.server_support import settings_for_tests

    app = create_app(str(tmp_path / "i18n.sqlite3"), settings_for_tests())
    with TestClient(app) as c:
        yield c


def test_the_server_serves_a_catalog_for_known_languages_only(client):
    got = client.get("/api/i18n/zh_Hant").json()
    assert got["lang"] == "zh_Hant" and got["html_lang"] == "zh-Hant"
    assert got["messages"]["Your turn"] == "輪到你"
    assert client.get("/api/i18n/zh-Hant").json()["lang"] == "zh_Hant"
    auto = client.get("/api/i18n/auto", headers={"Accept-Language": "vi-VN,vi;q=0.9"}).json()
    assert auto["lang"] == "vi" and auto["messages"]["Pass"] == "Bỏ lượt"
    picked = client.get("/api/i18n/auto", headers={"Accept-Language": "vi"}, cookies={"bigtwo_lang": "ms"}).json()
    assert picked["lang"] == "ms"
    assert client.get("/api/i18n/auto").json()["lang"] == "en"
    refused = client.get("/api/i18n/klingon")
    assert refused.status_code == 404 and "no catalog for 'klingon'" in refused.json()["detail"]
    assert client.get("/api/i18n/" + "x" * 40).status_code == 422


def test_presets_come_with_their_local_names(client):
    presets = {p["name"]: p for p in client.get("/api/presets").json()}
    assert presets["chor-dai-di"]["title"] == "Chor Dai Di"
    i18n.use_language("zh_Hant")
    assert i18n._(presets["chor-dai-di"]["title"]) == "鋤大弟"
    assert i18n._(presets["classic"]["description"]) != presets["classic"]["description"]


def test_each_websocket_client_is_sent_its_own_language(client):
    """Two spectators of one table, one in English, one in Traditional Chinese: each view's words (the way play
    goes round the table) are in its own client's language."""
    made = client.post("/api/rooms", json={"preset": "classic", "players": 4, "host_name": "Ann"}).json()
    rid = made["room"]["id"]
    headers: dict[str, str] = {}  # a program, not a page: no Origin
    with (
        client.websocket_connect(f"/ws/rooms/{rid}", headers={**headers, "accept-language": "en"}) as en,
        client.websocket_connect(f"/ws/rooms/{rid}", headers={**headers, "accept-language": "zh-TW"}) as zh,
    ):
        first_en, first_zh = en.receive_json(), zh.receive_json()
    assert first_en["room"]["direction_said"]["long"] == "Play passes to the right (counter-clockwise)"
    assert first_zh["room"]["direction_said"]["long"] == "輪到右手邊的玩家（逆時針）"


def test_the_server_rendered_pages_speak_the_readers_language(client):
    """The leaderboard and a missing player's page, rendered on the server: in the browser's language, and with
    no unmarked word in the pseudo-language (the brand aside)."""
    page = client.get("/leaderboard", headers={"Accept-Language": "zh-TW"}).text
    assert '<html lang="zh-Hant">' in page and "排行榜：大老二（經典類）" in page and "大廳" in page
    page = client.get("/leaderboard/winner", cookies={"bigtwo_lang": "en_XA"}).text
    assert '<html lang="en-XA">' in page
    shown = re.sub(r"<style>.*?</style>|<[^>]+>", " ", page, flags=re.S)
    assert unmarked_words(shown, {"bigtwo"}) == [], shown
    assert "Leaderboard: Winner" in client.get("/leaderboard/winner").text


def test_a_refusal_is_said_in_the_askers_language(client):
    """The referee's refusals are translated where they are raised: in the request's (or the connection's)
    language."""
    made = client.post("/api/rooms", json={"preset": "classic", "players": 4, "host_name": "Ann"}).json()
    rid, token = made["room"]["id"], made["token"]
    move = {"type": "pass"}
    said = client.post(f"/api/rooms/{rid}/actions", json=move, headers={"Authorization": f"Bearer {token}"})
    assert said.status_code == 409 and said.json()["detail"] == "the game has not started yet: the host starts it"
    said = client.post(
        f"/api/rooms/{rid}/actions",
        json=move,
        headers={"Authorization": f"Bearer {token}", "Accept-Language": "vi-VN"},
    )
    assert said.status_code == 409 and said.json()["detail"] == "ván bài chưa bắt đầu: chủ bàn sẽ bắt đầu"


@pytest.mark.parametrize(
    ("code", "hand", "over"), [("zh_Hant", "你的手牌", "本局結束"), ("vi", "Bài của bạn", "Hết ván")]
)
def test_the_full_screen_table_plays_a_round_in_the_language(code, hand, over):
    """A whole round at the full-screen table (Textual's pilot) in Traditional Chinese and in Vietnamese."""
    import asyncio

    from bigtwo.cli.session import TableSession
    from bigtwo.cli.tui import InfoScreen, TableApp
    from tests.screen import screen_text
    from tests.test_tui import human_turn, settle

    i18n.use_language(code)
    session = TableSession(load_rules("classic"), seed=12, date="2025-06-01")
    table = TableApp(session, delay=0)
    seen: dict[str, str] = {}

    async def scenario():
        async with table.run_test(size=(80, 24)) as pilot:
            await settle(pilot, table)
            seen["start"] = screen_text(table)
            for _turn in range(200):
                if session.is_over:
                    break
                if isinstance(table.screen, InfoScreen):
                    await pilot.press("enter")
                    await settle(pilot, table)
                    continue
                await human_turn(pilot, table)
            await settle(pilot, table)
            seen["end"] = screen_text(table)

    asyncio.run(scenario())
    assert session.is_over
    assert hand in seen["start"], seen["start"]
    assert over in seen["end"], seen["end"]


def test_the_engines_english_sentences_name_seats_in_english():
    """An engine sentence stays one language: in a Chinese table, "seat 0 pays 4" reads "You pay 4", not 你 pay 4."""
    i18n.use_language("zh_Hant")
    w = Wording(0, ["You", "Ana", "Ben", "Chloe"])
    assert w.render("seat 0 pays 4 to seat 1") == "You pay 4 to Ana"
    assert w.name(0) == "你"  # the table's own words stay in the player's language


def test_the_full_screen_table_in_the_pseudo_language_shows_no_unmarked_english():
    """The full-screen table's first screen (seats, trick, log, hand, entry, the footer's keys) in the
    pseudo-language: every word marked but names, bots, the brand and the keys' own names."""
    import asyncio

    from bigtwo.cli.session import TableSession
    from bigtwo.cli.tui import TableApp
    from tests.screen import screen_text

    i18n.use_language(i18n.PSEUDO)
    session = TableSession(load_rules("classic"), seed=12, date="2025-06-01")
    table = TableApp(session, delay=0)
    seen: dict[str, str] = {}

    async def scenario():
        async with table.run_test(size=(140, 30)) as pilot:
            await pilot.pause()
            seen["screen"] = screen_text(table)

    asyncio.run(scenario())
    names = {w for seat in range(session.n) for w in re.findall(r"[A-Za-z]+", session.label(seat))}
    keys = {"space", "palette"}  # the keys as the footer names them, and Textual's own command palette
    assert unmarked_words(seen["screen"], names | keys | {"bigtwo"}) == [], seen["screen"]


# --- learning to play: bigtwo learn and the rules explained -------------------------------------------------------

LESSON_NAMES = {"Ana", "Ben", "Chloe"}
COMMANDS = {"bigtwo", "learn", "play", "rules", "show", "classic", "brief", "pass", "hint", "quit"}  # typed as is


def test_bigtwo_learn_in_the_pseudo_language_shows_no_unmarked_english():
    """The whole guided round, a refused answer and a hint included: the lesson's sentences, the moves, the table
    and the result are all marked (the seats' names and the commands one types aside)."""
    from bigtwo.cli.learn import run_lesson

    i18n.use_language(i18n.PSEUDO)
    said: list[str] = []
    typed = iter(["KS", "hint", "", "KS", "pass", "6C 6H", "8D 9C 10H JS QD"])
    assert run_lesson(lambda _prompt: next(typed), said.append)
    text = "\n".join(said)
    assert "[!!" in text and "3♦" in text and "8♦ 9♣ 10♥ J♠ Q♦" in text  # the cards as the tables write them
    # the refusal of KS is the engine's own reason, translated like the rest (the cards as the table writes them)
    refusal = i18n.pseudo("the first play must contain {cards}").format(cards="3♦")
    assert any(line.strip() == refusal for line in said), said
    assert unmarked_words(text, LESSON_NAMES | COMMANDS) == [], text


def test_the_lesson_speaks_the_players_language_with_the_tables_cards():
    from bigtwo.lesson import lesson

    i18n.use_language("zh_Hant")
    shown = lesson()
    assert "方塊" not in shown.steps[0].teach and "3♦" in shown.steps[0].teach and "出 3♦" in shown.steps[0].teach
    assert shown.steps[1].said == "Ana出 4♣" and shown.steps[-1].said.startswith("你出 8♦ 9♣ 10♥ J♠ Q♦（順子）")
    assert any("Ana剩 4 張牌" in line for line in shown.result)
    ascii_shown = lesson(ascii_cards=True)
    assert "3D" in ascii_shown.steps[0].teach and "♦" not in ascii_shown.steps[0].teach  # --ascii: 3D, not 3♦
    i18n.use_language("vi")
    assert "Bạn đánh 6♣ 6♥ (đôi)" in [s.said for s in lesson().steps]


@pytest.mark.parametrize("name", list_presets())
def test_the_rules_explained_in_the_pseudo_language_show_no_unmarked_english(name):
    """Every point of the summary (``bigtwo rules show --brief``) is marked, lists and counts included: the
    sentences are whole messages, not English fragments glued together."""
    from bigtwo.rules.explain import summary

    i18n.use_language(i18n.PSEUDO)
    for line in summary(load_rules(name)):
        assert unmarked_words(line) == [], line


def test_the_rules_explained_in_chinese_list_in_chinese():
    from bigtwo.rules.explain import explain

    i18n.use_language("zh_Hans")
    points = {p.topic: p.text for p in explain(load_rules("tien-len"))}
    assert "炸弹" in points and "3 连对" in points["炸弹"]  # a run of pairs, counted
    assert "、" in points["可以出的牌型"] and "和" in points["可以出的牌型"]  # CLDR's list pattern, not ", and"


# --- the engine's refusals ----------------------------------------------------------------------------------------


def _refusal(code: str) -> str:
    """Why the engine refuses a pair on a single lead, said in ``code`` (as a server or a table asks it)."""
    from bigtwo.errors import IllegalPlay
    from bigtwo.game import Game

    with i18n.language(code):
        g = Game("classic", hands=["3D 2S", "4D 4C 5H", "6D 7D", "8D 9D"])
        g.play("3D")
        with pytest.raises(IllegalPlay) as refused:
            g.play("4D 4C")
        return refused.value.reason


def test_the_engines_refusals_are_said_in_the_players_language():
    """The reason a play is refused is one of the catalogs' sentences: English as written, Chinese in Chinese (the
    plays named by their cards, which the tables write as faces), and fully marked in the pseudo-language."""
    assert _refusal("en") == "a pair of 4s cannot be played on 3D: a play must be a single card, as the lead is"
    chinese = _refusal("zh_Hant")
    assert chinese == "4D 4C 不能壓在 3D 上：首家出的是單張，只能出單張"
    with i18n.language("zh_Hant"):
        assert Wording(1).render(chinese) == "4♦ 4♣ 不能壓在 3♦ 上：首家出的是單張，只能出單張"
    pseudo = _refusal(i18n.PSEUDO)
    assert pseudo.startswith("[!!") and pseudo.endswith("!!]") and "4D 4C" in pseudo, pseudo
    assert unmarked_words(pseudo) == [], pseudo
