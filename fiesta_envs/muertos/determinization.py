"""Fiesta de los Muertos and La Catrina as one seat may believe them to be (``MuertosGame.determinize``).

A seat knows its own character(s) (and the two it was dealt under the draw choice), the words it wrote and the
words handed to it (``observation.memory_plan``), the constraint cards, the cortège's themes, the team's bones
and flowers and, from the deduction on, the eight characters on the table, the final word of every numbered
skull and its own guesses; after the reveal, each number's character and how many matched it. Everything else
is drawn afresh here, from what the seat knows only:

- **who holds which character** (and, under the draw choice, the cards dealt to the others): before the
  deduction from the deck the seat has not seen, from the deduction on among the table's characters, the
  extras being the rest;
- **which skull has which number card** (from the deduction on: the final words are public, not whose skull
  each is);
- **every word the seat has not seen**, written anew so that each chain is legal and goes through the words the
  seat saw (and ends on its number's final word).

Characters, numbers and words are drawn from a model of how the team writes: a writer picks a legal word with
probability proportional to ``exp(WRITER_SHARPNESS x value)``, ``value`` being the ``associative`` team's (tags
shared with the prompt less 0.3 per other meaning, ``muertos.writing``), or, ``ANY_WORD`` of the time, any legal
word alike. A skull's character and number are
drawn in proportion to the probability that such writers produce the words the seat saw on it, the hidden words
then by forward sampling given those words (exact for one skull; the skulls are drawn one after another, each
among the characters and numbers the earlier ones left). Others' guesses not yet revealed are made again in the
copy by a ``replay`` policy (``team_search`` passes ``associative``; by default at random); after the reveal they
are redrawn with each skull's public count of right guesses.
Chance is re-seeded: the next rounds' deals and constraint cards are not the game's.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Protocol, TypeVar, cast

import numpy as np

from fiesta_envs.core.determinization import rebuilt
from fiesta_envs.core.game import Game
from fiesta_envs.core.state_fields import to_json_safe
from fiesta_envs.muertos.components import BLANK, NOT_WRITTEN, STEPS, TABLE_SIZE, Phase
from fiesta_envs.muertos.constraints import _key, _previous_allowed, _tables, static_allowed
from fiesta_envs.muertos.lexicon import Lexicon
from fiesta_envs.muertos.observation import memory_plan
from fiesta_envs.policies.policy import Policy, RandomPolicy

if TYPE_CHECKING:
    from fiesta_envs.muertos.round import Round
    from fiesta_envs.muertos.state import MuertosState


class Engine(Protocol):
    """What determinisation reads and changes of a ``MuertosGame`` (typed here without importing the engine,
    which imports this module)."""

    state: MuertosState[Round]
    _mask_cache: np.ndarray | None

    def legal_mask(self) -> np.ndarray: ...


E = TypeVar("E", bound=Engine)

#: How sharply the modelled writer prefers the words of higher value (per unit of ``associative``'s value).
WRITER_SHARPNESS = 5.0
#: The share of the modelled writer's choices made among all legal words alike (a writer may write any of them).
ANY_WORD = 0.02
#: What each other meaning of a word costs (``muertos.writing.PRECISION_WEIGHT``).
_PRECISION = 0.3
#: Writing models kept (one per set of constraint cards).
_MODELS_KEPT = 6
#: Backward messages kept per model (one per chain of evidence).
_MESSAGES_KEPT = 4096
#: Likelihood tables kept (one per state of a seat's knowledge).
_LIKELIHOODS: dict[tuple[Any, ...], list[np.ndarray]] = {}
_LIKELIHOODS_KEPT = 64
#: Tries at drawing a consistent assignment of characters and numbers before completing one at random.
_ATTEMPTS = 16


class WritingModel:
    """The modelled writer's transition probabilities for one set of constraint cards.

    ``words``: float32 (W + 1, W + 1): from a prompt word (or blank, row W) to the next tooth (a word, or blank,
    column W); ``characters``: float32 (C, W + 1): from a character to the first tooth."""

    def __init__(self, lexicon: Lexicon, constraints: Sequence[int]) -> None:
        n = len(lexicon.words)
        self.blank = n
        meanings = lexicon.word_tags.sum(axis=1).astype(np.float32)
        key = _key(constraints)
        static = static_allowed(key, lexicon)
        allowed = lexicon.word_links & static[None, :]
        previous = _previous_allowed(key, _tables(lexicon))
        if previous is not None:
            allowed = allowed & previous
        np.fill_diagonal(allowed, False)
        words = np.zeros((n + 1, n + 1), dtype=np.float32)
        words[:n, :n] = _rows(lexicon.shared_word_tags.astype(np.float32), meanings, allowed)
        words[n, :n] = _rows(np.zeros((1, n), np.float32), meanings, static[None, :])[0]
        words[:, n] = words[:, :n].sum(axis=1) == 0  # no legal word: a blank
        self.words = words
        characters = np.zeros((len(lexicon.characters), n + 1), dtype=np.float32)
        shared = lexicon.shared_character_tags.astype(np.float32)
        characters[:, :n] = _rows(shared, meanings, lexicon.character_links & static[None, :])
        characters[:, n] = characters[:, :n].sum(axis=1) == 0
        self.characters = characters
        self._by_next = np.ascontiguousarray(words.T)  # row t: the probability of writing t after each prompt
        self._messages: dict[tuple[Any, ...], list[np.ndarray]] = {}

    def state(self, tooth: int) -> int:
        """A tooth (word id or ``BLANK``) as a row/column index."""
        return self.blank if tooth == BLANK else tooth

    def tooth(self, state: int) -> int:
        return BLANK if state == self.blank else state

    def backward(self, evidence: dict[int, int], last: int) -> list[np.ndarray]:
        """``messages[p]`` (W + 1,): up to a constant, the probability of the evidence at teeth ``p + 1 .. last``
        given tooth ``p``, times whether tooth ``p`` agrees with the evidence (p = 0 .. last). Kept: the same
        evidence comes back at every decision of a round (read-only arrays)."""
        key = (tuple(sorted(evidence.items())), last)
        found = self._messages.get(key)
        if found is None:
            if len(self._messages) >= _MESSAGES_KEPT:
                self._messages.clear()
            found = self._messages[key] = self._backward(evidence, last)
        return found

    def _backward(self, evidence: dict[int, int], last: int) -> list[np.ndarray]:
        size = self.blank + 1
        messages: list[np.ndarray] = [np.ones(size, np.float32)] * (last + 1)
        after = np.ones(size, np.float32)
        for p in range(last, -1, -1):
            here = after.copy()
            if p in evidence:
                only = np.zeros(size, np.float32)
                only[self.state(evidence[p])] = here[self.state(evidence[p])]
                here = only
            here.flags.writeable = False
            messages[p] = here
            present = np.flatnonzero(here)
            after = here[present] @ self._by_next[present]  # the words matrix times ``here``, over its non-zeros
            top = float(after.max())
            if top > 0:
                after /= top
        return messages


def _rows(shared: np.ndarray, meanings: np.ndarray, allowed: np.ndarray) -> np.ndarray:
    """Softmax rows of the writer's values over the allowed words (all zero where none is allowed)."""
    values = shared - _PRECISION * (meanings[None, :] - shared)
    logits = np.where(allowed, WRITER_SHARPNESS * values, -np.inf)
    top = logits.max(axis=1, keepdims=True)
    top[~np.isfinite(top)] = 0.0
    weights = np.exp(logits - top)
    sums = weights.sum(axis=1, keepdims=True)
    softmax = np.divide(weights, sums, out=np.zeros_like(weights), where=sums > 0)
    counts = allowed.sum(axis=1, keepdims=True).astype(np.float32)
    uniform = np.divide(allowed.astype(np.float32), counts, out=np.zeros_like(weights), where=counts > 0)
    return (1.0 - ANY_WORD) * softmax + ANY_WORD * uniform


