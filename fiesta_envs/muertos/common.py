"""What Fiesta de los Muertos and La Catrina share: a ``Game`` that plays rounds.

``MuertosGame`` drives ``Round`` objects (``round.py``) through the ``Game`` contract: the
flat action space (``actions.py``), the observation (``observation.py``), a cached legal
mask, state dicts and text rendering. A subclass says how many rounds there are, which
constraints each round gets, what ends the game and what the team's score is.
"""

from __future__ import annotations

import abc
import functools
import math
from collections.abc import Mapping
from typing import Any, ClassVar

import numpy as np

from fiesta_envs.core.errors import InvalidOptionError, InvalidStateError
from fiesta_envs.core.game import Game
from fiesta_envs.core.options import Option
from fiesta_envs.muertos.actions import ActionLayout
from fiesta_envs.muertos.identity import load_identity_codes
from fiesta_envs.muertos.lexicon import LEXICON_VERSION, load_lexicon
from fiesta_envs.muertos.observation import MuertosObserver
from fiesta_envs.muertos.round import DONE, LIMBO_BONES, MEMORY_BONES, Round, RoundRules, Team

LEXICON = load_lexicon()
LAYOUT = ActionLayout(LEXICON)
OBSERVER = MuertosObserver(LEXICON, load_identity_codes())

FLAG = (False, True)
DRAW_CHOICE = Option(False, choices=FLAG, doc="each player is dealt two characters and keeps one")
DOUBLE_CHALLENGE = Option(
    False, choices=FLAG, doc="4 players only: each player draws two characters and fills two skulls"
)
CORTEGE = Option(False, choices=FLAG, doc="Les Cortèges: characters from two random themes only")


