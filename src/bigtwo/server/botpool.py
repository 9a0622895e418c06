"""Where bots think: quick bots on the event loop, the others in worker processes at low priority.

A bot that searches (``search``) thinks for hundreds of milliseconds a move; on the event loop, or in a thread
holding the interpreter's lock, that time is taken from every other table. Here such bots run in a pool of
worker processes (``bot_workers``, at the lowest CPU priority the system grants), each decision within a
thinking budget (``bot_budget_ms``, given to bots that take one), and the decisions of tables where people sit
go before those of tables of bots alone, and the tables take turns (one table's many jobs never starve another's
bots). Every job has a deadline (``bot_job_seconds``): a job past it has its worker stopped and replaced, so a
question that turns out to be too long cannot hold the pool. Quick bots (a fraction of a millisecond a move,
measured) answer in place: sending them to another process would cost more than their thinking.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import inspect
import json
import logging
import multiprocessing
import os
import threading
import time
from collections import OrderedDict, deque
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
def _ready() -> bool:
    """A worker's first job: it has started (spawned, imported the engine), so later jobs' clocks count their
    work alone."""
    return True


class JobTimeout(Exception):
    """A job ran past its deadline: its worker was stopped and replaced."""


@dataclass
class _Job:
    table: str
    work: Callable[..., Any]
    args: tuple[Any, ...]
    future: asyncio.Future[Any]
    seconds: float


@dataclass
class _Queue:
    """Jobs waiting, fair among tables: people's tables first, then, within a priority, one job of each table in
    turn (a table that sends a hundred jobs waits behind every other table's next one, not in front of them)."""

    tables: dict[int, OrderedDict[str, deque[_Job]]] = field(default_factory=dict)
    ready: asyncio.Event = field(default_factory=asyncio.Event)

    def put(self, priority: int, job: _Job) -> None:
        self.tables.setdefault(priority, OrderedDict()).setdefault(job.table, deque()).append(job)
        self.ready.set()

    def take(self) -> _Job | None:
        for priority in sorted(self.tables):
            waiting = self.tables[priority]
            while waiting:
                table, jobs = next(iter(waiting.items()))
                job = jobs.popleft()
                if jobs:
                    waiting.move_to_end(table)  # its next job waits for the other tables' turns
                else:
                    del waiting[table]
                if not job.future.done():  # a turn given up before it started is dropped
                    return job
        return None

    async def get(self) -> _Job:
        while True:
            job = self.take()
            if job is not None:
                return job
            self.ready.clear()
            await self.ready.wait()


class BotPool:
    """Runs bots' decisions: quick bots at once, the others in worker processes, people's tables first and the
    tables in turn; every job within a deadline, past which its worker is stopped and replaced."""

    def __init__(
        self,
        workers: int = 1,
        budget_ms: float = 500,
        named: dict[str, str] | None = None,
        job_seconds: float = 10.0,
    ):
        self.workers = workers
        self.budget_ms = budget_ms
        self.job_seconds = job_seconds  # the longest one job may hold a worker
        self.named = dict(named or {})  # the server's own bots (name -> spec), registered in every worker too
        self._queue: _Queue | None = None
        self._runners: list[asyncio.Task[None]] = []
        self._pools: list[ProcessPoolExecutor] = []
        self.decisions = 0
        self.replaced = 0  # workers stopped for running past a deadline

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
        return await self.call(
            _choose, (room_id, seat, name), seed, options, rules_text(rules), obs, priority=priority, table=room_id
        )

    async def call(
        self,
        work: Callable[..., Any],
        *args: Any,
        priority: int = PEOPLE,
        table: str = "",
        seconds: float | None = None,
    ) -> Any:
        """``work(*args)`` in a worker process, in its turn among the bots' decisions: work that may take too
        long for the event loop (``work`` a module's function, its arguments and result plain data). ``table``
        names whose work it is (the tables take turns); past ``seconds`` (by default the pool's deadline) it
        raises :class:`JobTimeout`, and the worker that ran it is replaced."""
        if self._queue is None:
            self._start()
        assert self._queue is not None
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._queue.put(priority, _Job(table, work, args, future, self.job_seconds if seconds is None else seconds))
        try:
            return await future
        finally:
            future.cancel()  # a turn given up (the table moved on) is dropped if it has not started

    def _new_pool(self) -> ProcessPoolExecutor:
        context = multiprocessing.get_context("spawn")  # a clean interpreter: no threads or locks copied
        return ProcessPoolExecutor(1, mp_context=context, initializer=_worker_start, initargs=(os.getpid(), self.named))

    def _start(self) -> None:
        self._queue = _Queue()
        loop = asyncio.get_running_loop()
        self._pools = [self._new_pool() for _ in range(self.workers)]
        self._runners = [loop.create_task(self._run(i)) for i in range(self.workers)]

    def _replace(self, slot: int) -> None:
        """Stop a worker that ran past its deadline (its job is abandoned) and start another in its place."""
        old = self._pools[slot]
        for process in list(getattr(old, "_processes", {}).values()):
            with contextlib.suppress(Exception):
                process.kill()
        old.shutdown(wait=False, cancel_futures=True)
        self._pools[slot] = self._new_pool()
        self.replaced += 1

    async def _run(self, slot: int) -> None:
        assert self._queue is not None
        loop = asyncio.get_running_loop()
        started = False
        while True:
            if not started:  # a fresh worker starts before its first job's clock runs
                with contextlib.suppress(Exception):
                    await loop.run_in_executor(self._pools[slot], _ready)
                started = True
            job = await self._queue.get()
            running = loop.run_in_executor(self._pools[slot], job.work, *job.args)
            try:
                result = await asyncio.wait_for(asyncio.shield(running), job.seconds)
            except asyncio.CancelledError:
                raise
            except TimeoutError:
                log.warning("a job for table %s ran past %g s: its worker is replaced", job.table or "?", job.seconds)
                running.cancel()
                self._replace(slot)
                started = False
                if not job.future.done():
                    job.future.set_exception(JobTimeout(f"the work took longer than {job.seconds:g} s"))
            except Exception as e:
                if not job.future.done():
                    job.future.set_exception(e)
            else:
                self.decisions += 1
                if not job.future.done():
                    job.future.set_result(result)

    @property
    def queued(self) -> int:
        """Jobs waiting for a worker (the operator's metrics)."""
        q = self._queue
        return 0 if q is None else sum(len(jobs) for waiting in q.tables.values() for jobs in waiting.values())

    def stop(self) -> None:
        for task in self._runners:
            task.cancel()
        self._runners = []
        self._queue = None
        for pool in self._pools:
            pool.shutdown(wait=True, cancel_futures=True)  # a decision under way is at most a deadline
        self._pools = []
