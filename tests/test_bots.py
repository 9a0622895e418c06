"""Computer players: legal on every preset and table size, reproducible, blind to hidden cards (issue 5)."""

import json
import random
from collections import Counter
from typing import ClassVar

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bigtwo import CardSet, Game, list_presets, load_rules, parse_cards
from bigtwo.actions import Answer
from bigtwo.bots import BOTS, BaseBot, bot_names, make, register
from bigtwo.bots.heuristic import policy_for
from bigtwo.bots.plan import planner_for
from bigtwo.bots.sampling import DealSampler, known_cards
from bigtwo.bots.view import HistoryCache, view_from_observation
from bigtwo.cards import CARDS, DECK_SIZE, bits, to_mask
from bigtwo.errors import BigTwoError
from bigtwo.match import Match
from bigtwo.observation import Observation
from bigtwo.positions import position_from_observation
from tests.env_house_rules import HOUSE_RULES as ENV_HOUSE_RULES
from tests.rulesets import HOUSE_RULES as VARIANTS
from tests.rulesets import rules_named

TINY_SEARCH = {"iterations": 1, "candidates": 2}

# every preset, and every engine feature no preset switches on: two decks, wild jokers, bombs, the two-player
# stock, the ghost hand, the automatic skip, and a leftover shown to everyone (a card known to be in a hand);
# zheng-shangyou brings high jokers and face-up out cards
RULESETS = [*list_presets(), *VARIANTS, "known-leftover"]
# two players share a 54- or 108-card pack here: 27 or 54 cards a hand, where the engine itself takes seconds
# to list a move's legal plays; these play from three players up
FEWEST_PLAYERS = {"wild-jokers": 3, "two-decks": 3}


def ruleset(name):
    return ENV_HOUSE_RULES[name][0] if name == "known-leftover" else rules_named(name)


def table_sizes(name):
    rules = ruleset(name)
    return range(max(rules.min_players, FEWEST_PLAYERS.get(name, 2)), rules.max_players + 1)


def faces(mask):
    """Cards as notation names them: with two decks, which copy of a card is not said."""
    return tuple(sorted(c % DECK_SIZE for c in bits(mask)))


def play_out(rules, players, bots, seed=0, max_actions=3000):
    """Play a round with one bot per seat; every action must be one of the engine's legal actions."""
    g = Game(rules, players=players, seed=seed)
    n = 0
    while not g.is_over:
        s = g.to_move
        action = bots[s].choose(rules, g.observe(s))
        legal = {faces(p.mask) for p in g.legal_plays()}
        assert faces(action.mask) in legal, f"{bots[s].name} chose {action} at seat {s}; legal: {g.legal_plays()}"
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


@pytest.mark.parametrize("name", RULESETS)
def test_every_bot_plays_only_legal_actions_on_every_preset_and_table_size(name):
    rules = ruleset(name)
    for players in table_sizes(name):
        g = play_out(rules, players, lineups(players, players), seed=players)
        assert g.result is not None


EXCHANGES = {
    "president": 4,  # the house code's mandatory trading: steals, questions, demands, gifts back
    "president-6": 6,
    "winner": 4,  # the loser's highest card for one of the winner's choosing, shown to all
    "zheng-shangyou": 5,  # pass-around
    "big-two-president": 4,
}


