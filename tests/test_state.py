"""The state protocol: legal actions from one source, deal-time decisions, undo, clone, and the observation."""

import random
from dataclasses import fields

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import bigtwo
from bigtwo import Game, Match, load_rules
from bigtwo.actions import Answer
from bigtwo.bots import make
from bigtwo.errors import IllegalPlay
from bigtwo.legal import pass_is_legal
from bigtwo.observation import Observation
from bigtwo.state import State, legal_actions
from tests.house_rules import house_rules
from tests.rulesets import PROCEDURES, every_ruleset, rules_named

STALL_RULES = dict(players=2, combinations=["triple_straight", "four_of_a_kind"], trick_end="one-pass")


def stall_rules():
    """A house rule under which the lead card's holder may have nothing to lead (2 players, only triple
    straights and fours): before the one source of legal actions, bots offered plays the engine refused."""
    return load_rules("indonesia").replace(**STALL_RULES)


def same_actions(a, b):
    key = [(type(x).__name__, getattr(x, "mask", 0), str(x)) for x in a]
    return key == [(type(x).__name__, getattr(x, "mask", 0), str(x)) for x in b]


def walk(m: Match, rng: random.Random, steps: int, check, budget: int | None = None) -> None:
    """Random legal actions, ``check(m)`` before each; with a ``budget``, the walk ends once the decisions it
    has checked offered that many actions in all (a drawn house rule can offer half a million a decision)."""
    offered = 0
    for _ in range(steps):
        if m.is_over or (budget is not None and offered >= budget):
            return
        check(m)
        actions = m.legal_actions()
        offered += len(actions)
        m.apply(rng.choice(actions))


def observed_equals_engine(m: Match) -> None:
    seat = m.to_move
    obs = m.observe(seat)
    assert same_actions(legal_actions(m.rules, obs), m.legal_actions())
    # the JSON form reads back to the same observation, and gives the same actions
    again = Observation.from_json(obs.to_json(), m.rules)
    assert again == obs
    assert same_actions(legal_actions(m.rules, again), m.legal_actions())
    # the pass a table offers, answered without listing the plays where the rules decide it alone
    assert pass_is_legal(m.rules, obs) == any(a.is_pass for a in m.legal_actions())
    g = m.game
    if g is not None and m.pending is None and obs.phase == "play":
        listed = g.legal_plays()
        assert g.pass_allowed() == any(p.is_pass for p in listed)
        plain = listed[-1] if listed[-1].is_pass else listed[0]  # the timer's move: the pass, else the lowest
        chosen = m.default_action()
        assert (chosen.is_pass, chosen.mask) == (plain.is_pass, plain.mask)
    for other in range(m.n):
        if other != seat:
            assert legal_actions(m.rules, m.observe(other)) == []
            assert not pass_is_legal(m.rules, m.observe(other))


@pytest.mark.parametrize("name", every_ruleset())
def test_legal_actions_from_an_observation_are_the_state_s_on_every_ruleset(name):
    rules = rules_named(name)
    for players in sorted({rules.min_players, rules.players, min(rules.max_players, 6)}):
        m = Match(rules, players=players, seed=players, rounds=2)
        walk(m, random.Random(players), 250, observed_equals_engine)


@pytest.mark.parametrize("name", PROCEDURES)
def test_legal_actions_from_an_observation_are_the_state_s_for_every_procedure(name):
    """Auctions, free trade, requests and the Horse Game's looks: every decision's answers, from the seat's
    observation alone, are the match's own (two rounds: roles, trading and requests come in the second)."""
    rules, players = PROCEDURES[name]()
    m = Match(rules, players=players, seed=11, rounds=2)
    kinds = set()

    def check(m):
        observed_equals_engine(m)
        if m.pending is not None:
            kinds.add(m.pending.kind)

    walk(m, random.Random(11), 400, check)
    assert kinds & {"bid", "trade", "reply", "request", "grant", "look"}, kinds


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(house_rules(), st.integers(0, 10_000))
def test_legal_actions_from_an_observation_are_the_state_s_under_random_house_rules(drawn, seed):
    """Every decision of a walk is checked, within bounds a table would meet: the walk ends once it has compared
    60,000 actions, and a draw that deals one seat more than 27 cards is set aside (two players of Tien Len with
    the 26 leftovers to the lead holder: a 39-card hand offers 562,964 opening plays, a minute a decision to check)."""
    rules, players = drawn
    m = Match(rules, players=players, seed=seed, rounds=2)

    def check(m):
        if m.game is not None:
            assume(max(m.game.hand_sizes()) <= 27)
        observed_equals_engine(m)

    walk(m, random.Random(seed), 150, check, budget=60_000)


