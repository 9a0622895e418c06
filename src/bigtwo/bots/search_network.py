"""The learned networks a search weighs with at one table: its own (or a file's) and the opponents' model."""

from __future__ import annotations

from functools import cached_property
from typing import Any

from bigtwo.bots.search_config import SHIPPED
from bigtwo.combos.play import Play
from bigtwo.observation import Observation
from bigtwo.rules.ruleset import Ruleset


class SearchNetwork:
    """The learned networks for one table, for a search: ``scorer``'s Q values of a decision's legal actions (in
    points, from the observation), its moves in the play-outs and value of a position (from a sampled deal). The
    searches' own shipped network where the package has one (``weights/search/``, measured stronger inside the
    search than the learned bot's), else the learned bot's where it has that (else none), or a weights file
    (``weights``), which must fit the table and value actions (a network fitted to a bot's choices only ranks
    them)."""

    def __init__(self, rules: Ruleset, players: int, weights: str | None = None, opponents: str | None = None):
        from bigtwo.bots.learned import installed_policy, load_weights, scorer_for, scorer_of, shipped_weights

        self._table = (rules, players)
        self._which_opponents = opponents
        if weights is None:
            self.scorer = scorer_for(rules, players, "search") or scorer_for(rules, players)
            self.label: str | None = None
            if self.scorer is not None and self.scorer.net is installed_policy(rules, players):
                self.label = "the network trained here for these rules (bigtwo train)"
            elif self.scorer is not None:
                for kind in ("search", ""):
                    found = shipped_weights(kind)
                    name = next((found[k] for k in self.tables(rules, players) if k in found), None)
                    if name is not None and scorer_for(rules, players, kind) is not None:
                        self.label = f"{name} (shipped)"
                        break
                else:
                    self.label = "the shipped network"
        else:
            self.scorer = scorer_of(load_weights(weights), rules, players, weights)
            self.label = weights

    @staticmethod
    def tables(rules: Ruleset, players: int) -> list[tuple[str, int]]:
        """The shipped tables whose files serve these rules and players (a preset's, or one whose rounds they are)."""
        return [(preset, players) for preset in rules.game_presets(scoring=False)]

    @cached_property
    def opponents(self) -> Any:
        """The network that moves the other seats of the play-outs where it is not the play-outs' own (a model of
        the opponents: its values only rank their moves, so one fitted to a bot's choices serves as well): the
        package's stand-in for the table ("shipped", None where it has none), a file's, or None. Found where
        first asked for, so that a search whose play-outs never need it does not spend a decision's time on it."""
        from bigtwo.bots.learned import load_weights, scorer_for, scorer_of

        which = self._which_opponents
        if which == SHIPPED:
            return scorer_for(*self._table, "standin")
        return None if which is None else scorer_of(load_weights(which), *self._table, which)

    def values(self, rules: Ruleset, obs: Observation, legal: list[Play]) -> list[float] | None:
        if self.scorer is None:
            return None
        return [float(v) * self.scorer.scale for v in self.scorer.q_observed(rules, obs, legal)]


__all__ = ["SearchNetwork"]
