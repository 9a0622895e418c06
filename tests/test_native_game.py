"""``Game`` with the compiled core behind it against ``Game`` in the Python engine (``native=False``, what
``BIGTWO_NATIVE=0`` makes of every round): random rounds of every preset at every table size, and of drawn house
rules, played through both side by side and compared after every action, through the public API only (legal
actions with every field of each play, hands, trick, history and notes, the position key, observations, undo,
clones, refusals and their reasons, the result).

Tests that need the extension skip, saying why, where it is not built."""

from __future__ import annotations

import copy
import pickle
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bigtwo import Game, list_presets, load_rules, native
from bigtwo.combos.play import Play
from bigtwo.errors import BigTwoError, IllegalPlay
from bigtwo.positions import position_from_observation
from tests.house_rules import house_rules

needs_core = pytest.mark.skipif(not native.available(), reason=f"no compiled core here: {native.status()}")
PRESETS = list_presets()
TABLES = [(name, n) for name in PRESETS for n in range(load_rules(name).min_players, load_rules(name).max_players + 1)]


def fields(p: Play | None) -> tuple[Any, ...] | None:
    """Every field of a play (Play compares by its cards alone)."""
    if p is None:
        return None
    return (p.mask, p.kind, p.key, p.value, p.cat, p.cls, p.order, p.bomb, p.size)


def state(g: Game, observe: bool = True) -> tuple[Any, ...]:
    """What a caller can read of a round through its public API."""
    out: tuple[Any, ...] = (
        [fields(p) for p in g.legal_plays()],
        g.pass_allowed(),
        g.is_over,
        None if g.is_over else g.to_move,
        [g.hand(s).mask for s in range(g.n)],
        g.hand_sizes(),
        fields(g.trick),
        g.trick_seat,
        g.trick_start,
        g.required_card,
        [(s, fields(p)) for s, p in g.history],
        g.history_notes,
        g.passed_seats(),
        g.active_seats(),
        g.finishing_order,
        g.stock_size,
        g.drawn_cards,
        g.can_undo,
        g.position_key(),
        g.result,
        repr(g),
    )
    if observe:
        out += tuple(g.observe(s) for s in [None, *range(g.n)])
    return out


def is_native(g: Game) -> bool:
    return "_nat" in g.__dict__


def pair(rules: Any, players: int, seed: int) -> tuple[Game, Game]:
    return Game(rules, players=players, seed=seed), Game(rules, players=players, seed=seed, native=False)


def refused(g: Game, rng: random.Random) -> list[Any]:
    """Actions the seat to move may not take now: a card it does not hold (as a Play and as notation), two
    of its cards that are no legal play, text that is not cards."""
    hand = g.hand(g.to_move).mask
    legal = {p.mask for p in g.legal_plays()}
    elsewhere = [c for c in range(52) if g.ev.pack >> c & 1 and not hand >> c & 1]
    out: list[Any] = ["3X", "pass" if 0 not in legal else "3X 4X"]
    if elsewhere:
        c = rng.choice(elsewhere)
        out += [g.ev.classify(1 << c), str(g.ev.classify(1 << c))]
    cards = [c for c in range(64) if hand >> c & 1]
    if len(cards) >= 2:
        two = sum(1 << c for c in rng.sample(cards, 2))
        if two not in legal:
            out.append(two)
    return out


def refusal(g: Game, action: Any) -> tuple[Any, ...]:
    before = state(g, False)
    try:
        g.play(action)
    except (IllegalPlay, BigTwoError) as e:
        assert state(g, False) == before
        return (type(e), str(e))
    raise AssertionError(f"{action!r} was taken")


