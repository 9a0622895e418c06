"""Computer players. Every bot sees only a seat's observation (plus the ruleset) and returns a legal Play,
or the cards it gives when the observation asks for an exchange.

``bigtwo.bots.make("heuristic", seed=1)`` builds one by name: ``random`` and ``greedy`` (reference
opponents), ``heuristic`` (hand plans, control, defence; under a few ms a move) and ``search`` (determinised
Monte Carlo search with heuristic rollouts; ``budget_ms=`` or ``iterations=``) and ``learned`` (a Q network
trained by self-play, run in numpy; weights ship for the tables listed by ``bigtwo.bots.learned.shipped_weights``).
"""

from bigtwo.bots import learned as _learned  # noqa: F401  (registers ``learned``; base.py lists the others)
from bigtwo.bots.base import BOTS, BaseBot, Bot, bot_names, make, register

__all__ = ["BOTS", "BaseBot", "Bot", "bot_names", "make", "register"]
