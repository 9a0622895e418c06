"""How well each source of beliefs knows where the hidden cards are: nats a hidden card on the true deal.

``--field`` plays every seat of ``--rounds`` rounds (classic, four players). At every decision with a choice
(one in ``--every``), the seat to move's beliefs are judged on the cards it cannot see: the mean negative log
probability each source gives the place (the other seat) that truly holds each card, and how often its likeliest
place is the true one. Sources, each from the observation alone:

- ``uniform``: every deal the observation allows alike (each card in a seat with probability its count of hidden
  cards over all of them): the baseline, measured in the same run;
- ``heuristic``: isearch's beliefs today, ``--deals`` uniform deals weighted by the likelihood of the opponents'
  plays and passes under a softmax over the heuristic's scores (:class:`~bigtwo.bots.sampling.PlayModel`),
  tempered as isearch tempers them (an effective third of the deals at least);
- ``network``: the belief network's own probabilities (:mod:`bigtwo.bots.belief`);
- ``network deals``: ``--deals`` deals from :class:`~bigtwo.bots.belief.BeliefSampler` with their importance
  weights, tempered alike: what the search actually plays out on.

Sampled sources give each card the weighted share of deals that put it in each seat, mixed with the uniform
(a twentieth) so that a card no sampled deal placed right costs a finite amount. Beside each, the effective
number of deals as a share of those drawn and the milliseconds a decision took. The field's choices are those of
real searches, not of the network's training field, so the network is judged on play it was not fitted to.

Run: python lab/studies/beliefs.py [--rounds 20] [--field "search(budget_ms=200, utility='cards')"]
     [--belief-weights shipped] [--deals 200] [--every 2] [--workers 2] [--seed 11]
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")  # one core a worker (before numpy is first imported)

import argparse  # noqa: E402
import math  # noqa: E402
import multiprocessing  # noqa: E402
import random  # noqa: E402
import time  # noqa: E402
from typing import Any  # noqa: E402

import numpy as np  # noqa: E402
from rich.console import Console  # noqa: E402
from rich.table import Table  # noqa: E402

from bigtwo import Game, load_rules  # noqa: E402
from bigtwo.arena.play import bot_seed, deal_seed  # noqa: E402
from bigtwo.arena.stats import mean_interval  # noqa: E402
from bigtwo.bots.belief import (  # noqa: E402
    BeliefSampler,
    applies,
    belief_for,
    class_masks,
    true_classes,
)
from bigtwo.bots.halving import effective_size, tempered_weights  # noqa: E402
from bigtwo.bots.heuristic import policy_for  # noqa: E402
from bigtwo.bots.sampling import DealSampler  # noqa: E402
from bigtwo.bots.search import InferenceSearchBot  # noqa: E402
from bigtwo.bots.search_plan import MIN_ESS  # noqa: E402
from bigtwo.bots.spec import BotSpec  # noqa: E402
from bigtwo.bots.view import engine_of  # noqa: E402

console = Console(highlight=False, width=130)
PLAYERS = 4
SOURCES = ("uniform", "heuristic", "network", "network deals")
MIX = 0.05  # the uniform's share mixed into sampled estimates


def sampled_marginals(deals: list[list[int]], weights: list[float], cards: list[int], seat: int, n: int) -> np.ndarray:
    """Each card's weighted share of deals that put it in each class (rows: ``cards``)."""
    out = np.zeros((len(cards), n))
    total = math.fsum(weights)
    for hands, w in zip(deals, weights, strict=True):
        for r in range(1, n):
            h = hands[(seat + r) % n]
            for i, c in enumerate(cards):
                if h >> c & 1:
                    out[i, r] += w / total
    out[:, 0] = np.clip(1.0 - out[:, 1:].sum(axis=1), 0.0, 1.0)
    return out


def judge(p: np.ndarray, truth: list[int]) -> tuple[float, float]:
    """Mean nats of the true class and the share of cards whose likeliest class is the true one."""
    rows = np.arange(len(truth))
    t = np.array(truth)
    return float(-np.log(np.maximum(p[rows, t], 1e-12)).mean()), float((p.argmax(axis=1) == t).mean())


