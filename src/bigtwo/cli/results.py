"""``bigtwo results``: saved arena results read back, pooled over deal sets and compared deal by deal.

A match too small to separate two bots is grown by playing more deal sets (other seeds) and pooling them, and
two bots that played the same deals against the same opponents are best compared deal by deal: this command
does both from the files ``bigtwo simulate --out`` and ``benchmarks/strength.py --out`` write, without playing.
"""

from __future__ import annotations

import json
import math
from collections import Counter
from pathlib import Path

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from bigtwo.arena.compare import Comparison, compare
from bigtwo.arena.results import ArenaResult
from bigtwo.arena.stats import Interval
from bigtwo.words import plural


def read_pool(files: list[Path], which: str = "") -> ArenaResult:
    """The results in ``files`` as one (pooled over their deal sets); a file that is missing, not a result, or
    not poolable with the first is refused in words that name it."""
    if not files:
        raise ValueError(f"no results file given{which}")
    results = []
    for path in files:
        if not path.is_file():
            raise ValueError(
                f"{path}: no such file (a results .json, .json.gz or .csv that bigtwo simulate --out wrote)"
            )
        try:
            results.append(ArenaResult.load(path))
        except (KeyError, TypeError, json.JSONDecodeError) as e:
            raise ValueError(f"{path}: not an arena results file ({type(e).__name__}: {e})") from None
    return ArenaResult.pooled(results, [str(p) for p in files])


def _interval(iv: Interval) -> str:
    if math.isnan(iv.low):
        return f"{iv.mean:+.2f} [n/a: one deal]"
    return f"{iv.mean:+.2f} [{iv.low:+.2f}, {iv.high:+.2f}]"


def comparison_table(c: Comparison, utility: str) -> Table:
    """The two bots' points on the deals both played, and the gain deal by deal."""
    opponents = ", ".join(f"{n} {name}" for name, n in Counter(c.opponents).items())
    t = Table(title=escape(f"against {opponents}: {plural(c.deals, 'deal')} in common, points: {utility}"))
    t.add_column("bot", style="bold")
    t.add_column(escape("points a game [95% CI]"), justify="right")
    t.add_row(escape(c.bot), escape(_interval(c.bot_points)))
    t.add_row(escape(c.other), escape(_interval(c.other_points)))
    gain = f"{c.bot} less {c.other}" if c.bot != c.other else "the first less the second"
    t.add_row(escape(f"{gain}, deal by deal"), escape(_interval(c.gain)), style="bold")
    return t


def show_results(
    files: list[Path],
    against: list[Path] | None = None,
    entry: int | None = None,
    out: Path | None = None,
    as_json: bool = False,
    console: Console | None = None,
) -> ArenaResult | Comparison:
    """Pool ``files`` and print their table (writing the pool to ``out``), or with ``against``, compare the two
    pools' bots deal by deal and print that."""
    console = console or Console(highlight=False, emoji=False)
    if out is not None:
        ArenaResult.check_path(out)
    try:
        pool = read_pool(files)
    except ValueError as e:
        if against and len(against) == 1 and len(files) > 1:
            # --against takes one file: the rest of a second set, written after it, were read as the first's
            raise ValueError(f"{e} (each file of the second set takes its own --against)") from None
        raise
    if not against:
        if out is not None:
            pool.save(out)
        if as_json:
            console.print_json(json.dumps(pool.to_dict()["summary"]))
        else:
            console.print(pool.table())
            if out is not None:
                console.print(f"pooled results: {escape(str(out))}")
        return pool
    if out is not None:
        raise ValueError("--out writes a pool of one lineup; with --against there are two")
    other = read_pool(against, " after --against")
    c = compare(pool, other, entry)
    if as_json:
        console.print_json(json.dumps(c.to_dict()))
        return c
    console.print(comparison_table(c, str(pool.config.get("utility"))))
    left = [
        f"{plural(n, 'deal')} only in the {side} results"
        for n, side in ((c.only_bot, "first"), (c.only_other, "second"))
        if n
    ]
    if left:
        console.print(escape(f"Left out: {' and '.join(left)}."))
    for note in c.notes:
        console.print(escape(f"Note: the opponents may have played otherwise: {note}."))
    if not math.isnan(c.gain.low):
        verdict = (
            f"{c.bot} is ahead"
            if c.gain.low > 0
            else f"{c.other} is ahead"
            if c.gain.high < 0
            else "not separated: the interval holds zero"
        )
        console.print(escape(f"Deal by deal: {verdict}."))
    return c


__all__ = ["comparison_table", "read_pool", "show_results"]
