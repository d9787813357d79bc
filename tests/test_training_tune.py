"""``fiesta tune``: trials train for real, results are written, the study resumes, pruning is wired.

The trials run the shipped smoke config on Fiesta Mexicana, shortened to two rollouts of 256
steps (``total_timesteps=512``: one periodic evaluation at step 512, then the final one) with
two games per evaluation, on one torch thread: a trial takes a few seconds.
"""

from __future__ import annotations

import csv
import json
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

pytest.importorskip("sb3_contrib")
pytest.importorskip("optuna")

import optuna

from fiesta_envs.cli import COMMANDS, main
from fiesta_envs.registry import GAMES
from fiesta_envs.training import train as train_module
from fiesta_envs.training import tune
from fiesta_envs.training.config import load_config

ROOT = Path(__file__).resolve().parent.parent
SMOKE = ROOT / "configs" / "smoke.yaml"
FAST = [
    "--set",
    "total_timesteps=512",
    "--set",
    "final_eval.games=2",
    "--set",
    "eval.games=2",
    "--set",
    "torch_threads=1",
    "--set",
    "tensorboard=false",
]


def fm_ready() -> bool:
    try:
        GAMES["fiesta_mexicana"].baseline_classes()
    except (KeyError, ImportError, AttributeError):
        return False
    return True


needs_fm = pytest.mark.skipif(not fm_ready(), reason="fiesta_mexicana is not importable yet")


def run_tune(study: Path, *extra: str, trials: int = 2) -> int:
    command = ["tune", "--config", str(SMOKE), "--trials", str(trials), "--study-dir", str(study), "--no-progress"]
    return main([*command, *FAST, *extra])


