"""Accounts, sessions, CSRF, sign-in limits and ratings, on SQLite and on the real PostgreSQL."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import time
from datetime import UTC, datetime

import httpx
import pytest
import websockets
from sqlalchemy import create_engine, select, text

from bigtwo.server import ratings
from bigtwo.server.db import database_url, finished_matches, match_results
from bigtwo.server.db import ratings as ratings_table
from tests.server_support import (
    LiveServer,
    ServerProcess,
    Transcript,
    auth,
    create_room,
    free_port,
    play_seat,
    postgres_url_or_skip,
    reset_postgres,
    rules_of,
)

PASSWORD = "correct horse battery"


# one PostgreSQL database for the suite: its tests take turns on one worker
@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.xdist_group("postgresql"))])
def database(request, tmp_path) -> str:
    if request.param == "sqlite":
        return str(tmp_path / "games.sqlite3")
    url = reset_postgres(postgres_url_or_skip())
    return url


# uvicorn closes a connection idle for 5 s, httpx keeps one for 5 s: a request sent as the server closes it reads a
# reset. The test clients let theirs go sooner, as a browser would reconnect.
KEEPALIVE = httpx.Limits(keepalive_expiry=2.0)


def client(live: LiveServer, **headers: str) -> httpx.Client:
    return httpx.Client(base_url=live.url, timeout=20, headers=headers, limits=KEEPALIVE)


def sign_up(c: httpx.Client, username: str) -> str:
    """Sign up; the CSRF token the page gets."""
    r = c.post("/api/account/signup", json={"username": username, "password": PASSWORD})
    assert r.status_code == 201, r.text
    return r.json()["csrf"]


def rows(database: str, table) -> list[dict]:
    engine = create_engine(database_url(database))
    with engine.connect() as conn:
        out = [dict(r) for r in conn.execute(select(table)).mappings()]
    engine.dispose()
    return out


def test_sign_up_in_out_and_change_password(database):
    with LiveServer(database) as live, client(live) as c, client(live) as other:
        r = c.post("/api/account/signup", json={"username": "Ann", "password": PASSWORD})
        assert r.status_code == 201 and r.json()["username"] == "Ann"
        cookie = r.headers["set-cookie"].lower()
        assert "httponly" in cookie and "samesite=lax" in cookie and "secure" not in cookie
        me = c.get("/api/account").json()
        assert me["signed_in"] and me["username"] == "Ann" and me["csrf"]
        # the name is taken whatever its case; a short password and a bad username are refused in words
        taken = other.post("/api/account/signup", json={"username": "ann", "password": PASSWORD})
        assert taken.status_code == 409 and "taken" in taken.json()["detail"]
        short = other.post("/api/account/signup", json={"username": "Bob", "password": "short"})
        assert short.status_code == 422 and "8 to 128 characters" in short.json()["detail"]
        odd = other.post("/api/account/signup", json={"username": "B\u202eob", "password": PASSWORD})
        assert odd.status_code == 422 and "username" in odd.json()["detail"]
        # wrong password: refused without saying which half was wrong; the right one signs in (a second session)
        wrong = other.post("/api/account/signin", json={"username": "ann", "password": PASSWORD + "!"})
        assert wrong.status_code == 401 and wrong.json()["detail"] == "wrong username or password"
        nobody = other.post("/api/account/signin", json={"username": "nobody", "password": PASSWORD})
        assert nobody.status_code == 401 and nobody.json()["detail"] == "wrong username or password"
        assert other.post("/api/account/signin", json={"username": "ann", "password": PASSWORD}).status_code == 200
        assert other.get("/api/account").json()["username"] == "Ann"
        # changing the password needs the current one, then ends every other session
        csrf = c.get("/api/account").json()["csrf"]
        bad = c.post(
            "/api/account/password",
            json={"current": "nope nope", "new": "a new password"},
            headers={"X-CSRF-Token": csrf},
        )
        assert bad.status_code == 401 and "current password is wrong" in bad.json()["detail"]
        ok = c.post(
            "/api/account/password", json={"current": PASSWORD, "new": "a new password"}, headers={"X-CSRF-Token": csrf}
        )
        assert ok.status_code == 200 and ok.json()["csrf"] != csrf
        assert not other.get("/api/account").json()["signed_in"]
        assert c.get("/api/account").json()["signed_in"]
        old = other.post("/api/account/signin", json={"username": "Ann", "password": PASSWORD})
        assert old.status_code == 401
        # signing out ends the session (and needs the CSRF token)
        csrf = c.get("/api/account").json()["csrf"]
        assert c.post("/api/account/signout").status_code == 403
        assert c.post("/api/account/signout", headers={"X-CSRF-Token": csrf}).status_code == 200
        assert not c.get("/api/account").json()["signed_in"]
        stored = rows(database, ratings_table)
        assert stored == []  # nothing rated yet
    engine = create_engine(database_url(database))
    with engine.connect() as conn:
        hashes = [h for (h,) in conn.execute(text("SELECT password_hash FROM accounts"))]
    engine.dispose()
    assert len(hashes) == 1 and hashes[0].startswith("$argon2id$") and PASSWORD not in hashes[0]


def test_session_fixation_and_csrf_are_refused(tmp_path):
    with LiveServer(str(tmp_path / "db.sqlite3")) as live, client(live) as victim, client(live) as attacker:
        sign_up(attacker, "mallory")
        planted = attacker.cookies.get("bigtwo_session")
        sign_up(victim, "victim")
        victim.cookies.clear()
        # fixation: the attacker's own session id planted in the victim's browser is never kept by a sign-in
        victim.cookies.set("bigtwo_session", planted, domain="127.0.0.1")
        r = victim.post("/api/account/signin", json={"username": "victim", "password": PASSWORD})
        assert r.status_code == 200 and victim.cookies.get("bigtwo_session") != planted
        assert not attacker.get("/api/account").json()["signed_in"]  # the planted session ended
        # an invented id signs nobody in
        stranger = client(live)
        stranger.cookies.set("bigtwo_session", "made-up-by-the-attacker", domain="127.0.0.1")
        assert not stranger.get("/api/account").json()["signed_in"]
        stranger.close()
        # CSRF: the victim's cookie alone (a form on another site) changes nothing, and is told why
        csrf = victim.get("/api/account").json()["csrf"]
        for path, body in (
            ("/api/quick-match", {"preset": "classic"}),
            ("/api/rooms", {"preset": "classic", "host_name": "x", "rated": True}),
            ("/api/account/password", {"current": PASSWORD, "new": "hijacked password"}),
        ):
            r = victim.post(path, json=body)
            assert r.status_code == 403 and "X-CSRF-Token" in r.json()["detail"], (path, r.text)
            wrong = csrf[:-1] + ("y" if csrf.endswith("x") else "x")  # one character off, never the token itself
            r = victim.post(path, json=body, headers={"X-CSRF-Token": wrong})
            assert r.status_code == 403, path
            r = victim.post(path, json=body, headers={"X-CSRF-Token": csrf, "Origin": "https://evil.example"})
            assert r.status_code == 403 and "another site" in r.json()["detail"], path
        # login CSRF: a page of another site may not sign the browser in
        r = victim.post(
            "/api/account/signin",
            json={"username": "mallory", "password": PASSWORD},
            headers={"Origin": "https://evil.example"},
        )
        assert r.status_code == 403
        assert victim.get("/api/account").json()["username"] == "victim"
        # a guest (no cookie) still opens tables as before, without a token
        guest = client(live)
        assert guest.post("/api/rooms", json={"preset": "classic", "host_name": "Gus"}).status_code == 201
        r = guest.post("/api/rooms", json={"preset": "classic", "host_name": "Gus", "rated": True})
        assert r.status_code == 403 and "sign" in r.json()["detail"]
        guest.close()


def test_sign_in_attempts_are_limited_per_address_and_per_username(tmp_path):
    limits = {"login_attempts_per_address": 4, "login_failures_per_username": 3}
    with LiveServer(str(tmp_path / "db.sqlite3"), **limits) as live, client(live) as c:
        sign_up(c, "target")

        # wrong passwords for one username from many addresses (a trusted proxy names them)
        def sign_in(username: str, password: str, address: str) -> httpx.Response:
            return c.post(
                "/api/account/signin",
                json={"username": username, "password": password},
                headers={"X-Forwarded-For": address},
            )

        assert sign_in("target", PASSWORD, "10.0.0.50").status_code == 200  # the owner, at home
        for i in range(3):
            assert sign_in("target", f"guess {i} wrong", f"10.0.0.{i}").status_code == 401
        r = sign_in("target", PASSWORD, "10.0.0.9")
        assert r.status_code == 429 and "too many wrong passwords for 'target'" in r.json()["detail"]
        assert "try again in" in r.json()["detail"]
        # strangers' guesses do not lock the owner out from where they signed in before, nor lift the lockout
        assert sign_in("target", PASSWORD, "10.0.0.50").status_code == 200
        assert sign_in("target", "one more guess", "10.0.0.8").status_code == 429
        # the same holds for changing the password: from home it may be tried, from elsewhere not
        csrf = c.get("/api/account").json()["csrf"]
        for address, status in (("10.0.0.8", 429), ("10.0.0.50", 200)):
            r = c.post(
                "/api/account/password",
                json={"current": PASSWORD, "new": "a new password"},
                headers={"X-CSRF-Token": csrf, "X-Forwarded-For": address},
            )
            assert r.status_code == status, (address, r.text)
        # attempts from one address, whatever the usernames
        for i in range(4):
            assert sign_in(f"user{i}", PASSWORD, "10.0.1.1").status_code == 401
        r = sign_in("other", PASSWORD, "10.0.1.1")
        assert r.status_code == 429 and "from your address" in r.json()["detail"]


def play_quick_match(live: LiveServer, c: httpx.Client, csrf: str, rounds: int = 1) -> dict:
    r = c.post(
        "/api/quick-match",
        json={
            "preset": "classic",
            "band": "any",
            "rounds": rounds,
            "bot_delay": 0,
            "move_seconds": 0,
            "break_seconds": 0,
        },
        headers={"X-CSRF-Token": csrf},
    )
    assert r.status_code == 201, r.text
    made = r.json()
    assert made["room"]["rated"] and made["seat"] == 0 and made["room"]["status"] == "playing"
    final = asyncio.run(
        play_seat(live.ws_url, made["room"]["id"], made["token"], rules_of("classic"), Transcript(), bot="greedy")
    )
    assert final["match"]["is_over"]
    return made


def test_a_rated_match_moves_exactly_the_seated_players_once(database):
    with LiveServer(database) as live, client(live) as ann, client(live) as bob:
        csrf = sign_up(ann, "ann")
        sign_up(bob, "bob")
        made = play_quick_match(live, ann, csrf)
        rid = made["room"]["id"]
        bots = {s["bot"] for s in made["room"]["seats"] if s["kind"] == "bot"}
        # a guest's table changes nothing
        guest = create_room(
            live.url,
            host_name="Gus",
            seats=[{"kind": "open"}] + [{"kind": "bot", "bot": "greedy"}] * 3,
            rounds=1,
            bot_delay=0,
            move_seconds=0,
            break_seconds=0,
        )
        httpx.post(f"{live.url}/api/rooms/{guest['room']['id']}/start", json={}, headers=auth(guest["host_token"]))
        asyncio.run(play_seat(live.ws_url, guest["room"]["id"], guest["token"], rules_of("classic"), Transcript()))
        me = ann.get("/api/account").json()
        assert me["ratings"]["classic"]["matches"] == 1 and me["ratings"]["classic"]["provisional"]
        assert bob.get("/api/account").json()["ratings"] == {}
        board = ann.get("/api/leaderboard/classic").json()
        assert {p["player"] for p in board["players"]} == {"account:1"} | {f"bot:{b}" for b in bots}
        # a bot goes by its own name, not the seat it sat in ("Chloe (heuristic)")
        assert {p["name"] for p in board["players"] if p["kind"] == "bot"} == bots
        assert all(f">{b}</a>" in ann.get("/leaderboard/classic").text for b in bots)
        assert all(p["matches"] == 1 for p in board["players"])
        page = ann.get("/api/players/ann").json()
        assert [m["room"] for m in page["recent"]] == [rid] and len(page["history"]["classic"]) == 1
        assert page["presets"][0]["preset"] == "classic" and page["presets"][0]["matches"] == 1
        html = ann.get("/players/ann").text
        assert "<svg" in html and f"/replay/{rid}" in html and "provisional" in html
        assert "ann" in ann.get("/leaderboard/classic").text
        # the room's results are stored once: storing them again is refused by their key
        room = live.rooms.rooms.get(rid) or live.rooms.finished[rid]
        engine = create_engine(database_url(database))
        from bigtwo.server.room import results_entries

        with engine.begin() as conn:
            again = ratings.record_match(
                conn, f"room:{rid}", "classic", results_entries(room.ref), True, room.finished_at
            )
        engine.dispose()
        assert again is False
        assert ann.get("/api/account").json()["ratings"]["classic"]["matches"] == 1
    matches = rows(database, finished_matches)
    assert [m["id"] for m in matches] == [f"room:{rid}"] and matches[0]["rated"] == 1
    results = rows(database, match_results)
    assert sorted(r["seat"] for r in results) == [0, 1, 2, 3]
    places = sorted(r["place"] for r in results)
    assert places[0] == 1 and all(r["mu_after"] is not None for r in results)


@pytest.mark.slow
def test_a_match_ended_before_a_restart_is_rated_once_after_it(tmp_path):
    """The last move was stored but not the end (a crash between the two commits): the restart rates it once."""
    database = str(tmp_path / "db.sqlite3")
    with LiveServer(database) as live, client(live) as ann:
        made = play_quick_match(live, ann, sign_up(ann, "ann"))
    rid = made["room"]["id"]
    with sqlite3.connect(database) as conn:  # undo the end's transaction, as if it had never committed
        conn.execute("PRAGMA foreign_keys=ON")
        conn.execute("UPDATE rooms SET status='playing', finished_at=NULL, standings=NULL WHERE id=?", (rid,))
        conn.execute("DELETE FROM finished_matches")
        conn.execute("DELETE FROM ratings")
    for _ in range(2):
        with LiveServer(database) as live, client(live) as ann:
            assert ann.post("/api/account/signin", json={"username": "ann", "password": PASSWORD}).status_code == 200
            assert ann.get("/api/account").json()["ratings"]["classic"]["matches"] == 1
            assert httpx.get(f"{live.url}/api/rooms/{rid}").json()["status"] == "over"
    with sqlite3.connect(database) as conn:
        assert conn.execute("SELECT count(*) FROM match_results").fetchone()[0] == 4


@pytest.mark.slow
def test_killing_the_server_mid_match_rates_the_match_once(database):
    port = free_port()
    server = ServerProcess(database, port, env={"BIGTWO_ARGON2_MEMORY_KIB": "8192"}).start()
    try:
        c = httpx.Client(base_url=server.url, timeout=20, limits=KEEPALIVE)
        r = c.post("/api/account/signup", json={"username": "kim", "password": PASSWORD})
        csrf = r.json()["csrf"]
        made = c.post(
            "/api/quick-match",
            json={
                "preset": "classic",
                "band": "any",
                "rounds": 2,
                "bot_delay": 0,
                "move_seconds": 0,
                "break_seconds": 0,
            },
            headers={"X-CSRF-Token": csrf},
        ).json()
        rid, token = made["room"]["id"], made["token"]
        ws = f"ws://127.0.0.1:{port}"
        asyncio.run(play_seat(ws, rid, token, rules_of("classic"), Transcript(), bot="greedy", stop_after=4))
        server.kill()
        assert rows(database, finished_matches) == []
        server = ServerProcess(database, port, env={"BIGTWO_ARGON2_MEMORY_KIB": "8192"}).start()
        final = asyncio.run(play_seat(ws, rid, token, rules_of("classic"), Transcript(), bot="greedy"))
        assert final["match"]["is_over"]
        me = c.get("/api/account").json()  # the session survives the restart (it is in the database)
        assert me["ratings"]["classic"]["matches"] == 1
    finally:
        server.kill()
    assert [m["id"] for m in rows(database, finished_matches)] == [f"room:{rid}"]
    players = {r["player"]: r["matches"] for r in rows(database, ratings_table)}
    assert players["account:1"] == 1 and set(players.values()) == {1} and len(players) >= 2


def test_places_share_ties_and_every_preset_has_a_family():
    assert ratings.places_from([(-10, 1), (-10, 1), (-3, 2), (0, 3)]) == [1, 1, 3, 4]
    from bigtwo.rules.ruleset import list_presets

    assert {ratings.family_of(p) for p in list_presets()} == set(ratings.FAMILY_NAMES)


def test_arena_results_are_published_to_the_ladder_once(tmp_path):
    from typer.testing import CliRunner

    from bigtwo.arena.run import run_arena
    from bigtwo.cli.app import app

    run = run_arena("classic", "heuristic,random,random,random", 8, seed=3, workers=1)
    path = run.save(tmp_path / "run.json")
    database = str(tmp_path / "ladder.sqlite3")
    runner = CliRunner()
    first = runner.invoke(app, ["ladder", "publish", str(path), "--database", database])
    assert first.exit_code == 0 and "8 rated now, 0 already" in first.output, first.output
    again = runner.invoke(app, ["ladder", "publish", str(path), "--database", database])
    assert again.exit_code == 0 and "0 rated now, 8 already" in again.output
    with sqlite3.connect(database) as conn:
        got = {p: (mu, sigma, n) for p, mu, sigma, n in conn.execute("SELECT player, mu, sigma, matches FROM ratings")}
    # the same ratings from openskill directly: each seat rated from the bot's rating before the game, the bot
    # moved by the mean of its seats' changes
    model = ratings.MODEL
    want = {"heuristic": (model.mu, model.sigma), "random": (model.mu, model.sigma)}
    for g in run.records:
        teams = [[model.rating(mu=want[b][0], sigma=want[b][1])] for b in g.labels]
        places = [g.finishing_order.index(seat) + 1 for seat in range(4)]
        rated = model.rate(teams, ranks=places)
        moves: dict[str, list[tuple[float, float]]] = {}
        for b, team in zip(g.labels, rated, strict=True):
            moves.setdefault(b, []).append((team[0].mu - want[b][0], team[0].sigma - want[b][1]))
        for b, m in moves.items():
            want[b] = (want[b][0] + sum(x for x, _ in m) / len(m), want[b][1] + sum(y for _, y in m) / len(m))
    assert set(got) == {"bot:heuristic", "bot:random"}
    for b, (mu, sigma) in want.items():
        assert got[f"bot:{b}"] == (pytest.approx(mu), pytest.approx(sigma), 8)
    shown = runner.invoke(app, ["ladder", "show", "--database", database])
    assert shown.exit_code == 0 and "heuristic (bot)" in shown.output
    # a mistyped database is refused, not created empty
    typo = tmp_path / "ladder.sqlite"
    missing = runner.invoke(app, ["ladder", "show", "--database", str(typo)], env={"COLUMNS": "200"})
    said = " ".join(missing.output.split())  # one line, wherever a long temporary path made it wrap
    assert missing.exit_code == 2 and f"no database file at {typo}" in said and not typo.exists(), missing.output
    # house rules, or a bot under a name with options, are not rated
    house = run_arena(load_rules_with_change(), "greedy,random,random,random", 1, workers=1)
    refused = runner.invoke(app, ["ladder", "publish", str(house.save(tmp_path / "h.json")), "--database", database])
    assert refused.exit_code == 2 and "house rules" in refused.output


def load_rules_with_change():
    return rules_of("classic", {"pass_locks_out": True})


def test_a_quick_match_seats_bots_of_the_chosen_band(tmp_path):
    database = str(tmp_path / "db.sqlite3")
    with LiveServer(database) as live, client(live) as c:
        csrf = sign_up(c, "bea")
        engine = create_engine(database_url(database))
        shown = {"isearch": 25.0, "heuristic": 20.0, "search": 15.0, "learned": 10.0, "greedy": 3.0, "random": -5.0}
        with engine.begin() as conn:
            for bot, rating in shown.items():  # sigma 1: the rating shown is mu - 3
                conn.execute(
                    ratings_table.insert().values(
                        player=f"bot:{bot}",
                        family="classic",
                        name=bot,
                        mu=rating + 3,
                        sigma=1.0,
                        matches=50,
                        updated_at=datetime.now(UTC),
                    )
                )
        engine.dispose()

        def bots_for(band: str) -> set[str]:
            r = c.post(
                "/api/quick-match",
                json={"preset": "classic", "band": band, "move_seconds": 0},
                headers={"X-CSRF-Token": csrf},
            )
            assert r.status_code == 201, r.text
            return {s["bot"] for s in r.json()["room"]["seats"] if s["kind"] == "bot"}

        # a registered bot that has played no rated game in this family would be a newcomer whose 0.0 says nothing
        # of its strength, so in no band (every bot registered today is rated here)
        assert bots_for("weaker") == {"random"}  # bea is a newcomer: 0.0
        assert bots_for("level") == {"greedy", "random"}  # within 5 of 0.0, the closest first
        assert bots_for("stronger") == {"greedy", "learned", "search"}  # the three closest at or above 0.0
        fresh = c.post("/api/quick-match", json={"preset": "winner", "band": "weaker"}, headers={"X-CSRF-Token": csrf})
        assert fresh.status_code == 201  # no bot rated in Winner yet: all are newcomers at 0.0, as bea is


def test_a_guest_plays_a_quick_match_unrated(tmp_path):
    """No account: a guest gives a name and is seated at once against bots, matched as a newcomer; the match is
    not rated, so it moves nobody's rating. Without a name the guest is told to type one."""
    database = str(tmp_path / "db.sqlite3")
    with LiveServer(database) as live, client(live) as guest:
        nameless = guest.post("/api/quick-match", json={"preset": "classic"})
        assert nameless.status_code == 422 and "name" in nameless.json()["detail"], nameless.text
        for bad in ("   ", "\x1b"):  # a name is checked as a table's names are
            assert guest.post("/api/quick-match", json={"name": bad}).status_code == 422, repr(bad)
        r = guest.post(
            "/api/quick-match",
            json={"preset": "classic", "band": "any", "rounds": 1, "bot_delay": 0, "move_seconds": 0, "name": "Gus"},
        )
        assert r.status_code == 201, r.text
        made = r.json()
        room = made["room"]
        assert room["rated"] is False and room["status"] == "playing"
        assert made["seat"] == 0 and made["token"] and room["seats"][0]["name"] == "Gus"
        assert [s["kind"] for s in room["seats"][1:]] == ["bot"] * 3
        signed = client(live)
        csrf = sign_up(signed, "hal")
        rated = signed.post(
            "/api/quick-match", json={"preset": "classic", "name": "ignored"}, headers={"X-CSRF-Token": csrf}
        )
        assert rated.status_code == 201 and rated.json()["room"]["rated"] is True  # an account's stays rated
        assert rated.json()["room"]["seats"][0]["name"] == "hal"
        signed.close()


