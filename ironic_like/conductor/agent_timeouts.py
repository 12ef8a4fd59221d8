"""Nodes whose agent went silent, or whose agent phase is overdue.

A node powered on and waiting for its agent (wait call-back, clean wait)
whose last sign of life is older than [agent]heartbeat_timeout is acted on
per [agent]heartbeat_timeout_action: rebooted so that the agent boots
again (at most [agent]heartbeat_timeout_reboots times), then put in
maintenance with the reason. The last sign of life is the newest of the
last heartbeat, the entry into the wait state and our last reboot, so a
node that just started waiting is not punished for an old heartbeat.

An agent that heartbeats but never finishes its phase (a command stuck
running, a command API the conductor cannot reach) is caught by the
phase's deadline instead: a node that has waited in one phase for longer
than [agent]phase_timeout ends in deploy failed or clean failed, powered
off, with the phase named in last_error.
"""

import datetime

from oslo_log import log
from oslo_utils import timeutils

from ironic_like.common import agent_info
from ironic_like.common import exception
from ironic_like.common import states
from ironic_like.conductor.flows import node_steps
from ironic_like.conductor.flows import polled_steps
from ironic_like.conductor import inspection
from ironic_like.conductor import locks
from ironic_like.conductor import node_flags
from ironic_like.conductor import rescue
from ironic_like.conf import CONF

LOG = log.getLogger(__name__)

# States in which the node waits for its agent to call back.
WAITING_STATES = frozenset([states.DEPLOYWAIT, states.CLEANWAIT,
                            states.INSPECTWAIT, states.RESCUEWAIT,
                            states.SERVICEWAIT])
# Those where an agent runs phases (heartbeat and phase timeouts); in
# "inspect wait" the agent has not called yet, and
# [conductor]inspect_wait_timeout alone applies (conductor/inspection.py).
AGENT_PHASE_STATES = frozenset([states.DEPLOYWAIT, states.CLEANWAIT,
                                states.SERVICEWAIT])
REBOOTS = agent_info.TIMEOUT_REBOOTS
REBOOTED_AT = agent_info.TIMEOUT_REBOOTED_AT


def _parse(value):
    if not value:
        return None
    try:
        parsed = datetime.datetime.fromisoformat(value)
    except (TypeError, ValueError):
        return None
    return parsed.replace(tzinfo=None)


def last_sign_of_life(node):
    info = node.driver_internal_info or {}
    times = [_parse(info.get(agent_info.LAST_HEARTBEAT)),
             _parse(info.get(REBOOTED_AT)), node.provision_updated_at]
    times = [t for t in times if t is not None]
    return max(times) if times else None


def is_silent(node, now=None):
    if (node.provision_state not in AGENT_PHASE_STATES or
            node.maintenance or node.power_state != states.POWER_ON or
            polled_steps.record(node) is not None):
        # A node whose out-of-band step is polled waits for that step,
        # not for its agent (it may have none, or be rebooting for it).
        return False
    last = last_sign_of_life(node)
    if last is None:
        return False
    now = now or timeutils.utcnow()
    return (now - last).total_seconds() > CONF.agent.heartbeat_timeout


