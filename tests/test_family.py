"""The rest of the family (issue: Winner, Zheng Shangyou, bombs, jokers, two decks, ...), from the texts' examples.

000 = Winner, 001 = BGA, 002 = Big Two (encyclopedia), 003 = the house code, 004 = the card club;
"public Tien Len rules" = the common published rules of Tien Len (Pagat, BGA's Tien Len).
"""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bigtwo import Game, IllegalPlay, load_rules
from bigtwo.cards import bits, parse_cards
from tests.rulesets import WILD_TABLES

WINNER = load_rules("winner")
ZSY = load_rules("zheng-shangyou")
TIEN_LEN = load_rules("tien-len")


def kind(rules, cards):
    combo = rules.classify(cards)
    return None if combo is None else combo.kind


# --- 000 Winner ---------------------------------------------------------------------------------------


def test_000_straights_of_three_or_more_twos_low_aces_either_end():
    # 000 Straight: "Any Three or more cards in a row. Twos are low in a straight (so K-A-2 is not valid, but
    # 2-3-4 is), and Aces can be played high or low. A-2-3 is the lowest straight."
    assert kind(WINNER, "2D 3C 4H") == "straight"
    assert kind(WINNER, "KD AC 2H") is None
    assert kind(WINNER, "AD 2C 3H") == "straight"
    assert kind(WINNER, "QD KC AH") == "straight"
    assert kind(WINNER, "3D 4C 5H 6S 7D 8C 9H TS JD QC KH AS") == "straight"  # twelve long
    for lo, hi in [("AD 2C 3H", "2D 3C 4H"), ("2D 3C 4H", "JD QC KH"), ("JD QC KH", "QD KC AH")]:
        assert WINNER.beats(hi, lo) and not WINNER.beats(lo, hi)


def test_000_same_length_and_kind_straight_flush_beats_its_length():
    # 000: "If a [x] card straight is the current play type, it is only possible to beat it with another [x]
    # card straight or a [x] card straight flush. ... Any straight flush will beat a straight of the same size."
    assert not WINNER.beats("4D 5C 6H 7S", "3D 4C 5H")
    assert WINNER.beats("3S 4S 5S", "QD KC AH")  # the lowest straight flush over the highest straight
    assert not WINNER.beats("3S 4S 5S 6S", "QD KC AH")
    assert WINNER.why_not("4D 5C 6H 7S", "3D 4C 5H") == "straights must have the same length as the lead (3 cards)"
    # "The leading card to a trick sets down the type of play": a pair cannot answer a single
    assert "plays must be singles like the lead" in WINNER.why_not("9D 9C", "3D")


def test_000_pair_and_triple_straights():
    # 000: "Pair Straight: 6, 8, 10, or 12 cards that are both in a pair and a part of a straight";
    # "Three of a kind straight: Same as pair straight, but with triples."
    assert kind(WINNER, "3D 3C 4D 4C 5D 5C") == "pair_straight"
    assert kind(WINNER, "3D 3C 4D 4C") is None
    assert kind(WINNER, "3D 3C 3H 4D 4C 4H") == "triple_straight"
    assert WINNER.beats("4D 4C 5D 5C 6D 6C", "3D 3C 4H 4S 5H 5S")
    assert WINNER.why_not("4D 4C 5D 5C 6D 6C 7D 7C", "3D 3C 4H 4S 5H 5S") == (
        "pair straights must have the same length as the lead (6 cards)"
    )


def test_000_singles_pairs_full_house_and_quads():
    # 000: "spade ace beats diamond ace, which beats spade king"; pairs by the higher suit; full house by its
    # triple; "Four of a kind: Any four cards of matching rank."
    assert WINNER.beats("AS", "AD") and WINNER.beats("AD", "KS")
    assert WINNER.beats("KS KC", "KH KD")
    assert WINNER.beats("5D 5C 5H 3D 3C", "4D 4C 4H AD AC")
    assert kind(WINNER, "9D 9C 9H 9S") == "quad"


def test_000_three_of_diamonds_leads_but_need_not_be_played():
    # 000: "the player with the 3 of diamonds starts. The three of diamonds does not need to be played"
    g = Game(WINNER, hands=["4D 5D", "3D 9S", "6D 7D"])
    assert g.to_move == 1 and g.required_card is None
    g.play("9S")


def test_000_three_players_the_dealer_gets_the_extra_card():
    # 000: "In a three player version of the game, the dealer ends up with one more card than the other two"
    for dealer in range(3):
        g = Game(WINNER, players=3, seed=dealer, dealer=dealer)
        sizes = g.hand_sizes()
        assert sizes[dealer] == 18 and sorted(sizes) == [17, 17, 18]


