"""Fiesta de los Muertos: one cooperative round for 4-8 players.

Draw, four writing steps, the deduction and the appeasement of ``round.py``; the team's
result is the number of appeased skulls (see ``fiesta_envs.fiesta_de_los_muertos_v1`` for
the full documentation).
"""

from __future__ import annotations

from typing import Any

from fiesta_envs.core.options import Option
from fiesta_envs.muertos.bands import result_band
from fiesta_envs.muertos.constraints import draw_constraints
from fiesta_envs.muertos.engine import CORTEGE, DOUBLE_CHALLENGE, DRAW_CHOICE, MuertosGame


class FiestaDeLosMuertos(MuertosGame):
    name = "fiesta_de_los_muertos"
    options = {
        "draw_choice": DRAW_CHOICE,
        "double_challenge": DOUBLE_CHALLENGE,
        "cortege": CORTEGE,
        "constraints": Option(0, choices=(0, 1, 2, 3), doc="constraint cards in play for the round"),
    }
    max_rounds = 1
    catrina = False

    def _round_constraints(self) -> list[int]:
        count = self.config["constraints"]
        return [int(c) for c in draw_constraints(count, self.rng)] if count else []

    def _round_finished(self) -> None:
        self.state.history.append(self._round_record())
        self.state.over = True

    def team_value(self) -> float:
        """Skulls appeased so far (final once the round is over)."""
        return float(self.state.round.appeased_count())

    def team_reward(self) -> float:
        return self.team_value() / self.rules.skulls

    def final_info(self) -> dict[str, Any]:
        state = self.state
        appeased = int(self.team_value())
        band, text = result_band(appeased, self.rules.skulls)
        return {
            "appeased": appeased,
            "skulls": self.rules.skulls,
            "result_band": band,
            "result_text": text,
            "memory_bones": state.team.memory,
            "flowers": 0,
            "constraints": list(state.round.constraints),
            "skull_reports": state.round.skull_reports(),
        }
