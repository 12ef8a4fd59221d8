"""Node locks: the small task manager every node change goes through.

``acquire()`` takes the node's reservation (exclusive) or just reads it
(shared), loads the driver, and always gives the lock back on exit, also on
error. Work that must outlive the RPC call (a power change, provisioning) is
handed to a worker thread with ``spawn_after``: the lock then passes to that
thread, which releases it when the work ends.
"""

import contextlib
import threading
import time

from oslo_log import log

from ironic_like.common import exception
from ironic_like.conductor import fencing
from ironic_like.conductor import node_history
from ironic_like.conf import CONF
from ironic_like.db import api as db_api
from ironic_like.drivers import loader

LOG = log.getLogger(__name__)


# Called with a node's id after this process released its lock (see
# add_release_hook).
_RELEASE_HOOKS = []


def add_release_hook(hook):
    """Call ``hook(node_id)`` whenever this process releases a node lock;
    a hook must be quick and never raise."""
    if hook not in _RELEASE_HOOKS:
        _RELEASE_HOOKS.append(hook)


class NodeTask(object):

    def __init__(self, context, node, shared, purpose):
        self.context = context
        self.node = node
        self.shared = shared
        self.purpose = purpose
        self.db = db_api.get_instance()
        self._driver = None
        self._ports = None
        self._after = None
        self._spawn_error_hook = None
        # Set once a write found the lock gone (another conductor took the
        # node over): the work stops, and says so once.
        self.lock_lost = False

    @property
    def driver(self):
        if self._driver is None:
            self._driver = loader.build_driver(self.node)
        return self._driver

    @property
    def ports(self):
        if self._ports is None:
            self._ports = self.db.get_ports_by_node_id(self.node.id)
        return self._ports

    def update_node(self, values, expected=None):
        """Write ``values`` to the node and keep task.node current.

        The write is made only while this conductor still holds the node's
        lock: a conductor declared dead (stalled, paused) whose nodes were
        taken over gets NodeLockLost and writes nothing more.
        """
        if self.shared:
            raise RuntimeError('update_node() under a shared lock (%s)'
                               % self.purpose)
        before = self.node
        with self._fenced():
            self.node = self.db.update_node(self.node.id, values,
                                            expected=expected,
                                            holder=CONF.host)
        # Errors and faults go to the node's history (API 1.78).
        node_history.note_update(self, before, values)
        return self.node

    def write_columns(self, values):
        """update_node() for plain columns (db write_locked_node) in one
        conditional UPDATE, without reading the node back: task.node gets
        the values in memory. For hot paths such as heartbeats."""
        if self.shared:
            raise RuntimeError('write_columns() under a shared lock (%s)'
                               % self.purpose)
        with self._fenced():
            self.db.write_locked_node(self.node.id, CONF.host, values)
        for name, value in values.items():
            setattr(self.node, name, value)
        return self.node

    def release_instance(self):
        """Clear the node's instance and delete its allocation, in one
        transaction, under the lock (as update_node)."""
        with self._fenced():
            self.node = self.db.release_node_instance(self.node.id,
                                                      holder=CONF.host)
        return self.node

    @contextlib.contextmanager
    def _fenced(self):
        if self.lock_lost:
            raise exception.NodeLockLost(node=self.node.uuid, host=CONF.host,
                                         holder='another conductor')
        try:
            yield
        except exception.NodeLockLost as e:
            self.lock_lost = True
            LOG.warning('%s Stopping %s.', e, self.purpose)
            raise

    def spawn_after(self, executor, func, *args, **kwargs):
        """Run ``func(task, *args, **kwargs)`` in ``executor`` once the
        with-block ends; the lock is released when func returns."""
        self._after = (executor, func, args, kwargs)

    def set_spawn_error_hook(self, hook, *args):
        """Call ``hook(task, error, *args)``, still under the lock, if the
        executor refuses the spawn_after work: it undoes what the with-block
        recorded for work that will now never run (a transient state, a
        target power state), which nobody would ever clear otherwise."""
        self._spawn_error_hook = (hook, args)

    def release(self):
        if self.shared:
            return
        try:
            released = self.db.release_node(CONF.host, self.node.id)
        except Exception as e:
            # The database is unreachable beyond the short retries: the
            # lock is given back later (retry_failed_releases) rather
            # than held until this conductor restarts.
            LOG.warning('Releasing the lock of node %s failed (%s); it is '
                        'released again with the next heartbeat.',
                        self.node.uuid, e)
            with _UNRELEASED_LOCK:
                _UNRELEASED.add(self.node.id)
            return
        for hook in _RELEASE_HOOKS:
            try:
                hook(self.node.id)
            except Exception:
                LOG.exception('Release hook %s failed', hook)
        if not released and not self.lock_lost:
            try:
                holder = self.db.get_node_by_id(self.node.id).reservation
            except exception.NodeNotFound:
                # Deleted under our lock (node deletion): nothing to say.
                return
            LOG.warning('Node %s was not locked by %s at release (%s); '
                        'it is locked by %s', self.node.uuid, CONF.host,
                        self.purpose, holder)

    def _run_after(self):
        executor, func, args, kwargs = self._after

        def _work():
            try:
                func(self, *args, **kwargs)
            except Exception:
                if not self.lock_lost:  # said once already
                    LOG.exception('Background %s of node %s failed',
                                  self.purpose, self.node.uuid)
            finally:
                self.release()

        try:
            executor.submit(_work)
        except Exception as e:
            if self._spawn_error_hook is not None:
                hook, args = self._spawn_error_hook
                try:
                    hook(self, e, *args)
                except Exception:
                    LOG.exception('Undoing %s of node %s failed',
                                  self.purpose, self.node.uuid)
            self.release()
            if isinstance(e, exception.TemporaryFailure):
                raise
            raise exception.TemporaryFailure(
                'The conductor could not start %s of node %s: %s'
                % (self.purpose, self.node.uuid, e))


