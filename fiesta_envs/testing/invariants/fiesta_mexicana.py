"""Fiesta Mexicana's invariants, checked by the fuzzer from state dicts only.

An independent second reading of the rules: it uses the component data (cards, objectives,
special spaces) but none of the engine's rule code, so a bug in the engine's scoring or
geometry shows up as a disagreement.

* ``check_state``: every dish card is in exactly one place (deck, a table, a start-card hand, on
  offer); points never negative; placed cards have a rotation and empty spaces none; start
  cards sit on their piñata spaces (no start cards in the confirmed-waiters variant); kept
  objectives have different colours, never more copies than the deck holds, and one slot is
  empty per reserve made; the auction's high bid is legible and uncovered on the bidder's table.
* ``check_transition``: placed cards never move or disappear; at most one card is placed per
  action; a placement earns skulls + bowls (recomputed here, with the floor at 0) and nobody
  else's points change; tables turn a quarter at most, all together when the last player has
  chosen, each as its player chose (``turns_chosen``); the deck never grows; reserves never go down.
* ``check_final``: the final score of every player, recomputed from the final tables: points
  + objectives (children, teens, seniors' squares and lines, masked guests' bowls) - the
  variant's penalties, floored at 0.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from fiesta_envs.fiesta_mexicana.components import (
    CHILDREN,
    DISH_CARDS,
    MASKED_FOUR,
    MASKED_SIX,
    MASKED_THREE_SAME,
    NUM_DISH_CARDS,
    OBJECTIVE_DECK,
    OBJECTIVE_KINDS,
    PINATA_SPACES,
    SENIORS_LINE_3,
    SENIORS_LINE_4,
    SENIORS_SQUARE,
    TEENS,
    VARIANT_PENALTIES,
)

SIDE = 4
NORTH, EAST, SOUTH, WEST = range(4)
STEPS = {NORTH: (-1, 0), EAST: (0, 1), SOUTH: (1, 0), WEST: (0, -1)}
SAME_COLOUR, MIXED, HALF = 3, -1, -1


# ---------------------------------------------------------------------------- geometry
def neighbour(space: int, direction: int) -> int | None:
    row, col = divmod(space, SIDE)
    dr, dc = STEPS[direction]
    r, c = row + dr, col + dc
    return r * SIDE + c if 0 <= r < SIDE and 0 <= c < SIDE else None


#: Quarter turns to the left of the choices ``rotate left``, ``rotate right``, ``rotate none`` (``turns_chosen``).
QUARTERS_LEFT = (1, 3, 0)


def fixed_space(orientation: int, number: int) -> int:
    """The fixed-frame space reading ``number`` on a table turned ``orientation`` times left.

    One left turn shows the fixed space (r, c) at (3 - c, r) of the player's view; so the view
    position (r, c) holds the fixed space (c, 3 - r) after one turn, applied ``orientation`` times.
    """
    row, col = divmod(number - 1, SIDE)
    for _ in range(orientation % 4):
        row, col = col, SIDE - 1 - row
    return row * SIDE + col


def edges_of(card: int, rotation: int) -> tuple[int, ...]:
    """A card's sauce halves (N, E, S, W; -1 none) after ``rotation`` clockwise quarter turns."""
    printed = DISH_CARDS[card].edges
    turned = [-1] * 4
    for direction in range(4):
        turned[(direction + rotation) % 4] = printed[direction]
    return tuple(turned)


def lines(length: int) -> list[tuple[int, ...]]:
    """Every run of ``length`` consecutive spaces: rows, columns and both diagonals."""
    result = []
    for row in range(SIDE):
        for col in range(SIDE):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                cells = [(row + k * dr, col + k * dc) for k in range(length)]
                if all(0 <= r < SIDE and 0 <= c < SIDE for r, c in cells):
                    result.append(tuple(r * SIDE + c for r, c in cells))
    return result


SQUARES: list[tuple[int, ...]] = [
    (s, s + 1, s + SIDE, s + SIDE + 1) for s in range(SIDE * SIDE) if s % SIDE < SIDE - 1 and s < 12
]
LINES = {3: lines(3), 4: lines(4)}


