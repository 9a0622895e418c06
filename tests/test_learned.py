"""The learned player without torch (issue 15): its features see only the seat's observation, the batched
multi-seat environment, and the numpy bot with the shipped weights."""

from __future__ import annotations

import os
import random
import re
import tempfile
from importlib import resources
from pathlib import Path

import numpy as np
import pytest

from bigtwo import Game, load_rules
from bigtwo.bots import make
from bigtwo.bots.features import (
    ActionEncoder,
    StateEncoder,
    add_folded,
    fold,
    info_from_game,
    info_from_observation,
    sub_folded,
)
from bigtwo.bots.learned import QPolicy, policy_for, scorer_for, shipped_weights, trained_elsewhere
from bigtwo.cards import CardSet, to_mask
from bigtwo.envs.batched import BatchedEnv
from bigtwo.errors import BigTwoError
from tests.rulesets import renamed_cards
from tests.test_bots import HIDDEN_CASES, midgame, ruleset, scrambled

PRESETS = ["classic", "bga", "president", "tien-len", "zheng-shangyou", "winner"]


def random_policy(rules, players, seed=0, history=4, hidden=(16,)):
    """A small network with random weights: enough to drive every code path of the bot."""
    rng = np.random.default_rng(seed)
    s = StateEncoder(rules, players, history).size
    a = ActionEncoder(rules, players).size
    sizes = [s + a, *hidden, 1]
    layers = [
        (rng.normal(0, 0.3, (sizes[i], sizes[i + 1])).astype(np.float32), rng.normal(0, 0.1, sizes[i + 1]))
        for i in range(len(sizes) - 1)
    ]
    meta = {
        "rules": rules.name,
        "rules_settings": rules.settings(),
        "players": players,
        "history": history,
        "features_version": 1,
    }
    return QPolicy(layers, s, meta)


# --- the two feature paths ---------------------------------------------------------------------------------
@pytest.mark.parametrize("name", [*PRESETS, "two-decks", "wild-jokers", "two-player-draw", "known-leftover"])
def test_game_path_equals_observation_path(name):
    rules = ruleset(name)
    enc = StateEncoder(rules, rules.players, 5)
    rng = random.Random(name)
    for seed in range(2):
        g = Game(rules, seed=seed)
        while not g.is_over:
            for seat in range(g.n):
                fast = info_from_game(g, seat, 5)
                slow = info_from_observation(rules, g.observe(seat), 5)
                assert fast == slow
                assert np.array_equal(enc.encode(fast), enc.encode(slow))
            g.play(rng.choice(g.legal_plays()))


def test_state_vector_fields():
    rules = load_rules("classic")
    g = Game(rules, hands=["3D 4D 5D", "6D 7D", "8D 9D", "10D JD"])
    g.play("3D")
    g.play("6D")
    enc = StateEncoder(rules, 4, 2)
    v = enc.encode(info_from_game(g, 2, 2))  # seat 2: seat 0 played 3D, seat 1 (relative 3) played 6D
    d = enc.width
    rows = v[: enc.card_rows * d].reshape(enc.card_rows, d)
    assert rows[0].nonzero()[0].tolist() == [to_mask("8D").bit_length() - 1, to_mask("9D").bit_length() - 1]
    unseen = {i for i in rows[1].nonzero()[0]}
    assert len(unseen) == 52 - 2 - 2  # neither in the hand nor played
    assert rows[2 + 2].nonzero()[0].tolist() == [to_mask("3D").bit_length() - 1]  # relative seat 2 = seat 0
    assert rows[2 + 3].nonzero()[0].tolist() == [to_mask("6D").bit_length() - 1]  # relative seat 3 = seat 1
    assert rows[2 + 4].nonzero()[0].tolist() == [to_mask("6D").bit_length() - 1]  # the play to beat
    assert rows[2 + 4 + 1].nonzero()[0].tolist() == [to_mask("6D").bit_length() - 1]  # most recent action


