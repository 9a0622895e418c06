"""Arena results: every game's record, the per-bot summary with intervals, the table, JSON and CSV files."""

from __future__ import annotations

import csv
import gzip
import json
import math
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Literal

from rich.markup import escape
from rich.table import Table

from bigtwo.arena.play import GameRecord
from bigtwo.arena.provenance import differences
from bigtwo.arena.stats import Interval, clustered_interval, wilson_interval
from bigtwo.words import plural

FORMAT = "bigtwo-arena/1"
# the file types a result is written as and read from (``.json.gz``: the JSON compressed, about a tenth the
# size, for keeping a long match's every game)
KINDS = (".json", ".json.gz", ".csv")
CSV_FIELDS = (
    "deal",
    "rotation",
    "deal_seed",
    "seat",
    "entry",
    "label",
    "points",
    "score",
    "cards_left",
    "place",
    "actions",
    "think_seconds",
    "decisions",
    "max_think_seconds",
    "max_cpu_seconds",
)


@dataclass(frozen=True)
class BotSummary:
    """One bot (a lineup label) over the whole run."""

    label: str
    seats: int  # how many seats of the lineup it takes
    games: int  # seat-games played
    deals: int
    points: Interval  # the run's utility, a game
    win_rate: Interval  # Wilson's score interval: inside [0, 1] however few the games
    mean_place: float
    ms_per_move: float
    max_ms_per_move: float

    def to_dict(self) -> dict[str, Any]:
        return {
            "label": self.label,
            "seats": self.seats,
            "games": self.games,
            "deals": self.deals,
            "points": self.points.to_dict(),
            "win_rate": self.win_rate.to_dict(),
            "mean_place": self.mean_place,
            "ms_per_move": self.ms_per_move,
            "max_ms_per_move": self.max_ms_per_move,
        }


def _unpoolable(first: ArenaResult, other: ArenaResult, first_name: str = "result 1") -> str:
    """Why ``other`` cannot be pooled with ``first`` (another lineup, scoring, rules, match length or deal mode,
    or bots that would play otherwise: their recorded settings or models differ), or ``""``."""
    a, b = first.config, other.config
    if other.labels() != first.labels() or b.get("utility") != a.get("utility"):
        return f"lineup {other.labels()} scored by {b.get('utility')!r}, not {first.labels()} by {a.get('utility')!r}"
    if b.get("rules") != a.get("rules"):
        mine, theirs = (c.get("rules") or {} for c in (b, a))
        if mine.get("name") == theirs.get("name"):
            return f"its rules are {mine.get('name')} with other settings than {first_name}'s"
        return f"its rules are {mine.get('name')}, {first_name}'s {theirs.get('name')}"
    if b.get("rounds") != a.get("rounds"):
        mine, theirs = (plural(c.get("rounds") or 1, "round") for c in (b, a))
        return f"its games last {mine}, {first_name}'s {theirs}"
    if b.get("duplicate", True) != a.get("duplicate", True):
        return "one plays duplicate deals (every seat rotation), the other independent deals"
    if a.get("provenance") and b.get("provenance"):
        changed = differences(a["provenance"], b["provenance"])
        if changed:
            return "its bots would play otherwise: " + "; ".join(changed)
    return ""


