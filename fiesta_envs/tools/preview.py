"""What a choice would do, worked out on a copy of the game (``Game.clone``).

A preview is given only when it reveals nothing the player could not know: the action's group
must be one the game's guide lists (``tools.guides.GameGuide.preview_groups``), and after playing it on
the copy the random generator must not have moved (no die rolled, no pile shuffled) and no
hidden pile (a ``deck`` anywhere in the state) may have shrunk. Otherwise the answer says why
there is no preview. The preview holds each seat's score change and the copy as the acting seat sees
it (``render.seen_by``: in Tequila the others' moves of the round stay hidden), from which the page
draws the table after the choice; the score changes are read from what that seat sees too. A choice that
ends the game tells only the acting seat's own score change (the end reveals the others' hidden points).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from fiesta_envs.core.game import Game
from fiesta_envs.render import seen_by
from fiesta_envs.tools.guides import guide_for


@dataclass
class Preview:
    action: int
    name: str
    after: Game | None  # the copy after the choice (None when no preview may be shown)
    score_changes: dict[int, float]  # by seat
    note: str  # why there is no preview, or what follows


def has_preview(game: Game, name: str) -> bool:
    """Whether actions named like ``name`` are of a group the game's guide previews."""
    return name.split()[0] in guide_for(game.name).preview_groups


def preview(game: Game, action: int) -> Preview:
    """The outcome of ``action`` for the seat to act, or a ``Preview`` with no ``after`` saying why not."""
    name = game.action_to_string(action)
    if not has_preview(game, name):
        return Preview(action, name, None, {}, f"no preview for '{name.split()[0]}' in this game")
    before = game.state_dict()
    copy = game.clone()
    copy.step(action)
    after = copy.state_dict()
    if after["rng"] != before["rng"] or _pile_sizes(after["state"]) != _pile_sizes(before["state"]):
        return Preview(action, name, None, {}, "what follows depends on a card drawn or a die rolled: no preview")
    seat = game.current_player
    scores_before = seen_by(game, seat).scores()
    if copy.is_over:  # the end reveals everything: only the acting seat's own change is told
        change = float(copy.scores()[seat] - scores_before[seat])
        return Preview(action, name, None, {seat: change}, "the game ends with this choice")
    seen_after = seen_by(copy, seat)
    scores_after = seen_after.scores()
    changes = {other: float(a - b) for other, (a, b) in enumerate(zip(scores_after, scores_before, strict=True))}
    return Preview(action, name, seen_after, changes, f"then player_{copy.current_player} acts")


def _pile_sizes(state: Any) -> list[int]:
    """The sizes of every list stored under a key named ``deck`` (or ending in ``_deck``), in order."""
    return [len(value) for key, value in _items(state) if key == "deck" or key.endswith("_deck")]


def _items(state: Any) -> Iterator[tuple[str, Any]]:
    if isinstance(state, Mapping):
        for key, value in state.items():
            if isinstance(value, list):
                yield str(key), value
            yield from _items(value)
    elif isinstance(state, list):
        for value in state:
            yield from _items(value)
