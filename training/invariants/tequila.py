"""Tequila's invariants, checked by the fuzzer from state dicts only.

A roll-and-write sheet only ever gains marks: that is what these checks hold the engine to.

* ``check_state``: on every resource track the crossed-out (spent) squares never exceed the
  marked ones and neither goes negative or past the track; coins, this round's fences, builds,
  gears and credits are never negative; no two buildings use the same placement.
* ``check_transition``: tracks only move forward (marked and crossed squares, coins earned,
  production, collections, extra gears bought); fences, fenced-off fields, market spaces,
  filled sections and "first to" bonuses are never erased (their bit masks only gain bits);
  buildings are never removed or changed (the list only grows, by one at most); the round only
  moves forward; the round a "first to" bonus was first gained is never rewritten.
* ``check_final``: every player's final score is at least 0, and the solo game has one player.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from fiesta_envs.tequila.components import RESOURCE_TRACK_LENGTH

GROWING_COUNTS = ("coins_earned", "collections", "extra_bought")
GROWING_MASKS = ("fences", "rewarded_fields", "market", "sections", "bonuses")
NEVER_NEGATIVE = ("coins", "fences_left", "builds_left", "gears_left", "credits", "gears_unused")


def check_state(data: dict[str, Any]) -> list[str]:
    problems = []
    for p, sheet in enumerate(data["state"]["sheets"]):
        for r, (marked, crossed) in enumerate(zip(sheet["marked"], sheet["crossed"], strict=True)):
            if not 0 <= crossed <= marked <= RESOURCE_TRACK_LENGTH:
                problems.append(f"player {p} resource {r}: {crossed} crossed of {marked} marked")
        for key in NEVER_NEGATIVE:
            if sheet[key] < 0:
                problems.append(f"player {p}: {key} is {sheet[key]}")
        placements = [index for _, index in sheet["buildings"]]
        if len(placements) != len(set(placements)):
            problems.append(f"player {p}: two buildings on one placement {placements}")
    return problems


def check_transition(before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    b, a = before["state"], after["state"]
    problems = []
    if a["round"] < b["round"]:
        problems.append(f"the round went back from {b['round']} to {a['round']}")
    for i, (old, new) in enumerate(zip(b["bonus_round"], a["bonus_round"], strict=True)):
        if old >= 0 and new != old:
            problems.append(f"bonus {i} first gained in round {old} is now round {new}")
    for p, (old, new) in enumerate(zip(b["sheets"], a["sheets"], strict=True)):
        for key in ("marked", "crossed", "production"):
            if any(y < x for x, y in zip(old[key], new[key], strict=True)):
                problems.append(f"player {p}: {key} went back from {old[key]} to {new[key]}")
        for key in GROWING_COUNTS:
            if new[key] < old[key]:
                problems.append(f"player {p}: {key} went back from {old[key]} to {new[key]}")
        for key in GROWING_MASKS:
            if old[key] & ~new[key]:
                problems.append(f"player {p}: marks erased from {key}")
        count = len(old["buildings"])
        if new["buildings"][:count] != old["buildings"] or len(new["buildings"]) > count + 1:
            problems.append(f"player {p}: buildings changed from {old['buildings']} to {new['buildings']}")
    return problems


def check_final(data: dict[str, Any], scores: Sequence[float]) -> list[str]:
    if len(scores) != data["num_players"] or min(scores) < 0:
        return [f"final scores {list(scores)}"]
    return []
