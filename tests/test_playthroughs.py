"""Golden playthroughs: every configuration's seeded game still plays exactly as recorded.

A failure names the first line that differs (step, seat, legal actions, observation digests or scores).
After an intended change, bump the environment's version, regenerate with ``python scripts/make_playthroughs.py``
and review the diff (``tests/test_playthrough_versions.py`` holds each file to its environment's version).
"""

from __future__ import annotations

import pytest
from playthrough_support import DIRECTORY, configurations, file_name, playthrough


@pytest.mark.parametrize(("game", "num_players", "options"), configurations(), ids=lambda v: str(v))
def test_the_game_plays_as_recorded(game, num_players, options):
    path = DIRECTORY / file_name(game, num_players, options)
    assert path.exists(), f"no golden playthrough {path.name}: run python scripts/make_playthroughs.py"
    expected = path.read_text().splitlines()
    actual = playthrough(game, num_players, options).splitlines()
    for number, (want, got) in enumerate(zip(expected, actual, strict=False), start=1):
        if want != got:
            context = next((line for line in reversed(actual[:number]) if line.startswith("step")), "the start")
            pytest.fail(f"{path.name} line {number} (at {context}):\n  recorded: {want}\n  now:      {got}")
    assert len(actual) == len(expected), f"{path.name}: {len(actual)} lines now, {len(expected)} recorded"
