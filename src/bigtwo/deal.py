"""Dealing: a shuffled pack into hands, and what happens to the cards left over, as the ruleset says.

Cards go round one at a time starting with the player after the dealer (seat ``dealer + 1``), so with the
'all' deal the first players in that order hold one card more. What is left over goes, by ``leftover``, to
a holder (the lead card's, the highest card's, the lowest diamond's, the dealer), aside unseen, aside face up,
into a stock to draw from, or on offer to the lead card's holder as a swap.
"""

from __future__ import annotations

import functools
import random
from dataclasses import dataclass, field
from typing import Any

from bigtwo.cards import DECK_SIZE, bits, card
from bigtwo.errors import BigTwoError
from bigtwo.rules.choices import DealMode, Leftover
from bigtwo.scoring import Verdict


@dataclass
class Deal:
    """The outcome of dealing: hands by seat, and where every other card of the pack went."""

    hands: list[int]
    stock: list[int] = field(default_factory=list)  # draw pile, top first (hidden)
    face_up: int = 0  # set aside, visible to everyone
    hidden: int = 0  # set aside unseen (discarded leftovers, the ghost hand)
    swap_offer: int = 0  # leftover the lead card's holder may take in exchange for the lead card
    known: dict[int, int] = field(default_factory=dict)  # seat -> cards everyone saw go into that hand


def lowest_card(ev: Any, mask: int) -> int:
    return min(bits(mask), key=lambda c: (ev.power[c], c))


def lead_card_mask(rules: Any, ev: Any, dealt: int) -> int:
    """The card whose holder leads: ``rules.lead_card`` if dealt (either deck copy), else the lowest dealt."""
    if not dealt:
        return 0
    if not rules.leads_lowest:
        c = card(rules.lead_card)
        for copy in (c, c + DECK_SIZE):
            if dealt >> copy & 1:
                return 1 << copy
    return 1 << lowest_card(ev, dealt)


def holder(hands: list[int], mask: int) -> int | None:
    for seat, h in enumerate(hands):
        if h & mask:
            return seat
    return None


def shuffle(rng: random.Random, cards: list[int]) -> None:
    """``rng.shuffle(cards)``, the same permutation from the same generator state, without a method call a card.

    Python's ``Random.shuffle`` swaps each place ``i`` (from the last down) with ``_randbelow(i + 1)``, which draws
    ``getrandbits(k)`` for the ``k`` bits of ``i + 1`` until a draw falls below it; so does this loop. A
    generator whose ``_randbelow`` is another (a subclass's) is left to its own ``shuffle``."""
    if type(rng) is not random.Random:
        rng.shuffle(cards)
        return
    getrandbits = rng.getrandbits
    for i, n, k in _shuffle_steps(len(cards)):
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        cards[i], cards[j] = cards[j], cards[i]


@functools.lru_cache(maxsize=16)
def _shuffle_steps(size: int) -> tuple[tuple[int, int, int], ...]:
    """Each place a shuffle of ``size`` cards swaps, last first, with the bound of its draw and that bound's bits."""
    return tuple((i, i + 1, (i + 1).bit_length()) for i in range(size - 1, 0, -1))


@functools.lru_cache(maxsize=64)
def _pack_cards(pack: int) -> tuple[int, ...]:
    """The cards of a pack, lowest first (the order a shuffle starts from), listed once per pack."""
    return tuple(bits(pack))


