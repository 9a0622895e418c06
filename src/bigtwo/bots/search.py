"""The search player: determinised Monte Carlo search with heuristic rollouts.

At each decision with a real choice:

1. the heuristic ranks the legal actions and the best ``candidates`` of them are kept (its own choice first),
   and a pass when one is legal;
2. one *iteration* deals the unseen cards to the other seats consistently with everything public
   (:class:`~bigtwo.bots.sampling.DealSampler`), rebuilds the position on that deal
   (:func:`~bigtwo.positions.position_from_observation`), and for every candidate plays it and then the rest
   of the round with the heuristic in every seat, scoring the end for this seat (its utility: the ruleset's
   points, or another measure);
3. after the budget (``iterations`` deals, or ``budget_ms`` of thinking, or whichever comes first when both are
   given), it plays the candidate with the best mean, the heuristic's order breaking ties.

``budget_ms`` is a hard limit on the whole decision: it is counted from the moment ``choose`` is called and
checked before every move of every play-out, and a deal whose play-outs it interrupts is dropped (so all
candidates are still compared on the same deals); a decision that runs out of time before one deal is
complete plays the heuristic's choice. The search stops a little short of the limit (5%, at most 20 ms:
:func:`decision_deadline`), so the step in hand when it stops (one heuristic move, or rebuilding one sampled
deal) and the choice end within it, and decides with the cycle collector paused (:func:`collector_paused`).

Every candidate is tried on the same sampled deals, so their comparison is paired: the luck of the deal is
common to all of them and only the consequences of the choice differ. This is perfect-information Monte
Carlo over determinisations with a one-ply tree (the information-set root's actions); the rollouts model the
other seats with the same heuristic. The sampled deals come from the seat's observation alone and the bot's
own seeded RNG: with an ``iterations`` budget, the same seed and observation give the same play. A
``budget_ms`` limit makes the number of deals depend on the machine's speed, so a decision it cuts short
(``last_cut``) may differ from run to run; ``iterations=30, budget_ms=900`` is reproducible whenever the 30
deals fit in the time.

Under a stock (two players drawing on a pass), the cards no hand holds are the stock, in a random order.

``isearch`` (:class:`InferenceSearchBot`) adds beliefs, the learned network's candidates and prior, and successive
halving. Its parts live apart: the options (:mod:`bigtwo.bots.search_config`), what they resolve to at a table
(:mod:`bigtwo.bots.search_plan`, printed by ``bigtwo bots show isearch``), the sampled deals
(:mod:`bigtwo.bots.sampling`), the play-outs (:mod:`bigtwo.bots.playouts`) and the sharing of deals among the
candidates (:mod:`bigtwo.bots.halving`); this module holds the two bots.
"""

from __future__ import annotations

import gc
import math
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any, cast

from bigtwo.bots.base import BaseBot
from bigtwo.bots.halving import effective_size, estimates, halved, stage_deals, stages, tempered_weights
from bigtwo.bots.heuristic import WIN, HeuristicPolicy, best_distinct, giveaway_order, policy_for, search_candidates
from bigtwo.bots.playouts import NetworkPlayouts, heuristic_points
from bigtwo.bots.registry import register
from bigtwo.bots.sampling import (
    MAX_FAILED_SAMPLES,
    DealSampler,
    PlayModel,
    WeightedDeals,
    determinised,
    too_many_failures,
)
from bigtwo.bots.search_config import AUTO, SHIPPED, Playout, SearchConfig
from bigtwo.bots.search_network import SearchNetwork
from bigtwo.bots.search_plan import SearchPlan, adjusted, crossed, resolve_plan
from bigtwo.bots.view import engine_of, played_in, view_from_observation
from bigtwo.cards import fold_copies
from bigtwo.combos.play import Play
from bigtwo.errors import BigTwoError
from bigtwo.game import Game
from bigtwo.observation import Observation
from bigtwo.rules.ruleset import Ruleset
from bigtwo.utilities import UTILITIES


