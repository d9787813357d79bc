"""A module run with ``python -m`` executes top to bottom and calls ``main()`` inside its ``__main__`` block:
anything defined after that block does not exist yet when ``main()`` runs (a NameError that only
``python -m ...`` shows, never an import in a test). So the block comes last in every module that has one."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SOURCES = sorted(
    path
    for folder in ("fiesta_envs", "training", "scripts")
    for path in (ROOT / folder).rglob("*.py")
    if not any(part.startswith(".") for part in path.relative_to(ROOT).parts)
    and not (folder == "fiesta_envs" and (ROOT / "fiesta_envs" / "training") in path.parents)
)


def _is_main_block(node: ast.stmt) -> bool:
    if not isinstance(node, ast.If) or not isinstance(node.test, ast.Compare):
        return False
    names = [node.test.left, *node.test.comparators]
    return any(isinstance(n, ast.Name) and n.id == "__name__" for n in names) and any(
        isinstance(n, ast.Constant) and n.value == "__main__" for n in names
    )


def test_there_are_modules_with_a_main_block() -> None:
    with_block = [p for p in SOURCES if any(_is_main_block(n) for n in ast.parse(p.read_text("utf-8")).body)]
    assert any(p.name == "train.py" for p in with_block)


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(ROOT)))
def test_the_main_block_is_the_last_statement(path: Path) -> None:
    body = ast.parse(path.read_text("utf-8")).body
    blocks = [i for i, node in enumerate(body) if _is_main_block(node)]
    if blocks:
        after = [getattr(node, "name", type(node).__name__) for node in body[blocks[-1] + 1 :]]
        assert not after, f"{path.name}: {after} defined after the __main__ block (python -m would not see them)"
