"""Computer players: legal on every preset and table size, reproducible, blind to hidden cards (issue 5)."""

import json
import random
from typing import ClassVar

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bigtwo import CardSet, Game, list_presets, load_rules, parse_cards
from bigtwo.bots import make
from bigtwo.bots.base import BOTS, BaseBot, bot_names, register
from bigtwo.bots.heuristic import policy_for
from bigtwo.bots.plan import planner_for
from bigtwo.bots.sampling import DealSampler
from bigtwo.bots.view import HistoryCache, played_from_history, view_from_observation
from bigtwo.cards import bits, to_mask
from bigtwo.errors import BigTwoError

TINY_SEARCH = {"iterations": 1, "candidates": 2}


def play_out(rules, players, bots, seed=0, max_actions=3000):
    """Play a round with one bot per seat; every action must be one of the engine's legal actions."""
    g = Game(rules, players=players, seed=seed)
    n = 0
    while not g.is_over:
        s = g.to_move
        action = bots[s].choose(rules, g.observation(s))
        legal = {p.mask for p in g.legal_plays()}
        assert action.mask in legal, f"{bots[s].name} chose {action} at seat {s}; legal: {g.legal_plays()}"
        g.play(action)
        n += 1
        assert n < max_actions
    return g


def lineups(n, seed):
    names = ["heuristic", "greedy", "random", "search"]
    out = []
    for i in range(n):
        name = names[(i + seed) % len(names)]
        out.append(make(name, seed=seed * 10 + i, **(TINY_SEARCH if name == "search" else {})))
    return out


@pytest.mark.parametrize("preset", list_presets())
def test_every_bot_plays_only_legal_actions_on_every_preset_and_table_size(preset):
    rules = load_rules(preset)
    for players in range(rules.min_players, rules.max_players + 1):
        g = play_out(rules, players, lineups(players, players), seed=players)
        assert g.result is not None


HOUSE_RULES = [
    {"last_play_forbidden": "two-single-or-pair"},
    {"last_play_forbidden": "highest-card"},
    {"pass_locks_out": True},
    {"trick_end": "one-pass"},
    {"round_end": "last-standing", "trick_ends_on_out": True},
    {"match": "kind", "straight_lengths": [3, 4, 5, 6], "combinations": ["single", "pair", "triple", "straight"]},
    {"combinations": ["single", "pair", "triple", "quad", "two_pairs", "pair_straight", "triple_straight"]},
    {"combinations": ["single", "pair", "two_pair_junk", "triple_junk", "sisters", "straight", "flush"]},
    {"suit_order": "none", "five_card_beating": "same-category"},
    {"five_card_beating": "card-value", "flush_order": "top-card"},
]


@pytest.mark.parametrize("changes", HOUSE_RULES, ids=lambda c: ",".join(c))
def test_bots_stay_legal_under_house_rules(changes):
    rules = load_rules("classic").replace(**changes)
    for seed in range(2):
        play_out(rules, 4, lineups(4, seed), seed=seed)


def test_bots_stay_legal_with_three_players_and_a_partial_deal():
    rules = load_rules("bga")  # 13 cards each: with three players 13 cards stay out of play
    for seed in range(3):
        play_out(rules, 3, lineups(3, seed), seed=seed)


def test_make_knows_the_four_bots_and_rejects_unknown_names_and_options():
    assert {"random", "greedy", "heuristic", "search"} <= set(bot_names())
    with pytest.raises(ValueError, match="no bot named 'clever'"):
        make("clever")
    with pytest.raises(ValueError, match="search"):
        make("search", budget=3)
    with pytest.raises(ValueError, match="iterations must be at least 1"):
        make("search", iterations=0)
    with pytest.raises(ValueError, match="utility"):
        make("search", utility="glory")


def history(g):
    return [(s, p.mask) for s, p in g.history]


@pytest.mark.parametrize("name,options", [("random", {}), ("heuristic", {}), ("search", TINY_SEARCH)])
def test_same_seed_same_game(name, options):
    rules = load_rules("classic")
    runs = []
    for _ in range(2):
        bots = [make(name, seed=42 + i, **options) for i in range(4)]
        runs.append(history(play_out(rules, 4, bots, seed=9)))
    assert runs[0] == runs[1]


