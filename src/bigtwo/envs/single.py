"""The Gymnasium environment: one learning seat against ``bigtwo.bots`` opponents, and its vectorised form.

``gym_env(rules="classic", opponents="random")`` (or ``gymnasium.make("bigtwo/classic-v2")``): observations
are the AEC environment's ``"observation"`` vector for the learning seat, actions its action indices
(catalogue or legal encoding, as the AEC environment chooses), and the reward arrives when the round ends
(same options as the AEC environment). Opponents are bot names or instances, one for all or one per other
seat, e.g. ``opponents=["greedy", "random", "random"]``; named bots are re-seeded from the environment's
seed at every reset, so a seeded run is reproducible. The opponents also answer the procedures before play
(auctions, free trade, trading with roles: the AEC environment's ``procedures``) from their own observation;
the learning seat answers its own through the answer actions.

The legal actions are ``env.action_masks()`` (the method maskable policy libraries call) and
``info["action_mask"]``; ``env.action_cards()`` gives their card vectors (for (state, action) policies, and
with the legal encoding, where action ``i`` is the ``i``-th legal play); the vector form has both methods.
An action outside the mask ends the round with ``illegal_reward`` (the PettingZoo convention), so random
exploration cannot crash a run.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AsyncVectorEnv, AutoresetMode, SyncVectorEnv

from bigtwo.actions import Answer, Word
from bigtwo.bots import Bot, make
from bigtwo.combos.play import PASS, Play
from bigtwo.envs.aec import BigTwoAECEnv
from bigtwo.envs.options import RANDOM_SEAT, RenderMode, RenderModeWord, SeatChoice
from bigtwo.errors import BigTwoError
from bigtwo.rules.ruleset import Ruleset, list_presets

OpponentSpec = str | Bot


class BigTwoGymEnv(gymnasium.Env):
    """One round per episode, played by the learning seat against bots in every other seat."""

    metadata = {"render_modes": [m.value for m in RenderMode], "render_fps": 1}  # noqa: RUF012  (gymnasium's own convention)

    def __init__(
        self,
        rules: Ruleset | str = "classic",
        players: int | None = None,
        *,
        opponents: OpponentSpec | Sequence[OpponentSpec] = "random",
        seat: SeatChoice = 0,
        illegal_reward: float = -1.0,
        render_mode: RenderModeWord | None = None,
        **env_kwargs: Any,
    ):
        self.aec = BigTwoAECEnv(rules, players, **env_kwargs)
        self.rules = self.aec.rules
        self.n = n = self.aec.n
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode={render_mode!r}; allowed: {self.metadata['render_modes']} or None")
        self.render_mode = None if render_mode is None else RenderMode(render_mode)
        if seat != RANDOM_SEAT and not (isinstance(seat, int | np.integer) and 0 <= seat < n):
            raise ValueError(f"seat={seat!r}: the learning seat is 0-{n - 1} or 'random'")
        self._seat_choice = seat
        specs = [opponents] * (n - 1) if isinstance(opponents, str | Bot) else list(opponents)
        if len(specs) != n - 1:
            raise ValueError(f"{len(specs)} opponents given for a {n}-player table; give 1 or {n - 1}")
        for spec in specs:
            if isinstance(spec, str):
                make(spec)  # an unknown name fails now, naming the bots there are
        self._specs = specs
        self.illegal_reward = float(illegal_reward)
        self.observation_space = self.aec.encoder.space()
        self.action_space = spaces.Discrete(self.aec.num_actions)
        self.seat = 0 if seat == RANDOM_SEAT else int(seat)
        self._bots: dict[int, Bot] = {}
        self._done = True
        self._mask_key: tuple[int, bool] | None = None
        self._mask = np.zeros(0, dtype=bool)

    # --- episode ---------------------------------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict]:
        super().reset(seed=seed)
        rng = self.np_random
        if self._seat_choice == RANDOM_SEAT:
            self.seat = int(rng.integers(self.n))
        others = [s for s in range(self.n) if s != self.seat]
        self._bots = {}
        for s, spec in zip(others, self._specs, strict=True):
            self._bots[s] = make(spec, seed=int(rng.integers(2**63 - 1))) if isinstance(spec, str) else spec
        while True:
            self.aec.reset(seed=int(rng.integers(2**63 - 1)), options=options)
            self._advance()
            if not self.aec.game.is_over:
                break
            if options:  # a given position that ends before the learning seat moves cannot be an episode
                raise BigTwoError("the given round ends before the learning seat's first turn")
        self._done = False
        return self._observation(), self._info()

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict]:
        if self._done:
            raise BigTwoError("the round is over: call reset() before step()")
        aec = self.aec
        a = int(action)
        if a not in aec.legal_actions():
            self._done = True
            info = self._info()
            info["illegal_action"] = True
            return self._observation(), self.illegal_reward, True, False, info
        aec.step(a)
        self._advance()
        over = aec.game.is_over
        reward = float(aec.rewards[aec.possible_agents[self.seat]]) if over else 0.0
        self._done = over
        if self.render_mode == RenderMode.HUMAN:
            self.render()
        return self._observation(), reward, over, False, self._info()

    def _advance(self) -> None:
        """Let the bots move until it is the learning seat's turn or the round is over."""
        aec = self.aec
        g = aec.game
        while not g.is_over and aec.seat_to_move != self.seat:
            s = aec.seat_to_move
            if aec.deal is not None:  # a deal-time decision: the bot answers it
                answer = self._bots[s].choose(self.rules, aec.deal_observation(s))
                if not isinstance(answer, Answer):
                    raise BigTwoError(f"bot {self._bots[s].name!r} answered {answer!r} to a deal-time decision")
                aec.step(aec.deal_action(answer))
                g = aec.game
                continue
            if aec.pending is not None:  # a procedure before play: the bot answers, the engine checks it
                aec.step_answer(self._bots[s].choose(self.rules, aec.decision_observation(s)))
                g = aec.game
                continue
            if aec.offers_look and g.look_pending:  # the Horse Game: the bot looks, or passes blind
                answer = self._bots[s].choose(self.rules, aec.look_observation(s))
                if getattr(answer, "word", None) == Word.LOOK:
                    aec.step(aec.look_action)
                    continue
                aec.step_play(PASS)
                continue
            play = self._bots[s].choose(self.rules, g.observe(s))
            if not isinstance(play, Play):
                raise BigTwoError(f"bot {self._bots[s].name!r} answered {play!r}, not a play, in a round's play")
            aec.step_play(play)

    # --- what the learner sees -------------------------------------------------------------------------
    def _observation(self) -> np.ndarray:
        return self.aec.observation_vector(self.seat)

    def action_masks(self) -> np.ndarray:
        """The legal actions as booleans (all False once the round is over); made once per position (a
        learner asks for it, and so does every step's info), each caller getting its own copy."""
        key = (self.aec._version, self._done)
        if self._mask_key != key:
            mask = np.zeros(self.aec.num_actions, dtype=bool)
            if not self._done and not self.aec.game.is_over:
                mask[self.aec.legal_actions()] = True
            self._mask, self._mask_key = mask, key
        return self._mask.copy()

    def _info(self) -> dict[str, Any]:
        aec = self.aec
        info: dict[str, Any] = {"action_mask": self.action_masks().astype(np.int8), "seat": self.seat}
        if not self._done and aec.pending is not None:  # the learner answers a procedure: what each answer means
            info.update(aec.answer_info())
        res = aec.game.result
        if res is not None:
            info["result"] = res.to_dict()
        return info

    def legal_actions(self) -> list[int]:
        """The learning seat's legal action indices (empty once the round is over)."""
        if self._done or self.aec.game.is_over:
            return []
        return self.aec.legal_actions()

    def action_cards(self) -> np.ndarray:
        """The card vectors of the legal actions, one row each in ``legal_actions()`` order (pass: zeros), for
        policies that score (state, action) pairs; with the legal encoding, row ``i`` is action ``i``."""
        if self._done or self.aec.game.is_over:
            return np.zeros((0, self.aec.encoder.card_width), dtype=np.int8)
        return self.aec.action_cards()

    @property
    def game(self) -> Any:
        """The round being played (the whole state: for analysis, never for the policy's input)."""
        return self.aec.game

    def render(self) -> str | None:
        """The public state and the learning seat's hand (``"ansi"`` returns it, ``"human"`` prints it)."""
        if self.render_mode is None:
            return None
        text = self.aec.describe(self.seat)
        if self.render_mode == RenderMode.HUMAN:
            print(text)
            return None
        return text

    def close(self) -> None:
        self.aec.close()


