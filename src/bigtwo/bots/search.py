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
"""

from __future__ import annotations

import gc
import math
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from functools import cached_property
from typing import Any, NamedTuple

import numpy as np

from bigtwo.bots.base import BaseBot
from bigtwo.bots.fitted import fitted_model, weights_for
from bigtwo.bots.heuristic import (
    WIN,
    HeuristicPolicy,
    best_and_pass,
    best_distinct,
    giveaway_order,
    policy_for,
    search_candidates,
)
from bigtwo.bots.registry import register
from bigtwo.bots.sampling import DealSampler, PlayModel
from bigtwo.bots.view import engine_of, played_in, view_from_game, view_from_observation
from bigtwo.cards import fold_copies
from bigtwo.combos.play import Play
from bigtwo.errors import BigTwoError, IllegalPlay
from bigtwo.game import Game
from bigtwo.observation import Observation
from bigtwo.positions import position_from_observation
from bigtwo.rules.ruleset import Ruleset
from bigtwo.scoring import RoundResult
from bigtwo.utilities import UTILITIES, round_utility

MAX_FAILED_SAMPLES = 100


def shuffle_stock(game: Game, rng: Any) -> None:
    """Put a determinisation's stock in a random order. ``position_from_observation`` deals the sampled hands
    and lays the rest of the unseen cards out as the stock in card order; drawn in that order, every draw in
    a play-out would be the lowest card left."""
    stock = list(game._stock[game._stock_pos :])
    rng.shuffle(stock)
    game._stock = tuple(stock)
    game._stock_pos = 0


def determinised(rules: Ruleset, obs: Observation, hands: list[int], rng: Any) -> Game | None:
    """The position a search plays out on a sampled deal (``hands``, from :class:`DealSampler`), its stock in a
    random order; None where the public history contradicts the sample (a constraint the sampler could not meet),
    which the search skips and counts towards :data:`MAX_FAILED_SAMPLES`."""
    try:
        base = position_from_observation(rules, obs, hands)
    except IllegalPlay:
        return None
    if base.stock_size > 1:
        shuffle_stock(base, rng)
    return base


def too_many_failures() -> IllegalPlay:
    """What a search raises when no deal it sampled agrees with what the table has seen."""
    return IllegalPlay(f"none of {MAX_FAILED_SAMPLES + 1} sampled deals agrees with the table's history")


def rollout(
    game: Game,
    policy: HeuristicPolicy,
    played: int | None = None,
    deadline: float | None = None,
    mine: tuple[int, HeuristicPolicy] | None = None,
) -> Game:
    """Play ``game`` to its end with ``policy`` in every seat (in place); returns it. ``mine``: one seat and
    the policy that plays it instead.

    With a ``deadline`` (a ``time.perf_counter()`` value) the play-out stops once it has passed, leaving the
    round unfinished (``game.is_over`` is false): a caller with a time limit drops that play-out.
    """
    if played is None:
        played = played_in(game)
    previous = [game.hand(s).mask for s in range(game.n)]  # lets a plan reuse the last hand's work
    clock = time.perf_counter
    seat, own = mine if mine is not None else (-1, policy)
    while not game.is_over:
        if deadline is not None and clock() >= deadline:
            break
        played = heuristic_step(game, own if game.to_move == seat else policy, played, previous)
    return game


def heuristic_step(game: Game, policy: HeuristicPolicy, played: int, previous: list[int]) -> int:
    """Play the heuristic's move for the seat to move; returns ``played`` with its cards. ``previous`` holds each
    seat's hand at its last play (a plan reuses that hand's work) and is updated."""
    seat = game.to_move
    view = view_from_game(game, played)
    action = game.play(policy.act(view, previous[seat]))
    if action.mask:
        previous[seat] = view.hand
        return played | action.mask
    return played


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
        if utility != "auto" and utility not in UTILITIES:
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
        return rules.play_measure if self.utility == "auto" else self.utility

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
                rollout(g, policy, played0 | a.mask, deadline)
                if g.result is None:
                    break  # out of time: this deal is dropped, so every candidate keeps the same deals
                gains.append(round_utility(g.result, measure)[seat])
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


class _Network:
    """The learned networks for one table, for a search: ``scorer``'s Q values of a decision's legal actions (in
    points, from the observation), and ``playouts``' moves in the play-outs and value of a position (from a
    sampled deal). The searches' own shipped network where the package has one (``weights/search/``, measured
    stronger inside the search than the learned bot's), else the learned bot's where it has that (else none), or
    a weights file (``weights``), which must fit the table and value actions (a network fitted to a bot's
    choices only ranks them). The play-outs' network is the same, or the one distilled for them where the
    package has one (``weights/playout/``, from stage 10), or another file's: twice the deals a decision, level
    in strength at 1 s."""

    def __init__(
        self,
        rules: Ruleset,
        players: int,
        weights: str | None = None,
        playouts: str = "same",
        opponents: str | None = None,
    ):
        from bigtwo.bots.learned import load_weights, scorer_for, scorer_of

        self._table = (rules, players)
        self._which_opponents = opponents
        if weights is None:
            self.scorer = scorer_for(rules, players, "search") or scorer_for(rules, players)
        else:
            self.scorer = scorer_of(load_weights(weights), rules, players, weights)
        # the network that moves in the play-outs and values where they stop: the search's own ('same'), a smaller
        # one distilled from the shipped network where the package has one ('distilled'), or a file's
        self.playouts = self.scorer
        if self.scorer is None or playouts == "same":
            return
        if playouts == "distilled":
            if weights is None:
                self.playouts = scorer_for(rules, players, "playout") or self.scorer
            return
        self.playouts = scorer_of(load_weights(playouts), rules, players, playouts)
        if self.playouts.utility != self.scorer.utility:
            raise BigTwoError(
                f"playout_weights {playouts} value {self.playouts.utility!r}, the network's values "
                f"{self.scorer.utility!r}: play-outs and prior must be points of the same measure"
            )

    @cached_property
    def opponents(self) -> Any:
        """The network that moves the other seats of the play-outs where it is not the play-outs' own (a model of
        the opponents: its values only rank their moves, so one fitted to a bot's choices serves as well): the
        package's stand-in for the table ("shipped", None where it has none), a file's, or None. Found where
        first asked for, so that a search whose play-outs never need it does not spend a decision's time on it."""
        from bigtwo.bots.learned import load_weights, scorer_for, scorer_of

        which = self._which_opponents
        if which == "shipped":
            return scorer_for(*self._table, "standin")
        return None if which is None else scorer_of(load_weights(which), *self._table, which)

    def values(self, rules: Ruleset, obs: Observation, legal: list[Play]) -> list[float] | None:
        if self.scorer is None:
            return None
        return [float(v) * self.scorer.scale for v in self.scorer.q_observed(rules, obs, legal)]


