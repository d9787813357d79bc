"""``observation_views``: an observation split into its blocks, each in the shape its game page documents.

Each game page (the docstring of the game's environment module) has a "Reading an observation" part whose
example lists every block with its shape; it is run here as a doctest, so the page and the layouts cannot
drift apart.
"""

from __future__ import annotations

import doctest
import importlib
import re

import gymnasium
import numpy as np
import pytest

from fiesta_envs.core.observer import ObservationLayout
from fiesta_envs.registry import GAMES

SECTION = re.compile(r"^Reading an observation\n-+\n(?P<body>.*?)(?=^\S[^\n]*\n-{3,}\n|\Z)", re.S | re.M)


def _page_section(game: str) -> str:
    docstring = importlib.import_module(GAMES[game].aec_module).__doc__ or ""
    found = SECTION.search(docstring)
    assert found, f"{game}: the page has no 'Reading an observation' part"
    return found.group("body")


@pytest.mark.parametrize("game", list(GAMES))
def test_the_page_example_lists_every_block_in_its_shape(game: str) -> None:
    section = _page_section(game)
    test = doctest.DocTestParser().get_doctest(section, {}, f"{game} page", None, 0)
    assert any("observation_views" in example.source for example in test.examples)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    result = runner.run(
        test, out=lambda text: pytest.fail(f"{game}: the page's example differs:\n{text}"), clear_globs=False
    )
    assert result.failed == 0 and result.attempted >= 5
    listed = re.findall(r"^ {4}(\w[\w ]*?) +\((\d+(?:, \d+)*),?\)$", section, re.M)
    env = test.globs["env"]
    layout = env.unwrapped.game.observer.layout
    assert [name for name, _ in listed] == list(layout.blocks)  # every block, in order, on the page
    for name, shape in listed:
        assert layout.shapes[name] == tuple(int(length) for length in shape.split(", "))


@pytest.mark.parametrize("game", list(GAMES))
def test_views_are_the_flat_blocks_reshaped(game: str) -> None:
    module = importlib.import_module(GAMES[game].aec_module)
    env = module.env()
    env.reset(seed=3)
    observation = env.observe(env.agent_selection)
    views = env.unwrapped.observation_views(observation)
    flat = env.unwrapped.game.observer.decode(observation["observation"])
    assert list(views) == list(flat)
    for name, view in views.items():
        np.testing.assert_array_equal(view.reshape(-1), flat[name])
    assert any(view.ndim > 1 for view in views.values())  # some block has a documented shape
    views[next(iter(views))][...] = 7  # a copy: the observation is untouched
    assert observation["observation"].max() <= 1


def test_engines_and_the_gymnasium_env_read_observations_too() -> None:
    spec = GAMES["tortilla_de_patatas"]
    env = gymnasium.make(spec.gym_id, num_players=2)
    observation, _ = env.reset(seed=0)
    views = env.unwrapped.observation_views(observation)
    assert views["pans"].shape == (6, 29) and views["known_in_hands"].shape == (3, 7)
    game = spec.game_class()(num_players=2, observation="observation")
    views = game.observation_views(game.observe(0))
    assert views["pans"].shape == (6, 8) and views["events"].shape == (8, 27)


def test_a_vector_of_another_size_is_refused_with_the_expected_shape() -> None:
    game = GAMES["tequila"].game_class()(num_players=2)
    with pytest.raises(ValueError, match=r"shape \(1410,\).*got shape \(733,\)"):
        game.observation_views(np.zeros(733, dtype=np.float32))
    with pytest.raises(ValueError, match="needs the key 'observation'"):
        game.observation_views({"action_mask": np.zeros(3)})


def test_a_layout_refuses_a_bad_shape() -> None:
    with pytest.raises(ValueError, match="'pans' has a bad size or shape"):
        ObservationLayout([("pans", (6, -1))])
    layout = ObservationLayout([("a", 2), ("b", (2, 3))])
    assert layout.size == 8 and layout.slice("b") == slice(2, 8)
    views = layout.shaped_views(np.arange(8, dtype=np.float32))
    np.testing.assert_array_equal(views["b"], [[2, 3, 4], [5, 6, 7]])
