#!/usr/bin/env bash
# The README's main command: sets up .venv (once), then runs the embedded
# all-in-one service (API + one conductor, SQLite, in-process RPC) with a
# simulated fleet of fake-hardware nodes. Ctrl-C stops it; the database in
# ./state/ keeps the fleet for the next start.
#   DEMO_NODES=50 PORT=6385 bash tools/demo.sh
set -eu
cd "$(dirname "$0")/.."
top=$(pwd)
VENV=${VENV:-$top/.venv}
PY=${PYTHON:-python3}
STATE=${STATE_DIR:-$top/state}

if [ ! -x "$VENV/bin/ironic-like-all" ]; then
    echo "Setting up $VENV (one time)..."
    "$PY" -m venv "$VENV"
    "$VENV/bin/python" -m pip install -q -U pip wheel
    "$VENV/bin/python" -m pip install -q -r requirements.txt -e .
fi

mkdir -p "$STATE"
cat > "$STATE/ironic_like.conf" <<CONF
[DEFAULT]
host = embedded
auth_strategy = noauth

[api]
host_ip = 127.0.0.1
port = ${PORT:-6385}

[database]
connection = sqlite:///$STATE/ironic_like.sqlite
CONF

echo "Starting ironic-like-all on http://127.0.0.1:${PORT:-6385}/ (Ctrl-C stops)"
echo "Try: curl -s http://127.0.0.1:${PORT:-6385}/v1/nodes | python3 -m json.tool"
exec "$VENV/bin/ironic-like-all" --config-file "$STATE/ironic_like.conf" \
    --demo-nodes "${DEMO_NODES:-20}"