def test_000_play_until_the_loser_is_known():
    # 000 End Game: "The game continues until the Winner and Loser have been determined"
    g = Game(WINNER, hands=["3D", "4D 9S", "5D 9H"])
    g.play("3D")
    assert not g.is_over and g.finishing_order == [0]


def test_000_bomb_variation_and_full_rank_variation():
    # 000 Variations: "Bomb: a four of a kind can be played as a bomb. It beats any other play (other than a
    # higher 4 of a kind)"
    bomb = WINNER.replace(bombs=({"kind": "quad"},))
    assert bomb.beats("5D 5C 5H 5S", "2S") and bomb.beats("5D 5C 5H 5S", "JD QC KH AS")
    assert bomb.beats("6D 6C 6H 6S", "5D 5C 5H 5S") and not bomb.beats("4D 4C 4H 4S", "5D 5C 5H 5S")
    assert not bomb.beats("2S", "5D 5C 5H 5S")
    # "a straight must be higher than another straight by a full rank, not just a suit"
    full_rank = WINNER.replace(straight_suit_tiebreak=False)
    assert WINNER.beats("3D 4C 5S", "3H 4S 5H") and not full_rank.beats("3D 4C 5S", "3H 4S 5H")
    assert full_rank.beats("4D 5C 6H", "3H 4S 5S")


# --- 004 Zheng Shangyou ---------------------------------------------------------------------------------


def test_004_zsy_straights_twos_high_five_or_more():
    # 004 Straight: "For four or fewer people: 5 consecutive cards ... JQKA2 is a possible straight, but not
    # 23456. Also, since Jokers are special cards, they cannot be included in straights."
    assert kind(ZSY, "JD QC KH AS 2D") == "straight"
    assert kind(ZSY, "2D 3C 4H 5S 6D") is None
    assert kind(ZSY, "3D 4C 5H") is None
    assert kind(ZSY, "9D TC JH QS KD AC 2H") == "straight"  # the bomb example's seven-card straight
    assert kind(ZSY, "TD JC QH KS BJ") is None
    # "If a straight is played, all straights in that cycle must be of the same length."
    assert not ZSY.beats("4D 5C 6H 7S 8D 9C", "3D 4C 5H 6S 7D")


def test_004_zsy_three_card_straights_with_five_or_more_players():
    # 004: "For 5+ players, 3 consecutive cards."
    ev5 = ZSY.engine_for(5)
    assert ev5.classify(parse_cards("3D 4C 5H").mask).kind == "straight"
    g = Game(ZSY, players=5, seed=3)
    assert 3 in g.ev.straight_lengths and 3 not in ZSY.engine_for(4).straight_lengths


def test_004_zsy_bombs():
    # 004 Bomb: "3 or 4 of the same number, or 2 Jokers. Can be played after hands of a different type, and only
    # bombs can be played after bombs. For example, if Alice plays the straight 9TJQKA2, Bob may play 999 and all
    # subsequent players in the cycle will need to play bombs or pass. Any 4-card bomb beats any 3-card bomb, and
    # 2 Jokers is the highest possible bomb."
    assert ZSY.beats("9D 9C 9H", "9S TD JC QH KS AD 2C")
    assert not ZSY.beats("3S 4D 5C 6H 7S 8D 9S", "9D 9C 9H")
    assert not ZSY.beats("2S", "9D 9C 9H")
    assert ZSY.beats("3D 3C 3H 3S", "2D 2C 2H")
    assert ZSY.beats("BJ RJ", "2D 2C 2H 2S")
    assert not ZSY.beats("2D 2C 2H 2S", "BJ RJ")
    assert "only a higher bomb" in ZSY.why_not("2S", "9D 9C 9H")


def test_004_zsy_jokers_and_no_suit_order():
    # 004: "Jokers can also be played as single cards ... The Color Joker is bigger than the Black-and-White
    # Joker."; no suit order: equal numbers never beat each other
    assert ZSY.beats("RJ", "BJ") and ZSY.beats("BJ", "2S") and not ZSY.beats("BJ", "RJ")
    assert not ZSY.beats("5S", "5D") and not ZSY.beats("5S 5H", "5D 5C")


def test_004_zsy_h3_leads_and_out_cards_are_face_up():
    # 004 Gameplay: "The remainder 'out' cards are shown face-up. The person with the H3 plays a hand containing
    # that card."
    g = Game(ZSY, players=4, seed=1)  # 54 cards: 13 each and 2 out
    assert g.hand_sizes() == [13, 13, 13, 13] and len(parse_cards(" ".join(g.observe(0).to_json()["face_up"]))) == 2
    for seat in range(4):
        assert g.observe(seat).to_json()["face_up"] == g.observe(0).to_json()["face_up"]
    if g.required_card is not None:
        assert str(g.required_card) == "3H"


