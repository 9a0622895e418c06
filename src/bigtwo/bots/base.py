"""The Bot protocol and the registry behind ``bigtwo.bots.make``.

A bot is given the ruleset and one seat's observation, nothing else, and answers with a legal :class:`Play`
(a pass included) or, when the observation asks for an exchange (``obs["phase"] == "exchange"``), with the
:class:`CardSet` it gives away.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, Protocol, runtime_checkable

from bigtwo.bots.view import tokens_mask
from bigtwo.cards import CardSet, bits, to_mask
from bigtwo.combos.play import Play
from bigtwo.game import legal_actions
from bigtwo.moves import HandIndex
from bigtwo.rules.ruleset import Ruleset


@runtime_checkable
class Bot(Protocol):
    """A computer player: given the rules and one seat's observation, choose a legal action."""

    name: str

    def choose(self, rules: Ruleset, observation: dict[str, Any]) -> Play | CardSet: ...


BOTS: dict[str, Callable[..., Bot]] = {}


def register(name: str) -> Callable[[Callable[..., Bot]], Callable[..., Bot]]:
    def deco(factory: Callable[..., Bot]) -> Callable[..., Bot]:
        BOTS[name] = factory
        return factory

    return deco


def _load_builtins() -> None:
    from bigtwo.bots import heuristic, search, simple  # noqa: F401  (registers the built-in bots)


def make(name: str, seed: int | None = None, **options: Any) -> Bot:
    """A bot by name (``"random"``, ``"greedy"``, ``"heuristic"``, ``"search"``); ``seed`` makes it reproducible."""
    _load_builtins()
    try:
        factory = BOTS[name]
    except KeyError:
        raise ValueError(f"no bot named {name!r}; bots: {', '.join(sorted(BOTS))}") from None
    try:
        return factory(seed=seed, **options)
    except TypeError as e:
        raise ValueError(f"bot {name!r}: {e}") from None


def bot_names() -> list[str]:
    _load_builtins()
    return sorted(BOTS)


class BaseBot:
    """Shared plumbing: a seeded RNG, legal actions from the observation alone, and the exchange dispatch.

    Subclasses implement :meth:`choose_play`; :meth:`choose_exchange` has a default that obeys the
    decision's ``must`` and otherwise gives away the cards :meth:`exchange_order` ranks least useful.
    """

    name = "base"

    def __init__(self, seed: int | None = None):
        self.seed = seed
        self.rng = random.Random(seed)
        self._index: HandIndex | None = None

    def choose(self, rules: Ruleset, observation: dict[str, Any]) -> Play | CardSet:
        if observation.get("phase") == "exchange":
            return self.choose_exchange(rules, observation)
        return self.choose_play(rules, observation)

    def choose_play(self, rules: Ruleset, observation: dict[str, Any]) -> Play:
        raise NotImplementedError

    def legal(self, rules: Ruleset, observation: dict[str, Any]) -> list[Play]:
        """The legal actions, as ``legal_plays_from_observation`` gives them, from this seat's hand index:
        hands only shrink during a round, so the last decision's index is filtered rather than rebuilt."""
        obs = observation
        if obs.get("is_over") or obs.get("to_move") != obs["seat"]:
            raise ValueError(f"seat {obs['seat']} is not to move in this observation")
        ev = rules.engine
        hand = tokens_mask(obs["hand"])
        idx = self._index
        if idx is None or idx.ev is not ev or hand & ~idx.hand:
            idx = HandIndex.build(ev, hand)
        elif idx.hand != hand:
            idx = idx.without(idx.hand & ~hand)
        self._index = idx
        trick = obs.get("trick")
        top = ev.classify(tokens_mask(trick["cards"])) if trick else None
        required = to_mask(obs["required_card"]) & hand if obs.get("required_card") else 0
        return legal_actions(ev, idx, top, required, rules.last_play_forbidden)

    # --- exchanges between rounds ----------------------------------------------------------------------
    def choose_exchange(self, rules: Ruleset, observation: dict[str, Any]) -> CardSet:
        """The cards to give: the lowest or highest ``count`` when the rules demand it, else this bot's choice."""
        decision = observation.get("decision") or {}
        kind = decision.get("kind", "give")
        if kind != "give":
            raise ValueError(f"exchange decision kind {kind!r} is not supported (only 'give')")
        hand = to_mask(observation["hand"])
        k = int(decision.get("count", 0))
        if not 0 <= k <= hand.bit_count():
            raise ValueError(f"cannot give {k} cards from a hand of {hand.bit_count()}")
        must = decision.get("must", "any")
        power = rules.engine.power
        by_power = sorted(bits(hand), key=lambda c: (power[c], c))
        if must == "lowest":
            chosen = by_power[:k]
        elif must == "highest":
            chosen = by_power[len(by_power) - k :]
        elif must == "any":
            chosen = self.exchange_order(rules, observation, hand)[:k]
        else:
            raise ValueError(f"exchange 'must' {must!r} is not one of 'any', 'highest', 'lowest'")
        return CardSet.from_mask(to_mask(list(chosen)))

    def exchange_order(self, rules: Ruleset, observation: dict[str, Any], hand: int) -> list[int]:
        """The hand's cards, the one this bot would most readily give away first (default: lowest first)."""
        power = rules.engine.power
        return sorted(bits(hand), key=lambda c: (power[c], c))
