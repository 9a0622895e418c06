"""The score distribution of an arena run as a PNG (matplotlib's Agg renderer: no display needed)."""

from __future__ import annotations

from pathlib import Path

from bigtwo.arena.results import ArenaResult
from bigtwo.errors import BigTwoError


def can_plot() -> bool:
    """Whether matplotlib is installed (the ``plot`` extra), so a PNG can be drawn."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return False
    return True


def check_plot_path(path: str | Path) -> Path:
    """Refuse a plot that cannot be written (no matplotlib, no such folder) before a run plays any game."""
    path = Path(path)
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise BigTwoError(f"--plot {path}: plots need matplotlib: pip install 'bigtwo[plot]'") from None
    if path.suffix.lower() != ".png":
        raise BigTwoError(f"--plot {path}: the plot is written as a PNG file (.png)")
    if not path.parent.is_dir():
        raise BigTwoError(f"--plot {path}: there is no folder {path.parent}")
    return path


def plot_scores(result: ArenaResult, path: str | Path) -> Path:
    """One histogram of points a game per bot (as a share of its games), its mean marked; written to ``path``."""
    try:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
    except ImportError:
        raise BigTwoError("plots need matplotlib: pip install 'bigtwo[plot]'") from None
    path = Path(path)
    per_label: dict[str, list[float]] = {label: [] for label in result.labels()}
    for r in result.records:
        for seat, label in enumerate(r.labels):
            per_label[label].append(r.points[seat])
    values = [v for vs in per_label.values() for v in vs]
    if not values:
        raise BigTwoError("no games to plot")
    lo, hi = min(values), max(values)
    integral = all(float(v).is_integer() for v in values)
    bins = [x - 0.5 for x in range(int(lo), int(hi) + 2)] if integral and hi - lo <= 120 else 40
    fig = Figure(figsize=(8, 4.5), dpi=100)
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    summary = {s.label: s for s in result.summary()}
    for i, (label, vs) in enumerate(per_label.items()):
        colour = f"C{i % 10}"
        mean = summary[label].points.mean if label in summary else sum(vs) / len(vs)
        ax.hist(
            vs,
            bins=bins,
            weights=[1 / len(vs)] * len(vs),  # each bot's share of its own games: seat counts may differ
            histtype="step",
            linewidth=1.5,
            color=colour,
            label=f"{label} (mean {mean:+.2f})",
        )
        ax.axvline(mean, color=colour, linestyle="--", linewidth=1)
    cfg = result.config
    ax.set_title(f"{cfg['rules']['name']}: points a game ({cfg['utility']}), {result.games} games")
    ax.set_xlabel("points in a game")
    ax.set_ylabel("share of the bot's games")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, format="png")
    return path