def gym_env(rules: Ruleset | str = "classic", players: int | None = None, **kwargs: Any) -> BigTwoGymEnv:
    """The single-agent environment (keyword arguments: see :class:`BigTwoGymEnv` and the AEC environment)."""
    return BigTwoGymEnv(rules, players, **kwargs)


class _MaskedVectorEnv:
    def action_masks(self) -> np.ndarray:
        """Every sub-environment's legal actions, stacked: ``(num_envs, num_actions)`` booleans."""
        return np.stack(self.call("action_masks"))  # type: ignore[attr-defined]

    def action_cards(self) -> list[np.ndarray]:
        """Every sub-environment's legal actions' card vectors (one array each: their numbers differ)."""
        return list(self.call("action_cards"))  # type: ignore[attr-defined]


class MaskedSyncVectorEnv(_MaskedVectorEnv, SyncVectorEnv):
    """Sub-environments stepped in turn in this process; adds ``action_masks()``."""


class MaskedAsyncVectorEnv(_MaskedVectorEnv, AsyncVectorEnv):
    """Sub-environments in worker processes; adds ``action_masks()``."""


def vector_env(
    num_envs: int,
    rules: Ruleset | str = "classic",
    players: int | None = None,
    *,
    asynchronous: bool = False,
    **kwargs: Any,
) -> SyncVectorEnv | AsyncVectorEnv:
    """``num_envs`` single-agent environments as one Gymnasium vector environment with ``action_masks()``.

    Finished rounds restart in the same step (Gymnasium's "same-step" autoreset: the final observation is in
    ``info["final_obs"]``), so the observations and masks returned are always of rounds in play.
    """
    if num_envs < 1:
        raise ValueError(f"num_envs={num_envs}: a vector environment needs at least one environment")
    fns: list[Callable[[], gymnasium.Env]] = [partial(BigTwoGymEnv, rules, players, **kwargs) for _ in range(num_envs)]
    cls = MaskedAsyncVectorEnv if asynchronous else MaskedSyncVectorEnv
    return cls(fns, autoreset_mode=AutoresetMode.SAME_STEP)


def register_envs() -> None:
    """Register ``bigtwo/<preset>-v2`` for every preset (and ``bigtwo/custom-v2`` taking ``rules=``) with
    Gymnasium, so ``gymnasium.make("bigtwo/classic-v2")`` works once ``bigtwo.envs`` is imported; the
    ``-v1`` ids are version 1 (``procedures=False``: rounds played as dealt), for results cited so."""
    from bigtwo.envs.aec import ENV_VERSION

    entry = "bigtwo.envs.single:BigTwoGymEnv"
    for name in [*list_presets(), "custom"]:
        for version in range(1, ENV_VERSION + 1):
            env_id = f"bigtwo/{name}-v{version}"
            if env_id not in gymnasium.registry:
                kwargs: dict[str, Any] = {} if name == "custom" else {"rules": name}
                if version == 1:
                    kwargs["procedures"] = False  # version 1: rounds as dealt
                gymnasium.register(id=env_id, entry_point=entry, kwargs=kwargs)
