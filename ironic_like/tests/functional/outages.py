"""Outages of the machine's real services, for fault-injection tests.

``outage(service, seconds)`` stops RabbitMQ (``rabbitmqctl stop_app``) or
MariaDB (``mariadb-admin shutdown``) for ``seconds`` and starts it again,
ALWAYS, also when the test body fails or is interrupted, then waits (a
bounded time) until it answers again. The commands are those the
machine's services are managed with; a test that cannot stop a service
(no rabbitmqctl, not allowed) is skipped outside CI and fails under CI.
"""

import contextlib
import shutil
import socket
import subprocess
import time

from ironic_like.tests.functional import base

RABBITMQ = base.RABBITMQ
MARIADB = base.MYSQL
# Bounds of each command and of the wait for the service to answer again.
COMMAND_TIMEOUT = 120
BACK_TIMEOUT = 120

_STOP = {
    RABBITMQ: [['rabbitmqctl', 'stop_app']],
    MARIADB: [['mariadb-admin', '-uroot', 'shutdown']],
}
_START = {
    RABBITMQ: [['rabbitmqctl', 'start_app']],
    MARIADB: [['start-stop-daemon', '--start', '--oknodo', '--background',
               '--exec', '/usr/sbin/mariadbd']],
}
_PORTS = {RABBITMQ: 5672, MARIADB: 3306}


class OutageUnavailable(Exception):
    """This machine cannot stop and start the service."""


def check_available(service):
    for argv in _STOP[service] + _START[service]:
        if shutil.which(argv[0]) is None:
            raise OutageUnavailable('%s not found' % argv[0])


def _run(argv):
    proc = subprocess.run(argv, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, timeout=COMMAND_TIMEOUT)
    if proc.returncode != 0:
        raise RuntimeError('%s failed (%d): %s' % (
            ' '.join(argv), proc.returncode,
            proc.stdout.decode('utf-8', 'replace')[-2000:]))


def _answers(service):
    try:
        with socket.create_connection(('127.0.0.1', _PORTS[service]),
                                      timeout=2):
            pass
    except OSError:
        return False
    if service == RABBITMQ:
        # The port of a node whose app is stopped may still accept; the
        # app answers status once it runs again.
        proc = subprocess.run(['rabbitmqctl', 'await_startup'],
                              stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL,
                              timeout=COMMAND_TIMEOUT)
        return proc.returncode == 0
    try:
        base._check_mysql()
    except Exception:
        return False
    return True


def _start(service):
    for argv in _START[service]:
        _run(argv)
    base.wait_for(lambda: _answers(service), BACK_TIMEOUT, interval=1,
                  message='%s did not come back within %d s'
                  % (service, BACK_TIMEOUT))


@contextlib.contextmanager
def outage(service, seconds):
    """Stop ``service``, yield, sleep what is left of ``seconds``, start
    it again (always) and wait until it answers."""
    check_available(service)
    started = time.monotonic()
    try:
        for argv in _STOP[service]:
            _run(argv)
        yield
        left = seconds - (time.monotonic() - started)
        if left > 0:
            time.sleep(left)
    finally:
        _start(service)
