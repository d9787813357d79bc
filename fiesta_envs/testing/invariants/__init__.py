"""Invariants the fuzzer checks: generic ones for every game here, per-game ones beside.

Generic checks work on what the ``Game`` contract exposes (masks, observations, scores,
returns, state dicts). Per-game checks live in ``fiesta_envs/testing/invariants/<game name>.py`` and read
the engine only through ``state_dict()`` (plain JSON data), so they are not coupled to private
attributes. A per-game module may define any of::

    check_state(data) -> list[str]               # data = game.state_dict(), at any moment
    check_transition(before, after) -> list[str]  # two state dicts, one action apart
    check_final(data, scores) -> list[str]       # the final state and Game.scores()

each returning human-readable violations (empty when all is well). Every function returns a
list of problems rather than raising, so the fuzzer can count checks and report them all.
"""

from __future__ import annotations

import importlib
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import Any

import numpy as np

Problems = list[str]


# ---------------------------------------------------------------------------- per-game modules
@dataclass(frozen=True)
class GameInvariants:
    """The per-game checks of one game (each may be missing)."""

    name: str
    check_state: Callable[[dict[str, Any]], Problems] | None = None
    check_transition: Callable[[dict[str, Any], dict[str, Any]], Problems] | None = None
    check_final: Callable[[dict[str, Any], Sequence[float]], Problems] | None = None

    @property
    def empty(self) -> bool:
        return self.check_state is None and self.check_transition is None and self.check_final is None


def invariants_for(game_name: str) -> GameInvariants:
    """The per-game checks of ``game_name`` (empty when no module exists for it)."""
    module = _per_game_module(game_name)
    if module is None:
        return GameInvariants(game_name)
    return GameInvariants(
        game_name,
        getattr(module, "check_state", None),
        getattr(module, "check_transition", None),
        getattr(module, "check_final", None),
    )


def _per_game_module(game_name: str) -> ModuleType | None:
    module_name = f"{__name__}.{game_name}"
    try:
        return importlib.import_module(module_name)
    except ModuleNotFoundError as error:
        if error.name == module_name:
            return None
        raise


# ---------------------------------------------------------------------------- generic checks
def json_problem(value: Any, path: str = "state") -> str | None:
    """The first place where ``value`` is not plain JSON data (dict/list/str/int/finite float/bool/None)."""
    if value is None or isinstance(value, (bool, str)):
        return None
    if type(value) is int:
        return None
    if type(value) is float:
        return None if math.isfinite(value) else f"{path} is {value!r} (not finite)"
    if isinstance(value, dict):
        for key, item in value.items():
            if not isinstance(key, str):
                return f"{path} has a non-string key {key!r} ({type(key).__name__})"
            problem = json_problem(item, f"{path}.{key}")
            if problem:
                return problem
        return None
    if isinstance(value, list):
        for i, item in enumerate(value):
            problem = json_problem(item, f"{path}[{i}]")
            if problem:
                return problem
        return None
    return f"{path} is a {type(value).__module__}.{type(value).__name__} ({value!r:.60}), not plain JSON data"


def mask_problems(mask: Any, num_actions: int, is_over: bool) -> Problems:
    """The legal mask: int8, the declared length, 0/1, non-empty exactly while the game goes on."""
    if not isinstance(mask, np.ndarray):
        return [f"legal_mask() returned a {type(mask).__name__}, not a numpy array"]
    problems = []
    if mask.dtype != np.int8:
        problems.append(f"legal_mask() has dtype {mask.dtype}, expected int8")
    if mask.shape != (num_actions,):
        problems.append(f"legal_mask() has shape {mask.shape}, expected ({num_actions},)")
        return problems
    if mask.size and (mask.min() < 0 or mask.max() > 1):
        problems.append(f"legal_mask() holds values other than 0 and 1: {sorted(set(mask.tolist()))}")
    legal = int(np.count_nonzero(mask))
    if not is_over and legal == 0:
        problems.append("no legal action although the game is not over")
    if is_over and legal:
        problems.append(f"{legal} actions are marked legal although the game is over")
    return problems


