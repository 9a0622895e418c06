"""Positions for search: the round an observation describes, with the unseen cards placed (a determinisation).

A search bot samples where the cards it cannot see are, then needs a real :class:`~bigtwo.game.Game` in
exactly the observed position to play candidate lines on. The deal is rebuilt as each seat's current hand plus
what it has played, and the public history is replayed on it, so every public fact (tricks, passes, who is
out, what is face up) is the observed one and only the hidden cards differ.
"""

from __future__ import annotations

from collections.abc import Sequence

from bigtwo.cards import DECK_SIZE, CardSet, CardsLike, bits, to_mask
from bigtwo.combos.play import PASS
from bigtwo.deal import lead_card_mask
from bigtwo.errors import BigTwoError
from bigtwo.game import Game
from bigtwo.observation import Note, Observation
from bigtwo.rules.ruleset import Ruleset, load_rules


def position_from_observation(rules: Ruleset | str, obs: Observation, hands: Sequence[CardsLike]) -> Game:
    """The round ``obs`` describes, with ``hands`` as every seat's current hand.

    ``hands[obs.seat]`` must be the observer's own hand and the sizes must match ``obs.hand_sizes``. Under
    ``draw_on_pass`` the cards drawn are part of the sampled hands and the stock is rebuilt from the cards
    nobody can see.
    """
    rules = load_rules(rules) if not isinstance(rules, Ruleset) else rules
    masks = [to_mask(h) for h in hands]
    if [m.bit_count() for m in masks] != list(obs.hand_sizes):
        raise BigTwoError(f"hands of sizes {[m.bit_count() for m in masks]} do not match {list(obs.hand_sizes)}")
    dealt = list(masks)
    used = 0
    for m in masks:
        used |= m
    plays: list[int] = []  # the exact cards of each play
    for entry in obs.history:
        if not entry.is_pass:
            m = _unused_copies(entry.play.mask, used)
            used |= m
            dealt[entry.seat] |= m
            plays.append(m)
    history = obs.history
    first = history[0].seat if history else obs.to_move
    if first is None:
        raise BigTwoError("the observation has no seat to move and no history: there is no position to rebuild")
    replay_rules = (
        rules.replace(auto_skip=False, draw_on_pass=False) if rules.auto_skip or rules.draw_on_pass else rules
    )
    g = Game(replay_rules, hands=dealt, first=first, twos_low=obs.twos_low)
    if obs.required or obs.lead_elsewhere:
        # the first lead is still bound to the lead card (its holder may have been blocked and passed)
        union = 0
        for m in dealt:
            union |= m
        g._required = (obs.required or lead_card_mask(rules, g.ev, union)) & dealt[first]
    g.face_up = obs.face_up
    made = iter(plays)
    for entry in history:
        if g.look_pending and (not entry.is_pass or entry.note == Note.FORFEIT):
            g.look()  # the Horse Game: every play, and every hand given up, was looked at first
        g.play(PASS if entry.is_pass else CardSet.from_mask(next(made)))
    if rules.horse_game:
        g.turn_hands_up()  # candidate lines are played on with every hand looked at when it is to move
    g.rules = rules
    g.dealt_sizes = list(obs.dealt_sizes)  # drawn cards are in the hands, not in what was dealt
    g._notes = [entry.note for entry in history]
    if rules.draw_on_pass and obs.stock_size:
        # the stock is some of the cards nobody can see: those not in a hand, played, or face up
        seen = g.face_up
        for m in g._hands:
            seen |= m
        for _s, p in g._history:
            seen |= p.mask
        unseen = bits(g.ev.pack & ~seen)
        g._stock = tuple(unseen[: obs.stock_size])
        g._stock_pos = 0
    return g


def _unused_copies(mask: int, used: int) -> int:
    """With two decks, each card of ``mask`` already ``used`` (a sampled hand holds that copy) is the other copy."""
    for i in bits(mask & used):
        alt = (i + DECK_SIZE) % (2 * DECK_SIZE)
        if not used >> alt & 1 and not mask >> alt & 1:
            mask = (mask & ~(1 << i)) | (1 << alt)
    return mask