def test_004_zsy_two_players_18_each_18_hidden():
    # 004 Variations: "For 2 people: Deal 18 cards per person and have 18 'out' cards which are hidden."
    two = ZSY.replace(deal="fixed", hand_size=18, leftover="discard", min_players=2)
    g = Game(two, players=2, seed=4)
    assert g.hand_sizes() == [18, 18]
    obs = g.observe(0).to_json()
    assert obs["face_up"] == [] and sum(obs["hand_sizes"]) == 36


# --- 002 the encyclopedia's bombs, smack-down, three 3s -----------------------------------------------------


def test_002_four_of_a_kind_and_straight_flush_on_a_pair_or_single():
    # 002: "In some rules, four-of-a-kind + one card, and straight flush, can also be played on a pair or a
    # single card, regardless of value."
    rules = load_rules("classic").replace(
        bombs=(
            {"kind": "four_of_a_kind", "beats": ["singles-and-pairs"]},
            {"kind": "straight_flush", "beats": ["singles-and-pairs"]},
        ),
    )
    assert rules.beats("3D 3C 3H 3S 4D", "2S") and rules.beats("3D 4D 5D 6D 7D", "2S 2H")
    assert not rules.beats("3D 3C 3H 3S 4D", "2D 2C 2S")
    assert rules.beats("3D 4D 5D 6D 7D", "AD AC AH AS 2D")  # a bomb over a lower bomb
    g = Game(rules, hands=["3D 3C 3H 3S 4D 9S", "2S 5D"], first=1)
    g.play("2S")
    assert parse_cards("3D 3C 3H 3S 4D") in {p.cardset for p in g.legal_plays()}


def test_002_a_four_beats_everything_lacking_a_four():
    # 002: "A four-of-a-kind can be used to beat all card combinations that lack a four-of-a-kind."
    rules = load_rules("classic").replace(bombs=({"kind": "four_of_a_kind"},))
    assert rules.beats("3D 3C 3H 3S 4D", "2S") and rules.beats("3D 3C 3H 3S 4D", "AD AC AH")


def test_002_smack_down_and_smack_back():
    # 002 Smack-down: "can be played to defeat the 'big 2' only when the 2♠ is played as a single. A smack-down
    # is either four-of-a-kind or a run of pairs (Example: 4-4-5-5-6-6) ... any player is allowed to
    # 'smack-back' ... with a higher four-of-a-kind or run of pairs of equal length as the smack-down."
    rules = load_rules("classic").replace(
        combinations=(*load_rules("classic").combinations, "quad", "pair_straight"),
        bombs=({"kind": "quad", "beats": ["highest-single"]}, {"kind": "pair_straight", "beats": ["highest-single"]}),
        bomb_vs_bomb="same-kind",
    )
    assert rules.beats("4D 4C 4H 4S", "2S") and rules.beats("4D 4C 5D 5C 6D 6C", "2S")
    assert not rules.beats("4D 4C 4H 4S", "2H")
    assert rules.beats("5D 5C 5H 5S", "4D 4C 4H 4S")
    assert rules.beats("5D 5C 6D 6C 7D 7C", "4D 4C 5H 5S 6H 6S")
    assert not rules.beats("5D 5C 6D 6C 7D 7C 8D 8C", "4D 4C 5H 5S 6H 6S")  # equal length only
    assert not rules.beats("5D 5C 5H 5S", "4D 4C 5H 5S 6H 6S")  # the same kind only


def test_002_three_threes_force_three_twos():
    # 002: "If a player leads off with three 3s, the following player is required to play three 2's if no other
    # play is possible."
    rules = load_rules("classic").replace(three_threes_force_twos=True)
    g = Game(rules, hands=["3D 3C 3H 9S", "2D 2C 2H 4D", "5D 6D 7D 8D"])
    g.play("3D 3C 3H")
    assert Play_pass_not_in(g.legal_plays())
    with pytest.raises(IllegalPlay, match="three 2s must be played"):
        g.pass_turn()
    g.play("2D 2C 2H")
    plain = Game(load_rules("classic"), hands=["3D 3C 3H 9S", "2D 2C 2H 4D", "5D 6D 7D 8D"])
    plain.play("3D 3C 3H")
    plain.pass_turn()


def Play_pass_not_in(plays):
    return all(not p.is_pass for p in plays)