@functools.lru_cache(maxsize=_MODELS_KEPT)
def writing_model(lexicon: Lexicon, constraints: tuple[int, ...]) -> WritingModel:
    return WritingModel(lexicon, constraints)


# ---------------------------------------------------------------------------------- what the seat knows
def known_teeth(game_round: Round, seat: int) -> dict[int, dict[int, int]]:
    """``{skull index: {tooth: word or BLANK}}``: every tooth ``seat`` wrote or was handed (as its observation
    shows them)."""
    begun = {Phase.DRAW: 0, Phase.WRITE: game_round.step}.get(game_round.phase, STEPS)
    known: dict[int, dict[int, int]] = {}
    rules = game_round.rules
    for slot, skull, step in memory_plan(rules.num_players, rules.hands, seat):
        words = game_round.words[skull]
        if slot % 2:
            if words[step] != NOT_WRITTEN:
                known.setdefault(skull, {})[step] = words[step]
        elif step <= begun and words[step - 1] != NOT_WRITTEN:
            known.setdefault(skull, {})[step - 1] = words[step - 1]
    return known


def written_teeth(game_round: Round) -> list[int]:
    """How many teeth each skull has (public: it follows from the turn)."""
    rules = game_round.rules
    if game_round.phase == Phase.DRAW:
        return [0] * rules.skulls
    if game_round.phase > Phase.WRITE:
        return [STEPS] * rules.skulls
    counts = [game_round.step] * rules.skulls
    for seat in range(rules.num_players):
        for hand in range(rules.hands):
            if (seat, hand) < (game_round.seat, game_round.hand):
                counts[game_round.holder_skull(seat, game_round.step, hand)] += 1
    return counts


