"""Player pages and leaderboards as server-rendered HTML: no script but the theme's (/static/theme.js, which
sets the light or dark theme the player chose in the lobby before the page is drawn), the rating history as
inline SVG.

Everything shown comes from finished matches only (``bigtwo.server.ratings`` stores results when a match ends),
so a page never tells anything about a game being played. Every text from a player is escaped.
"""

from __future__ import annotations

from datetime import datetime
from html import escape
from typing import Any
from urllib.parse import quote

from bigtwo.i18n import HTML_LANG, _, current, ngettext
from bigtwo.server.ratings import FAMILY_NAMES, PROVISIONAL, history_svg

STYLE = """
body{font-family:system-ui,sans-serif;margin:0;background:#f4f4ef;color:#222}
header{background:#14532d;color:#fff;padding:.5rem 1rem}header a{color:#fff;margin-right:1rem;text-decoration:none}
main{max-width:52rem;margin:0 auto;padding:1rem}section{background:#fff;border-radius:8px;padding:1rem;margin:0 0 1rem}
table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:.3rem .4rem;border-bottom:1px solid #ddd}
td.n,th.n{text-align:right}.muted{color:#666}.prov{color:#a15c00;font-size:.85em}nav.pages a{margin-right:1rem}
section{overflow-x:auto}td a{display:inline-block}
svg.history{background:#fbfbf8;border:1px solid #ddd;border-radius:4px;max-width:100%}
@media (max-width:600px){main{padding:.5rem}th,td{padding:.25rem .2rem;font-size:.9rem}.wide{display:none}}
:root[data-theme=dark]{color-scheme:dark}:root[data-theme=dark] body{background:#131614;color:#e6e6e3}
:root[data-theme=dark] header{background:#0a2414}:root[data-theme=dark] section{background:#1e2220}
:root[data-theme=dark] th,:root[data-theme=dark] td{border-color:#3a413c}:root[data-theme=dark] .muted{color:#a9b0ab}
:root[data-theme=dark] .prov{color:#f0b35a}:root[data-theme=dark] main a{color:#8cc4ff}
:root[data-theme=dark] svg.history{background:#191d1b;border-color:#3a413c}
:root[data-theme=dark] svg.history text{fill:#e6e6e3}
"""


def _page(title: str, body: str) -> str:
    """A page in the request's language (bigtwo.i18n, set per request from the browser's choice)."""
    lang = HTML_LANG.get(current(), current())
    return (
        f'<!doctype html><html lang="{escape(lang)}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f'<link rel="icon" href="data:,"><title>{escape(title)}</title><style>{STYLE}</style>'
        '<script src="/static/theme.js"></script></head><body>'
        f'<header><a href="/"><b>bigtwo</b></a><a href="/">{escape(_("Lobby"))}</a>'
        f'<a href="/leaderboard">{escape(_("Leaderboards"))}</a></header>'
        f"<main>{body}</main></body></html>"
    )


def _e(message: str) -> str:
    """A translated message, escaped for the page."""
    return escape(message)


def _words() -> dict[str, str]:
    """The pages' words in the request's language, escaped (looked up per page: each request has its own; written
    out here because Babel's extractor does not read inside f-strings)."""
    said = {
        "provisional": _("provisional"),
        "rules family": _("rules family"),
        "rating": _("rating"),
        "rated matches": _("rated matches"),
        "No rated matches yet.": _("No rated matches yet."),
        "Recent matches": _("Recent matches"),
        "finished": _("finished"),
        "rules": _("rules"),
        "seats (place)": _("seats (place)"),
        "place": _("place"),
        "unrated": _("unrated"),
        "replay": _("replay"),
        "record": _("record"),
        "No finished matches yet.": _("No finished matches yet."),
        "By preset": _("By preset"),
        "preset": _("preset"),
        "matches": _("matches"),
        "first places": _("first places"),
        "mean place": _("mean place"),
        "mean points": _("mean points"),
        "player": _("player"),
        "kind": _("kind"),
        "Nobody is rated here yet.": _("Nobody is rated here yet."),
        "previous": _("previous"),
        "next": _("next"),
    }
    return {k: escape(v) for k, v in said.items()}


def player_link(player: str, name: str) -> str:
    kind = player.partition(":")[0]
    if kind == "account":
        return f'<a href="/players/{quote(name)}">{escape(name)}</a>'
    if kind == "bot":
        bot = player.partition(":")[2]
        return f'<a href="/bots/{quote(bot)}">{escape(name)}</a>'
    return escape(name)