@contextmanager
def collector_paused() -> Iterator[None]:
    """Python's cycle collector paused for one decision of a search (``search``, ``isearch`` and those built on
    them), as it was after. A full collection walks every object the process holds (the heuristic's plan caches
    among them): 15-20 ms of every 1 s decision went to collections, and one that began just before the deadline
    ended past it. A search makes no reference cycles (after a decision with the collector paused a collection
    finds nothing to free; a test holds it so), so reference counting frees its play-outs as they end and pausing
    the collector keeps nothing alive.

    The decision ends with a collection of the youngest generation alone (about a millisecond: what the decision
    made and kept), so none falls due the moment the collector is enabled again: the collection that was pending
    then, of an older generation whenever its turn had come, walked every object the process holds inside the
    decision's time (10-50 ms past a 1 s budget). It now comes later, when it falls due again outside a decision."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.collect(0)
            gc.enable()


SAFETY_SHARE = 0.05  # of budget_ms kept back for the step in hand and the choice (at most SAFETY_MS)
SAFETY_MS = 20.0


def decision_deadline(budget_ms: float | None) -> float | None:
    """When a search with ``budget_ms`` a decision stops (a ``time.perf_counter()`` value), or None: a little
    before the limit, so that the step in hand when the time is up, and the choice, fit in what is left."""
    if budget_ms is None:
        return None
    return time.perf_counter() + (budget_ms - min(SAFETY_SHARE * budget_ms, SAFETY_MS)) / 1000


@register("search")
class SearchBot(BaseBot):
    """Determinised Monte Carlo search over the heuristic's best candidates, heuristic rollouts."""

    name = "search"
    words = "Thinks: plays its best few moves out on guesses of the hidden hands and keeps the one that scores best."

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
        if utility != AUTO and utility not in UTILITIES:
            raise ValueError(f"utility {utility!r} is not 'auto' or one of {', '.join(UTILITIES)}")
        self.budget_ms = budget_ms
        self.iterations = iterations
        self.candidates = candidates
        self.utility = utility
        self.last_iterations = 0  # deals fully searched for the last decision (for benchmarks)
        self.last_cut = False  # the last decision's search was stopped by ``budget_ms``

    def choose_play(self, rules: Ruleset, observation: Observation) -> Play:
        with collector_paused():
            return self._decide(rules, observation)

    def measure(self, rules: Ruleset) -> str:
        """What its play-outs are scored in: ``utility``, or the rules' own measure (``'auto'``)."""
        return rules.play_measure if self.utility == AUTO else self.utility

    def _decide(self, rules: Ruleset, observation: Observation) -> Play:
        deadline = decision_deadline(self.budget_ms)
        legal = self.legal(rules, observation)
        self.last_iterations = 0
        self.last_cut = False
        if len(legal) == 1:
            return legal[0]
        policy = policy_for(engine_of(rules, observation))
        ranked = policy.scores(view_from_observation(rules, observation, legal))
        # going out now, else the best few and the pass (holding back is always worth weighing)
        cands = search_candidates(ranked, self.candidates) if self.candidates > 1 else [ranked[0][1]]
        if len(cands) == 1:
            return cands[0]
        return self._search(rules, observation, policy, cands, deadline)

    def _search(
        self, rules: Ruleset, obs: Observation, policy: HeuristicPolicy, cands: list[Play], deadline: float | None
    ) -> Play:
        seat = obs.seat
        assert seat is not None
        measure = self.measure(rules)
        sampler = DealSampler(rules, obs)
        totals = [0.0] * len(cands)
        done = 0
        failures = 0
        while True:
            base = determinised(rules, obs, sampler.sample(self.rng), self.rng)
            if base is None:
                failures += 1
                if failures > MAX_FAILED_SAMPLES:
                    raise too_many_failures()
                continue
            played0 = played_in(base)
            gains = []
            for a in cands:
                g = base.clone()
                a = g.play(a)  # (with two decks, the copy this sample's hand holds)
                point = heuristic_points(g, seat, measure, policy, played0 | a.mask, deadline)
                if point is None:
                    break  # out of time: this deal is dropped, so every candidate keeps the same deals
                gains.append(point)
            if len(gains) < len(cands):
                self.last_cut = True
                break
            for i, v in enumerate(gains):
                totals[i] += v
            done += 1
            if self.iterations is not None and done >= self.iterations:
                break
            if deadline is not None and time.perf_counter() >= deadline:
                self.last_cut = self.iterations is not None
                break
        self.last_iterations = done
        best = max(range(len(cands)), key=lambda i: (totals[i], -i))
        return cands[best]

    def exchange_order(self, rules: Ruleset, observation: Observation, hand: int) -> list[int]:
        return giveaway_order(rules, observation, hand)


