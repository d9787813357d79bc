"""Writing the checkpoints of a training run atomically (``fiesta_envs.evaluation.checkpoints`` reads them).

``save_checkpoint`` writes a checkpoint into a temporary directory beside the others, flushes
it to disk, renames it into place and only then points ``latest`` at it (also by rename),
so a run killed at any moment leaves the last good checkpoint intact. ``meta.json`` records
the game, player count and options, the step, the seed, the whole config, the versions of
fiesta_envs and the learning libraries, and the SHA-256 of ``model.zip`` and of ``policy.npz`` (the
actor network as plain arrays, so that evaluating a checkpoint never unpickles anything);
``save_policy_checkpoint`` writes the RLlib backend's checkpoints, which have no ``model.zip``. The layout
and the functions that find, check and load checkpoints live in ``fiesta_envs.evaluation.checkpoints``.
"""

from __future__ import annotations

import json
import os
import platform
import shutil
import time
from collections.abc import Callable
from importlib import metadata
from pathlib import Path
from typing import Any

import numpy as np

from fiesta_envs.evaluation.checkpoints import (
    CHECKPOINTS_DIR,
    CONFIG_FILE,
    FORMAT_VERSION,
    LATEST_FILE,
    META_FILE,
    MODEL_FILE,
    POLICY_FILE,
    STEP_PREFIX,
    TEMP_PREFIX,
    CheckpointError,
)
from fiesta_envs.files.saved_files import sha256_of
from fiesta_envs.policies.mlp import ActorSnapshot

_LIBRARIES = ("fiesta_envs", "numpy", "torch", "stable-baselines3", "sb3-contrib", "ray", "gymnasium", "pettingzoo")


def checkpoint_name(step: int) -> str:
    return f"{STEP_PREFIX}{step:09d}"


def library_versions() -> dict[str, str]:
    """Versions of Python and of every library a checkpoint depends on."""
    versions = {"python": platform.python_version()}
    for name in _LIBRARIES:
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            versions[name] = "not installed"
    if versions["fiesta_envs"] == "not installed":  # running from a source tree
        import fiesta_envs

        versions["fiesta_envs"] = fiesta_envs.__version__
    return versions


def _fsync_file(path: Path) -> None:
    with open(path, "rb") as handle:
        os.fsync(handle.fileno())


def _fsync_dir(path: Path) -> None:
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:  # some platforms cannot open directories; the rename is still atomic
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _write_text_atomically(path: Path, text: str) -> None:
    temp = path.with_name(f"{TEMP_PREFIX}{path.name}-{os.getpid()}")
    with open(temp, "w", encoding="utf-8") as handle:
        handle.write(text)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(temp, path)
    _fsync_dir(path.parent)


def _remove_leftovers(checkpoints: Path) -> None:
    """Delete temporary directories and files left behind by runs killed mid-write."""
    for entry in checkpoints.glob(f"{TEMP_PREFIX}*"):
        if entry.is_dir():
            shutil.rmtree(entry, ignore_errors=True)
        else:
            entry.unlink(missing_ok=True)


def save_checkpoint(model: Any, run_dir: Path, step: int, meta: dict) -> Path:
    """Write ``run_dir/checkpoints/step_{step:09d}/`` atomically and point ``latest`` at it.

    ``meta`` should hold ``game``, ``num_players``, ``options``, ``seed`` and ``config`` (the
    whole config as a plain dict); anything else in it is kept as given. Returns the directory.
    """

    def write(temp: Path) -> dict[str, Any]:
        model_path = temp / MODEL_FILE
        model.save(model_path)
        _fsync_file(model_path)
        policy_hash = _save_policy(model, temp / POLICY_FILE)
        return {"sha256": sha256_of(model_path), **({"policy_sha256": policy_hash} if policy_hash else {})}

    return _write_checkpoint(run_dir, step, meta, write)


def save_policy_checkpoint(
    actor: ActorSnapshot,
    run_dir: Path,
    step: int,
    meta: dict,
    training_state: Callable[[Path], None] | None = None,
) -> Path:
    """A *policy-only* checkpoint (no ``model.zip``): ``policy.npz`` of ``actor`` and ``meta.json`` with
    ``"sha256": null``, written atomically like ``save_checkpoint``; what evaluation and play read. The RLlib
    backend writes these; ``training_state(directory)`` adds its own resumable state inside the checkpoint."""

    def write(temp: Path) -> dict[str, Any]:
        policy_path = temp / POLICY_FILE
        with open(policy_path, "wb") as handle:
            actor.write(handle)
        _fsync_file(policy_path)
        if training_state is not None:
            training_state(temp)
        return {"sha256": None, "policy_sha256": sha256_of(policy_path)}

    return _write_checkpoint(run_dir, step, meta, write)


def _write_checkpoint(run_dir: Path, step: int, meta: dict, write: Callable[[Path], dict[str, Any]]) -> Path:
    """Fill a temporary directory (``write`` returns the hashes for meta.json), then rename it into place."""
    for key in ("game", "num_players"):
        if key not in meta:
            raise CheckpointError(f"save_checkpoint: meta must contain {key!r}; got keys {sorted(meta)}")
    checkpoints = Path(run_dir) / CHECKPOINTS_DIR
    checkpoints.mkdir(parents=True, exist_ok=True)
    _remove_leftovers(checkpoints)
    name = checkpoint_name(step)
    final = checkpoints / name
    temp = checkpoints / f"{TEMP_PREFIX}{name}-{os.getpid()}"
    temp.mkdir()

    hashes = write(temp)
    full_meta = {
        **meta,
        "format_version": FORMAT_VERSION,
        "step": int(step),
        "options": dict(meta.get("options") or {}),
        "seed": meta.get("seed"),
        "versions": library_versions(),
        "fiesta_envs_version": library_versions()["fiesta_envs"],
        "created": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        **hashes,
    }
    meta_path = temp / META_FILE
    meta_path.write_text(json.dumps(full_meta, indent=2, sort_keys=True, default=_json_default), encoding="utf-8")
    _fsync_file(meta_path)
    config_path = temp / CONFIG_FILE
    config_path.write_text(_config_yaml(meta.get("config")), encoding="utf-8")
    _fsync_file(config_path)
    _fsync_dir(temp)

    if final.exists():  # the same step written again (a resumed run): swap the old one out
        old = checkpoints / f"{TEMP_PREFIX}old-{name}-{os.getpid()}"
        os.replace(final, old)
        os.replace(temp, final)
        shutil.rmtree(old, ignore_errors=True)
    else:
        os.replace(temp, final)
    _fsync_dir(checkpoints)
    _write_text_atomically(checkpoints / LATEST_FILE, name + "\n")
    return final


def _save_policy(model: Any, path: Path) -> str | None:
    """Write the actor as ``policy.npz`` and return its SHA-256; None for a network that is not a plain MLP."""
    try:
        actor = ActorSnapshot.from_model(model)
    except (ValueError, AttributeError):
        return None
    with open(path, "wb") as handle:
        actor.write(handle)
    _fsync_file(path)
    return sha256_of(path)


def _json_default(value: Any) -> Any:
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, Path):
        return str(value)
    raise TypeError(f"meta value {value!r} of type {type(value).__name__} is not JSON-safe")


def _config_yaml(config: Any) -> str:
    import yaml

    if config is None:
        return "# no config was given to save_checkpoint\n"
    return yaml.safe_dump(json.loads(json.dumps(config, default=_json_default)), sort_keys=False)