@dataclass
class ArenaResult:
    """A finished run: its settings (``config``) and every game played, in (deal, rotation) order."""

    config: dict[str, Any]
    records: list[GameRecord] = field(default_factory=list)
    decisions: list[dict[str, Any]] = field(default_factory=list, repr=False)  # per game, when recorded

    @property
    def games(self) -> int:
        return len(self.records)

    def labels(self) -> list[str]:
        return list(dict.fromkeys(s["label"] for s in self.config["lineup"]))

    def summary(self, confidence: float = 0.95) -> list[BotSummary]:
        """Per bot: mean points and win rate a game, each with its interval over deals (the independent unit)."""
        out = []
        lineup_labels = [s["label"] for s in self.config["lineup"]]
        for label in self.labels():
            points: dict[int, list[float]] = {}
            wins: dict[int, list[float]] = {}
            places = []
            think = worst = 0.0
            decisions = 0
            for r in self.records:
                for seat, lab in enumerate(r.labels):
                    if lab != label:
                        continue
                    points.setdefault(r.deal, []).append(r.points[seat])
                    wins.setdefault(r.deal, []).append(1.0 if r.winner == seat else 0.0)
                    places.append(r.finishing_order.index(seat) + 1)
                    think += r.think_seconds[seat]
                    decisions += r.decisions[seat]
                    worst = max(worst, r.max_think_seconds[seat])
            if not places:
                continue
            out.append(
                BotSummary(
                    label=label,
                    seats=lineup_labels.count(label),
                    games=len(places),
                    deals=len(points),
                    points=clustered_interval(points, confidence),
                    win_rate=wilson_interval(wins, confidence),
                    mean_place=sum(places) / len(places),
                    ms_per_move=1000 * think / decisions if decisions else 0.0,
                    max_ms_per_move=1000 * worst,
                )
            )
        return out

    def points_by_deal(self, entry: int = 0, key: Literal["deal", "deal_seed"] = "deal") -> dict[int, float]:
        """Lineup entry ``entry``'s mean points on each deal (over the games it played there): what two bots'
        results pair up on when they played the same deals. Keyed by the deal's number in this result, or with
        ``key="deal_seed"`` by its seed (its cards), which pairs deals across files pooled in any order."""
        if key not in ("deal", "deal_seed"):
            raise ValueError(f"key {key!r}: deals are keyed by 'deal' (their number) or 'deal_seed' (their cards)")
        games: dict[int, list[float]] = {}
        for r in self.records:
            if entry in r.entries:
                games.setdefault(getattr(r, key), []).append(r.points[r.entries.index(entry)])
        return {d: math.fsum(v) / len(v) for d, v in games.items()}

    @classmethod
    def pooled(cls, results: list[ArenaResult], names: list[str] | None = None) -> ArenaResult:
        """Matches of one lineup on several deal sets (other seeds) as one: the deals are numbered on from one
        set to the next, so the intervals over deals count every set's deals. A match too small to separate two
        bots can be pooled with another on new deals instead of being played again (recorded decisions are not
        carried over). ``names`` (e.g. the files read) name the results in a refusal; by default "result N"."""
        if not results:
            raise ValueError("pooling needs at least one arena result")
        if names is None:
            names = [f"result {i + 1}" for i in range(len(results))]
        elif len(names) != len(results):
            raise ValueError(f"{plural(len(names), 'name')} for {plural(len(results), 'result')}")
        first = results[0]
        records: list[GameRecord] = []
        seeds = []
        for name, result in zip(names, results, strict=True):
            why = _unpoolable(first, result, names[0])
            if why:
                raise ValueError(f"{name} cannot be pooled with {names[0]}: {why}")
            offset = 1 + max((r.deal for r in records), default=-1)
            records += [replace(r, deal=r.deal + offset) for r in result.records]
            seeds.append(result.config.get("seed"))
        config = dict(first.config, seed=seeds, games=len(records), deals=len({r.deal for r in records}))
        return cls(config, records)

    # --- display -------------------------------------------------------------------------------------
    def table(self, title: str | None = None) -> Table:
        cfg = self.config
        if title is None:
            mode = "duplicate deals" if cfg.get("duplicate", True) else "independent deals"
            deals = cfg.get("deals")
            title = (
                f"{cfg['rules']['name']}: {plural(self.games, 'game')}, {mode}, points: {cfg['utility']}, "
                f"intervals over {plural(deals, 'deal') if isinstance(deals, int) else '? deals'}"
            )
        t = Table(title=escape(title))
        t.add_column("bot", style="bold")
        t.add_column("seats", justify="right")
        t.add_column("games", justify="right")
        t.add_column(escape("points/game [95% CI]"), justify="right")
        t.add_column(escape("win rate [95% CI, Wilson]"), justify="right")
        t.add_column("place", justify="right")
        t.add_column("ms/move", justify="right")
        for s in self.summary(cfg.get("confidence", 0.95)):
            t.add_row(
                escape(s.label),
                str(s.seats),
                str(s.games),
                escape(f"{s.points.mean:+.2f} {_bounds(s.points, '{:+.2f}')}"),
                escape(f"{100 * s.win_rate.mean:.1f}% {_bounds(s.win_rate, '{:.1%}')}"),
                f"{s.mean_place:.2f}",
                f"{s.ms_per_move:.2f}",
            )
        return t

    # --- files ---------------------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "config": self.config,
            "summary": [s.to_dict() for s in self.summary(self.config.get("confidence", 0.95))],
            "games": [r.to_dict() for r in self.records],
        }

    @staticmethod
    def check_path(path: str | Path) -> Path:
        """Refuse a results file that :meth:`save` could not write (its type, its folder) before a run plays."""
        path = Path(path)
        file_kind(path)
        if not path.parent.is_dir():
            raise ValueError(f"{path}: there is no folder {path.parent}")
        return path

    def save(self, path: str | Path) -> Path:
        """Write ``.json`` (settings, summary, games), the same compressed (``.json.gz``) or ``.csv`` (a row
        per seat and game, settings on line 1)."""
        path = Path(path)
        kind = file_kind(path)
        if kind == ".json":
            path.write_text(json.dumps(self.to_dict(), indent=1, allow_nan=True), encoding="utf-8")
        elif kind == ".json.gz":
            text = json.dumps(self.to_dict(), separators=(",", ":"), allow_nan=True)
            # no name or time in the header: the same result makes the same bytes
            with path.open("wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", filename="", mtime=0) as f:
                f.write(text.encode("utf-8"))
        else:
            with path.open("w", newline="", encoding="utf-8") as f:
                f.write("# " + json.dumps({"format": FORMAT, "config": self.config}) + "\n")
                w = csv.DictWriter(f, fieldnames=CSV_FIELDS)
                w.writeheader()
                for r in self.records:
                    places = {s: i + 1 for i, s in enumerate(r.finishing_order)}
                    for seat in range(len(r.labels)):
                        w.writerow(
                            {
                                "deal": r.deal,
                                "rotation": r.rotation,
                                "deal_seed": r.deal_seed,
                                "seat": seat,
                                "entry": r.entries[seat],
                                "label": r.labels[seat],
                                "points": repr(r.points[seat]),
                                "score": r.scores[seat],
                                "cards_left": r.cards_left[seat],
                                "place": places[seat],
                                "actions": r.actions,
                                "think_seconds": repr(r.think_seconds[seat]),
                                "decisions": r.decisions[seat],
                                "max_think_seconds": repr(r.max_think_seconds[seat]),
                                "max_cpu_seconds": repr(r.max_cpu_seconds[seat]) if r.max_cpu_seconds else "",
                            }
                        )
        return path

    @classmethod
    def load(cls, path: str | Path) -> ArenaResult:
        """Read a file written by :meth:`save` (JSON, compressed JSON or CSV) back into the same result."""
        path = Path(path)
        kind = file_kind(path, "read from")
        if kind == ".csv":
            with path.open(newline="", encoding="utf-8") as f:
                first = f.readline()
                if not first.startswith("# "):
                    raise ValueError(f"{path}: not an arena CSV (its first line must hold the run's settings)")
                head = json.loads(first[2:])
                _check_format(head, path)
                rows = list(csv.DictReader(f))
            return cls(head["config"], _records_from_rows(rows))
        if kind == ".json.gz":
            try:
                text = gzip.decompress(path.read_bytes()).decode("utf-8")
            except (OSError, EOFError) as e:
                raise ValueError(f"{path}: not a gzip-compressed file ({e})") from None
        else:
            text = path.read_text(encoding="utf-8")
        data = json.loads(text)
        _check_format(data, path)
        return cls(data["config"], [GameRecord.from_dict(g) for g in data["games"]])


