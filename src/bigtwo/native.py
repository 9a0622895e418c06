"""The compiled core's Python side: which rules it covers, and the Ruleset compiled into the tables it reads.

``bigtwo._core`` (C++: the engine in src/bigtwo/_engine.hpp, its bindings in _core.cpp) plays a round's play
phase on 64-bit card masks. It knows no preset and no rule text: the :class:`~bigtwo.rules.ruleset.Ruleset`,
through its Evaluator (the comparison class and order of every combination), is compiled here into flat integer
tables. The pure-Python engine is the reference: tests/test_native.py plays both side by side and compares them
bit for bit.

``BIGTWO_NATIVE=0`` forces pure Python. Where the extension was not built (no C++ compiler when installing),
the package plays in pure Python, and ``bigtwo rules show`` says so (:func:`coverage_line`).
"""

from __future__ import annotations

import importlib
import logging
import os
import weakref
from types import ModuleType
from typing import TYPE_CHECKING, Any

import numpy as np

from bigtwo.cards import DECK_SIZE, card
from bigtwo.combos.play import PASS
from bigtwo.rules.kinds import Kind

if TYPE_CHECKING:
    from bigtwo.combos.evaluator import Evaluator
    from bigtwo.rules.ruleset import Ruleset

# combination kinds by the shape number the C++ knows them by (its ``Shape`` enum, in this order)
SHAPES: dict[str, int] = {
    name: i
    for i, name in enumerate(
        (
            "single",
            "pair",
            "triple",
            "quad",
            "two_pairs",
            "straight",
            "straight_flush",
            "royal_flush",
            "flush",
            "full_house",
            "four_of_a_kind",
            "two_pair_junk",
            "sisters",
            "triple_junk",
            "pair_straight",
            "triple_straight",
            "joker_pair",
        )
    )
}
# the combination kind of each shape number (the Python engine's names, as its Evaluator takes them)
KINDS: tuple[Kind, ...] = tuple(Kind(name) for name in SHAPES)
BOMB_TARGET_BITS = {
    "any": 1,
    "singles-and-pairs": 2,
    "highest-single": 4,
    "single-two": 8,
    "pair-of-twos": 16,
    "three-twos": 32,
}
FORBID = {"none": 0, "two-single-or-pair": 1, "two-single": 2, "highest-single": 3, "highest-card": 4}
FLUSH_ORDER = {"ranks-then-suit": 0, "suit-then-ranks": 1, "top-card": 2}

_core: ModuleType | None = None
_why_not_loaded = ""
if os.environ.get("BIGTWO_NATIVE", "1") == "0":
    _why_not_loaded = "BIGTWO_NATIVE=0 asks for pure Python"
else:
    try:
        # the extension module itself, by its full name: not the package's front door, which imports the round
        # (bigtwo.game), which imports this module
        _core = importlib.import_module("bigtwo._core")
    except ImportError:  # installed without a C++ compiler: pure Python
        _why_not_loaded = "the compiled core (bigtwo._core) is not built here"


_said = False


def say_pure_python_once() -> None:
    """Log, once per process, that rounds play in pure Python because the compiled core is not built here
    (``BIGTWO_NATIVE=0`` asked for it, so it goes unsaid)."""
    global _said
    if _said or _core is not None or os.environ.get("BIGTWO_NATIVE", "1") == "0":
        return
    _said = True
    logging.getLogger("bigtwo").warning("bigtwo: %s; rounds play in pure Python (same results, slower)", status())


def available() -> bool:
    """Whether the compiled core is loaded (built, and not switched off by ``BIGTWO_NATIVE=0``)."""
    return _core is not None


def status() -> str:
    """One line on which engine plays: the compiled core, or pure Python and why."""
    if _core is not None:
        return "compiled core (bigtwo._core) loaded"
    return f"pure Python: {_why_not_loaded}"


def core() -> ModuleType:
    """The loaded extension module (raises when it is not: check :func:`available` first)."""
    if _core is None:
        raise RuntimeError(status())
    return _core


