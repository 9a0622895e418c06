"""The heuristic's play-outs through the compiled core: the same moves as :func:`bigtwo.bots.playouts.rollout`, found
in C++.

A search's play-outs are almost all the heuristic's decisions (planning a hand, scoring every legal action), and
those cost about twenty times what the engine's step does in Python. ``bigtwo._core.Heuristic`` (src/bigtwo/_search.hpp)
is the heuristic of :mod:`bigtwo.bots.heuristic` and :mod:`bigtwo.bots.plan` on the compiled round: the same plan, the
same scores computed in the same order of floating-point operations, the same ties, so it chooses exactly the move the
Python policy chooses (tests/test_search_native.py plays both side by side, move by move). The planner's own tables
(the cost of a group of one rank, how a kind ranks among those of its size, the bombs that could beat a play) are
compiled here from the Python planner, so no rule is decided in C++.

The moves it finds are played on the Python :class:`~bigtwo.game.Game` as well, so that the round's result, its
scoring under every system and the network's features in mixed play-outs come from the reference engine unchanged.

Used where the core covers the rules (:func:`bigtwo.native.covers`) and is loaded; ``BIGTWO_NATIVE=0`` or rules it
does not cover play the Python heuristic.
"""

from __future__ import annotations

import time
import weakref
from collections.abc import Callable
from typing import Any

from bigtwo import native
from bigtwo.bots.heuristic import _PER_RANK, HeuristicPolicy
from bigtwo.bots.heuristic_weights import HeuristicWeights
from bigtwo.bots.plan import SAME_RANK
from bigtwo.cards import JOKER_RANK
from bigtwo.combos.evaluator import RUN_WIDTH
from bigtwo.combos.play import PASS, Play
from bigtwo.game import Game
from bigtwo.scoring import RoundOutcome, RoundResult, score_round
from bigtwo.utilities import round_utility

_WEIGHT_ORDER = (
    "size_bonus",
    "cash_controls",
    "take_lead",
    "short_lead_single",
    "short_lead_pair",
    "defend",
    "defend_high",
    "dump",
    "dump_urgent",
    "pass_score",
    "control_value",
    "high_spend",
    "high_from",
    "contest",
)


def heuristic_tables(policy: HeuristicPolicy) -> dict[str, Any]:
    """The Python heuristic's planner and weights as the flat tables ``_core.Heuristic`` reads."""
    ev, planner = policy.ev, policy.planner
    shapes = native.SHAPES
    pos = [0] * len(shapes)
    count = [1] * len(shapes)
    for kind, (p, c) in planner._kind_pos.items():
        if str(kind) in shapes:
            pos[shapes[str(kind)]], count[shapes[str(kind)]] = p, c
    struct_shapes = 0
    for kind in planner.struct_kinds:
        struct_shapes |= 1 << shapes[str(kind)]
    struct_sizes = 0
    for n in planner.struct_sizes:
        struct_sizes |= 1 << n
    pools: list[int] = []
    for kind, length, _targets in ev.bomb_rules:
        sizes = [n for n, kinds in ev.kinds_by_size.items() if kind in kinds]
        if length is not None:
            sizes = [n for n in sizes if n == length * RUN_WIDTH.get(kind, 1)]
        if not sizes:
            continue
        pools += [shapes[str(kind)], sum(1 << n for n in set(sizes)), _PER_RANK.get(kind, 0)]
    w: HeuristicWeights = policy.weights
    return {
        "kind_pos": pos,
        "kind_count": count,
        "group_cost": [list(planner.group_cost[r]) for r in range(JOKER_RANK + 1)],
        "split": [sorted(planner.split[k][0]) for k in range(9)],
        "struct_shapes": struct_shapes,
        "struct_sizes": struct_sizes,
        "min_struct": planner.min_struct,
        "bomb_pools": pools,
        "has_bombs": int(policy.has_bombs),
        "contest": int(policy.contest),
        "weights": [float(getattr(w, name)) for name in _WEIGHT_ORDER],
    }


_COMPILED: weakref.WeakKeyDictionary[HeuristicPolicy, Any] = weakref.WeakKeyDictionary()


def compiled(policy: HeuristicPolicy) -> Any:
    """The policy's ``_core.Heuristic`` (made once, kept while the policy lives), or None where the compiled core is
    not loaded or does not cover the rules (the Python heuristic plays)."""
    if policy in _COMPILED:
        return _COMPILED[policy]
    got = None
    if native.available() and native.covers(policy.rules) and all(str(k) in native.SHAPES for k in SAME_RANK):
        got = native.core().Heuristic(native.tables(policy.ev), heuristic_tables(policy))
    _COMPILED[policy] = got
    return got


