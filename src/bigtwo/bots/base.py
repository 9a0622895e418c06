"""The Bot protocol and the registry behind ``bigtwo.bots.make``."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, Protocol, runtime_checkable

from bigtwo.combos.play import Play
from bigtwo.game import legal_plays_from_observation
from bigtwo.rules.ruleset import Ruleset


@runtime_checkable
class Bot(Protocol):
    """A computer player: given the rules and one seat's observation, choose a legal action."""

    name: str

    def choose(self, rules: Ruleset, observation: dict[str, Any]) -> Play: ...


BOTS: dict[str, Callable[..., Bot]] = {}


def register(name: str) -> Callable[[Callable[..., Bot]], Callable[..., Bot]]:
    def deco(factory: Callable[..., Bot]) -> Callable[..., Bot]:
        BOTS[name] = factory
        return factory

    return deco


def make(name: str, seed: int | None = None, **options: Any) -> Bot:
    """A bot by name (``"random"``, ``"greedy"``, ...); ``seed`` makes its choices reproducible."""
    from bigtwo.bots import simple  # noqa: F401  (registers the built-in bots)

    try:
        factory = BOTS[name]
    except KeyError:
        raise ValueError(f"no bot named {name!r}; bots: {', '.join(sorted(BOTS))}") from None
    return factory(seed=seed, **options)


class BaseBot:
    """Shared plumbing: a seeded RNG and the legal actions computed from the observation alone."""

    name = "base"

    def __init__(self, seed: int | None = None):
        self.rng = random.Random(seed)

    def legal(self, rules: Ruleset, observation: dict[str, Any]) -> list[Play]:
        plays = legal_plays_from_observation(rules, observation)
        if not plays:
            raise ValueError(f"seat {observation['seat']} is not to move in this observation")
        return plays
