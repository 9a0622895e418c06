"""The standard evaluation: any bot against a fixed reference field on a fixed, versioned set of duplicate deals.

What is fixed (the protocol, :data:`PROTOCOL`), so that two results are comparable whoever ran them and wherever:

- the table: ``classic`` with four players, one point a card left (the arena's ``cards`` utility);
- the deals: a :class:`DealSet`, named by a version (``v1``: 10,000 deals of seed 1515). Deal ``i`` is the arena's
  deal ``i`` of that seed (:func:`bigtwo.arena.play.deal_seed`), each played once per seat rotation, so the bot
  holds every hand of every deal once. A run of fewer deals plays the first ones. The set carries the hash of
  its first deals as this engine dealt them when the set was fixed: if the engine ever deals them differently
  the benchmark refuses to run under that version, rather than report numbers that are not comparable;
- the field (:data:`FIELD`, versioned as :data:`FIELD_VERSION`): for each opponent set, three copies of one
  reference bot with fixed options (the search with a fixed number of sampled deals, not a time limit, so the
  field plays the same moves on any machine). The bots' seeds come from the deal set's seed, deal and seat;
- the statistics: per opponent set, the mean points a game with Student's t interval over per-deal means, the
  win rate with Wilson's score interval (the arena's own, :mod:`bigtwo.arena.stats`), both at 95%.

A result is cited with the protocol, the deal set (version, seed, deals played), the field version, the
package version and the learned bot's weights hash, all of which the JSON holds (:meth:`Leaderboard.citation`).
"""

from __future__ import annotations

import hashlib
import itertools
import json
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from bigtwo.arena.play import deal_seed
from bigtwo.arena.provenance import bot_settings, changed_keys
from bigtwo.arena.results import ArenaResult
from bigtwo.arena.run import run_arena
from bigtwo.arena.stats import Interval, mean_interval
from bigtwo.bots.spec import BotSpec
from bigtwo.errors import BigTwoError
from bigtwo.game import Game
from bigtwo.rules.ruleset import load_rules

PROTOCOL = "bigtwo-benchmark/1"
RULES = "classic"
PLAYERS = 4
UTILITY = "cards"
CONFIDENCE = 0.95
FINGERPRINT_DEALS = 100

FIELD_VERSION = "field/1"
FIELD: dict[str, str] = {
    "random": "random",
    "greedy": "greedy",
    "heuristic": "heuristic",
    "search": "search(iterations=10, utility='cards')",
    "learned": "learned",
}
"""The reference field: an opponent set is three copies of one of these bots (name -> bot spec)."""


@dataclass(frozen=True)
class DealSet:
    """A fixed list of deals: the arena's deals ``0 .. deals - 1`` of ``seed`` at ``rules`` with ``players``."""

    version: str
    seed: int
    deals: int
    rules: str = RULES
    players: int = PLAYERS
    fingerprint: str | None = None  # of the first FINGERPRINT_DEALS deals when the set was fixed (None: custom)

    def to_dict(self) -> dict[str, Any]:
        return {
            "version": self.version,
            "seed": self.seed,
            "deals": self.deals,
            "rules": self.rules,
            "players": self.players,
            "rotations": self.players,
            "fingerprint": self.fingerprint,
        }


DEAL_SETS: dict[str, DealSet] = {
    "v1": DealSet(
        "v1", seed=1515, deals=10_000, fingerprint="4f40d051604a781f9581d0cdd5c7329e19f610bc492f8708bd8643a442a4f363"
    ),
}
DEFAULT_DEAL_SET = "v1"


def deal_fingerprint(seed: int, rules: str = RULES, players: int = PLAYERS, deals: int = FINGERPRINT_DEALS) -> str:
    """SHA-256 of the hands of the first ``deals`` deals of ``seed`` as this engine deals them."""
    r = load_rules(rules)
    h = hashlib.sha256()
    for i in range(deals):
        game = Game(r, players=players, seed=deal_seed(seed, i))
        h.update(json.dumps([game.hand(s).mask for s in range(players)]).encode())
        h.update(str(game.to_move).encode())
    return h.hexdigest()


