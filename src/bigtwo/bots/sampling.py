"""Determinisation: deal the cards a seat cannot see to the other seats, consistently with what is public.

What is certain from one observation, and kept by every sample:

- each seat holds exactly ``hand_sizes[seat]`` cards, none of them the observer's or already played;
- when not every card is dealt and the first play had to hold the lowest card dealt (the lead card was
  not dealt, or the rules lead with the lowest card), no card below that play's lowest card was dealt;
- a seat that passed while leading (possible only when every lead it had was a forbidden last play) held
  then a hand with no legal lead: its hand now plus what it has played since.

Everything else is uniform: a pass in Big Two is always allowed, so it proves nothing about a hand.
"""

from __future__ import annotations

import random
from typing import Any

from bigtwo.bots.view import deck_of, played_from_history
from bigtwo.cards import DECK_SIZE, bits, to_mask
from bigtwo.errors import BigTwoError, IllegalPlay
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
        self.lead_passes = self._lead_passes(obs)

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

    def _lead_passes(self, obs: dict[str, Any]) -> list[tuple[int, int]]:
        """Passes made while leading, as (seat, cards that seat played afterwards).

        Which passes were leads follows from replaying the public history, which needs hands that agree
        with those very passes: replay on sampled hands, and when a replay shows a lead pass that the sample
        contradicts, sample again under what it has shown so far.
        """
        history = obs["history"]
        if self.rules.last_play_forbidden == "none" or not any(e["action"] == "pass" for e in history):
            return []
        rng = random.Random(0)
        events: list[tuple[int, int]] = []
        for _attempt in range(len(history) + 2):
            hands = self._draw_consistent(rng, events)
            game = Game(self.rules, hands=self._dealt(obs, hands), first=history[0]["seat"])
            found: list[tuple[int, int]] = []
            complete = True
            for i, entry in enumerate(history):
                s = entry["seat"]
                if entry["action"] == "pass" and game.trick is None:
                    found.append((s, i))
                try:
                    game.play("pass" if entry["action"] == "pass" else entry["cards"])
                except IllegalPlay:
                    complete = False
                    break
            events = [(s, self._played_after(history, s, i)) for s, i in found]
            if complete:
                break
        return [(s, later) for s, later in events if s in self.others]

    @staticmethod
    def _played_after(history: list[dict[str, Any]], seat: int, index: int) -> int:
        mask = 0
        for entry in history[index + 1 :]:
            if entry["seat"] == seat and entry["action"] == "play":
                mask |= to_mask(entry["cards"])
        return mask

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

    def _consistent(self, hands: list[int], events: list[tuple[int, int]]) -> bool:
        """Each lead pass was forced: the hand the seat held then (its hand now and what it played since)
        had no legal lead."""
        ev, forbid = self.ev, self.rules.last_play_forbidden
        for s, later in events:
            if legal_actions(ev, HandIndex.build(ev, hands[s] | later), None, 0, forbid)[0].mask:
                return False
        return True

    def _draw_consistent(self, rng: random.Random, events: list[tuple[int, int]]) -> list[int]:
        hands = self._draw(rng)
        if events:
            for _ in range(MAX_REJECTIONS):
                if self._consistent(hands, events):
                    break
                hands = self._draw(rng)
        return hands

    def sample(self, rng: random.Random) -> list[int]:
        """Every seat's hand as a mask (the observer's own as it is), uniform over the consistent deals."""
        return self._draw_consistent(rng, self.lead_passes)
