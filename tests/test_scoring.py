"""Scoring systems: the texts' worked examples, each mode and base, and the penalties (issue: matches, item 3)."""

import pytest

from bigtwo import Game, load_rules
from bigtwo.cards import to_mask
from bigtwo.scoring import RoundOutcome, face_value, is_zero_sum, rank_sum, score_round, unused_bombs

CLASSIC = load_rules("classic")


def outcome(order, hands, dealt=13, played=None, history=(), uncalled=()):
    """A finished round from the cards left in each hand (notation), every hand dealt ``dealt`` cards."""
    masks = tuple(to_mask(h) for h in hands)
    n = len(hands)
    return RoundOutcome(
        finishing_order=tuple(order),
        cards_left=tuple(m.bit_count() for m in masks),
        dealt=(dealt,) * n,
        played_any=tuple(played) if played is not None else (True,) * n,
        hands=masks,
        history=tuple((s, to_mask(c)) for s, c in history),
        last_card_uncalled=tuple(uncalled),
    )


EAST_WEST_SOUTH = ["", "3C 4C 5C", "3H 4H 5H 6H 7H 8H 9H TH JH QH KH", "3S 4S 5S 6S 7S 8S 9S TS"]  # 3, 11, 8 cards


def test_encyclopedia_example():
    # 002 Scoring: "North player wins, and East, West, and South respectively still had 3, 11, and 8 cards left,
    # then East would score -3, West would score -22, South would score -8, and North would score +33."
    res = score_round(CLASSIC, outcome((0, 1, 3, 2), EAST_WEST_SOUTH))
    assert res.scores == [33, -3, -22, -8]
    assert res.details[1] == "seat 2 pays 22 (11 cards, at least 10, x2)"


def test_encyclopedia_doubling_example():
    # 002 Scoring: "North players wins with a 2 as a last discard, and East, West, and South respectively still had
    # 3, 9, and 8 cards left with the West had an unused Straight Flush and South left with an unused 2, then East
    # would score -6, West would score -36, South would score -32, and North would score +74."
    rules = CLASSIC.replace(double_unused_twos=True, double_unused_bombs=True, double_finishing_play=True)
    east = "4C 6C 8S"
    west = "3H 4H 5H 6H 7H 9C JD QD KS"
    south = "2D 3S 5S 8C 9D TH JH QC"
    res = score_round(rules, outcome((0, 1, 3, 2), ["", east, west, south], history=[(3, "3D"), (0, "2S")]))
    assert res.scores == [74, -6, -36, -32]
    # without the doubles, the plain count
    assert score_round(CLASSIC, outcome((0, 1, 3, 2), ["", east, west, south])).scores == [20, -3, -9, -8]


def test_doubles_stack_and_the_finishing_double_does_not():
    rules = CLASSIC.replace(double_unused_twos=True, double_unused_bombs=True, double_finishing_play=True)
    # two unused 2s: x4; four of a kind and a straight flush, disjoint: x4 more
    assert score_round(rules, outcome((0, 1), ["", "2D 2S 4C"])).scores == [12, -12]
    hand = "9D 9C 9H 9S 3H 4H 5H 6H 7H"
    assert unused_bombs(rules, to_mask(hand)) == 2
    assert score_round(rules, outcome((0, 1), ["", hand])).scores == [36, -36]
    # going out on four 2s and a kicker is both "a 2" and "a four of a kind": doubled once ("does not stack")
    last = "2D 2C 2H 2S 3C"
    assert score_round(rules, outcome((0, 1), ["", "4D"], history=[(0, last)])).scores == [2, -2]
    # a straight flush as the last play doubles; a plain straight does not
    assert score_round(rules, outcome((0, 1), ["", "4D"], history=[(0, "5S 6S 7S 8S 9S")])).scores == [2, -2]
    assert score_round(rules, outcome((0, 1), ["", "4D"], history=[(0, "5S 6S 7S 8S 9D")])).scores == [1, -1]


def test_the_doubles_in_a_real_round():
    rules = CLASSIC.replace(double_finishing_play=True, double_unused_twos=True)
    g = Game(rules, hands=["2S", "3D 2D", "4C 5C 6C"], first=0)
    g.play("2S")
    # seat 1: 2 cards, untouched x3, one unused 2 x2, the winner went out on a 2 x2 -> 24; seat 2: 3 x3 x2 -> 18
    assert g.result.scores == [42, -24, -18]


def test_twos_count_double():
    # 002 Scoring: "An alternative scoring method to deduct one point per remaining card, is to double the count
    # for each unused 2's."
    rules = CLASSIC.replace(scoring="twos-count-double")
    res = score_round(rules, outcome((0, 1, 2), ["", "2D 2S 4C", "5C 6C"]))
    assert res.scores == [5 + 2, -5, -2]