PLAYOUTS = ("auto", "heuristic", "learned", "mixed")
# playout='auto': the network plays every seat of the play-outs from this much time a decision at a table where
# that was measured ahead of 'mixed' (four players, one point a card left, 1 s), and the searching seat's only
# elsewhere (measured at 0.1 s, and at 1 s with three players); a network move costs about three of the
# heuristic's, so a short search completes a third of the deals with it in every seat
LEARNED_PLAYOUT_MS = 1000.0
BELIEF_TEMPERATURE, BELIEF_UNIFORM = 0.5, 0.25  # the beliefs' softmax over the heuristic's own scores
# isearch's model of play: the heuristic's own weights; those fitted to a search everywhere (candidates, play-outs,
# beliefs); fitted in the beliefs only (the opponents' past plays judged by the fit, the rest by the heuristic);
# tuned for points in the candidates and every seat of the play-outs; or tuned in the candidates and this seat's
# play-outs only (the other seats and the beliefs keep the heuristic's own)
MODELS = ("heuristic", "fitted", "beliefs", "tuned", "tuned-own")


class ModelOfPlay(NamedTuple):
    """The heuristics a search decides with: ``ranker`` chooses its candidates, ``mine`` plays its own seat in
    the play-outs and ``others`` the other seats; ``belief`` is the beliefs' heuristic with the temperature and
    uniform share of their softmax over its scores."""

    ranker: HeuristicPolicy
    mine: HeuristicPolicy
    others: HeuristicPolicy
    belief: tuple[HeuristicPolicy, float, float]


def effective_size(weights: list[float]) -> float:
    """Kish's effective number of equally weighted samples."""
    squares = math.fsum(w * w for w in weights)
    return math.fsum(weights) ** 2 / squares if squares > 0 else 0.0


def tempered_weights(logw: list[float], min_ess: float) -> list[float]:
    """The deals' weights ``exp(beta * logw)``, with the largest ``beta`` in [0, 1] that keeps the effective
    number of deals at least ``min_ess`` of them (adaptive tempering).

    Weighted by the full likelihood, a few deals that explain the table best take nearly all the weight (an
    effective 2 to 10 deals of 50 to 100 searched, measured on classic rounds), and the search's averages become
    as noisy as a handful of play-outs; tempering keeps what the beliefs say about which deals are likelier
    while every estimate rests on a share of the deals searched."""
    if not logw:
        return []
    top = max(logw)
    centred = [x - top for x in logw]

    def at(beta: float) -> list[float]:
        return [math.exp(beta * x) for x in centred]

    full = at(1.0)
    need = min_ess * len(logw)
    if min_ess <= 0 or effective_size(full) >= need:
        return full
    low, high = 0.0, 1.0  # ESS(low) >= need > ESS(high)
    for _ in range(20):
        mid = (low + high) / 2
        if effective_size(at(mid)) >= need:
            low = mid
        else:
            high = mid
    return at(low)


# isearch's candidates when none are given: (the heuristic's best, the network's best). Where the network plays
# every seat of the play-outs, three and three (fewer candidates, so fewer whose noisy estimates come out on top by
# luck); elsewhere six and two, as measured there
FEW_CANDIDATES, MANY_CANDIDATES = (3, 3), (6, 2)


def auto_playout(budget_ms: float | None, players: int, measure: str) -> str:
    """The play-outs ``playout='auto'`` chooses for a search with ``budget_ms`` a decision at a table of
    ``players`` scored in ``measure``: the network in every seat where that was measured the stronger (four
    players, cards left, from :data:`LEARNED_PLAYOUT_MS`), else the network in the searching seat and the
    heuristic in the others (a search counted in deals alone keeps those, as before the choice was measured)."""
    learned = budget_ms is not None and budget_ms >= LEARNED_PLAYOUT_MS and players == 4 and measure == "cards"
    return "learned" if learned else "mixed"


def may_play_learned(playout: Any, budget_ms: Any) -> bool:
    """Whether a search with these ``playout`` and ``budget_ms`` settings has the network play every seat of its
    play-outs at some table (at four players scored by cards left, where ``'auto'`` chooses it)."""
    return playout == "learned" or (playout == "auto" and auto_playout(budget_ms, 4, "cards") == "learned")


