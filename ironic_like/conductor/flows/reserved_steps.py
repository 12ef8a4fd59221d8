"""The steps of manual cleaning, servicing (and so of runbooks) and
deploys that the conductor runs itself, as Ironic does: the reserved
step names ``power_on``, ``power_off``, ``reboot`` and ``wait``
(``hold`` too: see node_steps.hold), whatever interface they name, and
any step sent to the node's child nodes (``execute_on_child_nodes``,
common/step_names.py). No driver step or agent command runs for them.

With the agent (the flows of clean.py and service.py), the runner starts
the flow of the next step through next_flow(): a conductor step gets its
own flow (``clean-conductor-step``, ``service-conductor-step``), whose
RunStep runs it and moves the index on. The chain then carries on at
once, except when the node must wait for its agent's next heartbeat: a
"wait" without seconds, or an agent step next while the agent is gone (a
power_off or reboot took it away; the agent booted again looks up and
heartbeats, and that heartbeat starts the step). The agent deploy runs
its steps in one atom (deploy.py's deploy-run-steps), which calls
run_listed() for each of the conductor's: the same rules, the same
waits.

Without the agent (a deploy interface without node flows, disable_ramdisk,
or steps that are all the conductor's), run_without_agent() runs them in
the provisioning worker.
"""

import collections
import time

from oslo_log import log
from oslo_utils import timeutils

from ironic_like.common import agent_info
from ironic_like.common import exception
from ironic_like.common import states
from ironic_like.common import step_names
from ironic_like.conductor.flows import interface_steps
from ironic_like.conductor.flows import node_steps
from ironic_like.conductor.flows import polled_steps
from ironic_like.conductor import locks
from ironic_like.conductor import node_history
from ironic_like.conductor import power
from ironic_like.conf import CONF
from ironic_like.db import api as db_api
from ironic_like.drivers import base as drivers_base

LOG = log.getLogger(__name__)

# Where a flow kind keeps its steps: ``kind`` 'clean', 'service' or
# 'deploy', ``operation`` as last_error names it, the
# driver_internal_info keys of the list and of the next step's index,
# the agent phase that has the next heartbeat start the next step, the
# state the steps run in, and ``agent_step(step, node)``: whether the agent
# runs a step of the list (None: every step but the conductor's, as in
# cleaning and servicing; a deploy also has steps the node's interfaces
# run, and built-in ones its flows do).
StepList = collections.namedtuple(
    'StepList',
    'kind operation steps_key index_key phase_next state agent_step',
    defaults=(None,))


class StepFailed(exception.IronicLikeException):
    """A conductor step failed; the message names it ("<kind> step
    <name>: <why>")."""


def next_flow(node, flows):
    """The flow that runs the next step of ``node``'s cleaning or
    servicing (``flows``: the clean or service flow module): its finish
    when no step is left, the conductor-step flow for a step of the
    conductor's, else the agent step's."""
    info = node.driver_internal_info or {}
    steps = info.get(flows.STEPS) or []
    index = info.get(flows.INDEX) or 0
    if index >= len(steps):
        return flows.FINISH
    if interface_steps.runs_here(node, steps[index], flows.STEP_LIST.kind):
        return flows.CONDUCTOR_STEP
    return flows.NEXT_STEP


class RunStep(node_steps.NodeTaskBase):
    """Run the conductor step at the node's step index, then move the
    index on. The index is the progress: a flow resumed on another
    conductor runs the step at it, the one interrupted (run again) or,
    when that one had ended, the next one if it is the conductor's too;
    otherwise it does nothing, and the runner picks the flow of the step
    at the index."""

    def __init__(self, name, step_list):
        super().__init__(name)
        self.step_list = step_list

    def execute(self, task):
        keys = self.step_list
        node = task.node
        info = node.driver_internal_info or {}
        steps = info.get(keys.steps_key) or []
        index = info.get(keys.index_key) or 0
        if node.provision_state != keys.state or index >= len(steps) \
                or not interface_steps.runs_here(node, steps[index],
                                                 keys.kind):
            return
        try:
            run_listed(task, keys, index)
        except StepFailed as e:
            # Failed as a failed agent step is: the node ends in its
            # failure state, powered off, the step named in last_error.
            node_steps.fail_node(task, '%s failed at %s' % (
                keys.operation, exception.safe_message(e)))


