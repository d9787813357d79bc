#!/usr/bin/env bash
# Build the documentation site into site/ with every warning an error (mkdocs.yml; needs the docs extra:
# pip install -e ".[docs]"). The game pages come from the games' module docstrings (scripts/docs_hooks.py).
# Arguments go to mkdocs build, e.g. --site-dir /tmp/site.
set -euo pipefail
cd "$(dirname "$0")/.."
python_bin=${PYTHON:-python}
if [ -x .venv/bin/python ] && [ -z "${PYTHON:-}" ]; then
  python_bin=.venv/bin/python
fi
if ! "$python_bin" -c "import mkdocs, material, mkdocstrings" 2>/dev/null; then
  echo "scripts/docs.sh: $python_bin lacks the docs extra (MkDocs, Material, mkdocstrings): pip install -e '.[docs]'" >&2
  exit 2
fi
NO_MKDOCS_2_WARNING=1 "$python_bin" -m mkdocs build --strict "$@"
