"""The statistics behind evaluation: score intervals, Bradley–Terry ratings, mean intervals.

Pure numpy, no game knowledge. Three tools:

* ``score_interval(credit, games, shared)``: the 95% interval of a win rate in which a tie is
  worth part of a win (half, with two players). It is the Wilson score interval with the
  variance a game's credit really has: a tie is worth 1/2 every time, so a game's credit
  varies less than a coin's, by ``shared / games`` (``shared``: the sum of ``c(1 - c)`` over
  the games' credits ``c``, 1/4 per two-way tie). Without ties it is exactly
  ``wilson_interval``: unlike the "p ± 1.96·se" interval it stays inside [0, 1] and keeps its
  coverage near 0% and 100%. With many ties (two teams that appease the same skulls in most
  deals) the Wilson interval of the credit counted as successes would be several times too
  wide; this one keeps its 95% coverage (tested by simulation). The tie variance is estimated
  with one virtual win and one virtual loss added, so that a run of nothing but ties still
  gets an interval of some width.
* ``fit_bradley_terry(wins, anchor)``: ratings on the Elo scale from a matrix of pairwise
  results. Agent ``i`` beats ``j`` with probability ``1 / (1 + 10 ** ((r_j - r_i) / 400))``,
  so a 400-point lead means winning 10 games for every one lost; ``anchor`` is fixed at 0.
  The fit is the maximum of the likelihood (Newton's method; the log-likelihood is concave).
* ``rate_agents(comparisons, ...)``: that fit on all pairwise results of a tournament, with
  95% intervals that are the wider of two:
  - a percentile interval of a cluster bootstrap: whole clusters (every game played on one
    deal) are resampled, because results on a shared deal are correlated (the pairwise
    results of one four-player game are not independent);
  - the Fisher-information (Laplace) interval ``rating ± 1.96·se`` of the fit, which stays
    honest when a record is one-sided: if A won every game, so does every resample, and the
    bootstrap interval would collapse to a point.

A pair of agents whose every meeting went one way has no finite maximum-likelihood rating
gap. ``prior_draws`` (default 1) adds that many virtual drawn games to every pair that met,
which keeps ratings finite and shrinks them very slightly towards each other (200 games at
75% give 189.9 instead of 190.8 points).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

#: The normal quantile of a two-sided 95% interval.
Z95 = 1.959963984540054
#: Rating points per natural-log unit of odds (Elo scale).
ELO_PER_LOGIT = 400.0 / math.log(10.0)


def wilson_interval(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion ``successes / n`` (``(0, 1)`` when n is 0)."""
    if n < 0 or successes < 0 or successes > n:
        raise ValueError(f"need 0 <= successes <= n, got successes={successes}, n={n}")
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    z2 = z * z
    denominator = 1.0 + z2 / n
    centre = (p + z2 / (2 * n)) / denominator
    half_width = z / denominator * math.sqrt(p * (1.0 - p) / n + z2 / (4 * n * n))
    return max(0.0, centre - half_width), min(1.0, centre + half_width)


def score_interval(credit: float, games: int, shared: float = 0.0, z: float = Z95) -> tuple[float, float]:
    """The 95% interval of the win rate ``credit / games`` where a game may be shared (module docstring):
    ``shared`` is the sum of ``c * (1 - c)`` over the games' credits ``c`` (0 without ties, 1/4 per two-way
    tie); the interval solves ``games * (rate - p)**2 = z**2 * (p * (1 - p) - tie_variance)``."""
    if games < 0 or credit < 0 or credit > games:
        raise ValueError(f"need 0 <= credit <= games, got credit={credit}, games={games}")
    if shared < 0 or shared > games / 4:
        raise ValueError(f"need 0 <= shared <= games / 4 (each game's c(1 - c) is at most 1/4), got shared={shared}")
    if games == 0:
        return 0.0, 1.0
    rate = credit / games
    tie_variance = min(shared / (games + 2), rate * (1.0 - rate))  # one virtual win and one virtual loss
    z2 = z * z
    a = games + z2
    b = 2.0 * games * rate + z2
    root = z * math.sqrt(max(0.0, 4.0 * games * (rate * (1.0 - rate) - tie_variance) + z2 * (1.0 - 4.0 * tie_variance)))
    return max(0.0, (b - root) / (2.0 * a)), min(1.0, (b + root) / (2.0 * a))


