"""The environments' action spaces: the legal plays' bound (:mod:`bigtwo.bounds`, the engine's) and the answers
of the procedures before play, which the environments encode as actions of their own."""

from __future__ import annotations

from math import comb

from bigtwo.bounds import LARGE_HAND, legal_play_bound, max_hand_size
from bigtwo.game import Game
from bigtwo.rules.choices import ExchangeMode
from bigtwo.rules.ruleset import Ruleset, load_rules


def has_procedures(rules: Ruleset | str) -> bool:
    """Whether the rules put decisions between the deal and the first play (exchanges, auctions, free
    trade, requests) in some round: what the environments' answer actions are for."""
    rules = load_rules(rules)
    return rules.exchange != ExchangeMode.NONE or rules.free_trade


def first_round_procedures(rules: Ruleset | str) -> bool:
    """Whether the rules put decisions before play in a round without roles (a first round, or one dealt
    alone): a pass-around, auctions, free trade. Trading that needs roles needs the order of a round before."""
    rules = load_rules(rules)
    return (
        rules.exchange in (ExchangeMode.PASS_AROUND, ExchangeMode.HIGHER_BID_AUCTION, ExchangeMode.FREE_BID_AUCTION)
        or rules.free_trade
    )


def answer_bound(rules: Ruleset | str, players: int | None = None) -> int:
    """An upper bound on the legal answers of any decision the procedures before play can put to a seat at
    this table (0 for rules without them): the width of the environments' answer block.

    Counted per decision kind from the largest hand ``h`` (:func:`max_hand_size`, plus the two cards a
    president may hold before giving back) and the pack's ``N`` cards: a ``give`` of ``k`` at most
    ``C(h, k)``; a bid ``1 + h``; a request ``1 + C(N, 1) + C(N, 2)``; a question ``19 + N``; a trade
    offer ``2 + (n - 1) * sum_k C(h, k) C(N, k)`` (cards given, cards named, to whom); the words of a
    demand, reply or grant 2. The engine lists the answers; this only sizes the space."""
    rules = load_rules(rules)
    if not has_procedures(rules):
        return 0
    n = rules.players if players is None else players
    h = max_hand_size(rules, n)
    pack = Game(rules, players=n, seed=0).ev.pack
    big_n = int(pack).bit_count()
    system = rules.exchange
    most = 2
    if system == ExchangeMode.PASS_AROUND:
        most = max(most, comb(h, rules.pass_count))
    if system in (ExchangeMode.MANDATORY_TRADING, ExchangeMode.BIG_TWO_PRESIDENT):
        most = max(most, comb(h + 2, 2) + 1)
    if system == ExchangeMode.MANDATORY_TRADING:
        most = max(most, 19 + big_n)
        if rules.trade_requests:
            most = max(most, 1 + big_n + comb(big_n, 2))
    if system == ExchangeMode.LOSER_TO_WINNER:
        most = max(most, h + 1)
    if system in (ExchangeMode.HIGHER_BID_AUCTION, ExchangeMode.FREE_BID_AUCTION):
        most = max(most, 1 + h)
    if rules.free_trade:
        k = rules.free_trade_cards
        most = max(most, 2 + (n - 1) * sum(comb(h, i) * comb(big_n, i) for i in range(1, k + 1)))
    return most


__all__ = [
    "LARGE_HAND",
    "answer_bound",
    "first_round_procedures",
    "has_procedures",
    "legal_play_bound",
    "max_hand_size",
]