def test_a_different_seed_changes_the_random_bot():
    rules = load_rules("classic")
    a = history(play_out(rules, 4, [make("random", seed=i) for i in range(4)], seed=9))
    b = history(play_out(rules, 4, [make("random", seed=100 + i) for i in range(4)], seed=9))
    assert a != b


# --- hidden information ----------------------------------------------------------------------------------


def midgame(rules, seed, actions):
    g = Game(rules, seed=seed)
    bot = make("greedy")
    for _ in range(actions):
        if g.is_over:
            break
        g.play(bot.choose(rules, g.observation(g.to_move)))
    return g


def scrambled(g, seat, rng):
    """The same public position with every other seat's hidden cards dealt afresh (sizes kept)."""
    obs = g.observation(seat)
    pool = [c for s in range(g.n) if s != seat for c in bits(g.hand(s).mask)]
    rng.shuffle(pool)
    hands, i = [], 0
    for s in range(g.n):
        if s == seat:
            hands.append(g.hand(s).mask)
        else:
            k = g.hand(s).mask.bit_count()
            hands.append(to_mask(pool[i : i + k]))
            i += k
    other = Game.from_observation(g.rules, obs, hands)
    assert [other.hand(s).mask for s in range(g.n)] != [g.hand(s).mask for s in range(g.n)]
    return other


def string_tokens(obj):
    out = set()
    if isinstance(obj, dict):
        for v in obj.values():
            out |= string_tokens(v)
    elif isinstance(obj, list):
        for v in obj:
            out |= string_tokens(v)
    elif isinstance(obj, str):
        out.add(obj)
    return out


@pytest.mark.parametrize("seed,actions", [(1, 9), (2, 17), (3, 26), (4, 5)])
def test_choices_do_not_depend_on_other_seats_hidden_cards(seed, actions):
    rules = load_rules("classic")
    g = midgame(rules, seed, actions)
    seat = g.to_move
    rng = random.Random(seed)
    twin = scrambled(g, seat, rng)
    obs, obs2 = g.observation(seat), twin.observation(seat)
    assert obs == obs2  # the observation itself carries nothing of the hidden hands
    hidden = {str(c) for s in range(g.n) if s != seat for c in g.hand(s)}
    assert not hidden & string_tokens(obs)
    for name, options in [("random", {}), ("greedy", {}), ("heuristic", {}), ("search", {"iterations": 3})]:
        a = make(name, seed=7, **options).choose(rules, obs)
        b = make(name, seed=7, **options).choose(rules, obs2)
        assert a == b, name


class Spy(BaseBot):
    """Records every observation it is given and plays greedily."""

    name = "spy"
    seen: ClassVar[list] = []

    def choose_play(self, rules, observation):
        Spy.seen.append(json.loads(json.dumps(observation)))
        return self.legal(rules, observation)[0]


def test_the_arena_hands_a_bot_only_its_own_seat_s_observation():
    from bigtwo.arena import play_game
    from bigtwo.arena.spec import BotSpec

    register("spy")(Spy)
    try:
        Spy.seen = []
        rules = load_rules("classic")
        lineup = [BotSpec("spy"), BotSpec("greedy"), BotSpec("greedy"), BotSpec("greedy")]
        rec = play_game(rules, lineup, deal=3, rotation=1, seed=5)
        spy_seat = rec.entries.index(0)
        dealt = Game(rules, players=4, seed=rec.deal_seed).dealt
        assert Spy.seen
        for obs in Spy.seen:
            assert obs["seat"] == spy_seat
            tokens = string_tokens(obs)
            played = CardSet.from_mask(played_from_history(obs["history"]))
            for s in range(4):
                if s != spy_seat:
                    unplayed = CardSet.from_mask(dealt[s]) - played
                    assert not {str(c) for c in unplayed} & tokens
    finally:
        BOTS.pop("spy", None)


# --- exchanges -------------------------------------------------------------------------------------------


