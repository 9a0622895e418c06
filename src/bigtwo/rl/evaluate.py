"""A policy's strength against bots on duplicate deals, in lockstep batches (numpy only, no torch).

Each deal is played once per seat rotation, the policy in seat ``rotation`` and the bots in the others; the
deals are seeded as the arena seeds them (``seed * 1_000_003 + deal``), so a run here and
``run_arena(... seed=seed)`` deal the same cards. Points are the arena's utilities; the interval is
Student's t over per-deal means.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from bigtwo.arena.play import bot_seed
from bigtwo.arena.stats import mean_interval
from bigtwo.bots.learned import QPolicy
from bigtwo.bots.spec import BotSpec
from bigtwo.envs.batched import BatchedEnv
from bigtwo.game import Game
from bigtwo.rules.ruleset import Ruleset, load_rules


@dataclass
class Evaluation:
    """Mean points a game of the policy against the bots, with a 95% interval over deals."""

    opponent: str
    deals: int
    games: int
    points: float
    low: float
    high: float
    win_rate: float
    opponents: int = 3  # bots at the table (players - 1)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    def __str__(self) -> str:
        return (
            f"{self.points:+.2f} [{self.low:+.2f}, {self.high:+.2f}] a game vs {opponents_played(self.to_dict())} "
            f"({self.games} games, won {self.win_rate:.0%})"
        )


def opponents_played(evaluation: dict[str, Any]) -> str:
    """Whom an evaluation (its :meth:`Evaluation.to_dict`, as a run's log keeps it) played: ``2 heuristic``.
    Logs from before evaluations counted their bots come from four-player runs."""
    return f"{evaluation.get('opponents', 3)} {evaluation['opponent']}"


def greedy_choices(policy: QPolicy, decisions: Any) -> list[int]:
    """The highest-valued action of every decision of a batch."""
    q = policy.q_batch(decisions.state, decisions.actions, decisions.offsets)
    o = decisions.offsets
    return [int(np.argmax(q[o[j] : o[j + 1]])) for j in range(len(o) - 1)]


def evaluate(
    policy: QPolicy,
    rules: Ruleset | str = "classic",
    players: int | None = None,
    deals: int = 200,
    seed: int = 7,
    opponent: str = "heuristic",
    utility: str = "cards",
    batch: int = 256,
) -> Evaluation:
    """Play ``deals`` duplicate deals (every rotation) of the policy against ``players - 1`` ``opponent`` bots
    (a bot spec)."""
    rules = load_rules(rules)
    n = rules.players if players is None else players
    spec = BotSpec.parse(opponent)  # a name or a spec with options: "learned(weights='old.npz')"
    history = int(policy.meta["history"])
    jobs = [(d, r) for d in range(deals) for r in range(n)]
    per_deal: dict[int, list[float]] = {}
    wins = 0
    for start in range(0, len(jobs), batch):
        chunk = jobs[start : start + batch]

        def game(i: int, episode: int, chunk: list[tuple[int, int]] = chunk) -> Game | None:
            if episode:
                return None
            return Game(rules, players=n, seed=seed * 1_000_003 + chunk[i][0])

        bots = [[None if s == r else spec.build(bot_seed(seed, d, r, (s - r) % n)) for s in range(n)] for d, r in chunk]
        env = BatchedEnv(rules, n, len(chunk), history=history, utility=utility, bots=bots, games=game)
        decisions, finished = env.reset()
        done = list(finished)
        while len(decisions):
            decisions, finished = env.step(decisions, greedy_choices(policy, decisions))
            done += finished
        for f in done:
            d, r = chunk[f.env]
            per_deal.setdefault(d, []).append(f.points[r])
            wins += f.result.finishing_order[0] == r
    means = [float(np.mean(v)) for v in per_deal.values()]
    iv = mean_interval(means)
    return Evaluation(opponent, deals, len(jobs), iv.mean, iv.low, iv.high, wins / len(jobs), n - 1)


__all__ = ["Evaluation", "evaluate", "greedy_choices", "opponents_played"]
