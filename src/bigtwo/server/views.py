"""What each client is sent: a seat's view from ``Match.observation(seat)``, a spectator's from public fields.

Nothing here reads the engine's hidden state directly. A seat's view is its own observation (the engine already
decides what a seat may know) plus the results of finished rounds and its legal answers, computed from that
observation alone. A spectator's view keeps only a whitelist of public fields of one seat's observation, with
the hand emptied and the cards of private exchanges removed.
"""

from __future__ import annotations

from typing import Any

from bigtwo.exchange import legal_exchange_choices
from bigtwo.legal import legal_plays_from_observation
from bigtwo.match import Match

# fields of an observation that every seat sees alike
PUBLIC_FIELDS = (
    "phase",
    "players",
    "rules",
    "round",
    "rounds",
    "points_target",
    "dealer",
    "roles",
    "totals",
    "hand_sizes",
    "dealt_sizes",
    "to_move",
    "trick",
    "passed",
    "finished",
    "history",
    "trick_start",
    "face_up",
    "swap_offer",
    "stock_size",
    "is_over",
    "result",
    "shootout",
    "standings",
    "places",
)


def rounds_done(match: Match) -> list[dict[str, Any]]:
    """The score table: each finished round's finishing order, cards left and payments (all public)."""
    out = []
    for rec in match.completed:
        assert rec.result is not None
        out.append(
            {
                "round": rec.index,
                "finishing_order": list(rec.result.finishing_order),
                "cards_left": list(rec.result.cards_left),
                "scores": list(rec.result.scores),
                "details": list(rec.result.details),
                "totals": list(rec.totals or []),
            }
        )
    return out


def match_view(match: Match, seat: int) -> dict[str, Any]:
    """The seat's own observation, plus what the table needs to show and offer it."""
    obs = match.observation(seat)
    obs["rounds_done"] = rounds_done(match)
    obs["waiting"] = waiting(match)
    obs["can_pass"] = False
    obs["answers"] = None
    if match.to_move == seat:
        if obs["phase"] == "play":
            obs["can_pass"] = any(p.is_pass for p in legal_plays_from_observation(match.rules, obs))
        elif obs.get("decision") and obs["decision"]["kind"] in ("ask", "demand", "surrender"):
            choices = legal_exchange_choices(match.rules, obs)
            obs["answers"] = [c if isinstance(c, str) else str(c) for c in choices if isinstance(c, str)]
    if match.is_over:
        obs["standings"] = match.standings()
        obs["places"] = list(match.places)
    return obs


def spectator_view(match: Match) -> dict[str, Any]:
    """Public information only: built from seat 0's observation (and seat 1's for the cards shown to all)."""
    first = match.observation(0)
    view: dict[str, Any] = {k: first[k] for k in PUBLIC_FIELDS if k in first}
    view["seat"] = None
    view["hand"] = []
    view["decision"] = None
    view["required_card"] = None
    view["must_answer"] = False
    view["can_pass"] = False
    view["answers"] = None
    # cards a rule shows to everyone: each seat's observation lists them for the other seats
    known: dict[str, list[str]] = {}
    for s, obs in ((0, first), (1, match.observation(1))):
        for holder, cards in obs.get("known_cards", {}).items():
            if int(holder) != s:
                known[holder] = cards
    view["known_cards"] = known
    view["exchanges"] = [
        e if e.get("shown") else {k: v for k, v in e.items() if k != "cards"}
        for e in first.get("exchanges", [])
        if e.get("type") == "give"
    ]
    view["rounds_done"] = rounds_done(match)
    view["waiting"] = waiting(match)
    if match.is_over:
        view["standings"] = match.standings()
        view["places"] = list(match.places)
    return view


def waiting(match: Match) -> dict[str, Any] | None:
    """Who the table waits for and for what kind of decision (public: everyone sees who is thinking)."""
    seat = match.to_move
    if seat is None:
        return None
    if match.phase == "exchange":
        d = match.observation(seat).get("decision") or {}
        return {"seat": seat, "kind": d.get("kind", "exchange"), "count": d.get("count")}
    return {"seat": seat, "kind": "play"}