def test_the_stall_house_rule_bots_never_offer_a_play_the_engine_refuses():
    """Regression: indonesia, 2 players, only triple straights and fours, one pass ends a trick. In 86 of 300
    deals the lead card's holder could lead nothing, passed, and the next seat's bots offered plays the
    engine refused ("the first play must contain 3D"), so a table waited for ever."""
    rules = stall_rules()
    blocked = 0
    for seed in range(300):
        m = Match(rules, seed=seed, rounds=1)
        bots = [make("heuristic"), make("random", seed=seed)]
        while not m.is_over:
            seat = m.to_move
            obs = m.observe(seat)
            blocked += obs.lead_elsewhere
            action = bots[seat].choose(rules, obs)
            assert m.why_not(action) is None, (seed, str(action))
            m.apply(action)
    assert blocked > 0  # the case the regression is about did occur


# --- deal-time decisions --------------------------------------------------------------------------------

REDEAL = load_rules("classic").replace(redeal_requests=("low-points",), redeal_points=100)
SWAP = load_rules("classic").replace(players=3, leftover="swap", leftover_shown=True)


def test_a_qualifying_hand_is_offered_a_new_deal_and_the_answer_is_an_action():
    m = Match(REDEAL, seed=4, rounds=1)
    assert m.phase == "deal"
    d = m.pending
    assert d is not None and d.kind == "redeal" and d.seat == 0  # the dealer (seat 3) deals first to seat 0
    assert m.legal_actions() == [Answer("redeal", "redeal"), Answer("redeal", "keep")]
    obs = m.observe(d.seat)
    assert obs.phase == "deal" and obs.decision == d and obs.hand == m.current.dealt[0]
    assert m.observe(1).decision is None and m.observe(None).decision is None
    before = m.current.dealt
    assert m.why_not("maybe") is not None and m.current.dealt == before  # refused in words, nothing changes
    m.apply("redeal")
    assert m.current.dealt != before and m.phase == "deal"
    while m.phase == "deal":
        m.apply("keep")
    assert m.phase == "play" and m.current.deal_answers[0]["answer"] == "redeal"


def test_the_leftover_swap_is_offered_to_the_lead_card_s_holder():
    m = Match(SWAP, seed=2, rounds=1)
    d = m.pending
    assert d is not None and d.kind == "swap"
    holder = d.seat
    offer = m._dealing.swap_offer
    assert offer is not None and m.observe((holder + 1) % 3).swap_offer == offer.mask  # shown to all
    m.apply("swap")
    assert m.phase == "play" and offer.mask & m.game.hand(holder).mask


def test_a_clone_deals_again_as_its_original_would_and_apart_from_it():
    """Clones share the shuffling generator until one deals again (copy on write): each then deals what the
    original alone would have dealt, and neither's new deal moves the other's."""
    g = Game(REDEAL, seed=4)
    seat = next(s for s in range(g.n) if g.redeal_reasons(s))
    alone = Game(REDEAL, seed=4)
    alone.request_redeal(seat)
    c = g.clone()
    c.request_redeal(seat)
    assert c.dealt == alone.dealt != g.dealt  # the clone dealt anew, the original did not move
    g.request_redeal(seat)
    assert g.dealt == alone.dealt  # and the original, asked after, deals the same: the generator was not shared
    seat2 = next((s for s in range(c.n) if c.redeal_reasons(s)), None)
    if seat2 is not None:
        c2 = c.clone()
        c.request_redeal(seat2)
        c2.request_redeal(seat2)
        assert c.dealt == c2.dealt


@pytest.mark.parametrize("bot", ["random", "greedy", "heuristic", "search"])
def test_bots_answer_deal_time_decisions(bot):
    for rules in (REDEAL, SWAP):
        m = Match(rules, seed=5, rounds=1)
        bots = [make(bot, seed=s, **({"iterations": 2} if bot == "search" else {})) for s in range(m.n)]
        answered = 0
        while not m.is_over:
            seat = m.to_move
            answered += m.phase == "deal"
            m.apply(bots[seat].choose(rules, m.observe(seat)))
        assert answered


