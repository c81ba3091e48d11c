#!/usr/bin/env bash
# Install what is missing, then run every check: lint, bank validate, bank verify (every
# runnable example), bank coverage, and the pytest suite (browser and terminal tests included).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --test
export PATH="$PWD/.venv/bin:$PATH"
step() { printf '\n\033[1;34m== %s ==\033[0m\n' "$*"; }

step "lint (ruff)"
ruff check src tests bench
step "bank validate"
torchdojo bank validate
step "bank verify"
torchdojo bank verify
step "bank coverage (every catalogue question answered)"
torchdojo bank coverage --catalogue "${TORCHDOJO_CATALOGUE:-../shared/coverage/questions.csv}"
step "challenge check (every reference Accepted, every known-wrong solution rejected as expected)"
torchdojo challenge check
step "pytest"
pytest -n 2 "$@"