def run_listed(task, keys, index):
    """Run the conductor's step at ``index`` of the node's list (where
    ``keys`` says), "hold" included, and move the index past it. Returns
    whether the next step may start at once: False when the node now
    holds or waits for its agent's next heartbeat. Raises StepFailed
    (naming the step) when it fails: the caller fails the node as its
    work fails (cleaning: fail_node; a deploy: its flow's revert)."""
    steps = (task.node.driver_internal_info or {}).get(keys.steps_key) \
        or []
    step = steps[index]
    if node_steps.is_hold(step):
        node_steps.hold(task, keys.index_key, index)
        return False
    try:
        done = run_step(task, step, keys.kind)
    except Exception as e:
        raise StepFailed('%s step %s: %s' % (
            keys.kind, step.get('step'), exception.safe_message(e)))
    if drivers_base.is_polling(done):
        # The node waits while the step goes on outside the conductor;
        # the poll that finds it done moves the index on.
        polled_steps.begin(task, keys.kind, step, done, index=index)
        return False
    wait = not done or _agent_needed(task.node, keys, steps, index + 1)
    _advance(task, keys, index + 1, wait)
    return not wait


def is_agent_step(keys, step, node):
    """Whether the agent runs ``step`` of ``keys``' list for ``node``."""
    if keys.agent_step is not None:
        return keys.agent_step(step, node)
    return not interface_steps.runs_here(node, step, keys.kind)


def _agent_needed(node, keys, steps, index):
    """The step at ``index`` is the agent's, and the agent's URL is gone
    (a power_off or reboot took it): wait for the agent booted again."""
    return (index < len(steps)
            and is_agent_step(keys, steps[index], node)
            and not agent_present(node))


def agent_present(node):
    """The node's agent is known to run: its heartbeats recorded its URL,
    which a power_off or reboot step takes away."""
    return bool((node.driver_internal_info or {}).get(agent_info.AGENT_URL))


def wait_for_agent(task, keys, index):
    """The step at ``index`` is the agent's and the agent is gone: the
    node waits for the next heartbeat of the agent booted again, which
    starts that step."""
    LOG.info('Node %s: %s step %d needs the agent, which is gone (powered '
             'off or rebooted)', task.node.uuid, keys.kind, index)
    _advance(task, keys, index, True)


def _advance(task, keys, next_index, wait):
    """Make ``next_index`` the step index; with ``wait``, the node waits
    for its agent's next heartbeat, which starts the next step (as after
    "unhold"; the [agent] timeouts apply meanwhile). One write, so that
    a take-over never finds the index moved without the wait."""
    node = task.node
    info = dict(node.driver_internal_info or {})
    info[keys.index_key] = next_index
    info.pop(agent_info.COMMAND, None)
    values = {'driver_internal_info': info}
    if wait:
        info[agent_info.PHASE] = keys.phase_next
        info[agent_info.PHASE_STARTED] = timeutils.utcnow().isoformat()
        values['provision_state'] = states.next_state(
            node.provision_state, 'wait')
        LOG.info('Node %s waits for its agent\'s next heartbeat to carry '
                 'on', node.uuid)
    task.update_node(values)


def run_step(task, step, kind=None):
    """Run a step of the conductor's other than "hold" on ``task.node``
    (or its children), or an out-of-band step of the node's interfaces
    in its ``kind`` work (cleaning or servicing). True when done; False
    for a "wait" without seconds, which ends with the agent's next
    heartbeat (the caller makes the node wait for it); the step's
    drivers.base.Polling when it goes on outside the conductor (the
    caller makes the node wait for it: polled_steps.begin). Raises when
    the step fails."""
    if step_names.on_children(step):
        _on_children(task, step, kind)
        return True
    name = step.get('step')
    if name in step_names.POWER_STEPS:
        _power(task, step_names.POWER_STEPS[name])
        return True
    if name == step_names.WAIT:
        seconds = step_names.wait_seconds(step)
        if seconds is None:
            return False
        _pause(task, seconds)
        return True
    if kind and interface_steps.out_of_band(task.node, step, kind):
        result = interface_steps.run_out_of_band(task, step)
        return result if drivers_base.is_polling(result) else True
    # The API and the conductor's request checks let nothing else here.
    raise exception.InvalidParameterValue(
        err='Step "%s" is not one the conductor runs.' % name)


