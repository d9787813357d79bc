"""The flat action space of Fiesta Mexicana: every decision of the game in one ``Discrete(90)``.

=========  =====================  =========================================================
indices    name                   decision
=========  =====================  =========================================================
0..7       ``orient P R``         setup: turn start card P (0: piñata space 6, 1: space 11)
                                  R quarter turns clockwise before placing it
8..17      ``keep A B C``         setup: keep objective slots A < B < C of the 5 dealt
18..33     ``bid N``              auction: bid N (1..16)
34         ``pass``               auction: pass (not final)
35..82     ``reserve N drop K``   auction: bid N and discard objective slot K (0..2); wins at once
83..86     ``place R``            the winner places the dish turned R quarter turns clockwise
87..89     ``rotate left|right|none``  a non-winner turns the table a quarter turn, or not
=========  =====================  =========================================================
"""

from __future__ import annotations

from itertools import combinations

from fiesta_envs.fiesta_mexicana.components import NUM_SPACES, OBJECTIVES_DEALT, OBJECTIVES_KEPT

NUM_START_CARDS_PER_PLAYER = 2
KEEP_CHOICES: tuple[tuple[int, int, int], ...] = tuple(
    (a, b, c) for a, b, c in combinations(range(OBJECTIVES_DEALT), OBJECTIVES_KEPT)
)
ROTATIONS: tuple[str, ...] = ("left", "right", "none")
#: Quarter turns to the left each rotation choice adds to a table's orientation.
ROTATION_TURNS: tuple[int, ...] = (1, 3, 0)

ORIENT = 0
KEEP = ORIENT + NUM_START_CARDS_PER_PLAYER * 4
BID = KEEP + len(KEEP_CHOICES)
PASS = BID + NUM_SPACES
RESERVE = PASS + 1
PLACE = RESERVE + NUM_SPACES * OBJECTIVES_KEPT
ROTATE = PLACE + 4
NUM_ACTIONS = ROTATE + len(ROTATIONS)


def orient_action(card: int, rotation: int) -> int:
    return ORIENT + 4 * card + rotation


def keep_action(slots: tuple[int, int, int]) -> int:
    return KEEP + KEEP_CHOICES.index(tuple(sorted(slots)))


def bid_action(number: int) -> int:
    return BID + number - 1


def reserve_action(number: int, slot: int) -> int:
    return RESERVE + OBJECTIVES_KEPT * (number - 1) + slot


def place_action(rotation: int) -> int:
    return PLACE + rotation


def rotate_action(choice: str) -> int:
    return ROTATE + ROTATIONS.index(choice)


def decode(action: int) -> tuple[str, tuple[int, ...]]:
    """The kind of an action and its arguments: ("bid", (9,)), ("reserve", (9, 1)), ("pass", ())..."""
    if action < KEEP:
        return "orient", divmod(action - ORIENT, 4)
    if action < BID:
        return "keep", KEEP_CHOICES[action - KEEP]
    if action < PASS:
        return "bid", (action - BID + 1,)
    if action == PASS:
        return "pass", ()
    if action < PLACE:
        number, slot = divmod(action - RESERVE, OBJECTIVES_KEPT)
        return "reserve", (number + 1, slot)
    if action < ROTATE:
        return "place", (action - PLACE,)
    return "rotate", (action - ROTATE,)


def action_name(action: int) -> str:
    kind, args = decode(action)
    if kind == "reserve":
        return f"reserve {args[0]} drop {args[1]}"
    if kind == "rotate":
        return f"rotate {ROTATIONS[args[0]]}"
    return " ".join([kind, *(str(a) for a in args)])


#: DECODED[a]: decode(a), precomputed for the step path.
DECODED: tuple[tuple[str, tuple[int, ...]], ...] = tuple(decode(a) for a in range(NUM_ACTIONS))
ACTION_NAMES: tuple[str, ...] = tuple(action_name(a) for a in range(NUM_ACTIONS))
