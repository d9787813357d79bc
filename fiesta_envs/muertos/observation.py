"""What a player of Fiesta de los Muertos or La Catrina knows, as a float32 vector (version 1).

The layout, block by block, and why words and characters carry an identity code next to their tags, is
documented in the game's page, ``fiesta_envs/fiesta_de_los_muertos_v1.py`` (``tests/test_muertos_observation.py``
checks that the page's table is this layout and decodes every block). In short: a word slot is
``[present, blank, tags (T), identity code (B)]``, a character slot ``[present, tags (T), identity code (B)]``.

Simultaneous steps as printed: what a seat reads at writing step k (written at step k - 1) appears for every
seat when step k begins; nothing another seat wrote, kept or matched during the current step is shown (see
``_memory``), and the others' guesses only after the reveal.

``MuertosObserver.encode`` builds the vector from scratch from the round's state, and the environments call it at
every step (``Observer.observe``): no incremental copy is kept. It costs 15-19 CPU microseconds a call on this
project's loaded 2-core machine (7 for version 0's kept views), and the environment stays 8.5-9.2% of
MaskablePPO's time (``fiesta bench --train``; 8.8-9.8% with version 0 in the same conditions).
"""

from __future__ import annotations

import functools
from types import SimpleNamespace
from typing import Protocol

import numpy as np

from fiesta_envs.core.observer import ObservationLayout, Observer
from fiesta_envs.muertos.components import (
    BLANK,
    MAX_FLOWERS,
    MAX_LIMBO,
    MAX_SKULLS,
    NOT_WRITTEN,
    STEPS,
    TABLE_SIZE,
    Phase,
)
from fiesta_envs.muertos.constraints import CONSTRAINTS
from fiesta_envs.muertos.identity import IdentityCodes
from fiesta_envs.muertos.lexicon import THEMES, Lexicon
from fiesta_envs.muertos.round import Round
from fiesta_envs.muertos.state import MuertosState

PLAYER_COUNTS = (4, 5, 6, 7, 8)
HANDS = 2
ROUNDS = 4
#: Extra entries after a table slot's character (mine in hand 0, 1) and a final word (I wrote it last, 0, 1).
HAND_FLAGS = HANDS
#: Per skull number after the reveal: answer slot one-hot, then the 7 values listed in the page.
REVEAL_WIDTH = TABLE_SIZE + 7


class MuertosPosition(Protocol):
    """What the observer reads of a game (``MuertosGame``): its state (the round in play and the campaign around
    it) and the most Memory Bones the team can hold."""

    @property
    def state(self) -> MuertosState[Round]: ...

    @property
    def memory_cap(self) -> int: ...