def test_action_vector_marks_split_combinations():
    rules = load_rules("classic")
    enc = ActionEncoder(rules, 4)
    hand = to_mask("3D 3C 3H 5S 7D 7C")
    plays = [rules.engine.classify(to_mask(c)) for c in ("3D", "7D 7C", "5S")]
    rows = enc.encode(hand, plays)
    x = 2 * enc.width + len(enc.kinds)
    assert rows[0, x + 3] == 1 and rows[0, x + 5] == 0.25  # a 3 out of three 3s: splits a triple
    assert rows[1, x + 2 : x + 6].tolist() == [0, 0, 0, 0]  # the whole pair of 7s
    assert rows[2, x + 2 : x + 6].tolist() == [0, 0, 0, 0]  # a lone card
    after = rows[0, enc.width : 2 * enc.width]
    assert CardSet.from_mask(sum(1 << int(i) for i in after.nonzero()[0])) == CardSet.from_mask(hand & ~to_mask("3D"))


def test_folded_counts():
    a = to_mask("3D") | to_mask("3D") << 54  # both copies
    assert fold(a) == to_mask("3D") | to_mask("3D") << 54
    assert fold(to_mask("3D") << 54) == to_mask("3D")  # either copy alone folds to the first
    assert add_folded(fold(to_mask("3D")), fold(to_mask("3D"))) == a
    assert sub_folded(a, to_mask("3D")) == to_mask("3D")
    assert sub_folded(to_mask("3D 4D"), to_mask("3D")) == to_mask("4D")


# --- the batched multi-seat environment --------------------------------------------------------------------
def test_batched_env_exposes_every_seat_and_replays_the_game():
    env = BatchedEnv("classic", 4, num_envs=3, seed=5, history=4, skip_forced=False)
    d, finished = env.reset()
    seats, rng, ended = set(), random.Random(0), []
    mirror = [Game("classic", players=4, seed=(5 * 1_000_003 + i) * 1_000_003) for i in range(3)]
    while len(ended) < 3:
        assert d.state.shape == (len(d), env.state_encoder.size)
        assert d.actions.shape == (d.offsets[-1], env.action_encoder.size)
        choices = [rng.randrange(len(p)) for p in d.plays]
        for j, i in enumerate(d.env):
            g = mirror[i]
            if g is None:
                continue
            assert d.seat[j] == g.to_move and d.plays[j] == g.legal_plays()
            g.play(d.plays[j][choices[j]])
            seats.add(d.seat[j])
        d, finished = env.step(d, choices)
        for f in finished:
            g = mirror[f.env]
            if g is not None:
                assert g.is_over and f.result.cards_left == g.result.cards_left
                assert sum(f.points) == 0
                ended.append(f.env)
                mirror[f.env] = None
    assert seats == {0, 1, 2, 3}


def test_batched_env_bots_move_inside_and_forced_moves_are_not_exposed():
    bots = [[None, make("greedy"), make("greedy"), make("greedy")] for _ in range(2)]
    env = BatchedEnv("classic", 4, num_envs=2, seed=1, bots=bots)
    d, _ = env.reset()
    for _ in range(40):
        assert set(d.seat) <= {0}
        assert all(len(p) > 1 for p in d.plays)
        d, _ = env.step(d, [0] * len(d))
    with pytest.raises(ValueError, match="legal actions"):
        env.step(d, [99] * len(d))


def test_batched_env_refuses_a_table_of_bots():
    with pytest.raises(ValueError, match="at least one seat"):
        BatchedEnv("classic", 4, num_envs=1, bots=[[make("greedy")] * 4])


# --- the numpy bot -------------------------------------------------------------------------------------------
def test_q_policy_round_trips_through_a_file(tmp_path):
    rules = load_rules("classic")
    p = random_policy(rules, 4)
    path = p.save(tmp_path / "w.npz", dtype="float32")
    q = QPolicy.load(path)
    s = np.random.default_rng(1).random(p.state_size).astype(np.float32)
    a = np.random.default_rng(2).random((5, p.action_size)).astype(np.float32)
    assert np.allclose(p.q_values(s, a), q.q_values(s, a))
    offsets = np.array([0, 2, 5])
    both = q.q_batch(np.stack([s, s]), a, offsets)
    assert np.allclose(both, q.q_values(s, a), atol=1e-5)


@pytest.mark.parametrize("name", [*PRESETS, "two-decks", "wild-jokers", "two-player-draw"])
def test_learned_bot_with_given_weights_plays_legal_games(name, tmp_path):
    rules = ruleset(name)
    path = random_policy(rules, rules.players, seed=3).save(tmp_path / "w.npz")
    bots = [make("learned", weights=str(path)) for _ in range(rules.players)]
    for seed in range(2):
        g = Game(rules, seed=seed)
        while not g.is_over:
            g.play(bots[g.to_move].choose(rules, g.observe(g.to_move)))  # an illegal play raises