def test_001_bga_bombs_over_anything_but_a_higher_bomb():
    # 001: "Four with a single or straight flush can be played against any combination except higher bombs."
    rules = load_rules("bga").replace(bombs=({"kind": "four_of_a_kind"}, {"kind": "straight_flush"}))
    assert rules.beats("3D 3C 3H 3S 4D", "2S") and rules.beats("3D 4D 5D 6D 7D", "2D 2C 2H")
    assert rules.beats("3D 4D 5D 6D 7D", "2D 2C 2H 2S 4C") and not rules.beats("2D 2C 2H 2S 4C", "3D 4D 5D 6D 7D")


# --- Tien Len chops -------------------------------------------------------------------------------------


def test_tien_len_chops():
    # public Tien Len rules: "single of 2 < 3 sequential pairs < 4 of a kind < 4 sequential pairs;
    # pair of 2 < 4 of a kind < 4 sequential pairs"
    r = TIEN_LEN
    three_pairs, four, four_pairs = "3S 3C 4S 4C 5S 5C", "6S 6C 6D 6H", "7S 7C 8S 8C 9S 9C TS TC"
    assert r.beats(three_pairs, "2H") and not r.beats(three_pairs, "2H 2D") and not r.beats(three_pairs, "AH")
    assert r.beats(four, "2H") and r.beats(four, "2H 2D") and r.beats(four, three_pairs)
    assert r.beats(four_pairs, "2H 2D") and r.beats(four_pairs, four) and not r.beats(four, four_pairs)
    assert not r.beats(four, "2H 2D 2C")
    assert kind(r, "2S 3C 4D") is None  # no 2 in a sequence
    assert r.beats("4S 5S 6S", "3H 4H 5H")  # by the top card
    g = Game(r, hands=["3S 9D", "4S 9H", "5D 9C", "6H 9S"])
    assert str(g.required_card) == "3S" and g.to_move == 0


def test_tien_len_a_pass_locks_you_out_of_the_trick():
    # public Tien Len rules: "If you choose to pass, you cannot play any more cards until ..."
    g = Game(TIEN_LEN, hands=["3S 9D KD", "4S TD KH", "5S JD KC", "6S QD KS"])
    g.play("3S")
    g.pass_turn()
    g.play("5S")
    g.play("6S")
    g.play("9D")
    assert g.to_move == 2


# --- jokers -------------------------------------------------------------------------------------------

HIGH_JOKERS = load_rules("house-code").replace(jokers=2)
WILD = load_rules("house-code").replace(
    jokers=2,
    joker_mode="wild",
    combinations=(*load_rules("house-code").combinations, "five_of_a_kind"),
)


def test_003_jokers_as_high_cards():
    # 003 5.3: "Jokers ... as cards that rank higher than two; so that a single joker can beat a single two, and a
    # pair of jokers can beat a pair of twos. Usually, one joker is higher than the other"
    r = HIGH_JOKERS
    assert r.beats("BJ", "2S") and r.beats("BJ RJ", "2S 2H") and r.beats("RJ", "BJ")
    assert load_rules("house-code").replace(jokers=2, high_joker="black").beats("BJ", "RJ")
    assert r.classify("BJ 3D") is None


def test_003_wild_jokers_in_pairs_and_triples():
    # 003 5.3.1: "a three and a joker is still lower than a pair of fours ... a pair that contains a joker is
    # higher than a pair that does not, and a pair that contains the high joker is higher than the pair that
    # contains the low joker"
    r = WILD
    assert r.classify("3D RJ").kind == "pair"
    assert r.beats("4D 4C", "3D RJ")
    assert r.beats("3D BJ", "3S 3H") and r.beats("3D RJ", "3C BJ")
    assert r.beats("5D 5C RJ", "5H 5S BJ") and r.beats("6D BJ RJ", "5H 5S 5C")


def test_003_wild_jokers_in_straights():
    # 003 5.3.2: "a seven-high straight in which the seven is replaced with a joker is higher than natural
    # seven-high straight, but lower than any eight-high straight ... Substituting any position other than the
    # high card of a straight with a joker has no effect"
    r = WILD
    natural7, joker7, natural8 = "3D 4C 5H 6S 7S", "3D 4C 5H 6S BJ", "4D 5C 6H 7D 8C"
    assert r.classify(joker7).kind == "straight"
    assert r.beats(joker7, natural7) and r.beats(natural8, joker7)
    # the joker in the middle: the same as the natural straight with its own top card
    assert r.beats("3D 4C BJ 6S 7S", "3S 4S 5S 6H 7H") and not r.beats("3D 4C BJ 6S 7H", "3S 4S 5S 6H 7S")
    assert r.beats("3D 4C 5H 6S RJ", joker7.replace("BJ", "BJ"))


