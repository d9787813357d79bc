"""Checkpoints of a training run: written atomically, checked on load, usable as a policy.

A run directory holds its checkpoints like this::

    run_dir/checkpoints/
        step_000020480/   model.zip (MaskablePPO incl. optimiser)  meta.json  config.yaml
        step_000040960/   ...
        latest            the name of the newest complete checkpoint ("step_000040960")

``save_checkpoint`` writes a checkpoint into a temporary directory beside the others, flushes
it to disk, renames it into place and only then points ``latest`` at it (also by rename),
so a run killed at any moment leaves the last good checkpoint intact. ``meta.json`` records
the game, player count and options, the step, the seed, the whole config, the versions of
fiesta_envs and the learning libraries, and the SHA-256 of ``model.zip``; ``read_meta``
checks that hash, so a truncated or altered model is refused with a clear message instead of
an obscure error from deep inside ``zipfile`` or ``torch``.

``CheckpointPolicy`` turns a checkpoint into a ``Policy`` for tournaments; it refuses a
checkpoint trained for another game or player count.
"""

from __future__ import annotations

import hashlib
import json
import os
import platform
import shutil
import time
from collections.abc import Mapping
from importlib import metadata
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from fiesta_envs.core.errors import FiestaError
from fiesta_envs.core.policy import Policy

if TYPE_CHECKING:
    from fiesta_envs.core.game import Game

#: Bumped when the layout of a checkpoint changes; older formats are refused with a message.
FORMAT_VERSION = 1
CHECKPOINTS_DIR = "checkpoints"
LATEST_FILE = "latest"
MODEL_FILE = "model.zip"
META_FILE = "meta.json"
CONFIG_FILE = "config.yaml"
STEP_PREFIX = "step_"
_TEMP_PREFIX = ".tmp-"
_REQUIRED_META = ("format_version", "game", "num_players", "options", "step", "sha256")
_LIBRARIES = ("fiesta_envs", "numpy", "torch", "stable-baselines3", "sb3-contrib", "gymnasium", "pettingzoo")


class CheckpointError(FiestaError, ValueError):
    """A checkpoint that is missing, corrupt or truncated, of another game, or of an unknown format."""


# ---------------------------------------------------------------------------------- writing
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


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


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
    temp = path.with_name(f"{_TEMP_PREFIX}{path.name}-{os.getpid()}")
    with open(temp, "w", encoding="utf-8") as handle:
        handle.write(text)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(temp, path)
    _fsync_dir(path.parent)


def _remove_leftovers(checkpoints: Path) -> None:
    """Delete temporary directories and files left behind by runs killed mid-write."""
    for entry in checkpoints.glob(f"{_TEMP_PREFIX}*"):
        if entry.is_dir():
            shutil.rmtree(entry, ignore_errors=True)
        else:
            entry.unlink(missing_ok=True)


def save_checkpoint(model: Any, run_dir: Path, step: int, meta: dict) -> Path:
    """Write ``run_dir/checkpoints/step_{step:09d}/`` atomically and point ``latest`` at it.

    ``meta`` should hold ``game``, ``num_players``, ``options``, ``seed`` and ``config`` (the
    whole config as a plain dict); anything else in it is kept as given. Returns the directory.
    """
    for key in ("game", "num_players"):
        if key not in meta:
            raise CheckpointError(f"save_checkpoint: meta must contain {key!r}; got keys {sorted(meta)}")
    checkpoints = Path(run_dir) / CHECKPOINTS_DIR
    checkpoints.mkdir(parents=True, exist_ok=True)
    _remove_leftovers(checkpoints)
    name = checkpoint_name(step)
    final = checkpoints / name
    temp = checkpoints / f"{_TEMP_PREFIX}{name}-{os.getpid()}"
    temp.mkdir()

    model_path = temp / MODEL_FILE
    model.save(model_path)
    _fsync_file(model_path)
    full_meta = {
        **meta,
        "format_version": FORMAT_VERSION,
        "step": int(step),
        "options": dict(meta.get("options") or {}),
        "seed": meta.get("seed"),
        "versions": library_versions(),
        "fiesta_envs_version": library_versions()["fiesta_envs"],
        "created": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "sha256": sha256_of(model_path),
    }
    meta_path = temp / META_FILE
    meta_path.write_text(json.dumps(full_meta, indent=2, sort_keys=True, default=_json_default), encoding="utf-8")
    _fsync_file(meta_path)
    config_path = temp / CONFIG_FILE
    config_path.write_text(_config_yaml(meta.get("config")), encoding="utf-8")
    _fsync_file(config_path)
    _fsync_dir(temp)

    if final.exists():  # the same step written again (a resumed run): swap the old one out
        old = checkpoints / f"{_TEMP_PREFIX}old-{name}-{os.getpid()}"
        os.replace(final, old)
        os.replace(temp, final)
        shutil.rmtree(old, ignore_errors=True)
    else:
        os.replace(temp, final)
    _fsync_dir(checkpoints)
    _write_text_atomically(checkpoints / LATEST_FILE, name + "\n")
    return final


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


