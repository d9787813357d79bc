"""The ``fiesta`` command line: one subcommand per job, each in its own module.

Each module named below provides ``add_arguments(parser)`` and ``run(args) -> int``;
it is imported only when its subcommand runs, so ``fiesta --help`` stays fast.
"""

from __future__ import annotations

import argparse
import importlib
import sys

COMMANDS: dict[str, tuple[str, str]] = {
    "train": ("fiesta_envs.training.train", "train MaskablePPO from a YAML config"),
    "evaluate": ("fiesta_envs.evaluation.evaluate", "tournament between agents (baselines or checkpoints)"),
    "bench": ("fiesta_envs.testing.bench", "steps per second of every environment next to PettingZoo's connect_four"),
    "fuzz": ("fiesta_envs.testing.fuzz", "play random legal games and check every invariant after every step"),
    "play": ("fiesta_envs.tools.play", "play a game in the terminal against baselines or checkpoints"),
    "replay": ("fiesta_envs.tools.replay", "replay a saved game record as text, an animated GIF or PNG frames"),
    "serve": ("fiesta_envs.web.serve", "play, watch and replay games in a web browser (on 127.0.0.1)"),
    "tune": ("fiesta_envs.training.tune", "hyper-parameter search on a training config with Optuna (resumable)"),
    "export": ("fiesta_envs.training.export", "turn a training checkpoint into an agent shipped in the package (ppo)"),
}


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
    parser = build_parser(argv)
    args = parser.parse_args(argv)
    module = importlib.import_module(args.module)
    return int(module.run(args) or 0)


if __name__ == "__main__":
    sys.exit(main())