def csv_rows(study: Path) -> list[dict[str, str]]:
    with open(study / "trials.csv", newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def stored_trials(study: Path) -> list:
    optuna.logging.set_verbosity(optuna.logging.ERROR)
    return optuna.load_study(study_name=None, storage=f"sqlite:///{study / 'study.db'}").get_trials()


@needs_fm
def test_a_study_trains_its_trials_writes_the_results_and_resumes(tmp_path, capsys):
    study = tmp_path / "study"
    assert run_tune(study) == 0
    assert (study / "study.db").is_file()
    rows = csv_rows(study)
    assert [r["trial"] for r in rows] == ["0", "1"] and {r["state"] for r in rows} == {"COMPLETE"}
    assert set(tune.DEFAULT_SPACE) <= set(rows[0])
    for row in rows:  # the score is the final evaluation's win rate against the last baseline (greedy)
        final = json.loads((study / f"trial_{row['trial']}" / "final_eval.json").read_text())
        assert float(row["value"]) == pytest.approx(final["win_rate"]["greedy"])
        assert row["ppo.batch_size"] == "256"  # {256, 512, 1024} fitted to the smoke rollout of 256
    best = max(rows, key=lambda r: (float(r["value"]), -int(r["trial"])))

    text = (study / "best.yaml").read_text()
    header = [line for line in text.splitlines() if line.startswith("#")]
    assert f"trial {best['trial']} of 2" in header[1] and "'study'" in header[0]
    assert any(line.startswith("# found by: fiesta tune --config") for line in header)
    config = load_config(study / "best.yaml")
    assert config.run_dir is None and config.total_timesteps == 512
    assert config.ppo.learning_rate == float(best["ppo.learning_rate"])
    assert config.ppo.net_arch == json.loads(best["ppo.net_arch"])
    assert config.ppo.n_epochs == int(best["ppo.n_epochs"])
    out = capsys.readouterr().out
    assert "fiesta tune study: 2 trials" in out and "learning_rate" in out

    run = tmp_path / "best_run"
    command = ["train", "--config", str(study / "best.yaml"), "--run-dir", str(run), "--no-progress"]
    assert main([*command, "--set", "total_timesteps=256"]) == 0
    assert (run / "final_eval.json").is_file()

    assert run_tune(study, trials=1) == 0  # the same command again: the study goes on
    rows = csv_rows(study)
    assert [r["trial"] for r in rows] == ["0", "1", "2"] and rows[2]["state"] == "COMPLETE"
    assert (study / "trial_2" / "final_eval.json").is_file()
    rates = {r["ppo.learning_rate"] for r in rows}
    assert len(rates) == 3  # the sampler is not restarted on the same random draws

    capsys.readouterr()
    assert run_tune(study, "--set", "total_timesteps=1024", trials=1) == 2
    assert "another base config (it differs in total_timesteps)" in capsys.readouterr().err
    assert len(csv_rows(study)) == 3


@needs_fm
def test_a_failed_trial_is_recorded_and_the_study_goes_on(tmp_path, monkeypatch):
    calls = []

    def crash_once(self):  # the first trial crashes; the second "trains" instantly (real runs: the test above)
        calls.append(self.run_dir.name)
        if len(calls) == 1:
            raise RuntimeError("boom")
        return [SimpleNamespace(opponent="random", win_rate=0.75), SimpleNamespace(opponent="greedy", win_rate=0.25)]

    monkeypatch.setattr(train_module.Trainer, "run", crash_once)
    study = tmp_path / "study"
    assert run_tune(study) == 0
    assert calls == ["trial_0", "trial_1"]
    rows = csv_rows(study)
    assert [r["state"] for r in rows] == ["FAIL", "COMPLETE"]
    assert rows[0]["error"] == "RuntimeError: boom" and rows[0]["value"] == ""
    assert float(rows[1]["value"]) == 0.25  # against greedy, the last final_eval baseline
    assert "# trial 1 of 2" in (study / "best.yaml").read_text()
    assert run_tune(study, "--objective", "mean", trials=0) == 2  # a study keeps its objective


@needs_fm
def test_a_bad_combination_fails_the_trial_with_the_configs_own_error(tmp_path, capsys):
    space = tmp_path / "space.yaml"  # each value fits the config alone; together no opponent is left
    space.write_text(
        "opponents.baselines.random: [0.0]\nopponents.baselines.greedy: [0.0]\nopponents.self_play.weight: [0.0]\n"
    )
    study = tmp_path / "study"
    assert run_tune(study, "--space", str(space)) == 1  # no trial finished
    rows = csv_rows(study)
    assert [r["state"] for r in rows] == ["FAIL", "FAIL"]
    assert "field 'opponents'" in rows[0]["error"] and "must not all be 0" in rows[0]["error"]
    assert not (study / "trial_0").exists() and not (study / "best.yaml").exists()


BAD_SPACES = [
    (
        "ppo.learnin_rate: {type: float, low: 1.0e-5, high: 1.0e-3, log: true}",
        ["unknown config key 'ppo.learnin_rate'", "did you mean 'ppo.learning_rate'?"],
    ),
    (
        "ppo.learning_rate: {type: floaty, low: 1, high: 2}",
        ["'ppo.learning_rate'", "unknown type 'floaty'", "float, int, categorical"],
    ),
    ("ppo.ent_coef: {type: float, low: 0.1, high: 0.01}", ["'ppo.ent_coef'", "low 0.1 is above high 0.01"]),
    (
        "ppo.gamma: {type: categorical, choises: [0.9]}",
        ["'ppo.gamma'", "unknown setting 'choises'", "did you mean 'choices'?"],
    ),
    ("ppo.n_epochs: {type: float, low: 2, high: 8}", ["'ppo.n_epochs'", "low bound 2.0", "valid integer"]),
    ("ppo.net_arch: {type: categorical, choices: []}", ["'ppo.net_arch'", "non-empty list"]),
    ("ppo.ent_coef: {type: float, low: 0, high: 0.1, log: true}", ["'ppo.ent_coef'", "log-scale range needs low > 0"]),
    ("ppo: {type: int, low: 1, high: 2}", ["'ppo' is a section", "ppo.learning_rate"]),
    ("- ppo.gamma", ["a search space is a YAML mapping"]),
]


@needs_fm
@pytest.mark.parametrize(("content", "fragments"), BAD_SPACES)
def test_a_malformed_space_file_is_refused_naming_the_key(tmp_path, capsys, content, fragments):
    space = tmp_path / "space.yaml"
    space.write_text(content + "\n")
    study = tmp_path / "study"
    assert run_tune(study, "--space", str(space)) == 2
    err = capsys.readouterr().err
    assert str(space) in err
    for fragment in fragments:
        assert fragment in err
    assert not (study / "study.db").exists()  # refused before anything ran


class AlwaysPrune(optuna.pruners.BasePruner):
    """Prunes at the first report, and remembers what the trial had reported by then."""

    def __init__(self) -> None:
        self.seen: list[dict[int, float]] = []

    def prune(self, study, trial) -> bool:
        self.seen.append(dict(trial.intermediate_values))
        return True


@needs_fm
def test_periodic_evaluations_feed_the_pruner_which_stops_the_trial(tmp_path, monkeypatch):
    pruner = AlwaysPrune()
    monkeypatch.setattr(tune, "make_pruner", lambda optuna, config, enabled: pruner)
    study = tmp_path / "study"
    one_rollout = [
        "total_timesteps=256",
        "eval.every=256",
        "checkpoint_every=256",
        "opponents.self_play.snapshot_every=256",
    ]
    assert run_tune(study, *(f"--set={item}" for item in one_rollout), trials=1) == 0
    evaluation = json.loads((study / "trial_0" / "eval.jsonl").read_text().splitlines()[0])
    # the score at step 256: the periodic evaluation plays random only, so its win rate stands in for greedy's
    assert pruner.seen == [{256: evaluation["win_rate"]["random"]}]
    (trial,) = stored_trials(study)
    assert trial.state == optuna.trial.TrialState.PRUNED and trial.intermediate_values == pruner.seen[0]
    assert csv_rows(study)[0]["state"] == "PRUNED"
    assert not (study / "trial_0" / "final_eval.json").exists()  # stopped before the final evaluation
    assert not (study / "best.yaml").exists()


@needs_fm
def test_the_default_pruner_is_the_median_rule_and_spares_a_first_evaluation(tmp_path):
    config = load_config(SMOKE, ["eval.every=512", "total_timesteps=2048"])
    pruner = tune.make_pruner(optuna, config, enabled=True)
    assert isinstance(pruner, optuna.pruners.MedianPruner)
    assert isinstance(tune.make_pruner(optuna, config, enabled=False), optuna.pruners.NopPruner)
    never = load_config(SMOKE, ["eval.every=0"])
    assert isinstance(tune.make_pruner(optuna, never, enabled=True), optuna.pruners.NopPruner)

    optuna.logging.set_verbosity(optuna.logging.ERROR)
    study = optuna.create_study(direction="maximize", pruner=pruner)
    for value in (0.6, 0.7, 0.8):
        study.add_trial(optuna.trial.create_trial(value=value, intermediate_values={512: value, 1024: value}))
    trial = study.ask()
    trial.report(0.1, 512)
    assert not trial.should_prune()  # the first evaluation: too early to judge
    trial.report(0.2, 1024)
    assert trial.should_prune()  # below the median (0.7) of the completed trials at step 1024


def test_batch_sizes_are_fitted_to_the_rollout():
    assert tune.fit_batch_size(512, 256) == 256
    assert tune.fit_batch_size(256, 2048) == 256
    assert [tune.fit_batch_size(b, 1000) for b in (256, 512, 1024)] == [250, 500, 1000]
    space = tune.load_space(None)
    batch = space["ppo.batch_size"]
    assert tune._batch_choices(batch, 256) == [256]
    assert tune._batch_choices(batch, 8 * 256) == [256, 512, 1024]


def test_a_space_file_can_extend_the_default(tmp_path):
    path = tmp_path / "space.yaml"
    path.write_text("extends: default\nppo.gamma: null\nreward_shaping: [0.0, 1.0]\n")
    space = tune.load_space(path)
    assert "ppo.gamma" not in space and "ppo.learning_rate" in space
    assert space["reward_shaping"].choices == (0.0, 1.0)


@needs_fm
def test_without_optuna_the_message_says_what_to_install(tmp_path, monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "optuna", None)  # `import optuna` now raises ImportError
    assert run_tune(tmp_path / "study") == 2
    assert "pip install 'fiesta_envs[train]'" in capsys.readouterr().err


def test_tune_is_a_command_and_optuna_is_imported_only_when_it_runs():
    assert COMMANDS["tune"][0] == "fiesta_envs.training.tune"
    code = "import sys, fiesta_envs.cli as c; c.build_parser(['tune']); print('optuna' in sys.modules)"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert result.stdout.strip() == "False"
