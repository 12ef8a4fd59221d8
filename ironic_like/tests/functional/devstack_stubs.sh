#!/bin/bash
#
# Minimal stand-ins for the devstack functions that the ironic_like devstack
# plugin (devstack/settings, devstack/plugin.sh, devstack/lib/ironic_like)
# calls, for ironic_like/tests/functional/test_devstack.py. Source this file
# before the plugin's settings, the way stack.sh, unstack.sh and clean.sh
# source devstack's functions first.
#
# Everything that touches this machine's services is real (MariaDB, the
# service's processes, the config file); keystone is not: the calls that
# would talk to it are recorded in $STUB_STATE_DIR/calls.
#
# Inputs (environment):
#   STUB_STATE_DIR      directory for the records, pid files and logs
#   STUB_BIN_DIR        bin directory of the virtualenv with ironic_like
#   STUB_TRANSPORT_URL  oslo.messaging URL of RabbitMQ
#   ENABLED_SERVICES    comma-separated services, as in devstack
#   DATABASE_USER, DATABASE_PASSWORD, MYSQL_HOST (MariaDB, as in devstack)

STUB_CALLS=$STUB_STATE_DIR/calls
STUB_PID_DIR=$STUB_STATE_DIR/pids
STUB_LOG_DIR=$STUB_STATE_DIR/logs
mkdir -p "$STUB_PID_DIR" "$STUB_LOG_DIR"

function _stub_record {
    echo "$*" >> "$STUB_CALLS"
}

# -- functions-common ----------------------------------------------------

function die {
    local line=$1
    shift
    echo "ERROR (line $line): $*" >&2
    exit 1
}

function echo_summary {
    echo "summary: $*"
}

function define_plugin {
    _stub_record define_plugin "$@"
}

# Same semantics as devstack: ENABLED_SERVICES is a comma-separated list.
function enable_service {
    local service
    for service in "$@"; do
        if ! is_service_enabled "$service"; then
            ENABLED_SERVICES+=",$service"
        fi
    done
}

# True when any of the arguments is in ENABLED_SERVICES.
function is_service_enabled {
    local service
    for service in "$@"; do
        if [[ ",$ENABLED_SERVICES," == *",$service,"* ]]; then
            return 0
        fi
    done
    return 1
}

# No root escalation in the test: run the command as this user.
function sudo {
    "$@"
}

# The test's virtualenv, where ironic_like is installed already.
function get_python_exec_prefix {
    echo "$STUB_BIN_DIR"
}

# The package is already installed (pip install -e) in the virtualenv:
# check that it imports from the given directory instead of installing.
function setup_develop {
    _stub_record setup_develop "$@"
    local dir=$1
    "$STUB_BIN_DIR/python" -c "import ironic_like" || return 1
    [[ -f "$dir/setup.cfg" ]] || die $LINENO "no project in $dir"
}

# iniset [-sudo] FILE SECTION OPTION VALUE: sets the option in a real ini
# file (Python's configparser; comments are not kept).
function iniset {
    if [[ "$1" == "-sudo" ]]; then
        shift
    fi
    "$STUB_BIN_DIR/python" - "$@" <<'PYEOF'
import configparser
import sys

path, section, option, value = sys.argv[1:5]
parser = configparser.ConfigParser(interpolation=None)
parser.optionxform = str
parser.read(path)
if section != 'DEFAULT' and not parser.has_section(section):
    parser.add_section(section)
parser.set(section, option, value)
with open(path, 'w') as f:
    parser.write(f)
PYEOF
}

# run_process SERVICE COMMAND: starts COMMAND in the background in a
# session (process group) of its own, output in $STUB_LOG_DIR/SERVICE.log,
# its pid (= process group id) in $STUB_PID_DIR/SERVICE.pid.
function run_process {
    local service=$1
    local command=$2
    is_service_enabled "$service" || return 0
    # shellcheck disable=SC2086
    setsid $command > "$STUB_LOG_DIR/$service.log" 2>&1 < /dev/null &
    echo $! > "$STUB_PID_DIR/$service.pid"
    _stub_record run_process "$service" "$!" "$command"
}

# True while a live (not zombie) process is in process group $1.
function _stub_group_alive {
    local pgid=$1
    local stat
    local rest
    for stat in /proc/[0-9]*/stat; do
        rest=$(cat "$stat" 2> /dev/null) || continue
        rest=${rest##*) }
        # state ppid pgrp ...
        read -r -a fields <<< "$rest"
        if [[ "${fields[2]}" == "$pgid" && "${fields[0]}" != "Z" ]]; then
            return 0
        fi
    done
    return 1
}

# stop_process SERVICE: SIGTERM to the process group of SERVICE, SIGKILL
# after 20 s.
function stop_process {
    local service=$1
    local pidfile=$STUB_PID_DIR/$service.pid
    [[ -f "$pidfile" ]] || return 0
    local pid
    pid=$(cat "$pidfile")
    _stub_record stop_process "$service" "$pid"
    kill -TERM -- "-$pid" 2> /dev/null
    local i
    for i in $(seq 1 80); do
        _stub_group_alive "$pid" || break
        sleep 0.25
    done
    if _stub_group_alive "$pid"; then
        kill -KILL -- "-$pid" 2> /dev/null
    fi
    rm -f "$pidfile"
}

# wait_for_service TIMEOUT URL: as devstack's, until URL answers over HTTP.
function wait_for_service {
    local timeout=$1
    local url=$2
    local probe="curl -s -m 5 -o /dev/null -w '%{http_code}' '$url'"
    timeout "$timeout" bash -c \
        "while [[ \$($probe) == 000 ]]; do sleep 0.25; done"
}

# -- lib/rpc_backend -----------------------------------------------------

function get_transport_url {
    echo "$STUB_TRANSPORT_URL"
}

# -- lib/database (MariaDB) ----------------------------------------------

function database_connection_url {
    local db=$1
    local auth=$DATABASE_USER
    if [[ -n "$DATABASE_PASSWORD" ]]; then
        auth+=":$DATABASE_PASSWORD"
    fi
    echo "mysql+pymysql://$auth@$MYSQL_HOST/$db?charset=utf8mb4"
}

# A real database on MariaDB, dropped first if it exists.
function recreate_database {
    local db=$1
    _stub_record recreate_database "$@"
    local args=(-u"$DATABASE_USER" -h"$MYSQL_HOST")
    if [[ -n "$DATABASE_PASSWORD" ]]; then
        args+=(-p"$DATABASE_PASSWORD")
    fi
    mysql "${args[@]}" -e "DROP DATABASE IF EXISTS $db"
    mysql "${args[@]}" -e "CREATE DATABASE $db CHARACTER SET utf8mb4"
}

# -- lib/keystone (stood in: calls recorded, keystone never called) ------

function configure_keystone_authtoken_middleware {
    _stub_record configure_keystone_authtoken_middleware "$@"
    local conf=$1
    local section=${3:-keystone_authtoken}
    iniset "$conf" "$section" auth_type password
    iniset "$conf" "$section" username "$2"
}

function create_service_user {
    _stub_record create_service_user "$@"
}

function get_or_create_service {
    _stub_record get_or_create_service "$@"
    echo "stub-service-id"
}

function get_or_create_endpoint {
    _stub_record get_or_create_endpoint "$@"
    echo "stub-endpoint-id"
}