def deal_set(version: str = DEFAULT_DEAL_SET, seed: int | None = None) -> DealSet:
    """The deal set of ``version``, checked against its fingerprint; ``seed`` instead: a custom set of that seed."""
    if seed is not None:
        return DealSet("custom", seed=seed, deals=DEAL_SETS[DEFAULT_DEAL_SET].deals)
    try:
        ds = DEAL_SETS[version]
    except KeyError:
        raise BigTwoError(f"no deal set {version!r}; deal sets: {', '.join(DEAL_SETS)}") from None
    got = deal_fingerprint(ds.seed, ds.rules, ds.players)
    if got != ds.fingerprint:
        raise BigTwoError(
            f"deal set {version}: this engine deals its first {FINGERPRINT_DEALS} deals differently from when the "
            "set was fixed, so results would not be comparable with those published under it"
        )
    return ds


def _file_hash(path: Any) -> str:
    h = hashlib.sha256()
    with path.open("rb") as f:
        h.update(f.read())
    return h.hexdigest()[:16]


def field_description(opponents: Sequence[str]) -> dict[str, Any]:
    """The field as played: its version, each opponent set's bot spec, the package version and the hash of the
    learned bot's shipped weights (the one reference bot whose play is data, not code)."""
    import bigtwo

    out: dict[str, Any] = {
        "version": FIELD_VERSION,
        "opponents": {name: FIELD[name] for name in opponents},
        "bigtwo": bigtwo.__version__,
        # every setting of each opponent set's bot, defaults included: a default changed under the same spec
        # (as the heuristic's contesting of the lead once did) makes another field
        "settings": {name: bot_settings(BotSpec.parse(FIELD[name]))["settings"] for name in opponents},
    }
    if "learned" in opponents:
        from bigtwo.bots.learned import shipped_weights

        name = shipped_weights().get((RULES, PLAYERS))
        if name is not None:
            out["learned_weights"] = _file_hash(resources.files("bigtwo.bots") / "weights" / name)
    return out


def check_opponents(names: Sequence[str] | None) -> list[str]:
    """The opponent sets to play (default: the whole field, in its order); an unknown one is refused."""
    if names is None:
        return list(FIELD)
    out: list[str] = []
    for n in names:
        if n not in FIELD:
            raise BigTwoError(f"no opponent set {n!r} in the field; opponent sets: {', '.join(FIELD)}")
        if n not in out:
            out.append(n)
    if not out:
        raise BigTwoError(f"no opponent sets named; opponent sets: {', '.join(FIELD)}")
    return out


@dataclass(frozen=True)
class SetResult:
    """One bot against one opponent set."""

    points: Interval
    win_rate: Interval
    mean_place: float
    games: int
    deals: int
    ms_per_move: float
    max_ms_per_move: float
    per_deal: dict[int, float] = field(repr=False, default_factory=dict)  # the bot's mean points by deal

    def to_dict(self) -> dict[str, Any]:
        return {
            "points": self.points.to_dict(),
            "win_rate": self.win_rate.to_dict(),
            "mean_place": self.mean_place,
            "games": self.games,
            "deals": self.deals,
            # the bot's mean points on each deal, deal 0 first: what pairs two bots' results deal by deal
            "per_deal": [self.per_deal[d] for d in sorted(self.per_deal)],
        }


def _interval_from(d: dict[str, Any]) -> Interval:
    return Interval(d["mean"], d["low"], d["high"], d["n"], d["sd"], d.get("confidence", CONFIDENCE))


@dataclass
class Entry:
    """One benchmarked bot: its spec, its result against each opponent set and over the sets it played."""

    label: str
    spec: dict[str, Any]
    sets: dict[str, dict[str, Any]]
    overall: dict[str, Any] | None
    timing: dict[str, dict[str, float]]

    def to_dict(self) -> dict[str, Any]:
        return {"bot": self.label, "spec": self.spec, "overall": self.overall, "sets": self.sets, "timing": self.timing}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Entry:
        return cls(d["bot"], d["spec"], d["sets"], d.get("overall"), d.get("timing", {}))

    def points(self, opponent: str) -> Interval | None:
        s = self.sets.get(opponent)
        return _interval_from(s["points"]) if s else None

    def win_rate(self, opponent: str) -> Interval | None:
        s = self.sets.get(opponent)
        return _interval_from(s["win_rate"]) if s else None

    def per_deal(self, opponent: str) -> list[float] | None:
        """The bot's mean points on each deal against ``opponent``, deal 0 first (None: not played, or a board
        written before boards kept them)."""
        s = self.sets.get(opponent)
        return s.get("per_deal") if s else None


