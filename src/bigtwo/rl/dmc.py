"""Deep Monte-Carlo self-play (DouZero's method) for any ruleset and table size, on the CPU with torch.

One network Q(s, a) scores a seat's state vector beside each legal action's vector
(:mod:`bigtwo.bots.features`) and is shared by every seat. ``num_envs`` games run in lockstep
(:class:`~bigtwo.envs.batched.BatchedEnv`); each step scores every game's legal actions in one batched call
and plays the best (a random legal action with probability ``epsilon``). When a game ends, every decision a
seat made in it is labelled with that seat's final points (the Monte-Carlo return, scaled by
``1 / reward_scale``) and queued; each full batch in the queue is one gradient step on the squared error
(every frame is learned from once, as in DouZero). Decisions with one legal action are played at once and
never become frames.

``opponent_share`` of the games seat one learning seat among ``opponent`` bots (the rest are pure
self-play): the network then also learns the values of its actions against the bots it is measured against.
``opponent`` is a bot spec or a comma-separated field of them (``"heuristic,learned(weights='old.npz')"``),
dealt in turn to the bots' seats, so every bot of the field sits in as many seats: a network trained against
one bot learns to exploit it, against a field (its own earlier weights among them) to play well in general.

With ``actors=N`` the games are played in N processes of ``num_envs`` games each while this one learns
(:mod:`bigtwo.rl.actors`, DouZero's layout): 1.7 to 1.9 times the frames a second with two actors on two
cores (``benchmarks/training.py``).

Everything that decides the run (weights, optimiser, random generators, every game in progress, the frames
not yet learned from) is in the checkpoint, so a resumed run continues exactly as an uninterrupted one would.
"""

from __future__ import annotations

import io
import json
import os
import pickle
import random
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn

from bigtwo.bots.features import FEATURES_VERSION
from bigtwo.bots.learned import GameScorer, QPolicy, table_suits
from bigtwo.bots.spec import parse_lineup
from bigtwo.envs.batched import BatchedEnv, Finished
from bigtwo.rl.actors import Actor, ActorPool, choose, remember, returns_of
from bigtwo.rl.evaluate import Evaluation, evaluate
from bigtwo.rl.networks import QNet
from bigtwo.rules.ruleset import Ruleset, load_rules

CHECKPOINT_FORMAT = 1


@dataclass
class TrainConfig:
    """Everything that defines a training run (saved in its checkpoints)."""

    rules: str = "classic"
    players: int | None = None
    seed: int = 0
    num_envs: int = 32
    history: int = 8
    hidden: tuple[int, ...] = (512, 512, 256)
    lr: float = 3e-4
    lr_final: float | None = None  # the learning rate falls linearly from lr to this over lr_frames (None: constant)
    lr_frames: int = 0
    batch_size: int = 512
    replay: int = 1  # gradient steps per new batch: the new batch, then batches drawn from recent frames
    replay_frames: int = 32_768  # how many recent frames those are drawn from (replay > 1)
    epsilon: float = 0.05
    utility: str = "cards"
    reward_scale: float = 13.0
    max_grad_norm: float = 40.0
    opponent: str = "heuristic"
    opponent_share: float = 0.0
    eval_every: int = 250_000  # frames between evaluations (0: never)
    eval_deals: int = 100
    eval_seed: int = 7
    eval_opponent: str = "heuristic"
    init_from: str | None = None  # start from this network (a checkpoint or exported .npz); None: random weights
    actors: int = 0  # actor processes of num_envs games each (0: the games are played in the learner's process)
    round_steps: int = 16  # lockstep moves an actor plays a round, with the weights sent at its start

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["hidden"] = list(self.hidden)
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> TrainConfig:
        known = {f.name for f in fields(cls)}
        unknown = set(d) - known
        if unknown:
            raise ValueError(f"unknown training settings: {', '.join(sorted(unknown))}")
        d = dict(d)
        if "hidden" in d:
            d["hidden"] = tuple(d["hidden"])
        return cls(**d)


def _table_of(config: TrainConfig, features_version: int = FEATURES_VERSION) -> dict[str, Any]:
    """What a run's network is made for: its inputs mean these rules, players, history and features."""
    rules = load_rules(config.rules)
    players = rules.players if config.players is None else config.players
    return {"rules": rules.name, "players": players, "history": config.history, "features_version": features_version}


