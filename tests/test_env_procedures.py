"""Issue 16: the procedures before play as actions of the environments (sources in ../shared/seeds/).

004 = the card club's Zheng Shangyou (Higher-Bid Auction, Free-Bid Auction, Trading, "Horse Game");
003 = the written house code (3.2.3.2 requests, 3.3 free trade).
"""

import gymnasium
import numpy as np
import pytest

from bigtwo import load_rules
from bigtwo.actions import DECISION_KINDS, Answer
from bigtwo.cards import bits
from bigtwo.combos.play import PASS
from bigtwo.envs import ENV_VERSION, IllegalAction, gym_env, raw_env
from bigtwo.errors import BigTwoError
from tests.rulesets import PROCEDURES

ZSY = load_rules("zheng-shangyou")
# 004 Higher-Bid Auction: "All the "out" cards are auctioned off and may only be bought with a card higher
# than their rank"; 004 Trading: "There is free trading ... but players must retain the number of cards ...
# the person with the H3 plays it and unilaterally ends trading immediately, or a majority vote ends trading"
ZSY_AUCTION_TRADE = ZSY.replace(exchange="higher-bid-auction", free_trade=True, free_trade_end="lead-card-or-vote")

ROUNDS = {
    "zsy-auction-trade": lambda: (ZSY_AUCTION_TRADE, 4, None),
    "free-bid-auction": lambda: (*PROCEDURES["free-bid-auction"](), None),
    # 003 3.2.3.2: "The bum may ask the president for any card or any two cards, and the president may either
    # grant or refuse each request"; 3.3: "If free trade is allowed, it shall immediately follow mandatory
    # trading": the roles come from a round before, given as its finishing order
    "president-requests": lambda: (*PROCEDURES["president-requests"](), [2, 0, 3, 1]),
    # 003 3.3 without roles: free trade "shall immediately follow dealing"
    "house-free-trade": lambda: (*PROCEDURES["house-free-trade"](), None),
}


def conserved(env):
    """Every card of the round is in exactly one place: a hand (or on its way to one) or the table."""
    ex = env.exchange
    places = [*ex.hands, ex.table] if ex is not None else [env.game.hand(s).mask for s in range(env.n)]
    if ex is None:
        places += [env.game.face_up] + [p.mask for _s, p in env.game.history]
    union = 0
    for m in places:
        assert not union & m, "a card in two places"
        union |= m
    return union


@pytest.mark.parametrize("name", sorted(ROUNDS))
def test_a_whole_round_with_its_procedures_through_the_aec_environment(name):
    """Random actions inside the mask, from the deal to the result: every decision before play is answered
    through the answer block (the engine's own list of legal answers), and no card appears or vanishes."""
    rules, n, previous = ROUNDS[name]()
    env = raw_env(rules, n, procedures=True)
    env.reset(seed=11, options={"previous_order": previous} if previous else None)
    rng = np.random.default_rng(11)
    pack = conserved(env)
    sizes = [bits(h) for h in env.exchange.hands] if env.exchange is not None else None
    kinds: dict[str, int] = {}
    for agent in env.agent_iter():
        obs, _r, term, trunc, info = env.last()
        if term or trunc:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        assert legal.tolist() == sorted(env.legal_actions())
        if env.pending is not None:
            d = env.pending
            kinds[d.kind] = kinds.get(d.kind, 0) + 1
            assert agent == f"player_{d.seat}"
            answers = env.legal_answers()
            assert legal.tolist() == list(range(env.answer_start, env.answer_start + len(answers)))
            assert info["answers"] and len(info["answer_cards"]) == len(answers)  # what each action means
            view = env.encoder.explain(obs["observation"])
            assert view["procedure"][0] == 1 and view["decision_kind"][DECISION_KINDS.index(d.kind)] == 1
            if d.kind == "bid":
                assert view["decision_cards"][d.cards.bit_length() - 1] == 1  # the card on auction
        env.step(int(rng.choice(legal)))
        assert conserved(env) == pack
        if env.exchange is not None and sizes is not None and rules.exchange != "mandatory-trading":
            assert [len(bits(h)) for h in env.exchange.hands] == [len(h) for h in sizes]  # hands keep their sizes
    assert env.game.result is not None and env.exchange is None
    expected = {
        "zsy-auction-trade": {"bid", "trade", "reply"},
        "free-bid-auction": {"bid"},
        "president-requests": {"surrender", "demand", "trade"},
        "house-free-trade": {"trade"},
    }[name]
    assert expected <= set(kinds), kinds


