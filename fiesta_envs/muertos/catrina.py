"""La Catrina: the cooperative campaign of up to four rounds of Fiesta de los Muertos.

Each round plays as the base game except Phase 4: a checked yellow box gives the team a
Memory Bone or a flower (the decider chooses), and red Limbo Bones close unappeased skulls.
Round r (1..4) has r - 1 constraint cards; closing every skull of rounds 2/3/4 colours 1/2/3
more flowers. The campaign stops after a failed round, after round 4, or at 13 flowers (see
``fiesta_envs.la_catrina_v1`` for the full documentation).
"""

from __future__ import annotations

from typing import Any

from fiesta_envs.core.fields import FieldReader
from fiesta_envs.muertos.bands import mood_band
from fiesta_envs.muertos.components import MAX_FLOWERS
from fiesta_envs.muertos.constraints import CONSTRAINTS, draw_constraints
from fiesta_envs.muertos.engine import CORTEGE, DOUBLE_CHALLENGE, DRAW_CHOICE, MuertosGame
from fiesta_envs.muertos.state import CatrinaState

#: Constraint cards in rounds 1..4.
ROUND_CONSTRAINTS = (0, 1, 2, 3)
#: Flowers coloured for closing every skull of rounds 1..4.
SUCCESS_FLOWERS = (0, 1, 2, 3)
#: Why the campaign ended.
END_REASONS = ("", "failed round", "after round 4", "13 flowers")


class LaCatrina(MuertosGame):
    name = "la_catrina"
    options = {"draw_choice": DRAW_CHOICE, "double_challenge": DOUBLE_CHALLENGE, "cortege": CORTEGE}
    max_rounds = 4
    catrina = True
    stop_flowers = MAX_FLOWERS

    def _new_game(self) -> None:
        self.used_constraints: list[int] = []
        self.end_reason = ""
        super()._new_game()

    def _round_constraints(self) -> list[int]:
        """Fresh cards each round: never one drawn in an earlier round of the campaign."""
        count = ROUND_CONSTRAINTS[self.round_index]
        if not count:
            return []
        drawn = [int(c) for c in draw_constraints(count, self.rng, exclude=tuple(self.used_constraints))]
        self.used_constraints += drawn
        return drawn

    def _round_finished(self) -> None:
        record = self._round_record()
        record["yellow_flowers"] = self.round.rewards.count("flower")
        record["bonus_flowers"] = 0
        if self.team.flowers >= MAX_FLOWERS:
            self._end(record, "13 flowers")
            return
        if not self.round.succeeded:
            self._end(record, "failed round")
            return
        # Success colours 1/2/3 more flowers after rounds 2/3/4, never more than the hat holds.
        bonus = min(SUCCESS_FLOWERS[self.round_index], MAX_FLOWERS - self.team.flowers)
        record["bonus_flowers"] = bonus
        self.team.flowers += bonus
        if self.team.flowers >= MAX_FLOWERS:
            self._end(record, "13 flowers")
        elif self.round_index == self.max_rounds - 1:
            self._end(record, "after round 4")
        else:
            self.history.append(record)
            self.round_index += 1
            self._deal_round()

    def _end(self, record: dict[str, Any], reason: str) -> None:
        self.history.append(record)
        self.end_reason = reason
        self.over = True

    def team_value(self) -> float:
        return float(self.team.flowers)

    def team_reward(self) -> float:
        return self.team.flowers / MAX_FLOWERS

    def final_info(self) -> dict[str, Any]:
        band, text = mood_band(self.team.flowers)
        return {
            "flowers": self.team.flowers,
            "mood_band": band,
            "mood_text": text,
            "end_reason": self.end_reason,
            "rounds_played": len(self.history),
            "rounds": [dict(record) for record in self.history],
            "memory_bones": self.team.memory,
            "limbo_bones": self.team.limbo,
            "skull_reports": self.round.skull_reports(),
        }

    def saved_state(self) -> CatrinaState:
        base = super().saved_state()
        return CatrinaState(
            **{name: getattr(base, name) for name in base.__dataclass_fields__},
            used_constraints=self.used_constraints,
            end_reason=self.end_reason,
        )

    def _read_campaign(self, read: FieldReader) -> dict[str, Any]:
        return {
            "used_constraints": read.int_list("used_constraints", None, 0, len(CONSTRAINTS) - 1),
            "end_reason": read.choice("end_reason", END_REASONS),
        }
