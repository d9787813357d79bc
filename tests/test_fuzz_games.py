"""Fuzz every registered game in every configuration (player counts x option choices).

The default run plays a few hundred (``GAMES_PER_ENV``) random legal games per game, spread over its
configurations, with every check of ``fiesta_envs.testing.fuzz`` after every step (the expensive ones on a
sample of steps). The long run, marked ``fuzz``, plays 10,000 games per game and configuration:

    pytest -m fuzz tests/test_fuzz_games.py        # or: fiesta fuzz --games 10000 --jobs 2
"""

from __future__ import annotations

import pytest
from fuzz_support import missing_part

from fiesta_envs.core.configurations import configurations
from fiesta_envs.registry import GAMES
from fiesta_envs.testing.fuzz import fuzz_all, fuzz_game

#: Random games per game in the default test run, spread over its configurations (a few hundred
#: per game; the whole default fuzz run takes about a minute of CPU).
GAMES_PER_ENV: dict[str, int] = {}
DEFAULT_GAMES_PER_ENV = 300
#: At least this many games in each configuration.
MIN_GAMES_PER_CONFIG = 2
#: The long run (``-m fuzz``): games per game and configuration.
LONG_GAMES = 10_000


def _configuration_params() -> list:
    params = []
    for name, spec in GAMES.items():
        missing = missing_part(spec)
        if missing:
            params.append(pytest.param(name, 0, {}, 0, marks=pytest.mark.skip(f"{missing} is not written yet")))
            continue
        configs = configurations(spec.game_class())
        budget = GAMES_PER_ENV.get(name, DEFAULT_GAMES_PER_ENV)
        games = max(MIN_GAMES_PER_CONFIG, budget // len(configs))
        for n, options in configs:
            label = f"{name}-{n}p" + "".join(f"-{k}={v}" for k, v in options.items())
            params.append(pytest.param(name, n, options, games, id=label))
    return params


def _failures(report, game_class) -> str:
    lines = [f"{report.total_failures} failures: {dict(report.failures)}"]
    for failure in report.examples:
        lines += [failure.describe(), failure.reproducer(game_class), ""]
    return "\n".join(lines)


@pytest.mark.parametrize(("name", "num_players", "options", "games"), _configuration_params())
def test_random_games_keep_every_invariant(name, num_players, options, games):
    game_class = GAMES[name].game_class()
    report = fuzz_game(game_class, num_players, options, games=games, seed=2026)
    assert report.games == games
    assert report.ok, _failures(report, game_class)
    for kind in ("mask", "observation", "end", "continuation", "json", "roundtrip", "legal"):
        assert report.checks[kind] > 0, f"no {kind} check ran"


def _game_params() -> list:
    params = []
    for name, spec in GAMES.items():
        missing = missing_part(spec)
        marks = [pytest.mark.skip(f"{missing} is not written yet")] if missing else []
        params.append(pytest.param(name, marks=marks, id=name))
    return params


@pytest.mark.parametrize("name", _game_params())
def test_games_of_the_baselines_keep_every_invariant(name):
    """Scripted players reach positions random play rarely does (La Catrina's later rounds...)."""
    spec = GAMES[name]
    game_class = spec.game_class()
    baselines = sorted(spec.baseline_classes())
    for policies in (baselines, ["random", *baselines]):
        for n in (min(game_class.player_counts), game_class.default_players):
            report = fuzz_game(game_class, n, {}, games=4, seed=7, policies=policies)
            assert report.ok, _failures(report, game_class)


@pytest.mark.fuzz
@pytest.mark.parametrize("name", list(GAMES))
def test_long_fuzz_ten_thousand_games_per_configuration(name):
    spec = GAMES[name]
    if missing_part(spec):
        pytest.skip(f"{missing_part(spec)} is not written yet")
    report = fuzz_all(name, games=LONG_GAMES, seed=10_000, jobs=2)
    print(f"{name}: {report.games} games, {report.steps} steps, {report.total_checks} checks")
    assert report.games == LONG_GAMES * len(report.configurations)
    assert report.ok, _failures(report, spec.game_class())