# ---------------------------------------------------------------------------------- drawing a world
def determinize(game: E, seat: int, rng: np.random.Generator, replay: Policy | None = None) -> E:
    """A copy of ``game`` with everything hidden from ``seat`` drawn afresh (module docstring); the others'
    guesses not yet revealed are made again by ``replay`` (by default at random among the legal matches)."""
    state = to_json_safe(game.state)
    game_round = game.state.round
    if not game.state.over and game_round.phase != Phase.DONE:
        state["round"] = _drawn_round(game_round, seat, rng)
    world = cast(E, rebuilt(cast(Game, game), state, rng))
    if not world.state.over and game_round.phase == Phase.DEDUCE:
        policy = replay if replay is not None else RandomPolicy(seed=int(rng.integers(1 << 63)))
        _replay_guesses(world, seat, policy)
    return world


def _drawn_round(game_round: Round, seat: int, rng: np.random.Generator) -> dict[str, Any]:
    """The round's saved fields with the hidden ones drawn from what ``seat`` knows."""
    rules = game_round.rules
    n, skulls = rules.num_players, rules.skulls
    phase = game_round.phase
    lexicon = game_round.lexicon
    fields = to_json_safe(game_round.copied())
    own_skulls = [game_round.skull(seat, hand) for hand in range(rules.hands)]
    own = {j: game_round.characters[j] for j in own_skulls}
    own_offers = list(game_round.offers[seat]) if game_round.offers else []
    deduced = phase >= Phase.DEDUCE
    revealed = phase >= Phase.YELLOW
    known = known_teeth(game_round, seat)
    counts = written_teeth(game_round)
    model = writing_model(lexicon, tuple(sorted(game_round.constraints)))

    table = list(game_round.table) if deduced else []
    finals = [game_round.words[j][STEPS - 1] for j in game_round.numbers] if deduced else []
    by_number = [game_round.table[game_round.answer(j)] for j in game_round.numbers] if revealed else []

    if phase == Phase.DRAW:
        return _drawn_draw(fields, game_round, seat, own_offers, rng)

    # who holds which character, and (from the deduction on) which skull has which number
    if deduced:
        pool = sorted(set(table) - set(own.values()))
    else:
        pool = sorted(set(game_round.deck_pool()) - set(own.values()) - set(own_offers))
    likelihoods = _likelihoods(model, skulls, own, known, pool, finals if deduced else None, by_number)
    assigned = None
    for _attempt in range(_ATTEMPTS):
        assigned = _assignment(likelihoods, own, pool, deduced, rng)
        if assigned is not None:
            break
    else:  # no consistent assignment found by sequential drawing: one completed at random where it must
        assigned = _assignment(likelihoods, own, pool, deduced, rng, strict=False)
    assert assigned is not None
    characters, numbers = assigned
    free_characters = set(pool) - set(characters)
    words = [[NOT_WRITTEN] * STEPS for _ in range(skulls)]
    for j in range(skulls):
        chain = dict(known.get(j, {}))
        if deduced:
            chain[STEPS - 1] = finals[numbers.index(j)]
        words[j] = _drawn_chain(model, characters[j], chain, counts[j], rng)
    extras_pool = sorted(set(table) - set(characters)) if deduced else sorted(free_characters)
    extras = [int(c) for c in rng.permutation(extras_pool)[: TABLE_SIZE - skulls]] if not deduced else extras_pool
    if deduced:
        everything = characters + extras
        table_order = [everything.index(c) for c in table]
    else:
        table_order = rng.permutation(TABLE_SIZE).tolist()
        numbers = rng.permutation(skulls).tolist()
    fields.update(characters=characters, extras=extras, table_order=table_order, numbers=numbers, words=words)
    for name in ("whites", "yellow", "bones", "limbo", "rewards"):  # public by number, kept by skull index
        by_skull = fields[name]
        remapped = list(by_skull)
        for d, true_skull in enumerate(game_round.numbers):
            remapped[numbers[d]] = by_skull[true_skull]
        fields[name] = remapped
    if game_round.offers:
        unused = sorted(set(game_round.deck_pool()) - set(characters) - set(extras) - set(own_offers))
        spare = [int(c) for c in rng.permutation(unused)]
        offers = []
        for other in range(n):
            if other == seat:
                offers.append(own_offers)
            else:
                pair = [characters[other], spare.pop()]
                offers.append([int(c) for c in rng.permutation(pair)])
        fields["offers"] = offers
    fields["guesses"] = _drawn_guesses(game_round, seat, numbers, characters, extras, table_order, rng)
    return fields