def test_winner_scoring_counts_when_the_winner_goes_out():
    # 000 Scoring: "if North won, and East, West, and South respectively still had 3, 11, and 8 cards left, East
    # would score -3, West would score -22, South would score -8, and North would score +33."
    rules = CLASSIC.replace(scoring="winner", round_end="last-standing")
    assert score_round(rules, outcome((0, 1, 3, 2), EAST_WEST_SOUTH)).scores == [33, -3, -22, -8]
    # "If they didn't get to play any cards at all, they score -3 for each."
    res = score_round(rules, outcome((0, 1), ["", "3C 4C 5C"], dealt=3, played=(True, False)))
    assert res.scores == [9, -9]


def test_winner_scoring_in_a_round_played_to_the_last_player():
    """The counts are taken when the first player goes out; play goes on to find the loser, changing nothing."""
    rules = CLASSIC.replace(scoring="winner", round_end="last-standing")
    g = Game(rules, hands=["3D 4D", "5D 6D 7D", "8D 9D TD JD"], first=0)
    g.play("3D")
    g.play("5D")
    g.play("8D")
    g.play("pass")  # seat 0
    g.play("pass")  # seat 1: seat 2 leads
    g.play("9D")
    g.play("pass")
    g.play("pass")
    g.play("TD")
    g.play("pass")
    g.play("pass")
    g.play("JD")  # seat 2 goes out first; seats 0 and 1 still hold 1 and 2 cards
    assert not g.is_over
    g.play("pass")
    g.play("pass")
    g.play("4D")  # seat 0 goes out too: seat 1 is the loser
    assert g.is_over and g.result.finishing_order == [2, 0, 1]
    assert g.result.scores == [-1, -2, 3]


@pytest.mark.parametrize("base, owed", [("cards", (3, 22, 39)), ("ranks", (16, 116, 342)), ("one", (1, 2, 3))])
@pytest.mark.parametrize("multiplier", [True, False])
@pytest.mark.parametrize("mode", ["cumulative", "winner-takes-all", "pay-higher"])
def test_bga_modes_bases_and_multiplier(mode, base, owed, multiplier):
    # 001 Scoring: "Cumulative scoring ... Winner takes all ... Pay to higher ranks", "Base penalty calculation:
    # Number of cards: 1 point per card. Rank of cards: the sum of card ranks (3: 1 point, ..., 2: 13 points).
    # The base penalty is always 1 point", "which can be multiplied based on the number of cards left"
    rules = CLASSIC.replace(scoring="bga", bga_mode=mode, bga_base=base, bga_multiplier=multiplier)
    seat1 = "3D 4D 2S"  # 3 cards, ranks 1 + 2 + 13 = 16: x1
    seat2 = "5D 5C 6D 6C 7D 7C 8D 8C 9D 9C TD"  # 11 cards, ranks 58: x2 from 10 cards
    seat3 = "JD JC QD QC KD KC AD AC 2D 2C 3C 3H 4C"  # 13 cards untouched, ranks 114: x3
    res = score_round(rules, outcome((0, 1, 2, 3), ["", seat1, seat2, seat3], played=(True, True, True, False)))
    if not multiplier:
        owed = {"cards": (3, 11, 13), "ranks": (16, 58, 114), "one": (1, 1, 1)}[base]
    a, b, c = owed
    expected = {
        "cumulative": [0, -a, -b, -c],
        "winner-takes-all": [a + b + c, -a, -b, -c],
        # everyone pays each player ranked above: seat 1 pays seat 0; seat 2 pays 0 and 1; seat 3 pays 0, 1, 2
        "pay-higher": [a + b + c, -a + b + c, -2 * b + c, -3 * c],
    }[mode]
    assert res.scores == expected
    assert (sum(res.scores) == 0) == is_zero_sum(rules)


def test_bga_pay_higher_ties_share_a_rank():
    rules = CLASSIC.replace(scoring="bga", bga_mode="pay-higher", bga_multiplier=False)
    res = score_round(rules, outcome((0, 1, 2), ["", "3D 4D", "5D 6D"]))
    assert res.scores == [4, -2, -2]


def test_pusoy_dos_face_values():
    # public pusoy dos rules: "Face cards (Jacks, Queens and Kings) and the Tens are given ten points. All other
    # cards are given their face value."
    rules = load_rules("pusoy-dos")
    assert rules.scoring == "face-value"
    assert face_value(to_mask("TD JD QD KD AD 2D 3C 9S")) == 10 + 10 + 10 + 10 + 1 + 2 + 3 + 9
    res = score_round(rules, outcome((0, 1, 2), ["", "KD AD", "3C 9S"]))
    assert res.scores == [11 + 12, -11, -12]
    assert rank_sum(to_mask("3D 2S AH")) == 1 + 13 + 12


def test_ranking_only_scores_nothing():
    rules = load_rules("house-code")
    assert score_round(rules, outcome((0, 1, 2), ["", "3D", "4D 5D"])).scores == [0, 0, 0]


ASSIST = CLASSIC.replace(assistance_penalty=True)


