"""What one seat has seen of the skulls' chains in the current round: its own memory, nothing else.

A writer reads the word it replaces and writes its own; it never sees the other words of a chain. At step k
seat i holds the skull of seat i - k (on each of its hands), so by the deduction it has seen, on every skull it
held, the word it read there (step k - 1) and the word it wrote (step k). While the writing goes on, only the
steps already handed over count, plus, at the current step, the hands it has already written (and the word it
reads now). The scripted players read these through ``seen_chains`` so that they never look at a word the
seat was not shown.
"""

from __future__ import annotations

from fiesta_envs.muertos.components import BLANK, NOT_WRITTEN, STEPS, Phase
from fiesta_envs.muertos.round import Round


def seen_chains(game_round: Round, seat: int) -> dict[int, dict[int, int]]:
    """``{skull index: {step: word}}`` of every word ``seat`` wrote or read this round (blanks included,
    as ``BLANK``). During the writing it is meant for the seat to write now (``game_round.seat``)."""
    writing = game_round.phase == Phase.WRITE
    if writing and seat != game_round.seat:
        raise ValueError(f"during the writing only the writer's memory is read (seat {game_round.seat}, not {seat})")
    if game_round.phase < Phase.WRITE:
        return {}
    chains: dict[int, dict[int, int]] = {}
    for step in range(STEPS):
        for hand in range(game_round.rules.hands):
            if writing and (step, hand) > (game_round.step, game_round.hand):
                continue
            skull = game_round.holder_skull(seat, step, hand)
            words = game_round.words[skull]
            chain = chains.setdefault(skull, {})
            if step > 0:
                chain[step - 1] = words[step - 1]  # what it read there
            if not writing or (step, hand) < (game_round.step, game_round.hand):
                chain[step] = words[step]  # what it wrote there
    return chains


def seen_words(game_round: Round, seat: int) -> set[int]:
    """Every word ``seat`` wrote or read this round (blanks left out)."""
    return {
        word
        for chain in seen_chains(game_round, seat).values()
        for word in chain.values()
        if word not in (BLANK, NOT_WRITTEN)
    }
