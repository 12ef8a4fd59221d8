#!/usr/bin/env bash
# Installs pinned packages into a virtualenv of their own, for functional
# tests that run a real OpenStack program whose dependencies need not agree
# with the project's (Glance, the stock python-ironicclient CLI).
#
# Usage: tools/install-pinned.sh NAME VENV PACKAGE==VERSION...
#   NAME names the thing in messages. Idempotent: nothing is installed when
#   VENV already has every pinned version. Quiet (pip -q; its log is shown
#   only on failure) and bounded: INSTALL_TIMEOUT seconds (default 900)
#   for the whole pip run. Exits non-zero on failure.
set -u
[ $# -ge 3 ] || { echo "usage: $0 NAME VENV PACKAGE==VERSION..."; exit 2; }
NAME=$1
VENV=$2
shift 2
PY=${PYTHON:-python3}
TIMEOUT=${INSTALL_TIMEOUT:-900}

installed() {
    [ -x "$VENV/bin/python" ] || return 1
    "$VENV/bin/python" - "$@" >/dev/null 2>&1 <<'PYEOF'
import sys
from importlib import metadata
pins = [arg.split('==', 1) for arg in sys.argv[1:]]
sys.exit(0 if all(metadata.version(name) == version
                  for name, version in pins) else 1)
PYEOF
}

if installed "$@"; then
    echo "$NAME already installed in $VENV"
    exit 0
fi

started=$(date +%s)
if [ ! -x "$VENV/bin/python" ]; then
    mkdir -p "$(dirname "$VENV")"
    "$PY" -m venv "$VENV" || { echo "cannot create $VENV"; exit 1; }
fi
log=$(mktemp)
trap 'rm -f "$log"' EXIT
if ! timeout "$TIMEOUT" "$VENV/bin/python" -m pip install -q "$@" \
        >"$log" 2>&1; then
    grep -v "^WARNING: Location" "$log" | tail -30
    echo "installing $NAME into $VENV failed (or took more than" \
        "$TIMEOUT s)"
    exit 1
fi
if ! installed "$@"; then
    echo "$NAME is still not usable in $VENV after pip"
    exit 1
fi
echo "$NAME installed in $VENV in $(( $(date +%s) - started )) s"