# Node ids whose lock this conductor failed to release: nothing of this
# process holds them any more. Guarded by a lock so that a reservation of
# the same node never races with their late release.
_UNRELEASED = set()
_UNRELEASED_LOCK = threading.Lock()


def _release_unreleased(ids):
    db = db_api.get_instance()
    for node_id in ids:
        try:
            db.release_node(CONF.host, node_id)
        except Exception as e:
            LOG.debug('Late release of node %s failed again: %s', node_id,
                      e)
            continue
        _UNRELEASED.discard(node_id)
        LOG.info('Released the lock of node %s (its release had failed)',
                 node_id)


def retry_failed_releases():
    """Give back the locks whose release failed (the conductor's heartbeat
    calls this)."""
    with _UNRELEASED_LOCK:
        _release_unreleased(list(_UNRELEASED))


def _reserve(node_id, attempts=None):
    if node_id in _UNRELEASED:
        # Our own stale lock: give it back before taking it anew.
        with _UNRELEASED_LOCK:
            if node_id in _UNRELEASED:
                _release_unreleased([node_id])
    db = db_api.get_instance()
    attempts = attempts or CONF.conductor.node_locked_retry_attempts
    for attempt in range(attempts):
        try:
            return db.reserve_node(CONF.host, node_id)
        except exception.NodeLocked:
            if attempt == attempts - 1:
                raise
            time.sleep(CONF.conductor.node_locked_retry_interval)


@contextlib.contextmanager
def acquire(context, node_id, shared=False, purpose='unspecified',
            attempts=None):
    """Lock node ``node_id`` (its integer id) and yield a NodeTask.

    :param attempts: how often to try a locked node before NodeLocked
        (default [conductor]node_locked_retry_attempts; 1 for callers that
        must never wait, such as heartbeats).
    """
    db = db_api.get_instance()
    if shared:
        node = db.get_node_by_id(node_id)
    else:
        fencing.check()
        node = _reserve(node_id, attempts)
    task = NodeTask(context, node, shared, purpose)
    try:
        yield task
    except BaseException:
        task.release()
        raise
    if task._after is not None:
        task._run_after()
    else:
        task.release()
