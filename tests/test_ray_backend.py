"""``--backend ray`` of ``fiesta evaluate`` and ``fiesta fuzz`` (``fiesta_envs.evaluation.ray_tasks``).

Without Ray (the default suite), a stand-in ``ray`` module runs the tasks in this process, with their arguments
sent through pickle as Ray would: the pieces, the order of the results, the instance's start and shutdown, and
that the results equal a local run. With Ray (marker ``rllib``, run by ``bash scripts/rllib_test.sh``): both
commands on a real local Ray instance write the local run's files.
"""

from __future__ import annotations

import json
import pickle
import subprocess
import sys
import types
from pathlib import Path
from typing import Any

import pytest

from fiesta_envs.cli import main
from fiesta_envs.evaluation.evaluate import run_tournament
from fiesta_envs.evaluation.ray_tasks import BACKENDS, check_backend, import_ray, ray_instance, ray_map
from fiesta_envs.evaluation.tournament import RAY_GAMES_PER_TASK
from fiesta_envs.testing.fuzz import fuzz_all

ROOT = Path(__file__).resolve().parents[1]


class _Ref:
    def __init__(self, compute: Any) -> None:
        self.compute = compute


class FakeRay(types.ModuleType):
    """Just enough of ``ray`` for ``ray_tasks``: tasks run when their result is asked for."""

    def __init__(self) -> None:
        super().__init__("ray")
        self.initialized = False
        self.inits: list[tuple[str | None, dict]] = []
        self.shutdowns = 0
        self.calls: list[tuple] = []
        self.cancelled = 0

    def is_initialized(self) -> bool:
        return self.initialized

    def init(self, address: str | None = None, **settings: Any) -> None:
        self.inits.append((address, settings))
        self.initialized = True

    def shutdown(self) -> None:
        self.initialized = False
        self.shutdowns += 1

    def put(self, value: Any) -> _Ref:
        copy = pickle.loads(pickle.dumps(value))
        return _Ref(lambda: copy)

    def remote(self, **options: Any):
        assert options == {"num_cpus": 1, "max_retries": 0}
        fake = self

        class Remote:
            def __init__(self, function) -> None:
                self.function = function

            def remote(self, *args: Any) -> _Ref:
                assert fake.initialized, "a task started without a Ray instance"
                values = [a.compute() if isinstance(a, _Ref) else pickle.loads(pickle.dumps(a)) for a in args]
                fake.calls.append(tuple(values))
                return _Ref(lambda: pickle.loads(pickle.dumps(self.function(*values))))

        return Remote

    def get(self, ref: _Ref) -> Any:
        return ref.compute()

    def cancel(self, ref: _Ref) -> None:
        self.cancelled += 1


@pytest.fixture
def fake_ray(monkeypatch) -> FakeRay:
    fake = FakeRay()
    monkeypatch.setitem(sys.modules, "ray", fake)
    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    return fake


def _add(offset: int, value: int) -> int:
    return offset + value


def test_ray_map_returns_results_in_order_and_shuts_down_the_instance_it_started(fake_ray):
    results = list(ray_map(_add, [(1,), (2,), (3,)], shared=(10,), local_cpus=2))
    assert results == [11, 12, 13]
    assert fake_ray.inits == [(None, {"include_dashboard": False, "log_to_driver": False, "num_cpus": 2})]
    assert fake_ray.shutdowns == 1 and not fake_ray.initialized


def test_ray_map_joins_the_cluster_in_ray_address_with_its_own_cpus(fake_ray, monkeypatch):
    monkeypatch.setenv("RAY_ADDRESS", "head:6379")
    assert list(ray_map(_add, [(1,)], shared=(1,), local_cpus=2)) == [2]
    assert fake_ray.inits == [("head:6379", {"include_dashboard": False, "log_to_driver": False})]


def test_a_running_instance_is_used_and_left_running(fake_ray):
    with ray_instance(2):
        assert list(ray_map(_add, [(1,), (2,)], shared=(0,))) == [1, 2]
        assert fake_ray.initialized
    assert len(fake_ray.inits) == 1 and fake_ray.shutdowns == 1


def test_stopping_early_cancels_the_tasks_not_yet_read(fake_ray):
    results = ray_map(_add, [(1,), (2,), (3,), (4,)], shared=(0,))
    assert next(results) == 1
    results.close()
    assert fake_ray.cancelled == 3 and fake_ray.shutdowns == 1


