#!/usr/bin/env bash
# Create .venv and install fiesta_envs with everything needed to train, evaluate, test and build the docs.
# torch is pinned to 2.13.0 (CPU): on the project machines that takes a local CPU wheel.
# Elsewhere, to avoid a multi-GB CUDA build, set
#   TORCH_INDEX=https://download.pytorch.org/whl/cpu
set -euo pipefail
cd "$(dirname "$0")/.."
python_bin=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  "$python_bin" -m venv .venv
fi
.venv/bin/python -m pip install --quiet --upgrade pip
if ! .venv/bin/python -c "import torch" 2>/dev/null; then
  if [ -n "${TORCH_INDEX:-}" ]; then
    .venv/bin/python -m pip install --quiet torch==2.13.0 --index-url "$TORCH_INDEX"
  else
    .venv/bin/python -m pip install --quiet torch==2.13.0
  fi
fi
.venv/bin/python -m pip install --quiet -e ".[train,render,web,dev,docs]"
echo "fiesta_envs installed in .venv (activate with: source .venv/bin/activate)"
