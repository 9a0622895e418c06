"""Ratings: one multiplayer rating per player and rules family, updated once per finished rated match.

The model is openskill's Weng-Lin Plackett-Luce (a Bayesian rating for any number of players that uses the
whole finishing order, ties included): every player has a skill estimate ``mu`` and an uncertainty ``sigma``,
starting at 25 and 25/3. The rating shown is the conservative ``mu - 3 sigma`` (0 for a newcomer, rising as
results come in and the uncertainty shrinks); a player with fewer than ``PROVISIONAL`` rated matches in a family
is marked provisional.

A player is an account (``account:<id>``) or a registered bot (``bot:<name>``). A bot may hold several seats
of one match (three heuristic bots and a person): each seat is rated as a separate entry from the bot's rating
before the match, and the bot moves by the mean of its seats' changes.

Storing a match's results is keyed by the match's id (``room:<id>`` for a table, ``arena:...`` for a published
arena game): the key's row, the per-seat results and the new ratings are written in one transaction, so a
match counts once however often it is finished again (a restart that replays it, a file published twice).
"""

from __future__ import annotations

import html
import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from openskill.models import PlackettLuce
from sqlalchemy import and_, case, func, insert, select, update
from sqlalchemy.engine import Connection

from bigtwo.i18n import N_
from bigtwo.server.db import accounts, finished_matches, match_results, ratings

MODEL = PlackettLuce()  # mu 25, sigma 25/3, beta 25/6, tau 25/300, kappa 0.0001 (openskill's defaults)
PROVISIONAL = 10  # rated matches in a family before a rating stops being provisional

# The rules families a rating belongs to, by preset (a table is rated only on a preset without house rules).
FAMILIES: dict[str, str] = {
    "classic": "classic",
    "bga": "classic",
    "chor-dai-di": "classic",
    "hong-kong": "classic",
    "house-code": "classic",
    "indonesia": "classic",
    "malaysia": "classic",
    "pusoy-dos": "classic",
    "singapore": "classic",
    "taiwan": "classic",
    "vietnam": "classic",
    "president": "president",
    "winner": "winner",
    "zheng-shangyou": "zheng-shangyou",
    "tien-len": "tien-len",
}
FAMILY_NAMES = {  # in English, marked for the catalogs: the pages say them in the reader's language
    "classic": N_("Big Two (classic-like)"),
    "president": N_("President"),
    "winner": N_("Winner"),
    "zheng-shangyou": N_("Zheng Shangyou"),
    "tien-len": N_("Tien Len"),
}


def family_of(preset: str) -> str | None:
    """The rules family of a preset (None: not rated)."""
    return FAMILIES.get(preset)


def shown(mu: float, sigma: float) -> float:
    """The rating shown: the conservative estimate mu - 3 sigma, to one decimal."""
    return round(mu - 3 * sigma, 1)


def places_from(keys: Sequence[Any]) -> list[int]:
    """Places (1 = best) from per-seat sort keys (lower is better); equal keys share the better place."""
    return [1 + sum(1 for other in keys if other < k) for k in keys]


def match_places(standings: dict[str, Any], ranks_only: bool) -> list[int]:
    """The final places of a match's seats from its stored standings (totals, then places; ties shared)."""
    totals, place_sums = standings["totals"], standings["places"]
    if ranks_only:
        return places_from(list(place_sums))
    return places_from([(-t, p) for t, p in zip(totals, place_sums, strict=True)])


@dataclass(frozen=True)
class Entry:
    """One seat of a finished match: who (``player`` key and name), its place and its points."""

    seat: int
    player: str  # account:<id>, bot:<name>, or guest
    name: str
    place: int
    points: float


def rated_name(player: str, seat_name: str) -> str:
    """The name a rating goes by: a bot's own (``heuristic``), never the seat it last sat in (``Chloe
    (heuristic)``, which changes from table to table); an account's username, as its seat says."""
    kind, _, name = player.partition(":")
    return name if kind == "bot" and name else seat_name