def _read_checkpoint(path: str | Path, role: str = "") -> dict[str, Any]:
    """A training checkpoint's contents; a file that is not one is refused in words naming it (``role``, e.g.
    ``"init_from "``, says which input it was), not with a pickle error."""
    try:
        state = torch.load(path, weights_only=False)
    except (pickle.UnpicklingError, RuntimeError, EOFError, ValueError, AttributeError, ImportError):
        state = None
    if not isinstance(state, dict) or "config" not in state:
        raise ValueError(f"{role}{path}: not a training checkpoint (bigtwo train writes OUT/checkpoint.pt)")
    return state


def _load_start(model: QNet, path: str, table: dict[str, Any], rules: Ruleset | None = None) -> None:
    """Set ``model`` to the network to fine-tune from: a run's checkpoint, or exported weights (``.npz``, e.g.
    the shipped ones, float16: training goes on in float32 from their rounded values).

    ``table`` is the run's rules, players, history and features version: a network made for another table is
    refused even when its shapes happen to match (its inputs would mean other things), but exported weights
    whose rounds are the run's ``rules`` with the suits renamed (classic's for Pusoy Dos) start it with the
    renaming folded into their first layer: the same player, reading the run's own cards. Its hidden layers
    must be the run's (``--hidden``)."""
    if Path(path).is_dir():
        raise ValueError(f"init_from {path} is a directory, not a network (a checkpoint .pt or weights .npz)")
    if not Path(path).exists():
        raise ValueError(f"init_from {path}: there is no such file")
    if Path(path).suffix.lower() == ".npz":
        policy = QPolicy.load(path)
        made_for = {k: policy.meta.get(k) for k in table}
        layers: Any = policy.layers()
        same_otherwise = all(made_for[k] == table[k] for k in table if k != "rules")
        if rules is not None and made_for["rules"] != table["rules"] and same_otherwise:
            renaming = table_suits(policy.meta, rules)  # the run's rounds are the network's, suits renamed
            if renaming is not None:
                layers = GameScorer(policy, rules, int(table["players"]), path).table_layers()
                made_for["rules"] = table["rules"]
    else:
        state = _read_checkpoint(path, "init_from ")
        # (a checkpoint from before they recorded their features version counts as today's)
        made_for = _table_of(TrainConfig.from_dict(state["config"]), state.get("features_version", FEATURES_VERSION))
        layers = state["model"]
    differ = [f"{k} {made_for[k]!r}, not {table[k]!r}" for k in table if made_for[k] != table[k]]
    if differ:
        raise ValueError(f"init_from {path}: a network for another table ({'; '.join(differ)})")
    if not isinstance(layers, list):  # a checkpoint's state: (weight as outputs x inputs, bias) by layer name
        weights = [v for k, v in layers.items() if k.endswith(".weight")]
        biases = [v for k, v in layers.items() if k.endswith(".bias")]
        if len(weights) != len(biases):
            raise RuntimeError(f"{len(weights)} weights for {len(biases)} biases")
        layers = [(w.numpy().T, b.numpy()) for w, b in zip(weights, biases, strict=True)]
    theirs = [int(np.shape(w)[1]) for w, _b in layers[:-1]]
    ours = [int(np.shape(w)[1]) for w, _b in model.layers()[:-1]]
    if theirs != ours:
        raise ValueError(
            f"init_from {path}: a network with hidden layers {_sizes(theirs)}, where this run's are {_sizes(ours)} "
            "(--hidden)"
        )
    model.load_layers(layers)


def _sizes_of(env: BatchedEnv) -> tuple[int, int]:
    """The sizes of a state's and an action's vector in these games."""
    return env.state_encoder.size, env.action_encoder.size


def _sizes(hidden: list[int]) -> str:
    return ",".join(map(str, hidden)) or "none"


@dataclass
class Progress:
    """One line of the training log."""

    frames: int
    games: int
    updates: int
    seconds: float
    frames_per_second: float
    loss: float | None
    evaluation: dict[str, Any] | None = None
    extra: dict[str, Any] = field(default_factory=dict)


