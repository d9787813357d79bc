"""Tianshou: every game's AEC environment as its ``PettingZooEnv``, played by masked random policies (one per
seat, ``MultiAgentOffPolicyAlgorithm``) through a ``Collector`` over two environments into a replay buffer --
which batches every step's info, so the end-of-game info must keep one shape."""

from __future__ import annotations

import numpy as np
import pytest
from integration_support import aec_env, games

pytestmark = pytest.mark.integration


@games()
def test_collector_plays_whole_games_into_a_replay_buffer(game):
    from tianshou.algorithm.multiagent.marl import MultiAgentOffPolicyAlgorithm
    from tianshou.algorithm.random import MARLRandomDiscreteMaskedOffPolicyAlgorithm
    from tianshou.data import Collector, VectorReplayBuffer
    from tianshou.env import DummyVectorEnv, PettingZooEnv

    def make() -> PettingZooEnv:
        return PettingZooEnv(aec_env(game))

    env = make()
    algorithm = MultiAgentOffPolicyAlgorithm(
        algorithms=[MARLRandomDiscreteMaskedOffPolicyAlgorithm(env.action_space) for _ in env.agents], env=env
    )
    buffer = VectorReplayBuffer(50_000, 2)
    collector = Collector(algorithm, DummyVectorEnv([make, make]), buffer)
    stats = collector.collect(n_episode=2, reset_before_collect=True)
    assert stats.n_collected_episodes == 2
    assert len(buffer) == stats.n_collected_steps > 0
    batch, _ = buffer.sample(0)
    assert np.all(batch.obs.mask[np.arange(len(batch)), batch.act]), "an action outside the mask was played"
    assert int(batch.terminated.sum()) == 2
    final = batch.info[batch.terminated]
    assert final.scores.shape[0] == 2 and final.winners.shape[0] == 2