def may_play_learned(playout: Any, budget_ms: Any) -> bool:
    """Whether a search with these ``playout`` and ``budget_ms`` settings has the network play every seat of its
    play-outs at some table (at four players scored by cards left, past the crossover, where ``'auto'`` chooses
    it)."""
    return playout == Playout.LEARNED or (playout == Playout.AUTO and crossed(budget_ms, 4, "cards"))


@register("isearch")
class InferenceSearchBot(SearchBot):
    """Search with belief inference, the learned network as a prior and successive halving of candidates.

    Its options are :class:`~bigtwo.bots.search_config.SearchConfig`'s; at each table it plays the
    :class:`~bigtwo.bots.search_plan.SearchPlan` they resolve to there (:meth:`plan_for`, found once a table)."""

    name = "isearch"
    words = (
        "Thinks hardest: guesses the hidden hands from what everyone played and passed, and weighs its trained "
        "network's judgment with moves played out on those guesses."
    )
    # the deleted options (docs/lab/2026-12-07-search-options-retired.md) at the values with which the bot played
    # as it plays today: a match saved with them is still today's (:func:`bigtwo.arena.provenance.differences`)
    retired_settings: Mapping[str, Any] = {
        "beliefs": True, "belief_strength": 1.0, "blend": 0.0, "deals_together": 4, "halving": True, "horizon": 0,
        "heuristic_opponents": 0.0, "lookahead": 1, "min_ess": 0.3, "model": "heuristic", "opponent_candidates": 0,
        "opponent_temperature": 0.0, "playout_weights": "same", "replies": 0, "reply_candidates": 2, "resample": 0,
        "temperature": None, "uniform": None, "win_bonus": 0.0,
    }  # fmt: skip

    def __init__(
        self,
        seed: int | None = None,
        budget_ms: float | None = None,
        iterations: int | None = None,
        utility: str = AUTO,
        candidates: int | None = None,
        learned_candidates: int | None = None,
        prior: float = 20.0,
        playout: str = Playout.AUTO.value,
        weights: str | None = None,
        opponent_weights: str | None = SHIPPED,
        belief_weights: str | None = AUTO,
    ):
        config = SearchConfig(
            budget_ms=budget_ms,
            iterations=iterations,
            utility=utility,
            candidates=candidates,
            learned_candidates=learned_candidates,
            prior=prior,
            playout=cast(Playout, playout),  # (a word: checked, in words, and made a Playout there)
            weights=weights,
            opponent_weights=opponent_weights,
            belief_weights=belief_weights,
        )
        super().__init__(seed, budget_ms=config.budget_ms, iterations=config.iterations, utility=config.utility)
        self.config = config
        self.prior = config.prior
        self.playout = config.playout
        self.weights = weights
        self.opponent_weights = opponent_weights
        self.belief_weights = belief_weights
        self._plan_changes: dict[str, Any] = {}
        self._plans: dict[tuple[Ruleset, int], SearchPlan] = {}
        self._networks: dict[tuple[Ruleset, int], SearchNetwork] = {}
        # each table's belief network with its encoder (None: none for the table), found once, not a decision
        self._beliefs: dict[tuple[Ruleset, int, str], Any] = {}
        self._read_files_now()
        # the play-outs of the last decision
        self.last_playout: Playout = Playout.MIXED if config.playout == Playout.AUTO else config.playout
        self.last_effective_deals = 0.0  # the last decision's effective number of deals under the beliefs
        self.last_counts: dict[str, int] = {}  # deals each candidate of the last decision was played out on
        # each candidate's mean play-out value (points of the measure, under the beliefs' weights, not shrunk
        # towards the network's) and its deals, by the candidate's cards (0: the pass), for the last decision
        # that searched with successive halving: what expert iteration teaches the network
        self.last_values: dict[int, tuple[float, int]] = {}
        # the longest stretch of the last decision's side-by-side play-outs between two looks at the clock (one
        # network pass, or one heuristic move, and whatever the machine took from the process meanwhile): a step
        # starts only if one that long still ends before the deadline
        self.longest_step = 0.0

    @classmethod
    def from_config(cls, config: SearchConfig, seed: int | None = None) -> InferenceSearchBot:
        """The bot with ``config``'s options."""
        c = config
        return cls(
            seed, c.budget_ms, c.iterations, c.utility, c.candidates, c.learned_candidates, c.prior,
            c.playout.value, c.weights, c.opponent_weights, c.belief_weights,
        )  # fmt: skip

    def _read_files_now(self) -> None:
        """Read the networks this bot may need (once a process) and check named files now, in words, not inside
        the first decision's time."""
        from bigtwo.bots.belief import belief_file, read_shipped_beliefs
        from bigtwo.bots.learned import load_weights, read_shipped

        learned = self.may_play_learned()
        which = self.belief_weights
        if which not in (None, SHIPPED, AUTO):
            belief_file(which)
        elif which == SHIPPED or (which == AUTO and learned):
            read_shipped_beliefs()
        if self.weights is None:
            read_shipped("search")
            read_shipped()
        elif load_weights(self.weights).meta.get("target") == "policy":
            raise BigTwoError(
                f"weights {self.weights} were fitted to a bot's choices: a search weighs the values of actions, "
                "which they do not give"
            )
        if self.opponent_weights == SHIPPED:
            if learned:
                read_shipped("standin")
        elif self.opponent_weights is not None:
            load_weights(self.opponent_weights)

    def adjust_plan(self, **changes: Any) -> InferenceSearchBot:
        """Change fields of every plan this bot makes (:class:`SearchPlan`'s, such as ``halving=False`` or
        ``deals_together=n``): for the lab's pipelines and the tests, which weigh what is no option of the bot.
        Returns the bot."""
        self._plan_changes = {**self._plan_changes, **changes}
        self._plans.clear()
        return self

    def plan_for(self, rules: Ruleset, players: int) -> SearchPlan:
        """What this bot does at a table of ``players`` under ``rules``: its options' ``'auto'`` resolved by the
        rule of :mod:`bigtwo.bots.search_plan`, found once a table."""
        key = (rules, players)
        plan = self._plans.get(key)
        if plan is None:
            network = self._network_for(rules, players)
            scorer = network.scorer
            plan = resolve_plan(
                self.config,
                rules,
                players,
                network.label if scorer is not None else None,
                scorer.utility if scorer is not None else None,
                self._shipped_names(rules, players),
            )
            if self._plan_changes:
                plan = adjusted(plan, self._plan_changes)
            self._plans[key] = plan
        return plan

    @staticmethod
    def _shipped_names(rules: Ruleset, players: int) -> dict[str, str]:
        """The shipped files ``'shipped'`` reads at this table, for the printed plan."""
        from bigtwo.bots.belief import shipped_beliefs
        from bigtwo.bots.learned import shipped_weights

        out = {}
        tables = SearchNetwork.tables(rules, players)
        standins = shipped_weights("standin")
        name = next((standins[t] for t in tables if t in standins), None)
        if name is not None:
            out["opponents"] = name
        beliefs = shipped_beliefs()
        name = next((beliefs[t] for t in tables if t in beliefs), None)
        if name is not None:
            out["beliefs"] = f"belief/{name}"
        return out

    def _network_for(self, rules: Ruleset, players: int) -> SearchNetwork:
        key = (rules, players)
        got = self._networks.get(key)
        if got is None:
            got = self._networks[key] = SearchNetwork(rules, players, self.weights, self.opponent_weights)
        return got

    def may_play_learned(self) -> bool:
        """Whether the network may play every seat of this bot's play-outs at some table (the models of the
        opponents it would need are read when it is made, not inside a decision's time)."""
        return may_play_learned(self.config.playout, self.config.budget_ms)

    @staticmethod
    def shipped_files(settings: Mapping[str, Any]) -> dict[str, str]:
        """The options whose settings may read one of the package's networks besides the search's own, with its
        folder under ``weights/``: a match's record keeps those networks' digests beside the files a spec names,
        so that what played is known whether a file was named or shipped (:mod:`bigtwo.arena.provenance`)."""
        learned = may_play_learned(settings.get("playout"), settings.get("budget_ms"))
        out = {}
        if learned and settings.get("opponent_weights") == SHIPPED:
            out["opponent_weights"] = "standin"
        belief = settings.get("belief_weights")
        if belief == SHIPPED or (learned and belief == AUTO):
            out["belief_weights"] = "belief"
        return out

    def _decide(self, rules: Ruleset, observation: Observation) -> Play:
        deadline = decision_deadline(self.budget_ms)
        legal = self.legal(rules, observation)
        self.last_iterations = 0
        self.last_cut = False
        self.last_effective_deals = 0.0
        self.last_counts = {}
        self.last_values = {}
        self.longest_step = 0.0
        if len(legal) == 1:
            return legal[0]
        policy = policy_for(engine_of(rules, observation))
        ranked = policy.scores(view_from_observation(rules, observation, legal))
        if ranked[0][0] >= WIN:
            return ranked[0][1]  # going out now
        plan = self.plan_for(rules, observation.players)
        network = self._network_for(rules, observation.players)
        cands = best_distinct(ranked, plan.heuristic_candidates)
        q = network.values(rules, observation, legal)
        prior: dict[int, float] = {}
        shrink = False
        if q is not None and network.scorer is not None:
            by_q = sorted(range(len(legal)), key=lambda i: -q[i])
            # the network's best distinct plays (with two decks a card's copies are one play) the heuristic's lack
            taken = {fold_copies(p.mask) for p in cands}
            for p in best_distinct([(0.0, legal[i]) for i in by_q], plan.network_candidates):
                if fold_copies(p.mask) not in taken:
                    cands.append(p)
            prior = {p.mask: q[i] for i, p in enumerate(legal)}
            # the network's values are points of the measure it was trained on (a card left, or a place): they
            # weigh in beside play-outs scored the same way, and otherwise only choose when no deal was searched
            shrink = plan.measure == network.scorer.utility
        if legal[-1].is_pass and legal[-1] not in cands and plan.heuristic_candidates > 1:
            cands.append(legal[-1])
        if len(cands) == 1:
            return cands[0]
        return self._search_candidates(rules, observation, plan, policy, cands, prior, shrink, deadline)

    def _deal_sampler(self, rules: Ruleset, obs: Observation) -> DealSampler:
        """Where the searched deals come from: the seat's observation alone, dealt by the belief network where
        one is chosen and applies (a diagnostic that measures what perfect beliefs would be worth replaces it,
        outside the package)."""
        found = self._belief_net(rules, obs)
        if found is None:
            return DealSampler(rules, obs)
        from bigtwo.bots.belief import BeliefSampler

        return BeliefSampler(rules, obs, *found)

    def _belief_net(self, rules: Ruleset, obs: Observation) -> Any:
        """The belief network and its encoder that deal this decision's hidden cards, or None (none chosen,
        none for the table, beliefs off, or a table it does not read)."""
        plan = self.plan_for(rules, obs.players)
        which = plan.belief_network
        if which is None or not plan.weigh_beliefs:
            return None
        from bigtwo.bots.belief import applies, belief_for

        if not applies(rules, obs):
            return None
        key = (rules, obs.players, which)
        if key not in self._beliefs:
            self._beliefs[key] = belief_for(which, rules, obs.players)
        return self._beliefs[key]

    def _belief_model(self, rules: Ruleset, obs: Observation, policy: HeuristicPolicy) -> PlayModel | None:
        """The likelihood of the others' observed plays and passes on a sampled deal, or None where there is
        nothing to weigh (beliefs off, a belief network dealing, or nothing an opponent did that the model
        reads)."""
        if not self.plan_for(rules, obs.players).weigh_beliefs or self._belief_net(rules, obs) is not None:
            return None
        model = PlayModel(rules, obs, policy)
        return model if model.active else None

    def _search_candidates(
        self,
        rules: Ruleset,
        obs: Observation,
        plan: SearchPlan,
        policy: HeuristicPolicy,
        cands: list[Play],
        prior: dict[int, float],
        shrink: bool,
        deadline: float | None,
    ) -> Play:
        """The choice among ``cands`` (the heuristic's best, the network's and the pass) by successive halving
        over sampled deals (:mod:`bigtwo.bots.halving`)."""
        seat = obs.seat
        assert seat is not None
        network = self._network_for(rules, obs.players)
        scorer = network.scorer
        deals_of = WeightedDeals(
            rules, obs, self._deal_sampler(rules, obs), self._belief_model(rules, obs, policy), self.rng
        )
        k = len(cands)
        rounds = stages(k, plan.halving)
        start = time.perf_counter()
        alive = list(range(k))
        logw: list[float] = []  # a log-weight a deal
        values: list[dict[int, float]] = []  # the candidates' play-out values on each deal
        stage = 0
        self.last_playout = plan.playout
        together = plan.plays_together
        runner = None
        if together:
            learned = plan.playout == Playout.LEARNED
            # a model of the opponents moves them only where the network plays every seat of the play-outs
            runner = NetworkPlayouts(
                seat, plan.measure, policy, scorer, learned, network.opponents if learned else None, deadline
            )

        def stage_over(done: int) -> bool:
            if self.iterations is not None:
                return done >= stage_deals(self.iterations, stage, rounds)
            assert deadline is not None
            return time.perf_counter() >= start + (deadline - start) * (stage + 1) / rounds

        line_seconds = 0.0  # how long a line (a deal after one candidate) of the last side-by-side group took

        def group_size() -> int:
            """How many deals to play out side by side next: the plan's ``deals_together`` where the network
            plays them together, one otherwise; with an ``iterations`` budget never past the end of a stage, so a
            search counted in deals chooses as it would one deal at a time; with a deadline, no more than the
            last group's pace says will end before it (0: not even one, so the search stops rather than start a
            group that the deadline would throw away)."""
            if not together:
                return 1
            size = plan.deals_together
            if self.iterations is not None:
                size = min(size, self.iterations - len(values))
                if len(alive) > 1 and stage < rounds - 1:
                    size = min(size, max(1, stage_deals(self.iterations, stage, rounds) - len(values)))
            elif deadline is not None and line_seconds > 0:
                return min(size, int((deadline - time.perf_counter()) / (line_seconds * len(alive))))
            return max(1, size)

        while True:
            if self.iterations is not None and len(values) >= self.iterations:
                break
            want = group_size()
            if want < 1:
                self.last_cut = True
                break
            deals: list[tuple[float, Game]] = []
            for _ in range(want):
                drawn = deals_of.next(deadline)
                if drawn is None:
                    self.last_cut = self.last_cut or deals_of.cut
                    break
                deals.append(drawn)
            exhausted = len(deals) < want
            if not deals:
                break
            began, lines = time.perf_counter(), len(deals) * len(alive)
            found = self._play_out_deals(deals, cands, alive, seat, plan.measure, policy, runner, deadline)
            if found is not None and together:
                line_seconds = (time.perf_counter() - began) / lines
            if found is None:
                self.last_cut = True
                break
            for (lw, _base), gains in zip(deals, found, strict=True):
                logw.append(lw)
                values.append(gains)
                if len(alive) > 1 and stage < rounds - 1 and stage_over(len(values)):
                    weights = tempered_weights(logw, plan.min_ess)
                    alive = halved(alive, estimates(alive, weights, values, cands, prior, shrink, plan.prior))
                    stage += 1
            if exhausted:
                break
            if deadline is not None and time.perf_counter() >= deadline:
                self.last_cut = self.iterations is not None
                break
        if runner is not None:
            self.longest_step = runner.longest_step
        self.last_iterations = len(values)
        self.last_counts = {str(c): sum(1 for v in values if i in v) for i, c in enumerate(cands)}
        weights = tempered_weights(logw, plan.min_ess)
        self.last_effective_deals = effective_size(weights)
        for i, c in enumerate(cands):
            ws = [(w, v[i]) for w, v in zip(weights, values, strict=True) if i in v]
            total = math.fsum(w for w, _ in ws)
            if total > 0:
                self.last_values[c.mask] = (math.fsum(w * x for w, x in ws) / total, len(ws))
        est = estimates(alive, weights, values, cands, prior, shrink, plan.prior)
        best = max(alive, key=lambda i: (est[i], -i))
        if est[best] == -math.inf:
            return cands[0]  # no deal searched and no prior: the heuristic's choice
        return cands[best]

    def _play_out_deals(
        self,
        deals: list[tuple[float, Game]],
        cands: list[Play],
        alive: list[int],
        seat: int,
        measure: str,
        policy: HeuristicPolicy,
        runner: NetworkPlayouts | None,
        deadline: float | None,
    ) -> list[dict[int, float]] | None:
        """Every live candidate played out on each of ``deals`` (sampled positions): this seat's points, by
        candidate, a deal. Side by side (``runner``, every line of every deal at once) where the network plays,
        else one line at a time. None when the deadline passes first: the deals are dropped, so every live
        candidate keeps the same deals."""
        if runner is not None:
            lines: list[Game] = []
            marks: list[int] = []
            for _lw, base in deals:
                played0 = played_in(base)
                for i in alive:
                    g = base.clone()
                    lines.append(g)
                    marks.append(played0 | g.play(cands[i]).mask)  # (with two decks, this deal's copy)
            got = runner.points(lines, marks)
            if got is None:
                return None
            k = len(alive)
            return [dict(zip(alive, got[d * k : (d + 1) * k], strict=True)) for d in range(len(deals))]
        out = []
        for _lw, base in deals:
            played0 = played_in(base)
            gains: dict[int, float] = {}
            for i in alive:
                g = base.clone()
                a = g.play(cands[i])
                point = self._play_on(g, seat, measure, policy, played0 | a.mask, deadline)
                if point is None:
                    return None
                gains[i] = point
            out.append(gains)
        return out

    def _play_on(
        self, game: Game, seat: int, measure: str, policy: HeuristicPolicy, played: int, deadline: float | None
    ) -> float | None:
        """This seat's points from ``game`` (a sampled deal after a candidate) played to its end by the heuristic
        in every seat, one line at a time (a diagnostic may play them otherwise); None when the deadline passes
        first."""
        return heuristic_points(game, seat, measure, policy, played, deadline)


__all__ = [
    "InferenceSearchBot",
    "SearchBot",
    "collector_paused",
    "decision_deadline",
    "may_play_learned",
]