def test_an_illegal_answer_is_refused_in_words_and_changes_nothing():
    env = raw_env(ZSY_AUCTION_TRADE, 4)
    env.reset(seed=2)
    d = env.pending
    assert d is not None and d.kind == "bid"
    before = env.observe(env.agent_selection)
    with pytest.raises(IllegalAction, match=r"action 0 is not an answer player_\d may give: .*'bid' decision.*auction"):
        env.step(0)  # a play's index (the pass) while a bid is asked
    beyond = env.answer_start + len(env.legal_answers())
    with pytest.raises(IllegalAction, match=rf"action {beyond} .*legal answers are actions {env.answer_start}-"):
        env.step(beyond)
    with pytest.raises(Exception, match="does not hold"):
        env.step_answer(Answer("bid", "", next(c for c in (1 << i for i in range(52)) if not c & before_hand(env))))
    after = env.observe(env.agent_selection)
    assert all(np.array_equal(before[k], after[k]) for k in before)
    assert env.pending == d


def before_hand(env):
    return env.decision_observation(env.pending.seat).hand


def test_the_pettingzoo_way_ends_the_round_on_an_answer_outside_the_mask():
    from bigtwo.envs import aec_env

    env = aec_env(ZSY_AUCTION_TRADE, 4)
    env.reset(seed=2)
    agent = env.agent_selection
    env.step(0)
    assert env.rewards[agent] == -1.0 and all(env.terminations.values())


@pytest.mark.parametrize("name", ["zsy-auction-trade", "house-free-trade"])
def test_an_opponents_hidden_cards_do_not_reach_the_observation_or_the_mask(name):
    """Swap hidden cards between two other seats at the deal: through every decision before play (others
    answering with the words always legal to them), seat 0's observation, mask and infos stay the same."""
    rules, n, _previous = ROUNDS[name]()
    a, b = raw_env(rules, n), raw_env(rules, n)
    a.reset(seed=5)
    b.reset(seed=5)
    ex = b.exchange
    one, two = ex.hands[1], ex.hands[2]
    swap = min(len(bits(one)), len(bits(two)), 3)
    give1, give2 = sum(1 << c for c in bits(one)[:swap]), sum(1 << c for c in bits(two)[:swap])
    ex.hands[1], ex.hands[2] = (one & ~give1) | give2, (two & ~give2) | give1
    b._version += 1
    rng = np.random.default_rng(5)
    checked = 0
    while a.pending is not None:
        assert b.pending is not None
        oa, ob = a.observe("player_0"), b.observe("player_0")
        assert np.array_equal(oa["observation"], ob["observation"])
        assert np.array_equal(oa["action_mask"], ob["action_mask"])
        checked += 1
        if a.pending.seat == 0:
            info_a, info_b = a.answer_info(), b.answer_info()
            assert all(np.array_equal(np.asarray(info_a[k]), np.asarray(info_b[k])) for k in info_a)
            action = int(rng.choice(np.flatnonzero(oa["action_mask"])))
            a.step(action)
            b.step(action)
        else:
            word = {"bid": "pass", "trade": "done", "reply": "decline", "request": "none", "grant": "refuse"}
            a.step_answer(word[a.pending.kind])
            b.step_answer(word[b.pending.kind])
    assert checked > 3 and b.pending is None


def test_the_hidden_cards_check_can_fail():
    """The observer's own cards do change what it sees: the test above is not vacuous."""
    a, b = raw_env(ZSY_AUCTION_TRADE, 4), raw_env(ZSY_AUCTION_TRADE, 4)
    a.reset(seed=5)
    b.reset(seed=5)
    ex = b.exchange
    mine, theirs = ex.hands[0], ex.hands[1]
    c0, c1 = mine & -mine, theirs & -theirs
    ex.hands[0], ex.hands[1] = (mine & ~c0) | c1, (theirs & ~c1) | c0
    b._version += 1
    assert not np.array_equal(a.observation_vector(0), b.observation_vector(0))


def test_the_single_agent_environment_plays_a_round_with_its_procedures():
    """The learner answers its own decisions through the answer block; the bots answer theirs."""
    env = gym_env(ZSY_AUCTION_TRADE, 4, opponents="heuristic")
    rng = np.random.default_rng(1)
    answered = 0
    for seed in range(2):
        _obs, info = env.reset(seed=seed)
        done = False
        while not done:
            legal = np.flatnonzero(info["action_mask"])
            if legal[0] >= env.aec.answer_start:
                answered += 1
                assert len(info["answers"]) == len(legal) == len(info["answer_cards"])
            _obs, _reward, done, _trunc, info = env.step(int(rng.choice(legal)))
        assert "result" in info
    assert answered  # every seat gets a turn to trade: the learner answered through the block


