#!/usr/bin/env bash
# Installs Glance (the OpenStack image service) into a virtualenv of its
# own for the functional tests of the accelerators' bitstreams
# (ironic_like/tests/functional/glance_fixture.py, test_glance_bitstreams).
# Glance brings its own oslo, SQLAlchemy and eventlet releases, which need
# not agree with the project's: hence a virtualenv apart.
#
# Usage: tools/install-glance.sh [VENV]
#   VENV defaults to $IRONIC_LIKE_GLANCE_VENV, else <repo>/.tox/glance
#   (where the fixture looks by default). Idempotent and bounded
#   (GLANCE_INSTALL_TIMEOUT seconds, default 900): see install-pinned.sh.
#
# Glance 33 dropped the standalone glance-api server (it only runs under a
# WSGI server, glance.wsgi.api:application), so cheroot is installed too:
# the fixture serves Glance's WSGI application with it.
set -u
cd "$(dirname "$0")/.." || exit 2
VENV=${1:-${IRONIC_LIKE_GLANCE_VENV:-$(pwd)/.tox/glance}}
INSTALL_TIMEOUT=${GLANCE_INSTALL_TIMEOUT:-900} exec bash \
    tools/install-pinned.sh "Glance 33.0.0" "$VENV" \
    glance==33.0.0 glance_store==5.7.0 cheroot==11.1.2
