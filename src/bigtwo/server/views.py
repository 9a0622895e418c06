"""What each client is sent: a seat's view from ``Match.observe(seat)``, a spectator's from ``observe(None)``.

Nothing here reads the engine's hidden state. A seat's view is its own observation (the engine decides what a
seat may know) plus the results of finished rounds and its legal answers, computed from that observation
alone. A spectator's view is the engine's spectator observation: the fields the observation marks public, every
private one at its hidden default, so a field added to the observation is hidden until it is marked public.
"""

from __future__ import annotations

from typing import Any

from bigtwo.exchange import legal_exchange_choices
from bigtwo.legal import legal_plays_from_observation
from bigtwo.match import Match

# decisions whose answers are words the table lists (cards are picked from the hand instead)
WORD_ANSWERS = ("ask", "demand", "surrender", "redeal", "swap")


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
    obs = match.observe(seat)
    view = _extras(match, obs.to_json())
    d = obs.decision
    if match.to_move == seat:
        if d is None and obs.phase == "play":
            view["can_pass"] = any(p.is_pass for p in legal_plays_from_observation(match.rules, obs))
        elif d is not None and d.at_deal:
            view["answers"] = list(d.options)
        elif d is not None and d.kind in WORD_ANSWERS:
            view["answers"] = [c for c in legal_exchange_choices(match.rules, obs) if isinstance(c, str)]
    return view


def spectator_view(match: Match) -> dict[str, Any]:
    """Public information only: the engine's observation for nobody's seat."""
    return _extras(match, match.observe(None).to_json())


def _extras(match: Match, view: dict[str, Any]) -> dict[str, Any]:
    view["rounds_done"] = rounds_done(match)
    view["waiting"] = waiting(match)
    view["can_pass"] = False
    view["answers"] = None
    return view


def waiting(match: Match) -> dict[str, Any] | None:
    """Who the table waits for and for what kind of decision (public: everyone sees who is thinking)."""
    seat = match.to_move
    if seat is None:
        return None
    d = match.pending
    if d is not None:
        return {"seat": seat, "kind": d.kind, "count": d.count}
    return {"seat": seat, "kind": "play"}
