"""Bots under names of their own: a registered bot with options, a ``module:Class`` or a network's weights
file, named (``mynet`` for ``learned(weights='nets/mynet.npz')``) so that a server's operator seats it like a
built-in bot. They join the registry (:mod:`bigtwo.bots.registry`) by :func:`register_spec`.
"""

from __future__ import annotations

import contextlib
import inspect
import os
import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from bigtwo.bots.learned import load_weights, trained_elsewhere
from bigtwo.bots.policy import resolve_class
from bigtwo.bots.registry import BOTS, cannot_play
from bigtwo.bots.spec import BotSpec, is_class_target
from bigtwo.errors import BigTwoError

if TYPE_CHECKING:
    from bigtwo.bots.base import Bot

NAMED_BOT = re.compile(r"^[a-z][a-z0-9-]{0,23}$")  # a short lower-case word: a table lists it, a rating keys it


def factory_of(name: str) -> Callable[..., Bot] | None:
    """What makes the bot a spec names: a registered bot's factory, or the class a ``module:Class`` target
    names (imported now); None for a name that is neither."""

    return resolve_class(name) if is_class_target(name) else BOTS.get(name)


class NamedBot:
    """A bot with options under a name of its own (``mynet`` for ``learned(weights='nets/mynet.npz')``): made,
    listed and refused at a table like a built-in bot, so a server's operator can seat a trained network or a
    tuned search by name. Options given when it is made (a table's thinking budget) go over the spec's."""

    def __init__(self, name: str, spec: Any):
        self.name = name
        self.spec = spec
        self.base = spec.name
        base = factory_of(spec.name)
        if base is None:
            raise ValueError(f"no bot named {spec.name!r}; bots: {', '.join(sorted(BOTS))}")
        self.__doc__ = f"the {spec.name} bot as this server sets it up"
        try:  # the base bot's options, with the spec's values as their defaults (what a caller inspects)
            sig = inspect.signature(base)
            self.__signature__ = sig.replace(
                parameters=[
                    p.replace(default=spec.options[p.name]) if p.name in spec.options else p
                    for p in sig.parameters.values()
                ]
            )
        except (TypeError, ValueError):
            pass

    def __call__(self, seed: int | None = None, **options: Any) -> Bot:
        bot = BotSpec(self.base, {**self.spec.options, **options}, self.name).build(seed)
        with contextlib.suppress(AttributeError):  # a read-only name: tables label it by its seat's name anyway
            bot.name = self.name
        return bot

    def cannot_play(self, rules: Any, players: int) -> str | None:
        """Why it cannot sit at this table, in words without the server's file names: the base bot's reason, or
        a network trained for another table."""
        weights = self.spec.options.get("weights")
        if not (
            isinstance(weights, str) and weights.lower().endswith(".npz")
        ):  # no network of its own (or heuristic weights)
            return cannot_play(self.base, rules, players) if self.base in BOTS else None
        try:
            meta = load_weights(weights).meta
        except (BigTwoError, OSError, ValueError, KeyError):
            return f"{self.name} cannot load its network"
        why = trained_elsewhere(meta, rules, players)
        return None if why is None else f"{self.name} cannot play here: its network was {why}"


def named_bot(name: str, text: str) -> NamedBot:
    """The bot spec ``text`` (a registered bot with options, ``module:Class``, or a network's weights file,
    ``.npz``, played by ``learned``) as the bot ``name``, not yet registered; refused in words when the name is
    not a short lower-case word, hides a built-in bot, or the spec does not make a bot (checked by making one)."""
    if not NAMED_BOT.match(name):
        raise ValueError(f"bot name {name!r}: a lower-case letter, then up to 23 letters, digits or hyphens")
    existing = BOTS.get(name)
    if existing is not None and not isinstance(existing, NamedBot):
        raise ValueError(f"bot name {name!r} is a built-in bot's; give this one another name")
    text = text.strip()
    # a network's file is read by its absolute path, from any working directory
    spec = BotSpec.parse(os.path.abspath(text) if text.lower().endswith(".npz") else text)
    if isinstance(BOTS.get(spec.name), NamedBot):
        raise ValueError(f"bot {name!r}: {spec.name!r} is itself a named bot; name a built-in bot or a class")
    try:
        factory = NamedBot(name, spec)
        factory(seed=0)
    except (BigTwoError, ValueError, TypeError, OSError, KeyError) as e:
        # (a KeyError's own words are its key, quoted: say what was missing)
        reason = f"missing {e.args[0]!r}" if isinstance(e, KeyError) and e.args else str(e)
        raise ValueError(f"bot {name!r} ({text}): {reason}") from None
    return factory


def register_spec(name: str, text: str) -> NamedBot:
    """Register the bot spec ``text`` as the bot ``name`` (see :func:`named_bot`), replacing a named bot of
    that name."""
    factory = named_bot(name, text)
    BOTS[name] = factory
    return factory


def unregister(name: str) -> None:
    """Forget a bot registered with :func:`register_spec` (a built-in bot stays)."""
    if isinstance(BOTS.get(name), NamedBot):
        del BOTS[name]
