"""What Fiesta de los Muertos and La Catrina share: a ``Game`` that plays rounds.

``MuertosGame`` drives ``Round`` objects (``round.py``) through the ``Game`` contract: the
flat action space (``actions.py``), the observation (``observation.py``), a cached legal
mask, state dicts and text rendering. Its position is ``game.state``, a ``MuertosState``
(``state.py``) whose ``round`` is the ``Round`` in play. A subclass says how many rounds there
are, which constraints each round gets, what ends the game and what the team's score is.
"""

from __future__ import annotations

import abc
import copy
import functools
import math
from collections.abc import Mapping
from typing import Any, ClassVar

import numpy as np

from fiesta_envs.core.errors import InvalidOptionError
from fiesta_envs.core.game import Game
from fiesta_envs.core.options import Option
from fiesta_envs.core.rng import generator_from_state, generator_state
from fiesta_envs.core.state_fields import FieldReader, to_json_safe
from fiesta_envs.muertos import determinization
from fiesta_envs.muertos.actions import ActionLayout
from fiesta_envs.muertos.components import LIMBO_BONES, MEMORY_BONES, Phase
from fiesta_envs.muertos.constraints import check_first_words
from fiesta_envs.muertos.identity import load_identity_codes
from fiesta_envs.muertos.lexicon import LEXICON_VERSION, load_lexicon
from fiesta_envs.muertos.observation import MuertosObserver
from fiesta_envs.muertos.round import Round
from fiesta_envs.muertos.state import MuertosState, RoundRules, Team
from fiesta_envs.policies.policy import Policy

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

    #: The position: the team, the campaign so far and the round in play.
    state: MuertosState[Round]

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

    #: Writes what a seat knows (``observation.py``); shared by every game, it keeps nothing between calls.
    observer = OBSERVER

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

    def _campaign_state(self, base: MuertosState[Round]) -> MuertosState[Round]:
        """The state of a new game, made of the base game's ``base`` (La Catrina adds its fields)."""
        return base

    def _new_game(self) -> None:
        limbo = LIMBO_BONES[self.num_players] if self.catrina else 0
        team = Team(memory=MEMORY_BONES[self.num_players], limbo=limbo)
        first = Round.undealt(rules=self.rules, lexicon=LEXICON, layout=LAYOUT, team=team)
        self.state = self._campaign_state(
            MuertosState(lexicon_version=LEXICON_VERSION, round_index=0, over=False, team=team, history=[], round=first)
        )
        self._deal()

    def _deal_round(self) -> None:
        """The next round of the campaign (``round_index`` already moved on)."""
        state = self.state
        state.round = Round.undealt(rules=self.rules, lexicon=LEXICON, layout=LAYOUT, team=state.team)
        self._deal()

    def _deal(self) -> None:
        """Deal the state's undealt round: its constraints first, then its cards (in that order from ``self.rng``)."""
        constraints = self._round_constraints()
        state = self.state
        state.round.deal(self.rng, constraints, decider=state.round_index % self.num_players)

    @property
    def current_player(self) -> int:
        state = self.state
        return -1 if state.over else state.round.current_player

    @property
    def is_over(self) -> bool:
        return self.state.over

    def _compute_mask(self) -> np.ndarray:
        state = self.state
        if state.over:
            return np.zeros(LAYOUT.size, dtype=np.int8)
        return state.round.legal_mask()

    def _apply(self, action: int) -> None:
        state = self.state
        game_round = state.round
        game_round.apply(action)
        if game_round.phase == Phase.DONE or state.team.flowers >= self.stop_flowers:
            self._round_finished()

    def explain_illegal(self, action: int) -> str:
        if self.state.over:
            return "the game is over"
        return self.state.round.explain_illegal(action)

    def _round_record(self) -> dict[str, Any]:
        """A summary of the round just played, for ``history`` and ``final_info``."""
        state = self.state
        game = state.round
        return {
            "round": state.round_index + 1,
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
        state = self.state
        team = state.team
        head = (
            f"{self.name}, {self.num_players} players, round {state.round_index + 1}/{self.max_rounds}: "
            f"Memory Bones {team.memory}"
        )
        if self.catrina:
            head += f", Limbo Bones {team.limbo}, flowers {team.flowers}/13"
        status = "game over" if state.over else f"seat {self.current_player} to act"
        text = f"{head}; {status}\n{state.round.render_text()}"
        if state.over:  # every chain is revealed at the end
            text += "\nthe chains of words (skull by number card: whose, its character, the words as written):\n"
            text += "\n".join(state.round.chain_lines())
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
        if not self.state.over:
            return np.zeros(self.num_players)
        return np.full(self.num_players, float(self.team_reward()))

    # ------------------------------------------------------------------ state dicts and copies
    def _state_to_dict(self) -> dict[str, Any]:
        return to_json_safe(self.state)

    def _state_from_dict(self, data: Mapping[str, Any]) -> None:
        read = FieldReader(data, self.name)
        version = read.int("lexicon_version")
        read.problem_if(version != LEXICON_VERSION, f"lexicon version {version}; this package has {LEXICON_VERSION}")
        round_index = read.int("round_index", 0, self.max_rounds - 1)
        over = read.bool("over")
        history = [dict(record.data) for record in read.parts("history")]
        team = Team.read(read.part("team"))
        game = Round.from_saved(read.part("round"), rules=self.rules, lexicon=LEXICON, layout=LAYOUT, team=team)
        base = MuertosState(
            lexicon_version=version, round_index=round_index, over=over, team=team, history=history, round=game
        )
        state = self._read_campaign(read, base)
        # Every field is read and checked: only now does the game change.
        self.state = state

    def _read_campaign(self, read: FieldReader, base: MuertosState[Round]) -> MuertosState[Round]:
        """The loaded state: ``base`` and the campaign's own fields read from ``read`` (none in the base game)."""
        return base

    def clone(self) -> MuertosGame:
        """An independent copy: the state (every list copied) and the generator; the options and the shared
        tables (lexicon, layout, rules) are the same objects."""
        twin = copy.copy(self)
        state = self.state
        team = state.team.copied()
        twin.state = state.with_round(team, state.round.copy_for(team))
        twin.rng = generator_from_state(generator_state(self.rng))
        twin._mask_cache = None
        twin.actions_applied = 0
        return twin

    def determinize(self, seat: int, rng: np.random.Generator, replay: Policy | None = None) -> MuertosGame:
        """A copy as ``seat`` may believe the game to be: the others' characters, the number cards and the words it
        has not seen drawn afresh from what it knows, the others' guesses not yet revealed made again by
        ``replay`` (by default at random), chance re-seeded (``muertos.determinization``)."""
        return determinization.determinize(self, seat, rng, replay)
