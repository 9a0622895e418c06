"""An exact solver for the end of a round with every hand known: exact values for tests and diagnostics.

A search's play-out plays a sampled deal to its end with a policy (the heuristic or the network), and the points
it brings back are those of that policy's mistakes as much as of the candidate tried. Once few cards are left
the rest of the round is small enough to search whole (``benchmarks/endgame.py`` measures what that is worth):
:class:`EndgameSolver` values a position with every hand known by *max^n* (each seat, at its turn, takes the
move that is best for itself under the measure, every later move chosen the same way), with a transposition
table keyed on :meth:`Game.position_key`, so a position reached by two orders of play is searched once (and
two that only look alike, where the rules read the order of play, are not merged). Ties go to the
move the engine lists first (plays lowest first, then the pass), so the value is a function of the position
alone.

The search walks the engine itself (``Game.play`` and ``Game.undo``), so it follows every rule the round
follows; the measure is read from the round's own result at each end. It gives up (returns None) once it has
visited ``max_nodes`` positions, leaving the round as it was.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from bigtwo.game import Game
from bigtwo.utilities import round_utility

T = TypeVar("T")

# positions a solve may visit before it gives up (about 10 ms of the engine's moves a thousand)
DEFAULT_MAX_NODES = 4000


class EndgameSolver:
    """Max^n values of positions with every hand known, under one measure (see the module's docstring).

    The table is kept between calls (positions of the same deal reach the same endings: a move's value after
    :meth:`best` costs no new search) and cleared by :meth:`clear`."""

    def __init__(self, measure: str = "cards", max_nodes: int = DEFAULT_MAX_NODES):
        if max_nodes < 1:
            raise ValueError(f"max_nodes must be 1 or more, not {max_nodes}")
        self.measure = measure
        self.max_nodes = max_nodes
        self.table: dict[tuple, tuple[float, ...]] = {}
        self.nodes = 0  # positions visited by the last solve (the table's hits not counted)

    def clear(self) -> None:
        self.table.clear()

    def solve(self, game: Game) -> tuple[float, ...] | None:
        """Every seat's points from ``game`` under max^n play, or None when the solve would visit more than
        ``max_nodes`` positions. ``game`` is left as it was (every move searched is taken back)."""
        return self._bounded(game, self._value)

    def best(self, game: Game) -> tuple[int, tuple[float, ...]] | None:
        """The index in ``game.legal_plays()`` of the mover's max^n move and the position's value, or None as
        :meth:`solve` gives up."""
        return self._bounded(game, self._choose)

    def _bounded(self, game: Game, search: Callable[[Game], T]) -> T | None:
        """``search(game)`` within ``max_nodes`` positions, or None with every move it made taken back."""
        self.nodes = 0
        undo_depth = len(game._undo)
        try:
            return search(game)
        except _TooBig:
            while len(game._undo) > undo_depth:
                game.undo()
            return None

    def _value(self, game: Game) -> tuple[float, ...]:
        if game.is_over:
            assert game.result is not None
            return tuple(round_utility(game.result, self.measure))
        key = game.position_key()
        got = self.table.get(key)
        if got is not None:
            return got
        got = self._choose(game)[1]
        self.table[key] = got
        return got

    def _choose(self, game: Game) -> tuple[int, tuple[float, ...]]:
        self.nodes += 1
        if self.nodes > self.max_nodes:
            raise _TooBig
        mover = game.to_move
        best_i, best_v = -1, None
        for i, move in enumerate(game.legal_plays()):
            game.play(move)
            v = self._value(game)
            game.undo()
            if best_v is None or v[mover] > best_v[mover]:
                best_i, best_v = i, v
        assert best_v is not None
        return best_i, best_v


class _TooBig(Exception):
    """The solve visited more positions than it may."""
