"""Reference opponents: uniform random, and greedy (lowest legal play, pass only when forced)."""

from __future__ import annotations

from typing import Any

from bigtwo.bots.base import BaseBot, register
from bigtwo.cards import bits
from bigtwo.combos.play import Play
from bigtwo.rules.ruleset import Ruleset


@register("random")
class RandomBot(BaseBot):
    """Uniform over the legal actions (pass included when it is legal); gives away random cards."""

    name = "random"

    def choose_play(self, rules: Ruleset, observation: dict[str, Any]) -> Play:
        return self.rng.choice(self.legal(rules, observation))

    def exchange_order(self, rules: Ruleset, observation: dict[str, Any], hand: int) -> list[int]:
        cards = bits(hand)
        self.rng.shuffle(cards)
        return cards


@register("greedy")
class GreedyBot(BaseBot):
    """The lowest legal play (a single before a pair on a lead); passes only when nothing else is legal."""

    name = "greedy"

    def choose_play(self, rules: Ruleset, observation: dict[str, Any]) -> Play:
        return self.legal(rules, observation)[0]
