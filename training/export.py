"""``fiesta export``: turn a training checkpoint into an agent shipped inside the package.

::

    fiesta export runs/fiesta_mexicana/ppo-seed0 --name ppo \\
        --eval-json evaluations/fiesta_mexicana_2p/results.json \\
        --command "fiesta train --config configs/fiesta_mexicana/ppo.yaml"

reads the checkpoint (a checkpoint directory, its ``model.zip``, or a run directory for its
latest checkpoint; its ``meta.json`` and SHA-256 are checked), takes the actor network from its
pickle-free ``policy.npz`` (``fiesta_envs.policies.mlp.ActorSnapshot``; a checkpoint of an older
fiesta_envs has none, and its ``model.zip`` is unpickled only with ``--trust-checkpoint``), checks
that it fits the game's observations and actions, and writes
``<out>/<game>-<N>p[-<variant>].npz`` and ``.json`` (default ``<out>``: the package's
``fiesta_envs/agents/weights/``). The JSON records the game, player count and options from
``meta.json``, the engine version, the sizes, the network, a summary and the whole training
config, the step and seed, the evaluation (``--eval-json``, else the run's ``final_eval.json``
when it is about this checkpoint) and ``--command``; see ``fiesta_envs.agents.shipped`` for the
format. Both files are written to temporary files and renamed into place.

``--also-plays 5 6 7 8`` (or ``5,6,7,8``) writes ``also_plays``: the other player counts the agent plays, for a
run trained on a shortlist (``shortlist: true``) only, and only counts it was measured at
(``scripts/evaluate_shortlist.py``); a run that reads the observation is refused.

Only plain MLP policies on flat observations can be exported; anything else is refused.
An existing agent is replaced only with ``--force``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from fiesta_envs.agents.shipped import (
    PACKAGE_WEIGHTS_DIR,
    SHIPPED_NAMES,
    agent_directory,
    agent_stem,
    write_shipped_agent,
)
from fiesta_envs.core.errors import FiestaError, InvalidOptionError
from fiesta_envs.core.wording import players
from fiesta_envs.evaluation.agents import add_trust_argument
from fiesta_envs.policies.mlp import ActorSnapshot
from fiesta_envs.policies.shortlist import DEFAULT_VERSION, shortlist_of, shortlist_version_of
from fiesta_envs.registry import game_spec

FINAL_EVAL_FILE = "final_eval.json"  # written by ``fiesta train`` in the run directory
_SUMMARY_FIELDS = ("total_timesteps", "n_envs", "ppo", "opponents", "reward_shaping", "pretrain")


class ExportError(FiestaError, ValueError):
    """A checkpoint that cannot become a shipped agent."""


def export_checkpoint(
    source: str | Path,
    name: str = "ppo",
    *,
    out_dir: str | Path | None = None,
    eval_json: str | Path | None = None,
    command: str | None = None,
    force: bool = False,
    trust_checkpoint: bool = False,
    also_plays: list[int] | None = None,
) -> tuple[Path, Path]:
    """Write the shipped agent of checkpoint ``source``; returns the (npz, json) paths. ``also_plays``: the other
    player counts it plays (a shortlist run only)."""
    from fiesta_envs.evaluation.checkpoints import CheckpointError, load_actor, read_meta

    try:
        meta = read_meta(source)
    except CheckpointError as error:
        raise ExportError(f"cannot export {source}: {error}") from error
    spec = game_spec(meta["game"])
    game_class = spec.game_class()
    trained_version = meta.get("game_version")  # recorded by newer trainers; else the current version is assumed
    if isinstance(trained_version, int) and trained_version != game_class.version:
        raise ExportError(
            f"checkpoint {meta['path']} was trained on version {trained_version} of {spec.name}, "
            f"this is version {game_class.version}; retrain"
        )
    out = Path(out_dir) if out_dir is not None else PACKAGE_WEIGHTS_DIR
    stem = agent_stem(game_class, int(meta["num_players"]), meta.get("options") or {})
    files = [agent_directory(name, out) / f"{stem}{suffix}" for suffix in (".npz", ".json")]
    existing = [path for path in files if path.exists()]
    if existing and not force:
        raise ExportError(f"{existing[0]} already exists; pass --force to replace it")
    config = meta.get("config") or {}
    shortlist = shortlist_version_of(config)
    if also_plays is not None and shortlist is None:
        raise ExportError(
            f"cannot export {meta['path']} with --also-plays: only a shortlist agent (trained with 'shortlist: true') "
            f"plays other player counts; this run reads the observation of {players(meta['num_players'])}"
        )
    try:
        actor = load_actor(meta["path"], trust_pickle=trust_checkpoint)
    except CheckpointError as error:
        raise ExportError(f"cannot export {source}: {error}") from error
    _check_sizes(actor, game_class, meta, shortlist)
    extra: dict[str, Any] = {
        "training": {
            "algorithm": meta.get("algorithm", "MaskablePPO"),
            "summary": {k: config[k] for k in _SUMMARY_FIELDS if k in config},
            "config": config,
            "checkpoint": str(meta["path"]),
            "checkpoint_sha256": meta.get("sha256"),
            "versions": meta.get("versions", {}),
        },
        "steps": int(meta["step"]),
        "seed": meta.get("seed"),
        "evaluation": _evaluation(eval_json, Path(meta["path"])),
        "command": command,
        "exported": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    }
    try:
        return write_shipped_agent(
            actor,
            game_class,
            int(meta["num_players"]),
            options=meta.get("options") or {},
            out_dir=out,
            name=name,
            extra=extra,
            force=force,
            shortlist=shortlist is not None,
            shortlist_version=DEFAULT_VERSION if shortlist is None else shortlist,
            also_plays=also_plays,
            environment=spec.gym_id,
        )
    except FiestaError as error:
        raise ExportError(f"cannot export {meta['path']}: {error}") from error


def _check_sizes(actor: ActorSnapshot, game_class: Any, meta: Mapping[str, Any], shortlist: int | None = None) -> None:
    """The network must take this game's observations and give one logit per action (trained with
    ``shortlist: true``: take the vector of version ``shortlist`` of the shortlist and give one logit per
    candidate)."""
    game = game_class(num_players=meta["num_players"], seed=0, **dict(meta.get("options") or {}))
    if shortlist is not None:
        try:
            game_shortlist = shortlist_of(game, shortlist)
        except InvalidOptionError as error:
            raise ExportError(f"cannot export {meta['path']}: {error}; retrain") from error
        expected = (game_shortlist.size, game_shortlist.choices)
        if (actor.input_size, actor.output_size) != expected:
            raise ExportError(
                f"cannot export {meta['path']}: its network maps {actor.input_size} inputs to {actor.output_size} "
                f"candidates, the shortlist of {game.name} has {expected[0]} entries and {expected[1]} candidates "
                "now; retrain"
            )
        return
    if (actor.input_size, actor.output_size) != (game.observation_size, game.num_actions):
        raise ExportError(
            f"cannot export {meta['path']}: its network maps {actor.input_size} inputs to {actor.output_size} "
            f"actions, {game.name} has {game.observation_size} observation entries and {game.num_actions} "
            "actions now; retrain"
        )


def _evaluation(eval_json: str | Path | None, checkpoint: Path) -> Any:
    """The evaluation to record: ``--eval-json``, else the run's final evaluation of this very checkpoint."""
    if eval_json is not None:
        path = Path(eval_json)
        try:
            return {"file": path.name, "results": json.loads(path.read_text(encoding="utf-8"))}
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
            raise ExportError(f"--eval-json {path}: cannot read it as JSON ({error})") from error
    final = checkpoint.parent.parent / FINAL_EVAL_FILE
    if final.is_file():
        try:
            data = json.loads(final.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError):
            return None
        if isinstance(data, dict) and Path(str(data.get("checkpoint", ""))).resolve() == checkpoint.resolve():
            return {"file": FINAL_EVAL_FILE, "results": data}
    return None


