"""Checkpoints as tournament agents: a tiny trained model plays; a foreign one is refused."""

from __future__ import annotations

import pytest
from evaluation_toys import TOY_SPECS, register_toys

pytest.importorskip("sb3_contrib")


@pytest.fixture(scope="module")
def toy_checkpoint(tmp_path_factory):
    """A MaskablePPO trained for a few hundred steps on 2-player toy Nim, saved as a checkpoint."""
    import fiesta_envs.registry as registry

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(registry, "GAMES", {**registry.GAMES, **TOY_SPECS})
        from sb3_contrib import MaskablePPO

        from fiesta_envs.training.checkpoint import save_checkpoint

        env = registry.make_gym_env("toy_nim", num_players=2, opponents="random")
        model = MaskablePPO(
            "MlpPolicy",
            env,
            n_steps=64,
            batch_size=32,
            n_epochs=1,
            seed=0,
            device="cpu",
            policy_kwargs={"net_arch": [16]},
        )
        model.learn(256)
        run_dir = tmp_path_factory.mktemp("toy_run")
        meta = {"game": "toy_nim", "num_players": 2, "options": {"max_take": 3}, "seed": 0, "config": {}}
        path = save_checkpoint(model, run_dir, 256, meta)
        yield run_dir, path


@pytest.fixture
def toy_games(monkeypatch):
    return register_toys(monkeypatch)


def test_a_checkpoint_plays_a_tournament(toy_checkpoint, toy_games):
    from fiesta_envs.evaluation.evaluate import run_tournament

    run_dir, path = toy_checkpoint
    agents = [f"ppo={run_dir}", "random"]  # a run directory means its latest checkpoint
    evaluation = run_tournament("toy_nim", 2, agents, games_per_table=10, seed=0, bootstrap=50)
    (match,) = evaluation.matches
    assert (match.agent, match.opponent, match.games) == ("ppo", "random", 10)
    assert evaluation.agents[0].kind == "checkpoint" and evaluation.agents[0].target == str(path)
    again = run_tournament("toy_nim", 2, [str(path), "random"], games_per_table=10, seed=0, bootstrap=50)
    assert [g.scores for g in again.games] == [g.scores for g in evaluation.games]  # deterministic play


def test_a_checkpoint_for_another_player_count_is_refused(toy_checkpoint, toy_games):
    from fiesta_envs.evaluation.agents import AgentError
    from fiesta_envs.evaluation.evaluate import run_tournament

    run_dir, _ = toy_checkpoint
    with pytest.raises(AgentError, match=r"trained for 2 players, not 3.*--players 2"):
        run_tournament("toy_nim", 3, [str(run_dir), "random"], games_per_table=3)


def test_a_checkpoint_for_another_game_is_refused(toy_checkpoint, toy_games, capsys):
    from fiesta_envs.cli import main

    _, path = toy_checkpoint
    assert main(["evaluate", "--game", "toy_team", "--players", "2", "--agents", f"{path},random"]) == 2
    error = capsys.readouterr().err
    assert "trained for game 'toy_nim', not 'toy_team'" in error
    assert "Traceback" not in error


def test_a_directory_without_checkpoints_is_explained(tmp_path, toy_games):
    from fiesta_envs.evaluation.agents import AgentError
    from fiesta_envs.evaluation.evaluate import run_tournament

    with pytest.raises(AgentError, match="cannot use"):
        run_tournament("toy_nim", 2, [str(tmp_path), "random"], games_per_table=2)
