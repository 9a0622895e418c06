"""The batched environment's compiled half: the Ruleset's deal and the features' layout compiled for ``_core.Batch``.

``bigtwo._core.Batch`` (src/bigtwo/_batch.hpp) keeps N rounds in lockstep, plays each game's choice with one call
for the whole batch, and writes every pending decision's state row and legal actions' rows (the layout of
:mod:`bigtwo.bots.features`) straight into numpy arrays, with no Python object per card or play. It knows no
preset: this module compiles, from the Ruleset and the encoders, the deal (which cards are shuffled, to whom each
goes, where the cards left over go, who leads) and the feature layout (widths, which kind is which column, the
rank of every card), and the round's rules come from :func:`bigtwo.native.tables`.

Deals are the pure-Python environment's own: the C++ draws Python's ``random.Random(seed).shuffle`` bit for bit
with the same seed for every (run seed, game, episode), so :class:`~bigtwo.envs.batched.BatchedEnv` plays the same
deals compiled or not, and tests/test_batched_native.py holds the two equal, row for row.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from bigtwo import native
from bigtwo.bots.features import ActionEncoder, StateEncoder
from bigtwo.cards import bits, card
from bigtwo.errors import BigTwoError
from bigtwo.rules.choices import DealMode, FourTwos, Leftover
from bigtwo.rules.ruleset import Ruleset

# where the cards a deal leaves over go: the numbers _batch.hpp's LeftoverTo knows them by
LEFTOVER_TO: dict[Leftover, int] = {
    Leftover.LEAD_HOLDER: 1,
    Leftover.HIGHEST_HOLDER: 2,
    Leftover.LOWEST_DIAMOND_HOLDER: 3,
    Leftover.DEALER: 4,
    Leftover.DISCARD: 5,
    Leftover.REMOVE_LOWEST: 5,
    Leftover.FACE_UP: 6,
    Leftover.STOCK: 7,
    Leftover.SWAP: 8,
}
SEED_LIMIT = 1 << 80
"""Run seeds the compiled deals take (a game's seed, run seed x 10**12 and more, must fit 127 bits)."""


def uncovered(rules: Ruleset, seed: int = 0) -> list[str]:
    """Why the compiled batch cannot play these rules' rounds (empty when it can): the compiled round's own limits
    (:func:`bigtwo.native.uncovered`), and what a deal may decide before play that it does not."""
    why = list(native.uncovered(rules))
    if rules.malta_dragon or rules.four_twos in (FourTwos.WIN, FourTwos.DRAW):
        why.append("rounds a dealt hand wins or loses at once")
    if abs(seed) >= SEED_LIMIT:
        why.append(f"a seed of {abs(seed).bit_length()} bits")
    return why


def available(rules: Ruleset, seed: int = 0) -> bool:
    """Whether the compiled batch is loaded and plays these rules (``BIGTWO_NATIVE=0`` says no)."""
    return native.available() and not uncovered(rules, seed)


def compile_batch(
    rules: Ruleset,
    players: int,
    num_envs: int,
    seed: int,
    history: int,
    skip_forced: bool,
    state_encoder: StateEncoder,
    action_encoder: ActionEncoder,
) -> dict[str, Any]:
    """The plan ``_core.Batch`` reads: the deal of :func:`bigtwo.deal.deal` and Game's first lead, and the
    encoders' layout, as flat integers."""
    n = players
    ev = rules.engine_for(n)
    pack = bits(ev.pack)
    by_power = sorted(pack, key=lambda c: (ev.power[c], c))
    style = rules.deal
    removed = 0
    if rules.leftover == Leftover.REMOVE_LOWEST and style == DealMode.EQUAL:
        for c in by_power[: len(pack) % n]:
            removed |= 1 << c
        pack = [c for c in pack if not removed >> c & 1]
    hands_n = n + 1 if style == DealMode.GHOST else n
    if style == DealMode.EQUAL:
        each = len(pack) // n
    elif style == DealMode.ALL:
        each = len(pack)
    else:
        each = rules.hand_size
        if each * hands_n > len(pack):
            raise BigTwoError(
                f"deal {style!r} of {each} cards to {hands_n} hands needs more than the {len(pack)}-card pack"
            )
    dealer = n - 1
    order = [(dealer + 1 + i) % n for i in range(n)] + ([n] if style == DealMode.GHOST else [])
    low_order_twos_low: list[int] = []
    if rules.dealt_bomb_twos_low:
        ev_low = rules.engine_for(n, twos_low=True)
        low_order_twos_low = sorted(bits(ev_low.pack), key=lambda c: (ev_low.power[c], c))
    diamonds = sorted((c for c in bits(ev.pack) if ev.suit_of[c] == 0), key=lambda c: (ev.rank_of[c], c))
    shapes = native.SHAPES
    return {
        "players": n,
        "num_envs": num_envs,
        "seed_high": seed >> 62,  # the seed in two halves (negative seeds: the high half carries the sign)
        "seed_low": seed & ((1 << 62) - 1),
        "skip_forced": int(skip_forced),
        "deal_pack": np.asarray(pack, dtype=np.int64),
        "deal_removed": removed,
        "deal_hands": hands_n,
        "deal_upto": min(len(pack), each * hands_n),
        "deal_order": np.asarray(order, dtype=np.int64),
        "leftover": LEFTOVER_TO[rules.leftover],
        "leftover_shown": int(bool(rules.leftover_shown)),
        "dealer": dealer,
        "low_order": np.asarray(sorted(bits(ev.pack), key=lambda c: (ev.power[c], c)), dtype=np.int64),
        "low_order_twos_low": np.asarray(low_order_twos_low, dtype=np.int64),
        "diamond_order": np.asarray(diamonds, dtype=np.int64),
        "lead_face": -1 if rules.leads_lowest else int(card(rules.lead_card)),
        "lead_must": int(bool(rules.lead_card_must_be_played)),
        "redeal_four_twos": int(rules.four_twos == FourTwos.REDEAL),
        "width": state_encoder.width,
        "feature_pack": state_encoder.pack,
        "face_up": int(state_encoder.face_up),
        "known": int(state_encoder.known),
        "history": history,
        "kinds": len(state_encoder.kinds),
        "action_kinds": len(action_encoder.kinds),
        "state_kind": np.asarray(
            [state_encoder.kind_index.get(name, -1) for name in sorted(shapes, key=shapes.__getitem__)], dtype=np.int64
        ),
        "action_kind": np.asarray(
            [action_encoder.kind_index.get(name, -1) for name in sorted(shapes, key=shapes.__getitem__)], dtype=np.int64
        ),
        "rank_of": np.asarray(action_encoder.rank_of[:54], dtype=np.int64),
        "state_size": state_encoder.size,
        "action_size": action_encoder.size,
    }


def make_batch(
    rules: Ruleset,
    players: int,
    num_envs: int,
    seed: int,
    history: int,
    skip_forced: bool,
    state_encoder: StateEncoder,
    action_encoder: ActionEncoder,
) -> Any:
    """A ``_core.Batch`` of these rules (check :func:`available` first)."""
    plan = compile_batch(rules, players, num_envs, seed, history, skip_forced, state_encoder, action_encoder)
    low = native.tables(rules.engine_for(players, twos_low=True)) if rules.dealt_bomb_twos_low else None
    return native.core().Batch(native.tables(rules.engine_for(players)), low, plan)


__all__ = ["LEFTOVER_TO", "SEED_LIMIT", "available", "compile_batch", "make_batch", "uncovered"]
