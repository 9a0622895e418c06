"""Hand plans: a partition of a hand into combinations that needs few, strong leads to go out.

A plan is the structured combinations it keeps (straights, flushes, full houses: anything that is not a
plain group of one rank) plus the rest of the hand grouped by rank into the largest same-rank plays the
ruleset allows. Each combination costs ``1 - BETA * strength`` (a lead you may lose costs a whole trick, a
strong one less), so the cheapest plan has the fewest and strongest pieces.

The search over structured combinations is a small beam search on rank counts: removing a combination only
changes the cost of the ranks it uses, so each candidate is scored in a few operations. Plans are pure
functions of the hand and cached per ruleset, so a plan never depends on how a hand was reached.
"""

from __future__ import annotations

import heapq
import weakref
from dataclasses import dataclass

from bigtwo.cards import JOKER_RANK, bits
from bigtwo.combos.play import Play
from bigtwo.moves import all_combos
from bigtwo.rules.kinds import Kind

BETA = 0.5  # how much a strong combination is cheaper than a weak one
STRANDED = 3.0  # a card that fits no combination (e.g. a lone card where singles are not played)
SAME_RANK = {Kind.SINGLE: 1, Kind.PAIR: 2, Kind.TRIPLE: 3, Kind.QUAD: 4}
BEAM = (5, 3, 2, 2)  # structured combinations explored at each depth of the plan search
# Hands a cache keeps before it starts again. Few hands recur beyond one decision's play-outs, so a bigger cache
# barely saves work (16 games of search at 40 deals a decision: CPU within 1% from 5,000 to 200,000), while the
# objects it holds lengthen every full garbage collection, a pause inside some decision: at 200,000 a search
# with 0.2 s a decision took up to 0.55 s at Tien Len (the longest collection 0.5 s), at 5,000 0.22 s.
CACHE_LIMIT = 5_000
SHORTLIST = 40  # structured combinations a plan search considers at most


@dataclass(frozen=True, slots=True)
class Plan:
    """A partition of ``hand`` into ``combos``; ``stranded`` cards fit no combination."""

    hand: int
    combos: tuple[Play, ...]
    stranded: int

    def without(self, played: int, planner: Planner) -> Plan:
        """The plan after ``played`` leaves the hand: untouched combinations stay, the rest is regrouped."""
        keep = []
        loose = self.stranded & ~played
        for c in self.combos:
            if c.mask & played:
                loose |= c.mask & ~played
            else:
                keep.append(c)
        return planner.regroup(self.hand & ~played, keep, loose)


