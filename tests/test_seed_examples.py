"""Every comparison example the rule texts give, each citing its source (seeds in ../shared/seeds/).

000 = Winner (encyclopedia), 001 = Board Game Arena's Big Two, 002 = Big Two (encyclopedia),
003 = the written house code, 004 = the school card club's rules.
"""

import itertools

import pytest

from bigtwo import load_rules


def beats(rules, new, old):
    return load_rules(rules).beats(new, old) if isinstance(rules, str) else rules.beats(new, old)


def kind(rules, cards):
    combo = (load_rules(rules) if isinstance(rules, str) else rules).classify(cards)
    return None if combo is None else combo.kind


# --- 002 Big Two, "Valid combinations" -------------------------------------------------------------


def test_002_singles_rank_then_suit():
    # 002: "A♠ beats A♥, which beats K♥"
    assert beats("classic", "A♠", "A♥") and beats("classic", "A♥", "K♥")
    assert not beats("classic", "A♥", "A♠")


def test_002_pairs_by_the_higher_suit():
    # 002: "A pair consisting of the K♠ and K♣ beats a pair consisting of K♥ and K♦"
    assert beats("classic", "K♠ K♣", "K♥ K♦")
    assert not beats("classic", "K♥ K♦", "K♠ K♣")


def test_002_triples_twos_highest_threes_lowest():
    # 002: "three twos are highest, then aces, kings, etc. down to three threes, which is the lowest triple"
    assert beats("classic", "2D 2C 2H", "AD AC AH") and beats("classic", "AD AC AH", "KD KC KH")
    assert beats("classic", "4D 4C 4H", "3D 3C 3S")


def test_002_straight_table_of_the_main_text():
    # 002 Straight: "3-4-5-6-7 < 2-3-4-5-6 ... The largest straight is A-2-3-4-5, second 2-3-4-5-6,
    # third 10-J-Q-K-A while the smallest straight is 3-4-5-6-7"
    r = "classic"
    assert beats(r, "2D 3C 4C 5C 6C", "3S 4S 5S 6S 7H")
    assert beats(r, "AD 2C 3C 4C 5C", "2S 3S 4S 5S 6H")
    assert beats(r, "2D 3C 4C 5C 6C", "TS JS QS KS AH")
    assert beats(r, "4D 5D 6D 7D 8C", "3S 4S 5S 6S 7H")
    # ties by the suit of the 2 (Singapore/Hong Kong variant)
    assert beats(r, "AD 2S 3C 4C 5C", "AS 2H 3S 4S 5H")


def test_002_flush_by_face_values_then_suit():
    # 002 Flush: "Rank is determined by Face value of the cards (highest first, then each lower card in
    # order). Suit (♠,♥,♣,♦), is used to break ties."
    r = "classic"
    assert beats(r, "AD 9D 7D 5D 3D", "KS QS JS 9S 7S")
    assert beats(r, "AD 9D 7D 5D 4D", "AC 9C 7C 5C 3C")
    assert beats(r, "AS 9S 7S 5S 3S", "AH 9H 7H 5H 3H")


def test_002_full_house_by_its_triple():
    # 002 Full house: "Rank is determined by the value of the triple, regardless of the value of the pair."
    assert beats("classic", "4D 4C 4H 3D 3S", "3C 3H 2S 2D 2H") is False  # 2s triple beats 4s triple
    assert beats("classic", "5D 5C 5H 3D 3S", "4D 4C 4H 2S 2D")


def test_002_four_of_a_kind_needs_a_kicker_and_ranks_by_the_four():
    # 002: "A four-of-a-kind cannot be played unless it is played as a five-card hand ... Rank is determined
    # by the value of the 4 card set, regardless of the value of the 5th card."
    assert kind("classic", "9D 9C 9H 9S") is None
    assert kind("classic", "9D 9C 9H 9S 3D") == "four_of_a_kind"
    assert beats("classic", "9D 9C 9H 9S 3D", "8D 8C 8H 8S 2S")


