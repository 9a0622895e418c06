"""Learned beliefs: who holds each card a seat cannot see, predicted from its observation by a small network.

A search samples the hidden hands it plays out on. Uniform deals weighted by how likely a model of play makes the
opponents' observed plays and passes (:class:`~bigtwo.bots.sampling.PlayModel`) are one way to the posterior;
with the true deal in place of every sample, the same search scores about two points a game more against three
``search`` bots (benchmarks/ceiling.py), so better beliefs are worth having. This module learns them directly:
a network reads the seat's observation (:class:`BeliefEncoder`: the learned bot's state vector, and for each
other seat the cards of the plays it passed on and of those it made, by the size of the play) and gives, for
every card, a probability for each place it may be (:data:`ASIDE`, in no hand, or one of the other seats). The
labels are free: simulated rounds know every hand (:mod:`bigtwo.lab.belief` collects and fits them).

:class:`BeliefSampler` deals the hidden cards from those probabilities, each seat its exact number, and weighs
each deal by its importance weight towards the product of the per-card probabilities over the deals the
observation allows, so a search's weighted mean is that of the network's beliefs. Inference is numpy alone.
"""

from __future__ import annotations

import json
import math
import random
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from bigtwo.bots.features import StateEncoder, info_from_observation
from bigtwo.bots.learned import rules_learned, table_suits
from bigtwo.bots.npzfile import NpzWords, check_file, open_npz
from bigtwo.bots.sampling import DealSampler
from bigtwo.cards import bits
from bigtwo.combos.play import PASS, Play
from bigtwo.errors import BigTwoError, IllegalPlay
from bigtwo.game import Game
from bigtwo.observation import Note, Observation
from bigtwo.rules.ruleset import Ruleset

BELIEF_FORMAT = "bigtwo-beliefs/1"
GROUPS = 4  # plays grouped by size: singles, pairs, triples, four cards or more
ASIDE = 0  # the class of a card in nobody's hand (a stock, cards set aside); class r: relative seat r
HISTORY = 8  # recent actions in the state vector
WORDS = NpzWords(
    folder="belief weights {path} are a folder: give the .npz file that bigtwo lab beliefs fit wrote",
    missing="no belief weights at {path}",
    not_npz="belief weights {path} are not a numpy archive (.npz)",
    one_array="belief weights {path} hold one array, not the layers of a network",
)


def group_of(play: Play) -> int:
    """The size group of a play: 0 singles, 1 pairs, 2 triples, 3 four cards or more."""
    return min(play.mask.bit_count(), GROUPS) - 1


def public_tricks(rules: Ruleset, obs: Observation) -> list[Play | None]:
    """The play to beat before each action of the history (None: a lead), read by replaying the history on any
    deal the observation allows (the trick is public: every such deal gives the same plays to beat)."""
    history = obs.history
    if not history:
        return []
    hands = DealSampler(rules, obs).sample(random.Random(0))
    for e in history:  # the hands as dealt: each seat's now and what it has played
        hands[e.seat] |= e.play.mask
    game = Game(rules, hands=hands, first=history[0].seat)
    tops: list[Play | None] = []
    for e in history:
        tops.append(game.trick)
        try:
            game.play(PASS if e.is_pass else e.play)
        except IllegalPlay as err:  # only a history the engine did not play
            raise BigTwoError(f"the history of seat {obs.seat}'s observation does not replay: {err}") from None
    return tops


def applies(rules: Ruleset, obs: Observation) -> bool:
    """Whether the beliefs read this table: one deck, no jokers, nothing face up, no exchanges seen, no stock
    drawn from and no automatic skips (what the encoder describes); elsewhere a search samples as before."""
    return (
        rules.decks == 1
        and rules.jokers == 0
        and not rules.draw_on_pass
        and not rules.auto_skip
        and not obs.face_up
        and not obs.exchanges
        and obs.seat is not None
    )


