"""Deadlines of the waits for an agent that end in failure rather than a
reboot (inspect wait, rescue wait): how late a node is, and failing it
under its lock."""

from oslo_utils import timeutils

from ironic_like.common import exception
from ironic_like.conductor.flows import node_steps
from ironic_like.conductor import locks


def seconds_late(started, timeout, now=None):
    """Seconds past ``timeout`` since ``started`` (None within it, or
    without a start)."""
    if started is None:
        return None
    now = now or timeutils.utcnow()
    late = (now - started.replace(tzinfo=None)).total_seconds() - timeout
    return late if late > 0 else None


def fail_if_late(context, node_id, late, purpose, message, after=None):
    """Fail the node if ``late(node)`` under its lock; then ``after(task)``.
    Returns 'failed' or None (within time, or locked: the next check looks
    again)."""
    try:
        with locks.acquire(context, node_id, purpose=purpose,
                           attempts=1) as task:
            if late(task.node) is None:
                return None
            node_steps.fail_node(task, message)
            if after is not None:
                after(task)
            return 'failed'
    except (exception.NodeLocked, exception.NodeNotFound):
        return None
