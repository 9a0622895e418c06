"""The Bot protocol and the registry behind ``bigtwo.bots.make``.

A bot is given the ruleset and one seat's observation, nothing else, and answers with a legal :class:`Play`
(a pass included) or, when the observation asks for an exchange (``obs["phase"] == "exchange"``), with its
answer to the decision: the :class:`CardSet` it gives, or a question or demand (see :mod:`bigtwo.exchange`).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, Protocol, runtime_checkable

from bigtwo.bots.view import beside, engine_of, held_copies, tokens_mask
from bigtwo.cards import CARDS, SUIT_CHARS, CardSet, bits, to_mask
from bigtwo.combos.play import Play
from bigtwo.exchange import default_exchange_choice
from bigtwo.legal import legal_actions
from bigtwo.moves import HandIndex
from bigtwo.rules.ruleset import Ruleset

DECISION_KINDS = ("give", "surrender", "ask", "demand")


@runtime_checkable
class Bot(Protocol):
    """A computer player: given the rules and one seat's observation, choose a legal action."""

    name: str

    def choose(self, rules: Ruleset, observation: dict[str, Any]) -> Play | CardSet | str: ...


BOTS: dict[str, Callable[..., Bot]] = {}


def register(name: str) -> Callable[[Callable[..., Bot]], Callable[..., Bot]]:
    def deco(factory: Callable[..., Bot]) -> Callable[..., Bot]:
        BOTS[name] = factory
        return factory

    return deco


def _load_builtins() -> None:
    from bigtwo.bots import heuristic, search, simple  # noqa: F401  (registers the built-in bots)


def make(name: str, seed: int | None = None, **options: Any) -> Bot:
    """A bot by name (``"random"``, ``"greedy"``, ``"heuristic"``, ``"search"``); ``seed`` makes it reproducible.

    An unknown name raises ValueError; an option the bot does not take raises TypeError (as any call would),
    a bad value for one it takes raises ValueError.
    """
    _load_builtins()
    try:
        factory = BOTS[name]
    except KeyError:
        raise ValueError(f"no bot named {name!r}; bots: {', '.join(sorted(BOTS))}") from None
    return factory(seed=seed, **options)


def bot_names() -> list[str]:
    _load_builtins()
    return sorted(BOTS)


class BaseBot:
    """Shared plumbing: a seeded RNG, legal actions from the observation alone, and the exchange dispatch.

    Subclasses implement :meth:`choose_play`; :meth:`choose_exchange` has a default that follows the rules'
    plain answer and, where any cards may be given, gives those :meth:`exchange_order` ranks least useful.
    """

    name = "base"

    def __init__(self, seed: int | None = None):
        self.seed = seed
        self.rng = random.Random(seed)
        self._index: HandIndex | None = None

    def choose(self, rules: Ruleset, observation: dict[str, Any]) -> Play | CardSet | str:
        if observation.get("phase") == "exchange":
            return self.choose_exchange(rules, observation)
        return self.choose_play(rules, observation)

    def choose_play(self, rules: Ruleset, observation: dict[str, Any]) -> Play:
        raise NotImplementedError

    def legal(self, rules: Ruleset, observation: dict[str, Any]) -> list[Play]:
        """The legal actions, as ``legal_plays_from_observation`` gives them, from this seat's hand index:
        between draws from a stock hands only shrink, so the last decision's index is filtered, not rebuilt."""
        obs = observation
        if obs.get("is_over") or obs.get("to_move") != obs["seat"]:
            raise ValueError(f"seat {obs['seat']} is not to move in this observation")
        ev = engine_of(rules, obs)
        hand = tokens_mask(obs["hand"])
        idx = self._index
        if idx is None or idx.ev is not ev or hand & ~idx.hand:
            idx = HandIndex.build(ev, hand)
        elif idx.hand != hand:
            idx = idx.without(idx.hand & ~hand)
        self._index = idx
        trick = obs.get("trick")
        top = ev.classify(beside(hand, tokens_mask(trick["cards"]))) if trick else None
        required = held_copies(to_mask(obs["required_card"]), hand) if obs.get("required_card") else 0
        return legal_actions(ev, idx, top, required, rules.last_play_forbidden, bool(obs.get("must_answer")))

    # --- exchanges between the deal and the first play ---------------------------------------------------
    def choose_exchange(self, rules: Ruleset, observation: dict[str, Any]) -> CardSet | str:
        """The answer to an exchange decision (see :mod:`bigtwo.exchange`).

        Giving ``any`` cards: the ``count`` cards :meth:`exchange_order` ranks least useful (of the decision's
        suit, if it names one). Everything else (the highest or lowest cards, surrendering, asking,
        demanding) follows the rules' own plain answer, :func:`bigtwo.exchange.default_exchange_choice`.
        """
        d = observation.get("decision") or {}
        kind = d.get("kind")
        if kind not in DECISION_KINDS:
            raise ValueError(f"exchange decision kind {kind!r} is not one of {', '.join(DECISION_KINDS)}")
        must = d.get("must", "any")
        if must not in ("any", "highest", "lowest"):
            raise ValueError(f"exchange 'must' {must!r} is not one of 'any', 'highest', 'lowest'")
        if kind == "give":
            hand = to_mask(observation["hand"])
            pool = _suit_cards(hand, d.get("suit"))
            k = int(d.get("count", 0))
            if not 0 <= k <= pool.bit_count():
                raise ValueError(f"cannot give {k} cards from a hand of {pool.bit_count()}")
            if must == "any":
                order = [c for c in self.exchange_order(rules, observation, hand) if pool >> c & 1]
                return CardSet.from_mask(to_mask(list(order[:k])))
        return default_exchange_choice(rules, observation)

    def exchange_order(self, rules: Ruleset, observation: dict[str, Any], hand: int) -> list[int]:
        """The hand's cards, the one this bot would most readily give away first (default: lowest first)."""
        power = rules.engine.power
        return sorted(bits(hand), key=lambda c: (power[c], c))


def _suit_cards(hand: int, suit: str | None) -> int:
    if suit is None:
        return hand
    s = SUIT_CHARS.index(suit)
    return to_mask([c for c in bits(hand) if CARDS[c].suit == s])