def test_003_five_of_a_kind_above_straight_flushes():
    # 003 5.3.3: "The presence of jokers admits the possibility of five-of-a-kind hands. These are higher than
    # straight flushes, and ordered by rank."
    r = WILD
    assert r.classify("9D 9C 9H 9S BJ").kind == "five_of_a_kind"
    assert r.beats("3D 3C 3H 3S BJ", "TS JS QS KS AS") and r.beats("4D 4C 4H BJ RJ", "3D 3C 3H 3S BJ")


def exhaustive_wild_reading(ev, natural: list[int], jokers: list[int]):
    """The reference reading of a set holding wild jokers: every kind of its size, the jokers as themselves
    and standing for every rank (the unpruned stand-ins), the highest category and key kept."""
    from itertools import product

    size = len(natural) + len(jokers)
    kinds = ev.kinds_by_size.get(size)
    if not kinds:
        return None
    best = ev._match(natural + jokers, kinds)
    full = [ev.stand_ins(natural, j, size, pruned=False) for j in jokers]
    for choice in product(*full):
        res = ev._match(natural + list(choice), kinds)
        if res and (best is None or (ev.cat[res[0]], res[1]) > (ev.cat[best[0]], best[1])):
            best = res
    return best


def assert_reads_as_reference(ev, natural: list[int], jokers: list[int]) -> None:
    best = exhaustive_wild_reading(ev, natural, jokers)
    got = ev.classify(sum(1 << c for c in natural + jokers))
    if best is None:
        assert got is None, (natural, jokers, got)
    else:
        assert got is not None and (got.kind, got.key) == (best[0], best[1]), (natural, jokers, got, best)


def test_wild_joker_stand_ins_lose_nothing():
    """The pruned stand-ins give the same reading as trying every rank for a joker (the unpruned reference)."""
    import random

    ev = WILD.engine
    pack = bits(ev.pack & ~ev.joker_mask)
    rng = random.Random(5)
    for _ in range(400):
        natural = rng.sample(pack, rng.choice([1, 2, 3, 4]))
        jokers = rng.sample(bits(ev.joker_mask), rng.choice([1, 1, 2]))
        assert_reads_as_reference(ev, natural, jokers)


EVERY_KIND_WILD = WILD_TABLES["every kind, wild"]()
LONG_RUNS_WILD = (WILD_TABLES["winner, wild"](), WILD_TABLES["tien-len, wild"]())


def test_wild_jokers_make_the_highest_sisters():
    """Sisters are two pairs of neighbouring ranks and a junk card: two jokers beside 7 7 stand for 8 8, not 6 6
    (the stand-ins once tried only ranks present, in a sequence or at the ends, and missed the rank above)."""
    ev = EVERY_KIND_WILD.engine
    for text in ("3D 7D 7C BJ RJ", "QD QC 2D BJ RJ"):
        cards = bits(parse_cards(text).mask)
        natural = [c for c in cards if not (1 << c) & ev.joker_mask]
        assert ev.classify(sum(1 << c for c in cards)).kind == "sisters"
        assert_reads_as_reference(ev, natural, [c for c in cards if c not in natural])
    assert EVERY_KIND_WILD.beats("3D 7D 7C BJ RJ", "3C 6D 6C 7H 7S")


@settings(max_examples=400, deadline=None)
@given(st.data())
def test_wild_jokers_read_as_the_exhaustive_reference(data):
    """Classification skips the stand-ins for kinds the natural cards cannot make (a pair needs one rank, a
    flush one suit, a straight ranks in one sequence): on sets drawn close to every kind's shape, it reads
    every set as the reference that tries every kind with every stand-in."""
    rules = data.draw(st.sampled_from((EVERY_KIND_WILD, *LONG_RUNS_WILD)), label="rules")
    ev = rules.engine
    size = data.draw(st.sampled_from(sorted(n for n in ev.kinds_by_size if n <= 9)), label="size")
    pack_jokers = bits(ev.pack & ev.joker_mask)
    jokers = data.draw(st.sampled_from([[j] for j in pack_jokers] + [pack_jokers] * (size > 1)), label="jokers")
    # natural cards from a few neighbouring ranks and a few suits, so that sets near every kind's shape come up
    low = data.draw(st.integers(0, 12), label="lowest rank")
    ranks = range(low, min(13, low + data.draw(st.integers(1, 6), label="ranks")))
    suits = data.draw(st.sets(st.integers(0, 3), min_size=1), label="suits")
    pool = [c for c in bits(ev.pack & ~ev.joker_mask) if ev.rank_of[c] in ranks and ev.suit_of[c] in suits]
    want = size - len(jokers)
    if want > len(pool):
        return
    natural = data.draw(st.lists(st.sampled_from(pool), min_size=want, max_size=want, unique=True), label="natural")
    assert_reads_as_reference(ev, natural, jokers)


# --- two decks --------------------------------------------------------------------------------------------

