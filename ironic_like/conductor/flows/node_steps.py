"""Tasks shared by the node flows (deploy, tear-down, clean).

Every task gets the node's NodeTask (its lock, its driver) from the
flow's store (``persistence.NODE_TASK``) and is idempotent: a flow
resumed on another conductor runs the interrupted task again. Every task
gets a fixed name from the flow that uses it: names are a persisted
schema.
"""

from oslo_log import log
from oslo_utils import timeutils
from taskflow import task as tf_task

from ironic_like.common import agent_info
from ironic_like.common import exception
from ironic_like.common import states
from ironic_like.common import step_names
from ironic_like.conductor.flows import failures
from ironic_like.conductor.flows import persistence
from ironic_like.conductor.flows import polled_steps
from ironic_like.db import api as db_api

LOG = log.getLogger(__name__)

# Provision-state events (see common/states.py).
_WAIT, _DONE, _FAIL = 'wait', 'done', 'fail'


# Default of move()'s last_error: leave the column alone (None clears it).
KEEP = object()


def move(task, event, target=None, last_error=KEEP, keep_target=True,
         info=None):
    """Move ``task.node`` by ``event`` of the provision state machine
    (common/states.py); ``target`` replaces target_provision_state unless
    ``keep_target``; ``info``: driver_internal_info to write in the same
    write. Returns the new state."""
    node = task.node
    dest = states.next_state(node.provision_state, event)
    if dest is None:
        raise exception.InvalidStateRequested(
            action=event, node=node.uuid, state=node.provision_state)
    values = {'provision_state': dest}
    if not keep_target:
        values['target_provision_state'] = target
    if last_error is not KEEP:
        values['last_error'] = last_error
    if info is not None:
        values['driver_internal_info'] = info
    task.update_node(values)
    return dest


def set_info(task, **changes):
    """Set (value) or drop (None) driver_internal_info keys."""
    info = dict(task.node.driver_internal_info or {})
    for key, value in changes.items():
        if value is None:
            info.pop(key, None)
        else:
            info[key] = value
    task.update_node({'driver_internal_info': info})


# The reserved step name that pauses cleaning or a deploy (API 1.85).
HOLD_STEP = step_names.HOLD


def is_hold(step):
    return step.get('step') == HOLD_STEP


def split_at_hold(steps):
    """(steps before the first "hold", steps after it or None without
    one): how interfaces without node flows run a hold."""
    for index, step in enumerate(steps or ()):
        if is_hold(step):
            return steps[:index], steps[index + 1:]
    return steps, None


def held(task):
    """The node was put on hold by a "hold" step: the rest of the flow
    does nothing, and the node waits for an operator's "unhold"."""
    return task.node.provision_state in states.HOLD_STATES


def hold(task, index_key, index):
    """Reach the "hold" step at ``index`` (its list's position kept under
    ``index_key``): record the step after it as the next one and put the
    node on hold."""
    set_info(task, **{index_key: index + 1, agent_info.PHASE: None,
                      agent_info.COMMAND: None})
    move(task, 'hold')
    LOG.info('Node %s is on hold (%s) until "unhold" or "abort"',
             task.node.uuid, task.node.provision_state)


def leave_ramdisk(task):
    """The node is done with its deploy ramdisk: boot configuration, agent
    token and agent URL go: a token must not outlive the ramdisk it was
    handed to."""
    drop_ramdisk_boot(task)
    drop_agent(task)


def drop_ramdisk_boot(task):
    """The node no longer boots the ramdisk (the agent that runs may
    still run)."""
    try:
        task.driver.boot.clean_up_ramdisk(task)
    except Exception as e:
        LOG.warning('Node %s: removing its boot configuration failed: %s',
                    task.node.uuid, e)


def drop_agent(task):
    """The agent's token and URL go, and what the node waited for of it."""
    agent_info.wipe_agent_token(task)
    set_info(task, **{agent_info.PHASE: None, agent_info.PHASE_STARTED: None,
                      agent_info.COMMAND: None})


def refuse_power_off(node, target):
    """PowerOffDisabled (409) if ``target`` (a power target or state)
    powers off a node whose disable_power_off is set (Ironic 1.95)."""
    if (states.POWER_TARGETS.get(target, target) == states.POWER_OFF
            and getattr(node, 'disable_power_off', False)):
        raise exception.PowerOffDisabled(pstate=target, node=node.uuid)


