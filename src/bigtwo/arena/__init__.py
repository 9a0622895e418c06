"""Tournaments between bots: duplicate deals, intervals over deals, local processes or a Ray cluster.

``run_arena(rules, "heuristic,greedy,greedy,greedy", games=2000)`` plays every deal once per seat rotation
and returns an :class:`ArenaResult` (records, per-bot summary with 95% intervals, table, JSON/CSV, plot);
``ArenaResult.pooled`` joins matches on several deal sets and :func:`compare` measures one bot beside another
on the deals both played.
"""

from bigtwo.arena.compare import Comparison, compare
from bigtwo.arena.play import GameRecord, play_game
from bigtwo.arena.results import ArenaResult, BotSummary
from bigtwo.arena.run import play_chunk, run_arena
from bigtwo.arena.stats import Interval, clustered_interval, mean_interval, wilson_interval
from bigtwo.bots.spec import BotSpec, parse_lineup

__all__ = [
    "ArenaResult",
    "BotSpec",
    "BotSummary",
    "Comparison",
    "GameRecord",
    "Interval",
    "clustered_interval",
    "compare",
    "mean_interval",
    "parse_lineup",
    "play_chunk",
    "play_game",
    "run_arena",
    "wilson_interval",
]
