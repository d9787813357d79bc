"""``fiesta replay``: a saved game record replayed as text, as an animated GIF and as PNG frames."""

from __future__ import annotations

import argparse
import io
import json
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from fiesta_envs.evaluation.records import make_record, write_records
from fiesta_envs.fiesta_mexicana.game import FiestaMexicana
from fiesta_envs.render import draw
from fiesta_envs.tools import replay


def random_record(seed: int = 11, num_players: int = 3) -> dict:
    game = FiestaMexicana(num_players=num_players, seed=seed)
    rng = np.random.default_rng(seed)
    names = []
    while not game.is_over:
        action = int(rng.choice(game.legal_actions()))
        names.append(game.action_to_string(action))
        game.step(action)
    return make_record(game, seed, agents=["random", "greedy", "random"][:num_players], actions=names)


@pytest.fixture(scope="module")
def record() -> dict:
    return random_record()


@pytest.fixture
def records_file(tmp_path: Path, record: dict) -> Path:
    path = tmp_path / "records.jsonl"
    write_records(path, [random_record(seed=3, num_players=2), record])
    return path


def run(*argv: str) -> int:
    parser = argparse.ArgumentParser()
    replay.add_arguments(parser)
    return replay.run(parser.parse_args(list(argv)))


def test_text_replay_shows_every_step_and_confirms_the_scores(
    records_file: Path, record: dict, capsys: pytest.CaptureFixture
) -> None:
    assert run(str(records_file), "--index", "1") == 0
    out = capsys.readouterr().out
    steps = len(record["actions"])
    assert out.startswith("fiesta_mexicana, 3 players, seed 11")
    assert "start of the game" in out
    assert f"step 1/{steps}: player_0 (random) plays {record['actions'][0]!r}" in out
    assert f"step {steps}/{steps}: " in out
    assert out.count("Fiesta Mexicana (standard), phase:") == steps + 1
    assert f"the replay reaches the recorded final scores {record['scores']}" in out


def test_replay_steps_end_with_the_recorded_scores(record: dict) -> None:
    steps = list(replay.replay_steps(record))
    game, last, _, name = steps[-1]
    assert last == len(record["actions"]) and name == record["actions"][-1]
    assert game.is_over and game.scores().tolist() == record["scores"]


def test_gif_of_some_steps(records_file: Path, record: dict, tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    gif = tmp_path / "out" / "game.gif"
    assert run(str(records_file), "--index", "1", "--gif", str(gif), "--steps", "0:6", "--delay", "0.2") == 0
    assert f"wrote {gif} (7 frames)" in capsys.readouterr().out
    with Image.open(gif) as image:
        assert image.n_frames == 7
        game = FiestaMexicana(num_players=3, seed=11)
        assert image.size == draw(game).shape[1::-1]
        assert image.info["duration"] == 200
        image.seek(6)
        last = np.asarray(image.convert("RGB")).copy()
    for name in record["actions"][:6]:
        game.play(name)
    exact = draw(game)
    assert np.mean(np.abs(last.astype(int) - exact.astype(int))) < 3, "frame 6 shows the game after 6 actions"


def test_png_frames_are_named_by_step(records_file: Path, record: dict, tmp_path: Path) -> None:
    frames = tmp_path / "frames"
    assert run(str(records_file), "--index", "1", "--frames", str(frames), "--steps", "3:5") == 0
    assert sorted(p.name for p in frames.iterdir()) == ["frame_0003.png", "frame_0004.png", "frame_0005.png"]
    game = FiestaMexicana(num_players=3, seed=11)
    game.play(*record["actions"][:4])
    assert np.array_equal(np.asarray(Image.open(frames / "frame_0004.png")), draw(game))


def test_a_record_that_does_not_replay_is_flagged(tmp_path: Path, record: dict, capsys: pytest.CaptureFixture) -> None:
    wrong = dict(record, scores=[s + 1 for s in record["scores"]])
    path = tmp_path / "wrong.jsonl"
    path.write_text(json.dumps(wrong) + "\n")
    assert run(str(path)) == 1
    assert "WARNING: the replay does not match the record: replayed scores" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--index", "5"], "no record 5; the file holds 2"),
        (["--gif", "x.gif", "--steps", "9:3"], "--steps must be FROM:TO"),
        (["--delay", "-1"], "--delay must not be negative"),
    ],
)
def test_bad_arguments_are_reported(records_file: Path, argv: list, message: str, capsys) -> None:
    assert run(str(records_file), *argv) == 2
    assert message in capsys.readouterr().err


def test_a_pause_can_stop_the_text_replay(record: dict) -> None:
    out = io.StringIO()
    answers = iter([True, True, False])
    replay.replay_text(record, out, pause=lambda: next(answers))
    text = out.getvalue()
    assert "step 2/" in text and "step 3/" not in text  # asked before steps 1, 2 and 3
    assert text.endswith("replay stopped\n")


@pytest.mark.slow
def test_gif_of_a_whole_game(tmp_path: Path, record: dict) -> None:
    gif = tmp_path / "whole.gif"
    assert replay.save_gif(record, gif) == len(record["actions"]) + 1
    with Image.open(gif) as image:
        assert image.n_frames == len(record["actions"]) + 1
