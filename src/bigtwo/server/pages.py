"""Player pages and leaderboards as server-rendered HTML: no script, the rating history as inline SVG.

Everything shown comes from finished matches only (``bigtwo.server.ratings`` stores results when a match ends),
so a page never tells anything about a game being played. Every text from a player is escaped.
"""

from __future__ import annotations

from datetime import datetime
from html import escape
from typing import Any
from urllib.parse import quote

from bigtwo.server.ratings import FAMILY_NAMES, PROVISIONAL, history_svg
from bigtwo.words import plural

STYLE = """
body{font-family:system-ui,sans-serif;margin:0;background:#f4f4ef;color:#222}
header{background:#14532d;color:#fff;padding:.5rem 1rem}header a{color:#fff;margin-right:1rem;text-decoration:none}
main{max-width:52rem;margin:0 auto;padding:1rem}section{background:#fff;border-radius:8px;padding:1rem;margin:0 0 1rem}
table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:.3rem .4rem;border-bottom:1px solid #ddd}
td.n,th.n{text-align:right}.muted{color:#666}.prov{color:#a15c00;font-size:.85em}nav.pages a{margin-right:1rem}
section{overflow-x:auto}td a{display:inline-block}
svg.history{background:#fbfbf8;border:1px solid #ddd;border-radius:4px;max-width:100%}
@media (max-width:600px){main{padding:.5rem}th,td{padding:.25rem .2rem;font-size:.9rem}.wide{display:none}}
"""


def _page(title: str, body: str) -> str:
    return (
        '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f'<link rel="icon" href="data:,"><title>{escape(title)}</title><style>{STYLE}</style></head><body>'
        '<header><a href="/"><b>bigtwo</b></a><a href="/">Lobby</a><a href="/leaderboard">Leaderboards</a></header>'
        f"<main>{body}</main></body></html>"
    )


def player_link(player: str, name: str) -> str:
    kind = player.partition(":")[0]
    if kind == "account":
        return f'<a href="/players/{quote(name)}">{escape(name)}</a>'
    if kind == "bot":
        bot = player.partition(":")[2]
        return f'<a href="/bots/{quote(bot)}">{escape(name)}</a>'
    return escape(name)


def _rating_cell(r: dict[str, Any]) -> str:
    prov = (
        f' <span class="prov" title="fewer than {PROVISIONAL} rated matches">provisional</span>'
        if r["provisional"]
        else ""
    )
    return f"{r['rating']:.1f}{prov}"


def _date(at: datetime | None) -> str:
    return at.strftime("%Y-%m-%d %H:%M") if at else ""


