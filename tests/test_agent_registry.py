"""The agent registry (``fiesta_envs.agents.registry``): every spec form becomes a policy, everywhere agents are
taken -- evaluation, play, the Gymnasium environment's opponents, training's opponents and teacher."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from fiesta_envs.agents.registry import AgentError, resolve_agent
from fiesta_envs.agents.shipped import ShippedPolicy
from fiesta_envs.core.policy import CallablePolicy, Policy
from fiesta_envs.registry import GAMES, make_policy

ROOT = Path(__file__).resolve().parent.parent
SMOKE = ROOT / "configs" / "smoke.yaml"
TORTILLA = GAMES["tortilla_de_patatas"]
MEXICANA = GAMES["fiesta_mexicana"]


# ---------------------------------------------------------------------- names with options
def test_baseline_names_with_options_the_shipped_agent_and_search():
    assert resolve_agent(MEXICANA, 2, "greedy:version=1").make(MEXICANA, 2).version == 1
    assert isinstance(resolve_agent(MEXICANA, 2, "ppo").make(MEXICANA, 2), ShippedPolicy)
    source = resolve_agent(TORTILLA, 2, "search:budget=16")
    assert (source.kind, source.label, source.make(TORTILLA, 2).budget) == ("baseline", "search:budget=16", 16)
    labelled = resolve_agent(TORTILLA, 2, "old=careful:version=1")
    assert (labelled.label, labelled.make(TORTILLA, 2).version) == ("old", 1)
    with pytest.raises(AgentError, match="did you mean 'careful'"):
        resolve_agent(TORTILLA, 2, "carefull")
    with pytest.raises(AgentError, match="options are written NAME:KEY=VALUE"):
        resolve_agent(TORTILLA, 2, "careful:foo")  # an agent's name before ':' is never read as an import


# ---------------------------------------------------------------------- training
def test_training_accepts_any_agent_spec_as_teacher_and_opponent():
    from fiesta_envs.training.config import ConfigError, load_config

    config = load_config(SMOKE, ["pretrain={teacher: ppo, games: 2}", "opponents.baselines={ppo: 1.0}"])
    assert config.pretrain.teacher == "ppo" and config.pretrain_opponents == {"ppo": 1.0}
    assert load_config(SMOKE, ["pretrain={teacher: 'search:budget=4', games: 2}"]).pretrain.teacher
    with pytest.raises(ConfigError, match=r"pretrain\.teacher.*unknown agent 'ppo:x=1'|takes no options"):
        load_config(SMOKE, ["pretrain={teacher: 'ppo:x=1'}"])
    with pytest.raises(ConfigError, match=r"field 'opponents\.baselines'.*no shipped 'ppo' agent for 3 players"):
        load_config(SMOKE, ["num_players=3", "opponents.baselines={ppo: 1.0}"])


def test_the_shipped_agent_teaches_and_plays_as_a_training_opponent():
    pytest.importorskip("sb3_contrib")
    from fiesta_envs.training.config import load_config
    from fiesta_envs.training.pretrain import collect_decisions
    from fiesta_envs.training.train import env_factory

    config = load_config(SMOKE, ["pretrain={teacher: ppo, games: 2}", "opponents.baselines={ppo: 1.0}"])
    decisions = collect_decisions(config, env_factory(config, [], pretraining=True), seed=3)
    teacher = ShippedPolicy("fiesta_mexicana")
    env = env_factory(config, [], pretraining=True)().unwrapped
    observation, _ = env.reset(seed=0)
    assert teacher.act(observation, env.game.legal_mask(), env.game, env.seat) in np.flatnonzero(env.action_masks())
    assert len(decisions.actions) > 10 and decisions.masks[np.arange(len(decisions.actions)), decisions.actions].all()
    league_env = env_factory(config, [])().unwrapped
    assert isinstance(league_env.opponents[0].baselines["ppo"][0], ShippedPolicy)


# ---------------------------------------------------------------------- Python objects
def _last_legal(observation, action_mask):
    return int(np.flatnonzero(action_mask)[-1])


class _First(Policy):
    def act(self, observation, action_mask, game, player):
        return int(np.flatnonzero(action_mask)[0])


def _factory(seed=None):
    return _First(seed=seed)


def test_python_objects_become_policies():
    assert isinstance(make_policy("tortilla_de_patatas", _last_legal), CallablePolicy)
    assert isinstance(make_policy("tortilla_de_patatas", _First), _First)
    assert isinstance(make_policy("tortilla_de_patatas", _factory), _First)
    ready = _First()
    assert make_policy("tortilla_de_patatas", ready) is ready
    with pytest.raises(AgentError, match="takes \\(observation, action_mask\\)"):
        make_policy("tortilla_de_patatas", lambda observation: 0)
    with pytest.raises(AgentError, match="an agent must be"):
        make_policy("tortilla_de_patatas", 42)
