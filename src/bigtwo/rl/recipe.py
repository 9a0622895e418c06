"""The training recipe behind ``bigtwo train``: a learned player for any rules and table size from one command.

The lab made the shipped networks in some thirty hand-run stages (docs/lab/); what paid, in the order it paid, is
run here as one plan with no hand-run stage:

1. **Self-play beside the heuristic** from random weights (classic's stages 1-2, three players' and Tien Len's first
   runs): half the games seat the learning network among heuristic bots, the rest are self-play, so it learns the
   game and to beat the bot it is measured against.
2. **A field**: the network goes on at a third of the learning rate with three games in four among the heuristic
   and a frozen copy of stage 1 (three players' and Tien Len's second stages, classic's stage 6: a network trained
   against one bot learns to exploit it, against a field to play well).
3. **A wider field** of its earlier networks (stages 1 and 2) and the heuristic, half the games, snapshots kept;
   at the end the mean of the last snapshots (:mod:`bigtwo.rl.average`, classic's stage 13) is kept where its
   evaluation is not behind the last snapshot's on the same deals, else the last snapshot.

Each stage is a :class:`~bigtwo.rl.dmc.Trainer` run in its own folder, started from the stage before's last
snapshot; the budget (minutes of wall time, evaluations included, or frames, or both: whichever comes first) is
shared out among the stages, and each stage's share among its evaluations: the greedy network against the
heuristic on duplicate deals with a 95% interval (:mod:`bigtwo.rl.evaluate`). ``recipe.json`` in the run's folder
records the plan and how far it went (written after every evaluation, the trainers' checkpoints beside it), so
the same command resumes a stopped run where it stopped.
"""

from __future__ import annotations

import json
import os
import re
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from bigtwo.bots.installed import data_dir
from bigtwo.bots.learned import QPolicy, install_weights, shipped_policy
from bigtwo.rl.average import average_weights
from bigtwo.rl.dmc import Progress, TrainConfig, Trainer
from bigtwo.rl.evaluate import Evaluation, evaluate
from bigtwo.rules.choices import Measure
from bigtwo.rules.ruleset import Ruleset, list_presets, load_rules

RECIPE_FORMAT = 1
EVAL_SEED = 7  # the periodic evaluations' deals (as bigtwo lab dmc's)
FINAL_SEED = 11  # the deals on which the mean and the last snapshot are compared (and the result is measured)
OPPONENT = "heuristic"


@dataclass(frozen=True)
class Stage:
    """One stage of the recipe: its share of the budget, its evaluations, its games and its learning rate."""

    name: str
    share: float  # of the run's budget
    evaluations: int  # evenly spaced in the stage, the last at its end
    opponent_share: float  # games with the learning seat among the stage's bots
    lr: float
    field: bool  # the bots are the heuristic and the networks of the stages before (else the heuristic alone)


STAGES = (
    Stage("self-play beside the heuristic", 0.4, 3, 0.5, 3e-4, False),
    Stage("a field: the heuristic and stage 1", 0.3, 2, 0.75, 1e-4, True),
    Stage("a field of its earlier networks", 0.3, 4, 0.5, 1e-4, True),
)
AVERAGE_LAST = 4  # snapshots of the last stage averaged at the end


@dataclass
class RecipeConfig:
    """What a run of the recipe is: the table, the budget and the network's shape (saved in ``recipe.json``)."""

    rules: str  # a preset's name, or the path of the run's copy of the rules file
    players: int
    minutes: float | None = 30.0
    frames: int | None = None
    seed: int = 0
    envs: int = 32
    hidden: tuple[int, ...] = (512, 512, 256)
    history: int = 8
    actors: int = 0
    eval_deals: int = 0  # 0: from the budget (see :func:`evaluation_deals`)
    final_deals: int = 0

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["hidden"] = list(self.hidden)
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> RecipeConfig:
        d = dict(d)
        d["hidden"] = tuple(d["hidden"])
        return cls(**d)