def act_on_silent_node(context, node_id):
    """Reboot or put in maintenance one node if its agent is silent.

    Returns 'rebooted', 'maintenance' or None (not silent, or locked: the
    next check looks again).
    """
    try:
        with locks.acquire(context, node_id, purpose='agent timeout',
                           attempts=1) as task:
            node = task.node
            if not is_silent(node):
                return None
            info = dict(node.driver_internal_info or {})
            reboots = info.get(REBOOTS, 0)
            silence = ('No heartbeat from the agent of node %s for more '
                       'than %d seconds while it was in "%s"'
                       % (node.uuid, CONF.agent.heartbeat_timeout,
                          node.provision_state))
            if (CONF.agent.heartbeat_timeout_action == 'reboot' and
                    reboots < CONF.agent.heartbeat_timeout_reboots):
                try:
                    task.driver.power.reboot(task)
                except Exception as e:
                    LOG.warning('%s; rebooting it failed: %s', silence, e)
                else:
                    # A new agent boots: it gets a new token on lookup
                    # (none is in its network boot configuration).
                    info = agent_info.without_agent(info)
                    info[REBOOTS] = reboots + 1
                    info[REBOOTED_AT] = timeutils.utcnow().isoformat()
                    task.update_node({'driver_internal_info': info,
                                      'power_state': states.POWER_ON})
                    LOG.warning('%s; rebooted it (%d of %d).', silence,
                                reboots + 1,
                                CONF.agent.heartbeat_timeout_reboots)
                    return 'rebooted'
            reason = '%s; %s.' % (silence, 'gave up after %d reboots'
                                  % reboots if reboots else
                                  'put in maintenance')
            info.pop(REBOOTS, None)
            info.pop(REBOOTED_AT, None)
            values = {'maintenance': True, 'maintenance_reason': reason,
                      'last_error': reason, 'driver_internal_info': info}
            if node.provision_state == states.CLEANWAIT:
                # Ironic's fault: the service, not an operator, stopped
                # the node because its cleaning failed.
                values['fault'] = node_flags.CLEAN_FAILURE
            task.update_node(values)
            LOG.warning(reason)
            return 'maintenance'
    except (exception.NodeLocked, exception.NodeNotFound):
        return None


def phase_overdue(node, now=None):
    """Seconds the node's agent phase has run past [agent]phase_timeout
    (None when it is within it, or has no deadline)."""
    if (not CONF.agent.phase_timeout or node.maintenance or
            node.provision_state not in AGENT_PHASE_STATES or
            polled_steps.record(node) is not None):
        # The polled step bounds its own wait.
        return None
    started = _parse((node.driver_internal_info or {}).get(
        agent_info.PHASE_STARTED))
    if started is None:
        return None
    now = now or timeutils.utcnow()
    late = (now - started).total_seconds() - CONF.agent.phase_timeout
    return late if late > 0 else None


def act_on_overdue_phase(context, node_id):
    """Fail the node's operation if its agent phase is past its deadline.
    Returns 'failed' or None."""
    try:
        with locks.acquire(context, node_id, purpose='agent phase timeout',
                           attempts=1) as task:
            node = task.node
            if phase_overdue(node) is None:
                return None
            info = node.driver_internal_info or {}
            node_steps.fail_node(task, (
                'Agent phase "%s" did not end within %d seconds (the '
                'agent\'s command %s did not finish, or its status could '
                'not be read); the operation was abandoned.' % (
                    info.get(agent_info.PHASE), CONF.agent.phase_timeout,
                    info.get(agent_info.COMMAND) or '(none started)')))
            return 'failed'
    except (exception.NodeLocked, exception.NodeNotFound):
        return None


def check_nodes(context, rows):
    """Act on the silent nodes among ownership ``rows`` (as returned by
    takeover.owned_node_rows, filtered on WAITING_STATES); returns
    {node uuid: action}."""
    done = {}
    for row in rows:
        node_id, uuid = row[0], row[1]
        maintenance, provision_state = row[6], row[7]
        if maintenance or provision_state not in WAITING_STATES:
            continue
        try:
            if provision_state == states.INSPECTWAIT:
                action = inspection.act_on_overdue_wait(context, node_id)
            elif provision_state == states.RESCUEWAIT:
                # As "inspect wait": the agent has not called yet, and
                # [conductor]rescue_callback_timeout alone applies.
                action = rescue.act_on_overdue_wait(context, node_id)
            else:
                action = (act_on_silent_node(context, node_id) or
                          act_on_overdue_phase(context, node_id))
        except Exception:
            LOG.exception('Agent timeout check of node %s failed', uuid)
            continue
        if action:
            done[uuid] = action
    return done
