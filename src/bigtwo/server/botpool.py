"""Where bots think: quick bots on the event loop, the others in worker processes at low priority.

A bot that searches (``search``) thinks for hundreds of milliseconds a move; on the event loop, or in a thread
holding the interpreter's lock, that time is taken from every other table. Here such bots run in a pool of
worker processes (``bot_workers``, at the lowest CPU priority the system grants), each decision within a
thinking budget (``bot_budget_ms``, given to bots that take one), and the decisions of tables where people sit
go before those of tables of bots alone. Quick bots (a fraction of a millisecond a move, measured) answer in
place: sending them to another process would cost more than their thinking.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import inspect
import itertools
import json
import logging
import multiprocessing
import os
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from bigtwo import bots as bot_registry
from bigtwo.bots import make as make_bot
from bigtwo.bots.named import NamedBot, register_spec
from bigtwo.combos.play import Play
from bigtwo.legal import legal_plays_from_observation
from bigtwo.observation import as_observation
from bigtwo.rules.ruleset import Ruleset

log = logging.getLogger("bigtwo.server")

# well under a millisecond a move (benchmarks/bots.py), the learned bot's network under 2 ms of CPU (its weights
# load once, on its first move)
QUICK_BOTS = frozenset({"random", "greedy", "heuristic", "learned"})
PEOPLE, BOTS_ALONE = 0, 1  # priorities: tables where people sit first


def bot_options(name: str, budget_ms: float) -> dict[str, Any]:
    """The options a bot is made with on the server: its thinking budget, when it takes one."""
    factory = bot_registry.BOTS.get(name)
    if factory is None:
        return {}
    try:
        params = inspect.signature(factory).parameters
    except (TypeError, ValueError):
        return {}
    return {"budget_ms": budget_ms} if "budget_ms" in params else {}


# --- in the worker process ---------------------------------------------------------------------------------
_HELD: OrderedDict[tuple[str, int, str], Any] = OrderedDict()  # bots kept between turns (they may plan ahead)


def _worker_start(parent: int, named: dict[str, str] | None = None) -> None:
    """In each worker: the lowest CPU priority, the server's own bots registered (a fresh interpreter knows the
    built-in ones only), and an end when the server is gone (even killed with SIGKILL, which leaves a worker
    waiting for work that will never come)."""
    with contextlib.suppress(OSError, AttributeError):
        os.nice(19)
    for name, spec in (named or {}).items():
        register_spec(name, spec)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1)
        os._exit(0)

    threading.Thread(target=watch, name="bigtwo-parent-watch", daemon=True).start()


def rules_text(rules: Ruleset) -> str:
    """A ruleset as the workers receive it (read back by :func:`worker_rules`)."""
    return json.dumps(rules.to_dict(), sort_keys=True)


@functools.lru_cache(maxsize=64)
def worker_rules(text: str) -> Ruleset:
    """A table's ruleset in a worker, read once from its text."""
    return Ruleset.from_dict(json.loads(text), source="the table")


def _choose(key: tuple[str, int, str], seed: int, options: dict[str, Any], text: str, obs: dict[str, Any]) -> Any:
    bot = _HELD.get(key)
    if bot is None:
        bot = _HELD[key] = make_bot(key[2], seed=seed, **options)
    elif "budget_ms" in options:
        bot.budget_ms = options["budget_ms"]  # this decision's (the table's time until the move is due)
        while len(_HELD) > 256:
            _HELD.popitem(last=False)
    _HELD.move_to_end(key)
    rules = worker_rules(text)
    return bot.choose(rules, as_observation(rules, obs))


def lowest_play(text: str, obs: dict[str, Any]) -> Play:
    """The lowest legal play of the observing seat (the engine's choice for a leader whose time is up), listed
    in a worker (``text``: the ruleset as the workers get it, ``obs``: the seat's observation as JSON)."""
    rules = worker_rules(text)
    return legal_plays_from_observation(rules, as_observation(rules, obs))[0]


# --- in the server -----------------------------------------------------------------------------------------
@dataclass(order=True)
class _Job:
    priority: int
    order: int
    work: Callable[..., Any] = field(compare=False)
    args: tuple[Any, ...] = field(compare=False)
    future: asyncio.Future[Any] = field(compare=False)


class BotPool:
    """Runs bots' decisions: quick bots at once, the others in worker processes, people's tables first."""

    def __init__(self, workers: int = 1, budget_ms: float = 500, named: dict[str, str] | None = None):
        self.workers = workers
        self.budget_ms = budget_ms
        self.named = dict(named or {})  # the server's own bots (name -> spec), registered in every worker too
        self._pool: ProcessPoolExecutor | None = None
        self._queue: asyncio.PriorityQueue[_Job] | None = None
        self._runners: list[asyncio.Task[None]] = []
        self._order = itertools.count()
        self.decisions = 0

    @staticmethod
    def quick(name: str) -> bool:
        """Whether the bot answers in place: a quick built-in bot, or a server's own bot made from one."""
        factory = bot_registry.BOTS.get(name)
        return name in QUICK_BOTS or (isinstance(factory, NamedBot) and factory.base in QUICK_BOTS)

    async def choose(
        self,
        room_id: str,
        seat: int,
        name: str,
        seed: int,
        rules: Ruleset,
        obs: dict[str, Any],
        priority: int,
        budget_ms: float | None = None,
    ) -> Any:
        """The bot's choice for ``obs``. A bot that is not quick thinks in a worker process, within its budget
        (``budget_ms``, the table's; by default the pool's)."""
        options = bot_options(name, self.budget_ms if budget_ms is None else budget_ms)
        return await self.call(_choose, (room_id, seat, name), seed, options, rules_text(rules), obs, priority=priority)

    async def call(self, work: Callable[..., Any], *args: Any, priority: int = PEOPLE) -> Any:
        """``work(*args)`` in a worker process, in its turn among the bots' decisions: work that may take too
        long for the event loop (``work`` a module's function, its arguments and result plain data)."""
        if self._queue is None:
            self._start()
        assert self._queue is not None
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._queue.put_nowait(_Job(priority, next(self._order), work, args, future))
        try:
            return await future
        finally:
            future.cancel()  # a turn given up (the table moved on) is dropped if it has not started

    def _start(self) -> None:
        context = multiprocessing.get_context("spawn")  # a clean interpreter: no threads or locks copied
        self._pool = ProcessPoolExecutor(
            self.workers, mp_context=context, initializer=_worker_start, initargs=(os.getpid(), self.named)
        )
        self._queue = asyncio.PriorityQueue()
        loop = asyncio.get_running_loop()
        self._runners = [loop.create_task(self._run()) for _ in range(self.workers)]

    async def _run(self) -> None:
        assert self._queue is not None
        loop = asyncio.get_running_loop()
        while True:
            job = await self._queue.get()
            if job.future.done():
                continue
            try:
                result = await loop.run_in_executor(self._pool, job.work, *job.args)
            except asyncio.CancelledError:
                raise
            except Exception as e:
                if not job.future.done():
                    job.future.set_exception(e)
            else:
                self.decisions += 1
                if not job.future.done():
                    job.future.set_result(result)

    def stop(self) -> None:
        for task in self._runners:
            task.cancel()
        self._runners = []
        self._queue = None
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)  # a decision under way is at most a budget
            self._pool = None
