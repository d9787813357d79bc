# Sourced by the set-up scripts (setup.sh, integration_test.sh, rllib_test.sh, lowest_versions.sh): the one
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