@dataclass
class Leaderboard:
    """Entries measured under one protocol: one deal set, one field. JSON, Markdown and a PNG."""

    protocol: dict[str, Any]
    entries: list[Entry] = field(default_factory=list)

    @property
    def opponents(self) -> list[str]:
        return list(self.protocol["field"]["opponents"])

    def ranked(self) -> list[Entry]:
        """Best first: by the mean over the opponent sets (bots that played every set first)."""

        def key(e: Entry) -> tuple[int, float]:
            complete = all(o in e.sets for o in self.opponents)
            return (0 if complete else 1, -(e.overall["mean"] if e.overall else -math.inf))

        return sorted(self.entries, key=key)

    def add(self, entry: Entry) -> None:
        """Add an entry; an entry of the same bot is replaced (its sets merged, the new ones winning)."""
        for i, e in enumerate(self.entries):
            if e.label == entry.label:
                if e.spec != entry.spec:
                    raise BigTwoError(
                        f"the leaderboard already has a bot labelled {entry.label!r} with another spec "
                        f"({e.spec}); give this one another label"
                    )
                self.entries[i] = entry
                return
        self.entries.append(entry)

    def protocol_difference(self, protocol: dict[str, Any]) -> str:
        """How a board measured under ``protocol`` would differ from this one ("" where it can be merged), so a
        run can be refused before its first game."""
        return _protocol_difference(self.protocol, protocol)

    def merge(self, other: Leaderboard) -> None:
        """Take the other board's entries: only a board measured under the same protocol can be merged."""
        diff = self.protocol_difference(other.protocol)
        if diff:
            raise BigTwoError(f"the leaderboards were measured differently ({diff}): they cannot be merged")
        mine, theirs = self.protocol["field"], other.protocol["field"]
        both = {**mine["opponents"], **theirs["opponents"]}
        mine["opponents"] = {name: both[name] for name in [*FIELD, *both] if name in both}
        settings = {**mine.get("settings", {}), **theirs.get("settings", {})}
        if settings:
            mine["settings"] = {name: settings[name] for name in mine["opponents"] if name in settings}
        if "learned_weights" in theirs:
            mine["learned_weights"] = theirs["learned_weights"]
        for e in other.entries:
            self.add(e)

    def citation(self, entry: Entry | None = None) -> str:
        p = self.protocol
        ds, fd = p["deal_set"], p["field"]
        text = (
            f"{p['format']}, {p['rules']} with {p['players']} players, {p['utility']} points, deal set "
            f"{ds['version']} (seed {ds['seed']}, first {ds['deals_played']:,} of {ds['deals']:,} deals, every seat "
            f"rotation), {fd['version']}, bigtwo {fd['bigtwo']}"
        )
        if "learned_weights" in fd:
            text += f", learned weights {fd['learned_weights']}"
        if entry is not None and entry.overall:
            o = entry.overall
            text = f"{entry.label}: {o['mean']:+.2f} [{o['low']:+.2f}, {o['high']:+.2f}] a game over the field; " + text
        return text

    def difference(self, a: str, b: str, opponent: str | None = None) -> Interval | None:
        """Bot ``a``'s points a game minus bot ``b``'s, deal by deal, against one opponent set or (None) over
        the sets both played: a paired t interval over the deals.

        Both bots held the same hands against the same opponents (the field's seeds are the deal's and the
        seat's), so what luck the deal brings both cancels in its difference. This interval, not whether the
        two bots' own intervals overlap, is the test of their order. None when either bot lacks the per-deal
        results (a board from before they were kept)."""
        ea, eb = self.entry(a), self.entry(b)
        names = [opponent] if opponent is not None else [o for o in self.opponents if o in ea.sets and o in eb.sets]
        rows = []
        for name in names:
            pa, pb = ea.per_deal(name), eb.per_deal(name)
            if pa is None or pb is None:
                return None
            rows.append([x - y for x, y in zip(pa, pb, strict=True)])
        if not rows:
            return None
        return mean_interval([math.fsum(col) / len(rows) for col in zip(*rows, strict=True)], CONFIDENCE)

    def entry(self, label: str) -> Entry:
        for e in self.entries:
            if e.label == label:
                return e
        raise BigTwoError(f"no bot {label!r} on the leaderboard; its bots: {', '.join(e.label for e in self.entries)}")

    # --- files ---------------------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        return {"format": PROTOCOL, "protocol": self.protocol, "entries": [e.to_dict() for e in self.ranked()]}

    @classmethod
    def from_dict(cls, data: dict[str, Any], source: str = "leaderboard") -> Leaderboard:
        if data.get("format") != PROTOCOL:
            raise BigTwoError(f"{source}: format {data.get('format')!r} is not {PROTOCOL!r}")
        return cls(data["protocol"], [Entry.from_dict(e) for e in data.get("entries", [])])

    @classmethod
    def load(cls, path: str | Path) -> Leaderboard:
        path = Path(path)
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as e:
            raise BigTwoError(f"{path}: not a leaderboard file ({e})") from None
        return cls.from_dict(data, str(path))

    def save_json(self, path: str | Path) -> Path:
        path = Path(path)
        path.write_text(json.dumps(self.to_dict(), indent=1, allow_nan=True) + "\n", encoding="utf-8")
        return path

    def markdown(self) -> str:
        """Two tables (points a game, win rate; 95% intervals) with the protocol above them."""
        opp = self.opponents
        rows = self.ranked()
        lines = [
            f"**{self.citation()}**",
            "",
            f"Points a game (one point a card left) [95% CI over deals], against three copies of each reference bot "
            f"({', '.join(f'{k}: `{v}`' for k, v in self.protocol['field']['opponents'].items())}):",
            "",
            "| bot | over the field | " + " | ".join(f"vs {o}" for o in opp) + " | ms a move (slowest) |",
            "| --- | --- | " + " | ".join("---" for _ in opp) + " | --- |",
        ]
        for e in rows:
            cells = [_cell(e.overall, "{:+.2f}") if e.overall else "-"]
            for o in opp:
                cells.append(_cell(e.sets[o]["points"], "{:+.2f}") if o in e.sets else "-")
            timing = list(e.timing.values())
            ms = "-"
            if timing:
                mean_ms = sum(t["ms_per_move"] for t in timing) / len(timing)
                slowest = max(t["max_ms_per_move"] for t in timing)
                ms = f"{mean_ms:.2f} ({slowest:.0f})" if slowest >= 10 else f"{mean_ms:.2f} ({slowest:.1f})"
            lines.append(f"| `{e.label}` | " + " | ".join(cells) + f" | {ms} |")
        lines += [
            "",
            "Win rate [95% CI, Wilson]:",
            "",
            "| bot | " + " | ".join(f"vs {o}" for o in opp) + " |",
            "| --- | " + " | ".join("---" for _ in opp) + " |",
        ]
        for e in rows:
            cells = [_cell(e.sets[o]["win_rate"], "{:.1%}") if o in e.sets else "-" for o in opp]
            lines.append(f"| `{e.label}` | " + " | ".join(cells) + " |")
        pairs: list[tuple[Entry, Entry, Interval]] = []
        for a, b in itertools.pairwise(rows):
            over = self.difference(a.label, b.label)
            if over is not None:
                pairs.append((a, b, over))
        if pairs:
            lines += [
                "",
                "Each bot minus the one ranked below it, deal by deal (points a game [95% CI over deals]; an "
                "interval above zero: the order is not luck):",
                "",
                "| bots | over the field | " + " | ".join(f"vs {o}" for o in opp) + " |",
                "| --- | --- | " + " | ".join("---" for _ in opp) + " |",
            ]
            for a, b, over in pairs:
                cells = [_cell(over.to_dict(), "{:+.2f}")]
                for o in opp:
                    both = o in a.sets and o in b.sets
                    cells.append(_cell(_or_none(self.difference(a.label, b.label, o)), "{:+.2f}") if both else "-")
                lines.append(f"| `{a.label}` - `{b.label}` | " + " | ".join(cells) + " |")
        return "\n".join(lines) + "\n"

    def save_markdown(self, path: str | Path) -> Path:
        path = Path(path)
        path.write_text(self.markdown(), encoding="utf-8")
        return path

    def plot(self, path: str | Path) -> Path:
        """Points a game against each opponent set, one bar a bot, the 95% interval as an error bar (PNG)."""
        try:
            from matplotlib.backends.backend_agg import FigureCanvasAgg
            from matplotlib.figure import Figure
        except ImportError:
            raise BigTwoError("plots need matplotlib: pip install 'bigtwo[plot]'") from None
        path = Path(path)
        rows = self.ranked()
        groups = [*self.opponents, "over the field"]
        fig = Figure(figsize=(max(7.0, 1.4 * len(groups) * max(1, len(rows)) / 2), 4.8), dpi=100)
        FigureCanvasAgg(fig)
        ax = fig.add_subplot()
        width = 0.8 / max(1, len(rows))
        for j, e in enumerate(rows):
            xs, ys, lo, hi = [], [], [], []
            for i, g in enumerate(groups):
                iv = e.overall if g == "over the field" else e.sets.get(g, {}).get("points")
                if not iv:
                    continue
                xs.append(i - 0.4 + width * (j + 0.5))
                ys.append(iv["mean"])
                low, high = iv["low"], iv["high"]
                lo.append(0 if math.isnan(low) else iv["mean"] - low)
                hi.append(0 if math.isnan(high) else high - iv["mean"])
            ax.bar(xs, ys, width=width, yerr=[lo, hi], capsize=3, label=e.label, color=f"C{j % 10}")
        ax.axhline(0, color="black", linewidth=0.8)
        ax.set_xticks(range(len(groups)), [g if g == "over the field" else f"vs 3 {g}" for g in groups])
        ds = self.protocol["deal_set"]
        ax.set_title(
            f"{self.protocol['format']}: {self.protocol['rules']}, points a game (one a card left)\n"
            f"deal set {ds['version']} (seed {ds['seed']}), {ds['deals_played']:,} deals x {ds['rotations']} "
            "rotations, 95% intervals over deals",
            fontsize="medium",
        )
        ax.set_ylabel("points a game")
        ax.legend(fontsize="small")
        fig.tight_layout()
        fig.savefig(path, format="png")
        return path