def _likelihoods(
    model: WritingModel,
    skulls: int,
    own: dict[int, int],
    known: dict[int, dict[int, int]],
    pool: list[int],
    finals: list[int] | None,
    by_number: list[int],
) -> list[np.ndarray]:
    """Per skull: (characters, numbers) how likely the modelled writers produce what the seat saw on it, with
    that character (its own for the seat's skulls, else each of ``pool``) and (with ``finals``: from the
    deduction on) that number card's final word; one column before the deduction. Kept while the seat's
    knowledge stays the same (the decisions of a deduction)."""
    key = (
        id(model),
        skulls,
        tuple(sorted(own.items())),
        tuple((j, tuple(sorted(teeth.items()))) for j, teeth in sorted(known.items())),
        tuple(pool),
        None if finals is None else tuple(finals),
        tuple(by_number),
    )
    found = _LIKELIHOODS.get(key)
    if found is not None:
        return found
    tables = []
    for j in range(skulls):
        evidence = known.get(j, {})
        choices_c = [own[j]] if j in own else pool
        choices_d = range(skulls) if finals is not None else [-1]
        weights = np.zeros((len(choices_c), len(choices_d)))
        for b, d in enumerate(choices_d):
            chain = dict(evidence)
            if finals is not None:
                if chain.get(STEPS - 1, finals[d]) != finals[d]:
                    continue  # the seat wrote this skull's final word: not this number's
                chain[STEPS - 1] = finals[d]
            weights[:, b] = _start_weights(model, choices_c, chain, max(chain) if chain else -1)
            if by_number:
                weights[:, b] *= np.array([c == by_number[d] for c in choices_c], dtype=float)
        weights.flags.writeable = False
        tables.append(weights)
    if len(_LIKELIHOODS) >= _LIKELIHOODS_KEPT:
        _LIKELIHOODS.clear()
    _LIKELIHOODS[key] = tables
    return tables


