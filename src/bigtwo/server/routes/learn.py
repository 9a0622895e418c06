"""Learning to play: the guided first round (:mod:`bigtwo.lesson`, the steps the browser's ``/learn`` page walks,
and the check of each answer), and any rule set explained (:mod:`bigtwo.rules.explain`: a preset's, or a table's
own rules with its house rules), for the rules page reachable from the lobby and from a table."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from pydantic import BaseModel, ConfigDict, Field

from bigtwo.errors import BigTwoError
from bigtwo.i18n import _
from bigtwo.lesson import check, lesson
from bigtwo.rules.explain import explain, straight_order
from bigtwo.rules.ruleset import Ruleset, list_presets, load_rules
from bigtwo.server.context import Context
from bigtwo.server.middleware import StrictJSONRoute
from bigtwo.server.referee import Rejected
from bigtwo.server.routes.common import ERRORS, RoomId

router = APIRouter(route_class=StrictJSONRoute)


class LessonAnswer(BaseModel):
    """An answer to one of your steps of the lesson: cards as the tables read them, or ``pass``."""

    model_config = ConfigDict(extra="forbid")
    step: int = Field(ge=0, le=200)
    answer: str = Field(max_length=80)


class LessonVerdict(BaseModel):
    ok: bool
    message: str | None = None


@router.get("/api/learn", tags=["learn"])
async def learn() -> dict[str, Any]:
    """The guided first round: the seats, and every step (the table before it, what happens, why)."""
    return lesson().as_dict()


@router.post("/api/learn/check", response_model=LessonVerdict, responses=ERRORS, tags=["learn"])
async def learn_check(body: LessonAnswer) -> LessonVerdict:
    """Is this the move the lesson asks for at this step? If not, what to say (the rules' reason, or the move
    the lesson teaches here)."""
    try:
        said = check(body.step, body.answer)
    except BigTwoError as e:
        raise Rejected(str(e), 422) from None
    return LessonVerdict(ok=said is None, message=said)


def explained(rules: Ruleset, players: int, title: str) -> dict[str, Any]:
    return {
        "name": title,
        "description": rules.shown_description(),
        "players": players,
        "points": [p.as_dict() for p in explain(rules, players)],
        "straights": straight_order(rules),
    }


@router.get("/api/rules/{name}", responses=ERRORS, tags=["rules"])
async def rules_explained(name: str) -> dict[str, Any]:
    """A preset explained: what beats what (with example plays), leading, passing, scoring."""
    if name not in list_presets():
        raise Rejected(_("No rules named {name}: the lobby lists the presets.").format(name=repr(name[:40])), 404)
    rules = load_rules(name)
    return explained(rules, rules.players, name)


@router.get("/api/rooms/{room_id}/rules", responses=ERRORS, tags=["rules"])
async def table_rules(room_id: RoomId, ctx: Context) -> dict[str, Any]:
    """A table's own rules explained (its preset with its house rules, at its number of players)."""
    room = await ctx.rooms.get(room_id)
    return explained(room.rules, room.players, room.name)
