"""Reference opponents: uniform random, and greedy (lowest legal play, pass only when forced).

Both answer decisions too: random uniformly among the legal answers (a new deal or a swap included), greedy
with the lowest cards it may give (and, stealing, the highest card it may take), keeping every deal.
"""

from __future__ import annotations

from bigtwo.actions import Answer
from bigtwo.bots.base import BaseBot
from bigtwo.bots.registry import register
from bigtwo.cards import CardSet
from bigtwo.combos.play import Play
from bigtwo.exchange import default_exchange_choice, random_exchange_choice
from bigtwo.observation import Observation
from bigtwo.rules.ruleset import Ruleset


@register("random")
class RandomBot(BaseBot):
    """Uniform over the legal actions (pass included when it is legal) and over the legal exchange answers."""

    name = "random"
    words = "Plays any legal move at random."

    def choose_play(self, rules: Ruleset, observation: Observation) -> Play:
        return self.rng.choice(self.legal(rules, observation))

    def choose_exchange(self, rules: Ruleset, observation: Observation) -> CardSet | str:
        return random_exchange_choice(rules, observation, self.rng)

    def choose_deal(self, rules: Ruleset, observation: Observation) -> Answer:
        d = observation.decision
        assert d is not None
        return Answer(d.kind, self.rng.choice(d.options))

    def choose_procedure(self, rules: Ruleset, observation: Observation) -> Answer:
        """Uniform among the legal answers (offers drawn without listing them all)."""
        d = observation.decision
        assert d is not None
        if d.answered_by_options:
            return Answer(d.kind, self.rng.choice(d.options))
        return d.read(random_exchange_choice(rules, observation, self.rng))


@register("greedy")
class GreedyBot(BaseBot):
    """The lowest legal play (a single before a pair on a lead); passes only when nothing else is legal."""

    name = "greedy"
    words = "Plays the lowest cards that fit, and passes only when it has to."

    def choose_play(self, rules: Ruleset, observation: Observation) -> Play:
        return self.legal(rules, observation)[0]

    def choose_exchange(self, rules: Ruleset, observation: Observation) -> CardSet | str:
        return default_exchange_choice(rules, observation)
