#!/usr/bin/env bash
# Install what is missing, then start the web app at http://127.0.0.1:8000/ (Ctrl-C stops it).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
exec .venv/bin/torchdojo serve "$@"
