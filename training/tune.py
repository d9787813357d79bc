"""``fiesta tune``: hyper-parameter search for a training config, with Optuna.

::

    fiesta tune --config configs/fiesta_mexicana/ppo.yaml --trials 20
    fiesta tune --config configs/fiesta_mexicana/ppo.yaml --trials 20 --set total_timesteps=200000
    fiesta tune --config configs/smoke.yaml --trials 2 --space my_space.yaml --objective mean
    fiesta train --config runs/tune/ppo/best.yaml --set total_timesteps=2000000

What it does. The config given with ``--config`` (after the ``--set`` overrides, the same
syntax as ``fiesta train``'s) is the *base experiment*. Each trial draws values for the keys
of the search space, puts them into a copy of the base config, validates it like any config
(``training/config.py``; a bad combination fails that trial with the config's own message)
and trains it for real (``fiesta_envs.training.train.Trainer``) in ``<study-dir>/trial_<k>/``, a complete
run directory (checkpoints, TensorBoard, ``eval.jsonl``, ``final_eval.json``). Trials run one
after the other in this process. Optuna's TPE sampler picks the values: random ones for the
first 10 trials, then more and more where the good trials were. ``--seed`` seeds the sampler
(default: the config's seed); every trial trains with the base config's own seed, so two
trials differ by their hyper-parameters only.

The objective (maximised). A trial's score comes from its final evaluation
(``final_eval``, ``final_eval.games`` games per baseline): with ``--objective last`` (the
default) the win rate against the last baseline of ``final_eval.baselines`` -- list the
strongest last (an empty list means random and then every scripted baseline of the game, in
name order) -- and with ``--objective mean`` the mean win rate over all of them. A win rate
over ``n`` games has a standard error of up to ``0.5 / sqrt(n)``: with 50 games, about 0.07.
Trials closer than that are a tie as far as the study can tell; raise ``final_eval.games``
(with ``--set``) before trusting small differences.

Pruning. After every periodic evaluation (``eval.every``) the trial reports the same score,
computed from that evaluation's win rates (the baselines of ``final_eval.baselines`` that
``eval.baselines`` also has; if it has none of them, its own: its last one, or the mean), at
that training step. Optuna's ``MedianPruner`` stops the trial (state PRUNED) when its best
score so far is below the median of the completed trials' scores at the same step. It
starts after 3 completed trials and never acts on a trial's first evaluation (early win rates
say little about where a run ends up). Why the median rule and not successive halving: a
study here has tens of expensive trials, each scored by a win rate over ``eval.games`` games,
which is noisy. Successive halving (and Hyperband) keep only the top ``1/eta`` of the trials
at every rung whatever their values, so with a noisy score they throw away good configs by
chance, and they need a minimum resource and a reduction factor tuned to the budget; their
strength, many parallel workers, does not apply to trials run one at a time. The median rule
prunes only trials below the middle, needs no budget parameters, and with ``eval.every``
set to a few evaluations per run it still saves a good share of the time. ``--no-prune``
turns pruning off; without periodic evaluations (``eval.every: 0``) there is nothing to prune
on.

The search space. By default (``DEFAULT_SPACE`` below)::

    ppo.learning_rate  float, log scale, 1e-5 .. 1e-3
    ppo.ent_coef       float, log scale, 1e-4 .. 3e-2
    ppo.n_epochs       one of 3, 5, 10
    ppo.batch_size     one of 256, 512, 1024 (fitted to the rollout, see below)
    ppo.gamma          one of 0.99, 0.995, 0.999
    ppo.gae_lambda     one of 0.9, 0.95, 0.98
    ppo.clip_range     one of 0.1, 0.2, 0.3
    ppo.net_arch       one of [128, 128], [256, 128], [256, 256]

``--space FILE`` replaces it with a YAML file of ``dotted.config.key: spec`` entries::

    ppo.learning_rate: {type: float, low: 1.0e-5, high: 1.0e-3, log: true}
    ppo.n_epochs: {type: int, low: 3, high: 10}           # optional step: 2 (not with log)
    ppo.net_arch: {type: categorical, choices: [[64, 64], [128, 128]]}
    reward_shaping: [0.0, 0.5, 1.0]                        # a bare list: the choices
    opponents.self_play.weight: {type: float, low: 0.0, high: 0.6}

A top-level ``extends: default`` keeps the default space and adds or replaces the file's
keys (a key set to ``null`` drops a default one). Every key must be a field of the config
(``options.<name>`` and ``opponents.baselines.<name>`` are open); the file is checked before
anything trains, with messages that name the key: unknown keys (with the close matches),
unknown settings, a wrong ``type``, ``low`` above ``high``, ``log`` with a bound <= 0, and
every bound and choice is put into the base config on its own and validated there (so an
``int`` field given a ``float`` range fails at once). ``ppo.batch_size`` is fitted to the
rollout ``ppo.n_steps x n_envs`` (sampled ones when those are in the space too): each value
becomes the largest divisor of the rollout not above it, so a mini-batch never comes out
truncated (with the smoke config's rollout of 256, {256, 512, 1024} becomes {256}; an ``int``
range is fitted after the draw, and ``trials.csv`` shows the value the trial used).

Where results go (``--study-dir``, default ``runs/tune/<config file name>``)::

    study.db      the Optuna study (SQLite): every trial, its values, intermediate scores, state
    trial_<k>/    the run directory of trial k (trial numbers start at 0)
    best.yaml     the full config of the best completed trial, for ``fiesta train --config``;
                  a comment header names the study, the trial, its score and the command
    trials.csv    one row per trial: trial, state, value, one column per key, seconds, error

``best.yaml`` and ``trials.csv`` are rewritten (atomically) after every trial, and a table of
all trials is printed at the end. ``best.yaml``'s ``total_timesteps`` is the tuning budget:
give the real one with ``--set`` when training it.

Resuming. Running the command again (same ``--config`` and ``--set``) continues the study in
``study.db`` and runs ``--trials`` more trials (``--trials 0`` only rewrites ``best.yaml``,
``trials.csv`` and prints the table). A different base config is refused (the trials would
not be comparable; use another ``--study-dir``), and so is a different ``--objective``. A trial
cut short by Ctrl-C or a killed process is recorded as FAIL and run again, with the same
values, as the first of the next invocation's trials (in a new ``trial_<k>``). A failed trial
(any exception: a config error, a crash) is recorded as FAIL with its error and the study
goes on. One ``fiesta tune`` at a time per study directory (a lock file makes sure).

Exit status: 0; 1 when every trial of this invocation failed; 2 for a config, search space or
study that cannot be used (nothing is trained); 130 after Ctrl-C.
"""