def test_a_weights_file_is_read_once_until_it_changes(tmp_path):
    rules = load_rules("classic")
    path = random_policy(rules, 4, seed=3).save(tmp_path / "w.npz")
    first, second = make("learned", weights=str(path)), make("learned", weights=str(tmp_path / "." / "w.npz"))
    assert first._custom is second._custom  # a bot a seat a game: one read of the file
    g = Game(rules, seed=5)
    before = first.choose(rules, g.observe(g.to_move))
    random_policy(rules, 4, seed=4).save(path)  # other weights, same size: the time tells them apart
    stat = path.stat()
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000_000))
    third = make("learned", weights=str(path))
    assert third._custom is not first._custom
    assert np.array_equal(third._custom.layers()[0][0], QPolicy.load(path).layers()[0][0])
    assert first.choose(rules, g.observe(g.to_move)) == before  # a bot keeps the weights it was built with


def test_learned_bot_refuses_weights_for_another_table(tmp_path):
    path = random_policy(load_rules("classic"), 4).save(tmp_path / "w.npz")
    g = Game("indonesia", seed=1)  # another straight table: no renaming of suits makes it classic
    with pytest.raises(BigTwoError, match="trained for 'classic' with 4 players"):
        make("learned", weights=str(path)).choose(g.rules, g.observe(g.to_move))


@pytest.mark.parametrize("players", [4, 3])
@pytest.mark.parametrize(
    ("preset", "renamed"),
    [
        ("taiwan", (1, 0, 2, 3)),  # C<D<H<S, the 3C leads: diamonds play as clubs, clubs as diamonds
        ("pusoy-dos", (3, 0, 2, 1)),  # C<S<H<D, the 3C leads, cards left paid by face value
    ],
)
def test_a_network_plays_its_rules_with_the_suits_renamed_exactly_as_its_own(preset, renamed, players):
    """Taiwan's rounds are classic's (D<C<H<S, the 3D leads) with clubs and diamonds renamed, Pusoy Dos's too
    with every suit renamed (what a round is worth differs): the classic network plays them, and values every
    position and action exactly as it values the renamed position in classic, whole games long, through the
    table's path (the seat's observation) and the search's (a Game)."""
    taiwan, classic = load_rules(preset), load_rules("classic")
    relabel = taiwan.suit_relabeling(classic, scoring=False)
    assert relabel == renamed
    assert policy_for(taiwan, players) is policy_for(classic, players)
    here, there = scorer_for(taiwan, players), scorer_for(classic, players)
    assert here is not None and there is not None and here.suits == relabel and there.suits == (0, 1, 2, 3)
    for seed in range(2):
        gt = Game(taiwan, players=players, seed=seed)
        gc = Game(classic, players=players, hands=[renamed_cards(gt.hand(s).mask, relabel) for s in range(players)])
        assert gc.to_move == gt.to_move  # the 3C's holder leads there, the 3D's (the same cards renamed) here
        while not gt.is_over:
            legal = gt.legal_plays()
            twins = {p.mask: p for p in gc.legal_plays()}
            assert set(twins) == {renamed_cards(p.mask, relabel) for p in legal}
            mirrored = [twins[renamed_cards(p.mask, relabel)] for p in legal]
            q = here.q(gt, legal)
            assert np.array_equal(q, there.q(gc, mirrored))
            obs_t, obs_c = gt.observe(gt.to_move), gc.observe(gc.to_move)
            assert np.array_equal(here.q_observed(taiwan, obs_t, legal), there.q_observed(classic, obs_c, mirrored))
            i = int(np.argmax(q))
            gt.apply(legal[i])
            gc.apply(mirrored[i])
        assert gc.result.cards_left == gt.result.cards_left  # the same game, to its end


