"""Behaviour cloning (issue 15): a network fitted to a bot's recorded decisions plays as that bot plays.

Needs torch (the ``[rl]`` extra); skipped without it. The decisions are a few dozen games of the heuristic.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from typer.testing import CliRunner  # noqa: E402

from bigtwo import Game, load_rules  # noqa: E402
from bigtwo.arena import run_arena  # noqa: E402
from bigtwo.arena.decisions import mask_of, read_decisions, write_decisions  # noqa: E402
from bigtwo.bots import make  # noqa: E402
from bigtwo.bots.learned import GameScorer, QPolicy  # noqa: E402
from bigtwo.cli.app import app  # noqa: E402
from bigtwo.errors import BigTwoError  # noqa: E402
from bigtwo.lab.imitate import DecisionSet, ImitationConfig, imitate  # noqa: E402

pytestmark = pytest.mark.usefixtures("torch_one_thread")


def record(path, lineup, games, seed, players=4):
    result = run_arena("classic", lineup, games, seed=seed, utility="cards", workers=1, duplicate=False,
                       record_decisions=True)  # fmt: skip
    assert len(result.config["lineup"]) == players
    return write_decisions(path, result)


@pytest.fixture(scope="module")
def heuristic_decisions(tmp_path_factory):
    d = tmp_path_factory.mktemp("decisions")
    return record(d / "heuristic.npz", ["heuristic"] * 4, 60, seed=5)


def small(**changes):
    return ImitationConfig(**{**dict(epochs=4, hidden=(64, 64), lr=3e-3, holdout=0.25, seed=2), **changes})


def test_the_fit_learns_to_predict_the_bot(heuristic_decisions, tmp_path):
    result = imitate([heuristic_decisions], tmp_path, small())
    start, kept = result.epochs[0], result.epochs[result.kept]
    assert result.kept > 0
    # a fresh network predicts about as well as a uniform choice; the fit does much better on games it never saw
    assert start.log_probability < result.uniform_log_probability + 0.3
    assert kept.log_probability > start.log_probability + 0.2
    assert kept.agreement > start.agreement + 0.1
    report = json.loads((tmp_path / "report.json").read_text())
    assert report["kept"] == result.kept and report["lineup"] == ["heuristic"]
    policy = QPolicy.load(tmp_path / "policy.npz")
    assert policy.meta["target"] == "policy" and policy.meta["imitates"] == ["heuristic"]
    assert policy.meta["agreement"] == pytest.approx(kept.agreement)


def test_the_kept_figures_are_the_saved_networks_own(heuristic_decisions, tmp_path):
    """Measured again from the file, in numpy: the held-out agreement the report gives the kept epoch."""
    cfg = small()
    result = imitate([heuristic_decisions], tmp_path, cfg)
    policy = QPolicy.load(tmp_path / "policy.npz")
    data = DecisionSet([read_decisions(heuristic_decisions)], ["h"])
    held_games = np.random.default_rng(cfg.seed).random(data.games) < cfg.holdout
    agree = total = 0
    for i in range(len(data)):
        rows = slice(int(data.offsets[i]), int(data.offsets[i + 1]))
        if not held_games[data.game[i]] or rows.stop - rows.start < 2:
            continue
        q = policy.q_values(data.state[i], data.actions[rows])
        agree += int(np.argmax(q)) == data.chosen[i]
        total += 1
    assert total == result.held_out
    assert agree / total == pytest.approx(result.epochs[result.kept].agreement, abs=0.02)  # float16 weights


def test_the_same_seed_fits_the_same_network(heuristic_decisions, tmp_path):
    a = imitate([heuristic_decisions], tmp_path / "a", small(epochs=2))
    b = imitate([heuristic_decisions], tmp_path / "b", small(epochs=2))
    assert [e.log_probability for e in a.epochs] == [e.log_probability for e in b.epochs]
    assert (tmp_path / "a" / "policy.npz").read_bytes() == (tmp_path / "b" / "policy.npz").read_bytes()


def test_the_fitted_network_plays_and_is_not_a_value(heuristic_decisions, tmp_path):
    imitate([heuristic_decisions], tmp_path, small(epochs=1))
    path = tmp_path / "policy.npz"
    rules = load_rules("classic")
    bots = [make("learned", weights=str(path)) for _ in range(4)]
    g = Game(rules, seed=11)
    while not g.is_over:
        play = bots[g.to_move].choose(rules, g.observe(g.to_move))
        assert play in g.legal_plays()
        g.play(play)
    scorer = GameScorer(QPolicy.load(path), rules, 4, str(path))
    g = Game(rules, seed=12)
    assert scorer.act(g) in g.legal_plays()
    with pytest.raises(BigTwoError, match=r"policy\.npz were fitted to a bot's choices: they rank actions"):
        scorer.value(g)


def test_a_fitted_network_can_choose_as_the_bot_would(heuristic_decisions, tmp_path):
    """``learned(sample=True)`` draws each action with the fitted probabilities: legal, reproducible for a seed,
    and not always the most likely action; without a fitted network's temperature it is refused in words."""
    imitate([heuristic_decisions], tmp_path, small(epochs=1))
    path = str(tmp_path / "policy.npz")
    rules = load_rules("classic")

    def game(seed):
        bots = [make("learned", weights=path, sample=True, seed=seed + s) for s in range(4)]
        g = Game(rules, seed=21)
        unlikely = 0
        while not g.is_over:
            obs = g.observe(g.to_move)
            play = bots[g.to_move].choose(rules, obs)
            assert play in g.legal_plays()
            unlikely += play != make("learned", weights=path).choose(rules, obs)
            g.play(play)
        return [str(p) for _s, p in g.history], unlikely

    a, unlikely = game(1)
    assert game(1)[0] == a and unlikely > 0
    assert any(game(seed)[0] != a for seed in (2, 3, 4))
    with pytest.raises(BigTwoError, match=r"sample=True draws an action .* give its weights file"):
        make("learned", sample=True)


