"""The round: leads, tricks, going out, variants of the turn flow, scoring, deals, undo (engine core, item 6)."""

import json

import pytest

from bigtwo import Game, IllegalPlay, load_rules
from bigtwo.cards import parse_cards
from bigtwo.errors import BigTwoError
from bigtwo.scoring import RoundOutcome, score_round


def fingerprint(g: Game):
    return (
        tuple(g.hand(s).mask for s in range(g.n)),
        g.to_move,
        g.trick,
        g.trick_seat,
        tuple(g.passed_seats()),
        tuple(g.finishing_order),
        len(g.history),
        g.required_card,
        g.is_over,
        json.dumps([g.observe(s).to_json() for s in range(g.n)], sort_keys=True),
    )


def test_holder_of_3d_leads_and_must_play_it():
    g = Game("classic", hands=["4D 5D", "3D 9S", "6D 7D", "8D 9D"])
    assert g.to_move == 1
    before = fingerprint(g)
    with pytest.raises(IllegalPlay) as e:
        g.play("9S")
    assert e.value.reason == "the first play must contain 3D"
    with pytest.raises(IllegalPlay, match="seat 1 leads this trick and cannot pass"):
        g.pass_turn()
    assert fingerprint(g) == before  # refused input leaves the state unchanged
    assert [str(p) for p in g.legal_plays()] == ["3D"]
    g.play("3D")
    assert g.to_move == 2 and str(g.trick) == "3D"


def test_taiwan_3c_leads():
    g = Game("taiwan", hands=["3D 5D", "3C 9S", "6D 7D", "8D 9D"])
    assert g.to_move == 1 and str(g.required_card) == "3C"


def test_a_trick_ends_when_all_others_pass_and_the_winner_leads_anything():
    g = Game("classic", hands=["3D 4D 5D", "6D 7D 8D", "9D TD JD", "QD KD AD"])
    g.play("3D")
    g.play("6D")
    for _ in range(3):
        g.pass_turn()
    assert g.trick is None and g.to_move == 1
    with pytest.raises(IllegalPlay):
        g.pass_turn()
    g.play("8D")  # any legal combination on a new lead
    assert str(g.trick) == "8D"


def test_first_player_out_ends_the_round_and_the_rest_rank_by_cards_left():
    g = Game("classic", hands=["3D", "4D 5D 6D", "7D 8D", "9D TD JD QD"])
    g.play("3D")
    assert g.is_over
    assert g.result.finishing_order == [0, 2, 1, 3]
    # nobody else played a card, so each pays triple (002: "triple is all 13 cards are intact")
    assert g.result.scores == [27, -9, -6, -12] and sum(g.result.scores) == 0


def test_play_to_the_last_with_the_roll_over_lead():
    # 004 Chor Dai Di: "If everyone passes on the winner's last hand, the privilege of playing any hand
    # 'rolls over' to the person immediately after the player."
    g = Game("chor-dai-di", hands=["3D 2S", "4D 5D", "6D 7D", "8D 9D"])
    g.play("3D")
    g.play("4D")
    g.play("6D")
    g.play("8D")
    g.play("2S")  # seat 0 goes out on the last play of the trick
    assert g.finishing_order == [0] and not g.is_over
    for _ in range(3):
        g.pass_turn()
    assert g.trick is None and g.to_move == 1  # rolled over to the next player
    g.play("5D")
    g.pass_turn()
    g.pass_turn()
    assert g.finishing_order == [0, 1] and g.to_move == 2
    g.play("7D")
    assert g.is_over and g.result.finishing_order == [0, 1, 2, 3]


def test_house_code_trick_ends_the_moment_someone_goes_out():
    # 003 4.8: "a trick also ends immediately if any player goes out"; 4.3: "the first player following that
    # player in clockwise order begins the trick"
    g = Game("house-code", hands=["3D 4S", "5D 6D", "7D 8D", "9D TD"])
    g.play("3D")
    g.play("5D")
    g.play("7D")
    g.play("9D")
    g.pass_turn()  # seat 0 cannot beat 9D
    g.pass_turn()
    g.pass_turn()
    assert g.to_move == 3 and g.trick is None
    g.play("TD")
    assert g.finishing_order == [3] and g.trick is None and g.to_move == 0


