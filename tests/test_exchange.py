"""Roles and exchanges between rounds, as decisions (issue: matches, item 2)."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bigtwo import CardSet, Game, load_rules, parse_cards
from bigtwo.arena.play import needs_match
from bigtwo.cards import bits, to_mask
from bigtwo.exchange import (
    Exchange,
    IllegalExchange,
    default_exchange_choice,
    exchange_answers,
    exchanges_before_first_round,
    legal_exchange_choices,
    roles_for,
)
from bigtwo.match import Match
from bigtwo.observation import Observation
from bigtwo.rules.ruleset import list_presets

HOUSE = load_rules("president")  # the house code with its mandatory trading (003 3.2)
CLASSIC = load_rules("classic")


def masks(*hands):
    return [to_mask(h) for h in hands]


def cs(text):
    return parse_cards(text)


def obs_for(ex, seat, rules):
    """A minimal exchange observation, as the match builds it (read from its JSON form)."""
    data = {
        "phase": "exchange",
        "seat": seat,
        "hand": [str(c) for c in CardSet(ex.hand(seat))],
        "decision": ex.decision_for(seat),
    }
    return Observation.from_json(data, rules)


def refused(ex, answer, match):
    """The answer is refused with a message matching ``match``, and nothing changes."""
    before = (list(ex.hands), ex.pending, len(ex.events), len(ex.answers))
    with pytest.raises(IllegalExchange, match=match):
        ex.decide(answer)
    assert (list(ex.hands), ex.pending, len(ex.events), len(ex.answers)) == before


@pytest.mark.parametrize(
    "order, expected",
    [
        # 003 1.2.1 "the winner ... is denoted the president ..., whereas the loser is denoted the bum"
        ([1, 0], {1: "president", 0: "bum"}),
        # 003 1.2.2 "Three-player games of President follow the model of two-player games. The second-place
        # finisher is denoted neutral."
        ([2, 0, 1], {2: "president", 0: "neutral", 1: "bum"}),
        # 003 1.2.3 president, vice president, vice bum, bum
        ([3, 1, 0, 2], {3: "president", 1: "vice-president", 0: "vice-bum", 2: "bum"}),
        # 003 1.2.4 "the bum is the last-place finisher ...; the vice bum is the second-to-last-place finisher ...,
        # and all other players are neutral."
        (
            [5, 4, 3, 2, 1, 0],
            {5: "president", 4: "vice-president", 3: "neutral", 2: "neutral", 1: "vice-bum", 0: "bum"},
        ),
    ],
)
def test_roles_from_the_finishing_order(order, expected):
    roles = roles_for(HOUSE, order, len(order))
    assert {s: roles[s] for s in expected} == expected
    # 003 1.2: "all players are equivalent in the first round"
    assert roles_for(HOUSE, None, len(order)) is None
    assert roles_for(CLASSIC.replace(exchange="big-two-president"), order, len(order))[order[-1]] == "scum"


def test_mandatory_trading_surrender_and_equalisation():
    rules = HOUSE
    hands = masks(
        "3D 4D 5D 6D 7D 8D 9D",  # 0 president
        "3C 4C 5C 6C 7C 8C 9C",  # 1 vice-president
        "3H 4H 5H 6H 7H 8H 9H",  # 2 vice-bum
        "3S 4S 5S 6S 7S 2S AS",  # 3 bum
    )
    ex = Exchange(rules, hands, previous_order=[0, 1, 2, 3])
    d = ex.pending
    # 003 3.2.1.2 "the president is entitled to steal two cards from the bum"; 3.2.2.1 "The bum may elect to
    # surrender their two highest cards to the president."
    assert (d.seat, d.kind, d.count, d.to) == (3, "surrender", 2, 0)
    refused(ex, "3S 4S", "not seat 3's 2 highest cards")
    refused(ex, "2S", "exactly 2 cards")
    refused(ex, "2D AS", "does not hold 2D")
    ex.decide(cs("AS 2S"))
    # 3.2.3.1 "The bum may demand the president's two lowest cards."
    assert (ex.pending.seat, ex.pending.kind) == (3, "demand")
    refused(ex, "highest", "one of lowest, any")
    ex.decide("lowest")
    assert (ex.pending.seat, ex.pending.kind, ex.pending.must) == (0, "give", "lowest")
    refused(ex, "9D 2S", "not seat 0's 2 lowest cards")
    ex.decide("3D 4D")
    # 3.2.1.2 "the vice president is entitled to steal one card from the vice bum"
    assert (ex.pending.seat, ex.pending.kind, ex.pending.count, ex.pending.to) == (2, "surrender", 1, 1)
    ex.decide(CardSet())  # decline: the vice-president asks
    assert (ex.pending.seat, ex.pending.kind) == (1, "ask")
    ex.decide("highest")
    ex.decide("any")  # the vice-bum lets the vice-president choose
    assert (ex.pending.seat, ex.pending.must) == (1, "any")
    ex.decide("9H")  # any card, even the one just stolen
    assert ex.is_done
    assert CardSet(ex.hands[0]) == cs("5D 6D 7D 8D 9D AS 2S")
    assert CardSet(ex.hands[3]) == cs("3S 4S 5S 6S 7S 3D 4D")
    assert CardSet(ex.hands[1]) == cs("3C 4C 5C 6C 7C 8C 9C")
    assert CardSet(ex.hands[2]) == cs("3H 4H 5H 6H 7H 8H 9H")
    # neutral seats see that cards moved, not which
    for e in ex.events_for(1):
        if e["type"] == "give" and 1 not in (e["from"], e["to"]):
            assert "cards" not in e
    assert not [e for e in ex.events_for(1) if e["type"] == "question" and 1 not in (e["from"], e["to"])]


def test_questions_commit_the_president():
    # 003 3.2.2.2-3.2.2.2.4: questions the bum must answer truthfully, and what the president must then accept
    rules = HOUSE
    ex = Exchange(rules, masks("3D 3C 4D 4C 5D", "9S 9H 2C AH KS 6H"), previous_order=[0, 1])
    ex.decide("")  # the bum declines to surrender
    d = ex.pending
    assert (d.seat, d.kind, d.count, d.source) == (0, "ask", 2, 1)
    ex.decide("have 2S")  # "Do you have the nine of spades?" -- no: nothing taken, negative information
    assert ex.pending.answers[-1]["answer"] == "no" and ex.pending.count == 2
    refused(ex, "have 2S", "may not be asked now")
    refused(ex, "what are your three highest cards", "not a question the bum must answer")
    ex.decide("any S")  # "Do you have any clubs?" ... "the president is required to accept some club"
    assert (ex.pending.suit, ex.pending.committed) == ("S", 1)
    refused(ex, "lowest", "may not be asked now")
    refused(ex, "have 2C", "may not be asked now")
    legal = legal_exchange_choices(rules, obs_for(ex, 0, rules))
    assert set(legal) >= {"highest S", "lowest S", "give S", "have 9S", "have KS"}
    assert not [q for q in legal if q.startswith("have") and not q.endswith("S")]
    ex.decide("give S")  # "asking the bum to surrender any club": the bum picks
    d = ex.pending
    assert (d.seat, d.kind, d.count, d.suit) == (1, "give", 1, "S")
    refused(ex, "9H", "spades only")
    ex.decide("9S")
    assert ex.pending.count == 1 and ex.pending.suit is None
    refused(ex, "highest pair", "may not be asked now")  # one card left to take
    ex.decide("highest")  # "What is your highest card?" by analogy with "What is your highest spade?"
    assert ex.pending.kind == "demand"
    ex.decide("lowest")
    ex.decide("3D 3C")
    assert CardSet(ex.hands[0]) == cs("4D 4C 5D 9S 2C")
    assert CardSet(ex.hands[1]) == cs("9H AH KS 6H 3D 3C")


def test_pair_and_suit_questions():
    ex = Exchange(HOUSE, masks("3D 3C 4D 4C 5D", "9S 9H 2C AH KS 6H"), previous_order=[0, 1])
    ex.decide("decline")
    ex.decide("highest D")  # "What is your highest spade?" -- the bum has no diamonds: nothing taken
    assert ex.pending.answers[-1]["answer"] == "none"
    assert not [q for q in legal_exchange_choices(HOUSE, obs_for(ex, 0, HOUSE)) if q.endswith("D")]
    ex.decide("highest pair")  # "What is your highest pair?"
    assert ex.pending.kind == "demand"
    assert CardSet(ex.hands[0]) == cs("3D 3C 4D 4C 5D 9S 9H")


def test_two_or_three_players_steal_one_or_two_as_agreed():
    # 003 3.2.1.1 "the president is entitled to steal either one or two cards from the bum, as agreed"
    hands = Game(HOUSE, players=3, seed=5).dealt
    for k in (1, 2):
        ex = Exchange(HOUSE.replace(steal_small_table=k), hands, previous_order=[2, 0, 1])
        assert (ex.pending.seat, ex.pending.count, ex.pending.to) == (1, k, 2)


def test_big_two_president_variation():
    # 002 Big two president variation: "President passes their lowest 2 cards to the Scum. The scum passes their
    # highest 2 cards to president. Vice-president passes their lowest 1 card to vice-scum. Vice-scum passes their
    # highest 1 card to vice-president."
    rules = CLASSIC.replace(exchange="big-two-president")
    hands = masks("3D 8D 9D", "3C 8C 9C", "4H 8H 9H", "4S 8S 9S")
    ex = Exchange(rules, hands, previous_order=[0, 1, 2, 3])
    expect = [(3, "highest", 2, 0), (0, "lowest", 2, 3), (2, "highest", 1, 1), (1, "lowest", 1, 2)]
    for seat, must, count, to in expect:
        d = ex.pending
        assert (d.seat, d.must, d.count, d.to) == (seat, must, count, to)
        ex.decide(default_exchange_choice(rules, obs_for(ex, seat, rules)))
    assert ex.is_done
    assert CardSet(ex.hands[0]) == cs("9D 8S 9S")
    assert CardSet(ex.hands[3]) == cs("4S 3D 8D")
    assert CardSet(ex.hands[1]) == cs("8C 9C 9H")
    assert CardSet(ex.hands[2]) == cs("4H 8H 3C")


def test_big_two_president_any_two_after_receiving():
    # 002: "A variant to the rule is where president passes any 2 cards to scum, after receiving cards."
    rules = CLASSIC.replace(exchange="big-two-president", president_gives="any-after-receiving")
    ex = Exchange(rules, masks("3D 8D 9D", "3C 8C 9C", "4H 8H 9H", "4S 8S 9S"), previous_order=[0, 1, 2, 3])
    ex.decide("8S 9S")
    ex.decide("9H")
    d = ex.pending
    assert (d.seat, d.must, d.count) == (0, "any", 2)
    assert CardSet(ex.hand(0)) == cs("3D 8D 9D 8S 9S")  # received before giving
    ex.decide("8S 9D")
    ex.decide("9H")
    assert CardSet(ex.hands[0]) == cs("3D 8D 9S")
    assert CardSet(ex.hands[3]) == cs("4S 8S 9D")


def test_winner_loser_gives_highest_and_both_cards_are_shown():
    # 000 End Game: "The Loser must then give their highest card to the Winner in exchange for any card of the
    # Winner's choosing. The cards exchanged will be shown to the other players."
    rules = CLASSIC.replace(exchange="loser-to-winner")
    ex = Exchange(rules, masks("3D 2S 5C", "4D 6D 7D", "8C 9C TC"), previous_order=[1, 2, 0])
    d = ex.pending
    assert (d.seat, d.kind, d.must, d.to) == (0, "give", "highest", 1)
    refused(ex, "5C", "not seat 0's 1 highest cards")
    ex.decide("2S")
    refused(ex, "2S", "does not hold 2S")  # not the card just received
    ex.decide("4D")
    assert CardSet(ex.hands[1]) == cs("2S 6D 7D") and CardSet(ex.hands[0]) == cs("3D 4D 5C")
    shown = [e for e in ex.events_for(2) if e["type"] == "give"]
    assert [e["cards"] for e in shown] == [["2S"], ["4D"]]  # seat 2 took no part, yet sees both


def test_pass_around_cards_are_seen_only_after_passing():
    # 004 Zheng Shangyou, Trading: "Pass-around: Each player selects three cards to pass to the player immediately
    # after them. AFTER they have passed off their cards, they can view the cards they received."
    rules = CLASSIC.replace(exchange="pass-around")
    hands = Game(rules, players=4, seed=2).dealt
    ex = Exchange(rules, hands, previous_order=None, dealer=0)
    order = []
    given = {}
    while not ex.is_done:
        d = ex.pending
        order.append(d.seat)
        assert (d.count, d.to, d.must) == (3, (d.seat + 1) % 4, "any")
        choice = default_exchange_choice(rules, obs_for(ex, d.seat, rules))
        ex.decide(choice)
        given[d.seat] = choice.mask
        receiver = (d.seat + 1) % 4
        if not ex.is_done:
            assert not ex.hand(receiver) & choice.mask
            seen = [e for e in ex.events_for(receiver) if e["from"] == d.seat]
            assert seen and "cards" not in seen[0]
    assert order == [1, 2, 3, 0]
    for s in range(4):
        assert ex.hands[s] == (hands[s] & ~given[s]) | given[(s - 1) % 4]
        assert [e["cards"] for e in ex.events_for(s) if e["to"] == s]


def test_first_round_has_no_roles_and_later_rounds_do():
    m = Match("president", players=4, seed=3, rounds=2)
    assert m.current.roles is None and m.phase == "play"  # 003 3.2: trading from the second round
    greedy = _players(4)
    while m.round_index == 0:
        s = m.to_move
        m.apply(greedy[s].choose(m.rules, m.observe(s)))
    assert m.phase == "exchange"
    order = m.records[0].result.finishing_order
    assert m.current.roles[order[0]] == "president" and m.current.roles[order[-1]] == "bum"
    obs = m.observe(order[-1]).to_json()
    assert obs["phase"] == "exchange" and obs["decision"]["kind"] == "surrender"
    assert m.observe(order[0]).to_json()["decision"] is None


def _players(n, seed=0, kind="greedy"):
    from bigtwo.bots import make

    return [make(kind, seed=seed + i) for i in range(n)]


SYSTEMS = [
    HOUSE,
    HOUSE.replace(steal_small_table=1),
    CLASSIC.replace(exchange="big-two-president"),
    CLASSIC.replace(exchange="big-two-president", president_gives="any-after-receiving"),
    CLASSIC.replace(exchange="loser-to-winner"),
    CLASSIC.replace(exchange="pass-around"),
    load_rules("chor-dai-di").replace(exchange="pass-around", pass_count=2, suit_order="none"),
]


@st.composite
def exchanges(draw):
    rules = draw(st.sampled_from(SYSTEMS))
    n = draw(st.integers(rules.min_players, rules.max_players))
    seed = draw(st.integers(0, 2**31))
    rng = random.Random(seed)
    hands = Game(rules, players=n, seed=seed).dealt
    order = list(range(n))
    rng.shuffle(order)
    return rules, hands, order, rng


@settings(max_examples=60)
@given(exchanges())
def test_exchanges_conserve_hands_and_hide_cards(case):
    """Random legal answers: every legal choice is accepted, wrong sizes are refused, hands keep their size,
    the cards are conserved, and no seat's observation shows another's cards it never held or saw shown."""
    rules, hands, order, rng = case
    n = len(hands)
    ex = Exchange(rules, hands, previous_order=order, dealer=rng.randrange(n))
    knowledge = list(hands)
    steps = 0
    while not ex.is_done:
        steps += 1
        assert steps < 500
        d = ex.pending
        obs = obs_for(ex, d.seat, rules)
        legal = legal_exchange_choices(rules, obs)
        assert legal
        for choice in rng.sample(legal, min(4, len(legal))):
            assert ex.why_not(choice) is None, (d, choice)
        if d.kind == "give":
            assert ex.why_not(CardSet(bits(ex.hand(d.seat))[: d.count + 1])) is not None
        ex.decide(rng.choice(legal))
        for s in range(n):
            knowledge[s] |= ex.hand(s)
            for e in ex.events:
                if e["type"] == "give" and (e.get("shown") or (e["to"] == s and e.get("seen"))):
                    knowledge[s] |= to_mask(e["cards"])
        for s in range(n):
            seen = _cards_in(obs_for(ex, s, rules).to_json() | {"exchanges": ex.events_for(s)})
            assert not seen & ~knowledge[s], f"seat {s} sees {CardSet(seen & ~knowledge[s])}"
    assert [ex.hands[s].bit_count() for s in range(n)] == [h.bit_count() for h in hands]
    union = 0
    for h in ex.hands:
        assert not union & h
        union |= h
    assert union == sum(hands)


def _cards_in(obj, key=None):
    """Every card named in an observation (under 'hand' or 'cards'; a president's own questions excluded)."""
    out = 0
    if isinstance(obj, dict):
        for k, v in obj.items():
            if k != "question":
                out |= _cards_in(v, k)
    elif isinstance(obj, list):
        if key in ("hand", "cards") and all(isinstance(x, str) for x in obj):
            return to_mask(obj) if obj else 0
        for v in obj:
            out |= _cards_in(v, key)
    return out


def test_simple_bots_answer_exchange_decisions():
    from bigtwo.bots import make

    rules = CLASSIC.replace(exchange="pass-around")
    ex = Exchange(rules, Game(rules, players=4, seed=9).dealt)
    obs = obs_for(ex, ex.pending.seat, rules)
    greedy = make("greedy").choose(rules, obs)
    assert greedy.cardset == CardSet(sorted(bits(ex.hand(ex.pending.seat)), key=lambda c: rules.engine.power[c])[:3])
    random_choice = make("random", seed=1).choose(rules, obs)
    assert random_choice.cardset in legal_exchange_choices(rules, obs)
    assert random_choice in exchange_answers(rules, obs)


def test_random_choices_are_uniform_over_the_legal_ones():
    """The random bot's sampler gives every legal set of cards (ties included) the same chance."""
    from collections import Counter

    from bigtwo.exchange import random_exchange_choice

    rules = CLASSIC.replace(suit_order="none")
    rng = random.Random(0)
    for must, hand in (("any", "3D 5C 7H 9S"), ("highest", "3D 9C 9H 9S")):
        decision = {"kind": "give", "count": 2, "must": must}
        obs = Observation.from_json({"phase": "exchange", "seat": 0, "hand": hand.split(), "decision": decision}, rules)
        legal = legal_exchange_choices(rules, obs)
        counts = Counter(random_exchange_choice(rules, obs, rng) for _ in range(1200))
        assert set(counts) == set(legal)
        assert max(counts.values()) < 1.5 * min(counts.values())


FIRST_ROUND_CASES = [(p, {}) for p in list_presets()] + [
    ("zheng-shangyou", {"exchange": "higher-bid-auction"}),
    ("zheng-shangyou", {"exchange": "free-bid-auction"}),
    ("classic", {"free_trade": True}),
]


@pytest.mark.parametrize(("preset", "settings"), FIRST_ROUND_CASES, ids=str)
def test_the_rules_that_exchange_before_the_first_round_are_the_ones_a_match_asks_there(preset, settings):
    """``exchanges_before_first_round`` (which sends a single round through a match at the table and in the
    arena) names exactly the rules whose first round a match opens with an exchange: a pass-around, auctions of
    the out cards and free trading need no previous round (004 Variations), every other system does."""
    rules = load_rules(preset).replace(**settings)
    for seed in range(3):
        m = Match(rules, seed=seed, rounds=1)
        while m.phase == "deal":
            m.apply("keep", seat=m.to_move)
        assert (m.phase == "exchange") == exchanges_before_first_round(rules), (preset, seed)
    assert needs_match(rules) == (exchanges_before_first_round(rules) or bool(rules.horse_game))