class MuertosObserver(Observer[MuertosPosition]):
    """Writes the documented layout; its row tables are fixed by the lexicon and the identity codes."""

    def __init__(self, lexicon: Lexicon, codes: IdentityCodes) -> None:
        self.lexicon = lexicon
        self.tags = len(lexicon.tags)
        self.code_bits = codes.words.shape[1]
        self.word_width = 2 + self.tags + self.code_bits
        self.character_width = 1 + self.tags + self.code_bits
        super().__init__(
            ObservationLayout(
                [
                    ("players", len(PLAYER_COUNTS)),
                    ("phase", len(Phase)),
                    ("round", ROUNDS),
                    ("constraints", len(CONSTRAINTS)),
                    ("themes", len(THEMES)),
                    ("team", 4),
                    ("my_characters", (HANDS, self.character_width)),
                    ("offers", (2, self.character_width)),
                    ("memory", (HANDS, STEPS, 2, self.word_width)),
                    ("task", HANDS + STEPS),
                    ("prompt", 3 + self.tags + self.code_bits),
                    ("table", (TABLE_SIZE, self.character_width + HAND_FLAGS)),
                    ("final_words", (MAX_SKULLS, self.word_width + HAND_FLAGS)),
                    ("to_match", MAX_SKULLS),
                    ("my_guesses", (MAX_SKULLS, TABLE_SIZE)),
                    ("reveal", (MAX_SKULLS, REVEAL_WIDTH)),
                ]
            )
        )
        #: Where each block starts: ``self.at.memory`` and so on.
        self.at = SimpleNamespace(**{name: part.start for name, part in self.layout.blocks.items()})
        # Slot rows, one per word id, then NOT_WRITTEN (-2: all zeros) and BLANK (-1: present and blank) as
        # the last two rows, so that a tooth's value indexes its row directly.
        words = np.zeros((len(lexicon.words) + 2, self.word_width), np.float32)
        words[:-2, 0] = 1.0
        words[:-2, 2 : 2 + self.tags] = lexicon.word_tags
        words[:-2, 2 + self.tags :] = codes.words
        words[BLANK, :2] = 1.0
        assert not words[NOT_WRITTEN].any()
        # One row per character id, then "no character" (-1: all zeros) last.
        characters = np.zeros((len(lexicon.characters) + 1, self.character_width), np.float32)
        characters[:-1, 0] = 1.0
        characters[:-1, 1 : 1 + self.tags] = lexicon.character_tags
        characters[:-1, 1 + self.tags :] = codes.characters
        words.flags.writeable = characters.flags.writeable = False
        self.word_slots = words
        self.character_slots = characters

    # ------------------------------------------------------------------ the reference
    def encode(self, game: MuertosPosition, seat: int, out: np.ndarray) -> None:
        position = game.state
        state = position.round
        rules = state.rules
        at = self.at
        phase = Phase.DONE if position.over else state.phase

        out[at.players + PLAYER_COUNTS.index(rules.num_players)] = 1.0
        out[at.phase + phase] = 1.0
        out[at.round + position.round_index] = 1.0
        for card in state.constraints:
            out[at.constraints + card] = 1.0
        for theme in state.themes:
            out[at.themes + theme] = 1.0
        team = state.team
        out[at.team] = min(team.memory / game.memory_cap, 1.0) if game.memory_cap else 0.0
        out[at.team + 1] = team.limbo / MAX_LIMBO
        out[at.team + 2] = min(team.flowers / MAX_FLOWERS, 1.0)
        out[at.team + 3] = float(seat == state.decider)

        for hand in range(rules.hands):
            self._character(
                out, at.my_characters + hand * self.character_width, state.characters[hand * rules.num_players + seat]
            )
        if state.offers:
            for index, character in enumerate(state.offers[seat]):
                self._character(out, at.offers + index * self.character_width, character)
        self._memory(out, state, seat)
        if phase == Phase.WRITE and state.seat == seat:
            self._task(out, state)
        if phase >= Phase.DEDUCE:
            self._deduction(out, state, seat)

    def _character(self, out: np.ndarray, start: int, character: int) -> None:
        """A character slot at ``start`` (-1: no character, left empty)."""
        if character >= 0:
            out[start : start + self.character_width] = self.character_slots[character]

    def _word(self, out: np.ndarray, start: int, word: int) -> None:
        """A word slot at ``start`` (a word id, ``BLANK``; ``NOT_WRITTEN`` is left empty)."""
        if word != NOT_WRITTEN:
            out[start : start + self.word_width] = self.word_slots[word]

    def _memory(self, out: np.ndarray, state: Round, seat: int) -> None:
        """Slot ``(hand * STEPS + k) * 2``: the word handed to me at step k; ``+ 1``: the word I wrote then."""
        # The last writing step begun: each step hands its word over to every seat when it begins.
        begun = {Phase.DRAW: 0, Phase.WRITE: state.step}.get(state.phase, STEPS)
        words = state.words
        for slot, skull, step in memory_plan(state.rules.num_players, state.rules.hands, seat):
            start = self.at.memory + slot * self.word_width
            if slot % 2:  # the word I wrote at this step (NOT_WRITTEN until I write it)
                self._word(out, start, words[skull][step])
            elif step <= begun:  # the word written at the step before, on the skull handed to me
                self._word(out, start, words[skull][step - 1])

    def _task(self, out: np.ndarray, state: Round) -> None:
        at = self.at
        out[at.task + state.hand] = 1.0
        out[at.task + HANDS + state.step] = 1.0
        kind, ident = state.prompt()
        meaning = slice(at.prompt + 3, at.prompt + 3 + self.tags + self.code_bits)
        if kind == "character":
            out[at.prompt] = 1.0
            out[meaning] = self.character_slots[ident, 1:]
        elif kind == "word":
            out[at.prompt + 1] = 1.0
            out[meaning] = self.word_slots[ident, 2:]
        else:
            out[at.prompt + 2] = 1.0

    def _deduction(self, out: np.ndarray, state: Round, seat: int) -> None:
        at = self.at
        rules = state.rules
        table_width = self.character_width + HAND_FLAGS
        final_width = self.word_width + HAND_FLAGS
        table = state.table
        for slot, character in enumerate(table):
            self._character(out, at.table + slot * table_width, character)
        finals = [state.words[skull][STEPS - 1] for skull in state.numbers]
        for number, word in enumerate(finals):
            self._word(out, at.final_words + number * final_width, word)
        for hand in range(rules.hands):
            mine = state.characters[hand * rules.num_players + seat]
            out[at.table + table.index(mine) * table_width + self.character_width + hand] = 1.0
            # The word I wrote last in this hand: the last tooth of the skull I held at the last step.
            last = state.words[state.holder_skull(seat, STEPS - 1, hand)][STEPS - 1]
            for number, final in enumerate(finals):
                if final == last:
                    out[at.final_words + number * final_width + self.word_width + hand] = 1.0

        if state.phase == Phase.DEDUCE and state.seat == seat:
            out[at.to_match + state.number] = 1.0
        for number, skull in enumerate(state.numbers):
            guess = state.guesses[skull][seat]
            if guess >= 0:
                out[at.my_guesses + number * TABLE_SIZE + guess] = 1.0

        if state.phase >= Phase.YELLOW:
            for number, skull in enumerate(state.numbers):
                start = at.reveal + number * REVEAL_WIDTH
                out[start + state.answer(skull)] = 1.0
                out[start + TABLE_SIZE : start + REVEAL_WIDTH] = (
                    state.correct_count(skull) / rules.num_players,
                    state.whites[skull] / rules.white_boxes,
                    state.yellow[skull],
                    state.bones[skull] / rules.white_boxes,
                    state.limbo[skull],
                    state.closed(skull),
                    number in state.pending,
                )

    # ------------------------------------------------------------------ reading a vector back
    def word_in(self, slot: np.ndarray) -> int | None:
        """The word a word slot shows (an id, ``BLANK``) or None for an empty slot: found by its identity code."""
        if not slot[0]:
            return None
        if slot[1]:
            return BLANK
        return self._identify(slot[2 + self.tags : self.word_width], self.word_slots[:-2, 2 + self.tags :])

    def character_in(self, slot: np.ndarray) -> int | None:
        """The character a character slot shows (an id), or None for an empty slot."""
        if not slot[0]:
            return None
        return self._identify(slot[1 + self.tags : self.character_width], self.character_slots[:-1, 1 + self.tags :])

    @staticmethod
    def _identify(code: np.ndarray, codes: np.ndarray) -> int:
        matches = np.flatnonzero((codes == code).all(axis=1))
        if len(matches) != 1:
            raise ValueError("not an identity code of the lexicon")
        return int(matches[0])


@functools.cache
def memory_plan(num_players: int, hands: int, seat: int) -> tuple[tuple[int, int, int], ...]:
    """The memory slots of ``seat`` as ``(slot, skull, step)``: at step k it holds the skull of seat ``seat - k``
    in each hand; slot ``(hand * STEPS + k) * 2`` is the word handed over with it (none at step 0), the next
    slot the word it writes on it."""
    plan = []
    for hand in range(hands):
        for step in range(STEPS):
            skull = hand * num_players + (seat - step) % num_players
            slot = (hand * STEPS + step) * 2
            if step > 0:
                plan.append((slot, skull, step))
            plan.append((slot + 1, skull, step))
    return tuple(plan)