def test_deal_time_decisions_replay_from_the_match_record():
    rng = random.Random(3)
    for rules in (REDEAL, SWAP):
        m = Match(rules, seed=9, rounds=2)
        while not m.is_over:
            m.apply(rng.choice(m.legal_actions()))
        assert any(rec.deal_answers for rec in m.records)
        again = Match.replay(m.to_json())
        assert again.totals == m.totals and [r.deal_answers for r in again.records] == [
            r.deal_answers for r in m.records
        ]


# --- undo, clone, protocol ------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["classic", "president", "winner", "zheng-shangyou"])
def test_undo_takes_back_every_action_across_exchanges_and_rounds(name):
    m = Match(name, seed=1, rounds=2)
    rng = random.Random(1)
    seen = []
    while not m.is_over and len(seen) < 120:
        seen.append((m.to_move, m.observe(m.to_move)))
        m.apply(rng.choice(m.legal_actions()))
    for seat, obs in reversed(seen):
        m.undo()
        assert m.to_move == seat and m.observe(seat) == obs
    with pytest.raises(IllegalPlay, match="nothing to undo"):
        m.undo()


def test_a_clone_is_independent_and_in_the_same_position():
    m = Match("house-code", seed=2, rounds=2)
    rng = random.Random(2)
    for _ in range(30):
        m.apply(rng.choice(m.legal_actions()))
    c = m.clone()
    assert all(c.observe(s) == m.observe(s) for s in range(m.n))
    c.apply(c.legal_actions()[0])
    assert c.observe(c.n - 1) != m.observe(c.n - 1) or c.log != m.log


def test_match_and_game_speak_the_state_protocol():
    assert isinstance(Match("classic", seed=1), State) and isinstance(Game("classic", seed=1), State)
    m = Match("classic", seed=1, rounds=1)
    while not m.is_over:
        m.apply(m.legal_actions()[-1])
    assert m.result is not None and m.result.winner == m.standings()[0]


def test_bots_are_registered_on_import():
    import importlib
    import subprocess
    import sys

    out = subprocess.run(
        [sys.executable, "-c", "import bigtwo; print(sorted(bigtwo.bots.BOTS))"], capture_output=True, text=True
    )
    assert out.returncode == 0, out.stderr
    names = eval(out.stdout)
    assert {"random", "greedy", "heuristic", "search"} <= set(names)
    assert importlib.import_module("bigtwo").bots.make("greedy").name == "greedy"


# --- the observation ------------------------------------------------------------------------------------


def test_a_spectator_sees_exactly_the_public_fields():
    m = Match("president", seed=4, rounds=2)
    rng = random.Random(4)
    for _ in range(200):
        if m.is_over:
            break
        spectator = m.observe(None)
        for seat in range(m.n):
            obs = m.observe(seat)
            for f in fields(Observation):
                if f.metadata.get("public") and f.name not in ("known", "exchanges"):
                    assert getattr(obs, f.name) == getattr(spectator, f.name), f.name
            public = obs.public()
            assert public.hand == 0 and public.decision is None and public.required == 0 and public.seat is None
            assert all("cards" not in e or e.get("shown") for e in public.exchanges)
        assert spectator.hand == 0 and spectator.decision is None
        m.apply(rng.choice(m.legal_actions()))


def test_two_decks_observations_are_lossless():
    rules = rules_named("two-decks")
    g = Game(rules, players=6, seed=3)
    for _ in range(40):
        if g.is_over:
            break
        for s in range(g.n):
            obs = g.observe(s)
            assert obs.hand == g.hand(s).mask
            back = Observation.from_json(obs.to_json(), rules)
            assert back == obs
        g.play(g.legal_plays()[0])
    assert bigtwo.CardSet("3D'").mask != bigtwo.CardSet("3D").mask


def test_the_engine_builds_observations_with_exactly_their_fields():
    """The engine's fast constructor takes names as given: each must be a field (a typo would add an attribute
    nobody reads and leave the field at its default)."""
    names = {f.name for f in fields(Observation)}
    m = Match("president", seed=6, rounds=2)
    rng = random.Random(6)
    for _ in range(120):
        if m.is_over:
            break
        for seat in (None, *range(m.n)):
            assert set(vars(m.observe(seat))) == names
        assert set(vars(m.game.observe(0) if m.game is not None else m.observe(0))) == names
        m.apply(rng.choice(m.legal_actions()))
    obs = m.observe(0)
    with pytest.raises(AttributeError):
        obs.hand = 0  # frozen