from __future__ import annotations

import argparse
import contextlib
import copy
import csv
import difflib
import io
import json
import math
import shlex
import sys
import time
import traceback
import typing
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fiesta_envs.core.errors import FiestaError
from fiesta_envs.files.atomic import write_atomically
from fiesta_envs.training.config import (
    ConfigError,
    TrainConfig,
    add_override_argument,
    config_to_dict,
    load_config,
    parse_yaml,
    validate_config,
)

STUDY_DB = "study.db"
BEST_CONFIG = "best.yaml"
TRIALS_CSV = "trials.csv"
LOCK_FILE = ".lock"
INSTALL_HINT = "pip install 'fiesta_envs[train]'"
BATCH_KEY = "ppo.batch_size"
#: pruning starts once this many trials have completed
PRUNE_STARTUP_TRIALS = 3

#: The search space used without ``--space``: dotted config key -> spec (the ``--space`` format).
DEFAULT_SPACE: dict[str, dict[str, Any]] = {
    "ppo.learning_rate": {"type": "float", "low": 1e-5, "high": 1e-3, "log": True},
    "ppo.ent_coef": {"type": "float", "low": 1e-4, "high": 3e-2, "log": True},
    "ppo.n_epochs": {"type": "categorical", "choices": [3, 5, 10]},
    "ppo.batch_size": {"type": "categorical", "choices": [256, 512, 1024]},
    "ppo.gamma": {"type": "categorical", "choices": [0.99, 0.995, 0.999]},
    "ppo.gae_lambda": {"type": "categorical", "choices": [0.9, 0.95, 0.98]},
    "ppo.clip_range": {"type": "categorical", "choices": [0.1, 0.2, 0.3]},
    "ppo.net_arch": {"type": "categorical", "choices": [[128, 128], [256, 128], [256, 256]]},
}

#: keys a search space may not hold, and why
FORBIDDEN_KEYS = {
    "game": "a study tunes one game; start a study per game",
    "run_dir": "each trial runs in <study-dir>/trial_<k>",
}
#: base-config fields that may change between invocations of one study (they do not change results)
RESUME_FREE_KEYS = ("run_dir", "progress_bar", "tensorboard", "final_eval.workers")
_SETTINGS = {
    "float": ("type", "low", "high", "log", "step"),
    "int": ("type", "low", "high", "log", "step"),
    "categorical": ("type", "choices"),
}


class TuneError(FiestaError):
    """A study that cannot run (optuna missing, study directory in use or inconsistent)."""


# ---------------------------------------------------------------------------------- command line
def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--config",
        type=Path,
        metavar="CONFIG",
        required=True,
        help="the base experiment: a YAML file or a packaged config's name (fiesta configs lists them)",
    )
    parser.add_argument(
        "--trials", type=_count, metavar="N", required=True, help="trials to run now (added to the study's)"
    )
    parser.add_argument(
        "--study-dir", type=Path, metavar="DIR", help="where the study lives (default: runs/tune/<config stem>)"
    )
    add_override_argument(parser)
    parser.add_argument(
        "--space", type=Path, metavar="FILE", help="YAML search space (default: PPO's main knobs; see training/tune.py)"
    )
    parser.add_argument(
        "--objective",
        choices=("last", "mean"),
        default="last",
        help="win rate against the last final_eval baseline (default), or the mean over all of them",
    )
    parser.add_argument("--seed", type=_seed, metavar="N", help="seed of the sampler (default: the config's seed)")
    parser.add_argument("--no-prune", action="store_true", help="let every trial run to the end")
    parser.add_argument("--no-progress", action="store_true", help="no progress bars")


