"""Actor processes for ``bigtwo train --actors N``: DouZero's layout, many players and one learner.

Each actor is a process with its own lockstep games (a :class:`~bigtwo.envs.batched.BatchedEnv`) and its
own exploration generator. The run goes in **rounds**: the learner sends every actor the network's weights,
each actor plays ``steps`` lockstep moves of its games with them and hands back the frames of the games
that ended, labelled with their returns, while the learner learns from the frames of the round before. So
the network the actors play is at most two rounds behind the one being learned, and the learner's core and
the actors' are busy at once.

Everything happens in a fixed order (the frames come back actor by actor, each actor's moves depend only on
its games, its generator and the weights it was sent), and a checkpoint is taken between two rounds with
every actor's games in it: a run with N actors resumes bit for bit as the same run with N actors.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import random
import socket
import subprocess
import sys
import traceback
import weakref
from dataclasses import dataclass
from itertools import pairwise
from multiprocessing.connection import Connection
from typing import Any

import numpy as np

from bigtwo.envs.batched import BatchedEnv, Decisions, Finished

Frame = tuple[np.ndarray, np.ndarray, float]
"""One decision to learn from: its state vector, the chosen action's vector and its return."""


def choose(model: Any, d: Decisions, epsilon: float, rng: random.Random) -> list[int]:
    """Each decision's choice: the network's best action, or with probability ``epsilon`` a random legal one."""
    import torch

    with torch.no_grad():
        q = model.score(torch.from_numpy(d.state), torch.from_numpy(d.actions), torch.from_numpy(d.segment())).numpy()
    o = d.offsets
    best = first_best(q, o).tolist()
    if not epsilon:
        return best
    counts = np.diff(o).tolist()
    out = []
    for j, k in enumerate(counts):  # the generator's draws in the same order as ever: a run goes on as before
        out.append(rng.randrange(k) if rng.random() < epsilon else best[j])
    return out


def first_best(q: np.ndarray, offsets: np.ndarray) -> np.ndarray:
    """Each decision's ``np.argmax`` of its rows ``offsets[j]:offsets[j + 1]`` of ``q`` (the first of equal
    highest values), for the whole batch in a few numpy calls."""
    starts = offsets[:-1]
    if not len(starts):
        return np.zeros(0, dtype=np.int64)
    top = np.maximum.reduceat(q, starts)
    if np.isnan(top).any():  # a diverged network: np.argmax's answer (the first NaN), one decision at a time
        return np.array([int(np.argmax(q[a:b])) for a, b in pairwise(offsets)])
    where = np.arange(len(q))
    hit = q == np.repeat(top, np.diff(offsets))
    return np.minimum.reduceat(np.where(hit, where, len(q)), starts) - starts


def returns_of(
    pending: list[list[list[tuple[np.ndarray, np.ndarray]]]], finished: list[Finished], scale: float
) -> list[Frame]:
    """The frames of the games that ended, each seat's decisions labelled with its points / ``scale``; their
    seats' pending decisions are cleared."""
    out: list[Frame] = []
    for f in finished:
        for seat, frames in enumerate(pending[f.env]):
            target = f.points[seat] / scale
            out.extend((s, a, target) for s, a in frames)
            frames.clear()
    return out


def remember(pending: list[list[list[tuple[np.ndarray, np.ndarray]]]], d: Decisions, choices: list[int]) -> None:
    """Keep each decision's state and chosen action until its game ends."""
    o = d.offsets
    for j, (i, seat) in enumerate(zip(d.env, d.seat, strict=True)):
        pending[i][seat].append((d.state[j], d.actions[o[j] + choices[j]]))


@dataclass
class RoundFrames:
    """What one actor's round gives the learner: the finished games' frames as arrays, and the counts."""

    states: np.ndarray  # (F, state size) float32
    actions: np.ndarray  # (F, action size) float32
    targets: np.ndarray  # (F,) float64
    frames: int  # decisions made in the round (also those of games still running)
    games: int  # games that ended in it

    def rows(self) -> list[Frame]:
        return [(s, a, float(t)) for s, a, t in zip(self.states, self.actions, self.targets, strict=True)]


class Actor:
    """One actor's games, exploration generator and decisions awaiting their games' ends (it is pickled whole
    into its process and back into checkpoints)."""

    def __init__(self, env: BatchedEnv, rng: random.Random, epsilon: float, reward_scale: float):
        self.env = env
        self.rng = rng
        self.epsilon = epsilon
        self.reward_scale = reward_scale
        self.pending: list[list[list[tuple[np.ndarray, np.ndarray]]]] = [
            [[] for _ in range(env.n)] for _ in range(env.num_envs)
        ]
        self.decisions, finished = env.reset()
        self.carried = returns_of(self.pending, finished, reward_scale)  # games that ended before a decision
        self.carried_games = len(finished)

    def play(self, model: Any, steps: int) -> RoundFrames:
        """``steps`` lockstep moves of every game with ``model``; the frames of the games that ended."""
        frames, games = self.carried, self.carried_games
        self.carried, self.carried_games = [], 0
        made = 0
        for _ in range(steps):
            d = self.decisions
            if not len(d):
                break
            choices = choose(model, d, self.epsilon, self.rng)
            remember(self.pending, d, choices)
            made += len(d)
            self.decisions, finished = self.env.step(d, choices)
            frames.extend(returns_of(self.pending, finished, self.reward_scale))
            games += len(finished)
        size = (self.env.state_encoder.size, self.env.action_encoder.size)
        return RoundFrames(
            np.stack([s for s, _, _ in frames]) if frames else np.zeros((0, size[0]), np.float32),
            np.stack([a for _, a, _ in frames]) if frames else np.zeros((0, size[1]), np.float32),
            np.array([t for _, _, t in frames], dtype=np.float64),
            made,
            games,
        )