def evaluation_deals(minutes: float | None) -> tuple[int, int]:
    """Deals of a periodic evaluation and of the final comparison for a budget: more for a longer run (its
    evaluations then cost about a tenth of it on one core), fewer for a short one."""
    periodic = 50 if minutes is None else max(20, min(200, round(5 * minutes)))
    return periodic, min(500, 3 * periodic)


def default_run_dir(rules: Ruleset, players: int) -> Path:
    """Where a run for these rules and table size keeps its checkpoints unless told otherwise: the same command
    finds it again, and so resumes."""
    slug = re.sub(r"[^a-z0-9]+", "-", rules.name.lower()).strip("-") or "rules"
    return data_dir() / "runs" / f"{slug}-{rules.digest()[:12]}-{players}p"


@dataclass
class RecipeProgress:
    """What the display shows: the stage, the frames, the speed, the budget spent and the last evaluation."""

    stage: int  # 0-based
    stage_name: str
    frames: int  # in all the stages
    frames_per_second: float
    seconds: float  # wall time of the run so far, evaluations included
    done: float  # fraction of the budget spent
    loss: float | None = None
    evaluation: dict[str, Any] | None = None


@dataclass
class RecipeState:
    """How far a run went: the next evaluation's index, the time and frames spent, the snapshots and the log."""

    segment: int = 0
    seconds: float = 0.0
    stage_frames: list[int] = field(default_factory=list)  # frames of each finished stage
    snapshots: list[dict[str, Any]] = field(default_factory=list)
    log: list[dict[str, Any]] = field(default_factory=list)
    final: dict[str, Any] | None = None