def survey_round(job: dict[str, Any]) -> list[dict[str, Any]]:
    rules = load_rules("classic")
    index, seed, k = job["round"], job["seed"], job["deals"]
    game = Game(rules, players=PLAYERS, seed=deal_seed(seed, index))
    field = [BotSpec.parse(job["field"]).build(bot_seed(seed, index, 0, s)) for s in range(PLAYERS)]
    found = belief_for(job["belief_weights"], rules, PLAYERS)
    assert found is not None, "no belief network for classic with four players"
    net, encoder = found
    searcher = InferenceSearchBot(seed=0)
    rng = random.Random(seed * 7919 + index)
    out = []
    decision = 0
    while not game.is_over:
        seat = game.to_move
        legal = game.legal_plays()
        obs = game.observe(seat)
        if len(legal) > 1 and applies(rules, obs) and obs.history:
            decision += 1
            if decision % job["every"] == 0:
                row: dict[str, Any] = {}
                uniform = DealSampler(rules, obs)
                cards, need = class_masks(uniform)
                truth = true_classes(game, seat, cards)
                flat = np.tile(np.array(need, dtype=float) / sum(need), (len(cards), 1))
                t0 = time.perf_counter()
                row["uniform"] = (*judge(flat, truth), 1.0, 0.0)
                model = searcher._belief_model(rules, obs, policy_for(engine_of(rules, obs)))
                deals = [uniform.sample(rng) for _ in range(k)]
                logw = [model.log_likelihood(h) if model is not None else 0.0 for h in deals]
                w = tempered_weights(logw, MIN_ESS)
                p = (1 - MIX) * sampled_marginals(deals, w, cards, seat, PLAYERS) + MIX * flat
                row["heuristic"] = (*judge(p, truth), effective_size(w) / k, (time.perf_counter() - t0) * 1000)
                t0 = time.perf_counter()
                sampler = BeliefSampler(rules, obs, net, encoder)
                row["network"] = (*judge(np.array(sampler.p), truth), 1.0, (time.perf_counter() - t0) * 1000)
                drawn = [sampler.sample_weighted(rng) for _ in range(k)]
                w = tempered_weights([lw for _h, lw in drawn], MIN_ESS)
                p = (1 - MIX) * sampled_marginals([h for h, _ in drawn], w, cards, seat, PLAYERS) + MIX * flat
                row["network deals"] = (*judge(p, truth), effective_size(w) / k, (time.perf_counter() - t0) * 1000)
                row["hidden"] = len(cards)
                out.append(row)
        game.play(field[seat].choose_play(rules, obs))
    return out


def run(args: argparse.Namespace) -> list[dict[str, Any]]:
    jobs = [
        {
            "round": i,
            "seed": args.seed,
            "field": args.field,
            "deals": args.deals,
            "every": args.every,
            "belief_weights": args.belief_weights,
        }
        for i in range(args.rounds)
    ]
    if args.workers > 1:
        with multiprocessing.get_context("spawn").Pool(args.workers) as pool:
            rounds = list(pool.imap(survey_round, jobs))
    else:
        rounds = [survey_round(j) for j in jobs]
    return [row for r in rounds for row in r]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=20, help="rounds the field plays")
    ap.add_argument("--field", default="search(budget_ms=200, utility='cards')", help="the bot of every seat")
    ap.add_argument("--belief-weights", default="shipped", help="the belief network: shipped, or a file")
    ap.add_argument("--deals", type=int, default=200, help="deals a sampled source draws a decision")
    ap.add_argument("--every", type=int, default=2, help="judge one decision in this many")
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--seed", type=int, default=11)
    args = ap.parse_args()
    t0 = time.perf_counter()
    rows = run(args)
    if not rows:
        raise SystemExit("no decisions judged: play more rounds")
    table = Table(
        title=f"Beliefs on {len(rows)} decisions of {args.rounds} rounds played by {args.field} "
        f"(mean {np.mean([r['hidden'] for r in rows]):.1f} hidden cards; {time.perf_counter() - t0:.0f} s)"
    )
    for col in ("source", "nats a hidden card [95% CI]", "vs uniform", "likeliest right", "ESS share", "ms"):
        table.add_column(col, justify="left" if col == "source" else "right")
    for s in SOURCES:
        nats = mean_interval([r[s][0] for r in rows])
        gain = mean_interval([r[s][0] - r["uniform"][0] for r in rows])
        table.add_row(
            s,
            f"{nats.mean:.3f} [{nats.low:.3f}, {nats.high:.3f}]",
            "baseline" if s == "uniform" else f"{gain.mean:+.3f} [{gain.low:+.3f}, {gain.high:+.3f}]",
            f"{100 * np.mean([r[s][1] for r in rows]):.1f}%",
            f"{np.mean([r[s][2] for r in rows]):.2f}",
            f"{np.mean([r[s][3] for r in rows]):.0f}" if s != "uniform" else "",
        )
    console.print(table)
    diff = mean_interval([r["network deals"][0] - r["heuristic"][0] for r in rows])
    console.print(
        f"network deals less heuristic, decision by decision: {diff.mean:+.3f} [{diff.low:+.3f}, {diff.high:+.3f}] "
        "nats a hidden card"
    )


if __name__ == "__main__":
    main()