def is_recorded(conn: Connection, match_id: str) -> bool:
    return conn.execute(select(finished_matches.c.id).where(finished_matches.c.id == match_id)).first() is not None


def record_match(
    conn: Connection,
    match_id: str,
    preset: str,
    entries: list[Entry],
    rated: bool,
    at: datetime,
    public: bool = True,
    room_id: str | None = None,
) -> bool:
    """Store a finished match's results (and, when rated, update every seated player's rating) in ``conn``'s
    transaction, once: False when ``match_id`` was already stored (nothing is written)."""
    if is_recorded(conn, match_id):
        return False
    # an account is named by its username (its seat may be played out by a bot under the bot's name)
    ids = {int(e.player.partition(":")[2]) for e in entries if e.player.startswith("account:")}
    if ids:
        usernames = dict(conn.execute(select(accounts.c.id, accounts.c.username).where(accounts.c.id.in_(ids))).all())
        entries = [
            replace(e, name=usernames.get(int(e.player.partition(":")[2]), e.name))
            if e.player.startswith("account:")
            else e
            for e in entries
        ]
    family = family_of(preset) or "unrated"
    rated = rated and family_of(preset) is not None and all(e.player != "guest" for e in entries)
    conn.execute(
        insert(finished_matches).values(
            id=match_id, room_id=room_id, family=family, preset=preset, rated=int(rated), public=int(public), at=at
        )
    )
    after: dict[int, tuple[float, float, float, float]] = {}
    if rated:
        players = sorted({e.player for e in entries})
        q = select(ratings).where(ratings.c.family == family, ratings.c.player.in_(players)).with_for_update()
        old = {r["player"]: r for r in conn.execute(q).mappings()}
        before = {p: (old[p]["mu"], old[p]["sigma"]) if p in old else (MODEL.mu, MODEL.sigma) for p in players}
        teams = [[MODEL.rating(mu=before[e.player][0], sigma=before[e.player][1])] for e in entries]
        new = MODEL.rate(teams, ranks=[e.place for e in entries])
        deltas: dict[str, list[tuple[float, float]]] = {p: [] for p in players}
        for e, team in zip(entries, new, strict=True):
            mu0, s0 = before[e.player]
            deltas[e.player].append((team[0].mu - mu0, team[0].sigma - s0))
        moved: dict[str, tuple[float, float]] = {}
        for p in players:
            mu0, s0 = before[p]
            d = deltas[p]
            moved[p] = (mu0 + sum(x for x, _ in d) / len(d), max(1e-3, s0 + sum(y for _, y in d) / len(d)))
        names = {e.player: rated_name(e.player, e.name) for e in entries}
        for p in players:
            mu1, s1 = moved[p]
            if p in old:
                conn.execute(
                    update(ratings)
                    .where(ratings.c.player == p, ratings.c.family == family)
                    .values(mu=mu1, sigma=s1, matches=ratings.c.matches + 1, name=names[p][:40], updated_at=at)
                )
            else:
                conn.execute(
                    insert(ratings).values(
                        player=p, family=family, name=names[p][:40], mu=mu1, sigma=s1, matches=1, updated_at=at
                    )
                )
        for e in entries:
            after[e.seat] = (*before[e.player], *moved[e.player])
    rows = []
    for e in entries:
        change: tuple[float | None, ...] = after.get(e.seat, (None, None, None, None))
        rows.append(
            {
                "match_id": match_id,
                "seat": e.seat,
                "player": e.player,
                "name": e.name[:40],
                "place": e.place,
                "points": float(e.points),
                "mu_before": change[0],
                "sigma_before": change[1],
                "mu_after": change[2],
                "sigma_after": change[3],
                "at": at,
            }
        )
    conn.execute(insert(match_results), rows)
    return True


# --- reading ----------------------------------------------------------------------------------------------


