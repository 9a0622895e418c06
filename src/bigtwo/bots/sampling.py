"""Determinisation: deal the cards a seat cannot see to the other seats, consistently with what is public.

What is certain from one observation, and kept by every sample:

- each seat holds exactly ``hand_sizes[seat]`` cards, none of them the observer's or already played;
- when not every card is dealt and the first play had to hold the lowest card dealt (the lead card was
  not dealt, or the rules lead with the lowest card), no card below that play's lowest card was dealt;
- a seat that passed while leading (possible only when every lead it had was a forbidden last play) and
  has not played since still holds a hand with no legal lead.

Everything else is uniform: a pass in Big Two is always allowed, so it proves nothing about a hand.
"""

from __future__ import annotations

import random
from typing import Any

from bigtwo.bots.view import deck_of, played_from_history
from bigtwo.cards import DECK_SIZE, bits, to_mask
from bigtwo.errors import BigTwoError
from bigtwo.game import Game, legal_actions
from bigtwo.moves import HandIndex
from bigtwo.rules.ruleset import Ruleset

MAX_REJECTIONS = 200


class DealSampler:
    """Samples full deals (every seat's current hand) consistent with one seat's observation."""

    def __init__(self, rules: Ruleset, obs: dict[str, Any]):
        self.rules = rules
        self.ev = rules.engine
        self.seat = obs["seat"]
        self.sizes = list(obs["hand_sizes"])
        self.hand = to_mask(obs["hand"])
        played = played_from_history(obs["history"])
        deck = deck_of(rules)
        pool = deck & ~self.hand & ~played
        self.others = [s for s in range(len(self.sizes)) if s != self.seat and self.sizes[s] > 0]
        need = sum(self.sizes[s] for s in self.others)
        if need > pool.bit_count():
            raise BigTwoError(
                f"observation of seat {self.seat}: the other hands hold {need} cards but only "
                f"{pool.bit_count()} are unaccounted for"
            )
        narrowed = pool & ~self._never_dealt(obs, deck)
        if need <= narrowed.bit_count():
            pool = narrowed
        self.pool = bits(pool)
        self.blocked_leaders = self._blocked_leaders(obs)

    def _never_dealt(self, obs: dict[str, Any], deck: int) -> int:
        """Cards below the first play's lowest card, when that play had to hold the lowest card dealt."""
        rules, history = self.rules, obs["history"]
        if not rules.lead_card_must_be_played or not history or history[0]["action"] != "play":
            return 0
        if sum(obs["dealt_sizes"]) >= deck.bit_count():
            return 0  # everything was dealt
        first = to_mask(history[0]["cards"])
        if rules.lead_card != "lowest":
            lead = to_mask(rules.lead_card)
            if first & (lead | lead << DECK_SIZE):
                return 0  # the named lead card was played: nothing follows about the rest
        power = self.ev.power
        low = min(bits(first), key=lambda c: (power[c], c))
        key = (power[low], low)
        out = 0
        for c in bits(deck):
            if (power[c], c) < key:
                out |= 1 << c
        return out

    def _blocked_leaders(self, obs: dict[str, Any]) -> list[int]:
        """Seats whose last action was a pass on a lead: every lead they had was a forbidden last play."""
        if self.rules.last_play_forbidden == "none" or not obs["history"]:
            return []
        hands = self._draw(random.Random(0))  # any consistent hands replay the public history
        game = Game(self.rules, hands=self._dealt(obs, hands), first=obs["history"][0]["seat"])
        last_lead_pass: dict[int, bool] = {}
        for entry in obs["history"]:
            s = entry["seat"]
            if entry["action"] == "pass":
                last_lead_pass[s] = game.trick is None
                game.play("pass")
            else:
                last_lead_pass[s] = False
                game.play(entry["cards"])
        return [s for s, blocked in last_lead_pass.items() if blocked and s in self.others]

    def _dealt(self, obs: dict[str, Any], hands: list[int]) -> list[int]:
        dealt = list(hands)
        for entry in obs["history"]:
            if entry["action"] == "play":
                dealt[entry["seat"]] |= to_mask(entry["cards"])
        return dealt

    def _draw(self, rng: random.Random) -> list[int]:
        cards = list(self.pool)
        rng.shuffle(cards)
        hands = [0] * len(self.sizes)
        hands[self.seat] = self.hand
        i = 0
        for s in self.others:
            m = 0
            for c in cards[i : i + self.sizes[s]]:
                m |= 1 << c
            i += self.sizes[s]
            hands[s] = m
        return hands

    def _consistent(self, hands: list[int]) -> bool:
        ev, forbid = self.ev, self.rules.last_play_forbidden
        for s in self.blocked_leaders:
            if legal_actions(ev, HandIndex.build(ev, hands[s]), None, 0, forbid)[0].mask:
                return False
        return True

    def sample(self, rng: random.Random) -> list[int]:
        """Every seat's hand as a mask (the observer's own as it is), uniform over the consistent deals."""
        hands = self._draw(rng)
        if self.blocked_leaders:
            for _ in range(MAX_REJECTIONS):
                if self._consistent(hands):
                    break
                hands = self._draw(rng)
        return hands
