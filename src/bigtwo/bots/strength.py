"""The strength order: which bot a table gets as its default opponent, the strongest that answers within the
table's delay. The order and the measurements behind it are data (``strength.toml`` beside this module), read
once; this module chooses from them.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from importlib import resources
from typing import Any

import bigtwo.bots  # noqa: F401  (the built-in bots register themselves on import)
from bigtwo.bots.registry import BOTS, cannot_play
from bigtwo.rules.ruleset import list_presets, load_rules


@dataclass(frozen=True)
class Standing:
    """A bot's place in the strength order: how long it needs a move, and whether it thinks to a time limit."""

    name: str
    seconds: float  # a quick bot's typical time a move; a thinking bot's least time limit measured at this place
    thinks: bool = False  # takes ``budget_ms``: it is given the whole of the table's delay (up to a cap)
    evidence: str = ""  # the measurement that puts it here (strength.toml)


def _read() -> tuple[tuple[Standing, ...], dict[tuple[str, int], tuple[Standing, ...]]]:
    """The default order and the tables measured on their own, from ``strength.toml``."""
    data = tomllib.loads(resources.files("bigtwo.bots").joinpath("strength.toml").read_text(encoding="utf-8"))
    order = tuple(
        Standing(s["name"], float(s["seconds"]), bool(s.get("thinks", False)), s.get("evidence", ""))
        for s in data["standing"]
    )
    by_name = {s.name: s for s in order}
    tables: dict[tuple[str, int], tuple[Standing, ...]] = {}
    for t in data.get("table", ()):
        listed = [
            Standing(s["name"], by_name[s["name"]].seconds, by_name[s["name"]].thinks, s["evidence"])
            for s in t["standing"]
        ]
        named = {s.name for s in listed}
        tables[(t["rules"], int(t["players"]))] = (*listed, *(s for s in order if s.name not in named))
    return order, tables


# Strongest first: classic's four-player order, which every table not measured on its own follows
STRENGTH, TABLE_STRENGTH = _read()
ISEARCH, SEARCH, LEARNED = (next(s for s in STRENGTH if s.name == n) for n in ("isearch", "search", "learned"))
QUICK = tuple(s for s in STRENGTH if not s.thinks and s.name != "learned")


def strength_order(rules: Any, players: int) -> tuple[Standing, ...]:
    """The strength order at this table: its own where it was measured to differ, else classic's. A table is
    known by its rules' settings (a renamed preset is the preset), else by its name, else as a measured table
    with its suits renamed (Taiwan's rules are classic's so: the same game)."""
    for name in (*rules.settings_presets(), rules.name):
        order = TABLE_STRENGTH.get((name, players))
        if order is not None:
            return order
    presets = set(list_presets())
    for (name, size), order in TABLE_STRENGTH.items():
        if size == players and name in presets and rules.suit_relabeling(load_rules(name)) is not None:
            return order
    return STRENGTH


UNNOTICED_SECONDS = 0.01  # a wait no one notices: a table with no delay still gets a bot at least this quick


def strongest_bot(
    rules: Any, players: int, seconds: float, max_budget_ms: float | None = None
) -> tuple[str, dict[str, Any]]:
    """The strongest bot that answers within ``seconds`` (the table's delay) at this table: its name and options.

    The first place of the table's order (:func:`strength_order`) whose time a move fits
    ``max(seconds, UNNOTICED_SECONDS)`` (and, for a bot that thinks, whose least time limit fits ``max_budget_ms``
    too) and that can play the rules and player count. A thinking bot gets ``budget_ms``: the whole delay, or
    ``max_budget_ms`` if that is less, so that it answers within the delay however long the position would take
    it to search."""
    fits = max(seconds, UNNOTICED_SECONDS)
    for s in strength_order(rules, players):
        if s.name not in BOTS or s.seconds > fits:
            continue
        options: dict[str, Any] = {}
        if s.thinks:
            budget = 1000 * seconds if max_budget_ms is None else min(1000 * seconds, max_budget_ms)
            if budget < 1000 * s.seconds:
                continue
            options["budget_ms"] = round(budget)
        if cannot_play(s.name, rules, players) is None:
            return s.name, options
    return "random", {}