def test_pass_locks_out_variant():
    # 002 Variations: "A variant to discourage passing disallows a player from playing any further cards to a
    # trick after he or she passes."
    rules = load_rules("classic").replace(pass_locks_out=True)
    g = Game(rules, hands=["3D 9D KS", "4D TD KH", "5D JD KC", "6D QD KD"])
    g.play("3D")
    g.pass_turn()  # seat 1 passes and is out of this trick
    g.play("5D")
    g.play("6D")
    g.play("9D")
    assert g.to_move == 2  # seat 1 skipped
    g.pass_turn()
    g.pass_turn()
    assert g.trick is None and g.to_move == 0  # seat 0 won the trick: 1 and 2 locked, 3 passed


def test_one_pass_ends_the_trick():
    # 002 Rules: "some variations have when 1 player has passed the trick is over"
    rules = load_rules("classic").replace(trick_end="one-pass")
    g = Game(rules, hands=["3D 9D", "4D TD", "5D JD", "6D QD"])
    g.play("3D")
    g.play("4D")
    g.pass_turn()
    assert g.trick is None and g.to_move == 1


@pytest.mark.parametrize(
    ("rule", "last", "allowed"),
    [
        # 002: "In most popular variations, ending with a single or double two is not allowed."
        ("two-single-or-pair", "2D", False),
        ("two-single-or-pair", "2D 2C", False),
        ("two-single-or-pair", "AD", True),
        # 002: "Some variations do not allow any of the 2s to be played as the last single card"
        ("two-single", "2C", False),
        ("two-single", "2D 2C", True),
        # 002: "a single 2♠ is not allowed to be played as the last card"
        ("highest-single", "2S", False),
        ("highest-single", "2H", True),
        # 002: "Others do not allow any combination that includes the 2 of spades to be played as the last hand"
        ("highest-card", "2S 2H", False),
    ],
)
def test_end_restrictions(rule, last, allowed):
    rules = load_rules("classic").replace(last_play_forbidden=rule)
    g = Game(rules, hands=[last, "3D 3C 4D", "5D 5C 6D", "7D 7C 8D"], first=0)
    legal = {str(p) for p in g.legal_plays()}
    assert (str(parse_cards(last)) in legal) == allowed
    if not allowed:
        with pytest.raises(IllegalPlay, match="you may not go out"):
            g.play(last)


def test_a_leader_with_nothing_legal_to_lead_hands_on_the_lead():
    rules = load_rules("classic").replace(last_play_forbidden="two-single")
    g = Game(rules, hands=["2S", "3D 3C 4D", "5D 5C 6D"], first=0)
    assert [p.is_pass for p in g.legal_plays()] == [True]
    g.pass_turn()
    assert g.to_move == 1 and g.trick is None


def test_encyclopedia_scoring_example():
    # 002 Scoring: "North player wins, and East, West, and South respectively still had 3, 11, and 8 cards
    # left, then East would score -3, West would score -22, South would score -8, and North would score +33."
    rules = load_rules("classic")
    res = score_round(rules, RoundOutcome((0, 1, 3, 2), (0, 3, 11, 8), (13, 13, 13, 13), (True, True, True, True)))
    assert res.scores == [33, -3, -22, -8]


def test_triple_for_an_untouched_hand_and_three_player_thresholds():
    rules = load_rules("classic")
    # 002: "triple is all 13 cards are intact and not played at all"
    res = score_round(rules, RoundOutcome((0, 1, 2, 3), (0, 13, 5, 1), (13,) * 4, (True, False, True, True)))
    assert res.scores == [39 + 5 + 1, -39, -5, -1]
    # 002: "for a three-player game, a player with 17 cards remaining is deducted triple points. A player with
    # more than 11 cards and less than 17 cards remaining is deducted double points."
    res = score_round(rules, RoundOutcome((0, 1, 2), (0, 12, 11), (17, 17, 17), (True, True, True)))
    assert res.scores == [24 + 11, -24, -11]
    res = score_round(rules, RoundOutcome((0, 1, 2), (0, 17, 16), (17, 17, 17), (True, False, True)))
    assert res.scores == [51 + 32, -51, -32]


def test_ranking_only_scores_nothing():
    g = Game("house-code", hands=["3D", "4D", "5D"])
    g.play("3D")
    assert g.result is None or g.result.scores == [0, 0, 0]


def test_untouched_hands_pay_triple_in_a_real_round():
    g = Game("classic", hands=["3D"] + [None] * 0 + ["4D 5D", "6D 7D 8D"])
    g.play("3D")
    assert g.result.scores == [6 + 9, -6, -9]