# ---------------------------------------------------------------------------------- finding
def _is_complete(directory: Path) -> bool:
    return (directory / MODEL_FILE).is_file() and (directory / META_FILE).is_file()


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
    try:
        meta = json.loads(meta_path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise CheckpointError(f"corrupt checkpoint {directory}: {META_FILE} is not valid JSON ({exc})") from exc
    if not isinstance(meta, dict):
        raise CheckpointError(f"corrupt checkpoint {directory}: {META_FILE} must hold a JSON object")
    missing = [key for key in _REQUIRED_META if key not in meta]
    if missing:
        raise CheckpointError(f"corrupt checkpoint {directory}: {META_FILE} lacks {', '.join(missing)}")
    if meta["format_version"] != FORMAT_VERSION:
        raise CheckpointError(
            f"checkpoint {directory} has format version {meta['format_version']!r}; this fiesta_envs reads "
            f"version {FORMAT_VERSION} only (written by fiesta_envs {meta.get('fiesta_envs_version', '?')})"
        )
    if not isinstance(meta["num_players"], int) or not isinstance(meta["game"], str):
        raise CheckpointError(f"corrupt checkpoint {directory}: 'game' must be a string and 'num_players' an int")
    if not model_path.is_file():
        raise CheckpointError(f"incomplete checkpoint {directory}: {MODEL_FILE} is missing")
    if verify:
        actual = sha256_of(model_path)
        if actual != meta["sha256"]:
            size = model_path.stat().st_size
            raise CheckpointError(
                f"corrupt or truncated checkpoint {directory}: {MODEL_FILE} ({size} bytes) does not match the "
                f"SHA-256 recorded in {META_FILE}; use an earlier checkpoint"
            )
    meta["path"] = str(directory)
    return meta


def check_compatible(meta: Mapping[str, Any], game: str | None, num_players: int | None) -> None:
    """Refuse a checkpoint trained for another game or player count, naming both."""
    where = meta.get("path", "checkpoint")
    if game is not None:
        from fiesta_envs.registry import game_spec

        wanted = game_spec(game).name
        if meta["game"] != wanted:
            raise CheckpointError(
                f"checkpoint {where} was trained for game {meta['game']!r}, not {wanted!r}; "
                f"pick a checkpoint of a {wanted} run"
            )
    if num_players is not None and meta["num_players"] != num_players:
        raise CheckpointError(
            f"checkpoint {where} was trained for {meta['num_players']} players ({meta['game']}), not {num_players}; "
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
class CheckpointPolicy(Policy):
    """A trained checkpoint as a ``Policy`` (for tournaments, the single-seat env, the AEC env).

    ``deterministic=True`` plays the most probable legal action; otherwise it samples from the
    masked action distribution with ``self.rng`` (so the policy is reproducible from its seed).
    """

    def __init__(
        self,
        path: Path | str,
        game: str | None = None,
        num_players: int | None = None,
        deterministic: bool = True,
        seed: int | None = None,
    ) -> None:
        super().__init__(seed)
        self.meta = read_meta(path)
        check_compatible(self.meta, game, num_players)
        self.path = Path(self.meta["path"])
        self.game_name: str = self.meta["game"]
        self.num_players: int = self.meta["num_players"]
        self.deterministic = deterministic
        self.model = load_model(self.path, inference_only=True)

    def act(self, observation: np.ndarray, action_mask: np.ndarray, game: Game, player: int) -> int:
        mask = np.asarray(action_mask).astype(bool)
        if self.deterministic:
            action, _ = self.model.predict(observation, action_masks=mask, deterministic=True)
            return int(action)
        import torch

        with torch.no_grad():
            obs_tensor, _ = self.model.policy.obs_to_tensor(observation)
            distribution = self.model.policy.get_distribution(obs_tensor, action_masks=mask[None, :])
            probs = distribution.distribution.probs[0].cpu().numpy().astype(np.float64)
        probs = np.where(mask, probs, 0.0)
        return int(self.rng.choice(len(probs), p=probs / probs.sum()))

    def __repr__(self) -> str:
        return f"CheckpointPolicy({str(self.path)!r}, game={self.game_name!r}, step={self.meta['step']})"
