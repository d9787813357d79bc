"""The components of Fiesta de los Muertos and La Catrina, and the constants every module shares.

Imports nothing: the rules (``round.py``), the observation, the renderer and the tests all read these.

  skulls and number cards   at most 8 skulls (8 players, or 4 with the double challenge), numbered 1..8
  the table                 8 characters face up in the deduction
  teeth                     4 per skull: one word per writing step
  Memory Bones (yellow)     at the start 0/1/2/3/4 for 4/5/6/7/8 players (published)
  Limbo Bones (red)         La Catrina: 0/1/2/3/4 for 4/5/6/7/8 players (rulebook), never won back
  La Catrina's hat          13 flowers
"""

from __future__ import annotations

import enum

#: Skulls in play at most: number cards 1..8.
MAX_SKULLS = 8
#: Characters face up during the deduction.
TABLE_SIZE = 8
#: Teeth on a skull: the four writing steps.
STEPS = 4
#: What a tooth holds besides a word id: nothing yet, or a blank.
NOT_WRITTEN = -2
BLANK = -1
#: Yellow Memory Bones at the start, by player count.
MEMORY_BONES = {4: 0, 5: 1, 6: 2, 7: 3, 8: 4}
#: Red Limbo Bones of La Catrina, by player count.
LIMBO_BONES = {4: 0, 5: 1, 6: 2, 7: 3, 8: 4}
#: The most Limbo Bones a team ever holds.
MAX_LIMBO = max(LIMBO_BONES.values())
#: The flowers on La Catrina's hat; colouring the last one ends the campaign at once.
MAX_FLOWERS = 13
#: What a checked yellow box gave: nothing yet, a Memory Bone or a flower.
REWARDS = ("", "memory", "flower")


class Phase(enum.IntEnum):
    """The phases of a round, in play order (the state dict stores the number)."""

    DRAW = 0  # draw choice: keep one of two characters
    WRITE = 1  # four writing steps
    DEDUCE = 2  # every player matches every skull
    YELLOW = 3  # La Catrina: memory or flower for each checked yellow box
    SPEND = 4  # the decider spends bones, then ``done``
    DONE = 5  # the round is over