@pytest.mark.parametrize("name", EXCHANGES)
def test_every_bot_answers_exchanges_and_plays_on_with_what_they_showed(name):
    """Matches: every exchange decision answered legally, then rounds played knowing the cards exchanged."""
    rules = load_rules("classic").replace(exchange="big-two-president") if name == "big-two-president" else None
    rules = rules or load_rules(name.removesuffix("-6"))
    n = EXCHANGES[name]
    m = Match(rules, players=n, seed=5, rounds=2)
    bots = lineups(n, 1)
    decisions = known = 0
    while not m.is_over:
        s = m.to_move
        obs = m.observe(s).to_json()
        choice = bots[s].choose(rules, Observation.from_json(obs, rules))
        if obs["phase"] == "exchange":
            decisions += 1
            assert m.exchange.why_not(choice) is None, f"{bots[s].name}: {choice!r} for {obs['decision']}"
        else:
            assert faces(choice.mask) in {faces(p.mask) for p in m.game.legal_plays()}
            known += any("cards" in e and e["to"] != s for e in obs["exchanges"])
        m.apply(choice)
    assert decisions and known


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
    with pytest.raises(TypeError, match="budget"):
        make("search", budget=3)
    # the options it does take are named, not Python's words for the call
    with pytest.raises(TypeError) as e:
        make("heuristic", contst=False)
    assert str(e.value) == "heuristic has no option 'contst' (did you mean 'contest'?); its options: contest, weights"
    with pytest.raises(TypeError, match=r"^greedy has no option 'foo'; it takes none$"):
        make("greedy", foo=1)
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


def midgame(rules, seed, actions, players=None):
    g = Game(rules, players=players, seed=seed)
    bot = make("greedy")
    for _ in range(actions):
        if g.is_over:
            break
        g.play(bot.choose(rules, g.observe(g.to_move)))
    return g


def known_in_hands(g, obs):
    """The cards ``obs`` says other seats hold (``known_cards``), as masks of the copies those hands hold."""
    keep = [0] * g.n
    for s, tokens in obs["known_cards"].items():
        s = int(s)
        for t in tokens:
            keep[s] |= 1 << next(c for c in bits(g.hand(s).mask & ~keep[s]) if str(CARDS[c]) == t)
    return keep


def scrambled(g, seat, rng):
    """The same public position with every card ``seat`` cannot see (other hands, a stock, cards set aside)
    dealt afresh to the other seats, sizes and cards known to be in a hand kept."""
    obs = g.observe(seat).to_json()
    keep = known_in_hands(g, obs)
    pool = [c for s in range(g.n) if s != seat for c in bits(g.hand(s).mask & ~keep[s])]
    seen = g.face_up
    for s in range(g.n):
        seen |= g.hand(s).mask
    for _s, p in g.history:
        seen |= p.mask
    pool += bits(g.ev.pack & ~seen)  # nobody holds these: a stock, or cards set aside unseen
    rng.shuffle(pool)
    hands, i = [], 0
    for s in range(g.n):
        if s == seat:
            hands.append(g.hand(s).mask)
        else:
            k = g.hand(s).mask.bit_count() - keep[s].bit_count()
            hands.append(keep[s] | sum(1 << c for c in pool[i : i + k]))
            i += k
    other = position_from_observation(g.rules, Observation.from_json(obs, g.rules), hands)
    assert [faces(other.hand(s).mask) for s in range(g.n)] != [faces(g.hand(s).mask) for s in range(g.n)]
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


HIDDEN_CASES = [
    ("classic", 4, 1, 9),
    ("classic", 4, 2, 17),
    ("classic", 4, 3, 26),
    ("classic", 4, 4, 5),
    ("classic", 3, 10, 14),  # three players: the learned bot has weights of its own there
    ("two-decks", 5, 5, 30),  # copies of every card
    ("wild-jokers", 4, 6, 12),
    ("zheng-shangyou", 5, 7, 20),  # face-up out cards, high jokers, bombs
    ("two-player-draw", 2, 8, 14),  # a stock drawn from on passes
    ("known-leftover", 3, 9, 8),  # the dealer's extra card was shown to everyone
]