@register("isearch")
class InferenceSearchBot(SearchBot):
    """Search with belief inference, the learned network as a prior and successive halving of candidates."""

    name = "isearch"
    words = (
        "Thinks hardest: guesses the hidden hands from what everyone played and passed, and weighs its trained "
        "network's judgment with moves played out on those guesses."
    )

    def __init__(
        self,
        seed: int | None = None,
        budget_ms: float | None = None,
        iterations: int | None = None,
        candidates: int | None = None,
        learned_candidates: int | None = None,
        beliefs: bool = True,
        model: str = "heuristic",
        temperature: float | None = None,
        uniform: float | None = None,
        belief_strength: float = 1.0,
        resample: int = 0,
        prior: float = 20.0,
        blend: float = 0.0,
        halving: bool = True,
        playout: str = "auto",
        horizon: int = 0,
        replies: int = 0,
        reply_candidates: int = 2,
        min_ess: float = 0.3,
        utility: str = "auto",
        weights: str | None = None,
        playout_weights: str = "same",
        deals_together: int = 4,
        opponent_candidates: int = 0,
        opponent_weights: str | None = "shipped",
        lookahead: int = 1,
        opponent_temperature: float = 0.0,
        heuristic_opponents: float = 0.0,
        win_bonus: float = 0.0,
        belief_weights: str | None = "auto",
    ):
        super().__init__(seed, budget_ms=budget_ms, iterations=iterations, candidates=candidates or 1, utility=utility)
        if playout not in PLAYOUTS:
            raise ValueError(f"playout {playout!r} is not one of {', '.join(PLAYOUTS)}")
        if model not in MODELS:
            raise ValueError(f"model {model!r} is not one of {', '.join(MODELS)}")
        for option, value, ok, rule in (
            ("candidates", candidates, candidates is None or candidates >= 1, "be 1 or more"),
            (
                "learned_candidates",
                learned_candidates,
                learned_candidates is None or learned_candidates >= 0,
                "be 0 or more",
            ),
            ("temperature", temperature, temperature is None or temperature > 0, "be positive"),
            ("uniform", uniform, uniform is None or 0 < uniform <= 1, "lie in (0, 1]"),
            ("prior", prior, prior >= 0, "be 0 or more"),
            ("blend", blend, 0 <= blend <= 1, "lie in [0, 1]"),
            ("belief_strength", belief_strength, 0 <= belief_strength <= 1, "lie in [0, 1]"),
            ("resample", resample, resample >= 0, "be 0 or more"),
            ("horizon", horizon, horizon >= 0, "be 0 (play to the end) or more"),
            ("replies", replies, replies >= 0, "be 0 or more"),
            ("reply_candidates", reply_candidates, reply_candidates >= 1, "be 1 or more"),
            ("min_ess", min_ess, 0 <= min_ess <= 1, "lie in [0, 1]"),
            ("deals_together", deals_together, deals_together >= 1, "be 1 or more"),
            ("opponent_candidates", opponent_candidates, opponent_candidates >= 0, "be 0 or more"),
            ("lookahead", lookahead, lookahead >= 1, "be 1 (the network's best move alone) or more"),
            ("opponent_temperature", opponent_temperature, opponent_temperature >= 0, "be 0 (their best move) or more"),
            ("heuristic_opponents", heuristic_opponents, 0 <= heuristic_opponents <= 1, "lie in [0, 1]"),
            ("win_bonus", win_bonus, win_bonus >= 0, "be 0 or more"),
        ):
            if not ok:
                raise ValueError(f"{option} must {rule}, not {value}")
        for option, value in (
            ("lookahead", lookahead > 1),
            ("opponent_temperature", opponent_temperature > 0),
            ("heuristic_opponents", heuristic_opponents > 0),
            ("opponent_weights", opponent_weights not in (None, "shipped")),
        ):
            if value and replies:
                raise ValueError(
                    f"{option} changes the play-outs played side by side, which replies play one line at a time: "
                    "choose one"
                )
        self.playout = playout
        self.last_playout = "mixed" if playout == "auto" else playout  # the play-outs of the last decision
        self.horizon = horizon
        self.replies = replies
        self.reply_candidates = reply_candidates
        self.min_ess = min_ess
        self.belief_strength = belief_strength
        self.resample = resample
        # None: chosen for the table at each decision (FEW_CANDIDATES or MANY_CANDIDATES)
        self.candidates_option = candidates
        self.learned_candidates = learned_candidates
        self.beliefs = beliefs
        self.model = model
        self.temperature = temperature
        self.uniform = uniform
        self.prior = prior
        self.blend = blend
        self.halving = halving
        self.weights = weights
        self.playout_weights = playout_weights
        self.deals_together = deals_together
        # the network's moves for the other seats in the play-outs: among every legal action (0), or among their
        # heuristic's best k and the pass, as a `search` opponent chooses among them
        self.opponent_candidates = opponent_candidates
        # the network that moves the other seats of the network's play-outs in place of the search's own (a model
        # of the opponents: "shipped", the package's stand-in for `search` at the table where it has one, fitted
        # by `bigtwo standin`; or a file's; None, the play-outs' own); where it was fitted among the moves a
        # search weighs, they choose among those (as ``opponent_candidates`` says)
        self.opponent_weights = opponent_weights
        self._opponents: Any = None  # its scorer at this decision's table (None: the play-outs' network)
        # the searching seat's next decision in each play-out: its network's best move (1), or the best of its
        # network's best k, each played out on (a one-move look further ahead on the sampled deal)
        self.lookahead = lookahead
        # the other seats' moves in the network's play-outs: its best (0), or drawn from a softmax over its values
        # at this temperature, in points (a search's opponents do not answer the same way on every deal)
        self.opponent_temperature = opponent_temperature
        # the share of sampled deals whose other seats the heuristic plays in play-outs the network otherwise
        # plays whole: a mixture of two models of how the opponents play (a `search` opponent ranks its moves
        # with the heuristic and judges them by play-outs, so it plays like neither model alone)
        self.heuristic_opponents = heuristic_opponents
        # points added to a play-out's worth where the searching seat goes out first: a search whose play-outs
        # play every seat alike wins no more rounds than its field, and this weighs going out above the measure
        self.win_bonus = win_bonus
        # the beliefs' source: None, the opponents' past plays judged by the model of play (``PlayModel``); a
        # belief network ("shipped": the package's for the table, where it has one; or a file) that deals the
        # hidden cards where it applies (:mod:`bigtwo.bots.belief`); "auto": the package's where the network
        # plays every seat of the play-outs (where it was measured, within the 1 s target's spec), else None
        self.belief_weights = belief_weights
        # each table's belief network with its encoder (None: none for the table), found once, not a decision
        self._beliefs: dict[tuple[Ruleset, int, str], Any] = {}
        from bigtwo.bots.belief import belief_file, read_shipped_beliefs

        if belief_weights not in (None, "shipped", "auto"):
            belief_file(belief_weights)  # read (once a process) and checked now, in words, not at a decision
        elif belief_weights == "shipped" or (belief_weights == "auto" and self.may_play_learned()):
            read_shipped_beliefs()  # (once a process) now, not inside the first decision's time
        from bigtwo.bots.learned import load_weights, read_shipped

        # the shipped networks read (once a process) now, not inside the first decision's time
        if weights is None:
            read_shipped("search")
            read_shipped()
            if playout_weights == "distilled":
                read_shipped("playout")
        if opponent_weights == "shipped":
            if self.may_play_learned():
                read_shipped("standin")
        elif opponent_weights is not None:
            load_weights(opponent_weights)  # read (once a process) and checked now, not inside a decision
        for option, path in (("weights", weights), ("playout_weights", playout_weights)):
            if path is None or (option == "playout_weights" and path in ("same", "distilled")):
                continue
            # read (once a process) and checked now, not inside the first decision's time
            if load_weights(path).meta.get("target") == "policy":
                raise BigTwoError(
                    f"{option} {path} were fitted to a bot's choices: a search weighs the values of actions, "
                    "which they do not give"
                )
        self._networks: dict[tuple[Ruleset, int], _Network] = {}
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

    def _network_for(self, rules: Ruleset, players: int) -> _Network:
        key = (rules, players)
        got = self._networks.get(key)
        if got is None:
            got = self._networks[key] = _Network(
                rules, players, self.weights, self.playout_weights, self.opponent_weights
            )
        return got

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
        model = self._model_of_play(rules, observation)
        ranked = model.ranker.scores(view_from_observation(rules, observation, legal))
        if ranked[0][0] >= WIN:
            return ranked[0][1]  # going out now
        measure = self.measure(rules)
        network = self._network_for(rules, observation.players)
        # a model of the opponents moves them only where the network plays every seat of the play-outs
        learned = self.table_playout(observation.players, measure) == "learned"
        self._opponents = network.opponents if learned else None
        heuristic_n, network_n = self.candidate_counts(observation.players, measure, network.scorer is not None)
        cands = best_distinct(ranked, heuristic_n)
        q = network.values(rules, observation, legal)
        prior: dict[int, float] = {}
        shrink = False
        if q is not None and network.scorer is not None:
            by_q = sorted(range(len(legal)), key=lambda i: -q[i])
            # the network's best distinct plays (with two decks a card's copies are one play) the heuristic's lack
            taken = {fold_copies(p.mask) for p in cands}
            for p in best_distinct([(0.0, legal[i]) for i in by_q], network_n):
                if fold_copies(p.mask) not in taken:
                    cands.append(p)
            prior = {p.mask: q[i] for i, p in enumerate(legal)}
            # the network's values are points of the measure it was trained on (a card left, or a place): they
            # weigh in beside play-outs scored the same way, and otherwise only choose when no deal was searched
            shrink = measure == network.scorer.utility
        if legal[-1].is_pass and legal[-1] not in cands and heuristic_n > 1:
            cands.append(legal[-1])
        if len(cands) == 1:
            return cands[0]
        return self._search_candidates(rules, observation, model, cands, prior, shrink, network.playouts, deadline)

    def candidate_counts(self, players: int, measure: str, networked: bool) -> tuple[int, int]:
        """How many of the heuristic's best moves and of the network's best are candidates: as given, else
        :data:`FEW_CANDIDATES` where the network plays every seat of the play-outs and :data:`MANY_CANDIDATES`
        elsewhere."""
        auto = FEW_CANDIDATES if networked and self.table_playout(players, measure) == "learned" else MANY_CANDIDATES
        given = (self.candidates_option, self.learned_candidates)
        return (auto[0] if given[0] is None else given[0], auto[1] if given[1] is None else given[1])

    def table_playout(self, players: int, measure: str) -> str:
        """The play-outs at a table of ``players`` scored in ``measure``: as given, or as ``'auto'`` chooses."""
        return auto_playout(self.budget_ms, players, measure) if self.playout == "auto" else self.playout

    def may_play_learned(self) -> bool:
        """Whether the network may play every seat of this bot's play-outs at some table (the models of the
        opponents it would need are read when it is made, not inside a decision's time)."""
        return may_play_learned(self.playout, self.budget_ms)

    @staticmethod
    def shipped_files(settings: Mapping[str, Any]) -> dict[str, str]:
        """The options whose settings may read one of the package's networks besides the search's own, with its
        folder under ``weights/``: a match's record keeps those networks' digests beside the files a spec names,
        so that what played is known whether a file was named or shipped (:mod:`bigtwo.arena.provenance`)."""
        learned = may_play_learned(settings.get("playout"), settings.get("budget_ms"))
        out = {}
        if learned and settings.get("opponent_weights") == "shipped":
            out["opponent_weights"] = "standin"
        belief = settings.get("belief_weights")
        if belief == "shipped" or (learned and belief == "auto"):
            out["belief_weights"] = "belief"
        return out

    def _search_candidates(
        self,
        rules: Ruleset,
        obs: Observation,
        play: ModelOfPlay,
        cands: list[Play],
        prior: dict[int, float],
        shrink: bool,
        scorer: Any,
        deadline: float | None,
    ) -> Play:
        """The choice among ``cands`` (the heuristic's best, the network's and the pass): successive halving over
        sampled deals here; the tree search of :mod:`bigtwo.bots.ismcts` in its subclass."""
        return self._halving_search(rules, obs, play, cands, prior, shrink, scorer, deadline)

    def _model_of_play(self, rules: Ruleset, obs: Observation) -> ModelOfPlay:
        """The heuristics of ``model`` for this table: the fitted or tuned weights where the package has them,
        else the heuristic's own (a temperature or uniform share given explicitly always wins)."""
        ev = engine_of(rules, obs)
        own = policy_for(ev)
        fit = fitted_model(rules, obs.players) if self.model in ("fitted", "beliefs") else None
        belief = (own, BELIEF_TEMPERATURE, BELIEF_UNIFORM)
        ranker = mine = others = own
        if fit is not None:
            fitted = policy_for(ev, weights=fit.weights)
            belief = (fitted, fit.temperature, fit.uniform)
            if self.model == "fitted":
                ranker = mine = others = fitted
        elif self.model in ("tuned", "tuned-own"):
            tuned = policy_for(ev, weights=weights_for("tuned", rules, obs.players))
            ranker = mine = tuned
            others = tuned if self.model == "tuned" else own
        if self.temperature is not None:
            belief = (belief[0], self.temperature, belief[2])
        if self.uniform is not None:
            belief = (belief[0], belief[1], self.uniform)
        return ModelOfPlay(ranker, mine, others, belief)

    def _deal_sampler(self, rules: Ruleset, obs: Observation) -> DealSampler:
        """Where the searched deals come from: the seat's observation alone, dealt by the belief network where
        one is chosen and applies (a diagnostic that measures what perfect beliefs would be worth replaces it,
        outside the package: benchmarks/ceiling.py)."""
        found = self._belief_net(rules, obs)
        if found is None:
            return DealSampler(rules, obs)
        from bigtwo.bots.belief import BeliefSampler

        return BeliefSampler(rules, obs, *found)

    def _belief_net(self, rules: Ruleset, obs: Observation) -> Any:
        """The belief network and its encoder that deal this decision's hidden cards, or None (none chosen,
        none for the table, beliefs off, or a table it does not read)."""
        which = self.belief_weights
        if which == "auto":
            measure = self.measure(rules)
            which = "shipped" if self.table_playout(obs.players, measure) == "learned" else None
        if which is None or not self.beliefs:
            return None
        from bigtwo.bots.belief import applies, belief_for

        if not applies(rules, obs):
            return None
        key = (rules, obs.players, which)
        if key not in self._beliefs:
            self._beliefs[key] = belief_for(which, rules, obs.players)
        return self._beliefs[key]

    def _belief_model(self, rules: Ruleset, obs: Observation, play: ModelOfPlay) -> PlayModel | None:
        """The likelihood of the others' observed plays and passes on a sampled deal, or None where there is
        nothing to weigh (beliefs off, or nothing an opponent did that the model reads)."""
        if not self.beliefs or self.belief_strength <= 0 or self._belief_net(rules, obs) is not None:
            return None
        model = PlayModel(rules, obs, *play.belief, self.belief_strength)
        return model if model.active else None

    def _halving_search(
        self,
        rules: Ruleset,
        obs: Observation,
        play: ModelOfPlay,
        cands: list[Play],
        prior: dict[int, float],
        shrink: bool,
        scorer: Any,
        deadline: float | None,
    ) -> Play:
        seat = obs.seat
        assert seat is not None
        measure = self.measure(rules)
        sampler = self._deal_sampler(rules, obs)
        model = self._belief_model(rules, obs, play)
        k = len(cands)
        rounds = max(1, math.ceil(math.log2(k))) if self.halving else 1
        start = time.perf_counter()
        alive = list(range(k))
        logw: list[float] = []  # a log-weight a deal
        values: list[dict[int, float]] = []  # the candidates' play-out values on each deal
        stage = 0
        failures = 0
        self.last_playout = self.table_playout(obs.players, measure)
        together = self._plays_together(scorer)

        def estimates(which: list[int], weights: list[float]) -> dict[int, float]:
            """Each candidate's value: the deals' weighted mean, shrunk towards the prior by ``prior`` deals, or
            with a ``blend``, that share of the network's value and the rest the mean, however many deals."""
            out = {}
            for i in which:
                ws = [(w, v[i]) for w, v in zip(weights, values, strict=True) if i in v]
                total = math.fsum(w for w, _ in ws)
                p = prior.get(cands[i].mask)
                if total <= 0:
                    out[i] = p if p is not None else -math.inf
                    continue
                mean = math.fsum(w * x for w, x in ws) / total
                if p is None or not shrink:
                    out[i] = mean
                elif self.blend > 0:
                    out[i] = (1 - self.blend) * mean + self.blend * p
                elif self.prior > 0:
                    ess = total * total / math.fsum(w * w for w, _ in ws)
                    out[i] = (ess * mean + self.prior * p) / (ess + self.prior)
                else:
                    out[i] = mean
            return out

        def stage_over(done: int) -> bool:
            if self.iterations is not None:
                return done >= math.ceil(self.iterations * (stage + 1) / rounds)
            assert deadline is not None
            return time.perf_counter() >= start + (deadline - start) * (stage + 1) / rounds

        def next_deal() -> tuple[float, Game] | None:
            """The next sampled deal to search with its log-weight, or None: out of time (``last_cut``), or no
            deal the public history allows after many tries."""
            nonlocal failures
            while True:
                lw = 0.0
                if model is not None and self.resample > 1:
                    # sampling-importance-resampling: of `resample` uniform deals, keep one drawn by its
                    # likelihood, so play-outs go to deals that explain the table and every kept deal weighs the same
                    batch: list[tuple[float, list[int]]] = []
                    for _ in range(self.resample):
                        drawn = sampler.sample(self.rng)
                        got = model.log_likelihood(drawn, deadline)
                        if got is None:
                            break
                        if got > -math.inf:
                            batch.append((got, drawn))
                    if len(batch) < self.resample and deadline is not None and time.perf_counter() >= deadline:
                        self.last_cut = True
                        return None
                    if not batch:
                        failures += 1
                        if failures > MAX_FAILED_SAMPLES:
                            return None
                        continue
                    top = max(x for x, _ in batch)
                    hands = self.rng.choices([h for _, h in batch], weights=[math.exp(x - top) for x, _ in batch])[0]
                else:
                    hands, lw = sampler.sample_weighted(self.rng)
                    if model is not None:
                        got = model.log_likelihood(hands, deadline)
                        if got is None:
                            self.last_cut = True
                            return None
                        if got == -math.inf:
                            failures += 1
                            if failures > MAX_FAILED_SAMPLES:
                                return None
                            continue
                        lw += got
                base = determinised(rules, obs, hands, self.rng)
                if base is None:
                    failures += 1
                    if failures > MAX_FAILED_SAMPLES:
                        raise too_many_failures()
                    continue
                return lw, base

        line_seconds = 0.0  # how long a line (a deal after one candidate) of the last side-by-side group took

        def group_size() -> int:
            """How many deals to play out side by side next: ``deals_together`` where the network plays them
            together, one otherwise; with an ``iterations`` budget never past the end of a stage, so a search
            counted in deals chooses as it would one deal at a time; with a deadline, no more than the last group's
            pace says will end before it (0: not even one, so the search stops rather than start a group that
            the deadline would throw away)."""
            if not together:
                return 1
            size = self.deals_together
            if self.iterations is not None:
                size = min(size, self.iterations - len(values))
                if len(alive) > 1 and stage < rounds - 1:
                    size = min(size, max(1, math.ceil(self.iterations * (stage + 1) / rounds) - len(values)))
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
                drawn = next_deal()
                if drawn is None:
                    break
                deals.append(drawn)
            exhausted = len(deals) < want
            if not deals:
                break
            began, lines = time.perf_counter(), len(deals) * len(alive)
            found = self._play_out_deals(
                deals, cands, alive, seat, measure, play, scorer, together, deadline, first=len(values)
            )
            if found is not None and together:
                line_seconds = (time.perf_counter() - began) / lines
            if found is None:
                self.last_cut = True
                break
            for (lw, _base), gains in zip(deals, found, strict=True):
                logw.append(lw)
                values.append(gains)
                if len(alive) > 1 and stage < rounds - 1 and stage_over(len(values)):
                    est = estimates(alive, tempered_weights(logw, self.min_ess))
                    alive.sort(key=lambda i: (-est[i], i))
                    alive = sorted(alive[: math.ceil(len(alive) / 2)])
                    stage += 1
            if exhausted:
                break
            if deadline is not None and time.perf_counter() >= deadline:
                self.last_cut = self.iterations is not None
                break
        self.last_iterations = len(values)
        self.last_counts = {str(c): sum(1 for v in values if i in v) for i, c in enumerate(cands)}
        weights = tempered_weights(logw, self.min_ess)
        self.last_effective_deals = effective_size(weights)
        for i, c in enumerate(cands):
            ws = [(w, v[i]) for w, v in zip(weights, values, strict=True) if i in v]
            total = math.fsum(w for w, _ in ws)
            if total > 0:
                self.last_values[c.mask] = (math.fsum(w * x for w, x in ws) / total, len(ws))
        est = estimates(alive, weights)
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
        play: ModelOfPlay,
        scorer: Any,
        together: bool,
        deadline: float | None,
        first: int = 0,
    ) -> list[dict[int, float]] | None:
        """Every live candidate played out on each of ``deals`` (sampled positions): this seat's points, by
        candidate, a deal. Side by side (:meth:`_play_out_together`, every line of every deal at once) where the
        network plays, else one line at a time. None when the deadline passes first: the deals are dropped, so
        every live candidate keeps the same deals. ``first``: how many deals the decision searched before these
        (which of them the heuristic's opponents play, with ``heuristic_opponents``)."""
        if together:
            lines: list[Game] = []
            marks: list[int] = []
            heuristic: list[bool] = []
            for d, (_lw, base) in enumerate(deals):
                played0 = played_in(base)
                for i in alive:
                    g = base.clone()
                    lines.append(g)
                    marks.append(played0 | g.play(cands[i]).mask)  # (with two decks, this deal's copy)
                    heuristic.append(self._heuristic_deal(first + d))
            got = self._play_out_together(lines, seat, measure, play, scorer, marks, deadline, heuristic)
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
                point = self._play_on(g, seat, measure, play, scorer, played0 | a.mask, deadline)
                if point is None:
                    return None
                gains[i] = point
            out.append(gains)
        return out

    def _heuristic_deal(self, index: int) -> bool:
        """Whether the heuristic plays the other seats in the play-outs of a decision's ``index``-th deal (with
        ``heuristic_opponents``: that share of the deals, spread evenly, every candidate of a deal alike)."""
        share = self.heuristic_opponents
        return share > 0 and math.floor((index + 1) * share) > math.floor(index * share)

    def _play_on(
        self,
        game: Game,
        seat: int,
        measure: str,
        play: ModelOfPlay,
        scorer: Any,
        played: int,
        deadline: float | None,
    ) -> float | None:
        """This seat's points from ``game`` (a sampled deal after a candidate): played to the end by the play-out
        policies (``play.mine`` in this seat, ``play.others`` elsewhere), or, with a ``horizon``, up to this
        seat's ``horizon``-th next decision and then the network's value of it; with ``replies``, the first moves
        are searched (:meth:`_searched_replies`). None when the deadline passes first."""
        if self.replies:
            after = self._searched_replies(game, seat, measure, play, played, deadline)
            if after is None:
                return None
            played = after
        learned = scorer is not None and self.last_playout == "learned"
        mine = scorer is not None and self.last_playout == "mixed"  # the network here, the heuristic elsewhere
        stop = self._horizon(scorer, measure)
        if not learned and not mine and not stop:
            rollout(game, play.others, played, deadline, (seat, play.mine))
            return None if game.result is None else self._worth(game.result, measure, seat)
        previous = [game.hand(s).mask for s in range(game.n)]
        clock = time.perf_counter
        turns = 0
        while not game.is_over:
            if deadline is not None and clock() >= deadline:
                return None
            mover = game.to_move
            if mover == seat and stop:
                turns += 1
                if turns >= stop:
                    return scorer.value(game)
            if learned or (mine and mover == seat):
                move = scorer.picks([game], [self._network_options(game, seat, play, played, previous, scorer)])[0]
                before = game.hand(mover).mask
                action = game.play(move)
                if action.mask:
                    previous[mover] = before
                    played |= action.mask
            else:
                policy = play.mine if mover == seat else play.others
                played = heuristic_step(game, policy, played, previous)
        assert game.result is not None
        return self._worth(game.result, measure, seat)

    def _worth(self, result: RoundResult, measure: str, seat: int) -> float:
        """A finished play-out's value for the searching seat: its points in ``measure``, and ``win_bonus`` more
        where it went out first."""
        bonus = self.win_bonus if result.finishing_order[0] == seat else 0.0
        return round_utility(result, measure)[seat] + bonus

    def _horizon(self, scorer: Any, measure: str) -> int:
        """The searching seat's decision at which a play-out stops for the network's value: ``horizon`` where
        the network values this measure, else 0 (played to the end)."""
        return self.horizon if scorer is not None and measure == scorer.utility else 0

    def _plays_together(self, scorer: Any) -> bool:
        """Whether a deal's play-outs go on side by side (:meth:`_play_out_together`): where the network plays
        in them, with no searched replies."""
        return scorer is not None and self.last_playout in ("learned", "mixed") and not self.replies

    def _play_out_together(
        self,
        games: list[Game],
        seat: int,
        measure: str,
        play: ModelOfPlay,
        scorer: Any,
        played: list[int],
        deadline: float | None,
        heuristic: list[bool] | None = None,
    ) -> list[float] | None:
        """This seat's points from each of ``games`` (one sampled deal after each candidate), played to the end
        as :meth:`_play_on` plays one, but side by side: the heuristic moves each line on until the network is
        to move in it (every move with ``playout='learned'``, this seat's with ``'mixed'``), and the network
        then moves every waiting line in one pass (:meth:`GameScorer.q_many`), which reads its weights once for
        all of them. With ``lookahead=k``, at this seat's next decision a line splits into its network's best k
        moves, each played on, and is worth the best of them for this seat. With a ``horizon`` a line stops at this
        seat's ``horizon``-th next decision and is worth the network's value of it, taken from the pass that
        would choose the move there. ``heuristic``: the lines whose other seats the heuristic plays however the
        play-outs are set (``heuristic_opponents``). With ``opponent_weights`` the other seats' moves are that
        network's, in a pass of their own. None when the deadline passes first."""
        learned = self.last_playout == "learned"
        opponents = self._opponents  # None: the play-outs' network moves the other seats too
        their_scale = (opponents or scorer).scale
        others_by_heuristic = [not learned or bool(heuristic and heuristic[j]) for j in range(len(games))]
        lines = list(games)
        root = list(range(len(games)))  # the line each one split from
        split = [self.lookahead < 2] * len(games)  # whether the line is past this seat's next decision
        previous = [[g.hand(s).mask for s in range(g.n)] for g in games]
        played = list(played)
        stop = self._horizon(scorer, measure)
        turns = [0] * len(games)  # this seat's decisions reached in each line
        valued: dict[int, float] = {}  # the lines stopped at the horizon, with the network's value there
        clock = time.perf_counter
        last = clock()

        def late() -> bool:
            """Whether a step as long as the longest so far would end past the deadline (the step in hand is
            then not begun, and the lines are dropped)."""
            nonlocal last
            if deadline is None:
                return False
            now = clock()
            self.longest_step = max(self.longest_step, now - last)
            last = now
            return now + self.longest_step >= deadline

        live = [j for j, g in enumerate(lines) if not g.is_over]
        while live:
            if any(others_by_heuristic[root[j]] for j in live):
                for j in live:
                    if not others_by_heuristic[root[j]]:
                        continue
                    g = lines[j]
                    while not g.is_over and g.to_move != seat:
                        if late():
                            return None
                        played[j] = heuristic_step(g, play.others, played[j], previous[j])
                live = [j for j in live if not lines[j].is_over]
                if not live:
                    break
            if late():
                return None
            waiting = [lines[j] for j in live]
            options = [self._network_options(lines[j], seat, play, played[j], previous[j], scorer) for j in live]
            ending = set()  # the indices into ``live`` of lines at their horizon: valued even with one move
            if stop:
                for i, j in enumerate(live):
                    if lines[j].to_move == seat:
                        turns[j] += 1
                        if turns[j] >= stop:
                            ending.add(i)
            ask = [i for i, legal in enumerate(options) if len(legal) > 1 or i in ending]
            qs: list[Any] = [None] * len(live)
            groups = [(ask, scorer)]
            if opponents is not None:  # this seat's moves by the play-outs' network, the others' by theirs
                groups = [
                    ([i for i in ask if waiting[i].to_move == seat], scorer),
                    ([i for i in ask if waiting[i].to_move != seat], opponents),
                ]
            for group, net in groups:
                if group:
                    found = net.q_many([waiting[i] for i in group], [options[i] for i in group])
                    for i, q in zip(group, found, strict=True):
                        qs[i] = q
            born = []
            for i, (j, legal, q) in enumerate(zip(live, options, qs, strict=True)):
                g = lines[j]
                if i in ending:
                    valued[j] = float(np.max(q)) * scorer.scale
                    continue
                if q is None:  # one move: no choice, and no decision to look past
                    self._network_move(g, legal[0], previous[j], played, j)
                    continue
                order = [int(np.argmax(q)) if g.to_move == seat else self._opponent_pick(q, their_scale)]
                if not split[j] and g.to_move == seat:
                    split[j] = True
                    order = [int(i) for i in np.argsort(-q, kind="stable")[: self.lookahead]]
                    for i in order[1:]:  # the other moves weighed go on as lines of their own
                        born.append(len(lines))
                        lines.append(g.clone())
                        root.append(root[j])
                        split.append(True)
                        turns.append(turns[j])
                        previous.append(list(previous[j]))
                        played.append(played[j])
                        self._network_move(lines[-1], legal[i], previous[-1], played, -1)
                self._network_move(g, legal[order[0]], previous[j], played, j)
            live = [j for j in live + born if not lines[j].is_over and j not in valued]
        points = [-math.inf] * len(games)
        for j, (g, r) in enumerate(zip(lines, root, strict=True)):
            if j in valued:
                points[r] = max(points[r], valued[j])
                continue
            assert g.result is not None
            points[r] = max(points[r], self._worth(g.result, measure, seat))
        return points

    def _opponent_pick(self, q: Any, scale: float) -> int:
        """The index of another seat's move in a play-out among its network values ``q`` (in the network's units,
        ``scale`` points each): the best, or with ``opponent_temperature`` drawn from a softmax over them."""
        if self.opponent_temperature <= 0:
            return int(np.argmax(q))
        z = np.asarray(q, dtype=np.float64) * (scale / self.opponent_temperature)
        p = np.exp(z - z.max())
        cut = self.rng.random() * float(p.sum())
        return min(int(np.searchsorted(np.cumsum(p), cut, side="right")), len(p) - 1)

    @staticmethod
    def _network_move(game: Game, move: Play, previous: list[int], played: list[int], j: int) -> None:
        """Play the network's ``move`` in a play-out line: the mover's hand before it kept in ``previous`` (a
        plan reuses its work) and its cards added to the line's entry ``j`` of ``played``."""
        mover = game.to_move
        before = game.hand(mover).mask
        action = game.play(move)
        if action.mask:
            previous[mover] = before
            played[j] |= action.mask

    def _network_options(
        self, game: Game, seat: int, play: ModelOfPlay, played: int, previous: list[int], scorer: Any
    ) -> list[Play]:
        """The moves the network chooses among for the seat to move in a play-out: its own (every legal action)
        in this seat, and in the others' with ``opponent_candidates=k`` (or an ``opponent_weights`` network fitted
        among them) their heuristic's best k and the pass (the best alone where it goes out), the moves a `search`
        opponent weighs."""
        mover = game.to_move
        if mover == seat:
            return scorer.choices(game)
        count = self.opponent_candidates or (self._opponents.candidates if self._opponents is not None else 0)
        if not count:
            return (self._opponents or scorer).choices(game)
        view = view_from_game(game, played)
        if len(view.legal) == 1:
            return view.legal
        return search_candidates(play.others.scores(view, previous[mover]), count)

    def _searched_replies(
        self, game: Game, seat: int, measure: str, play: ModelOfPlay, played: int, deadline: float | None
    ) -> int | None:
        """Play the first ``replies`` moves after a candidate (in place) as a searching player would on this deal
        (:func:`searched_move`, the mover's policy ranking its options). Returns ``played`` with their cards;
        None when the deadline passes first.

        The opponents at a table search too: a play-out in which they answer with the heuristic's first choice
        overrates the candidates that exploit it. Against three ``search`` one searched reply gained +0.74 points
        a game deal by deal at 0.1 s, and nothing at 1 s, where it costs more deals than it corrects: off by
        default."""
        previous = [game.hand(s).mask for s in range(game.n)]
        for _ in range(self.replies):
            if game.is_over:
                break
            mover = game.to_move
            ranker = play.mine if mover == seat else play.others
            before = game.hand(mover).mask
            choice = searched_move(
                game,
                ranker,
                played,
                previous[mover],
                measure,
                self.reply_candidates,
                play.others,
                (seat, play.mine),
                deadline,
            )
            if choice is None:
                return None
            action = game.play(choice)  # (with two decks, the copy this deal's hand holds)
            if action.mask:
                previous[mover] = before
                played |= action.mask
        return played


def searched_move(
    game: Game,
    ranker: HeuristicPolicy,
    played: int,
    parent: int,
    measure: str,
    options: int,
    policy: HeuristicPolicy,
    mine: tuple[int, HeuristicPolicy] | None = None,
    deadline: float | None = None,
) -> Play | None:
    """The move of the seat to move in ``game`` (a known deal) that a one-move search would play: of ``ranker``'s
    best ``options`` moves and the pass, the one whose play-out (:func:`rollout` with ``policy`` and ``mine``)
    scores best for that seat, the first of equals; the ranker's first choice when it goes out or is alone.
    ``parent``: the seat's hand at its last play (a plan reuses its work). None when the deadline passes first."""
    mover = game.to_move
    ranked = ranker.scores(view_from_game(game, played), parent)
    choice = ranked[0][1]
    cands = best_and_pass(ranked, options)
    if ranked[0][0] < WIN and len(cands) > 1:
        best = -math.inf
        for cand in cands:
            g = game.clone()
            rollout(g, policy, played | g.play(cand).mask, deadline, mine)
            if g.result is None:
                return None
            value = round_utility(g.result, measure)[mover]
            if value > best:
                best, choice = value, cand
    return choice
