"""The README is the product's front page: short, and every Python snippet in it runs as printed."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[1] / "README.md"
SNIPPETS = re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), flags=re.DOTALL)


def test_the_readme_fits_in_two_hundred_lines():
    assert len(README.read_text(encoding="utf-8").splitlines()) <= 200


def test_the_readme_shows_the_two_commands_and_your_own_agent():
    text = README.read_text(encoding="utf-8")
    for line in (
        "bash scripts/main_job.sh",
        "bash scripts/test.sh",
        "pip install fiesta-envs",
        "docs/own-agent.md",
        "--agents mine=my_agent.py:policy,greedy",
    ):
        assert line in text


def test_the_readme_types_no_result_numbers_outside_its_generated_blocks():
    text = README.read_text(encoding="utf-8")
    for block in ("headline", "main-job"):
        head, rest = text.split(f"<!-- results:{block} -->")
        _, tail = rest.split(f"<!-- /results:{block} -->")
        text = head + tail
    typed = re.findall(r"\b0\.\d{3}\b|\d \[\d|\d+ / \d+ / \d+", text)
    assert not typed  # results come from results/*.json through scripts/make_results_pages.py


@pytest.mark.parametrize("snippet", SNIPPETS, ids=[f"snippet{i}" for i in range(len(SNIPPETS))])
def test_every_python_snippet_runs(snippet):
    if "sb3_contrib" in snippet:
        pytest.importorskip("sb3_contrib", reason="the train extra")
    assert len(snippet.splitlines()) <= 12  # short enough to read at a glance
    exec(compile(snippet, str(README), "exec"), {"__name__": "readme"})