def test_002_five_card_categories_in_poker_order():
    # 002 Five-card hands: straight < flush < full house < four-of-a-kind + one < straight flush
    r = "classic"
    straight, flush = "TD JC QC KC AC", "3H 5H 7H 9H JH"
    full, four, sflush = "3D 3C 3H 4D 4C", "3D 3C 3H 3S 4D", "3S 4S 5S 6S 7S"
    assert beats(r, flush, straight) and beats(r, full, flush) and beats(r, four, full)
    assert beats(r, sflush, four)
    assert not beats(r, straight, flush)
    # straight flush: "Ranked the same as straights, suit being a tie-breaker"
    assert beats(r, "4H 5H 6H 7H 8H", "3S 4S 5S 6S 7S") and beats(r, "3S 4S 5S 6S 7S", "3H 4H 5H 6H 7H")


def test_002_same_number_of_cards():
    # 002: "all the cards of a trick must contain the same number of cards"
    assert not beats("classic", "2S", "3D 3C")
    assert not beats("classic", "2D 2S", "3D")


# --- 002 Variations ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("table", "low_to_high"),
    [
        # 002: "3-4-5-6-7 < ... < 10-J-Q-K-A < A-2-3-4-5 < 2-3-4-5-6 (suit of 2 is tiebreaker; Malaysian variant)"
        ("malaysia", ["34567", "TJQKA", "A2345", "23456"]),
        # 002: "3-4-5-6-7 < ... < 10-J-Q-K-A < J-Q-K-A-2 (Indonesian variant)"
        ("indonesia", ["34567", "TJQKA", "JQKA2"]),
        # 002: "... < 10-J-Q-K-A < 2-3-4-5-6 ... < A-2-3-4-5 (Singapore/Hong Kong variant)"
        ("hong-kong", ["34567", "TJQKA", "23456", "A2345"]),
        # 002: "2-3-4-5-6 < 3-4-5-6-7 < ... < 9-10-J-Q-K < 10-J-Q-K-A < A-2-3-4-5 (suit of A is tiebreaker)"
        ("two-low", ["23456", "34567", "9TJQK", "TJQKA", "A2345"]),
        # 002: "2-3-4-5-6 < 3-4-5-6-7 < ... < 9-10-J-Q-K < A-2-3-4-5 (suit of A is tiebreaker) < 10-J-Q-K-A"
        ("two-low-ace-top", ["23456", "34567", "9TJQK", "A2345", "TJQKA"]),
        # 002: "3-4-5-6-7 < ... < 10-J-Q-K-A (Vietnamese variant)"
        ("no-twos", ["34567", "9TJQK", "TJQKA"]),
    ],
)
def test_002_straight_tables(table, low_to_high):
    rules = load_rules("classic").replace(straight_table=table)
    suits = ["D", "C", "C", "C", "C"]
    hands = [" ".join(r + s for r, s in zip(seq, suits, strict=True)) for seq in low_to_high]
    for lo, hi in itertools.pairwise(hands):
        assert rules.beats(hi.replace("D", "H"), lo), (hi, lo)
        assert not rules.beats(lo, hi)


def test_002_tables_reject_what_they_leave_out():
    assert kind(load_rules("vietnam"), "2D 3C 4C 5C 6C") is None  # no 2 in a Vietnamese straight
    assert kind(load_rules("indonesia"), "AD 2C 3C 4C 5C") is None
    assert kind(load_rules("classic"), "JD QC KC AC 2C") is None
    assert kind(load_rules("classic"), "QD KC AC 2C 3C") is None  # no wrapping beyond the table


def test_002_tie_breaker_suit_of_the_two_or_the_ace():
    # Malaysian/HK: suit of the 2; "two-low" tables: "suit of A is tiebreaker" for A-2-3-4-5
    hk = load_rules("hong-kong")
    assert hk.beats("AD 2S 3D 4D 5D", "AS 2H 3S 4S 5S")
    two_low = load_rules("classic").replace(straight_table="two-low")
    assert two_low.beats("AS 2D 3D 4D 5D", "AH 2S 3S 4S 5S")


def test_002_flushes_by_highest_suit():
    # 002: "Some rank flushes by highest suit, K-Q-J-10-8 in spades defeating A-K-Q-J-9 of diamonds."
    rules = load_rules("classic").replace(flush_order="suit-then-ranks")
    assert rules.beats("KS QS JS TS 8S", "AD KD QD JD 9D")
    assert not load_rules("classic").beats("KS QS JS TS 8S", "AD KD QD JD 9D")


