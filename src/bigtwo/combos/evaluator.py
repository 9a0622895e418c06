"""The Evaluator: a ruleset compiled into tables, answering "what is this?" and "does A beat B?".

Every card gets a *power* (rank * 8 + suit power, so suits only break ties and 'no suit order' makes them
all 0). Every combination gets a category (its kind's place in ``rules.combinations``), a *key* that orders
it within its kind, a comparison class ``cls`` and an ``order`` such that, outside bombs, A beats B exactly
when ``A.cls == B.cls and A.order > B.order``. Legal-move generation relies on that to answer with a bisect.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import product
from typing import Any

from bigtwo.cards import (
    BLACK_JOKER,
    DECK_SIZE,
    JOKER_RANK,
    RANK_CHARS,
    RANK_NAMES,
    RANK_PLURALS,
    RED_JOKER,
    SUIT_NAMES,
    SUIT_NAMES_SINGULAR,
    TWO,
    CardSet,
    bits,
    checked_mask,
    to_mask,
)
from bigtwo.combos.play import Play
from bigtwo.errors import CardParseError
from bigtwo.i18n import ENGLISH, _, current, ngettext
from bigtwo.rules.choices import (
    UNORDERED_SUITS,
    BombVsBomb,
    FiveCardBeating,
    FlushOrder,
    HighJoker,
    MatchBy,
    PokerTwos,
    StraightOrder,
)
from bigtwo.rules.kinds import KINDS, Kind
from bigtwo.rules.ruleset import compile_with
from bigtwo.rules.straights import STRAIGHT_TABLES
from bigtwo.words import kind_name

NCARDS = DECK_SIZE * 2
VIRTUAL = 128  # indices VIRTUAL + rank * SUIT_SLOTS + slot stand for what a wild joker replaces
SUIT_SLOTS = 8  # power = rank * SUIT_SLOTS + suit power; slots 4 and 5 are wild jokers' 'above spades'
POWER_SPAN = 128  # every power is below this, so (a * POWER_SPAN + b) orders by a, then b
SIZE_SPAN = 128  # every combination has fewer cards than this
ROYAL_RANKS = sum(1 << r for r in range(7, 12))  # T J Q K A
KEY_BITS = 24
MatchResult = tuple[int, int] | None  # (key, value)
RUN_WIDTH = {Kind.PAIR_STRAIGHT: 2, Kind.TRIPLE_STRAIGHT: 3}
# the most ranks a kind's natural cards may show for wild jokers to complete it (the rest stand in)
RANKS_AT_MOST = {
    Kind.SINGLE: 1,
    Kind.PAIR: 1,
    Kind.TRIPLE: 1,
    Kind.QUAD: 1,
    Kind.FIVE_OF_A_KIND: 1,
    Kind.JOKER_PAIR: 0,
    Kind.FULL_HOUSE: 2,
    Kind.FOUR_OF_A_KIND: 2,
    Kind.TWO_PAIRS: 2,
    Kind.TWO_PAIR_JUNK: 3,
    Kind.SISTERS: 3,
    Kind.TRIPLE_JUNK: 3,
}
# kinds whose cards share one suit, and kinds whose ranks run in one straight's sequence: what wild jokers can
# complete them to depends on the natural cards' suits, and on the sequences their ranks lie in
SUITED_KINDS = frozenset((Kind.FLUSH, Kind.STRAIGHT_FLUSH, Kind.ROYAL_FLUSH))
STRAIGHT_KINDS = frozenset((Kind.STRAIGHT, Kind.STRAIGHT_FLUSH, Kind.ROYAL_FLUSH))


class Evaluator:
    """Compiled comparison data for one Ruleset. Build through ``rules.engine`` (cached)."""

    def __init__(self, rules: Any, players: int | None = None, twos_low: bool = False):
        self.rules = rules
        self.name = rules.name
        self.players = rules.players if players is None else players
        self.twos_low = twos_low
        so = rules.suit_order
        self.suit_ranked = so != UNORDERED_SUITS
        self.suit_power = [so.index(s) for s in "DCHS"] if self.suit_ranked else [0, 0, 0, 0]
        self.pack = CardSet.deck(rules.jokers, rules.decks).mask
        high_joker = RED_JOKER if rules.high_joker == HighJoker.RED else BLACK_JOKER
        # where each rank stands (3..2, then the jokers): the 2s drop below the 3s in a round a dealt four of a
        # kind made 'twos low' (002 Four-of-a-kind), and inside poker hands under poker_twos = "low"
        low = [r + 1 for r in range(TWO)] + [0, JOKER_RANK]
        self.rank_power = low if twos_low else list(range(JOKER_RANK + 1))
        self.poker_rank_power = low if rules.poker_twos == PokerTwos.LOW else self.rank_power
        n_all = VIRTUAL + JOKER_RANK * SUIT_SLOTS
        self.rank_of = [0] * n_all
        self.suit_of = [4] * n_all
        # power orders cards (rank, then suit); the others order them inside poker hands: full_power for full
        # houses and straights (the 2s keep their place), poker_power for flushes, fours and junk hands
        self.power = [0] * n_all
        self.full_power = [0] * n_all
        self.poker_power = [0] * n_all
        suits_split = rules.poker_suit_tiebreak
        self.joker_mask = 0

        def place(i: int, r: int, slot_power: int) -> None:
            self.power[i] = self.rank_power[r] * SUIT_SLOTS + slot_power
            tie = slot_power if suits_split else 0
            self.full_power[i] = self.rank_power[r] * SUIT_SLOTS + tie
            self.poker_power[i] = self.poker_rank_power[r] * SUIT_SLOTS + tie

        for i in range(NCARDS):
            f = i % DECK_SIZE
            if f < 52:
                r, s = f >> 2, f & 3
                self.rank_of[i], self.suit_of[i] = r, s
                place(i, r, self.suit_power[s])
            else:
                self.rank_of[i] = JOKER_RANK
                place(i, JOKER_RANK, 1 if f == high_joker else 0)
                self.joker_mask |= 1 << i
        # a wild joker standing for rank r: slot 0-3 as that suit (for flushes), 4/5 'above spades' as the low/high
        # joker (house code 5.3.1: a pair holding a joker beats one without, the high joker's beats the low's)
        for r in range(JOKER_RANK):
            for slot in range(6):
                v = VIRTUAL + r * SUIT_SLOTS + slot
                self.rank_of[v] = r
                self.suit_of[v] = slot if slot < 4 else 4
                place(v, r, self.suit_power[slot] if slot < 4 else slot)
        self.high_joker_face = high_joker
        self.wild = rules.wild_jokers
        self.valueless = rules.valueless_jokers
        self.highest_face = max(range(52), key=lambda c: (self.power[c], c))
        self.highest_card_straights = rules.straight_order == StraightOrder.HIGHEST_CARD
        self.kinds = tuple(Kind(k) for k in rules.combinations if k not in rules.kinds_not_played)
        self.enabled = frozenset(self.kinds)
        self.cat = {k: i for i, k in enumerate(self.kinds)}
        families = sorted({KINDS[k].family for k in self.kinds})
        self.family_id = {k: families.index(KINDS[k].family) for k in self.kinds}
        self.match_kind = rules.match == MatchBy.KIND
        self.same_category_fives = rules.five_card_beating == FiveCardBeating.SAME_CATEGORY
        self.card_value_fives = rules.five_card_beating == FiveCardBeating.CARD_VALUE

        table = STRAIGHT_TABLES[rules.straight_table]
        self.table = table
        # straights[length] = {rank bits: (position, tie-break rank)}; seqs for generation
        self.straights: dict[int, dict[int, tuple[int, int]]] = {}
        self.straight_seqs: dict[int, list[tuple[int, tuple[int, ...], int]]] = {}
        # the same with each window's ranks as a bitmask, so generation tests a hand's ranks in one operation
        self.straight_windows: dict[int, list[tuple[int, tuple[int, ...], int, int]]] = {}
        self.run_windows: dict[int, dict[int, list[tuple[int, tuple[int, ...], int]]]] = {2: {}, 3: {}}
        lengths = rules.straight_lengths
        if rules.people(self.players) >= 5 and rules.straight_lengths_five_plus:
            lengths = rules.straight_lengths_five_plus
        self.straight_lengths = lengths
        if self.enabled & {Kind.STRAIGHT, Kind.STRAIGHT_FLUSH, Kind.ROYAL_FLUSH}:
            for length in lengths:
                seqs = table.sequences(length)
                self.straights[length] = {sum(1 << r for r in ranks): (pos, tb) for pos, (ranks, tb) in enumerate(seqs)}
                self.straight_seqs[length] = [(pos, ranks, tb) for pos, (ranks, tb) in enumerate(seqs)]
                # one reading per set of ranks, the one classify() takes (13 ranks read A-2-..-K or 2-..-A)
                self.straight_windows[length] = [
                    (pos, ranks, tb, rb)
                    for pos, (ranks, tb) in enumerate(seqs)
                    if self.straights[length][rb := sum(1 << r for r in ranks)][0] == pos
                ]
        self.runs: dict[int, dict[int, dict[int, tuple[int, int]]]] = {2: {}, 3: {}}
        self.run_seqs: dict[int, dict[int, list[tuple[int, tuple[int, ...]]]]] = {2: {}, 3: {}}
        for width, kind, least, most in (
            (2, Kind.PAIR_STRAIGHT, rules.pair_straight_min, rules.pair_straight_max),
            (3, Kind.TRIPLE_STRAIGHT, rules.triple_straight_min, rules.triple_straight_max),
        ):
            if kind in self.enabled:
                for n in range(least, min(most, table.max_length()) + 1):
                    runs = table.line_runs(n)
                    if runs:
                        self.runs[width][n] = {sum(1 << r for r in run): (pos, run[-1]) for pos, run in enumerate(runs)}
                        self.run_seqs[width][n] = list(enumerate(runs))
                        self.run_windows[width][n] = [
                            (pos, run, m)
                            for pos, run in enumerate(runs)
                            if self.runs[width][n][m := sum(1 << r for r in run)][0] == pos
                        ]

        sizes: dict[int, list[Kind]] = {}
        for kind in self.kinds:
            for n in self._sizes_of(kind):
                sizes.setdefault(n, []).append(kind)
        self._reachable_seen: dict[tuple[int, bool, bool, int], list[Kind]] = {}  # see _wild_reachable
        self.kinds_by_size = {n: sorted(ks, key=self.cat.__getitem__, reverse=True) for n, ks in sizes.items()}
        self._matchers: dict[str, Callable[[list[int], dict[int, list[int]]], MatchResult]] = {
            Kind.SINGLE: self._m_single,
            Kind.PAIR: self._m_same_rank,
            Kind.TRIPLE: self._m_same_rank,
            Kind.QUAD: self._m_same_rank,
            Kind.TWO_PAIRS: self._m_two_pairs,
            Kind.STRAIGHT: self._m_straight,
            Kind.STRAIGHT_FLUSH: self._m_straight_flush,
            Kind.ROYAL_FLUSH: self._m_royal_flush,
            Kind.FLUSH: self._m_flush,
            Kind.FULL_HOUSE: self._m_full_house,
            Kind.FOUR_OF_A_KIND: self._m_four_of_a_kind,
            Kind.TWO_PAIR_JUNK: self._m_two_pair_junk,
            Kind.SISTERS: self._m_sisters,
            Kind.TRIPLE_JUNK: self._m_triple_junk,
            Kind.PAIR_STRAIGHT: self._m_pair_straight,
            Kind.TRIPLE_STRAIGHT: self._m_triple_straight,
            Kind.FIVE_OF_A_KIND: self._m_same_rank,
            Kind.JOKER_PAIR: self._m_joker_pair,
            Kind.DRAGON: self._m_dragon,
        }
        self.bomb_rules = [(b.kind, b.length, frozenset(b.beats)) for b in rules.bombs if b.kind in self.enabled]
        self.has_bombs = bool(self.bomb_rules)
        self.bomb_same_kind = rules.bomb_vs_bomb == BombVsBomb.SAME_KIND
        self.bomb_sizes = frozenset(n for kind, _l, _t in self.bomb_rules for n in self._sizes_of(kind))
        self.equal_beats = rules.equal_beats
        self._permissive: Evaluator | None = None
        # mask -> Play: a mask's classification never changes under one ruleset, and small combinations
        # recur in every deal, so generation and validation mostly become dict lookups
        self.cache: dict[int, Play | None] = {}
        self._kinds_of_sizes: dict[frozenset[int], frozenset[Kind]] = {}

    def kinds_of_sizes(self, sizes: frozenset[int] | set[int]) -> frozenset[Kind]:
        """Enabled kinds that can have one of ``sizes`` cards (cached)."""
        got = self._kinds_of_sizes.get(sizes if isinstance(sizes, frozenset) else frozenset(sizes))
        if got is None:
            got = frozenset(k for n in sizes for k in self.kinds_by_size.get(n, ()))
            self._kinds_of_sizes[frozenset(sizes)] = got
        return got

    def _sizes_of(self, kind: Kind) -> list[int]:
        fixed = {
            Kind.SINGLE: 1,
            Kind.PAIR: 2,
            Kind.TRIPLE: 3,
            Kind.QUAD: 4,
            Kind.TWO_PAIRS: 4,
            Kind.JOKER_PAIR: 2,
            Kind.DRAGON: 13,
        }
        if kind in fixed:
            return [fixed[kind]]
        if kind in (Kind.STRAIGHT, Kind.STRAIGHT_FLUSH):
            return sorted(self.straights)
        if kind == Kind.PAIR_STRAIGHT:
            return [2 * n for n in self.runs[2]]
        if kind == Kind.TRIPLE_STRAIGHT:
            return [3 * n for n in self.runs[3]]
        return [5]

    # --- keys shared by classification and generation ----------------------------------------------
    def max_power(self, cards: list[int] | tuple[int, ...]) -> int:
        p = self.power
        return max(p[c] for c in cards)

    def straight_key(self, pos: int, tb_card: int) -> int:
        """A straight's key by the table: its place, then (where suits split straights) the tie-break card."""
        return pos * POWER_SPAN + (self.full_power[tb_card] if self.rules.straight_suit_tiebreak else 0)

    def straight_kv(self, pos: int, cards: Any, tb_card: int, tb_rank: int) -> tuple[int, int]:
        """(key, value) of a straight or straight flush: by the table, or by its highest card (004 Chor Dai Di:
        "Straight, determined by highest card", a card's value being its number, then its suit)."""
        if self.highest_card_straights:
            top = max(cards, key=self.power.__getitem__)
            tie = self.rules.straight_suit_tiebreak
            fp = self.full_power[top]
            return (fp if tie else fp - fp % SUIT_SLOTS), self.rank_of[top]
        return self.straight_key(pos, tb_card), tb_rank

    def poker_key(self, cards: Any) -> int:
        """The highest card of a four of a kind's four or a junk hand's group, as poker hands rank them."""
        pp = self.poker_power
        return int(max(pp[c] for c in cards))

    def flush_key(self, cards: list[int] | tuple[int, ...]) -> int:
        prk = self.poker_rank_power
        ranks = sorted((prk[self.rank_of[c]] for c in cards), reverse=True)
        rk = 0
        for r in ranks:
            rk = rk * 16 + r
        suit = self.suit_power[self.suit_of[cards[0]]] if self.rules.poker_suit_tiebreak else 0
        order = self.rules.flush_order
        if order == FlushOrder.RANKS_THEN_SUIT:
            return rk * SUIT_SLOTS + suit
        if order == FlushOrder.SUIT_THEN_RANKS:
            return suit * (16**5) + rk
        return self.poker_key(cards)

    CACHE_LIMIT = 400_000

    def make(self, mask: int, kind: Kind, key: int, value: int) -> Play:
        """The Play for a classified mask (cached): its comparison class and order under these rules."""
        p = self.cache.get(mask)
        if p is not None:
            return p
        p = self._make(mask, kind, key, value)
        if len(self.cache) >= self.CACHE_LIMIT:
            self.cache.clear()
        self.cache[mask] = p
        return p

    def _make(self, mask: int, kind: Kind, key: int, value: int) -> Play:
        cat = self.cat[kind]
        size = mask.bit_count()
        if self.match_kind:
            cls = self.family_id[kind] * SIZE_SPAN + size
        elif size == 5 and self.same_category_fives:
            cls = (cat + 1) * SIZE_SPAN + size
        else:
            cls = size
        order = (cat << KEY_BITS) | key
        if size == 5 and self.card_value_fives:
            order |= self.rank_power[value] << (KEY_BITS + 5)
        if self.valueless and kind == Kind.SINGLE and mask & self.joker_mask:
            order = -1  # a valueless joker: any single beats it (it beats any single by the rule in beats())
        bomb = 0
        for i, (bkind, length, _targets) in enumerate(self.bomb_rules):
            if bkind == kind and (length is None or length * RUN_WIDTH.get(kind, 1) == size):
                bomb = ((i + 1) << 40) | (size << 32) | key
        return Play(mask, kind, cat, key, value, cls, order, bomb)

    # --- classification ------------------------------------------------------------------------------
    def classify(self, mask: int) -> Play | None:
        """The best combination these cards make (highest category among enabled kinds), or None."""
        p = self.cache.get(mask)
        if p is not None:
            return p
        kinds = self.kinds_by_size.get(mask.bit_count())
        if not kinds:
            return None
        if self.valueless and mask & self.joker_mask and mask & (mask - 1):
            return None  # a valueless joker is played alone
        if self.wild and mask & self.joker_mask:
            best = self._best_wild(mask, kinds)
        else:
            best = self._match(bits(mask), kinds)
        if best is None:
            return None
        return self.make(mask, best[0], best[1], best[2])

    def _match(self, cs: list[int], kinds: list[Kind]) -> tuple[Kind, int, int] | None:
        """The highest-category kind (of ``kinds``, sorted high first) the cards ``cs`` make, with key and value."""
        groups: dict[int, list[int]] = {}
        rank_of = self.rank_of
        for c in cs:
            groups.setdefault(rank_of[c], []).append(c)
        for kind in kinds:
            res = self._matchers[kind](cs, groups)
            if res is not None:
                return kind, res[0], res[1]
        return None

    def _best_wild(self, mask: int, kinds: list[Kind]) -> tuple[Kind, int, int] | None:
        """Best reading of a set holding wild jokers: the jokers as themselves, or standing for other cards.

        Each reading tries only the kinds its cards could still make (:meth:`_wild_reachable`): with natural
        cards in the set, most sets make none, and the stand-ins' product is skipped.
        """
        natural = bits(mask & ~self.joker_mask)
        jokers = bits(mask & self.joker_mask)
        size = len(natural) + len(jokers)
        own = wild = kinds  # jokers alone: every kind, as themselves and standing in
        if natural:
            own = self._wild_reachable(natural + jokers, size)
            wild = self._wild_reachable(natural, size)
        best = self._match(natural + jokers, own) if own else None
        if not wild:
            return best
        best_rank = (self.cat[best[0]], best[1]) if best else None
        options = [self.stand_ins(natural, j, size) for j in jokers]
        for choice in product(*options):
            res = self._match(natural + list(choice), wild)
            if res is not None:
                rank = (self.cat[res[0]], res[1])
                if best_rank is None or rank > best_rank:
                    best, best_rank = res, rank
        return best

    def _wild_reachable(self, cards: list[int], size: int) -> list[Kind]:
        """The kinds of ``size`` cards that ``cards`` could make, wild jokers standing in for the rest.

        A necessary condition, kind by kind, on the cards given: their number of ranks (a pair needs one, a full
        house two), a sequence their ranks lie in, one suit for a flush. A joker given as itself is of its own
        rank and suit, so it counts as one more rank and suit. A kind without a condition here is kept. The
        answer depends on the ranks, whether they repeat and whether one suit holds them all, and is remembered
        by those: a hand's sets show the same few again and again.
        """
        rank_of, suit_of = self.rank_of, self.suit_of
        rm = 0
        for c in cards:
            rm |= 1 << rank_of[c]
        suit = suit_of[cards[0]]
        one_suit = all(suit_of[c] == suit for c in cards)
        distinct = rm.bit_count() == len(cards)
        key = (rm, distinct, one_suit, size)
        got = self._reachable_seen.get(key)
        if got is None:
            kinds = self.kinds_by_size.get(size, [])
            got = self._reachable_seen[key] = self._reachable_kinds(rm, distinct, one_suit, size, kinds)
        return got

    def _reachable_kinds(self, rm: int, distinct: bool, one_suit: bool, size: int, kinds: list[Kind]) -> list[Kind]:
        out = []
        for kind in kinds:
            most = RANKS_AT_MOST.get(kind)
            if most is not None:
                ok = rm.bit_count() <= most
            elif kind == Kind.FLUSH:
                ok = one_suit
            elif kind == Kind.DRAGON:
                ok = distinct
            elif kind in STRAIGHT_KINDS:
                ok = distinct and (one_suit or kind not in SUITED_KINDS) and self._in_window(rm, size, 1)
            elif kind in RUN_WIDTH:
                ok = self._in_window(rm, size, RUN_WIDTH[kind])
            else:
                ok = True
            if ok:
                out.append(kind)
        return out

    def rank_windows(self, size: int, width: int) -> list[int]:
        """The sequences of a ``size``-card straight (``width`` 1) or run of pairs or triples (2 or 3), each as
        the bits of its ranks."""
        if width == 1:
            return [w for *_, w in self.straight_windows.get(size, ())]
        return [m for *_, m in self.run_windows[width].get(size // width, ())] if size % width == 0 else []

    def _in_window(self, ranks: int, size: int, width: int) -> bool:
        """Whether the ranks (as bits) lie in one of :meth:`rank_windows`."""
        return any(not ranks & ~w for w in self.rank_windows(size, width))

    def stand_ins(self, natural: list[int], joker: int, size: int, pruned: bool = True) -> list[int]:
        """The cards a wild joker may usefully stand for beside ``natural`` in a ``size``-card combination.

        A joker copies a rank already present (pairs, full houses, ...), fills a sequence the present ranks lie
        in (straights, pair straights, the dragon), tops a flush (the highest missing rank) or is an odd card
        (a missing rank); its suit is 'above spades' (slot 4, or 5 for the high joker), or the flush suit when
        the natural cards share one. ``pruned=False`` tries every rank: the reference the tests compare with.
        """
        rank_of, suit_of = self.rank_of, self.suit_of
        present = {rank_of[c] for c in natural if rank_of[c] < JOKER_RANK}
        if pruned:
            ranks = set(present)
            for _pos, seq, _tb in self.straight_seqs.get(size, ()):
                if present <= set(seq):
                    ranks.update(seq)
            for width in (2, 3):
                if size % width == 0:
                    for _pos, run in self.run_seqs[width].get(size // width, ()):
                        if present <= set(run):
                            ranks.update(run)
            if size == 13:
                ranks.update(range(JOKER_RANK))
            if size == 5 and Kind.SISTERS in self.enabled:
                # two pairs of neighbouring ranks: a joker may pair up beside a rank present (7 7 3 + two jokers
                # as 8 8 makes higher sisters than as 6 6)
                ranks.update(r + d for r in present for d in (-1, 1) if 0 <= r + d < JOKER_RANK)
            missing = [r for r in range(JOKER_RANK) if r not in present]
            if missing:
                ranks.update((missing[0], missing[-1]))
        else:
            ranks = set(range(JOKER_RANK))
        slot = 5 if joker % DECK_SIZE == self.high_joker_face else 4
        slots = [slot]
        suits = {suit_of[c] for c in natural}
        if len(suits) == 1 and 4 not in suits:
            slots.append(next(iter(suits)))
        return [VIRTUAL + r * SUIT_SLOTS + sl for r in sorted(ranks) for sl in slots]

    def _m_single(self, cs: list[int], g: dict[int, list[int]]) -> MatchResult:
        c = cs[0]
        return self.power[c], self.rank_of[c]

    def _m_same_rank(self, cs: list[int], g: dict[int, list[int]]) -> MatchResult:
        if len(g) != 1:
            return None
        return self.max_power(cs), self.rank_of[cs[0]]

    def _m_joker_pair(self, cs: list[int], g: dict[int, list[int]]) -> MatchResult:
        if len(cs) != 2 or any(c >= VIRTUAL or c % DECK_SIZE < 52 for c in cs):
            return None
        hi, lo = sorted((self.power[c] for c in cs), reverse=True)
        return hi * POWER_SPAN + lo, JOKER_RANK

    def _m_dragon(self, cs: list[int], g: dict[int, list[int]]) -> MatchResult:
        if len(g) != 13 or JOKER_RANK in g:
            return None
        return self.power[g[TWO][0]], TWO

    def _pairs_hi_lo(self, g: dict[int, list[int]], shape: list[int]) -> tuple[int, int] | None:
        if sorted(len(v) for v in g.values()) != shape:
            return None
        hi, lo = sorted((r for r, v in g.items() if len(v) == 2), reverse=True)
        return hi, lo

    def _pairs_key(self, hi: list[int], lo: list[int]) -> int:
        """A two-pair five-card hand's key: its pairs as poker ranks them, the higher pair first."""
        a, b = self.poker_key(hi), self.poker_key(lo)
        return max(a, b) * POWER_SPAN + min(a, b)

    def _m_two_pairs(self, cs: list[int], g: dict[int, list[int]]) -> MatchResult:
        hl = self._pairs_hi_lo(g, [2, 2])
        if hl is None:
            return None
        return self.max_power(g[hl[0]]) * POWER_SPAN + self.max_power(g[hl[1]]), hl[0]

    def _m_two_pair_junk(self, cs: list[int], g: dict[int, list[int]]) -> MatchResult:
        hl = self._pairs_hi_lo(g, [1, 2, 2])
        if hl is None:
            return None
        return self._pairs_key(g[hl[0]], g[hl[1]]), hl[0]

    def _m_sisters(self, cs: list[int], g: dict[int, list[int]]) -> MatchResult:
        hl = self._pairs_hi_lo(g, [1, 2, 2])
        if hl is None or hl[0] != hl[1] + 1 or hl[0] >= JOKER_RANK:
            return None
        return self._pairs_key(g[hl[0]], g[hl[1]]), hl[0]

    def _straight_info(self, cs: list[int], g: dict[int, list[int]]) -> tuple[int, int] | None:
        if len(g) != len(cs):
            return None
        by_rank = self.straights.get(len(cs))
        if by_rank is None:
            return None
        rb = 0
        for r in g:
            rb |= 1 << r
        return by_rank.get(rb)

    def _straight_result(self, g: dict[int, list[int]], info: tuple[int, int]) -> tuple[int, int]:
        pos, tb = info
        return self.straight_kv(pos, [v[0] for v in g.values()], g[tb][0], tb)

    def _suited(self, cs: list[int]) -> bool:
        s = self.suit_of[cs[0]]
        return s != 4 and all(self.suit_of[c] == s for c in cs)

    def _m_straight(self, cs: list[int], g: dict[int, list[int]]) -> MatchResult:
        info = self._straight_info(cs, g)
        return None if info is None else self._straight_result(g, info)

    def _m_straight_flush(self, cs: list[int], g: dict[int, list[int]]) -> MatchResult:
        info = self._straight_info(cs, g)
        if info is None or not self._suited(cs):
            return None
        return self._straight_result(g, info)

    def _m_royal_flush(self, cs: list[int], g: dict[int, list[int]]) -> MatchResult:
        if len(cs) != 5 or sum(1 << r for r in g) != ROYAL_RANKS or not self._suited(cs):
            return None
        return self.power[g[11][0]], 11

    def _m_flush(self, cs: list[int], g: dict[int, list[int]]) -> MatchResult:
        if len(cs) != 5 or not self._suited(cs):
            return None
        return self.flush_key(cs), max(g)

    def _m_full_house(self, cs: list[int], g: dict[int, list[int]]) -> MatchResult:
        if len(g) != 2:
            return None
        (r1, a), (r2, b) = g.items()
        if sorted((len(a), len(b))) != [2, 3]:
            return None
        t = r1 if len(a) == 3 else r2
        fp = self.full_power
        return max(fp[c] for c in g[t]), t

    def _m_four_of_a_kind(self, cs: list[int], g: dict[int, list[int]]) -> MatchResult:
        if len(g) != 2:
            return None
        for r, v in g.items():
            if len(v) == 4:
                return self.poker_key(v), r
        return None

    def _m_triple_junk(self, cs: list[int], g: dict[int, list[int]]) -> MatchResult:
        if sorted(len(v) for v in g.values()) != [1, 1, 3]:
            return None
        t = next(r for r, v in g.items() if len(v) == 3)
        return self.poker_key(g[t]), t

    def _m_run(self, cs: list[int], g: dict[int, list[int]], width: int) -> MatchResult:
        if any(len(v) != width for v in g.values()):
            return None
        table = self.runs[width].get(len(g))
        if table is None:
            return None
        rb = 0
        for r in g:
            rb |= 1 << r
        info = table.get(rb)
        if info is None:
            return None
        pos, top = info
        return pos * POWER_SPAN + self.max_power(g[top]), top

    def _m_pair_straight(self, cs: list[int], g: dict[int, list[int]]) -> MatchResult:
        return self._m_run(cs, g, 2)

    def _m_triple_straight(self, cs: list[int], g: dict[int, list[int]]) -> MatchResult:
        return self._m_run(cs, g, 3)

    # --- comparison -----------------------------------------------------------------------------------
    def beats(self, new: Play, old: Play) -> bool:
        """May ``new`` be played on ``old`` (both classified under these rules)?"""
        if self.has_bombs and (new.bomb or old.bomb):
            return self._bomb_beats(new, old)
        if new.cls != old.cls:
            return False
        if self.valueless and (new.mask | old.mask) & self.joker_mask and new.kind == old.kind == Kind.SINGLE:
            return True  # 002 Joker rules: it beats any card, and any card beats it
        return new.order >= old.order if self.equal_beats else new.order > old.order

    def normally_beats(self, new: Play, old: Play) -> bool:
        """Beats by the ordinary rule (same class, higher order), bombs aside."""
        if new.cls != old.cls:
            return False
        return new.order >= old.order if self.equal_beats else new.order > old.order

    def _bomb_beats(self, new: Play, old: Play) -> bool:
        if not new.bomb:
            return False  # only a bomb beats a bomb
        if old.bomb:
            if self.bomb_same_kind and new.bomb >> 32 != old.bomb >> 32:
                return False
            return new.bomb >= old.bomb if self.equal_beats else new.bomb > old.bomb
        return self.bomb_hits(new, old) or self.normally_beats(new, old)

    def bomb_hits(self, bomb: Play, target: Play) -> bool:
        """May this bomb be played on this (non-bomb) play, whatever its kind and size?"""
        targets = self.bomb_rules[(bomb.bomb >> 40) - 1][2]
        if "any" in targets:
            return True
        kind = target.kind
        if "singles-and-pairs" in targets and kind in (Kind.SINGLE, Kind.PAIR):
            return True
        twos = target.value == TWO
        if "single-two" in targets and kind == Kind.SINGLE and twos:
            return True
        if "pair-of-twos" in targets and kind == Kind.PAIR and twos:
            return True
        if "three-twos" in targets and kind == Kind.TRIPLE and twos:
            return True
        if "highest-single" in targets and kind == Kind.SINGLE:
            c = target.mask.bit_length() - 1
            return c < VIRTUAL and c % DECK_SIZE == self.highest_face
        return False

    def mask_of(self, cards: Any) -> int:
        """The mask of anything card-like from outside, checked against the pack (a card written twice under
        one deck is an error naming it, as is anything that is not cards)."""
        return checked_mask(cards.mask if isinstance(cards, Play) else cards, self.pack, f" under {self.name!r}")

    def play_of(self, cards: Any) -> Play | None:
        """Classify anything card-like (a Play is re-classified unless it is already ours)."""
        if isinstance(cards, Play) and not cards.mask:
            return cards
        return self.classify(self.mask_of(cards))

    def classify_cards(self, cards: Any) -> Play | None:
        return self.play_of(cards)

    def beats_cards(self, new: Any, old: Any) -> bool:
        p = self.play_of(new)
        if p is None or p.is_pass:
            return False
        if old is None:
            return True
        q = self.play_of(old)
        return q is not None and not q.is_pass and self.beats(p, q)

    def sort_cards(self, cards: Any) -> list[Any]:
        return sorted(CardSet.from_mask(to_mask(cards)), key=lambda c: (self.power[c], int(c)))

    # --- words ----------------------------------------------------------------------------------------
    def describe(self, play: Play, detail: bool = False) -> str:
        """A play in words: 'a pair of 9s', 'a straight 4-5-6-7-8'; ``detail`` adds the suit that breaks ties."""
        k = play.kind
        cs = bits(play.mask)
        rank_name = RANK_NAMES[play.value] if play.value < JOKER_RANK else "joker"
        ranks = RANK_PLURALS[play.value] if play.value < JOKER_RANK else "jokers"
        suffix = ""
        if detail and self.suit_ranked:
            top = max(cs, key=lambda c: self.power[c])
            if self.suit_of[top] != 4:
                suffix = f" with the {SUIT_NAMES_SINGULAR[self.suit_of[top]]}"
        if k == Kind.SINGLE:
            return str(CardSet.from_mask(play.mask))
        if k == Kind.PAIR:
            return f"a pair of {ranks}{suffix}"
        if k == Kind.TRIPLE:
            return f"three {ranks}{suffix}"
        if k == Kind.QUAD:
            return f"four {ranks}"
        if k == Kind.FULL_HOUSE:
            return f"a full house of {ranks}"
        if k == Kind.FOUR_OF_A_KIND:
            return f"four {ranks} with a kicker"
        if k in (Kind.STRAIGHT, Kind.STRAIGHT_FLUSH, Kind.ROYAL_FLUSH, Kind.PAIR_STRAIGHT, Kind.TRIPLE_STRAIGHT):
            seq = "-".join(RANK_CHARS[r] for r in self._sequence_ranks(play))
            label = KINDS[k].label
            if k in (Kind.STRAIGHT_FLUSH, Kind.ROYAL_FLUSH):
                return f"a {label} {seq} in {self._suit_words(cs)}"
            return f"a {label} {seq}{suffix}"
        if k == Kind.FLUSH:  # value is the top rank, a wild joker's stand-in included
            high = RANK_NAMES[play.value]
            article = "an" if high in ("A", "8") else "a"  # said "an ace", "an eight"
            return f"{article} {high}-high flush in {self._suit_words(cs)}"
        if k == Kind.TWO_PAIRS:
            return f"two pairs, {ranks} high"
        if k in (Kind.TWO_PAIR_JUNK, Kind.SISTERS):
            return f"{KINDS[k].label} ({ranks} high)"
        if k == Kind.TRIPLE_JUNK:
            return f"three {ranks} with two junk cards"
        return f"{KINDS[k].label} ({rank_name})"

    def _suit_words(self, cs: list[int]) -> str:
        """The suit a flush's natural cards share (wild jokers take it on)."""
        suits = [self.suit_of[c] for c in cs if self.suit_of[c] < 4]
        return SUIT_NAMES[suits[0]] if suits else "one suit"

    def _sequence_ranks(self, play: Play) -> list[int]:
        """A sequence's ranks in the table's order (so A-2-3-4-5 reads that way, not 3-4-5-A-2).

        Wild jokers stand in for missing ranks: the sequence is the one holding every natural rank whose top
        (or tie-break rank) is the play's recorded value.
        """
        width = RUN_WIDTH.get(play.kind, 1)
        ranks = {self.rank_of[c] for c in bits(play.mask) if self.rank_of[c] < JOKER_RANK}
        n = play.size // width
        if width == 1:
            for _pos, seq, tb in self.straight_seqs.get(n, []):
                if ranks <= set(seq) and tb == play.value:
                    return list(seq)
        else:
            for _pos, run in self.run_seqs[width].get(n, []):
                if ranks <= set(run) and run[-1] == play.value:
                    return list(run)
        return sorted(ranks)

    def kind_words(self, kind: Kind) -> str:
        return KINDS[kind].plural

    def permissive(self) -> Evaluator:
        """An evaluator with every kind enabled, to say what a disallowed set of cards would have been."""
        if self._permissive is None:
            every = tuple(KINDS)
            self._permissive = Evaluator(self.rules.model_copy(update={"combinations": every}))
        return self._permissive

    def why_not(self, new: Any, old: Any = None) -> str | None:
        """Why ``new`` may not be played on ``old`` (``None``: leading), or None when it may."""
        try:
            mask = self.mask_of(new)
        except CardParseError as e:
            return str(e)
        if mask == 0:
            return _("a play needs at least one card")
        p = self.classify(mask)
        cards = str(CardSet.from_mask(mask))
        if p is None:
            other = self.permissive().classify(mask)
            if other is not None and other.kind not in self.enabled:
                return _("{cards} is not a combination under {rules}: {kinds} are not played there").format(
                    cards=cards, rules=repr(self.name), kinds=self._kinds_said(other.kind)
                )
            return _("{cards} is not a combination under {rules}").format(cards=cards, rules=repr(self.name))
        if old is None:
            return None
        try:
            q = self.play_of(old)
        except CardParseError as e:
            return str(e)
        if q is None or q.is_pass:
            return None
        if self.beats(p, q):
            return None
        return self._reason(p, q)

    def _said(self, p: Play, exact: bool = False) -> str:
        """A play as a refusal names it: described in English (``a pair of 9s``), by its cards in any other
        language (the descriptions are English only; the cards read the same in every language)."""
        return self.describe(p, exact) if current() == ENGLISH else str(CardSet.from_mask(p.mask))

    @staticmethod
    def _kinds_said(kind: Kind) -> str:
        """A kind's plural in English (``full houses``), its name in the player's language otherwise."""
        return KINDS[kind].plural if current() == ENGLISH else kind_name(kind)

    @staticmethod
    def _kind_said(kind: Kind) -> str:
        return KINDS[kind].label if current() == ENGLISH else kind_name(kind)

    def _reason(self, p: Play, q: Play) -> str:
        """Why ``p`` does not beat ``q``: one whole sentence each (named placeholders), so every language words
        it its own way."""
        dp, dq = self._said(p), self._said(q)
        if self.has_bombs and q.bomb:
            if not p.bomb:
                return _("{play} cannot be played on {top}: only a higher bomb beats a bomb").format(play=dp, top=dq)
            if self.bomb_same_kind and p.bomb >> 32 != q.bomb >> 32:
                message = _("{play} cannot be played on {top}: only a higher {kind} of the same length")
                return message.format(play=dp, top=dq, kind=self._kind_said(q.kind))
            return _("{play} does not beat {top}: it is the lower bomb").format(play=dp, top=dq)
        if self.match_kind:
            if self.family_id[p.kind] != self.family_id[q.kind]:
                message = _("{play} cannot be played on {top}: plays must be {kinds} like the lead")
                return message.format(play=dp, top=dq, kinds=self._kinds_said(q.kind))
            if p.size != q.size:
                message = ngettext(
                    "{kinds} must have the same length as the lead ({n} card)",
                    "{kinds} must have the same length as the lead ({n} cards)",
                    q.size,
                )
                return message.format(kinds=self._kinds_said(q.kind), n=q.size)
        elif p.size != q.size:
            if q.size == 1:
                message = _("{play} cannot be played on {top}: a play must be a single card, as the lead is")
            else:
                message = _("{play} cannot be played on {top}: a play must have {n} cards, as the lead has")
            return message.format(play=dp, top=dq, n=q.size)
        elif p.cls != q.cls:
            message = _(
                "{play} cannot be played on {top}: under {rules} a five-card hand is only beaten by a higher {kind}"
            )
            return message.format(play=dp, top=dq, rules=repr(self.name), kind=self._kind_said(q.kind))
        if p.kind == q.kind and p.value == q.value:
            return _("{play} does not beat {top}").format(play=self._said(p, True), top=self._said(q, True))
        if p.cat < q.cat and p.kind != q.kind:
            message = _("{play} does not beat {top}: {kinds} rank below {lead_kinds}")
            return message.format(play=dp, top=dq, kinds=self._kinds_said(p.kind), lead_kinds=self._kinds_said(q.kind))
        return _("{play} does not beat {top}").format(play=dp, top=dq)


compile_with(Evaluator)
