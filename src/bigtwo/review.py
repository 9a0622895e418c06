"""Learn from a round: every decision of one seat rated from that seat's own view.

A review replays a record and, at each play decision of the chosen seat, weighs the moves it could have made
from its observation alone (its hand, what was played, the hand sizes: never the cards it could not see). The
hidden cards are dealt again many times consistently with that observation (:class:`DealSampler`), and each
candidate, the move actually played among them, is played out on the same deals by the heuristic in every
seat. A move's value is the seat's mean points over those deals, in the rules' own measure (their payments, or
the finishing order where unscored); the best candidate is the move the review prefers, and the points the
played move gave up against it say how bad the choice was.

The deals come from a seed and the decision's place in the round, so a review is reproducible, and two rounds
that look the same to the seat at a decision get the same rating there, whoever held the cards it did not see.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass

from bigtwo.bots.heuristic import policy_for, search_candidates
from bigtwo.bots.playouts import rollout
from bigtwo.bots.sampling import MAX_FAILED_SAMPLES, DealSampler, determinised, too_many_failures
from bigtwo.bots.view import engine_of, played_in, view_from_observation
from bigtwo.cards import fold_copies
from bigtwo.combos.play import Play
from bigtwo.errors import BigTwoError
from bigtwo.game import Game
from bigtwo.i18n import N_
from bigtwo.legal import legal_plays_from_observation
from bigtwo.match import Match
from bigtwo.observation import Note, Observation
from bigtwo.record import Record, replay
from bigtwo.rules.choices import Measure
from bigtwo.rules.ruleset import Ruleset
from bigtwo.utilities import round_utility
from bigtwo.vocabulary import Vocabulary

DEFAULT_DEALS = 40  # sampled deals a decision: enough to tell a blunder from a good move in about a second
MAX_DEALS = 1000  # the most a review weighs a decision on (a bound for hostile input)
CANDIDATES = 4  # the heuristic's best few moves weighed beside the pass and the move played


class Label(Vocabulary):
    """How much a decision gave up against the review's preferred move."""

    GOOD = "good"
    INACCURACY = "inaccuracy"
    MISTAKE = "mistake"
    BLUNDER = "blunder"


LABEL_WORDS: dict[Label, str] = {
    Label.GOOD: N_("good"),
    Label.INACCURACY: N_("inaccuracy"),
    Label.MISTAKE: N_("mistake"),
    Label.BLUNDER: N_("blunder"),
}

# The least loss (expected points given up) for each label, by the measure the rules play for. In the rules'
# payments (or one point a card left) a round is worth tens of points: a blunder gives up about what a hand of
# six cards left costs. A place is worth one point between neighbours; a win one point in all.
THRESHOLDS: dict[Measure, tuple[float, float, float]] = {
    Measure.SCORE: (1.0, 3.0, 6.0),
    Measure.CARDS: (1.0, 3.0, 6.0),
    Measure.PLACE: (0.15, 0.4, 0.8),
    Measure.WIN: (0.05, 0.15, 0.3),
}


def label_for(loss: float, measure: str) -> Label:
    """The label of a decision that gave up ``loss`` points in ``measure`` (:data:`THRESHOLDS`)."""
    inaccuracy, mistake, blunder = THRESHOLDS[Measure(measure)]
    if loss >= blunder:
        return Label.BLUNDER
    if loss >= mistake:
        return Label.MISTAKE
    if loss >= inaccuracy:
        return Label.INACCURACY
    return Label.GOOD


@dataclass(frozen=True)
class Rating:
    """One decision rated: the move played, the move preferred, each one's expected points, and the loss."""

    step: int  # the decision's place among the round's actions (0: the first play)
    seat: int
    played: Play
    best: Play
    played_points: float
    best_points: float
    deals: int  # the sampled deals both were played out on
    measure: str
    label: Label
    round_index: int = 0  # the round of a match (0 for a single round)

    @property
    def loss(self) -> float:
        """The expected points the played move gave up against the preferred one (never negative)."""
        return max(0.0, self.best_points - self.played_points)


def _same(a: Play, b: Play) -> bool:
    return fold_copies(a.mask) == fold_copies(b.mask)