def exchange_obs(hand, count, must="any", rules="classic"):
    h = parse_cards(hand)
    return {
        "phase": "exchange",
        "seat": 0,
        "players": 4,
        "rules": rules,
        "hand": [str(c) for c in h],
        "hand_sizes": [len(h), 13, 13, 13],
        "history": [],
        "decision": {"kind": "give", "count": count, "to": 2, "must": must},
    }


@pytest.mark.parametrize("name", ["random", "greedy", "heuristic", "search"])
def test_exchange_lowest_and_highest_follow_the_ruleset_s_card_order(name):
    rules = load_rules("taiwan")  # C < D < H < S
    hand = "3D 3C 5H 9S TD KC AS 2C 2S"
    bot = make(name, seed=1, **(TINY_SEARCH if name == "search" else {}))
    low = bot.choose(rules, exchange_obs(hand, 2, "lowest", "taiwan"))
    high = bot.choose(rules, exchange_obs(hand, 2, "highest", "taiwan"))
    assert low == parse_cards("3C 3D") and high == parse_cards("2C 2S")
    anyk = bot.choose(rules, exchange_obs(hand, 3, "any", "taiwan"))
    assert isinstance(anyk, CardSet) and len(anyk) == 3 and anyk.issubset(parse_cards(hand))


def test_the_heuristic_gives_away_what_its_plan_needs_least():
    rules = load_rules("classic")
    # a straight 3-7, a pair of 2s, and two loose cards: the loose low card goes first, never a 2 or the straight
    hand = "3D 4C 5H 6S 7D 9C KD 2S 2H"
    one = make("heuristic").choose(rules, exchange_obs(hand, 1))
    assert one == parse_cards("9C")
    two = make("heuristic").choose(rules, exchange_obs(hand, 2))
    assert two == parse_cards("9C KD")


def test_exchange_requests_that_cannot_be_met_are_refused_clearly():
    rules = load_rules("classic")
    bot = make("heuristic")
    with pytest.raises(ValueError, match="cannot give 5 cards from a hand of 3"):
        bot.choose(rules, exchange_obs("3D 4D 5D", 5))
    with pytest.raises(ValueError, match="'must' 'middle'"):
        bot.choose(rules, exchange_obs("3D 4D 5D", 1, "middle"))
    obs = exchange_obs("3D 4D 5D", 1)
    obs["decision"]["kind"] = "take"
    with pytest.raises(ValueError, match="kind 'take'"):
        bot.choose(rules, obs)
    assert bot.choose(rules, exchange_obs("3D 4D 5D", 0)) == CardSet()


# --- the heuristic's plan and play ----------------------------------------------------------------------


@given(st.lists(st.integers(0, 51), min_size=1, max_size=17, unique=True), st.sampled_from(list_presets()))
def test_a_plan_partitions_the_hand_into_combinations(cards, preset):
    rules = load_rules(preset)
    hand = to_mask(cards)
    plan = planner_for(rules.engine).plan(hand)
    seen = plan.stranded
    for c in plan.combos:
        assert rules.engine.classify(c.mask) is not None
        assert not seen & c.mask
        seen |= c.mask
    assert seen == hand


@given(st.lists(st.integers(0, 51), min_size=2, max_size=13, unique=True), st.data())
def test_a_plan_is_the_same_however_the_hand_was_reached(cards, data):
    """Plans reuse a larger hand's work when told of it; the result must not depend on that."""
    from bigtwo.bots.plan import Planner

    ev = load_rules("classic").engine
    hand = to_mask(cards)
    drop = data.draw(st.lists(st.sampled_from(cards), min_size=1, max_size=len(cards) - 1, unique=True))
    smaller = hand & ~to_mask(drop)
    warm = Planner(ev)
    warm.plan(hand)
    cold = Planner(ev)
    assert warm.plan(smaller, parent=hand) == cold.plan(smaller)


def decide(rules, hands, history_plays, seat):
    g = Game(rules, hands=hands)
    for p in history_plays:
        g.play(p)
    assert g.to_move == seat
    return make("heuristic").choose(rules, g.observation(seat))


