"""Training environments shared by the training tests."""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from fiesta_envs.training.train import _build_env


def fiesta_mexicana_env(baselines: Mapping[str, float]) -> Callable[[], Any]:
    """A factory of the shipped config's kind of Fiesta Mexicana training env (action features, margin reward,
    shaping) against ``baselines`` by weight, no league."""
    return functools.partial(
        _build_env,
        game="fiesta_mexicana",
        num_players=2,
        options={"action_features": True, "reward": "margin"},
        baselines=dict(baselines),
        self_play_weight=0.0,
        deterministic_members=False,
        cooperative=False,
        members=[],
        reward_shaping=1.0,
        gamma=0.99,
    )


def evaluations(run: Path) -> list[dict[str, Any]]:
    """A run's ``eval.jsonl`` without the training seconds (wall time: the rest is a function of the seed)."""
    lines = (run / "eval.jsonl").read_text().splitlines()
    return [{key: value for key, value in json.loads(line).items() if key != "train_seconds"} for line in lines]
