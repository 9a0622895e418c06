"""Matches: length, leads, dealers, seeds, records and replays, hidden cards (issue: matches, items 1 and 4)."""

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bigtwo import BigTwoError, CardSet, Game, IllegalPlay, load_rules
from bigtwo.bots import make
from bigtwo.cards import to_mask
from bigtwo.exchange import IllegalExchange
from bigtwo.match import Match
from bigtwo.scoring import is_zero_sum

CLASSIC = load_rules("classic")


def bots(n, kind="greedy", seed=0):
    return [make(kind, seed=seed + i) for i in range(n)]


def test_a_match_is_a_sequence_of_scored_rounds():
    m = Match("classic", players=4, seed=11, rounds=3).play_out(bots(4))
    assert m.is_over and m.phase == "over" and m.to_move is None
    assert len(m.records) == 3 and all(r.is_complete for r in m.records)
    running = [0] * 4
    for r in m.records:
        running = [a + b for a, b in zip(running, r.result.scores, strict=True)]
        assert r.totals == running
    assert m.totals == running and sum(m.totals) == 0
    assert m.standings()[0] == max(range(4), key=lambda s: (m.totals[s], -m.places[s]))
    with pytest.raises(BigTwoError, match="over"):
        m.apply("pass")


def test_the_first_round_is_the_game_of_the_same_seed():
    m = Match("classic", players=4, seed=1234, rounds=2)
    g = Game("classic", players=4, seed=1234)
    assert m.current.dealt == g.dealt and m.game.to_move == g.to_move
    assert m.records[0].seed == 1234


def test_same_seed_same_match():
    a = Match("president", players=5, seed=8, rounds=3).play_out(bots(5, "random", 3))
    b = Match("president", players=5, seed=8, rounds=3).play_out(bots(5, "random", 3))
    assert a.to_dict() == b.to_dict()
    c = Match("president", players=5, seed=9, rounds=3).play_out(bots(5, "random", 3))
    assert c.to_dict()["records"][0]["dealt"] != a.to_dict()["records"][0]["dealt"]


def test_previous_winner_leads_freely():
    # 001 First player, "Round winner: ... the winner of the previous round starts the next round. The first player
    # may play any combination except the first round." 002 Variations: "In tournaments, starting the game with 3♦
    # is only true for the first round. In subsequent rounds, the winner of the previous round plays first."
    rules = CLASSIC.replace(later_lead="previous-winner")
    m = Match(rules, players=4, seed=5, rounds=3)
    assert m.current.first is None and m.game.required_card is not None
    p = bots(4)
    while m.round_index == 0:
        m.apply(p[m.to_move].choose(rules, m.observe(m.to_move)))
    winner = m.records[0].result.winner
    assert m.current.first == winner and m.to_move == winner and m.game.required_card is None
    # the lead card's holder leads again under the default rule
    m2 = Match(CLASSIC, players=4, seed=5, rounds=2)
    while m2.round_index == 0:
        m2.apply(p[m2.to_move].choose(CLASSIC, m2.observe(m2.to_move)))
    holder = next(s for s in range(4) if to_mask("3D") & m2.current.hands[s])
    assert m2.to_move == holder and str(m2.game.required_card) == "3D"


def test_the_loser_deals_and_the_dealer_gets_the_extra_card():
    # 000 End Game: "the Loser must shuffle and deal out the next game"; Dealing: "dealing out the cards singly,
    # starting with himself ... the dealer ends up with one more card than the other two players."
    rules = load_rules("winner").replace(exchange="none")
    m = Match(rules, players=3, seed=2, rounds=3).play_out(bots(3))
    for prev, rec in zip(m.records, m.records[1:], strict=False):
        assert rec.dealer == prev.result.finishing_order[-1]
        assert [h.bit_count() for h in rec.dealt][rec.dealer] == 18
    nxt = Match(rules.replace(dealer="next-seat"), players=3, seed=2, rounds=3).play_out(bots(3))
    assert [r.dealer for r in nxt.records] == [2, 0, 1]  # the last seat deals first, as Game(rules, seed) does