def _or_none(iv: Interval | None) -> dict[str, Any] | None:
    return iv.to_dict() if iv is not None else None


def _cell(iv: dict[str, Any] | None, fmt: str) -> str:
    if iv is None:
        return "-"
    if math.isnan(iv["low"]):
        return f"{fmt.format(iv['mean'])} [n/a]"
    return f"{fmt.format(iv['mean'])} [{fmt.format(iv['low'])}, {fmt.format(iv['high'])}]"


def _protocol_difference(a: dict[str, Any], b: dict[str, Any]) -> str:
    keys = ("format", "rules", "players", "utility", "confidence")
    for k in keys:
        if a.get(k) != b.get(k):
            return f"{k}: {a.get(k)!r} and {b.get(k)!r}"
    da, db = dict(a["deal_set"]), dict(b["deal_set"])
    for k in ("version", "seed", "deals_played", "fingerprint"):
        if da.get(k) != db.get(k):
            return f"deal set {k}: {da.get(k)!r} and {db.get(k)!r}"
    fa, fb = a["field"], b["field"]
    for k in ("version", "bigtwo", "learned_weights"):
        if k in fa and k in fb and fa[k] != fb[k]:
            return f"field {k}: {fa.get(k)!r} and {fb.get(k)!r}"
    for name in set(fa["opponents"]) & set(fb["opponents"]):
        if fa["opponents"][name] != fb["opponents"][name]:
            return f"opponent set {name}: {fa['opponents'][name]!r} and {fb['opponents'][name]!r}"
        sa, sb = (f.get("settings", {}).get(name) for f in (fa, fb))
        if sa is not None and sb is not None and sa != sb:
            changed = ", ".join(f"{k}={x!r} and {y!r}" for k, x, y in changed_keys(sa, sb))
            return f"opponent set {name}'s settings: {changed}"
    return ""


