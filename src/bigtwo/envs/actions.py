"""Action encodings: a fixed catalogue of every combination a ruleset allows, and per-action card vectors.

**Catalogue layout** (``ActionCatalogue``, one ``Discrete(len(catalogue))`` space per ruleset):

- index 0 is *pass*;
- indices 1.. run through every combination the ruleset recognises in its full pack, grouped by number of
  cards (singles first), then by kind in the order ``rules.combinations`` lists them, then from the weakest
  to the strongest combination of that kind (the ruleset's own key; equal keys by lowest card index).

``catalogue.sections`` gives each (cards, kind) group's ``range``; ``catalogue.describe()`` prints them.
A catalogue is built once per ruleset (by enumerating the full pack with the engine's move generator) and
cached, so every environment of one ruleset shares it; looking a play up is one dict access by card mask.

**Card vectors**: bit ``i`` of a card mask is entry ``i`` of a vector of ``catalogue.card_width`` entries
(the layout of :mod:`bigtwo.cards`: ``rank * 4 + suit``, jokers at 52/53, a second deck copy from 54), so
a vector is as wide as the ruleset's pack needs: 52 for one deck without jokers. ``catalogue.cards``
holds every action's vector (row 0, pass, is all zeros) for methods that score (state, action) pairs.

A catalogue belongs to a ruleset *and a table size*: straight lengths may depend on the number of players
(``rules.engine_for(players)``), so ``catalogue(rules, players)`` enumerates with that table's evaluator.

Rules whose catalogue would be enormous (straights of any length, long pair straights, two decks with
many kinds: billions of combinations) are refused with the estimated size. The environments then use the
**legal** encoding instead (chosen automatically unless ``action_encoding=`` says otherwise): action ``i`` is
the ``i``-th legal play of the position, in ``Game.legal_plays()`` order, and the space is as wide as
:func:`legal_play_bound`, an upper bound on the legal plays of any hand the table can deal.

**Two decks.** Copies of one card are interchangeable at the table but are distinct card indices in the
engine. The catalogue and its ``cards`` keep the engine's indices (a play of the second 3D is its own action);
vectors meant for a policy's input (observations, ``env.action_cards()``) fold the copies with
:func:`fold_copies`: entry ``i`` of the first copy is set when a set holds at least one of that card, entry
``i + 54`` when it holds both.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import groupby
from math import comb, prod
from typing import Any

import numpy as np

from bigtwo.cards import JOKER_RANK, CardSet, CardsLike, fold_copies, to_mask
from bigtwo.combos.play import PASS, Play
from bigtwo.envs.options import ActionEncoding
from bigtwo.moves import all_combos
from bigtwo.rules.kinds import Kind
from bigtwo.rules.ruleset import Ruleset, load_rules

CATALOGUE_LIMIT = 2_000_000
"""Largest catalogue built on request: a mask over more actions than this costs more than it helps."""
AUTO_CATALOGUE_LIMIT = 200_000
"""Largest catalogue the environments choose by themselves (every preset that fits is below 150,000)."""


class CatalogueTooLarge(ValueError):
    """The ruleset allows too many distinct combinations for a flat action space."""


def pack_mask(rules: Ruleset) -> int:
    """Every card the ruleset deals from, as a mask: 52 cards, plus jokers and a second deck where it uses them."""
    return CardSet.deck(jokers=rules.jokers, decks=rules.decks).mask


def card_width(pack: int) -> int:
    """Entries in a card vector for this pack: the highest card index used, plus one."""
    return pack.bit_length()


def masks_to_vectors(masks: Sequence[int], width: int) -> np.ndarray:
    """Card masks as rows of 0/1 ``int8`` (bit ``i`` of a mask is column ``i``); one numpy call for all."""
    nbytes = (width + 7) // 8
    raw = b"".join([m.to_bytes(nbytes, "little") for m in masks])
    arr = np.frombuffer(raw, dtype=np.uint8).reshape(len(masks), nbytes)
    return np.unpackbits(arr, axis=1, count=width, bitorder="little").view(np.int8)


def vector_to_mask(vector: Any) -> int:
    """The card mask of a 0/1 vector (any numeric array-like; nonzero entries are cards)."""
    idx = np.flatnonzero(np.asarray(vector))
    m = 0
    for i in idx.tolist():
        m |= 1 << i
    return m


@dataclass(frozen=True)
class Section:
    """One group of the catalogue: every ``kind`` combination of ``cards`` cards, at ``indices``."""

    cards: int
    kind: str
    indices: range


class ActionCatalogue:
    """Every action of a ruleset as a fixed index (see the module docstring for the layout)."""

    def __init__(self, rules: Ruleset, pack: int, plays: Sequence[Play]):
        self.rules = rules
        self.pack = pack
        self.card_width = card_width(pack)
        ordered = sorted(plays, key=lambda p: (p.size, p.cat, p.key, p.mask))
        self.plays: tuple[Play, ...] = (PASS, *ordered)
        self.index: dict[int, int] = {p.mask: i for i, p in enumerate(self.plays)}
        if len(self.index) != len(self.plays):
            raise ValueError("the move generator listed a combination twice")  # an engine bug, not user input
        sections: list[Section] = [Section(0, "pass", range(0, 1))]
        start = 1
        for (size, kind), group in groupby(ordered, key=lambda p: (p.size, p.kind)):
            n = sum(1 for _ in group)
            sections.append(Section(size, kind, range(start, start + n)))
            start += n
        self.sections: tuple[Section, ...] = tuple(sections)
        self._cards: np.ndarray | None = None

    # --- sizes ---------------------------------------------------------------------------------------
    def __len__(self) -> int:
        return len(self.plays)

    @property
    def n(self) -> int:
        return len(self.plays)

    # --- index <-> play ------------------------------------------------------------------------------
    def encode(self, play: Play | CardsLike) -> int:
        """The index of a play (a Play, cards in any notation, or ``"pass"``)."""
        if isinstance(play, Play):
            mask = play.mask
        elif isinstance(play, str) and play.strip().lower() == "pass":
            mask = 0
        else:
            mask = to_mask(play)
        i = self.index.get(mask)
        if i is None:
            raise KeyError(
                f"{CardSet.from_mask(mask)} is not a combination under {self.rules.name!r}, so it has no action index"
            )
        return i

    def decode(self, index: int) -> Play:
        """The Play at ``index`` (numpy integers accepted)."""
        i = int(index)
        if not 0 <= i < len(self.plays):
            raise IndexError(f"action {i} is outside the catalogue (0-{len(self.plays) - 1}) of {self.rules.name!r}")
        return self.plays[i]

    def indices(self, plays: Iterable[Play]) -> list[int]:
        idx = self.index
        return [idx[p.mask] for p in plays]

    def mask(self, plays: Iterable[Play]) -> np.ndarray:
        """An ``int8`` 0/1 vector over the catalogue with a 1 at every given play (e.g. the legal ones)."""
        out = np.zeros(len(self.plays), dtype=np.int8)
        idx = self.index
        out[[idx[p.mask] for p in plays]] = 1
        return out

    # --- card vectors --------------------------------------------------------------------------------
    @property
    def cards(self) -> np.ndarray:
        """Every action's card vector, ``(len(catalogue), card_width)`` ``int8`` (built on first use)."""
        if self._cards is None:
            self._cards = masks_to_vectors([p.mask for p in self.plays], self.card_width)
            self._cards.flags.writeable = False
        return self._cards

    def card_vector(self, play: Play | int) -> np.ndarray:
        """The card vector of a play, or of the action at an index."""
        mask = play.mask if isinstance(play, Play) else self.plays[int(play)].mask
        return masks_to_vectors([mask], self.card_width)[0]

    def decode_cards(self, vector: Any) -> Play:
        """The Play whose card vector this is (all zeros: pass)."""
        mask = vector_to_mask(vector)
        i = self.index.get(mask)
        if i is None:
            raise KeyError(
                f"{CardSet.from_mask(mask)} is not a combination under {self.rules.name!r} (from a card vector)"
            )
        return self.plays[i]

    def describe(self) -> str:
        """The index layout, one line per (cards, kind) group."""
        lines = [f"{self.rules.name}: {len(self.plays)} actions, card vectors of {self.card_width}"]
        for s in self.sections:
            lines.append(f"  {s.indices.start:>7}-{s.indices.stop - 1:<7} {s.cards} cards  {s.kind} ({len(s.indices)})")
        return "\n".join(lines)

    def __repr__(self) -> str:
        return f"<ActionCatalogue {self.rules.name!r}: {len(self.plays)} actions>"