def test_leaving_a_rated_match_leaves_the_seat_to_a_bot_that_plays_it_for_you(database):
    """In a rated match the seats stay as they started: no turn is taken back, the host changes no seat (opening a
    bot's seat would hand its hand to whoever joins), and a player who leaves is played out by a bot when their
    time runs out, the match rated with their result; a rated table asked for no move clock keeps one."""
    with LiveServer(database) as live, client(live) as c:
        csrf = sign_up(c, "cyd")
        seats = [{"kind": "open"}] + [{"kind": "bot", "bot": "greedy"}] * 3
        spec = {"preset": "classic", "host_name": "ignored", "rated": True, "rounds": 1, "seats": seats}
        unclocked = c.post("/api/rooms", json={**spec, "move_seconds": 0}, headers={"X-CSRF-Token": csrf})
        assert unclocked.status_code == 201 and unclocked.json()["room"]["move_seconds"] == 60
        made = c.post("/api/rooms", json={**spec, "bot_delay": 0, "move_seconds": 1}, headers={"X-CSRF-Token": csrf})
        assert made.status_code == 201, made.text
        made = made.json()
        rid, host = made["room"]["id"], auth(made["host_token"])
        assert made["room"]["seats"][0]["name"] == "cyd" and made["room"]["seats"][0]["account"]
        # a guest may not sit at a rated table; cy may not take a second seat
        assert httpx.post(f"{live.url}/api/rooms/{rid}/join", json={"name": "Gus"}).status_code in (403, 409)
        assert c.post(f"/api/rooms/{rid}/start", json={}, headers=host).status_code == 200

        async def undo() -> dict:
            async with websockets.connect(f"{live.ws_url}/ws/rooms/{rid}") as ws:
                await ws.send(json.dumps({"type": "hello", "token": made["token"]}))
                await ws.send(json.dumps({"type": "undo"}))
                while True:
                    msg = json.loads(await asyncio.wait_for(ws.recv(), 20))
                    if msg["type"] == "error":
                        return msg

        assert "a rated match stands as played" in asyncio.run(undo())["message"]
        # the host may not open a seat, nor give one to a bot: the seats stay as they started
        for seat, change in ((1, {"kind": "open"}), (0, {"kind": "open"}), (0, {"kind": "bot", "bot": "random"})):
            r = c.post(f"/api/rooms/{rid}/seats/{seat}", json=change, headers=host)
            assert r.status_code == 409 and "this table is rated" in r.json()["detail"], r.text
        # cyd is away: when her time runs out a bot takes her seat, for her
        for _ in range(600):
            if httpx.get(f"{live.url}/api/rooms/{rid}").json()["status"] == "over":
                break
            time.sleep(0.05)
        room = httpx.get(f"{live.url}/api/rooms/{rid}").json()
        assert room["status"] == "over" and room["seats"][0]["kind"] == "bot" and room["seats"][0]["account"]
        me = c.get("/api/account").json()  # a table is shown over once its results are stored
        assert me["ratings"]["classic"]["matches"] == 1
        board = c.get("/api/leaderboard/classic").json()["players"]
        assert {p["player"]: p["matches"] for p in board} == {"account:1": 1, "bot:greedy": 1}
        assert [p["name"] for p in board if p["kind"] == "account"] == ["cyd"]
    matches = rows(database, finished_matches)
    assert [m["rated"] for m in matches] == [1]


def test_the_known_addresses_of_a_lockout_are_bounded():
    from bigtwo.server.accounts import KnownAddresses

    known = KnownAddresses(per_key=2, max_keys=3)
    for address in ("a", "b", "c"):
        known.add("ann", address)
    assert ("ann", "c") in known and ("ann", "b") in known and ("ann", "a") not in known  # the oldest forgotten
    for user in ("bob", "cy", "di"):
        known.add(user, "x")
    assert ("ann", "c") not in known and ("di", "x") in known and len(known.seen) == 3
    known.add("bob", "y")  # used again: kept the longest
    known.add("ed", "x")
    assert ("bob", "x") in known and ("cy", "x") not in known
