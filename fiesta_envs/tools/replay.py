"""``fiesta replay``: watch a saved game record again, in the terminal or as pictures.

::

    fiesta replay evaluations/fm_2p/records.jsonl --index 3            # text, step by step
    fiesta replay records.jsonl --index 3 --gif game.gif --delay 0.8    # an animated GIF
    fiesta replay records.jsonl --frames frames/ --steps 0:20           # frame_0000.png, ...

A record is one line of a ``.jsonl`` file written by ``fiesta evaluate --records`` (see
``fiesta_envs.evaluation.records``): seed, options, agents by seat, actions by name and the final scores.
The game is rebuilt from its seed and the actions are played again through the engine; the
replay says whether it reaches the recorded final scores (it always should: the engines are
deterministic). Pictures need Pillow (``pip install fiesta_envs[render]``).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any, TextIO

from fiesta_envs.core.errors import FiestaError
from fiesta_envs.core.game import Game
from fiesta_envs.core.wording import players
from fiesta_envs.registry import game_spec
from fiesta_envs.render.canvas import require_pillow


def load_record(path: str | Path, index: int = 0) -> dict[str, Any]:
    """Record number ``index`` (0-based; negative counts from the end) of a records file."""
    from fiesta_envs.evaluation.records import RecordError, read_records

    records = list(read_records(path))
    if not records:
        raise RecordError(f"{path}: no records in this file")
    if not -len(records) <= index < len(records):
        raise RecordError(f"{path}: no record {index}; the file holds {len(records)} (0..{len(records) - 1})")
    return records[index]


def replay_steps(record: Mapping[str, Any]) -> Iterator[tuple[Game, int, int, str]]:
    """The game of ``record`` at its start and after every action: ``(game, step, player, action)``.

    The start comes as step 0 with player -1 and an empty action; the same ``game`` object is
    yielded each time, advanced by one action.
    """
    spec = game_spec(record["game"])
    game = spec.game_class()(num_players=record["num_players"], seed=record["seed"], **dict(record["options"]))
    yield game, 0, -1, ""
    for step, name in enumerate(record["actions"], start=1):
        player = game.current_player
        game.play(name)
        yield game, step, player, name


def check_record(record: Mapping[str, Any]) -> list[float]:
    """Replay ``record`` with the checks of ``evaluation.records``; its final scores (``RecordError`` if not)."""
    from fiesta_envs.evaluation.records import replay_record

    return replay_record(record)


def describe(record: Mapping[str, Any]) -> str:
    agents = record.get("agents") or []
    seats = ", ".join(f"player_{i} {name}" for i, name in enumerate(agents)) or "agents not recorded"
    return (
        f"{record['game']}, {players(record['num_players'])}, seed {record['seed']}, "
        f"options {dict(record['options'])}; {seats}; {len(record['actions'])} actions"
    )


def replay_text(
    record: Mapping[str, Any], out: TextIO, delay: float = 0.0, pause: Callable[[], bool] | None = None
) -> None:
    """Print the table after every action. ``pause()`` (if given) is asked before each step and
    returns False to stop early; ``delay`` seconds pass between steps."""
    agents = record.get("agents") or []
    for game, step, player, name in replay_steps(record):
        if step:
            who = f"player_{player}" + (f" ({agents[player]})" if 0 <= player < len(agents) else "")
            out.write(f"\nstep {step}/{len(record['actions'])}: {who} plays {name!r}\n")
        else:
            out.write("start of the game\n")
        out.write(game.render_text() + "\n")
        out.flush()
        if step < len(record["actions"]):
            if pause is not None and not pause():
                out.write("replay stopped\n")
                return
            if delay:
                time.sleep(delay)


def replay_frames(record: Mapping[str, Any], steps: range | None = None) -> Iterator[Any]:
    """A Pillow image of the table at the start (step 0) and after every action (only the
    ``steps`` given, all by default)."""
    from fiesta_envs.render import draw

    image, _, _ = require_pillow()
    for game, step, _, _ in replay_steps(record):
        if steps is not None and step >= steps.stop:
            return
        if steps is None or step in steps:
            yield image.fromarray(draw(game))


def parse_steps(text: str | None, record: Mapping[str, Any]) -> range | None:
    """``"FROM:TO"`` (inclusive, either side may be left out) as a range of steps of ``record``."""
    if text is None:
        return None
    last = len(record["actions"])
    first_text, sep, last_text = text.partition(":")
    try:
        first = int(first_text) if first_text.strip() else 0
        final = int(last_text) if last_text.strip() else last
    except ValueError:
        first, final = -1, -1
    if not sep or not 0 <= first <= final <= last:
        raise FiestaError(
            f"--steps must be FROM:TO with 0 <= FROM <= TO <= {last} (the record's actions), got {text!r}"
        )
    return range(first, final + 1)


def save_gif(record: Mapping[str, Any], path: str | Path, delay: float = 0.7, steps: range | None = None) -> int:
    """An animated GIF of the game (the last frame held 3 times as long); returns the frame count."""
    frames = _shared_palette(list(replay_frames(record, steps)))
    durations = [round(delay * 1000)] * len(frames)
    durations[-1] *= 3
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    frames[0].save(path, save_all=True, append_images=frames[1:], duration=durations, loop=0)
    return len(frames)


def _shared_palette(frames: list[Any]) -> list[Any]:
    """Every frame mapped onto one 128-colour palette taken from the first and last frames: much
    faster and smaller than a palette per frame, and the pictures use few colours anyway."""
    image, _, _ = require_pillow()
    first, last = frames[0], frames[-1]
    both = image.new("RGB", (first.width, first.height + last.height))
    both.paste(first, (0, 0))
    both.paste(last, (0, first.height))
    palette = both.quantize(colors=128, method=image.Quantize.FASTOCTREE, dither=image.Dither.NONE)
    return [frame.quantize(palette=palette, dither=image.Dither.NONE) for frame in frames]


def save_frames(record: Mapping[str, Any], directory: str | Path, steps: range | None = None) -> int:
    """``frame_0000.png`` (the start), ``frame_0001.png`` (after the first action)...: one PNG per
    step, named by its step; returns how many were written."""
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    numbers = steps if steps is not None else range(len(record["actions"]) + 1)
    count = 0
    for step, frame in zip(numbers, replay_frames(record, steps), strict=False):
        frame.save(directory / f"frame_{step:04d}.png", compress_level=1)
        count += 1
    return count


# ---------------------------------------------------------------------- command line
def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("record", help="a records file (.jsonl) written by 'fiesta evaluate --records'")
    parser.add_argument("--index", type=int, default=0, help="which record of the file, 0-based (default 0)")
    parser.add_argument("--gif", default=None, metavar="FILE", help="write an animated GIF instead of text")
    parser.add_argument("--frames", default=None, metavar="DIR", help="write one PNG per step into DIR")
    parser.add_argument(
        "--delay", type=float, default=None, help="seconds between steps (text: default 0; GIF: default 0.7)"
    )
    parser.add_argument(
        "--steps", default=None, metavar="FROM:TO", help="pictures of these steps only (0 is the start; default all)"
    )
    parser.add_argument("--pause", action="store_true", help="text: wait for Enter before each step (q stops)")


def run(args: argparse.Namespace) -> int:
    from fiesta_envs.evaluation.records import RecordError

    try:
        record = load_record(args.record, args.index)
        print(describe(record))
        if args.delay is not None and args.delay < 0:
            raise FiestaError(f"--delay must not be negative, got {args.delay}")
        try:
            scores = check_record(record)
            verdict = f"the replay reaches the recorded final scores {scores}"
        except RecordError as error:
            verdict = f"WARNING: the replay does not match the record: {error}"
        if args.gif or args.frames:
            steps = parse_steps(args.steps, record)
            if args.gif:
                count = save_gif(record, args.gif, 0.7 if args.delay is None else args.delay, steps)
                print(f"wrote {args.gif} ({count} frames)")
            if args.frames:
                count = save_frames(record, args.frames, steps)
                print(f"wrote {count} frames into {args.frames}")
        else:
            replay_text(record, sys.stdout, args.delay or 0.0, _ask_enter if args.pause else None)
        print(verdict)
        return 0 if verdict.startswith("the replay") else 1
    except (FiestaError, ValueError, OSError, ImportError) as error:
        print(f"fiesta replay: error: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("\nreplay stopped")
        return 0


def _ask_enter() -> bool:
    try:
        reply = input("[Enter: next step, q: stop] ")
    except EOFError:
        return False
    return reply.strip().lower() not in ("q", "quit")