def _assignment(
    likelihoods: list[np.ndarray],
    own: dict[int, int],
    pool: list[int],
    numbered: bool,
    rng: np.random.Generator,
    strict: bool = True,
) -> tuple[list[int], list[int]] | None:
    """Characters by skull and skull indices by number (all -1 before the deduction), drawn skull by skull in
    proportion to ``likelihoods`` among the characters and numbers left, the skull with the fewest possible
    choices first (numbers, then characters); None when a skull has no possible choice left (``strict``;
    otherwise it takes any left)."""
    skulls = len(likelihoods)
    characters = [-1] * skulls
    numbers = [-1] * skulls
    free_c = np.ones(len(pool), dtype=bool)
    free_d = np.ones(likelihoods[0].shape[1], dtype=bool)
    left = [int(j) for j in rng.permutation(skulls)]
    while left:
        masked = {}
        for j in left:
            rows = np.ones(1, dtype=bool) if j in own else free_c
            masked[j] = likelihoods[j] * rows[:, None] * free_d[None, :]
        j = min(left, key=lambda k: _choices_left(masked[k]))
        left.remove(j)
        weights = _keeping_the_rest_possible(masked[j], [masked[k] for k in left], [k in own for k in left])
        if weights.sum() > 0:
            flat = _pick(weights.ravel(), rng)
        elif strict:
            return None
        else:
            rows = np.ones(1, dtype=bool) if j in own else free_c
            open_pairs = np.flatnonzero((rows[:, None] & free_d[None, :]).ravel())
            flat = int(open_pairs[rng.integers(len(open_pairs))])
        a, b = divmod(flat, weights.shape[1])
        if j in own:
            characters[j] = own[j]
        else:
            characters[j] = pool[a]
            free_c[a] = False
        if numbered:
            numbers[b] = j
            free_d[b] = False
    return characters, numbers


def _keeping_the_rest_possible(weights: np.ndarray, others: list[np.ndarray], owned: list[bool]) -> np.ndarray:
    """``weights`` without the numbers (columns) and characters (rows) whose choice would leave the skulls
    ``others`` (their masked likelihoods) without distinct numbers, or distinct characters, each may have."""
    kept = weights.copy()
    columns = [set(np.flatnonzero(other.any(axis=0)).tolist()) for other in others]
    if kept.shape[1] > 1:
        for b in np.flatnonzero(kept.any(axis=0)).tolist():
            if not _matchable([column - {b} for column in columns]):
                kept[:, b] = 0.0
    rows = [
        set(np.flatnonzero(other.any(axis=1)).tolist()) for other, own in zip(others, owned, strict=True) if not own
    ]
    if kept.shape[0] > 1 and len(kept) <= 2 * TABLE_SIZE:  # characters are scarce from the deduction on
        for a in np.flatnonzero(kept.any(axis=1)).tolist():
            if not _matchable([row - {a} for row in rows]):
                kept[a, :] = 0.0
    return kept


def _matchable(supports: list[set[int]]) -> bool:
    """Whether every set can be given a distinct member of its own (bipartite matching by augmenting paths)."""
    owner: dict[int, int] = {}

    def augment(i: int, seen: set[int]) -> bool:
        for x in supports[i]:
            if x not in seen:
                seen.add(x)
                if x not in owner or augment(owner[x], seen):
                    owner[x] = i
                    return True
        return False

    return all(augment(i, set()) for i in range(len(supports)))


def _choices_left(weights: np.ndarray) -> tuple[int, int, int]:
    """How constrained a skull is: the numbers it may still have, then the characters, then the pairs."""
    possible = weights > 0
    return int(possible.any(axis=0).sum()), int(possible.any(axis=1).sum()), int(possible.sum())


def _start_weights(model: WritingModel, characters: Sequence[int], chain: dict[int, int], last: int) -> np.ndarray:
    """For each character, how likely the modelled writers produce the teeth ``chain`` from it."""
    if last < 0:
        return np.ones(len(characters))
    messages = model.backward(chain, last)
    return model.characters[list(characters)].astype(np.float64) @ messages[0].astype(np.float64)