def test_002_no_suit_order():
    # 002: "suit rankings are not used, for example, a 3-single cannot be used to beat any other 3-single,
    # and an 8-high straight cannot be used to beat any other 8-high straight."
    rules = load_rules("classic").replace(suit_order="none")
    assert not rules.beats("3S", "3D") and not rules.beats("3D", "3S")
    assert not rules.beats("4S 5S 6S 7S 8H", "4D 5D 6D 7D 8D".replace("8D", "8C"))
    assert rules.beats("4D", "3S")


def test_002_straight_above_flush():
    # 002: "In some variations, a straight is considered higher than a flush."
    order = (
        "single",
        "pair",
        "triple",
        "flush",
        "straight",
        "full_house",
        "four_of_a_kind",
        "straight_flush",
    )
    rules = load_rules("classic").replace(combinations=order)
    assert rules.beats("3D 4C 5C 6C 7C", "AH KH 9H 7H 5H")
    assert not rules.beats("AH KH 9H 7H 5H", "3D 4C 5C 6C 7C")


def test_002_no_poker_rules():
    # 002: "No poker rules ... For example, a full house can not be played over a straight."
    rules = load_rules("classic").replace(five_card_beating="same-category")
    assert not rules.beats("3D 3C 3H 4D 4C", "4D 5C 6C 7C 8C")
    assert rules.beats("5D 6C 7C 8C 9C", "4D 5C 6H 7C 8C")
    assert "five-card hand is only beaten by a higher straight" in rules.why_not("3D 3C 3H 4D 4C", "4D 5C 6C 7C 8C")


def test_002_any_five_over_any_five_by_card_value():
    # 002: "any five-card combination can be played on top of any other five-card combination with a lower
    # card value, e.g. 4-5-6-7-8 can be played on top of 7-7-7-6-6"
    rules = load_rules("classic").replace(five_card_beating="card-value")
    assert rules.beats("4D 5C 6C 7C 8C", "7D 7C 7H 6D 6C")
    assert not load_rules("classic").beats("4D 5C 6C 7C 8C", "7D 7C 7H 6D 6C")


def test_002_four_card_combinations():
    # 002: "Some allow four-card combinations (two pairs or four cards alone, without an odd card).
    # Four-of-a-kind beats two pairs."
    rules = load_rules("classic").replace(
        combinations=(
            "single",
            "pair",
            "triple",
            "two_pairs",
            "quad",
            "straight",
            "flush",
            "full_house",
            "four_of_a_kind",
            "straight_flush",
        )
    )
    assert kind(rules, "3D 3C 4D 4C") == "two_pairs" and kind(rules, "3D 3C 3H 3S") == "quad"
    assert rules.beats("3D 3C 3H 3S", "AD AC 2D 2C")
    # 002: "Some allow four-of-a-kind without extra card; 2s rank high, as usual."
    assert rules.beats("2D 2C 2H 2S", "AD AC AH AS")


def test_002_butterfly_triple_junk_and_sisters_rank_below_the_straight():
    # 002: "'two pair junk' or 'butterfly' ... rank is determined by the highest pair. This combination
    # ranks below the straight." / "the three-of-a-kind poker hand ... ranks below the straight."
    rules = load_rules("classic").replace(
        combinations=(
            "single",
            "pair",
            "triple",
            "sisters",
            "triple_junk",
            "two_pair_junk",
            "straight",
            "flush",
            "full_house",
            "four_of_a_kind",
            "straight_flush",
        )
    )
    assert kind(rules, "3D 3C 9D 9C KD") == "two_pair_junk"
    assert kind(rules, "3D 3C 3H 9C KD") == "triple_junk"
    assert rules.beats("3D 4C 5C 6C 7C", "AD AC 2D 2C KD")
    assert rules.beats("3D 4C 5C 6C 7C", "2D 2C 2H 9C KD")


def test_002_sisters():
    # 002: "Or it can be more specific, known as 'sisters', where two consecutive pairs are played, with any
    # random card. This combo is lower than a straight, making it the weakest five-card combo in the game"
    rules = load_rules("classic").replace(
        combinations=(
            "single",
            "pair",
            "triple",
            "sisters",
            "straight",
            "flush",
            "full_house",
            "four_of_a_kind",
            "straight_flush",
        )
    )
    # "double jack, double queen and a single nine ... would be beaten by a double king, double ace and a
    # three (only the 'sisters' count, not the random card.)"
    assert kind(rules, "JD JC QD QC 9D") == "sisters"
    assert rules.beats("KD KC AD AC 3S", "JD JC QD QC 9D")
    assert kind(rules, "JD JC KD KC 9D") is None  # the pairs must be consecutive
    assert rules.beats("3D 4C 5C 6C 7C", "KD KC AD AC 3S")