@pytest.mark.parametrize("name,players,seed,actions", HIDDEN_CASES)
def test_choices_do_not_depend_on_other_seats_hidden_cards(name, players, seed, actions):
    rules = ruleset(name)
    g = midgame(rules, seed, actions, players)
    seat = g.to_move
    rng = random.Random(seed)
    twin = scrambled(g, seat, rng)
    obs = g.observe(seat).to_json()
    # a position rebuilt from an observation does not carry the deal's shown cards along; they are the same
    # cards in the same hands in both positions
    obs2 = dict(twin.observe(seat).to_json(), known_cards=obs["known_cards"])
    assert obs == obs2  # the observation itself carries nothing of the hidden hands
    seen = {str(CARDS[c]) for c in bits(g.hand(seat).mask | g.observe(seat).played | g.face_up)}
    keep = known_in_hands(g, obs)
    hidden = {str(c) for s in range(g.n) if s != seat for c in CardSet.from_mask(g.hand(s).mask & ~keep[s])}
    assert not (hidden - seen) & string_tokens(obs)  # (with two decks a hidden card may share a visible name)
    for name, options in [("random", {}), ("greedy", {}), ("heuristic", {}), ("search", {"iterations": 3})]:
        a = make(name, seed=7, **options).choose(rules, Observation.from_json(obs, rules))
        b = make(name, seed=7, **options).choose(rules, Observation.from_json(obs2, rules))
        assert a == b, name


class Spy(BaseBot):
    """Records every observation it is given and plays greedily."""

    name = "spy"
    seen: ClassVar[list] = []

    def choose_play(self, rules, observation):
        Spy.seen.append(json.loads(json.dumps(observation.to_json())))
        return self.legal(rules, observation)[0]


def test_the_arena_hands_a_bot_only_its_own_seat_s_observation():
    from bigtwo.arena import play_game
    from bigtwo.bots.spec import BotSpec

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
            played = CardSet.from_mask(Observation.from_json(obs, rules).played)
            for s in range(4):
                if s != spy_seat:
                    unplayed = CardSet.from_mask(dealt[s]) - played
                    assert not {str(c) for c in unplayed} & tokens
    finally:
        BOTS.pop("spy", None)


# --- exchanges -------------------------------------------------------------------------------------------


def exchange_obs(hand, count, must="any", rules="classic"):
    """An exchange decision's observation, read from its JSON form."""
    return Observation.from_json(exchange_json(parse_cards(hand), count, must, rules), load_rules(rules))


def exchange_json(h, count, must, rules):
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
    assert low.cardset == parse_cards("3C 3D") and high.cardset == parse_cards("2C 2S")
    anyk = bot.choose(rules, exchange_obs(hand, 3, "any", "taiwan"))
    assert isinstance(anyk, Answer) and len(anyk.cardset) == 3 and anyk.cardset.issubset(parse_cards(hand))


def test_the_heuristic_gives_away_what_its_plan_needs_least():
    rules = load_rules("classic")
    # a straight 3-7, a pair of 2s, and two loose cards: the loose low card goes first, never a 2 or the straight
    hand = "3D 4C 5H 6S 7D 9C KD 2S 2H"
    one = make("heuristic").choose(rules, exchange_obs(hand, 1))
    assert one.cardset == parse_cards("9C")
    two = make("heuristic").choose(rules, exchange_obs(hand, 2))
    assert two.cardset == parse_cards("9C KD")


def test_exchange_requests_that_cannot_be_met_are_refused_clearly():
    rules = load_rules("classic")
    bot = make("heuristic")
    with pytest.raises(ValueError, match="cannot give 5 cards from a hand of 3"):
        bot.choose(rules, exchange_obs("3D 4D 5D", 5))
    with pytest.raises(ValueError, match="'must' 'middle'"):
        bot.choose(rules, exchange_obs("3D 4D 5D", 1, "middle"))
    obs = exchange_json(parse_cards("3D 4D 5D"), 1, "any", "classic")
    obs["decision"]["kind"] = "take"
    with pytest.raises(ValueError, match="kind 'take'"):
        bot.choose(rules, Observation.from_json(obs, rules))
    assert bot.choose(rules, exchange_obs("3D 4D 5D", 0)).cardset == CardSet()


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
    return make("heuristic").choose(rules, g.observe(seat))