def play_both(a: Game, b: Game, rng: random.Random, undo_rate: float = 0.1, observe_rate: float = 0.3) -> int:
    """Play ``a`` (compiled core) and ``b`` (Python engine) to the end alike, comparing after every action;
    the number of actions taken."""
    steps = 0
    assert state(a) == state(b)
    while not b.is_over:
        legal = b.legal_plays()
        p = rng.choice(legal)
        how = rng.random()
        if how < 0.15:
            arg: Any = "pass" if p.is_pass else str(p)  # notation goes through the Python checks
        elif how < 0.2:
            arg = p.mask if not p.is_pass else p  # a bare mask
        else:
            arg = p
        if rng.random() < 0.1:
            # a refusal: the same reason in words from both, the state untouched
            for bad in refused(b, rng):
                assert refusal(a, bad) == refusal(b, bad)
        call = rng.random() < 0.9
        assert fields(a.play(arg, call_last_card=call)) == fields(b.play(arg, call_last_card=call))
        steps += 1
        observe = rng.random() < observe_rate
        assert state(a, observe) == state(b, observe)
        if rng.random() < undo_rate:
            a.undo()
            b.undo()
            assert state(a) == state(b)
            a.play(arg, call_last_card=call)
            b.play(arg, call_last_card=call)
        if rng.random() < 0.05:
            # play on from clones, the originals left as they are
            a2, b2 = a.clone(), b.clone()
            if not b2.is_over:
                q = rng.choice(b2.legal_plays())
                a2.play(q)
                b2.play(q)
                assert state(a2) == state(b2)
            assert state(a) == state(b)
    assert state(a) == state(b)
    assert a.result == b.result
    return steps


@needs_core
@pytest.mark.parametrize(("name", "players"), TABLES)
def test_every_preset_at_every_table_size_plays_alike(name, players):
    rules = load_rules(name)
    rng = random.Random(f"{name}-{players}")
    steps = 0
    for _ in range(4):
        a, b = pair(rules, players, rng.randrange(1 << 30))
        assert not is_native(b)
        assert is_native(a) or a.is_over  # every preset is covered: the round runs in the compiled core
        steps += play_both(a, b, rng)
    assert steps > 0


@needs_core
@settings(max_examples=40, deadline=None)
@given(house_rules(), st.integers(0, 2**31 - 1))
def test_house_rules_play_alike(drawn, seed):
    rules, players = drawn
    a, b = pair(rules, players, seed)
    assert is_native(a) == (native.covers(rules) and not a.is_over)
    play_both(a, b, random.Random(seed), undo_rate=0.2)


@needs_core
@pytest.mark.parametrize("players", [2, 4])
def test_last_card_calls_and_draws_are_noted_alike(players):
    rules = load_rules("classic").replace(
        draw_on_pass=True, leftover="stock", deal="fixed", hand_size=7, last_card_call=True
    )
    rng = random.Random(players)
    for _ in range(6):
        a, b = pair(rules, players, rng.randrange(1 << 30))
        assert is_native(a)
        play_both(a, b, rng, undo_rate=0.3)


@needs_core
def test_undo_goes_back_to_the_deal_alike():
    a, b = pair(load_rules("classic"), 4, 21)
    rng = random.Random(3)
    for _ in range(25):
        p = rng.choice(b.legal_plays())
        a.play(p)
        b.play(p)
    while b.can_undo:
        a.undo()
        b.undo()
        assert state(a, False) == state(b, False)
    assert not a.can_undo
    for g in (a, b):
        with pytest.raises(IllegalPlay, match="nothing to undo"):
            g.undo()


@needs_core
def test_writing_the_state_hands_the_round_to_the_python_engine_with_its_undo():
    """A search's rebuilt position writes the round's state from outside: the Python engine takes over, with
    every action's undo, and plays on as the reference."""
    rules = load_rules("tien-len")
    a, b = pair(rules, 4, 8)
    rng = random.Random(8)
    for _ in range(30):
        if b.is_over:
            break
        p = rng.choice(b.legal_plays())
        a.play(p)
        b.play(p)
    a._stock_pos = b._stock_pos  # any write of the round's state
    assert not is_native(a) and type(a) is Game
    assert state(a) == state(b)
    while b.can_undo:
        a.undo()
        b.undo()
        assert state(a, False) == state(b, False)


@needs_core
def test_exchanges_before_play_set_the_compiled_round_up_again():
    a, b = pair(load_rules("classic"), 4, 13)
    hands = [a.hand(s).mask for s in range(4)]
    low = [h & -h for h in hands]
    swapped = [(h & ~low[s]) | low[(s + 1) % 4] for s, h in enumerate(hands)]
    for g in (a, b):
        g.replace_hands(swapped, first=2)
    assert is_native(a)
    play_both(a, b, random.Random(13))


@needs_core
def test_a_search_position_rebuilt_from_an_observation_plays_alike():
    rules = load_rules("classic")
    rng = random.Random(5)
    g = Game(rules, seed=5, native=False)
    for _ in range(17):
        g.play(rng.choice(g.legal_plays()))
    obs = g.observe(g.to_move)
    hands = [g.hand(s).mask for s in range(4)]
    a = position_from_observation(rules, obs, hands)
    assert is_native(a)
    b = a.clone()
    b._to_python()
    assert not is_native(b)
    play_both(a, b, rng)


