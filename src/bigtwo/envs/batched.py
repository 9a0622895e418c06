"""Many games in lockstep with every seat's decision exposed: the environment for self-play training.

``BatchedEnv(rules, players, num_envs)`` keeps ``num_envs`` rounds going. Each call hands back one
:class:`Decisions` batch: for every game, the seat to move, its state vector and one row per legal action
(:mod:`bigtwo.bots.features`), all games' action rows stacked so a Q(s, a) network scores the whole batch
in one call. ``step(choices)`` plays the chosen action in every game and advances each game to its next
exposed decision; a finished game is reported (with every seat's points) and replaced by a new deal.

Unlike the Gymnasium environment, no seat is privileged: whichever seat is to move is exposed, so one shared
network plays all of them (self-play). Seats may instead be given to bots (``bots[env][seat]``); those seats
move inside ``step``, from their own observation, and are never exposed. With ``skip_forced`` (the default)
a decision with a single legal action is played at once and not exposed either: it teaches nothing.
A ``heuristic`` bot's seat (one deck) is played straight from the Game (``fast_bots``): the same
:class:`~bigtwo.bots.heuristic.HeuristicPolicy` on the same :class:`~bigtwo.bots.view.SeatView`, without
building an observation dict, so the same moves at about a third less cost (a test holds them equal). A
``learned`` bot's seats (one deck) are read the same way and wait for one another: every game where such a bot
is to move is scored in one batched call per network, as the exposed decisions are, then each bot picks its
move (the same moves: a test holds them equal).

Rounds are played as dealt, as the AEC environment's ``procedures=False``: the procedures before play
(auctions, free trade, exchanges) and the Horse Game's blind pass are not exposed here (the AEC and Gymnasium
environments expose them).

Features come from :func:`~bigtwo.bots.features.info_from_game`, the fast path that tests hold equal to
what a bot builds from ``Game.observe(seat)``: nothing hidden from the seat reaches its vectors.

**Compiled.** Where the compiled core is built and covers the rules (:mod:`bigtwo.envs.native_batch`), and no
seat is a bot's and no ``games`` factory deals, the games are played by ``bigtwo._core.Batch``: one C++ call
steps every game and writes the state and action rows straight into the batch's arrays, the same rows, legal
actions and deals as the Python games make (tests/test_batched_native.py holds them equal). Its decisions carry
the legal actions' card ``masks``; their ``plays`` are built on first use. Its finished rounds have no ``game``
(``result`` says how the round ended). ``native=False`` (or ``BIGTWO_NATIVE=0``) plays the Python games.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, overload

import numpy as np

from bigtwo.bots.base import Bot
from bigtwo.bots.features import ActionEncoder, StateEncoder, info_from_game
from bigtwo.bots.heuristic import HeuristicBot, policy_for
from bigtwo.bots.learned import GameScorer, LearnedBot
from bigtwo.bots.view import played_in, view_from_game
from bigtwo.combos.play import PASS, Play
from bigtwo.envs import native_batch
from bigtwo.errors import BigTwoError
from bigtwo.game import Game
from bigtwo.rules.choices import Measure
from bigtwo.rules.ruleset import Ruleset, load_rules
from bigtwo.scoring import RoundOutcome, RoundResult, score_round
from bigtwo.utilities import UTILITIES, round_utility

MAX_ACTIONS = 10_000  # a safety net: every round ends far sooner


@dataclass
class Decisions:
    """One exposed decision per active game. Rows ``offsets[i]:offsets[i + 1]`` of ``actions`` are the legal
    actions of decision ``i``, in the order of ``plays[i]``."""

    env: list[int]
    seat: list[int]
    state: np.ndarray  # (B, state size) float32
    actions: np.ndarray  # (total legal actions, action size) float32
    offsets: np.ndarray  # (B + 1,) int64
    plays: Sequence[list[Play]]
    masks: np.ndarray | None = None  # (total legal actions,) uint64: their cards (the compiled batch's)

    def __len__(self) -> int:
        return len(self.env)

    def segment(self) -> np.ndarray:
        """For each action row, the decision it belongs to (to repeat state rows beside action rows)."""
        return np.repeat(np.arange(len(self.env)), np.diff(self.offsets))


@dataclass
class Finished:
    """A round that ended: its game (None where the compiled batch played it), every seat's points under the env's
    utility, and how it ended (``result``)."""

    env: int
    episode: int
    game: Game | None
    points: list[float] = field(default_factory=list)
    # the compiled batch's round, scored by ``result`` only when asked: its rules, finishing order, hands at the end
    # and at the deal, and every action as a (seat, cards) row
    native: tuple[Ruleset, list[int], list[int], list[int], np.ndarray] | None = field(default=None, repr=False)

    def _outcome(self) -> RoundOutcome:
        """What scoring reads of the compiled batch's round."""
        assert self.native is not None
        _rules, order, hands, dealt, history = self.native
        pairs = [(s, m) for s, m in history.tolist()]
        played = {s for s, m in pairs if m}
        return RoundOutcome(
            finishing_order=tuple(order),
            cards_left=tuple(h.bit_count() for h in hands),
            dealt=tuple(h.bit_count() for h in dealt),
            played_any=tuple(s in played for s in range(len(hands))),
            hands=tuple(hands),
            dealt_hands=tuple(dealt),
            history=tuple(pairs),
        )

    @property
    def result(self) -> RoundResult:
        """The round's result (its scores, finishing order and cards left)."""
        if self.game is not None:
            res = self.game.result
        else:
            assert self.native is not None
            res = score_round(self.native[0], self._outcome())
        assert res is not None
        return res


