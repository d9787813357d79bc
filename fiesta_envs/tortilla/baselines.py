"""Scripted players for Tortilla de Patatas.

``CarefulChef`` plays as a careful person with a good memory would:

- it counts: it knows every card in every pan (all placements are public), so it serves a pan
  exactly when the pan meets a recipe (XL before M) and takes the diner card by its confidence:
  a pan it knows to be perfect gets the biggest diner card the rules allow; it never serves a
  pan it knows to be badly made;
- it plays the card and pan that bring its pans closest to a recipe and the other team's
  furthest from one, counting the steals each play triggers, and it avoids leaving an
  ingredient on top that the other team could steal (covering it with a wildcard blocks that);
- in the Gourmet menu it fills an empty pan before serving when that allows a bigger card;
- it takes the fridge door card when that card helps more than an average card from the deck;
- near the end it stops feeding pans it cannot finish (each one left costs a point);
- it closes out: with one diner card left, it serves to take it when that ends the game with its
  team ahead (the final scores counted exactly: the omelette, badly made or not, and every pan left
  unserved), and it does not take it when that ends the game lost. This is the only time it serves a
  pan it knows to be badly made;
- in the Kids' menu it builds XL omelettes: there, where nothing is stolen and no pan costs a
  point, two careful chefs who serve every M the moment it is perfect with the biggest card split
  the diner cards 3 + 2 + 1 each and tie 6-6 (37 of 40 games of the first version); an XL doubles
  its card, so version 2 values a pan that has grown past an M (only an XL left) with
  ``KIDS_XL_DECAY`` per missing card instead of ``PROGRESS_DECAY``: it grows such pans to XL, and
  grows an M past the recipe when the XL it opens is worth more.

It reads only what its seat may know: the pans, the served omelettes, the door, the number of
cards in the fridge and its own hand.

``careful:version=1`` is the first version (kept to measure against and to reproduce older
results): it serves only perfect pans, whatever the last diner card does to the game, and
values pans the same in every menu.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, cast

import numpy as np

from fiesta_envs.policies.policy import Policy, VersionedPolicy
from fiesta_envs.tortilla.actions import (
    DRAW_DECK,
    DRAW_DOOR,
    SERVE_BASE,
    decode_play,
    decode_serve,
    decode_steal,
    play_action,
    serve_action,
    start_action,
)
from fiesta_envs.tortilla.components import (
    DINER_VALUES,
    NUM_CARD_TYPES,
    PANS_PER_TEAM,
    RECIPES,
)
from fiesta_envs.tortilla.features import (
    DEAD_PAN_KIDS,
    EXPECTED_DINERS,
    PROGRESS_DECAY,
    STEAL_RISK,
    PositionEvaluator,
    exposure,
    outlook,
    pile_value,
    position_value,
    unseen_pool,
)
from fiesta_envs.tortilla.omelettes import is_perfect, omelette_points
from fiesta_envs.tortilla.state import Phase
from fiesta_envs.tortilla.steals import steal_sources

if TYPE_CHECKING:
    from fiesta_envs.core.game import Game
    from fiesta_envs.tortilla.game import TortillaDePatatas

# The evaluation's constants live with it in ``features`` (the action features share it).
__all__ = [
    "BASELINES",
    "DEAD_PAN_KIDS",
    "EXPECTED_DINERS",
    "KIDS_XL_DECAY",
    "PROGRESS_DECAY",
    "STEAL_RISK",
    "CarefulChef",
]

Piles = list[list[int]]
#: Version 2, Kids' menu: a pan past an M (only an XL left) loses this share per missing card, not
#: ``PROGRESS_DECAY``.
KIDS_XL_DECAY = 0.85


class CarefulChef(VersionedPolicy):
    """Counts every card, serves only perfect omelettes, blocks steals; see the module docstring."""

    needs_observation = False  # reads the engine; environments skip encoding an observation for it
    versions = (1, 2)

    def act(self, observation: np.ndarray | None, action_mask: np.ndarray, game: Game, player: int) -> int:
        legal = np.flatnonzero(action_mask)
        if len(legal) == 1:
            return int(legal[0])
        tortilla = cast("TortillaDePatatas", game)  # the policy plays Tortilla de Patatas only
        self._prepare(tortilla, player)
        phase = tortilla.state.phase
        if phase == Phase.SETUP:
            return self._choose_start(tortilla, action_mask)
        if phase == Phase.STEAL:
            return self._choose_steal(tortilla, action_mask)
        if self.version >= 2 and sum(tortilla.state.diners_left) == 1:
            closing = self._close_out(tortilla, action_mask)
            if closing is not None:
                return closing
            action_mask = self._without_losing_serves(tortilla, action_mask)
        if phase == Phase.PLAY:
            return self._choose_serve_or_play(tortilla, action_mask)
        serve = self._best_serve(tortilla, action_mask)
        if serve is not None:
            return serve
        return self._choose_draw(tortilla, action_mask)

    # ------------------------------------------------------------------ evaluation
    # (the evaluation itself is in ``features``, shared with the action features)
    def _prepare(self, game: TortillaDePatatas, player: int) -> None:
        self.player = player
        self.view = outlook(game, player)
        if self.version >= 2 and game.menu.name == "kids":
            self.view = self.view._replace(xl_decay=KIDS_XL_DECAY)
        self.team = self.view.team
        self.plays_left = self.view.plays_left  # each team refills about every other turn
        self.stealing = self.view.stealing
        self.dead_pan = self.view.dead_pan
        self._pans = game.state.pans
        self._evaluator: PositionEvaluator | None = None  # made when a decision weighs plays or draws

    @property
    def evaluator(self) -> PositionEvaluator:
        """The position being decided, and the positions each play or card leads to."""
        if self._evaluator is None:
            self._evaluator = PositionEvaluator(self._pans, self.view)
        return self._evaluator

    def _pile_value(self, pile: Sequence[int]) -> float:
        return pile_value(pile, self.plays_left, self.dead_pan, self.view.xl_decay)

    def _exposure(self, pile: Sequence[int]) -> float:
        """Expected loss from the other team stealing this pile's top card."""
        return exposure(pile, self.view)

    def _position_value(self, piles: Piles) -> float:
        return position_value(piles, self.view)

    def _after_play(self, game: TortillaDePatatas, card: int, target: int, stealing: bool) -> float:
        """Value of the position after playing ``card`` on global pan ``target`` (best steal)."""
        return self.evaluator.after_play(card, target, stealing)

    # ------------------------------------------------------------------ decisions
    def _argmax(self, values: dict[int, float]) -> int:
        top = max(values.values())
        best = [action for action, value in values.items() if value >= top - 1e-9]
        return int(best[self.rng.integers(len(best))]) if len(best) > 1 else best[0]

    def _choose_start(self, game: TortillaDePatatas, mask: np.ndarray) -> int:
        target = self.team * PANS_PER_TEAM + sum(1 for p in range(PANS_PER_TEAM) if game.state.pans[self.team * 3 + p])
        values = {
            start_action(card): self._after_play(game, card, target, stealing=False)
            for card in range(NUM_CARD_TYPES)
            if mask[start_action(card)]
        }
        return self._argmax(values)

    def _choose_steal(self, game: TortillaDePatatas, mask: np.ndarray) -> int:
        values = {}
        for action in np.flatnonzero(mask):
            theirs, pan = decode_steal(int(action))
            source = (1 - self.team if theirs else self.team) * PANS_PER_TEAM + pan
            piles = [list(pile) for pile in game.state.pans]
            piles[game.state.played_pan].append(piles[source].pop())
            values[int(action)] = self._position_value(piles)
        return self._argmax(values)

    def _serve_options(self, game: TortillaDePatatas, mask: np.ndarray) -> dict[int, float]:
        """Legal serves of pans known to be perfect, with their points (biggest allowed card)."""
        options = {}
        for pan in range(PANS_PER_TEAM):
            counts = game.pan_counts[self.team * PANS_PER_TEAM + pan]
            for size in (1, 0):
                if not is_perfect(counts, size):
                    continue
                for diners in reversed(DINER_VALUES):
                    action = serve_action(pan, size, diners)
                    if mask[action]:
                        options[action] = float(diners * RECIPES[size].multiplier)
                        break
        return options

    def _best_serve(self, game: TortillaDePatatas, mask: np.ndarray) -> int | None:
        options = self._serve_options(game, mask)
        return self._argmax(options) if options else None

    def _final_margin(self, game: TortillaDePatatas, serve: int) -> int:
        """The team's final lead if ``serve`` takes the last diner card (which ends the game)."""
        pan, size, diners = decode_serve(serve)
        source = self.team * PANS_PER_TEAM + pan
        scores = list(game.team_scores())  # the game is not over: no unserved pans counted yet
        scores[self.team] += omelette_points(game.pan_counts[source], size, diners)
        for team in range(len(scores)):
            left = sum(1 for p in range(PANS_PER_TEAM) if game.state.pans[team * PANS_PER_TEAM + p])
            scores[team] += game.menu.unserved_penalty * (left - (team == self.team))
        return scores[self.team] - scores[1 - self.team]

    def _close_out(self, game: TortillaDePatatas, mask: np.ndarray) -> int | None:
        """Version 2, one diner card left: the serve that ends the game with the biggest lead, if it wins."""
        margins = {
            int(action): self._final_margin(game, int(action))
            for action in np.flatnonzero(mask)
            if SERVE_BASE <= action < DRAW_DECK
        }
        if not margins:
            return None
        best = max(margins.values())
        if best <= 0:
            return None
        return min(action for action, margin in margins.items() if margin == best)

    def _without_losing_serves(self, game: TortillaDePatatas, mask: np.ndarray) -> np.ndarray:
        """``mask`` without the serves that take the last diner card to end the game lost."""
        kept = mask.copy()
        for action in np.flatnonzero(mask[SERVE_BASE:DRAW_DECK]) + SERVE_BASE:
            if self._final_margin(game, int(action)) < 0:
                kept[action] = 0
        return kept if kept.any() else mask

    def _choose_serve_or_play(self, game: TortillaDePatatas, mask: np.ndarray) -> int:
        serve = self._best_serve(game, mask)
        if serve is not None and game.menu.gourmet_diners:
            better = self._play_to_raise_limit(game, mask, serve)
            if better is not None:
                return better
        if serve is not None:
            return serve
        return self._argmax(self._play_values(game, mask))

    def _play_values(self, game: TortillaDePatatas, mask: np.ndarray) -> dict[int, float]:
        """Each legal play (card on pan) and the value of the position after it (its best steal)."""
        values = {}
        for action in np.flatnonzero(mask[:DRAW_DECK]):
            if action >= play_action(NUM_CARD_TYPES, 0):
                continue
            card, pan = decode_play(int(action))
            target = self.team * PANS_PER_TEAM + pan
            values[int(action)] = self._after_play(game, card, target, stealing=self.stealing)
        return values

    def best_plays(self, game: TortillaDePatatas, player: int, count: int) -> list[int]:
        """The ``count`` legal plays this chef values most for ``player`` (best first; for a search to compare)."""
        self._prepare(game, player)
        values = self._play_values(game, game.legal_mask())
        return sorted(values, key=lambda action: -values[action])[:count]

    def _play_to_raise_limit(self, game: TortillaDePatatas, mask: np.ndarray, serve: int) -> int | None:
        """Gourmet: a play into an empty pan that keeps the perfect pan intact and allows a bigger card."""
        pan, _, diners = decode_serve(serve)
        raised = game.diner_limit(self.team) + 1
        if not any(d > diners and d <= raised and game.state.diners_left[d - 1] for d in DINER_VALUES):
            return None
        served = self.team * PANS_PER_TEAM + pan
        values = {}
        for empty in range(PANS_PER_TEAM):
            target = self.team * PANS_PER_TEAM + empty
            if game.state.pans[target]:
                continue
            for card in range(NUM_CARD_TYPES):
                if not mask[play_action(card, empty)]:
                    continue
                piles = [list(pile) for pile in game.state.pans]
                piles[target].append(card)
                sources = steal_sources(piles, target) if self.stealing else []
                if served not in sources:
                    values[play_action(card, empty)] = self._after_play(game, card, target, self.stealing)
        return self._argmax(values) if values else None

    def _choose_draw(self, game: TortillaDePatatas, mask: np.ndarray) -> int:
        if not mask[DRAW_DOOR]:
            return DRAW_DECK
        if not mask[DRAW_DECK]:
            return DRAW_DOOR
        unseen = unseen_pool(game, self.player, memory=True)  # the cards not seen (``unseen_counts``)
        total = sum(unseen)
        gains = [self._card_gain(game, card) for card in range(NUM_CARD_TYPES)]
        expected = sum(g * n for g, n in zip(gains, unseen, strict=True)) / total if total else 0.0
        return DRAW_DOOR if gains[game.state.door] > expected else DRAW_DECK

    def _card_gain(self, game: TortillaDePatatas, card: int) -> float:
        """How much the best pan of the team gains from one more ``card``."""
        return self.evaluator.card_gain(card)


BASELINES: dict[str, type[Policy]] = {"careful": CarefulChef}
