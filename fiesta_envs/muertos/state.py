"""The saved position of Fiesta de los Muertos and La Catrina: exactly what a state dict holds.

Three dataclasses, one line per field, written to JSON-safe dicts by ``core.state_fields.to_json_safe`` and read
back field by field through a ``core.state_fields.FieldReader`` (every error names the field and what was
expected, for instance ``fiesta_de_los_muertos: state field 'round.words[1][2]': expected an int in [-2,
1383], got 5000``):

- ``Team``: what the team owns across rounds (bones and flowers);
- ``RoundState``: one round, everything drawn for it and everything written and guessed in it (the
  ``Round`` of ``round.py`` *is* a ``RoundState`` with the rules that move it);
- ``MuertosState``: the whole game (``CatrinaState`` adds the campaign's two fields). An engine's ``state``
  is one of these, its ``round`` a ``Round`` (``MuertosState[Round]``).

Values derived from a position (the table in slot order, the legal-mask tables) are not saved: ``Round``
rebuilds them in one place (``Round.rebuild``) after a deal, a load or a copy.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from fiesta_envs.core.state_fields import FieldReader
from fiesta_envs.muertos.components import NOT_WRITTEN, REWARDS, STEPS, TABLE_SIZE, Phase
from fiesta_envs.muertos.constraints import CONSTRAINTS
from fiesta_envs.muertos.lexicon import THEMES


@dataclass(frozen=True)
class RoundRules:
    """The fixed shape of every round of a game: player count and options, and the sizes they give."""

    num_players: int
    double_challenge: bool = False
    draw_choice: bool = False
    cortege: bool = False
    catrina: bool = False  # La Catrina's phase 4: yellow-box choice and Limbo Bones

    @property
    def hands(self) -> int:
        """Skulls each player fills."""
        return 2 if self.double_challenge else 1

    @property
    def skulls(self) -> int:
        return self.num_players * self.hands

    @property
    def white_boxes(self) -> int:
        """White boxes per skull: one less than the number of guessers."""
        return self.num_players - 1


@dataclass
class Team:
    """What the team owns across rounds."""

    memory: int  # yellow Memory Bones
    limbo: int = 0  # red Limbo Bones (La Catrina)
    flowers: int = 0  # flowers coloured on La Catrina's hat

    @classmethod
    def read(cls, read: FieldReader) -> Team:
        return cls(memory=read.int("memory", 0), limbo=read.int("limbo", 0), flowers=read.int("flowers", 0))

    def copied(self) -> Team:
        return Team(memory=self.memory, limbo=self.limbo, flowers=self.flowers)


@dataclass(eq=False)
class RoundState:
    """One round (skull index ``j = hand * N + owner``; skull number ``d``: the number card, 0-based here)."""

    constraints: list[int]  # the constraint cards in play
    decider: int  # the seat that takes the team's decisions
    themes: list[int]  # the two cortège themes, or none
    offers: list[list[int]]  # draw choice: the two characters dealt to each seat
    characters: list[int]  # by skull index (-1: not kept yet in the draw)
    extras: list[int]  # the characters added to the table
    table_order: list[int]  # table slot c shows (characters + extras)[table_order[c]]
    numbers: list[int]  # numbers[d]: the skull index with number card d
    words: list[list[int]]  # [skull][tooth]: a word id, BLANK or NOT_WRITTEN
    guesses: list[list[int]]  # [skull][seat]: the table slot matched (-1: not yet)
    whites: list[int]  # white boxes checked per skull
    yellow: list[bool]  # yellow box checked per skull
    bones: list[int]  # Memory Bones spent per skull
    limbo: list[bool]  # closed by a Limbo Bone, per skull
    rewards: list[str]  # "memory" or "flower" given for a checked yellow box ("" before)
    pending: list[int]  # skull numbers whose yellow-box reward is still to choose
    phase: Phase
    seat: int  # whose turn it is in the draw, the writing and the deduction
    step: int  # writing step 0..3 (4 once the writing is over)
    hand: int  # double challenge: which of the seat's two skulls it writes on now
    number: int  # deduction: the skull number the seat matches now

    @classmethod
    def before_the_deal(cls, rules: RoundRules) -> RoundState:
        """A round with nothing drawn, written or guessed yet."""
        n, s = rules.num_players, rules.skulls
        return cls(
            constraints=[],
            decider=0,
            themes=[],
            offers=[],
            characters=[-1] * s,
            extras=[],
            table_order=list(range(TABLE_SIZE)),
            numbers=list(range(s)),
            words=[[NOT_WRITTEN] * STEPS for _ in range(s)],
            guesses=[[-1] * n for _ in range(s)],
            whites=[0] * s,
            yellow=[False] * s,
            bones=[0] * s,
            limbo=[False] * s,
            rewards=[""] * s,
            pending=[],
            phase=Phase.DRAW,
            seat=0,
            step=0,
            hand=0,
            number=0,
        )

    def copied(self) -> RoundState:
        """The same position with every list copied: changing either leaves the other as it was."""
        return RoundState(
            constraints=list(self.constraints),
            decider=self.decider,
            themes=list(self.themes),
            offers=[list(offer) for offer in self.offers],
            characters=list(self.characters),
            extras=list(self.extras),
            table_order=list(self.table_order),
            numbers=list(self.numbers),
            words=[list(teeth) for teeth in self.words],
            guesses=[list(seats) for seats in self.guesses],
            whites=list(self.whites),
            yellow=list(self.yellow),
            bones=list(self.bones),
            limbo=list(self.limbo),
            rewards=list(self.rewards),
            pending=list(self.pending),
            phase=self.phase,
            seat=self.seat,
            step=self.step,
            hand=self.hand,
            number=self.number,
        )

    @classmethod
    def read(cls, read: FieldReader, rules: RoundRules, num_characters: int, num_words: int) -> RoundState:
        """A round from its state dict part, every field checked, then the rules that tie fields together."""
        n, s = rules.num_players, rules.skulls
        characters = num_characters - 1
        state = cls(
            constraints=read.int_list("constraints", None, 0, len(CONSTRAINTS) - 1),
            decider=read.int("decider", 0, n - 1),
            themes=read.int_list("themes", 2 if rules.cortege else 0, 0, len(THEMES) - 1),
            offers=read.int_matrix("offers", rows=n if rules.draw_choice else 0, cols=2, low=0, high=characters),
            characters=read.int_list("characters", s, -1, characters),
            extras=read.int_list("extras", TABLE_SIZE - s, 0, characters),
            table_order=read.permutation("table_order", TABLE_SIZE),
            numbers=read.permutation("numbers", s),
            words=read.int_matrix("words", rows=s, cols=STEPS, low=NOT_WRITTEN, high=num_words - 1),
            guesses=read.int_matrix("guesses", rows=s, cols=n, low=-1, high=TABLE_SIZE - 1),
            whites=read.int_list("whites", s, 0, rules.white_boxes),
            yellow=read.bool_list("yellow", s),
            bones=read.int_list("bones", s, 0, rules.white_boxes),
            limbo=read.bool_list("limbo", s),
            rewards=read.choice_list("rewards", REWARDS, s),
            pending=read.int_list("pending", None, 0, s - 1),
            phase=Phase(read.int("phase", 0, len(Phase) - 1)),
            seat=read.int("seat", 0, n - 1),
            step=read.int("step", 0, STEPS),
            hand=read.int("hand", 0, rules.hands - 1),
            number=read.int("number", 0, s - 1),
        )
        problem_if = read.problem_if
        problem_if(
            state.phase > Phase.DRAW and -1 in state.characters, "every skull needs its character after the draw"
        )
        problem_if(state.phase == Phase.DRAW and not rules.draw_choice, "there is a draw phase only under draw_choice")
        problem_if(state.phase <= Phase.WRITE and state.step >= STEPS, "the writing step must be 0..3 until it is over")
        problem_if(state.phase >= Phase.DEDUCE and state.step != STEPS, "the deduction comes after the 4 writing steps")
        problem_if(state.phase == Phase.YELLOW and not state.pending, "the yellow phase needs a pending yellow box")
        for d in state.pending:
            skull = state.numbers[d]
            problem_if(
                not state.yellow[skull] or bool(state.rewards[skull]),
                f"pending: skull number {d + 1} has no yellow box waiting for a reward",
            )
        problem_if(
            state.phase > Phase.DRAW and len(set(state.characters + state.extras)) != TABLE_SIZE,
            "the 8 characters on the table must differ",
        )
        return state


#: The type of a game state's round: a ``RoundState``, or in an engine a ``Round`` (the state with its rules).
RoundT = TypeVar("RoundT", bound=RoundState)


@dataclass
class MuertosState(Generic[RoundT]):
    """A whole game of Fiesta de los Muertos (the ``state`` part of ``Game.state_dict()``)."""

    lexicon_version: int
    round_index: int  # the campaign round in play, 0-based (always 0 in the base game)
    over: bool
    team: Team  # (the round in play changes this same ``Team``)
    history: list[dict[str, Any]]  # one record per round played (``MuertosGame._round_record``)
    round: RoundT

    def with_round(self, team: Team, game_round: RoundT) -> MuertosState[RoundT]:
        """A copy playing ``game_round`` for ``team`` (both already copied), the rest copied here."""
        return MuertosState(
            lexicon_version=self.lexicon_version,
            round_index=self.round_index,
            over=self.over,
            team=team,
            history=copy.deepcopy(self.history),
            round=game_round,
        )


@dataclass
class CatrinaState(MuertosState[RoundT]):
    """A La Catrina campaign: the base game's fields and the campaign's own."""

    used_constraints: list[int]  # every constraint card drawn in the campaign (never drawn again)
    end_reason: str  # why the campaign ended ("" while it goes on)

    @classmethod
    def extending(
        cls, base: MuertosState[RoundT], used_constraints: list[int], end_reason: str
    ) -> CatrinaState[RoundT]:
        """The base game's fields of ``base`` (shared, not copied) and the campaign's."""
        return cls(
            lexicon_version=base.lexicon_version,
            round_index=base.round_index,
            over=base.over,
            team=base.team,
            history=base.history,
            round=base.round,
            used_constraints=used_constraints,
            end_reason=end_reason,
        )

    def with_round(self, team: Team, game_round: RoundT) -> CatrinaState[RoundT]:
        return CatrinaState.extending(
            super().with_round(team, game_round), list(self.used_constraints), self.end_reason
        )
