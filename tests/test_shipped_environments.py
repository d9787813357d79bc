"""Versions that mean something: every environment id carries its engine's version, and every shipped agent
names the environment (with its version) it was trained on."""

from __future__ import annotations

import json
import re

import pytest

from fiesta_envs.agents.shipped import PACKAGE_WEIGHTS_DIR, ShippedAgent
from fiesta_envs.registry import GAMES, game_spec

SHIPPED = sorted(PACKAGE_WEIGHTS_DIR.glob("*.json"))


@pytest.mark.parametrize("spec", GAMES.values(), ids=lambda spec: spec.name)
def test_the_environment_id_and_module_carry_the_engine_version(spec):
    version = spec.game_class().version
    assert spec.gym_id.endswith(f"-v{version}"), f"{spec.gym_id}: the engine is version {version}"
    assert spec.aec_module.endswith(f"_v{version}"), f"{spec.aec_module}: the engine is version {version}"


def test_there_are_shipped_agents():
    assert len(SHIPPED) >= 5


@pytest.mark.parametrize("path", SHIPPED, ids=lambda path: path.stem)
def test_every_shipped_agent_names_the_environment_it_was_trained_on(path):
    agent = ShippedAgent(path, json.loads(path.read_text(encoding="utf-8")))
    current = game_spec(agent.game).gym_id
    stem, _, current_version = current.rpartition("-v")
    match = re.fullmatch(re.escape(stem) + r"-v(\d+)", agent.environment or "")
    wanted = f"'environment' must be {stem}-vN, the version it was trained on"
    assert match, f"{path.name}: {wanted}; got {agent.environment!r}"
    assert int(match[1]) <= int(current_version), f"{path.name}: trained on {agent.environment}, newer than {current}"
