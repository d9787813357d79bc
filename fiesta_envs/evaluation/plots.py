"""Pictures of evaluation results (matplotlib, Agg canvas: no display needed)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from fiesta_envs.evaluation.stats import Rating
from fiesta_envs.files.atomic import atomic_target


def plot_ratings(ratings: Sequence[Rating], path: str | Path, title: str, anchor: str = "random") -> Path:
    """A horizontal chart of ratings with their 95% intervals, best on top, saved as PNG.

    Written to a temporary file and renamed into place, like every result file.
    """
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    ordered = sorted(ratings, key=lambda r: r.rating)
    labels = [r.agent for r in ordered]
    values = [r.rating for r in ordered]
    below = [max(0.0, r.rating - r.ci_low) for r in ordered]
    above = [max(0.0, r.ci_high - r.rating) for r in ordered]
    figure = Figure(figsize=(7.0, 1.2 + 0.45 * len(ordered)), dpi=120)
    FigureCanvasAgg(figure)
    axes = figure.add_subplot()
    positions = list(range(len(ordered)))
    axes.errorbar(
        values,
        positions,
        xerr=[below, above],
        fmt="o",
        color="tab:blue",
        ecolor="tab:gray",
        capsize=4,
        elinewidth=1.5,
    )
    axes.axvline(0.0, color="black", linewidth=0.8, linestyle=":")
    axes.set_yticks(positions, labels)
    axes.set_ylim(-0.6, len(ordered) - 0.4)
    axes.set_xlabel(f"rating (Elo scale, {anchor} = 0) with 95% interval")
    axes.set_title(title, fontsize=10)
    axes.grid(axis="x", alpha=0.3)
    figure.tight_layout()
    path = Path(path)
    with atomic_target(path) as temporary:
        figure.savefig(temporary, format="png")
    return path


def read_learning_curve(eval_log: str | Path) -> dict[str, list[tuple[int, float]]]:
    """``{baseline: [(step, win rate), ...]}`` from a run's ``eval.jsonl``."""
    import json

    curves: dict[str, list[tuple[int, float]]] = {}
    for line in Path(eval_log).read_text(encoding="utf-8").splitlines():
        if line.strip():
            entry = json.loads(line)
            for name, rate in entry["win_rate"].items():
                curves.setdefault(name, []).append((int(entry["step"]), float(rate)))
    return curves


def plot_learning_curve(eval_log: str | Path, path: str | Path, title: str) -> Path:
    """Win rate against each baseline over training steps (from ``eval.jsonl``), saved as PNG atomically."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    figure = Figure(figsize=(7.0, 4.0), dpi=120)
    FigureCanvasAgg(figure)
    axes = figure.add_subplot()
    for name, points in read_learning_curve(eval_log).items():
        steps, rates = zip(*sorted(points), strict=True)
        axes.plot(steps, rates, marker="o", label=f"vs {name}")
    axes.axhline(0.5, color="black", linewidth=0.8, linestyle=":")
    axes.set_ylim(-0.02, 1.02)
    axes.set_xlabel("training steps (learner decisions)")
    axes.set_ylabel("win rate (periodic evaluation)")
    axes.set_title(title, fontsize=10)
    axes.grid(alpha=0.3)
    axes.legend(loc="lower right")
    figure.tight_layout()
    path = Path(path)
    with atomic_target(path) as temporary:
        figure.savefig(temporary, format="png")
    return path