class LazyPlays(Sequence[list[Play]]):
    """The legal plays of a compiled batch's decisions, built from their card masks only when read."""

    def __init__(self, masks: np.ndarray, offsets: np.ndarray, rules: Ruleset, players: int, low: np.ndarray | None):
        self._masks = masks
        self._offsets = offsets
        self._rules = rules
        self._players = players
        self._low = low  # per decision: its round's 2s are low (a dealt four of a kind under some rules)
        self._made: dict[int, list[Play]] = {}

    def __getstate__(self) -> dict:
        return {**self.__dict__, "_made": {}}  # the plays are made again from the masks

    def __len__(self) -> int:
        return len(self._offsets) - 1

    @overload
    def __getitem__(self, j: int) -> list[Play]: ...
    @overload
    def __getitem__(self, j: slice) -> list[list[Play]]: ...
    def __getitem__(self, j: int | slice) -> list[Play] | list[list[Play]]:
        if isinstance(j, slice):
            return [self[k] for k in range(*j.indices(len(self)))]
        if j < 0:
            j += len(self)
        if not 0 <= j < len(self):
            raise IndexError(j)
        got = self._made.get(j)
        if got is None:
            ev = self._rules.engine_for(self._players, twos_low=self._low is not None and bool(self._low[j]))
            masks = self._masks[self._offsets[j] : self._offsets[j + 1]].tolist()
            got = self._made[j] = [_play_of(ev, m) for m in masks]
        return got


def _play_of(ev: Any, mask: int) -> Play:
    if not mask:
        return PASS
    p = ev.classify(mask)
    assert p is not None, "the compiled batch listed cards that make no combination"
    return p


GameFactory = Callable[[int, int], Game | None]
"""``factory(env, episode)``: the next game of one sub-environment, or None when it has no more."""


