# Sourced by scripts/demo and scripts/test: a project virtualenv with pbem installed.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="${PBEM_VENV:-$ROOT/.venv}"
PY="${PYTHON:-python3}"
if [ ! -x "$VENV/bin/python" ]; then
  "$PY" -m venv "$VENV"
fi
stamp="$VENV/.pbem-installed"
if [ ! -f "$stamp" ] || [ "$ROOT/pyproject.toml" -nt "$stamp" ]; then
  echo "Installing pbem and its dependencies into $VENV (first run only)..." >&2
  if ! "$VENV/bin/python" -m pip install -q --disable-pip-version-check -e "$ROOT[test]" >"$VENV/install.log" 2>&1; then
    cat "$VENV/install.log" >&2
    exit 1
  fi
  touch "$stamp"
fi
export PATH="$VENV/bin:$PATH"
