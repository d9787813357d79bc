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

import functools
from typing import NamedTuple

import numpy as np

from fiesta_envs.muertos.actions import MAX_SKULLS, TABLE_SIZE
from fiesta_envs.muertos.constraints import CONSTRAINTS
from fiesta_envs.muertos.lexicon import THEMES, Lexicon
from fiesta_envs.muertos.round import BLANK, DEDUCE, DONE, NOT_WRITTEN, STEPS, WRITE, YELLOW, Phase, Round

PLAYER_COUNTS = (4, 5, 6, 7, 8)
HANDS = 2
ROUNDS = 4
MAX_FLOWERS = 13
MAX_LIMBO = 4
#: Distinct header rows kept (``ObservationEncoder._header_row``) before the table is emptied.
HEADER_ROWS_KEPT = 4096


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
        self._public: tuple[Round, memoryview, dict[int, list[int]]] | None = None  # see _public_deduction
        # The header blocks (players .. team: everything before my characters) change only with the
        # round and at phase changes; each distinct content is one row made once (``_header_row``),
        # keyed by ``PlayerView.header_base + PlayerView.header``, and copied in by one slice write.
        self._header_rows: dict[tuple[object, ...], memoryview] = {}
        self._slot_tables()

    # Slot rows with the flags baked in, so that one row copy fills a whole slot: a word slot
    # ``[present, blank, tags]`` for every word id, then BLANK (-1) and NOT_WRITTEN (-2) at the end;
    # a character slot ``[present, tags]`` for every character id, then "no character" (-1).
    def _slot_tables(self) -> None:
        t = self.tags
        words = np.zeros((len(self.word_rows), self.word_width), np.float32)
        words[:, 2:] = self.word_rows
        words[:-2, 0] = 1.0
        words[BLANK, :2] = 1.0  # present and blank
        self.word_slots = words
        characters = np.zeros((len(self.character_rows), self.character_width), np.float32)
        characters[:, 1:] = self.character_rows
        characters[:-1, 0] = 1.0
        self.character_slots = characters
        assert words.shape[1] == 2 + t and not words[NOT_WRITTEN].any()
        # The writing task's rows: hand and step one-hots by ``hand * STEPS + step``; prompt
        # ``[character, word, blank, tags]``.
        self.position_rows = np.zeros((HANDS * STEPS, HANDS + STEPS), np.float32)
        for hand in range(HANDS):
            for step in range(STEPS):
                self.position_rows[hand * STEPS + step, [hand, HANDS + step]] = 1.0
        # The prompt rows are indexed by ``Round.prompt_key``: words by id from the front, the blank
        # (-1) last, characters (-2 - id) backwards before it.
        n_words, n_characters = len(self.word_rows) - 2, len(self.character_rows) - 1
        prompts = np.zeros((n_words + n_characters + 1, 3 + t), np.float32)
        prompts[:n_words, 1] = 1.0
        prompts[:n_words, 3:] = self.word_rows[:n_words]
        prompts[n_words:-1, 0] = 1.0
        prompts[n_words:-1, 3:] = self.character_rows[n_characters - 1 :: -1]
        prompts[-1, 2] = 1.0
        self.prompt_rows = prompts
        # The same rows as memoryviews, for the blocks rewritten at almost every step: they are written
        # through ``PlayerView.cells``, a memoryview of the vector, whose slice assignment costs about
        # a third of numpy's (the values are the same float32 bits).
        self.word_cells = _row_views(words)
        self.character_cells = _row_views(characters)
        self.position_cells = _row_views(self.position_rows)
        self.prompt_cells = _row_views(prompts)
        self.no_task = memoryview(np.zeros(HANDS + STEPS + 3 + t, np.float32))

    def _characters(self, cells: memoryview, start: int, characters: list[int]) -> None:
        """Adjacent character slots ``[present, tags]`` from ``start`` (-1: empty)."""
        rows, width = self.character_cells, self.character_width
        for i, character in enumerate(characters):
            cells[start + i * width : start + (i + 1) * width] = rows[character]

    def _header_row(self, key: tuple[object, ...]) -> memoryview:
        """The header blocks (players .. team, the start of the vector) for ``key``, made and kept."""
        n, constraints, themes, decider, memory_cap, phase, round_index, memory, limbo, flowers = key
        row = np.zeros(self.mine, np.float32)
        cells = memoryview(row)
        cells[self.players + PLAYER_COUNTS.index(n)] = 1.0
        for c in constraints:
            cells[self.constraints + c] = 1.0
        for theme in themes:
            cells[self.themes + theme] = 1.0
        cells[self.phase + phase] = 1.0
        cells[self.round + round_index] = 1.0
        cells[self.team] = min(memory / memory_cap, 1.0) if memory_cap else 0.0
        cells[self.team + 1] = limbo / MAX_LIMBO
        cells[self.team + 2] = min(flowers / MAX_FLOWERS, 1.0)
        cells[self.team + 3] = float(decider)
        if len(self._header_rows) >= HEADER_ROWS_KEPT:
            self._header_rows.clear()
        self._header_rows[key] = cells
        return cells

    def encode(self, game: Round, player: int, round_index: int, memory_cap: int, over: bool = False) -> np.ndarray:
        """``player``'s view of ``game`` (round ``round_index`` 0..3 of the campaign), a fresh vector."""
        view = PlayerView(self.size, player)
        self.refresh(view, game, round_index, memory_cap, over)
        return view.vector

    def refresh(self, view: PlayerView, game: Round, round_index: int, memory_cap: int, over: bool = False) -> None:
        """Bring ``view.vector`` up to date with ``game``, rewriting only the blocks that changed.

        Each block remembers (in ``view``) the state it shows and is rewritten when that state
        differs. A new ``Round`` object (new round, reset, loaded state) clears the whole view.
        Between two calls a ``Round`` only moves forward by its actions (``Round.apply``), which
        lets the memory and guess blocks look at the writing steps and matches made since.
        """
        player = view.player
        if view.round is not game:  # constant for the round: player count, cards in play, decider, offers
            rules = game.rules
            n = rules.num_players
            my_skulls = [player, n + player][: rules.hands]  # skull index ``hand * n + player`` of my hands
            view.clear(game, my_skulls, memory_plan(n, rules.hands, player))
            view.header_base = (n, tuple(game.constraints), tuple(game.themes), player == game.decider, memory_cap)
            if game.offers:
                self._characters(view.cells, self.offers, game.offers[player])

        phase = DONE if over else game.phase
        # The team's bones and flowers move only in the yellow and spend phases, at the reveal (which
        # changes the phase) and between rounds (a new Round): else the header follows the phase.
        if phase != view.phase or phase >= YELLOW:
            view.phase = phase
            team = game.team
            header = (int(phase), round_index, team.memory, team.limbo, team.flowers)
            if header != view.header:
                view.header = header
                key = view.header_base + header
                row = self._header_rows.get(key)
                if row is None:
                    row = self._header_row(key)
                view.cells[: self.mine] = row

        if view.mine_open:  # a character, once kept, stays for the round
            mine = [game.characters[j] for j in view.my_skulls]
            if mine != view.mine:
                view.mine = mine
                view.mine_open = -1 in mine
                self._characters(view.cells, self.mine, mine)

        if phase >= DEDUCE and view.handed_steps == STEPS:
            # The writing is over and the view already shows all of it (the memory complete, no task,
            # both set by one earlier call after the writing): only the deduction blocks can change.
            self._refresh_deduction(view, game)
            return

        # Words handed to me and words I wrote, by hand and step: slot (hand, step, received|wrote).
        # My writing task is known by its position ``hand * STEPS + step`` (-1: none): in a Round the
        # prompt read at a position never changes (it was written at the step before, or is a character).
        if phase == WRITE:
            handed_steps = game.step
            task = game.hand * STEPS + handed_steps if game.seat == player else -1
        else:
            handed_steps = STEPS if phase > WRITE else 0
            task = -1
        if handed_steps != view.handed_steps or game.written != view.written:
            self._refresh_memory(view, game.words, handed_steps)
            view.handed_steps, view.written = handed_steps, game.written
        if task != view.task:
            view.task = task
            self._write_task(view, task)

        if phase >= DEDUCE:
            self._refresh_deduction(view, game)

    def _refresh_memory(self, view: PlayerView, words: list[list[int]], handed_steps: int) -> None:
        """Rewrite the memory slots whose word changed since the view last showed ``view.handed_steps``.

        A tooth is written only during its own step, and the next holder sees it once the step after
        is handed over; so since then only my teeth of steps ``view.handed_steps .. handed_steps`` and
        the words handed to me at steps after ``view.handed_steps`` can have changed (every slot is
        checked after ``PlayerView.clear``, which sets ``handed_steps`` to -1): ``MemoryPlan.since``.
        """
        shown, cells, rows, width, base = view.memory, view.cells, self.word_cells, self.word_width, self.memory
        for index, skull, tooth in view.memory_plan.since[view.handed_steps + 1][handed_steps]:
            code = words[skull][tooth]
            if shown[index] != code:
                shown[index] = code
                start = base + index * width
                cells[start : start + width] = rows[code]

    def _write_task(self, view: PlayerView, position: int) -> None:
        """The writing task: hand and step one-hots, then the prompt ``[character, word, blank, tags]``.

        The prompt (``Round.prompt_key``) is read from what the view already shows, brought up to date
        just before: at step 0 my own character (``view.mine``), later the word handed to me at this
        step (the memory slot ``position * 2``, ``MemoryPlan.received``)."""
        cells, start = view.cells, self.task
        middle = start + HANDS + STEPS
        end = middle + 3 + self.tags
        if position < 0:
            cells[start:end] = self.no_task
            return
        cells[start:middle] = self.position_cells[position]
        # step > 0: the word handed over (a word id, or BLANK = -1); step 0: the character, coded as
        # ``prompt_key`` codes it.
        key = view.memory[position * 2] if position % STEPS else -2 - view.mine[position // STEPS]
        cells[middle:end] = self.prompt_cells[key]

    def _refresh_deduction(self, view: PlayerView, game: Round) -> None:
        player = view.player
        rules = game.rules
        if not view.deduction_shown:  # the table and the final words do not change after the writing
            view.deduction_shown = True
            public, numbers_ending_on = self._public_deduction(game)
            cells = view.cells
            cells[self.table : self.table + len(public)] = public
            table, characters, words = game.table, game.characters, game.words
            for hand, skull in enumerate(view.my_skulls):
                slot = table.index(characters[skull])
                cells[self.table + slot * self.table_width + self.character_width + hand] = 1.0
            # The skulls I wrote last are those of my own plan's last step (``MemoryPlan.wrote``).
            for _, skull, tooth in view.memory_plan.wrote[STEPS - 1]:
                hand = skull // rules.num_players
                for d in numbers_ending_on.get(words[skull][tooth], ()):
                    cells[self.finals + d * self.final_width + self.word_width + hand] = 1.0

        # My guesses change only by my own matches, made in number order during my turn of the deduction
        # (seat by seat): I have made ``game.number`` of them during my turn, all of them after it, none
        # before. The view shows the first ``view.guessed`` of them (none after ``clear``).
        phase, seat = game.phase, game.seat
        if phase == DEDUCE and seat == player:
            guessed = to_match = game.number
        else:
            guessed = rules.skulls if phase > DEDUCE or seat > player else 0
            to_match = None
        if guessed > view.guessed:
            cells, numbers, guesses = view.cells, game.numbers, game.guesses
            for d in range(view.guessed, guessed):
                guess = guesses[numbers[d]][player]
                if guess >= 0:  # (always, but for a loaded state dict that skipped some)
                    cells[self.guesses + d * TABLE_SIZE + guess] = 1.0
            view.guessed = guessed

        if phase >= YELLOW:
            reveal = (phase, tuple(game.whites), tuple(game.bones), tuple(game.limbo), tuple(game.pending))
            if reveal != view.reveal:
                view.reveal = reveal
                self._write_reveal(view.vector, game)

        if to_match != view.to_match:  # the skull number I am matching now
            if view.to_match is not None:
                view.cells[self.to_match + view.to_match] = 0.0
            if to_match is not None:
                view.cells[self.to_match + to_match] = 1.0
            view.to_match = to_match

    def _public_deduction(self, game: Round) -> tuple[memoryview, dict[int, list[int]]]:
        """The table and final-word blocks as every seat sees them (without its own flags), and the
        skull numbers by the final word they end on. Fixed once the writing is over, so kept for the
        last ``Round`` object asked."""
        cached = self._public
        if cached is None or cached[0] is not game:
            block = memoryview(np.zeros(self.to_match - self.table, np.float32))
            rows, width = self.character_cells, self.character_width
            for slot, character in enumerate(game.table):
                start = slot * self.table_width
                block[start : start + width] = rows[character]
            finals = [game.words[skull][STEPS - 1] for skull in game.numbers]
            rows, width = self.word_cells, self.word_width
            numbers_ending_on: dict[int, list[int]] = {}
            for d, word in enumerate(finals):
                start = self.finals - self.table + d * self.final_width
                block[start : start + width] = rows[word]
                numbers_ending_on.setdefault(word, []).append(d)
            cached = self._public = (game, block, numbers_ending_on)
        return cached[1], cached[2]

    def _write_reveal(self, out: np.ndarray, game: Round) -> None:
        rules = game.rules
        n = rules.num_players
        for d, skull in enumerate(game.numbers):
            start = self.reveal + d * self.reveal_width
            out[start : start + self.reveal_width] = 0.0
            out[start + game.answer(skull)] = 1.0
            out[start + TABLE_SIZE] = game.correct_count(skull) / n
            out[start + TABLE_SIZE + 1] = game.whites[skull] / rules.white_boxes
            out[start + TABLE_SIZE + 2] = float(game.yellow[skull])
            out[start + TABLE_SIZE + 3] = game.bones[skull] / rules.white_boxes
            out[start + TABLE_SIZE + 4] = float(game.limbo[skull])
            out[start + TABLE_SIZE + 5] = float(game.closed(skull))
            out[start + TABLE_SIZE + 6] = float(d in game.pending)


def _row_views(rows: np.ndarray) -> list[memoryview]:
    """Each row of a C-contiguous 2-D array as a memoryview (same memory, indexable like the rows)."""
    return [memoryview(row) for row in rows]


class MemoryPlan(NamedTuple):
    """Where each memory slot's word comes from, by writing step k: ``(memory slot, skull, tooth)``
    for each of my hands. ``wrote[k]``: the tooth I write at step k (shown once written);
    ``received[k]``: the tooth written before it, on the skull handed to me (shown once step k begins).
    ``since[shown + 1][handed]``: the slots that may have changed since a view showed ``shown`` steps
    handed over (-1: a cleared view) until ``handed`` (see ``ObservationEncoder._refresh_memory``)."""

    wrote: tuple[tuple[tuple[int, int, int], ...], ...]
    received: tuple[tuple[tuple[int, int, int], ...], ...]
    since: tuple[tuple[tuple[tuple[int, int, int], ...], ...], ...]


@functools.cache
def memory_plan(num_players: int, hands: int, player: int) -> MemoryPlan:
    """The ``MemoryPlan`` of ``player``: at step k I hold the skull of seat ``player - k``."""
    wrote: list[list[tuple[int, int, int]]] = [[] for _ in range(STEPS)]
    received: list[list[tuple[int, int, int]]] = [[] for _ in range(STEPS)]
    for hand in range(hands):
        for step in range(STEPS):
            skull = hand * num_players + (player - step) % num_players
            slot = (hand * STEPS + step) * 2
            if step > 0:
                received[step].append((slot, skull, step - 1))
            wrote[step].append((slot + 1, skull, step))

    def changed(shown: int, handed: int) -> tuple[tuple[int, int, int], ...]:
        # My teeth of steps shown..handed (all of them after a clear), the words handed to me after ``shown``.
        last = min(handed, STEPS - 1)
        my_steps = range(STEPS) if shown < 0 else range(shown, last + 1)
        handed_steps = range(1 if shown < 0 else shown + 1, last + 1)
        return tuple(slot for k in my_steps for slot in wrote[k]) + tuple(
            slot for k in handed_steps for slot in received[k]
        )

    since = tuple(tuple(changed(shown, handed) for handed in range(STEPS + 1)) for shown in range(-1, STEPS + 1))
    return MemoryPlan(tuple(map(tuple, wrote)), tuple(map(tuple, received)), since)


class PlayerView:
    """One seat's observation vector, kept between calls, and what each of its blocks shows.

    ``ObservationEncoder.refresh`` compares these records with the game and rewrites only the
    blocks that differ (mostly through ``cells``); ``clear`` (called for every new ``Round``
    object) starts from zeros.
    """

    def __init__(self, size: int, player: int) -> None:
        self.vector = np.zeros(size, dtype=np.float32)
        self.cells = memoryview(self.vector)  # the same memory, for cheap slice and entry writes
        self.player = player
        self.round: Round | None = None
        self.clear(None, [], None)

    def __getstate__(self) -> dict[str, object]:
        """Pickling and ``copy.deepcopy`` (of a whole game): a memoryview cannot be pickled, so it is remade."""
        state = dict(self.__dict__)
        del state["cells"]
        return state

    def __setstate__(self, state: dict[str, object]) -> None:
        self.__dict__.update(state)
        self.cells = memoryview(self.vector)

    def clear(self, game: Round | None, my_skulls: list[int], memory_plan: MemoryPlan | None) -> None:
        self.vector.fill(0.0)
        self.round = game
        self.my_skulls = my_skulls
        self.phase: Phase | None = None  # the phase the header was last checked in
        self.header: tuple[int, ...] | None = None  # (phase, round index, memory, limbo, flowers) shown
        # What else the header blocks show, fixed for the round: (players, constraints, themes, decider?, cap).
        self.header_base: tuple[object, ...] = ()
        self.mine: list[int] | None = None
        self.mine_open = True  # until every one of my skulls has its character (kept in the draw)
        self.handed_steps = -1  # the writing progress the memory block shows: steps handed over,
        self.written = -1  # teeth written (``Round.written``)
        self.memory = [NOT_WRITTEN] * (HANDS * STEPS * 2)  # the word code shown in each memory slot
        self.memory_plan = memory_plan
        self.task = -1  # the writing position shown (hand * STEPS + step), -1: no task (as cleared)
        self.deduction_shown = False
        self.guessed = 0  # my guesses shown: those of skull numbers 0 .. guessed - 1
        self.reveal: tuple[object, ...] | None = None
        self.to_match: int | None = None
