"""Tortilla de Patatas' invariants, checked by the fuzzer from state dicts only.

A second reading of the rules using the component data (card counts, recipes, diner cards) but
none of the engine's rule code.

* ``check_state``: every ingredient card is in exactly one place (a hand, a pan, the deck, the
  fridge door, a served omelette: the 62-card distribution); every diner card is left or under
  exactly one served omelette; hands never hold more than the deal; no fridge door in the Kids'
  menu.
* ``check_transition``: served omelettes are never changed or taken back, at most one is added
  per action; a Gourmet omelette's diner card is allowed by the pans holding cards when it was
  served (1 pan: 1 diner; 2 pans: 1 or 2; 3: any); the deck never grows.
* ``check_final``: each team's score recomputed: a perfect omelette (some choice for its
  wildcards matches the declared recipe) earns +diners, a bad one -diners, twice for XL; -1
  per pan still holding cards in the Day's and Gourmet menus; every player gets their team's.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Sequence
from typing import Any

from fiesta_envs.tortilla.components import (
    CARD_COUNTS,
    CARD_INGREDIENTS,
    CARD_TYPE_INDEX,
    CARD_TYPES,
    DINER_COPIES,
    DINER_VALUES,
    MENUS,
    RECIPES,
)

FULL_DECK = Counter({CARD_TYPES[i]: count for i, count in enumerate(CARD_COUNTS)})
RECIPE_OF = {recipe.name: recipe for recipe in RECIPES}
MAX_DEAL = 5


def team_of(seat: int) -> int:
    """Teams alternate seats: seat 0 and 2 are team 0 (chef and assistant), 1 and 3 team 1."""
    return seat % 2


def is_perfect(cards: Sequence[str], size: str) -> bool:
    """Whether some assignment of the wildcards makes the omelette match the recipe exactly."""
    recipe = RECIPE_OF[size]
    choices = [CARD_INGREDIENTS[CARD_TYPE_INDEX[card]] for card in cards]
    for assignment in itertools.product(*choices):
        potatoes, eggs, onions = (assignment.count(i) for i in range(3))
        low, high = recipe.potatoes
        if low <= potatoes <= high and eggs == recipe.eggs and onions == recipe.onions:
            return True
    return False


def omelette_points(omelette: dict[str, Any]) -> int:
    multiplier = RECIPE_OF[omelette["size"]].multiplier
    sign = 1 if is_perfect(omelette["cards"], omelette["size"]) else -1
    return sign * multiplier * omelette["diners"]


def team_scores(data: dict[str, Any]) -> list[int]:
    state = data["state"]
    menu = MENUS[data["options"]["menu"]]
    scores = [0, 0]
    for omelette in state["served"]:
        scores[team_of(omelette["seat"])] += omelette_points(omelette)
    for team, pans in enumerate(state["pans"]):
        scores[team] += menu.unserved_penalty * sum(1 for pan in pans if pan)
    return scores


def check_state(data: dict[str, Any]) -> list[str]:
    state = data["state"]
    menu = MENUS[data["options"]["menu"]]
    problems = []
    cards: Counter[str] = Counter()
    for hand in state["hands"]:
        cards.update(hand)
        if len(hand) > MAX_DEAL:
            problems.append(f"a hand of {len(hand)} cards: {hand}")
    for pans in state["pans"]:
        for pan in pans:
            cards.update(pan)
    cards.update(state["deck"])
    for omelette in state["served"]:
        cards.update(omelette["cards"])
    if state["door"] is not None:
        cards.update([state["door"]])
        if not menu.fridge_door:
            problems.append("a fridge door card in the Kids' menu")
    if cards != FULL_DECK:
        extra, missing = cards - FULL_DECK, FULL_DECK - cards
        problems.append(f"ingredient cards not each in one place: extra {dict(extra)}, missing {dict(missing)}")
    used = Counter(omelette["diners"] for omelette in state["served"])
    for index, value in enumerate(DINER_VALUES):
        if state["diners_left"][index] + used[value] != DINER_COPIES:
            problems.append(f"diner cards of {value}: {state['diners_left'][index]} left and {used[value]} served")
    return problems


def check_transition(before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    b, a = before["state"], after["state"]
    problems = []
    if a["served"][: len(b["served"])] != b["served"]:
        problems.append("a served omelette was changed or taken back")
    added = a["served"][len(b["served"]) :]
    if len(added) > 1:
        problems.append(f"{len(added)} omelettes served by one action")
    if added and before["options"]["menu"] == "gourmet":
        team = team_of(added[0]["seat"])
        holding = sum(1 for pan in b["pans"][team] if pan)
        allowed = {1: (1,), 2: (1, 2)}.get(holding, DINER_VALUES)
        if added[0]["diners"] not in allowed:
            problems.append(f"Gourmet: {added[0]['diners']} diners with {holding} pans holding cards")
    if len(a["deck"]) > len(b["deck"]):
        problems.append("the deck grew")
    return problems


def check_final(data: dict[str, Any], scores: Sequence[float]) -> list[str]:
    teams = team_scores(data)
    expected = [float(teams[team_of(seat)]) for seat in range(data["num_players"])]
    if [float(s) for s in scores] != expected:
        return [f"final scores {list(scores)} differ from the recomputed {expected}"]
    return []
