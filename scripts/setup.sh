#!/usr/bin/env bash
# Create .venv and install fiesta_envs with everything needed to train, evaluate, test and build the docs.
# torch is pinned to the 2.13.0 CPU build (scripts/torch_pin.sh says how, and TORCH_INDEX for other machines).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/torch_pin.sh
python_bin=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  "$python_bin" -m venv .venv
fi
.venv/bin/python -m pip install --quiet --upgrade pip
if ! .venv/bin/python -c "import torch" 2>/dev/null; then
  install_pinned_torch .venv/bin/python
fi
.venv/bin/python -m pip install --quiet -e ".[train,render,web,dev,docs]"
echo "fiesta_envs installed in .venv (activate with: source .venv/bin/activate)"