def power_off(task):
    """Power the node off and record it. A node that may not be powered
    off (disable_power_off) stays on: the work's next boot reboots it
    (see boot()), as Ironic reboots such nodes instead."""
    if task.node.disable_power_off:
        LOG.info('Node %s: not powered off (disable_power_off); it will '
                 'be rebooted instead', task.node.uuid)
        return
    task.driver.power.set_power_state(task, states.POWER_OFF)
    task.update_node({'power_state': states.POWER_OFF})


def fail_node(task, message):
    """End the node's operation as failed: powered off, out of the
    ramdisk, in the failure state of its current state, last_error set.
    Nothing when the lock was lost: the node is another conductor's now."""
    if task.lock_lost:
        return
    LOG.warning('Node %s: %s', task.node.uuid, message)
    try:
        power_off(task)
    except Exception as e:
        message = '%s (powering the node off failed too: %s)' % (
            message, exception.safe_message(e))
    leave_ramdisk(task)
    if states.next_state(task.node.provision_state, _FAIL) is None:
        task.update_node({'last_error': message})
        return
    # A step the node was polled for is no more, in the same write (a
    # record left on a failed node would be polled in its next wait).
    info = task.node.driver_internal_info
    move(task, _FAIL, last_error=message,
         info=(polled_steps.without_record(info)
               if polled_steps.record(task.node) else None))


def failure_text(flow_failures):
    """'step <atom name>: <reason>' of the first failure of a flow."""
    name, reason = failures.first_failure(flow_failures)
    return 'step %s: %s' % (name, reason) if name else reason


class NodeTaskBase(tf_task.Task):
    """A task of a node flow: its ``task`` argument is the node's NodeTask,
    taken from the flow's store."""

    def __init__(self, name):
        super().__init__(name=name,
                         rebind={'task': persistence.NODE_TASK})


class FailOnRevert(NodeTaskBase):
    """First task of every node flow: if a later task fails, the node ends
    in the failure state with a last_error naming the failed step."""

    def __init__(self, name, operation):
        super().__init__(name)
        self.operation = operation

    def execute(self, task):
        pass

    def revert(self, task, *args, **kwargs):
        try:
            fail_node(task, '%s failed at %s' % (
                self.operation, failure_text(kwargs.get('flow_failures'))))
        except Exception:
            # A revert never raises: the node keeps its state and the
            # heartbeat timeout or an operator acts on it.
            LOG.exception('Failing node %s after a failed %s failed',
                          task.node.uuid, self.operation)


class PrepareRamdisk(NodeTaskBase):
    """Validate the driver and write the node's network boot
    configuration (no agent token: the agent's lookup hands one out);
    boot from the network."""

    def execute(self, task):
        task.driver.power.validate(task)
        task.driver.boot.validate(task)
        task.driver.boot.prepare_ramdisk(task)
        # A new agent will call back: the old one's URL is stale.
        set_info(task, **{agent_info.AGENT_URL: None,
                          agent_info.COMMAND: None})


class PowerOn(NodeTaskBase):
    """Power the node on, or cycle it if it is on, so that it boots."""

    def execute(self, task):
        boot(task)


def boot(task):
    """Power the node on, or cycle it if it is on, so that it boots
    (the ramdisk or its instance, whatever its boot configuration)."""
    # Whatever boots gets no token from its (network) boot configuration:
    # an agent that looked up before this step (run again on a resume) is
    # rebooted, and its successor's lookup must hand out a new token.
    agent_info.wipe_agent_token(task)
    # The ramdisk replaces the host: its host agent (and the token it
    # held) is gone; the next deployed host's agent gets a new one.
    db_api.get_instance().reset_hostos_agent(task.node.id)
    power = task.driver.power
    if power.get_power_state(task) == states.POWER_ON:
        power.reboot(task)
    else:
        power.set_power_state(task, states.POWER_ON)
    task.update_node({'power_state': states.POWER_ON})


class PowerOff(NodeTaskBase):

    def execute(self, task):
        power_off(task)


class AwaitAgent(NodeTaskBase):
    """Last task of a phase: record what the next heartbeat should do and
    move the node into its wait state. No thread waits."""

    def __init__(self, name, phase):
        super().__init__(name)
        self.phase = phase

    def execute(self, task):
        if held(task):
            return
        # Each wait gets its own deadline ([agent]phase_timeout).
        set_info(task, **{
            agent_info.PHASE: self.phase,
            agent_info.PHASE_STARTED: timeutils.utcnow().isoformat()})
        if task.node.provision_state not in states.WAIT_STATES:
            move(task, _WAIT)
