"""Players from outside the registry: a user's own class, and any policy that scores legal actions.

A *policy* is anything with ``scores(rules, observation, legal) -> sequence of floats`` (one number per legal
play, higher is better): a trained network in any framework, a table, a hand-written rule.
:class:`PolicyBot` makes one a bot (it plays the best-scored legal play), so the arena, ``bigtwo benchmark``
and, once registered (``register("mine")(lambda seed=None: PolicyBot(MyPolicy(), seed=seed))``), the tables
and the server play it like any built-in bot.

:func:`load_class` reads ``module:Class`` (as the arena's bot specs write a user's class): a class with
``choose(rules, observation)`` is a bot and is used as it is; a class with ``scores(...)`` is a policy and is
wrapped in a :class:`PolicyBot`. Either is made with the bot's seed when its constructor takes ``seed``.
"""

from __future__ import annotations

import contextlib
import importlib
import inspect
import math
import re
from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable

from bigtwo.bots.base import BaseBot, Bot
from bigtwo.combos.play import Play
from bigtwo.errors import BigTwoError
from bigtwo.observation import Observation
from bigtwo.rules.ruleset import Ruleset

CLASS_TARGET = re.compile(r"^[A-Za-z_][\w]*(\.[A-Za-z_]\w*)*:[A-Za-z_]\w*(\.[A-Za-z_]\w*)*$")
"""``package.module:Class`` (a nested class as ``module:Outer.Inner``)."""


@runtime_checkable
class Policy(Protocol):
    """Scores each legal play of a decision; the bot plays the highest."""

    def scores(self, rules: Ruleset, observation: Observation, legal: Sequence[Play]) -> Sequence[float]: ...


class PolicyBot(BaseBot):
    """A policy playing as a bot: the legal play it scores highest (the first of equals); a forced play
    without asking it. Exchanges and deal-time decisions take :class:`BaseBot`'s answers."""

    name = "policy"

    def __init__(self, policy: Policy, seed: int | None = None, name: str | None = None):
        super().__init__(seed)
        if not callable(getattr(policy, "scores", None)):
            raise BigTwoError(f"{type(policy).__name__} is not a policy: it has no scores(rules, observation, legal)")
        self.policy = policy
        if name:
            self.name = name

    def choose_play(self, rules: Ruleset, observation: Observation) -> Play:
        legal = self.legal(rules, observation)
        if len(legal) == 1:
            return legal[0]
        values = [float(v) for v in self.policy.scores(rules, observation, legal)]
        if len(values) != len(legal):
            raise BigTwoError(
                f"policy {self.name!r} gave {len(values)} scores for {len(legal)} legal plays (one a play is needed)"
            )
        best = 0
        for i, v in enumerate(values):
            if math.isnan(v):
                raise BigTwoError(f"policy {self.name!r} scored a legal play NaN")
            if v > values[best]:
                best = i
        return legal[best]


def _accepts_seed(cls: Any) -> bool:
    try:
        params = inspect.signature(cls).parameters.values()
    except (TypeError, ValueError):
        return False
    return any(p.name == "seed" or p.kind is inspect.Parameter.VAR_KEYWORD for p in params)


def resolve_class(target: str) -> Any:
    """The object ``module:Name`` names (imported), or a BigTwoError saying what was missing."""
    if not CLASS_TARGET.match(target):
        raise BigTwoError(f"{target!r} is not a class written module:Class (e.g. mybots.strong:StrongBot)")
    module_name, _, attr = target.partition(":")
    try:
        obj: Any = importlib.import_module(module_name)
    except ImportError as e:
        raise BigTwoError(f"{target}: cannot import module {module_name!r} ({e})") from None
    for part in attr.split("."):
        try:
            obj = getattr(obj, part)
        except AttributeError:
            raise BigTwoError(f"{target}: module {module_name!r} has no {attr!r}") from None
    if not inspect.isclass(obj):
        raise BigTwoError(f"{target}: {attr!r} is not a class")
    return obj


def load_class(target: str, seed: int | None = None, **options: Any) -> Bot:
    """A bot made from a user's class ``module:Class`` with ``options`` (and ``seed`` when it takes one):
    the instance itself if it is a bot, a :class:`PolicyBot` around it if it is a policy."""
    cls = resolve_class(target)
    is_bot = callable(getattr(cls, "choose", None))
    is_policy = callable(getattr(cls, "scores", None))
    if not (is_bot or is_policy):
        raise BigTwoError(
            f"{target} is neither a bot (a choose(rules, observation) method) nor a policy "
            "(a scores(rules, observation, legal) method)"
        )
    kwargs = dict(options)
    if _accepts_seed(cls):
        kwargs["seed"] = seed
    try:
        obj = cls(**kwargs)
    except TypeError as e:
        raise BigTwoError(f"{target}: {e}") from None
    if is_bot:
        if not isinstance(getattr(obj, "name", None), str):
            with contextlib.suppress(AttributeError):  # a read-only name: the arena labels it anyway
                obj.name = target
        return obj
    return PolicyBot(obj, seed=seed, name=target)


__all__ = ["CLASS_TARGET", "Policy", "PolicyBot", "load_class", "resolve_class"]
