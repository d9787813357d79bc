"""The shortlist of Fiesta de los Muertos and La Catrina: what the trained ``ppo`` agents choose among.

A seat's decision becomes "which of at most ``CHOICES`` candidates" (``fiesta_envs.policies.shortlist``),
each described by the numbers the ``associative`` team weighs, computed only from what the seat knows.
Candidate 0 is always the ``associative`` team's own choice (its random tie-break replaced by the
lowest id), so a network that always picks candidate 0 plays like that team, and training starts there.

Two versions (``SHORTLISTS``; a training config picks one with ``shortlist_version``, an exported agent's
JSON records it, a JSON without it means version 1):

- version 1 (``muertos/shortlist/v1``, ``SHORTLIST``), frozen: agents exported with it (a JSON naming no
  version) keep playing. It ranks by ``associative`` version 1 (``associative:version=1``).
- version 2 (``muertos/shortlist/v2``, ``SHORTLIST_V2``): ranks by ``associative`` version 2, the default team
  (``muertos.writing``, ``muertos.deduction``, its yellow-box rule), and describes each
  candidate by two more numbers: what version 2 weighs.

Candidates, by decision (version 1; version 2's differences after the arrow)
-----------------------------------------------------------------------------
- ``write``: candidate 0 the legal word sharing the most tags with what the writer reads, more
  meanings first (``associative``); then the other legal words sharing the most tags, *fewer* other
  meanings first (precise words, which keep the chain from drifting), then by id. ``blank`` alone
  when no word is legal. -> Candidate 0 is version 2's word: the best value ``shared - 0.3 x other tags``,
  among equals one the seat has not written or read this round, then the lowest id; then the other
  legal words by value, unseen first, then by id.
- ``match``: the table slot of ``associative``'s best matching first, then the other slots by its
  association score (highest first). -> version 2's scores (``muertos.deduction``: every word the seat
  wrote and read) and its best matching.
- ``keep`` (draw choice): ``associative``'s pick, then the other character. (The same in version 2.)
- ``flower`` / ``memory`` (La Catrina): ``associative``'s pick, then the other. -> version 2's pick
  (flowers when saving the round is worth fewer flowers than it costs).
- ``bone`` / ``limbo`` / ``done``: ``associative``'s pick, then ``done``, then bones and Limbo Bones on
  the open skulls, fewest missing boxes first. (The same in version 2.)

The vector (206 entries in version 1, 226 in version 2, all in [0, 1])
----------------------------------------------------------------------
``SHORTLIST.size`` = 36 + 10 x 17 = 206, ``SHORTLIST_V2.size`` = 36 + 10 x 19 = 226.

Context (36): phase (6), player count 4..8 (5), La Catrina (1), campaign round (4), writing step (4), the
prompt is a character / a word / a blank (3), the prompt's tags / 6 (1), the skull number to match (8),
Memory Bones / the most the team can hold, Limbo Bones / 4, flowers / 13 (3), candidates present / 10.

Per candidate (17 in version 1, 19 in version 2): present, kind one-hot (9: keep write blank match bone limbo
flower memory done), is ``associative``'s choice, then six numbers (eight in version 2) whose meaning depends
on the kind:

==========  =====================================================================================
write       tags shared with the prompt / 6, its other tags / 6, its tags / 6, share of the prompt's
            tags it keeps, words associated with it / the most any word has, characters associated
            with it / the most any word has; v2: its value ``shared - 0.3 x other tags`` rescaled
            from [-1.2, 4] to [0, 1], the seat wrote or read it this round
match       association score rescaled to [0, 1] over the 8 slots, tags shared by the skull's last
            word and the character / 6, the slot holds my own character, I matched an earlier skull
            to this slot, the character's tags / 6, the score is the best of the row (v2: version 2's
            scores); v2: the best matching gives the character to another skull, the score rescaled
            to [0, 1] over the skulls (how much more this skull than the others points to it)
keep        the best first clue's shared tags / 6, the character's tags / 6
bone/limbo  missing white boxes / (N - 1), correct guesses / N, its yellow box is checked
flower/     the team can close every skull with its bones now; it could with one more Memory Bone
memory      per waiting yellow box; v2: the flowers alone colour the 13th flower, the last round
done        open skulls / skulls
==========  =====================================================================================
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from fiesta_envs.core.game import Game
from fiesta_envs.muertos.baselines import WORD_MEANINGS, AssociativeTeam, best_matching, shared_with_prompt
from fiesta_envs.muertos.components import MAX_FLOWERS, STEPS, TABLE_SIZE, Phase
from fiesta_envs.muertos.deduction import deduction_scores as seen_chain_scores
from fiesta_envs.muertos.engine import LAYOUT, LEXICON, MuertosGame
from fiesta_envs.muertos.memory import seen_words
from fiesta_envs.muertos.writing import fresh_best_words, word_values
from fiesta_envs.policies.shortlist import NO_CANDIDATE, Candidates, Shortlist

if TYPE_CHECKING:
    from fiesta_envs.muertos.round import Round

CHOICES = 10
CONTEXT_SIZE = 36
#: Numbers per candidate of version 1 (``FEATURES``: its whole row); version 2 adds ``EXTRA_NUMBERS``.
FEATURES = 17
EXTRA_NUMBERS = 2
_NUMBERS = 11  # where the kind-specific numbers of a candidate start
_TAG_SCALE = 6.0

_WORD_TAGS = LEXICON.word_tags.sum(axis=1).astype(float)
_WORD_DEGREE = LEXICON.word_links.sum(axis=1) / LEXICON.word_links.sum(axis=1).max()
_WORD_CHARACTERS = LEXICON.character_links.sum(axis=0) / LEXICON.character_links.sum(axis=0).max()
_CHARACTER_TAGS = LEXICON.character_tags.sum(axis=1).astype(float)
_SHARED_CHARACTER_WORDS = LEXICON.shared_character_tags.astype(float)
#: The range of version 2's word values: a word sharing nothing, and one whose every tag is shared.
_VALUE_LOW = float(word_values(np.zeros(len(LEXICON.words))).min())
_VALUE_HIGH = float(_WORD_TAGS.max())
#: deduction plans by everything they read (the team's plan is the same for every skull of a round)
_PLANS: dict[tuple, tuple[np.ndarray, list[int]]] = {}
_PLAN_CACHE_SIZE = 512


class MuertosShortlist(Shortlist):
    """See the module docstring; ``version`` 1 or 2."""

    choices = CHOICES

    def __init__(self, version: int) -> None:
        self.version = version
        self.name = f"muertos/shortlist/v{version}"
        self.features = FEATURES + (EXTRA_NUMBERS if version >= 2 else 0)
        self.size = CONTEXT_SIZE + CHOICES * self.features

    def build(self, game: Game, player: int) -> Candidates:
        if not isinstance(game, MuertosGame):
            raise TypeError(f"{self.name} is for Fiesta de los Muertos and La Catrina, not {game.name}")
        if game.is_over or player != game.current_player:
            raise ValueError(f"the shortlist is for the seat to act ({game.current_player}), not seat {player}")
        game_round = game.state.round
        vector = np.zeros(self.size, dtype=np.float32)
        features = vector[CONTEXT_SIZE:].reshape(CHOICES, self.features)
        phase = game_round.phase
        if phase == Phase.WRITE:
            actions = _write_candidates(game_round, game.legal_mask(), features, self.version)
        elif phase == Phase.DEDUCE:
            actions = _match_candidates(game_round, player, features, self.version)
        elif phase == Phase.DRAW:
            actions = _keep_candidates(game_round, player, features)
        elif phase == Phase.YELLOW:
            actions = _yellow_candidates(game, features, self.version)
        else:
            actions = _spend_candidates(game_round, game.legal_mask(), features)
        actions = actions[:CHOICES]
        for k, action in enumerate(actions):
            features[k, 0] = 1.0
            features[k, 1 + LAYOUT.kind[action]] = 1.0
        features[0, 10] = 1.0  # candidate 0 is associative's choice
        _context(game, vector[:CONTEXT_SIZE], len(actions))
        padded = np.full(CHOICES, NO_CANDIDATE, dtype=np.int64)
        padded[: len(actions)] = actions
        return Candidates(vector, padded)

    def __repr__(self) -> str:
        return f"MuertosShortlist(version={self.version})"


SHORTLIST = MuertosShortlist(1)
SHORTLIST_V2 = MuertosShortlist(2)
#: Every version, by number (``Game.shortlist_target``; ``policies.shortlist.shortlist_of(game, version)``).
SHORTLISTS = {1: SHORTLIST, 2: SHORTLIST_V2}


# ---------------------------------------------------------------------------------- context
def _context(game: MuertosGame, out: np.ndarray, present: int) -> None:
    game_round = game.state.round
    phase = game_round.phase
    out[int(phase)] = 1.0
    out[6 + game.num_players - 4] = 1.0
    out[11] = float(game.catrina)
    out[12 + min(game.state.round_index, 3)] = 1.0
    if phase == Phase.WRITE:
        out[16 + game_round.step] = 1.0
        kind, ident = game_round.prompt()
        out[20 + ("character", "word", "blank").index(kind)] = 1.0
        if kind == "character":
            out[23] = _CHARACTER_TAGS[ident] / _TAG_SCALE
        elif kind == "word":
            out[23] = min(_WORD_TAGS[ident] / _TAG_SCALE, 1.0)
    elif phase == Phase.DEDUCE:
        out[24 + game_round.number] = 1.0
    team = game_round.team
    out[32] = team.memory / game.memory_cap
    out[33] = team.limbo / 4.0
    out[34] = min(team.flowers / 13.0, 1.0)
    out[35] = present / CHOICES


# ---------------------------------------------------------------------------------- candidates
def _write_candidates(game_round: Round, mask: np.ndarray, features: np.ndarray, version: int) -> list[int]:
    legal_mask = mask[LAYOUT.write : LAYOUT.blank].astype(bool)
    legal = np.flatnonzero(legal_mask)
    if len(legal) == 0:
        return [LAYOUT.blank]
    shared_all = shared_with_prompt(game_round)
    shared = shared_all[legal]
    meanings = WORD_MEANINGS[legal]
    if version == 1:
        first = int(np.lexsort((legal, -meanings, -shared))[0])  # associative: most shared, most meanings
        order = np.lexsort((legal, meanings - shared, -shared))  # then most shared, fewest other meanings
    else:
        values_all = word_values(shared_all)
        seen = seen_words(game_round, game_round.seat)
        values = values_all[legal]
        unseen = np.array([word not in seen for word in legal.tolist()])
        # associative version 2's word, its random tie-break replaced by the lowest id
        chosen = fresh_best_words(values_all, legal_mask, seen)[0]
        first = int(np.searchsorted(legal, chosen))
        order = np.lexsort((legal, ~unseen, -np.round(values, 6)))  # then by value, unseen first
    picked = [first, *[int(i) for i in order[: CHOICES + 1] if i != first][: CHOICES - 1]]
    kind, ident = game_round.prompt()
    prompt_tags = _CHARACTER_TAGS[ident] if kind == "character" else _WORD_TAGS[ident] if kind == "word" else 0.0
    for k, i in enumerate(picked):
        word = int(legal[i])
        row = features[k, _NUMBERS:]
        row[0] = min(shared[i] / _TAG_SCALE, 1.0)
        row[1] = min((meanings[i] - shared[i]) / _TAG_SCALE, 1.0)
        row[2] = min(meanings[i] / _TAG_SCALE, 1.0)
        row[3] = shared[i] / prompt_tags if prompt_tags else 0.0
        row[4] = _WORD_DEGREE[word]
        row[5] = _WORD_CHARACTERS[word]
        if version >= 2:
            row[6] = (values[i] - _VALUE_LOW) / (_VALUE_HIGH - _VALUE_LOW)
            row[7] = float(not unseen[i])
    return [LAYOUT.write + int(legal[i]) for i in picked]


def deduction_plan(game_round: Round, player: int, version: int = 1) -> tuple[np.ndarray, list[int]]:
    """``associative`` (``version``)'s (skulls x 8) association scores for ``player`` and its best matching
    (cached)."""
    key = (
        version,
        player,
        tuple(map(tuple, game_round.words)),
        tuple(game_round.characters),
        tuple(game_round.extras),
        tuple(game_round.table_order),
        tuple(game_round.numbers),
    )
    found = _PLANS.get(key)
    if found is None:
        if len(_PLANS) >= _PLAN_CACHE_SIZE:
            _PLANS.clear()
        if version == 1:
            scores = AssociativeTeam.deduction_scores(game_round, player)
        else:
            scores = seen_chain_scores(game_round, player)
        found = _PLANS[key] = (scores, best_matching(scores))
    return found


def _rescaled(values: np.ndarray) -> np.ndarray:
    """``values`` mapped linearly onto [0, 1] (all 1 when they are equal)."""
    low, high = float(values.min()), float(values.max())
    return (values - low) / (high - low) if high > low else np.ones_like(values)


def _match_candidates(game_round: Round, player: int, features: np.ndarray, version: int) -> list[int]:
    scores, plan = deduction_plan(game_round, player, version)
    number = game_round.number
    row_scores = scores[number]
    best = int(plan[number])
    slots = [best] + [int(s) for s in np.lexsort((np.arange(TABLE_SIZE), -row_scores)) if s != best]
    in_row = _rescaled(row_scores)
    high = float(row_scores.max())
    final = game_round.words[game_round.numbers[number]][STEPS - 1]
    table = game_round.table
    own = {game_round.characters[game_round.skull(player, hand)] for hand in range(game_round.rules.hands)}
    mine_before = {game_round.guesses[game_round.numbers[d]][player] for d in range(number)}
    planned_elsewhere = {slot for d, slot in enumerate(plan) if d != number}
    for k, slot in enumerate(slots):
        row = features[k, _NUMBERS:]
        character = table[slot]
        row[0] = in_row[slot]
        row[1] = min(_SHARED_CHARACTER_WORDS[character, final] / _TAG_SCALE, 1.0) if final >= 0 else 0.0
        row[2] = float(character in own)
        row[3] = float(slot in mine_before)
        row[4] = _CHARACTER_TAGS[character] / _TAG_SCALE
        row[5] = float(row_scores[slot] == high)
        if version >= 2:
            row[6] = float(slot in planned_elsewhere)
            row[7] = _rescaled(scores[:, slot])[number]
    return [LAYOUT.match_action(number, slot) for slot in slots]


def _keep_candidates(game_round: Round, player: int, features: np.ndarray) -> list[int]:
    chosen = AssociativeTeam.keep_action(game_round, player)
    offers = [LAYOUT.keep + c for c in game_round.offers[player]]
    actions = [chosen] + [a for a in offers if a != chosen]
    for k, action in enumerate(actions):
        character = LAYOUT.first[action]
        strength = float((_SHARED_CHARACTER_WORDS[character] * LEXICON.character_links[character]).max())
        features[k, _NUMBERS] = min(strength / _TAG_SCALE, 1.0)
        features[k, _NUMBERS + 1] = _CHARACTER_TAGS[character] / _TAG_SCALE
    return actions


def _yellow_candidates(game: MuertosGame, features: np.ndarray, version: int) -> list[int]:
    game_round = game.state.round
    chosen = AssociativeTeam.yellow_action(game_round) if version == 1 else AssociativeTeam.yellow_action_v2(game)
    actions = [chosen, LAYOUT.memory if chosen == LAYOUT.flower else LAYOUT.flower]
    team = game_round.team
    memory = team.memory
    now = AssociativeTeam.limbos_needed(game_round, memory) is not None
    later = AssociativeTeam.limbos_needed(game_round, memory + len(game_round.pending)) is not None
    features[:2, _NUMBERS] = float(now)
    features[:2, _NUMBERS + 1] = float(later)
    if version >= 2:
        features[:2, _NUMBERS + 6] = float(team.flowers + len(game_round.pending) >= MAX_FLOWERS)
        features[:2, _NUMBERS + 7] = float(game.state.round_index == game.max_rounds - 1)
    return actions


def _spend_candidates(game_round: Round, mask: np.ndarray, features: np.ndarray) -> list[int]:
    chosen = AssociativeTeam.spend_action(game_round, mask)
    rules = game_round.rules
    order = [d for _, d in AssociativeTeam.missing_boxes(game_round)]
    others = [LAYOUT.done] + [LAYOUT.bone + d for d in order] + [LAYOUT.limbo + d for d in order]
    actions = [chosen] + [a for a in others if a != chosen and mask[a]]
    open_skulls = len(order)
    for k, action in enumerate(actions[:CHOICES]):
        row = features[k, _NUMBERS:]
        if action == LAYOUT.done:
            row[0] = open_skulls / rules.skulls
            continue
        skull = game_round.numbers[LAYOUT.first[action]]
        row[0] = (rules.white_boxes - game_round.whites[skull]) / rules.white_boxes
        row[1] = sum(guess == game_round.answer(skull) for guess in game_round.guesses[skull]) / rules.num_players
        row[2] = float(game_round.yellow[skull])
    return actions