def estimate_catalogue_size(rules: Ruleset, pack: int | None = None, players: int | None = None) -> int:
    """How many combinations ``pack`` (default: the ruleset's full pack) holds, counted without listing them.

    Never fewer than the move generator lists (shapes that two kinds share are counted twice; wild jokers
    are counted as an extra copy of every rank and suit), so it is a safe guard against listing billions of
    plays: straights of every length and long pair straights grow as (copies of a rank) ** length.
    """
    ev = rules.engine_for(rules.players if players is None else players)
    pack = pack_mask(rules) if pack is None else pack
    per_rank: dict[int, int] = {}
    per_suit: dict[int, int] = {}
    total = pack.bit_count()
    m = pack
    while m:
        low = m & -m
        c = low.bit_length() - 1
        m ^= low
        per_rank[ev.rank_of[c]] = per_rank.get(ev.rank_of[c], 0) + 1
        per_suit[ev.suit_of[c]] = per_suit.get(ev.suit_of[c], 0) + 1
    jokers = (pack & ev.joker_mask).bit_count()
    if ev.wild and jokers:  # a wild joker may be a card of any rank and suit
        for r in range(JOKER_RANK):
            per_rank[r] = per_rank.get(r, 0) + jokers
        for su in range(4):
            per_suit[su] = per_suit.get(su, 0) + jokers
    en = ev.enabled
    count = 0
    for kind, k in ((Kind.SINGLE, 1), (Kind.PAIR, 2), (Kind.TRIPLE, 3), (Kind.QUAD, 4), (Kind.FIVE_OF_A_KIND, 5)):
        if kind in en:
            count += total if k == 1 else sum(comb(c, k) for c in per_rank.values())
    if Kind.JOKER_PAIR in en:
        count += comb(jokers, 2)
    if Kind.DRAGON in en:
        count += prod(per_rank.get(r, 0) for r in range(JOKER_RANK))
    if en & {Kind.STRAIGHT, Kind.STRAIGHT_FLUSH, Kind.ROYAL_FLUSH}:
        for seqs in ev.straight_seqs.values():
            for _pos, ranks, _tb in seqs:
                count += prod(per_rank.get(r, 0) for r in ranks)
    for width, kind in ((2, Kind.PAIR_STRAIGHT), (3, Kind.TRIPLE_STRAIGHT)):
        if kind in en:
            for runs in ev.run_seqs[width].values():
                for _pos, run in runs:
                    count += prod(comb(per_rank.get(r, 0), width) for r in run)
    if Kind.FLUSH in en:
        count += sum(comb(c, 5) for s, c in per_suit.items() if s != 4)
    pairs = {r: comb(c, 2) for r, c in per_rank.items()}
    triples = {r: comb(c, 3) for r, c in per_rank.items()}

    def outside(*ranks: int) -> int:  # cards of other ranks (with wild jokers: any card, to stay an upper bound)
        return total if ev.wild and jokers else total - sum(per_rank[r] for r in ranks)

    if Kind.FULL_HOUSE in en:
        count += sum(t * (sum(pairs.values()) - pairs[r]) for r, t in triples.items())
    if Kind.FOUR_OF_A_KIND in en:
        count += sum(comb(c, 4) * outside(r) for r, c in per_rank.items())
    if Kind.TRIPLE_JUNK in en:
        count += sum(t * comb(outside(r), 2) for r, t in triples.items())
    if en & {Kind.TWO_PAIRS, Kind.TWO_PAIR_JUNK, Kind.SISTERS}:
        paired = sorted(pairs)
        for i, r1 in enumerate(paired):
            for r2 in paired[i + 1 :]:
                both = pairs[r1] * pairs[r2]
                if Kind.TWO_PAIRS in en:
                    count += both
                if en & {Kind.TWO_PAIR_JUNK, Kind.SISTERS}:
                    count += both * outside(r1, r2)
    return count


