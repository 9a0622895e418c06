"""The Bot protocol and the shared plumbing of the built-in bots.

A bot is given the ruleset and one seat's :class:`~bigtwo.observation.Observation`, nothing else, and
answers with a legal action: a :class:`~bigtwo.combos.play.Play` (a pass included), or, when the observation
carries a ``decision``, its :class:`~bigtwo.actions.Answer` to it (an exchange, or a choice at the deal).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, Protocol, runtime_checkable

from bigtwo.actions import Action, Answer, Decision
from bigtwo.cards import CARDS, SUIT_CHARS, CardSet, bits
from bigtwo.combos.play import Play
from bigtwo.exchange import default_exchange_choice
from bigtwo.legal import hand_index, legal_plays_from_observation
from bigtwo.moves import HandIndex
from bigtwo.observation import Observation, as_observation
from bigtwo.rules.ruleset import Ruleset

DECISION_KINDS = ("give", "surrender", "ask", "demand", "redeal", "swap")


@runtime_checkable
class Bot(Protocol):
    """A computer player: given the rules and one seat's observation, choose a legal action."""

    name: str

    def choose(self, rules: Ruleset, observation: Observation) -> Action: ...


class BaseBot:
    """Shared plumbing: a seeded RNG, legal plays from the observation alone, and the decision dispatch.

    Subclasses implement :meth:`choose_play`. :meth:`choose_exchange` has a default that follows the rules'
    plain answer and, where any cards may be given, gives those :meth:`exchange_order` ranks least useful;
    :meth:`choose_deal` keeps the deal (a new deal is a gamble a plain bot does not take).
    """

    name = "base"

    def __init__(self, seed: int | None = None):
        self.seed = seed
        self.rng = random.Random(seed)
        self._index: HandIndex | None = None

    def choose(self, rules: Ruleset, observation: Observation | Mapping[str, Any]) -> Action:
        obs = as_observation(rules, observation)
        d = obs.decision
        if d is not None:
            if d.at_deal:
                return self.choose_deal(rules, obs)
            return d.read(self.choose_exchange(rules, obs))
        return self.choose_play(rules, obs)

    def choose_play(self, rules: Ruleset, observation: Observation) -> Play:
        raise NotImplementedError

    def legal(self, rules: Ruleset, observation: Observation | Mapping[str, Any]) -> list[Play]:
        """The legal plays, as :func:`~bigtwo.legal.legal_plays_from_observation` gives them, from this seat's
        hand index kept from its last decision (filtered as cards leave the hand, not rebuilt)."""
        obs = as_observation(rules, observation)
        if not obs.is_my_turn or obs.phase != "play":
            raise ValueError(f"seat {obs.seat} is not to play in this observation")
        ev = obs.ev if obs.ev is not None else rules.engine_for(obs.players)
        self._index = hand_index(ev, obs.hand, self._index)
        return legal_plays_from_observation(rules, obs, self._index)

    # --- decisions at the deal and between rounds ---------------------------------------------------------
    def choose_deal(self, rules: Ruleset, observation: Observation) -> Answer:
        """A choice at the deal (``redeal`` or ``swap`` offered): keep what was dealt."""
        d = observation.decision
        assert d is not None
        return Answer(d.kind, "keep")

    def choose_exchange(self, rules: Ruleset, observation: Observation) -> CardSet | str:
        """The answer to an exchange decision (see :mod:`bigtwo.exchange`).

        Giving ``any`` cards: the ``count`` cards :meth:`exchange_order` ranks least useful (of the decision's
        suit, if it names one). Everything else (the highest or lowest cards, surrendering, asking,
        demanding) follows the rules' own plain answer, :func:`bigtwo.exchange.default_exchange_choice`.
        """
        d = observation.decision
        _check_decision(d)
        assert d is not None
        if d.kind == "give" and d.must == "any":
            hand = observation.hand
            pool = _suit_cards(hand, d.suit)
            k = d.count
            if not 0 <= k <= pool.bit_count():
                raise ValueError(f"cannot give {k} cards from a hand of {pool.bit_count()}")
            order = [c for c in self.exchange_order(rules, observation, hand) if pool >> c & 1]
            return CardSet.from_mask(sum(1 << c for c in order[:k]))
        return default_exchange_choice(rules, observation)

    def exchange_order(self, rules: Ruleset, observation: Observation, hand: int) -> list[int]:
        """The hand's cards, the one this bot would most readily give away first (default: lowest first)."""
        power = rules.engine.power
        return sorted(bits(hand), key=lambda c: (power[c], c))


def _check_decision(d: Decision | None) -> None:
    if d is None or d.kind not in DECISION_KINDS:
        raise ValueError(f"decision kind {d and d.kind!r} is not one of {', '.join(DECISION_KINDS)}")
    if d.must not in ("any", "highest", "lowest"):
        raise ValueError(f"exchange 'must' {d.must!r} is not one of 'any', 'highest', 'lowest'")


def _suit_cards(hand: int, suit: str | None) -> int:
    if suit is None:
        return hand
    s = SUIT_CHARS.index(suit)
    return sum(1 << c for c in bits(hand) if CARDS[c].suit == s)
