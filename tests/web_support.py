"""Helpers for the web app's tests: a test client, reading a page's buttons, clicking through a game."""

from __future__ import annotations

import re
from typing import Any

import numpy as np

from fiesta_envs.registry import game_spec

ACTION_BUTTON = re.compile(r'name="action" value="(\d+)"')
PREVIEW_LINK = re.compile(r'preview=(\d+)"')


def action_values(page: str) -> list[int]:
    """The actions of every play button on a page, in order."""
    return [int(value) for value in ACTION_BUTTON.findall(page)]


def start_table(client: Any, route: str, **form: str) -> str:
    """Post a start form; the new table's address."""
    response = client.post(route, data=form)
    assert response.status_code == 302, response.get_data(as_text=True)[:2000]
    return response.headers["Location"]


def click_through(client: Any, address: str, limit: int = 600) -> str:
    """Press the first action button until the game is over; the last page."""
    for _ in range(limit):
        page = client.get(address).get_data(as_text=True)
        actions = action_values(page)
        if not actions:
            return page
        response = client.post(f"{address}/play", data={"action": str(actions[0])})
        assert response.status_code == 302, response.get_data(as_text=True)[:2000]
    raise AssertionError(f"the game at {address} did not end within {limit} clicks")


def random_record(game_name: str, seed: int, num_players: int | None = None) -> dict[str, Any]:
    """The record of a random game, as ``fiesta evaluate --records`` writes one."""
    game = game_spec(game_name).game_class()(num_players=num_players, seed=seed)
    rng = np.random.default_rng(seed)
    actions = []
    while not game.is_over:
        action = int(rng.choice(game.legal_actions()))
        actions.append(game.action_to_string(action))
        game.step(action)
    return {
        "format": "fiesta_record",
        "format_version": 1,
        "game": game.name,
        "game_version": game.version,
        "num_players": game.num_players,
        "options": dict(game.config),
        "seed": seed,
        "agents": ["random"] * game.num_players,
        "actions": actions,
        "scores": [float(s) for s in game.scores()],
        "winners": [int(w) for w in game.winners()],
        "steps": len(actions),
    }