class BeliefEncoder:
    """The network's input for one seat: the learned bot's state vector, then for each other seat (relative
    order) and each size group the cards of the plays it passed on, then those of the plays it made.

    ``suits`` (a suit relabeling, :meth:`Ruleset.suit_relabeling`) writes the cards as the rules the network
    learned name them, where this table's rounds are theirs with the suits renamed (Taiwan's are classic's);
    :attr:`rows` then maps this table's cards to the network's rows of output."""

    def __init__(self, rules: Ruleset, players: int, history: int = HISTORY, suits: tuple[int, ...] | None = None):
        self.rules = rules
        self.n = players
        self.states = StateEncoder(rules, players, history, suits)
        self.width = self.states.width
        self.size = self.states.size + 2 * GROUPS * (players - 1) * self.width
        self.suits = suits
        self.columns = self.states.columns  # the card columns renamed (None: the same names)
        # this table's card c is the network's card rows[c] (None: the same names)
        self.rows = None if self.columns is None else np.argsort(self.columns)

    def encode(self, obs: Observation) -> np.ndarray:
        """The input vector (float32) of the seat's observation."""
        seat = obs.seat
        assert seat is not None, "a spectator holds no beliefs to act on"
        n, d = self.n, self.width
        out = np.zeros(self.size, dtype=np.float32)
        self.states.encode_into(info_from_observation(self.rules, obs, self.states.k), out[: self.states.size])
        passed = [[0] * GROUPS for _ in range(n)]
        made = [[0] * GROUPS for _ in range(n)]
        for e, top in zip(obs.history, public_tricks(self.rules, obs), strict=True):
            if e.is_pass:
                if top is not None and e.note != Note.AUTO:
                    passed[e.seat][group_of(top)] |= top.mask
            else:
                made[e.seat][group_of(e.play)] |= e.play.mask
        masks = [passed[(seat + r) % n][g] for r in range(1, n) for g in range(GROUPS)]
        masks += [made[(seat + r) % n][g] for r in range(1, n) for g in range(GROUPS)]
        rows = np.array([[m >> c & 1 for c in range(d)] for m in masks], dtype=np.float32)
        if self.columns is not None:
            rows = rows[:, self.columns]
        out[self.states.size :] = rows.reshape(-1)
        return out


@dataclass(frozen=True)
class BeliefNet:
    """An MLP with ReLU from the encoder's vector to one logit a card and class (``width`` x ``players``)."""

    layers: tuple[tuple[np.ndarray, np.ndarray], ...]
    meta: dict[str, Any]

    @property
    def players(self) -> int:
        return int(self.meta["players"])

    @property
    def rules_name(self) -> str:
        return str(self.meta["rules"])

    def logits(self, x: np.ndarray) -> np.ndarray:
        """Logits (rows: cards of the pack, columns: classes) of one input vector, or a batch of them."""
        h = x
        for i, (w, b) in enumerate(self.layers):
            h = h @ w + b
            if i < len(self.layers) - 1:
                np.maximum(h, 0.0, out=h)
        return h.reshape(*x.shape[:-1], -1, self.players)

    def save(self, path: str | Path) -> None:
        arrays: dict[str, Any] = {f"w{i}": w.astype(np.float16) for i, (w, _b) in enumerate(self.layers)}
        arrays |= {f"b{i}": b.astype(np.float32) for i, (_w, b) in enumerate(self.layers)}
        arrays["meta"] = np.frombuffer(json.dumps({**self.meta, "format": BELIEF_FORMAT}).encode(), dtype=np.uint8)
        np.savez_compressed(path, **arrays)

    @classmethod
    def load(cls, path: str | Path) -> BeliefNet:
        check_file(path, WORDS)
        with open_npz(path, WORDS) as z:
            try:
                meta = json.loads(bytes(z["meta"]).decode())
                count = sum(1 for k in z.files if k.startswith("w"))
                layers = tuple(
                    (np.asarray(z[f"w{i}"], dtype=np.float32), np.asarray(z[f"b{i}"], dtype=np.float32))
                    for i in range(count)
                )
            except (KeyError, ValueError) as e:
                raise BigTwoError(f"belief weights {path} are not a belief network's: {e}") from None
        if meta.get("format") != BELIEF_FORMAT:
            raise BigTwoError(f"belief weights {path} are not a belief network's (format {meta.get('format')!r})")
        return cls(layers, meta)


