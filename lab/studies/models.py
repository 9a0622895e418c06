"""How well does each model of play predict a bot's choices? (Not a test: it prints.)

A search models the other seats twice: its play-outs play them with the heuristic, and ``isearch``'s beliefs weigh
sampled deals by how likely each opponent's plays were under a softmax over the heuristic's scores mixed with a
uniform choice (:class:`bigtwo.bots.sampling.PlayModel`). This measures both against the bot they face: four
copies of ``--bot`` play ``classic`` rounds, and at every decision with two or more legal actions the bot's
choice is compared with

- the heuristic's first choice, the same with the weights fitted to a search's choices (:mod:`bigtwo.bots.fitted`,
  fitted on other deals), the learned network's, the most likely choice of each network fitted to the bot's
  recorded decisions (``--imitation FILE``, :mod:`bigtwo.lab.imitate`), and the bot's own under another seed (how
  often the bot agrees with itself: the ceiling of any prediction of a bot that samples), as top-1 agreement
  with Wilson's 95% interval;
- the belief model's log-probability of the choice (nats a decision, higher is better) at its default
  temperature and uniform share and at the best of a grid, and the fitted model's at its own, beside the
  uniform choice (the baseline).

Run: python lab/studies/models.py [--bot "search(iterations=60, utility='cards')"] [--decisions 200]
     [--imitation runs/proxy/policy.npz] [--imitation runs/standin/fit/standin.npz]
"""

from __future__ import annotations

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")  # one core a bot (before numpy is first imported)

import argparse
import math
import time

from bigtwo import Game, load_rules
from bigtwo.arena.stats import wilson_interval
from bigtwo.bots.fitted import fitted_model
from bigtwo.bots.heuristic import policy_for
from bigtwo.bots.sampling import BELIEF_TEMPERATURE, BELIEF_UNIFORM, action_log_probability
from bigtwo.bots.spec import BotSpec
from bigtwo.bots.view import view_from_game

TEMPERATURES = (0.1, 0.25, 0.5, 1.0, 2.0)
UNIFORM_SHARES = (0.05, 0.1, 0.25, 0.5)


def _fitted_to(path: str) -> str:
    """What a network given with ``--imitation`` was fitted to, in a row's words."""
    from bigtwo.bots.learned import load_weights

    if load_weights(path).meta.get("target") == "search-values":
        return "stand-in fitted to a search's play-out values (`bigtwo lab standin`), among its candidates"
    return "network fitted to its choices"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bot", default="search(iterations=60, utility='cards')", help="the bot whose choices to predict")
    ap.add_argument("--decisions", type=int, default=200, help="decisions with two or more legal actions")
    ap.add_argument("--seed", type=int, default=900)
    ap.add_argument("--imitation", action="append", default=[], help="a network fitted to the bot's choices")
    args = ap.parse_args()
    rules = load_rules("classic")
    spec = BotSpec.parse(args.bot)
    seats = [spec.build(seed=args.seed + s) for s in range(4)]
    twin = spec.build(seed=args.seed + 100)
    learned = BotSpec.parse("learned").build(seed=0)
    t0, u0 = BELIEF_TEMPERATURE, BELIEF_UNIFORM
    fit = fitted_model(rules, 4)
    assert fit is not None, "the package ships a fit for classic with four players"
    fitted_networks = [BotSpec.parse(f"learned(weights={path!r})").build(seed=0) for path in args.imitation]
    hits: dict[str, list[float]] = {
        "heuristic": [],
        "heuristic, weights fitted to search (shipped)": [],
        "learned": [],
        **{f"{_fitted_to(path)} ({path})": [] for path in args.imitation},
        f"{spec.display}, another seed": [],
    }
    decisions: list[tuple[list, int, int]] = []  # (the heuristic's scored actions, legal actions, the choice)
    fitted: list[tuple[list, int, int]] = []  # the same with the fitted weights' scores
    deal = 0
    started = time.perf_counter()
    while len(decisions) < args.decisions:
        game = Game(rules, seed=args.seed * 1000 + deal)
        deal += 1
        policy = policy_for(game.ev)
        fitted_policy = policy_for(game.ev, weights=fit.weights)
        played = 0
        previous = [game.hand(s).mask for s in range(game.n)]
        while not game.is_over and len(decisions) < args.decisions:
            s = game.to_move
            obs = game.observe(s)
            choice = seats[s].choose(rules, obs)
            legal = game.legal_plays()
            if len(legal) > 1:
                view = view_from_game(game, played)
                scored = policy.scores(view, previous[s])
                refit = fitted_policy.scores(view, previous[s])
                previous[s] = view.hand
                decisions.append((scored, len(legal), choice.mask))
                fitted.append((refit, len(legal), choice.mask))
                for name, guess in zip(
                    hits,
                    (
                        scored[0][1],
                        refit[0][1],
                        learned.choose(rules, obs),
                        *(net.choose(rules, obs) for net in fitted_networks),
                        twin.choose(rules, obs),
                    ),
                    strict=True,
                ):
                    hits[name].append(float(guess.mask == choice.mask))
            played |= game.play(choice).mask
    n = len(decisions)
    print(f"{n} decisions of {spec.display} in self-play ({deal} deals, {time.perf_counter() - started:.0f} s)\n")
    print("| model | top-1 agreement [95% CI] |")
    print("| --- | --- |")
    for name, xs in hits.items():
        iv = wilson_interval({i: [x] for i, x in enumerate(xs)})
        print(f"| {name} | {iv.mean:.1%} [{iv.low:.1%}, {iv.high:.1%}] |")

    def mean_log_p(t: float, u: float, which: list[tuple[list, int, int]] = decisions) -> float:
        return math.fsum(action_log_probability(sc, k, c, t, u) for sc, k, c in which) / n

    grid = {(t, u): mean_log_p(t, u) for t in TEMPERATURES for u in UNIFORM_SHARES}
    ours = grid[(t0, u0)] if (t0, u0) in grid else mean_log_p(t0, u0)
    (bt, bu), best = max(grid.items(), key=lambda kv: kv[1])
    uniform = -math.fsum(math.log(k) for _sc, k, _c in decisions) / n
    print("\n| belief model | log-probability of the choice, nats a decision |")
    print("| --- | --- |")
    print(f"| uniform over the legal actions (the baseline) | {uniform:.3f} |")
    print(f"| softmax over the heuristic's scores, temperature {t0:g}, uniform share {u0:g} (isearch's) | {ours:.3f} |")
    print(f"| the same, the grid's best: temperature {bt:g}, uniform share {bu:g} | {best:.3f} |")
    ft, fu = fit.temperature, fit.uniform
    print(
        f"| softmax over the fitted weights' scores, temperature {ft:g}, uniform share {fu:g} (the fit's, "
        f"`isearch(model='fitted')`) | {mean_log_p(ft, fu, fitted):.3f} |"
    )


if __name__ == "__main__":
    main()
