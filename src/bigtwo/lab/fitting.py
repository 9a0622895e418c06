"""Fit the heuristic's weights to another bot's choices: a model of play that predicts a search.

A search models the other seats twice, in its play-outs and in its beliefs, and in both with the heuristic, while
the seats it faces (other searches, or people) choose otherwise about four times in ten. This module records a
bot's decisions in self-play and refits the heuristic's weights (:class:`~bigtwo.bots.heuristic.HeuristicWeights`)
to them by maximum likelihood.

The fit needs no second copy of the scoring rules. A heuristic score is linear in every weight but
``high_from`` (a threshold), so scoring each decision once with all weights at zero and once with each weight
alone at one gives every action's score as ``base + sum(w_k * feature_k)``, exactly; the model
``P(a) ~ exp(beta * base(a) + sum(theta_k * feature_k(a)))`` over the scored actions is a conditional logit,
convex in ``(beta, theta)``, and its optimum gives the weights ``theta / beta`` and the temperature
``1 / beta`` of the softmax the beliefs use.

Run::

    python -m bigtwo.lab.fitting collect OUT.pkl [--bot SPEC] [--decisions N] [--seed S]
    python -m bigtwo.lab.fitting fit OUT.json DATA.pkl [DATA.pkl ...]
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import pickle
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from bigtwo.bots.fitted import FORMAT
from bigtwo.bots.heuristic import DEFAULT_WEIGHTS, WIN, HeuristicPolicy, HeuristicWeights
from bigtwo.bots.sampling import BELIEF_TEMPERATURE, BELIEF_UNIFORM, action_log_probability
from bigtwo.bots.spec import BotSpec
from bigtwo.bots.view import SeatView, view_from_game
from bigtwo.game import Game
from bigtwo.rules.ruleset import Ruleset, load_rules

#: the weights the fit moves: every one a score is linear in (``high_from`` is a threshold and stays)
LINEAR = tuple(f.name for f in dataclasses.fields(HeuristicWeights) if f.name != "high_from")


@dataclasses.dataclass(frozen=True, slots=True)
class Decision:
    """One recorded choice: the seat's view, its hand at its previous decision (the plan cache's hint; it does
    not change the scores) and the cards of the action chosen."""

    view: SeatView
    parent: int
    chosen: int


def collect(rules: Ruleset, spec: str, decisions: int, seed: int, out: Path | None = None) -> list[Decision]:
    """Play rounds with ``spec`` in every seat (seeds ``seed``, ``seed + 1``, ...) and record every decision with
    two or more legal actions and no action that goes out, until there are ``decisions``; written to ``out``
    (a pickle) every 200 and at the end."""
    bot = BotSpec.parse(spec)
    seats = [bot.build(seed=seed + s) for s in range(rules.players)]
    got: list[Decision] = []
    deal = 0
    started = time.perf_counter()
    while len(got) < decisions:
        game = Game(rules, seed=seed * 100_000 + deal)
        deal += 1
        played = 0
        previous = [game.hand(s).mask for s in range(game.n)]
        while not game.is_over and len(got) < decisions:
            s = game.to_move
            choice = seats[s].choose(rules, game.observe(s))
            legal = game.legal_plays()
            hand = game.hand(s).mask
            if len(legal) > 1 and not any(p.mask == hand for p in legal):
                view = view_from_game(game, played)
                got.append(Decision(view, previous[s], choice.mask))
                previous[s] = view.hand
                if out is not None and len(got) % 200 == 0:
                    _save(out, DecisionFile(spec, rules.name, seed, got))
                    print(f"{len(got)} decisions, {deal} deals, {time.perf_counter() - started:.0f} s", flush=True)
            played |= game.play(choice).mask
    if out is not None:
        _save(out, DecisionFile(spec, rules.name, seed, got))
    return got


@dataclasses.dataclass(frozen=True)
class DecisionFile:
    """What :func:`collect` writes: whose decisions, on which rules, from which seed."""

    bot: str
    rules: str
    seed: int
    decisions: list[Decision]


def _save(path: Path, record: DecisionFile) -> None:
    tmp = path.with_suffix(path.suffix + ".tmp")
    with tmp.open("wb") as f:
        pickle.dump(record, f, protocol=pickle.HIGHEST_PROTOCOL)
    tmp.replace(path)


def load(paths: Sequence[Path]) -> list[Decision]:
    """Decisions written by :func:`collect` (our own files: they are pickles)."""
    return [d for p in paths for d in read(p).decisions]


def read(path: Path) -> DecisionFile:
    """One file written by :func:`collect`."""
    with Path(path).open("rb") as f:
        got = _Unpickler(f).load()
    if not isinstance(got, DecisionFile):
        raise ValueError(f"{path} is not a decisions file written by collect")
    return got


class _Unpickler(pickle.Unpickler):
    """Reads this module's records only: the project's own classes (a record made by ``python -m`` names this
    module ``__main__``) and nothing else."""

    def find_class(self, module: str, name: str) -> Any:
        if module == "__main__":
            module = "bigtwo.lab.fitting"
        if module.split(".")[0] != "bigtwo":
            raise pickle.UnpicklingError(f"a decisions file may hold only bigtwo's records, not {module}.{name}")
        return super().find_class(module, name)


@dataclasses.dataclass
class Features:
    """The decisions as arrays: ``base`` (D, J) and ``features`` (D, J, K) of every scored action (padded;
    ``valid`` marks the real ones), the chosen action's index ``chosen`` (D,)."""

    base: np.ndarray
    features: np.ndarray
    valid: np.ndarray
    chosen: np.ndarray
    dropped: int  # decisions whose choice the heuristic does not score (left out)


