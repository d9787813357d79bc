"""La Catrina: the cooperative campaign of up to four rounds of Fiesta de los Muertos.

Each round plays as the base game except Phase 4: a checked yellow box gives the team a
Memory Bone or a flower (the decider chooses), and red Limbo Bones close unappeased skulls.
Round r (1..4) has r - 1 constraint cards; closing every skull of rounds 2/3/4 colours 1/2/3
more flowers. The campaign stops after a failed round, after round 4, or at 13 flowers (see
``fiesta_envs.la_catrina_v1`` for the full documentation).
"""

from __future__ import annotations

from typing import Any

from fiesta_envs.core.state_fields import FieldReader
from fiesta_envs.muertos.bands import mood_band
from fiesta_envs.muertos.components import MAX_FLOWERS
from fiesta_envs.muertos.constraints import CONSTRAINTS, draw_constraints
from fiesta_envs.muertos.engine import CORTEGE, DOUBLE_CHALLENGE, DRAW_CHOICE, MuertosGame
from fiesta_envs.muertos.round import Round
from fiesta_envs.muertos.state import CatrinaState, MuertosState

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

    state: CatrinaState[Round]

    def _campaign_state(self, base: MuertosState[Round]) -> CatrinaState[Round]:
        return CatrinaState.extending(base, used_constraints=[], end_reason="")

    def _round_constraints(self) -> list[int]:
        """Fresh cards each round: never one drawn in an earlier round of the campaign."""
        state = self.state
        count = ROUND_CONSTRAINTS[state.round_index]
        if not count:
            return []
        drawn = [int(c) for c in draw_constraints(count, self.rng, exclude=tuple(state.used_constraints))]
        state.used_constraints += drawn
        return drawn

    def _round_finished(self) -> None:
        state = self.state
        team = state.team
        record = self._round_record()
        record["yellow_flowers"] = state.round.rewards.count("flower")
        record["bonus_flowers"] = 0
        if team.flowers >= MAX_FLOWERS:
            self._end(record, "13 flowers")
            return
        if not state.round.succeeded:
            self._end(record, "failed round")
            return
        # Success colours 1/2/3 more flowers after rounds 2/3/4, never more than the hat holds.
        bonus = min(SUCCESS_FLOWERS[state.round_index], MAX_FLOWERS - team.flowers)
        record["bonus_flowers"] = bonus
        team.flowers += bonus
        if team.flowers >= MAX_FLOWERS:
            self._end(record, "13 flowers")
        elif state.round_index == self.max_rounds - 1:
            self._end(record, "after round 4")
        else:
            state.history.append(record)
            state.round_index += 1
            self._deal_round()

    def _end(self, record: dict[str, Any], reason: str) -> None:
        state = self.state
        state.history.append(record)
        state.end_reason = reason
        state.over = True

    def team_value(self) -> float:
        return float(self.state.team.flowers)

    def team_reward(self) -> float:
        return self.state.team.flowers / MAX_FLOWERS

    def final_info(self) -> dict[str, Any]:
        state = self.state
        team = state.team
        band, text = mood_band(team.flowers)
        return {
            "flowers": team.flowers,
            "mood_band": band,
            "mood_text": text,
            "end_reason": state.end_reason,
            "rounds_played": len(state.history),
            "rounds": [dict(record) for record in state.history],
            "memory_bones": team.memory,
            "limbo_bones": team.limbo,
            "skull_reports": state.round.skull_reports(),
        }

    def _read_campaign(self, read: FieldReader, base: MuertosState[Round]) -> CatrinaState[Round]:
        return CatrinaState.extending(
            base,
            used_constraints=read.int_list("used_constraints", None, 0, len(CONSTRAINTS) - 1),
            end_reason=read.choice("end_reason", END_REASONS),
        )
