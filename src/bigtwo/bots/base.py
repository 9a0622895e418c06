"""The Bot protocol and the shared plumbing of the built-in bots.

A bot is given the ruleset and one seat's :class:`~bigtwo.observation.Observation`, nothing else, and
answers with a legal action: a :class:`~bigtwo.combos.play.Play` (a pass included), or, when the observation
carries a ``decision``, its :class:`~bigtwo.actions.Answer` to it (an exchange, or a choice at the deal).
"""

from __future__ import annotations

import random
from typing import Any, Protocol, runtime_checkable

from bigtwo.actions import (
    DEAL_DECISIONS,
    EXCHANGE_DECISIONS,
    PROCEDURE_DECISIONS,
    Action,
    Answer,
    Bid,
    Decision,
    DecisionKind,
    Give,
    Grant,
    Must,
    Reply,
    Word,
)
from bigtwo.cards import CARDS, SUIT_CHARS, CardSet, bits
from bigtwo.combos.play import Play
from bigtwo.exchange import default_exchange_choice, new_kind_answers
from bigtwo.legal import answers, hand_index, legal_plays_from_observation
from bigtwo.moves import HandIndex
from bigtwo.observation import Observation, Phase
from bigtwo.rules.choices import ExchangeMode
from bigtwo.rules.ruleset import Ruleset