@lru_cache(maxsize=1)
def shipped_beliefs() -> dict[tuple[str, int], str]:
    """The shipped belief networks, by (preset, players): their file names in the package."""
    folder = resources.files("bigtwo.bots") / "weights" / "belief"
    out = {}
    if folder.is_dir():
        for f in folder.iterdir():
            if f.name.endswith(".npz"):
                preset, _, size = f.name[:-4].rpartition("-")
                out[(preset, int(size.rstrip("p")))] = f.name
    return out


@lru_cache(maxsize=8)
def _shipped(name: str) -> BeliefNet:
    with resources.as_file(resources.files("bigtwo.bots") / "weights" / "belief" / name) as path:
        return BeliefNet.load(path)


def read_shipped_beliefs() -> None:
    """Read every shipped belief network (once a process): a bot that may deal with them calls it when it is
    made, so that the first decision's time is not spent reading them."""
    for name in shipped_beliefs().values():
        _shipped(name)


@lru_cache(maxsize=8)
def _from_file(path: str, mtime_ns: int) -> BeliefNet:
    return BeliefNet.load(path)


def belief_file(path: str | Path) -> BeliefNet:
    """The belief network in the file at ``path``, read once a process while the file is unchanged."""
    check_file(path, WORDS)
    resolved = Path(path).resolve()
    return _from_file(str(resolved), resolved.stat().st_mtime_ns)


def belief_for(which: str, rules: Ruleset, players: int) -> tuple[BeliefNet, BeliefEncoder] | None:
    """The belief network ``which`` names, with the encoder that shows it this table: "shipped", the package's
    for these rules (or for rules whose rounds these are with the suits renamed, as Taiwan's and Pusoy Dos's
    are classic's), None where it has none; otherwise a file, refused in words where it was fitted for another
    table."""
    if which == "shipped":
        found = shipped_beliefs()
        for preset in rules.game_presets(scoring=False):
            name = found.get((preset, players))
            if name is not None:
                net = _shipped(name)
                return net, BeliefEncoder(rules, players, int(net.meta["history"]), table_suits(net.meta, rules))
        return None
    net = belief_file(which)
    suits: tuple[int, ...] | None = None
    if net.players == players:
        if rules_learned(net.meta) is not None:  # a preset's: these rules' rounds must be its, suits renamed or not
            suits = table_suits(net.meta, rules)
        elif net.rules_name == rules.name:
            suits = (0, 1, 2, 3)  # rules of one's own, known by their name
    if suits is None:
        raise BigTwoError(
            f"belief weights {which} were fitted for {net.rules_name!r} with {net.players} players, "
            f"not {rules.name!r} with {players}"
        )
    return net, BeliefEncoder(rules, players, int(net.meta["history"]), suits)


def belief_network(which: str, rules: Ruleset, players: int) -> BeliefNet | None:
    """The network alone of :func:`belief_for`."""
    found = belief_for(which, rules, players)
    return None if found is None else found[0]


def true_classes(game: Game, seat: int, cards: list[int]) -> list[int]:
    """Where each of ``cards`` truly is, as a class of ``seat``'s beliefs (0: in no hand; r: the seat r places
    after it): the labels a simulated round gives for free, and what a benchmark judges beliefs against."""
    n = game.n
    holder = {c: (s - seat) % n for s in range(n) for c in bits(game.hand(s).mask)}
    return [holder.get(c, ASIDE) for c in cards]


