"""Determinisation: deal the cards a seat cannot see to the other seats, consistently with what is public.

What is certain from one observation, and kept by every sample:

- each seat holds exactly ``hand_sizes[seat]`` cards, none of them the observer's, played, or face up;
- cards the observer knows to be in another hand are in that hand: those the round shows (``known_cards``:
  a leftover shown before it was claimed) and those the exchanges before the round showed it (``exchanges``:
  cards it gave, cards shown to everyone), followed through later exchanges it saw and less any such card
  its holder has played since (a card moved on in an exchange the observer did not see is no longer known);
- when cards were set aside unseen and the first play had to hold the lowest card dealt (the lead card
  was not dealt, or the rules lead with the lowest card, in every round), no card below that play's lowest
  card was dealt;
- a seat that passed while leading (possible only when every lead it had was a forbidden last play) held
  then a hand with no legal lead: its hand now plus what it has played since.

Everything else is uniform: a pass in these games is always allowed, so it proves nothing about a hand.
Cards nobody holds (a stock, cards set aside) are whatever the unseen cards not dealt to a hand are.

A search plays out positions, not hands: :func:`determinised` rebuilds the position on a sampled deal, and
:class:`WeightedDeals` draws the deals a search plays out, each with the log-weight the beliefs give it.
"""

from __future__ import annotations

import math
import random
import time
from typing import Any

from bigtwo.bots.native_playouts import compiled, core_deadline
from bigtwo.bots.view import engine_of, view_from_game
from bigtwo.cards import DECK_SIZE, bits, mask_of_tokens, to_mask
from bigtwo.combos.play import PASS
from bigtwo.errors import BigTwoError, IllegalPlay
from bigtwo.game import Game
from bigtwo.legal import hand_actions
from bigtwo.moves import HandIndex
from bigtwo.observation import ExchangeEvent, HistoryEntry, Note, Observation
from bigtwo.positions import position_from_observation
from bigtwo.rules.choices import FourTwos, LastPlayForbidden, Leftover
from bigtwo.rules.ruleset import Ruleset

MAX_REJECTIONS = 200
MAX_FAILED_SAMPLES = 100  # sampled deals the public history contradicts before a search gives up
BELIEF_TEMPERATURE, BELIEF_UNIFORM = 0.5, 0.25  # the beliefs' softmax over the heuristic's own scores


def known_cards(obs: Observation) -> dict[int, int]:
    """The cards the observer knows another seat holds now, as masks: those a rule shows (``known``) and those
    the exchanges it saw tell, less what each seat has played since."""
    me = obs.seat
    held: dict[int, int] = {}
    for e in obs.exchanges:
        if e.get("type") != ExchangeEvent.GIVE:
            continue
        giver, taker = e["from"], e["to"]
        if "cards" not in e:
            held.pop(giver, None)  # unseen cards left that hand: any of those it was known to hold
            continue
        moved = mask_of_tokens(e["cards"])
        held[giver] = held.get(giver, 0) & ~moved
        if taker != me:
            held[taker] = held.get(taker, 0) | moved
    for entry in obs.history:
        if entry.seat in held:
            held[entry.seat] &= ~entry.play.mask
    out: dict[int, int] = {}
    for s in range(len(obs.known)):
        both = held.get(s, 0) | obs.known[s]
        if both and s != me:
            out[s] = both
    return out


