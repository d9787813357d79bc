#!/usr/bin/env bash
# Prove the lower bounds of pyproject.toml: a virtualenv of its own with the LOWEST allowed version of every
# direct dependency (uv's --resolution lowest-direct over the train, render, web, bench and dev extras), then
# the default test suite in it. Arguments go to pytest instead of the default ones, e.g. a quick subset:
#   bash scripts/lowest_versions.sh -x -q tests/test_envs_api.py tests/test_training_train.py
# torch stays at the pinned 2.13.0 CPU build (the lowest torch would be a multi-GB CUDA download): it is
# installed first, as in scripts/setup.sh (set TORCH_INDEX=https://download.pytorch.org/whl/cpu off the
# project machines), and held there by a constraint.
# The virtualenv is $LOWEST_VENV (default /tmp/fiesta-lowest-venv); it is made afresh on every run.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/torch_pin.sh
python_bin=${PYTHON:-python3}
venv=${LOWEST_VENV:-/tmp/fiesta-lowest-venv}
rm -rf "$venv"
"$python_bin" -m venv "$venv"
"$venv/bin/python" -m pip install --quiet --upgrade pip uv
install_pinned_torch "$venv/bin/python"
constraints=$(torch_constraints_file)
trap 'rm -f "$constraints"' EXIT
find_links=()
for folder in ${PIP_FIND_LINKS:-}; do find_links+=(--find-links "$folder"); done
"$venv/bin/uv" pip install --python "$venv/bin/python" --resolution lowest-direct --constraint "$constraints" \
  "${find_links[@]}" -e ".[train,render,web,bench,dev]"
echo "lowest allowed versions installed in $venv:"
"$venv/bin/uv" pip freeze --python "$venv/bin/python" | grep -i -E \
  '^(numpy|gymnasium|pettingzoo|torch|stable.baselines3|sb3.contrib|pyyaml|pydantic|tqdm|rich|tensorboard|matplotlib|optuna|pillow|flask|pygame.ce|pytest|pytest.xdist|pytest.timeout|hypothesis)=='
if [ "$#" -eq 0 ]; then
  set -- -n 2 --timeout 600 -q
fi
"$venv/bin/python" -m pytest "$@"