def features(decisions: Sequence[Decision], ev: Any) -> Features:
    """Every decision's scored actions as ``base + features @ weights`` (see the module's docstring)."""
    zero = HeuristicWeights(**{name: 0.0 for name in LINEAR})
    policies = [HeuristicPolicy(ev, weights=zero)] + [
        HeuristicPolicy(ev, weights=dataclasses.replace(zero, **{name: 1.0})) for name in LINEAR
    ]
    rows: list[tuple[list[float], list[list[float]], int]] = []
    dropped = 0
    for d in decisions:
        scored = [{p.mask: sc for sc, p in pol.scores(d.view, d.parent)} for pol in policies]
        masks = list(scored[0])
        if d.chosen not in scored[0] or any(sc >= WIN for sc in scored[0].values()):
            dropped += 1
            continue
        base = [scored[0][m] for m in masks]
        feats = [[scored[k + 1][m] - scored[0][m] for k in range(len(LINEAR))] for m in masks]
        rows.append((base, feats, masks.index(d.chosen)))
    n, width = len(rows), max((len(b) for b, _f, _c in rows), default=1)
    out = Features(
        np.zeros((n, width)), np.zeros((n, width, len(LINEAR))), np.zeros((n, width), bool), np.zeros(n, int), dropped
    )
    for i, (b, f, c) in enumerate(rows):
        out.base[i, : len(b)] = b
        out.features[i, : len(b)] = f
        out.valid[i, : len(b)] = True
        out.chosen[i] = c
    return out


def _negative_log_likelihood(params: np.ndarray, data: Features, penalty: float, prior: np.ndarray) -> tuple:
    """The mean negative log-likelihood of the choices under ``exp(beta * base + theta @ features)`` plus
    ``penalty`` times the squared distance of ``theta`` from ``beta * prior`` (the default weights), and its
    gradient."""
    beta, theta = params[0], params[1:]
    logits = beta * data.base + data.features @ theta
    logits = np.where(data.valid, logits, -np.inf)
    top = logits.max(axis=1, keepdims=True)
    e = np.exp(logits - top)
    z = e.sum(axis=1, keepdims=True)
    prob = e / z
    n = len(data.chosen)
    rows = np.arange(n)
    nll = -(logits[rows, data.chosen] - top[:, 0] - np.log(z[:, 0])).mean()
    # gradient: expected minus chosen
    g_beta = ((prob * data.base).sum(axis=1) - data.base[rows, data.chosen]).mean()
    g_theta = (np.einsum("dj,djk->dk", prob, data.features) - data.features[rows, data.chosen]).mean(axis=0)
    gap = theta - beta * prior
    nll += penalty * float(gap @ gap)
    g_theta = g_theta + 2 * penalty * gap
    g_beta = g_beta - 2 * penalty * float(gap @ prior)
    return float(nll), np.concatenate([[g_beta], g_theta])


@dataclasses.dataclass(frozen=True)
class Fit:
    """Fitted weights and the softmax temperature of the model of play they make."""

    weights: HeuristicWeights
    temperature: float
    log_likelihood: float  # nats a decision, on the decisions fitted


def fit(data: Features, penalty: float = 1e-4) -> Fit:
    """The maximum-likelihood weights (see the module's docstring), started from the heuristic's own."""
    from scipy.optimize import minimize

    prior = np.array([getattr(DEFAULT_WEIGHTS, name) for name in LINEAR])
    start = np.concatenate([[2.0], 2.0 * prior])  # the beliefs' temperature 0.5, the default weights
    got = minimize(_negative_log_likelihood, start, args=(data, penalty, prior), jac=True, method="L-BFGS-B")
    beta, theta = float(got.x[0]), got.x[1:]
    if beta <= 0:
        raise ValueError(f"the fit found no positive weight for the plan's value (beta {beta:.3g})")
    weights = dataclasses.replace(
        DEFAULT_WEIGHTS, **{n: round(float(t / beta), 4) for n, t in zip(LINEAR, theta, strict=True)}
    )
    return Fit(weights, 1.0 / beta, -float(_negative_log_likelihood(got.x, data, 0.0, prior)[0]))


