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

from fiesta_envs.core.errors import InvalidOptionError
from fiesta_envs.core.fields import FieldReader, to_json_safe
from fiesta_envs.core.game import Game
from fiesta_envs.core.options import Option
from fiesta_envs.muertos.actions import ActionLayout
from fiesta_envs.muertos.components import LIMBO_BONES, MEMORY_BONES, Phase
from fiesta_envs.muertos.constraints import check_first_words
from fiesta_envs.muertos.identity import load_identity_codes
from fiesta_envs.muertos.lexicon import LEXICON_VERSION, load_lexicon
from fiesta_envs.muertos.observation import MuertosObserver
from fiesta_envs.muertos.round import Round
from fiesta_envs.muertos.state import MuertosState, RoundRules, Team

LEXICON = check_first_words(load_lexicon())
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
    #: The candidates the trained agents choose among (loaded by name: the shortlist reads the baselines).
    shortlist_target = "fiesta_envs.muertos.shortlist:SHORTLISTS"
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
        self.round = Round.deal(
            rules=self.rules,
            lexicon=LEXICON,
            layout=LAYOUT,
            team=self.team,
            rng=self.rng,
            constraints=self._round_constraints(),
            decider=decider,
        )

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
        if game.phase == Phase.DONE or self.team.flowers >= self.stop_flowers:
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

    def render_text(self) -> str:
        team = self.team
        head = (
            f"{self.name}, {self.num_players} players, round {self.round_index + 1}/{self.max_rounds}: "
            f"Memory Bones {team.memory}"
        )
        if self.catrina:
            head += f", Limbo Bones {team.limbo}, flowers {team.flowers}/13"
        status = "game over" if self.over else f"seat {self.current_player} to act"
        text = f"{head}; {status}\n{self.round.render_text()}"
        if self.over:  # every chain is revealed at the end
            text += "\nthe chains of words (skull by number card: whose, its character, the words as written):\n"
            text += "\n".join(self.round.chain_lines())
        return text

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
    def saved_state(self) -> MuertosState:
        """The position as the dataclass ``state_dict`` writes (La Catrina's adds its own fields)."""
        return MuertosState(
            lexicon_version=LEXICON_VERSION,
            round_index=self.round_index,
            over=self.over,
            team=self.team,
            history=self.history,
            round=self.round,
        )

    def _state_to_dict(self) -> dict[str, Any]:
        return to_json_safe(self.saved_state())

    def _state_from_dict(self, data: Mapping[str, Any]) -> None:
        read = FieldReader(data, self.name)
        version = read.int("lexicon_version")
        read.problem_if(version != LEXICON_VERSION, f"lexicon version {version}; this package has {LEXICON_VERSION}")
        round_index = read.int("round_index", 0, self.max_rounds - 1)
        over = read.bool("over")
        history = [dict(record.data) for record in read.parts("history")]
        team = Team.read(read.part("team"))
        game = Round.read(read.part("round"), rules=self.rules, lexicon=LEXICON, layout=LAYOUT, team=team)
        campaign = self._read_campaign(read)
        # Every field is read and checked: only now does the game change.
        self.team, self.round, self.round_index, self.over, self.history = team, game, round_index, over, history
        for name, value in campaign.items():
            setattr(self, name, value)

    def _read_campaign(self, read: FieldReader) -> dict[str, Any]:
        """La Catrina's own fields, by attribute name (none in the base game)."""
        return {}
