"""Power actions and the periodic power-state sync."""

import threading

from oslo_log import log

from ironic_like.common import agent_info
from ironic_like.common import exception
from ironic_like.common import health_states
from ironic_like.common import states
from ironic_like.conductor import child_nodes
from ironic_like.conductor.flows import node_steps
from ironic_like.conductor import locks
from ironic_like.conductor import node_flags
from ironic_like.conductor import node_history
from ironic_like.conf import CONF

LOG = log.getLogger(__name__)

# Consecutive failed power reads of each node (by UUID), in this
# conductor's memory (as Ironic keeps them): a node that moves to another
# conductor starts again from 0, which only delays its maintenance by a
# few syncs.
_SYNC_FAILURES = {}
_SYNC_FAILURES_LOCK = threading.Lock()


def change_node_power_state(context, executor, node_id, target,
                            timeout=None):
    """Validate and start a power action; it runs after the call returns."""
    if target not in states.POWER_TARGETS:
        raise exception.InvalidParameterValue(
            err='Invalid power state "%s": use one of %s.'
                % (target, ', '.join(sorted(states.POWER_TARGETS))),
            field='target')
    with locks.acquire(context, node_id, purpose='power change') as task:
        node_steps.refuse_power_off(task.node, target)
        supported = task.driver.power.get_supported_power_states(task)
        if target not in supported:
            raise exception.InvalidParameterValue(
                err='Driver %s does not support power state "%s"; it '
                    'supports: %s.' % (task.node.driver, target,
                                       ', '.join(supported)),
                field='target')
        task.update_node({'target_power_state':
                          states.POWER_TARGETS[target],
                          'last_error': None})
        task.set_spawn_error_hook(_not_started, target)
        task.spawn_after(executor, _do_power_change, target, timeout)


def _not_started(task, error, target):
    # The worker was refused: clear the target nobody will reach.
    task.update_node({'target_power_state': None,
                      'last_error': 'Power change to "%s" was not started: '
                                    '%s' % (target, error)})


def node_power_action(task, target, timeout=None):
    """Change the power of ``task.node`` (locked) to ``target`` (a
    states.POWER_TARGETS key) and record the state it reached; raises
    when it fails. The one way power is changed on request, by the API
    or by a power step of cleaning or servicing, so that both refuse to
    power off a node with disable_power_off, couple a child's power to
    its parent's, and drop the agent a power change takes away."""
    node_steps.refuse_power_off(task.node, target)
    power = task.driver.power
    if target != states.POWER_ON:
        # Its agent (if any) is gone: a ramdisk booted again looks its
        # node up and must be handed a new token (as Ironic's
        # node_power_action wipes it).
        agent_info.wipe_agent_token(task)
    if target in (states.REBOOT, states.SOFT_REBOOT):
        power.reboot(task, timeout=timeout)
    else:
        # A child's parent on first, a parent's children off first.
        child_nodes.before_power_change(
            task, states.POWER_TARGETS[target], timeout)
        power.set_power_state(task, states.POWER_TARGETS[target],
                              timeout=timeout)
    new_state = power.get_power_state(task)
    task.update_node({'power_state': new_state,
                      'target_power_state': None})
    LOG.info('Node %s is now %s (by %s)', task.node.uuid, new_state,
             task.purpose)
    return new_state


def _do_power_change(task, target, timeout):
    try:
        node_power_action(task, target, timeout)
    except Exception as e:
        if task.lock_lost:
            return  # the node's new owner carries on
        LOG.warning('Power change of node %s to %s failed: %s',
                    task.node.uuid, target, e)
        task.update_node({'target_power_state': None,
                          'last_error': 'Failed to change power state to '
                                        '"%s": %s' % (target, e)})