def deal(rules: Any, ev: Any, n: int, rng: random.Random, dealer: int | None = None) -> Deal:
    """Shuffle the ruleset's pack with ``rng`` and deal it to ``n`` players."""
    pack = list(_pack_cards(ev.pack))
    dealer = n - 1 if dealer is None else dealer
    style = rules.deal
    removed = 0
    if rules.leftover == Leftover.REMOVE_LOWEST and style == DealMode.EQUAL:
        # 002 Variations: "the lowest cards are consciously removed to avoid having the 2♠ ... in the kitty"
        extra = len(pack) % n
        lowest = sorted(pack, key=lambda c: (ev.power[c], c))[:extra]
        for c in lowest:
            removed |= 1 << c
        pack = [c for c in pack if not removed >> c & 1]
    shuffle(rng, pack)
    hands_n = n + 1 if style == DealMode.GHOST else n
    if style == DealMode.EQUAL:
        each = len(pack) // n
    elif style == DealMode.ALL:
        each = len(pack)
    else:
        each = rules.hand_size
        if each * hands_n > len(pack):
            raise BigTwoError(
                f"deal {style!r} of {each} cards to {hands_n} hands needs more than the {len(pack)}-card pack"
            )
    order = [(dealer + 1 + i) % n for i in range(n)]
    if style == DealMode.GHOST:
        order.append(n)  # the dead hand takes the dealer's last place in the rotation
    hands = [0] * hands_n
    upto = min(len(pack), each * hands_n)
    for k in range(hands_n):  # card i goes to order[i % hands_n]
        m = 0
        for c in pack[k:upto:hands_n]:
            m |= 1 << c
        hands[order[k]] |= m
    rest = pack[upto:]
    out = Deal(hands=hands[:n], hidden=removed)
    if style == DealMode.GHOST:
        out.hidden |= hands[n]
    if not rest:
        return out
    rest_mask = 0
    for c in rest:
        rest_mask |= 1 << c
    rule = rules.leftover
    dealt = 0
    for h in out.hands:
        dealt |= h
    target: int | None = None
    if rule == Leftover.LEAD_HOLDER:
        target = holder(out.hands, lead_card_mask(rules, ev, dealt))
    elif rule == Leftover.HIGHEST_HOLDER:
        target = holder(out.hands, 1 << max(bits(dealt), key=lambda c: (ev.power[c], c)))
    elif rule == Leftover.LOWEST_DIAMOND_HOLDER:
        diamonds = [c for c in bits(dealt) if ev.suit_of[c] == 0]
        low = min(diamonds, key=lambda c: (ev.rank_of[c], c)) if diamonds else lowest_card(ev, dealt)
        target = holder(out.hands, 1 << low)
    elif rule == Leftover.DEALER:
        target = dealer
    elif rule in (Leftover.DISCARD, Leftover.REMOVE_LOWEST):
        out.hidden |= rest_mask
    elif rule == Leftover.FACE_UP:
        out.face_up |= rest_mask
    elif rule == Leftover.STOCK:
        out.stock = list(rest)
    elif rule == Leftover.SWAP:
        out.swap_offer = rest_mask
    if target is not None:
        out.hands[target] |= rest_mask
        if rules.leftover_shown:
            out.known[target] = out.known.get(target, 0) | rest_mask
    return out


def hand_points(ev: Any, mask: int) -> int:
    """Points for a reshuffle request (002 Reshuffling): J=1, Q=2, K=3, A=4, 2=5, others 0."""
    return sum(max(0, ev.rank_of[c] - 7) for c in bits(mask) if ev.rank_of[c] < 13)


def redeal_reasons(rules: Any, ev: Any, mask: int) -> list[str]:
    """Why this hand may ask for a new deal under the ruleset (empty: it may not)."""
    out = []
    ranks = [ev.rank_of[c] for c in bits(mask)]
    if "low-points" in rules.redeal_requests and hand_points(ev, mask) <= rules.redeal_points:
        out.append(f"the hand is worth {hand_points(ev, mask)} points (at most {rules.redeal_points})")
    if "no-faces" in rules.redeal_requests and not any(r in (8, 9, 10) for r in ranks):
        out.append("the hand has no jack, queen or king")
    return out


def four_of_a_kind(ev: Any, mask: int) -> bool:
    """Whether the hand holds four cards of one rank (jokers aside)."""
    counts = [0] * 14
    for c in bits(mask):
        counts[ev.rank_of[c]] += 1
    return max(counts[:13]) >= 4


def four_twos(ev: Any, mask: int) -> bool:
    return sum(1 for c in bits(mask) if ev.rank_of[c] == 12) >= 4


def malta_dragon(ev: Any, mask: int) -> Verdict | None:
    """'win' for six pairs and a single in 13 cards, 'lose' when one of the pairs is of 3s, else None."""
    if mask.bit_count() != 13:
        return None
    counts: dict[int, int] = {}
    for c in bits(mask):
        counts[ev.rank_of[c]] = counts.get(ev.rank_of[c], 0) + 1
    if sum(v // 2 for v in counts.values()) != 6:
        return None
    return Verdict.LOSE if counts.get(0, 0) >= 2 else Verdict.WIN
