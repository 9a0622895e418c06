"""The PettingZoo AEC environment: one round of any ruleset, one agent per seat.

``bigtwo.envs.aec_env(rules="classic", players=4)`` gives the environment the PettingZoo way (an action
outside the mask ends the round with ``illegal_reward`` for the offender and 0 for the others; calls out of
order are refused); ``raw_env(...)`` is the bare one, which raises :class:`IllegalAction` instead.

Agents are ``player_0 .. player_{n-1}`` (seat ``i`` is ``player_i``). Each observation is a dict:
``"observation"`` (see :mod:`bigtwo.envs.observations`) and ``"action_mask"`` (1 at every legal action of the
agent to move, all zeros for the others). Actions are catalogue indices (:mod:`bigtwo.envs.actions`), or with
``action_encoding="legal"`` positions in the list of legal plays (in ``Game.legal_plays()`` order), whose card
vectors are given in ``infos[agent]["action_cards"]`` for (state, action)-scoring methods. The default,
``action_encoding="auto"``, is the catalogue wherever the ruleset's catalogue at this table size is of a
reasonable size (:func:`bigtwo.envs.actions.auto_encoding`: at most 200,000 combinations, no wild jokers)
and the legal encoding otherwise (straights and pair straights of many lengths: billions of combinations;
two decks with poker hands: close to a million); an explicit ``action_encoding="catalogue"`` builds
catalogues up to 2,000,000. The legal space is ``max_legal`` wide, by default
:func:`bigtwo.envs.legal_bound.legal_play_bound`, which no position of the table can exceed. Rewards come
at the end of the round (:mod:`bigtwo.envs.rewards`); ``infos`` then hold the result.

Deal-time choices (a new deal asked for with a poor hand, the leftover swap), under rules that offer them, are
two more actions after the plays': ``keep_action`` and ``take_action`` (ask for the new deal, or swap). While one
is pending, the agent asked is the one to move and those two are its only legal actions; the deal then stands
(or is dealt again) and play begins. ``deal_observation(seat)`` is the typed observation with the decision,
for bots. A round given as ``options={"game": ...}`` starts at its position; ``"hands"`` go through the
procedures before play, when there are any (below), as dealt hands do.

The action space, in order: the plays (catalogue or legal encoding); ``keep_action`` and ``take_action`` where
the rules offer deal-time choices; ``look_action`` in the Horse Game; the answer block from ``answer_start``.

**The procedures before play** (``procedures``): the exchanges, auctions of the out cards, free trade and
requests of :mod:`bigtwo.exchange` are decisions like a match's. By default (``procedures=None``) they are
actions wherever a round dealt alone has them: a pass-around, a higher-bid or free-bid auction, free trade
(the ``zheng-shangyou`` preset's pass-around, and any ruleset with these settings); ``procedures=True`` also
sizes the space for trading that needs roles (mandatory trading with requests, Big Two President, Winner's
loser-to-winner), played when ``reset(options={"previous_order": [...]})`` gives the finishing order of a
round before; ``procedures=False`` plays rounds as dealt (version 1). Rules without any keep their spaces.

The answers have many forms (a trade offer is cards given, cards named and to whom), so they are a block of
``num_answer_actions`` actions from ``answer_start``: action ``answer_start + i`` is the ``i``-th legal answer
the engine lists for the pending decision (``legal_answers()``, ``Match.legal_actions()``'s order), and the
mask covers exactly those. What each means is in ``infos[agent]`` while the decision is pending
(``answer_info()``: the text, word columns ``ANSWER_WORDS``, card vectors of the cards given/bid/asked for,
of the cards named in return, and the relative seat an offer goes to); ``action_cards()`` gives the first
of these. The block is as wide as :func:`bigtwo.envs.legal_bound.answer_bound` (no decision of the table
can have more answers; free trade offers of one card for one at 4 players: about 2,100); rules whose bound
exceeds ``ANSWER_LIMIT`` (offers of 2-3 cards for as many) are refused unless ``max_answers`` is given,
and a decision with more answers than that raises. The observation gains the decision fields of
:mod:`bigtwo.envs.observations` (the kind, the other party, the card on auction, the cards offered or asked
for, the best bid) and the ``known`` cards (bid, offered, bought or granted in the open); while the
procedures run it is built from the seat's observation alone (``decision_observation(seat)``, which bots
answer from). ``step_answer(value)`` answers with the answer itself (cards, a word, an offer as text).

**The Horse Game** (``horse_game``, 004): with ``procedures`` left on, a hand lying face down when it is to
follow a trick has two legal actions, the pass (blind) and ``look_action`` (pick the hand up: the agent stays
to move, and must now play, or a pass gives the hand up); its observation shows none of its cards until it
looks (the engine's own observation of the seat). Each of the six hands is an agent; which person owns it is
``rules.owner(seat)``. With ``procedures=False`` the agent to move always looks (version 1).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv

from bigtwo.actions import Answer, Decision, DecisionKind, IllegalAnswer, Look, Word
from bigtwo.cards import CardSet, to_mask
from bigtwo.combos.play import Play
from bigtwo.envs.actions import ActionCatalogue, auto_encoding, catalogue, fold_copies, masks_to_vectors
from bigtwo.envs.legal_bound import answer_bound, first_round_procedures, has_procedures, legal_play_bound
from bigtwo.envs.observations import ObservationEncoder, ObservationTracker
from bigtwo.envs.options import ActionEncoding, ActionEncodingWord, RenderMode, RenderModeWord
from bigtwo.envs.rewards import RewardMode, Rewards
from bigtwo.errors import BigTwoError, whole_number
from bigtwo.exchange import Exchange, exchange_answers
from bigtwo.game import Game
from bigtwo.observation import Observation, Phase
from bigtwo.rules.ruleset import Ruleset, load_rules
from bigtwo.words import plural

ENV_VERSION = 2
"""Bumped whenever observations, actions or rewards change meaning: cite ``bigtwo <preset>-v2``. Version 2
made the procedures before play actions (``procedures``; the ``zheng-shangyou`` preset's pass-around, any
ruleset's auctions, free trade and trading with roles) and the Horse Game's look a choice; ``procedures=False``
is version 1 exactly (Gymnasium's
``bigtwo/<preset>-v1`` ids are registered so)."""

ANSWER_WORDS: tuple[str, ...] = (
    "pass", "done", "play", "accept", "decline", "none", "grant", "refuse", "surrender",
    "lowest", "any", "highest", "two", "give", "have", "pair", "D", "C", "H", "S",
)  # fmt: skip
"""The words of answers to the procedures before play, and of a president's questions (``highest S``,
``have 9S``: the card asked about is in ``answer_want``), as ``answer_words`` columns."""
_WORD_INDEX = {w: i for i, w in enumerate(ANSWER_WORDS)}

ANSWER_LIMIT = 100_000
"""Widest answer block built without an explicit ``max_answers``: wider masks cost more than they help."""


class IllegalAction(BigTwoError, ValueError):
    """An action the agent to move may not take now."""


class BigTwoAECEnv(AECEnv):
    """One round of a climbing game under any ruleset, for any table size the ruleset allows."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": [m.value for m in RenderMode],
        "name": f"bigtwo_v{ENV_VERSION}",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        rules: Ruleset | str = "classic",
        players: int | None = None,
        *,
        reward: RewardMode = "auto",
        normalize_rewards: bool = False,
        history: int = 8,
        action_encoding: ActionEncodingWord = "auto",
        max_legal: int | None = None,
        illegal_reward: float | None = None,
        render_mode: RenderModeWord | None = None,
        procedures: bool | None = None,
        max_answers: int | None = None,
    ):
        super().__init__()
        self.rules = load_rules(rules)
        n = self.rules.players if players is None else whole_number(players, "players")
        if not self.rules.min_players <= n <= self.rules.max_players:
            raise BigTwoError(
                f"players={n}: {self.rules.name!r} is for {self.rules.min_players}-{self.rules.max_players} players"
            )
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode={render_mode!r}; allowed: {self.metadata['render_modes']} or None")
        self.n = n
        self.illegal_reward = illegal_reward
        self._abandoned = False
        self.render_mode = None if render_mode is None else RenderMode(render_mode)
        # PettingZoo's convention: the instance's metadata names its game
        self.metadata = {**self.metadata, "name": f"bigtwo_{self.rules.name}_v{ENV_VERSION}"}  # type: ignore[misc]
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self.agents = self.possible_agents[:]
        self.agent_seat = {a: i for i, a in enumerate(self.possible_agents)}
        # the procedures before play (exchanges, auctions, free trade, requests): answer actions, decision fields
        self.procedures = first_round_procedures(self.rules) if procedures is None else bool(procedures)
        self.procedures = self.procedures and has_procedures(self.rules)
        self.encoder = ObservationEncoder(self.rules, n, history, decisions=self.procedures)
        if action_encoding not in tuple(ActionEncoding):
            raise ValueError(f"action_encoding={action_encoding!r}; allowed: {ActionEncoding.words()}")
        chosen = ActionEncoding(action_encoding)
        encoding = auto_encoding(self.rules, n) if chosen == ActionEncoding.AUTO else chosen
        self.action_encoding = encoding
        if encoding == ActionEncoding.CATALOGUE:
            self.catalogue: ActionCatalogue | None = catalogue(self.rules, n)
            self.num_actions = len(self.catalogue)
        else:
            self.catalogue = None
            if max_legal is None:
                max_legal = legal_play_bound(self.rules, n)
            if max_legal < 1:
                raise ValueError(f"max_legal={max_legal}: must be at least 1")
            self.num_actions = max_legal
        self.num_play_actions = self.num_actions
        # deal-time decisions: two actions after the plays' own, only under rules that offer them
        self.keep_action = self.take_action = -1
        if self.rules.offers_deal_decisions:
            self.keep_action, self.take_action = self.num_actions, self.num_actions + 1
            self.num_actions += 2
        # the Horse Game's face-down hand: look at it (one more action), or pass blind (the pass)
        self.look_action = -1
        self.offers_look = bool(self.rules.horse_game) and (procedures is None or bool(procedures))
        if self.offers_look:
            self.look_action = self.num_actions
            self.num_actions += 1
        # the answer block: action answer_start + i is the i-th legal answer to the pending procedure
        self.answer_start, self.num_answer_actions = self.num_actions, 0
        if self.procedures:
            bound = answer_bound(self.rules, n)
            if max_answers is None and bound > ANSWER_LIMIT:
                raise BigTwoError(
                    f"{self.rules.name!r} at {n} players can put up to {bound:,} legal answers to one decision "
                    f"before play (free trade offers of up to {self.rules.free_trade_cards} cards), more than "
                    f"{ANSWER_LIMIT:,}: give max_answers= (a decision with more answers then raises), fewer "
                    "free_trade_cards, or procedures=False"
                )
            width = bound if max_answers is None else max_answers
            if width < 2:
                raise ValueError(f"max_answers={width}: must be at least 2 (every decision has two words)")
            self.num_answer_actions = width
            self.num_actions += width
        self.exchange: Exchange | None = None  # the procedures before play, while they last
        self._answers_version = -1
        self.deal: Decision | None = None  # the deal-time decision pending, if any
        self._kept: set[int] = set()
        self._swap_answered = False
        self.tracker = ObservationTracker(self.encoder, self.catalogue.cards if self.catalogue is not None else None)
        self.tracker.face_down = self.offers_look  # a hand not looked at is not seen, even by its owner
        self.reward_fn = Rewards(self.rules, n, reward, normalize_rewards)
        self.observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": self.encoder.space(),
                    "action_mask": spaces.Box(0, 1, (self.num_actions,), dtype=np.int8),
                }
            )
            for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(self.num_actions) for a in self.possible_agents}
        self._np_random: np.random.Generator | None = None
        self.game: Game = None  # type: ignore[assignment]  # dealt by reset(); step() before it is refused
        self._version = 0

    # --- spaces ----------------------------------------------------------------------------------------
    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    # --- reset -----------------------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new round. ``seed`` seeds this and every later deal; ``options`` may give ``"hands"`` (with
        an optional ``"first"`` seat), a ``"deal_seed"`` (the same deal every time: duplicate play), or a
        ``"game"`` to continue from (copied); with ``procedures``, a ``"previous_order"`` (the finishing order
        of a round before, best first) gives the roles and the trading that follow from it, as in a match."""
        if seed is not None or self._np_random is None:
            self._np_random, _ = seeding.np_random(seed)
        deal_seed = int(self._np_random.integers(2**63 - 1))
        opts = options or {}
        if "game" in opts:
            game = opts["game"].clone()
            if game.rules != self.rules or game.n != self.n:
                raise BigTwoError(f"the given game is not a {self.n}-player {self.rules.name!r} round")
        elif "hands" in opts:
            game = Game(self.rules, hands=opts["hands"], first=opts.get("first"))
            if game.n != self.n:
                raise BigTwoError(f"{game.n} hands given to a {self.n}-player environment")
        else:
            game = Game(self.rules, players=self.n, seed=int(opts.get("deal_seed", deal_seed)))
        previous = opts.get("previous_order")
        if previous is not None:
            previous = [int(s) for s in previous]
            if not self.procedures:
                raise BigTwoError(
                    "previous_order gives roles for the procedures before play: make the "
                    "environment with procedures=True under rules that have them"
                )
            if sorted(previous) != list(range(self.n)):
                raise BigTwoError(f"previous_order={previous}: a finishing order names every seat 0-{self.n - 1} once")
        self._previous = previous
        self._first = opts.get("first") if "hands" in opts else None  # kept through the procedures
        self.game = game
        self.exchange = None
        self._kept, self._swap_answered = set(), False
        self.deal = game.deal_decision() if self.keep_action >= 0 else None
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._skip_agent_selection = None
        self._abandoned = False
        self._sync()
        if self.deal is None and "game" not in opts:
            self._start_exchange()
        if game.is_over:  # a round decided at the deal (no cards to play)
            self._finish()
        else:
            self.agent_selection = self.possible_agents[self.seat_to_move]
            self._after_move()

    @property
    def seat_to_move(self) -> int:
        """The seat whose action is awaited: the deal-time decision's or the procedure's, else the player to move."""
        if self.deal is not None:
            return self.deal.seat
        d = self.pending
        return d.seat if d is not None else self.game.to_move

    @property
    def pending(self) -> Decision | None:
        """The decision of the procedures before play awaiting an answer (None once play has begun)."""
        ex = self.exchange
        return ex.pending if ex is not None else None

    def _start_exchange(self) -> None:
        """The deal stands: the procedures before play begin, as a match runs them (play begins at once when
        the rules have none for this round)."""
        if not self.procedures or self.game.is_over or self.game.history:
            return
        g = self.game
        self.exchange = Exchange(self.rules, list(g.dealt), self._previous, g.dealer, table=g.face_up, ev=g.ev)
        self._version += 1
        if self.exchange.is_done:
            self._start_play()

    def _start_play(self) -> None:
        ex = self.exchange
        assert ex is not None and ex.is_done
        first = self._first
        if self._previous is not None and self.rules.previous_winner_leads:
            first = self._previous[0]  # as a match's later rounds: the previous round's winner leads
        self.game.replace_hands(list(ex.hands), first=first, face_up=ex.table, known=ex.known)
        self.exchange = None
        self._sync()

    def decision_observation(self, seat: int) -> Observation:
        """The seat's typed observation while the procedures before play run (its own hand as it stands, the
        public facts, the events it may see, and the decision when it is the seat's): what a match shows."""
        ex = self.exchange
        g = self.game
        assert ex is not None, "no procedure before play is pending"
        d = ex.pending
        sizes = tuple(ex.hand(s).bit_count() for s in range(self.n))
        return Observation(
            seat=seat,
            players=self.n,
            rules=self.rules.name,
            phase=Phase.EXCHANGE,
            hand=ex.hand(seat),
            hand_sizes=sizes,
            dealt_sizes=sizes,
            known=tuple(ex.known.get(s, 0) if s != seat else 0 for s in range(self.n)),
            face_up=ex.table,
            to_move=d.seat if d is not None else None,
            dealer=ex.dealer,
            roles=tuple(ex.roles) if ex.roles is not None else None,
            exchanges=tuple(ex.events_for(seat)),
            decision=d if d is not None and d.seat == seat else None,
            ev=g.ev,
            twos_low=g.twos_low,
        )

    def legal_answers(self) -> list[Answer]:
        """The legal answers to the pending procedure, as the engine lists them (``Match.legal_actions``'s
        order): answer action ``answer_start + i`` is the ``i``-th. Cached per position."""
        d = self.pending
        if d is None:
            return []
        if self._answers_version != self._version:
            answers = exchange_answers(self.rules, self.decision_observation(d.seat))
            if len(answers) > self.num_answer_actions:
                raise BigTwoError(
                    f"{len(answers):,} legal answers to this {d.kind} decision, more than "
                    f"max_answers={self.num_answer_actions:,}: make the environment with a larger max_answers "
                    "(or leave it unset for a safe bound)"
                )
            self._answers = answers
            self._answers_version = self._version
        return self._answers

    def answer_action(self, answer: Answer) -> int:
        """The action index of a legal answer to the pending procedure."""
        answers = self.legal_answers()
        if answer not in answers:
            raise IllegalAction(f"{answer} is not a legal answer now")
        return self.answer_start + answers.index(answer)

    def deal_observation(self, seat: int) -> Observation:
        """The seat's observation while a deal-time decision is pending (the decision shown to its seat only)."""
        d = self.deal
        assert d is not None, "no deal-time decision is pending"
        return replace(
            self.game.observe(seat),
            phase=Phase.DEAL,
            decision=d if d.seat == seat else None,
            to_move=d.seat,
            history=(),
            trick=None,
            trick_seat=None,
        )

    def deal_action(self, answer: Answer) -> int:
        """The action index of an answer to the pending deal-time decision."""
        return self.keep_action if answer.word == Word.KEEP else self.take_action

    def _sync(self) -> None:
        """Take up the game's current position (the tracked public state, the legal-play cache)."""
        self.tracker.start(self.game)
        self._version += 1
        self._legal_version = -1

    # --- acting ----------------------------------------------------------------------------------------
    def legal_plays(self) -> list[Play]:
        """The legal plays of the agent to move (``Game.legal_plays()`` order), cached per position."""
        if self._legal_version != self._version:
            self._legal = self.game.legal_plays()
            if self.catalogue is not None:
                index = self.catalogue.index
                self._legal_idx = [index[p.mask] for p in self._legal]
            else:
                if len(self._legal) > self.num_play_actions:
                    raise BigTwoError(
                        f"{len(self._legal)} legal plays here, more than max_legal={self.num_play_actions}: "
                        "make the environment with a larger max_legal (or leave it unset for a safe bound)"
                    )
                self._legal_idx = list(range(len(self._legal)))
            self._legal_version = self._version
        return self._legal

    def legal_actions(self) -> list[int]:
        """The legal action indices of the agent to move."""
        if self.deal is not None:
            return [self.keep_action, self.take_action]
        if self.exchange is not None:
            return list(range(self.answer_start, self.answer_start + len(self.legal_answers())))
        self.legal_plays()
        if self.offers_look and self.game.look_pending:  # pass blind, or look
            return [*self._legal_idx, self.look_action]
        return list(self._legal_idx)

    def action_cards(self) -> np.ndarray:
        """The card vectors of the legal actions of the agent to move, one row each, in ``legal_actions()``
        order (pass: a zero row): the input of methods that score (state, action) pairs. Laid out as the
        observation's card fields (with two decks, copies folded)."""
        if self.deal is not None:  # keep, or ask: no cards
            return np.zeros((2, self.encoder.card_width), dtype=np.int8)
        if self.offers_look and self.game.look_pending:  # pass blind, or look: no cards
            return np.zeros((len(self.legal_actions()), self.encoder.card_width), dtype=np.int8)
        if self.exchange is not None:  # the cards each answer gives, bids or asks for (words: none)
            return self._answer_rows([a.mask for a in self.legal_answers()])
        self.legal_plays()
        if self.catalogue is not None and not self.encoder.folded:
            return self.catalogue.cards[self._legal_idx]
        masks = [p.mask for p in self._legal]
        if self.encoder.folded:
            masks = [fold_copies(m) for m in masks]
        return masks_to_vectors(masks, self.encoder.card_width)

    def _answer_rows(self, masks: list[int]) -> np.ndarray:
        if self.encoder.folded:
            masks = [fold_copies(m) for m in masks]
        return masks_to_vectors(masks, self.encoder.card_width)

    def answer_info(self) -> dict[str, Any]:
        """What each legal answer to the pending procedure means, row ``i`` for action ``answer_start + i``:
        ``answers`` (the :class:`~bigtwo.actions.Answer` values; ``action_text`` writes them), ``answer_words``
        (one-hot over ``ANSWER_WORDS``: pass, done, play, accept, ...; all zero for cards alone),
        ``answer_cards`` (cards given, bid or asked for), ``answer_want`` (a trade offer's cards named in
        return; the card a question names) and ``answer_to`` (one-hot, relative seat an offer goes to)."""
        answers = self.legal_answers()
        d = self.pending
        seat = d.seat if d is not None else 0
        n = self.n
        words = np.zeros((len(answers), len(ANSWER_WORDS)), dtype=np.int8)
        to = np.zeros((len(answers), n), dtype=np.int8)
        wants = [a.want for a in answers]
        offers = [(i, (a.to - seat) % n) for i, a in enumerate(answers) if a.to is not None]
        if offers:
            rows, cols = zip(*offers, strict=True)
            to[list(rows), list(cols)] = 1
        for i, a in enumerate(answers):
            if a.to is not None or not a.word:  # an offer, or cards alone
                continue
            for w in a.word.split() if a.kind == DecisionKind.ASK else (a.word,):
                if w in _WORD_INDEX:
                    words[i, _WORD_INDEX[w]] = 1
                elif a.kind == DecisionKind.ASK and w != "pair":
                    wants[i] |= to_mask(w)  # the card a question names
        return {
            "answers": list(answers),
            "answer_words": words,
            "answer_cards": self._answer_rows([a.mask for a in answers]),
            "answer_want": self._answer_rows(wants),
            "answer_to": to,
        }

    def decode(self, action: int) -> Play:
        """The play an action index stands for now (catalogue: always the same play; legal: by position)."""
        a = int(action)
        if self.catalogue is not None:
            return self.catalogue.decode(a)
        plays = self.legal_plays()
        if not 0 <= a < len(plays):
            raise IllegalAction(f"action {a}: there are {len(plays)} legal plays (0-{len(plays) - 1})")
        return plays[a]

    def encode(self, play: Play) -> int:
        """The action index of a play for the agent to move now."""
        if self.catalogue is not None:
            return self.catalogue.encode(play)
        return self.legal_plays().index(play)

    def step(self, action: Any) -> None:
        if self.game is None:
            raise BigTwoError("step() before reset(): deal a round with reset() first")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise IllegalAction(f"{agent} is to move: None is the action of finished agents only")
        if self.deal is not None:
            self._step_deal(agent, int(action))
            return
        if self.exchange is not None:
            self._step_answer(agent, int(action))
            return
        g = self.game
        seat = g.to_move
        self.legal_plays()
        a = int(action)
        if a == self.look_action and self.look_action >= 0:
            self._look(agent)
            return
        if a not in self._legal_idx:
            if not 0 <= a < self.num_actions:
                raise IllegalAction(f"action {a} is outside the action space (0-{self.num_actions - 1})")
            if self.illegal_reward is not None:
                self._end_illegal(agent, a)
                return
            if a >= self.num_play_actions:
                what = "a deal-time decision" if a < self.answer_start else "a procedure before play"
                raise IllegalAction(f"action {a} answers {what}, and none is pending: {agent} plays")
            play = self.decode(a) if self.catalogue is not None else None
            why = g.why_not(play) if play is not None else None
            raise IllegalAction(
                f"action {a} ({play if play is not None else 'beyond the legal plays'}) is not legal for {agent}"
                + (f": {why}" if why else "")
            )
        play = self._legal[self._legal_idx.index(a)] if self.catalogue is None else self.catalogue.plays[a]
        self._commit(agent, seat, play, a if self.catalogue is not None else None)

    def _step_deal(self, agent: str, a: int) -> None:
        d = self.deal
        assert d is not None
        if a not in (self.keep_action, self.take_action):
            if self.illegal_reward is not None and 0 <= a < self.num_actions:
                self._end_illegal(agent, a)
                return
            take = "asks for a new deal" if d.kind == DecisionKind.REDEAL else "swaps for the leftover card"
            raise IllegalAction(
                f"action {a}: {agent} answers the deal's decision: {self.keep_action} keeps the deal, "
                f"{self.take_action} {take}"
            )
        g = self.game
        word = Word.KEEP if a == self.keep_action else d.kind
        g.take_deal_answer(d, word, self._kept)
        self._swap_answered = self._swap_answered or d.kind == DecisionKind.SWAP
        if word != Word.KEEP:
            self._sync()  # new hands
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        self.deal = g.deal_decision(self._kept, self._swap_answered)
        self._version += 1
        if self.deal is None:
            self._start_exchange()
        self._next_turn()

    def look_observation(self, seat: int) -> Observation:
        """The Horse Game: the seat's observation with its face-down hand's decision (look, or pass blind), as
        a match puts it, for bots."""
        why = (
            "your hand lies face down: look at it (then you must play, or the hand takes the last free place), "
            "or pass without looking"
        )
        return replace(self.game.observe(seat), decision=Look(seat, 0, why, options=(Word.LOOK, Word.PASS)))

    def _look(self, agent: str) -> None:
        """The Horse Game: the agent picks its face-down hand up; it stays to move, and must now play (a pass
        gives the hand up: it takes the last free place)."""
        g = self.game
        if not g.look_pending:
            if self.illegal_reward is not None:
                self._end_illegal(agent, self.look_action)
                return
            raise IllegalAction(
                f"action {self.look_action} (look) is not legal for {agent}: only a hand lying face down while "
                "a trick is to be followed may be looked at (004 Zheng Shangyou, Horse Game)"
            )
        g.look()
        self._version += 1
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        self._after_move()
        self._accumulate_rewards()

    def _step_answer(self, agent: str, a: int) -> None:
        d = self.pending
        assert d is not None
        answers = self.legal_answers()
        i = a - self.answer_start
        if not 0 <= i < len(answers):
            if self.illegal_reward is not None and 0 <= a < self.num_actions:
                self._end_illegal(agent, a)
                return
            first, last = self.answer_start, self.answer_start + len(answers) - 1
            raise IllegalAction(
                f"action {a} is not an answer {agent} may give: {agent} must answer a {d.kind!r} decision "
                f"({d.reason}); its {len(answers)} legal answers are actions {first}-{last}"
            )
        self._answer(agent, answers[i])

    def step_answer(self, value: Any) -> None:
        """Answer the pending procedure with the answer itself (an Answer, cards, a word, an offer as text),
        for players that choose answers (the single-agent environment's bots): the engine reads and checks it,
        so no list of answers is built. A bad answer raises (:class:`~bigtwo.actions.IllegalAnswer`, in words)
        and changes nothing."""
        d = self.pending
        if d is None:
            raise BigTwoError("step_answer() needs a procedure before play to be pending")
        answer = d.read(value)
        why = self.exchange.why_not(answer) if self.exchange is not None else None
        if why is not None:
            raise IllegalAnswer(why)
        self._answer(self.agent_selection, answer)

    def _answer(self, agent: str, answer: Answer) -> None:
        ex = self.exchange
        assert ex is not None
        ex.decide(answer)
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        self._version += 1
        if ex.is_done:
            self._start_play()
        self._next_turn()

    def step_play(self, play: Play) -> None:
        """Step with the play itself rather than its index, for players that choose plays (the single-agent
        environment's opponent bots): the engine checks it as it is played, so no legal list is built.
        An illegal play raises :class:`~bigtwo.errors.IllegalPlay` and changes nothing."""
        g = self.game
        if g is None or g.is_over:
            raise BigTwoError("step_play() needs a round in progress")
        index = self.catalogue.index.get(play.mask) if self.catalogue is not None else None
        self._commit(self.agent_selection, g.to_move, play, index)

    def _commit(self, agent: str, seat: int, play: Play, index: int | None) -> None:
        g = self.game
        opened = g.trick is None
        g.play(play)
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        self.tracker.record(g, seat, play.mask, index, opened)
        self._version += 1
        self._next_turn()

    def _next_turn(self) -> None:
        """After an action: the round's end, or the next agent to act; rewards accumulated, and the table
        rendered in human mode (PettingZoo's convention: after every step)."""
        if self.game.is_over:
            self._finish()
        else:
            self.agent_selection = self.possible_agents[self.seat_to_move]
            self._after_move()
        self._accumulate_rewards()
        if self.render_mode == RenderMode.HUMAN:
            self.render()

    def _end_illegal(self, agent: str, action: int) -> None:
        """PettingZoo's illegal-move rule (as its TerminateIllegalWrapper): the round ends, the offender gets
        ``illegal_reward``, everyone else 0, and every agent is terminated and truncated."""
        self._abandoned = True
        self._cumulative_rewards[agent] = 0.0
        self.terminations = dict.fromkeys(self.agents, True)
        self.truncations = dict.fromkeys(self.agents, True)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        assert self.illegal_reward is not None
        self.rewards[agent] = float(self.illegal_reward)
        self.infos[agent] = {"illegal_action": action}
        self._accumulate_rewards()
        self._deads_step_first()

    def _after_move(self) -> None:
        g = self.game
        if g.look_pending and not self.offers_look:
            # version 1's Horse Game: the agent to move always picks its hand up (no blind pass)
            g.look()
            self._version += 1
        if self.exchange is not None:  # the answers' meaning, whatever the play encoding
            self.infos = {a: {} for a in self.agents}
            self.infos[self.agent_selection] = self.answer_info()
        elif self.action_encoding == ActionEncoding.LEGAL:
            cards = self.action_cards()
            self.infos = {a: {} for a in self.agents}
            self.infos[self.agent_selection] = {"action_cards": cards}
        elif self.procedures:
            self.infos = {a: {} for a in self.agents}

    def _finish(self) -> None:
        g = self.game
        res = g.result
        assert res is not None
        values = self.reward_fn(res)
        result = res.to_dict()
        for i, a in enumerate(self.possible_agents):
            self.rewards[a] = values[i]
            self.terminations[a] = True
            self.infos[a] = {"result": result}
        self.agent_selection = self.possible_agents[g.to_move if g.to_move is not None else 0]

    # --- observing -------------------------------------------------------------------------------------
    def observation_vector(self, seat: int) -> np.ndarray:
        """The ``"observation"`` part for a seat (see :mod:`bigtwo.envs.observations`): while the procedures
        before play run, built from the seat's observation alone (so nothing hidden can reach it)."""
        if self.exchange is not None:
            return self.encoder.from_observation(self.decision_observation(seat))
        return self.tracker.vector(self.game, seat)

    def action_mask(self, agent: str) -> np.ndarray:
        mask = np.zeros(self.num_actions, dtype=np.int8)
        if agent == self.agent_selection and not self.game.is_over and not self._abandoned:
            mask[self.legal_actions()] = 1
        return mask

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        if self.game is None:
            raise BigTwoError("observe() before reset(): deal a round with reset() first")
        return {"observation": self.observation_vector(self.agent_seat[agent]), "action_mask": self.action_mask(agent)}

    # --- rendering -------------------------------------------------------------------------------------
    def render(self) -> str | None:
        """The public state and the hand of the seat to move (``"ansi"`` returns it, ``"human"`` prints it)."""
        if self.render_mode is None:
            return None
        g = self.game
        text = self.describe(None if g is None or g.is_over else self.seat_to_move)
        if self.render_mode == RenderMode.HUMAN:
            print(text)
            return None
        return text

    def describe(self, seat: int | None = None) -> str:
        """The round in words: public information, and the hand of ``seat`` when one is named."""
        g = self.game
        if g is None:
            return f"{self.metadata['name']}: not dealt yet (call reset)"
        lines = [f"{self.rules.name}, {self.n} players, {len(g.history)} actions"]
        for s in range(self.n):
            mark = ">" if not g.is_over and s == self.seat_to_move else " "
            played = CardSet.from_mask(sum(p.mask for t, p in g.history if t == s))
            left = self.exchange.hand(s).bit_count() if self.exchange is not None else len(g.hand(s))
            lines.append(f"{mark} player_{s}: {plural(left, 'card')} left; played {played or '-'}")
        deal = self.deal
        if deal is not None:
            lines.append(f"  the deal: player_{deal.seat} answers a {deal.kind!r} decision: {deal.reason}")
        d = self.pending
        if d is not None:
            lines.append(f"  before play: player_{d.seat} answers a {d.kind!r} decision: {d.reason}")
        if g.trick is not None:
            lines.append(f"  to beat: {g.trick} ({g.trick.kind}) by player_{g.trick_seat}")
        if g.result is not None:
            lines.append(f"  over: finishing order {g.result.finishing_order}, scores {g.result.scores}")
        if seat is not None:
            held = CardSet.from_mask(self.exchange.hand(seat)) if self.exchange is not None else g.hand(seat)
            lines.append(f"  player_{seat} holds {held}")
        return "\n".join(lines)

    def close(self) -> None:
        pass

    def __str__(self) -> str:
        return self.metadata["name"]


def raw_env(rules: Ruleset | str = "classic", players: int | None = None, **kwargs: Any) -> BigTwoAECEnv:
    """The bare AEC environment: an illegal action raises :class:`IllegalAction` unless ``illegal_reward``
    is given (then it ends the round, PettingZoo's way)."""
    return BigTwoAECEnv(rules, players, **kwargs)


def aec_env(
    rules: Ruleset | str = "classic", players: int | None = None, *, illegal_reward: float = -1.0, **kwargs: Any
) -> BigTwoAECEnv:
    """The AEC environment the PettingZoo way: an action outside the mask ends the round with
    ``illegal_reward`` for the offender and 0 for everyone else, every agent terminated and truncated (the
    rule of PettingZoo's ``TerminateIllegalWrapper``); an action outside the action space, or a step or
    observation before ``reset()``, raises. The rules are applied inside the environment rather than by
    PettingZoo's wrappers, whose attribute forwarding would cost a third of the speed. Keyword arguments
    go to :class:`BigTwoAECEnv`."""
    return raw_env(rules, players, illegal_reward=illegal_reward, **kwargs)