@needs_core
def test_copies_and_pickles_hold_the_position():
    a, b = pair(load_rules("classic"), 4, 2)
    rng = random.Random(2)
    for _ in range(11):
        p = rng.choice(b.legal_plays())
        a.play(p)
        b.play(p)
    for c in (copy.deepcopy(a), pickle.loads(pickle.dumps(a)), copy.copy(a)):
        assert state(c, False) == state(b, False)
    assert state(a) == state(b)


@needs_core
def test_a_position_set_up_by_hand_at_the_deal_stays_in_the_core():
    """Writing the first lead's state before any action (as a search's rebuilt position does) keeps the round
    in the compiled core, set up again from the written state."""
    a, b = pair(load_rules("classic"), 4, 31)
    for g in (a, b):
        g._required = 0  # the first lead free
        g.to_move = 1
    assert is_native(a)
    play_both(a, b, random.Random(31))


@pytest.mark.parametrize("seed", range(0, 400, 7))
def test_the_deals_shuffle_is_random_shuffle(seed):
    """``bigtwo.deal.shuffle`` (the deal's, without a method call a card) permutes as ``Random.shuffle`` does and
    leaves the generator in the same state, so a seed deals the hands it always dealt."""
    from bigtwo.deal import shuffle

    a, b = random.Random(seed), random.Random(seed)
    x, y = list(range(seed % 110)), list(range(seed % 110))
    a.shuffle(x)
    shuffle(b, y)
    assert x == y
    assert a.getstate() == b.getstate()


def observed_plays_agree(rules: Any, players: int, seed: int, rounds: int = 2) -> int:
    """Legal plays from an observation, by the compiled core and by the Python engine, against the round's own
    at every decision of random rounds; the decisions compared."""
    from bigtwo.legal import legal_plays_from_observation

    rng = random.Random(seed)
    decisions = 0
    for _ in range(rounds):
        g = Game(rules, players=players, seed=rng.randrange(1 << 30), native=False)
        while not g.is_over:
            obs = g.observe(g.to_move)
            want = [fields(p) for p in g.legal_plays()]
            assert [fields(p) for p in legal_plays_from_observation(rules, obs)] == want
            assert [fields(p) for p in legal_plays_from_observation(rules, obs, compiled=False)] == want
            other = (g.to_move + 1) % g.n  # not to move: nothing
            assert legal_plays_from_observation(rules, g.observe(other)) == []
            g.play(rng.choice(g.legal_plays()))
            decisions += 1
    return decisions


@needs_core
@pytest.mark.parametrize(("name", "players"), TABLES)
def test_legal_plays_from_an_observation_by_the_core_are_the_rounds(name, players):
    assert observed_plays_agree(load_rules(name), players, players) > 0


@needs_core
@settings(max_examples=30, deadline=None)
@given(house_rules(), st.integers(0, 2**31 - 1))
def test_legal_plays_from_an_observation_agree_under_house_rules(drawn, seed):
    rules, players = drawn
    observed_plays_agree(rules, players, seed, rounds=1)


@needs_core
def test_the_three_threes_rule_binds_alike_from_an_observation():
    """After a lead of three 3s the next seat holding three 2s must play them: from its observation too, and
    the seat after it (the trick no longer just opened) may pass."""
    from bigtwo.legal import legal_plays_from_observation

    rules = load_rules("classic").replace(three_threes_force_twos=True)
    hands = ["3D 3C 3H 5S 6S", "2D 2C 2H 9S", "4D 4C 7H", "8D 8C TD"]
    a, b = Game(rules, hands=hands), Game(rules, hands=hands, native=False)
    lead = next(p for p in b.legal_plays() if p.kind == "triple")
    for g in (a, b):
        g.play(lead)
    obs = b.observe(1)
    assert obs.must_answer
    forced = [fields(p) for p in b.legal_plays()]
    assert len(forced) == 1 and not b.pass_allowed()
    assert [fields(p) for p in legal_plays_from_observation(rules, obs)] == forced
    assert [fields(p) for p in a.legal_plays()] == forced
    for g in (a, b):
        g.play("2D 2C 2H")
    obs = b.observe(2)
    assert not obs.must_answer
    assert [fields(p) for p in legal_plays_from_observation(rules, obs)] == [fields(p) for p in b.legal_plays()]
    assert state(a) == state(b)
