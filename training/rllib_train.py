"""``fiesta train --backend rllib``: PPO on Ray RLlib's multi-agent API, on one machine or a Ray cluster.

    fiesta train --backend rllib --config configs/fiesta_mexicana/ppo_rllib.yaml
    RAY_ADDRESS=ray://head:10001 fiesta train --backend rllib --config configs/fiesta_mexicana/ppo_rllib.yaml

The same YAML config as the stable-baselines3 backend (``training/config.py``), read the same way:

* the environment is ``training/rllib_env.py``: each game deals the seats to roles -- ``learner``, frozen
  copies of it (``opponent_k``), scripted baselines played inside the environment -- by
  ``opponents.baselines`` and ``opponents.self_play.weight``; cooperative games with ``team_play: shared``
  put the learner in every seat;
* the modules are ``training/rllib_module.py`` (masked actor, critic): ``learner`` is trained; the frozen
  copies ``frozen_0 .. frozen_{pool_size-1}`` are not (``policies_to_train``); every
  ``opponents.self_play.snapshot_every`` steps the learner's weights replace the oldest of them (a pool of
  the last ``pool_size`` snapshots; at the start all hold the initial network);
* ``ppo`` maps onto RLlib's PPO: ``n_steps x n_envs`` is ``train_batch_size_per_learner`` (steps between two
  updates), ``batch_size`` the minibatch, ``n_epochs``, ``learning_rate``, ``gamma``, ``gae_lambda``,
  ``clip_range``, ``ent_coef``, ``vf_coef``, ``max_grad_norm``, ``target_kl`` (RLlib's KL target; none: no KL
  loss), ``net_arch`` and ``activation``; ``n_envs`` environments per env runner;
* ``rllib``: ``num_env_runners`` (Ray actors that sample; 0 samples in this process),
  ``num_cpus_per_env_runner`` and ``address`` (none: the cluster in ``RAY_ADDRESS``, else a new local Ray
  instance; ``local``; ``auto``; ``host:port``; ``ray://host:port``).

Checkpoints have the layout of the other backend without ``model.zip`` (``save_policy_checkpoint``):
``policy.npz`` (the learner's actor as an ``ActorSnapshot``), ``meta.json``, ``config.yaml``, and RLlib's own
state in ``rllib/`` (what ``--resume`` restores). So ``fiesta evaluate --agents ppo=RUN_DIR`` and ``fiesta
play --opponents RUN_DIR`` use them without Ray, torch or pickle. Periodic and final evaluations are the
usual seat-rotated tables against the baselines (``eval``, ``final_eval``).

Not reproduced from the stable-baselines3 backend: behaviour cloning (``pretrain``), reward shaping, and
bit-for-bit repeatability (RLlib's sampling actors run asynchronously; a run with one seed is statistically,
not exactly, repeatable). Steps are environment steps of the network seats (the learner's and its frozen
copies'); an iteration samples at least ``n_steps x n_envs`` of them, so events happen at the first
iteration that reaches their step.
"""

from __future__ import annotations

import functools
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from fiesta_envs.core.mlp import ActorSnapshot
from fiesta_envs.core.wording import players
from fiesta_envs.evaluation.checkpoints import CheckpointError, check_compatible, latest_checkpoint, read_meta
from fiesta_envs.training.checkpoint import save_policy_checkpoint
from fiesta_envs.training.config import TrainConfig, checkpoint_meta, save_config
from fiesta_envs.training.rllib_env import LEARNER_MODULE, frozen_module_ids, make_rllib_env, module_for_agent

ENV_NAME = "fiesta_envs_roles"
RLLIB_STATE_DIR = "rllib"
PROGRESS_LOG = "rllib_progress.jsonl"


def ray_address(config: TrainConfig) -> str | None:
    """The address given to ``ray.init``: the config's, else ``RAY_ADDRESS`` (None: Ray reads it itself)."""
    return config.rllib.address


def env_config(config: TrainConfig) -> dict[str, Any]:
    """What every sampling actor builds its environments from (plain data: it travels to the cluster)."""
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