@pytest.mark.parametrize(
    ("preset", "players", "sizes"),
    [
        ("classic", 4, [13, 13, 13, 13]),
        ("classic", 2, [26, 26]),
        ("house-code", 5, [11, 11, 10, 10, 10]),
        ("house-code", 8, [7, 7, 7, 7, 6, 6, 6, 6]),
        ("bga", 2, [13, 13]),
        ("bga", 3, [13, 13, 13]),
    ],
)
def test_deals(preset, players, sizes):
    g = Game(preset, players=players, seed=11)
    assert g.hand_sizes() == sizes
    again = Game(preset, players=players, seed=11)
    assert [g.hand(s) for s in range(players)] == [again.hand(s) for s in range(players)]


def test_a_table_size_outside_the_rules_is_refused_in_words():
    with pytest.raises(BigTwoError, match=r"^1 player: a round needs 2 to 8$"):
        Game("classic", players=1)
    with pytest.raises(BigTwoError, match=r"^9 players: a round needs 2 to 8$"):
        Game("classic", players=9)


def test_three_players_leftover_goes_to_the_3d_holder():
    # 002 Rules: "Leftover cards ... are then given to the player holding the 3♦."
    for seed in range(20):
        g = Game("classic", players=3, seed=seed)
        sizes = g.hand_sizes()
        assert sorted(sizes) == [17, 17, 18]
        assert "3D" in g.hand(sizes.index(18))


def test_lowest_card_dealt_leads_when_the_lead_card_is_not_dealt():
    g = Game("bga", hands=["5D 9S", "4C 8S"])
    assert g.to_move == 1 and str(g.required_card) == "4C"


def test_undo_back_to_the_deal():
    g = Game("classic", seed=5)
    start = fingerprint(g)
    marks = []
    import random

    rng = random.Random(2)
    while not g.is_over:
        marks.append(fingerprint(g))
        g.play(rng.choice(g.legal_plays()))
    while marks:
        g.undo()
        assert fingerprint(g) == marks.pop()
    assert fingerprint(g) == start
    with pytest.raises(IllegalPlay, match="nothing to undo"):
        g.undo()


def test_observation_is_json_and_holds_only_the_seat_s_own_hand():
    g = Game("classic", seed=9)
    obs = g.observe(2).to_json()
    json.dumps(obs)
    assert obs["hand"] == [str(c) for c in g.rules.sort_cards(g.hand(2))]
    text = json.dumps(obs)
    for s in (0, 1, 3):
        for c in g.hand(s):
            assert f'"{c}"' not in text


def test_playing_cards_you_do_not_hold_is_refused_with_the_cards_named():
    g = Game("classic", hands=["3D 4D", "5D 6D"])
    with pytest.raises(IllegalPlay, match="seat 0 does not hold 5D"):
        g.play("3D 5D")
    with pytest.raises(IllegalPlay, match="not a combination"):
        g.play("3D 4D")


def _leads(order: list[str]) -> Game:
    """Seat 0 leads each single of ``order`` in turn; nobody can beat any of them, so each trick ends at once."""
    game = Game("winner", hands=["KS AS 2S 3D", "4C", "5C", "6C"], first=0)
    for card in order:
        game.play(card)
        for _ in range(3):
            game.pass_turn()
    return game


def test_position_key_is_equal_for_two_orders_of_play_reaching_one_position():
    assert _leads(["AS", "2S"]).position_key() == _leads(["2S", "AS"]).position_key()
    assert _leads(["AS", "2S"]).position_key() != _leads(["AS", "KS"]).position_key()


def test_position_key_keeps_the_history_a_round_played_on_reads():
    """Once a seat is out, a round played on is scored by the cards left at that moment: two positions alike
    in every hand, reached with other hands at the first going out, differ in key and in the result."""
    hands = ["2S", "3D 7D", "4C 9C", "5C"]
    before = Game("winner", hands=hands, first=1)  # the 3D is played before seat 0 goes out
    for action in ("3D", "pass", "pass", "2S", "pass", "pass", "pass"):
        before.play(action)
    after = Game("winner", hands=hands, first=0)  # and here after it
    for action in ("2S", "pass", "pass", "pass", "3D", "pass", "pass"):
        after.play(action)
    assert [str(after.hand(s)) for s in range(4)] == [str(before.hand(s)) for s in range(4)]
    assert before.to_move == after.to_move == 1 and before.trick is None and after.trick is None
    assert before.position_key() != after.position_key()
    while not before.is_over:
        move = before.legal_plays()[0]
        before.play(move)
        after.play(move)
    assert after.is_over and before.result.scores != after.result.scores


def test_position_key_is_restored_by_undo():
    game = Game("classic", seed=11)
    keys = [game.position_key()]
    for _ in range(12):
        game.play(game.legal_plays()[0])
        keys.append(game.position_key())
    for key in reversed(keys[:-1]):
        game.undo()
        assert game.position_key() == key