def test_assistance_penalty():
    # 002 Penalty for assistance: "If Player B won a game by playing her or his last card ... after Player A has
    # played theirs and Player A could have prevented this from happening by playing a higher card ... Player A
    # to be deducted the total points that the other two losers have lost on top of her or his own"
    g = Game(ASSIST, hands=["5D KD", "9D", "3C 4C 6C"], first=0)
    g.play("5D")  # A leads 5D while holding KD, which 9D would not beat
    g.play("9D")  # B goes out with a single
    assert g.result.scores == [-(1 + 9), 10, 0]
    plain = Game(CLASSIC, hands=["5D KD", "9D", "3C 4C 6C"], first=0)
    plain.play("5D")
    plain.play("9D")
    assert plain.result.scores == [-1, 10, -9]


@pytest.mark.parametrize(
    "hands, script",
    [
        (["5D 6D", "9D", "3C 4C 6C"], ["5D", "9D"]),  # A had nothing higher than 9D
        (["5D KD", "9D 9C", "3C 4C 6C"], ["5D", "pass", "pass", "KD"]),  # not B's going out
        (["5D KD", "3S 9D", "4C 6C 7C"], ["5D", "9D", "pass", "pass", "3S"]),  # B led its last single
        (["5D 6D KD", "9D 9C", "3C 4C 6C"], ["5D", "pass", "pass", "6D", "pass", "pass", "KD"]),  # the leader wins
    ],
)
def test_no_assistance_penalty_otherwise(hands, script):
    g = Game(ASSIST, hands=hands, first=0)
    for action in script:
        g.play(action)
    assert g.is_over
    plain = Game(CLASSIC, hands=hands, first=0)
    for action in script:
        plain.play(action)
    assert g.result.scores == plain.result.scores


def test_assistance_penalty_does_not_apply_to_ranks():
    # 002: "If the scoring system is based on ranks ... the rule would not apply."
    rules = CLASSIC.replace(assistance_penalty=True, scoring="bga", bga_mode="pay-higher", bga_multiplier=False)
    g = Game(rules, hands=["5D KD", "9D", "3C 4C 6C"], first=0)
    g.play("5D")
    g.play("9D")
    assert g.result.scores == [-1 + 3, 1 + 3, -3 - 3]  # as without the rule


def test_last_card_call():
    # 002 Variations: "If the person holding the last card won, but forgot to call 'last card' beforehand, he/she
    # will take the penalty of all the other player's remaining cards, while other players will score 0."
    # (The call itself is a table action; the round reports who did not call.)
    rules = CLASSIC.replace(last_card_call=True)
    hands = EAST_WEST_SOUTH
    assert score_round(rules, outcome((0, 1, 3, 2), hands, uncalled=(0,))).scores == [-33, 0, 0, 0]
    assert score_round(rules, outcome((0, 1, 3, 2), hands, uncalled=(2,))).scores == [33, -3, -22, -8]
    assert not is_zero_sum(rules)


TEAMS = CLASSIC.replace(teams=True)


def test_team_example_a_player_goes_out_and_loses_for_the_team():
    # 002 Team play: "Mike has 4 cards, Dave has 5, Lionel has 10 and Brendan has 1. Brendan plays his last card
    # but Lionel has 10 cards and Mike and Dave have 9 cards total. By playing his last card Brendan has lost the
    # game for his team." Partners sit opposite: Mike 0, Lionel 1, Dave 2, Brendan 3.
    mike, lionel, dave = "3D 4D 5D 6D", "3C 4C 5C 6C 7C 8C 9C TC JC QC", "3H 4H 5H 6H 7H"
    g = Game(TEAMS, hands=[mike, lionel, dave, "2S"], first=3)
    g.play("2S")
    assert g.result.finishing_order[0] == 3
    assert g.result.scores == [1, -1, 1, -1]


def test_team_tie_asks_for_a_shootout():
    # 002 Team play: "If the card count is tied at the end of a game the players proceed to a five card shootout."
    res = score_round(TEAMS, outcome((3, 0, 2, 1), ["3D 4D 5D 6D", "3C 4C 5C 6C 7C 8C 9C TC JC", "3H 4H 5H 6H 7H", ""]))
    assert res.team_tie and res.scores == [0, 0, 0, 0]


@pytest.mark.parametrize(
    "changes",
    [
        {},
        {"double_unused_twos": True, "double_unused_bombs": True, "double_finishing_play": True},
        {"scoring": "winner", "round_end": "last-standing"},
        {"scoring": "twos-count-double"},
        {"scoring": "face-value"},
        {"scoring": "bga", "bga_mode": "winner-takes-all", "bga_base": "ranks"},
        {"scoring": "bga", "bga_mode": "pay-higher", "bga_base": "one"},
        {"assistance_penalty": True},
        {"teams": True},
        {"scoring": "ranking"},
    ],
    ids=lambda c: ",".join(f"{k}={v}" for k, v in c.items()) or "encyclopedia",
)
def test_zero_sum_systems_sum_to_zero_every_round(changes):
    """Many seeded random rounds per system: every zero-sum system's scores add up to zero."""
    import random

    rules = CLASSIC.replace(**changes)
    assert is_zero_sum(rules)
    for seed in range(40):
        rng = random.Random(seed)
        g = Game(rules, players=4 if rules.teams else 2 + seed % 3, seed=seed)
        while not g.is_over:
            g.play(rng.choice(g.legal_plays()))
        assert sum(g.result.scores) == 0, (seed, g.result)