@st.composite
def matches(draw):
    rules = draw(
        st.sampled_from(
            [
                CLASSIC,
                load_rules("president"),
                load_rules("bga"),
                load_rules("pusoy-dos"),
                CLASSIC.replace(exchange="big-two-president", later_lead="previous-winner"),
                CLASSIC.replace(exchange="loser-to-winner", round_end="last-standing", scoring="winner"),
                CLASSIC.replace(exchange="pass-around", dealer="loser"),
            ]
        )
    )
    n = draw(st.integers(rules.min_players, min(rules.max_players, 6)))
    return rules, n, draw(st.integers(0, 2**40)), draw(st.sampled_from(["greedy", "random"]))


@settings(max_examples=30)
@given(matches(), st.integers(1, 4))
def test_a_match_of_n_rounds_ends_after_n(case, rounds):
    rules, n, seed, kind = case
    m = Match(rules, players=n, seed=seed, rounds=rounds).play_out(bots(n, kind, seed % 1000))
    assert len(m.records) == rounds and len(m.completed) == rounds
    if is_zero_sum(rules):
        assert sum(m.totals) == 0
    assert sum(m.places) == rounds * n * (n + 1) // 2


@settings(max_examples=20)
@given(st.integers(0, 2**40), st.integers(2, 4), st.integers(5, 20), st.sampled_from(["either", "gain", "loss"]))
def test_a_points_match_ends_when_the_target_is_reached(seed, n, target, side):
    rules = CLASSIC.replace(match_end="points", match_points=target, match_points_side=side)
    m = Match(rules, players=n, seed=seed).play_out(bots(n, "greedy"))

    def reached(totals):
        return any((side != "loss" and t >= target) or (side != "gain" and t <= -target) for t in totals)

    assert reached(m.totals)
    assert not any(reached(r.totals) for r in m.records[:-1])


def test_length_settings_and_their_errors():
    assert Match("bga", seed=1).max_rounds == 5  # 001: "Number of rounds 5 10 20"
    assert Match("classic", seed=1, points=50).points == 50 and Match("classic", seed=1, points=50).max_rounds is None
    with pytest.raises(BigTwoError, match="points target needs a scoring system with points"):
        Match("house-code", points=10)
    with pytest.raises(BigTwoError, match="at least one round"):
        Match("classic", rounds=0)
    with pytest.raises(BigTwoError, match="team play needs 4 players"):
        Match(CLASSIC.replace(teams=True), players=3)
    with pytest.raises(BigTwoError, match="match_end 'points' needs a scoring system"):
        load_rules("house-code").replace(match_end="points")


def test_records_replay_and_audit():
    m = Match("president", players=4, seed=21, rounds=3).play_out(bots(4, "random", 5))
    text = m.to_json()
    again = Match.replay(text)
    assert again.to_dict() == m.to_dict() and again.is_over
    data = json.loads(text)
    rec = data["records"][1]
    assert rec["roles"] and rec["exchange"]["events"] and rec["exchange"]["answers"]
    assert {"dealt", "hands", "actions", "result", "totals"} <= set(rec)
    # every round's cards: dealt hands partition the pack, exchanges conserve each hand's size
    for r in data["records"]:
        assert sorted(len(h) for h in r["dealt"]) == sorted(len(h) for h in r["hands"])
    m2 = Match("classic", players=4, seed=21, rounds=2).play_out(bots(4, "random", 5))
    bad = json.loads(m2.to_json())
    bad["records"][1]["result"]["scores"][0] += 1
    with pytest.raises(BigTwoError, match="round 2: the payments do not match"):
        Match.replay(bad)
    bad = json.loads(m2.to_json())
    dealt = bad["records"][0]["dealt"]
    dealt[0], dealt[1] = dealt[1], dealt[0]
    with pytest.raises(BigTwoError, match="round 1: the deal does not match"):
        Match.replay(bad)
    with pytest.raises(BigTwoError, match="not a match record"):
        Match.replay({"format": "chess"})


def test_bad_answers_leave_the_match_unchanged():
    rules = CLASSIC.replace(exchange="pass-around")
    m = Match(rules, players=4, seed=3, rounds=1)
    seat = m.to_move
    before = m.observe(seat).to_json()
    with pytest.raises(IllegalExchange, match="exactly 3 cards"):
        m.apply(CardSet(to_mask(before["hand"][:2])))
    with pytest.raises(BigTwoError, match=f"seat {(seat + 1) % 4} is not to move"):
        m.apply(before["hand"][:3], seat=(seat + 1) % 4)
    assert m.observe(seat).to_json() == before
    m.play_out(bots(4))
    m = Match(CLASSIC, players=4, seed=3, rounds=1)
    before = m.observe(m.to_move).to_json()
    with pytest.raises(IllegalPlay):
        m.apply("pass")
    assert m.observe(before["seat"]).to_json() == before