def test_without_ray_the_error_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)
    with pytest.raises(ModuleNotFoundError, match=r"pip install 'fiesta_envs\[rllib\]'") as error:
        import_ray()
    assert error.value.name == "ray"


def test_an_unknown_backend_is_refused_naming_the_backends():
    assert BACKENDS == ("local", "ray")
    with pytest.raises(ValueError, match="backend must be one of local, ray, got 'dask'"):
        check_backend("dask")
    with pytest.raises(ValueError, match="backend must be one of"):
        fuzz_all("tortilla_de_patatas", 1, backend="dask")


def without_timings(evaluation) -> dict:
    """An evaluation's JSON with the decisions counted but not timed (times differ from run to run)."""
    data = evaluation.to_json()
    data["decision_times"] = [{**entry, "mean_ms": None} for entry in data["decision_times"]]
    return data


def test_evaluate_on_ray_tasks_gives_the_local_results(fake_ray):
    settings = {"games_per_table": 10, "seed": 3, "bootstrap": 20, "progress": False}
    local = run_tournament("tequila", 3, ["random", "planner"], **settings)
    on_ray = run_tournament("tequila", 3, ["random", "planner"], backend="ray", workers=2, **settings)
    assert without_timings(on_ray) == without_timings(local)
    games = [len(call[-1]) for call in fake_ray.calls]
    assert sum(games) == len(local.games) and max(games) == RAY_GAMES_PER_TASK
    assert fake_ray.inits[0][1]["num_cpus"] == 2


def test_fuzz_on_ray_tasks_gives_the_local_report(fake_ray):
    def without_time(report) -> dict:
        return {key: value for key, value in report.to_dict().items() if key != "seconds"}

    local = fuzz_all("tortilla_de_patatas", 3, seed=5, players=[2, 4], depth=0)
    on_ray = fuzz_all("tortilla_de_patatas", 3, seed=5, players=[2, 4], depth=0, backend="ray")
    assert without_time(on_ray) == without_time(local)
    assert len(fake_ray.calls) == 2  # one piece per configuration with --jobs 1


@pytest.mark.parametrize(
    "argv",
    [
        ["evaluate", "--game", "tortilla_de_patatas", "--agents", "random,careful", "--games", "2", "--backend", "ray"],
        ["fuzz", "--game", "tortilla_de_patatas", "--games", "1", "--backend", "ray"],
    ],
)
def test_the_commands_without_ray_name_the_rllib_extra(argv):
    code = f"import sys\nsys.modules['ray'] = None\nfrom fiesta_envs.cli import main\nsys.exit(main({argv!r}))\n"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert result.stderr.strip() == f"fiesta {argv[0]}: needs 'ray', which is not installed: pip install " + (
        "'fiesta_envs[rllib]'"
    )


def test_the_commands_refuse_an_unknown_backend(capsys):
    with pytest.raises(SystemExit):
        main(["fuzz", "--game", "tortilla_de_patatas", "--backend", "dask"])
    assert "invalid choice: 'dask'" in capsys.readouterr().err


# ---------------------------------------------------------------------- on a real local Ray instance
def _files_of(tmp_path: Path, backend: str) -> tuple[dict, dict, str]:
    out = tmp_path / backend
    evaluate = ["evaluate", "--game", "tequila", "--players", "3", "--agents", "random,planner", "--games", "12"]
    evaluate += ["--seed", "7", "--workers", "2", "--no-plot", "--out", str(out), "--records", str(out / "games.jsonl")]
    assert main([*evaluate, "--backend", backend]) == 0
    fuzz = ["fuzz", "--game", "tortilla_de_patatas", "--game", "tequila", "--games", "4", "--depth", "0", "--seed", "2"]
    assert main([*fuzz, "--jobs", "2", "--json", str(out / "fuzz.json"), "--backend", backend]) == 0
    results = json.loads((out / "results.json").read_text())
    reports = json.loads((out / "fuzz.json").read_text())
    for report in reports["fuzz"]:
        report.pop("seconds")
    return results, reports, (out / "games.jsonl").read_text()


@pytest.mark.rllib
def test_evaluate_and_fuzz_on_a_local_ray_instance_write_the_local_files(tmp_path):
    pytest.importorskip("ray")
    assert _files_of(tmp_path, "ray") == _files_of(tmp_path, "local")