def test_rules_are_the_same_game_under_renamed_suits_only_where_every_rule_agrees():
    classic = load_rules("classic")
    assert classic.suit_relabeling(classic) == (0, 1, 2, 3)
    assert classic.replace(suit_order="CDHS").suit_relabeling(classic) is None  # the 3D would not lead there
    assert classic.replace(suit_order="CDHS", lead_card="3C").suit_relabeling(classic) == (1, 0, 2, 3)
    # a rule naming diamonds holds only where diamonds keep their name
    diamonds = classic.replace(leftover="lowest-diamond-holder")
    assert diamonds.replace(suit_order="CDHS", lead_card="3C").suit_relabeling(diamonds) is None
    assert diamonds.replace(suit_order="DCSH", lead_card="3D").suit_relabeling(diamonds) == (0, 1, 3, 2)
    assert load_rules("pusoy-dos").suit_relabeling(classic) is None  # its cards left are paid by face value
    assert load_rules("pusoy-dos").suit_relabeling(classic, scoring=False) == (3, 0, 2, 1)  # its rounds are played so
    assert classic.replace(teams=True).suit_relabeling(classic, scoring=False) is None  # partners play otherwise
    assert classic.replace(suit_order="none").suit_relabeling(classic) is None


def test_a_network_knows_its_rules_by_their_settings_not_their_name(tmp_path):
    """A network trained on classic plays a renamed copy of classic, and refuses classic with a setting changed
    under the same name (its inputs would mean other things), naming the setting."""
    classic = load_rules("classic")
    path = random_policy(classic, 4).save(tmp_path / "w.npz")
    renamed = classic.replace(name="our-rules", description="classic as we play it")
    changed = classic.replace(suit_order="CDHS")
    assert trained_elsewhere(QPolicy.load(path).meta, renamed, 4) is None
    for rules in (renamed, changed):
        g = Game(rules, seed=2)
        bot = make("learned", weights=str(path))
        if rules is renamed:
            assert bot.choose(rules, g.observe(g.to_move)) in g.legal_plays()
            continue
        with pytest.raises(
            BigTwoError,
            match=r"trained for 'classic' with 4 players under other settings \(these "
            r"differ: suit_order\)",
        ):
            bot.choose(rules, g.observe(g.to_move))
        assert g.observe(g.to_move).to_json() == Game(rules, seed=2).observe(g.to_move).to_json()  # nothing moved


def test_a_renamed_preset_plays_with_the_shipped_network_and_a_changed_one_is_refused():
    """A house rules file that only renames classic plays classic: the shipped network is its own; classic with
    a setting changed under its own name has none, and the refusal names the setting."""
    classic = load_rules("classic")
    renamed = classic.replace(name="our-rules", description="classic as we play it")
    assert renamed.settings_presets() == ("classic", "hong-kong", "singapore")  # three presets share them
    assert classic.replace(suit_order="CDHS").settings_presets() == ()
    assert policy_for(renamed, 4) is policy_for(classic, 4) is policy_for(load_rules("hong-kong"), 4)
    g = Game(renamed, seed=4)
    assert make("learned").choose(renamed, g.observe(g.to_move)) in g.legal_plays()
    with pytest.raises(BigTwoError, match=r"'classic' were trained on the preset's own rules.*\(suit_order\)"):
        policy_for(classic.replace(suit_order="CDHS"), 4)
    with pytest.raises(BigTwoError, match=r"no weights for 'our-rules' with 2 players"):
        policy_for(renamed, 2)


def test_weights_from_before_their_settings_were_recorded_are_their_presets():
    """Older weights name their rules only: where that name is a preset's, its settings are theirs."""
    classic = load_rules("classic")
    meta = dict(random_policy(classic, 4).meta)
    del meta["rules_settings"]
    assert trained_elsewhere(meta, classic, 4) is None
    assert "under other settings (these differ: suit_order)" in trained_elsewhere(
        meta, classic.replace(suit_order="CDHS"), 4
    )
    assert trained_elsewhere(meta, classic.replace(name="our-rules"), 4) == (
        "trained for 'classic' with 4 players, not 'our-rules' with 4"
    )
    assert trained_elsewhere(meta, classic, 3) == "trained for 'classic' with 4 players, not 'classic' with 3"
    assert trained_elsewhere(dict(meta, rules="house"), classic.replace(name="house"), 4) is None  # known by name


