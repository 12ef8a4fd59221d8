"""Power actions and the periodic power-state sync."""

from oslo_log import log

from ironic_like.common import agent_info
from ironic_like.common import exception
from ironic_like.common import states
from ironic_like.conductor import locks

LOG = log.getLogger(__name__)


def change_node_power_state(context, executor, node_id, target,
                            timeout=None):
    """Validate and start a power action; it runs after the call returns."""
    if target not in states.POWER_TARGETS:
        raise exception.InvalidParameterValue(
            err='Invalid power state "%s": use one of %s.'
                % (target, ', '.join(sorted(states.POWER_TARGETS))),
            field='target')
    with locks.acquire(context, node_id, purpose='power change') as task:
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


def _do_power_change(task, target, timeout):
    power = task.driver.power
    if target != states.POWER_ON:
        # Its agent (if any) is gone: a ramdisk booted again looks its
        # node up and must be handed a new token (as Ironic's
        # node_power_action wipes it).
        agent_info.wipe_agent_token(task)
    try:
        if target in (states.REBOOT, states.SOFT_REBOOT):
            power.reboot(task, timeout=timeout)
        else:
            power.set_power_state(task, states.POWER_TARGETS[target],
                                  timeout=timeout)
        new_state = power.get_power_state(task)
        task.update_node({'power_state': new_state,
                          'target_power_state': None})
        LOG.info('Node %s is now %s (by %s)', task.node.uuid, new_state,
                 task.purpose)
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
    with locks.acquire(context, node_id, shared=True,
                       purpose='power sync') as task:
        if task.node.maintenance or task.node.reservation:
            return False
        actual = task.driver.power.get_power_state(task)
        if actual == task.node.power_state:
            return False
    try:
        with locks.acquire(context, node_id,
                           purpose='power sync update') as task:
            if task.node.power_state != actual:
                LOG.info('Power sync: node %s is %s (recorded: %s)',
                         task.node.uuid, actual, task.node.power_state)
                task.update_node({'power_state': actual})
                return True
    except exception.NodeLocked:
        pass
    return False
