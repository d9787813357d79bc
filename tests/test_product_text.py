"""User-facing text speaks of the product: no issue numbers, commit hashes or ISO dates in the README, the
documentation pages (the generated results pages may name the commit a result was measured on) or the
package's strings (docstrings, which the game pages are made of, command-line help and messages)."""

from __future__ import annotations

import ast
import importlib
import re
from pathlib import Path

import pytest

from fiesta_envs.registry import GAMES

ROOT = Path(__file__).resolve().parents[1]
WORK_HISTORY = {
    "an issue number": re.compile(r"\bissues?\s*#?\d+", re.IGNORECASE),
    "an ISO date": re.compile(r"\b(?:19|20)\d\d-[01]\d-[0-3]\d\b"),
    # (a digest written "#78f38ab8", as the golden playthroughs print a block, is data, not a commit)
    "a commit hash": re.compile(r"(?<!#)\b(?=[0-9a-f]*[a-f])(?=[0-9a-f]*\d)[0-9a-f]{7,40}\b"),
}


def work_history(text: str) -> list[str]:
    """What in ``text`` speaks of the work rather than the product: ``kind: 'match'`` for each find."""
    return [f"{kind}: {match.group(0)!r}" for kind, pattern in WORK_HISTORY.items() for match in pattern.finditer(text)]


def pages() -> list[Path]:
    generated = ROOT / "docs" / "results"
    found = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
    return [path for path in found if generated not in path.parents]


def package_strings(path: Path) -> list[tuple[int, str]]:
    """Every string literal of a module (docstrings, help texts, messages) with its line."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
    ]


def package_files() -> list[Path]:
    return sorted([*(ROOT / "fiesta_envs").rglob("*.py"), *(ROOT / "training").rglob("*.py")])


@pytest.mark.parametrize(
    "text",
    ["fixed in issue 20", "see Issue #7", "measured on 2026-12-02", "at commit faf1c02", "main 1ee3778 → 25829ce"],
)
def test_the_check_finds_work_history(text):
    assert work_history(text)


@pytest.mark.parametrize(
    "text",
    ["total_timesteps=1000000", "version 2 (the default)", "seed 1, 1,000 games", "fiesta_envs 0.2.0", "ab12"],
)
def test_the_check_leaves_product_text_alone(text):
    assert not work_history(text)


@pytest.mark.parametrize("path", pages(), ids=lambda path: str(path.relative_to(ROOT)))
def test_readme_and_docs_pages_speak_of_the_product(path):
    assert not work_history(path.read_text(encoding="utf-8")), path


def test_package_strings_speak_of_the_product():
    found = [
        f"{path.relative_to(ROOT)}:{line}: {problem}"
        for path in package_files()
        for line, text in package_strings(path)
        for problem in work_history(text)
    ]
    assert not found, "\n".join(found)


def test_the_pages_checked_include_the_front_page_and_the_game_pages_source():
    assert ROOT / "README.md" in pages() and ROOT / "docs" / "training.md" in pages()
    assert not any("results" in path.parts for path in pages())
    assert ROOT / "fiesta_envs" / "tequila_v2.py" in package_files()


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_game_page_lists_each_version_once_keyed_to_a_package_version(name):
    module = GAMES[name].aec_module
    page = importlib.import_module(module).__doc__
    history = page[page.index("Version history\n") :]
    entries = re.findall(r"^- v(\d+) \(([^)]*)\)", history, flags=re.MULTILINE)
    current = int(module.rsplit("_v", 1)[1])
    assert [int(version) for version, _ in entries] == list(range(current, -1, -1)), entries
    for version, release in entries:
        assert re.search(r"fiesta_envs \d+\.\d+\.\d+|in no release", release), (version, release)
