"""Information-set Monte Carlo tree search: the search that looks past its own decision.

``isearch`` scores each candidate by play-outs in which every later move is the heuristic's first choice; the
players at the table search, and a candidate that only works against the heuristic's reply is overrated. This
bot grows one tree over the moves of every seat instead (single-observer ISMCTS, Cowling, Powley and Whitehouse
2012): each *iteration* takes a deal consistent with what this seat has seen, walks down the tree choosing at
each node by UCB1 among the moves that are possible on that deal (the candidates at the root; elsewhere the
mover's heuristic's best ``width`` moves and the pass), adds one node, plays the rest of the round out with the
heuristic and backs the points up, each node scored for the seat that moved into it. The other seats thus
answer each candidate with the reply that is best *for them* over the deals, as a searching opponent would,
and the replies that matter get the play-outs.

What it shares with ``isearch``: the candidates at the root (the heuristic's best, the network's best and the
pass), the beliefs (sampled deals weighted by the likelihood of every opponent's observed plays and passes,
tempered), the network's values as a prior (``prior`` virtual play-outs of each root candidate), the play-out
policies and the hard ``budget_ms`` a decision. The weighted deals form a pool that grows as the search goes
(a new deal every ``reuse`` iterations), and each iteration draws its deal from the pool by weight.

Availability: at a node where the mover's options depend on the deal (an opponent's hand), UCB1 counts for each
move the visits in which it was possible (``avail``) instead of the parent's visits. The move played is the
root candidate with the most visits (virtual ones included), the better mean breaking ties.

Measured against three ``search`` at 1 s a decision (60 duplicate deals, README): +0.23 [-0.71, +1.18] points a
game, deal by deal -0.75 beside ``isearch``'s +0.99; at 0.1 s -0.45 beside it. Answering each candidate as a
searching opponent would has not helped against these opponents, so ``isearch`` stays first in the strength order
and this bot is a baseline (the standard search of the card-game literature) to build on.
"""

from __future__ import annotations

import bisect
import itertools
import math
import time
from typing import Any

from bigtwo.bots.heuristic import WIN, best_and_pass
from bigtwo.bots.registry import register
from bigtwo.bots.sampling import DealSampler, PlayModel
from bigtwo.bots.search import (
    MAX_FAILED_SAMPLES,
    InferenceSearchBot,
    ModelOfPlay,
    determinised,
    effective_size,
    played_in,
    rollout,
    tempered_weights,
)
from bigtwo.bots.view import view_from_game
from bigtwo.cards import fold_copies
from bigtwo.combos.play import Play
from bigtwo.game import Game
from bigtwo.observation import Observation
from bigtwo.rules.ruleset import Ruleset
from bigtwo.utilities import round_utility


class Node:
    """The statistics of one move in the tree (the move from the parent's position), for the seat that made it."""

    __slots__ = ("avail", "children", "total", "visits")

    def __init__(self, visits: float = 0.0, total: float = 0.0) -> None:
        self.children: dict[int, Node] = {}
        self.visits = visits  # play-outs through this move (the prior's virtual ones included)
        self.total = total  # their points for the mover, in hands of 13 cards
        self.avail = visits  # the parent's visits in which this move was possible

    def mean(self) -> float:
        return self.total / self.visits if self.visits else -math.inf


