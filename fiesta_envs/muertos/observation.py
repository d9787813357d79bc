"""What a player of Fiesta de los Muertos or La Catrina knows, as a float32 vector.

Words and characters are multi-hot vectors over the lexicon's tags (T tags), so that
association (a shared tag) is visible to a learner. Identity, where it matters, is given as
explicit links rather than huge one-hots: which table slot holds my own character, and which
final word is the very word I wrote last. A word slot is ``[present, blank, tags(T)]``; a
character slot is ``[present, tags(T)]``. Every entry lies in [0, 1]. Blocks, in order:

  players       one-hot of the player count (4..8)                                   5
  phase         draw, write, deduce, yellow choice, spend, over                      6
  round         campaign round 1..4 (the base game is round 1)                       4
  constraints   multi-hot of the constraint cards in play                             K
  themes        multi-hot of the cortege themes (all zero without ``cortege``)        6
  team          Memory Bones / cap, Limbo Bones / 4, flowers / 13, I am the decider   4
  my characters per hand (2): character slot                                          2 (1+T)
  offers        the two characters dealt to me under ``draw_choice``                  2 (1+T)
  memory        per hand (2), per step k (4): the word handed to me and the word I    16 (2+T)
                wrote. At step k I hold the skull of seat ``me - k``: the step names the
                skull by its owner's offset. The word of step k is handed over once step k
                begins (all players write a step at the same time in the printed game).
  task          writing: hand one-hot (2), step one-hot (4), the prompt read now:     9+T
                [character, word, blank] + its tags
  table         deduction: the 8 characters by slot, each + [mine hand 0, mine hand 1]  8 (3+T)
  final words   deduction: the last word of each skull by number,                     8 (4+T)
                + [same word as the one I wrote last in hand 0, in hand 1] (by word:
                two skulls ending on that word are both flagged)
  to match      one-hot of the skull number I am matching now                          8
  my guesses    per skull number, one-hot of the slot I chose                          64
  reveal        per skull number (after the reveal): answer slot one-hot (8),          8 x 15
                correct guesses / N, white boxes / (N-1), yellow box, Memory Bones
                spent / (N-1), Limbo Bone, closed, its yellow box still awaits a reward
A player never sees the other players' words in between, nor their guesses before the reveal.
"""

from __future__ import annotations

import numpy as np

from fiesta_envs.muertos.actions import MAX_SKULLS, TABLE_SIZE
from fiesta_envs.muertos.constraints import CONSTRAINTS
from fiesta_envs.muertos.lexicon import THEMES, Lexicon
from fiesta_envs.muertos.round import BLANK, NOT_WRITTEN, STEPS, Phase, Round

PLAYER_COUNTS = (4, 5, 6, 7, 8)
HANDS = 2
ROUNDS = 4
MAX_FLOWERS = 13
MAX_LIMBO = 4


