"""The compiled batched environment (bigtwo._core.Batch, issue 86) against the pure-Python one, its reference.

Both play random rounds of every preset at every table size, and of house rules that reach every way a deal
leaves cards over, from the same seed and with the same choices; the legal actions (in order), the state and
action rows, the deals and the finished rounds' points and results must be equal bit for bit. A seat's state row
must not change when the other seats' hands are shuffled among them (no hidden card reaches it).
"""

from __future__ import annotations

import pickle
import random

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bigtwo import list_presets, native
from bigtwo.envs import native_batch
from bigtwo.envs.batched import BatchedEnv, Decisions, Finished
from bigtwo.rules.ruleset import load_rules
from tests.house_rules import house_rules
from tests.rulesets import HOUSE_RULES as ENGINE_HOUSE_RULES

pytestmark = pytest.mark.skipif(not native.available(), reason=native.status())

HOUSE_RULES = [
    ("classic", {"leftover": "face-up"}),
    ("classic", {"leftover": "stock", "draw_on_pass": True}),
    ("classic", {"leftover": "remove-lowest"}),
    ("classic", {"leftover": "dealer", "leftover_shown": True}),
    ("classic", {"leftover": "highest-holder", "leftover_shown": True}),
    ("classic", {"leftover": "lowest-diamond-holder", "leftover_shown": True}),
    ("classic", {"leftover": "swap"}),
    ("classic", {"four_twos": "redeal"}),
    ("classic", {"deal": "fixed", "hand_size": 10}),
    ("classic", {"deal": "ghost", "hand_size": 10}),
    ("classic", {"deal": "all"}),
    ("classic", {"leftover_shown": True}),
    ("classic", {"dealt_bomb_twos_low": True}),
]


def _tables() -> list[tuple[str, object, int]]:
    out = []
    for name in list_presets():
        rules = load_rules(name)
        if native_batch.uncovered(rules):
            continue
        for n in range(rules.min_players, rules.max_players + 1):
            out.append((name, rules, n))
    for name, changes in HOUSE_RULES:
        rules = load_rules(name).replace(**changes)
        assert not native_batch.uncovered(rules), (name, changes)
        label = name + ":" + ",".join(f"{k}={v}" for k, v in changes.items())
        for n in range(rules.min_players, rules.max_players + 1):
            out.append((label, rules, n))
    for label, make in ENGINE_HOUSE_RULES.items():  # the engine's own house rules, where the compiled core plays them
        rules = make()
        if native_batch.uncovered(rules):
            continue
        for n in range(rules.min_players, rules.max_players + 1):
            out.append((label, rules, n))
    return out


TABLES = _tables()


def test_every_preset_is_covered():
    uncovered = {name: native_batch.uncovered(load_rules(name)) for name in list_presets()}
    assert {k: v for k, v in uncovered.items() if v} == {}


def assert_same(d: Decisions, ref: Decisions) -> None:
    assert d.env == ref.env and d.seat == ref.seat
    assert [[p.mask for p in ps] for ps in d.plays] == [[p.mask for p in ps] for ps in ref.plays]
    assert [[p.kind for p in ps] for ps in d.plays] == [[p.kind for p in ps] for ps in ref.plays]
    assert d.masks is not None and d.masks.tolist() == [p.mask for ps in ref.plays for p in ps]
    assert np.array_equal(d.offsets, ref.offsets)
    assert d.state.dtype == ref.state.dtype and d.actions.dtype == ref.actions.dtype
    assert np.array_equal(d.state, ref.state), np.argwhere(d.state != ref.state)[:5]
    assert np.array_equal(d.actions, ref.actions), np.argwhere(d.actions != ref.actions)[:5]


def assert_same_finished(got: list[Finished], ref: list[Finished]) -> None:
    assert [(f.env, f.episode) for f in got] == [(f.env, f.episode) for f in ref]
    for f, r in zip(got, ref, strict=True):
        assert f.game is None and r.game is not None
        assert f.points == r.points
        a, b = f.result, r.result
        assert a.finishing_order == b.finishing_order and a.cards_left == b.cards_left
        assert a.scores == b.scores and a.places == b.places


def play_both(rules, n: int, seed: int, steps: int, **options) -> int:
    """Random rounds through both environments; the number of rounds that ended."""
    env = BatchedEnv(rules, n, seed=seed, **options)
    ref = BatchedEnv(rules, n, seed=seed, native=False, **options)
    assert env.native and not ref.native
    d, fin = env.reset()
    r, rfin = ref.reset()
    assert_same(d, r)
    assert_same_finished(fin, rfin)
    rng = random.Random(seed)
    ended = 0
    for _ in range(steps):
        choices = [rng.randrange(len(p)) for p in r.plays]
        d, fin = env.step(d, choices)
        r, rfin = ref.step(r, choices)
        assert_same(d, r)
        assert_same_finished(fin, rfin)
        ended += len(fin)
    assert (env.steps, env.moves, env.episodes) == (ref.steps, ref.moves, ref.episodes)
    return ended