class DealPool:
    """Deals consistent with the observation, each with its log-likelihood under the beliefs, drawn by tempered
    weight (:func:`~bigtwo.bots.search.tempered_weights`); the weights are recomputed as the pool grows by a
    quarter, a newer deal waiting until then."""

    def __init__(
        self,
        rules: Ruleset,
        obs: Observation,
        model: PlayModel | None,
        min_ess: float,
        rng: Any,
        sampler: DealSampler | None = None,
    ):
        self.rules, self.obs, self.model, self.min_ess, self.rng = rules, obs, model, min_ess, rng
        self.sampler = sampler if sampler is not None else DealSampler(rules, obs)
        self.games: list[Game] = []
        self.played: list[int] = []
        self.logw: list[float] = []
        self.cumulative: list[float] = []
        self.failures = 0
        self.exhausted = False  # too many sampled deals contradicted the history: the pool stays as it is

    def add(self, deadline: float | None) -> bool:
        """Sample one more deal; False when the deadline passed first or no consistent deal was found."""
        while True:
            hands, lw = self.sampler.sample_weighted(self.rng)
            if self.model is not None:
                got = self.model.log_likelihood(hands, deadline)
                if got is None:
                    return False
                lw += got
            base = determinised(self.rules, self.obs, hands, self.rng) if lw > -math.inf else None
            if base is not None:
                break
            self.failures += 1
            if self.failures > MAX_FAILED_SAMPLES:
                self.exhausted = True
                return False
        self.games.append(base)
        self.played.append(played_in(base))
        self.logw.append(lw)
        if len(self.logw) <= 16 or len(self.logw) >= 1.25 * len(self.cumulative):
            self.cumulative = list(itertools.accumulate(self.weights()))
        return True

    def weights(self) -> list[float]:
        return tempered_weights(self.logw, self.min_ess)

    def draw(self) -> int:
        """The index of a deal, drawn by weight."""
        cum = self.cumulative
        return min(bisect.bisect_right(cum, self.rng.random() * cum[-1]), len(cum) - 1)