def test_the_heuristic_goes_out_when_it_can():
    rules = load_rules("classic")
    p = decide(rules, ["3D 4D 5D 6D 7D", "8C 9C", "TH JH", "QS KS"], [], 0)
    assert p.cardset == parse_cards("3D 4D 5D 6D 7D")


def test_the_heuristic_answers_with_a_loose_card_rather_than_split_a_pair():
    rules = load_rules("classic")
    hands = ["3D 5D 6D 7C 8C KD JS", "4C 4H 9C 9S QH", "5C 6C 7D 8D QC KC 3S", "5H 6H 7H 8S QD KH 4S"]
    g = Game(rules, hands=hands)
    g.play("3D")
    p = make("heuristic").choose(rules, g.observe(1))
    assert p.cardset == parse_cards("QH")  # not a card out of either pair


def test_the_heuristic_keeps_its_top_card_early_rather_than_spend_it_on_a_low_single():
    rules = load_rules("classic")
    hands = ["4D 6C 7C 8C KD JS 3C TH", "2S 9C 9S 5H 5D 7D 7S 3H", "5C 6D 8D QH KC 3S TC", "6H 7H 8H 8S QD KH 4S TS"]
    g = Game(rules, hands=hands, first=0)
    g.play("4D")
    p = make("heuristic").choose(rules, g.observe(1))
    assert p.cardset != parse_cards("2S")  # the top single stays for winning a lead later


def test_the_heuristic_does_not_lead_a_beatable_single_into_a_one_card_hand():
    rules = load_rules("classic")
    g = Game(rules, hands=["3D 4C 4S 6D", "2S", "5C 9H", "8H JS"], first=0)
    p = make("heuristic").choose(rules, g.observe(0))
    assert p.cardset == parse_cards("4C 4S")


def test_the_heuristic_answers_high_when_an_opponent_is_about_to_go_out():
    rules = load_rules("classic")
    # seat 2 has one card left: seat 1 must not let the trick stand at a 6; it plays its ace
    g = Game(rules, hands=["5C 9D 9S", "6H AD 3S 4S", "JH", "7C 8C 8D"], first=0)
    g.play("5C")
    p = make("heuristic").choose(rules, g.observe(1))
    assert p.cardset == parse_cards("AD")


def test_the_heuristic_explains_its_choice_in_words():
    rules = load_rules("classic")
    g = Game(rules, hands=["3D 4D 5D 6D 7D", "8C 9C", "TH JH", "QS KS"])
    play, why = make("heuristic").explain(rules, g.observe(0))
    assert play.cardset == parse_cards("3D 4D 5D 6D 7D") and why == "it goes out"
    g = Game(rules, hands=["5C 9D 9S", "6H AD 3S 4S", "JH", "7C 8C 8D"], first=0)
    g.play("5C")
    obs = g.observe(1).to_json()
    play, why = make("heuristic").explain(rules, Observation.from_json(obs, rules))
    assert play == make("heuristic").choose(rules, Observation.from_json(obs, rules)) and play.cardset == parse_cards(
        "AD"
    )
    assert why.startswith("an answer") and why.endswith("seat 2 has only 1 card left")
    play, why = make("heuristic").explain(rules, exchange_obs("3D 4C 5H 6S 7D 9C KD 2S 2H", 1))
    assert play.cardset == parse_cards("9C") and why == "the cards your hand's plan needs least"


def test_the_table_s_hint_is_the_heuristic_s_choice_and_reason():
    from bigtwo.cli.session import TableSession

    session = TableSession(load_rules("classic"), seed=4)
    while not session.human_to_move:
        session.bot_step()
    hint = session.hint()
    play, why = make("heuristic").explain(session.rules, session.observe())
    assert hint.source == "heuristic" and hint.cards == play.mask and hint.text.endswith(": " + why)


