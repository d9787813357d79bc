"""The documentation's performance page is the one ``scripts/performance_page.py`` writes from its result file,
and that file times every shipped config."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RESULTS = "results/perf_training.json"
#: The configs behind the shipped agents (one per weights file).
SHIPPED_CONFIGS = [
    "configs/fiesta_mexicana/ppo.yaml",
    "configs/tortilla_de_patatas/ppo.yaml",
    "configs/tortilla_de_patatas/ppo_kids.yaml",
    "configs/tequila/ppo.yaml",
    "configs/tequila/ppo_solo.yaml",
    "configs/fiesta_de_los_muertos/ppo.yaml",
    "configs/la_catrina/ppo.yaml",
]


def page_script():
    spec = importlib.util.spec_from_file_location("performance_page", ROOT / "scripts" / "performance_page.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_performance_page_is_written_from_the_result_file():
    data = json.loads((ROOT / RESULTS).read_text(encoding="utf-8"))
    page = (ROOT / "docs" / "performance.md").read_text(encoding="utf-8")
    assert page == page_script().render(data, RESULTS), "run: python scripts/performance_page.py " + RESULTS


def test_the_result_file_times_every_shipped_config_part_by_part():
    data = json.loads((ROOT / RESULTS).read_text(encoding="utf-8"))
    rows = data["config_training"]
    assert [row["config"] for row in rows] == SHIPPED_CONFIGS
    assert len(SHIPPED_CONFIGS) == len(list((ROOT / "fiesta_envs" / "agents" / "weights").glob("*.json")))
    for row in rows:
        assert row["frames_per_second"] > 0
        assert set(row["shares"]) == {"environment", "opponents", "rollout_inference", "update"}
        assert abs(sum(row["shares"].values()) - 1.0) < 1e-9


def test_the_script_refuses_a_file_without_config_results(tmp_path, capsys):
    empty = tmp_path / "bench.json"
    empty.write_text(json.dumps({"settings": {}, "training": []}), encoding="utf-8")
    assert page_script().main([str(empty), str(tmp_path / "page.md")]) == 2
    assert "--train-config" in capsys.readouterr().err
    assert not (tmp_path / "page.md").exists()
