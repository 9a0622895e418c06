"""Where each bot stands over every 1 s match kept in lab/matches. (Not a test: it prints.)

The 1 s table grows a row a match, and a bot's matches lie scattered through it. This groups the kept
matches by what played (the bot's spec options, the digest of the network it searched with, whatever the file
named it, and the digests of the other files it read, named or shipped), pools each group's deals, and prints one
Markdown row a bot: its points a game and win rate with 95% intervals over deals, the slowest decision (in the
bot's own CPU time, what the 1 s limit is judged by, beside the wall clock's), and deal by deal beside the
reference (the search as it shipped while the target was pursued) on the deals both played (keyed by the deal's
cards, so sets pair whatever their order).

Run: python lab/studies/standing.py                  (docs/lab/2026-12-01-standing-at-1s.md keeps a day's print)
"""

from __future__ import annotations

import argparse
import math
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from bigtwo.arena.provenance import DIGEST, bot_settings, shipped_models
from bigtwo.arena.results import ArenaResult
from bigtwo.arena.stats import Interval, clustered_interval, mean_interval, wilson_interval
from bigtwo.bots.spec import BotSpec

ROOT = Path(__file__).resolve().parents[2]  # the repository (this file: lab/studies/)
MATCHES = ROOT / "lab" / "matches"
SEARCH_NETWORK = "search/classic-4p.npz"  # the search's shipped network at classic with four players
NETWORKS = ROOT / "lab" / "networks.toml"  # the intermediate networks training/ kept, by name and sha256
# the reference: the search as it shipped while the target was pursued (the thirteenth stage's network at 34M
# frames, nothing else named), kept in training/ since the spec that met the target became the default
REFERENCE = "isearch(budget_ms=1000, utility='cards', belief_weights=None, opponent_weights=None)"  # (today's words)
REFERENCE_NETWORK = "training/classic-4p-stage13-34m.npz"
FILE_WORDS = {"opponent_weights": "opponents", "belief_weights": "beliefs"}  # the files beside the network


def kept_networks() -> dict[str, str]:
    """The digests (as a match's provenance keeps them) of the intermediate networks ``training/`` kept, by the
    file name they had there (:data:`NETWORKS`: the files left git, their digests stay)."""
    with NETWORKS.open("rb") as f:
        table = tomllib.load(f)["networks"]
    return {name: entry["sha256"][:DIGEST] for name, entry in sorted(table.items())}


def network_names() -> dict[str, str]:
    """Every network the repository keeps by its digest: the shipped ones (``bigtwo/bots/weights``) first,
    then those ``training/`` kept, each by its file name."""
    names = {digest: f"`{name}` (shipped)" for name, digest in shipped_models().items() if name.endswith(".npz")}
    for name, digest in kept_networks().items():
        names.setdefault(digest, f"`{name}`")
    return names


def network_of(result: ArenaResult) -> str:
    """The digest of the network the match's first bot searched with: the file its ``weights`` named, else
    the package's shipped one at the time (the search's own where the package had one)."""
    prov = result.config["provenance"]
    named = prov["bots"][0]["files"].get("weights")
    if named:
        return named
    models = prov["models"]
    return models.get(SEARCH_NETWORK) or models["classic-4p.npz"]


@dataclass
class Standing:
    """One bot's kept matches pooled."""

    options: str  # its spec's options but the files it named
    network: str  # the digest of its network
    others: tuple[tuple[str, str], ...] = ()  # the digests of the other files it read, by option
    files: list[str] = field(default_factory=list)
    seeds: list[int] = field(default_factory=list)
    points: dict[int, float] = field(default_factory=dict)  # mean points by the deal's seed
    wins: dict[int, list[float]] = field(default_factory=dict)  # 1.0 a game won, by the deal's seed
    slowest_ms: float = 0.0  # on the wall clock
    slowest_cpu_ms: float = 0.0  # in its own CPU time, over the games that recorded it
    untimed: int = 0  # games saved without a record of CPU time

    def add(self, name: str, result: ArenaResult) -> None:
        self.files.append(name)
        self.seeds.append(result.config["seed"])
        self.points.update(result.points_by_deal(0, key="deal_seed"))
        for r in result.records:
            if 0 in r.entries:
                seat = r.entries.index(0)
                self.wins.setdefault(r.deal_seed, []).append(1.0 if r.winner == seat else 0.0)
                if r.max_cpu_seconds:
                    self.slowest_cpu_ms = max(self.slowest_cpu_ms, 1000 * r.slowest_seconds(0))
                else:
                    self.untimed += 1
        self.slowest_ms = max(self.slowest_ms, result.summary()[0].max_ms_per_move)

    def slowest(self) -> str:
        """The slowest decision in words: own CPU time (wall clock), the CPU figure marked where some games
        did not record it."""
        wall = f"{math.ceil(self.slowest_ms):,}"
        if not self.slowest_cpu_ms:
            return f"not recorded (wall {wall})"
        cpu = f"{math.ceil(self.slowest_cpu_ms):,}"
        return f"{cpu}{'*' if self.untimed else ''} (wall {wall})"

    def interval(self) -> Interval:
        return clustered_interval({d: [p] for d, p in self.points.items()})

    def beside(self, other: Standing) -> Interval | None:
        """Deal by deal against ``other`` on the deals both played, or None where they share fewer than two."""
        common = sorted(set(self.points) & set(other.points))
        if len(common) < 2:
            return None
        return mean_interval([self.points[d] - other.points[d] for d in common])


