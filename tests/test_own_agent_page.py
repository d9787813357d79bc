"""docs/own-agent.md: every snippet on the page runs, in order, in a fresh folder.

A ```python block whose first line is ``# file: NAME`` is written to NAME; any other ```python block is run
as a script, and every line of a ```bash block as a command (``fiesta`` is this interpreter's command line).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "own-agent.md"
BLOCK = re.compile(r"^```(python|bash)\n(.*?)^```$", re.MULTILINE | re.DOTALL)
FILE = re.compile(r"^# file: (\S+)\n")


def snippets() -> list[tuple[str, str]]:
    return [(match.group(1), match.group(2)) for match in BLOCK.finditer(PAGE.read_text(encoding="utf-8"))]


def test_the_page_has_the_snippets_it_promises():
    kinds = [kind for kind, _ in snippets()]
    assert kinds.count("bash") >= 2 and kinds.count("python") >= 4
    text = PAGE.read_text(encoding="utf-8")
    assert "own-agent.md" in (ROOT / "mkdocs.yml").read_text()
    assert "docs/own-agent.md" in (ROOT / "README.md").read_text()
    assert "--trust-checkpoint" in text and "my_agent.py:ServeFirst" in text and "agent_iter()" in text


def test_every_snippet_on_the_page_runs(tmp_path):
    pytest.importorskip("sb3_contrib")
    environment = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"}
    environment["PYTHONWARNINGS"] = "ignore"
    outputs = []
    for kind, code in snippets():
        named = FILE.match(code)
        if named:
            (tmp_path / named.group(1)).write_text(code, encoding="utf-8")
            continue
        command = [sys.executable, "-c", code] if kind == "python" else ["bash", "-e", "-c", code]
        result = subprocess.run(command, cwd=tmp_path, env=environment, capture_output=True, text=True, timeout=300)
        assert result.returncode == 0, f"{kind} snippet failed:\n{code}\n{result.stderr[-3000:]}"
        outputs.append(result.stdout)
    assert (tmp_path / "my_model.zip").is_file()
    assert all("mine" in output for output in outputs[1:4])  # the model and the heuristic are in their tables
    assert "linear_policy" in outputs[-1]