def test_a_start_network_is_fine_tuned(heuristic_decisions, tmp_path):
    from bigtwo.rl.dmc import TrainConfig, Trainer

    t = Trainer(TrainConfig(num_envs=4, hidden=(64, 64), history=8, eval_every=0, seed=1), tmp_path / "run")
    start = t.policy().save(tmp_path / "start.npz")
    result = imitate([heuristic_decisions], tmp_path / "fit", small(epochs=1, init_from=str(start)))
    fresh = imitate([heuristic_decisions], tmp_path / "fresh", small(epochs=1))
    assert result.epochs[0].log_probability != fresh.epochs[0].log_probability
    with pytest.raises(
        BigTwoError,
        match=r"start\.npz: a network with hidden layers 64,64, where this run.s are 32 \(--hidden\)",
    ):
        imitate([heuristic_decisions], tmp_path / "bad", small(hidden=(32,), init_from=str(start)))


@pytest.fixture(scope="module")
def search_decisions(tmp_path_factory):
    d = tmp_path_factory.mktemp("search")
    return record(d / "search.npz", ["search(iterations=2, utility='cards')"] * 4, 24, seed=6)


def test_a_fit_among_the_searchs_candidates_chooses_among_them(search_decisions, tmp_path):
    """With ``candidates=4`` every recorded game is replayed, the chosen actions are all among the heuristic's
    best four and the pass, and the fitted network plays only among those (or the heuristic's best when it goes
    out), from the observation as in the batched environment."""
    from bigtwo.bots.heuristic import policy_for, search_candidates
    from bigtwo.bots.view import played_in, view_from_game
    from bigtwo.envs.batched import BatchedEnv

    result = imitate([search_decisions], tmp_path, small(candidates=4, epochs=2))
    assert result.heuristic_agreement is not None and 0.3 < result.heuristic_agreement <= 1.0
    everything = imitate([search_decisions], tmp_path / "all", small(epochs=1))
    assert result.uniform_log_probability > everything.uniform_log_probability  # fewer actions to choose among
    path = str(tmp_path / "policy.npz")
    assert QPolicy.load(path).meta["candidates"] == 4
    rules = load_rules("classic")
    bot = make("learned", weights=path)
    g = Game(rules, seed=3)
    narrowed = 0
    while not g.is_over:
        cands = search_candidates(policy_for(g.ev).scores(view_from_game(g, played_in(g))), 4)
        play = bot.choose(rules, g.observe(g.to_move))
        assert play in cands if len(g.legal_plays()) > 1 else play == g.legal_plays()[0]
        narrowed += len(cands) < len(g.legal_plays())
        g.play(play)
    assert narrowed

    def run(fast):
        bots = [[None if s == i % 4 else make("learned", weights=path) for s in range(4)] for i in range(3)]
        env = BatchedEnv("classic", 4, num_envs=3, seed=4, bots=bots, fast_bots=fast)
        d, done = env.reset()
        while min(env.episodes) < 2:
            d, finished = env.step(d, [0] * len(d.plays))
            done += finished
        return {(f.env, f.episode): [(s, p.mask) for s, p in f.game.history] for f in done if f.episode < 2}

    assert run(True) == run(False)