def test_a_file_that_is_not_a_network_is_refused_in_words(tmp_path):
    np.savez(tmp_path / "arrays.npz", meta=np.frombuffer(b'{"format": 1, "layers": 2, "state_size": 3}', np.uint8))
    with pytest.raises(BigTwoError, match=r"arrays\.npz: not a network the learned bot reads \(w0 is not a file"):
        QPolicy.load(tmp_path / "arrays.npz")
    np.savez(tmp_path / "bare.npz", w0=np.zeros((2, 2)))
    with pytest.raises(BigTwoError, match=r"bare\.npz: not a network the learned bot reads \(meta is not a file"):
        QPolicy.load(tmp_path / "bare.npz")
    with pytest.raises(BigTwoError, match=r"its description has no 'state_size'"):
        np.savez(
            tmp_path / "short.npz",
            meta=np.frombuffer(b'{"format": 1, "layers": 1}', np.uint8),
            w0=np.zeros((2, 1)),
            b0=np.zeros(1),
        )
        QPolicy.load(tmp_path / "short.npz")


def test_learned_bot_names_the_tables_it_has_weights_for():
    covered = shipped_weights()
    uncovered = next(p for p in ("indonesia", "winner", "tien-len") if (p, 4) not in covered)
    g = Game(uncovered, seed=1)
    with pytest.raises(BigTwoError, match=f"no weights for '{uncovered}' with 4 players; it has weights for") as e:
        make("learned").choose(g.rules, g.observe(g.to_move))
    for preset, players in covered:
        assert f"{preset} with {players} players" in str(e.value)
    house = load_rules("classic").replace(suit_order="CDHS")
    if ("classic", 4) in covered:
        g = Game(house, seed=1)
        with pytest.raises(BigTwoError, match="rules differ"):
            make("learned").choose(house, g.observe(g.to_move))


SHIPPED = sorted(shipped_weights())


@pytest.mark.parametrize("preset,players", SHIPPED)
def test_shipped_weights_play_whole_games_legally(preset, players):
    rules = load_rules(preset)
    bots = [make("learned") for _ in range(players)]
    for seed in range(3):
        g = Game(rules, players=players, seed=seed)
        while not g.is_over:
            g.play(bots[g.to_move].choose(rules, g.observe(g.to_move)))


@pytest.mark.parametrize("name,players,seed,actions", [c for c in HIDDEN_CASES if c[0] == "classic"])
def test_learned_choice_does_not_depend_on_hidden_cards(name, players, seed, actions):
    """Swapping the unseen cards between opponents (same hand sizes) never changes the learned bot's choice."""
    if (name, players) not in shipped_weights():
        pytest.skip(f"no shipped weights for {name} with {players} players")
    rules = ruleset(name)
    rng = random.Random(seed)
    for k in range(6):
        g = midgame(rules, seed + 100 * k, actions + k, players)
        if g.is_over:
            continue
        seat = g.to_move
        twin = scrambled(g, seat, rng)
        obs, obs2 = g.observe(seat), twin.observe(seat)
        assert obs.to_json() == obs2.to_json()
        assert make("learned").choose(rules, obs) == make("learned").choose(rules, obs2)
        # and the fast path the trainer uses reads the same from both games
        assert info_from_game(g, seat, 8) == info_from_game(twin, seat, 8)


def test_batched_env_plays_heuristic_seats_as_the_bot_would():
    def run(fast):
        bots = [[None if s == i % 4 else make("heuristic") for s in range(4)] for i in range(4)]
        env = BatchedEnv("classic", 4, num_envs=4, seed=9, bots=bots, fast_bots=fast)
        d, done = env.reset()
        rng = random.Random(1)
        while len(done) < 12:
            d, finished = env.step(d, [rng.randrange(len(p)) for p in d.plays])
            done += finished
        return [(f.env, f.episode, [(s, p.mask) for s, p in f.game.history]) for f in done[:12]]

    assert run(True) == run(False)


