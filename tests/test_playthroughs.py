"""Golden playthroughs: every configuration's seeded game still plays exactly as recorded.

A failure names the first line that differs (step, seat, legal actions, an observation block or scores).
After an intended change, bump the environment's version, regenerate with ``python scripts/make_playthroughs.py``
and review the diff (``tests/test_playthrough_versions.py`` holds each file to its environment's version).
"""

from __future__ import annotations

import re

import pytest
from playthrough_support import DIRECTORY, SEED, configurations, file_name, playthrough

from fiesta_envs.registry import GAMES


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


def _observer_class(game: str, num_players: int) -> type:
    return type(GAMES[game].game_class()(num_players=num_players, seed=SEED).observer)


@pytest.mark.parametrize("block", ["dice", "sheet 1 farm"])
def test_a_changed_observation_block_changes_only_that_blocks_lines(monkeypatch, block):
    recorded = playthrough("tequila", 2, {}).splitlines()
    observer_class = _observer_class("tequila", 2)
    observe = observer_class.observe

    def observe_with_one_block_shifted(self, *args):
        vector = observe(self, *args)
        self.layout.views(vector)[block] += 1.0
        return vector

    monkeypatch.setattr(observer_class, "observe", observe_with_one_block_shifted)
    altered = playthrough("tequila", 2, {}).splitlines()
    assert len(altered) == len(recorded)
    changed = [(old, new) for old, new in zip(recorded, altered, strict=True) if old != new]
    block_line = re.compile(rf"  obs \d+ {re.escape(block)}: ")
    assert changed, f"shifting the block {block!r} changed no line"
    assert all(block_line.match(old) and block_line.match(new) for old, new in changed), changed
    assert len(changed) == sum(1 for line in recorded if block_line.match(line))


def test_a_seats_first_observation_lists_every_block_then_only_the_changed_ones():
    lines = playthrough("tequila", 2, {}).splitlines()
    names = list(GAMES["tequila"].game_class()(num_players=2, seed=SEED).observer.layout.blocks)
    first_step = lines[lines.index("step 0 seat 0") : lines.index("step 1 seat 0")]
    second_step = lines[lines.index("step 1 seat 0") : lines.index("step 2 seat 0")]
    for seat in (0, 1):
        listed = [line.split(": ")[0] for line in first_step if line.startswith(f"  obs {seat} ")]
        assert listed == [f"  obs {seat} {name}" for name in names]
    assert 0 < sum(line.startswith("  obs ") for line in second_step) < len(names)


def test_the_development_page_shows_a_step_of_a_recorded_playthrough():
    page = (DIRECTORY.parents[1] / "docs" / "development.md").read_text(encoding="utf-8")
    example = page.split("```text\n", 1)[1].split("```", 1)[0]
    assert example.startswith("step ")
    assert example in (DIRECTORY / file_name("tequila", 2, {})).read_text(encoding="utf-8")
