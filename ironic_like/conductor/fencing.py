"""A conductor whose own heartbeat has expired fences itself.

The others may already have declared it dead and taken its nodes over:
until its heartbeat is recorded again (which puts it back in their hash
rings) it takes no node lock and judges no other conductor dead. Work it
had started is stopped by the locks themselves (every write under a lock
is conditional on still holding it, see locks.NodeTask.update_node); this
keeps it from starting more.

A process that never records a heartbeat (tools, unit tests) is never
fenced.
"""

import threading
import time

from oslo_log import log

from ironic_like.common import exception
from ironic_like.conf import CONF

LOG = log.getLogger(__name__)

_STATE = {'last': None, 'fenced': False}
_LOCK = threading.Lock()


def heartbeat_recorded():
    """The service recorded this conductor's heartbeat just now."""
    with _LOCK:
        if _STATE['fenced']:
            LOG.warning('Conductor %s recorded its heartbeat again and '
                        'takes new work.', CONF.host)
        _STATE.update(last=time.monotonic(), fenced=False)


def forget():
    """Stop tracking (the service stopped)."""
    with _LOCK:
        _STATE.update(last=None, fenced=False)


def silent_for():
    """Seconds since the last recorded heartbeat (0 when not tracked)."""
    last = _STATE['last']
    return 0.0 if last is None else time.monotonic() - last


def is_fenced():
    """Whether the heartbeat is older than [conductor]heartbeat_timeout;
    says so in the log once per fencing."""
    if silent_for() <= CONF.conductor.heartbeat_timeout:
        return False
    with _LOCK:
        if not _STATE['fenced'] and _STATE['last'] is not None:
            _STATE['fenced'] = True
            LOG.warning('Conductor %s has recorded no heartbeat for %d '
                        'seconds: taking no new work until it does.',
                        CONF.host, silent_for())
    return True


def check():
    """ConductorFenced (503) when fenced."""
    if is_fenced():
        raise exception.ConductorFenced(host=CONF.host,
                                        seconds=int(silent_for()))
