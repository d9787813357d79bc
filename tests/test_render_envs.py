"""Render modes through the PettingZoo environment: PettingZoo's render_test, and text that fits 100 columns."""

from __future__ import annotations

import importlib

import numpy as np
import pytest
from pettingzoo.test import render_test

from fiesta_envs import render
from fiesta_envs.envs.aec import aec_env_classes
from fiesta_envs.registry import GAMES, GameSpec

ENGINES = {
    "fiesta_mexicana": "fiesta_envs.fiesta_mexicana.game:FiestaMexicana",
    "tortilla_de_patatas": "fiesta_envs.tortilla.game:TortillaDePatatas",
    "tequila": "fiesta_envs.tequila.game:Tequila",
    "fiesta_de_los_muertos": "fiesta_envs.muertos.game:FiestaDeLosMuertos",
    "la_catrina": "fiesta_envs.muertos.catrina:LaCatrina",
}
TEXT_WIDTH = 100


def game_class(name: str):
    module, _, cls = ENGINES[name].partition(":")
    return getattr(importlib.import_module(module), cls)


@pytest.mark.parametrize("name", list(ENGINES))
def test_pettingzoo_render_test(name: str, capsys: pytest.CaptureFixture) -> None:
    _, env = aec_env_classes(game_class(name), f"{name}_v0", module=__name__, picture=GAMES[name].picture())
    assert "rgb_array" in env(render_mode="ansi").metadata["render_modes"]
    render_test(env)
    capsys.readouterr()  # the "human" mode printed the board


@pytest.mark.parametrize("name", list(ENGINES))
def test_rgb_array_mode_returns_the_picture_of_the_game(name: str) -> None:
    _, env_fn = aec_env_classes(game_class(name), f"{name}_v0", module=__name__, picture=GAMES[name].picture())
    env = env_fn(render_mode="rgb_array")
    env.reset(seed=4)
    picture = env.render()
    assert picture.dtype == np.uint8 and picture.shape[2] == 3
    assert np.array_equal(picture, render.draw(env.unwrapped.game))


CONFIGS = [
    (name, n, options)
    for name, engine in ENGINES.items()
    for n, options in GameSpec(name, "", "", engine, "").configurations()
]


@pytest.mark.parametrize(("name", "num_players", "options"), CONFIGS, ids=[f"{c[0]}-{c[1]}p-{c[2]}" for c in CONFIGS])
def test_text_board_fits_100_columns_through_a_whole_game(name: str, num_players: int, options: dict) -> None:
    game = game_class(name)(num_players=num_players, seed=8, **options)
    rng = np.random.default_rng(8)
    widest = (0, "")
    while True:
        for line in game.render_text().splitlines():
            widest = max(widest, (len(line), line))
        if game.is_over:
            break
        game.step(int(rng.choice(game.legal_actions())))
    assert widest[0] <= TEXT_WIDTH, f"{name}: a text line is {widest[0]} columns wide: {widest[1]!r}"


WITHOUT_PILLOW = """
import sys, warnings
sys.modules["PIL"] = None  # as if Pillow were not installed
import gymnasium, importlib
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import render_test
import fiesta_envs
from fiesta_envs.registry import GAMES

for spec in GAMES.values():
    module = importlib.import_module(spec.aec_module)
    assert module.env().metadata["render_modes"] == ["human", "ansi"], spec.name
    render_test(module.env)
    env = gymnasium.make(spec.gym_id)
    assert env.metadata["render_modes"] == ["human", "ansi"], spec.name
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(env.unwrapped)  # with its render check
    print("ok", spec.name)
"""


def test_without_pillow_only_text_modes_are_listed_and_the_checkers_pass() -> None:
    """The render modes an environment lists are the ones it can draw: no Pillow, no ``rgb_array``."""
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    result = subprocess.run(
        [sys.executable, "-c", WITHOUT_PILLOW], cwd=root, capture_output=True, text=True, timeout=600
    )
    assert result.returncode == 0, result.stderr[-3000:]
    assert result.stdout.count("ok ") == len(GAMES), result.stdout


@pytest.mark.parametrize("name", list(ENGINES))
def test_every_environment_draws_through_the_registry(name: str) -> None:
    """One path to a picture: the registry names the game's drawing module, the environments (AEC, Parallel,
    single seat) draw with it, and the engines draw nothing."""
    import gymnasium

    assert not hasattr(game_class(name), "render_rgb")
    spec = GAMES[name]
    module = importlib.import_module(spec.aec_module)
    envs = [module.env(render_mode="rgb_array"), gymnasium.make(spec.gym_id, render_mode="rgb_array").unwrapped]
    if spec.parallel:
        envs.append(module.parallel_env(render_mode="rgb_array"))
    for env in envs:
        env.reset(seed=3)
        assert np.array_equal(env.render(), spec.drawing_module().draw(env.unwrapped.game)), type(env).__name__