def test_versions_and_defaults():
    """Version 2 plays the procedures where a round without roles has them; version 1 ids play as dealt;
    rules without procedures keep version 1's spaces."""
    assert ENV_VERSION == 2
    v2 = gymnasium.make(f"bigtwo/zheng-shangyou-v{ENV_VERSION}").unwrapped
    with pytest.warns(DeprecationWarning, match="out of date"):  # Gymnasium points version 1 users to version 2
        v1 = gymnasium.make("bigtwo/zheng-shangyou-v1").unwrapped
    assert v2.aec.procedures and not v1.aec.procedures
    assert v1.aec.num_actions == v1.aec.num_play_actions < v2.aec.num_actions
    assert v1.observation_space.shape[0] < v2.observation_space.shape[0]
    classic = raw_env("classic")
    assert not classic.procedures and classic.num_actions == classic.num_play_actions
    assert not raw_env("president").procedures and raw_env("president", procedures=True).num_answer_actions
    with pytest.raises(BigTwoError, match="previous_order"):
        raw_env("president").reset(options={"previous_order": [0, 1, 2, 3]})
    with pytest.raises(BigTwoError, match="names every seat"):
        raw_env("president", procedures=True).reset(options={"previous_order": [0, 1, 1, 3]})
    with pytest.raises(BigTwoError, match="max_answers="):
        raw_env(ZSY.replace(free_trade=True, free_trade_cards=3))


@pytest.mark.parametrize("name", ["horse-2", "horse-3"])
def test_the_horse_game_offers_the_blind_pass_or_the_look(name):
    """004 "Horse Game": "Deal 6 decks face down ... Any player who picks up their deck to look at their cards
    must play, or else that deck gets last place". A face-down hand to move has two actions, the pass (blind)
    and ``look_action``; its observation shows no card of it until it looks; every vector equals the one built
    from the engine's own observation of the seat (which hides face-down hands)."""
    rules, n = PROCEDURES[name]()
    env = raw_env(rules, n)
    assert env.offers_look and not raw_env(rules, n, procedures=False).offers_look
    env.reset(seed=7)
    rng = np.random.default_rng(7)
    d = env.encoder.card_width
    looks = blind = 0
    for agent in env.agent_iter():
        obs, _r, term, trunc, _info = env.last()
        if term or trunc:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"]).tolist()
        if env.pending is None:
            for seat in range(n):
                view = env.game.observe(seat)
                assert np.array_equal(env.observation_vector(seat)[:d], env.encoder.from_observation(view)[:d])
        if env.pending is None and env.game.look_pending:
            assert legal == sorted([env.encode(PASS), env.look_action])
            assert not obs["observation"][:d].any()  # face down: not seen before looking
            a = legal[(looks + blind) % 2]  # in turn: a blind pass, a look
            if a == env.look_action:
                looks += 1
                env.step(a)
                assert env.agent_selection == agent and not env.game.look_pending
                assert env.observe(agent)["observation"][:d].any()  # now it sees the hand it must play
                continue
            blind += 1
            env.step(a)
            continue
        if env.pending is None and env.look_action in legal:
            raise AssertionError("look offered with no face-down hand to move")
        env.step(int(rng.choice(legal)))
    assert looks and blind and env.game.result is not None
    with pytest.raises(IllegalAction, match="look"):
        env.reset(seed=7)
        while env.game.look_pending or env.pending is not None:  # a lead: no hand lies face down to follow
            env.step(env.legal_actions()[0])
        env.step(env.look_action)


def test_pettingzoo_api_and_seed_tests_with_auctions_and_free_trade():
    from pettingzoo.test import api_test, seed_test

    from bigtwo.envs import aec_env
    from tests.test_env_pettingzoo import run_quietly

    run_quietly(api_test, aec_env(ZSY_AUCTION_TRADE, 4), num_cycles=60)
    run_quietly(seed_test, lambda: aec_env(ZSY_AUCTION_TRADE, 4), num_cycles=20)


def test_given_hands_go_through_the_procedures_and_keep_their_first_seat():
    """``options={"hands": ..., "first": seat}``: 003 3.3, free trade "shall immediately follow dealing"; the
    seat named to lead still leads once trading ends."""
    rules = load_rules("house-code").replace(free_trade=True)
    hands = ["3D 4D 5D", "6D 7D 8D", "9D TD JD", "QD KD AD"]
    env = raw_env(rules, 4)
    env.reset(options={"hands": hands, "first": 2})
    assert env.pending is not None and env.pending.kind == "trade"
    while env.pending is not None:
        env.step_answer("done")
    assert env.game.to_move == 2 and env.agent_selection == "player_2"
    assert [str(env.game.hand(s)) for s in range(4)] == hands
