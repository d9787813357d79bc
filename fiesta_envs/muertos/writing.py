"""How the ``associative`` team (version 2, the default) chooses the word it writes.

A word is worth what it hands on of what the writer reads: the tags it shares with the prompt (the character on
the first step, the received word after), less ``PRECISION_WEIGHT`` for each of its *other* meanings. A hub word
("temple": gods, travel, buildings, ...) shares as much as a precise one but lets the next writer drift to any of
its other senses, and chains of hub words bounce between two of them (oracle, temple, oracle, temple) far from
the character. Among the words of the best value the writer takes one it has not already written or read this
round (its own memory, ``memory.seen_words``: the only chain words a writer knows), then any at random.

Version 1 (``associative:version=1``, and the ranking of the ``ppo`` agents' shortlist) values a word by the
shared tags alone, ties going to the word with the *most* meanings, and does not look at what it wrote before.
Measured on the same 200 deals of 4 players (writing only changed): 2.82 skulls appeased of 4 with version 1's
rule, 3.80 with this one; ping-pong chains (the third word equal to the first or the fourth to the second) are
65% of chains under both rules and are appeased more often than the others: bouncing back is not what loses
skulls, drifting through hub words is.
"""

from __future__ import annotations

import numpy as np

from fiesta_envs.muertos.engine import LEXICON

#: What each other meaning of a word costs, in shared tags.
PRECISION_WEIGHT = 0.3
#: Values closer than this are equal (they are multiples of 0.1).
_SAME_VALUE = 1e-6
_MEANINGS = LEXICON.word_tags.sum(axis=1).astype(float)


def word_values(shared: np.ndarray) -> np.ndarray:
    """float (n_words,): the value of every word, given the tags each shares with the prompt."""
    return shared - PRECISION_WEIGHT * (_MEANINGS - shared)


def fresh_best_words(values: np.ndarray, legal: np.ndarray, used: set[int]) -> list[int]:
    """The legal words of the best value, lowest id first, keeping only those not in ``used`` when there are
    any: the words the writer chooses among. ``legal`` must hold at least one word."""
    best = np.where(legal, values, -np.inf)
    tied = np.flatnonzero(best >= best.max() - _SAME_VALUE)
    fresh = [int(word) for word in tied if int(word) not in used]
    return fresh or tied.tolist()


def best_fresh_word(values: np.ndarray, legal: np.ndarray, used: set[int], rng: np.random.Generator) -> int:
    """The legal word of the best value, one not in ``used`` when such a word is as good, else at random
    among the best. ``legal`` must hold at least one word."""
    pool = fresh_best_words(values, legal, used)
    return int(pool[rng.integers(len(pool))])
