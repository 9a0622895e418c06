"""The heuristic's shipped weights: fitted to a search's choices and tuned for points (their pipelines are the lab's,
``bigtwo.lab.fitting`` and ``bigtwo.lab.tuning``, which the product does not import).

``bigtwo/bots/weights/heuristic-<preset>-<players>p.json`` holds, for one table, the fitted
:class:`~bigtwo.bots.heuristic.HeuristicWeights`, the temperature and uniform share of the softmax over their
scores that predicts the choices best, and how the file was made; ``heuristic(weights='fitted')`` plays by it.
``bigtwo/bots/weights/heuristic-tuned-<preset>-<players>p.json`` holds weights tuned for points against the
heuristic's own (``heuristic(weights='tuned')``). Both are opponents in the training recipes of shipped networks,
so they stay; as the search's model of play they gained nothing (docs/lab/2026-12-07-search-options-retired.md).
A table with no file (another preset, player count, or changed rules) has none: the caller keeps the
heuristic's own weights. A preset's file serves its settings under any name, and the same game with the suits
renamed (Taiwan's for classic's).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache, lru_cache
from importlib import resources
from typing import Any

from bigtwo.bots.heuristic_weights import DEFAULT_WEIGHTS, HeuristicWeights
from bigtwo.errors import BigTwoError
from bigtwo.rules.ruleset import Ruleset

FORMAT = "bigtwo-heuristic-fit-1"
TUNED_FORMAT = "bigtwo-heuristic-tune-1"


@dataclass(frozen=True)
class FittedModel:
    """Weights for the heuristic and the softmax over its scores that best predicts a bot's choices."""

    weights: HeuristicWeights
    temperature: float
    uniform: float
    meta: dict[str, Any]

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> FittedModel:
        if data.get("format") != FORMAT:
            raise BigTwoError(f"heuristic fit: format {data.get('format')!r}, expected {FORMAT}")
        return cls(
            HeuristicWeights.from_dict(data["weights"]),
            float(data["temperature"]),
            float(data["uniform"]),
            {k: v for k, v in data.items() if k not in ("weights", "temperature", "uniform")},
        )


def file_name(preset: str, players: int, kind: str = "") -> str:
    return f"heuristic-{kind + '-' if kind else ''}{preset}-{players}p.json"


@cache
def _shipped(name: str) -> dict[str, Any] | None:
    entry = resources.files("bigtwo.bots") / "weights" / name
    if not entry.is_file():
        return None
    return json.loads(entry.read_text(encoding="utf-8"))


@lru_cache(maxsize=64)
def _for_table(rules: Ruleset, players: int, kind: str = "") -> str | None:
    """The shipped file of ``kind`` for this table, or None: a preset's at this size whose settings these are
    (under any name), or whose game these rules are with the suits renamed (Taiwan's is classic's: the weights
    score plays by what they are and keep, never by their suits). Cached by the rules' value: a heuristic
    with these weights asks at every decision."""
    for preset in rules.game_presets():
        name = file_name(preset, players, kind)
        if _shipped(name) is not None:
            return name
    return None


@cache
def _fit_of(name: str) -> FittedModel:
    data = _shipped(name)
    assert data is not None
    return FittedModel.from_json(data)


def fitted_model(rules: Ruleset, players: int) -> FittedModel | None:
    """The shipped fit for this table (a preset's game at this size: :func:`_for_table`), or None."""
    name = _for_table(rules, players)
    return None if name is None else _fit_of(name)


@cache
def _tuned_of(name: str) -> HeuristicWeights:
    data = _shipped(name)
    assert data is not None
    if data.get("format") != TUNED_FORMAT:
        raise BigTwoError(f"heuristic tuning: format {data.get('format')!r}, expected {TUNED_FORMAT}")
    return HeuristicWeights.from_dict(data["weights"])


def tuned_weights(rules: Ruleset, players: int) -> HeuristicWeights | None:
    """The shipped weights tuned for points at this table (a preset's game at this size), or None."""
    name = _for_table(rules, players, "tuned")
    return None if name is None else _tuned_of(name)


def weights_for(kind: str, rules: Ruleset, players: int) -> HeuristicWeights:
    """The heuristic's weights of ``kind`` (``default``, ``fitted`` or ``tuned``) for this table: the shipped
    ones where the package has them, else the heuristic's own."""
    got = None
    if kind == "fitted":
        fit = fitted_model(rules, players)
        got = fit.weights if fit is not None else None
    elif kind == "tuned":
        got = tuned_weights(rules, players)
    return got if got is not None else DEFAULT_WEIGHTS


__all__ = ["FORMAT", "TUNED_FORMAT", "FittedModel", "file_name", "fitted_model", "tuned_weights", "weights_for"]
