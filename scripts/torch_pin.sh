# Sourced by the set-up scripts (setup.sh, integration_test.sh, rllib_test.sh, openspiel_test.sh, lowest_versions.sh): the one
# place that says which torch the project uses and how it is installed.
# torch is pinned to the 2.13.0 CPU build: on the project machines `pip install torch==2.13.0` takes a local
# CPU wheel. Elsewhere, to avoid a multi-GB CUDA build, set
#   TORCH_INDEX=https://download.pytorch.org/whl/cpu
TORCH_PIN="torch==2.13.0"

# install_pinned_torch PYTHON [PIP OPTIONS...]: install the pinned torch into the virtualenv of PYTHON.
install_pinned_torch() {
  local index=()
  if [ -n "${TORCH_INDEX:-}" ]; then
    index=(--index-url "$TORCH_INDEX")
  fi
  "$1" -m pip install --quiet "$TORCH_PIN" "${index[@]}" "${@:2}"
}

# torch_constraints_file: print the path of a temporary pip constraints file holding torch at the pin, so that
# installing the extras never replaces it (the caller removes the file).
torch_constraints_file() {
  local file
  file=$(mktemp)
  echo "$TORCH_PIN" >"$file"
  echo "$file"
}

# extra_venv VENV EXTRAS: make the virtualenv VENV once (the pinned torch, then the package editable with
# EXTRAS, e.g. "openspiel,dev", torch held at the pin) and reuse it; an editable install made before
# fiesta_envs.training was mapped by pyproject.toml's package-dir is refreshed.
extra_venv() {
  local venv=$1 extras=$2 constraints
  if [ ! -x "$venv/bin/python" ]; then
    "${PYTHON:-python3}" -m venv "$venv"
    install_pinned_torch "$venv/bin/python"
    constraints=$(torch_constraints_file)
    "$venv/bin/python" -m pip install --quiet --constraint "$constraints" -e ".[$extras]" || {
      rm -f "$constraints"
      return 1
    }
    rm -f "$constraints"
  fi
  "$venv/bin/python" -c "import fiesta_envs.training" 2>/dev/null ||
    "$venv/bin/python" -m pip install --quiet --no-deps -e .
}