class Recipe:
    """One run of the recipe in ``run_dir`` (made, or resumed from its ``recipe.json``)."""

    def __init__(self, config: RecipeConfig, run_dir: str | Path, state: RecipeState | None = None):
        self.config = config
        self.run_dir = Path(run_dir)
        self.rules = load_rules(config.rules)
        if not self.rules.min_players <= config.players <= self.rules.max_players:
            raise ValueError(
                f"{self.rules.name} is played by {self.rules.min_players} to {self.rules.max_players} players, "
                f"not {config.players}"
            )
        if config.minutes is None and config.frames is None:
            raise ValueError("a run needs a budget: minutes, frames or both")
        if config.minutes is not None and not config.minutes > 0:
            raise ValueError(f"--minutes {config.minutes}: a time above 0")
        if config.frames is not None and config.frames < 1:
            raise ValueError(f"--frames {config.frames}: one frame or more")
        if config.eval_deals == 1 or config.eval_deals < 0:
            raise ValueError(
                f"--eval-deals {config.eval_deals}: an interval needs two deals or more (0: from the budget)"
            )
        periodic, final = evaluation_deals(config.minutes)
        self.eval_deals = config.eval_deals or periodic
        self.final_deals = config.final_deals or (min(500, 3 * config.eval_deals) if config.eval_deals else final)
        self.state = state or RecipeState()
        self.utility = Measure.PLACE.value if self.rules.play_measure == Measure.PLACE else Measure.CARDS.value
        self.trainer: Trainer | None = None
        self._trainer_stage = -1
        self._trainer_open = False
        self.stop_requested = False
        self.segments = [
            (i, sum(s.share for s in STAGES[:i]) + stage.share * (j + 1) / stage.evaluations)
            for i, stage in enumerate(STAGES)
            for j in range(stage.evaluations)
        ]

    # --- making and resuming -------------------------------------------------------------------------------
    @classmethod
    def start(
        cls, rules: str | Path, players: int | None, run_dir: str | Path | None = None, **settings: Any
    ) -> tuple[Recipe, bool]:
        """The run for these rules and table size in ``run_dir`` (default: :func:`default_run_dir`): resumed
        where its folder holds one (its own plan applies, and it must be for the same table), else a new one.
        Returns the run and whether it was resumed."""
        table = load_rules(rules)
        n = table.players if players is None else players
        folder = Path(run_dir) if run_dir is not None else default_run_dir(table, n)
        saved = folder / "recipe.json"
        if saved.exists():
            recipe = cls.load(folder)
            if recipe.rules.digest() != table.digest() or recipe.config.players != n:
                raise ValueError(
                    f"{folder} holds a run for {recipe.rules.name!r} with {recipe.config.players} players, not for "
                    f"these rules ({table.name!r}) with {n}: give another run folder"
                )
            return recipe, True
        ref = str(rules)
        if ref not in list_presets():  # a rules file: the run keeps its own copy, so it resumes without it
            folder.mkdir(parents=True, exist_ok=True)
            table.save(folder / "rules.toml")
            ref = str(folder / "rules.toml")
        return cls(RecipeConfig(rules=ref, players=n, **settings), folder), False

    @classmethod
    def load(cls, run_dir: str | Path) -> Recipe:
        """The run saved in ``run_dir``, ready to go on where it stopped."""
        path = Path(run_dir) / "recipe.json"
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as e:
            raise ValueError(f"{path}: not a run of bigtwo train ({e})") from None
        if data.get("format") != RECIPE_FORMAT:
            raise ValueError(f"{path}: run format {data.get('format')!r}, expected {RECIPE_FORMAT}")
        return cls(RecipeConfig.from_dict(data["config"]), run_dir, RecipeState(**data["state"]))

    def save(self) -> Path:
        """Write ``recipe.json`` (atomically: a crash mid-write leaves the one before)."""
        self.run_dir.mkdir(parents=True, exist_ok=True)
        path = self.run_dir / "recipe.json"
        tmp = path.with_suffix(".tmp")
        data = {"format": RECIPE_FORMAT, "config": self.config.to_dict(), "state": asdict(self.state)}
        tmp.write_text(json.dumps(data, indent=1), encoding="utf-8")
        os.replace(tmp, path)
        return path

    @property
    def finished(self) -> bool:
        return self.state.final is not None

    @property
    def frames(self) -> int:
        """Frames in all the stages so far."""
        done = sum(self.state.stage_frames)
        if self.trainer is not None and self._trainer_stage == len(self.state.stage_frames):
            done += self.trainer.frames
        return done

    # --- the stages ----------------------------------------------------------------------------------------
    def _stage_dir(self, i: int) -> Path:
        return self.run_dir / f"stage-{i + 1}"

    def _last_snapshot(self, stage: int) -> str:
        return next(s["file"] for s in reversed(self.state.snapshots) if s["stage"] == stage)

    def _trainer_for(self, i: int) -> Trainer:
        """Stage ``i``'s trainer: resumed from its checkpoint, else started from the stage before's last
        snapshot, among the stage's bots."""
        if self.trainer is not None and self._trainer_stage == i and self._trainer_open:
            return self.trainer
        if self.trainer is not None and self._trainer_open:
            self.trainer.close()
        ckpt = self._stage_dir(i) / "checkpoint.pt"
        if ckpt.exists():
            trainer = Trainer.load(ckpt)
        else:
            stage, cfg = STAGES[i], self.config
            earlier = [self._last_snapshot(k) for k in range(i)]
            bots = [OPPONENT, *(f"learned(weights={path!r})" for path in earlier)] if stage.field else [OPPONENT]
            trainer = Trainer(
                TrainConfig(
                    rules=cfg.rules,
                    players=cfg.players,
                    seed=cfg.seed * 10 + i,
                    num_envs=cfg.envs,
                    history=cfg.history,
                    hidden=cfg.hidden,
                    lr=stage.lr,
                    utility=self.utility,
                    opponent=",".join(bots),
                    opponent_share=stage.opponent_share,
                    eval_every=0,  # the recipe evaluates, between two of the trainer's runs
                    init_from=earlier[-1] if earlier else None,
                    actors=cfg.actors,
                ),
                self._stage_dir(i),
            )
        self.trainer, self._trainer_stage, self._trainer_open = trainer, i, True
        return trainer

    def request_stop(self) -> None:
        """End the run after the step in progress, with a checkpoint (a signal handler calls it)."""
        self.stop_requested = True
        if self.trainer is not None:
            self.trainer.stop_requested = True

    def run(
        self,
        on_progress: Callable[[RecipeProgress], None] | None = None,
        report_every: float = 5.0,
        checkpoint_every: float = 120.0,
    ) -> bool:
        """Run the plan from where it stands to its end; True when it finished (then :attr:`final` holds the
        chosen network's evaluation), False when a stop was requested (a checkpoint was written: run it again)."""
        cfg = self.config
        budget = None if cfg.minutes is None else 60.0 * cfg.minutes
        try:
            while self.state.segment < len(self.segments):
                i, upto = self.segments[self.state.segment]
                trainer = self._trainer_for(i)
                before = sum(self.state.stage_frames)
                started = time.perf_counter()
                spent = self.state.seconds

                def show(p: Progress, i: int = i, before: int = before, started: float = started) -> None:
                    now = self.state.seconds + time.perf_counter() - started
                    line = {**asdict(p), "frames": before + p.frames, "seconds": now, "stage": STAGES[i].name}
                    self.state.log.append(line)
                    if on_progress is not None:
                        on_progress(self._progress(i, before + p.frames, p.frames_per_second, now, p.loss))

                trainer.run(
                    frames=None if cfg.frames is None else max(0, round(cfg.frames * upto) - before),
                    seconds=None if budget is None else max(0.0, budget * upto - spent),
                    report_every=report_every,
                    checkpoint_every=checkpoint_every,
                    on_progress=show,
                )
                if self.stop_requested or trainer.stop_requested:
                    self.state.seconds += time.perf_counter() - started
                    self.save()
                    return False
                ev = self._snapshot(i, trainer, before)
                last_of_stage = (
                    self.state.segment + 1 == len(self.segments) or self.segments[self.state.segment + 1][0] != i
                )
                if last_of_stage:
                    self.state.stage_frames.append(trainer.frames)
                    trainer.close()
                    self.trainer, self._trainer_stage, self._trainer_open = None, -1, False
                self.state.segment += 1
                self.state.seconds += time.perf_counter() - started
                self.state.log.append(
                    {
                        "frames": before + trainer.frames,
                        "seconds": self.state.seconds,
                        "stage": STAGES[i].name,
                        "evaluation": ev.to_dict(),
                        "loss": None,
                    }
                )
                self.save()
                self._curve()
                if on_progress is not None:
                    on_progress(self._progress(i, before + trainer.frames, 0.0, self.state.seconds, None, ev))
            if self.state.final is None:
                self._finish()
                self.save()
            return True
        finally:
            if self.trainer is not None and self._trainer_open:  # its actors stop; a later run() reloads it
                self.trainer.close()
                self._trainer_open = False

    def _progress(
        self, i: int, frames: int, fps: float, seconds: float, loss: float | None, ev: Evaluation | None = None
    ) -> RecipeProgress:
        cfg = self.config
        parts = []
        if cfg.minutes is not None:
            parts.append(seconds / (60.0 * cfg.minutes))
        if cfg.frames is not None:
            parts.append(frames / cfg.frames)
        done = min(1.0, max(parts))
        return RecipeProgress(i, STAGES[i].name, frames, fps, seconds, done, loss, ev.to_dict() if ev else None)

    def _snapshot(self, i: int, trainer: Trainer, before: int) -> Evaluation:
        """Evaluate the stage's network now, keep it as a snapshot (its evaluation and the run's frames in its
        description) and log it."""
        policy = trainer.policy()
        ev = evaluate(
            policy,
            self.rules,
            self.config.players,
            deals=self.eval_deals,
            seed=EVAL_SEED,
            opponent=OPPONENT,
            utility=self.utility,
        )
        frames = before + trainer.frames
        policy.meta.update(frames=frames, evaluation=ev.to_dict(), stage=STAGES[i].name)
        path = self.run_dir / "snapshots" / f"s{i + 1}-f{frames:012d}.npz"
        policy.save(path)
        self.state.snapshots.append({"stage": i, "file": str(path), "frames": frames, "evaluation": ev.to_dict()})
        return ev

    def _curve(self) -> None:
        try:
            from bigtwo.rl.curve import plot_curve
        except ImportError:  # matplotlib missing: the log still has every evaluation
            return
        plot_curve(
            self.state.log,
            self.run_dir / "curve.png",
            title=f"{self.rules.name}, {self.config.players} players",
            measure=self.utility,
        )

    def _finish(self) -> None:
        """Choose the network: the mean of the last stage's last snapshots where its evaluation on the final deals
        is not behind the last snapshot's on the same deals, else the last snapshot; write it to ``final.npz``."""
        last_stage = len(STAGES) - 1
        files = [s["file"] for s in self.state.snapshots if s["stage"] == last_stage][-AVERAGE_LAST:]
        last = QPolicy.load(files[-1])

        def measure(policy: QPolicy) -> Evaluation:
            return evaluate(
                policy,
                self.rules,
                self.config.players,
                deals=self.final_deals,
                seed=FINAL_SEED,
                opponent=OPPONENT,
                utility=self.utility,
            )

        last_ev = measure(last)
        chosen, chosen_ev, averaged = last, last_ev, False
        mean_ev = None
        if len(files) >= 2:
            mean = average_weights(files)
            mean_ev = measure(mean)
            if mean_ev.points >= last_ev.points:
                chosen, chosen_ev, averaged = mean, mean_ev, True
        cfg = self.config
        chosen.meta.update(
            frames=self.frames,
            evaluation=chosen_ev.to_dict(),
            train_seconds=round(self.state.seconds, 1),
            recipe={
                "stages": [s.name for s in STAGES],
                "seed": cfg.seed,
                "minutes": cfg.minutes,
                "frames": cfg.frames,
                "averaged": averaged,
                "last_snapshot": last_ev.to_dict(),
                "mean": None if mean_ev is None else mean_ev.to_dict(),
            },
        )
        chosen.meta.pop("stage", None)
        path = chosen.save(self.run_dir / "final.npz")
        shipped = shipped_policy(self.rules, cfg.players)
        shipped_ev = None
        if shipped is not None and shipped.meta.get("features_version") == chosen.meta.get("features_version"):
            shipped_ev = measure(shipped)  # the package's own network for these rules, on the same deals
        self.state.final = {
            "file": str(path),
            "averaged": averaged,
            "evaluation": chosen_ev.to_dict(),
            "last_snapshot": last_ev.to_dict(),
            "mean": None if mean_ev is None else mean_ev.to_dict(),
            "frames": self.frames,
            "seconds": self.state.seconds,
            "shipped": None if shipped_ev is None else shipped_ev.to_dict(),
        }

    @property
    def behind_shipped(self) -> bool:
        """Whether the finished network scored less than the package's own network for these rules on the same
        deals (then it is not installed: the stronger one stays the table's)."""
        final = self.state.final
        return bool(final and final.get("shipped") and final["shipped"]["points"] > final["evaluation"]["points"])

    def install(self, out: str | Path | None = None) -> Path | None:
        """Install the chosen network where ``learned`` and ``isearch`` find it for these rules and this table
        size (the user's data directory), unless it is behind the shipped network for them (:attr:`behind_shipped`:
        then None), and copy it to ``out`` where given, whichever; the installed file's path."""
        if self.state.final is None:
            raise ValueError(f"{self.run_dir}: the run has not finished; run it again to go on")
        source = self.state.final["file"]
        if out is not None:
            Path(out).parent.mkdir(parents=True, exist_ok=True)
            QPolicy.load(source).save(out)
        if self.behind_shipped:
            return None
        return install_weights(source, self.rules, self.config.players)


__all__ = [
    "STAGES",
    "Recipe",
    "RecipeConfig",
    "RecipeProgress",
    "RecipeState",
    "Stage",
    "default_run_dir",
    "evaluation_deals",
]