class DealSampler:
    """Samples full deals (every seat's current hand) consistent with one seat's observation."""

    def __init__(self, rules: Ruleset, observation: Observation):
        obs = observation
        self.rules = rules
        self.obs = obs
        self.ev = ev = engine_of(rules, obs)
        assert obs.seat is not None, "a spectator does not decide"
        self.seat = obs.seat
        self.sizes = list(obs.hand_sizes)
        self.hand = obs.hand
        used = self.hand | obs.played | obs.face_up
        self.known = [0] * len(self.sizes)
        for s, m in sorted(known_cards(obs).items()):
            self.known[s] = m
            used |= m
        pool = ev.pack & ~used
        self.others = [s for s in range(len(self.sizes)) if s != self.seat and self.sizes[s] > 0]
        self.need = {s: self.sizes[s] - self.known[s].bit_count() for s in self.others}
        need = sum(self.need.values())
        if need > pool.bit_count() or any(k < 0 for k in self.need.values()):
            raise BigTwoError(
                f"observation of seat {self.seat}: the other hands hold {need} unknown cards but only "
                f"{pool.bit_count()} are unaccounted for"
            )
        narrowed = pool & ~self._never_dealt(obs)
        if need <= narrowed.bit_count():
            pool = narrowed
        self.pool = bits(pool)
        self.lead_passes = self._lead_passes(obs)

    def _never_dealt(self, obs: Observation) -> int:
        """Cards below the first play's lowest card, when that play had to hold the lowest card dealt."""
        rules, history = self.rules, obs.history
        if (
            not rules.lead_card_must_be_played
            or rules.previous_winner_leads
            or rules.leftover == Leftover.SWAP
            or rules.draw_on_pass
            or not history
            or history[0].is_pass
        ):
            return 0
        first = history[0].play.mask
        if not rules.leads_lowest:
            lead = to_mask(rules.lead_card)
            if first & (lead | lead << DECK_SIZE):
                return 0  # the named lead card was played: nothing follows about the rest
        power = self.ev.power
        low = min(bits(first), key=lambda c: (power[c], c % DECK_SIZE))
        key = (power[low], low % DECK_SIZE)
        return sum(1 << c for c in bits(self.ev.pack) if (power[c], c % DECK_SIZE) < key)

    def _lead_passes(self, obs: Observation) -> list[tuple[int, int]]:
        """Passes made while leading, as (seat, cards that seat played afterwards).

        Which passes were leads follows from replaying the public history, which needs hands that agree
        with those very passes: replay on sampled hands, and when a replay shows a lead pass that the sample
        contradicts, sample again under what it has shown so far.
        """
        history = obs.history
        rules = self.rules
        if rules.last_play_forbidden == LastPlayForbidden.NONE or not any(e.is_pass for e in history):
            return []
        if rules.auto_skip or rules.draw_on_pass:
            return []  # skipped turns and draws are not leads passed; the replay below does not model them
        rng = random.Random(0)
        events: list[tuple[int, int]] = []
        for _attempt in range(len(history) + 2):
            hands = self._draw_consistent(rng, events)
            game = Game(rules, hands=self._dealt(obs, hands), first=history[0].seat)
            found: list[tuple[int, int]] = []
            complete = True
            for i, entry in enumerate(history):
                s = entry.seat
                if entry.is_pass and game.trick is None:
                    found.append((s, i))
                try:
                    game.play(PASS if entry.is_pass else entry.play)
                except IllegalPlay:
                    complete = False
                    break
            events = [(s, self._played_after(history, s, i)) for s, i in found]
            if complete:
                break
        return [(s, later) for s, later in events if s in self.others]

    @staticmethod
    def _played_after(history: tuple[HistoryEntry, ...], seat: int, index: int) -> int:
        mask = 0
        for entry in history[index + 1 :]:
            if entry.seat == seat:
                mask |= entry.play.mask
        return mask

    def _dealt(self, obs: Observation, hands: list[int]) -> list[int]:
        dealt = list(hands)
        for entry in obs.history:
            dealt[entry.seat] |= entry.play.mask
        return dealt

    def _draw(self, rng: random.Random) -> list[int]:
        cards = list(self.pool)
        rng.shuffle(cards)
        hands = list(self.known)
        hands[self.seat] = self.hand
        i = 0
        for s in self.others:
            k = self.need[s]
            m = 0
            for c in cards[i : i + k]:
                m |= 1 << c
            i += k
            hands[s] |= m
        return hands

    def _consistent(self, hands: list[int], events: list[tuple[int, int]]) -> bool:
        """Each lead pass was forced: the hand the seat held then (its hand now and what it played since)
        had no legal lead."""
        ev, forbid = self.ev, self.rules.last_play_forbidden
        for s, later in events:
            if hand_actions(ev, HandIndex.build(ev, hands[s] | later), None, 0, forbid)[0].mask:
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

    def sample_weighted(self, rng: random.Random) -> tuple[list[int], float]:
        """A deal and its log importance weight: 0, every deal here being drawn as likely as the target says."""
        return self.sample(rng), 0.0


