"""The combination kinds a ruleset can enable, with the words used to talk about them."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class KindInfo:
    name: str
    label: str  # singular noun phrase, e.g. "full house"
    plural: str
    family: str  # kinds of one family answer each other when plays must match the lead's kind
    shape: str  # what the cards look like, for `bigtwo rules show`


KINDS: dict[str, KindInfo] = {
    k.name: k
    for k in (
        KindInfo("single", "single", "singles", "single", "one card"),
        KindInfo("pair", "pair", "pairs", "pair", "two cards of one rank"),
        KindInfo("triple", "triple", "triples", "triple", "three cards of one rank"),
        KindInfo("quad", "four of a kind", "fours of a kind", "quad", "four cards of one rank, no kicker"),
        KindInfo("two_pairs", "two pairs", "two pairs", "two_pairs", "two pairs of different ranks (4 cards)"),
        KindInfo("straight", "straight", "straights", "straight", "consecutive ranks per the straight table"),
        KindInfo("flush", "flush", "flushes", "flush", "five cards of one suit"),
        KindInfo("full_house", "full house", "full houses", "full_house", "a triple and a pair"),
        KindInfo(
            "four_of_a_kind",
            "four of a kind",
            "fours of a kind",
            "four_of_a_kind",
            "four cards of one rank and a kicker",
        ),
        KindInfo("straight_flush", "straight flush", "straight flushes", "straight", "a straight in one suit"),
        KindInfo("royal_flush", "royal flush", "royal flushes", "straight", "10-J-Q-K-A in one suit"),
        KindInfo(
            "two_pair_junk",
            "two pairs and a junk card",
            "two-pair-and-junk hands",
            "two_pair_junk",
            "two pairs of different ranks and an odd card ('butterfly')",
        ),
        KindInfo(
            "triple_junk",
            "triple and two junk cards",
            "triple-and-junk hands",
            "triple_junk",
            "a triple and two odd cards of different ranks",
        ),
        KindInfo("sisters", "sisters", "sisters hands", "sisters", "two consecutive pairs and any odd card"),
        KindInfo("pair_straight", "pair straight", "pair straights", "pair_straight", "consecutive pairs"),
        KindInfo("triple_straight", "triple straight", "triple straights", "triple_straight", "consecutive triples"),
        KindInfo(
            "five_of_a_kind",
            "five of a kind",
            "fives of a kind",
            "five_of_a_kind",
            "five cards of one rank (two decks, or wild jokers)",
        ),
        KindInfo("joker_pair", "pair of jokers", "pairs of jokers", "joker_pair", "the two jokers"),
        KindInfo("dragon", "dragon", "dragons", "dragon", "thirteen cards, one of every rank 3 to 2"),
    )
}

FIVE_CARD_KINDS = frozenset(
    {
        "flush",
        "full_house",
        "four_of_a_kind",
        "royal_flush",
        "two_pair_junk",
        "triple_junk",
        "sisters",
        "five_of_a_kind",
    }
)
