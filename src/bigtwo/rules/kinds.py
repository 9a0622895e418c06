"""The combination kinds a ruleset can enable, with the words used to talk about them."""

from __future__ import annotations

from dataclasses import dataclass

from bigtwo.vocabulary import Vocabulary


class Kind(Vocabulary):
    """The name of a combination kind: the one source of these names. A member equals the word rules files,
    records and observations write (``Kind.FULL_HOUSE == "full_house"``), so their text is unchanged; its
    ``repr`` is the word's, so messages that quote a kind read as before."""

    SINGLE = "single"
    PAIR = "pair"
    TRIPLE = "triple"
    QUAD = "quad"
    TWO_PAIRS = "two_pairs"
    STRAIGHT = "straight"
    FLUSH = "flush"
    FULL_HOUSE = "full_house"
    FOUR_OF_A_KIND = "four_of_a_kind"
    STRAIGHT_FLUSH = "straight_flush"
    ROYAL_FLUSH = "royal_flush"
    TWO_PAIR_JUNK = "two_pair_junk"
    TRIPLE_JUNK = "triple_junk"
    SISTERS = "sisters"
    PAIR_STRAIGHT = "pair_straight"
    TRIPLE_STRAIGHT = "triple_straight"
    FIVE_OF_A_KIND = "five_of_a_kind"
    JOKER_PAIR = "joker_pair"
    DRAGON = "dragon"
    PASS = "pass"  # a pass's (no cards): never a combination a ruleset enables, so not in KINDS


@dataclass(frozen=True)
class KindInfo:
    name: Kind
    label: str  # singular noun phrase, e.g. "full house"
    plural: str
    family: Kind  # kinds of one family answer each other when plays must match the lead's kind
    shape: str  # what the cards look like, for `bigtwo rules show`


KINDS: dict[Kind, KindInfo] = {
    k.name: k
    for k in (
        KindInfo(Kind.SINGLE, "single", "singles", Kind.SINGLE, "one card"),
        KindInfo(Kind.PAIR, "pair", "pairs", Kind.PAIR, "two cards of one rank"),
        KindInfo(Kind.TRIPLE, "triple", "triples", Kind.TRIPLE, "three cards of one rank"),
        KindInfo(Kind.QUAD, "four of a kind", "fours of a kind", Kind.QUAD, "four cards of one rank, no kicker"),
        KindInfo(Kind.TWO_PAIRS, "two pairs", "two pairs", Kind.TWO_PAIRS, "two pairs of different ranks (4 cards)"),
        KindInfo(Kind.STRAIGHT, "straight", "straights", Kind.STRAIGHT, "consecutive ranks per the straight table"),
        KindInfo(Kind.FLUSH, "flush", "flushes", Kind.FLUSH, "five cards of one suit"),
        KindInfo(Kind.FULL_HOUSE, "full house", "full houses", Kind.FULL_HOUSE, "a triple and a pair"),
        KindInfo(
            Kind.FOUR_OF_A_KIND,
            "four of a kind",
            "fours of a kind",
            Kind.FOUR_OF_A_KIND,
            "four cards of one rank and a kicker",
        ),
        KindInfo(Kind.STRAIGHT_FLUSH, "straight flush", "straight flushes", Kind.STRAIGHT, "a straight in one suit"),
        KindInfo(Kind.ROYAL_FLUSH, "royal flush", "royal flushes", Kind.STRAIGHT, "10-J-Q-K-A in one suit"),
        KindInfo(
            Kind.TWO_PAIR_JUNK,
            "two pairs and a junk card",
            "two-pair-and-junk hands",
            Kind.TWO_PAIR_JUNK,
            "two pairs of different ranks and an odd card ('butterfly')",
        ),
        KindInfo(
            Kind.TRIPLE_JUNK,
            "triple and two junk cards",
            "triple-and-junk hands",
            Kind.TRIPLE_JUNK,
            "a triple and two odd cards of different ranks",
        ),
        KindInfo(Kind.SISTERS, "sisters", "sisters hands", Kind.SISTERS, "two consecutive pairs and any odd card"),
        KindInfo(Kind.PAIR_STRAIGHT, "pair straight", "pair straights", Kind.PAIR_STRAIGHT, "consecutive pairs"),
        KindInfo(
            Kind.TRIPLE_STRAIGHT, "triple straight", "triple straights", Kind.TRIPLE_STRAIGHT, "consecutive triples"
        ),
        KindInfo(
            Kind.FIVE_OF_A_KIND,
            "five of a kind",
            "fives of a kind",
            Kind.FIVE_OF_A_KIND,
            "five cards of one rank (two decks, or wild jokers)",
        ),
        KindInfo(Kind.JOKER_PAIR, "pair of jokers", "pairs of jokers", Kind.JOKER_PAIR, "the two jokers"),
        KindInfo(Kind.DRAGON, "dragon", "dragons", Kind.DRAGON, "thirteen cards, one of every rank 3 to 2"),
    )
}

FIVE_CARD_KINDS = frozenset(
    {
        Kind.FLUSH,
        Kind.FULL_HOUSE,
        Kind.FOUR_OF_A_KIND,
        Kind.ROYAL_FLUSH,
        Kind.TWO_PAIR_JUNK,
        Kind.TRIPLE_JUNK,
        Kind.SISTERS,
        Kind.FIVE_OF_A_KIND,
    }
)
