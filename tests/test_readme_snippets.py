"""scripts/readme_snippets.py (run by scripts/release_check.sh): the Python blocks of the README's Quick start."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))

from readme_snippets import quick_start_snippets, run

README = """# product

```python
print("before the section")
```

## Quick start

```bash
# a comment, not a heading
pip install it
```

```python
x = 1
```

### A subsection

```py
y = x + 1
```

## Results

```python
print("after the section")
```
"""


def test_the_quick_start_section_and_its_subsections_only():
    snippets = quick_start_snippets(README)
    assert snippets == [(15, "x = 1\n"), (21, "y = x + 1\n")]


def test_a_heading_of_any_level_starts_the_section():
    text = "# Quick start with the environments\n\n```python\na = 1\n```\n\n# Next\n\n```python\nb = 2\n```\n"
    assert [code for _, code in quick_start_snippets(text)] == ["a = 1\n"]


def test_the_snippets_run_in_one_namespace(tmp_path, capsys):
    readme = tmp_path / "README.md"
    readme.write_text(README.replace("y = x + 1", "y = x + 1\nprint('y is', y)"))
    assert run(readme) == 0
    assert "y is 2" in capsys.readouterr().out


def test_a_failing_snippet_names_its_line(tmp_path, capsys):
    readme = tmp_path / "README.md"
    readme.write_text(README.replace("y = x + 1", "y = z + 1"))
    assert run(readme) == 1
    error = capsys.readouterr().err
    assert "NameError" in error and "the snippet at line 21 failed" in error
    assert f'File "{readme}", line 21' in error  # the traceback points into the README


def test_no_quick_start_is_an_error_not_a_pass(tmp_path, capsys):
    readme = tmp_path / "README.md"
    readme.write_text("# product\n\n```python\nprint(1)\n```\n")
    assert run(readme) == 1
    assert "no ```python block under a 'Quick start' heading" in capsys.readouterr().err


def test_the_readme_has_quick_start_snippets():
    assert quick_start_snippets((Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8"))
