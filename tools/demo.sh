#!/usr/bin/env bash
# The README's main command: sets up .venv (once), then runs the lab
# (ironic-like-lab): sushy-tools' Redfish emulator, the agent simulator
# (one virtual ironic-python-agent per machine) and the embedded service
# (ironic-like-all: API + one conductor, SQLite, in-process RPC). It enrols
# DEMO_NODES redfish nodes, takes them through manage -> provide (cleaning)
# -> deploy (an image over HTTP, checked with sha256) -> undeploy, prints
# the seconds each stage took, then keeps serving until Ctrl-C, which stops
# every process it started.
#   DEMO_NODES=10 PORT=6385 STATE_DIR=./state VENV=./.venv bash tools/demo.sh
set -eu
cd "$(dirname "$0")/.."
top=$(pwd)
VENV=${VENV:-$top/.venv}
PY=${PYTHON:-python3}
STATE=${STATE_DIR:-$top/state}
PORT=${PORT:-6385}

# The lab is a package of its own (./lab, with sushy-tools): a .venv made
# without it is completed rather than used as it is.
if [ ! -x "$VENV/bin/ironic-like-lab" ] || \
        ! "$VENV/bin/python" -c 'import ironic_like_lab, sushy_tools' \
            2>/dev/null; then
    echo "Setting up $VENV (one time)..."
    [ -x "$VENV/bin/python" ] || "$PY" -m venv "$VENV"
    "$VENV/bin/python" -m pip install -q -U pip wheel
    "$VENV/bin/python" -m pip install -q -r requirements.txt -e . -e ./lab
fi

# Every run enrols a fresh fleet: the previous lab's database would clash
# with it (same node names), so its directory starts empty.
rm -rf "$STATE/lab"
mkdir -p "$STATE/lab"

cat <<EOF
Starting the lab: ${DEMO_NODES:-5} simulated machines, API on http://127.0.0.1:$PORT/
(logs in $STATE/lab). It deploys and undeploys every node, prints the
time each stage took, then keeps serving until Ctrl-C.
EOF
# Unbuffered: the progress lines show as they happen even through a pipe.
export PYTHONUNBUFFERED=1
exec "$VENV/bin/ironic-like-lab" --nodes "${DEMO_NODES:-5}" \
    --workdir "$STATE/lab" --api-port "$PORT" --cycle
