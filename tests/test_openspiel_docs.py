"""What holds without OpenSpiel (default run): the measured IS-MCTS results on docs/openspiel.md are those of
results/openspiel_fiesta_mexicana.json, the file scripts/openspiel_results.py wrote, and importing
fiesta_envs.openspiel without the openspiel extra names it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "results" / "openspiel_fiesta_mexicana.json"


def table_row(pair: dict) -> str:
    low, high = pair["ismcts_score_interval95"]
    record = f"{pair['ismcts_wins']}–{pair['ties']}–{pair['ismcts_losses']}"
    score = f"{pair['ismcts_score']:.2f} [{low:.2f}, {high:.2f}]"
    return f"| {pair['ismcts_simulations']} | `{pair['opponent']}` | {pair['games']} | {record} | {score} |"


def test_the_docs_table_is_the_measured_result():
    result = json.loads(RESULTS.read_text())
    page = (ROOT / "docs" / "openspiel.md").read_text()
    rows = [table_row(pair) for pair in result["pairs"]]
    table = [line for line in page.splitlines() if line.startswith("| ") and "`" in line and "–" in line]
    assert table == rows
    budgets = sorted({pair["ismcts_simulations"] for pair in result["pairs"]})
    opponents = sorted({pair["opponent"] for pair in result["pairs"]})
    assert len(budgets) >= 2 and {"greedy", "search"} <= set(opponents)
    for pair in result["pairs"]:
        assert pair["games"] == 2 * result["deals_per_pair"]  # every deal from both seats
        assert pair["ismcts_wins"] + pair["ties"] + pair["ismcts_losses"] == pair["games"]
        low, high = pair["ismcts_score_interval95"]
        assert low <= pair["ismcts_score"] <= high
    command = " ".join(f"--{key} {' '.join(map(str, value))}" for key, value in (("budgets", budgets),))
    assert command in page and f"--deals {result['deals_per_pair']}" in page


def test_without_the_extra_the_import_names_it():
    code = "import sys\nsys.modules['pyspiel'] = None\nimport fiesta_envs.openspiel\n"
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert run.returncode != 0
    assert "fiesta_envs.openspiel needs OpenSpiel, which is not installed: pip install 'fiesta_envs[openspiel]'" in (
        run.stderr
    )