class Trainer:
    """A DMC run writing to ``out`` (checkpoint, log, exported weights, learning curve)."""

    def __init__(self, config: TrainConfig, out: str | Path):
        self.config = cfg = config
        self.out = Path(out)
        self.rules = rules = load_rules(cfg.rules)
        self.n = n = rules.players if cfg.players is None else cfg.players
        if not 0.0 <= cfg.opponent_share <= 1.0:
            raise ValueError(f"opponent_share={cfg.opponent_share}: a fraction of the games, 0 to 1")
        if not 0.0 <= cfg.epsilon <= 1.0:
            raise ValueError(f"epsilon={cfg.epsilon}: a probability, 0 to 1")
        if not cfg.reward_scale > 0:
            raise ValueError(f"reward_scale={cfg.reward_scale}: the points a unit of the values, above 0")
        if cfg.actors < 0:
            raise ValueError(f"actors={cfg.actors}: 0 (the games in this process) or a number of processes")
        if cfg.round_steps < 1:
            raise ValueError(f"round_steps={cfg.round_steps}: an actor plays at least one move a round")
        if cfg.lr_final is not None and not (cfg.lr_final >= 0 and cfg.lr_frames > 0):
            raise ValueError(
                f"lr_final={cfg.lr_final}, lr_frames={cfg.lr_frames}: a falling learning rate ends at 0 or above, "
                "over a number of frames above 0"
            )
        if cfg.lr_final is None and cfg.lr_frames:
            raise ValueError(f"lr_frames={cfg.lr_frames}: frames for the learning rate to fall over, to no lr_final")
        torch.manual_seed(cfg.seed)
        self.rng = random.Random(cfg.seed)
        if cfg.eval_every:
            parse_lineup([cfg.eval_opponent])  # a bad spec errs now, not at the first evaluation
        self.pool: ActorPool | None = None  # the actors' processes, started at the first round
        self.actors: list[Actor] | None = None  # the actors until then
        if cfg.actors:
            self.actors = actors = [
                Actor(self._make_env(a), random.Random(f"{cfg.seed}/actor {a}"), cfg.epsilon, cfg.reward_scale)
                for a in range(cfg.actors)
            ]
            self.env = None
            self.state_size, self.action_size = _sizes_of(actors[0].env)
        else:
            self.env = self._make_env(None)
            self.state_size, self.action_size = _sizes_of(self.env)
        self.model = QNet(self.state_size, self.action_size, cfg.hidden)
        if cfg.init_from:
            try:
                _load_start(self.model, cfg.init_from, _table_of(cfg), rules)
            except (KeyError, RuntimeError) as e:
                raise ValueError(f"init_from {cfg.init_from}: not a network of this shape ({e})") from None
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=cfg.lr)
        self.pending: list[list[list[tuple[np.ndarray, np.ndarray]]]] = [
            [[] for _ in range(n)] for _ in range(cfg.num_envs if self.env is not None else 0)
        ]
        self.queue: list[tuple[np.ndarray, np.ndarray, float]] = []
        self.recent: list[tuple[np.ndarray, np.ndarray, float]] = []  # a ring of learned frames (replay > 1)
        self.recent_at = 0
        self.frames = 0
        self.games = 0
        self.updates = 0
        self.seconds = 0.0  # training wall time so far (across resumptions)
        self.losses: list[float] = []  # since the last log line
        self.log: list[dict[str, Any]] = []
        self.best: float | None = None
        self.stop_requested = False  # set (e.g. by a signal handler) to end ``run`` after the current step
        self._resumed = False
        if self.env is not None:
            self.decisions, finished = self.env.reset()
            self._finish(finished)

    def _make_env(self, actor: int | None) -> BatchedEnv:
        """The lockstep games of this process (``actor`` None) or of one actor: in ``opponent_share`` of them one
        learning seat among the field's bots, dealt to the bots' seats in turn across the games (each actor's
        games are another run's: their own deals and bots' seeds)."""
        cfg, n = self.config, self.n
        with_bots = round(cfg.opponent_share * cfg.num_envs)
        field = parse_lineup(cfg.opponent) if with_bots else []
        seed = cfg.seed if actor is None else cfg.seed * 100_003 + 7_919 * (actor + 1)
        bots: list[list[Any]] = []
        dealt = 0
        for i in range(cfg.num_envs):
            row: list[Any] = []
            for s in range(n):
                if s == i % n or i >= with_bots:
                    row.append(None)
                else:
                    row.append(field[dealt % len(field)].build(seed=seed * 1000 + i * n + s))
                    dealt += 1
            bots.append(row)
        return BatchedEnv(self.rules, n, cfg.num_envs, seed=seed, history=cfg.history, utility=cfg.utility, bots=bots)

    # --- acting ----------------------------------------------------------------------------------------
    def _finish(self, finished: list[Finished]) -> None:
        self.games += len(finished)
        self.queue.extend(returns_of(self.pending, finished, self.config.reward_scale))

    def step(self) -> None:
        """One lockstep move of every game (with actors: one round of theirs), then a gradient step for every
        full batch of finished frames."""
        if self.env is None:  # the actors play
            if self.pool is None:
                assert self.actors is not None
                self.pool, self.actors = ActorPool(self.actors, self.config.hidden), None
                self._sent_at = -1  # the new processes have no weights yet
            self._round(self.pool)
            return
        d = self.decisions
        choices = choose(self.model, d, self.config.epsilon, self.rng)
        remember(self.pending, d, choices)
        self.frames += len(d.env)
        self.decisions, finished = self.env.step(d, choices)
        self._finish(finished)
        self._learn_queued()

    def _round(self, pool: ActorPool) -> None:
        """The actors play a round with today's weights while this process learns from the frames it has."""
        weights = None  # the actors' are today's: no gradient step since they were sent
        if self.updates != self._sent_at:
            weights = {k: v.detach().numpy().copy() for k, v in self.model.state_dict().items()}
            self._sent_at = self.updates
        pool.start_round(weights, self.config.round_steps)
        self._learn_queued()
        for got in pool.finish_round():
            self.frames += got.frames
            self.games += got.games
            self.queue.extend(got.rows())

    def _learn_queued(self) -> None:
        cfg = self.config
        b = cfg.batch_size
        while len(self.queue) >= b:
            batch, self.queue = self.queue[:b], self.queue[b:]
            self.losses.append(self.learn(batch))
            if cfg.replay > 1:
                self._remember(batch)
                for _ in range(cfg.replay - 1):
                    self.learn([self.recent[self.rng.randrange(len(self.recent))] for _ in range(b)])

    def _remember(self, batch: list[tuple[np.ndarray, np.ndarray, float]]) -> None:
        """Keep learned frames (as float16: the features are 0/1 and small fractions) in the replay ring."""
        cap = self.config.replay_frames
        for s, a, y in batch:
            item = (s.astype(np.float16), a.astype(np.float16), y)
            if len(self.recent) < cap:
                self.recent.append(item)
            else:
                self.recent[self.recent_at] = item
                self.recent_at = (self.recent_at + 1) % cap

    def learning_rate(self) -> float:
        """The step size at today's frames: ``lr``, or with ``lr_final`` the straight line from ``lr`` to it over
        the first ``lr_frames`` frames (a function of the frames alone, so a resumed run takes the same steps)."""
        cfg = self.config
        if cfg.lr_final is None:
            return cfg.lr
        done = min(1.0, self.frames / cfg.lr_frames)
        return cfg.lr + (cfg.lr_final - cfg.lr) * done

    def learn(self, batch: list[tuple[np.ndarray, np.ndarray, float]]) -> float:
        """One gradient step on a batch of (state, action, return) frames; the batch's loss before it."""
        lr = self.learning_rate()
        for group in self.optimizer.param_groups:
            group["lr"] = lr
        x = torch.from_numpy(np.stack([np.concatenate([s, a]) for s, a, _ in batch]).astype(np.float32, copy=False))
        y = torch.tensor([t for _, _, t in batch], dtype=torch.float32)
        loss = nn.functional.mse_loss(self.model(x), y)
        self.optimizer.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(self.model.parameters(), self.config.max_grad_norm)
        self.optimizer.step()
        self.updates += 1
        return float(loss.item())

    def loss_on(self, batch: list[tuple[np.ndarray, np.ndarray, float]]) -> float:
        """The model's squared error on some frames, without learning from them."""
        x = torch.from_numpy(np.stack([np.concatenate([s, a]) for s, a, _ in batch]))
        y = torch.tensor([t for _, _, t in batch], dtype=torch.float32)
        with torch.no_grad():
            return float(nn.functional.mse_loss(self.model(x), y).item())

    # --- the policy --------------------------------------------------------------------------------------
    def policy(self) -> QPolicy:
        """The current greedy policy as the numpy network the learned bot runs (weights rounded to float16,
        as they ship)."""
        layers = [
            (w.astype(np.float16).astype(np.float32), b.astype(np.float16).astype(np.float32))
            for w, b in self.model.layers()
        ]
        cfg = self.config
        meta = {
            "rules": self.rules.name,
            "rules_settings": self.rules.settings(),  # what its inputs mean, setting by setting
            "players": self.n,
            "history": cfg.history,
            "hidden": list(cfg.hidden),
            "features_version": FEATURES_VERSION,
            "frames": self.frames,
            "games": self.games,
            "seed": cfg.seed,
            "train_seconds": round(self.seconds, 1),
            "utility": cfg.utility,  # what its values are points of, in units of reward_scale
            "reward_scale": cfg.reward_scale,
        }
        return QPolicy(layers, self.state_size, meta)

    def evaluate(self, deals: int | None = None) -> Evaluation:
        cfg = self.config
        return evaluate(
            self.policy(),
            self.rules,
            self.n,
            deals=deals or cfg.eval_deals,
            seed=cfg.eval_seed,
            opponent=cfg.eval_opponent,
            utility=cfg.utility,
        )

    # --- checkpoints -------------------------------------------------------------------------------------
    def state(self) -> dict[str, Any]:
        return {
            "format": CHECKPOINT_FORMAT,
            "features_version": FEATURES_VERSION,
            "config": self.config.to_dict(),
            "model": self.model.state_dict(),
            "optimizer": self.optimizer.state_dict(),
            "torch_rng": torch.get_rng_state(),
            "python": pickle.dumps(
                {
                    "rng": self.rng.getstate(),
                    "env": self.env,
                    "decisions": self.decisions if self.env is not None else None,
                    "pending": self.pending if self.env is not None else None,
                    "actors": self._actor_states(),
                    "queue": self.queue,
                    "recent": (self.recent, self.recent_at),
                    "counters": (self.frames, self.games, self.updates, self.seconds, self.best),
                    "losses": self.losses,
                    "log": self.log,
                }
            ),
        }

    def _actor_states(self) -> list[bytes] | None:
        """Every actor pickled, from its process once the rounds began (None: the games are in this process)."""
        if self.pool is not None:
            return self.pool.states()
        return None if self.actors is None else [pickle.dumps(a) for a in self.actors]

    def save(self, path: str | Path | None = None) -> Path:
        """Write the checkpoint (atomically: a crash mid-write leaves the previous one)."""
        path = Path(path) if path is not None else self.out / "checkpoint.pt"
        path.parent.mkdir(parents=True, exist_ok=True)
        buf = io.BytesIO()
        torch.save(self.state(), buf)
        tmp = path.with_suffix(".tmp")
        tmp.write_bytes(buf.getvalue())
        os.replace(tmp, path)
        return path

    @classmethod
    def load(cls, path: str | Path, out: str | Path | None = None) -> Trainer:
        """The run saved at ``path``, ready to continue exactly where it stopped."""
        path = Path(path)
        state = _read_checkpoint(path)
        if state.get("format") != CHECKPOINT_FORMAT:
            raise ValueError(f"{path}: checkpoint format {state.get('format')!r}, expected {CHECKPOINT_FORMAT}")
        self = cls.__new__(cls)
        self.config = cfg = TrainConfig.from_dict(state["config"])
        self.out = Path(out) if out is not None else path.parent
        self.rules = load_rules(cfg.rules)
        self.n = self.rules.players if cfg.players is None else cfg.players
        py = pickle.loads(state["python"])
        self.rng = random.Random()
        self.rng.setstate(py["rng"])
        self.env = py["env"]
        self.pool, self.actors = None, None
        if self.env is not None:
            self.state_size, self.action_size = _sizes_of(self.env)
        else:
            self.actors = [pickle.loads(blob) for blob in py["actors"]]
            self.state_size, self.action_size = _sizes_of(self.actors[0].env)
        self.model = QNet(self.state_size, self.action_size, cfg.hidden)
        self.model.load_state_dict(state["model"])
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=cfg.lr)
        self.optimizer.load_state_dict(state["optimizer"])
        torch.set_rng_state(state["torch_rng"])
        if self.env is not None:
            self.decisions = py["decisions"]
        self.pending = py["pending"]
        self.queue = py["queue"]
        self.recent, self.recent_at = py.get("recent", ([], 0))
        self.frames, self.games, self.updates, self.seconds, self.best = py["counters"]
        self.losses = py["losses"]
        self.log = py["log"]
        self.stop_requested = False
        self._resumed = True
        return self

    # --- the run -----------------------------------------------------------------------------------------
    def run(
        self,
        frames: int | None = None,
        seconds: float | None = None,
        report_every: float = 30.0,
        checkpoint_every: float = 600.0,
        on_progress: Callable[[Progress], None] | None = None,
        export: Path | None = None,
        snapshots: bool = False,
    ) -> None:
        """Train until ``frames`` frames in all (or ``seconds`` more wall time), reporting, evaluating,
        checkpointing and exporting the best weights (to ``out/best.npz`` and ``export``) on the way. With
        ``snapshots``, every evaluated network is kept too, as ``out/snapshots/f{frames}.npz`` (to average the
        last several: :mod:`bigtwo.rl.average`)."""
        cfg = self.config
        log = self.out / "log.jsonl"
        if self._resumed and log.exists():  # lines written after the checkpoint belong to a lost continuation
            log.write_text("".join(json.dumps(line) + "\n" for line in self.log))
        self._resumed = False
        start = time.perf_counter()
        base_seconds = self.seconds
        last_report = last_ckpt = start
        report_frames = self.frames
        next_eval = (self.frames // cfg.eval_every + 1) * cfg.eval_every if cfg.eval_every else None
        while True:
            now = time.perf_counter()
            self.seconds = base_seconds + (now - start)
            if frames is not None and self.frames >= frames:
                break
            if seconds is not None and now - start >= seconds:
                break
            if self.stop_requested:  # between two steps, so the checkpoint is a consistent state
                break
            self.step()
            evaluation = None
            if next_eval is not None and self.frames >= next_eval:
                next_eval += cfg.eval_every
                evaluation = self._evaluate_and_export(export, snapshots)
            now = time.perf_counter()
            if evaluation is not None or now - last_report >= report_every:
                fps = (self.frames - report_frames) / max(now - last_report, 1e-9)
                p = Progress(
                    self.frames,
                    self.games,
                    self.updates,
                    base_seconds + (now - start),
                    fps,
                    float(np.mean(self.losses)) if self.losses else None,
                    evaluation.to_dict() if evaluation is not None else None,
                    {"lr": self.learning_rate()} if cfg.lr_final is not None else {},
                )
                self.losses = []
                self.log.append(asdict(p))
                self._append_log(p)
                if on_progress is not None:
                    on_progress(p)
                last_report, report_frames = time.perf_counter(), self.frames
            if now - last_ckpt >= checkpoint_every:
                self.save()
                last_ckpt = time.perf_counter()
        self.seconds = base_seconds + (time.perf_counter() - start)
        self.save()

    def _evaluate_and_export(self, export: Path | None, snapshots: bool = False) -> Evaluation:
        t0 = time.perf_counter()
        ev = self.evaluate()
        policy = self.policy()
        policy.meta["evaluation"] = ev.to_dict()
        policy.save(self.out / "latest.npz")
        if snapshots:
            policy.save(self.out / "snapshots" / f"f{self.frames:012d}.npz")
        if self.best is None or ev.points > self.best:
            self.best = ev.points
            policy.save(self.out / "best.npz")
            if export is not None:
                policy.save(export)
        try:
            from bigtwo.rl.curve import plot_curve

            point = {"frames": self.frames, "seconds": self.seconds, "evaluation": ev.to_dict()}
            plot_curve(
                [*self.log, point],
                self.out / "curve.png",
                title=f"{self.rules.name}, {self.n} players",
                measure=self.config.utility,
            )
        except ImportError:
            pass
        self.eval_seconds = time.perf_counter() - t0
        return ev

    def close(self) -> None:
        """Stop the actor processes (a run without actors has none); the run can be loaded from its checkpoint."""
        if self.pool is not None:
            self.pool.close()

    def _append_log(self, p: Progress) -> None:
        self.out.mkdir(parents=True, exist_ok=True)
        with (self.out / "log.jsonl").open("a") as f:
            f.write(json.dumps(asdict(p)) + "\n")


__all__ = ["Progress", "QNet", "TrainConfig", "Trainer"]