def action_log_probability(
    scored: list[tuple[float, Any]], legal: int, chosen: int, temperature: float, uniform: float
) -> float:
    """The log-probability of the action whose cards are ``chosen`` among ``legal`` actions, under a softmax
    over the heuristic's ``scored`` actions (score, play) at ``temperature``, mixed with a uniform choice
    (share ``uniform``); an action the heuristic did not score counts a point below its lowest score."""
    return log_probability([(sc, p.mask) for sc, p in scored], legal, chosen, temperature, uniform)


def log_probability(
    scored: list[tuple[float, int]], legal: int, chosen: int, temperature: float, uniform: float
) -> float:
    """:func:`action_log_probability` with the scored actions as (score, cards) pairs (the compiled heuristic's)."""
    floor = min(sc for sc, _m in scored) - 1.0
    mine = next((sc for sc, m in scored if m == chosen), floor)
    values = [sc / temperature for sc, _m in scored]
    top = max(values)
    lse = top + math.log(
        math.fsum(math.exp(v - top) for v in values) + (legal - len(scored)) * math.exp(floor / temperature - top)
    )
    return math.log(uniform / legal + (1 - uniform) * math.exp(mine / temperature - lse))


class PlayModel:
    """How likely each opponent's observed plays and passes were on a sampled deal, under a model of play:
    a softmax over the heuristic's scores of that seat's legal actions at the time, mixed with a uniform choice
    so that no hand is ruled out by one surprising move: ``P(a) = u / L + (1 - u) exp(score(a) / T) / Z``.

    :meth:`log_likelihood` replays the public history on the sampled deal (each seat's hand now plus what it
    has played since the deal) and sums the log-probability of every action another seat chose among two or
    more, times ``strength`` (a power below 1 tempers a model that is only roughly right). Weighting sampled
    deals by ``exp`` of it turns the uniform deals of :class:`DealSampler` into the posterior given what the
    opponents did: a seat that passed on a low single is unlikely to hold singles it would have played.

    It applies to one deck without a stock, an automatic skip, face-up cards or exchanges seen (:attr:`active`);
    elsewhere every deal weighs the same, as before. It does not apply where a pass locks the seat out of the
    trick (Tien Len): there the heuristic's scores misjudged the opponents' passes, and ``isearch`` without
    beliefs scored +0.15 [+0.06, +0.23] places a game more against three ``search`` at 0.1 s (160 deals).
    """

    def __init__(
        self,
        rules: Ruleset,
        obs: Observation,
        policy: Any,
        temperature: float = BELIEF_TEMPERATURE,
        uniform: float = BELIEF_UNIFORM,
        strength: float = 1.0,
    ):
        self.rules = rules
        self.obs = obs
        self.policy = policy
        self.temperature = temperature
        self.uniform = uniform
        self.strength = strength
        self.seat = obs.seat
        history = obs.history
        self.active = bool(
            history
            and strength > 0
            and rules.decks == 1
            and not rules.draw_on_pass
            and not rules.auto_skip
            and not rules.pass_locks_out
            and not obs.face_up
            and not obs.exchanges
            and not obs.required
            and not obs.lead_elsewhere
            and any(e.seat != self.seat for e in history)
        )

    def log_likelihood(self, hands: list[int], deadline: float | None = None) -> float | None:
        """The tempered log-likelihood of the others' actions on the deal ``hands`` (None: out of time)."""
        if not self.active:
            return 0.0
        obs, policy, t = self.obs, self.policy, self.temperature
        history = obs.history
        dealt = list(hands)
        for e in history:
            dealt[e.seat] |= e.play.mask
        fast = self._compiled()
        if fast is not None:
            return self._compiled_log_likelihood(fast, dealt, deadline)
        try:
            game = Game(self.rules, hands=dealt, first=history[0].seat)
        except BigTwoError:
            return -math.inf
        played = 0
        previous = list(dealt)
        total = 0.0
        clock = time.perf_counter
        for e in history:
            s = e.seat
            if s != self.seat and e.note != Note.AUTO:
                legal = game.legal_plays()
                if len(legal) > 1:
                    if deadline is not None and clock() >= deadline:
                        return None
                    view = view_from_game(game, played)
                    scored = policy.scores(view, previous[s])
                    total += action_log_probability(scored, len(legal), e.play.mask, t, self.uniform)
                    previous[s] = view.hand
            try:
                game.play(PASS if e.is_pass else e.play)
            except IllegalPlay:
                return -math.inf  # the sample contradicts the history (the sampler keeps what it can)
            played |= e.play.mask
        return self.strength * total

    def _compiled(self) -> Any:
        """The compiled heuristic that replays the history in C++ (the same scores), or None: the Python one
        replays it where the core is off or does not cover the rules, or where a deal may end the round at once
        (an instant result the compiled round does not know)."""
        if not hasattr(self, "_fast"):
            rules = self.rules
            instant = rules.malta_dragon or rules.four_twos in (FourTwos.WIN, FourTwos.DRAW)
            self._fast = None if instant else compiled(self.policy)
            if self._fast is not None:
                me = self.seat
                self._masks = [e.play.mask for e in self.obs.history]
                self._counted = [int(e.seat != me and e.note != Note.AUTO) for e in self.obs.history]
        return self._fast

    def _compiled_log_likelihood(self, fast: Any, dealt: list[int], deadline: float | None) -> float | None:
        """:meth:`log_likelihood` with the history replayed and scored by the compiled heuristic."""
        first = self.obs.history[0].seat
        ends = core_deadline(deadline, time.perf_counter)
        status, decisions = fast.replay_scores(dealt, first, self._masks, self._counted, ends)
        if status == 1:
            return -math.inf
        if status == 2:
            return None
        total = 0.0
        t, u = self.temperature, self.uniform
        for legal, chosen, scored in decisions:
            total += log_probability(scored, legal, chosen, t, u)
        return self.strength * total


