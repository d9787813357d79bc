"""How the ``associative`` team (version 2, the default) scores the deduction: from everything its seat saw.

Version 1 weighs each skull's final word against the eight characters, plus two facts of the seat's own: the
first word it wrote for its own character, and the skull whose final word it wrote itself. A seat has seen much
more: on every skull it held it read one word and wrote the next (at 4 players it held every skull; at step 1 it
read a word written straight from another seat's character). This module uses all of it:

- ``seen_chains``: the words the seat wrote or read, skull by skull (``muertos.memory``);
- a clue per skull it held: its own characters for its own skulls; for another seat's skull, the tags its seen
  words share with each character, the earlier words weighing more (the first word was written from the
  character itself, each later one drifts);
- where that skull lies among the numbered skulls: the final word it wrote itself pins the number; otherwise the
  final word of each number is weighed by the tags it shares with the last word the seat saw there (one step
  from the final word weighs fully, two steps half, three a third), numbers already pinned to another skull
  left out;
- ``scores[d, c]`` = tags the final word of number ``d`` shares with character ``c`` + the clue of every skull
  held, spread over the numbers by those weights. ``best_matching`` then gives distinct characters to the
  skulls, as in version 1.
"""

from __future__ import annotations

import numpy as np

from fiesta_envs.muertos.components import BLANK, NOT_WRITTEN, STEPS
from fiesta_envs.muertos.engine import LEXICON
from fiesta_envs.muertos.memory import seen_chains
from fiesta_envs.muertos.round import Round

#: How much the words seen on a skull at steps 0..2 tell about its character (the final word counts through
#: the table for everyone).
STEP_WEIGHTS = (1.0, 0.6, 0.4)
#: The clue of one's own skull: its character is known.
OWN_CHARACTER = 3.0
#: How sharply shared tags point from the last word seen on a skull to its final word.
LINK_SHARPNESS = 1.0

_SHARED_WORDS = LEXICON.shared_word_tags.astype(float)
_SHARED_CHARACTER_WORDS = LEXICON.shared_character_tags.astype(float)
_LAST = STEPS - 1


def deduction_scores(game_round: Round, player: int) -> np.ndarray:
    """(skulls x 8) association scores from what ``player`` saw (version 2)."""
    table = game_round.table
    finals = [game_round.words[j][_LAST] for j in game_round.numbers]
    scores = np.zeros((game_round.rules.skulls, len(table)))
    for d, word in enumerate(finals):
        if word != BLANK:
            scores[d] = _SHARED_CHARACTER_WORDS[table, word]
    chains = seen_chains(game_round, player)
    own = {game_round.skull(player, hand) for hand in range(game_round.rules.hands)}
    pinned = {skull: _pinned_number(chain, finals) for skull, chain in chains.items()}
    taken = {number for number in pinned.values() if number is not None}
    for skull, chain in chains.items():
        weights = _number_weights(chain, finals, pinned[skull], taken)
        if weights is None:
            continue
        scores += np.outer(weights, _clue(game_round, skull, chain, own))
    return scores


def _pinned_number(chain: dict[int, int], finals: list[int]) -> int | None:
    """The number whose final word the seat wrote on this skull, when that word is on one skull only."""
    word = chain.get(_LAST, NOT_WRITTEN)
    if word in (BLANK, NOT_WRITTEN):
        return None
    holders = [d for d, final in enumerate(finals) if final == word]
    return holders[0] if len(holders) == 1 else None


def _number_weights(chain: dict[int, int], finals: list[int], pinned: int | None, taken: set[int]) -> np.ndarray | None:
    """Where the skull lies among the numbers: weights summing to 1 (None: nothing to go by)."""
    weights = np.zeros(len(finals))
    if pinned is not None:
        weights[pinned] = 1.0
        return weights
    step = max(chain)
    last_seen = chain[step]
    distance = _LAST - step
    for d, final in enumerate(finals):
        if d in taken:
            continue
        if distance == 0:  # it wrote the final word, found on several skulls
            weights[d] = float(final == last_seen)
            continue
        shared = 0.0 if BLANK in (final, last_seen) else _SHARED_WORDS[last_seen, final]
        weights[d] = np.exp(LINK_SHARPNESS * shared / distance)
    total = weights.sum()
    return weights / total if total > 0 else None


def _clue(game_round: Round, skull: int, chain: dict[int, int], own: set[int]) -> np.ndarray:
    """(8,): what the seat's words on ``skull`` say about the character under it."""
    table = game_round.table
    clue = np.zeros(len(table))
    if skull in own:
        clue[table.index(game_round.characters[skull])] = OWN_CHARACTER
        return clue
    for step, word in chain.items():
        if step < _LAST and word not in (BLANK, NOT_WRITTEN):
            clue += STEP_WEIGHTS[step] * _SHARED_CHARACTER_WORDS[table, word]
    return clue
