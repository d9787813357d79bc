"""The two observation encoders of Tortilla de Patatas (float32 vectors, every entry in [0, 1]).

Pans and served omelettes are listed from the observer's side: its team's pans 0-2 first,
then the other team's; other seats in turn order after the observer.

Both modes start with the same header (38 entries):

====  =========================================================================
4     phase one-hot: setup, play, steal, after (all zero once the game is over)
3     menu one-hot: kids, day, gourmet
1     4-player game
1     the observer is a chef (not a kitchen assistant)
4     seat to act, relative to the observer (0 = the observer), one-hot
1     the player to act has served this turn
7     own hand, count per card type / 5
7     fridge door card, one-hot per type (all zero: no door)
1     cards in the fridge draw pile / 62
3     diner cards left of value 1, 2, 3 / 2
6     steal choices now open: mine 0-2, theirs 0-2
====  =========================================================================

``observation`` (110 entries: what is on the table now; memory is the agent's job), then:

- per pan (6 x 8): pile height min(h, 12) / 12; the top card, one-hot per type (the only card
  of a pile that can be seen: the rulebook forbids looking under it);
- per served omelette slot, in serving order (6 x 4): present, served by the observer's team,
  declared XL, diner card / 3.

``information_state`` (306 entries: everything a player with perfect memory knows), then:

- per pan (6 x 29): pile height min(h, 12) / 12; the top three cards, top first, one-hot per
  type; the count of each card type in the pile / that type's total;
- per served omelette slot (6 x 11): as above, plus its count per card type / that type's total;
- cards known to be in each other seat's hand (3 x 7, count / 3; taken from the fridge door);
- cards not seen by the observer, per type / that type's total (the deck and others' unknown cards).

Nothing hidden enters either vector: other hands appear only through cards seen taken from the
door, and the deck only through its size.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from fiesta_envs.tortilla.components import (
    CARD_COUNTS,
    DECK_SIZE,
    DINER_COPIES,
    DINER_VALUES,
    HAND_SIZE,
    MENUS,
    NUM_CARD_TYPES,
    NUM_DINER_CARDS,
    NUM_TEAMS,
    PANS_PER_TEAM,
)

if TYPE_CHECKING:
    from fiesta_envs.tortilla.game import TortillaDePatatas

MENU_ORDER = tuple(MENUS)
MAX_SEATS = 4
MAX_HAND = 5  # a Day's/Gourmet chef during setup
HEIGHT_SCALE = 12
TOP_CARDS_REMEMBERED = 3  # information_state: the top cards of a pile, in order
NUM_PANS = NUM_TEAMS * PANS_PER_TEAM
PHASES_SHOWN = 4  # setup, play, steal, after

HEADER_SIZE = PHASES_SHOWN + len(MENU_ORDER) + 2 + MAX_SEATS + 1 + 2 * NUM_CARD_TYPES + 1 + len(DINER_VALUES) + NUM_PANS
TABLE_PAN_SIZE = 1 + NUM_CARD_TYPES  # height, top card
MEMORY_PAN_SIZE = 1 + TOP_CARDS_REMEMBERED * NUM_CARD_TYPES + NUM_CARD_TYPES  # height, top cards, counts
TABLE_DISH_SIZE = 4
MEMORY_DISH_SIZE = TABLE_DISH_SIZE + NUM_CARD_TYPES
OBSERVATION_SIZE = HEADER_SIZE + NUM_PANS * TABLE_PAN_SIZE + NUM_DINER_CARDS * TABLE_DISH_SIZE
INFORMATION_STATE_SIZE = (
    HEADER_SIZE
    + NUM_PANS * MEMORY_PAN_SIZE
    + NUM_DINER_CARDS * MEMORY_DISH_SIZE
    + (MAX_SEATS - 1) * NUM_CARD_TYPES
    + NUM_CARD_TYPES
)
_INVERSE_TOTALS: tuple[float, ...] = tuple(1.0 / count for count in CARD_COUNTS)
_PHASE_SLOT = {"setup": 0, "play": 1, "steal": 2, "after": 3}
#: Global pan indices in each team's view: its own pans first.
_PAN_ORDER: tuple[tuple[int, ...], ...] = tuple(
    tuple(t * PANS_PER_TEAM + p for t in (team, 1 - team) for p in range(PANS_PER_TEAM)) for team in range(NUM_TEAMS)
)


def observation_size(mode: str) -> int:
    return OBSERVATION_SIZE if mode == "observation" else INFORMATION_STATE_SIZE


# The encoders fill one plain list (item writes are cheap) and convert it to float32 once.
def _header(game: TortillaDePatatas, player: int, size: int) -> list[float]:
    """A zeroed list of ``size`` entries with the header filled in."""
    obs = [0.0] * size
    phase = game.phase
    if phase in _PHASE_SLOT:
        obs[_PHASE_SLOT[phase]] = 1.0
    i = PHASES_SHOWN
    obs[i + MENU_ORDER.index(game.menu.name)] = 1.0
    i += len(MENU_ORDER)
    obs[i] = float(game.num_players == 4)
    obs[i + 1] = float(game.is_chef(player))
    i += 2
    current = game.current_player
    if current >= 0:
        obs[i + (current - player) % game.num_players] = 1.0
    i += MAX_SEATS
    obs[i] = float(game.served_this_turn)
    i += 1
    for card, count in enumerate(game.hand(player)):
        obs[i + card] = count / MAX_HAND
    i += NUM_CARD_TYPES
    if game.door >= 0:
        obs[i + game.door] = 1.0
    i += NUM_CARD_TYPES
    obs[i] = game.deck_size / DECK_SIZE
    i += 1
    for k, left in enumerate(game.diners_left):
        obs[i + k] = left / DINER_COPIES
    i += len(DINER_VALUES)
    if game.steal_options:
        order = _PAN_ORDER[player % NUM_TEAMS]
        for pan in game.steal_options:
            obs[i + order.index(pan)] = 1.0
    return obs


def _pans(game: TortillaDePatatas, player: int, obs: list[float], memory: bool) -> int:
    """Per pan in the observer's order: height and the top card, or (memory) the top three cards
    and the counts per type."""
    i = HEADER_SIZE
    pans, pan_counts = game.pans, game.pan_counts
    depth_shown = TOP_CARDS_REMEMBERED if memory else 1
    counts_at = 1 + depth_shown * NUM_CARD_TYPES
    for pan in _PAN_ORDER[player % NUM_TEAMS]:
        pile = pans[pan]
        if pile:
            obs[i] = min(len(pile), HEIGHT_SCALE) / HEIGHT_SCALE
            for depth in range(min(depth_shown, len(pile))):
                obs[i + 1 + depth * NUM_CARD_TYPES + pile[-1 - depth]] = 1.0
            if memory:
                for card, count in enumerate(pan_counts[pan]):
                    if count:
                        obs[i + counts_at + card] = count * _INVERSE_TOTALS[card]
        i += MEMORY_PAN_SIZE if memory else TABLE_PAN_SIZE
    return i


def _served(game: TortillaDePatatas, player: int, obs: list[float], i: int, memory: bool) -> int:
    """Per diner card, in serving order: present, ours, XL, diners / 3, (counts per type)."""
    team = player % NUM_TEAMS
    slot = MEMORY_DISH_SIZE if memory else TABLE_DISH_SIZE
    for k, dish in enumerate(game.served):
        j = i + k * slot
        obs[j] = 1.0
        obs[j + 1] = float(dish.seat % NUM_TEAMS == team)
        obs[j + 2] = float(dish.size == 1)
        obs[j + 3] = dish.diners / DINER_VALUES[-1]
        if memory:
            for card, count in enumerate(dish.counts):
                if count:
                    obs[j + TABLE_DISH_SIZE + card] = count * _INVERSE_TOTALS[card]
    return i + NUM_DINER_CARDS * slot


def encode_observation(game: TortillaDePatatas, player: int) -> np.ndarray:
    """What is on the table now, plus the observer's own hand."""
    obs = _header(game, player, OBSERVATION_SIZE)
    i = _pans(game, player, obs, memory=False)
    _served(game, player, obs, i, memory=False)
    return np.array(obs, dtype=np.float32)