def test_following_the_table_s_hints_plays_a_whole_match_with_exchanges():
    """Hints answer every decision, a question or demand (a word) as well as cards and plays."""
    from bigtwo.cli.session import TableSession

    session = TableSession(load_rules("president"), seed=3, rounds=2)
    kinds = set()
    while not session.is_over:
        if session.human_to_move:
            if session.decision:
                kinds.add(session.decision["kind"])
            session.act(session.hint().answer)
        else:
            session.bot_step()
    assert "demand" in kinds  # answered with a word


def test_views_from_observations_reuse_the_history_only_when_it_extends():
    rules = load_rules("classic")
    g = midgame(rules, 5, 12)
    cache = HistoryCache()
    obs = g.observe(g.to_move)
    assert cache.played(obs.history) == obs.played
    g.play(g.legal_plays()[0])
    obs = g.observe(g.to_move)
    assert cache.played(obs.history) == obs.played
    other = midgame(rules, 6, 4).observe(0)  # a different round: read from the start
    assert cache.played(other.history) == other.played
    view = view_from_observation(rules, obs)
    assert view.unseen & view.hand == 0 and view.unseen & view.played == 0


# --- determinisation -------------------------------------------------------------------------------------


@given(st.integers(0, 10_000), st.integers(0, 40), st.sampled_from(RULESETS), st.data())
def test_sampled_deals_match_everything_public(seed, actions, name, data):
    rules = ruleset(name)
    g = midgame(rules, seed, actions, data.draw(st.sampled_from(table_sizes(name)), label="players"))
    if g.is_over:
        return
    seat = g.to_move
    obs = g.observe(seat).to_json()
    hands = DealSampler(rules, Observation.from_json(obs, rules)).sample(random.Random(seed))
    assert faces(hands[seat]) == faces(g.hand(seat).mask)
    assert [h.bit_count() for h in hands] == g.hand_sizes()
    union = 0
    for h in hands:
        assert not union & h
        union |= h
    # no card more often than the pack holds it (two decks: twice), counting played and face-up cards too
    played = 0
    for _s, p in g.history:
        played |= p.mask
    placed = Counter(faces(union) + faces(played) + faces(g.face_up))
    assert not placed - Counter(faces(g.ev.pack))
    for s, tokens in obs["known_cards"].items():  # cards the seat knows to be in a hand are there
        assert not Counter(faces(to_mask(tokens))) - Counter(faces(hands[int(s)]))
    rebuilt = position_from_observation(rules, Observation.from_json(obs, rules), hands)
    assert dict(rebuilt.observe(seat).to_json(), known_cards=obs["known_cards"]) == obs


def test_sampled_deals_keep_the_cards_an_exchange_showed():
    """Trading (president) and Winner's shown exchange: the cards a seat gave, and cards shown to all, are in
    the hand they went to in every sample."""
    for name in ("president", "winner"):
        m = Match(name, players=4, seed=3, rounds=2)
        bots = [make("greedy") for _ in range(4)]
        while m.round_index < 1 or m.phase != "play":
            m.apply(bots[m.to_move].choose(m.rules, m.observe(m.to_move)))
        for seat in range(4):
            obs = m.observe(seat).to_json()
            known = known_cards(m.observe(seat))
            truth = [Counter(faces(m.game.hand(s).mask)) for s in range(4)]
            for s, mask in known.items():
                assert s != seat and not Counter(faces(mask)) - truth[s]
            gave = [e for e in obs["exchanges"] if e["type"] == "give" and e["from"] == seat and e["to"] != seat]
            if gave:
                assert known, (name, seat)
            for i in range(5):
                hands = DealSampler(m.rules, Observation.from_json(obs, m.rules)).sample(random.Random(i))
                for s, tokens in known.items():
                    assert not Counter(faces(to_mask(tokens))) - Counter(faces(hands[s]))