def test_batched_env_plays_learned_seats_as_the_bot_would():
    """The learned bots' seats, scored together in one batch a network (two networks here: the shipped one and
    a file's), play the moves each bot plays from its own observation."""
    import shutil
    from importlib import resources

    from bigtwo.bots.learned import shipped_weights

    weights = resources.files("bigtwo.bots") / "weights" / shipped_weights()[("classic", 4)]
    with resources.as_file(weights) as path, tempfile.TemporaryDirectory() as tmp:
        copy = shutil.copy(path, Path(tmp) / "copy.npz")

        def run(fast):
            def bot(i, s):
                return [make("learned"), make("learned", weights=copy), make("heuristic")][(i + s) % 3]

            bots = [[None if s == i % 4 else bot(i, s) for s in range(4)] for i in range(6)]
            env = BatchedEnv("classic", 4, num_envs=6, seed=9, bots=bots, fast_bots=fast)
            d, done = env.reset()
            while min(env.episodes) < 3:  # the exposed seats play their first legal action
                d, finished = env.step(d, [0] * len(d.plays))
                done += finished
            return {(f.env, f.episode): [(s, p.mask) for s, p in f.game.history] for f in done if f.episode < 3}

        assert run(True) == run(False)


def test_learned_bot_answers_exchanges_with_the_base_default():
    from bigtwo.match import Match

    rules = load_rules("classic").replace(exchange="big-two-president")
    m = Match(rules, players=4, seed=5, rounds=2)
    learned, heuristic = make("learned"), make("heuristic")
    decisions = 0
    while not m.is_over:
        obs = m.observe(m.to_move)
        if obs.phase == "exchange":
            choice = learned.choose(rules, obs)
            assert m.exchange.why_not(choice) is None
            decisions += 1
        else:
            choice = heuristic.choose(rules, obs)
        m.apply(choice)
    assert decisions


def test_weights_that_are_not_a_network_file_are_refused_in_words(tmp_path):
    """No file, a folder, a single array saved as .npz, or text: one sentence naming the path (not numpy's
    advice about pickles, a TypeError or Python's [Errno 2])."""
    np.save(tmp_path / "one.npy", np.zeros(3))
    (tmp_path / "one.npy").rename(tmp_path / "one.npz")
    (tmp_path / "text.npz").write_text("hello")
    cases = {
        tmp_path / "none.npz": "no such file",
        tmp_path: "a folder",
        tmp_path / "one.npz": "not a weights file of the learned bot",
        tmp_path / "text.npz": "not a weights file of the learned bot",
    }
    for path, said in cases.items():
        with pytest.raises(BigTwoError) as e:
            make("learned", weights=str(path))
        assert str(e.value) == f"weights {path}: {said}" or str(e.value).startswith(f"weights {path}: {said} ("), e
        with pytest.raises(BigTwoError, match=said):
            QPolicy.load(path)


def test_weights_and_decisions_are_opened_by_one_reader_each_in_its_own_words(tmp_path, monkeypatch):
    """``QPolicy.load`` and ``read_decisions`` open their archives through :mod:`bigtwo.bots.npzfile`: a readable
    binary file is read as it is (not checked as a path), and a file the system will not let be read is said so
    by the decisions reader and as not weights by the learned bot's."""
    import io

    from bigtwo.arena.decisions import read_decisions

    with pytest.raises(BigTwoError, match=r"^weights <_io\.BytesIO .*: not a weights file of the learned bot \("):
        QPolicy.load(io.BytesIO(b"hello"))
    path = tmp_path / "locked.npz"
    np.savez_compressed(path, x=np.zeros(3))

    def refused(*args, **kwargs):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(np, "load", refused)
    with pytest.raises(BigTwoError, match=f"^{re.escape(str(path))}: cannot be read: Permission denied$"):
        read_decisions(path)
    with pytest.raises(BigTwoError) as e:
        QPolicy.load(path)
    assert str(e.value).startswith(f"weights {path}: not a weights file of the learned bot ("), e.value


def test_a_cut_off_archive_is_refused_in_words_by_both_readers(tmp_path):
    """A weights or decisions file cut off in a copy (half its bytes) is refused naming it, not with zipfile's
    ``BadZipFile``."""
    from bigtwo.arena.decisions import read_decisions

    cut = tmp_path / "cut.npz"
    whole = (resources.files("bigtwo.bots") / "weights" / "classic-4p.npz").read_bytes()
    cut.write_bytes(whole[: len(whole) // 2])
    with pytest.raises(BigTwoError, match=f"^weights {re.escape(str(cut))}: not a weights file of the learned bot"):
        QPolicy.load(cut)
    with pytest.raises(BigTwoError, match=f"^{re.escape(str(cut))}: not a decisions file: "):
        read_decisions(cut)
