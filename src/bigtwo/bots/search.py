"""The search player: determinised Monte Carlo search with heuristic rollouts.

At each decision with a real choice:

1. the heuristic ranks the legal actions and the best ``candidates`` of them are kept (its own choice first),
   and a pass when one is legal;
2. one *iteration* deals the unseen cards to the other seats consistently with everything public
   (:class:`~bigtwo.bots.sampling.DealSampler`), rebuilds the position on that deal
   (``Game.from_observation``), and for every candidate plays it and then the rest of the round with the
   heuristic in every seat, scoring the end for this seat (its utility: the ruleset's points, or another
   measure);
3. after the budget (``iterations`` deals, or ``budget_ms`` of thinking), it plays the candidate with the best
   mean, the heuristic's order breaking ties.

Every candidate is tried on the same sampled deals, so their comparison is paired: the luck of the deal is
common to all of them and only the consequences of the choice differ. This is perfect-information Monte
Carlo over determinisations with a one-ply tree (the information-set root's actions); the rollouts model the
other seats with the same heuristic. The sampled deals come from the seat's observation alone and the bot's
own seeded RNG: with an ``iterations`` budget, the same seed and observation give the same play.
"""

from __future__ import annotations

import time
from typing import Any

from bigtwo.bots.base import BaseBot, register
from bigtwo.bots.heuristic import WIN, HeuristicPolicy, giveaway_order, policy_for
from bigtwo.bots.sampling import DealSampler
from bigtwo.bots.view import deck_of, played_from_history, view_from_game, view_from_observation
from bigtwo.combos.play import Play
from bigtwo.errors import IllegalPlay
from bigtwo.game import Game
from bigtwo.rules.ruleset import Ruleset
from bigtwo.utilities import UTILITIES, default_measure, round_utility

MAX_FAILED_SAMPLES = 100


def rollout(game: Game, policy: HeuristicPolicy, deck: int, played: int) -> Game:
    """Play ``game`` to its end with ``policy`` in every seat (in place); returns it."""
    previous = [game.hand(s).mask for s in range(game.n)]  # lets a plan reuse the last hand's work
    while not game.is_over:
        seat = game.to_move
        view = view_from_game(game, deck, played)
        action = policy.act(view, previous[seat])
        game.play(action)
        if action.mask:
            played |= action.mask
            previous[seat] = view.hand
    return game


@register("search")
class SearchBot(BaseBot):
    """Determinised Monte Carlo search over the heuristic's best candidates, heuristic rollouts."""

    name = "search"

    def __init__(
        self,
        seed: int | None = None,
        budget_ms: float | None = None,
        iterations: int | None = None,
        candidates: int = 4,
        utility: str = "auto",
    ):
        super().__init__(seed)
        if budget_ms is None and iterations is None:
            budget_ms = 1000.0
        if budget_ms is not None and budget_ms <= 0:
            raise ValueError(f"budget_ms must be positive, not {budget_ms}")
        if iterations is not None and iterations < 1:
            raise ValueError(f"iterations must be at least 1, not {iterations}")
        if candidates < 1:
            raise ValueError(f"candidates must be at least 1, not {candidates}")
        if utility != "auto" and utility not in UTILITIES:
            raise ValueError(f"utility {utility!r} is not 'auto' or one of {', '.join(UTILITIES)}")
        self.budget_ms = budget_ms
        self.iterations = iterations
        self.candidates = candidates
        self.utility = utility
        self.last_iterations = 0  # deals sampled for the last decision (for benchmarks)

    def choose_play(self, rules: Ruleset, observation: dict[str, Any]) -> Play:
        legal = self.legal(rules, observation)
        self.last_iterations = 0
        if len(legal) == 1:
            return legal[0]
        policy = policy_for(rules)
        ranked = policy.scores(view_from_observation(rules, observation, legal))
        if ranked[0][0] >= WIN:
            return ranked[0][1]  # going out now
        cands = [p for _s, p in ranked[: self.candidates]]
        if legal[-1].is_pass and legal[-1] not in cands and self.candidates > 1:
            cands.append(legal[-1])  # holding back is always worth weighing
        if len(cands) == 1:
            return cands[0]
        return self._search(rules, observation, policy, cands)

    def _search(self, rules: Ruleset, obs: dict[str, Any], policy: HeuristicPolicy, cands: list[Play]) -> Play:
        seat = obs["seat"]
        measure = default_measure(rules) if self.utility == "auto" else self.utility
        sampler = DealSampler(rules, obs)
        deck = deck_of(rules)
        played0 = played_from_history(obs["history"])
        totals = [0.0] * len(cands)
        deadline = None if self.budget_ms is None else time.perf_counter() + self.budget_ms / 1000
        done = 0
        failures = 0
        while True:
            hands = sampler.sample(self.rng)
            try:
                base = Game.from_observation(rules, obs, hands)
            except IllegalPlay:
                # a sample the public history contradicts (a constraint the sampler could not meet): skip it
                failures += 1
                if failures > MAX_FAILED_SAMPLES:
                    raise
                continue
            for i, a in enumerate(cands):
                g = base.clone()
                g.play(a)
                rollout(g, policy, deck, played0 | a.mask)
                totals[i] += round_utility(g.result, measure)[seat]
            done += 1
            if self.iterations is not None and done >= self.iterations:
                break
            if deadline is not None and time.perf_counter() >= deadline:
                break
        self.last_iterations = done
        best = max(range(len(cands)), key=lambda i: (totals[i], -i))
        return cands[best]

    def exchange_order(self, rules: Ruleset, observation: dict[str, Any], hand: int) -> list[int]:
        return giveaway_order(rules, observation, hand)
