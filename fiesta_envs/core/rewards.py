"""Final rewards from final scores, the same way for every competitive game.

``ranking_returns``: linear in rank from +1 (first) to -1 (last); tied players share the
average of the ranks they span. With two players this is win +1, loss -1, tie 0.
``margin_returns``: each player's lead over the best other player, divided by a typical
winning score and clipped to [-1, 1].
"""

from __future__ import annotations

import numpy as np


def ranking_returns(scores: np.ndarray) -> np.ndarray:
    scores = np.asarray(scores, dtype=float)
    n = len(scores)
    if n < 2:
        return np.zeros(n)
    result = np.empty(n)
    for i, score in enumerate(scores):
        better = int(np.sum(scores > score))
        tied = int(np.sum(scores == score))
        # Rank r (0 = best) is worth 1 - 2r / (n - 1); the tied players share the mean over the ranks
        # better .. better + tied - 1, written as one division so that a tie across the middle is
        # exactly 0 (summing the rank values first leaves 5.55e-17 for a four-way tie).
        result[i] = ((n - 1) - (2 * better + tied - 1)) / (n - 1)
    return result


def margin_returns(scores: np.ndarray, scale: float) -> np.ndarray:
    scores = np.asarray(scores, dtype=float)
    n = len(scores)
    if n < 2:
        return np.clip(scores / scale, -1.0, 1.0)
    result = np.empty(n)
    for i in range(n):
        best_other = np.max(np.delete(scores, i))
        result[i] = (scores[i] - best_other) / scale
    return np.clip(result, -1.0, 1.0)