# --- what the compiled core covers ---------------------------------------------------------------------------
def uncovered(rules: Ruleset) -> list[str]:
    """Why the compiled core cannot play a round under these rules, in words; empty when it can.

    Read from the settings alone (the table size does not change the answer): what the C++ supports grows
    here, setting by setting.
    """
    why = []
    if rules.decks != 1:
        why.append("two decks (108 cards) do not fit a 64-bit card mask")
    if rules.wild_jokers:
        why.append("wild jokers are played by the Python engine only")
    kinds = [k for k in rules.combinations if k not in rules.kinds_not_played]
    missing = [k for k in kinds if k not in SHAPES]
    if missing:
        why.append("combinations the compiled core does not make: " + ", ".join(missing))
    if rules.horse_game:
        why.append("the Horse Game's face-down hands")
    if rules.auto_skip:
        why.append("the automatic turn skip")
    return why


_covered: dict[int, tuple[Ruleset, bool]] = {}


def covers(rules: Ruleset) -> bool:
    """Whether the compiled core can play the play phase of a round under these rules (see :func:`uncovered`);
    remembered per Ruleset object (frozen: the answer is read from its settings alone), since every round and
    every listing from an observation asks."""
    got = _covered.get(id(rules))
    if got is None or got[0] is not rules:
        if len(_covered) > 256:
            _covered.clear()
        got = _covered[id(rules)] = (rules, not uncovered(rules))
    return got[1]


def coverage_line(rules: Ruleset) -> str:
    """One line for ``bigtwo rules show``: whether the compiled core plays these rules' rounds, and why not."""
    why = uncovered(rules)
    if _core is None:
        return f"Engine: {status()}."
    if why:
        return "Engine: the Python engine plays these rules (the compiled core does not cover " + "; ".join(why) + ")."
    return "Engine: the compiled core covers these rules' rounds (bigtwo._core)."


# --- the compiler ----------------------------------------------------------------------------------------------
def compile_tables(ev: Evaluator) -> dict[str, Any]:
    """The Evaluator's rules (one table size, one order of the 2s) as the flat tables ``_core.Tables`` reads.

    Card tables have one entry per card of one deck (54); kinds are listed in category order with their
    shape number, family and sizes (bit n: n cards); straights and runs are rows of rank bits with their
    place in the table; bombs are rows of (shape, length or -1, target bits).
    """
    rules = ev.rules
    why = uncovered(rules)
    if why:
        raise ValueError(f"the compiled core does not cover {rules.name!r}: " + "; ".join(why))
    n = DECK_SIZE

    def ints(values: Any) -> np.ndarray:
        return np.asarray(list(values), dtype=np.int64)

    kinds = list(ev.kinds)
    straights = [
        (length, rb, pos, tb) for length, table in sorted(ev.straights.items()) for rb, (pos, tb) in table.items()
    ]
    runs = [
        (width, count, rb, pos, top)
        for width in (2, 3)
        for count, table in sorted(ev.runs[width].items())
        for rb, (pos, top) in table.items()
    ]
    bombs = []
    for kind, length, targets in ev.bomb_rules:
        bits = 0
        for t in targets:
            bits |= BOMB_TARGET_BITS[str(t)]
        bombs.append((SHAPES[kind], -1 if length is None else length, bits))
    lead = str(rules.lead_card)
    return {
        "power": ints(ev.power[:n]),
        "full_power": ints(ev.full_power[:n]),
        "poker_power": ints(ev.poker_power[:n]),
        "rank_of": ints(ev.rank_of[:n]),
        "suit_of": ints(ev.suit_of[:n]),
        "poker_rank_power": ints(ev.poker_rank_power),
        "rank_power": ints(ev.rank_power),
        "suit_power": ints(ev.suit_power),
        "pack": ev.pack,
        "kinds": ints(SHAPES[k] for k in kinds),
        "families": ints(ev.family_id[k] for k in kinds),
        "kind_sizes": ints(sum(1 << s for s in ev._sizes_of(k)) for k in kinds),
        "straights": ints(x for row in straights for x in row),
        "runs": ints(x for row in runs for x in row),
        "bombs": ints(x for row in bombs for x in row),
        "match_kind": int(ev.match_kind),
        "same_category_fives": int(ev.same_category_fives),
        "card_value_fives": int(ev.card_value_fives),
        "highest_card_straights": int(ev.highest_card_straights),
        "straight_suit_tiebreak": int(rules.straight_suit_tiebreak),
        "poker_suit_tiebreak": int(rules.poker_suit_tiebreak),
        "equal_beats": int(ev.equal_beats),
        "bomb_same_kind": int(ev.bomb_same_kind),
        "flush_order": FLUSH_ORDER[str(rules.flush_order)],
        "highest_face": ev.highest_face,
        "forbid": FORBID[str(rules.last_play_forbidden)],
        "pass_locks_out": int(rules.pass_locks_out),
        "one_pass_ends_trick": int(rules.one_pass_ends_trick),
        "trick_ends_on_out": int(rules.trick_ends_on_out),
        "plays_to_last": int(rules.plays_to_last),
        "three_threes_force_twos": int(rules.three_threes_force_twos),
        "draw_on_pass": int(rules.draw_on_pass),
        "valueless_jokers": int(ev.valueless),
        "lead_face": -1 if lead == "lowest" else int(card(lead)),
        "lead_must": int(rules.lead_card_must_be_played),
    }


