"""Tequila as one seat may believe it to be (``Tequila.determinize``).

Every sheet is public, but the rounds are simultaneous: what another player did in the current round is
hidden until the round ends (the others see its sheet as it stood when the round began, ``shown_sheets``,
and no "first to" bonus first taken in the round), and the dice to come are chance. The copy

- puts every other player at the start of the round (its shown sheet; ``coins_earned`` read as its coins:
  that count only feeds an achievement), forgets the bonuses first taken this round by anyone but the seat,
  and plays the round of each player who has already played it again on the same dice with ``replay`` (a
  policy; by default uniformly random legal actions): a sample of what it may have done;
- re-seeds chance, so the dice of the rounds to come (and a re-roll) are not the game's.

It is made for the seat to act (or any seat between two rounds): the part of a round another player is
playing right now is not resampled.

``seen_by(game, seat)`` is the first half alone, for showing the table to one seat (the terminal game,
the web app): the others at the start of the round, nothing replayed, chance untouched.
"""

from __future__ import annotations

import copy
from typing import Any, Protocol, TypeVar, cast

import numpy as np

from fiesta_envs.core.determinization import rebuilt
from fiesta_envs.core.game import Game
from fiesta_envs.policies.policy import Policy, RandomPolicy
from fiesta_envs.tequila.mask_cache import MaskCache
from fiesta_envs.tequila.public_sheet import PUBLIC_FIELDS
from fiesta_envs.tequila.sheet import Sheet
from fiesta_envs.tequila.state import Phase, SheetState, TequilaState


class Engine(Protocol):
    """What determinisation reads and drives of a ``game.Tequila`` (typed here without importing the engine,
    which imports this module)."""

    num_players: int
    state: TequilaState[Sheet]
    only_seat: int | None  # a copy playing one seat's part of a round
    mask_cache: MaskCache
    _seat: int
    _mask_cache: np.ndarray | None

    @property
    def is_over(self) -> bool: ...

    @property
    def current_player(self) -> int: ...

    def saved_state(self) -> TequilaState[SheetState]: ...

    def clone(self) -> Engine: ...

    def legal_mask(self) -> np.ndarray: ...

    def step(self, action: Any) -> None: ...

    def _load(self, state: TequilaState[SheetState]) -> None: ...

    def _start_turn(self) -> None: ...

    def _advance(self) -> None: ...

    def _note_decision(self) -> None: ...


E = TypeVar("E", bound=Engine)


def played_this_round(game: Engine) -> list[int]:
    """The seats that have finished their round in the current round (seat order from the starting player)."""
    if game.is_over or game.state.phase == Phase.REROLL:
        return []
    n, start = game.num_players, game.state.start_player
    return [(start + k) % n for k in range(game.state.turn)]


def determinize(game: E, seat: int, rng: np.random.Generator, replay: Policy | None = None) -> E:
    """A copy with the other players' rounds so far played again by ``replay`` and chance re-seeded."""
    if not (game.is_over or game.state.phase == Phase.REROLL or seat == game.current_player):
        raise ValueError(f"tequila: a round is under way; determinise for the seat to act ({game.current_player})")
    hidden = [other for other in played_this_round(game) if other != seat]
    world = cast(E, rebuilt(cast(Game, game), _seen_state(game, seat).to_dict(), rng))
    policy = replay if replay is not None else RandomPolicy()
    for other in hidden:
        _replay_round(world, other, policy, rng)
    return world


def seen_by(game: E, seat: int) -> E:
    """A copy of ``game`` showing what ``seat`` sees now: its own sheet as it is, every other sheet as it stood
    when the round began (``shown_sheets``), no "first to" bonus first taken this round by anyone else. To draw
    or score, not to play: it is not checked as a loaded position is (the seat to act may be another one, its
    sheet set back to the start of the round). At the end of the game every sheet is shown: the game itself."""
    if game.is_over:
        return game
    view = cast(E, game.clone())  # a copy of the same engine
    view._load(_seen_state(game, seat))
    view._mask_cache = None
    return view


def _seen_state(game: Engine, seat: int) -> TequilaState[SheetState]:
    """The saved position with the others at the start of the round and their bonuses of the round forgotten."""
    state = copy.deepcopy(game.saved_state())
    for other in range(game.num_players):  # what the seat sees of the others: their sheets at the round's start
        if other == seat:
            continue
        shown = state.shown_sheets[other]
        state.sheets[other] = SheetState(
            **{name: copy.deepcopy(getattr(shown, name)) for name in PUBLIC_FIELDS}, coins_earned=shown.coins
        )
    mine = state.sheets[seat].bonuses
    state.bonus_round = [
        -1 if first == state.round and not mine >> bonus & 1 else first for bonus, first in enumerate(state.bonus_round)
    ]
    return state


def _replay_round(world: Engine, player: int, policy: Policy, rng: np.random.Generator) -> None:
    """Play ``player``'s round in ``world`` from its start with ``policy`` (on a copy that plays only that
    round, as ``Tequila.split_simultaneous`` makes them), then take its sheet and the bonuses it first took."""
    part = world.clone()
    part.only_seat = player
    part.state.gain_left = part.state.pay_left = 0
    part.state.pay_purpose, part.state.pay_target = "", -1
    part.state.turn = (player - part.state.start_player) % part.num_players
    part._seat = player
    part._start_turn()
    part._advance()
    part._note_decision()
    part._mask_cache = None
    saved = policy.rng
    policy.rng = np.random.default_rng(int(rng.integers(1 << 63)))
    try:
        while part.current_player == player:
            part.step(policy.act(None, part.legal_mask(), cast(Game, part), player))
    finally:
        policy.rng = saved
    world.state.sheets[player] = part.state.sheets[player]
    world.mask_cache.forget(player)
    for bonus, first in enumerate(part.state.bonus_round):
        if first == world.state.round:
            world.state.bonus_round[bonus] = first
    world._mask_cache = None