def mean_interval(values: Sequence[float], z: float = Z95) -> tuple[float, float, float]:
    """Mean and normal-approximation interval ``mean ± z·sd/√n`` of a sample."""
    data = np.asarray(values, dtype=float)
    if data.size == 0:
        return math.nan, math.nan, math.nan
    mean = float(data.mean())
    if data.size == 1:
        return mean, mean, mean
    half_width = z * float(data.std(ddof=1)) / math.sqrt(data.size)
    return mean, mean - half_width, mean + half_width


def _normal_quantile(probability: float) -> float:
    """The standard normal quantile (bisection on ``erf``; exact enough for intervals)."""
    low, high = -10.0, 10.0
    for _ in range(100):
        middle = (low + high) / 2.0
        if 0.5 * (1.0 + math.erf(middle / math.sqrt(2.0))) < probability:
            low = middle
        else:
            high = middle
    return (low + high) / 2.0


def elo_win_probability(rating_difference: float) -> float:
    """Expected score of the higher-rated side for a given rating difference."""
    return 1.0 / (1.0 + 10.0 ** (-rating_difference / 400.0))


def elo_difference(win_probability: float) -> float:
    """Rating difference that makes ``win_probability`` the expected score."""
    return 400.0 * math.log10(win_probability / (1.0 - win_probability))


def _check_connected(games: np.ndarray, names: Sequence[str]) -> None:
    """Ratings are only comparable inside a group of agents linked by games."""
    k = len(games)
    seen = {0}
    frontier = [0]
    while frontier:
        i = frontier.pop()
        for j in np.flatnonzero(games[i] > 0):
            if int(j) not in seen:
                seen.add(int(j))
                frontier.append(int(j))
    if len(seen) < k:
        missing = ", ".join(names[i] for i in range(k) if i not in seen)
        raise ValueError(f"cannot rate agents that never met the others (directly or through others): {missing}")


def fit_bradley_terry(
    wins: np.ndarray,
    anchor: int = 0,
    prior_draws: float = 1.0,
    names: Sequence[str] | None = None,
) -> np.ndarray:
    """Elo-scale Bradley–Terry ratings, ``anchor`` fixed at 0.

    ``wins[i, j]`` is the credit agent ``i`` earned against ``j`` (1 per win, 0.5 per draw), so
    ``wins[i, j] + wins[j, i]`` is the number of games between them.
    """
    return fit_bradley_terry_with_errors(wins, anchor, prior_draws, names)[0]


