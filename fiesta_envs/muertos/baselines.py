"""Scripted teams for Fiesta de los Muertos and La Catrina.

``associative``: every seat plays the same plain strategy, using only what its seat knows. Two versions,
chosen by the agent option ``version`` (``associative:version=1``); version 2 is the default.

Version 1 (kept as it was: the trained ``ppo`` agents' shortlist ranks its candidates by version 1's scoring)
  - Draw choice: keep the character with the strongest first clue.
  - Writing: write the legal word sharing the most tags with what it reads (the character on
    the first step, the received word after). Among equally tied words it writes the one with
    the most meanings (tags), then any of those at random: the everyday word with several
    senses comes to mind before the rare, precise one. It does not favour words with few other
    meanings to keep the chain from drifting: a person does not see the tags. After a blank,
    any legal word (the same preferences, nothing being shared).
  - Deduction: score every (skull, character) pair by shared tags between the skull's final
    word and the character, plus what the seat knows besides (its own character must be on
    one of the skulls; the skull whose last word it wrote is not its own, and it read that
    skull's previous word), then take the matching with the best total score in which no
    character is given to two skulls (exact, by dynamic programming over character subsets).
  - Team decisions: in the base game, spend Memory Bones on the skulls closest to appeased;
    in La Catrina, take a Memory Bone for a yellow box while the round still needs one to
    close every skull (flowers when the round is lost anyway), and close skulls using as few
    Limbo Bones as possible.

Version 2 changes
  - Writing (``muertos.writing``): a word is worth its shared tags less 0.3 per other meaning (precise
    words keep the chain on the character; hub words make it drift and bounce), and among the words of
    the best value the writer avoids the words it already wrote or read this round.
  - Deduction (``muertos.deduction``): every word the seat wrote or read counts, skull by skull: what they
    say of the character under that skull, spread over the numbered skulls by how their final words follow
    from the last word it saw there.
  - Yellow boxes in La Catrina: version 1's choice (a Memory Bone only while the round needs one to close
    every skull), except that saving the round must be worth the flowers it costs: not when the flowers alone
    colour the 13th flower, nor in the last round when they colour more than the round's bonus would.
    Banking Memory Bones for later rounds was measured and does not pay: keeping a reserve of 1-2 bones
    (same 300 deals each) lowered the flowers of version 2 by 0.1-0.23 at 4 players and 0.05-0.13 at 6, and
    taking a bone to spare a Limbo Bone lowered them by 0.01-0.07 at 5-8 players: this team fails a round by
    many boxes (a skull nobody matched) far more often than by one or two, so a flower now is worth more
    than the insurance.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from fiesta_envs.muertos.catrina import SUCCESS_FLOWERS
from fiesta_envs.muertos.components import BLANK, MAX_FLOWERS, STEPS, Phase
from fiesta_envs.muertos.deduction import deduction_scores as seen_chain_scores
from fiesta_envs.muertos.engine import LAYOUT, LEXICON
from fiesta_envs.muertos.memory import seen_words
from fiesta_envs.muertos.round import Round
from fiesta_envs.muertos.writing import best_fresh_word, word_values
from fiesta_envs.policies.policy import Policy, VersionedPolicy

_SHARED_WORDS = LEXICON.shared_word_tags.astype(float)
#: How many meanings (tags) each word has: the writers' tie-break.
WORD_MEANINGS = LEXICON.word_tags.sum(axis=1).astype(float)
_SHARED_CHARACTER_WORDS = LEXICON.shared_character_tags.astype(float)
_NOTHING_SHARED = np.zeros(len(LEXICON.words))
_NOTHING_SHARED.flags.writeable = False


def shared_with_prompt(game_round: Round) -> np.ndarray:
    """float (n_words,): how many tags each word shares with what the writer reads now (the character on
    the first step, the received word after; nothing after a blank). Read-only."""
    kind, ident = game_round.prompt()
    if kind == "character":
        return _SHARED_CHARACTER_WORDS[ident]
    if kind == "word":
        return _SHARED_WORDS[ident]
    return _NOTHING_SHARED


def best_matching(scores: np.ndarray) -> list[int]:
    """Rows (skulls) to distinct columns (characters) maximising the total score.

    Exact dynamic programming over subsets of columns: fine for the 8 x 8 tables of the game.
    """
    rows, cols = scores.shape
    table = scores.tolist()
    best: dict[int, float] = {0: 0.0}
    choice: list[dict[int, tuple[int, int]]] = []
    for r in range(rows):
        nxt: dict[int, float] = {}
        back: dict[int, tuple[int, int]] = {}
        row = table[r]
        for used, value in best.items():
            for c in range(cols):
                bit = 1 << c
                if used & bit:
                    continue
                key = used | bit
                total = value + row[c]
                if total > nxt.get(key, -np.inf):
                    nxt[key] = total
                    back[key] = (used, c)
        choice.append(back)
        best = nxt
    used = max(best, key=lambda k: (best[k], -k))
    result = [0] * rows
    for r in range(rows - 1, -1, -1):
        used, result[r] = choice[r][used]
    return result


#: The versions of the ``associative`` team (see the module docstring).
VERSIONS = (1, 2)


class AssociativeTeam(VersionedPolicy):
    """Writes the most associated word; deduces by the best total association (``associative:version=1``: the
    first version of the team, see the module docstring)."""

    versions = VERSIONS

    def __init__(self, seed: int | None = None, version: int | None = None) -> None:
        super().__init__(seed, version)
        self._plans: dict[Any, list[int]] = {}

    def start_episode(self, seed: int | None) -> None:
        super().start_episode(seed)
        self._plans = {}

    def act(self, observation: np.ndarray | None, action_mask: np.ndarray, game: Any, player: int) -> int:
        game_round: Round = game.state.round
        phase = game_round.phase
        if phase == Phase.DRAW:
            return self.keep_action(game_round, player)
        if phase == Phase.WRITE:
            return (
                self._write(game_round, action_mask) if self.version == 1 else self._write_v2(game_round, action_mask)
            )
        if phase == Phase.DEDUCE:
            return self._match(game, player)
        if phase == Phase.YELLOW:
            return self.yellow_action(game_round) if self.version == 1 else self.yellow_action_v2(game)
        return self.spend_action(game_round, action_mask)

    # ------------------------------------------------------------------ draw and writing
    @staticmethod
    def keep_action(game_round: Round, player: int) -> int:
        """``keep C`` for the offered character with the strongest first clue."""
        offers = game_round.offers[player]
        strength = [float((_SHARED_CHARACTER_WORDS[c] * LEXICON.character_links[c]).max()) for c in offers]
        return LAYOUT.keep + offers[int(np.argmax(strength))]

    def _write(self, game_round: Round, action_mask: np.ndarray) -> int:
        legal = action_mask[LAYOUT.write : LAYOUT.blank].astype(bool)
        if not legal.any():
            return LAYOUT.blank
        shared = shared_with_prompt(game_round)
        # Shared tags are whole numbers and the tie-break adds less than 0.5: it only orders
        # equally tied words, more meanings first, then at random.
        tie_break = 0.1 * WORD_MEANINGS + 0.05 * self.rng.random(len(shared))
        score = np.where(legal, shared + tie_break, -np.inf)
        return LAYOUT.write + int(np.argmax(score))

    def _write_v2(self, game_round: Round, action_mask: np.ndarray) -> int:
        legal = action_mask[LAYOUT.write : LAYOUT.blank].astype(bool)
        if not legal.any():
            return LAYOUT.blank
        values = word_values(shared_with_prompt(game_round))
        used = seen_words(game_round, game_round.seat)
        return LAYOUT.write + best_fresh_word(values, legal, used, self.rng)

    # ------------------------------------------------------------------ deduction
    def _match(self, game: Any, player: int) -> int:
        game_round: Round = game.state.round
        # One plan per round, keyed by what the seat sees (never by which seat owns which number) and by the
        # words (fixed in a round's deduction; a search's copies of the round differ in them).
        finals = tuple(game_round.words[j][STEPS - 1] for j in game_round.numbers)
        key = (game.state.round_index, player, finals, tuple(game_round.table), tuple(map(tuple, game_round.words)))
        plan = self._plans.get(key)
        if plan is None:
            scores = (
                self.deduction_scores(game_round, player)
                if self.version == 1
                else seen_chain_scores(game_round, player)
            )
            plan = self._plans[key] = best_matching(scores)
        return LAYOUT.match_action(game_round.number, plan[game_round.number])

    @staticmethod
    def deduction_scores(game_round: Round, player: int) -> np.ndarray:
        """(skulls x 8) association scores from what ``player`` knows, as version 1 weighs them (the shortlist's
        ranking; version 2's are ``muertos.deduction.deduction_scores``)."""
        rules = game_round.rules
        table = game_round.table
        last = STEPS - 1
        finals = [game_round.words[j][last] for j in game_round.numbers]
        scores = np.zeros((rules.skulls, len(table)))
        for d, word in enumerate(finals):
            if word != BLANK:
                scores[d] = _SHARED_CHARACTER_WORDS[table, word]
        for hand in range(rules.hands):
            own = game_round.characters[game_round.skull(player, hand)]
            own_slot = table.index(own)
            first = game_round.words[game_round.skull(player, hand)][0]
            for d, word in enumerate(finals):
                scores[d, own_slot] += 0.5
                if word != BLANK and first != BLANK:
                    scores[d, own_slot] += 0.25 * _SHARED_WORDS[first, word]
            # The skull whose last word I wrote: I read its previous word, and it is not mine.
            written = game_round.holder_skull(player, last, hand)
            my_last = game_round.words[written][last]
            received = game_round.words[written][last - 1]
            candidates = [d for d, word in enumerate(finals) if word == my_last]
            if len(candidates) == 1:
                d = candidates[0]
                scores[d, own_slot] -= 10.0
                if received != BLANK:
                    scores[d] += 0.5 * _SHARED_CHARACTER_WORDS[table, received]
        return scores

    # ------------------------------------------------------------------ team decisions
    @staticmethod
    def missing_boxes(game_round: Round) -> list[tuple[int, int]]:
        """(missing white boxes, skull number) of every open skull, fewest missing first."""
        rules = game_round.rules
        return sorted(
            (rules.white_boxes - game_round.whites[j], d)
            for d, j in enumerate(game_round.numbers)
            if not game_round.closed(j)
        )

    @classmethod
    def limbos_needed(cls, game_round: Round, memory: int) -> int | None:
        """Fewest Limbo Bones that, with ``memory`` Memory Bones, close every skull (None: impossible)."""
        missing = sorted((m for m, _ in cls.missing_boxes(game_round)), reverse=True)
        limbo = game_round.team.limbo if game_round.rules.catrina else 0
        for used in range(min(limbo, len(missing)) + 1):
            if sum(missing[used:]) <= memory:
                return used
        return None

    @classmethod
    def yellow_action(cls, game_round: Round) -> int:
        """La Catrina's reward for a checked yellow box: a Memory Bone while the round needs one."""
        team = game_round.team
        if cls.limbos_needed(game_round, team.memory) is not None:
            return LAYOUT.flower
        if cls.limbos_needed(game_round, team.memory + len(game_round.pending)) is None:
            return LAYOUT.flower  # the round is lost whatever we take: flowers are what count
        return LAYOUT.memory

    @classmethod
    def yellow_action_v2(cls, game: Any) -> int:
        """Version 2: version 1's choice, except that a Memory Bone that saves the round is taken only when the
        round's success is worth the flowers it costs: not when the flowers alone colour the 13th flower (the
        campaign ends with a full hat), nor in the last round when they colour more than saving it would."""
        game_round = game.state.round
        choice = cls.yellow_action(game_round)
        if choice == LAYOUT.flower:
            return choice
        team = game_round.team
        pending = len(game_round.pending)
        bones = next(k for k in range(1, pending + 1) if cls.limbos_needed(game_round, team.memory + k) is not None)
        flowers_only = min(MAX_FLOWERS, team.flowers + pending)
        saved = min(MAX_FLOWERS, team.flowers + pending - bones + SUCCESS_FLOWERS[game.state.round_index])
        if flowers_only == MAX_FLOWERS > saved:
            return LAYOUT.flower
        if game.state.round_index == game.max_rounds - 1 and flowers_only > saved:
            return LAYOUT.flower
        return LAYOUT.memory

    @classmethod
    def spend_action(cls, game_round: Round, action_mask: np.ndarray) -> int:
        """The decider's next bone (``bone S``, ``limbo S``) or ``done``."""
        team = game_round.team
        missing = cls.missing_boxes(game_round)
        if game_round.rules.catrina:
            limbos = cls.limbos_needed(game_round, team.memory)
            if limbos is None:
                return LAYOUT.done  # the round is lost: keep nothing, spend nothing
            if limbos > 0:
                return LAYOUT.limbo + missing[-1][1]
        gap, number = missing[0]
        if team.memory >= gap and action_mask[LAYOUT.bone + number]:
            return LAYOUT.bone + number
        return LAYOUT.done


BASELINES: dict[str, type[Policy]] = {"associative": AssociativeTeam}
