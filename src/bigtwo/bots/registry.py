"""The bot registry behind ``bigtwo.bots.make``: names to factories, filled as the bot modules load.

Importing :mod:`bigtwo.bots` loads every built-in bot, so the registry is complete as soon as the package
is; a bot of one's own joins it with ``@register("name")``. The registry imports no bot (every bot module
imports it to register itself): bots named by a spec live in :mod:`bigtwo.bots.named`, the strength order
that picks a table's default opponent in :mod:`bigtwo.bots.strength`.
"""

from __future__ import annotations

import difflib
import inspect
import re
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
    if options:
        known = bot_options(factory)
        unknown = [key for key in options if key not in known] if known is not None else []
        if unknown:
            raise TypeError(unknown_option_message(name, unknown[0], known or []))
    return factory(seed=seed, **options)


def bot_options(factory: Callable[..., Any]) -> list[str] | None:
    """The options a bot factory takes by name, in its signature's order (the seed is the table's, not listed);
    None where it takes options it does not name (``**options``) or hides its signature."""
    try:
        params = inspect.signature(factory).parameters.values()
    except (TypeError, ValueError):
        return None
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params):
        return None
    named = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
    return [p.name for p in params if p.kind in named and p.name not in ("self", "seed")]


def unknown_option_message(name: str, key: str, known: list[str]) -> str:
    """An option a bot does not take, in words naming the ones it does (a player reads it, not a traceback)."""
    if key == "seed":
        return f"{name} takes no seed option: the table seeds every bot (--seed)"
    if not known:
        return f"{name} has no option {key!r}; it takes none"
    hint = difflib.get_close_matches(key, known, n=1)
    more = f" (did you mean {hint[0]!r}?)" if hint else ""
    return f"{name} has no option {key!r}{more}; its options: {', '.join(known)}"


def bot_names() -> list[str]:
    return sorted(BOTS)


def bot_words(name: str) -> str:
    """A registered bot in a player's words, one sentence: its own (``words``, the built-in bots'), else the
    first sentence of its docstring (a server's named bot says what it is set up from)."""
    factory = BOTS[name]
    own = getattr(factory, "words", "")
    if own:
        return str(own)
    doc = " ".join((factory.__doc__ or "").strip().split("\n\n")[0].split())
    first = re.split(r"(?<=[.;])\s", doc, maxsplit=1)[0].rstrip(";")
    return first.replace("``", "") or name


def cannot_play(name: str, rules: Any, players: int) -> str | None:
    """Why the bot ``name`` cannot sit at this table, in words (a learned bot without weights for it), or None.

    A bot class says so with a ``cannot_play(rules, players)`` class method; bots without one play anything."""
    factory = BOTS.get(name)
    if factory is None:
        return f"no bot named {name!r}; bots: {', '.join(sorted(BOTS))}"
    check = getattr(factory, "cannot_play", None)
    return check(rules, players) if callable(check) else None
