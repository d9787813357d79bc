"""policies.policy.VersionedPolicy: a scripted player's versions as an agent option, the last one by default."""

from __future__ import annotations

import pytest

from fiesta_envs.core.errors import InvalidOptionError
from fiesta_envs.policies.policy import VersionedPolicy, make_named_policy, parse_agent_spec


class Toy(VersionedPolicy):
    versions = (1, 2, 3)


def test_the_last_version_is_the_default_and_an_earlier_one_is_an_agent_option():
    assert Toy(seed=0).version == 3
    name, options = parse_agent_spec("toy:version=1")
    assert make_named_policy("game", name, Toy, options, seed=0).version == 1
    assert Toy.agent_options()["version"].choices == (1, 2, 3)


def test_an_unknown_version_is_refused_naming_the_allowed_ones():
    with pytest.raises(InvalidOptionError, match="allowed values: 1, 2, 3"):
        make_named_policy("game", "toy", Toy, {"version": 4}, seed=0)
    with pytest.raises(InvalidOptionError, match="version=0 is not allowed; allowed: 1, 2, 3"):
        Toy(version=0)
