"""The training configs shipped with the package, and how ``--config`` finds one.

The repository's ``configs/`` folder installs as ``fiesta_envs.configs``; a config's name is its path there
without ``.yaml`` (``smoke``, ``fiesta_mexicana/ppo``)::

    fiesta configs                          # every packaged config: name and what it is (its first comment line)
    fiesta configs fiesta_mexicana/ppo      # print one (to copy and edit: ... > my_run.yaml)
    fiesta train --config smoke             # a packaged name works from any folder
    fiesta train --config my_run.yaml       # so does a file

``--config`` takes a file when one exists at that path, else a packaged name (``configs/smoke.yaml`` is read as
the name ``smoke`` when there is no such file, so commands written for a checkout work after a plain install).
"""

from __future__ import annotations

import argparse
import difflib
import sys
from pathlib import Path

from fiesta_envs.core.errors import FiestaError

SUFFIXES = (".yaml", ".yml")
FOLDER = "configs/"


def configs_directory() -> Path:
    """The folder of the packaged configs (``configs/`` of a checkout, ``fiesta_envs/configs`` when installed)."""
    import fiesta_envs.configs

    return Path(fiesta_envs.configs.__file__).resolve().parent


def packaged_configs() -> dict[str, Path]:
    """Every packaged config by name (``fiesta_mexicana/ppo``), sorted by name."""
    root = configs_directory()
    files = [path for suffix in SUFFIXES for path in root.rglob(f"*{suffix}")]
    return dict(sorted((path.relative_to(root).with_suffix("").as_posix(), path) for path in files))


def summary(path: Path) -> str:
    """A config's first comment line (what it is), without the ``#``; empty when it starts with none."""
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("#"):
            return line.lstrip("#").strip()
        if line.strip():
            return ""
    return ""


def config_name(value: str) -> str:
    """The packaged name ``value`` may mean: ``configs/smoke.yaml`` and ``smoke.yaml`` are ``smoke``."""
    name = value.replace("\\", "/").strip()
    name = name.removeprefix("./").removeprefix(FOLDER)
    for suffix in SUFFIXES:
        name = name.removesuffix(suffix)
    return name


class UnknownConfigError(FiestaError, ValueError):
    """``--config`` names neither a file nor a packaged config (``load_config`` raises it as a ``ConfigError``)."""


def find_config(value: str | Path) -> Path:
    """The file ``--config value`` means: the file at that path, else the packaged config of that name.

    Neither: ``UnknownConfigError`` naming the value and listing the packaged names (the closest first)."""
    path = Path(value)
    if path.exists():
        return path  # a file; a folder is refused by the reader with its own message
    configs = packaged_configs()
    name = config_name(str(value))
    if name in configs:
        return configs[name]
    raise UnknownConfigError(
        f"config file not found: {value}, and no packaged config is named {name!r}{_close_hint(name, configs)}. "
        f"Packaged configs (fiesta configs describes them): {', '.join(configs)}"
    )


def _close_hint(name: str, configs: dict[str, Path]) -> str:
    close = difflib.get_close_matches(name, list(configs), n=3, cutoff=0.5)
    return f" (did you mean {' or '.join(close)}?)" if close else ""


# ---------------------------------------------------------------------------------- command line
def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("name", nargs="?", help="print this packaged config (to copy and edit) instead of the list")


def run(args: argparse.Namespace) -> int:
    configs = packaged_configs()
    if args.name is None:
        width = max(len(name) for name in configs)
        for name, path in configs.items():
            print(f"{name:<{width}}  {summary(path)}".rstrip())
        print("\ntrain one: fiesta train --config NAME  (or a YAML file of your own: fiesta configs NAME prints one)")
        return 0
    name = config_name(args.name)
    if name not in configs:
        hint = _close_hint(name, configs)
        listed = ", ".join(configs)
        print(f"fiesta configs: no packaged config {args.name!r}{hint}; packaged configs: {listed}", file=sys.stderr)
        return 2
    print(configs[name].read_text(encoding="utf-8"), end="")
    return 0