def _power(task, target):
    """A power step on ``task.node`` through the power action the API's
    power changes use (disable_power_off, parent and child coupling, the
    agent token dropped)."""
    node_steps.refuse_power_off(task.node, target)
    current = task.driver.power.get_power_state(task)
    if target != states.REBOOT and current == target:
        # Nothing to change, as Ironic skips it; a node found off has no
        # agent all the same.
        if target == states.POWER_OFF:
            agent_info.wipe_agent_token(task)
        LOG.info('Node %s is %s already', task.node.uuid, current)
        return
    if target == states.POWER_ON:
        # What boots now gets a new token from its lookup (the agent of
        # a node powered off outside our power actions kept its own).
        agent_info.wipe_agent_token(task)
    power.node_power_action(task, target)


def _children_of(db, node, step):
    """The child nodes (rows of id and uuid) ``step`` acts on: those of
    limit_child_node_execution only, when it lists some."""
    limit = set(step_names.child_limit(step))
    return [child for child in db.get_node_list(
        filters={'parent_node': node.uuid}, sort_key='id',
        columns=['id', 'uuid']) if not limit or child.uuid in limit]


def _on_children(task, step, kind=None):
    """Run ``step`` on each child node of ``task.node`` (those of
    limit_child_node_execution only, when it lists some), one after
    another under its own lock, as Ironic does: a power step, or in
    ``kind`` work (cleaning, servicing) a step the child's interface
    marks. A child that stopped being one since the request is skipped;
    no child at all is nothing to do."""
    children = _children_of(task.db, task.node, step)
    name = step.get('step')
    target = step_names.POWER_STEPS.get(name)
    if target is None and kind not in _CHILD_STEP_KINDS.values():
        # Only cleaning and servicing send interface steps to children
        # (step_names.check refuses others before anything is recorded).
        raise exception.InvalidParameterValue(
            err='Step "%s" cannot run on child nodes.' % name)
    if not children:
        LOG.info('Node %s: no child node to run step %s on',
                 task.node.uuid, name)
        return
    for child in children:
        LOG.info('Node %s: running step %s on its child node %s',
                 task.node.uuid, name, child.uuid)
        try:
            with locks.acquire(task.context, child.id,
                               purpose='step %s of parent node %s'
                               % (name, task.node.uuid)) as child_task:
                if target is not None:
                    _power(child_task, target)
                else:
                    _child_interface_step(child_task, step, kind)
        except Exception as e:
            raise exception.IronicLikeException(
                'child node %s: %s' % (child.uuid,
                                       exception.safe_message(e)))


def _child_interface_step(child_task, step, kind):
    # Checked on every child before the parent moved; again here, on the
    # child as it is now (it may have become a child, or changed its
    # interfaces, since).
    own = interface_steps.on_child(step)
    interface_steps.check_node_step(child_task.node, own, kind,
                                    '%s_steps' % kind)
    result = interface_steps.run_out_of_band(child_task, own)
    if drivers_base.is_polling(result):
        # Polled here: the parent's work goes on only once every child
        # is done.
        polled_steps.poll_inline(child_task, own, result)


# The work each request's child node steps are the children's steps of.
_CHILD_STEP_KINDS = {'clean_steps': 'clean', 'service_steps': 'service'}


def _check_child_interface_step(node, step, field):
    """A step sent to the child nodes that is not a power step: each
    child it acts on must have it, as an out-of-band step its interface
    marks for that work, with the arguments the mark allows (and what
    the interface's own check asks). InvalidParameterValue naming
    ``field`` and the child."""
    kind = _CHILD_STEP_KINDS[field]
    own = interface_steps.on_child(step)
    db = db_api.get_instance()
    for child in _children_of(db, node, step):
        try:
            interface_steps.check_node_step(db.get_node_by_id(child.id),
                                            own, kind, field)
        except exception.InvalidParameterValue as e:
            raise exception.InvalidParameterValue(
                err='Child node %s (%s): %s' % (
                    child.uuid, step_names.ON_CHILDREN,
                    exception.safe_message(e)),
                field=e.kwargs.get('field') or field)