TWO_DECKS = load_rules("house-code").replace(
    decks=2, combinations=(*load_rules("house-code").combinations, "five_of_a_kind")
)


def test_002_two_decks_five_players_and_five_of_a_kind():
    # 002: "Playing with two decks: this enables up to eight players per game (and is required for five-of-a-kind
    # hands to be possible). In this case, five-of-a-kind defeats four-of-a-kind"
    g = Game(TWO_DECKS, players=8, seed=2)
    assert sum(g.hand_sizes()) == 104
    assert TWO_DECKS.classify("9D 9C 9H 9S 9D").kind == "five_of_a_kind"
    assert TWO_DECKS.beats("3D 3C 3H 3S 3D", "2D 2C 2H 2S 4D")
    # "Players may or may not be allowed to play a hand equivalent to the previous hand, such as 3♦ followed by
    # the other 3♦."
    assert not TWO_DECKS.beats("3D", "3D") and TWO_DECKS.replace(equal_beats=True).beats("3D", "3D")


def test_two_deck_notation_matches_the_copy_in_hand():
    first, second = list(parse_cards("3D 3D"))
    g = Game(TWO_DECKS, hands=[[second, "4S"], [first, "5D"], "7D 8D"], first=0)
    g.play("3D")  # names the first copy; seat 0 holds the second
    assert str(g.hand(0)) == "4S" and second not in g.hand(0)
    with pytest.raises(IllegalPlay, match="does not beat"):
        g.play("3D")  # an equal 3D does not beat it
    g.play("5D")


# --- deals --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("leftover", "check"),
    [
        # 002 Rules: "Leftover cards ... are then given to the player holding the 3♦."
        ("lead-holder", lambda g: "3D" in g.hand(g.hand_sizes().index(18)) or g.face_up),
        # 002 Variations: "whichever player possesses the two of spades or three of diamonds receives that card"
        ("highest-holder", lambda g: "2S" in g.hand(g.hand_sizes().index(18))),
        # 002 Variations: "give the kitty to the holder of the lowest diamond"
        ("lowest-diamond-holder", lambda g: True),
        # 002 Variations: "Some discard the extra cards."
        ("discard", lambda g: g.hand_sizes() == [17, 17, 17] and g.observe(0).to_json()["face_up"] == []),
        ("face-up", lambda g: g.hand_sizes() == [17, 17, 17] and len(g.observe(1).to_json()["face_up"]) == 1),
    ],
)
def test_002_three_player_leftovers(leftover, check):
    rules = load_rules("classic").replace(leftover=leftover)
    for seed in range(8):
        g = Game(rules, players=3, seed=seed)
        assert sum(g.hand_sizes()) + len(g.observe(0).to_json()["face_up"]) + (1 if leftover == "discard" else 0) == 52
        assert check(g)


def test_002_the_lowest_cards_removed_before_the_deal():
    # 002 Variations: "Some play that the lowest cards are consciously removed to avoid having the 2♠, the highest
    # card, in the kitty." With three players the 3D goes, and the lowest card dealt (the 3C) leads.
    rules = load_rules("classic").replace(leftover="remove-lowest")
    for seed in range(10):
        g = Game(rules, players=3, seed=seed)
        assert g.hand_sizes() == [17, 17, 17]
        assert all("3D" not in g.hand(s) for s in range(3))
        assert str(g.required_card) == "3C" and "3C" in g.hand(g.to_move)


def test_003_floating_fifty_second_card():
    # 003 5.2: "deals seventeen cards to each player and leaves the final card (which may be either face-up or
    # face-down) to be claimed by the player who has been dealt the three of diamonds. In the case that the final
    # card is the three of diamonds, it goes to the holder of the three of clubs."
    rules = load_rules("house-code").replace(deal="equal", leftover_shown=True, max_players=8)
    for seed in range(30):
        g = Game(rules, players=3, seed=seed)
        big = g.hand_sizes().index(18)
        holder_has = "3D" in g.hand(big) or "3C" in g.hand(big)
        assert holder_has
        others = [s for s in range(3) if s != big]
        known = g.observe(others[0]).to_json()["known_cards"]
        assert str(big) in known and len(known[str(big)]) == 1  # shown face up before it was claimed


def test_002_leftover_swap_offer():
    # 002 Variations: "the holder of 3♦ is given a chance to make a decision to or not to trade his/her 3♦ for the
    # extra card. If he/she does, the starting player will be 3♣ holder"
    rules = load_rules("classic").replace(leftover="swap", leftover_shown=True)
    g = Game(rules, players=3, seed=7)
    offer = g.swap_offer
    assert g.can_swap_leftover and len(offer) == 1
    holder = g.to_move
    g.swap_leftover()
    assert offer.issubset(g.hand(holder)) and "3D" not in g.hand(holder)
    assert "3D" in g.observe(0).to_json()["face_up"]
    assert g.required_card is None or "3D" not in str(g.required_card)
    with pytest.raises(IllegalPlay):
        g.swap_leftover()