def shuffle_stock(game: Game, rng: Any) -> None:
    """Put a determinisation's stock in a random order. ``position_from_observation`` deals the sampled hands
    and lays the rest of the unseen cards out as the stock in card order; drawn in that order, every draw in
    a play-out would be the lowest card left."""
    stock = list(game._stock[game._stock_pos :])
    rng.shuffle(stock)
    game._stock = tuple(stock)
    game._stock_pos = 0


def determinised(rules: Ruleset, obs: Observation, hands: list[int], rng: Any) -> Game | None:
    """The position a search plays out on a sampled deal (``hands``, from :class:`DealSampler`), its stock in a
    random order; None where the public history contradicts the sample (a constraint the sampler could not meet),
    which the search skips and counts towards :data:`MAX_FAILED_SAMPLES`."""
    try:
        base = position_from_observation(rules, obs, hands)
    except IllegalPlay:
        return None
    if base.stock_size > 1:
        shuffle_stock(base, rng)
    return base


def too_many_failures() -> IllegalPlay:
    """What a search raises when no deal it sampled agrees with what the table has seen."""
    return IllegalPlay(f"none of {MAX_FAILED_SAMPLES + 1} sampled deals agrees with the table's history")


class WeightedDeals:
    """The sampled positions a search plays out, one at a time, each with its log-weight: the sampler's own
    (a belief network's importance weight, 0 for uniform deals) plus, with a ``model``, the log-likelihood of
    the opponents' observed plays on that deal. :meth:`next` returns None when the deadline passes first
    (``cut`` is then set) or when the deals the model rules out exceed :data:`MAX_FAILED_SAMPLES`; it raises
    :func:`too_many_failures` when as many deals contradict the history itself."""

    def __init__(self, rules: Ruleset, obs: Observation, sampler: Any, model: PlayModel | None, rng: Any):
        self.rules, self.obs, self.sampler, self.model, self.rng = rules, obs, sampler, model, rng
        self.failures = 0
        self.cut = False

    def next(self, deadline: float | None) -> tuple[float, Game] | None:
        while True:
            hands, lw = self.sampler.sample_weighted(self.rng)
            if self.model is not None:
                got = self.model.log_likelihood(hands, deadline)
                if got is None:
                    self.cut = True
                    return None
                if got == -math.inf:
                    self.failures += 1
                    if self.failures > MAX_FAILED_SAMPLES:
                        return None
                    continue
                lw += got
            base = determinised(self.rules, self.obs, hands, self.rng)
            if base is None:
                self.failures += 1
                if self.failures > MAX_FAILED_SAMPLES:
                    raise too_many_failures()
                continue
            return lw, base