def _size_text(size: int) -> str:
    return f"{size} bytes" if size < 1024 else f"{size / 1024:.1f} KiB"


# ---------------------------------------------------------------------------------- command line
def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.epilog = (
        "example:\n  fiesta export runs/fiesta_mexicana/ppo-seed0 --name ppo "
        '--eval-json evaluations/fiesta_mexicana_2p/results.json --command "fiesta train --config ..."'
    )
    parser.add_argument(
        "source", metavar="RUN_OR_CHECKPOINT", help="a run directory (its latest checkpoint) or a checkpoint"
    )
    parser.add_argument("--name", default="ppo", choices=SHIPPED_NAMES, help="the agent's name (default ppo)")
    parser.add_argument(
        "--out",
        type=Path,
        default=None,
        help=f"the weights folder (default {PACKAGE_WEIGHTS_DIR}); agents other than ppo go to its subfolder <name>",
    )
    parser.add_argument("--eval-json", type=Path, default=None, help="evaluation results to record (a JSON file)")
    parser.add_argument("--command", default=None, help="the command that reproduces the training run")
    parser.add_argument("--force", action="store_true", help="replace an agent already exported there")
    parser.add_argument(
        "--also-plays",
        nargs="+",
        type=_player_counts,
        default=None,
        metavar="N",
        help="other player counts a shortlist agent plays (measured there), e.g. 5 6 7 8 or 5,6,7,8",
    )
    add_trust_argument(parser)


def _player_counts(text: str) -> list[int]:
    """``"5"`` or ``"5,6,7"``: player counts (one argument of ``--also-plays``)."""
    try:
        return [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"player counts are whole numbers (5 6 7 or 5,6,7), got {text!r}") from None


def run(args: argparse.Namespace) -> int:
    also_plays = None if args.also_plays is None else [count for counts in args.also_plays for count in counts]
    try:
        paths = export_checkpoint(
            args.source,
            args.name,
            out_dir=args.out,
            eval_json=args.eval_json,
            command=args.command,
            force=args.force,
            trust_checkpoint=args.trust_checkpoint,
            also_plays=also_plays,
        )
    except (FiestaError, ValueError) as error:
        print(f"fiesta export: error: {error}", file=sys.stderr)
        return 2
    info = json.loads(paths[1].read_text(encoding="utf-8"))
    for path in paths:
        print(f"wrote {path} ({_size_text(path.stat().st_size)})")
    layers = " -> ".join(str(n) for n in info["network"]["layers"])
    print(
        f"{info['game']}, {players(info['num_players'])}, version {info['version']}, step {info['steps']:,}: "
        f"network {layers} ({info['network']['parameters']:,} parameters)"
    )
    if info.get("also_plays"):
        print(f"also plays {', '.join(map(str, info['also_plays']))} players")
    if info.get("evaluation") is None:
        print("note: no evaluation recorded (pass --eval-json FILE)")
    if not info.get("command"):
        print('note: no reproducing command recorded (pass --command "fiesta train ...")')
    return 0