def class_masks(sampler: DealSampler) -> tuple[list[int], list[int]]:
    """The hidden cards (their indices) and, by class, how many of them each place holds: the cards in no
    hand (class 0), then each other seat in relative order (0 for the observer itself and seats out)."""
    n, seat = len(sampler.sizes), sampler.seat
    need = [0] * n
    for s in sampler.others:
        need[(s - seat) % n] = sampler.need[s]
    need[ASIDE] = len(sampler.pool) - sum(need)
    return list(sampler.pool), need


def probabilities(net: BeliefNet, encoder: BeliefEncoder, obs: Observation, sampler: DealSampler) -> np.ndarray:
    """Each hidden card's probability of each class (rows: ``sampler.pool``), zero where a class holds none."""
    cards, need = class_masks(sampler)
    rows = cards if encoder.rows is None else encoder.rows[cards]
    logits = net.logits(encoder.encode(obs))[rows].astype(np.float64)
    room = np.array(need, dtype=np.float64)
    with np.errstate(divide="ignore"):
        logits += np.log(room)  # the network gives the departure from dealing by room (-inf: a class with none)
    logits -= logits.max(axis=1, keepdims=True)
    p = np.exp(logits)
    return p / p.sum(axis=1, keepdims=True)


class BeliefSampler(DealSampler):
    """Deals the hidden cards from the network's probabilities, with importance weights towards their product.

    Cards are dealt one at a time in a random order, each to a place with room left, with probability its own
    probability times how much room the place has against what the cards still to deal are expected to fill
    there; the deal's log-weight is the log of the product of its cards' probabilities less the log of the
    chance this proposal dealt it. Everything :class:`DealSampler` keeps certain is kept.
    """

    def __init__(self, rules: Ruleset, observation: Observation, net: BeliefNet, encoder: BeliefEncoder):
        super().__init__(rules, observation)
        self.cards, need = class_masks(self)
        self.need_by_class = need
        p = probabilities(net, encoder, self.obs, self)
        self.p = p.tolist()
        self.logp = np.log(np.where(p > 0, p, 1.0)).tolist()
        self.expected = p.sum(axis=0).tolist()
        n = len(self.sizes)
        self.place = [-1] + [(self.seat + r) % n for r in range(1, n)]  # class -> seat (-1: no hand)

    def _draw_weighted(self, rng: random.Random) -> tuple[list[int], float]:
        need = list(self.need_by_class)
        n = len(need)
        expected = list(self.expected)
        hands = list(self.known)
        hands[self.seat] = self.hand
        order = list(range(len(self.cards)))
        rng.shuffle(order)
        logw = 0.0
        p, logp, place = self.p, self.logp, self.place
        for i in order:
            row = p[i]
            weights = [row[k] * need[k] / expected[k] if need[k] > 0 and row[k] > 0 else 0.0 for k in range(n)]
            total = math.fsum(weights)
            if total <= 0:  # every place with room has probability 0 for this card: deal it by room alone
                weights = [float(need[k]) for k in range(n)]
                total = math.fsum(weights)
            u = rng.random() * total
            k = 0
            while k < n - 1 and (u >= weights[k] or weights[k] == 0):
                u -= weights[k]
                k += 1
            while weights[k] == 0:  # rounding past the last place with room
                k -= 1
            # a card dealt where its probability is 0 (only when nowhere with room had more) weighs next to nothing
            logw += (logp[i][k] if row[k] > 0 else -30.0) - math.log(weights[k] / total)
            need[k] -= 1
            for j in range(n):
                expected[j] = max(expected[j] - row[j], 1e-9)
            if place[k] >= 0:
                hands[place[k]] |= 1 << self.cards[i]
        return hands, logw

    def sample_weighted(self, rng: random.Random) -> tuple[list[int], float]:
        hands, logw = self._draw_weighted(rng)
        if self.lead_passes:
            for _ in range(200):
                if self._consistent(hands, self.lead_passes):
                    break
                hands, logw = self._draw_weighted(rng)
        return hands, logw

    def sample(self, rng: random.Random) -> list[int]:
        return self.sample_weighted(rng)[0]