Progress = Callable[[str, int, int], None]  # (what is playing, games done, games in all of it)


def protocol_of(deals: DealSet, played: int, opponents: Sequence[str]) -> dict[str, Any]:
    return {
        "format": PROTOCOL,
        "rules": deals.rules,
        "players": deals.players,
        "utility": UTILITY,
        "confidence": CONFIDENCE,
        "deal_set": {**deals.to_dict(), "deals_played": played},
        "field": field_description(opponents),
    }


def benchmark_bot(
    bot: BotSpec,
    deals: DealSet,
    played: int,
    opponents: Sequence[str],
    *,
    workers: int | None = None,
    ray: str | None = None,
    progress: Progress | None = None,
    keep: Callable[[str, ArenaResult], None] | None = None,
) -> Entry:
    """Play ``bot`` against three copies of each opponent set on the first ``played`` deals of ``deals``."""
    sets: dict[str, SetResult] = {}
    for name in opponents:
        opp = BotSpec.parse(FIELD[name])
        opp_label = f"{name} (field)"
        if bot.display == opp_label:
            raise BigTwoError(f"the label {bot.display!r} is the field's own: give the bot another label")
        opp = BotSpec(opp.name, opp.options, opp_label)
        lineup = [bot] + [opp] * (deals.players - 1)
        report = None
        if progress is not None:

            def report(done: int, total: int, _name: str = name) -> None:
                progress(f"{bot.display} vs 3 {_name}", done, total)

        result = run_arena(
            deals.rules,
            lineup,
            played * deals.players,
            seed=deals.seed,
            utility=UTILITY,
            duplicate=True,
            workers=workers,
            ray=ray,
            progress=report,
            confidence=CONFIDENCE,
        )
        if keep is not None:
            keep(name, result)
        summary = {s.label: s for s in result.summary(CONFIDENCE)}[bot.display]
        sets[name] = SetResult(
            points=summary.points,
            win_rate=summary.win_rate,
            mean_place=summary.mean_place,
            games=summary.games,
            deals=summary.deals,
            ms_per_move=summary.ms_per_move,
            max_ms_per_move=summary.max_ms_per_move,
            per_deal=result.points_by_deal(0),
        )
    # over the field: each deal's mean over the opponent sets is one observation (the sets share the deals)
    common = sorted(set.intersection(*(set(s.per_deal) for s in sets.values())))
    overall = mean_interval([math.fsum(s.per_deal[d] for s in sets.values()) / len(sets) for d in common], CONFIDENCE)
    return Entry(
        label=bot.display,
        spec=bot.to_dict(),
        sets={k: v.to_dict() for k, v in sets.items()},
        overall=overall.to_dict(),
        timing={k: {"ms_per_move": v.ms_per_move, "max_ms_per_move": v.max_ms_per_move} for k, v in sets.items()},
    )


