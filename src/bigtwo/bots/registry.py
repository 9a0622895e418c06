"""The bot registry behind ``bigtwo.bots.make``: names to factories, filled as the bot modules load.

Importing :mod:`bigtwo.bots` loads every built-in bot, so the registry is complete as soon as the package
is; a bot of one's own joins it with ``@register("name")``.
"""

from __future__ import annotations

import contextlib
import os
import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from bigtwo.rules.ruleset import list_presets, load_rules

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
    import inspect

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
    import difflib

    hint = difflib.get_close_matches(key, known, n=1)
    more = f" (did you mean {hint[0]!r}?)" if hint else ""
    return f"{name} has no option {key!r}{more}; its options: {', '.join(known)}"


def bot_names() -> list[str]:
    return sorted(BOTS)


def factory_of(name: str) -> Callable[..., Bot] | None:
    """What makes the bot a spec names: a registered bot's factory, or the class a ``module:Class`` target
    names (imported now); None for a name that is neither."""
    from bigtwo.bots.policy import resolve_class
    from bigtwo.bots.spec import is_class_target

    return resolve_class(name) if is_class_target(name) else BOTS.get(name)


NAMED_BOT = re.compile(r"^[a-z][a-z0-9-]{0,23}$")  # a short lower-case word: a table lists it, a rating keys it


class NamedBot:
    """A bot with options under a name of its own (``mynet`` for ``learned(weights='nets/mynet.npz')``): made,
    listed and refused at a table like a built-in bot, so a server's operator can seat a trained network or a
    tuned search by name. Options given when it is made (a table's thinking budget) go over the spec's."""

    def __init__(self, name: str, spec: Any):
        import inspect

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
        from bigtwo.bots.spec import BotSpec

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
        from bigtwo.bots.learned import load_weights, trained_elsewhere
        from bigtwo.errors import BigTwoError

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
    from bigtwo.bots.spec import BotSpec
    from bigtwo.errors import BigTwoError

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


@dataclass(frozen=True)
class Standing:
    """A bot's place in the strength order: how long it needs a move, and whether it thinks to a time limit."""

    name: str
    seconds: float  # a quick bot's typical time a move; a thinking bot's least time limit measured at this place
    thinks: bool = False  # takes ``budget_ms``: it is given the whole of the table's delay (up to a cap)
    evidence: str = ""  # the measurement that puts it here (README, "Measured strength")


# Strongest first, by duplicate-deal matches on classic, one point a card left, 95% intervals (benchmarks/strength.py
# and bigtwo benchmark; README, "Measured strength"). Where two bots are not separated, the higher estimate goes first:
# isearch vs three search at 1 s each is +0.75 [+0.34, +1.15] over 360 deals with the stage 6 network (with stage 10's
# +0.91 [+0.36, +1.46] over 200 more deals, on 80 of which stage 6 scored +0.16; with today's, stage 10 fitted to the
# search, +1.35 [+0.77, +1.94] over 180 of those, +0.24 [-0.38, +0.86] beside stage 10 deal by deal; the network playing
# every seat of the play-outs, three candidates each from the heuristic and the network; with six and two +1.10 [+0.52,
# +1.69] over 160 deals; the searching seat's only, the default below 1 s: +0.47 [+0.04, +0.90] over 280 deals; +0.89
# [+0.21, +1.57] and +0.74 [-0.15, +1.63] at 0.1 s on two deal sets; with today's 1 s defaults, the snapshots' mean, the
# stand-in for search moving the play-outs' other seats and the belief network, +2.17 [+1.73, +2.61] over 320 deals,
# +0.66 [+0.08, +1.25] deal by deal beside the search with the 34M network); search vs three heuristic +3.0 at about
# 0.25 s a move (against the heuristic of then) and learned vs three of today's heuristic +3.0 [+2.6, +3.4] (today's
# weights, stage 10 fitted to the search, and stage 10's alike; stage 6 scored +2.0 [+1.7, +2.4], +0.35 head to head and
# +0.40 over the standard field beside stage 5, which scored +2.3 here; on Tien Len, its own network (stage 2), +0.31
# [+0.27, +0.35] places a game); heuristic vs three greedy +6.8. Tien Len (places a game, 80 deals) keeps the order:
# search at 0.2 s vs three learned +0.13 [+0.04, +0.23] (stage 1: +0.25 [+0.15, +0.35]); isearch level with search at
# 0.1 s (+0.02; with its beliefs, which it no longer uses there, it was behind: -0.11 and -0.14 on two deal sets); at 1
# s level too, +0.05 [-0.11, +0.21] over 40 deals. A bot not registered, or one that cannot play the table (learned
# without weights for it), is passed over.
ISEARCH = Standing(
    "isearch",
    0.2,
    thinks=True,
    evidence="vs three search, 1 s each: +2.20 [+1.81, +2.58] over 400 deals (its 1 s defaults); 0.1 s each: "
    "+0.89 [+0.21, +1.57]",
)
SEARCH = Standing(
    "search",
    0.2,
    thinks=True,
    evidence="vs three heuristic: +3.0 at 0.25 s a move; Tien Len, 0.2 s, vs three learned: +0.13 [+0.04, +0.23]",
)
LEARNED = Standing(
    "learned",
    0.002,
    evidence="vs three heuristic: +3.0 [+2.6, +3.4]; Tien Len: +0.31 [+0.27, +0.35] places",
)
QUICK = (
    Standing("heuristic", 0.001, evidence="vs three greedy: +6.8"),
    Standing("greedy", 0.0001),
    Standing("random", 0.0),
)
STRENGTH: tuple[Standing, ...] = (ISEARCH, SEARCH, LEARNED, *QUICK)

