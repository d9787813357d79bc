"""La Catrina's invariants: each round as in Fiesta de los Muertos, plus the campaign's.

* ``check_state``: the round checks of ``fiesta_de_los_muertos``; flowers within 0..13; Limbo
  Bones never more than the player count gives (0/1/2/3/4 for 4..8 players); every past round
  in the record succeeded (a failed round ends the campaign).
* ``check_transition``: as in the base game (words and guesses fixed, no Limbo Bone won back,
  flowers never lost, rounds only forward).
* ``check_final``: every player's score is the flowers; the campaign ended for a reason the
  rulebook gives (a failed round, after round 4, or 13 flowers), and the flowers add up: one
  per yellow box turned into a flower plus 1/2/3 for succeeding in rounds 2/3/4, at most 13.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from fiesta_envs.muertos.components import LIMBO_BONES, MAX_FLOWERS
from fiesta_envs.testing.invariants.fiesta_de_los_muertos import check_transition, round_problems, team_problems

SUCCESS_FLOWERS = (0, 1, 2, 3)

__all__ = ["check_final", "check_state", "check_transition"]


def check_state(data: dict[str, Any]) -> list[str]:
    state = data["state"]
    problems = team_problems(data) + round_problems(data, state["round"])
    team = state["team"]
    if team["flowers"] > MAX_FLOWERS:
        problems.append(f"{team['flowers']} flowers on a hat of {MAX_FLOWERS}")
    if team["limbo"] > LIMBO_BONES[data["num_players"]]:
        problems.append(f"{team['limbo']} Limbo Bones with {data['num_players']} players")
    if not state["over"] and any(not record["success"] for record in state["history"]):
        problems.append("the campaign goes on after a failed round")
    return problems


def check_final(data: dict[str, Any], scores: Sequence[float]) -> list[str]:
    state = data["state"]
    flowers = state["team"]["flowers"]
    problems = []
    if any(float(s) != flowers for s in scores):
        problems.append(f"scores {list(scores)}, but the hat has {flowers} flowers")
    history = state["history"]
    last = history[-1] if history else None
    reasons = {
        "failed round": last is not None and not last["success"],
        "after round 4": len(history) == 4,
        "13 flowers": flowers >= MAX_FLOWERS,
    }
    if not any(reasons.values()):
        problems.append(f"the campaign ended after {len(history)} rounds with {flowers} flowers, for no reason")
    earned = sum(r["yellow_flowers"] + (SUCCESS_FLOWERS[r["round"] - 1] if r["success"] else 0) for r in history)
    if flowers != min(MAX_FLOWERS, earned):
        problems.append(f"{flowers} flowers, but the rounds earned {earned}: {history}")
    return problems
