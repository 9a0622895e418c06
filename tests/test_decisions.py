"""Imitation data, `bigtwo simulate --record-decisions` (issue 15, part 5): a file that round-trips and agrees with
the games it came from, replayed on the engine."""

from __future__ import annotations

import numpy as np
import pytest
from typer.testing import CliRunner

from bigtwo import Game, load_rules
from bigtwo.arena import ArenaResult, run_arena
from bigtwo.arena.decisions import FORMAT, mask_of, read_decisions, write_decisions
from bigtwo.bots.features import StateEncoder, info_from_observation
from bigtwo.cli import app
from bigtwo.errors import BigTwoError
from bigtwo.utilities import round_utility

runner = CliRunner()


@pytest.fixture(scope="module")
def recorded(tmp_path_factory):
    folder = tmp_path_factory.mktemp("decisions")
    path, results = folder / "d.npz", folder / "r.json"
    res = runner.invoke(
        app,
        [
            "simulate",
            "--bots",
            "heuristic,greedy,random,learned",
            "--games",
            "8",
            "--seed",
            "3",
            "--workers",
            "1",
            "--utility",
            "cards",
            "-q",
            "--record-decisions",
            str(path),
            "-o",
            str(results),
        ],
    )
    assert res.exit_code == 0, res.output
    assert "decisions:" in res.output
    return read_decisions(path), ArenaResult.load(results)


def test_the_file_describes_itself(recorded):
    d, result = recorded
    assert d.meta["format"] == FORMAT and d.meta["rules"]["name"] == "classic" and d.meta["players"] == 4
    assert d.meta["lineup"] == ["heuristic", "greedy", "random", "learned"] and d.meta["utility"] == "cards"
    assert d.state.shape == (len(d), d.meta["state_size"]) and d.state.dtype == np.float16
    assert d.legal_features.shape[1] == d.meta["action_size"]
    assert d.games == result.games == 8
    assert len(d) == sum(r.actions for r in result.records)  # classic asks nothing but plays


def test_chosen_actions_are_legal_and_outcomes_match_the_games(recorded):
    d, result = recorded
    off = d.legal_offsets
    counts = np.diff(off)
    assert (d.chosen >= 0).all() and (d.chosen < counts).all()
    assert (d.outcome == d.game_points[d.game, d.seat]).all()
    rules = load_rules("classic")
    enc = StateEncoder(rules, 4, d.meta["history"])
    for g, rec in enumerate(result.records):
        assert (d.game_deal[g], d.game_rotation[g], d.game_deal_seed[g]) == (rec.deal, rec.rotation, rec.deal_seed)
        assert list(d.game_entries[g]) == rec.entries and list(d.game_points[g]) == rec.points
        assert list(d.game_cards_left[g]) == rec.cards_left and list(d.game_finishing[g]) == rec.finishing_order
        # replay the deal on the engine, one recorded decision at a time
        game = Game(rules, players=4, seed=int(d.game_deal_seed[g]))
        assert [mask_of(w) for w in d.game_dealt[g]] == [game.hand(s).mask for s in range(4)]
        rows = np.flatnonzero(d.game == g)
        assert list(d.step[rows]) == list(range(len(rows)))
        for i in rows:
            seat = game.to_move
            assert d.seat[i] == seat
            obs = game.observe(seat)
            legal = [mask_of(w) for w in d.legal_cards[d.legal_rows(i)]]
            assert legal == [p.mask for p in game.legal_plays()]  # every legal action, in the engine's order
            assert mask_of(d.hand[i]) == obs.hand and list(d.hand_sizes[i]) == list(obs.hand_sizes)
            assert mask_of(d.trick[i]) == (obs.trick.mask if obs.trick is not None else 0)
            expected = enc.encode(info_from_observation(rules, obs, enc.k)).astype(np.float16)
            assert (d.state[i] == expected).all()
            played = legal[d.chosen[i]]
            assert d.action_seat[d.game_actions[g] + d.step[i]] == seat
            assert mask_of(d.action_cards[d.game_actions[g] + d.step[i]]) == played
            assert mask_of(d.legal_cards[d.chosen_rows()[i]]) == played
            game.play(next(p for p in game.legal_plays() if p.mask == played))
        assert game.is_over
        assert round_utility(game.result, "cards") == list(d.game_points[g])
        assert d.actions_of(g) == [(s, p.mask) for s, p in game.history]


def test_decisions_are_refused_before_playing_and_read_with_checks(tmp_path, monkeypatch):
    import bigtwo.cli.simulate as sim

    monkeypatch.setattr(sim, "run_arena", lambda *a, **k: (_ for _ in ()).throw(AssertionError("played")))
    base = ["simulate", "--bots", "greedy", "--games", "4", "--workers", "1", "-q"]
    res = runner.invoke(app, [*base, "--record-decisions", str(tmp_path / "d.txt")], env={"COLUMNS": "300"})
    assert res.exit_code == 2 and "decisions are written as compressed numpy, a .npz file" in res.output
    res = runner.invoke(app, [*base, "--record-decisions", str(tmp_path / "nowhere" / "d.npz")], env={"COLUMNS": "300"})
    assert res.exit_code == 2 and "there is no folder" in res.output
    junk = tmp_path / "junk.npz"
    np.savez_compressed(junk, x=np.zeros(3))
    with pytest.raises(BigTwoError, match="not a decisions file"):
        read_decisions(junk)
    with pytest.raises(BigTwoError, match="recorded no decisions"):
        write_decisions(tmp_path / "e.npz", run_arena("classic", "greedy,greedy,greedy,greedy", 4, workers=1))


def test_local_processes_record_the_same_decisions():
    one = run_arena("classic", "heuristic,greedy,greedy,random", 8, seed=2, workers=1, record_decisions=True)
    two = run_arena("classic", "heuristic,greedy,greedy,random", 8, seed=2, workers=2, chunk=1, record_decisions=True)
    assert len(one.decisions) == len(two.decisions) == 8
    for a, b in zip(one.decisions, two.decisions, strict=True):
        assert a.keys() == b.keys() and all((a[k] == b[k]).all() for k in a)