def test_002_two_pair_junk_tie_breaker():
    # 002: "3-K-K-A-A > 9-J-J-Q-Q (tie-breaker rules vary)": the higher pair decides
    rules = load_rules("chor-dai-di")
    assert rules.beats("3D KC KH AD AC", "9D JC JH QD QC")


# --- 001 Board Game Arena ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("higher", "lower"),
    [
        ("K♠", "K♥"),  # 001 Single
        ("J♠ J♦", "J♥ J♣"),  # 001 Pair
        ("2♥ 2♣ 2♦", "3♠ 3♥ 3♦"),  # 001 Triple
        ("9♦ 8♦ 7♦ 6♦ 5♣", "8♠ 7♠ 6♠ 5♠ 4♥"),  # 001 Straight sequence
        ("9♦ 6♦ 5♦ 4♦ 3♦", "8♠ 7♠ 6♠ 5♠ 3♠"),  # 001 Flush
        ("4♥ 4♣ 4♦ J♠ J♦", "3♠ 3♥ 3♦ Q♠ Q♦"),  # 001 Full House
        ("2♠ 2♥ 2♣ 2♦ J♣", "3♠ 3♥ 3♣ 3♦ Q♣"),  # 001 Four-of-a-kind + One
        ("8♥ 7♥ 6♥ 5♥ 4♥", "7♠ 6♠ 5♠ 4♠ 3♠"),  # 001 Straight Flush
    ],
)
def test_001_bga_examples(higher, lower):
    assert beats("bga", higher, lower)
    assert not beats("bga", lower, higher)


def test_001_bga_suit_order_and_same_count():
    # 001: "Suit high ⇨ low: ♠♥♣♦", "Plays must be the same number of cards as the lead."
    assert beats("bga", "3♠", "3♥") and beats("bga", "3♥", "3♣") and beats("bga", "3♣", "3♦")
    assert not beats("bga", "2♠ 2♥", "3♦")


# --- 003 the house code -----------------------------------------------------------------------------


def test_003_order_of_individual_cards():
    # 003 1.1.3: higher rank wins; equal rank, the higher suit (D < C < H < S, 1.1.2)
    assert beats("house-code", "4D", "3S") and beats("house-code", "3C", "3D") and beats("house-code", "3S", "3H")


def test_003_the_allowed_straights():
    # 003 4.4.1: "two-high straights are not allowed ... allowed: 3-4-5-6-7, ..., 10-J-Q-K-A"
    rules = load_rules("house-code")
    allowed = ["34567", "45678", "56789", "6789T", "789TJ", "89TJQ", "9TJQK", "TJQKA"]
    for seq in allowed:
        assert kind(rules, " ".join(r + s for r, s in zip(seq, "DCCCC", strict=True))) == "straight"
    for seq in ["JQKA2", "QKA23", "A2345", "23456"]:
        assert kind(rules, " ".join(r + s for r, s in zip(seq, "DCCCC", strict=True))) is None


def test_003_a_single_two_does_not_beat_a_pair():
    # 003 4.6: "In particular, a single two does not beat a pair of lower rank."
    assert not beats("house-code", "2S", "3D 3C")


def test_003_pairs_and_quads():
    # 003 4.6.2: "the two are of equal rank, and the former contains a spade"; 4.6.3 quads by rank
    assert beats("house-code", "9S 9D", "9H 9C")
    assert beats("house-code", "5D 5C 5H 5S", "4D 4C 4H 4S")
    assert kind("house-code", "5D 5C 5H 5S") == "quad"


