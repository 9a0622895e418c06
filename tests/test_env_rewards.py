"""Normalised rewards: the bound each scoring system divides by is never exceeded, and is reached where it can be."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bigtwo import Game, load_rules
from bigtwo.cards import bits
from bigtwo.envs import Rewards
from bigtwo.scoring import RoundOutcome, score_round

CLASSIC = load_rules("classic")
BGA = load_rules("bga")
SYSTEMS = {
    "encyclopedia": (CLASSIC, 4),
    "encyclopedia, 3 players": (CLASSIC, 3),
    "encyclopedia, 2 players": (CLASSIC, 2),
    "every double": (
        CLASSIC.replace(double_unused_twos=True, double_unused_bombs=True, double_finishing_play=True),
        4,
    ),
    "no triple": (CLASSIC.replace(triple_when_untouched=False), 4),
    "winner": (load_rules("winner").replace(scoring="winner"), 4),
    "twos count double": (CLASSIC.replace(scoring="twos-count-double"), 4),
    "face value": (load_rules("pusoy-dos"), 4),
    "face value, jokers": (load_rules("zheng-shangyou").replace(scoring="face-value"), 4),
    "bga cumulative": (BGA, 4),
    "bga winner takes all, ranks": (BGA.replace(bga_mode="winner-takes-all", bga_base="ranks"), 4),
    "bga pay higher, one": (BGA.replace(bga_mode="pay-higher", bga_base="one"), 4),
    "bga pay higher, uneven hands": (CLASSIC.replace(scoring="bga", bga_mode="pay-higher", bga_multiplier=False), 3),
    "bga cumulative, assistance": (BGA.replace(assistance_penalty=True), 4),
    "bga cumulative, last card": (BGA.replace(last_card_call=True), 4),
    "assistance": (CLASSIC.replace(assistance_penalty=True), 4),
    "last card": (CLASSIC.replace(last_card_call=True), 4),
    "teams": (CLASSIC.replace(teams=True), 4),
}


def outcomes(rules, players, rng):
    """Finished rounds as scoring sees them, from ordinary to the worst: losers keeping all their cards."""
    dealt = Game(rules, players=players, seed=rng.randrange(10**6)).dealt
    for _ in range(30):
        order = list(range(players))
        rng.shuffle(order)
        winner = order[0]
        hands, played = [], []
        for s in range(players):
            cards = bits(dealt[s])
            keep = 0 if s == winner else (len(cards) if rng.random() < 0.5 else rng.randrange(len(cards) + 1))
            hands.append(sum(1 << c for c in rng.sample(cards, keep)))
            played.append(keep < len(cards))
        yield RoundOutcome(
            finishing_order=tuple(order),
            cards_left=tuple(h.bit_count() for h in hands),
            dealt=tuple(m.bit_count() for m in dealt),
            played_any=tuple(played),
            hands=tuple(hands),
            dealt_hands=dealt,
            last_card_uncalled=(winner,) if rng.random() < 0.3 else (),
        )


@pytest.mark.parametrize("system", list(SYSTEMS))
@settings(max_examples=10)
@given(seed=st.integers(0, 10**6))
def test_no_round_pays_more_than_the_bound(system, seed):
    rules, players = SYSTEMS[system]
    bound = Rewards(rules, players, "score").bound()
    for outcome in outcomes(rules, players, random.Random(seed)):
        assert max(abs(x) for x in score_round(rules, outcome).scores) <= bound


def worst(rules, players):
    """Every loser keeps every card it was dealt, untouched."""
    dealt = Game(rules, players=players, seed=0).dealt
    winner = min(range(players), key=lambda s: dealt[s].bit_count())
    return score_round(
        rules,
        RoundOutcome(
            finishing_order=(winner, *(s for s in range(players) if s != winner)),
            cards_left=tuple(0 if s == winner else m.bit_count() for s, m in enumerate(dealt)),
            dealt=tuple(m.bit_count() for m in dealt),
            played_any=tuple(s == winner for s in range(players)),
            hands=tuple(0 if s == winner else m for s, m in enumerate(dealt)),
            dealt_hands=dealt,
        ),
    )


@pytest.mark.parametrize(
    ("system", "bound"),
    [
        ("encyclopedia", 117),  # 002 Scoring: three losers, 13 cards untouched, x3 each: 3 x 39
        ("encyclopedia, 3 players", 105),  # 18 and 17 cards left, x3
        ("encyclopedia, 2 players", 78),  # one loser, 26 cards, x3
        ("no triple", 78),  # 13 cards is "10 or more": x2
        ("twos count double", 3 * (13 + 4)),  # a loser could hold every 2
        ("bga cumulative", 39),  # a loser pays its own penalty only: 13 cards x3
        ("bga pay higher, one", 9),  # the last pays 1 x3 to each of three above it
        ("bga pay higher, uneven hands", 36),  # the last, with 18 cards, pays 18 to each of the two above
        ("bga cumulative, last card", 117),  # a winner who did not call pays every loser's penalty
        ("teams", 1),
    ],
)
def test_bounds_by_system(system, bound):
    rules, players = SYSTEMS[system]
    assert Rewards(rules, players, "score").bound() == bound
    if system in ("encyclopedia", "encyclopedia, 3 players", "encyclopedia, 2 players", "no triple"):
        assert max(abs(x) for x in worst(rules, players).scores) == bound  # reached: nothing looser


def test_face_values_and_ranks_take_the_highest_cards():
    # pusoy dos face values: 10 J Q K count 10, so 13 cards are worth at most 13 x 10 from each loser
    assert Rewards(load_rules("pusoy-dos"), 4, "score").bound() == 3 * 130
    # with jokers (15 each): two jokers and eleven tens or faces
    assert Rewards(SYSTEMS["face value, jokers"][0], 4, "score").bound() == 3 * (2 * 15 + 11 * 10)
    # BGA ranks: 3 = 1 ... 2 = 13; the highest 13 cards are the 2s, aces, kings and a queen, x3 untouched
    ranks = (4 * 13 + 4 * 12 + 4 * 11 + 10) * 3
    assert Rewards(SYSTEMS["bga winner takes all, ranks"][0], 4, "score").bound() == 3 * ranks


def test_place_rewards_and_ranking_rules():
    assert Rewards(load_rules("house-code"), 5, normalize=True).scale == 2  # (n - 1) / 2
    assert Rewards(load_rules("house-code"), 4).mode == "place"
    assert Rewards(load_rules("house-code").replace(teams=True), 4).mode == "score"  # teams pay +1 / -1
    assert Rewards(load_rules("house-code"), 4, "score", normalize=True).scale == 1  # nothing paid: no scaling


def test_an_assistance_penalty_moves_every_payment_onto_one_seat():
    """002 Penalty for assistance under BGA's cumulative penalties: the assister pays what every loser owes,
    more than any loser's own penalty, and the normalised reward still stays within [-1, 1]."""
    from bigtwo.envs import raw_env

    rules = SYSTEMS["bga cumulative, assistance"][0]
    rest = [c for c in range(52) if c not in (0, 4, 8, 47)]  # all but 3D, 4D, 5D, AS
    hands = [1 << 0 | 1 << 8, 1 << 4 | 1 << 47 | sum(1 << c for c in rest[:11]), rest[11:24], rest[24:37]]
    for normalize in (False, True):
        env = raw_env(rules, normalize_rewards=normalize)
        env.reset(options={"hands": [sum(1 << c for c in h) if isinstance(h, list) else h for h in hands], "first": 0})
        for cards in ("3D", "4D", "pass", "pass", "5D"):  # 5D beats 4D while seat 1 held the AS
            env.step(env.encode(next(p for p in env.game.legal_plays() if str(p) == cards)))
        scores = env.game.result.scores
        assert scores[1] == -(24 + 39 + 39) and scores[2] == scores[3] == 0  # 12 cards x2, 13 untouched x3
        rewards = [env.rewards[a] for a in env.possible_agents]
        # the bound: three untouched losers' penalties, 3 x 39, all on one seat
        assert rewards == ([s / 117 for s in scores] if normalize else scores)