def unseen_counts(game: TortillaDePatatas, player: int) -> list[int]:
    """Cards per type that ``player`` has not seen: the deck plus others' unknown hand cards."""
    seen = [game.hand(player), *game.pan_counts, *(dish.counts for dish in game.served)]
    seen += [game.known_in_hand(seat) for seat in range(game.num_players) if seat != player]
    unseen = [total - sum(column) for total, column in zip(CARD_COUNTS, zip(*seen, strict=True), strict=True)]
    if game.door >= 0:
        unseen[game.door] -= 1
    return unseen


def encode_information_state(game: TortillaDePatatas, player: int) -> np.ndarray:
    """Everything ``player`` knows with perfect memory of the public events and its own hand."""
    obs = _header(game, player, INFORMATION_STATE_SIZE)
    i = _pans(game, player, obs, memory=True)
    i = _served(game, player, obs, i, memory=True)
    for k in range(game.num_players - 1):
        known = game.known_in_hand((player + 1 + k) % game.num_players)
        for card, count in enumerate(known):
            if count:
                obs[i + k * NUM_CARD_TYPES + card] = min(count / HAND_SIZE, 1.0)
    i += (MAX_SEATS - 1) * NUM_CARD_TYPES
    for card, count in enumerate(unseen_counts(game, player)):
        obs[i + card] = count * _INVERSE_TOTALS[card]
    return np.array(obs, dtype=np.float32)