def file_kind(path: Path, verb: str = "written as") -> str:
    """Which of :data:`KINDS` ``path`` names (by its ending, in any case); refused in words otherwise."""
    name = path.name.lower()
    for kind in KINDS:  # none ends another, so the first that matches is the one
        if name.endswith(kind):
            return kind
    # the ending as a reader names it: two parts for a compressed file (".tar.gz"), else the last
    ending = ("".join(path.suffixes[-2:]) if path.suffix.lower() == ".gz" else path.suffix) or "no extension"
    raise ValueError(f"{path}: results are {verb} .json, .json.gz or .csv files, not {ending!r}")


def _check_format(data: dict[str, Any], path: Path) -> None:
    if data.get("format") != FORMAT:
        raise ValueError(f"{path}: format {data.get('format')!r} is not {FORMAT!r}")


def _records_from_rows(rows: list[dict[str, str]]) -> list[GameRecord]:
    games: dict[tuple[int, int], list[dict[str, str]]] = {}
    for row in rows:
        games.setdefault((int(row["deal"]), int(row["rotation"])), []).append(row)
    out = []
    for (deal, rotation), seats in games.items():
        seats.sort(key=lambda r: int(r["seat"]))
        order = [int(r["seat"]) for r in sorted(seats, key=lambda r: int(r["place"]))]
        out.append(
            GameRecord(
                deal=deal,
                rotation=rotation,
                deal_seed=int(seats[0]["deal_seed"]),
                entries=[int(r["entry"]) for r in seats],
                labels=[r["label"] for r in seats],
                points=[float(r["points"]) for r in seats],
                scores=[int(r["score"]) for r in seats],
                cards_left=[int(r["cards_left"]) for r in seats],
                finishing_order=order,
                actions=int(seats[0]["actions"]),
                think_seconds=[float(r["think_seconds"]) for r in seats],
                decisions=[int(r["decisions"]) for r in seats],
                max_think_seconds=[float(r["max_think_seconds"]) for r in seats],
                max_cpu_seconds=[float(r["max_cpu_seconds"]) for r in seats] if seats[0].get("max_cpu_seconds") else [],
            )
        )
    return out


def _bounds(iv: Interval, fmt: str) -> str:
    if math.isnan(iv.low):
        return "[n/a]"
    return f"[{fmt.format(iv.low)}, {fmt.format(iv.high)}]"