def fit_bradley_terry_with_errors(
    wins: np.ndarray,
    anchor: int = 0,
    prior_draws: float = 1.0,
    names: Sequence[str] | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Ratings and their standard errors from the Fisher information (both on the Elo scale).

    The standard errors treat every pairwise result as independent; the anchor's is 0.
    """
    wins = np.array(wins, dtype=float)
    k = wins.shape[0]
    if wins.shape != (k, k) or np.any(wins < 0):
        raise ValueError(f"wins must be a square matrix of non-negative credits, got shape {wins.shape}")
    if not 0 <= anchor < k:
        raise ValueError(f"anchor {anchor} out of range for {k} agents")
    np.fill_diagonal(wins, 0.0)
    games = wins + wins.T
    _check_connected(games, names or [str(i) for i in range(k)])
    if prior_draws > 0:
        met = games > 0
        wins = wins + 0.5 * prior_draws * met
        games = wins + wins.T
    free = np.array([i for i in range(k) if i != anchor], dtype=int)
    theta = np.zeros(k)
    credit = wins.sum(axis=1)
    for _ in range(200):
        information = _information(theta, games)
        expected = 1.0 / (1.0 + np.exp(theta[None, :] - theta[:, None]))  # P(i beats j)
        gradient = credit - (games * expected).sum(axis=1)
        step = np.linalg.solve(information[np.ix_(free, free)], gradient[free])
        largest = float(np.max(np.abs(step))) if step.size else 0.0
        if largest > 2.0:  # damp huge first steps (lopsided records); the function is concave
            step *= 2.0 / largest
        theta[free] += step
        if largest < 1e-12:
            break
    errors = np.zeros(k)
    if free.size:
        covariance = np.linalg.inv(_information(theta, games)[np.ix_(free, free)])
        errors[free] = np.sqrt(np.diag(covariance))
    return theta * ELO_PER_LOGIT, errors * ELO_PER_LOGIT


def _information(theta: np.ndarray, games: np.ndarray) -> np.ndarray:
    """The Fisher information of the log-odds ratings (minus the log-likelihood's Hessian)."""
    expected = 1.0 / (1.0 + np.exp(theta[None, :] - theta[:, None]))
    weight = games * expected * (1.0 - expected)
    return np.diag(weight.sum(axis=1)) - weight


@dataclass(frozen=True)
class Rating:
    agent: str
    rating: float
    ci_low: float
    ci_high: float
    games: int  # games the agent played (each counted once, however many others sat at the table)


@dataclass(frozen=True)
class Comparison:
    """One pairwise result: in cluster ``cluster``, agent ``first`` scored ``credit`` against ``second``."""

    cluster: int
    first: int
    second: int
    credit: float  # 1 win, 0.5 draw, 0 loss


def cluster_matrices(comparisons: Sequence[Comparison], num_agents: int) -> tuple[np.ndarray, np.ndarray]:
    """Per-cluster credit matrices (clusters x agents x agents) and the cluster ids in order."""
    cluster_ids = sorted({c.cluster for c in comparisons})
    position = {cluster: i for i, cluster in enumerate(cluster_ids)}
    matrices = np.zeros((len(cluster_ids), num_agents, num_agents))
    for c in comparisons:
        if not 0.0 <= c.credit <= 1.0:
            raise ValueError(f"a comparison's credit must be in [0, 1], got {c.credit}")
        m = matrices[position[c.cluster]]
        m[c.first, c.second] += c.credit
        m[c.second, c.first] += 1.0 - c.credit
    return matrices, np.array(cluster_ids)


def rate_agents(
    comparisons: Sequence[Comparison],
    agents: Sequence[str],
    games_played: Sequence[int],
    anchor: str | None = "random",
    bootstrap: int = 1000,
    seed: int = 0,
    prior_draws: float = 1.0,
    confidence: float = 0.95,
) -> list[Rating]:
    """Ratings of ``agents`` from all pairwise results, with intervals (see the module docstring).

    ``anchor`` is the agent rated 0 (the first agent when ``anchor`` is None or absent); its
    interval is [0, 0] and the others' are relative to it. ``bootstrap=0`` gives the Fisher
    intervals only. The bootstrap is seeded, so the same results always give the same intervals.
    """
    k = len(agents)
    anchor_index = list(agents).index(anchor) if anchor is not None and anchor in agents else 0
    matrices, _ = cluster_matrices(comparisons, k)
    if len(matrices) == 0:
        raise ValueError("no pairwise results to rate")
    total = matrices.sum(axis=0)
    point, errors = fit_bradley_terry_with_errors(total, anchor_index, prior_draws, agents)
    z = _normal_quantile(0.5 + confidence / 2.0)
    low, high = point - z * errors, point + z * errors
    if bootstrap > 0 and len(matrices) > 1:
        rng = np.random.default_rng(seed)
        clusters = len(matrices)
        samples = np.empty((bootstrap, k))
        for b in range(bootstrap):
            weights = rng.multinomial(clusters, np.full(clusters, 1.0 / clusters))
            resampled = np.tensordot(weights, matrices, axes=1)
            try:
                samples[b] = fit_bradley_terry(resampled, anchor_index, prior_draws, agents)
            except ValueError:  # a resample lost every game linking some agent: skip it
                samples[b] = np.nan
        tail = 100.0 * (1.0 - confidence) / 2.0
        low = np.minimum(low, np.nanpercentile(samples, tail, axis=0))
        high = np.maximum(high, np.nanpercentile(samples, 100.0 - tail, axis=0))
    return [
        Rating(agent, float(point[i]), float(low[i]), float(high[i]), int(games_played[i]))
        for i, agent in enumerate(agents)
    ]


# ---------------------------------------------------------------------- one agent on a fixed ladder
def fit_against_ladder(
    credit: np.ndarray, games: np.ndarray, ladder: np.ndarray, prior_draws: float = 1.0
) -> tuple[float, float]:
    """The Elo-scale rating of one agent against opponents whose ratings stay fixed, and its standard error.

    ``credit[j]`` is what the agent earned against opponent ``j`` (1 per win, 0.5 per draw) in ``games[j]``
    pairwise results; ``ladder[j]`` is that opponent's rating. The opponents' ratings are not refitted, so
    every agent rated this way lands on the same scale. ``prior_draws`` as in ``fit_bradley_terry``.
    """
    credit = np.asarray(credit, dtype=float)
    games = np.asarray(games, dtype=float)
    fixed = np.asarray(ladder, dtype=float) / ELO_PER_LOGIT
    if not credit.shape == games.shape == fixed.shape or np.any(credit < 0) or np.any(credit > games):
        raise ValueError("need one credit, game count and rating per opponent, with 0 <= credit <= games")
    met = games > 0
    if not met.any():
        raise ValueError("no results against the ladder to rate")
    credit = credit + 0.5 * prior_draws * met
    games = games + prior_draws * met
    theta = float(fixed[met].mean())
    information = 0.0
    for _ in range(200):
        expected = 1.0 / (1.0 + np.exp(fixed - theta))
        information = float((games * expected * (1.0 - expected)).sum())
        step = float((credit - games * expected).sum()) / information
        step = max(-2.0, min(2.0, step))  # damp huge first steps (one-sided records)
        theta += step
        if abs(step) < 1e-12:
            break
    expected = 1.0 / (1.0 + np.exp(fixed - theta))
    information = float((games * expected * (1.0 - expected)).sum())
    return theta * ELO_PER_LOGIT, ELO_PER_LOGIT / math.sqrt(information)


def rate_against_ladder(
    results: Sequence[tuple[int, int, float]],
    ladder: Sequence[float],
    *,
    bootstrap: int = 1000,
    seed: int = 0,
    prior_draws: float = 1.0,
    confidence: float = 0.95,
) -> tuple[float, float, float]:
    """Rating and interval ``(rating, low, high)`` of one agent from its pairwise ``results`` against a ladder
    of fixed ratings: each result is ``(cluster, opponent index, credit)``.

    The interval is the wider of the Fisher interval and a percentile interval of a cluster bootstrap (whole
    clusters, e.g. every game on one deal, resampled), as in ``rate_agents``; it is relative to the ladder's
    fixed ratings.
    """
    k = len(ladder)
    cluster_ids = sorted({cluster for cluster, _, _ in results})
    position = {cluster: i for i, cluster in enumerate(cluster_ids)}
    credit = np.zeros((len(cluster_ids), k))
    games = np.zeros((len(cluster_ids), k))
    for cluster, opponent, value in results:
        if not 0.0 <= value <= 1.0:
            raise ValueError(f"a result's credit must be in [0, 1], got {value}")
        credit[position[cluster], opponent] += value
        games[position[cluster], opponent] += 1.0
    point, error = fit_against_ladder(credit.sum(axis=0), games.sum(axis=0), np.asarray(ladder), prior_draws)
    z = _normal_quantile(0.5 + confidence / 2.0)
    low, high = point - z * error, point + z * error
    clusters = len(cluster_ids)
    if bootstrap > 0 and clusters > 1:
        rng = np.random.default_rng(seed)
        samples = np.empty(bootstrap)
        for b in range(bootstrap):
            weights = rng.multinomial(clusters, np.full(clusters, 1.0 / clusters))
            samples[b] = fit_against_ladder(weights @ credit, weights @ games, np.asarray(ladder), prior_draws)[0]
        tail = 100.0 * (1.0 - confidence) / 2.0
        low = min(low, float(np.percentile(samples, tail)))
        high = max(high, float(np.percentile(samples, 100.0 - tail)))
    return float(point), float(low), float(high)