_CATALOGUES: dict[tuple[Ruleset, int], ActionCatalogue] = {}


def catalogue(
    rules: Ruleset | str = "classic", players: int | None = None, *, limit: int = CATALOGUE_LIMIT
) -> ActionCatalogue:
    """The action catalogue of a ruleset at a table size (default: the ruleset's own), built on first use and
    then shared; refuses more than ``limit`` actions with :class:`CatalogueTooLarge`."""
    rules = load_rules(rules)
    n = rules.players if players is None else players
    key = (rules, n)
    got = _CATALOGUES.get(key)
    if got is not None:
        return got
    pack = pack_mask(rules)
    estimate = estimate_catalogue_size(rules, pack, n)
    if estimate > limit:
        raise CatalogueTooLarge(
            f"{rules.name!r} allows about {estimate:,} distinct combinations at {n} players, more than the "
            f"catalogue limit of {limit:,}; use action_encoding='legal' (an index into the legal plays, with "
            "card vectors) instead"
        )
    plays = all_combos(rules.engine_for(n), pack)
    if len(plays) + 1 > limit:
        raise CatalogueTooLarge(
            f"{rules.name!r} allows {len(plays):,} distinct combinations, more than the catalogue limit of {limit:,}; "
            "use action_encoding='legal' instead"
        )
    got = ActionCatalogue(rules, pack, plays)
    _CATALOGUES[key] = got
    return got


def auto_encoding(rules: Ruleset | str, players: int | None = None) -> ActionEncoding:
    """What the environments' ``action_encoding="auto"`` picks: ``"catalogue"`` when the ruleset's catalogue
    at this table size has at most ``AUTO_CATALOGUE_LIMIT`` combinations (estimated) and no wild jokers
    (whose catalogue is listed by classifying every set that holds a joker: minutes), else ``"legal"``."""
    rules = load_rules(rules)
    n = rules.players if players is None else players
    wild = rules.wild_jokers
    small = not wild and estimate_catalogue_size(rules, players=n) <= AUTO_CATALOGUE_LIMIT
    return ActionEncoding.CATALOGUE if small else ActionEncoding.LEGAL


def fits_catalogue(rules: Ruleset | str, limit: int = CATALOGUE_LIMIT, *, players: int | None = None) -> bool:
    """Whether ``rules`` at ``players`` may have a catalogue at all (estimated, without building it)."""
    return estimate_catalogue_size(load_rules(rules), players=players) <= limit


__all__ = [
    "AUTO_CATALOGUE_LIMIT",
    "CATALOGUE_LIMIT",
    "ActionCatalogue",
    "CatalogueTooLarge",
    "Section",
    "auto_encoding",
    "card_width",
    "catalogue",
    "estimate_catalogue_size",
    "fits_catalogue",
    "fold_copies",
    "masks_to_vectors",
    "pack_mask",
    "vector_to_mask",
]