def test_002_ghost_hand():
    # 002: "deal four thirteen-card hands as if a fourth players were present ... No one plays the ghost hand and
    # its cards are not shown"
    rules = load_rules("classic").replace(deal="ghost", hand_size=13)
    g = Game(rules, players=3, seed=2)
    assert g.hand_sizes() == [13, 13, 13]
    ghost = set(parse_cards(" ".join(["3D"]))) and None
    for seat in range(3):
        obs = g.observe(seat).to_json()
        shown = set(obs["hand"]) | set(obs["face_up"])
        assert len(shown) == 13 and ghost is None


def test_two_players_draw_on_every_pass():
    # 002: "If only two players ... deal thirteen cards each and play as normal. When one player passes she or he
    # is forced to pick up one card from the remaining deck"; 003 5.1: "the player dealt the lowest card ...
    # begins, and must use that card immediately"
    rules = load_rules("classic").replace(deal="fixed", leftover="stock", draw_on_pass=True, lead_card="lowest")
    g = Game(rules, players=2, seed=3)
    assert g.hand_sizes() == [13, 13] and g.stock_size == 26
    first = g.to_move
    low = g.required_card
    assert low is not None and low.issubset(g.hand(first))
    g.play(g.legal_plays()[0])
    other = g.to_move
    before = len(g.hand(other))
    g.pass_turn()
    assert len(g.hand(other)) == before + 1 and g.stock_size == 25
    assert g.observe(first).to_json()["history"][-1]["note"] == "drew"
    g.undo()
    assert len(g.hand(other)) == before and g.stock_size == 26


# --- special hands ------------------------------------------------------------------------------------------


def test_002_reshuffle_requests():
    # 002 Reshuffling: "If a player receives a hand with only 3 points or less, s/he may declare his cards, and the
    # cards shall be reshuffled and dealt again. Point counting rules: J=1, Q=2, K=3, A=4, 2=5"; "a player holding
    # a hand with no cards with faces on them (namely Jacks 'J', Queens 'Q', and Kings 'K') may request"
    rules = load_rules("classic").replace(redeal_requests=("low-points", "no-faces"))
    found = False
    for seed in range(300):
        g = Game(rules, seed=seed)
        for seat in range(4):
            reasons = g.redeal_reasons(seat)
            if reasons:
                found = True
                old = [g.hand(s) for s in range(4)]
                g.request_redeal(seat)
                assert [g.hand(s) for s in range(4)] != old and g.redeals
                break
        if found:
            break
    assert found
    g = Game(rules, hands=["3D 4D 5D JD", "QD 2S 2H 2D"], first=0)
    assert g.redeal_reasons(0) == []  # not dealt by the game: nothing to reshuffle
    plain = Game("classic", seed=1)
    with pytest.raises(IllegalPlay, match="may not ask for a new deal"):
        plain.request_redeal(0)


def test_002_four_twos():
    # 002: "if a player has four twos, it might be mandatory to have a reshuffle"; "owning 4 Twos is also a
    # condition for Immediate Win"; "some variations said that it's an automatic draw"
    hands = ["2D 2C 2H 2S 3D", "4D 5D", "6D 7D"]
    win = Game(load_rules("classic").replace(four_twos="win"), hands=hands)
    assert win.is_over and win.result.finishing_order[0] == 0 and win.result.scores[0] > 0
    draw = Game(load_rules("classic").replace(four_twos="draw"), hands=hands)
    assert draw.is_over and draw.result.scores == [0, 0, 0]
    redeal = load_rules("classic").replace(four_twos="redeal")
    for seed in range(200):
        g = Game(redeal, seed=seed)
        assert not any(sum(1 for c in g.hand(s) if c.rank == 12) == 4 for s in range(4))