def test_a_partial_deal_s_first_play_shows_which_low_cards_were_never_dealt():
    rules = load_rules("bga")  # 13 each: with 3 players, 13 cards are never dealt; the lowest dealt card leads
    hands = ["4H 6D 7D 8D 9D TD JD QD KD AD 2D 6S 5S", "4S 6C 7C 8C 9C TC JC QC KC AC 2C 5C 5D", "6H 7H 8H"]
    g = Game(rules, hands=hands)
    g.play("4H")  # the lowest card dealt: no 3 was dealt, and no 4 below the heart
    obs = g.observe(1).to_json()
    sampler = DealSampler(rules, Observation.from_json(obs, rules))
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
    obs = g.observe(g.to_move).to_json()
    sampler = DealSampler(rules, Observation.from_json(obs, rules))
    assert sampler.lead_passes == [(1, 0)]
    for i in range(20):
        card = sampler.sample(random.Random(i))[1]
        assert rules.engine.rank_of[card.bit_length() - 1] == 12  # whichever card it is, it is a 2


def test_an_impossible_observation_is_refused():
    rules = load_rules("classic")
    g = Game(rules, seed=1)
    obs = g.observe(0).to_json()
    obs["hand_sizes"] = [13, 13, 13, 30]
    with pytest.raises(BigTwoError, match="only 39 are unaccounted for"):
        DealSampler(rules, Observation.from_json(obs, rules))


def test_the_search_keeps_the_heuristic_s_choice_when_it_is_the_only_candidate():
    rules = load_rules("classic")
    g = midgame(rules, 8, 10)
    obs = g.observe(g.to_move).to_json()
    ranked = policy_for(rules.engine).scores(view_from_observation(rules, Observation.from_json(obs, rules)))
    assert make("search", candidates=1, iterations=5).choose(rules, Observation.from_json(obs, rules)) == ranked[0][1]


@pytest.mark.parametrize("preset", ["classic", "house-code", "chor-dai-di"])
def test_rollouts_play_exactly_like_the_heuristic_bot(preset):
    """Search rollouts read views built from the Game; the bot reads observations: the same round results."""
    from bigtwo.bots.playouts import rollout
    from bigtwo.bots.view import view_from_game

    rules = load_rules(preset)
    for seed in range(3):
        g = Game(rules, seed=seed)
        bots = [make("heuristic") for _ in range(g.n)]
        twin = g.clone()
        while not g.is_over:
            s = g.to_move
            obs = g.observe(s).to_json()
            if not g.history or seed == 0:
                a = view_from_observation(rules, Observation.from_json(obs, rules))
                b = view_from_game(g, g.observe(s).played)
                assert a == b
            g.play(bots[s].choose(rules, Observation.from_json(obs, rules)))
        rollout(twin, policy_for(twin.ev))
        assert history(twin) == history(g)


LEGAL_CASES = {
    "classic": [2, 3, 4],
    "house-code": [3, 5, 7],
    "chor-dai-di": [3, 4],
    "two-decks": [6],
    "two-player-draw": [2],  # hands grow as they draw
    "bga-skip": [4],
    "zheng-shangyou": [4, 6],
}


@settings(max_examples=30)
@given(st.integers(0, 5000), st.sampled_from(sorted(LEGAL_CASES)), st.data())
def test_a_bot_s_legal_actions_are_the_engine_s(seed, name, data):
    """Bots keep a hand index between decisions; it must give exactly the legal actions the engine lists from
    the observation, and the round's own (with two decks, as notation names them: which copy of a card is
    not in the observation)."""
    from bigtwo.legal import legal_plays_from_observation

    rules = ruleset(name)
    g = Game(rules, players=data.draw(st.sampled_from(LEGAL_CASES[name]), label="players"), seed=seed)
    bots = [make("random", seed=seed + s) for s in range(g.n)]
    while not g.is_over:
        obs = g.observe(g.to_move).to_json()
        mine = bots[g.to_move].legal(rules, Observation.from_json(obs, rules))
        assert [p.mask for p in mine] == [
            p.mask for p in legal_plays_from_observation(rules, Observation.from_json(obs, rules))
        ]
        assert Counter(faces(p.mask) for p in mine) == Counter(faces(p.mask) for p in g.legal_plays())
        g.play(bots[g.to_move].choose(rules, Observation.from_json(obs, rules)))