_tables: weakref.WeakKeyDictionary[Evaluator, Any] = weakref.WeakKeyDictionary()


def tables(ev: Evaluator) -> Any:
    """The compiled ``_core.Tables`` of an Evaluator (made once, kept while the Evaluator lives)."""
    got = _tables.get(ev)
    if got is None:
        got = _tables[ev] = core().Tables(compile_tables(ev))
    return got


_plays: weakref.WeakKeyDictionary[Evaluator, dict[int, Any]] = weakref.WeakKeyDictionary()


def plays_of(ev: Evaluator) -> dict[int, Any]:
    """The Play of each mask the compiled round has named under ``ev`` (0: the pass), filled as masks come:
    what turns the core's legal masks into the Python engine's own Play objects without classifying again."""
    got = _plays.get(ev)
    if got is None:
        got = _plays[ev] = {0: PASS}
    return got


def play_of(ev: Evaluator, mask: int) -> Any:
    """The Python engine's Play of a combination mask the compiled core listed under ``ev``: its kind, key and
    value as the core's tables read them (tests/test_native.py holds them equal to the Python classifier's), its
    class and order made by the Evaluator itself."""
    got = ev.cache.get(mask)
    if got is None:
        _m, shape, _cat, key, value, *_ = tables(ev).classify(mask)
        got = ev.make(mask, KINDS[shape], key, value)
    return got


def round_of(game: Any) -> Any:
    """The compiled round at a :class:`~bigtwo.game.Game`'s position in its play phase (a copy: playing on it
    leaves the game as it was), for play-outs from any position. Raises ValueError where the rules are not
    covered or the round is over."""
    if game.is_over:
        raise ValueError("the round is over")
    why = uncovered(game.rules)
    if why:
        raise ValueError(f"the compiled core does not cover {game.rules.name!r}: " + "; ".join(why))
    top = game._top
    return core().Round.from_state(
        tables(game.ev),
        list(game._hands),
        game.to_move,
        None if top is None else top.mask,
        game._top_seat,
        game._passed,
        game._blocked,
        game._required,
        game._active,
        list(game._finished),
        len(game.history) - game.trick_start,
        list(game._stock),
        game._stock_pos,
    )


__all__ = [
    "BOMB_TARGET_BITS",
    "FORBID",
    "KINDS",
    "SHAPES",
    "available",
    "compile_tables",
    "core",
    "coverage_line",
    "covers",
    "play_of",
    "plays_of",
    "round_of",
    "say_pure_python_once",
    "status",
    "tables",
    "uncovered",
]
