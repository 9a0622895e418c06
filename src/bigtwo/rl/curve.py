"""The learning curve: evaluation points against frames (with the 95% band), and the training loss."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bigtwo.rl.evaluate import opponents_played
from bigtwo.rules.choices import Measure
from bigtwo.utilities import MEASURE_WORDS, UTILITIES


def plot_curve(log: Sequence[dict[str, Any]], path: str | Path, title: str = "", measure: str = "cards") -> Path:
    """Draw the run's log (``Trainer.log`` lines) to a PNG: evaluations above, loss below. Lines with a
    ``stage`` (e.g. runs chained with ``--init-from``, their frames counted on) are drawn stage by stage.
    ``measure``: the utility the evaluations were scored in (the axis says so)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    path = Path(path)
    evals = [r for r in log if r.get("evaluation")]
    losses = [r for r in log if r.get("loss") is not None]
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(8, 6), sharex=True, height_ratios=(2, 1))
    if evals:
        opp = opponents_played(evals[-1]["evaluation"])
        stages = list(dict.fromkeys(r.get("stage", "") for r in evals))
        for stage in stages:
            part = [r for r in evals if r.get("stage", "") == stage]
            x = [r["frames"] / 1e6 for r in part]
            y = [r["evaluation"]["points"] for r in part]
            lo = [r["evaluation"]["low"] for r in part]
            hi = [r["evaluation"]["high"] for r in part]
            top.fill_between(x, lo, hi, alpha=0.25)
            label = f"greedy policy vs {opp}" + (f": {stage}" if stage else "") + " (95% band)"
            top.plot(x, y, marker="o", label=label)
        top.axhline(0, color="grey", lw=0.8)
        top.set_ylabel(
            MEASURE_WORDS.get(Measure(measure), "points a game") if measure in UTILITIES else "points a game"
        )
        top.legend(loc="lower right")
        hours = evals[-1]["seconds"] / 3600
        top.set_title(f"{title}: {evals[-1]['frames']:,} frames, {hours:.1f} h".strip(": "))
    for stage in dict.fromkeys(r.get("stage", "") for r in losses):
        part = [r for r in losses if r.get("stage", "") == stage]
        bottom.plot([r["frames"] / 1e6 for r in part], [r["loss"] for r in part], lw=0.8)
    bottom.set_ylabel("loss (MSE)")
    bottom.set_xlabel("frames (millions)")
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path
