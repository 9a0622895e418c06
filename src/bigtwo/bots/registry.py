"""The bot registry behind ``bigtwo.bots.make``: names to factories, filled as the bot modules load.

Importing :mod:`bigtwo.bots` loads every built-in bot, so the registry is complete as soon as the package
is; a bot of one's own joins it with ``@register("name")``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bigtwo.bots.base import Bot

BOTS: dict[str, Callable[..., Bot]] = {}


def register(name: str) -> Callable[[Callable[..., Bot]], Callable[..., Bot]]:
    """Class decorator: make the bot available as ``make(name)``."""

    def deco(factory: Callable[..., Bot]) -> Callable[..., Bot]:
        BOTS[name] = factory
        return factory

    return deco


def make(name: str, seed: int | None = None, **options: Any) -> Bot:
    """A bot by name (``"random"``, ``"greedy"``, ``"heuristic"``, ``"search"``, ...); ``seed`` makes it
    reproducible.

    An unknown name raises ValueError; an option the bot does not take raises TypeError (as any call would),
    a bad value for one it takes raises ValueError.
    """
    try:
        factory = BOTS[name]
    except KeyError:
        raise ValueError(f"no bot named {name!r}; bots: {', '.join(sorted(BOTS))}") from None
    return factory(seed=seed, **options)


def bot_names() -> list[str]:
    return sorted(BOTS)


def cannot_play(name: str, rules: Any, players: int) -> str | None:
    """Why the bot ``name`` cannot sit at this table, in words (a learned bot without weights for it), or None.

    A bot class says so with a ``cannot_play(rules, players)`` class method; bots without one play anything."""
    factory = BOTS.get(name)
    if factory is None:
        return f"no bot named {name!r}; bots: {', '.join(sorted(BOTS))}"
    check = getattr(factory, "cannot_play", None)
    return check(rules, players) if callable(check) else None
