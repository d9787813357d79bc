"""What a training run shows while it runs: a progress bar and one-line notes.

The bar (tqdm, on stderr) advances after every rollout and shows the mean episode reward of
the last 100 episodes and the latest evaluation win rates; it switches itself off when
stderr is not a terminal (logs, CI) unless forced on. Numbers for plots go to TensorBoard.
"""

from __future__ import annotations

import sys
from typing import Any

import numpy as np
from stable_baselines3.common.callbacks import BaseCallback


class ProgressBar:
    def __init__(self, total: int, initial: int, enabled: bool) -> None:
        from tqdm import tqdm

        self.bar = tqdm(
            total=total,
            initial=initial,
            unit="step",
            unit_scale=True,
            dynamic_ncols=True,
            disable=None if enabled else True,  # None: only on a terminal
            file=sys.stderr,
            desc="training",
        )
        self.fields: dict[str, str] = {}

    def advance_to(self, step: int) -> None:
        if step > self.bar.n:
            self.bar.update(step - self.bar.n)

    def show(self, **fields: Any) -> None:
        self.fields.update({key: str(value) for key, value in fields.items()})
        self.bar.set_postfix(self.fields, refresh=True)

    def note(self, text: str) -> None:
        """A line above the bar (or a plain line when the bar is off)."""
        if self.bar.disable:
            print(text, file=sys.stderr, flush=True)
        else:
            self.bar.write(text, file=sys.stderr)

    def close(self) -> None:
        self.bar.close()


class ProgressCallback(BaseCallback):
    """Moves the bar after every rollout and shows the recent mean episode reward."""

    def __init__(self, bar: ProgressBar) -> None:
        super().__init__(verbose=0)
        self.progress = bar

    def _on_step(self) -> bool:
        return True

    def _on_rollout_end(self) -> None:
        self.progress.advance_to(self.model.num_timesteps)
        episodes = self.model.ep_info_buffer
        if episodes:
            self.progress.show(reward=f"{np.mean([e['r'] for e in episodes]):+.2f}")
