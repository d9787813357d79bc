"""Checkpoints of a training run as the evaluation reads them: found, checked, usable as a policy.

A run directory holds its checkpoints like this (``fiesta_envs.training.checkpoint`` writes them)::

    run_dir/checkpoints/
        step_000020480/   model.zip   MaskablePPO with its optimiser, to resume training (pickled: see below)
                          policy.npz  the actor network alone, as plain arrays (``fiesta_envs.policies.mlp``)
                          meta.json   config.yaml
        step_000040960/   ...
        latest            the name of the newest complete checkpoint ("step_000040960")

A run of the RLlib backend (``backend: rllib``) writes the same layout without ``model.zip``: its
``meta.json`` has ``"sha256": null`` and ``"backend": "rllib"``, its ``policy.npz`` is the actor of the trained
RLModule, and RLlib's own training state lies in ``rllib/`` beside them (for ``fiesta train --resume``). Such
a *policy-only* checkpoint evaluates and plays like any other.

``meta.json`` records the game, player count and options, the step, the seed, the whole config, the
versions of fiesta_envs and the learning libraries, and the SHA-256 of ``model.zip`` and ``policy.npz``;
``read_meta`` checks them, so a truncated or altered file is refused with a clear message instead of an
obscure error from deep inside ``zipfile`` or ``torch``.

**Pickle-free by default.** A stable-baselines3 ``model.zip`` stores Python objects with pickle, and
unpickling a file can run any code its author put in it. So evaluating or playing a checkpoint
(``CheckpointPolicy``) reads only ``policy.npz`` (numpy, ``allow_pickle=False``; no torch needed). A
checkpoint without one (written by an older fiesta_envs, or a bare SB3 zip) is refused unless the caller
says it is trusted (``trust_pickle=True``; ``--trust-checkpoint`` on the command line). Only
``fiesta train --resume`` unpickles ``model.zip`` without asking: it resumes the user's own run.

``CheckpointPolicy`` refuses a checkpoint trained for another game or player count.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from fiesta_envs.core.errors import FiestaError
from fiesta_envs.core.wording import players
from fiesta_envs.files.saved_files import read_json_object, sha256_of
from fiesta_envs.policies.actor_policy import ActorPolicy
from fiesta_envs.policies.mlp import ActorSnapshot, masked_choice
from fiesta_envs.policies.shortlist import shortlist_of, shortlist_version_of

if TYPE_CHECKING:
    from fiesta_envs.core.game import Game

#: Bumped when the layout of a checkpoint changes; older formats are refused with a message.
FORMAT_VERSION = 1
CHECKPOINTS_DIR = "checkpoints"
LATEST_FILE = "latest"
MODEL_FILE = "model.zip"
POLICY_FILE = "policy.npz"
META_FILE = "meta.json"
CONFIG_FILE = "config.yaml"
STEP_PREFIX = "step_"
TEMP_PREFIX = ".tmp-"  # temporary files and folders of a checkpoint being written
_REQUIRED_META = ("format_version", "game", "num_players", "options", "step", "sha256")


class CheckpointError(FiestaError, ValueError):
    """A checkpoint that is missing, corrupt or truncated, of another game, or of an unknown format."""


class UntrustedCheckpointError(CheckpointError):
    """A checkpoint that can only be loaded by unpickling, which the caller has not allowed."""


# ---------------------------------------------------------------------------------- finding
def _is_complete(directory: Path) -> bool:
    """Meta and a network: ``model.zip`` (stable-baselines3), or ``policy.npz`` alone (a policy-only checkpoint)."""
    has_network = (directory / MODEL_FILE).is_file() or (directory / POLICY_FILE).is_file()
    return has_network and (directory / META_FILE).is_file()


def list_checkpoints(run_dir: Path) -> list[Path]:
    """Complete checkpoint directories of a run, oldest first."""
    checkpoints = Path(run_dir) / CHECKPOINTS_DIR
    if not checkpoints.is_dir():
        return []
    found = [p for p in checkpoints.glob(f"{STEP_PREFIX}*") if p.is_dir() and _is_complete(p)]
    return sorted(found, key=lambda p: p.name)


def latest_checkpoint(run_dir: Path) -> Path | None:
    """The newest complete checkpoint of a run (the one ``latest`` names), or None if there is none."""
    checkpoints = Path(run_dir) / CHECKPOINTS_DIR
    latest = checkpoints / LATEST_FILE
    if latest.is_file():
        name = latest.read_text(encoding="utf-8").strip()
        candidate = checkpoints / name
        if name.startswith(STEP_PREFIX) and "/" not in name and candidate.is_dir() and _is_complete(candidate):
            return candidate
    found = list_checkpoints(run_dir)  # ``latest`` missing or stale: fall back on the newest directory
    return found[-1] if found else None


def resolve_checkpoint(path: Path | str) -> Path:
    """A checkpoint directory from a checkpoint dir, a run dir (its latest) or a ``model.zip``/``meta.json``."""
    path = Path(path)
    if not path.exists():
        raise CheckpointError(f"checkpoint not found: {path} does not exist")
    if path.is_file() and path.name in (MODEL_FILE, META_FILE, CONFIG_FILE):
        path = path.parent
    if path.is_file():
        raise CheckpointError(
            f"{path} is a file; give a checkpoint directory (containing {MODEL_FILE} and {META_FILE}) "
            "or a run directory"
        )
    if (path / META_FILE).exists() or (path / MODEL_FILE).exists():
        return path
    if (path / CHECKPOINTS_DIR).is_dir() or path.name == CHECKPOINTS_DIR:
        run_dir = path.parent if path.name == CHECKPOINTS_DIR else path
        found = latest_checkpoint(run_dir)
        if found is None:
            raise CheckpointError(f"the run directory {run_dir} has no complete checkpoint yet")
        return found
    raise CheckpointError(
        f"{path} is neither a checkpoint directory (with {MODEL_FILE} and {META_FILE}) nor a run directory "
        f"(with a {CHECKPOINTS_DIR}/ folder)"
    )


# ---------------------------------------------------------------------------------- reading
def read_meta(path: Path | str, verify: bool = True) -> dict:
    """The validated ``meta.json`` of a checkpoint (a run dir means its latest checkpoint).

    Checks the format version, the required fields and, unless ``verify=False``, that
    ``model.zip`` still has the SHA-256 recorded when it was written.
    """
    directory = resolve_checkpoint(path)
    meta_path, model_path = directory / META_FILE, directory / MODEL_FILE
    if not meta_path.is_file():
        raise CheckpointError(f"incomplete checkpoint {directory}: {META_FILE} is missing")
    meta = read_json_object(
        meta_path,
        required=_REQUIRED_META,
        corrupt=lambda problem: CheckpointError(f"corrupt checkpoint {directory}: {META_FILE} {problem}"),
    )
    if meta["format_version"] != FORMAT_VERSION:
        raise CheckpointError(
            f"checkpoint {directory} has format version {meta['format_version']!r}; this fiesta_envs reads "
            f"version {FORMAT_VERSION} only (written by fiesta_envs {meta.get('fiesta_envs_version', '?')})"
        )
    if not isinstance(meta["num_players"], int) or not isinstance(meta["game"], str):
        raise CheckpointError(f"corrupt checkpoint {directory}: 'game' must be a string and 'num_players' an int")
    policy_only = meta["sha256"] is None  # no model.zip: the RLlib backend's checkpoints
    if policy_only and "policy_sha256" not in meta:
        raise CheckpointError(
            f"corrupt checkpoint {directory}: {META_FILE} records neither {MODEL_FILE} nor {POLICY_FILE}"
        )
    if not policy_only and not model_path.is_file():
        raise CheckpointError(f"incomplete checkpoint {directory}: {MODEL_FILE} is missing")
    if verify:
        if not policy_only:
            _check_hash(directory, MODEL_FILE, meta["sha256"])
        if "policy_sha256" in meta:
            if not (directory / POLICY_FILE).is_file():
                raise CheckpointError(f"incomplete checkpoint {directory}: {POLICY_FILE} is missing")
            _check_hash(directory, POLICY_FILE, meta["policy_sha256"])
    meta["path"] = str(directory)
    return meta


def _check_hash(directory: Path, name: str, recorded: Any) -> None:
    path = directory / name
    if sha256_of(path) != recorded:
        raise CheckpointError(
            f"corrupt or truncated checkpoint {directory}: {name} ({path.stat().st_size} bytes) does not match "
            f"the SHA-256 recorded in {META_FILE}; use an earlier checkpoint"
        )


def has_policy_file(meta: Mapping[str, Any]) -> bool:
    """Whether a checkpoint (its ``read_meta``) holds a pickle-free ``policy.npz``."""
    return "policy_sha256" in meta and (Path(meta["path"]) / POLICY_FILE).is_file()


def untrusted_message(where: Any) -> str:
    return (
        f"checkpoint {where} has no pickle-free {POLICY_FILE} (it was written by an older fiesta_envs, or is a "
        f"bare stable-baselines3 archive); loading its {MODEL_FILE} unpickles Python objects, which can run any "
        "code its author put in it. Load it only if you trust where it came from: pass --trust-checkpoint "
        "(Python: trust_pickle=True)"
    )


def load_actor(path: Path | str, trust_pickle: bool = False) -> ActorSnapshot:
    """The actor network of a checkpoint as numpy arrays: from ``policy.npz``, never unpickling anything,
    or (only with ``trust_pickle=True``) copied out of ``model.zip`` for checkpoints that have no ``policy.npz``.
    """
    meta = read_meta(path)
    if has_policy_file(meta):
        try:
            return ActorSnapshot.load(Path(meta["path"]) / POLICY_FILE)
        except (OSError, KeyError, ValueError) as exc:
            raise CheckpointError(f"corrupt checkpoint {meta['path']}: {POLICY_FILE} cannot be read ({exc})") from exc
    if not trust_pickle:
        raise UntrustedCheckpointError(untrusted_message(meta["path"]))
    model = load_model(meta["path"], inference_only=True)
    try:
        return ActorSnapshot.from_model(model)
    except (ValueError, AttributeError) as exc:
        raise CheckpointError(f"checkpoint {meta['path']}: its network is not a plain MLP: {exc}") from exc


def check_compatible(meta: Mapping[str, Any], game: str | None, num_players: int | None) -> None:
    """Refuse a checkpoint trained for another game (``game``: the engine's name, ``Game.name``) or player
    count, naming both."""
    where = meta.get("path", "checkpoint")
    if game is not None:
        wanted = game
        if meta["game"] != wanted:
            raise CheckpointError(
                f"checkpoint {where} was trained for game {meta['game']!r}, not {wanted!r}; "
                f"pick a checkpoint of a {wanted} run"
            )
    if num_players is not None and meta["num_players"] != num_players:
        raise CheckpointError(
            f"checkpoint {where} was trained for {players(meta['num_players'])} ({meta['game']}), not {num_players}; "
            f"observations and actions differ between player counts"
        )


_INFERENCE_ONLY = {  # schedules are pickled functions: not needed to act, and fragile across versions
    "learning_rate": 0.0,
    "lr_schedule": lambda _: 0.0,
    "clip_range": lambda _: 0.0,
    "clip_range_vf": None,
}


def load_model(path: Path | str, env: Any = None, device: str = "cpu", inference_only: bool = False) -> Any:
    """``MaskablePPO.load`` of a checkpoint, after checking its meta and hash.

    With ``inference_only=True`` the pickled schedules are not restored (enough to act).
    """
    from sb3_contrib import MaskablePPO

    meta = read_meta(path)
    if meta["sha256"] is None:
        raise CheckpointError(
            f"checkpoint {meta['path']} holds the policy only ({POLICY_FILE}; trained with backend "
            f"{meta.get('backend', '?')!r}): it evaluates and plays, but has no stable-baselines3 {MODEL_FILE}"
        )
    model_path = Path(meta["path"]) / MODEL_FILE
    try:
        return MaskablePPO.load(
            model_path, env=env, device=device, custom_objects=_INFERENCE_ONLY if inference_only else None
        )
    except CheckpointError:
        raise
    except ValueError as exc:
        if env is not None and "spaces do not match" in str(exc):  # SB3's check of the env against the model
            raise CheckpointError(f"checkpoint {meta['path']} does not fit this environment: {exc}") from exc
        raise CheckpointError(
            f"corrupt checkpoint {meta['path']}: {MODEL_FILE} could not be loaded ({type(exc).__name__}: {exc})"
        ) from exc
    except Exception as exc:
        raise CheckpointError(
            f"corrupt checkpoint {meta['path']}: {MODEL_FILE} could not be loaded ({type(exc).__name__}: {exc})"
        ) from exc


# ---------------------------------------------------------------------------------- as a policy
class CheckpointPolicy(ActorPolicy):
    """A trained checkpoint as a ``Policy`` (for tournaments, the single-seat env, the AEC env).

    It acts with the checkpoint's ``policy.npz`` (numpy only; see the module docstring for why
    ``model.zip`` is not read unless ``trust_pickle=True``). ``deterministic=True`` plays the most
    probable legal action; otherwise it samples from the masked action distribution with
    ``self.rng`` (so the policy is reproducible from its seed). It plays with the options recorded in its
    ``meta.json``: a network trained with ``action_features=True`` gets them computed by the engine when the
    game was made without them (``fiesta_envs.policies.actor_policy``). A checkpoint trained with ``shortlist: true``
    reads the game's shortlist (the version of its config) instead of the observation and plays its chosen
    candidate's action.
    """

    def __init__(
        self,
        path: Path | str,
        game: str | None = None,
        num_players: int | None = None,
        deterministic: bool = True,
        seed: int | None = None,
        trust_pickle: bool = False,
    ) -> None:
        meta = read_meta(path)
        check_compatible(meta, game, num_players)
        actor = load_actor(meta["path"], trust_pickle=trust_pickle)
        where = f"checkpoint {meta['path']}"
        super().__init__(actor, where=where, num_players=meta["num_players"], deterministic=deterministic, seed=seed)
        self.meta = meta
        self.path = Path(meta["path"])
        self.game_name: str = meta["game"]
        # the version of the game's shortlist it chooses among (None: the game's actions)
        self.shortlist_version = shortlist_version_of(meta.get("config") or {})

    def check_game(self, game: Game) -> str:
        if game.name != self.game_name:
            raise CheckpointError(f"{self.where} was trained for game {self.game_name!r}, not {game.name!r}")
        if self.shortlist_version is not None:
            return "shortlist"
        return super().check_game(game)

    def act(self, observation: np.ndarray | None, action_mask: np.ndarray, game: Game, player: int) -> int:
        if self.shortlist_version is not None:
            candidates = shortlist_of(game, self.shortlist_version).build(game, player)
            logits = self.actor.logits(candidates.vector)
            return candidates.action(masked_choice(logits, candidates.mask, None if self.deterministic else self.rng))
        return super().act(observation, action_mask, game, player)

    def __repr__(self) -> str:
        return f"CheckpointPolicy({str(self.path)!r}, game={self.game_name!r}, step={self.meta['step']})"
