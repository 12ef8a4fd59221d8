"""Power of parent and child nodes (Ironic 1.83).

A child node (a DPU, a smart NIC) usually draws power from its parent:

- powering a child on powers its parent on first;
- powering a parent off powers its children off first.

Neither applies to a child whose driver_info says
``has_dedicated_power_supply`` (Ironic's parameter). The other node's
lock is taken once, without waiting (a parent already on is left alone,
without its lock): a locked parent or child fails the
power action with a message naming it, as Ironic's ParentNodeLocked and
ChildNodeLocked do, rather than powering half of the machine.
"""

import contextlib

from oslo_log import log
from oslo_utils import strutils

from ironic_like.common import exception
from ironic_like.common import states
from ironic_like.conductor.flows import node_steps
from ironic_like.conductor import locks

LOG = log.getLogger(__name__)

DEDICATED_POWER = 'has_dedicated_power_supply'


def _shares_power(node):
    return not strutils.bool_from_string(
        (node.driver_info or {}).get(DEDICATED_POWER, False))


def before_power_change(task, target, timeout=None):
    """Power the parent on or the children off, as ``target`` (a power
    state) on ``task``'s node needs."""
    if target == states.POWER_ON and task.node.parent_node \
            and _shares_power(task.node):
        _power_on_parent(task, timeout)
    elif target == states.POWER_OFF:
        _power_off_children(task, timeout)


def _power_on_parent(task, timeout):
    db = task.db
    try:
        parent = db.get_node_by_uuid(task.node.parent_node)
    except exception.NodeNotFound:
        LOG.warning('Node %s: its parent %s does not exist; powering it on '
                    'alone', task.node.uuid, task.node.parent_node)
        return
    # Read first without its lock, as Ironic does: a parent that is on
    # (the usual case) needs nothing, and one whose cleaning or servicing
    # runs this child's power step holds its own lock meanwhile.
    with locks.acquire(task.context, parent.id, shared=True,
                       purpose='read parent node power') as shared:
        if shared.driver.power.get_power_state(shared) == states.POWER_ON:
            return
    with _locked(task, parent, 'parent', 'power on parent node') as pt:
        _set_power(pt, states.POWER_ON, timeout)


def _power_off_children(task, timeout):
    children = [child for child in task.db.get_node_list(
        filters={'parent_node': task.node.uuid}, sort_key='id',
        columns=['uuid', 'driver_info']) if _shares_power(child)]
    if not children:
        return
    with contextlib.ExitStack() as stack:
        # Every child locked before any is touched: all or none.
        child_tasks = [stack.enter_context(
            _locked(task, child, 'child', 'child node power off'))
            for child in children]
        for child_task in child_tasks:
            _set_power(child_task, states.POWER_OFF, timeout)


@contextlib.contextmanager
def _locked(task, other, relation, purpose):
    try:
        with locks.acquire(task.context, other.id, purpose=purpose,
                           attempts=1) as other_task:
            yield other_task
    except exception.NodeLocked as e:
        raise exception.Conflict(
            'Cannot change the power of %s node %s of node %s: it is '
            'locked (%s)' % (relation, other.uuid, task.node.uuid, e))


def _set_power(task, target, timeout):
    node_steps.refuse_power_off(task.node, target)
    power = task.driver.power
    if power.get_power_state(task) == target:
        return
    LOG.info('Node %s: powering %s for %s', task.node.uuid, target,
             task.purpose)
    power.set_power_state(task, target, timeout=timeout)
    task.update_node({'power_state': power.get_power_state(task),
                      'target_power_state': None})