def rate_decision(
    rules: Ruleset,
    obs: Observation,
    played: Play,
    deals: int = DEFAULT_DEALS,
    seed: int = 0,
    step: int = 0,
    round_index: int = 0,
) -> Rating | None:
    """Rate ``played`` at the decision ``obs`` shows (its seat to play), from that observation alone; None where
    the seat had only one move. ``deals`` sampled deals (at most :data:`MAX_DEALS`), drawn from ``seed`` and
    ``step`` and ``round_index`` (the decision's place in the record)."""
    seat = obs.seat
    if seat is None:
        raise BigTwoError("a spectator makes no decisions to review")
    deals = max(1, min(int(deals), MAX_DEALS))
    legal = legal_plays_from_observation(rules, obs)
    if len(legal) <= 1:
        return None
    policy = policy_for(engine_of(rules, obs))
    ranked = policy.scores(view_from_observation(rules, obs, legal))
    cands = list(search_candidates(ranked, CANDIDATES))
    if len(cands) == 1:  # going out: weigh the next best too, so a move that does not go out is measured
        cands = list(search_candidates([(0.0, p) for _s, p in ranked], CANDIDATES))
    mine = next((i for i, c in enumerate(cands) if _same(c, played)), None)
    if mine is None:
        cands.append(played)
        mine = len(cands) - 1
    measure = rules.play_measure
    rng = random.Random(f"review:{seed}:{round_index}:{step}")
    sampler = DealSampler(rules, obs)
    totals = [0.0] * len(cands)
    failures = 0
    done = 0
    while done < deals:
        base = determinised(rules, obs, sampler.sample(rng), rng)
        if base is None:
            failures += 1
            if failures > MAX_FAILED_SAMPLES:
                raise too_many_failures()
            continue
        played0 = played_in(base)
        for i, c in enumerate(cands):
            g = base.clone()
            a = g.play(c)
            rollout(g, policy, played0 | a.mask)
            assert g.result is not None
            totals[i] += round_utility(g.result, measure)[seat]
        done += 1
    means = [t / done for t in totals]
    best = max(range(len(cands)), key=lambda i: (means[i], i == mine, -i))
    loss = max(0.0, means[best] - means[mine])
    return Rating(
        step=step,
        seat=seat,
        played=played,
        best=cands[best],
        played_points=means[mine],
        best_points=means[best],
        deals=done,
        measure=measure,
        label=label_for(loss, measure),
        round_index=round_index,
    )


def decisions(game: Game, seat: int) -> Iterator[tuple[int, Observation, Play]]:
    """Each play decision of ``seat`` in a played round: its step, the seat's observation then, the move made.
    The round is stepped again from its start (a clone, undone to the deal); automatic passes are no decision."""
    start = game.clone()
    while start.history:
        start.undo()
    for k, (who, play) in enumerate(game.history):
        note = game.history_notes[k]
        if note == Note.AUTO:
            continue  # the engine passed for the seat
        if who == seat and start.to_move == seat and note != Note.FORFEIT and not start.look_pending:
            yield k, start.observe(seat), play
        if start.look_pending and (not play.is_pass or note == Note.FORFEIT):
            start.look()
        start.play(play, call_last_card=note == Note.CALLED)


def rounds_of(played: Game | Match) -> list[Game | None]:
    """The rounds of a replayed record, in order: None for one whose tricks were never played (decided at the
    deal, or left in its exchanges)."""
    if isinstance(played, Game):
        return [played]
    return [r.game for r in played.records]


def review_record(
    record: Record, seat: int, deals: int = DEFAULT_DEALS, seed: int = 0, only_round: int | None = None
) -> list[Rating]:
    """Every play decision of ``seat`` in ``record`` rated (:func:`rate_decision`), round by round (``only_round``:
    that round alone, from 0); the record is checked against the engine as it is replayed."""
    if not 0 <= seat < record.players:
        raise BigTwoError(f"seat {seat + 1} is not at this {record.players}-player table")
    rules = record.ruleset()
    out: list[Rating] = []
    games = rounds_of(replay(record))
    if only_round is not None and not 0 <= only_round < len(games):
        raise BigTwoError(f"round {only_round + 1}: the record has rounds 1-{len(games)}")
    for r, game in enumerate(games):
        if game is None or (only_round is not None and r != only_round):
            continue
        for step, obs, play in decisions(game, seat):
            got = rate_decision(rules, obs, play, deals, seed=seed, step=step, round_index=r)
            if got is not None:
                out.append(got)
    return out


def summary(ratings: list[Rating]) -> dict[Label, int]:
    """How many decisions got each label."""
    counts = dict.fromkeys(Label, 0)
    for x in ratings:
        counts[x.label] += 1
    return counts


__all__ = [
    "DEFAULT_DEALS",
    "LABEL_WORDS",
    "MAX_DEALS",
    "THRESHOLDS",
    "Label",
    "Rating",
    "decisions",
    "label_for",
    "rate_decision",
    "review_record",
    "summary",
]
