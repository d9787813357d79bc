"""Shared checks of the shortlist tests."""

from __future__ import annotations

from typing import Any


def assert_plays_like(policy: Any, reference: Any, game: Any) -> None:
    """Play ``game`` to its end with ``policy``, checking every move against ``reference`` (a ``ShortlistPolicy``,
    which reads no observation)."""
    while not game.is_over:
        player = game.current_player
        action = policy.act(game.observe(player), game.legal_mask(), game, player)
        assert action == reference.act(None, game.legal_mask(), game, player)
        game.step(action)
