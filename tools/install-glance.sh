#!/usr/bin/env bash
# Installs Glance (the OpenStack image service) into a virtualenv of its
# own for the functional tests of the accelerators' bitstreams
# (ironic_like/tests/functional/glance_fixture.py, test_glance_bitstreams).
# Glance brings its own oslo, SQLAlchemy and eventlet releases, which need
# not agree with the project's: hence a virtualenv apart.
#
# Usage: tools/install-glance.sh [VENV]
#   VENV defaults to $IRONIC_LIKE_GLANCE_VENV, else <repo>/.tox/glance
#   (where the fixture looks by default). Idempotent: nothing is installed
#   when VENV already has the pinned versions. Quiet (pip -q, its log is
#   shown only on failure) and bounded: GLANCE_INSTALL_TIMEOUT seconds
#   (default 900) for the whole pip run. Exits non-zero on failure.
#
# Glance 33 dropped the standalone glance-api server (it only runs under a
# WSGI server, glance.wsgi.api:application), so cheroot is installed too:
# the fixture serves Glance's WSGI application with it.
set -u
cd "$(dirname "$0")/.." || exit 2
VENV=${1:-${IRONIC_LIKE_GLANCE_VENV:-$(pwd)/.tox/glance}}
PY=${PYTHON:-python3}
TIMEOUT=${GLANCE_INSTALL_TIMEOUT:-900}
GLANCE_VERSION=33.0.0
GLANCE_STORE_VERSION=5.7.0
CHEROOT_VERSION=11.1.2

installed() {
    [ -x "$VENV/bin/python" ] && [ -x "$VENV/bin/glance-manage" ] || return 1
    "$VENV/bin/python" - "$GLANCE_VERSION" "$GLANCE_STORE_VERSION" \
        "$CHEROOT_VERSION" >/dev/null 2>&1 <<'PYEOF'
import sys
from importlib import metadata
wanted = dict(zip(('glance', 'glance_store', 'cheroot'), sys.argv[1:]))
sys.exit(0 if all(metadata.version(name) == version
                  for name, version in wanted.items()) else 1)
PYEOF
}

if installed; then
    echo "Glance $GLANCE_VERSION already installed in $VENV"
    exit 0
fi

started=$(date +%s)
if [ ! -x "$VENV/bin/python" ]; then
    mkdir -p "$(dirname "$VENV")"
    "$PY" -m venv "$VENV" || { echo "cannot create $VENV"; exit 1; }
fi
log=$(mktemp)
trap 'rm -f "$log"' EXIT
if ! timeout "$TIMEOUT" "$VENV/bin/python" -m pip install -q \
        "glance==$GLANCE_VERSION" "glance_store==$GLANCE_STORE_VERSION" \
        "cheroot==$CHEROOT_VERSION" >"$log" 2>&1; then
    grep -v "^WARNING: Location" "$log" | tail -30
    echo "installing Glance $GLANCE_VERSION into $VENV failed (or took" \
        "more than $TIMEOUT s)"
    exit 1
fi
if ! installed; then
    echo "Glance $GLANCE_VERSION is still not usable in $VENV after pip"
    exit 1
fi
echo "Glance $GLANCE_VERSION installed in $VENV in" \
    "$(( $(date +%s) - started )) s"