def player_page(
    title: str,
    kind: str,
    ratings_by_family: dict[str, dict[str, Any]],
    histories: dict[str, list[dict[str, Any]]],
    recent: list[dict[str, Any]],
    stats: list[dict[str, Any]],
) -> str:
    """A player's (or a bot's) page: ratings per family with their history, recent matches, per-preset stats."""
    parts = [f'<section><h1 id="player-name">{escape(title)}</h1><p class="muted">{escape(kind)}</p>']
    if ratings_by_family:
        parts.append(
            '<table id="ratings"><tr><th>rules family</th><th class="n">rating</th><th class="n">rated matches</th>'
            '<th class="n wide">μ</th><th class="n wide">σ</th></tr>'
        )
        for fam, r in sorted(ratings_by_family.items()):
            parts.append(
                f'<tr data-family="{escape(fam)}"><td><a href="/leaderboard/{escape(fam)}">'
                f"{escape(FAMILY_NAMES.get(fam, fam))}</a></td>"
                f'<td class="n rating">{_rating_cell(r)}</td><td class="n">{r["matches"]}</td>'
                f'<td class="n wide">{r["mu"]:.2f}</td><td class="n wide">{r["sigma"]:.2f}</td></tr>'
            )
        parts.append("</table>")
    else:
        parts.append("<p>No rated matches yet.</p>")
    parts.append("</section>")
    for fam, points in sorted(histories.items()):
        if points:
            parts.append(
                f"<section><h2>Rating history: {escape(FAMILY_NAMES.get(fam, fam))}</h2>{history_svg(points)}</section>"
            )
    parts.append('<section><h2>Recent matches</h2><table id="recent">')
    if recent:
        parts.append(
            '<tr><th>finished</th><th class="wide">rules</th><th>seats (place)</th><th class="n">place</th>'
            '<th class="n">rating</th><th></th></tr>'
        )
        for m in recent:
            seats = ", ".join(f"{escape(s['name'])} ({s['place']})" for s in m["seats"])
            change = "unrated" if m["change"] is None else f"{m['change']:+.1f}"
            places = "/".join(str(p) for p in m["places"])
            links = ""
            if m["room"]:
                room = quote(m["room"])
                links = f'<a href="/replay/{room}">replay</a> <a href="/api/records/{room}?format=text">record</a>'
            parts.append(
                f'<tr><td>{_date(m["at"])}</td><td class="wide">{escape(m["preset"])}</td><td>{seats}</td>'
                f'<td class="n">{places}</td><td class="n">{change}</td><td>{links}</td></tr>'
            )
    else:
        parts.append('<tr><td class="muted">No finished matches yet.</td></tr>')
    parts.append("</table></section>")
    if stats:
        parts.append(
            '<section><h2>By preset</h2><table id="stats"><tr><th>preset</th><th class="n">matches</th>'
            '<th class="n">first places</th><th class="n">mean place</th><th class="n">mean points</th></tr>'
        )
        for s in stats:
            parts.append(
                f'<tr><td>{escape(s["preset"])}</td><td class="n">{s["matches"]}</td>'
                f'<td class="n">{s["firsts"]}</td><td class="n">{s["mean_place"]:.2f}</td>'
                f'<td class="n">{s["mean_points"]:+.2f}</td></tr>'
            )
        parts.append("</table></section>")
    return _page(f"bigtwo: {title}", "".join(parts))


def leaderboard_page(family: str, rows: list[dict[str, Any]], total: int, limit: int, offset: int) -> str:
    """One page of a family's leaderboard, with links to the other families and pages."""
    nav = " ".join(
        f'<a href="/leaderboard/{f}"{" aria-current=page" if f == family else ""}>{escape(n)}</a>'
        for f, n in FAMILY_NAMES.items()
    )
    parts = [
        f'<section><nav class="pages">{nav}</nav><h1>Leaderboard: {escape(FAMILY_NAMES[family])}</h1>',
        f'<p class="muted">{plural(total, "player")} rated; the rating is μ − 3σ (provisional before '
        f"{PROVISIONAL} rated matches).</p>",
        '<table id="leaderboard"><tr><th class="n">#</th><th>player</th><th class="n">rating</th>'
        '<th class="n">rated matches</th><th class="wide">kind</th></tr>',
    ]
    for r in rows:
        parts.append(
            f'<tr><td class="n">{r["rank"]}</td><td>{player_link(r["player"], r["name"])}</td>'
            f'<td class="n rating">{_rating_cell(r)}</td><td class="n">{r["matches"]}</td>'
            f'<td class="wide">{"bot" if r["kind"] == "bot" else "person"}</td></tr>'
        )
    if not rows:
        parts.append('<tr><td colspan="5" class="muted">Nobody is rated here yet.</td></tr>')
    parts.append("</table>")
    links = []
    if offset > 0:
        links.append(f'<a href="/leaderboard/{family}?offset={max(0, offset - limit)}&limit={limit}">previous</a>')
    if offset + limit < total:
        links.append(f'<a href="/leaderboard/{family}?offset={offset + limit}&limit={limit}" id="next">next</a>')
    parts.append(f'<nav class="pages">{" ".join(links)}</nav></section>')
    return _page(f"bigtwo: leaderboard, {FAMILY_NAMES[family]}", "".join(parts))


def missing_page(what: str) -> str:
    return _page("bigtwo: not found", f"<section><h1>Not found</h1><p>{escape(what)}</p></section>")