@pytest.mark.parametrize(("label", "rules", "n"), TABLES, ids=[f"{t[0]}-{t[2]}p" for t in TABLES])
def test_the_compiled_batch_plays_the_python_games_row_for_row(label, rules, n):
    utility = "score" if n % 2 else "cards"  # the rules' own payments, and the cards left
    ended = play_both(rules, n, seed=len(label) + n, steps=40 * n, num_envs=3, history=4, utility=utility,
                      skip_forced=n % 2 == 0)  # fmt: skip
    assert ended >= 1


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(house_rules(), st.integers(0, 2**20))
def test_drawn_house_rules_play_the_same_games(drawn, seed):
    rules, players = drawn
    if native_batch.uncovered(rules):
        return
    play_both(rules, players, seed=seed, steps=30, num_envs=2, history=3, utility="score")


def test_a_dealt_four_of_a_kind_makes_the_twos_low_in_both():
    rules = load_rules("classic").replace(dealt_bomb_twos_low=True)
    env = BatchedEnv(rules, 4, num_envs=8, seed=4, native=False)
    env.reset()
    lows = sum(g is not None and g.twos_low for g in env.games)
    assert lows >= 1  # these deals have a four of a kind: the comparison below reaches the 2s-low order
    assert play_both(rules, 4, seed=4, steps=200, num_envs=8) >= 4


def test_longer_rounds_and_every_utility_agree():
    for utility in ("cards", "score", "place", "win"):
        assert play_both(load_rules("classic"), 4, seed=11, steps=400, num_envs=8, utility=utility) >= 20


def test_a_seats_row_never_depends_on_the_other_hands():
    rules = load_rules("classic")
    env = BatchedEnv(rules, 4, num_envs=6, seed=3, history=8)
    assert env.native
    d, _ = env.reset()
    rng = random.Random(1)
    batch = env._batch
    checked = 0
    for _ in range(60):
        for j, i in enumerate(d.env):
            seat = d.seat[j]
            hands = batch.hands(i)
            others = [s for s in range(4) if s != seat]
            pool = [c for s in others for c in range(54) if hands[s] >> c & 1]
            rng.shuffle(pool)
            moved = list(hands)
            at = 0
            for s in others:
                k = hands[s].bit_count()
                moved[s] = sum(1 << c for c in pool[at : at + k])
                at += k
            batch.replace_hands(i, moved)
            again = env.decisions()
            assert np.array_equal(again.state[j], d.state[j])
            o = d.offsets
            assert np.array_equal(again.actions[o[j] : o[j + 1]], d.actions[o[j] : o[j + 1]])
            batch.replace_hands(i, hands)
            checked += moved != hands
        d, _ = env.step(d, [rng.randrange(len(p)) for p in d.plays])
    assert checked > 100
    with pytest.raises(ValueError, match="other seats"):
        hands = batch.hands(0)
        seat = env.decisions().seat[0]
        other = (seat + 1) % 4
        low_mine, low_other = hands[seat] & -hands[seat], hands[other] & -hands[other]
        swapped = list(hands)
        swapped[seat] = hands[seat] ^ low_mine ^ low_other
        swapped[other] = hands[other] ^ low_other ^ low_mine
        batch.replace_hands(0, swapped)


def test_a_pickled_batch_goes_on_as_the_original():
    env = BatchedEnv("tien-len", 4, num_envs=5, seed=8, utility="score")
    d, _ = env.reset()
    rng = random.Random(2)
    for _ in range(30):
        d, _ = env.step(d, [rng.randrange(len(p)) for p in d.plays])
    copy = pickle.loads(pickle.dumps(env))
    assert copy.native
    e = copy.decisions()
    assert_same_decisions = np.array_equal(e.state, d.state) and np.array_equal(e.actions, d.actions)
    assert assert_same_decisions and e.masks is not None and d.masks is not None
    assert e.masks.tolist() == d.masks.tolist()
    for _ in range(80):
        choices = [rng.randrange(len(p)) for p in d.plays]
        d, fin = env.step(d, choices)
        e, fin2 = copy.step(e, choices)
        assert np.array_equal(e.state, d.state) and np.array_equal(e.actions, d.actions)
        assert [(f.env, f.episode, f.points) for f in fin] == [(f.env, f.episode, f.points) for f in fin2]


def test_a_bad_choice_is_refused_in_words():
    env = BatchedEnv("classic", 4, num_envs=2, seed=1)
    d, _ = env.reset()
    with pytest.raises(ValueError, match="legal actions"):
        env.step(d, [999, 0])
    with pytest.raises(ValueError, match="choices for"):
        env.step(d, [0])


def test_bots_and_factories_play_in_python():
    from bigtwo.bots import make

    bots = [[None, make("greedy"), make("greedy"), make("greedy")]]
    assert not BatchedEnv("classic", 4, num_envs=1, bots=bots).native
    assert BatchedEnv("classic", 4, num_envs=1).native
    assert not BatchedEnv("classic", 4, num_envs=1, native=False).native