def _pause(task, seconds):
    """A "wait" with seconds pauses the work here, in the worker holding
    the node's lock, as Ironic's conductor sleeps; bounded by
    [conductor]max_conductor_wait_step_seconds, since the thread and the
    lock are held meanwhile."""
    limit = CONF.conductor.max_conductor_wait_step_seconds
    if seconds > limit:
        warning = ('A wait of %d seconds was requested, more than '
                   '[conductor]max_conductor_wait_step_seconds; waiting %d '
                   'seconds.' % (seconds, limit))
        LOG.warning('Node %s: %s', task.node.uuid, warning)
        node_history.record(task.node, warning,
                            node_history.event_type(task.purpose,
                                                    task.node),
                            node_history.WARNING, task.context)
        seconds = limit
    LOG.info('Node %s: waiting %d seconds (a "wait" step)',
             task.node.uuid, seconds)
    _sleep(seconds)


def _sleep(seconds):
    # Apart, so that tests need not wait.
    time.sleep(seconds)


def run_without_agent(task, steps, run_others=None, kind=None):
    """Run ``steps`` (none of them "hold": the caller splits at it) in
    order, in the worker, for a node whose agent does not run them: the
    conductor's steps here; runs of the others handed to
    ``run_others(task, steps)`` (the fake deploy interface's clean()),
    or, without it, skipped (nothing runs them); the out-of-band steps of
    the node's interfaces in its ``kind`` work here too. Returns the last
    run_others() result (states.CLEANWAIT: the rest on a callback), or
    Paused when a step goes on outside the conductor (the steps after it
    have not run; the caller makes the node wait for it); raises when a
    step fails."""
    result = None
    others = []
    for position, step in enumerate(steps or ()):
        if not (interface_steps.runs_here(task.node, step, kind) if kind
                else step_names.run_by_conductor(step)):
            others.append(step)
            continue
        if others:
            _run_others(task, others, run_others, last=False)
            others = []
        try:
            done = run_step(task, step, kind)
        except Exception as e:
            # The caller's last_error then names the step.
            raise exception.IronicLikeException('step %s: %s' % (
                step.get('step'), exception.safe_message(e)))
        if drivers_base.is_polling(done):
            return Paused(position, step, done)
        if not done:
            # A "wait" for a heartbeat nothing here sends: over at once.
            LOG.info('Node %s: no agent heartbeats; "wait" step %d is over',
                     task.node.uuid, position)
    if others:
        result = _run_others(task, others, run_others, last=True)
    return result


# What run_without_agent() returns when the step at ``position`` of its
# list goes on outside the conductor (``polling``: its Polling).
Paused = collections.namedtuple('Paused', 'position step polling')


def _run_others(task, steps, run_others, last):
    if run_others is None:
        LOG.info('Node %s: steps %s (nothing to run them without an '
                 'agent)', task.node.uuid,
                 ', '.join(s.get('step') for s in steps))
        return None
    result = run_others(task, steps)
    if result is not None and not last:
        # A driver that finishes on a callback cannot be followed by the
        # conductor's steps here.
        raise exception.InvalidParameterValue(
            err='Steps %s end on a callback, and the conductor\'s steps '
                'after them cannot wait for it.'
                % ', '.join(s.get('step') for s in steps))
    return result


def check_request(node, steps, field, no_ramdisk=False):
    """The conductor's checks of the steps of a manual cleaning, a
    servicing or a deploy (``field``), before the node moves: for RPC
    callers other than our API, which checks the same (and for deploy
    templates written before these rules). ``no_ramdisk``:
    disable_ramdisk was asked for."""
    for step in steps or ():
        step_names.check(step, field)
        if step_names.on_children(step) and \
                step.get('step') not in step_names.POWER_STEPS:
            _check_child_interface_step(node, step, field)
        # Refused now rather than failing the node later (Ironic fails
        # the step when it runs).
        if step.get('step') == step_names.POWER_OFF and \
                not step_names.on_children(step):
            node_steps.refuse_power_off(node, states.POWER_OFF)
        if no_ramdisk and step.get('step') == step_names.WAIT and \
                step_names.wait_seconds(step) is None:
            raise exception.InvalidParameterValue(
                err='A "wait" step without %s waits for the agent\'s next '
                    'heartbeat; disable_ramdisk boots no agent.'
                    % step_names.SECONDS, field=field)
