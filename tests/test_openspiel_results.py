"""The measured IS-MCTS results on docs/openspiel.md are those of results/openspiel_fiesta_mexicana.json, the file
scripts/openspiel_results.py wrote (no OpenSpiel needed: this reads the two files)."""

from __future__ import annotations

import json
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
