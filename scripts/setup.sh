#!/usr/bin/env bash
# Install whatever is missing for torchdojo; safe to run again (each step checks first).
#   scripts/setup.sh          the app: Python venv, torch, the package
#   scripts/setup.sh --test   also the test tools: Debian's chromium, tmux, postgresql and redis, pytest,
#                             Playwright, and the team extra (psycopg, celery) the team tests use
set -euo pipefail
cd "$(dirname "$0")/.."
want_test=0
[[ "${1:-}" == "--test" ]] && want_test=1
say() { printf '\033[1;34m[setup]\033[0m %s\n' "$*"; }

PY=${PYTHON:-python3}
"$PY" -c 'import sys; assert sys.version_info >= (3, 11), sys.version' 2>/dev/null || {
  echo "torchdojo needs Python >= 3.11 (found: $("$PY" --version 2>&1)). Install it or set PYTHON=/path/to/python3.11." >&2
  exit 1
}

if [[ ! -x .venv/bin/python ]]; then
  say "creating .venv"
  "$PY" -m venv .venv
fi
VPY=.venv/bin/python

if ! "$VPY" -c 'import torch, sys; v = tuple(int(x) for x in torch.__version__.split("+")[0].split(".")[:2]); sys.exit(v < (2, 4))' 2>/dev/null; then
  say "installing torch 2.13.0 (CPU)"
  "$VPY" -m pip install --quiet "torch==2.13.0"
fi

extras=""
[[ $want_test == 1 ]] && extras="[test,team]"
stamp=".venv/.torchdojo-installed${extras}"
if [[ ! -f "$stamp" || pyproject.toml -nt "$stamp" ]] || ! "$VPY" -c 'import torchdojo' 2>/dev/null; then
  say "installing torchdojo${extras} and its dependencies"
  "$VPY" -m pip install --quiet -e ".${extras}"
  touch "$stamp"
fi

missing=()
# The judge's sandbox: libseccomp (seccomp filters) and util-linux's unshare (namespace probe).
ldconfig -p 2>/dev/null | grep -q 'libseccomp\.so\.2' || missing+=(libseccomp2)
command -v unshare >/dev/null || missing+=(util-linux)
# Interview scorecards as PDF: WeasyPrint renders with Pango (and HarfBuzz, fontconfig below it).
ldconfig -p 2>/dev/null | grep -q 'libpango-1\.0\.so\.0' || missing+=(libpango-1.0-0)
ldconfig -p 2>/dev/null | grep -q 'libpangoft2-1\.0\.so\.0' || missing+=(libpangoft2-1.0-0)
command -v fc-list >/dev/null && fc-list | grep -q . || missing+=(fontconfig fonts-dejavu-core)
# Answer out loud in the terminal (torchdojo answer --record): sounddevice needs PortAudio.
ldconfig -p 2>/dev/null | grep -q 'libportaudio\.so\.2' || missing+=(libportaudio2)
if [[ $want_test == 1 ]]; then
  command -v chromium >/dev/null || missing+=(chromium)
  command -v tmux >/dev/null || missing+=(tmux)
  command -v ps >/dev/null || missing+=(procps)
  command -v setpriv >/dev/null || missing+=(util-linux)
  command -v pdftotext >/dev/null && command -v pdftoppm >/dev/null || missing+=(poppler-utils)
  # Answer out loud: test recordings are synthesised by espeak-ng; the benchmark also uses flite and sox.
  command -v espeak-ng >/dev/null || missing+=(espeak-ng)
  command -v flite >/dev/null || missing+=(flite)
  command -v sox >/dev/null || missing+=(sox)
  # PostgreSQL tests (tests/pg.py) start a private server from Debian's binaries, any version.
  compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null || missing+=(postgresql)
  # Team-mode tests (tests/team.py) start private redis-servers for the job queue.
  command -v redis-server >/dev/null || missing+=(redis-server)
fi
if (( ${#missing[@]} )); then
  say "installing Debian packages: ${missing[*]}"
  SUDO=""
  [[ $(id -u) -ne 0 ]] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