def test_observations_carry_the_phase_and_hide_other_hands():
    rules = CLASSIC.replace(exchange="big-two-president")
    m = Match(rules, players=4, seed=6, rounds=2)
    p = bots(4)
    phases = set()
    while not m.is_over:
        s = m.to_move
        for seat in range(4):
            obs = m.observe(seat).to_json()
            phases.add(obs["phase"])
            if obs["phase"] == "exchange":
                own = to_mask(obs["hand"])
                assert "hands" not in obs and obs["hand_sizes"][seat] == own.bit_count()
                for e in obs["exchanges"]:
                    if seat not in (e["from"], e["to"]):
                        assert "cards" not in e
                assert (obs["decision"] is not None) == (seat == s)
        m.apply(p[s].choose(rules, m.observe(s)))
    assert phases == {"exchange", "play"}
    assert m.observe(0).to_json()["phase"] == "over"


def test_team_ties_go_to_five_card_shootouts():
    # 002 Team play: "If the card count is tied at the end of a game the players proceed to a five card shootout.
    # ... each player receives five cards and the game is played as normal. The lowest card holder starts and the
    # same team grouping is still used."
    rules = CLASSIC.replace(teams=True)
    found = None
    for seed in range(300):
        m = Match(rules, players=4, seed=seed, rounds=1).play_out(bots(4))
        if m.records[0].shootouts:
            found = m
            break
    assert found is not None, "no tie in 300 deals"
    rec = found.records[0]
    assert rec.game.result.team_tie
    for g in rec.shootouts:
        assert [h.bit_count() for h in g.dealt] == [5, 5, 5, 5]
        lowest = min((c for h in g.dealt for c in CardSet(h)), key=lambda c: rules.engine.power[c])
        assert g.history[0][0] == next(s for s in range(4) if g.dealt[s] >> lowest & 1)
    assert not rec.shootouts[-1].result.team_tie
    assert rec.result.scores == rec.shootouts[-1].result.scores and sorted(rec.result.scores) == [-1, -1, 1, 1]
    assert Match.replay(found.to_json()).totals == found.totals


def test_ranking_only_standings_use_places():
    m = Match("house-code", players=4, seed=4, rounds=3).play_out(bots(4, "random", 1))
    assert m.totals == [0, 0, 0, 0]
    st_ = m.standings()
    assert [m.places[s] for s in st_] == sorted(m.places)


def test_hidden_cards_over_whole_matches():
    """Across whole matches with every exchange system, a seat never sees a card it has not held, been shown,
    or seen played."""
    systems = [
        load_rules("president"),
        CLASSIC.replace(exchange="big-two-president", president_gives="any-after-receiving"),
        CLASSIC.replace(exchange="loser-to-winner"),
        CLASSIC.replace(exchange="pass-around"),
    ]
    for i, rules in enumerate(systems):
        n = 4
        m = Match(rules, players=n, seed=100 + i, rounds=3)
        p = bots(n, "random", i)
        rng = random.Random(i)
        known = {}
        while not m.is_over:
            rec = m.current
            key = rec.index
            if key not in known:
                known = {key: [rec.dealt[s] for s in range(n)]}
            k = known[key]
            ex = rec.exchange
            for s in range(n):
                k[s] |= ex.hand(s)
                for e in ex.events:
                    if e["type"] == "give" and (e.get("shown") or (e["to"] == s and e.get("seen"))):
                        k[s] |= to_mask(e["cards"])
            played = 0
            g = m.game
            if g is not None:
                for _s, play in g.history:
                    played |= play.mask
            seat = rng.randrange(n)
            seen = _cards_in(m.observe(seat).to_json())
            assert not seen & ~(k[seat] | played), f"seat {seat} sees {CardSet(seen & ~(k[seat] | played))}"
            s = m.to_move
            m.apply(p[s].choose(rules, m.observe(s)))


def _cards_in(obj, key=None):
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