@register("ismcts")
class ISMCTSBot(InferenceSearchBot):
    """Information-set MCTS over every seat's moves, with isearch's candidates, beliefs and prior."""

    name = "ismcts"
    words = "Thinks with a tree of every player's moves, grown over guesses of the hidden hands."

    def __init__(
        self,
        seed: int | None = None,
        budget_ms: float | None = None,
        iterations: int | None = None,
        candidates: int = 6,
        learned_candidates: int = 2,
        beliefs: bool = True,
        model: str = "heuristic",
        prior: float = 20.0,
        width: int = 2,
        exploration: float = 0.7,
        reuse: int = 4,
        min_ess: float = 0.3,
        utility: str = "auto",
    ):
        super().__init__(
            seed,
            budget_ms=budget_ms,
            iterations=iterations,
            candidates=candidates,
            learned_candidates=learned_candidates,
            beliefs=beliefs,
            model=model,
            prior=prior,
            min_ess=min_ess,
            utility=utility,
            opponent_weights=None,  # its play-outs are the heuristic's: no network moves the other seats
            belief_weights=None,  # its pool weighs uniform deals by the heuristic's likelihood
        )
        for option, value, ok, rule in (
            ("width", width, width >= 1, "be 1 or more"),
            ("exploration", exploration, exploration >= 0, "be 0 or more"),
            ("reuse", reuse, reuse >= 1, "be 1 or more"),
        ):
            if not ok:
                raise ValueError(f"{option} must {rule}, not {value}")
        self.width = width
        self.exploration = exploration
        self.reuse = reuse
        self.last_depth = 0  # the deepest node of the last decision's tree, in moves from the root
        self.last_tree: Node | None = None  # the last decision's tree (its root), for a caller to inspect

    def choose_play(self, rules: Ruleset, observation: Observation) -> Play:
        self.last_tree = None
        self.last_depth = 0
        return super().choose_play(rules, observation)

    def _deal_pool(self, rules: Ruleset, obs: Observation, model: PlayModel | None) -> DealPool:
        """Where the searched deals come from: the seat's observation alone (a test or a diagnostic may search
        the true deal instead)."""
        return DealPool(rules, obs, model, self.min_ess, self.rng, self._deal_sampler(rules, obs))

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
        seat = obs.seat
        assert seat is not None
        measure = self.measure(rules)
        scale = 13.0 if measure in ("cards", "score") else 1.0  # points in hands, so that UCB's constant fits
        model = self._belief_model(rules, obs, play)
        pool = self._deal_pool(rules, obs, model)
        root = self.last_tree = Node()
        virtual: dict[int, float] = {}
        for c in cands:
            q = prior.get(c.mask) if shrink else None
            k = fold_copies(c.mask)
            virtual[k] = self.prior if q is not None else 0.0
            root.children[k] = Node(virtual[k], virtual[k] * (q or 0.0) / scale)
        done = 0
        depth = 0
        while self.iterations is None or done < self.iterations:
            if deadline is not None and time.perf_counter() >= deadline:
                break
            grow = len(pool.games) * self.reuse <= done and not pool.exhausted
            if grow and not pool.add(deadline) and not pool.exhausted:
                self.last_cut = True  # out of time
                break
            if not pool.games:
                break  # no deal to search: the heuristic's choice
            got = self._iterate(pool, root, cands, seat, measure, scale, play, deadline)
            if got is None:
                self.last_cut = self.iterations is not None
                break
            depth = max(depth, got)
            done += 1
        self.last_iterations = done
        self.last_depth = depth
        self.last_effective_deals = effective_size(pool.weights())
        first = {fold_copies(c.mask): c for c in cands}
        self.last_counts = {str(first[k]): round(n.visits - virtual[k]) for k, n in root.children.items()}
        if done == 0:
            return cands[0]
        best = max(root.children.items(), key=lambda kv: (kv[1].visits, kv[1].mean()))
        return first[best[0]]

    def _options(self, game: Game, seat: int, play: ModelOfPlay, played: int, parent: int) -> list[Play]:
        """The mover's moves in the tree: the heuristic's best ``width`` and the pass (only the move that goes
        out, when one does)."""
        mover = game.to_move
        ranker = play.mine if mover == seat else play.others
        ranked = ranker.scores(view_from_game(game, played), parent)
        if ranked[0][0] >= WIN:
            return [ranked[0][1]]
        return best_and_pass(ranked, self.width)

    def _iterate(
        self,
        pool: DealPool,
        root: Node,
        cands: list[Play],
        seat: int,
        measure: str,
        scale: float,
        play: ModelOfPlay,
        deadline: float | None,
    ) -> int | None:
        """One iteration on a deal drawn from the pool: select, expand one node, play out, back up. Returns the
        depth reached in the tree, or None when the deadline passed first (nothing is backed up)."""
        i = pool.draw()
        game = pool.games[i].clone()
        played = pool.played[i]
        previous = [game.hand(s).mask for s in range(game.n)]
        node = root
        path: list[tuple[Node, int]] = []  # (the move's node, the seat that made it)
        offered: list[tuple[Node, list[int]]] = []  # (a node, the keys of the moves possible there)
        c = self.exploration
        clock = time.perf_counter
        while not game.is_over:
            if deadline is not None and clock() >= deadline:
                return None
            mover = game.to_move
            if node is root:
                options = cands
            else:
                options = self._options(game, seat, play, played, previous[mover])
            keys = [fold_copies(o.mask) for o in options]
            offered.append((node, keys))
            children = node.children
            chosen = -1
            for j, k in enumerate(keys):
                child = children.get(k)
                if child is None or child.visits == 0:
                    chosen = j
                    break
            expanding = chosen >= 0
            if not expanding:
                best = -math.inf
                for j, k in enumerate(keys):
                    child = children[k]
                    ucb = child.total / child.visits + c * math.sqrt(math.log(child.avail + 1) / child.visits)
                    if ucb > best:
                        best, chosen = ucb, j
            k = keys[chosen]
            child = children.get(k)
            if child is None:
                child = children[k] = Node()
            hand = game.hand(mover).mask
            action = game.play(options[chosen])  # (with two decks, the copy this deal's hand holds)
            if action.mask:
                previous[mover] = hand
                played |= action.mask
            path.append((child, mover))
            node = child
            if expanding:
                break
        rollout(game, play.others, played, deadline, (seat, play.mine))
        if game.result is None:
            return None
        points = round_utility(game.result, measure)
        for parent, keys in offered:
            for k in keys:
                child = parent.children.get(k)
                if child is None:
                    child = parent.children[k] = Node()
                child.avail += 1
        for child, mover in path:
            child.visits += 1
            child.total += points[mover] / scale
        return len(path)