def rating_of(conn: Connection, player: str, family: str) -> dict[str, Any]:
    """A player's rating in a family (a newcomer's when it has none yet)."""
    row = conn.execute(select(ratings).where(ratings.c.player == player, ratings.c.family == family)).mappings().first()
    mu, sigma, matches = (row["mu"], row["sigma"], row["matches"]) if row else (MODEL.mu, MODEL.sigma, 0)
    return rating_out(mu, sigma, matches)


def rating_out(mu: float, sigma: float, matches: int) -> dict[str, Any]:
    return {
        "rating": shown(mu, sigma),
        "mu": round(mu, 3),
        "sigma": round(sigma, 3),
        "matches": matches,
        "provisional": matches < PROVISIONAL,
    }


def leaderboard(conn: Connection, family: str, limit: int, offset: int) -> tuple[list[dict[str, Any]], int]:
    """A family's players, best rating first, one page; and how many there are."""
    score = ratings.c.mu - 3 * ratings.c.sigma
    q = (
        select(ratings)
        .where(ratings.c.family == family)
        .order_by(score.desc(), ratings.c.matches.desc(), ratings.c.name)
        .limit(limit)
        .offset(offset)
    )
    total = conn.execute(select(func.count()).select_from(ratings).where(ratings.c.family == family)).scalar_one()
    out = []
    for i, r in enumerate(conn.execute(q).mappings()):
        kind, _, _ = r["player"].partition(":")
        out.append(
            {"rank": offset + i + 1, "player": r["player"], "kind": kind, "name": rated_name(r["player"], r["name"])}
            | rating_out(r["mu"], r["sigma"], r["matches"])
        )
    return out, int(total)


def player_ratings(conn: Connection, player: str) -> dict[str, dict[str, Any]]:
    rows = conn.execute(select(ratings).where(ratings.c.player == player)).mappings()
    return {r["family"]: rating_out(r["mu"], r["sigma"], r["matches"]) for r in rows}


def history(conn: Connection, player: str, family: str, limit: int = 200) -> list[dict[str, Any]]:
    """A player's rating after each of its latest rated matches in a family, oldest first (one point a match)."""
    q = (
        select(
            match_results.c.match_id,
            func.max(match_results.c.at).label("at"),
            func.max(match_results.c.mu_after).label("mu"),
            func.max(match_results.c.sigma_after).label("sigma"),
        )
        .join(finished_matches, finished_matches.c.id == match_results.c.match_id)
        .where(
            match_results.c.player == player, finished_matches.c.family == family, match_results.c.mu_after.is_not(None)
        )
        .group_by(match_results.c.match_id)
        .order_by(func.max(match_results.c.at).desc(), match_results.c.match_id.desc())
        .limit(limit)
    )
    rows = list(conn.execute(q).mappings())
    return [{"match": r["match_id"], "at": r["at"], "rating": shown(r["mu"], r["sigma"])} for r in reversed(rows)]


def recent_matches(conn: Connection, player: str, limit: int = 20) -> list[dict[str, Any]]:
    """A player's latest finished public matches: the table, its seats' names and places, the rating change."""
    mine = (
        select(match_results, finished_matches.c.room_id, finished_matches.c.preset, finished_matches.c.rated)
        .join(finished_matches, finished_matches.c.id == match_results.c.match_id)
        .where(match_results.c.player == player, finished_matches.c.public == 1)
        .order_by(match_results.c.at.desc(), match_results.c.match_id, match_results.c.seat)
        .limit(limit * 8)
    )
    out: dict[str, dict[str, Any]] = {}
    for r in conn.execute(mine).mappings():
        m = out.get(r["match_id"])
        if m is None:
            if len(out) >= limit:
                break
            m = out[r["match_id"]] = {
                "match": r["match_id"],
                "room": r["room_id"],
                "preset": r["preset"],
                "rated": bool(r["rated"]),
                "at": r["at"],
                "places": [],
                "change": None,
            }
        m["places"].append(r["place"])
        if r["mu_after"] is not None and m["change"] is None:
            m["change"] = round(shown(r["mu_after"], r["sigma_after"]) - shown(r["mu_before"], r["sigma_before"]), 1)
    if out:
        seats = conn.execute(
            select(match_results.c.match_id, match_results.c.seat, match_results.c.name, match_results.c.place)
            .where(match_results.c.match_id.in_(list(out)))
            .order_by(match_results.c.match_id, match_results.c.seat)
        ).mappings()
        for m in out.values():
            m["seats"] = []
        for s in seats:
            out[s["match_id"]]["seats"].append({"name": s["name"], "place": s["place"]})
    return list(out.values())


