"""``RllibBackend``: RLlib's PPO on Ray (``backend: rllib``; ``training/rllib_train.py`` describes the run).

The learner and its frozen copies are RLlib modules (``training/rllib_module.py``) of one multi-agent PPO over
role-dealt games (``training/rllib_env.py``, built from ``role_env_config``). ``learn`` runs one training
iteration (at least ``n_steps x n_envs`` sampled steps) and logs it to ``rllib_progress.jsonl``; ``snapshot``
copies the learner into the oldest frozen module, on the learner group and synchronously on every env runner;
checkpoints are policy-only (``policy.npz``) plus RLlib's own state in ``rllib/``, what a resume restores.
"""

from __future__ import annotations

import functools
import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from fiesta_envs.evaluation.checkpoints import CheckpointError
from fiesta_envs.policies.mlp import ActorSnapshot
from fiesta_envs.training.checkpoint import save_policy_checkpoint
from fiesta_envs.training.config import ConfigError, TrainConfig
from fiesta_envs.training.envs import role_env_config
from fiesta_envs.training.rllib_env import LEARNER_MODULE, frozen_module_ids, make_rllib_env, module_for_agent

if TYPE_CHECKING:
    from fiesta_envs.training.progress import ProgressBar

ENV_NAME = "fiesta_envs_roles"
RLLIB_STATE_DIR = "rllib"
PROGRESS_LOG = "rllib_progress.jsonl"


def ray_address(config: TrainConfig) -> str | None:
    """The address given to ``ray.init``: the config's, else ``RAY_ADDRESS`` (None: Ray reads it itself)."""
    return config.rllib.address


def algorithm_config(config: TrainConfig) -> Any:
    """RLlib's ``PPOConfig`` for a training config (``training/rllib_train.py`` gives the mapping)."""
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec

    from fiesta_envs.training.rllib_module import MaskedActorCritic

    ppo, pool = config.ppo, config.opponents.self_play.pool_size
    module_ids = [LEARNER_MODULE, *frozen_module_ids(pool)]
    model_config = {"hidden": list(ppo.net_arch), "activation": ppo.activation}
    kl = {"use_kl_loss": True, "kl_target": ppo.target_kl} if ppo.target_kl else {"use_kl_loss": False}
    return (
        PPOConfig()
        .environment(ENV_NAME, env_config=role_env_config(config), disable_env_checking=True)  # unmasked actions
        .framework("torch")
        .env_runners(
            num_env_runners=config.rllib.num_env_runners,
            num_envs_per_env_runner=config.n_envs,
            num_cpus_per_env_runner=config.rllib.num_cpus_per_env_runner,
            rollout_fragment_length="auto",
        )
        .training(
            lr=ppo.learning_rate,
            gamma=ppo.gamma,
            lambda_=ppo.gae_lambda,
            clip_param=ppo.clip_range,
            entropy_coeff=ppo.ent_coef,
            vf_loss_coeff=ppo.vf_coef,
            grad_clip=ppo.max_grad_norm,
            train_batch_size_per_learner=config.rollout_size,
            minibatch_size=ppo.batch_size,
            num_epochs=ppo.n_epochs,
            vf_clip_param=float("inf"),
            **kl,
        )
        .multi_agent(
            policies=set(module_ids),
            policy_mapping_fn=functools.partial(module_for_agent, pool_size=pool),
            policies_to_train=[LEARNER_MODULE],
        )
        .rl_module(
            rl_module_spec=MultiRLModuleSpec(
                rl_module_specs={
                    module_id: RLModuleSpec(module_class=MaskedActorCritic, model_config=model_config)
                    for module_id in module_ids
                }
            )
        )
        .debugging(seed=config.seed)
    )


