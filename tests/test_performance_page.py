"""The performance page is written by ``scripts/make_results_pages.py`` from ``results/perf_training.json``, the
one file ``scripts/train_speed.py`` measures, and that file times every shipped config part by part."""

from __future__ import annotations

import copy
import importlib.util
import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "results" / "perf_training.json"
PAGE = ROOT / "docs" / "results" / "performance.md"
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


def script(name: str):
    spec = importlib.util.spec_from_file_location(name, ROOT / "scripts" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_performance_page_is_written_from_the_result_file():
    pages = script("make_results_pages")
    assert PAGE.read_text(encoding="utf-8") == pages.performance_page(pages.load("perf_training"))
    assert pages.pages()[pages.PAGES / "performance.md"] == PAGE.read_text(encoding="utf-8")


def test_the_page_shows_each_config_rate_and_shares_from_the_data():
    pages = script("make_results_pages")
    data = pages.load("perf_training")
    changed = copy.deepcopy(data)
    changed["rows"][0]["frames_per_second"] = 12345.4
    changed["rows"][0]["share"] = {"environment": 0.11, "opponents": 0.22, "rollout_inference": 0.33, "update": 0.34}
    page = pages.performance_page(changed)
    assert f"| `{SHIPPED_CONFIGS[0]}` | 12,345 | 11% | 22% | 33% | 34% |" in page
    assert page != pages.performance_page(data)
    assert data["command"] in page


def test_the_result_file_times_every_shipped_config_part_by_part():
    data = json.loads(RESULTS.read_text(encoding="utf-8"))
    assert data["table"] == "training_speed"
    assert data["command"].startswith("python scripts/train_speed.py")
    assert [row["config"] for row in data["rows"]] == SHIPPED_CONFIGS
    assert all(f"--config {config}" in data["command"] for config in SHIPPED_CONFIGS)
    assert len(SHIPPED_CONFIGS) == len(list((ROOT / "fiesta_envs" / "agents" / "weights").glob("*.json")))
    for row in data["rows"]:
        assert row["frames_per_second"] > 0 and row["steps"] >= data["steps"]
        assert set(row["share"]) == {"environment", "opponents", "rollout_inference", "update"}
        assert abs(sum(row["share"].values()) - 1.0) < 0.01  # each share rounded to 3 decimals


def test_one_performance_page():
    assert not (ROOT / "docs" / "performance.md").exists()
    assert not (ROOT / "scripts" / "performance_page.py").exists()
    assert "performance.md" not in (ROOT / "mkdocs.yml").read_text(encoding="utf-8").replace(
        "results/performance.md", ""
    )


@pytest.mark.slow
def test_the_measuring_script_writes_the_results_file(tmp_path):
    out = tmp_path / "perf.json"
    argv = ["--steps", "256", "--config", "configs/smoke.yaml", "--json", str(out)]
    assert script("train_speed").main(argv) == 0
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["command"] == "python scripts/train_speed.py " + " ".join(argv)
    assert [row["config"] for row in data["rows"]] == ["configs/smoke.yaml"]
    assert data["fiesta_envs_version"] and data["game_versions"]
