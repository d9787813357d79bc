"""The seeds and evaluations of a training run, the same for both backends (``train.py``, ``rllib_train.py``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from fiesta_envs.core.rng import derive_seed

if TYPE_CHECKING:
    from fiesta_envs.training.config import TrainConfig

EVAL_LOG = "eval.jsonl"
FINAL_EVAL = "final_eval.json"

_PURPOSES = {"global": 1, "envs": 2, "model": 3, "eval": 4, "final_eval": 5, "pretrain": 6}


def run_seed(seed: int, step: int, purpose: str) -> int:
    """A 31-bit seed for ``purpose`` at ``step`` of a run with ``seed`` (independent streams)."""
    return derive_seed(seed, step, _PURPOSES[purpose], bits=31)


def evaluate(config: TrainConfig, agent: Any, baselines: Sequence[str], games: int, seed: int, workers: int = 1) -> Any:
    """Win rates of ``agent`` against each baseline, seats rotated (``fiesta_envs.evaluation.evaluate``)."""
    from fiesta_envs.evaluation.evaluate import evaluate_against_baselines

    return evaluate_against_baselines(
        config.game,
        config.num_players,
        agent,
        baselines,
        games_per_baseline=games,
        seed=seed,
        options=dict(config.options),
        workers=workers,
    )


def print_table(results: Any, title: str) -> None:
    from fiesta_envs.evaluation.evaluate import print_results_table

    print_results_table(results, title)


def summarise(results: Any) -> dict[str, float]:
    """``{baseline: win rate}`` of an evaluation (for TensorBoard and the progress bar)."""
    return {row.opponent: row.win_rate for row in results}


def intervals(results: Any) -> dict[str, list[float]]:
    """``{baseline: [low, high]}``: the 95% interval of each win rate."""
    return {row.opponent: [round(row.ci_low, 4), round(row.ci_high, 4)] for row in results}
