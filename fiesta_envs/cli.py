"""The ``fiesta`` command line: one subcommand per job, each in its own module.

Each module named below provides ``add_arguments(parser)`` and ``run(args) -> int``;
it is imported only when its subcommand runs, so ``fiesta --help`` stays fast.

A core install (``pip install fiesta_envs``) has the ``fiesta`` command but not the libraries some
subcommands use: when one is missing, the command names the extra that installs it (``EXTRA_OF_MODULE``)
instead of showing a traceback (exit status 2): before it runs when the command's ``NEEDS`` are missing (so a
long run does not fail at its last step), and otherwise when the import fails.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import sys

COMMANDS: dict[str, tuple[str, str]] = {
    "train": ("fiesta_envs.training.train", "train MaskablePPO from a YAML config"),
    "evaluate": ("fiesta_envs.evaluation.evaluate", "tournament between agents (baselines or checkpoints)"),
    "benchmark": ("fiesta_envs.evaluation.benchmark", "an agent against the game's reference ladder, published deals"),
    "bench": ("fiesta_envs.testing.bench", "steps per second of every environment next to PettingZoo's connect_four"),
    "fuzz": ("fiesta_envs.testing.fuzz", "play random legal games and check every invariant after every step"),
    "play": ("fiesta_envs.tools.play", "play a game in the terminal against baselines or checkpoints"),
    "replay": ("fiesta_envs.tools.replay", "replay a saved game record as text, an animated GIF or PNG frames"),
    "serve": ("fiesta_envs.web.serve", "play, watch and replay games in a web browser (on 127.0.0.1)"),
    "tune": ("fiesta_envs.training.tune", "hyper-parameter search on a training config with Optuna (resumable)"),
    "export": ("fiesta_envs.training.export", "turn a training checkpoint into an agent shipped in the package (ppo)"),
    "configs": ("fiesta_envs.training.config_files", "list the training configs shipped with the package"),
}


# Top-level module -> the extra of pyproject.toml that installs it (tests/test_cli_extras.py checks both agree).
EXTRA_OF_MODULE: dict[str, str] = {
    "torch": "train",
    "stable_baselines3": "train",
    "sb3_contrib": "train",
    "yaml": "train",
    "pydantic": "train",
    "tqdm": "train",
    "rich": "train",
    "tensorboard": "train",
    "matplotlib": "train",
    "optuna": "train",
    "PIL": "render",
    "flask": "web",
    "werkzeug": "web",
    "pygame": "bench",
    "ray": "rllib",
}


# Modules a subcommand always uses, checked before it runs (options such as checkpoints or --gif may need more).
NEEDS: dict[str, tuple[str, ...]] = {
    "train": ("torch", "stable_baselines3", "sb3_contrib", "yaml", "pydantic", "rich"),
    "tune": ("torch", "stable_baselines3", "sb3_contrib", "yaml", "pydantic", "rich", "optuna"),
    "export": ("torch", "stable_baselines3", "sb3_contrib"),
    "evaluate": ("tqdm", "rich"),
    "benchmark": ("tqdm", "rich"),
    "fuzz": ("rich",),
    "bench": ("rich", "pygame"),
    "serve": ("flask",),
}


def missing_extra_message(command: str, module_name: str) -> str | None:
    """The line telling which extra installs ``module_name`` (or one of its submodules), or None if none does."""
    module = module_name.split(".")[0]
    extra = EXTRA_OF_MODULE.get(module)
    if extra is None:
        return None
    return f"fiesta {command}: needs {module!r}, which is not installed: pip install 'fiesta_envs[{extra}]'"


def first_missing(modules: tuple[str, ...]) -> str | None:
    """The first of ``modules`` that cannot be imported, or None."""
    for name in modules:
        try:
            if importlib.util.find_spec(name) is None:
                return name
        except (ImportError, ValueError):
            return name
    return None


def build_parser(argv: list[str]) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="fiesta", description="fiesta_envs: train, evaluate, benchmark, test.")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name, (module_name, help_text) in COMMANDS.items():
        command = sub.add_parser(name, help=help_text, description=help_text)
        command.set_defaults(module=module_name)
        if name in argv[:1]:  # only the chosen command's module is imported
            importlib.import_module(module_name).add_arguments(command)
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    try:
        parser = build_parser(argv)
        args = parser.parse_args(argv)
        missing = first_missing(NEEDS.get(args.command, ()))
        if missing is not None:
            print(missing_extra_message(args.command, missing), file=sys.stderr)
            return 2
        module = importlib.import_module(args.module)
        return int(module.run(args) or 0)
    except ModuleNotFoundError as error:
        message = missing_extra_message(argv[0] if argv else "", error.name or "")
        if message is None:
            raise
        print(message, file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
