"""Computer players. Every bot sees only a seat's :class:`~bigtwo.observation.Observation` (plus the ruleset)
and returns a legal action: a play or a pass, or its answer to a decision the rules put to it.

``bigtwo.bots.make("heuristic", seed=1)`` builds one by name: ``random`` and ``greedy`` (reference
opponents), ``heuristic`` (hand plans, control, defence; under a few ms a move), ``search`` (determinised
Monte Carlo search with heuristic rollouts; ``budget_ms=`` or ``iterations=``), ``isearch`` (the search with
beliefs, the network's prior and successive halving; ``bigtwo bots show isearch`` prints what it does at a table)
and ``learned`` (a Q network trained by self-play, run in numpy; weights ship for the tables listed by
``bigtwo.bots.learned.shipped_weights``). Importing this package loads every built-in bot module, and each
registers itself: the registry is complete on import.
"""

from bigtwo.bots import heuristic, learned, search, simple
from bigtwo.bots.base import BaseBot, Bot
from bigtwo.bots.registry import BOTS, bot_names, make, register

__all__ = [
    "BOTS",
    "BaseBot",
    "Bot",
    "bot_names",
    "heuristic",
    "learned",
    "make",
    "register",
    "search",
    "simple",
]