# Tables measured on their own, by rules settings and player count as the learned bot's networks are known
# (every other table follows STRENGTH, classic's four-player order). Classic with three players, one point a
# card left, 80 deals a set: with the stage 1 network isearch was not ahead of search at 0.1 s a decision, and
# search went first there; with stage 2 (trained against a field) it is ahead on two deal sets, so the table's
# order is the four-player one again, on its own evidence.
TABLE_STRENGTH: dict[tuple[str, int], tuple[Standing, ...]] = {
    ("classic", 3): (
        replace(
            ISEARCH,
            evidence="three players, stage 2 network, vs two search at 0.1 s: +1.01 [-0.03, +2.06]; +1.20 [+0.27, "
            "+2.13]; over 160 deals +1.22 [+0.53, +1.90]; at 1 s, 60 deals: +2.68 [+1.52, +3.84]",
        ),
        replace(SEARCH, evidence="three players, vs two learned (stage 2) at 0.2 s: +1.13 [+0.09, +2.17]"),
        replace(
            LEARNED,
            evidence="three players, stage 2: vs two heuristic +1.32 [+0.97, +1.67]; vs two greedy +7.16 [+6.84, "
            "+7.49] (the heuristic: +5.30)",
        ),
        *QUICK,
    ),
    # Pusoy Dos (face-value points, 80 deals at 0.1 s a decision): isearch is not ahead of search there, its
    # estimate below theirs, so search goes first as the higher estimate
    ("pusoy-dos", 4): (
        replace(SEARCH, evidence="Pusoy Dos: isearch vs three search at 0.1 s -2.69 [-8.54, +3.16] face-value points"),
        replace(ISEARCH, evidence="Pusoy Dos: not ahead of search at 0.1 s (-2.69 [-8.54, +3.16])"),
        replace(LEARNED, evidence="Pusoy Dos, classic's network: vs three heuristic +13.25 [+10.95, +15.54]"),
        *QUICK,
    ),
}


def strength_order(rules: Any, players: int) -> tuple[Standing, ...]:
    """The strength order at this table: its own where it was measured to differ, else classic's. A table is
    known by its rules' settings (a renamed preset is the preset), else by its name, else as a measured table
    with its suits renamed (Taiwan's rules are classic's so: the same game)."""
    for name in (*rules.settings_presets(), rules.name):
        order = TABLE_STRENGTH.get((name, players))
        if order is not None:
            return order
    presets = set(list_presets())
    for (name, size), order in TABLE_STRENGTH.items():
        if size == players and name in presets and rules.suit_relabeling(load_rules(name)) is not None:
            return order
    return STRENGTH


UNNOTICED_SECONDS = 0.01  # a wait no one notices: a table with no delay still gets a bot at least this quick


def strongest_bot(
    rules: Any, players: int, seconds: float, max_budget_ms: float | None = None
) -> tuple[str, dict[str, Any]]:
    """The strongest bot that answers within ``seconds`` (the table's delay) at this table: its name and options.

    The first place of the table's order (:func:`strength_order`) whose time a move fits
    ``max(seconds, UNNOTICED_SECONDS)`` (and, for a bot that thinks, whose least time limit fits ``max_budget_ms``
    too) and that can play the rules and player count. A thinking bot gets ``budget_ms``: the whole delay, or
    ``max_budget_ms`` if that is less, so that it answers within the delay however long the position would take
    it to search."""
    import bigtwo.bots  # noqa: F401  (the built-in bots register themselves on import)

    fits = max(seconds, UNNOTICED_SECONDS)
    for s in strength_order(rules, players):
        if s.name not in BOTS or s.seconds > fits:
            continue
        options: dict[str, Any] = {}
        if s.thinks:
            budget = 1000 * seconds if max_budget_ms is None else min(1000 * seconds, max_budget_ms)
            if budget < 1000 * s.seconds:
                continue
            options["budget_ms"] = round(budget)
        if cannot_play(s.name, rules, players) is None:
            return s.name, options
    return "random", {}