def observation_problems(obs: Any, *, size: int, low: Any, high: Any, who: str | int) -> Problems:
    """An observation: float32, the declared length, finite, within ``observation_bounds()``."""
    if not isinstance(obs, np.ndarray):
        return [f"observe({who}) returned a {type(obs).__name__}, not a numpy array"]
    problems = []
    if obs.dtype != np.float32:
        problems.append(f"observe({who}) has dtype {obs.dtype}, expected float32")
    if obs.shape != (size,):
        return [*problems, f"observe({who}) has shape {obs.shape}, expected ({size},)"]
    if not np.isfinite(obs).all():
        problems.append(f"observe({who}) holds non-finite values at {np.flatnonzero(~np.isfinite(obs))[:5].tolist()}")
    elif (obs < low).any() or (obs > high).any():
        below = np.flatnonzero(obs < low)
        above = np.flatnonzero(obs > high)
        where = np.concatenate([below, above])[:5]
        values = obs[where].tolist()
        problems.append(f"observe({who}) leaves the declared bounds at entries {where.tolist()}: {values}")
    return problems


def scores_problems(scores: Any, num_players: int) -> Problems:
    if not isinstance(scores, np.ndarray) or scores.shape != (num_players,):
        shape = getattr(scores, "shape", None)
        return [f"scores() returned {type(scores).__name__} of shape {shape}, expected ({num_players},)"]
    if not np.isfinite(scores).all():
        return [f"scores() holds non-finite values: {scores.tolist()}"]
    return []


def returns_problems(
    returns: Any,
    scores: np.ndarray,
    *,
    cooperative: bool,
    reward: str,
    winners: Sequence[int] | None = None,
    keys: np.ndarray | None = None,
    teams: Sequence[int] | None = None,
) -> Problems:
    """Final returns: the right shape, in [-1, 1], shared in cooperative games, ordered as the game ranks.

    Competitive games rank on ``keys`` (``Game.ranking_keys()``: the scores plus any tie-break)
    with the ranking reward, on the scores with the margin reward: a better key never earns
    less and equal keys earn the same. Team-mates (``teams``) earn the same; with the ranking
    reward the teams' returns sum to zero and the ``winners()`` are exactly the players with
    the highest return. One player alone (solo) is only checked for the range.
    """
    n = len(scores)
    if not isinstance(returns, np.ndarray) or returns.shape != (n,):
        return [f"returns() gave {returns!r}, expected an array of {n} values"]
    if not np.isfinite(returns).all() or (np.abs(returns) > 1.0 + 1e-9).any():
        return [f"returns() {returns.tolist()} are not all within [-1, 1]"]
    if cooperative:
        if not np.allclose(returns, returns[0]):
            return [f"cooperative game but returns differ: {returns.tolist()}"]
        return []
    if n == 1:
        return []
    order = np.asarray(keys if keys is not None and reward == "rank" else scores, dtype=float)
    what = "ranking key" if keys is not None and reward == "rank" else "score"
    team_of = list(teams) if teams is not None else list(range(n))
    problems = []
    for i in range(n):
        for j in range(n):
            if order[i] > order[j] and returns[i] < returns[j] - 1e-9:
                problems.append(
                    f"player {i} has a better {what} than player {j} ({order[i]} > {order[j]}) but got less "
                    f"({returns[i]} < {returns[j]})"
                )
            if (order[i] == order[j] or team_of[i] == team_of[j]) and abs(returns[i] - returns[j]) > 1e-9:
                problems.append(f"players {i} and {j} tie (or are team-mates) but get {returns[i]} and {returns[j]}")
    if reward == "rank":
        first_seats = [team_of.index(team) for team in dict.fromkeys(team_of)]
        if abs(float(returns[first_seats].sum())) > 1e-9:
            problems.append(f"ranking returns {returns.tolist()} do not sum to zero over the teams")
        best = np.flatnonzero(returns >= returns.max() - 1e-9).tolist()
        if winners is not None and sorted(winners) != best:
            problems.append(f"winners() {list(winners)} but the highest returns go to {best}: {returns.tolist()}")
    return problems