def core_deadline(deadline: float | None, clock: Callable[[], float]) -> float:
    """``deadline`` (a reading of ``clock``, the caller's ``time.perf_counter``) on the compiled core's clock, as far
    ahead of its present as ``deadline`` is of the caller's; -1 for none. (The caller's clock is the one its time
    limit is kept by, whichever it is.)"""
    if deadline is None:
        return -1.0
    return float(native.core().Heuristic.now() + (deadline - clock()))


def play_heuristic(
    game: Game,
    heuristic: Any,
    played: int,
    stop_seat: int = -1,
    deadline: float | None = None,
    clock: Callable[[], float] = time.perf_counter,
) -> tuple[int, bool]:
    """Play the compiled heuristic's moves on ``game`` (in place) until the round ends, ``stop_seat`` is to move, or
    the ``deadline`` (a reading of ``clock``) passes: the moves are found on a compiled copy of the position
    and played on ``game`` too. Returns ``played`` with the cards played, and whether the deadline stopped it."""
    if game.is_over or game.to_move == stop_seat:
        return played, False
    r = native.round_of(game)
    moves, _seats, late = heuristic.play_out(r, played, game.face_up, stop_seat, core_deadline(deadline, clock))
    classify = game.ev.classify
    for mask in moves:
        play = classify(mask) if mask else PASS  # (a legal action of the round: a combination)
        game.play(play if play is not None else mask)
        played |= mask
    return played, late


def ranked_actions(game: Game, heuristic: Any, played: int) -> list[tuple[float, Play]]:
    """The actions of the seat to move in ``game`` worth scoring, with the heuristic's scores, best first:
    :meth:`HeuristicPolicy.scores <bigtwo.bots.heuristic.HeuristicPolicy.scores>` of the seat's view, from the
    compiled heuristic (``played``: every card played so far)."""
    classify = game.ev.classify
    out: list[tuple[float, Play]] = []
    for score, mask in heuristic.scores(native.round_of(game), played, game.face_up):
        play = classify(mask) if mask else PASS
        assert play is not None  # (a legal action: a combination)
        out.append((score, play))
    return out


def heuristic_points(
    game: Game,
    heuristic: Any,
    seat: int,
    measure: str,
    played: int,
    deadline: float | None,
    clock: Callable[[], float] = time.perf_counter,
) -> float | None:
    """``seat``'s points in ``measure`` from ``game`` played to its end by the compiled heuristic in every seat
    (:func:`bigtwo.bots.playouts.heuristic_points`'s, found in C++); None when the deadline passes first. The round
    is played on a compiled copy alone, and its result scored from the copy's end as the Game scores its own
    (:func:`result_of`); ``game`` is left as it was."""
    r = native.round_of(game)
    masks, seats, late = heuristic.play_out(r, played, game.face_up, -1, core_deadline(deadline, clock))
    if late:
        return None
    return round_utility(result_of(game, r, masks, seats), measure)[seat]


def result_of(game: Game, r: Any, masks: list[int], seats: list[int]) -> RoundResult:
    """The result of ``game`` played on by ``masks`` (the compiled copy ``r`` now over): the outcome the Game
    builds at its end (``Game._finish``), scored by the rules."""
    if game._forfeited:  # (a hand given up takes a place the compiled round does not give)
        raise ValueError("a round with a forfeited hand is scored by the Game")
    n = game.n
    history = tuple((s, p.mask) for s, p in game.history) + tuple(zip(seats, masks, strict=True))
    moved = {s for s, m in history if m}
    hands = r.hands
    outcome = RoundOutcome(
        finishing_order=tuple(r.finishing_order),
        cards_left=tuple(h.bit_count() for h in hands),
        dealt=tuple(game.dealt_sizes),
        played_any=tuple(s in moved for s in range(n)),
        hands=tuple(hands),
        dealt_hands=game.dealt,
        history=history,
        last_card_uncalled=tuple(s for s in range(n) if game._uncalled >> s & 1),
    )
    return score_round(game.rules, outcome)


__all__ = [
    "compiled",
    "core_deadline",
    "heuristic_points",
    "heuristic_tables",
    "play_heuristic",
    "ranked_actions",
    "result_of",
]