# ---------------------------------------------------------------------------- scoring, again
def placement_gain(cards: Sequence[int], rotations: Sequence[int], *, space: int, card: int, rotation: int) -> int:
    """Skulls plus the bowls the new card makes with its occupied neighbours."""
    gain = DISH_CARDS[card].skulls
    mine = edges_of(card, rotation)
    for direction in range(4):
        other = neighbour(space, direction)
        if other is None or cards[other] < 0:
            continue
        theirs = edges_of(cards[other], rotations[other])[(direction + 2) % 4]
        half = mine[direction]
        if half >= 0 and theirs >= 0:
            gain += SAME_COLOUR if half == theirs else MIXED
        elif half >= 0 or theirs >= 0:
            gain += HALF
    return gain


def complete_bowls(cards: Sequence[int], rotations: Sequence[int]) -> list[int]:
    """The colour of every complete bowl: two touching halves of one colour."""
    bowls = []
    for space in range(SIDE * SIDE):
        if cards[space] < 0:
            continue
        for direction in (EAST, SOUTH):  # each touching pair once
            other = neighbour(space, direction)
            if other is None or cards[other] < 0:
                continue
            half = edges_of(cards[space], rotations[space])[direction]
            theirs = edges_of(cards[other], rotations[other])[(direction + 2) % 4]
            if half >= 0 and half == theirs:
                bowls.append(half)
    return bowls


def objective_score(code: int, player: int, state: dict[str, Any]) -> int:
    kind = OBJECTIVE_KINDS[code]
    tables: list[list[int]] = [[DISH_CARDS[c].dish if c >= 0 else -1 for c in row] for row in state["cards"]]
    dishes = tables[player]
    if kind.kind == CHILDREN:
        return dishes.count(kind.dish) * kind.points
    if kind.kind == TEENS:
        mine = dishes.count(kind.dish)
        return kind.points if mine >= 1 and all(mine >= t.count(kind.dish) for t in tables) else 0
    if kind.kind in (SENIORS_SQUARE, SENIORS_LINE_4, SENIORS_LINE_3):
        shapes = {SENIORS_SQUARE: SQUARES, SENIORS_LINE_4: LINES[4], SENIORS_LINE_3: LINES[3]}[kind.kind]
        met = any(dishes[s[0]] >= 0 and all(dishes[x] == dishes[s[0]] for x in s) for s in shapes)
        return kind.points if met else 0
    bowls = complete_bowls(state["cards"][player], state["rotations"][player])
    if kind.kind in (MASKED_SIX, MASKED_FOUR):
        return kind.points if len(bowls) >= kind.target else 0
    if kind.kind == MASKED_THREE_SAME:
        return kind.points if bowls and max(Counter(bowls).values()) >= kind.target else 0
    raise AssertionError(f"unknown objective kind {kind.kind!r}")


def final_score(player: int, state: dict[str, Any], variant: bool) -> int:
    objectives = sum(objective_score(code, player, state) for code in state["objectives"][player] if code >= 0)
    penalty = sum(v for space, v in VARIANT_PENALTIES.items() if state["cards"][player][space] < 0) if variant else 0
    return max(0, state["points"][player] + objectives - penalty)


