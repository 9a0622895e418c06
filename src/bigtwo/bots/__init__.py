"""Computer players. Every bot sees only a seat's observation (plus the ruleset) and returns a legal Play.

``bigtwo.bots.make("greedy", seed=1)`` builds one by name; :data:`BOTS` lists the names.
"""

from bigtwo.bots.base import BOTS, Bot, make, register

__all__ = ["BOTS", "Bot", "make", "register"]