def other_files(result: ArenaResult) -> tuple[tuple[str, str], ...]:
    """The digests of the files the match's first bot read besides its network (the opponents' model, the
    belief network...), named or shipped: two matches that named a file alike but read different contents
    are two bots, and a spec that names a file is the same bot as one whose default reads the same file."""
    files = result.config["provenance"]["bots"][0]["files"]
    return tuple(sorted((option, digest) for option, digest in files.items() if option != "weights"))


def unread_defaults(result: ArenaResult, read: tuple[tuple[str, str], ...]) -> list[str]:
    """The options whose defaults today read a shipped file (the opponents' model, the belief network) that the
    match's first bot did not read (``read``: :func:`other_files`): its row writes them ``=None``, so that a
    row's words are the spec that plays that bot today (a match played before such a default was set did
    without the file)."""
    entry = result.config["lineup"][0]
    today = bot_settings(BotSpec.from_dict(entry), tuple(result.config["provenance"]["table"]))["files"]
    options = {option for option, _ in read}
    return [option for option in sorted(today) if option != "weights" and option not in options]


def standings(folder: Path = MATCHES) -> list[Standing]:
    """The kept matches grouped by bot (spec options without the files it named, the network's digest and
    those of the other files it read), best pooled mean first."""
    groups: dict[tuple[str, str, tuple[tuple[str, str], ...]], Standing] = {}
    for path in sorted(folder.glob("*.json.gz")):
        result = ArenaResult.load(path)
        entry = result.config["lineup"][0]
        others = other_files(result)
        named = {"weights", *(option for option, _ in others)}
        words = [f"{k}={v!r}" for k, v in entry["options"].items() if k not in named]
        words += [f"{option}=None" for option in unread_defaults(result, others) if option not in entry["options"]]
        options = f"{entry['name']}({', '.join(words)})"
        key = (options, network_of(result), others)
        groups.setdefault(key, Standing(options, key[1], others)).add(path.name, result)
    return sorted(groups.values(), key=lambda s: -s.interval().mean)


def signed(x: float) -> str:
    return f"{x:+.2f}"


def networks(s: Standing, names: dict[str, str]) -> str:
    """The files a bot read, in words: its network, then the others by what they are for."""
    words = [names.get(s.network, s.network)]
    words += [f"{FILE_WORDS.get(option, option)}: {names.get(digest, digest)}" for option, digest in s.others]
    return "; ".join(words)


def table(rows: list[Standing], names: dict[str, str]) -> str:
    """The Markdown table: one row a bot, with its deal-by-deal difference from the search as it shipped while
    the target was pursued (:data:`REFERENCE`)."""
    pinned = kept_networks()[REFERENCE_NETWORK]
    reference = next((s for s in rows if s.network == pinned and s.options == REFERENCE and not s.others), None)
    lines = [
        "| bot | networks | seeds | deals | points a game [95% CI] | win rate [95% CI] "
        "| slowest decision, ms: own CPU (wall clock) | deal by deal beside the reference (deals) |",
        "| --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for s in rows:
        iv = s.interval()
        win = wilson_interval(s.wins)
        seeds = ", ".join(str(x) for x in sorted(s.seeds))
        if s is reference:
            paired = "(the reference)"
        else:
            diff = s.beside(reference) if reference is not None else None
            paired = (
                "no deals in common"
                if diff is None
                else (f"{signed(diff.mean)} [{signed(diff.low)}, {signed(diff.high)}] ({diff.n})")
            )
        lines.append(
            f"| `{s.options}` | {networks(s, names)} | {seeds} | {len(s.points)} "
            f"| **{signed(iv.mean)}** [{signed(iv.low)}, {signed(iv.high)}] "
            f"| {100 * win.mean:.1f}% [{100 * win.low:.1f}%, {100 * win.high:.1f}%] "
            f"| {s.slowest()} | {paired} |"
        )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", nargs="?", type=Path, default=MATCHES, help="kept matches (.json.gz)")
    args = parser.parse_args()
    print(table(standings(args.folder), network_names()))


if __name__ == "__main__":
    main()
