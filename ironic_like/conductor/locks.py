"""Node locks: the small task manager every node change goes through.

``acquire()`` takes the node's reservation (exclusive) or just reads it
(shared), loads the driver, and always gives the lock back on exit, also on
error. Work that must outlive the RPC call (a power change, provisioning) is
handed to a worker thread with ``spawn_after``: the lock then passes to that
thread, which releases it when the work ends.
"""

import contextlib
import time

from oslo_log import log

from ironic_like.common import exception
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
        """Write ``values`` to the node and keep task.node current."""
        if self.shared:
            raise RuntimeError('update_node() under a shared lock (%s)'
                               % self.purpose)
        self.node = self.db.update_node(self.node.id, values,
                                        expected=expected)
        return self.node

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
        released = self.db.release_node(CONF.host, self.node.id)
        for hook in _RELEASE_HOOKS:
            try:
                hook(self.node.id)
            except Exception:
                LOG.exception('Release hook %s failed', hook)
        if not released:
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
            raise exception.TemporaryFailure(
                'The conductor is too busy to start %s of node %s.'
                % (self.purpose, self.node.uuid))


def _reserve(node_id, purpose, attempts=None):
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
        node = _reserve(node_id, purpose, attempts)
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
