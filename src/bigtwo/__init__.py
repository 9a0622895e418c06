"""bigtwo: Big Two and its family of climbing card games, one engine driven by a Ruleset."""

from bigtwo.cards import Card, CardSet, card, parse_cards
from bigtwo.combos.play import PASS, Combo, Play
from bigtwo.errors import BigTwoError, CardParseError, IllegalPlay, RulesError
from bigtwo.game import Game
from bigtwo.match import Match
from bigtwo.rules.ruleset import Ruleset, list_presets, load_rules, rules_from_toml
from bigtwo.scoring import RoundResult

Play.PASS = PASS  # type: ignore[attr-defined]

__all__ = [
    "PASS",
    "BigTwoError",
    "Card",
    "CardParseError",
    "CardSet",
    "Combo",
    "Game",
    "IllegalPlay",
    "Match",
    "Play",
    "RoundResult",
    "RulesError",
    "Ruleset",
    "card",
    "list_presets",
    "load_rules",
    "parse_cards",
    "rules_from_toml",
]
__version__ = "0.1.0"