def test_the_heuristic_goes_out_when_it_can():
    rules = load_rules("classic")
    p = decide(rules, ["3D 4D 5D 6D 7D", "8C 9C", "TH JH", "QS KS"], [], 0)
    assert p.cardset == parse_cards("3D 4D 5D 6D 7D")


def test_the_heuristic_answers_with_a_loose_card_rather_than_split_a_pair():
    rules = load_rules("classic")
    hands = ["3D 5D 6D 7C 8C KD JS", "4C 4H 9C 9S QH", "5C 6C 7D 8D QC KC 3S", "5H 6H 7H 8S QD KH 4S"]
    g = Game(rules, hands=hands)
    g.play("3D")
    p = make("heuristic").choose(rules, g.observation(1))
    assert p.cardset == parse_cards("QH")  # not a card out of either pair


def test_the_heuristic_keeps_its_top_card_early_rather_than_spend_it_on_a_low_single():
    rules = load_rules("classic")
    hands = ["4D 6C 7C 8C KD JS 3C TH", "2S 9C 9S 5H 5D 7D 7S 3H", "5C 6D 8D QH KC 3S TC", "6H 7H 8H 8S QD KH 4S TS"]
    g = Game(rules, hands=hands, first=0)
    g.play("4D")
    p = make("heuristic").choose(rules, g.observation(1))
    assert p.cardset != parse_cards("2S")  # the top single stays for winning a lead later


def test_the_heuristic_does_not_lead_a_beatable_single_into_a_one_card_hand():
    rules = load_rules("classic")
    g = Game(rules, hands=["3D 4C 4S 6D", "2S", "5C 9H", "8H JS"], first=0)
    p = make("heuristic").choose(rules, g.observation(0))
    assert p.cardset == parse_cards("4C 4S")


def test_the_heuristic_answers_high_when_an_opponent_is_about_to_go_out():
    rules = load_rules("classic")
    # seat 2 has one card left: seat 1 must not let the trick stand at a 6; it plays its ace
    g = Game(rules, hands=["5C 9D 9S", "6H AD 3S 4S", "JH", "7C 8C 8D"], first=0)
    g.play("5C")
    p = make("heuristic").choose(rules, g.observation(1))
    assert p.cardset == parse_cards("AD")


def test_views_from_observations_reuse_the_history_only_when_it_extends():
    rules = load_rules("classic")
    g = midgame(rules, 5, 12)
    cache = HistoryCache()
    obs = g.observation(g.to_move)
    assert cache.played(obs["history"]) == played_from_history(obs["history"])
    g.play(g.legal_plays()[0])
    obs = g.observation(g.to_move)
    assert cache.played(obs["history"]) == played_from_history(obs["history"])
    other = midgame(rules, 6, 4).observation(0)  # a different round: read from the start
    assert cache.played(other["history"]) == played_from_history(other["history"])
    view = view_from_observation(rules, obs)
    assert view.unseen & view.hand == 0 and view.unseen & view.played == 0


# --- determinisation -------------------------------------------------------------------------------------


@given(st.integers(0, 10_000), st.integers(0, 40), st.sampled_from(["classic", "taiwan", "house-code", "bga"]))
def test_sampled_deals_match_everything_public(seed, actions, preset):
    rules = load_rules(preset)
    g = midgame(rules, seed, actions)
    if g.is_over:
        return
    seat = g.to_move
    obs = g.observation(seat)
    sampler = DealSampler(rules, obs)
    hands = sampler.sample(random.Random(seed))
    assert hands[seat] == g.hand(seat).mask
    assert [h.bit_count() for h in hands] == g.hand_sizes()
    played = played_from_history(obs["history"])
    union = 0
    for h in hands:
        assert not union & h and not h & played
        union |= h
    rebuilt = Game.from_observation(rules, obs, hands)
    assert rebuilt.observation(seat) == obs