def _whole_number(what: str, negative: str) -> Any:
    """An argparse type: a whole number >= 0 (``what`` names it, ``negative`` is the refusal)."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a whole number{what}, got {text!r}") from None
        if value < 0:
            raise argparse.ArgumentTypeError(f"{negative}, got {value}")
        return value

    return parse


_count = _whole_number(" of trials", "the number of trials cannot be negative")
_seed = _whole_number("", "a seed cannot be negative")


def run(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.markup import escape

    console = Console(stderr=True)
    try:
        return Tuning(args).run()
    except FiestaError as error:
        console.print(f"[bold red]error:[/] {escape(str(error))}", markup=True, highlight=False, soft_wrap=True)
        return 2


def import_optuna() -> Any:
    try:
        import optuna
    except ImportError:
        raise TuneError(f"fiesta tune needs optuna, which is not installed: {INSTALL_HINT}") from None
    return optuna


def default_study_dir(config_path: Path) -> Path:
    return Path("runs") / "tune" / Path(config_path).stem


# ---------------------------------------------------------------------------------- search space
@dataclass(frozen=True)
class Param:
    """One key of the search space: a float or int range, or a list of choices."""

    key: str
    kind: str  # "float" | "int" | "categorical"
    low: float | None = None
    high: float | None = None
    log: bool = False
    step: float | None = None
    choices: tuple[Any, ...] = ()

    def as_spec(self) -> dict[str, Any]:
        """The ``--space`` form (also what the study records)."""
        if self.kind == "categorical":
            return {"type": "categorical", "choices": list(self.choices)}
        spec: dict[str, Any] = {"type": self.kind, "low": self.low, "high": self.high, "log": self.log}
        if self.step is not None:
            spec["step"] = self.step
        return spec

    def bounds(self) -> list[tuple[str, Any]]:
        """The values to try in the base config on their own: the bounds or every choice."""
        if self.kind == "categorical":
            return [("choice", choice) for choice in self.choices]
        return [("low bound", self.low), ("high bound", self.high)]

    def suggest(self, trial: Any, choices: Sequence[Any] | None = None) -> Any:
        if self.kind == "float":
            return trial.suggest_float(self.key, self.low, self.high, log=self.log, step=self.step)
        if self.kind == "int":
            return trial.suggest_int(self.key, self.low, self.high, log=self.log, step=self.step or 1)
        options = list(self.choices if choices is None else choices)
        labels = [_label(choice) for choice in options]
        picked = trial.suggest_categorical(self.key, labels)
        for label, choice in zip(labels, options, strict=True):
            if type(label) is type(picked) and label == picked:
                return copy.deepcopy(choice)
        raise AssertionError(f"{self.key}: optuna returned {picked!r}, not one of {labels}")


def _label(choice: Any) -> Any:
    """What optuna stores for a choice: scalars as they are, lists and mappings as JSON text."""
    if choice is None or isinstance(choice, (bool, int, float, str)):
        return choice
    return json.dumps(choice)


def config_keys() -> tuple[list[str], list[str]]:
    """The dotted keys of every config field, and the fields that are open mappings (options, ...)."""
    from pydantic import BaseModel

    leaves: list[str] = []
    open_maps: list[str] = []

    def walk(model: type[BaseModel], prefix: str) -> None:
        for name, field in model.model_fields.items():
            key = prefix + name
            annotation = field.annotation
            if isinstance(annotation, type) and issubclass(annotation, BaseModel):
                walk(annotation, key + ".")
                continue
            leaves.append(key)
            if typing.get_origin(annotation) is dict:
                open_maps.append(key)
            for member in typing.get_args(annotation):  # an optional section (pretrain: ... | None)
                if isinstance(member, type) and issubclass(member, BaseModel):
                    walk(member, key + ".")

    walk(TrainConfig, "")
    return leaves, open_maps


def _check_key(key: Any, source: str) -> None:
    if not isinstance(key, str) or not key:
        raise ConfigError(f"{source}: the key {key!r} is not a dotted config field name such as ppo.learning_rate")
    if key in FORBIDDEN_KEYS:
        raise ConfigError(f"{source}: {key!r} cannot be tuned: {FORBIDDEN_KEYS[key]}")
    leaves, open_maps = config_keys()
    if key in leaves or any(key.startswith(prefix + ".") and key != prefix + "." for prefix in open_maps):
        return
    fields = [leaf for leaf in leaves if leaf.startswith(key + ".")]
    if fields:
        raise ConfigError(f"{source}: {key!r} is a section; tune its fields: {', '.join(fields)}")
    hints = difflib.get_close_matches(key, leaves, n=3, cutoff=0.75)
    section = key.rpartition(".")[0]
    nearby = [leaf for leaf in leaves if section and leaf.startswith(section + ".")]
    if hints:
        advice = f"did you mean {' or '.join(repr(h) for h in hints)}?"
    elif nearby:
        advice = f"the fields of {section} are: {', '.join(nearby)}"
    else:
        advice = f"config keys: {', '.join(leaves)}"
    raise ConfigError(f"{source}: unknown config key {key!r}; {advice}")


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def parse_param(key: str, spec: Any, source: str) -> Param:
    """One entry of a ``--space`` file, checked; errors name the file, the key and what is allowed."""
    where = f"{source}: {key!r}"
    if isinstance(spec, list):
        spec = {"type": "categorical", "choices": spec}
    if not isinstance(spec, dict):
        raise ConfigError(
            f"{where}: expected a mapping such as {{type: float, low: 1.0e-5, high: 1.0e-3, log: true}} "
            f"or a list of choices, not {spec!r}"
        )
    kind = spec.get("type")
    if kind is None:
        raise ConfigError(f"{where}: needs a `type`: one of {', '.join(_SETTINGS)}")
    if kind not in _SETTINGS:
        hint = difflib.get_close_matches(str(kind), list(_SETTINGS), n=1)
        did_you_mean = f"did you mean {hint[0]!r}? " if hint else ""
        raise ConfigError(f"{where}: unknown type {kind!r}; {did_you_mean}allowed: {', '.join(_SETTINGS)}")
    allowed = _SETTINGS[kind]
    for setting in spec:
        if setting not in allowed:
            hint = difflib.get_close_matches(str(setting), allowed, n=1)
            did_you_mean = f"did you mean {hint[0]!r}? " if hint else ""
            raise ConfigError(
                f"{where}: unknown setting {setting!r} for type {kind}; {did_you_mean}allowed: {', '.join(allowed)}"
            )
    if kind == "categorical":
        choices = spec.get("choices")
        if not isinstance(choices, list) or not choices:
            raise ConfigError(
                f"{where}: `choices` must be a non-empty list, e.g. choices: [3, 5, 10] (got {choices!r})"
            )
        labels = [(type(_label(c)), _label(c)) for c in choices]
        repeated = [c for i, c in enumerate(choices) if labels[i] in labels[:i]]
        if repeated:
            raise ConfigError(f"{where}: the choice {repeated[0]!r} is listed twice")
        return Param(key, kind, choices=tuple(choices))
    bounds: dict[str, Any] = {}
    for name in ("low", "high"):
        if name not in spec:
            raise ConfigError(f"{where}: a {kind} range needs `low` and `high`")
        value = spec[name]
        if kind == "int" and not (isinstance(value, int) and not isinstance(value, bool)):
            raise ConfigError(f"{where}: `{name}` of an int range must be a whole number (got {value!r})")
        if not _is_number(value):
            raise ConfigError(f"{where}: `{name}` must be a number (got {value!r})")
        bounds[name] = value
    low, high = bounds["low"], bounds["high"]
    if low > high:
        raise ConfigError(f"{where}: low {low!r} is above high {high!r}")
    log = spec.get("log", False)
    if not isinstance(log, bool):
        raise ConfigError(f"{where}: `log` must be true or false (got {log!r})")
    if log and low <= 0:
        raise ConfigError(f"{where}: a log-scale range needs low > 0 (got low {low!r})")
    step = spec.get("step")
    if step is not None:
        if log:
            raise ConfigError(f"{where}: `step` and `log: true` cannot be combined")
        if not _is_number(step) or step <= 0 or (kind == "int" and not isinstance(step, int)):
            raise ConfigError(f"{where}: `step` must be a positive {'whole ' if kind == 'int' else ''}number")
    if kind == "float":
        low, high = float(low), float(high)
        step = float(step) if step is not None else None
    return Param(key, kind, low, high, log, step)


def parse_space(data: Any, source: str) -> dict[str, Param]:
    """A search space from plain data (the ``--space`` file's mapping)."""
    if not isinstance(data, dict):
        raise ConfigError(
            f"{source}: a search space is a YAML mapping of config keys to specs, e.g. "
            f"`ppo.learning_rate: {{type: float, low: 1.0e-5, high: 1.0e-3, log: true}}`"
        )
    data = dict(data)
    extends = data.pop("extends", None)
    if extends not in (None, "default"):
        raise ConfigError(f"{source}: `extends` can only be `default` (got {extends!r})")
    entries: dict[str, Any] = dict(DEFAULT_SPACE) if extends == "default" else {}
    for key, spec in data.items():
        _check_key(key, source)
        if spec is None:
            if key not in entries:
                raise ConfigError(f"{source}: {key!r} is null, which only drops a key of the default space")
            del entries[key]
        else:
            entries[key] = spec
    if not entries:
        raise ConfigError(f"{source}: the search space is empty; give at least one key to tune")
    return {key: parse_param(key, spec, source) for key, spec in entries.items()}


def load_space(path: Path | None) -> dict[str, Param]:
    if path is None:
        return parse_space(DEFAULT_SPACE, "the default search space")
    import yaml

    path = Path(path)
    if not path.is_file():
        raise ConfigError(f"search space file not found: {path}" if not path.exists() else f"{path} is not a file")
    try:
        data = parse_yaml(path.read_text(encoding="utf-8"))
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark is not None else ""
        raise ConfigError(f"{path}: not valid YAML{where}: {getattr(exc, 'problem', None) or exc}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: cannot read the search space: {exc}") from None
    if data is None:
        raise ConfigError(f"{path}: the search space file is empty")
    return parse_space(data, str(path))


def set_dotted(data: dict[str, Any], key: str, value: Any) -> None:
    node = data
    parts = key.split(".")
    for part in parts[:-1]:
        child = node.get(part)
        if child is None:
            child = node[part] = {}
        if not isinstance(child, dict):
            raise ConfigError(f"cannot set {key}: {part} is not a section")
        node = child
    node[parts[-1]] = value


def fit_batch_size(value: Any, rollout: int) -> Any:
    """The largest divisor of ``rollout`` not above ``value`` (so PPO's mini-batches are all whole)."""
    if not (isinstance(value, int) and not isinstance(value, bool)) or value < 2:
        return value  # left to the config's own checks
    for size in range(min(value, rollout), 1, -1):
        if rollout % size == 0:
            return size
    return rollout


def _rollout(data: Mapping[str, Any]) -> int | None:
    n_steps, n_envs = data.get("ppo", {}).get("n_steps"), data.get("n_envs")
    if all(isinstance(v, int) and not isinstance(v, bool) and v > 0 for v in (n_steps, n_envs)):
        return n_steps * n_envs  # type: ignore[operator]
    return None


def _batch_choices(param: Param, rollout: int | None) -> list[Any]:
    if rollout is None:
        return list(param.choices)
    return list(dict.fromkeys(fit_batch_size(choice, rollout) for choice in param.choices))


def sample(trial: Any, space: Mapping[str, Param], base: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """The config data of one trial, and the values it got (batch size last: it depends on the rollout)."""
    data = copy.deepcopy(dict(base))
    values: dict[str, Any] = {}
    for key in sorted(space, key=lambda k: k == BATCH_KEY):
        param = space[key]
        if key == BATCH_KEY:
            rollout = _rollout(data)
            if param.kind == "categorical":
                value = param.suggest(trial, _batch_choices(param, rollout))
            else:
                value = param.suggest(trial)
                value = fit_batch_size(value, rollout) if rollout else value
        else:
            value = param.suggest(trial)
        set_dotted(data, key, value)
        values[key] = value
    return data, values


def check_space(space: Mapping[str, Param], base: Mapping[str, Any], source: str) -> None:
    """Put every bound and choice into the base config on its own and validate (before any training)."""
    rollout = _rollout(base)
    for key, param in space.items():
        for what, value in param.bounds():
            if key == BATCH_KEY and rollout:
                value = fit_batch_size(value, rollout)
            data = copy.deepcopy(dict(base))
            set_dotted(data, key, value)
            try:
                validate_config(data, "")
            except ConfigError as error:
                reason = str(error).removeprefix(": ")
                raise ConfigError(
                    f"{source}: {key!r}: the {what} {value!r} does not fit the base config: {reason}"
                ) from None


# ---------------------------------------------------------------------------------- objective
def objective_from(rates: Mapping[str, float], baselines: Sequence[str], how: str) -> float:
    """The study's score from ``{baseline: win rate}``: the last of ``baselines`` present, or their mean.

    Baselines of ``rates`` outside ``baselines`` count only when none of ``baselines`` is there
    (a periodic evaluation against other baselines than the final one).
    """
    if not rates:
        raise ValueError("no win rates to score")
    present = [name for name in baselines if name in rates] or list(rates)
    if how == "last":
        return float(rates[present[-1]])
    return float(sum(rates[name] for name in present) / len(present))


def describe_objective(config: TrainConfig, how: str) -> str:
    baselines = config.eval_baselines(config.final_eval.baselines)
    games = f"{config.final_eval.games} games each"
    if how == "last":
        return f"win rate against {baselines[-1]} in the final evaluation ({games})"
    return f"mean win rate against {', '.join(baselines)} in the final evaluation ({games})"


def make_pruner(optuna: Any, config: TrainConfig, enabled: bool) -> Any:
    """Optuna's MedianPruner, quiet at a trial's first evaluation (see the module docstring)."""
    if not enabled or not config.eval.every:
        return optuna.pruners.NopPruner()
    unit = config.rollout_size
    first_evaluation = max(unit, math.ceil(config.eval.every / unit) * unit)
    return optuna.pruners.MedianPruner(n_startup_trials=PRUNE_STARTUP_TRIALS, n_warmup_steps=first_evaluation + 1)


# ---------------------------------------------------------------------------------- the study
def _flatten(data: Mapping[str, Any], prefix: str = "") -> dict[str, Any]:
    flat: dict[str, Any] = {}
    for key, value in data.items():
        if isinstance(value, Mapping) and value:
            flat.update(_flatten(value, f"{prefix}{key}."))
        else:
            flat[f"{prefix}{key}"] = value
    return flat


def _comparable(config_data: Mapping[str, Any]) -> dict[str, Any]:
    flat = _flatten(config_data)
    return {k: v for k, v in flat.items() if k not in RESUME_FREE_KEYS}


def _text(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:.3g}"
    if isinstance(value, (list, dict)):
        return json.dumps(value)
    return str(value)


@contextlib.contextmanager
def study_lock(study_dir: Path) -> Iterator[None]:
    """One ``fiesta tune`` per study directory: an exclusive lock on ``<study-dir>/.lock``."""
    try:
        import fcntl
    except ImportError:  # no advisory locks on this platform: trust the user
        yield
        return
    study_dir.mkdir(parents=True, exist_ok=True)
    with open(study_dir / LOCK_FILE, "a+") as handle:
        try:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            raise TuneError(
                f"another fiesta tune is running on {study_dir} (it holds {study_dir / LOCK_FILE})"
            ) from None
        try:
            yield
        finally:
            fcntl.flock(handle.fileno(), fcntl.LOCK_UN)


class Tuning:
    """One invocation of ``fiesta tune``: load or create the study, run the trials, write the results."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.base = load_config(args.config, args.overrides)
        self.base.run_dir = None
        if self.base.final_eval.games == 0:
            raise ConfigError(
                f"{args.config}: fiesta tune scores each trial by its final evaluation; final_eval.games is 0 "
                "(set it with --set final_eval.games=50)"
            )
        self.base_data = config_to_dict(self.base)
        self.space = load_space(args.space)
        check_space(self.space, self.base_data, str(args.space) if args.space else "the default search space")
        self.baselines = self.base.eval_baselines(self.base.final_eval.baselines)
        self.study_dir = Path(args.study_dir or default_study_dir(args.config))
        self.command = self._command()
        self.optuna = import_optuna()

    def _command(self) -> str:
        args = self.args
        words = ["fiesta", "tune", "--config", str(args.config), "--trials", str(args.trials)]
        words += ["--study-dir", str(self.study_dir)]
        for item in args.overrides:
            words += ["--set", item]
        if args.space is not None:
            words += ["--space", str(args.space)]
        if args.objective != "last":
            words += ["--objective", args.objective]
        if args.seed is not None:
            words += ["--seed", str(args.seed)]
        if args.no_prune:
            words.append("--no-prune")
        return shlex.join(words)

    # -- the run -----------------------------------------------------------------------
    def run(self) -> int:
        optuna = self.optuna
        optuna.logging.set_verbosity(optuna.logging.ERROR)  # trials are reported here, failures included
        with study_lock(self.study_dir):
            study = self._open_study()
            self._take_over_interrupted(study)
            before = len(study.get_trials(deepcopy=False))
            self._note(
                f"study {study.study_name} ({self.study_dir / STUDY_DB}): {self._summary(study)}; "
                f"running {self.args.trials} more; objective: {describe_objective(self.base, self.args.objective)}; "
                f"pruner: {type(study.pruner).__name__}"
            )
            try:
                if self.args.trials:
                    study.optimize(
                        self._objective,
                        n_trials=self.args.trials,
                        catch=(Exception,),
                        callbacks=[self._after_trial],
                        gc_after_trial=True,
                    )
            except KeyboardInterrupt:
                self.write_results(study)
                self._note(
                    f"interrupted; the study is saved in {self.study_dir / STUDY_DB}; continue with: {self.command}"
                )
                return 130
            self.write_results(study)
            self.print_table(study)
            new = study.get_trials(deepcopy=False)[before:]
            finished = [t for t in new if t.state.name in ("COMPLETE", "PRUNED")]
            return 1 if new and not finished else 0

    def _open_study(self) -> Any:
        optuna = self.optuna
        db = self.study_dir / STUDY_DB
        if not db.exists() and any(self.study_dir.glob("trial_*")):
            raise TuneError(
                f"{self.study_dir} holds trial directories but no {STUDY_DB}: they belong to another study; "
                "choose another --study-dir (or remove them)"
            )
        storage = optuna.storages.RDBStorage(
            url=f"sqlite:///{db.resolve()}", engine_kwargs={"connect_args": {"timeout": 60}}
        )
        names = optuna.get_all_study_names(storage)
        name = names[0] if len(names) == 1 else self.study_dir.resolve().name
        study = optuna.create_study(
            storage=storage,
            study_name=name,
            direction="maximize",
            pruner=make_pruner(optuna, self.base, not self.args.no_prune),
            load_if_exists=True,
        )
        # a sampler seeded anew per invocation: the same seed again would repeat the first random draws
        seed = self.base.seed if self.args.seed is None else self.args.seed
        study.sampler = optuna.samplers.TPESampler(seed=seed + len(study.get_trials(deepcopy=False)))
        attrs = study.user_attrs
        space = {key: param.as_spec() for key, param in self.space.items()}
        if "base_config" not in attrs:
            study.set_user_attr("base_config", self.base_data)
            study.set_user_attr("objective", self.args.objective)
            study.set_user_attr("space", space)
            return study
        changed = sorted(
            key
            for key in set(_comparable(attrs["base_config"])) | set(_comparable(self.base_data))
            if _comparable(attrs["base_config"]).get(key) != _comparable(self.base_data).get(key)
        )
        if changed:
            raise TuneError(
                f"the study in {db} was started from another base config (it differs in {', '.join(changed)}); "
                "its trials would not be comparable: use the same --config and --set, or another --study-dir"
            )
        if attrs.get("objective") != self.args.objective:
            raise TuneError(
                f"the study in {db} scores trials with --objective {attrs.get('objective')}; "
                f"use it again, or another --study-dir for --objective {self.args.objective}"
            )
        if attrs.get("space") != space:
            self._note("note: the search space differs from the study's earlier one; the new trials use the new one")
            study.set_user_attr("space", space)
        return study

    def _take_over_interrupted(self, study: Any) -> None:
        """Trials left RUNNING by a killed process, or cut by Ctrl-C: FAIL them and queue their values again."""
        TrialState = self.optuna.trial.TrialState
        storage = study._storage
        trials = study.get_trials(deepcopy=False)
        for trial in trials:
            if trial.state == TrialState.RUNNING:  # we hold the lock: nobody else runs it
                storage.set_trial_user_attr(trial._trial_id, "interrupted", True)
                storage.set_trial_user_attr(trial._trial_id, "error", "interrupted: the process ended during the trial")
                storage.set_trial_state_values(trial._trial_id, TrialState.FAIL)
        trials = study.get_trials(deepcopy=False)
        queued = {t.user_attrs.get("retry_of") for t in trials}
        for trial in trials:
            if trial.state == TrialState.FAIL and trial.user_attrs.get("interrupted") and trial.number not in queued:
                study.enqueue_trial(dict(trial.params), user_attrs={"retry_of": trial.number})
                self._note(f"trial {trial.number} was interrupted; it runs again first")

    def _objective(self, trial: Any) -> float:
        optuna = self.optuna
        from fiesta_envs.training import train as train_module

        started = time.perf_counter()
        try:
            data, values = sample(trial, self.space, self.base_data)
            trial.set_user_attr("values", values)
            trial.set_user_attr("command", self.command)
            run_dir = self.study_dir / f"trial_{trial.number}"
            data["run_dir"] = str(run_dir)
            shown = ", ".join(f"{key}={_text(value)}" for key, value in values.items())
            config = validate_config(data, f"trial {trial.number} ({shown})")
            trial.set_user_attr("config", config_to_dict(config))
            self._note(f"trial {trial.number}: {shown}")

            def on_evaluation(step: int, rates: dict[str, float]) -> None:
                value = objective_from(rates, self.baselines, self.args.objective)
                trial.report(value, step)
                if trial.should_prune():
                    raise optuna.TrialPruned(f"score {value:.3f} at step {step:,} is below the median")

            trainer = train_module.Trainer(
                config, run_dir, progress=not self.args.no_progress, on_evaluation=on_evaluation
            )
            results = trainer.run()
            rates = {row.opponent: row.win_rate for row in results}
            trial.set_user_attr("final_win_rates", rates)
            return objective_from(rates, self.baselines, self.args.objective)
        except optuna.TrialPruned:
            raise
        except KeyboardInterrupt:
            trial.set_user_attr("interrupted", True)
            trial.set_user_attr("error", "interrupted (Ctrl-C)")
            raise
        except FiestaError as error:
            trial.set_user_attr("error", str(error))
            raise
        except Exception as error:
            trial.set_user_attr("error", f"{type(error).__name__}: {error}")
            traceback.print_exc(file=sys.stderr)
            raise
        finally:
            trial.set_user_attr("seconds", round(time.perf_counter() - started, 1))

    def _after_trial(self, study: Any, trial: Any) -> None:
        self.write_results(study)
        state = trial.state.name
        seconds = trial.user_attrs.get("seconds", 0.0)
        if state == "COMPLETE":
            text = f"score {trial.value:.3f}"
        elif state == "PRUNED":
            last = trial.last_step
            text = f"pruned at step {last:,}" if last is not None else "pruned"
        else:
            text = f"failed: {trial.user_attrs.get('error', 'see above')}"
        best = self.best_trial(study)
        best_text = f"; best so far: trial {best.number} ({best.value:.3f})" if best is not None else ""
        self._note(f"trial {trial.number}: {state} {text} in {seconds:.0f}s{best_text}")

    # -- results -----------------------------------------------------------------------
    def best_trial(self, study: Any) -> Any:
        complete = [
            t
            for t in study.get_trials(deepcopy=False)
            if t.state.name == "COMPLETE" and t.value is not None and "config" in t.user_attrs
        ]
        return max(complete, key=lambda t: (t.value, -t.number)) if complete else None

    def _summary(self, study: Any) -> str:
        trials = study.get_trials(deepcopy=False)
        if not trials:
            return "a new study"
        counts: dict[str, int] = {}
        for trial in trials:
            counts[trial.state.name.lower()] = counts.get(trial.state.name.lower(), 0) + 1
        return f"{len(trials)} trials so far ({', '.join(f'{n} {s}' for s, n in counts.items())})"

    def _keys(self, study: Any) -> list[str]:
        keys = list(self.space)
        for trial in study.get_trials(deepcopy=False):
            keys += [k for k in trial.user_attrs.get("values", trial.params) if k not in keys]
        return keys

    def write_results(self, study: Any) -> None:
        """``trials.csv`` and ``best.yaml``, each written atomically."""
        keys = self._keys(study)
        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\n")
        writer.writerow(["trial", "state", "value", *keys, "seconds", "error"])
        for trial in study.get_trials(deepcopy=False):
            values = trial.user_attrs.get("values", trial.params)
            writer.writerow(
                [
                    trial.number,
                    trial.state.name,
                    "" if trial.value is None else repr(trial.value),
                    *("" if k not in values else _csv_value(values[k]) for k in keys),
                    trial.user_attrs.get("seconds", ""),
                    trial.user_attrs.get("error", ""),
                ]
            )
        write_atomically(self.study_dir / TRIALS_CSV, buffer.getvalue())
        best = self.best_trial(study)
        if best is not None:
            write_atomically(self.study_dir / BEST_CONFIG, self.best_yaml(study, best))

    def best_yaml(self, study: Any, best: Any) -> str:
        import yaml

        data = dict(best.user_attrs["config"])
        data["run_dir"] = None  # fiesta train picks runs/<game>/best-seed<seed>
        config = validate_config(data, f"trial {best.number}'s config")
        total = len(study.get_trials(deepcopy=False))
        values = best.user_attrs.get("values", best.params)
        header = [
            f"Best trial of the fiesta tune study {study.study_name!r} ({self.study_dir / STUDY_DB}):",
            f"trial {best.number} of {total}, in {self.study_dir / f'trial_{best.number}'}",
            f"objective: {describe_objective(config, study.user_attrs.get('objective', self.args.objective))}"
            f" = {best.value:.4f}",
            "tuned: " + ", ".join(f"{key}={_text(value)}" for key, value in values.items()),
            f"found by: {best.user_attrs.get('command', self.command)}",
            f"train it: fiesta train --config {self.study_dir / BEST_CONFIG} [--set total_timesteps=...]",
            f"(total_timesteps {config.total_timesteps:,} is the tuning budget)",
        ]
        body = yaml.safe_dump(config_to_dict(config), sort_keys=False)
        return "".join(f"# {line}\n" for line in header) + body

    def print_table(self, study: Any) -> None:
        from rich.console import Console
        from rich.table import Table as RichTable

        trials = study.get_trials(deepcopy=False)
        best = self.best_trial(study)
        keys = self._keys(study)
        short = _short_names(keys)
        title = f"fiesta tune {study.study_name}: {len(trials)} trials ({self.study_dir})"
        caption = (
            f"best: trial {best.number}, {best.value:.3f}; its config: {self.study_dir / BEST_CONFIG}"
            if best is not None
            else "no completed trial yet"
        )
        table = RichTable(title=title, title_justify="left", caption=caption, caption_justify="left")
        for name, justify in (("trial", "right"), ("state", "left"), ("score", "right")):
            table.add_column(name, justify=justify)  # type: ignore[arg-type]
        for key in keys:
            table.add_column(short[key], justify="right")
        table.add_column("seconds", justify="right")
        for trial in trials:
            values = trial.user_attrs.get("values", trial.params)
            if trial.value is not None:
                score = f"{trial.value:.3f}"
            elif trial.state.name == "PRUNED" and trial.intermediate_values:
                step = max(trial.intermediate_values)
                score = f"({trial.intermediate_values[step]:.3f} @ {step:,})"
            elif "retry_of" in trial.user_attrs and trial.state.name == "WAITING":
                score = f"retry of {trial.user_attrs['retry_of']}"
            else:
                score = ""
            table.add_row(
                str(trial.number),
                trial.state.name.lower(),
                score,
                *(_text(values[k]) if k in values else "" for k in keys),
                f"{trial.user_attrs['seconds']:.0f}" if "seconds" in trial.user_attrs else "",
                style="bold green" if best is not None and trial.number == best.number else None,
            )
        needed = Console(width=400).measure(table).maximum
        Console(width=max(100, Console().width, min(needed, 240))).print(table)

    def _note(self, text: str) -> None:
        print(text, file=sys.stderr, flush=True)


def _csv_value(value: Any) -> str:
    return json.dumps(value) if isinstance(value, (list, dict)) else str(value)


def _short_names(keys: Sequence[str]) -> dict[str, str]:
    """Column names: the last part of each key, unless two keys share it."""
    lasts = [key.rpartition(".")[2] for key in keys]
    return {key: last if lasts.count(last) == 1 else key for key, last in zip(keys, lasts, strict=True)}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="fiesta tune")
    add_arguments(parser)
    return run(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
