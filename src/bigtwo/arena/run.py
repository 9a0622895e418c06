"""Running a tournament: split the deals into chunks and play them here, in local processes, or on Ray.

Every game is fixed by the run's seed, its deal number and its rotation (the deal, the seating and every
bot's seed), never by where or in which order it runs: a run gives the same records serially, across local
processes and on a Ray cluster.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import Any

from bigtwo.arena.play import play_game
from bigtwo.arena.provenance import provenance
from bigtwo.arena.results import ArenaResult
from bigtwo.bots.spec import BotSpec, parse_lineup
from bigtwo.errors import BigTwoError
from bigtwo.rules.ruleset import Ruleset, load_rules
from bigtwo.utilities import UTILITIES
from bigtwo.words import plural

Progress = Callable[[int, int], None]  # (games done, games in all)

_RULES_CACHE: dict[str, Ruleset] = {}


def _rules_from(data: dict[str, Any]) -> Ruleset:
    import json

    key = json.dumps(data, sort_keys=True)
    got = _RULES_CACHE.get(key)
    if got is None:
        got = Ruleset.from_dict(data, source="arena rules")
        _RULES_CACHE[key] = got
    return got


def play_chunk(job: dict[str, Any]) -> list[dict[str, Any]]:
    """Play deals ``[start, stop)`` of a run (every rotation of each, or one per deal); records as dicts.

    A plain function of plain data, so local processes and Ray workers can run it alike.
    """
    rules = _rules_from(job["rules"])
    lineup = [BotSpec.from_dict(d) for d in job["lineup"]]
    n = len(lineup)
    recorder = None
    if job.get("record_decisions"):
        from bigtwo.arena.decisions import DecisionRecorder

        recorder = DecisionRecorder(rules, n)
    out = []
    for deal in range(job["start"], job["stop"]):
        rotations = range(n) if job["duplicate"] else [deal % n]
        for rot in rotations:
            rec = play_game(
                rules, lineup, deal, rot, seed=job["seed"], utility=job["utility"], rounds=job["rounds"],
                recorder=recorder,
            )  # fmt: skip
            d = rec.to_dict()
            if recorder is not None:
                d["recorded"] = recorder.last  # numpy arrays: they cross to the parent as they are
            out.append(d)
    return out


def run_arena(
    rules: Ruleset | str,
    lineup: str | Sequence[str | BotSpec],
    games: int,
    *,
    seed: int = 0,
    utility: str = "score",
    duplicate: bool = True,
    workers: int | None = None,
    ray: str | None = None,
    chunk: int | None = None,
    progress: Progress | None = None,
    confidence: float = 0.95,
    rounds: int = 1,
    record_decisions: bool = False,
) -> ArenaResult:
    """Play ``games`` games of ``lineup`` (one bot spec per seat) and collect the records.

    With ``duplicate`` (the default) each deal is played once per seat rotation, so ``games`` is rounded up
    to a whole number of deals. ``workers``: local processes (default: every CPU; 1 plays here). ``ray``:
    a Ray address, ``"auto"`` (a running cluster) or ``"local"`` (start one here); if Ray is already
    initialised in this process, that instance is used. ``record_decisions``: keep every play decision as
    arrays (``result.decisions``, one entry a game; :mod:`bigtwo.arena.decisions` writes them to a file).
    """
    rules = load_rules(rules)
    specs = parse_lineup(lineup)
    if rules.horse_game and len(specs) == rules.horse_game:
        # the Horse Game: one bot a person, playing that person's alternate hands of the six
        specs = [specs[rules.owner(s)] for s in range(6)]
    n = len(specs)
    if not rules.min_players <= n <= rules.max_players:
        raise BigTwoError(
            f"a lineup of {plural(n, 'bot')}: {rules.name!r} is for {rules.min_players}-{rules.max_players} players"
        )
    if utility not in UTILITIES:
        raise ValueError(f"utility {utility!r} is not one of {', '.join(UTILITIES)}")
    if games < 1:
        raise ValueError(f"games must be at least 1, not {games}")
    if rounds < 1:
        raise ValueError(f"rounds must be at least 1, not {rounds}")
    deals = math.ceil(games / n) if duplicate else games
    per_deal = n if duplicate else 1
    total = deals * per_deal
    workers = workers or os.cpu_count() or 1
    if chunk is None:
        # small enough for a live progress bar and balanced workers, large enough to amortise the overhead
        chunk = max(1, min(50, deals // (max(workers, 1) * 8) or 1))
    base = {
        "rules": rules.model_dump(mode="json"),
        "lineup": [s.to_dict() for s in specs],
        "seed": seed,
        "utility": utility,
        "duplicate": duplicate,
        "rounds": rounds,
        "record_decisions": record_decisions,
    }
    jobs = [{**base, "start": a, "stop": min(a + chunk, deals)} for a in range(0, deals, chunk)]
    config = {
        "rules": {"name": rules.name, "settings": rules.model_dump(mode="json")},
        "lineup": base["lineup"],
        "games": total,
        "deals": deals,
        "seed": seed,
        "utility": utility,
        "duplicate": duplicate,
        "confidence": confidence,
        "rounds": rounds,
        "provenance": provenance(specs, (rules.name, n)),
    }
    done = 0
    dicts: list[dict[str, Any]] = []

    def collect(records: list[dict[str, Any]]) -> None:
        nonlocal done
        dicts.extend(records)
        done += len(records)
        if progress is not None:
            progress(done, total)

    if progress is not None:
        progress(0, total)
    if ray is not None:
        _run_ray(jobs, ray, collect)
    elif workers <= 1 or len(jobs) == 1:
        for job in jobs:
            collect(play_chunk(job))
    else:
        with ProcessPoolExecutor(max_workers=min(workers, len(jobs))) as pool:
            futures = [pool.submit(play_chunk, job) for job in jobs]
            for fut in as_completed(futures):
                collect(fut.result())
    from bigtwo.arena.play import GameRecord

    dicts.sort(key=lambda d: (d["deal"], d["rotation"]))
    decisions = [d.pop("recorded") for d in dicts] if record_decisions else []
    records = [GameRecord.from_dict(d) for d in dicts]
    return ArenaResult(config, records, decisions)


def _run_ray(jobs: list[dict[str, Any]], address: str, collect: Callable[[list[dict[str, Any]]], None]) -> None:
    try:
        import ray
    except ImportError:
        raise BigTwoError("--ray needs Ray: pip install 'bigtwo[cluster]'") from None
    started = False
    if not ray.is_initialized():
        if address == "local":
            ray.init(include_dashboard=False)
        else:
            import bigtwo

            # ship this package to the cluster's workers, so every node plays the same code
            pkg = os.path.dirname(bigtwo.__file__)
            ray.init(address=address, runtime_env={"py_modules": [pkg]})
        started = True
    try:
        remote = ray.remote(num_cpus=1)(play_chunk)
        pending = [remote.remote(job) for job in jobs]
        while pending:
            ready, pending = ray.wait(pending, num_returns=1)
            for ref in ready:
                collect(ray.get(ref))
    finally:
        if started:
            ray.shutdown()