def _drawn_chain(
    model: WritingModel, character: int, chain: dict[int, int], written: int, rng: np.random.Generator
) -> list[int]:
    """The skull's teeth: those in ``chain`` kept, the other written ones drawn given them, the rest not written."""
    teeth = [NOT_WRITTEN] * STEPS
    if written == 0:
        return teeth
    last = max([*chain, written - 1])
    messages = model.backward(chain, last)
    previous = model.characters[character]
    for p in range(written):
        if p in chain:
            state = model.state(chain[p])
        else:
            weights = previous.astype(np.float64) * messages[p]
            if not weights.sum() > 0:  # the seen words cannot be reached: any tooth the writer could write
                weights = previous.astype(np.float64)
            state = _pick(weights, rng)
        teeth[p] = model.tooth(state)
        previous = model.words[state]
    return teeth


def _pick(weights: np.ndarray, rng: np.random.Generator) -> int:
    """An index drawn in proportion to ``weights`` (non-negative, not all zero)."""
    cumulative = np.cumsum(weights)
    return min(int(np.searchsorted(cumulative, rng.random() * cumulative[-1], side="right")), len(weights) - 1)


def _drawn_draw(
    fields: dict[str, Any], game_round: Round, seat: int, own_offers: list[int], rng: np.random.Generator
) -> dict[str, Any]:
    """The draw choice: the others' cards dealt afresh; those that kept one keep one of theirs at random."""
    rules = game_round.rules
    pool = sorted(set(game_round.deck_pool()) - set(own_offers))
    deck = [int(c) for c in rng.permutation(pool)]
    offers, characters = [], [-1] * rules.skulls
    for other in range(rules.num_players):
        offer = own_offers if other == seat else [deck.pop(), deck.pop()]
        offers.append(offer)
        if other < game_round.seat:
            characters[other] = game_round.characters[other] if other == seat else offer[int(rng.integers(2))]
    fields.update(
        offers=offers,
        characters=characters,
        extras=[deck.pop() for _ in range(TABLE_SIZE - rules.skulls)],
        table_order=rng.permutation(TABLE_SIZE).tolist(),
        numbers=rng.permutation(rules.skulls).tolist(),
    )
    return fields


def _drawn_guesses(
    game_round: Round,
    seat: int,
    numbers: list[int],
    characters: list[int],
    extras: list[int],
    table_order: list[int],
    rng: np.random.Generator,
) -> list[list[int]]:
    """The seat's own guesses kept by number; before the reveal the others' are left to replay
    (``_replay_guesses``); after it, redrawn with each number's public count of right guesses."""
    rules = game_round.rules
    n, skulls = rules.num_players, rules.skulls
    guesses = [[-1] * n for _ in range(skulls)]
    for d, true_skull in enumerate(game_round.numbers):
        guesses[numbers[d]][seat] = game_round.guesses[true_skull][seat]
    if game_round.phase < Phase.YELLOW:
        return guesses
    pool = characters + extras
    table = [pool[i] for i in table_order]
    for d, true_skull in enumerate(game_round.numbers):
        skull = numbers[d]
        answer = table.index(characters[skull])
        right = game_round.correct_count(true_skull) - int(guesses[skull][seat] == answer)
        others = [int(o) for o in rng.permutation([o for o in range(n) if o != seat])]
        for k, other in enumerate(others):
            wrong = [slot for slot in range(TABLE_SIZE) if slot != answer]
            guesses[skull][other] = answer if k < right else wrong[int(rng.integers(len(wrong)))]
    return guesses


def _replay_guesses(world: Engine, seat: int, replay: Policy) -> None:
    """During the deduction: the guesses the others have made so far, made again in the copy by ``replay``
    (each from what its seat knows there), skull number by skull number as they were made."""
    game_round = world.state.round
    layout = game_round.layout
    seat_now, number_now = game_round.seat, game_round.number
    try:
        for other in range(game_round.rules.num_players):
            if other == seat or other > seat_now:
                continue
            done = game_round.rules.skulls if other < seat_now else number_now
            for d in range(done):
                game_round.seat, game_round.number = other, d
                world._mask_cache = None
                observation = None if not replay.needs_observation else cast(Game, world).observe(other)
                action = replay.act(observation, world.legal_mask(), cast(Game, world), other)
                game_round.guesses[game_round.numbers[d]][other] = int(layout.second[action])
    finally:
        game_round.seat, game_round.number = seat_now, number_now
        world._mask_cache = None