class Planner:
    """Plans hands under one ruleset (get one with :func:`planner_for`)."""

    def __init__(self, ev):
        self.ev = ev
        enabled = ev.enabled
        self.group_sizes = sorted((n for k, n in SAME_RANK.items() if k in enabled), reverse=True)
        self.struct_sizes = frozenset(
            n for n, kinds in ev.kinds_by_size.items() if any(k not in SAME_RANK for k in kinds)
        )
        self.struct_kinds = frozenset(k for k in enabled if k not in SAME_RANK)
        self.min_struct = min(self.struct_sizes) if self.struct_sizes else 99
        # strength of a kind's combination: its category's place among same-size kinds, then its value
        self._kind_pos: dict[str, tuple[int, int]] = {}
        for _n, kinds in ev.kinds_by_size.items():
            low_first = sorted(kinds, key=ev.cat.__getitem__)
            for i, k in enumerate(low_first):
                self._kind_pos[k] = (i, len(low_first))
        self.split = [self._split(k) for k in range(0, 9)]
        self.group_cost = [[self._group_cost(r, k) for k in range(0, 9)] for r in range(JOKER_RANK + 1)]
        self.plans: dict[int, Plan] = {}
        self._strength: dict[int, float] = {}
        self._structs: dict[int, list[tuple[Play, float, tuple[tuple[int, int], ...]]]] = {}
        self._usage: dict[int, tuple[tuple[int, int], ...]] = {}

    # --- static strength and cost ----------------------------------------------------------------------
    def strength(self, p: Play) -> float:
        """0 (weakest) to about 1 (strongest) for a combination, ignoring which cards are still out."""
        got = self._strength.get(p.mask)
        if got is None:
            if p.kind in SAME_RANK:
                got = p.value / 12
            else:
                pos, count = self._kind_pos.get(p.kind, (0, 1))
                got = (pos + p.value / 13) / count
            if len(self._strength) > CACHE_LIMIT:
                self._strength.clear()
            self._strength[p.mask] = got
        return got

    def cost(self, p: Play) -> float:
        return 1.0 - BETA * self.strength(p)

    def _split(self, k: int) -> tuple[tuple[int, ...], int]:
        """Best split of k cards of one rank into allowed same-rank plays: (part sizes, stranded cards)."""
        # fewest stranded cards, then fewest parts, then the most even parts (two pairs before 3 + 1)
        best: tuple[int, int, int, tuple[int, ...]] = (k, 0, 0, ())
        sizes = self.group_sizes

        def rec(left: int, parts: tuple[int, ...]) -> None:
            nonlocal best
            cand = (left, len(parts), -min(parts, default=0), parts)
            if cand[:3] < best[:3]:
                best = cand
            for s in sizes:
                if s <= left and (not parts or s <= parts[-1]):
                    rec(left - s, (*parts, s))

        rec(k, ())
        return best[3], best[0]

    def _group_cost(self, r: int, k: int) -> float:
        parts, stranded = self.split[k]
        return len(parts) * (1.0 - BETA * min(r, 13) / 12) + STRANDED * stranded

    # --- structured combinations ---------------------------------------------------------------------
    def usage(self, p: Play) -> tuple[tuple[int, int], ...]:
        """(rank, cards of that rank) pairs of a combination, cached by its cards."""
        u = self._usage.get(p.mask)
        if u is None:
            counts: dict[int, int] = {}
            rank_of = self.ev.rank_of
            for c in bits(p.mask):
                r = rank_of[c]
                counts[r] = counts.get(r, 0) + 1
            u = tuple(sorted(counts.items()))
            self._usage[p.mask] = u
        return u

    def structs(self, hand: int, parent: int = 0) -> list[tuple[Play, float, tuple[tuple[int, int], ...]]]:
        """The hand's structured combinations (cost and rank usage with each), in the engine's order.

        ``parent``: a larger hand this one came from; its list, filtered, is exactly this hand's list.
        """
        got = self._structs.get(hand)
        if got is not None:
            return got
        up = self._structs.get(parent) if parent and parent & hand == hand else None
        if up is not None:
            gone = parent & ~hand
            out = [t for t in up if not t[0].mask & gone]
        else:
            out = []
            if self.struct_sizes:
                kinds = self.struct_kinds
                for p in all_combos(self.ev, hand, self.struct_sizes):
                    if p.kind in kinds:
                        out.append((p, self.cost(p), self.usage(p)))
        if len(self._structs) > CACHE_LIMIT:
            self._structs.clear()
        self._structs[hand] = out
        return out

    def _shortlist(self, cands: list, cnt: list[int]) -> list:
        """When a hand holds very many structured combinations: at most two per kind and rank pattern (the
        weakest: suits matter little), then the :data:`SHORTLIST` that leave the cheapest hand on their own."""
        if len(cands) <= SHORTLIST:
            return cands
        groups: dict[tuple, list] = {}
        for t in cands:
            groups.setdefault((t[0].kind, t[2]), []).append(t)
        out = []
        for members in groups.values():
            out.extend(members if len(members) <= 1 else heapq.nsmallest(2, members, key=_weakest))
        if len(out) <= SHORTLIST:
            return out
        gc = self.group_cost

        def alone(t: tuple) -> tuple[float, int]:
            return t[1] + sum(gc[r][cnt[r] - u] - gc[r][cnt[r]] for r, u in t[2]), t[0].mask

        out.sort(key=alone)
        return out[:SHORTLIST]

    # --- planning --------------------------------------------------------------------------------------
    def plan(self, hand: int, parent: int = 0) -> Plan:
        """The cheapest plan found for ``hand`` (cached: a pure function of the hand; ``parent`` only speeds
        it up, see :meth:`structs`)."""
        got = self.plans.get(hand)
        if got is not None:
            return got
        rank_of = self.ev.rank_of
        cnt = [0] * (JOKER_RANK + 1)
        for c in bits(hand):
            cnt[rank_of[c]] += 1
        gc = self.group_cost
        fill = sum(gc[r][k] for r, k in enumerate(cnt) if k)
        best: list = [fill, ()]
        cands = self._shortlist(self.structs(hand, parent), cnt)
        if cands:
            depth = min(len(BEAM), hand.bit_count() // self.min_struct)
            self._search(cands, cnt, 0, (), 0.0, fill, 0, depth, best)
        chosen: tuple[Play, ...] = best[1]
        used = 0
        for p in chosen:
            used |= p.mask
        plan = self.regroup(hand, list(chosen), hand & ~used)
        strength = self.strength
        plan = Plan(hand, tuple(sorted(plan.combos, key=lambda p: (strength(p), p.size, p.mask))), plan.stranded)
        if len(self.plans) > CACHE_LIMIT:
            self.plans.clear()
        self.plans[hand] = plan
        return plan

    def _search(self, cands, cnt, used, chosen, acc, fill, depth, max_depth, best) -> None:
        gc = self.group_cost
        scored = []
        for item in cands:
            p, cost, use = item
            if p.mask & used:
                continue
            f = fill
            for r, u in use:
                k = cnt[r]
                f += gc[r][k - u] - gc[r][k]
            tot = acc + cost + f
            scored.append((tot, item, f))
            if tot < best[0] - 1e-9:
                best[0] = tot
                best[1] = (*chosen, p)
        if depth + 1 >= max_depth or not scored:
            return
        scored.sort(key=lambda t: (t[0], t[1][0].mask))
        rest = [t[1] for t in scored]
        for _tot, item, f in scored[: BEAM[depth]]:
            p, cost, use = item
            for r, u in use:
                cnt[r] -= u
            self._search(rest, cnt, used | p.mask, (*chosen, p), acc + cost, f, depth + 1, max_depth, best)
            for r, u in use:
                cnt[r] += u

    def regroup(self, hand: int, keep: list[Play], loose: int) -> Plan:
        """A plan from kept combinations plus ``loose`` cards grouped by rank into same-rank plays."""
        ev = self.ev
        rank_of, power = ev.rank_of, ev.power
        by_rank: dict[int, list[int]] = {}
        for c in bits(loose):
            by_rank.setdefault(rank_of[c], []).append(c)
        combos = list(keep)
        stranded = 0
        for _r, cs in by_rank.items():
            cs.sort(key=lambda c: (power[c], c))
            parts, _ = self.split[min(len(cs), 8)]
            # smaller parts take the higher cards: a lone top card is the strongest single
            i = len(cs)
            for size in sorted(parts):
                chunk = cs[i - size : i]
                i -= size
                m = 0
                for c in chunk:
                    m |= 1 << c
                p = ev.classify(m)
                if p is None:
                    for c in chunk:
                        q = ev.classify(1 << c)
                        if q is None:
                            stranded |= 1 << c
                        else:
                            combos.append(q)
                else:
                    combos.append(p)
            for c in cs[:i]:
                stranded |= 1 << c
        return Plan(hand, tuple(combos), stranded)


def _weakest(t: tuple) -> tuple[int, int]:
    return t[0].order, t[0].mask


_PLANNERS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def planner_for(ev) -> Planner:
    """The planner of a ruleset's evaluator (``rules.engine``), built once."""
    p = _PLANNERS.get(ev)
    if p is None:
        p = Planner(ev)
        _PLANNERS[ev] = p
    return p


__all__ = ["Plan", "Planner", "planner_for"]
