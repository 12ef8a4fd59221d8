#!/usr/bin/env bash
# Installs the stock `openstack baremetal` CLI (python-openstackclient with
# python-ironicclient's plugin) into a virtualenv of its own for the
# functional test that drives this service with it
# (ironic_like/tests/functional/test_stock_clients.py). Our own CLI plugin
# claims the same commands, so the two must never share a virtualenv.
#
# Usage: tools/install-ironicclient.sh [VENV]
#   VENV defaults to $IRONIC_LIKE_IRONICCLIENT_VENV, else
#   <repo>/.tox/ironicclient (where the test looks by default). Idempotent
#   and bounded: see install-pinned.sh.
set -u
cd "$(dirname "$0")/.." || exit 2
VENV=${1:-${IRONIC_LIKE_IRONICCLIENT_VENV:-$(pwd)/.tox/ironicclient}}
exec bash tools/install-pinned.sh "python-ironicclient 6.3.0" "$VENV" \
    python-ironicclient==6.3.0 python-openstackclient==10.5.0
