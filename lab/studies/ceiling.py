"""What perfect beliefs would be worth: the search that sees every hand, against three of today's search.

A diagnostic, not a player (it cheats, so it lives here and no spec can name it). Each variant plays seat 0 of
the arena's deals and seatings (``bigtwo.arena.play``: the same hands, and the same seeds for the opponents, as
``benchmarks/strength.py --only isearch`` with the same ``--seed``) against three ``search`` at ``--budget-ms``
a decision, scored one point a card left:

- ``shipped``: ``isearch`` as it plays (the baseline, measured in the same run unless ``--baseline FILE`` reads
  the same match saved by ``strength.py --out``);
- ``omniscient``: ``isearch`` whose searched deal is the true one (one deal is exact: the play-outs are
  deterministic), every legal candidate it would weigh played out with the heuristic in every seat: the
  ceiling of every improvement to its beliefs;
- ``omniscient-nested``: the same, but in the play-outs every seat chooses among the heuristic's best
  ``--inner`` moves (and the pass) by one heuristic play-out of each on the true deal: a continuation far
  stronger than the heuristic, seen with perfect information.
- ``omniscient-learned``: the true deal played out by the learned network in every seat (``playout='learned'``):
  whether a stronger evaluator than the heuristic lifts the ceiling.
- ``omniscient-searched``: ``--spec`` (the ``isearch`` of ``shipped``) as it searches, with its prior, its
  successive halving and its whole ``budget_ms``, but every deal it searches is the true one. The variants above
  weigh a candidate by one play-out of the true deal and no prior, a noisier judge than the search they bound;
  this one differs from the search in what it knows alone. (Its measured runs also drew the other seats' moves in
  the play-outs from a softmax at ``--temperature`` points; that option of the search was deleted with its verdict,
  docs/lab/2026-12-07-search-options-retired.md, and this variant now plays them as the search does.)
- ``omniscient-late`` and ``omniscient-early``: ``--spec`` seeing the true deal as ``omniscient-searched`` does, but
  only at its decisions with at most ``--late`` hidden cards (the cards in the other hands), or only at those with
  more; at the others it is the spec as it plays, beliefs and all. Which part of a round the cheat's gain lies in:
  early, where the hidden hands' shapes decide the plan and the table has shown little, or late, where few cards
  are hidden and the history has had longest to tell of them.

Each variant's mean points and win rate come with 95% intervals (Student's t over deals; Wilson), and its gain
over ``shipped`` deal by deal. If even the ceilings stay short of a target, no belief model, and no faster or
longer search of the same play-outs, can reach it.

Run: python lab/studies/ceiling.py [--budget-ms 100] [--games 320] [--workers 2] [--seed 2024]
     python lab/studies/ceiling.py --budget-ms 1000 --games 240 --variants omniscient \\
         --baseline runs/paired-1s/paired-7ddb923f8cf5.json
     python lab/studies/ceiling.py --budget-ms 1000 --games 160 --workers 1 --variants omniscient-late --late 20 \\
         --spec SPEC --baseline lab/matches/isearch-1s-2057-mean-standin.json.gz --seed 2057
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")  # one core a bot (before numpy is first imported)

import argparse  # noqa: E402
import math  # noqa: E402
import multiprocessing  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

from rich.console import Console  # noqa: E402
from rich.table import Table  # noqa: E402

from bigtwo import Game, load_rules  # noqa: E402
from bigtwo.arena.play import GameRecord, SeatClocks, bot_seed, deal_seed, seating  # noqa: E402
from bigtwo.arena.provenance import differences, provenance  # noqa: E402
from bigtwo.arena.results import ArenaResult  # noqa: E402
from bigtwo.arena.stats import mean_interval  # noqa: E402
from bigtwo.bots.heuristic import WIN, HeuristicPolicy, best_and_pass  # noqa: E402
from bigtwo.bots.playouts import rollout  # noqa: E402
from bigtwo.bots.search import InferenceSearchBot  # noqa: E402
from bigtwo.bots.spec import BotSpec  # noqa: E402
from bigtwo.bots.view import view_from_game  # noqa: E402
from bigtwo.utilities import round_utility  # noqa: E402

console = Console(highlight=False, width=130)
VARIANTS = (
    "shipped",
    "omniscient",
    "omniscient-nested",
    "omniscient-learned",
    "omniscient-searched",
    "omniscient-late",
    "omniscient-early",
)
PLAYERS = 4


class TrueDeal:
    """A deal sampler that always returns the hands as they are (the running game's)."""

    def __init__(self, game: Game):
        self.game = game

    def sample(self, rng: Any) -> list[int]:
        return [self.game.hand(s).mask for s in range(self.game.n)]

    def sample_weighted(self, rng: Any) -> tuple[list[int], float]:
        return self.sample(rng), 0.0


def searched_move(game: Game, policy: HeuristicPolicy, played: int, parent: int, measure: str, options: int) -> Any:
    """The move of the seat to move in ``game`` (a known deal) that a one-move search would play: of the heuristic's
    best ``options`` moves and the pass, the one whose heuristic play-out scores best for that seat, the first of
    equals; the heuristic's first choice when it goes out or is alone. ``parent``: the seat's hand at its last
    play (a plan reuses its work)."""
    mover = game.to_move
    ranked = policy.scores(view_from_game(game, played), parent)
    choice = ranked[0][1]
    cands = best_and_pass(ranked, options)
    if ranked[0][0] < WIN and len(cands) > 1:
        best = -math.inf
        for cand in cands:
            g = game.clone()
            rollout(g, policy, played | g.play(cand).mask)
            assert g.result is not None
            value = round_utility(g.result, measure)[mover]
            if value > best:
                best, choice = value, cand
    return choice


def searching_playout(game: Game, policy: HeuristicPolicy, played: int, measure: str, inner: int) -> Any:
    """Play ``game`` to its end (in place), every seat choosing among the heuristic's best ``inner`` moves and
    the pass the one whose heuristic play-out on this (fully known) deal scores best for it; returns the result."""
    previous = [game.hand(s).mask for s in range(game.n)]
    while not game.is_over:
        mover = game.to_move
        before = game.hand(mover).mask
        choice = searched_move(game, policy, played, previous[mover], measure, inner)
        action = game.play(choice)
        if action.mask:
            previous[mover] = before
            played |= action.mask
    assert game.result is not None
    return game.result


class Omniscient(InferenceSearchBot):
    """``isearch`` searching the true deal; with ``inner`` > 0 its play-outs are :func:`searching_playout`."""

    def __init__(self, seed: int | None, game: Game, inner: int = 0, **options: Any):
        super().__init__(seed, iterations=1, prior=0.0, utility="cards", **options)
        self.adjust_plan(weigh_beliefs=False)
        self.game = game
        self.inner = inner

    def _deal_sampler(self, rules: Any, obs: Any) -> Any:
        return TrueDeal(self.game)

    def _play_on(
        self, game: Game, seat: int, measure: str, policy: Any, played: int, deadline: float | None
    ) -> float | None:
        if not self.inner:
            return super()._play_on(game, seat, measure, policy, played, deadline)
        return round_utility(searching_playout(game, policy, played, measure, self.inner), measure)[seat]


class OmniscientSearch(InferenceSearchBot):
    """``isearch`` with every option it is given, searching the true deal at each of its samples."""

    def __init__(self, seed: int | None, game: Game, **options: Any):
        super().__init__(seed, **options)
        self.game = game

    def _deal_sampler(self, rules: Any, obs: Any) -> Any:
        return TrueDeal(self.game)


class OmniscientWhen(InferenceSearchBot):
    """``isearch`` with every option it is given that searches the true deal (its beliefs off) only at decisions
    whose hidden cards number at most ``late`` (``late_only``) or more than ``late``; elsewhere it searches as the
    options say."""

    def __init__(self, seed: int | None, game: Game, late: int, late_only: bool, **options: Any):
        super().__init__(seed, **options)
        self.game, self.late, self.late_only = game, late, late_only
        self.cheated = 0  # decisions that searched the true deal (a test reads it)
        self._cheat = False

    def _decide(self, rules: Any, observation: Any) -> Any:
        hidden = sum(observation.hand_sizes) - observation.hand.bit_count()
        cheat = (hidden <= self.late) == self.late_only
        self.cheated += cheat
        if cheat != self._cheat:
            self.adjust_plan(weigh_beliefs=not cheat)
        self._cheat = cheat
        return super()._decide(rules, observation)

    def _deal_sampler(self, rules: Any, obs: Any) -> Any:
        return TrueDeal(self.game) if self._cheat else super()._deal_sampler(rules, obs)


def searched_spec(spec: str, budget_ms: float) -> BotSpec:
    """``--spec``, or the shipped ``isearch`` at the budget; refused unless it is an ``isearch``."""
    parsed = BotSpec.parse(spec or f"isearch(budget_ms={budget_ms:g}, utility='cards')")
    if parsed.name != "isearch":
        raise SystemExit(f"--spec {spec!r} is not an isearch")
    return parsed


def build(variant: str, seed: int, game: Game, budget_ms: float, inner: int, spec: str, late: int = 20) -> Any:
    if variant == "shipped":
        return searched_spec(spec, budget_ms).build(seed)
    if variant in ("omniscient-late", "omniscient-early"):
        options = searched_spec(spec, budget_ms).options
        return OmniscientWhen(seed, game, late, variant == "omniscient-late", **options)
    if variant == "omniscient-searched":
        return OmniscientSearch(seed, game, **searched_spec(spec, budget_ms).options).adjust_plan(weigh_beliefs=False)
    if variant == "omniscient":
        return Omniscient(seed, game, playout="heuristic")  # as measured: the heuristic plays every seat
    if variant == "omniscient-learned":
        return Omniscient(seed, game, playout="learned")
    # the nested play-outs cost a play-out a candidate at every move: fewer candidates keep it to seconds
    return Omniscient(seed, game, inner=inner, candidates=4, learned_candidates=0)


def play_deal(job: dict) -> list[GameRecord]:
    """Every rotation of one deal with ``job['variant']`` in lineup entry 0, the arena's way (its deal, seating,
    seeds and record), but with the variant built here: a bot that is handed the game."""
    rules = load_rules("classic")
    opponent = BotSpec.parse(job["opponent"])
    labels = [job["variant"]] + [opponent.display] * (PLAYERS - 1)
    out = []
    for rotation in range(PLAYERS):
        seed_of_deal = deal_seed(job["seed"], job["deal"])
        game = Game(rules, players=PLAYERS, seed=seed_of_deal)
        entries = seating(PLAYERS, rotation)
        bots = [
            build(
                job["variant"],
                bot_seed(job["seed"], job["deal"], rotation, e),
                game,
                job["budget_ms"],
                job["inner"],
                job["spec"],
                job["late"],
            )
            if e == 0
            else opponent.build(bot_seed(job["seed"], job["deal"], rotation, e))
            for e in entries
        ]
        clocks = SeatClocks(PLAYERS)
        actions = 0
        while not game.is_over:
            s = game.to_move
            with clocks.timing(s):
                action = bots[s].choose(rules, game.observe(s))
            game.apply(action)
            actions += 1
        res = game.result
        assert res is not None
        out.append(
            GameRecord(
                deal=job["deal"],
                rotation=rotation,
                deal_seed=seed_of_deal,
                entries=entries,
                labels=[labels[e] for e in entries],
                points=round_utility(res, "cards"),
                scores=list(res.scores),
                cards_left=list(res.cards_left),
                finishing_order=list(res.finishing_order),
                actions=actions,
                **clocks.fields(),
            )
        )
    return out


def summarised(result: ArenaResult, deals: int) -> dict:
    """Lineup entry 0 of ``result`` over its first ``deals`` deals: its arena summary and its points by deal."""
    result = ArenaResult(result.config, [r for r in result.records if r.deal < deals])
    label = result.config["lineup"][0]["label"]
    # entry 0's slowest decision in its own CPU time (None for a saved match that did not record it)
    own = [r.slowest_seconds(0) for r in result.records if r.max_cpu_seconds]
    return {
        "summary": {s.label: s for s in result.summary()}[label],
        "deals": result.points_by_deal(0),
        "slowest_cpu_ms": 1000 * max(own) if own else None,
    }


def from_saved(path: Path, deals: int, seed: int, opponent: str) -> dict:
    """``shipped``'s results from a match ``strength.py --out`` saved (checked to hold these deals, every seating,
    against this field; its later deals are left out)."""
    saved = ArenaResult.load(path)
    lineup = [spec["label"] for spec in saved.config["lineup"]]
    have = sum(1 for r in saved.records if r.deal < deals)
    if saved.config["seed"] != seed or have != deals * PLAYERS or lineup[1:] != [opponent] * 3:
        raise SystemExit(f"{path} does not hold deals 0 to {deals - 1} of seed {seed} against three {opponent}")
    today = provenance([BotSpec.from_dict(spec) for spec in saved.config["lineup"]])
    changed = differences(saved.config.get("provenance"), today)
    if changed:  # an old baseline may be wanted on purpose: said, not refused
        console.print(f"[yellow]{path}: its bots may not be today's: {'; '.join(changed)}")
    return summarised(saved, deals)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--budget-ms", type=float, default=100.0, help="the opponents' (and shipped's) time a decision")
    ap.add_argument("--games", type=int, default=320, help="games a variant (whole deals of 4 rotations)")
    ap.add_argument("--seed", type=int, default=2024)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--inner", type=int, default=2, help="omniscient-nested: the heuristic's moves weighed a turn")
    ap.add_argument("--spec", default="", help="the isearch of shipped and omniscient-searched (default: shipped's)")
    ap.add_argument("--late", type=int, default=20, help="omniscient-late/-early: the most hidden cards of 'late'")
    ap.add_argument("--variants", default=",".join(VARIANTS), help=f"comma-separated, of {', '.join(VARIANTS)}")
    ap.add_argument("--baseline", type=Path, default=None, help="shipped's match, saved by strength.py --out")
    ap.add_argument("--out", type=Path, default=None, help="a folder: each variant's games as VARIANT-sSEED.json.gz")
    args = ap.parse_args()
    if args.out is not None and not args.out.is_dir():
        ap.error(f"--out {args.out}: there is no such folder")
    variants = [v.strip() for v in args.variants.split(",") if v.strip()]
    for v in variants:
        if v not in VARIANTS:
            ap.error(f"variant {v!r} is not one of {', '.join(VARIANTS)}")
    deals = -(-args.games // PLAYERS)
    opponent = f"search(budget_ms={args.budget_ms:g}, utility='cards')"
    results: dict[str, dict] = {}
    if args.baseline is not None:
        results["shipped"] = from_saved(args.baseline, deals, args.seed, opponent)
        console.print(f"shipped: read from {args.baseline}")
        variants = [v for v in variants if v != "shipped"]
    elif "shipped" not in variants:
        variants.insert(0, "shipped")  # the gains need the baseline, measured in the same run
    ctx = multiprocessing.get_context("fork")
    for variant in variants:
        jobs = [
            {"variant": variant, "deal": d, "seed": args.seed, "budget_ms": args.budget_ms, "inner": args.inner,
             "opponent": opponent, "spec": args.spec, "late": args.late}
            for d in range(deals)
        ]  # fmt: skip
        t0 = time.perf_counter()
        records: list[GameRecord] = []
        with ctx.Pool(args.workers) as pool:
            for done, got in enumerate(pool.imap_unordered(play_deal, jobs), 1):
                records += got
                if done % max(1, deals // 10) == 0 or done == deals:
                    console.print(f"  {variant}: {done}/{deals} deals, {time.perf_counter() - t0:.0f} s", style="dim")
        lineup = [{"label": variant}] + [{"label": opponent}] * (PLAYERS - 1)
        played = ArenaResult({"lineup": lineup, "seed": args.seed, "rules": "classic", "spec": args.spec}, records)
        if args.out is not None:  # kept game by game, to pool with other seeds (ArenaResult.pooled)
            played.save(args.out / f"{variant}-s{args.seed}.json.gz")
        results[variant] = summarised(played, deals)
        console.print(f"{variant}: {len(records)} games in {time.perf_counter() - t0:.0f} s")
    base = results["shipped"]["deals"]
    table = Table(title=f"classic, against three {opponent}, {deals} deals x {PLAYERS} seatings, one point a card left")
    for col in ("variant", "points a game [95%]", "win rate [95%]", "gain over shipped, deal by deal", "ms a move"):
        table.add_column(col)
    for variant, got in results.items():
        p, w = got["summary"].points, got["summary"].win_rate
        gain = "" if variant == "shipped" else mean_interval([got["deals"][d] - base[d] for d in base])
        table.add_row(
            variant,
            f"{p.mean:+.2f} [{p.low:+.2f}, {p.high:+.2f}]",
            f"{w.mean:.1%} [{w.low:.1%}, {w.high:.1%}]",
            gain if isinstance(gain, str) else f"{gain.mean:+.2f} [{gain.low:+.2f}, {gain.high:+.2f}]",
            f"{got['summary'].ms_per_move:.0f} (slowest {got['summary'].max_ms_per_move:.0f}"
            + ("" if got["slowest_cpu_ms"] is None else f"; CPU time {got['slowest_cpu_ms']:.0f}")
            + ")",
        )
    console.print(table)


if __name__ == "__main__":
    main()
