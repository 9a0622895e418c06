"""Legal-move generation: every combination in a hand, each exactly once, and fast answers to a trick.

A hand's combinations are enumerated once per deal from its rank and suit structure (never by testing
subsets). Hands only shrink, so after a play the index is filtered, not rebuilt. Answers to a trick are a
bisect into the combinations of the trick's comparison class, which the evaluator keeps sorted by order.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Iterator
from itertools import combinations, product

from bigtwo.cards import JOKER_RANK, bits
from bigtwo.combos.evaluator import (
    POWER_SPAN,
    RANKS_AT_MOST,
    ROYAL_RANKS,
    RUN_WIDTH,
    STRAIGHT_KINDS,
    SUITED_KINDS,
    Evaluator,
)
from bigtwo.combos.play import Play
from bigtwo.rules.kinds import Kind

_BIT = [1 << i for i in range(128)]
# kinds whose wild-joker sets _wild_partners finds by suit or sequence (the rest of its kinds by their ranks)
WILD_SHAPED = SUITED_KINDS | STRAIGHT_KINDS | frozenset(RUN_WIDTH)


def _mask(cards: tuple[int, ...] | list[int]) -> int:
    m = 0
    for c in cards:
        m |= _BIT[c]
    return m


def all_combos(
    ev: Evaluator,
    hand: int,
    sizes: frozenset[int] | set[int] | None = None,
) -> list[Play]:
    """Every combination the hand holds under ``ev``'s rules (of the given ``sizes``), sorted by
    (class, order). With wild jokers, sets holding a joker are classified one by one (see ``_wild_combos``).

    Kinds whose shapes cannot coincide go straight to their (cached) Play; the few that can (a suited
    straight is also a flush, sisters are also two pairs and a junk card, two pairs may be a pair straight)
    go through ``found``, which keeps the highest category for a set of cards, as classification does.
    """
    if ev.wild and hand & ev.joker_mask:
        return _wild_combos(ev, hand, sizes)
    if ev.valueless and hand & ev.joker_mask:
        # a valueless joker is only ever a single
        alone = all_combos(ev, hand & ~ev.joker_mask, sizes) if hand & ~ev.joker_mask else []
        if Kind.SINGLE in ev.enabled and (sizes is None or 1 in sizes):
            alone += [ev.make(1 << c, Kind.SINGLE, ev.power[c], ev.rank_of[c]) for c in bits(hand & ev.joker_mask)]
        alone.sort(key=_sort_key)
        return alone
    cs = bits(hand)
    rank_of, suit_of, power = ev.rank_of, ev.suit_of, ev.power
    # every kind of the sizes asked for, never fewer: a set of cards is cached as its final classification, which a
    # listing of some kinds only would get wrong (a suited straight read as a plain one)
    en = ev.enabled if sizes is None else ev.kinds_of_sizes(sizes)
    cat = ev.cat
    cache = ev.cache
    make = ev.make
    by_rank: dict[int, list[int]] = {}
    by_suit: dict[int, list[int]] = {}
    for c in cs:
        by_rank.setdefault(rank_of[c], []).append(c)
        by_suit.setdefault(suit_of[c], []).append(c)
    out: list[Play] = []
    found: dict[int, tuple[int, Kind, int, int] | Play] = {}

    def add(mask: int, kind: Kind, key: int, value: int) -> None:
        prev = found.get(mask)
        if prev is None:
            cached = cache.get(mask)
            # a cached Play is the mask's final classification: nothing can outrank it
            found[mask] = cached if cached is not None else (cat[kind], kind, key, value)
        elif prev.__class__ is tuple and cat[kind] > prev[0]:
            found[mask] = (cat[kind], kind, key, value)

    if Kind.SINGLE in en:
        for c in cs:
            m = _BIT[c]
            p = cache.get(m)
            out.append(p if p is not None else make(m, Kind.SINGLE, power[c], rank_of[c]))
    for kind, k in ((Kind.PAIR, 2), (Kind.TRIPLE, 3), (Kind.QUAD, 4), (Kind.FIVE_OF_A_KIND, 5)):
        if kind in en:
            for r, g in by_rank.items():
                if len(g) >= k:
                    for combo in combinations(g, k):
                        m = _mask(combo)
                        if r == JOKER_RANK:  # jokers together may also be a joker pair: resolve the best kind
                            add(m, kind, max(power[c] for c in combo), r)
                            continue
                        p = cache.get(m)
                        out.append(p if p is not None else make(m, kind, max(power[c] for c in combo), r))

    if Kind.JOKER_PAIR in en:
        jokers = [c for c in cs if c % 54 >= 52]
        for a, b in combinations(jokers, 2):
            m = _BIT[a] | _BIT[b]
            hi, lo = sorted((power[a], power[b]), reverse=True)
            add(m, Kind.JOKER_PAIR, hi * POWER_SPAN + lo, JOKER_RANK)

    if Kind.DRAGON in en and all(r in by_rank for r in range(JOKER_RANK)):
        for choice in product(*(by_rank[r] for r in range(JOKER_RANK))):
            add(_mask(choice), Kind.DRAGON, power[choice[12]], 12)

    need_pairs = en & {Kind.TWO_PAIRS, Kind.TWO_PAIR_JUNK, Kind.SISTERS, Kind.FULL_HOUSE}
    pairs = {r: list(combinations(g, 2)) for r, g in by_rank.items() if len(g) >= 2} if need_pairs else {}
    pair_ranks = sorted(pairs)

    if Kind.TWO_PAIRS in en:
        for i, r1 in enumerate(pair_ranks):
            for r2 in pair_ranks[i + 1 :]:
                for p1 in pairs[r1]:
                    k1 = max(power[c] for c in p1)
                    for p2 in pairs[r2]:
                        add(_mask(p1) | _mask(p2), Kind.TWO_PAIRS, max(power[c] for c in p2) * POWER_SPAN + k1, r2)

    if en & {Kind.TWO_PAIR_JUNK, Kind.SISTERS}:
        for i, r1 in enumerate(pair_ranks):
            for r2 in pair_ranks[i + 1 :]:
                shapes: list[Kind] = []
                if Kind.TWO_PAIR_JUNK in en:
                    shapes.append(Kind.TWO_PAIR_JUNK)
                if Kind.SISTERS in en and r2 == r1 + 1 and r2 < JOKER_RANK:
                    shapes.append(Kind.SISTERS)
                if not shapes:
                    continue
                junk = [c for c in cs if rank_of[c] != r1 and rank_of[c] != r2]
                for p1 in pairs[r1]:
                    for p2 in pairs[r2]:
                        key = ev._pairs_key(list(p2), list(p1))
                        m = _mask(p1) | _mask(p2)
                        for j in junk:
                            for shape in shapes:
                                add(m | _BIT[j], shape, key, r2)

    if Kind.FULL_HOUSE in en:
        for t, g in by_rank.items():
            if len(g) >= 3:
                for trip in combinations(g, 3):
                    tm, tk = _mask(trip), max(ev.full_power[c] for c in trip)
                    for r2 in pair_ranks:
                        if r2 != t:
                            for pr in pairs[r2]:
                                m = tm | _BIT[pr[0]] | _BIT[pr[1]]
                                p = cache.get(m)
                                out.append(p if p is not None else make(m, Kind.FULL_HOUSE, tk, t))

    if Kind.FOUR_OF_A_KIND in en:
        for r, g in by_rank.items():
            if len(g) >= 4:
                kickers = [c for c in cs if rank_of[c] != r]
                for quad in combinations(g, 4):
                    qm, qk = _mask(quad), ev.poker_key(quad)
                    for j in kickers:
                        m = qm | _BIT[j]
                        p = cache.get(m)
                        out.append(p if p is not None else make(m, Kind.FOUR_OF_A_KIND, qk, r))

    if Kind.TRIPLE_JUNK in en:
        for t, g in by_rank.items():
            if len(g) >= 3:
                others = [c for c in cs if rank_of[c] != t]
                for trip in combinations(g, 3):
                    tm, tk = _mask(trip), ev.poker_key(trip)
                    for a, b in combinations(others, 2):
                        if rank_of[a] != rank_of[b]:
                            m = tm | _BIT[a] | _BIT[b]
                            p = cache.get(m)
                            out.append(p if p is not None else make(m, Kind.TRIPLE_JUNK, tk, t))

    flush_on = Kind.FLUSH in en
    if ev.straights:
        want_straight = Kind.STRAIGHT in en
        want_sf = Kind.STRAIGHT_FLUSH in en
        want_royal = Kind.ROYAL_FLUSH in en
        held = 0  # ranks present, as bits
        for r in by_rank:
            held |= 1 << r
        for length, windows in ev.straight_windows.items():
            if sizes is not None and length not in sizes:
                continue
            for pos, ranks, tb, wmask in windows:
                if wmask & ~held:
                    continue
                groups = [by_rank[r] for r in ranks]
                tbi = ranks.index(tb)
                royal = want_royal and length == 5 and sum(1 << r for r in ranks) == ROYAL_RANKS
                suited_kinds: list[Kind] = [k for k in (Kind.STRAIGHT, Kind.STRAIGHT_FLUSH) if k in en]
                if royal:
                    suited_kinds.append(Kind.ROYAL_FLUSH)
                # a suited one is the best of its enabled kinds; only a five-card flush can coincide with it
                # elsewhere (the flush generator), so only then does it go through the resolving dict
                best_suited = max(suited_kinds, key=cat.__getitem__) if suited_kinds else None
                via_dict = flush_on and length == 5
                for choice in product(*groups):
                    m = _mask(choice)
                    s = suit_of[choice[0]]
                    suited = (want_sf or want_royal or via_dict) and all(suit_of[c] == s for c in choice)
                    if suited:
                        if best_suited is None:
                            continue  # a flush only, which the flush generator makes
                        kind = best_suited
                        if kind == Kind.ROYAL_FLUSH:
                            key, value = power[choice[ranks.index(11)]], 11
                        else:
                            key, value = ev.straight_kv(pos, choice, choice[tbi], tb)
                        if via_dict:
                            add(m, kind, key, value)
                            continue
                    elif want_straight:
                        kind = Kind.STRAIGHT
                        key, value = ev.straight_kv(pos, choice, choice[tbi], tb)
                    else:
                        continue
                    p = cache.get(m)
                    out.append(p if p is not None else make(m, kind, key, value))

    if Kind.FLUSH in en:
        for s, g in by_suit.items():
            if s != 4 and len(g) >= 5:
                for combo in combinations(g, 5):
                    m = _mask(combo)
                    hit = cache.get(m) if m not in found else None
                    if hit is None:
                        add(m, Kind.FLUSH, ev.flush_key(combo), max(rank_of[c] for c in combo))
                    else:
                        found[m] = hit

    for width, kind in ((2, Kind.PAIR_STRAIGHT), (3, Kind.TRIPLE_STRAIGHT)):
        if kind in en:
            deep = 0  # ranks held at least `width` times, as bits
            for r, g in by_rank.items():
                if len(g) >= width:
                    deep |= 1 << r
            for n, runs in ev.run_windows[width].items():
                if sizes is not None and n * width not in sizes:
                    continue
                for pos, run, wmask in runs:
                    if wmask & ~deep:
                        continue
                    sets = [list(combinations(by_rank[r], width)) for r in run]
                    top = run[-1]
                    for picks in product(*sets):
                        m = 0
                        for grp in picks:
                            m |= _mask(grp)
                        add(m, kind, pos * POWER_SPAN + max(power[c] for c in picks[-1]), top)

    for m, v in found.items():
        out.append(v if isinstance(v, Play) else make(m, v[1], v[2], v[3]))
    out.sort(key=_sort_key)
    return out


def _wild_combos(ev: Evaluator, hand: int, sizes: frozenset[int] | set[int] | None) -> list[Play]:
    """Combinations of a hand holding wild jokers: those of its natural cards, then the sets that hold a joker,
    classified (the classifier tries the joker as itself and as what it may stand for). Of the natural cards
    beside the jokers, only sets that could make some kind of the size are looked at (:func:`_wild_partners`)."""
    jokers = hand & ev.joker_mask
    natural = hand & ~jokers
    out = all_combos(ev, natural, sizes) if natural else []
    want = sorted(ev.kinds_by_size if sizes is None else (n for n in sizes if n in ev.kinds_by_size))
    nat = bits(natural)
    jok = bits(jokers)
    seen = set()
    for j in range(1, len(jok) + 1):
        for js in combinations(jok, j):
            jm = _mask(js)
            for n in want:
                if n - j < 0 or n - j > len(nat):
                    continue
                for rest in _wild_partners(ev, nat, n, n - j):
                    m = jm | _mask(rest)
                    if m in seen:
                        continue
                    seen.add(m)
                    p = ev.classify(m)
                    if p is not None:
                        out.append(p)
    out.sort(key=_sort_key)
    return out


def _wild_partners(ev: Evaluator, nat: list[int], size: int, k: int) -> Iterator[tuple[int, ...]]:
    """The sets of ``k`` of the natural cards ``nat`` that wild jokers could complete to some kind of ``size``
    cards, by the kinds' conditions in :meth:`Evaluator._wild_reachable`: few enough ranks, one suit, ranks
    inside one sequence. Every set classification could read as a kind is among them (some more than once, and
    some that make nothing); a kind without a condition there makes it every set."""
    kinds = ev.kinds_by_size[size]
    if k == 0 or any(kind not in RANKS_AT_MOST and kind not in WILD_SHAPED for kind in kinds):
        yield from combinations(nat, k)
        return
    rank_of, suit_of = ev.rank_of, ev.suit_of
    by_rank: dict[int, list[int]] = {}
    for c in nat:
        by_rank.setdefault(rank_of[c], []).append(c)
    most = max((RANKS_AT_MOST[kind] for kind in kinds if kind in RANKS_AT_MOST), default=0)
    for r in range(1, min(most, k, len(by_rank)) + 1):
        for ranks in combinations(sorted(by_rank), r):
            pool = [c for x in ranks for c in by_rank[x]]
            for combo in combinations(pool, k):
                if len({rank_of[c] for c in combo}) == r:  # each set once: by exactly the ranks it shows
                    yield combo
    if any(kind in SUITED_KINDS for kind in kinds):
        by_suit: dict[int, list[int]] = {}
        for c in nat:
            by_suit.setdefault(suit_of[c], []).append(c)
        for g in by_suit.values():
            yield from combinations(g, k)
    widths = {1 for kind in kinds if kind in STRAIGHT_KINDS} | {RUN_WIDTH[kind] for kind in kinds if kind in RUN_WIDTH}
    for width in sorted(widths):
        for w in ev.rank_windows(size, width):
            pool = [c for c in nat if w >> rank_of[c] & 1]
            yield from combinations(pool, k)


def _sort_key(p: Play) -> tuple[int, int, int]:
    # the mask breaks ties between equal plays (two decks, no suit order), so the order is canonical
    return (p.cls, p.order, p.mask)


class HandIndex:
    """A hand's combinations, enumerated lazily by size and grouped for quick answers.

    Immutable as far as callers can tell: ``without()`` returns a new index. Sizes nobody has asked for yet
    are never enumerated, so a seat that never leads never pays for its five-card hands, and a size first
    needed late in a round is enumerated from the smaller hand it has by then. The indexes of one shrinking
    hand share a pool of enumerated lists (each from some earlier, larger hand); an index filters a list down
    to its own hand only when that size is asked for.
    """

    __slots__ = ("_bombs", "_buckets", "_by_size", "_plays", "_pool", "ev", "hand")

    def __init__(self, ev: Evaluator, hand: int, pool: dict[int, tuple[int, list[Play]]] | None = None):
        self.ev = ev
        self.hand = hand
        # size -> (the hand the list was made for, the list); valid for any subset of that hand, which matters
        # because undo and clone() branch a hand's history
        self._pool: dict[int, tuple[int, list[Play]]] = pool if pool is not None else {}
        self._by_size: dict[int, list[Play]] = {}
        self._plays: list[Play] | None = None
        self._bombs: list[Play] | None = None
        self._buckets: dict[int, tuple[list[int], list[Play]]] = {}

    @classmethod
    def build(cls, ev: Evaluator, hand: int) -> HandIndex:
        return cls(ev, hand)

    def _size(self, n: int) -> list[Play]:
        got = self._by_size.get(n)
        if got is None:
            pooled = self._pool.get(n)
            hand = self.hand
            if pooled is not None and not hand & ~pooled[0]:
                out = ~hand
                got = [p for p in pooled[1] if not p.mask & out]
            else:
                got = all_combos(self.ev, hand, frozenset((n,)))
            self._pool[n] = (hand, got)  # the smaller list serves later, smaller hands better
            self._by_size[n] = got
        return got

    @property
    def plays(self) -> list[Play]:
        """Every combination in the hand, sorted by (class, order)."""
        if self._plays is None:
            sizes = self.ev.kinds_by_size
            hand = self.hand
            missing = [n for n in sizes if n not in self._by_size and (n not in self._pool or hand & ~self._pool[n][0])]
            if missing:
                fresh = all_combos(self.ev, hand, frozenset(missing))
                grouped: dict[int, list[Play]] = {n: [] for n in missing}
                for p in fresh:
                    grouped[p.size].append(p)
                for n, ps in grouped.items():
                    self._pool[n] = (hand, ps)
                    self._by_size[n] = ps
            allp = [p for n in sizes for p in self._size(n)]
            allp.sort(key=_sort_key)
            self._plays = allp
        return self._plays

    def without(self, played: int) -> HandIndex:
        """The index of the hand after ``played`` cards leave it (nothing is filtered until it is needed)."""
        return HandIndex(self.ev, self.hand & ~played, self._pool)

    def _bucket(self, top: Play) -> tuple[list[int], list[Play]]:
        b = self._buckets.get(top.cls)
        if b is None:
            cls = top.cls
            ps = [p for p in self._size(top.size) if p.cls == cls]
            b = ([p.order for p in ps], ps)
            self._buckets[cls] = b
        return b

    def answers(self, top: Play) -> list[Play]:
        """Combinations in this hand that beat ``top`` by the ordinary rule (bombs aside), lowest first."""
        orders, ps = self._bucket(top)
        if self.ev.equal_beats:
            return [p for p in ps[bisect_left(orders, top.order) :] if p.mask != top.mask]
        return ps[bisect_right(orders, top.order) :]

    def bombs(self) -> list[Play]:
        """The hand's bombs, weakest first."""
        if self._bombs is None:
            found = [p for n in sorted(self.ev.bomb_sizes) for p in self._size(n) if p.bomb]
            found.sort(key=lambda p: p.bomb)
            self._bombs = found
        return self._bombs

    def jokers(self) -> list[Play]:
        """The hand's jokers as singles (valueless jokers answer any single)."""
        return [p for p in self._size(1) if p.mask & self.ev.joker_mask]

    def containing(self, mask: int) -> list[Play]:
        return [p for p in self.plays if p.mask & mask == mask]


def legal_answers_bruteforce(ev: Evaluator, hand: int, top: Play | None) -> set[int]:
    """Reference: every subset of the hand, classified and compared. Exponential; for tests only."""
    cs = bits(hand)
    out = set()
    for n in range(1, len(cs) + 1):
        if n not in ev.kinds_by_size:
            continue
        for combo in combinations(cs, n):
            m = _mask(combo)
            p = ev.classify(m)
            if p is not None and (top is None or ev.beats(p, top)):
                out.add(m)
    return out
