"""The shortlist of Fiesta de los Muertos and La Catrina: what the trained ``ppo`` agents choose among.

A seat's decision becomes "which of at most ``CHOICES`` candidates" (``fiesta_envs.core.shortlist``),
each described by the numbers the ``associative`` team weighs, computed only from what the seat knows.
Candidate 0 is always the ``associative`` team's own choice (its random tie-break replaced by the
lowest id), so a network that always picks candidate 0 plays like that team, and training starts there.
The ranking is that of ``associative`` version 1 (``associative:version=1``), frozen: the shipped agents were
trained on it (version 2, the default team since issue 20, writes and deduces differently).

Candidates, by decision
-----------------------
- ``write``: candidate 0 the legal word sharing the most tags with what the writer reads, more
  meanings first (``associative``); then the other legal words sharing the most tags, *fewer* other
  meanings first (precise words, which keep the chain from drifting), then by id. ``blank`` alone
  when no word is legal.
- ``match``: the table slot of ``associative``'s best matching first, then the other slots by its
  association score (highest first).
- ``keep`` (draw choice): ``associative``'s pick, then the other character.
- ``flower`` / ``memory`` (La Catrina): ``associative``'s pick, then the other.
- ``bone`` / ``limbo`` / ``done``: ``associative``'s pick, then ``done``, then bones and Limbo Bones on
  the open skulls, fewest missing boxes first.

The vector (``SHORTLIST.size`` = 36 + 10 x 17 = 206 entries, all in [0, 1])
-------------------------------------------------------------------------------
Context (36): phase (6), player count 4..8 (5), La Catrina (1), campaign round (4), writing step (4), the
prompt is a character / a word / a blank (3), the prompt's tags / 6 (1), the skull number to match (8),
Memory Bones / the most the team can hold, Limbo Bones / 4, flowers / 13 (3), candidates present / 10.

Per candidate (17): present, kind one-hot (9: keep write blank match bone limbo flower memory done), is
``associative``'s choice, then six numbers whose meaning depends on the kind:

==========  =====================================================================================
write       tags shared with the prompt / 6, its other tags / 6, its tags / 6, share of the prompt's
            tags it keeps, words associated with it / the most any word has, characters associated
            with it / the most any word has
match       association score rescaled to [0, 1] over the 8 slots, tags shared by the skull's last
            word and the character / 6, the slot holds my own character, I matched an earlier skull
            to this slot, the character's tags / 6, the score is the best of the row
keep        the best first clue's shared tags / 6, the character's tags / 6
bone/limbo  missing white boxes / (N - 1), correct guesses / N, its yellow box is checked
flower/     the team can close every skull with its bones now; it could with one more Memory Bone
memory      per waiting yellow box
done        open skulls / skulls
==========  =====================================================================================
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from fiesta_envs.core.shortlist import NO_CANDIDATE, Candidates, Shortlist
from fiesta_envs.muertos.baselines import WORD_MEANINGS, AssociativeTeam, best_matching, shared_with_prompt
from fiesta_envs.muertos.common import LAYOUT, LEXICON
from fiesta_envs.muertos.components import STEPS, TABLE_SIZE, Phase

if TYPE_CHECKING:
    from fiesta_envs.muertos.common import MuertosGame
    from fiesta_envs.muertos.round import Round

CHOICES = 10
CONTEXT_SIZE = 36
FEATURES = 17
_NUMBERS = 11  # where the kind-specific numbers of a candidate start
_TAG_SCALE = 6.0

_WORD_TAGS = LEXICON.word_tags.sum(axis=1).astype(float)
_WORD_DEGREE = LEXICON.word_links.sum(axis=1) / LEXICON.word_links.sum(axis=1).max()
_WORD_CHARACTERS = LEXICON.character_links.sum(axis=0) / LEXICON.character_links.sum(axis=0).max()
_CHARACTER_TAGS = LEXICON.character_tags.sum(axis=1).astype(float)
_SHARED_CHARACTER_WORDS = LEXICON.shared_character_tags.astype(float)
#: deduction plans by everything they read (the team's plan is the same for every skull of a round)
_PLANS: dict[tuple, tuple[np.ndarray, list[int]]] = {}
_PLAN_CACHE_SIZE = 512


class MuertosShortlist(Shortlist):
    """See the module docstring."""

    name = "muertos/shortlist/v1"
    choices = CHOICES
    size = CONTEXT_SIZE + CHOICES * FEATURES

    def build(self, game: MuertosGame, player: int) -> Candidates:
        if game.is_over or player != game.current_player:
            raise ValueError(f"the shortlist is for the seat to act ({game.current_player}), not seat {player}")
        game_round = game.round
        vector = np.zeros(self.size, dtype=np.float32)
        features = vector[CONTEXT_SIZE:].reshape(CHOICES, FEATURES)
        phase = game_round.phase
        if phase == Phase.WRITE:
            actions = _write_candidates(game_round, game.legal_mask(), features)
        elif phase == Phase.DEDUCE:
            actions = _match_candidates(game_round, player, features)
        elif phase == Phase.DRAW:
            actions = _keep_candidates(game_round, player, features)
        elif phase == Phase.YELLOW:
            actions = _yellow_candidates(game_round, features)
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


SHORTLIST = MuertosShortlist()


# ---------------------------------------------------------------------------------- context
def _context(game: MuertosGame, out: np.ndarray, present: int) -> None:
    game_round = game.round
    phase = game_round.phase
    out[int(phase)] = 1.0
    out[6 + game.num_players - 4] = 1.0
    out[11] = float(game.catrina)
    out[12 + min(game.round_index, 3)] = 1.0
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
def _write_candidates(game_round: Round, mask: np.ndarray, features: np.ndarray) -> list[int]:
    legal = np.flatnonzero(mask[LAYOUT.write : LAYOUT.blank])
    if len(legal) == 0:
        return [LAYOUT.blank]
    shared = shared_with_prompt(game_round)[legal]
    meanings = WORD_MEANINGS[legal]
    first = int(np.lexsort((legal, -meanings, -shared))[0])  # associative: most shared, most meanings
    order = np.lexsort((legal, meanings - shared, -shared))  # then most shared, fewest other meanings
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
    return [LAYOUT.write + int(legal[i]) for i in picked]


def deduction_plan(game_round: Round, player: int) -> tuple[np.ndarray, list[int]]:
    """``associative``'s (skulls x 8) association scores for ``player`` and its best matching (cached)."""
    key = (
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
        scores = AssociativeTeam.deduction_scores(game_round, player)
        found = _PLANS[key] = (scores, best_matching(scores))
    return found


def _match_candidates(game_round: Round, player: int, features: np.ndarray) -> list[int]:
    scores, plan = deduction_plan(game_round, player)
    number = game_round.number
    row_scores = scores[number]
    best = int(plan[number])
    slots = [best] + [int(s) for s in np.lexsort((np.arange(TABLE_SIZE), -row_scores)) if s != best]
    low, high = float(row_scores.min()), float(row_scores.max())
    final = game_round.words[game_round.numbers[number]][STEPS - 1]
    table = game_round.table
    own = {game_round.characters[game_round.skull(player, hand)] for hand in range(game_round.rules.hands)}
    mine_before = {game_round.guesses[game_round.numbers[d]][player] for d in range(number)}
    for k, slot in enumerate(slots):
        row = features[k, _NUMBERS:]
        character = table[slot]
        row[0] = (row_scores[slot] - low) / (high - low) if high > low else 1.0
        row[1] = min(_SHARED_CHARACTER_WORDS[character, final] / _TAG_SCALE, 1.0) if final >= 0 else 0.0
        row[2] = float(character in own)
        row[3] = float(slot in mine_before)
        row[4] = _CHARACTER_TAGS[character] / _TAG_SCALE
        row[5] = float(row_scores[slot] == high)
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


def _yellow_candidates(game_round: Round, features: np.ndarray) -> list[int]:
    chosen = AssociativeTeam.yellow_action(game_round)
    actions = [chosen, LAYOUT.memory if chosen == LAYOUT.flower else LAYOUT.flower]
    memory = game_round.team.memory
    now = AssociativeTeam.limbos_needed(game_round, memory) is not None
    later = AssociativeTeam.limbos_needed(game_round, memory + len(game_round.pending)) is not None
    features[:2, _NUMBERS] = float(now)
    features[:2, _NUMBERS + 1] = float(later)
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