def sync_node_power_state(context, node_id):
    """Read the real power state and record it if the DB disagrees.

    Reads under a shared lock and writes under an exclusive one only when
    needed; a node locked meanwhile is simply skipped this round.
    """
    failure = None
    with locks.acquire(context, node_id, shared=True,
                       purpose='power sync') as task:
        if task.node.maintenance or task.node.reservation:
            return False
        try:
            actual = task.driver.power.get_power_state(task)
        except Exception as e:
            failure = e
        else:
            with _SYNC_FAILURES_LOCK:
                _SYNC_FAILURES.pop(task.node.uuid, None)
            health = _read_health(task)
            if actual == task.node.power_state and \
                    health in (_UNKNOWN, task.node.health):
                return False
    if failure is not None:
        # Counted (and acted on) outside the shared lock: maintenance
        # takes the exclusive one.
        _sync_failed(context, task.node, failure)
        raise failure
    try:
        with locks.acquire(context, node_id,
                           purpose='power sync update') as task:
            if task.node.power_state != actual:
                # Read again under the exclusive lock: the first read may
                # be old (this conductor paused, or the node's work
                # changed its power since), and a write under the lock
                # fails if the lock is lost meanwhile, so what is
                # recorded is never older than the lock.
                actual = task.driver.power.get_power_state(task)
            _record_health(task, health)
            if task.node.power_state != actual:
                LOG.info('Power sync: node %s is %s (recorded: %s)',
                         task.node.uuid, actual, task.node.power_state)
                task.update_node({'power_state': actual})
                return True
    except exception.NodeLocked:
        pass
    return False


# What _read_health answers when the health is not known this round.
_UNKNOWN = object()


def _read_health(task):
    """The node's hardware health from its management interface (API
    1.109), or _UNKNOWN: monitoring off, an interface that cannot tell, or
    a BMC error (logged; the power sync is not failed by it)."""
    if not CONF.conductor.enable_health_monitoring:
        return _UNKNOWN
    try:
        return task.driver.management.get_node_health(task)
    except exception.UnsupportedDriverExtension:
        return _UNKNOWN
    except Exception as e:
        LOG.warning('Node %s: its health could not be read: %s',
                    task.node.uuid, exception.safe_message(e))
        return _UNKNOWN


def _record_health(task, health):
    """Write a changed health, and journal the change (Ironic's
    "monitoring" history event; a warning when it is not OK)."""
    old = task.node.health
    if health is _UNKNOWN or health == old:
        return
    task.update_node({'health': health})
    healthy = health in (None, health_states.OK)
    node_history.record(
        task.node, 'Node health status changed: health=%r (previously %r)'
        % (health, old), 'monitoring',
        node_history.INFO if healthy else node_history.WARNING)
    log = LOG.info if healthy else LOG.warning
    log('Node %s: health %s (was %s)', task.node.uuid, health, old)


def _sync_failed(context, node, error):
    """Count a failed power read; after [conductor]
    power_state_sync_max_retries in a row, put the node in maintenance
    with Ironic's 'power failure' fault (recover_power_failure() takes it
    out again once its BMC answers)."""
    with _SYNC_FAILURES_LOCK:
        count = _SYNC_FAILURES.get(node.uuid, 0) + 1
        _SYNC_FAILURES[node.uuid] = count
    if count < CONF.conductor.power_state_sync_max_retries:
        return
    try:
        with locks.acquire(context, node.id, purpose='power failure',
                           attempts=1) as task:
            if task.node.maintenance:
                return
            reason = ('The power state of node %s could not be read %d '
                      'times in a row; last error: %s'
                      % (task.node.uuid, count, error))
            task.update_node({'maintenance': True,
                              'maintenance_reason': reason,
                              'fault': node_flags.POWER_FAILURE,
                              'power_state': None})
            LOG.warning('%s. Put in maintenance.', reason)
    except exception.NodeLocked:
        return  # counted; the next failed sync tries again
    with _SYNC_FAILURES_LOCK:
        _SYNC_FAILURES.pop(node.uuid, None)


def recover_power_failure(context, node_id):
    """Take a node out of the maintenance a power failure put it in, if
    its power state can be read again. True when it was."""
    with locks.acquire(context, node_id, purpose='power failure recovery',
                       attempts=1) as task:
        node = task.node
        if not node.maintenance or node.fault != node_flags.POWER_FAILURE:
            return False
        try:
            actual = task.driver.power.get_power_state(task)
        except Exception as e:
            LOG.debug('Node %s: power still unreadable: %s', node.uuid, e)
            return False
        task.update_node({'maintenance': False, 'maintenance_reason': None,
                          'fault': None, 'power_state': actual})
        LOG.info('Node %s: power state readable again (%s); out of '
                 'maintenance', node.uuid, actual)
        return True