def test_003_poker_hand_order_and_flush_by_suit():
    # 003 4.6.4: straight flush > four of a kind > full house > flush > straight
    r = "house-code"
    assert beats(r, "3S 4S 5S 6S 7S", "2D 2C 2H 2S 3D") and beats(r, "3D 3C 3H 3S 4D", "2D 2C 2H 3D 3C")
    assert beats(r, "3D 3C 3H 4D 4C", "2H KH 9H 7H 5H") and beats(r, "3H 5H 7H 9H JH", "TD JC QC KC AC")
    # 003 4.6.4.2: a flush of a higher suit beats any flush of a lower suit; same suit: highest card
    assert beats(r, "3S 4S 6S 7S 9S", "2H AH KH QH 9H") and beats(r, "3S 4S 6S 7S TS", "3S 4S 6S 7S 9S")
    # 003 4.6.4.5: "The straight flush that ends on the Ace of spades is the highest legal five-card hand."
    top = "TS JS QS KS AS"
    rules = load_rules(r)
    assert all(not rules.beats(p.cards, top) for p in _all_five_card_plays(rules) if p.mask != rules.classify(top).mask)


def _all_five_card_plays(rules):
    from bigtwo.cards import CardSet
    from bigtwo.moves import all_combos

    return [p for p in all_combos(rules.engine, CardSet.deck().mask) if p.size == 5 and p.kind == "straight_flush"]


# --- 004 the card club ------------------------------------------------------------------------------


def test_004_card_value_by_number_then_suit():
    # 004 Chor Dai Di: "A card's value is determined first by number, then by suit. D6 > S4 > H4 > C4 > D4"
    r = "chor-dai-di"
    assert beats(r, "D6", "S4") and beats(r, "S4", "H4") and beats(r, "H4", "C4") and beats(r, "C4", "D4")


def test_004_chor_dai_di_five_card_order():
    # 004: "All instances of a higher hand are higher all instances of a lower hand" ... "you can play full
    # house over a straight"; order: two pair + any < straight < flush < full house < 4+1 < SF < royal flush
    r = load_rules("chor-dai-di")
    seq = [
        "AD AC 2D 2C KD",
        "TD JC QC KC AC",
        "3H 5H 7H 9H JH",
        "3D 3C 3H 4D 4C",
        "3D 3C 3H 3S 4D",
        "9S TS JS QS KS",
        "TD JD QD KD AD",
    ]
    for lo, hi in itertools.pairwise(seq):
        assert r.beats(hi, lo) and not r.beats(lo, hi), (hi, lo)
    assert kind(r, "TD JD QD KD AD") == "royal_flush"
    # royal flushes are "determined by highest card"
    assert r.beats("TS JS QS KS AS", "TH JH QH KH AH")


def test_004_flush_determined_by_highest_card():
    # 004: "Flush, determined by highest card": the top card's rank, then its suit
    r = load_rules("chor-dai-di")
    assert r.beats("AS 9S 7S 5S 3S", "AH KH QH JH 9H")


# --- 000 Winner: the single and pair examples, which hold in Big Two's suit order too ---------------


def test_000_singles_and_pairs():
    # 000: "spade ace beats diamond ace, which beats spade king"; "A pair consisting of the king of spades and
    # clubs beats a pair consisting of heart king and diamond king."
    assert beats("classic", "AS", "AD") and beats("classic", "AD", "KS")
    assert beats("classic", "KS KC", "KH KD")


# --- reasons in words (issue: engine core, item 4) --------------------------------------------------


def test_reasons_a_person_understands():
    rules = load_rules("classic")
    assert rules.why_not("9D 9H", "9C 9S") == "a pair of 9s with the heart does not beat a pair of 9s with the spade"
    assert rules.why_not("4S 4H 5D") == "4H 4S 5D is not a combination under 'classic'"
    assert (
        rules.why_not("2S", "3D 3C") == "2S cannot be played on a pair of 3s: a play must have 2 cards, as the lead has"
    )
    assert (
        rules.why_not("3D 3C", "2S")
        == "a pair of 3s cannot be played on 2S: a play must be a single card, as the lead is"
    )
    assert rules.engine.describe(rules.classify("AD KD 8D 5D 3D")) == "an A-high flush in diamonds"
    assert rules.engine.describe(rules.classify("8D 7D 6D 4D 3D")) == "an 8-high flush in diamonds"
    assert rules.engine.describe(rules.classify("KD QD 8D 5D 3D")) == "a K-high flush in diamonds"
    assert "straights rank below flushes" in rules.why_not("TD JC QC KC AC", "3H 5H 7H 9H JH")
    assert "fours of a kind are not played there" in rules.why_not("9D 9C 9H 9S")
    assert rules.why_not("4D", "3D") is None
