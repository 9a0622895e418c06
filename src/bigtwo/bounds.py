"""How large a table's positions can grow: the most cards a hand can hold, and an upper bound on the legal plays
of any position (what sizes the environments' action space, and what the tables refuse or warn of).

A seat's legal actions are combinations of its hand plus pass, so the bound is one more than the most
combinations a hand of the largest size the table can deal (:func:`max_hand_size`) could hold. Each size
``k`` of combination counts at most ``C(h, k)`` (every ``k`` cards of an ``h``-card hand), and for sizes
made only of *run* kinds (straights, pair and triple straights, dragons) and same-rank kinds (pairs,
triples, quads, fives) at most the sum of a per-kind bound found by a small exact optimisation over how
many cards of each rank the hand holds:

- same rank: the most ``sum_r C(c_r, k)`` any ``c`` with ``sum_r c_r <= h`` and the pack's copies allows;
- runs: for each run of ranks the table allows (``rules.engine_for(players)``), the most
  ``prod_r f(c_r)`` (``f(c) = c`` for straights, ``C(c, 2)`` for pair straights, ...) over those ranks alone.

Wild jokers are counted as ``j`` extra copies of every rank while taking ``j`` of the ``h`` cards. The
bound is exact for small hands and loose for large ones (each run gets the whole hand to itself), which
costs only a wider, mostly zero mask; it is a bound, never an estimate, so a legal play always has an index.
"""

from __future__ import annotations

from functools import cache
from math import comb

from bigtwo.cards import JOKER_RANK, bits
from bigtwo.game import Game
from bigtwo.rules.kinds import Kind
from bigtwo.rules.ruleset import Ruleset, load_rules

SAME_RANK = {Kind.PAIR: 2, Kind.TRIPLE: 3, Kind.QUAD: 4, Kind.FIVE_OF_A_KIND: 5}
RUNS = {Kind.STRAIGHT, Kind.STRAIGHT_FLUSH, Kind.ROYAL_FLUSH, Kind.PAIR_STRAIGHT, Kind.TRIPLE_STRAIGHT, Kind.DRAGON}
# the most cards a hand holds at a table that plays at an even pace: every preset deals at most 26, and a turn's
# legal plays grow about tenfold with every three cards (a 39-card hand's first turn has over half a million,
# 16-22 s to list); the server refuses larger hands and the terminal warns of them
LARGE_HAND = 27


def max_hand_size(rules: Ruleset | str, players: int | None = None) -> int:
    """The most cards one seat can hold during a round at this table: the largest hand dealt, plus the
    stock it may draw from (``draw_on_pass``) or the leftover it may swap for (``leftover = "swap"``)."""
    rules = load_rules(rules)
    n = rules.players if players is None else players
    game = Game(rules, players=n, seed=0)
    most = max(m.bit_count() for m in game.dealt)
    if rules.draw_on_pass:
        most += game.stock_size
    if game.swap_offer is not None:
        most += len(game.swap_offer) - 1
    return most


@cache
def _best(caps: tuple[int, ...], budget: int, extra: int, width: int, product: bool) -> int:
    """The most ``prod`` (or ``sum``) over ranks of ``C(c_r + extra, width)`` (``c_r + extra`` for width 1),
    with ``0 <= c_r <= caps[r]`` and ``sum c_r <= budget``: a knapsack over ranks, exact."""

    def f(c: int) -> int:
        return c + extra if width == 1 else comb(c + extra, width)

    best = {0: 1 if product else 0}
    for cap in caps:
        nxt: dict[int, int] = {}
        for used, value in best.items():
            for c in range(min(cap, budget - used) + 1):
                v = value * f(c) if product else value + f(c)
                if v > nxt.get(used + c, -1):
                    nxt[used + c] = v
        best = nxt
    return max(best.values())


def legal_play_bound(rules: Ruleset | str, players: int | None = None, hand_size: int | None = None) -> int:
    """An upper bound on the legal actions (pass included) of any position of a round of ``rules`` at
    ``players`` seats, or of any hand of ``hand_size`` cards (see the module docstring)."""
    rules = load_rules(rules)
    n = rules.players if players is None else players
    h = max_hand_size(rules, n) if hand_size is None else hand_size
    return _bound(rules, n, h)


@cache
def _bound(rules: Ruleset, players: int, h: int) -> int:
    ev = rules.engine_for(players)
    caps_by_rank: dict[int, int] = {}
    for c in bits(ev.pack):
        caps_by_rank[ev.rank_of[c]] = caps_by_rank.get(ev.rank_of[c], 0) + 1
    wild = (ev.pack & ev.joker_mask).bit_count() if ev.wild else 0
    natural = {r: k for r, k in caps_by_rank.items() if not (wild and r == JOKER_RANK)}

    def runs(kind: Kind, size: int) -> list[tuple[tuple[int, ...], int]]:
        """(ranks, width) of every run of ``kind`` with ``size`` cards."""
        if kind in (Kind.STRAIGHT, Kind.STRAIGHT_FLUSH, Kind.ROYAL_FLUSH):
            return [(ranks, 1) for _pos, ranks, _tb in ev.straight_seqs.get(size, ())]
        if kind == Kind.DRAGON:
            return [(tuple(range(JOKER_RANK)), 1)]
        width = 2 if kind == Kind.PAIR_STRAIGHT else 3
        return [(run, width) for _pos, run in ev.run_seqs[width].get(size // width, ())]

    total = 1  # pass
    for size, kinds in ev.kinds_by_size.items():
        if size > h:
            continue
        every = comb(h, size)
        if any(k not in RUNS and k not in SAME_RANK and k not in (Kind.SINGLE, Kind.JOKER_PAIR) for k in kinds):
            total += every
            continue
        most = 0
        for j in range(min(wild, h) + 1):  # j wild jokers in the hand, standing in for any rank
            budget = h - j
            count = 0
            if Kind.SINGLE in kinds:
                count += h
            if Kind.JOKER_PAIR in kinds:
                count += comb((ev.pack & ev.joker_mask).bit_count(), 2)
            for kind in kinds:
                if kind in SAME_RANK:
                    caps = tuple(sorted(natural.values()))
                    count += _best(caps, budget, j, SAME_RANK[kind], False)
            straight_like = [k for k in kinds if k in (Kind.STRAIGHT, Kind.STRAIGHT_FLUSH, Kind.ROYAL_FLUSH)]
            counted = [k for k in kinds if k in RUNS and k not in straight_like]
            if straight_like:  # a set of cards is one straight-like play, whichever of these kinds it is
                counted.append(Kind.STRAIGHT)
            for kind in counted:
                for ranks, width in runs(kind, size):
                    caps = tuple(sorted(natural.get(r, 0) for r in ranks))
                    count += _best(caps, budget, j, width, True)
            most = max(most, count)
        total += min(every, most)
    return total


__all__ = ["LARGE_HAND", "legal_play_bound", "max_hand_size"]