def algorithm_config(config: TrainConfig) -> Any:
    """RLlib's ``PPOConfig`` for a training config (see the module docstring for the mapping)."""
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
        .environment(ENV_NAME, env_config=env_config(config), disable_env_checking=True)  # it plays unmasked actions
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


class RllibTrainer:
    """One training run on RLlib (the module docstring says what it does)."""

    def __init__(self, config: TrainConfig, run_dir: Path, resume: bool = False, progress: bool = True) -> None:
        if config.backend != "rllib":
            raise ValueError(f"RllibTrainer needs backend: rllib, not {config.backend!r}")
        self.config = config
        self.run_dir = Path(run_dir)
        self.resume = resume
        self.progress = progress and config.progress_bar
        self.pool = frozen_module_ids(config.opponents.self_play.pool_size)
        self.algo: Any = None
        self.snapshots_taken = 0
        self.step = 0

    # -- the run -------------------------------------------------------------------------
    def run(self) -> Any:
        import ray
        from ray.tune.registry import register_env

        self.run_dir.mkdir(parents=True, exist_ok=True)
        started_ray = not ray.is_initialized()
        if started_ray:
            ray.init(address=ray_address(self.config), include_dashboard=False, log_to_driver=False)
        try:
            register_env(ENV_NAME, make_rllib_env)
            self.algo = algorithm_config(self.config).build_algo()
            self._start()
            self._train()
            return self._final_evaluation()
        finally:
            if self.algo is not None:
                self.algo.stop()
            if started_ray:
                ray.shutdown()

    def _start(self) -> None:
        if self.resume:
            checkpoint = latest_checkpoint(self.run_dir)
            meta = read_meta(checkpoint)
            check_compatible(meta, self.config.game, self.config.num_players)
            state = Path(meta["path"]) / RLLIB_STATE_DIR
            if meta.get("backend") != "rllib" or not state.is_dir():
                raise CheckpointError(f"checkpoint {checkpoint} was not written by the rllib backend (no {state})")
            self.algo.restore_from_path(str(state.resolve()))
            self.step = int(meta["step"])
            self.snapshots_taken = int(meta.get("snapshots_taken", 0))
            self._note(f"resuming {self.run_dir} from step {self.step:,} ({checkpoint.name})")
            return
        save_config(self.config, self.run_dir / "config.yaml")
        (self.run_dir / PROGRESS_LOG).unlink(missing_ok=True)
        for module_id in self.pool:  # the pool starts as copies of the initial network
            self._copy_learner_to(module_id)
        self._note(
            f"training {self.config.game} ({players(self.config.num_players)}) on RLlib for "
            f"{self.config.total_timesteps:,} steps with {self.config.rllib.num_env_runners} env runner(s) x "
            f"{self.config.n_envs} env(s); run directory {self.run_dir}"
        )

    def _train(self) -> None:
        config = self.config
        every_snapshot = config.opponents.self_play.snapshot_every
        every_eval, every_checkpoint = config.eval.every, config.checkpoint_every
        uses_pool = config.opponents.self_play.weight > 0 or (config.cooperative() and config.team_play == "frozen")
        while self.step < config.total_timesteps:
            before, started = self.step, time.perf_counter()
            result = self.algo.train()
            self.step = sampled_steps(result)
            seconds = time.perf_counter() - started
            self._log_progress(result, self.step - before, seconds)
            if uses_pool and crossed(before, self.step, every_snapshot):
                self._copy_learner_to(self.pool[self.snapshots_taken % len(self.pool)])
                self.snapshots_taken += 1
            if every_eval and crossed(before, self.step, every_eval):
                self._periodic_evaluation()
            if crossed(before, self.step, every_checkpoint) or self.step >= config.total_timesteps:
                path = self.save()
                self._note(f"step {self.step:,}: checkpoint {path}")

    # -- weights -------------------------------------------------------------------------
    def learner_state(self) -> dict[str, Any]:
        """The learner module's weights (numpy arrays) as the learner group holds them."""
        from ray.rllib.utils.numpy import convert_to_numpy

        weights = self.algo.learner_group.get_weights(module_ids=[LEARNER_MODULE])
        return convert_to_numpy(weights[LEARNER_MODULE])

    def actor(self) -> ActorSnapshot:
        return actor_from_state(self.learner_state(), self.config.ppo.activation)

    def _copy_learner_to(self, module_id: str) -> None:
        """Put the learner's current weights into the frozen module ``module_id`` everywhere it lives."""
        state = self.learner_state()
        self.algo.learner_group.set_weights({module_id: state})
        # synchronously on every env runner (RLlib's sync_weights only queues the update): the next games must
        # meet the new copy
        self.algo.env_runner_group.foreach_env_runner(
            functools.partial(_set_module_state, module_id=module_id, state=state), local_env_runner=True
        )

    # -- checkpoints and evaluation -----------------------------------------------------------
    def save(self) -> Path:
        def rllib_state(directory: Path) -> None:
            self.algo.save_to_path(str((directory / RLLIB_STATE_DIR).resolve()))

        return save_policy_checkpoint(self.actor(), self.run_dir, self.step, self._meta(), rllib_state)

    def _meta(self) -> dict[str, Any]:
        config = self.config
        return {
            **checkpoint_meta(config),
            "algorithm": "RLlib PPO",
            "backend": "rllib",
            "snapshots_taken": self.snapshots_taken,
        }

    def _evaluate(self, names: list[str], games: int, seed: int, workers: int = 1) -> Any:
        from fiesta_envs.training.league import FrozenPolicy
        from fiesta_envs.training.run_eval import evaluate, run_seed

        config = self.config
        baselines = config.eval_baselines(names)
        agent = FrozenPolicy(self.actor(), deterministic=True, name="learner")
        return evaluate(config, agent, baselines, games, run_seed(config.seed, seed, "eval"), workers=workers)

    def _periodic_evaluation(self) -> None:
        from fiesta_envs.training.run_eval import EVAL_LOG, summarise

        rates = summarise(self._evaluate(self.config.eval.baselines, self.config.eval.games, self.step))
        with open(self.run_dir / EVAL_LOG, "a", encoding="utf-8") as handle:
            handle.write(json.dumps({"step": self.step, "win_rate": rates}) + "\n")
        self._note(f"step {self.step:,}: win rate vs " + " ".join(f"{n} {r:.0%}" for n, r in rates.items()))

    def _final_evaluation(self) -> Any:
        from fiesta_envs.training.run_eval import FINAL_EVAL, print_table, summarise

        config = self.config
        if config.final_eval.games == 0:
            return []
        results = self._evaluate(
            config.final_eval.baselines, config.final_eval.games, config.total_timesteps + 1, config.final_eval.workers
        )
        checkpoint = latest_checkpoint(self.run_dir)
        title = f"{config.game}, {players(config.num_players)} (RLlib): {checkpoint} against the baselines"
        print_table(results, title)
        (self.run_dir / FINAL_EVAL).write_text(
            json.dumps({"step": self.step, "checkpoint": str(checkpoint), "win_rate": summarise(results)}, indent=2),
            encoding="utf-8",
        )
        return results

    def _log_progress(self, result: dict[str, Any], steps: int, seconds: float) -> None:
        record = {
            "step": self.step,
            "seconds": round(seconds, 3),
            "steps_per_second": round(steps / seconds, 1) if seconds > 0 else None,
            "learner_return_mean": learner_return(result),
        }
        with open(self.run_dir / PROGRESS_LOG, "a", encoding="utf-8") as handle:
            handle.write(json.dumps(record) + "\n")
        if self.progress:
            self._note(
                f"step {self.step:,}/{self.config.total_timesteps:,}: {record['steps_per_second']} steps/s, "
                f"learner return {record['learner_return_mean']}"
            )

    def _note(self, text: str) -> None:
        print(text, file=sys.stderr, flush=True)


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


def crossed(before: int, after: int, every: int) -> bool:
    """Whether a multiple of ``every`` lies in ``(before, after]``."""
    return every > 0 and after // every > before // every


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


def run_rllib(config: TrainConfig, run_dir: Path, resume: bool, progress: bool) -> Any:
    """What ``fiesta train`` calls for ``backend: rllib``."""
    os.environ.setdefault("RAY_DEDUP_LOGS", "0")
    return RllibTrainer(config, run_dir, resume=resume, progress=progress).run()
