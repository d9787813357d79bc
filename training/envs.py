"""The environments a training run learns in, built in one place for both backends.

* ``learner_stack``: what every single-seat training environment wears, in this order: the game's shortlist
  (``shortlist``: the learner chooses among candidates), potential-based score shaping (``reward_shaping``),
  and stable-baselines3's ``Monitor`` (episode returns and lengths);
* ``_build_env`` / ``env_factory`` / ``make_vec_env``: stable-baselines3's environments -- a ``LeagueEnv``
  (every other seat an ``OpponentMix`` of baselines and past selves), or for cooperative games with
  ``team_play: shared`` a ``TeamEnv`` (the learner plays every seat), each in ``learner_stack``;
* ``role_env_config``: what RLlib's sampling actors build their role-dealt games from (``training/rllib_env.py``:
  the frozen copies of the learner are RLlib modules there, not policies inside the environment, and the
  backend refuses ``shortlist`` and ``reward_shaping``).
"""

from __future__ import annotations

import functools
import sys
from typing import TYPE_CHECKING, Any

from fiesta_envs.training.league import LeagueEnv, OpponentMix

if TYPE_CHECKING:
    from fiesta_envs.training.config import TrainConfig


def learner_stack(env: Any, game: Any, shortlist: int | None, reward_shaping: float, gamma: float) -> Any:
    """``env`` (single seat or team) with the learner's wrappers: the shortlist of ``game`` (version
    ``shortlist``; None: the game's actions), score shaping when ``reward_shaping > 0``, then ``Monitor``."""
    from stable_baselines3.common.monitor import Monitor

    from fiesta_envs.policies.shortlist import ShortlistEnv, shortlist_of

    if shortlist is not None:
        env = ShortlistEnv(env, shortlist_of(game, shortlist))
    if reward_shaping > 0:
        from fiesta_envs.training.shaping import ScoreShaping

        env = ScoreShaping(env, reward_shaping, gamma)
    return Monitor(env)


def _build_env(
    *,
    game: str,
    num_players: int,
    options: dict[str, Any],
    baselines: dict[str, float],
    self_play_weight: float,
    deterministic_members: bool,
    cooperative: bool,
    members: list[str],
    reward_shaping: float = 0.0,
    gamma: float = 0.99,
    team_play: str = "frozen",
    shortlist: int | None = None,
) -> Any:
    """One training environment (module level so that worker processes can build it); ``shortlist``: the version
    of the game's shortlist the learner chooses among (None: the game's actions)."""
    if "torch" in sys.modules:  # one thread per worker: n_envs workers share the machine's cores
        sys.modules["torch"].set_num_threads(1)
    from fiesta_envs.registry import game_spec, make_gym_env, make_policy

    if cooperative and team_play == "shared":  # one policy plays every seat: every decision trains it
        from fiesta_envs.envs.team_env import TeamEnv

        team = TeamEnv(game_spec(game).game_class(), num_players=num_players, **options)
        return learner_stack(team, team.game, shortlist, reward_shaping, gamma)

    def opponent(name: str) -> Any:  # any agent spec (fiesta_envs/agents/registry.py), checked for this game
        return make_policy(game, name, num_players=num_players, options=options)

    opponents = [
        OpponentMix(
            {name: (opponent(name), weight) for name, weight in baselines.items()},
            self_play_weight=1.0 if cooperative else self_play_weight,
            deterministic_members=deterministic_members,
            latest_only=cooperative,
        )
        for _ in range(num_players - 1)
    ]
    env = LeagueEnv(make_gym_env(game, num_players=num_players, opponents=opponents, seat=None, **options))
    env.set_league(members)
    return learner_stack(env, env.unwrapped.game, shortlist, reward_shaping, gamma)


def env_factory(config: TrainConfig, members: list[str], pretraining: bool = False) -> Any:
    """A picklable function that builds one training environment; with ``pretraining``, the one the
    teacher's games are collected in (its opponents are ``pretrain.opponents``, no league)."""
    return functools.partial(
        _build_env,
        game=config.game,
        num_players=config.num_players,
        options=dict(config.options),
        baselines=config.pretrain_opponents if pretraining else dict(config.opponents.baselines),
        self_play_weight=0.0 if pretraining else config.opponents.self_play.weight,
        deterministic_members=config.opponents.self_play.deterministic,
        cooperative=False if pretraining else config.cooperative(),
        members=[] if pretraining else list(members),
        reward_shaping=config.reward_shaping,
        gamma=config.ppo.gamma,
        team_play=config.team_play,
        shortlist=config.shortlist_in_use,
    )


def make_vec_env(config: TrainConfig, members: list[str]) -> Any:
    """``n_envs`` training environments: in this process with ``vec_env: dummy`` (or one environment), else one
    worker process each."""
    from stable_baselines3.common.vec_env import SubprocVecEnv

    from fiesta_envs.training.lean_vec_env import LeanDummyVecEnv

    factory = env_factory(config, members)
    if config.n_envs == 1 or config.vec_env == "dummy":
        return LeanDummyVecEnv([factory] * config.n_envs)
    return SubprocVecEnv([factory] * config.n_envs, start_method="forkserver")


def role_env_config(config: TrainConfig) -> dict[str, Any]:
    """What every RLlib sampling actor builds its ``RoleDealtGame`` from (plain data: it travels to the cluster)."""
    shared = config.cooperative() and config.team_play == "shared"
    frozen_team = config.cooperative() and config.team_play == "frozen"
    return {
        "game": config.game,
        "num_players": config.num_players,
        "options": dict(config.options),
        "baselines": {} if config.cooperative() else dict(config.opponents.baselines),
        "self_play_weight": 1.0 if frozen_team else float(config.opponents.self_play.weight),
        "shared": shared,
    }
