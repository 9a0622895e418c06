"""bigtwo: Big Two and its family of climbing card games, one engine driven by a Ruleset."""

import importlib
from typing import Any

from bigtwo.actions import Action, Answer, Decision
from bigtwo.cards import Card, CardSet, card, parse_cards
from bigtwo.combos.play import PASS, Combo, Play
from bigtwo.errors import BigTwoError, CardParseError, IllegalPlay, RulesError
from bigtwo.game import Game
from bigtwo.match import Match, MatchResult
from bigtwo.observation import Observation
from bigtwo.rules.ruleset import Ruleset, list_presets, load_rules, rules_from_toml
from bigtwo.scoring import RoundResult
from bigtwo.state import State, legal_actions

Play.PASS = PASS  # type: ignore[attr-defined]

# the layers above the engine load on first use: ``bigtwo.bots.make("heuristic")`` after ``import bigtwo``
_SUBPACKAGES = ("arena", "bots", "cli", "envs", "record", "server")


def __getattr__(name: str) -> Any:
    if name in _SUBPACKAGES:
        return importlib.import_module(f"bigtwo.{name}")
    raise AttributeError(f"module 'bigtwo' has no attribute {name!r}")


__all__ = [
    "PASS",
    "Action",
    "Answer",
    "BigTwoError",
    "Card",
    "CardParseError",
    "CardSet",
    "Combo",
    "Decision",
    "Game",
    "IllegalPlay",
    "Match",
    "MatchResult",
    "Observation",
    "Play",
    "RoundResult",
    "RulesError",
    "Ruleset",
    "State",
    "card",
    "legal_actions",
    "list_presets",
    "load_rules",
    "parse_cards",
    "rules_from_toml",
]
__version__ = "0.2.0"