def serve(fd: int) -> None:
    """An actor process (started by :class:`ActorPool` on its end of a socket pair, ``fd``): play rounds as the
    learner asks, until it says stop or goes away."""
    conn = Connection(fd)
    try:
        path, blob, hidden = conn.recv()
        sys.path[:] = path  # a bot class of the user's, found beside them, unpickles here too
        import torch

        from bigtwo.rl.networks import QNet

        torch.set_num_threads(1)
        actor: Actor = pickle.loads(blob)
        model = QNet(actor.env.state_encoder.size, actor.env.action_encoder.size, hidden)
        while True:
            try:
                message = conn.recv()
            except EOFError:
                return
            kind = message[0]
            if kind == "play":
                _, weights, steps = message
                if weights is not None:  # else the last round's weights are still the learner's
                    model.load_state_dict({k: torch.from_numpy(v) for k, v in weights.items()})
                conn.send(("ok", actor.play(model, steps)))
            elif kind == "state":
                conn.send(("ok", pickle.dumps(actor)))
            else:
                conn.send(("ok", None))
                return
    except BaseException:  # the learner says which actor failed and why, then stops
        with contextlib.suppress(OSError, ValueError):
            conn.send(("error", traceback.format_exc()))


def _shutdown(conns: list[Any], processes: list[Any]) -> None:
    for conn in conns:
        with contextlib.suppress(OSError, ValueError):
            conn.send(("stop",))
    for p in processes:
        try:
            p.wait(timeout=5)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait(timeout=5)
    for conn in conns:
        conn.close()


class ActorPool:
    """The actor processes of one run (started here, stopped by :meth:`close` or when the pool is collected).

    Each is a fresh interpreter (not a fork: torch in a forked child of a threaded parent can hang, and not
    multiprocessing's spawn, which would run the caller's main script again in every actor), on one end of
    a socket pair, in a session of its own: a signal to the terminal's process group reaches the learner, which
    stops after the round with a checkpoint, and an actor ends when the learner's end of its socket closes."""

    def __init__(self, actors: list[Actor], hidden: tuple[int, ...]):
        self.conns: list[Connection] = []
        self.processes: list[subprocess.Popen[bytes]] = []
        self._busy = False
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
        for actor in actors:
            mine, theirs = socket.socketpair()
            fd = theirs.fileno()
            p = subprocess.Popen(
                [sys.executable, "-c", f"from bigtwo.rl.actors import serve; serve({fd})"],
                pass_fds=(fd,),
                env=env,
                stdin=subprocess.DEVNULL,
                start_new_session=True,  # a Ctrl-C at the terminal is the learner's to answer (a checkpoint)
            )
            theirs.close()
            conn = Connection(mine.detach())
            conn.send((list(sys.path), pickle.dumps(actor), tuple(hidden)))
            self.conns.append(conn)
            self.processes.append(p)
        self._finalizer = weakref.finalize(self, _shutdown, self.conns, self.processes)

    def __len__(self) -> int:
        return len(self.conns)

    def start_round(self, weights: dict[str, np.ndarray] | None, steps: int) -> None:
        """Send every actor the weights to play ``steps`` moves with (None: the ones they have); returns at
        once."""
        for conn in self.conns:
            conn.send(("play", weights, steps))
        self._busy = True

    def finish_round(self) -> list[RoundFrames]:
        """Every actor's frames of the round begun by :meth:`start_round`, in actor order."""
        self._busy = False
        return [self._answer(i) for i in range(len(self.conns))]

    def states(self) -> list[bytes]:
        """Every actor, pickled (between two rounds), for a checkpoint."""
        if self._busy:
            raise RuntimeError("the actors are in a round: a checkpoint is taken between rounds")
        for conn in self.conns:
            conn.send(("state",))
        return [self._answer(i) for i in range(len(self.conns))]

    def _answer(self, i: int) -> Any:
        try:
            kind, value = self.conns[i].recv()
        except (EOFError, OSError):
            code = self.processes[i].poll()
            raise RuntimeError(f"actor {i} stopped without a word (exit code {code})") from None
        if kind == "error":
            raise RuntimeError(f"actor {i} failed:\n{value}")
        return value

    def close(self) -> None:
        self._finalizer()


__all__ = ["Actor", "ActorPool", "Frame", "RoundFrames", "choose", "first_best", "remember", "returns_of"]