def test_002_malta_dragon():
    # 002: "a dragun ... is the initial thirteen cards that the player is dealt, consisting of six pairs and any
    # other single card. A player who is dealt a dragon immediately wins the game. However, if the dragon contains
    # a pair of 3s ... the player immediately loses."
    rules = load_rules("classic").replace(malta_dragon=True)
    dragon = "4D 4C 5D 5C 6D 6C 7D 7C 8D 8C 9D 9C KS"
    rest = [
        "3D TD TC TH TS JD JC JH JS QD QC QH QS",
        "3C 3H 3S KD KC KH AD AC AH AS 2D 2C 2H",
        "4H 4S 5H 5S 6H 6S 7H 7S 8H 8S 9H 9S 2S",
    ]
    g = Game(rules, hands=[dragon, *rest])
    assert g.is_over and g.result.finishing_order[0] == 0
    bla_bajd = "3D 3C 5D 5C 6D 6C 7D 7C 8D 8C 9D 9C KS"
    g = Game(rules, hands=[bla_bajd, "4D TD TC TH TS JD JC JH JS QD QC QH QS", rest[1].replace("3C", "4C"), rest[2]])
    assert g.is_over and g.result.finishing_order[-1] == 0 and g.result.scores[0] < 0
    assert sum(g.result.scores) == 0


def test_002_the_thirteen_card_dragon():
    # 002: "A 'Dragon' consists of 13 cards in straight (A-K-Q-J-10-9-8-7-6-5-4-3-2), is considered a valid
    # combination and may be played once the player has gained control of the game. Suit of 2 is tie-breaker."
    rules = load_rules("classic").replace(combinations=(*load_rules("classic").combinations, "dragon"))
    d1 = "3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD 2S"
    d2 = "3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC 2H"
    assert rules.classify(d1).kind == "dragon" and rules.beats(d1, d2) and not rules.beats(d2, d1)
    g = Game(rules, hands=[d1 + " 4S", "3S 9S", "5S 6S"], first=0)
    g.play(d1)


# --- automatic turn skip, last card ---------------------------------------------------------------------------


def test_001_automatic_turn_skip_from_public_information():
    # 001: "If all relevant higher cards are discarded already, the turn is skipped automatically." The check uses
    # only public information: the cards already played.
    rules = load_rules("bga").replace(auto_skip=True)
    g = Game(rules, hands=["3D 2S 4D", "2H 5D 6D", "7D 8D 9D", "TD JD QD"], first=0)
    g.play("3D")
    g.play("2H")  # 2S is unplayed, so seat 2 (and 3) might hold it: no skip yet
    assert g.to_move == 2
    g.pass_turn()
    g.pass_turn()
    g.play("2S")  # nothing can beat the 2S: the others are skipped at once and seat 0 leads again
    assert g.trick is None and g.to_move == 0
    notes = g.history_notes
    assert notes[-3:] == ["auto", "auto", "auto"][: len(notes[-3:])] or notes.count("auto") >= 2
    g.undo()  # one undo takes back the 2S and the skips it caused
    assert str(g.trick) == "2H" and g.to_move == 0


def test_a_skip_never_uses_hidden_cards():
    """The skip decision is the same whoever holds the unplayed cards (it reads only public information)."""
    rules = load_rules("bga").replace(auto_skip=True)
    a = Game(rules, hands=["3D KS", "AH 5D", "2D 6D", "7D 8D"], first=0)
    b = Game(rules, hands=["3D KS", "2D 5D", "AH 6D", "7D 8D"], first=0)
    for g in (a, b):
        g.play("3D")
        g.play(g.legal_plays()[-2] if len(g.legal_plays()) > 1 else "pass")
    assert [n for n in a.history_notes] == [n for n in b.history_notes]


def test_002_last_card_call_and_penalty():
    # 002: "Some require the person to call 'last card' when he/she only has one card left right after the last
    # play. If the person holding the last card won, but forgot to call 'last card' beforehand, he/she will take
    # the penalty of all the other player's remaining cards, while other players will score 0."
    rules = load_rules("classic").replace(last_card_call=True)

    def play_out(call):
        g = Game(rules, hands=["3D 9S 2S", "4D 5D 6D", "7D 8D TD"], first=0)
        g.play("3D")
        g.play("4D")
        g.play("7D")
        g.play("9S", call_last_card=call)
        g.pass_turn()
        g.pass_turn()
        g.play("2S")
        return g

    called, forgot = play_out(True), play_out(False)
    assert called.result.scores[0] > 0
    assert forgot.result.scores[0] < 0 and forgot.result.scores[1:] == [0, 0]
    assert called.observe(1).to_json()["history"][3]["note"] == "called"


def test_every_reason_is_words_for_every_kind_with_wild_jokers():
    """why_not() describes any pair of combinations, jokers and all, without failing."""
    import random

    from bigtwo.moves import all_combos

    ev = WILD.engine
    rng = random.Random(3)
    pack = bits(ev.pack)
    for _ in range(60):
        hand = sum(1 << c for c in rng.sample(pack, 9))
        plays = all_combos(ev, hand)
        for p in rng.sample(plays, min(8, len(plays))):
            for q in rng.sample(plays, min(4, len(plays))):
                reason = WILD.why_not(p.cardset, q.cardset)
                assert reason is None or isinstance(reason, str)
