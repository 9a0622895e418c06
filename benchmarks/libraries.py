"""bigtwo beside the game libraries researchers already use: OpenSpiel and RLCard, on one core, in the same run.

Neither library plays Big Two; both play Dou Dizhu, the climbing game closest to it (three players, a 54-card
pack, bids, then plays that must beat the last one or pass). So the comparison is per decision, the unit an
agent, a search or a self-play trainer pays for, and each game's own decisions a game are printed beside it:

- random play: the legal actions of the seat to move, one chosen uniformly, applied (bigtwo: ``Game``, with the
  compiled core behind it where it is built, and beside it ``Game(..., native=False)``, the Python engine; or the
  match-level ``Match`` state; OpenSpiel: ``legal_actions`` + ``apply_action``, chance moves not counted);
- + observation: the same, plus the seat's observation as an agent's tensor every decision (bigtwo: the
  PettingZoo environment's ``last()`` vector and mask; OpenSpiel: ``observation_tensor``; RLCard's ``step``
  always encodes it);
- + clone: the same as random play, plus a copy of the whole state every decision (what a tree search pays).

OpenSpiel is C++ behind Python bindings, as bigtwo's compiled core is; RLCard is Python. Every figure is the best of
``--repeats`` runs, the runs of every subject interleaved so that load from other processes falls on all alike.

Run: pip install open_spiel rlcard; python benchmarks/libraries.py [--seconds 2] [--repeats 3]
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

import numpy as np

from bigtwo import Game, Match, load_rules
from bigtwo.envs import raw_env

Run = Callable[[float], tuple[int, int, float]]  # seconds -> (decisions, games, elapsed)


def timed(play_one: Callable[[int], int]) -> Run:
    """Play whole games with increasing seeds until ``seconds`` have passed; count decisions and games."""

    def run(seconds: float) -> tuple[int, int, float]:
        decisions = games = 0
        t0 = time.perf_counter()
        while time.perf_counter() - t0 < seconds:
            decisions += play_one(games)
            games += 1
        return decisions, games, time.perf_counter() - t0

    return run


def bigtwo_game(clone: bool, native: bool = True) -> Run:
    rules = load_rules("classic")
    rng = random.Random(0)

    def one(seed: int) -> int:
        g = Game(rules, seed=seed, native=native)
        n = 0
        while not g.is_over:
            if clone:
                g.clone()
            g.play(rng.choice(g.legal_plays()))
            n += 1
        return n

    return timed(one)


def bigtwo_match() -> Run:
    rules = load_rules("classic")
    rng = random.Random(0)

    def one(seed: int) -> int:
        m = Match(rules, seed=seed, rounds=1)
        n = 0
        while not m.is_over:
            m.apply(rng.choice(m.legal_actions()))
            n += 1
        return n

    return timed(one)


def bigtwo_env() -> Run:
    env = raw_env(load_rules("classic"))
    rng = np.random.default_rng(0)

    def one(seed: int) -> int:
        env.reset(seed=seed)
        n = 0
        for _agent in env.agent_iter():
            obs, _r, term, trunc, _i = env.last()
            if term or trunc:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"].view(bool))
            env.step(int(legal[rng.integers(len(legal))]))
            n += 1
        return n

    return timed(one)


def openspiel(name: str, observe: bool, clone: bool) -> Run:
    import pyspiel

    game = pyspiel.load_game(name)
    rng = random.Random(0)

    def one(_seed: int) -> int:
        s = game.new_initial_state()
        n = 0
        while not s.is_terminal():
            if s.is_chance_node():
                actions, probs = zip(*s.chance_outcomes(), strict=True)
                s.apply_action(rng.choices(actions, probs)[0])
                continue
            if observe:
                np.asarray(s.observation_tensor(s.current_player()))
            if clone:
                s.clone()
            s.apply_action(rng.choice(s.legal_actions()))
            n += 1
        return n

    return timed(one)


def rlcard_env(name: str) -> Run:
    import rlcard

    env = rlcard.make(name, config={"seed": 0})
    rng = random.Random(0)

    def one(_seed: int) -> int:
        state, _player = env.reset()
        n = 0
        while not env.is_over():
            state, _player = env.step(rng.choice(list(state["legal_actions"])))
            n += 1
        return n

    return timed(one)


def subjects() -> dict[str, tuple[str, Run]]:
    """Each subject: (what it measures, its runner); libraries not installed are left out with a word."""
    out: dict[str, tuple[str, Run]] = {
        "bigtwo Game (classic)": ("random play", bigtwo_game(clone=False)),
        "bigtwo Game, Python engine": ("random play", bigtwo_game(clone=False, native=False)),
        "bigtwo Match (classic)": ("random play", bigtwo_match()),
        "bigtwo env (classic)": ("+ observation", bigtwo_env()),
        "bigtwo Game + clone": ("+ clone", bigtwo_game(clone=True)),
    }
    try:
        import pyspiel  # noqa: F401

        out["OpenSpiel dou_dizhu"] = ("random play", openspiel("dou_dizhu", observe=False, clone=False))
        out["OpenSpiel dou_dizhu + tensor"] = ("+ observation", openspiel("dou_dizhu", observe=True, clone=False))
        out["OpenSpiel dou_dizhu + clone"] = ("+ clone", openspiel("dou_dizhu", observe=False, clone=True))
    except ImportError:
        print("OpenSpiel is not installed (pip install open_spiel): left out")
    try:
        import rlcard  # noqa: F401

        out["RLCard doudizhu"] = ("+ observation", rlcard_env("doudizhu"))
    except ImportError:
        print("RLCard is not installed (pip install rlcard): left out")
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=2.0, help="length of one run of one subject")
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()
    subs = subjects()
    best: dict[str, tuple[float, float, float]] = {}
    for _ in range(args.repeats):
        for name, (_kind, run) in subs.items():
            decisions, games, elapsed = run(args.seconds)
            rate = decisions / elapsed
            if name not in best or rate > best[name][0]:
                best[name] = (rate, games / elapsed, decisions / max(games, 1))
    base = best["bigtwo Game (classic)"][0]
    print(f"one core, best of {args.repeats} runs of {args.seconds:g} s, all subjects interleaved")
    print("| subject | measures | decisions/s | games/s | decisions a game | against bigtwo Game |")
    print("|---|---|---|---|---|---|")
    for name, (kind, _run) in subs.items():
        rate, gps, dpg = best[name]
        print(f"| {name} | {kind} | {rate:,.0f} | {gps:,.0f} | {dpg:.1f} | {rate / base:.2f}x |")


if __name__ == "__main__":
    main()