class ObservationEncoder:
    """Offsets of every block, fixed by the lexicon; ``encode`` fills one vector."""

    def __init__(self, lexicon: Lexicon) -> None:
        self.lexicon = lexicon
        self.tags = t = len(lexicon.tags)
        # Tag rows with zero rows appended, so that the codes NOT_WRITTEN (-2), BLANK (-1) and
        # "no character" (-1) index an all-zero row: slots are filled by one gather per block.
        self.word_rows = np.vstack([np.asarray(lexicon.word_tags, dtype=np.float32), np.zeros((2, t), np.float32)])
        self.character_rows = np.vstack(
            [np.asarray(lexicon.character_tags, dtype=np.float32), np.zeros((1, t), np.float32)]
        )
        self.word_width = 2 + t
        self.character_width = 1 + t
        offset = 0

        def block(width: int) -> int:
            nonlocal offset
            start = offset
            offset += width
            return start

        self.players = block(len(PLAYER_COUNTS))
        self.phase = block(len(Phase))
        self.round = block(ROUNDS)
        self.constraints = block(len(CONSTRAINTS))
        self.themes = block(len(THEMES))
        self.team = block(4)
        self.mine = block(HANDS * self.character_width)
        self.offers = block(2 * self.character_width)
        self.memory_slots = HANDS * STEPS * 2
        self.memory = block(self.memory_slots * self.word_width)
        self.task = block(HANDS + STEPS + 3 + t)
        self.table_width = self.character_width + HANDS
        self.table = block(TABLE_SIZE * self.table_width)
        self.final_width = self.word_width + HANDS
        self.finals = block(MAX_SKULLS * self.final_width)
        self.to_match = block(MAX_SKULLS)
        self.guesses = block(MAX_SKULLS * TABLE_SIZE)
        self.reveal_width = TABLE_SIZE + 7
        self.reveal = block(MAX_SKULLS * self.reveal_width)
        self.size = offset

    def _words(self, out: np.ndarray, start: int, width: int, words: list[int]) -> None:
        """Word slots ``[present, blank, tags]`` every ``width`` entries from ``start``."""
        ids = np.asarray(words)
        view = out[start : start + len(words) * width].reshape(len(words), width)
        view[:, 0] = ids != NOT_WRITTEN
        view[:, 1] = ids == BLANK
        view[:, 2 : self.word_width] = self.word_rows[ids]

    def _characters(self, out: np.ndarray, start: int, width: int, characters: list[int]) -> None:
        """Character slots ``[present, tags]`` every ``width`` entries from ``start`` (-1: empty)."""
        ids = np.asarray(characters)
        view = out[start : start + len(characters) * width].reshape(len(characters), width)
        view[:, 0] = ids >= 0
        view[:, 1 : self.character_width] = self.character_rows[ids]

    def encode(self, game: Round, player: int, round_index: int, memory_cap: int, over: bool = False) -> np.ndarray:
        """``player``'s view of ``game`` (round ``round_index`` 0..3 of the campaign)."""
        out = np.zeros(self.size, dtype=np.float32)
        rules = game.rules
        n = rules.num_players
        phase = int(Phase.DONE if over else game.phase)
        hands = rules.hands
        out[self.players + PLAYER_COUNTS.index(n)] = 1.0
        out[self.phase + phase] = 1.0
        out[self.round + round_index] = 1.0
        for c in game.constraints:
            out[self.constraints + c] = 1.0
        for theme in game.themes:
            out[self.themes + theme] = 1.0
        team = game.team
        out[self.team] = min(team.memory / memory_cap, 1.0) if memory_cap else 0.0
        out[self.team + 1] = team.limbo / MAX_LIMBO
        out[self.team + 2] = min(team.flowers / MAX_FLOWERS, 1.0)
        out[self.team + 3] = float(player == game.decider)

        my_skulls = [hand * n + player for hand in range(hands)]
        self._characters(out, self.mine, self.character_width, [game.characters[j] for j in my_skulls])
        if game.offers:
            self._characters(out, self.offers, self.character_width, game.offers[player])

        # Words handed to me and words I wrote, by hand and step: slot (hand, step, received|wrote).
        writing = phase == Phase.WRITE
        handed_steps = game.step if writing else (STEPS if phase > Phase.WRITE else 0)
        memory = [NOT_WRITTEN] * self.memory_slots
        for hand in range(hands):
            for step in range(STEPS):
                teeth = game.words[hand * n + (player - step) % n]  # the skull of seat player - step
                slot = (hand * STEPS + step) * 2
                if 0 < step <= handed_steps:
                    memory[slot] = teeth[step - 1]
                memory[slot + 1] = teeth[step]
        self._words(out, self.memory, self.word_width, memory)

        if writing and game.current_player == player:
            out[self.task + game.hand] = 1.0
            out[self.task + HANDS + game.step] = 1.0
            kind, ident = game.prompt()
            prompt = self.task + HANDS + STEPS
            if kind == "character":
                out[prompt] = 1.0
                out[prompt + 3 : prompt + 3 + self.tags] = self.character_rows[ident]
            elif kind == "word":
                out[prompt + 1] = 1.0
                out[prompt + 3 : prompt + 3 + self.tags] = self.word_rows[ident]
            else:
                out[prompt + 2] = 1.0

        if phase >= Phase.DEDUCE:
            self._deduction(out, game, player, my_skulls)
        return out

    def _deduction(self, out: np.ndarray, game: Round, player: int, my_skulls: list[int]) -> None:
        rules = game.rules
        n = rules.num_players
        table = game.table
        self._characters(out, self.table, self.table_width, table)
        for hand, skull in enumerate(my_skulls):
            slot = table.index(game.characters[skull])
            out[self.table + slot * self.table_width + self.character_width + hand] = 1.0
        last_step = STEPS - 1
        finals = [game.words[skull][last_step] for skull in game.numbers]
        self._words(out, self.finals, self.final_width, finals)
        my_last = [game.words[game.holder_skull(player, last_step, hand)][last_step] for hand in range(rules.hands)]
        revealed = game.phase >= Phase.YELLOW
        for d, skull in enumerate(game.numbers):
            for hand, word in enumerate(my_last):
                if finals[d] == word:
                    out[self.finals + d * self.final_width + self.word_width + hand] = 1.0
            guess = game.guesses[skull][player]
            if guess >= 0:
                out[self.guesses + d * TABLE_SIZE + guess] = 1.0
            if revealed:
                start = self.reveal + d * self.reveal_width
                out[start + game.answer(skull)] = 1.0
                out[start + TABLE_SIZE] = game.correct_count(skull) / n
                out[start + TABLE_SIZE + 1] = game.whites[skull] / rules.white_boxes
                out[start + TABLE_SIZE + 2] = float(game.yellow[skull])
                out[start + TABLE_SIZE + 3] = game.bones[skull] / rules.white_boxes
                out[start + TABLE_SIZE + 4] = float(game.limbo[skull])
                out[start + TABLE_SIZE + 5] = float(game.closed(skull))
                out[start + TABLE_SIZE + 6] = float(d in game.pending)
        if game.phase == Phase.DEDUCE and game.seat == player:
            out[self.to_match + game.number] = 1.0
