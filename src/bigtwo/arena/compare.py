"""Two bots compared on the deals both played: the gain of one over the other, deal by deal.

In duplicate play the luck of a deal weighs on every bot that plays it, so where two bots played the same deals
against the same opponents, the difference of their mean points on each deal is mostly free of it, and a t
interval over those differences is narrower than either bot's own interval. Deals are matched by their seed
(the cards dealt), not by their number in a file, so matches pooled from several deal sets pair up wherever
they share deals, in whatever order they were pooled.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from bigtwo.arena.provenance import changed_keys
from bigtwo.arena.results import ArenaResult
from bigtwo.arena.stats import Interval, mean_interval
from bigtwo.words import plural


@dataclass(frozen=True)
class Comparison:
    """``bot`` beside ``other``, each against ``opponents``, over the ``deals`` both played."""

    bot: str
    other: str
    opponents: list[str]
    deals: int
    bot_points: Interval  # over the shared deals
    other_points: Interval
    gain: Interval  # bot less other, deal by deal
    only_bot: int  # deals only the bot's results hold (left out)
    only_other: int
    notes: tuple[str, ...] = ()  # how the opponents' recorded settings differ between the two (they may play otherwise)

    def to_dict(self) -> dict[str, Any]:
        return dict(asdict(self), notes=list(self.notes))


def compared_entry(a: ArenaResult, b: ArenaResult, entry: int | None = None) -> int:
    """The lineup entry the two results differ in (the bot each measured), or ``entry`` where the lineups are
    the same (one bot measured twice, e.g. before and after a change); refused, in words, where they differ in
    more than one entry or in the number of seats."""
    mine, theirs = _lineup(a), _lineup(b)
    if len(mine) != len(theirs):
        raise ValueError(f"one match seats {plural(len(mine), 'bot')}, the other {plural(len(theirs), 'bot')}")
    if entry is not None and not 0 <= entry < len(mine):
        raise ValueError(f"entry {entry}: the lineup has entries 0 to {len(mine) - 1}")
    differ = [i for i, (x, y) in enumerate(zip(mine, theirs, strict=True)) if x != y]
    if len(differ) > 1:
        listed = ", ".join(f"{mine[i]} or {theirs[i]}" for i in differ)
        raise ValueError(f"the lineups differ in {len(differ)} seats ({listed}): a comparison measures one bot")
    if differ:
        if entry is not None and entry != differ[0]:
            raise ValueError(f"entry {entry} is {mine[entry]} in both lineups; they differ in entry {differ[0]}")
        return differ[0]
    return 0 if entry is None else entry


def compare(a: ArenaResult, b: ArenaResult, entry: int | None = None, confidence: float = 0.95) -> Comparison:
    """The bot ``a`` measured beside the one ``b`` measured, on the deals both played (see the module's text).
    Refused, in words, where they were not played alike: other rules, scoring, match length, deal mode or
    opponents, or no deal in common."""
    for key, what in (("rules", "rules"), ("utility", "points"), ("rounds", "match length")):
        if a.config.get(key) != b.config.get(key):
            first, second = _say(a, key), _say(b, key)
            if first == second:  # rules of one name with other settings
                second += " with other settings"
            raise ValueError(f"the two matches differ in their {what}: {first} beside {second}")
    if a.config.get("duplicate", True) != b.config.get("duplicate", True):
        raise ValueError("one match plays duplicate deals (every seat rotation), the other independent deals")
    at = compared_entry(a, b, entry)
    lineup = _lineup(a)
    opponents = [x for i, x in enumerate(lineup) if i != at]  # the same in both: the lineups differ at ``at`` only
    mine, theirs = a.points_by_deal(at, key="deal_seed"), b.points_by_deal(at, key="deal_seed")
    shared = sorted(set(mine) & set(theirs))
    if not shared:
        raise ValueError(
            f"no deal in common: the {plural(len(mine), 'deal')} of the first results and the "
            f"{plural(len(theirs), 'deal')} of the second were dealt from other seeds"
        )
    return Comparison(
        bot=lineup[at],
        other=_lineup(b)[at],
        opponents=opponents,
        deals=len(shared),
        bot_points=mean_interval([mine[d] for d in shared], confidence),
        other_points=mean_interval([theirs[d] for d in shared], confidence),
        gain=mean_interval([mine[d] - theirs[d] for d in shared], confidence),
        only_bot=len(mine) - len(shared),
        only_other=len(theirs) - len(shared),
        notes=tuple(_opponent_differences(a, b, at)),
    )


def _opponent_differences(a: ArenaResult, b: ArenaResult, at: int) -> list[str]:
    """How the two matches' records of the opponents differ where it may change their play: the package
    version, and each opponent entry's settings and weights files (a shipped model may differ freely: it is
    often what the comparison measures)."""
    mine, theirs = a.config.get("provenance") or {}, b.config.get("provenance") or {}
    if not mine or not theirs:
        return ["a match was saved without a record of its bots' settings"]
    out = []
    if mine.get("version") != theirs.get("version"):
        out.append(f"package versions {mine.get('version')} and {theirs.get('version')}")
    for i, (x, y) in enumerate(zip(mine.get("bots") or [], theirs.get("bots") or [], strict=False)):
        if i == at:
            continue
        for part in ("settings", "files"):
            for key, was, now in changed_keys(x.get(part) or {}, y.get(part) or {}):
                out.append(f"opponent {x.get('name')} (entry {i}) {key}: {was!r} beside {now!r}")
    return out


def _lineup(result: ArenaResult) -> list[str]:
    return [s["label"] for s in result.config["lineup"]]


def _say(result: ArenaResult, key: str) -> str:
    value = result.config.get(key)
    if key == "rules" and isinstance(value, dict):
        return str(value.get("name", "?"))
    if key == "rounds":
        return plural(value or 1, "round")
    return repr(value)


__all__ = ["Comparison", "compare", "compared_entry"]