# ---------------------------------------------------------------------------- the checks
def check_state(data: dict[str, Any]) -> list[str]:
    state = data["state"]
    n = data["num_players"]
    variant = data["options"].get("variant") == "confirmed_waiters"
    problems = []

    places = list(state["deck"])
    places += [c for row in state["cards"] for c in row if c >= 0]
    places += [c for pair in state["start_cards"] for c in pair if c >= 0]
    if state["offer"] >= 0:
        places.append(state["offer"])
    counts = Counter(places)
    doubled = sorted(c for c, k in counts.items() if k > 1)
    missing = sorted(set(range(NUM_DISH_CARDS)) - set(counts))
    if doubled or missing or len(places) != NUM_DISH_CARDS:
        problems.append(f"dish cards not each in one place: twice {doubled}, nowhere {missing}")

    for p in range(n):
        if state["points"][p] < 0:
            problems.append(f"player {p} has negative points {state['points'][p]}")
        for space, (card, rotation) in enumerate(zip(state["cards"][p], state["rotations"][p], strict=True)):
            if (card < 0) != (rotation < 0) or not -1 <= rotation <= 3:
                problems.append(f"player {p} space {space}: card {card} with rotation {rotation}")
        if variant:
            if state["start_cards"][p]:
                problems.append(f"player {p} holds start cards in the confirmed-waiters variant")
            continue
        for colour, space in enumerate(PINATA_SPACES):
            card = state["cards"][p][space]
            if card >= 0 and DISH_CARDS[card].pinata != colour:
                problems.append(f"player {p}: space {space + 1} holds a card that is not a start card of its colour")
        if state["phase"] != "orient" and min(state["cards"][p][s] for s in PINATA_SPACES) < 0:
            problems.append(f"player {p}: a start space is empty after the setup")

    if state["phase"] not in ("orient", "keep"):
        held = [code for slots in state["objectives"] for code in slots if code >= 0]
        deck = Counter(OBJECTIVE_DECK)
        for code, count in Counter(held).items():
            if count > deck[code]:
                problems.append(
                    f"objective {OBJECTIVE_KINDS[code].label} held {count} times, the deck has {deck[code]}"
                )
        for p, slots in enumerate(state["objectives"]):
            colours = [OBJECTIVE_KINDS[code].colour for code in slots if code >= 0]
            if len(colours) != len(set(colours)):
                problems.append(f"player {p} keeps two objectives of one colour: {slots}")
            if slots.count(-1) != state["reserves"][p]:
                problems.append(
                    f"player {p} has {slots.count(-1)} empty objective slots after {state['reserves'][p]} reserves"
                )

    if state["phase"] == "auction":
        if state["offer"] < 0:
            problems.append("an auction without a dish on offer")
        bidder, bid = state["high_bidder"], state["high_bid"]
        if (bidder < 0) != (bid == 0):
            problems.append(f"high bid {bid} by {bidder}")
        elif bidder >= 0 and state["cards"][bidder][fixed_space(state["orientation"][bidder], bid)] >= 0:
            problems.append(f"the high bid {bid} of player {bidder} is on a covered space")
    if state["phase"] == "over" and state["deck"] and not any(min(row) >= 0 for row in state["cards"]):
        problems.append("the game is over but no table is full")
    return problems


def check_transition(before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    b, a = before["state"], after["state"]
    n = before["num_players"]
    problems = []
    placed = []
    for p in range(n):
        for space in range(SIDE * SIDE):
            old, new = b["cards"][p][space], a["cards"][p][space]
            if old >= 0 and (new != old or a["rotations"][p][space] != b["rotations"][p][space]):
                problems.append(f"player {p}: the card on space {space + 1} moved or turned")
            elif old < 0 <= new:
                placed.append((p, space, new, a["rotations"][p][space]))
    if len(placed) > 1:
        problems.append(f"{len(placed)} cards placed by one action")
    if b["phase"] == "place" and len(placed) == 1:
        p, space, card, rotation = placed[0]
        if card != b["offer"] or p != b["turn"]:
            problems.append(f"player {p} placed card {card}, not the card on offer {b['offer']} by the winner")
        if space != fixed_space(b["orientation"][p], b["high_bid"]):
            problems.append(f"the dish went to fixed space {space}, not the space reading {b['high_bid']}")
        expected = max(
            0,
            b["points"][p]
            + placement_gain(b["cards"][p], b["rotations"][p], space=space, card=card, rotation=rotation),
        )
        if a["points"][p] != expected:
            problems.append(f"placement scored {a['points'][p] - b['points'][p]}, expected {expected - b['points'][p]}")
    round_ends = b["phase"] == "rotate" and a["phase"] != "rotate"  # the tables chosen to turn turn together
    for p in range(n):
        if (not placed or placed[0][0] != p) and a["points"][p] != b["points"][p]:
            problems.append(f"player {p}'s points changed without a placement on their table")
        turn = (a["orientation"][p] - b["orientation"][p]) % 4
        chosen = b["turns_chosen"][p]
        if (turn and not round_ends) or turn == 2:
            problems.append(f"player {p}'s table turned {turn} quarters in phase {b['phase']}")
        elif round_ends and p != b["turn"] and turn != (QUARTERS_LEFT[chosen] if chosen >= 0 else 0):
            problems.append(f"player {p}'s table turned {turn} quarters left, not the turn it chose ({chosen})")
        if a["reserves"][p] < b["reserves"][p]:
            problems.append(f"player {p}'s reserves went down")
    if len(a["deck"]) > len(b["deck"]):
        problems.append("the dish deck grew")
    return problems


def check_final(data: dict[str, Any], scores: Sequence[float]) -> list[str]:
    state = data["state"]
    variant = data["options"].get("variant") == "confirmed_waiters"
    expected = [final_score(p, state, variant) for p in range(data["num_players"])]
    if [float(x) for x in expected] != [float(s) for s in scores]:
        return [f"final scores {list(scores)} differ from the recomputed {expected}"]
    return []