# the decisions a bot's exchange and deal answers handle (the procedures go to ``choose_procedure``)
_ANSWERED_KINDS = tuple(k for k in DecisionKind if k in EXCHANGE_DECISIONS or k in DEAL_DECISIONS)


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
    words = ""  # what it is, in a player's words (bot_words: else its docstring's first sentence)

    def __init__(self, seed: int | None = None):
        self.seed = seed
        self.rng = random.Random(seed)
        self._index: HandIndex | None = None
        self._memory: tuple[int, int] | None = None  # (round, hand) as last seen: a face-down hand remembered

    def choose(self, rules: Ruleset, observation: Observation) -> Action:
        obs = observation
        d = obs.decision
        if d is not None:
            if d.at_deal:
                return self.choose_deal(rules, obs)
            if d.kind in PROCEDURE_DECISIONS:
                return self.choose_procedure(rules, obs)
            return d.read(self.choose_exchange(rules, obs))
        play = self.choose_play(rules, obs)
        if rules.horse_game and obs.hand:
            self._memory = (obs.round, obs.hand & ~play.mask)  # what a person who looked remembers
        return play

    # --- the procedures before play, and the Horse Game's face-down hands -------------------------------
    def choose_procedure(self, rules: Ruleset, observation: Observation) -> Answer:
        """A plain, always legal answer to a bid, a trade turn, an offer, a request or a face-down hand:

        - bid: under a higher-bid auction, the lowest loose card (one of its rank) that may pay, when the card on
          auction matches a rank held (a pair or more); under a free-bid auction, the lowest card that may pay
          and ranks below the card on auction (a gain); otherwise pass;
        - trade: let trading end; reply: accept when the cards offered rank higher than those asked for;
        - request: leave the choice to the president; grant: only cards among one's lowest;
        - look: look when the remembered hand (or, never seen, its size) could answer the play to beat.
        """
        d = observation.decision
        assert d is not None
        if d.kind == DecisionKind.LOOK:
            return Answer(DecisionKind.LOOK, Word.LOOK if self._worth_looking(rules, observation) else Word.PASS)
        ev = observation.ev if observation.ev is not None else rules.engine_for(observation.players)
        hand, power = observation.hand, ev.power
        if isinstance(d, Bid):
            return self._bid(rules, observation, ev, d)
        if isinstance(d, Reply):
            gain = sum(power[c] for c in bits(d.cards)) > sum(power[c] for c in bits(d.want))
            return Answer(DecisionKind.REPLY, Word.ACCEPT if gain and d.want & hand == d.want else Word.DECLINE)
        if isinstance(d, Grant):
            lowest = sorted(bits(hand), key=lambda c: (power[c], c))[: d.count]
            cheap = d.want & hand == d.want and not d.want & ~sum(1 << c for c in lowest)
            return Answer(DecisionKind.GRANT, Word.GRANT if cheap else Word.REFUSE)
        if d.kind == DecisionKind.REQUEST:
            return Answer(DecisionKind.REQUEST, Word.NONE)
        return Answer(DecisionKind.TRADE, Word.DONE)

    def _bid(self, rules: Ruleset, obs: Observation, ev: Any, d: Bid) -> Answer:
        offers = [a for a in new_kind_answers(rules, obs) if a.mask]  # lowest first
        if not offers or not d.cards:
            return Answer(DecisionKind.BID, Word.PASS)
        lot = d.cards.bit_length() - 1
        ranks = [ev.rank_of[c] for c in bits(obs.hand)]
        if rules.exchange == ExchangeMode.HIGHER_BID_AUCTION:
            if ev.rank_of[lot] not in ranks:
                return Answer(DecisionKind.BID, Word.PASS)
            loose = [a for a in offers if ranks.count(ev.rank_of[a.mask.bit_length() - 1]) == 1]
            return loose[0] if loose else Answer(DecisionKind.BID, Word.PASS)
        cheaper = [a for a in offers if ev.power[a.mask.bit_length() - 1] < ev.power[lot]]
        return cheaper[0] if cheaper else Answer(DecisionKind.BID, Word.PASS)

    def _worth_looking(self, rules: Ruleset, obs: Observation) -> bool:
        """Look only when the hand could answer: the remembered hand has a play, or (never seen) it holds as
        many cards as the play to beat."""
        top = obs.trick
        size = obs.hand_sizes[obs.seat] if obs.seat is not None else 0
        if top is None:
            return True
        memory = self._memory
        if memory is not None and memory[0] == obs.round and memory[1].bit_count() == size:
            ev = obs.ev if obs.ev is not None else rules.engine_for(obs.players)
            return bool(answers(ev, HandIndex.build(ev, memory[1]), top))
        return size >= top.size

    def choose_play(self, rules: Ruleset, observation: Observation) -> Play:
        raise NotImplementedError

    def legal(self, rules: Ruleset, observation: Observation) -> list[Play]:
        """The legal plays, as :func:`~bigtwo.legal.legal_plays_from_observation` gives them, from this seat's
        hand index kept from its last decision (filtered as cards leave the hand, not rebuilt)."""
        obs = observation
        if not obs.is_my_turn or obs.phase != Phase.PLAY:
            raise ValueError(f"seat {obs.seat} is not to play in this observation")
        ev = obs.ev if obs.ev is not None else rules.engine_for(obs.players)
        self._index = hand_index(ev, obs.hand, self._index)
        return legal_plays_from_observation(rules, obs, self._index)

    # --- decisions at the deal and between rounds ---------------------------------------------------------
    def choose_deal(self, rules: Ruleset, observation: Observation) -> Answer:
        """A choice at the deal (``redeal`` or ``swap`` offered): keep what was dealt."""
        d = observation.decision
        assert d is not None
        return Answer(d.kind, Word.KEEP)

    def choose_exchange(self, rules: Ruleset, observation: Observation) -> CardSet | str:
        """The answer to an exchange decision (see :mod:`bigtwo.exchange`).

        Giving ``any`` cards: the ``count`` cards :meth:`exchange_order` ranks least useful (of the decision's
        suit, if it names one). Everything else (the highest or lowest cards, surrendering, asking,
        demanding) follows the rules' own plain answer, :func:`bigtwo.exchange.default_exchange_choice`.
        """
        d = observation.decision
        _check_decision(d)
        assert d is not None
        if isinstance(d, Give) and d.must == Must.ANY:
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
    if d is None or d.kind not in _ANSWERED_KINDS:
        raise ValueError(f"decision kind {d and d.kind!r} is not one of {', '.join(_ANSWERED_KINDS)}")
    if isinstance(d, Give) and d.must not in tuple(Must):
        raise ValueError(f"exchange 'must' {d.must!r} is not one of 'any', 'highest', 'lowest'")


def _suit_cards(hand: int, suit: str | None) -> int:
    if suit is None:
        return hand
    s = SUIT_CHARS.index(suit)
    return sum(1 << c for c in bits(hand) if CARDS[c].suit == s)
