"""One arena game: a deal, a seating of bots, every action through ``bot.choose(rules, observation)``.

A game is one round as dealt, or, with ``rounds`` above one or rules that ask for decisions before or during
play that a dealt round cannot make (auctions, free trade, the Horse Game's face-down hands), a match: then the
bots decide those too and the points are summed over the rounds. (A round as dealt is played by a bare
``Game``, close to twice as fast with cheap bots, and its results are those of earlier versions.)
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from typing import Any

from bigtwo.bots.spec import BotSpec
from bigtwo.errors import BigTwoError
from bigtwo.exchange import exchanges_before_first_round
from bigtwo.game import Game
from bigtwo.match import Match
from bigtwo.rules.ruleset import Ruleset
from bigtwo.utilities import round_utility

MAX_ACTIONS = 10_000  # a safety net: every round ends far sooner


@dataclass
class GameRecord:
    """A finished arena game. ``entries[seat]`` is the lineup index of the bot in that seat."""

    deal: int
    rotation: int
    deal_seed: int
    entries: list[int]
    labels: list[str]
    points: list[float]  # the arena's utility, by seat
    scores: list[int]  # the ruleset's own payments, by seat
    cards_left: list[int]
    finishing_order: list[int]
    actions: int
    think_seconds: list[float]  # total time each seat spent choosing
    decisions: list[int]  # calls to choose, by seat
    max_think_seconds: list[float]
    # each seat's longest decision in its own CPU time (the choosing thread's: what a machine shared with other
    # processes does not add); empty in results saved before it was recorded
    max_cpu_seconds: list[float] = field(default_factory=list)

    @property
    def winner(self) -> int:
        return self.finishing_order[0]

    def slowest_seconds(self, entry: int) -> float:
        """Lineup entry ``entry``'s longest decision in this game: in its own CPU time where the game recorded
        it (what a time limit on the bot's own work is judged by), else on the wall clock."""
        seat = self.entries.index(entry)
        return (self.max_cpu_seconds or self.max_think_seconds)[seat]

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> GameRecord:
        return cls(**{k: d[k] for k in cls.__dataclass_fields__ if k in d})


class SeatClocks:
    """Each seat's time spent choosing, on the wall clock and in the choosing thread's CPU time.

    The wall clock is what a player waits; the thread's CPU time is the bot's own work, which a machine shared
    with other processes does not inflate. ``with clocks.timing(seat):`` around one decision adds it."""

    def __init__(self, n: int) -> None:
        self.think = [0.0] * n  # total wall time, by seat
        self.worst = [0.0] * n  # longest decision on the wall clock
        self.worst_cpu = [0.0] * n  # longest decision in the thread's CPU time
        self.calls = [0] * n

    @contextmanager
    def timing(self, seat: int) -> Iterator[None]:
        t0, c0 = time.perf_counter(), time.thread_time()
        yield
        dt, cpu = time.perf_counter() - t0, time.thread_time() - c0
        self.think[seat] += dt
        self.worst[seat] = max(self.worst[seat], dt)
        self.worst_cpu[seat] = max(self.worst_cpu[seat], cpu)
        self.calls[seat] += 1

    def fields(self) -> dict[str, list[Any]]:
        """The timing fields of a :class:`GameRecord`."""
        return {
            "think_seconds": self.think,
            "decisions": self.calls,
            "max_think_seconds": self.worst,
            "max_cpu_seconds": self.worst_cpu,
        }


def deal_seed(base: int, deal: int) -> int:
    """The seed of deal number ``deal`` of a run seeded ``base``: the same cards wherever and whenever it runs."""
    return base * 1_000_003 + deal


def bot_seed(base: int, deal: int, rotation: int, entry: int) -> int:
    """The seed of one bot in one game: fixed by the run's seed and the game, not by where it runs."""
    return ((base * 1_000_003 + deal) * 64 + rotation) * 16 + entry


def seating(n: int, rotation: int) -> list[int]:
    """Lineup entry sitting at each seat in a rotation: seat s gets entry (s - rotation) mod n."""
    return [(s - rotation) % n for s in range(n)]


def needs_match(rules: Ruleset, rounds: int = 1) -> bool:
    """Whether a game must be played as a match: several rounds, or decisions a dealt round cannot make."""
    return rounds > 1 or bool(rules.horse_game) or exchanges_before_first_round(rules)


def play_game(
    rules: Ruleset,
    lineup: list[BotSpec],
    deal: int,
    rotation: int,
    seed: int = 0,
    utility: str = "score",
    rounds: int = 1,
    recorder: Any = None,
) -> GameRecord:
    """Deal ``deal`` (seeded from the run's seed) with the lineup rotated ``rotation`` seats; play it out (a
    match of ``rounds`` rounds: the points are summed over them).

    ``recorder`` (a :class:`~bigtwo.arena.decisions.DecisionRecorder`) is shown the game as it starts, every
    decision and the end; its arrays are then its ``last`` attribute. It records rounds as dealt (a bare Game).
    """
    n = len(lineup)
    seed_of_deal = deal_seed(seed, deal)
    if recorder is not None and needs_match(rules, rounds):
        raise BigTwoError("decisions are recorded from single rounds as dealt, not from matches")
    game: Game | Match = (
        Match(rules, players=n, seed=seed_of_deal, rounds=rounds)
        if needs_match(rules, rounds)
        else Game(rules, players=n, seed=seed_of_deal)
    )
    entries = seating(n, rotation)
    bots = [lineup[e].build(bot_seed(seed, deal, rotation, e)) for e in entries]

    def failed(seat: int, what: str) -> BigTwoError:
        """A bot's failure in one line naming its spec, seat and game (built only when a bot fails)."""
        return BigTwoError(f"{lineup[entries[seat]].display} in seat {seat} (deal {deal}, rotation {rotation}) {what}")

    clocks = SeatClocks(n)
    actions = 0
    if recorder is not None:
        recorder.start(game)
    while not game.is_over:
        s = game.to_move
        assert s is not None
        obs = game.observe(s)
        try:
            with clocks.timing(s):
                action = bots[s].choose(rules, obs)
        except BigTwoError as e:  # said in words already (a table the bot has no weights for): say which bot
            raise BigTwoError(f"{lineup[entries[s]].display}: {e}") from None
        except Exception as e:  # a user's bot: its failure in one line naming it, not a traceback
            raise failed(s, f"raised {type(e).__name__}: {e}") from None
        if action is None:
            raise failed(s, "answered None: a bot answers with a play (a pass included) or an answer")
        if recorder is not None:
            recorder.decision(game, s, obs, action)
        try:
            game.apply(action)
        except BigTwoError as e:
            raise failed(s, f"made a move the rules do not allow: {e}") from None
        actions += 1
        if actions > MAX_ACTIONS:
            raise BigTwoError(f"deal {deal} rotation {rotation}: no result after {MAX_ACTIONS} actions")
    if isinstance(game, Match):
        results = [rec.result for rec in game.records if rec.result is not None]
        totals, standings = list(game.totals), game.standings()
    else:
        assert game.result is not None
        results = [game.result]
        totals, standings = list(game.result.scores), list(game.result.finishing_order)
    res = results[-1]
    points = [sum(v) for v in zip(*(round_utility(r, utility) for r in results), strict=True)]
    record = GameRecord(
        deal=deal,
        rotation=rotation,
        deal_seed=seed_of_deal,
        entries=entries,
        labels=[lineup[e].display for e in entries],
        points=points,
        scores=totals,
        cards_left=list(res.cards_left),
        finishing_order=list(res.finishing_order) if rounds == 1 else standings,
        actions=actions,
        **clocks.fields(),
    )
    if recorder is not None:
        recorder.last = recorder.finish(game, record)
    return record
