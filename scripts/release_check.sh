#!/usr/bin/env bash
# The release as a user gets it (about 3-5 minutes on 2 cores):
#   1. python -m build: the wheel and the sdist (into $RELEASE_DIST, default a temporary folder);
#   2. a clean virtualenv with the wheel and its train extra (torch pinned to the CPU build first, as in
#      scripts/setup.sh, and held there by a constraint: pip never pulls a CUDA torch);
#   3. from an empty folder, nothing of the checkout in sight: the README's Quick start snippets
#      (scripts/readme_snippets.py: the ```python blocks under the "Quick start" heading), fiesta configs,
#      a packaged config (fiesta train --config smoke, a tiny budget) and fiesta play --help.
# Needs `build` (the dev extra: bash scripts/setup.sh installs it in .venv). PYTHON: the interpreter of the clean
# virtualenv (default python3). Called by .ci/run after the tests.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
source scripts/torch_pin.sh
started=$SECONDS
phase() { echo "== $1 ($((SECONDS - started)) s)"; }
builder=${BUILD_PYTHON:-.venv/bin/python}
if ! "$builder" -c "import build" 2>/dev/null; then
  echo "scripts/release_check.sh: $builder lacks 'build' (the dev extra): bash scripts/setup.sh" >&2
  exit 2
fi
work=$(mktemp -d)
constraints=$(torch_constraints_file)
trap 'rm -rf "$work" "$constraints"' EXIT
dist=${RELEASE_DIST:-$work/dist}

phase "build: wheel and sdist"
rm -rf build
"$builder" -m build --outdir "$dist" . >"$work/build.log" 2>&1 || { cat "$work/build.log"; exit 1; }
rm -rf build
version=$("$builder" -c "import tomllib; print(tomllib.load(open('pyproject.toml', 'rb'))['project']['version'])")
wheel="$dist/fiesta_envs-$version-py3-none-any.whl"
sdist="$dist/fiesta_envs-$version.tar.gz"
for file in "$wheel" "$sdist"; do
  [ -f "$file" ] || { echo "scripts/release_check.sh: python -m build made no $file" >&2; exit 1; }
  echo "$(basename "$file"): $(du -k "$file" | cut -f1) KiB"
done

phase "install the wheel in a clean virtualenv"
"${PYTHON:-python3}" -m venv "$work/venv"
python="$work/venv/bin/python"
"$python" -m pip install --quiet --upgrade pip
install_pinned_torch "$python" --no-compile   # no bytecode for all of torch: modules compile when imported
"$python" -m pip install --quiet --no-compile --constraint "$constraints" "$wheel[train]"

phase "from an empty folder"
mkdir "$work/empty"
cd "$work/empty"
location=$("$python" -c "import fiesta_envs, fiesta_envs.training, fiesta_envs.configs; print(fiesta_envs.__file__)")
case "$location" in
  "$work/venv/"*) echo "fiesta_envs $("$python" -c "import fiesta_envs; print(fiesta_envs.__version__)") from $location" ;;
  *) echo "scripts/release_check.sh: fiesta_envs was imported from $location, not the wheel" >&2; exit 1 ;;
esac
"$python" "$repo/scripts/readme_snippets.py" "$repo/README.md"
"$work/venv/bin/fiesta" configs
"$work/venv/bin/fiesta" train --config smoke --set total_timesteps=512 --no-progress
ls runs/fiesta_mexicana/smoke-seed0
"$work/venv/bin/fiesta" play --help >/dev/null
echo "fiesta play --help: ok"
echo "release check passed in $((SECONDS - started)) s (then the temporary virtualenv is removed)"
