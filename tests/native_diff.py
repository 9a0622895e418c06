"""The differential check of the compiled core against the Python engine, shared by tests/test_native.py and
benchmarks/native_differential.py: play rounds through both engines side by side, the Python engine choosing
the actions, and compare the legal actions (in order), the state after every action, undo, and the result."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from bigtwo import native
from bigtwo.game import Game
from bigtwo.rules.ruleset import Ruleset


@dataclass
class Tally:
    """What a differential run compared: decisions (actions taken in both engines), rounds, and mismatches."""

    decisions: int = 0
    rounds: int = 0
    mismatches: list[str] = field(default_factory=list)

    def add(self, other: Tally) -> None:
        self.decisions += other.decisions
        self.rounds += other.rounds
        self.mismatches += other.mismatches


def py_state(g: Game) -> tuple[Any, ...]:
    """The Python round's state in the compiled round's ``state`` layout."""
    top = g._top
    return (
        list(g._hands),
        g.to_move,
        top.mask if top is not None else 0,
        g._top_seat,
        g._passed,
        g._blocked,
        g._required,
        g._active,
        list(g._finished),
        g._over,
        g._stock_pos,
    )


def py_top(g: Game) -> tuple[int, ...] | None:
    p = g._top
    if p is None:
        return None
    return (p.mask, native.SHAPES[p.kind], p.cat, p.key, p.value, p.cls, p.order, p.bomb)


def compare_round(g: Game, rng: random.Random, undo_rate: float = 0.05) -> Tally:
    """Play ``g`` (a Python-engine Game: ``native=False``) to its end by random choice, the compiled round
    beside it; stop at the first mismatch."""
    tally = Tally(rounds=1)
    if g.is_over:
        return tally
    r = native.round_of(g)
    where = f"{g.rules.name!r} {g.n} players seed {g.seed}"

    def same(step: str) -> bool:
        ours, theirs = py_state(g), r.state
        if ours != list(theirs) and ours != tuple(theirs):
            tally.mismatches.append(f"{where}, {step}: state {ours} != {theirs}")
            return False
        if py_top(g) != r.top:
            tally.mismatches.append(f"{where}, {step}: top {py_top(g)} != {r.top}")
            return False
        return True

    if not same("at the deal"):
        return tally
    while not g.is_over:
        plays = g.legal_plays()
        py = [p.mask for p in plays]
        cc = r.legal_masks()
        if py != cc:
            tally.mismatches.append(f"{where}, decision {tally.decisions}: legal {sorted(set(py) ^ set(cc))} differ")
            return tally
        play = rng.choice(plays)
        g.apply(play)
        r.apply(play.mask)
        tally.decisions += 1
        if not same(f"after {play}"):
            return tally
        if rng.random() < undo_rate:
            g.undo()
            r.undo()
            if not same(f"undoing {play}"):
                return tally
            g.apply(play)
            r.apply(play.mask)
    res = g.result
    assert res is not None
    if tuple(r.finishing_order) != tuple(res.finishing_order) or tuple(r.cards_left) != tuple(
        h.bit_count() for h in g._hands
    ):
        tally.mismatches.append(f"{where}: finishing order {res.finishing_order} != {r.finishing_order}")
    return tally


def compare_rules(rules: Ruleset, players: int, rounds: int, seed: int) -> Tally:
    """``rounds`` random rounds of ``rules`` at ``players``, dealt from seeds drawn from ``seed``."""
    rng = random.Random(seed)
    tally = Tally()
    for _ in range(rounds):
        g = Game(rules, players=players, seed=rng.randrange(1 << 31), native=False)
        tally.add(compare_round(g, rng))
    return tally


def compare_games(rules: Ruleset, players: int, rounds: int, seed: int, undo_rate: float = 0.05) -> Tally:
    """``rounds`` random rounds played through ``Game`` twice, side by side: with the compiled core behind it (the
    default) and in the Python engine (``native=False``); the legal plays (every field), the position after
    every action, undo, clones, a hand-back to the Python engine in the middle, and the result must agree."""
    rng = random.Random(seed)
    tally = Tally()

    def plays(g: Game) -> list[tuple[Any, ...]]:
        return [(p.mask, p.kind, p.key, p.value, p.cls, p.order, p.bomb) for p in g.legal_plays()]

    for _ in range(rounds):
        s = rng.randrange(1 << 31)
        a, b = Game(rules, players=players, seed=s), Game(rules, players=players, seed=s, native=False)
        tally.rounds += 1
        where = f"{rules.name!r} {players} players seed {s}"
        handed_back = False
        while not b.is_over:
            if plays(a) != plays(b) or a.position_key() != b.position_key():
                tally.mismatches.append(f"{where}, decision {tally.decisions}: Game differs with the core")
                break
            p = rng.choice(b.legal_plays())
            a.play(p)
            b.play(p)
            tally.decisions += 1
            if rng.random() < undo_rate:
                a.undo()
                b.undo()
                a.play(p)
                b.play(p)
            if rng.random() < undo_rate:
                c = a.clone()
                if not c.is_over:
                    c.play(c.legal_plays()[0])
            if not handed_back and rng.random() < undo_rate:
                a._stock_pos = a._stock_pos  # a write of the round's state hands it to the Python engine
                handed_back = True
        else:
            if a.result != b.result or a.history != b.history:
                tally.mismatches.append(f"{where}: results differ with the core")
            while b.can_undo:  # back to the deal, through the core's undo or the handed-back snapshots
                a.undo()
                b.undo()
            if a.position_key() != b.position_key():
                tally.mismatches.append(f"{where}: undo to the deal differs with the core")
    return tally
