"""The shipped model of a search's play: heuristic weights fitted to its choices (:mod:`bigtwo.bots.fitting`).

``bigtwo/bots/weights/heuristic-<preset>-<players>p.json`` holds, for one table, the fitted
:class:`~bigtwo.bots.heuristic.HeuristicWeights`, the temperature and uniform share of the softmax over their
scores that predicts the choices best, and how the file was made. ``isearch(model='fitted')`` plays its
play-outs, ranks its candidates and weighs its beliefs with it; ``heuristic(weights='fitted')`` plays by it.
A table it was not fitted on (another preset, player count, or changed rules) has none: the caller keeps the
heuristic's own weights.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from bigtwo.bots.heuristic import HeuristicWeights
from bigtwo.errors import BigTwoError
from bigtwo.rules.ruleset import Ruleset, load_rules

FORMAT = "bigtwo-heuristic-fit-1"


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


def file_name(preset: str, players: int) -> str:
    return f"heuristic-{preset}-{players}p.json"


@cache
def _shipped(name: str) -> FittedModel | None:
    entry = resources.files("bigtwo.bots") / "weights" / name
    if not entry.is_file():
        return None
    return FittedModel.from_json(json.loads(entry.read_text(encoding="utf-8")))


def fitted_model(rules: Ruleset, players: int) -> FittedModel | None:
    """The shipped fit for this table (one of the presets, unchanged, at this size), or None."""
    got = _shipped(file_name(rules.name, players))
    if got is None:
        return None
    try:
        preset = load_rules(rules.name)
    except BigTwoError:
        return None
    return got if preset == rules else None


__all__ = ["FORMAT", "FittedModel", "file_name", "fitted_model"]
