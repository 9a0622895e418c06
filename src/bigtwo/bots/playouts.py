"""Play-outs: a sampled position played to its end, and what it is worth to the searching seat.

The heuristic's play-outs (:func:`rollout`) move one line at a time. Where the learned network moves in them
(:class:`NetworkPlayouts`), a deal's lines, one after each candidate, go on side by side: the heuristic moves
each line on until the network is to move in it, and the network then moves every waiting line in one pass
(``GameScorer.q_many``), which reads its weights once for all of them. With an opponents' model the other seats'
moves are that network's, in a pass of its own.

A time limit is kept step by step: a play-out looks at the clock before every move, and the side-by-side lines
begin a step only if one as long as the longest so far still ends before the deadline; a line the deadline
interrupts is dropped by the caller, so every candidate stays compared on the same deals.

Where the compiled core covers the rules, the heuristic's moves are found by its copy of the heuristic
(:mod:`bigtwo.bots.native_playouts`: the same moves, found in C++) and played on the Game; ``BIGTWO_NATIVE=0``
finds them in Python.
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from bigtwo.bots.heuristic import HeuristicPolicy, search_candidates
from bigtwo.bots.native_playouts import compiled, play_heuristic, ranked_actions
from bigtwo.bots.native_playouts import heuristic_points as native_points
from bigtwo.bots.view import played_in, view_from_game
from bigtwo.combos.play import Play
from bigtwo.game import Game
from bigtwo.utilities import round_utility


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
    fast = compiled(policy) if mine is None else None
    if fast is not None:
        play_heuristic(game, fast, played, -1, deadline, time.perf_counter)
        return game
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


def heuristic_points(
    game: Game, seat: int, measure: str, policy: HeuristicPolicy, played: int, deadline: float | None
) -> float | None:
    """``seat``'s points in ``measure`` from ``game`` (a sampled deal after a candidate) played to its end by the
    heuristic in every seat; None when the deadline passes first. With the compiled heuristic the round is played
    on a compiled copy alone (``game`` is left as it was) and scored as the Game scores its own."""
    fast = compiled(policy)
    if fast is not None and not game._forfeited:
        return native_points(game, fast, seat, measure, played, deadline, time.perf_counter)
    rollout(game, policy, played, deadline)
    return None if game.result is None else round_utility(game.result, measure)[seat]


class NetworkPlayouts:
    """A decision's play-outs with the network moving in them, side by side: ``learned`` puts it in every seat,
    else in the searching ``seat`` alone (the heuristic ``policy`` in the others). ``opponents``: the network that
    moves the other seats where the network plays every seat (an opponents' model; None: the play-outs' own),
    choosing among the moves a ``search`` opponent weighs where it was fitted among those. ``longest_step`` keeps
    the longest stretch between two looks at the clock over the decision."""

    def __init__(
        self,
        seat: int,
        measure: str,
        policy: HeuristicPolicy,
        scorer: Any,
        learned: bool,
        opponents: Any = None,
        deadline: float | None = None,
    ):
        self.seat, self.measure, self.policy, self.scorer = seat, measure, policy, scorer
        self.learned, self.opponents, self.deadline = learned, opponents, deadline
        self.longest_step = 0.0

    def points(self, games: list[Game], played: list[int]) -> list[float] | None:
        """The searching seat's points from each of ``games`` (one sampled deal after each candidate, ``played``
        the cards out in each), played to the end side by side; None when the deadline passes first."""
        seat, scorer, opponents = self.seat, self.scorer, self.opponents
        lines = list(games)
        previous = [[g.hand(s).mask for s in range(g.n)] for g in games]
        played = list(played)
        clock = time.perf_counter
        last = clock()

        def late() -> bool:
            """Whether a step as long as the longest so far would end past the deadline (the step in hand is
            then not begun, and the lines are dropped)."""
            nonlocal last
            if self.deadline is None:
                return False
            now = clock()
            self.longest_step = max(self.longest_step, now - last)
            last = now
            return now + self.longest_step >= self.deadline

        live = [j for j, g in enumerate(lines) if not g.is_over]
        fast = None if self.learned else compiled(self.policy)
        while live:
            if fast is not None:  # the compiled heuristic moves the other seats up to the searching seat's turn
                for j in live:
                    if late():
                        return None
                    played[j], cut = play_heuristic(lines[j], fast, played[j], seat, self.deadline, clock)
                    if cut:
                        return None
                live = [j for j in live if not lines[j].is_over]
                if not live:
                    break
            elif not self.learned:  # the heuristic moves the other seats up to the searching seat's turn
                for j in live:
                    g = lines[j]
                    while not g.is_over and g.to_move != seat:
                        if late():
                            return None
                        played[j] = heuristic_step(g, self.policy, played[j], previous[j])
                live = [j for j in live if not lines[j].is_over]
                if not live:
                    break
            if late():
                return None
            waiting = [lines[j] for j in live]
            options = [self.options(lines[j], played[j], previous[j]) for j in live]
            ask = [i for i, legal in enumerate(options) if len(legal) > 1]
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
            for j, legal, q in zip(live, options, qs, strict=True):
                move = legal[0] if q is None else legal[int(np.argmax(q))]  # (None: one move, no choice)
                network_move(lines[j], move, previous[j], played, j)
            live = [j for j in live if not lines[j].is_over]
        out = []
        for g in lines:
            assert g.result is not None
            out.append(round_utility(g.result, self.measure)[seat])
        return out

    def options(self, game: Game, played: int, previous: list[int]) -> list[Play]:
        """The moves the network chooses among for the seat to move in a play-out: every legal action in the
        searching seat; in the others' too, unless an opponents' model fitted among the moves a ``search``
        weighs moves them (``candidates`` in its weights), which chooses among their heuristic's best few and the
        pass (the best alone where it goes out)."""
        mover = game.to_move
        if mover == self.seat:
            return self.scorer.choices(game)
        count = self.opponents.candidates if self.opponents is not None else 0
        if not count:
            return (self.opponents or self.scorer).choices(game)
        fast = compiled(self.policy)
        if fast is not None:  # the heuristic's scores from the compiled round (the same, found in C++)
            return search_candidates(ranked_actions(game, fast, played), count)
        view = view_from_game(game, played)
        if len(view.legal) == 1:
            return view.legal
        return search_candidates(self.policy.scores(view, previous[mover]), count)


def network_move(game: Game, move: Play, previous: list[int], played: list[int], j: int) -> None:
    """Play the network's ``move`` in a play-out line: the mover's hand before it kept in ``previous`` (a plan
    reuses its work) and its cards added to the line's entry ``j`` of ``played``."""
    mover = game.to_move
    before = game.hand(mover).mask
    action = game.play(move)
    if action.mask:
        previous[mover] = before
        played[j] |= action.mask


__all__ = ["NetworkPlayouts", "heuristic_points", "heuristic_step", "network_move", "rollout"]