def run_benchmark(
    bots: Sequence[BotSpec],
    *,
    deals: int | None = None,
    version: str = DEFAULT_DEAL_SET,
    seed: int | None = None,
    opponents: Sequence[str] | None = None,
    workers: int | None = None,
    ray: str | None = None,
    progress: Progress | None = None,
    keep: Callable[[str, str, ArenaResult], None] | None = None,
) -> Leaderboard:
    """Benchmark every bot in ``bots`` (each against every opponent set) on the first ``deals`` deals of the deal
    set ``version`` (or of a custom set of ``seed``); a leaderboard of them.

    The learned bot's and every numpy bot's matrix products run on one thread a process (one core a bot), as
    the protocol's times a move assume.
    """
    if not bots:
        raise BigTwoError("no bots to benchmark")
    labels = [b.display for b in bots]
    dup = {x for x in labels if labels.count(x) > 1}
    if dup:
        raise BigTwoError(f"two bots are labelled {sorted(dup)[0]!r}: each needs its own label")
    ds = deal_set(version, seed)
    played = ds.deals if deals is None else deals
    if not 2 <= played <= ds.deals:
        raise BigTwoError(f"deals={played}: a benchmark plays 2 to {ds.deals:,} deals of deal set {ds.version}")
    names = check_opponents(opponents)
    for b in bots:
        b.build(seed=0)  # an unknown bot, option or class fails before any game is played
    board = Leaderboard(protocol_of(ds, played, names))
    with _one_thread():
        for b in bots:
            kept: Callable[[str, ArenaResult], None] | None = None
            if keep is not None:

                def kept(name: str, result: ArenaResult, _label: str = b.display) -> None:
                    assert keep is not None
                    keep(_label, name, result)

            board.add(benchmark_bot(b, ds, played, names, workers=workers, ray=ray, progress=progress, keep=kept))
    return board


class _one_thread:
    """numpy's matrix products on one thread in this process and the workers it forks (threadpoolctl)."""

    def __enter__(self) -> _one_thread:
        try:
            from threadpoolctl import threadpool_limits
        except ImportError:  # pragma: no cover - a declared dependency
            self._limits = None
        else:
            self._limits = threadpool_limits(limits=1)
        return self

    def __exit__(self, *exc: object) -> None:
        if self._limits is not None:
            self._limits.restore_original_limits()


__all__ = [
    "DEAL_SETS",
    "FIELD",
    "FIELD_VERSION",
    "PROTOCOL",
    "DealSet",
    "Entry",
    "Leaderboard",
    "benchmark_bot",
    "deal_fingerprint",
    "deal_set",
    "run_benchmark",
]