class MuertosGame(Game):
    """Rounds of Fiesta de los Muertos, cooperative: every seat gets the team's value."""

    player_counts = (4, 5, 6, 7, 8)
    default_players = 4
    cooperative = True
    score_scale = 1.0
    version = 1  # 1: identity codes in the observation; the lexicon's LEXICON_VERSION is saved in state dicts too
    #: Rounds the game can last (1 for the base game, 4 for La Catrina).
    max_rounds: ClassVar[int] = 1
    #: La Catrina's phase 4 (yellow-box choice, Limbo Bones).
    catrina: ClassVar[bool] = False
    #: Flowers that end the game at once, even in the middle of a round (La Catrina's 13th; never in
    #: the base game, which has no flowers).
    stop_flowers: ClassVar[float] = math.inf

    def __init__(self, num_players: int | None = None, seed: int | None = None, **options: Any) -> None:
        super().__init__(num_players, seed, **options)

    # ------------------------------------------------------------------ options
    def check_options(self) -> None:
        if self.config["double_challenge"] and self.num_players != 4:
            raise InvalidOptionError(
                f"{self.name}: option double_challenge=True needs 4 players, not {self.num_players}"
            )
        if self.config["double_challenge"] and self.config["draw_choice"]:
            raise InvalidOptionError(
                f"{self.name}: option double_challenge=True cannot be combined with draw_choice=True"
            )

    @functools.cached_property
    def rules(self) -> RoundRules:
        return RoundRules(
            num_players=self.num_players,
            double_challenge=self.config["double_challenge"],
            draw_choice=self.config["draw_choice"],
            cortege=self.config["cortege"],
            catrina=self.catrina,
        )

    # ------------------------------------------------------------------ sizes
    @property
    def num_actions(self) -> int:
        return LAYOUT.size

    @property
    def observation_size(self) -> int:
        return OBSERVER.size

    @property
    def observer(self) -> MuertosObserver:
        """Writes what a seat knows (``observation.py``); shared by every game, it keeps nothing between calls."""
        return OBSERVER

    @functools.cached_property
    def memory_cap(self) -> int:
        """The most Memory Bones the team can ever hold (normalises the observation)."""
        return MEMORY_BONES[self.num_players] + self.rules.skulls * self.max_rounds

    # ------------------------------------------------------------------ game flow
    @abc.abstractmethod
    def _round_constraints(self) -> list[int]:
        """The constraint cards of the round about to be dealt (drawn from ``self.rng``)."""

    @abc.abstractmethod
    def _round_finished(self) -> None:
        """The round in play is over: score it, then end the game or deal the next round."""

    def _new_game(self) -> None:
        limbo = LIMBO_BONES[self.num_players] if self.catrina else 0
        self.team = Team(memory=MEMORY_BONES[self.num_players], limbo=limbo)
        self.round_index = 0
        self.over = False
        self.history: list[dict[str, Any]] = []
        self._deal_round()

    def _deal_round(self) -> None:
        decider = self.round_index % self.num_players
        self.round = Round.deal(self.rules, LEXICON, LAYOUT, self.team, self.rng, self._round_constraints(), decider)

    @property
    def current_player(self) -> int:
        return -1 if self.over else self.round.current_player

    @property
    def is_over(self) -> bool:
        return self.over

    def _compute_mask(self) -> np.ndarray:
        if self.over:
            return np.zeros(LAYOUT.size, dtype=np.int8)
        return self.round.legal_mask()

    def _apply(self, action: int) -> None:
        game = self.round
        game.apply(action)
        if game.phase == DONE or self.team.flowers >= self.stop_flowers:
            self._round_finished()

    def explain_illegal(self, action: int) -> str:
        if self.over:
            return "the game is over"
        return self.round.explain_illegal(action)

    def _round_record(self) -> dict[str, Any]:
        """A summary of the round just played, for ``history`` and ``final_info``."""
        game = self.round
        return {
            "round": self.round_index + 1,
            "constraints": list(game.constraints),
            "appeased": game.appeased_count(),
            "skulls": self.rules.skulls,
            "success": game.succeeded,
        }

    # ------------------------------------------------------------------ views
    def observe(self, player: int) -> np.ndarray:
        return OBSERVER.observe(self, player)

    def _build_action_names(self) -> list[str]:
        return LAYOUT.names()

    def render_rgb(self) -> np.ndarray:
        """A picture of the table as a spectator sees it (needs Pillow: ``pip install fiesta_envs[render]``)."""
        from fiesta_envs.render.muertos import draw

        return draw(self)

    def render_text(self) -> str:
        team = self.team
        head = (
            f"{self.name}, {self.num_players} players, round {self.round_index + 1}/{self.max_rounds}: "
            f"Memory Bones {team.memory}"
        )
        if self.catrina:
            head += f", Limbo Bones {team.limbo}, flowers {team.flowers}/13"
        status = "game over" if self.over else f"seat {self.current_player} to act"
        return f"{head}; {status}\n{self.round.render_text()}"

    # ------------------------------------------------------------------ rewards
    @abc.abstractmethod
    def team_value(self) -> float:
        """The team's result now (appeased skulls, or flowers)."""

    @abc.abstractmethod
    def team_reward(self) -> float:
        """The team's result scaled to [0, 1]: every agent's final reward."""

    def scores(self) -> np.ndarray:
        return np.full(self.num_players, float(self.team_value()))

    def returns(self) -> np.ndarray:
        if not self.over:
            return np.zeros(self.num_players)
        return np.full(self.num_players, float(self.team_reward()))

    # ------------------------------------------------------------------ state dicts
    def _state_to_dict(self) -> dict[str, Any]:
        return {
            "lexicon_version": LEXICON_VERSION,
            "round_index": self.round_index,
            "over": self.over,
            "team": self.team.to_dict(),
            "history": [dict(record) for record in self.history],
            "round": self.round.to_dict(),
            **self._extra_state(),
        }

    def _extra_state(self) -> dict[str, Any]:
        return {}

    def _load_extra_state(self, data: Mapping[str, Any]) -> None:
        return None

    def _state_from_dict(self, data: Mapping[str, Any]) -> None:
        if data["lexicon_version"] != LEXICON_VERSION:
            raise InvalidStateError(
                f"{self.name}: state dict uses lexicon version {data['lexicon_version']}, "
                f"this package has {LEXICON_VERSION}"
            )
        round_index = data["round_index"]
        if isinstance(round_index, bool) or not isinstance(round_index, int):
            raise TypeError("round_index must be an int")
        if not 0 <= round_index < self.max_rounds:
            raise ValueError(f"round_index must be within 0..{self.max_rounds - 1}")
        over = data["over"]
        if not isinstance(over, bool):
            raise TypeError("over must be a bool")
        history = data["history"]
        if not isinstance(history, list) or not all(isinstance(r, dict) for r in history):
            raise TypeError("history must be a list of dicts")
        team = Team.from_dict(data["team"])
        game = Round.from_dict(data["round"], self.rules, LEXICON, LAYOUT, team)
        self._load_extra_state(data)
        self.team, self.round, self.round_index, self.over = team, game, round_index, over
        self.history = [dict(record) for record in history]