class BatchedEnv:
    """``num_envs`` rounds in lockstep; every seat's decision exposed (see the module docstring)."""

    def __init__(
        self,
        rules: Ruleset | str = "classic",
        players: int | None = None,
        num_envs: int = 32,
        seed: int = 0,
        history: int = 8,
        utility: str = "cards",
        bots: Sequence[Sequence[Bot | None]] | None = None,
        games: GameFactory | None = None,
        skip_forced: bool = True,
        fast_bots: bool = True,
        native: bool = True,
    ):
        self.rules = rules = load_rules(rules)
        self.n = n = rules.players if players is None else players
        if not rules.min_players <= n <= rules.max_players:
            raise BigTwoError(f"players={n}: {rules.name!r} is for {rules.min_players}-{rules.max_players} players")
        if utility not in UTILITIES:
            raise ValueError(f"utility={utility!r}: the points are one of {', '.join(UTILITIES)}")
        if num_envs < 1:
            raise ValueError(f"num_envs={num_envs}: at least one game is needed")
        self.num_envs = num_envs
        self.seed = seed
        self.utility = utility
        self.history = history
        self.skip_forced = skip_forced
        self.fast_bots = fast_bots and rules.decks == 1
        self.state_encoder = StateEncoder(rules, n, history)
        self.action_encoder = ActionEncoder(rules, n)
        if bots is not None:
            if len(bots) != num_envs or any(len(b) != n for b in bots):
                raise ValueError(f"bots must give {num_envs} lists of {n} entries (a bot or None per seat)")
            if any(all(b is not None for b in row) for row in bots):
                raise ValueError("every game needs at least one seat without a bot, or nothing is ever exposed")
        self.bots = [list(b) for b in bots] if bots is not None else [[None] * n for _ in range(num_envs)]
        self._factory = games
        self.episodes = [0] * num_envs
        self.games: list[Game | None] = [None] * num_envs
        self.actions_played = [0] * num_envs
        self._legal: list[list[Play] | None] = [None] * num_envs  # the pending decision's, once listed
        self._waiting: list[int] = []  # games where a learned bot is to move (played together by _settle)
        self.steps = 0  # exposed decisions answered
        self.moves = 0  # every action played (exposed, forced and bots')
        # the compiled batch where it serves: every seat exposed, deals of the env's own seeds, covered rules
        self._batch: Any = None
        no_bots = all(b is None for row in self.bots for b in row)
        self.native = native and no_bots and games is None and native_batch.available(rules, seed)
        if self.native:
            self._make_batch()

    def _make_batch(self) -> None:
        n = self.n
        self._batch = native_batch.make_batch(
            self.rules, n, self.num_envs, self.seed, self.history, self.skip_forced,
            self.state_encoder, self.action_encoder,
        )  # fmt: skip

    def __getstate__(self) -> dict:
        state = dict(self.__dict__)
        if state.get("_batch") is not None:
            state["_batch"] = state["_batch"].get_state()
        return state

    def __setstate__(self, state: dict) -> None:
        state.setdefault("_legal", [None] * state["num_envs"])  # pickled before the cache existed
        state.setdefault("fast_bots", state["rules"].decks == 1)
        state.setdefault("_waiting", [])
        state.setdefault("native", False)
        blob = state.pop("_batch", None)
        self.__dict__.update(state)
        self._batch = None
        if self.native:
            if not native_batch.available(self.rules, self.seed):  # pickled where the compiled core was built
                raise BigTwoError("this environment's games were played by the compiled core, which is not loaded here")
            self._make_batch()
            self._batch.set_state(blob)

    def _new_game(self, i: int) -> Game | None:
        ep = self.episodes[i]
        if self._factory is not None:
            return self._factory(i, ep)
        # a different deal for every (run seed, env, episode)
        return Game(self.rules, players=self.n, seed=(self.seed * 1_000_003 + i) * 1_000_003 + ep)

    def reset(self) -> tuple[Decisions, list[Finished]]:
        """Deal every game afresh and return the first decisions (and any game that ended without one)."""
        self.episodes = [0] * self.num_envs
        if self._batch is not None:
            return self._native_output(self._batch.reset())
        finished: list[Finished] = []
        for i in range(self.num_envs):
            self.games[i] = self._new_game(i)
            self.actions_played[i] = 0
            self._advance(i, finished)
        self._settle(finished)
        return self.decisions(), finished

    def _advance(self, i: int, finished: list[Finished]) -> None:
        """Play bots' and forced moves in game ``i`` until an exposed decision (dealing anew after an end)."""
        while True:
            g = self.games[i]
            if g is None:
                return
            if g.is_over:
                res = g.result
                assert res is not None
                finished.append(Finished(i, self.episodes[i], g, round_utility(res, self.utility)))
                self.episodes[i] += 1
                self.games[i] = self._new_game(i)
                self.actions_played[i] = 0
                continue
            seat = g.to_move
            bot = self.bots[i][seat]
            if bot is not None:
                if self.fast_bots and type(bot) is LearnedBot:
                    self._waiting.append(i)
                    return
                if self.fast_bots and type(bot) is HeuristicBot:
                    g.play(_heuristic_move(bot, g))
                else:
                    play = bot.choose(self.rules, g.observe(seat))
                    assert isinstance(play, Play), "a round's play is answered with a play"
                    g.play(play)
            elif self.skip_forced:
                legal = g.legal_plays()
                if len(legal) != 1:
                    self._legal[i] = legal
                    return
                g.play(legal[0])
            else:
                return
            self._count(i)

    def _count(self, i: int) -> None:
        self.moves += 1
        self.actions_played[i] += 1
        if self.actions_played[i] > MAX_ACTIONS:
            raise BigTwoError(f"game {i}: no result after {MAX_ACTIONS} actions")

    def _settle(self, finished: list[Finished]) -> None:
        """Play the learned bots' moves of every waiting game, one batched call per network, until every game
        waits for an exposed decision (or has no more deals)."""
        while self._waiting:
            waiting, self._waiting = self._waiting, []
            moves: dict[int, Play] = {}
            groups: dict[int, tuple[GameScorer, list[tuple[int, LearnedBot, list[Play]]]]] = {}
            for i in waiting:
                g = self.games[i]
                assert g is not None
                bot = self.bots[i][g.to_move]
                assert isinstance(bot, LearnedBot)
                scorer = bot.scorer(self.rules, self.n)
                legal = scorer.choices(g)
                if len(legal) == 1:
                    moves[i] = legal[0]
                else:
                    groups.setdefault(id(scorer.net), (scorer, []))[1].append((i, bot, legal))
            for scorer, items in groups.values():
                qs = scorer.q_many([self.games[i] for i, _bot, _legal in items], [legal for _i, _b, legal in items])
                for (i, bot, legal), q in zip(items, qs, strict=True):
                    moves[i] = bot.pick(scorer, legal, q)
            for i in waiting:
                g = self.games[i]
                assert g is not None
                g.play(moves[i])
                self._count(i)
                self._advance(i, finished)

    def decisions(self) -> Decisions:
        """The pending decision of every game still running."""
        if self._batch is not None:
            d, _finished = self._native_output(self._batch.decisions())
            return d
        envs: list[int] = []
        seats: list[int] = []
        plays: list[list[Play]] = []
        live = [i for i, g in enumerate(self.games) if g is not None]
        state = np.empty((len(live), self.state_encoder.size), dtype=np.float32)
        rows: list[np.ndarray] = []
        offsets = np.zeros(len(live) + 1, dtype=np.int64)
        for j, i in enumerate(live):
            g = self.games[i]
            assert g is not None
            seat = g.to_move
            legal = self._legal[i] or g.legal_plays()
            self._legal[i] = None
            self.state_encoder.encode_into(info_from_game(g, seat, self.history), state[j])
            rows.append(self.action_encoder.encode(g.hand(seat).mask, legal))
            envs.append(i)
            seats.append(seat)
            plays.append(legal)
            offsets[j + 1] = offsets[j] + len(legal)
        actions = np.concatenate(rows) if rows else np.zeros((0, self.action_encoder.size), dtype=np.float32)
        return Decisions(envs, seats, state, actions, offsets, plays)

    def step(self, decisions: Decisions, choices: Sequence[int]) -> tuple[Decisions, list[Finished]]:
        """Play ``choices[j]`` (an index into ``decisions.plays[j]``) in every game of the batch; return the
        next decisions and the games that ended on the way."""
        if len(choices) != len(decisions.env):
            raise ValueError(f"{len(choices)} choices for {len(decisions.env)} decisions")
        if self._batch is not None:
            return self._native_output(self._batch.step(np.asarray(choices, dtype=np.int64)))
        finished: list[Finished] = []
        for j, i in enumerate(decisions.env):
            g = self.games[i]
            assert g is not None
            c = int(choices[j])
            legal = decisions.plays[j]
            if not 0 <= c < len(legal):
                raise ValueError(f"choice {c} for game {i}: it has {len(legal)} legal actions (0-{len(legal) - 1})")
            g.play(legal[c])
            self.steps += 1
            self._count(i)
            self._advance(i, finished)
        self._settle(finished)
        return self.decisions(), finished

    def _native_output(self, out: tuple) -> tuple[Decisions, list[Finished]]:
        """The compiled batch's answer as Decisions and Finished rounds."""
        envs, seats, state, actions, offsets, masks, low, ended = out
        b = self._batch
        self.steps, self.moves = b.steps, b.moves
        if ended:
            self.episodes = b.episodes
        plays = LazyPlays(masks, offsets, self.rules, self.n, low if low is not None and low.any() else None)
        d = Decisions(envs, seats, state, actions, offsets, plays, masks)
        finished = [self._native_finished(*f) for f in ended] if ended else []
        return d, finished

    def _native_finished(
        self,
        env: int,
        episode: int,
        order: list[int],
        hands: list[int],
        dealt: list[int],
        history: np.ndarray,
        low: bool,
    ) -> Finished:
        f = Finished(env, episode, None, [], (self.rules, order, hands, dealt, history))
        if self.utility == Measure.CARDS:  # bigtwo.utilities.cards_left_points, without scoring the round
            cards_left = [h.bit_count() for h in hands]
            winner = order[0]
            points = [-float(c) for c in cards_left]
            points[winner] = float(sum(c for s, c in enumerate(cards_left) if s != winner))
            f.points = points
        else:
            f.points = round_utility(f.result, self.utility)
        return f

    @property
    def done(self) -> bool:
        """Every game has run out of deals (only with a ``games`` factory that ends)."""
        if self._batch is not None:
            return False
        return all(g is None for g in self.games)


def _heuristic_move(bot: HeuristicBot, g: Game) -> Play:
    """What ``bot`` would answer to the seat to move's observation, read from the Game instead: the view
    is the same (:mod:`bigtwo.bots.view`), and so is the bot's hint of its last hand, kept on the bot."""
    view = view_from_game(g, played_in(g))
    if len(view.legal) == 1:
        return view.legal[0]
    play = policy_for(g.ev).act(view, bot._last_hand)
    bot._last_hand = view.hand
    return play


__all__ = ["BatchedEnv", "Decisions", "Finished", "GameFactory"]