def test_with_two_decks_the_card_on_the_table_is_the_copy_the_hand_does_not_hold():
    """Two decks where equal plays beat each other: a 2S answers the other 2S, from the observation too."""
    from bigtwo.cards import card
    from bigtwo.legal import legal_plays_from_observation

    rules = rules_named("two-decks")
    second_2s = 1 << card("2S", copy=1)
    g = Game(rules, hands=[to_mask("2S 3D 4D"), second_2s | to_mask("5D 6D"), to_mask("7D 8D")], first=0)
    g.play("2S")
    obs = g.observe(1).to_json()
    # the hand holds the second deck's 2S, the table the first: the observation says which is which
    assert obs["hand"][-1] == "2S'" and obs["trick"]["cards"][0] == "2S"
    for legal in (
        g.legal_plays(),
        legal_plays_from_observation(rules, Observation.from_json(obs, rules)),
        make("greedy").legal(rules, Observation.from_json(obs, rules)),
    ):
        assert [str(p) for p in legal if p.mask & (second_2s | 1 << card("2S"))] == ["2S"]


def test_a_time_limit_stops_the_search_and_leaves_the_heuristic_s_choice():
    """``budget_ms`` bounds the whole decision, whatever ``iterations`` asks: out of time before one deal
    is searched, the search plays the heuristic's choice (no clock reading is asserted: the limit is tiny)."""
    rules = load_rules("classic")
    g = midgame(rules, 8, 6)
    assert len(g.legal_plays()) > 2
    obs = g.observe(g.to_move).to_json()
    ranked = policy_for(rules.engine).scores(view_from_observation(rules, Observation.from_json(obs, rules)))
    bot = make("search", iterations=1000, budget_ms=1e-6)
    assert bot.choose(rules, Observation.from_json(obs, rules)) == ranked[0][1]
    assert bot.last_cut and bot.last_iterations == 0
    free = make("search", iterations=2)
    free.choose(rules, Observation.from_json(obs, rules))
    assert not free.last_cut and free.last_iterations == 2


def test_the_hint_contests_the_lead_when_an_opponent_is_about_to_go_out():
    """Issue 14: following the hint at every turn of `bigtwo play --rules winner --seed 11 --bots heuristic`,
    the hint kept saying "pass: keeps your plan whole" (a 12-card straight, never led) while all three opponents
    went out. Now it contests the lead and goes out before the last opponent; the old policy (contest=False,
    the benchmark's baseline) still loses that way."""
    from bigtwo.cli.session import TableSession

    def follow_hints(contest):
        session = TableSession(load_rules("winner"), seed=11, bots="heuristic")
        adviser = make("heuristic", contest=contest)
        kept_whole = 0
        while not session.is_over:
            if not session.human_to_move:
                session.bot_step()
                continue
            if contest:  # the table's own hint
                hint = session.hint()
                choice, why = hint.answer, hint.text
            else:
                choice, why = adviser.explain(session.rules, session.observe())
            kept_whole += "keeps your plan whole" in why
            session.act(choice)
        return session.single.result, kept_whole

    old, old_passes = follow_hints(contest=False)
    assert old.finishing_order[-1] == 0 and old_passes >= 7  # the reported behaviour
    new, new_passes = follow_hints(contest=True)
    assert new.finishing_order[-1] != 0 and new.scores[0] > old.scores[0] and new_passes < old_passes
    assert TableSession(load_rules("winner"), seed=11).bots[1].contest  # the table's default opponent contests too