class RllibBackend:
    """RLlib's PPO with a pool of frozen modules (see the module docstring)."""

    algorithm = "RLlib PPO"
    label = "RLlib"
    schedule_unit = 1  # an iteration samples at least a rollout: events happen at the first one that reaches them

    def __init__(self, config: TrainConfig, run_dir: Path, note: Callable[[str], None]) -> None:
        if config.backend != "rllib":
            raise ValueError(f"RllibBackend needs backend: rllib, not {config.backend!r}")
        if config.shortlist:
            raise ConfigError("shortlist: the rllib backend plays the game's actions; set `shortlist: false`")
        self.config = config
        self.run_dir = Path(run_dir)
        self.note = note
        self.pool = frozen_module_ids(config.opponents.self_play.pool_size)
        self.algo: Any = None
        self.snapshots_taken = 0
        self._started_ray = False

    def describe(self) -> str:
        return f"on RLlib with {self.config.rllib.num_env_runners} env runner(s) x {self.config.n_envs} env(s)"

    # -- start and close ---------------------------------------------------------------------
    def start(self, checkpoint: Path | None, meta: dict[str, Any] | None) -> int:
        import ray
        from ray.tune.registry import register_env

        self._started_ray = not ray.is_initialized()
        if self._started_ray:
            ray.init(address=ray_address(self.config), include_dashboard=False, log_to_driver=False)
        register_env(ENV_NAME, make_rllib_env)
        self.algo = algorithm_config(self.config).build_algo()
        if checkpoint is not None and meta is not None:
            state = Path(meta["path"]) / RLLIB_STATE_DIR
            if meta.get("backend") != "rllib" or not state.is_dir():
                raise CheckpointError(f"checkpoint {checkpoint} was not written by the rllib backend (no {state})")
            self.algo.restore_from_path(str(state.resolve()))
            self.snapshots_taken = int(meta.get("snapshots_taken", 0))
            return int(meta["step"])
        (self.run_dir / PROGRESS_LOG).unlink(missing_ok=True)
        for module_id in self.pool:  # the pool starts as copies of the initial network
            self._copy_learner_to(module_id)
        return 0

    def close(self) -> None:
        import ray

        if self.algo is not None:
            self.algo.stop()
            self.algo = None
        if self._started_ray:
            ray.shutdown()
            self._started_ray = False

    # -- training ----------------------------------------------------------------------------
    def learn(self, start: int, stop: int, bar: ProgressBar) -> int:
        """One training iteration (``stop`` is not a bound: RLlib samples whole batches)."""
        started = time.perf_counter()
        result = self.algo.train()
        step = sampled_steps(result)
        self._log_progress(result, step, step - start, time.perf_counter() - started, bar)
        return step

    def _log_progress(self, result: dict[str, Any], step: int, steps: int, seconds: float, bar: ProgressBar) -> None:
        record = {
            "step": step,
            "seconds": round(seconds, 3),
            "steps_per_second": round(steps / seconds, 1) if seconds > 0 else None,
            "learner_return_mean": learner_return(result),
        }
        with open(self.run_dir / PROGRESS_LOG, "a", encoding="utf-8") as handle:
            handle.write(json.dumps(record) + "\n")
        if record["learner_return_mean"] is not None:
            bar.show(reward=f"{record['learner_return_mean']:+.2f}")

    # -- weights -----------------------------------------------------------------------------
    def learner_state(self) -> dict[str, Any]:
        """The learner module's weights (numpy arrays) as the learner group holds them."""
        from ray.rllib.utils.numpy import convert_to_numpy

        weights = self.algo.learner_group.get_weights(module_ids=[LEARNER_MODULE])
        return convert_to_numpy(weights[LEARNER_MODULE])

    def actor(self) -> ActorSnapshot:
        return actor_from_state(self.learner_state(), self.config.ppo.activation)

    def snapshot(self, step: int) -> None:
        """The learner's weights replace the oldest frozen module's."""
        self._copy_learner_to(self.pool[self.snapshots_taken % len(self.pool)])
        self.snapshots_taken += 1

    def _copy_learner_to(self, module_id: str) -> None:
        """Put the learner's current weights into the frozen module ``module_id`` everywhere it lives."""
        state = self.learner_state()
        self.algo.learner_group.set_weights({module_id: state})
        # synchronously on every env runner (RLlib's sync_weights only queues the update): the next games must
        # meet the new copy
        self.algo.env_runner_group.foreach_env_runner(
            functools.partial(_set_module_state, module_id=module_id, state=state), local_env_runner=True
        )

    # -- checkpoints and logs ----------------------------------------------------------------
    def checkpoint_fields(self, step: int) -> dict[str, Any]:
        return {"algorithm": self.algorithm, "backend": "rllib", "snapshots_taken": self.snapshots_taken}

    def save_checkpoint(self, step: int, meta: dict[str, Any]) -> Path:
        """``policy.npz`` of the learner's actor, and RLlib's whole state in ``rllib/``."""

        def rllib_state(directory: Path) -> None:
            self.algo.save_to_path(str((directory / RLLIB_STATE_DIR).resolve()))

        return save_policy_checkpoint(self.actor(), self.run_dir, step, meta, rllib_state)

    def log_scalars(self, step: int, scalars: dict[str, float]) -> None:
        """Nothing: RLlib keeps its own metrics, and the evaluations are in ``eval.jsonl``."""


def actor_from_state(state: dict[str, Any], activation: str) -> ActorSnapshot:
    """The actor of a ``MaskedActorCritic`` state dict (tensors or arrays, keys ``actor.<i>.weight|bias``) as an
    ``ActorSnapshot``: the same logits for every observation, with numpy alone."""

    def array(value: Any) -> np.ndarray:
        return np.asarray(value.detach().cpu().numpy() if hasattr(value, "detach") else value, dtype=np.float32)

    indices = sorted({int(key.split(".")[1]) for key in state if key.startswith("actor.") and key.endswith(".weight")})
    if not indices:
        raise ValueError(f"no actor layers in the module state (keys: {sorted(state)[:6]} ...)")
    weights = [array(state[f"actor.{i}.weight"]).T for i in indices]
    biases = [array(state[f"actor.{i}.bias"]) for i in indices]
    return ActorSnapshot(weights, biases, [activation] * (len(indices) - 1) + ["identity"])


def _set_module_state(runner: Any, module_id: str, state: dict[str, Any]) -> None:
    """Run on an env runner: load ``state`` into its module ``module_id``."""
    runner.module[module_id].set_state(state)


def sampled_steps(result: dict[str, Any]) -> int:
    """Environment steps sampled since the run began, from an RLlib result."""
    from ray.rllib.utils.metrics import ENV_RUNNER_RESULTS, NUM_ENV_STEPS_SAMPLED_LIFETIME

    value = result.get(NUM_ENV_STEPS_SAMPLED_LIFETIME)
    if value is None:
        value = result[ENV_RUNNER_RESULTS][NUM_ENV_STEPS_SAMPLED_LIFETIME]
    return int(value)


def learner_return(result: dict[str, Any]) -> float | None:
    """The learner's mean episode return in this iteration's finished games (None if none finished)."""
    from ray.rllib.utils.metrics import ENV_RUNNER_RESULTS

    value = result.get(ENV_RUNNER_RESULTS, {}).get("module_episode_returns_mean", {}).get(LEARNER_MODULE)
    return None if value is None else round(float(value), 4)