def agreement(decisions: Sequence[Decision], ev: Any, weights: HeuristicWeights) -> float:
    """The share of ``decisions`` where the heuristic with ``weights`` plays the recorded choice."""
    policy = HeuristicPolicy(ev, weights=weights)
    hits = sum(policy.act(d.view, d.parent).mask == d.chosen for d in decisions)
    return hits / len(decisions) if decisions else 0.0


UNIFORM_SHARES = (0.01, 0.02, 0.05, 0.1, 0.15, 0.25)


def belief_fit(
    decisions: Sequence[Decision], ev: Any, weights: HeuristicWeights, temperature: float
) -> tuple[float, float]:
    """The uniform share (of :data:`UNIFORM_SHARES`) under which the beliefs' softmax at ``temperature`` over
    the scores of ``weights`` gives the recorded choices the highest log-probability, and that log-probability
    in nats a decision (the beliefs' measure: every legal action counts, scored or not)."""
    scored = _scored(decisions, ev, weights)
    return max(((u, _mean_log_p(scored, temperature, u)) for u in UNIFORM_SHARES), key=lambda t: t[1])


def log_probability(
    decisions: Sequence[Decision], ev: Any, weights: HeuristicWeights, temperature: float, uniform: float
) -> float:
    """The beliefs' log-probability of the recorded choices, nats a decision, at a given temperature and uniform
    share (a held-out measure: nothing is chosen on these decisions)."""
    return _mean_log_p(_scored(decisions, ev, weights), temperature, uniform)


def _scored(decisions: Sequence[Decision], ev: Any, weights: HeuristicWeights) -> list[tuple[list, int, int]]:
    policy = HeuristicPolicy(ev, weights=weights)
    return [(policy.scores(d.view, d.parent), len(d.view.legal), d.chosen) for d in decisions]


def _mean_log_p(scored: list[tuple[list, int, int]], temperature: float, uniform: float) -> float:
    return math.fsum(action_log_probability(sc, k, c, temperature, uniform) for sc, k, c in scored) / len(scored)


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(prog="python -m bigtwo.lab.fitting", description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="command", required=True)
    c = sub.add_parser("collect", help="record a bot's decisions in self-play")
    c.add_argument("out", type=Path)
    c.add_argument("--bot", default="search(iterations=60, utility='cards')")
    c.add_argument("--rules", default="classic")
    c.add_argument("--decisions", type=int, default=3000)
    c.add_argument("--seed", type=int, default=1)
    ft = sub.add_parser("fit", help="fit the heuristic's weights to recorded decisions and write them as JSON")
    ft.add_argument("out", type=Path)
    ft.add_argument("data", type=Path, nargs="+")
    ft.add_argument("--holdout", type=Path, action="append", default=[], help="decisions only measured, not fitted")
    ft.add_argument("--rules", default="classic")
    ft.add_argument("--players", type=int, default=4)
    ft.add_argument("--penalty", type=float, default=1e-4, help="pull towards the heuristic's own weights")
    args = ap.parse_args(argv)
    rules = load_rules(args.rules)
    if args.command == "collect":
        collect(rules, args.bot, args.decisions, args.seed, args.out)
        return
    ev = rules.engine_for(args.players)
    files = [read(p) for p in args.data]
    train = [d for f in files for d in f.decisions]
    held = load(args.holdout)
    started = time.perf_counter()
    got = fit(features(train, ev), args.penalty)
    uniform, log_p = belief_fit(train, ev, got.weights, got.temperature)
    report = {
        "format": FORMAT,
        "weights": dataclasses.asdict(got.weights),
        "temperature": round(got.temperature, 4),
        "uniform": uniform,
        "rules": rules.name,
        "players": args.players,
        "fitted_to": sorted({f.bot for f in files}),
        "collected": [{"file": str(p), "seed": f.seed} for p, f in zip(args.data, files, strict=True)],
        "decisions": len(train),
        "log_probability": round(log_p, 4),
        "agreement": round(agreement(train, ev, got.weights), 4),
        "agreement_default": round(agreement(train, ev, DEFAULT_WEIGHTS), 4),
        "penalty": args.penalty,
    }
    if held:
        report["holdout"] = {
            "decisions": len(held),
            "agreement": round(agreement(held, ev, got.weights), 4),
            "agreement_default": round(agreement(held, ev, DEFAULT_WEIGHTS), 4),
            "log_probability": round(log_probability(held, ev, got.weights, got.temperature, uniform), 4),
            "log_probability_default": round(
                log_probability(held, ev, DEFAULT_WEIGHTS, BELIEF_TEMPERATURE, BELIEF_UNIFORM), 4
            ),
        }
    args.out.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    print(json.dumps(report, indent=2))
    print(f"{time.perf_counter() - started:.1f} s")


if __name__ == "__main__":
    from bigtwo.lab import fitting  # records name this module, not __main__

    fitting.main()