def preset_stats(conn: Connection, player: str) -> list[dict[str, Any]]:
    """Per preset: finished matches, wins (first places), mean place and mean points."""
    q = (
        select(
            finished_matches.c.preset,
            func.count(func.distinct(match_results.c.match_id)).label("matches"),
            func.sum(case((match_results.c.place == 1, 1), else_=0)).label("firsts"),
            func.avg(match_results.c.place).label("place"),
            func.avg(match_results.c.points).label("points"),
            func.count().label("seats"),
        )
        .join(finished_matches, and_(finished_matches.c.id == match_results.c.match_id))
        .where(match_results.c.player == player)
        .group_by(finished_matches.c.preset)
        .order_by(func.count().desc(), finished_matches.c.preset)
    )
    return [
        {
            "preset": r["preset"],
            "matches": int(r["matches"]),
            "seats": int(r["seats"]),
            "firsts": int(r["firsts"] or 0),
            "mean_place": round(float(r["place"]), 2),
            "mean_points": round(float(r["points"]), 2),
        }
        for r in conn.execute(q).mappings()
    ]


# --- the history plot, as SVG (no script, no outside file) ------------------------------------------------


def history_svg(points: list[dict[str, Any]], width: int = 560, height: int = 180) -> str:
    """The rating after each rated match as an inline SVG line chart (a dot per match, axis labels)."""
    if not points:
        return ""
    values = [p["rating"] for p in points]
    low, high = min([*values, 0.0]), max([*values, 0.0])
    if math.isclose(low, high):
        low, high = low - 1, high + 1
    pad_l, pad_r, pad_t, pad_b = 44, 12, 12, 24
    w, h = width - pad_l - pad_r, height - pad_t - pad_b
    n = len(values)

    def x(i: int) -> float:
        return pad_l + (w * i / (n - 1) if n > 1 else w / 2)

    def y(v: float) -> float:
        return pad_t + h * (high - v) / (high - low)

    line = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(values))
    dots = "".join(
        f'<circle cx="{x(i):.1f}" cy="{y(v):.1f}" r="3"><title>match {i + 1}: {v:.1f}</title></circle>'
        for i, v in enumerate(values)
    )
    zero = y(0.0)
    label = html.escape(f"rating after each of {n} rated {'match' if n == 1 else 'matches'}")
    return (
        f'<svg class="history" role="img" aria-label="{label}" viewBox="0 0 {width} {height}" '
        f'width="100%" xmlns="http://www.w3.org/2000/svg">'
        f'<line x1="{pad_l}" y1="{zero:.1f}" x2="{width - pad_r}" y2="{zero:.1f}" '
        'stroke="#999" stroke-dasharray="4 3"/>'
        f'<text x="{pad_l - 6}" y="{y(high) + 4:.1f}" text-anchor="end" font-size="11">{high:.1f}</text>'
        f'<text x="{pad_l - 6}" y="{y(low) + 4:.1f}" text-anchor="end" font-size="11">{low:.1f}</text>'
        f'<text x="{pad_l}" y="{height - 6}" font-size="11">first</text>'
        f'<text x="{width - pad_r}" y="{height - 6}" text-anchor="end" font-size="11">latest</text>'
        f'<polyline fill="none" stroke="#2a7" stroke-width="2" points="{line}"/>'
        f'<g fill="#2a7">{dots}</g></svg>'
    )