def _rating_cell(r: dict[str, Any]) -> str:
    words = _words()
    fewer = _("fewer than {n} rated matches").format(n=PROVISIONAL)
    prov = f' <span class="prov" title="{_e(fewer)}">{words["provisional"]}</span>' if r["provisional"] else ""
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
    words = _words()
    parts = [f'<section><h1 id="player-name">{escape(title)}</h1><p class="muted">{escape(kind)}</p>']
    if ratings_by_family:
        parts.append(
            f'<table id="ratings"><tr><th>{words["rules family"]}</th><th class="n">{words["rating"]}</th>'
            f'<th class="n">{words["rated matches"]}</th><th class="n wide">μ</th><th class="n wide">σ</th></tr>'
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
        parts.append(f"<p>{words['No rated matches yet.']}</p>")
    parts.append("</section>")
    for fam, points in sorted(histories.items()):
        if points:
            heading = _("Rating history: {family}").format(family=_(FAMILY_NAMES.get(fam, fam)))
            parts.append(f"<section><h2>{_e(heading)}</h2>{history_svg(points)}</section>")
    parts.append(f'<section><h2>{words["Recent matches"]}</h2><table id="recent">')
    if recent:
        parts.append(
            f'<tr><th>{words["finished"]}</th><th class="wide">{words["rules"]}</th>'
            f'<th>{words["seats (place)"]}</th><th class="n">{words["place"]}</th>'
            f'<th class="n">{words["rating"]}</th><th></th></tr>'
        )
        for m in recent:
            seats = ", ".join(f"{escape(s['name'])} ({s['place']})" for s in m["seats"])
            change = words["unrated"] if m["change"] is None else f"{m['change']:+.1f}"
            places = "/".join(str(p) for p in m["places"])
            links = ""
            if m["room"]:
                room = quote(m["room"])
                links = (
                    f'<a href="/replay/{room}">{words["replay"]}</a> '
                    f'<a href="/api/records/{room}?format=text">{words["record"]}</a>'
                )
            parts.append(
                f'<tr><td>{_date(m["at"])}</td><td class="wide">{escape(m["preset"])}</td><td>{seats}</td>'
                f'<td class="n">{places}</td><td class="n">{change}</td><td>{links}</td></tr>'
            )
    else:
        parts.append(f'<tr><td class="muted">{words["No finished matches yet."]}</td></tr>')
    parts.append("</table></section>")
    if stats:
        parts.append(
            f'<section><h2>{words["By preset"]}</h2><table id="stats"><tr><th>{words["preset"]}</th>'
            f'<th class="n">{words["matches"]}</th><th class="n">{words["first places"]}</th>'
            f'<th class="n">{words["mean place"]}</th><th class="n">{words["mean points"]}</th></tr>'
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
    words = _words()
    nav = " ".join(
        f'<a href="/leaderboard/{f}"{" aria-current=page" if f == family else ""}>{escape(_(n))}</a>'
        for f, n in FAMILY_NAMES.items()
    )
    rated = ngettext(
        "{n} player rated; the rating is μ − 3σ (provisional before {k} rated matches).",
        "{n} players rated; the rating is μ − 3σ (provisional before {k} rated matches).",
        total,
    ).format(n=total, k=PROVISIONAL)
    heading = _("Leaderboard: {family}").format(family=_(FAMILY_NAMES[family]))
    parts = [
        f'<section><nav class="pages">{nav}</nav><h1>{_e(heading)}</h1>',
        f'<p class="muted">{_e(rated)}</p>',
        f'<table id="leaderboard"><tr><th class="n">#</th><th>{words["player"]}</th>'
        f'<th class="n">{words["rating"]}</th><th class="n">{words["rated matches"]}</th>'
        f'<th class="wide">{words["kind"]}</th></tr>',
    ]
    for r in rows:
        parts.append(
            f'<tr><td class="n">{r["rank"]}</td><td>{player_link(r["player"], r["name"])}</td>'
            f'<td class="n rating">{_rating_cell(r)}</td><td class="n">{r["matches"]}</td>'
            f'<td class="wide">{_e(_("bot") if r["kind"] == "bot" else _("person"))}</td></tr>'
        )
    if not rows:
        parts.append(f'<tr><td colspan="5" class="muted">{words["Nobody is rated here yet."]}</td></tr>')
    parts.append("</table>")
    links = []
    if offset > 0:
        back = max(0, offset - limit)
        links.append(f'<a href="/leaderboard/{family}?offset={back}&limit={limit}">{words["previous"]}</a>')
    if offset + limit < total:
        ahead = offset + limit
        links.append(f'<a href="/leaderboard/{family}?offset={ahead}&limit={limit}" id="next">{words["next"]}</a>')
    parts.append(f'<nav class="pages">{" ".join(links)}</nav></section>')
    return _page(_("bigtwo: leaderboard, {family}").format(family=_(FAMILY_NAMES[family])), "".join(parts))


def missing_page(what: str) -> str:
    title, heading = _("bigtwo: not found"), _("Not found")
    return _page(title, f"<section><h1>{_e(heading)}</h1><p>{escape(what)}</p></section>")