def test_a_partial_deal_s_first_play_shows_which_low_cards_were_never_dealt():
    rules = load_rules("bga")  # 13 each: with 3 players, 13 cards are never dealt; the lowest dealt card leads
    hands = ["4H 6D 7D 8D 9D TD JD QD KD AD 2D 6S 5S", "4S 6C 7C 8C 9C TC JC QC KC AC 2C 5C 5D", "6H 7H 8H"]
    g = Game(rules, hands=hands)
    g.play("4H")  # the lowest card dealt: no 3 was dealt, and no 4 below the heart
    obs = g.observation(1)
    sampler = DealSampler(rules, obs)
    never = to_mask("3D 3C 3H 4D 4C")
    for i in range(30):
        h = sampler.sample(random.Random(i))
        assert not (h[0] | h[2]) & never


def test_a_leader_who_had_to_pass_still_holds_a_hand_it_may_not_go_out_with():
    rules = load_rules("classic").replace(last_play_forbidden="two-single")
    g = Game(rules, hands=["3D 5D 6D", "4C 2H", "7S 8S", "9H TH"], first=0)
    for p in ["3D", "4C", "pass", "pass", "pass"]:
        g.play(p)
    # seat 1 won the trick holding only the 2H: it may not go out with a single 2, so it must pass the lead
    assert g.to_move == 1 and g.trick is None and [str(p) for p in g.legal_plays()] == ["pass"]
    g.play("pass")
    obs = g.observation(g.to_move)
    sampler = DealSampler(rules, obs)
    assert sampler.lead_passes == [(1, 0)]
    for i in range(20):
        card = sampler.sample(random.Random(i))[1]
        assert rules.engine.rank_of[card.bit_length() - 1] == 12  # whichever card it is, it is a 2


def test_an_impossible_observation_is_refused():
    rules = load_rules("classic")
    g = Game(rules, seed=1)
    obs = g.observation(0)
    obs["hand_sizes"] = [13, 13, 13, 30]
    with pytest.raises(BigTwoError, match="only 39 are unaccounted for"):
        DealSampler(rules, obs)


def test_the_search_keeps_the_heuristic_s_choice_when_it_is_the_only_candidate():
    rules = load_rules("classic")
    g = midgame(rules, 8, 10)
    obs = g.observation(g.to_move)
    ranked = policy_for(rules).scores(view_from_observation(rules, obs))
    assert make("search", candidates=1, iterations=5).choose(rules, obs) == ranked[0][1]


@pytest.mark.parametrize("preset", ["classic", "house-code", "chor-dai-di"])
def test_rollouts_play_exactly_like_the_heuristic_bot(preset):
    """Search rollouts read views built from the Game; the bot reads observations: the same round results."""
    from bigtwo.bots.search import rollout
    from bigtwo.bots.view import deck_of, view_from_game

    rules = load_rules(preset)
    for seed in range(3):
        g = Game(rules, seed=seed)
        bots = [make("heuristic") for _ in range(g.n)]
        twin = g.clone()
        while not g.is_over:
            s = g.to_move
            obs = g.observation(s)
            if not g.history or seed == 0:
                a = view_from_observation(rules, obs)
                b = view_from_game(g, deck_of(rules), played_from_history(obs["history"]))
                assert a == b
            g.play(bots[s].choose(rules, obs))
        rollout(twin, policy_for(rules), deck_of(rules), 0)
        assert history(twin) == history(g)


@given(st.integers(0, 5000), st.sampled_from(["classic", "house-code", "chor-dai-di"]), st.integers(2, 4))
def test_a_bot_s_legal_actions_are_the_engine_s(seed, preset, players):
    """Bots keep a hand index between decisions; it must give exactly the engine's legal actions."""
    from bigtwo.game import legal_plays_from_observation

    rules = load_rules(preset)
    players = max(players, rules.min_players)
    g = Game(rules, players=players, seed=seed)
    bots = [make("random", seed=seed + s) for s in range(g.n)]
    while not g.is_over:
        obs = g.observation(g.to_move)
        mine = bots[g.to_move].legal(rules, obs)
        assert mine == legal_plays_from_observation(rules, obs) == g.legal_plays()
        g.play(bots[g.to_move].choose(rules, obs))
