"""Environment speed on one core: agent-steps a second with random masked actions, beside the bare engine.

- engine: random games through the public API (``Game.legal_plays`` + ``Game.play``), the floor any
  environment on this engine pays; this is the baseline, measured in the same run;
- aec_env: the PettingZoo environment, ``last()`` (observation vector + action mask) and ``step()`` for every
  agent-step, the action drawn uniformly among the mask's ones (as a fast agent would: ``flatnonzero`` of the
  mask viewed as booleans);
- + pz wrappers: the same bare environment inside PettingZoo's usual wrapper chain (TerminateIllegal,
  AssertOutOfBounds, OrderEnforcing), for comparison with environments that rely on them;
- gym vs random, gym vs heuristic: the single-agent environment, learner steps a second (three ``random`` or
  ``heuristic`` bots move in between, each reading its seat's typed observation);
- vector x8: ``vector_env(8)``, learner steps a second summed over the sub-environments;
- batched x32: ``BatchedEnv(num_envs=32)``, the multi-seat lockstep environment of self-play training
  (:mod:`bigtwo.envs.batched`): every seat's decision exposed, each with its state vector and one feature row
  per legal action (what a Q(s, a) network scores), forced moves exposed too so every action is a step; played
  by the compiled core (``bigtwo._core.Batch``: one C++ call steps all 32 games and writes their rows) where it is
  built and covers the rules, ten times as many rounds as the other rows, so the run lasts as long;
- batched x32 python: the same environment with ``native=False``, its pure-Python games (the baseline of the
  compiled batch, in the same run; "compiled / python" is their paired ratio).

A second table measures what self-play training pays for bots in the seats (``--opponents``): one exposed seat
among three bots in every game of ``BatchedEnv(num_envs=32)``, learner steps a second, with the environment's
fast path for bots (``fast_bots``: heuristic seats read from the Game; learned seats read from the Game and
scored together, one batched call a network) beside the baseline of asking each bot from its observation.

Every figure is the best of ``--repeats`` runs of the same deals, the runs of all kinds interleaved, so load
from other processes on a shared machine disturbs the comparison as little as it can; "paired" is the median
over the repeats of aec_env / engine measured back to back, the steadier ratio when the load moves.

A preset may carry settings, ``NAME:KEY=VALUE,KEY=VALUE`` (values as TOML), e.g.
``zheng-shangyou:exchange=higher-bid-auction,free_trade=true``: auctions and free trade before play, whose
answers the environments count as agent-steps (the engine row plays the same deals as dealt, and the batched
environment always plays rounds as dealt, so the ratios there include the procedures' extra decisions).

Run: python benchmarks/env.py [--presets classic taiwan ...] [--games 200] [--repeats 5] [--opponents-only]
[--batched-only] (only the batched rows: the engine, the compiled batch and its Python baseline) [--cpu-time]
(rates per second of the process's CPU time, for a machine other work shares)
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
import tomllib
from functools import partial

import numpy as np
from pettingzoo.utils import wrappers

from bigtwo import Game, load_rules
from bigtwo.envs import aec_env, gym_env, raw_env, vector_env
from bigtwo.envs.batched import BatchedEnv

clock = time.perf_counter  # wall time; --cpu-time: this process's CPU time (a shared machine's load left out)


def engine_steps(rules, players: int, games: int) -> tuple[int, float]:
    rng = random.Random(0)
    steps = 0
    t0 = clock()
    for seed in range(games):
        g = Game(rules, players=players, seed=seed)
        while not g.is_over:
            g.play(rng.choice(g.legal_plays()))
            steps += 1
    return steps, clock() - t0


def aec_steps(env, games: int) -> tuple[int, float]:
    rng = np.random.default_rng(0)
    steps = 0
    t0 = clock()
    for seed in range(games):
        env.reset(seed=seed)
        for _agent in env.agent_iter():
            obs, _reward, term, trunc, _info = env.last()
            if term or trunc:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"].view(bool))
            env.step(int(legal[rng.integers(len(legal))]))
            steps += 1
    return steps, clock() - t0


def gym_steps(env, games: int) -> tuple[int, float]:
    rng = np.random.default_rng(0)
    steps = 0
    t0 = clock()
    for seed in range(games):
        env.reset(seed=seed)
        done = False
        while not done:
            legal = np.flatnonzero(env.action_masks())
            _, _, term, trunc, _ = env.step(int(legal[rng.integers(len(legal))]))
            steps += 1
            done = term or trunc
    return steps, clock() - t0


def vector_steps(env, num_envs: int, games: int) -> tuple[int, float]:
    rng = np.random.default_rng(0)
    env.reset(seed=0)
    steps = 0
    t0 = clock()
    for _ in range(games * 18 // num_envs):  # about as many learner steps as ``games`` rounds
        masks = env.action_masks()
        env.step([int(rng.choice(np.flatnonzero(m))) for m in masks])
        steps += num_envs
    return steps, clock() - t0


def exposed_steps(env: BatchedEnv, games: int) -> tuple[int, float]:
    """Random legal actions for every exposed decision of ``env`` until ``games`` rounds have ended (drawn from
    the decisions' offsets in one numpy call, as a training loop reads them)."""
    rng = np.random.default_rng(0)
    t0 = clock()
    d, _ = env.reset()
    ended = 0
    while ended < games:
        counts = np.diff(d.offsets)
        d, finished = env.step(d, (rng.random(len(counts)) * counts).astype(np.int64))
        ended += len(finished)
    return env.steps, clock() - t0


def batched_steps(rules, players: int, num_envs: int, games: int, native: bool = True) -> tuple[int, float]:
    env = BatchedEnv(rules, players, num_envs, seed=0, skip_forced=False, native=native)
    return exposed_steps(env, games * 10 if env.native else games)


def learner_steps(rules, players: int, bot: str, fast: bool, games: int) -> tuple[int, float]:
    """Learner steps a second of ``BatchedEnv(num_envs=32)`` with one exposed seat among three ``bot`` bots a
    game (the exposed seat plays a random legal action)."""
    from bigtwo.bots.spec import BotSpec

    spec = BotSpec.parse(bot)
    bots = [[None if s == i % players else spec.build(seed=i * players + s) for s in range(players)] for i in range(32)]
    return exposed_steps(BatchedEnv(rules, players, 32, seed=0, bots=bots, fast_bots=fast), games)


def opponents_table(rules, players: int, games: int, repeats: int) -> None:
    print(f"\nlearner steps a second, one exposed seat among {players - 1} bots, 32 games, best of {repeats}")
    print("| opponents | fast path (batched) | asked one at a time (baseline) | speed-up (paired median) |")
    print("| --- | --- | --- | --- |")
    for bot in ("heuristic", "learned"):
        best = {True: 0.0, False: 0.0}
        ratios = []
        for _ in range(repeats):
            rate = {}
            for fast in (True, False):
                steps, dt = learner_steps(rules, players, bot, fast, games)
                rate[fast] = steps / dt
                best[fast] = max(best[fast], rate[fast])
            ratios.append(rate[True] / rate[False])
        print(f"| {bot} x{players - 1} | {best[True]:,.0f} | {best[False]:,.0f} | {statistics.median(ratios):.2f}x |")


def rules_of(spec: str):
    """A preset, with ``:KEY=VALUE,...`` settings changed (values read as TOML, bare words as strings)."""
    name, _, settings = spec.partition(":")
    changes = {}
    for item in filter(None, settings.split(",")):
        key, _, text = item.partition("=")
        try:
            changes[key] = tomllib.loads(f"v = {text}")["v"]
        except tomllib.TOMLDecodeError:
            changes[key] = text
    rules = load_rules(name)
    return rules.replace(**changes) if changes else rules


def wrapped(env):
    env = wrappers.TerminateIllegalWrapper(env, illegal_reward=-1)
    env = wrappers.AssertOutOfBoundsWrapper(env)
    return wrappers.OrderEnforcingWrapper(env)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--presets", nargs="*", default=["classic"])
    ap.add_argument("--players", type=int, default=None)
    ap.add_argument("--games", type=int, default=200, help="rounds per run (gym: rounds of the learning seat)")
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--opponents-only", action="store_true", help="only the table of bots in the seats (classic)")
    ap.add_argument("--batched-only", action="store_true", help="only the engine and the batched rows")
    ap.add_argument("--cpu-time", action="store_true", help="rates per second of this process's CPU time")
    args = ap.parse_args()
    if args.cpu_time:
        global clock
        clock = time.process_time
    if args.opponents_only:
        opponents_table(load_rules("classic"), 4, args.games, args.repeats)
        return
    seconds = "CPU second of the process" if args.cpu_time else "second"
    print(f"agent-steps per {seconds}, one core, best of {args.repeats} runs (random masked actions)")
    cols = [
        "engine",
        "aec_env",
        "+ pz wrappers",
        "gym vs random",
        "gym vs heuristic",
        "vector x8",
        "batched x32",
        "batched x32 python",
    ]
    ratios = ["aec_env", "gym vs random", "gym vs heuristic", "batched x32", "batched x32 python"]
    if args.batched_only:
        cols = ["engine", "batched x32", "batched x32 python"]
        ratios = ["batched x32", "batched x32 python"]
    print(
        "| preset | actions | "
        + " | ".join(cols)
        + " | "
        + " | ".join(f"{r} / engine (paired)" for r in ratios)
        + " | compiled / python (paired) |"
    )
    print("|---" * (len(cols) + len(ratios) + 3) + "|")
    for name in args.presets:
        rules = rules_of(name)
        players = args.players or rules.players
        games = args.games
        runs = {
            "engine": partial(engine_steps, rules, players, games),
            "batched x32": partial(batched_steps, rules, players, 32, games),
            "batched x32 python": partial(batched_steps, rules, players, 32, games, False),
        }
        size, venv = "-", None
        if not args.batched_only:
            t = time.perf_counter()
            env = aec_env(rules, players)  # builds the catalogue, or sizes the legal encoding
            build = time.perf_counter() - t
            size = f"{env.num_actions:,} {env.action_encoding} (made in {build:.2f} s)"
            if env.num_answer_actions:
                size += f", of which {env.num_answer_actions:,} answers"
            env_w = wrapped(raw_env(rules, players))
            genv = gym_env(rules, players, opponents="random")
            henv = gym_env(rules, players, opponents="heuristic")
            venv = vector_env(8, rules, players, opponents="random")
            runs |= {
                "aec_env": partial(aec_steps, env, games),
                "+ pz wrappers": partial(aec_steps, env_w, games),
                "gym vs random": partial(gym_steps, genv, games // 4),
                "gym vs heuristic": partial(gym_steps, henv, games // 4),
                "vector x8": partial(vector_steps, venv, 8, games // 4),
            }
        best = dict.fromkeys(runs, 0.0)
        # each figure over the engine's in the same repeat: steadier than the bests when the load moves
        paired: dict[str, list[float]] = {r: [] for r in ratios}
        compiled: list[float] = []
        for _ in range(args.repeats):
            rate = {}
            for key, run in runs.items():
                steps, dt = run()
                rate[key] = steps / dt
                best[key] = max(best[key], rate[key])
            for r in ratios:
                paired[r].append(rate[r] / rate["engine"])
            compiled.append(rate["batched x32"] / rate["batched x32 python"])
        if venv is not None:
            venv.close()
        figures = " | ".join(f"{best[c]:,.0f}" for c in cols)
        shares = " | ".join(f"{statistics.median(paired[r]):.3f}" for r in ratios)
        print(f"| {name} | {size} | {figures} | {shares} | {statistics.median(compiled):.1f}x |")
    if "classic" in args.presets and not args.batched_only:
        opponents_table(load_rules("classic"), 4, args.games, args.repeats)


if __name__ == "__main__":
    main()