def test_a_record_that_does_not_replay_is_refused(search_decisions, tmp_path):
    data = read_decisions(search_decisions)
    arrays = dict(data.arrays)
    chosen = arrays["chosen"].copy()
    off = arrays["legal_offsets"]
    # a decision whose chosen action is the last legal one, pointed at one outside the candidates
    rules = load_rules("classic")
    from bigtwo.lab.imitate import search_candidate_rows

    allowed, _first = search_candidate_rows(data, rules, 4)
    i = next(i for i in range(len(chosen)) if not allowed[off[i] : off[i + 1]].all())
    chosen[i] = int(np.flatnonzero(~allowed[off[i] : off[i + 1]])[0])
    arrays["chosen"] = chosen
    bad = type(data)(data.meta, arrays)
    with pytest.raises(BigTwoError, match=rf"decision {i} chose an action outside the heuristic's best 4"):
        search_candidate_rows(bad, rules, 4, "bad.npz")
    arrays = dict(data.arrays)
    cards = arrays["action_cards"].copy()
    cards[[0, 1]] = cards[[1, 0]]  # the first two actions swapped: the game no longer replays
    arrays["action_cards"] = cards
    with pytest.raises(BigTwoError, match=r"bad\.npz: game 0's action 1 does not replay"):
        search_candidate_rows(type(data)(data.meta, arrays), rules, 4, "bad.npz")


def test_bad_inputs_are_refused_in_words(heuristic_decisions, tmp_path):
    three = record(tmp_path / "three.npz", ["heuristic"] * 3, 6, seed=1, players=3)
    with pytest.raises(BigTwoError, match=r"three\.npz: recorded for another table than .*heuristic\.npz \(players"):
        imitate([heuristic_decisions, three], tmp_path / "x", small())
    with pytest.raises(BigTwoError, match=r"holdout=1\.5: the share of games held out"):
        imitate([heuristic_decisions], tmp_path / "x", small(holdout=1.5))
    with pytest.raises(BigTwoError, match=r"candidates=-1: the heuristic's best moves"):
        imitate([heuristic_decisions], tmp_path / "x", small(candidates=-1))
    with pytest.raises(BigTwoError, match=r"no decisions file at .*missing\.npz$"):
        imitate([tmp_path / "missing.npz"], tmp_path / "x", small())
    r = CliRunner().invoke(
        app, ["lab", "imitate", str(heuristic_decisions), "--out", str(tmp_path / "y"), "--epochs", "0"]
    )
    assert r.exit_code == 2 and "epochs=0" in r.output


def test_cli_imitate_reports_each_epoch(heuristic_decisions, tmp_path):
    r = CliRunner().invoke(
        app, ["lab", "imitate", str(heuristic_decisions), "--out", str(tmp_path), "--epochs", "2", "--hidden", "32"]
    )
    assert r.exit_code == 0, r.output
    assert "epoch 0: held out: agrees" in r.output and "epoch 2: loss" in r.output
    assert (tmp_path / "policy.npz").exists() and (tmp_path / "report.json").exists()


def test_at_two_decks_either_copy_of_a_candidate_is_among_the_searchs_moves(tmp_path):
    """With two decks a card's two copies make one play: the rows mark both copies of a candidate alike, and a
    record whose search chose the other copy (as the search of before its candidates folded the copies did)
    replays as among its moves."""
    from bigtwo.cards import fold_copies
    from bigtwo.lab.imitate import search_candidate_rows
    from tests.rulesets import rules_named

    rules = rules_named("two-decks").replace(players=4)
    result = run_arena(rules, ["search(iterations=1, utility='cards')"] * 4, 2, seed=3, utility="cards",
                       workers=1, duplicate=False, record_decisions=True)  # fmt: skip
    data = read_decisions(write_decisions(tmp_path / "two.npz", result))
    allowed, _first = search_candidate_rows(data, rules, 4)
    arrays = dict(data.arrays)
    off, cards, chosen = arrays["legal_offsets"], arrays["legal_cards"], arrays["chosen"].copy()
    swapped = 0
    for i in range(len(chosen)):
        folds = [fold_copies(mask_of(c)) for c in cards[off[i] : off[i + 1]]]
        marks = allowed[off[i] : off[i + 1]]
        assert all(marks[j] == marks[k] for j in range(len(folds)) for k in range(len(folds)) if folds[j] == folds[k])
        twin = next((j for j in range(len(folds)) if j != chosen[i] and folds[j] == folds[chosen[i]]), None)
        if twin is not None:
            chosen[i], swapped = twin, swapped + 1
    assert swapped
    arrays["chosen"] = chosen
    again, _ = search_candidate_rows(type(data)(data.meta, arrays), rules, 4, "other-copies.npz")
    assert (again == allowed).all()
