"""Runs the node flows of the agent deploy interface one after another,
and decides what a heartbeat, an abort or a take-over starts.

A flow that ends well may be followed at once by the next one (tear-down
is followed by cleaning, the choice of clean steps by the first step);
waits for the agent end the chain. A flow recorded on a node that a dead
conductor was running is resumed here, then followed the same way.
"""

import contextlib
import copy
import threading

from oslo_log import log
from oslo_utils import timeutils

from ironic_like.common import agent_info
from ironic_like.common import deploy_templates
from ironic_like.common import exception
from ironic_like.common import states
from ironic_like.conductor import node_flags
from ironic_like.conductor.flows import clean
from ironic_like.conductor.flows import deploy
from ironic_like.conductor.flows import interface_steps
from ironic_like.conductor.flows import node_steps
from ironic_like.conductor.flows import persistence
from ironic_like.conductor.flows import polled_steps
from ironic_like.conductor.flows import reserved_steps
from ironic_like.conductor.flows import service
from ironic_like.drivers.modules import agent_client

LOG = log.getLogger(__name__)

_EXECUTOR = []


def use_executor(executor):
    """The conductor's worker pool (the service sets it on start; None
    forgets it)."""
    _EXECUTOR[:] = [executor] if executor is not None else []


def executor():
    if not _EXECUTOR:
        raise RuntimeError('The conductor has not started its workers')
    return _EXECUTOR[0]


def _follow_up(task, finished):
    node = task.node
    if finished == clean.TEARDOWN and \
            node.provision_state == states.CLEANING:
        if node_flags.skip_automated_clean(node):
            LOG.info('Node %s: automated cleaning is off; not cleaned',
                     node.uuid)
            node_flags.finish_cleaning(task)
            return None
        return clean.BOOT_RAMDISK
    # A conductor step that did not make the node wait (or hold, or
    # fail) is followed at once by the next step.
    if finished in (clean.START_STEPS, clean.CONDUCTOR_STEP) and \
            node.provision_state == states.CLEANING:
        return reserved_steps.next_flow(node, clean)
    if finished in (service.START_STEPS, service.CONDUCTOR_STEP) and \
            node.provision_state == states.SERVICING:
        return reserved_steps.next_flow(node, service)
    return None


# The nodes whose work runs in a worker of this conductor (under their
# lock): node id -> [nesting depth, abort requested].
_RUNNING = {}
_RUNNING_LOCK = threading.Lock()


def request_abort(node_id):
    """Ask the work this conductor runs on node ``node_id`` to stop once
    its current flow ends, and the node to be aborted then. False when no
    such work runs here (the caller then aborts under the lock itself)."""
    with _RUNNING_LOCK:
        entry = _RUNNING.get(node_id)
        if entry is None:
            return False
        entry[1] = True
    LOG.info('Node %s: abort requested; it takes effect when the current '
             'step ends', node_id)
    return True


def _abort_requested(node_id):
    with _RUNNING_LOCK:
        entry = _RUNNING.get(node_id)
        return bool(entry and entry[1])


@contextlib.contextmanager
def _abortable(task):
    """Register the work on ``task.node`` so that request_abort() reaches
    it; the outermost registration carries the abort out at the end."""
    node_id = task.node.id
    with _RUNNING_LOCK:
        entry = _RUNNING.setdefault(node_id, [0, False])
        entry[0] += 1
    try:
        yield
    finally:
        with _RUNNING_LOCK:
            entry[0] -= 1
            aborted = entry[0] == 0 and entry[1]
            if entry[0] == 0:
                del _RUNNING[node_id]
        if aborted:
            _abort_now(task)


def _abort_now(task):
    node = task.node
    if task.lock_lost or not states.is_allowed(node.provision_state,
                                               'abort'):
        LOG.info('Node %s: nothing to abort any more (%s)', node.uuid,
                 node.provision_state)
        return
    # A step it started that goes on outside the conductor is forgotten
    # in the abort's own write (the interface drops what it kept).
    polled_steps.abandon(task)
    info = (polled_steps.without_record(node.driver_internal_info)
            if polled_steps.record(node) else None)
    node_steps.move(task, 'abort', last_error='Aborted by request.',
                    info=info)
    _abort_cleanup(task)


def run_chain(task, name):
    """Run flow ``name`` and its follow-ups (in a worker holding the lock);
    an abort requested meanwhile stops the chain between two flows."""
    with _abortable(task):
        while name and not _abort_requested(task.node.id):
            if not persistence.run(task, name):
                return
            name = _follow_up(task, name)


def with_network_data(node, configdrive):
    """The config drive to write: as Ironic does, a config drive given
    as a dict without network_data gets the node's (API 1.66)."""
    if (isinstance(configdrive, dict) and node.network_data
            and 'network_data' not in configdrive):
        return dict(configdrive, network_data=node.network_data)
    return configdrive


def start_deploy(task, configdrive=None):
    """Boot the ramdisk and wait for the agent (in the provisioning
    worker, which holds the lock)."""
    if configdrive is not None:
        info = dict(task.node.instance_info or {})
        info['configdrive'] = with_network_data(task.node, configdrive)
        task.update_node({'instance_info': info})
    node_steps.set_info(task, **{agent_info.PHASE: None,
                                 agent_info.COMMAND: None})
    run_chain(task, deploy.BOOT_RAMDISK)


def start_service(task, steps):
    """Servicing of an active node (API 1.87): boot the agent's ramdisk
    and wait for it; its heartbeats run ``steps``."""
    clean.check_agent_steps(task, steps, 'service_steps', 'service')
    node_steps.set_info(task, **{
        service.REQUESTED: list(steps), service.STEPS: None,
        service.INDEX: None, agent_info.PHASE: None,
        agent_info.COMMAND: None})
    run_chain(task, service.BOOT_RAMDISK)


def start_tear_down(task):
    """Power off, release the instance, then clean (automatically)."""
    run_chain(task, clean.TEARDOWN)


def start_clean(task, steps=None):
    """Automated cleaning (steps None) or manual cleaning of ``steps``
    (a list of {interface, step, args})."""
    if steps is not None:
        clean.check_agent_steps(task, steps, 'clean_steps', 'clean')
    node_steps.set_info(task, **{
        clean.REQUESTED: list(steps) if steps is not None else None,
        clean.STEPS: None, clean.INDEX: None,
        agent_info.PHASE: None, agent_info.COMMAND: None})
    run_chain(task, clean.BOOT_RAMDISK)


def resume_chain(task):
    """Resume the flow a dead conductor was running, then its follow-ups.
    If it cannot be resumed (its progress is gone or unusable) and left
    the node in its transient state, carry on from restart_point()."""
    with _abortable(task):
        _resume_chain(task)


def _resume_chain(task):
    record = persistence.recorded(task.node)
    resumed = bool(record) and persistence.resume(task)
    task.node = task.db.get_node_by_id(task.node.id)
    follow = _follow_up(task, record['name']) if resumed else None
    if follow:
        run_chain(task, follow)
        return
    node = task.node
    if (node.provision_state in states.TRANSIENT_STATES and
            persistence.recorded(node) is None):
        point = restart_point(node)
        LOG.warning('Node %s: its flow could not be resumed; carrying on '
                    'with %s', node.uuid, point)
        if point == WAIT_AGAIN:
            node_steps.move(task, 'wait')
        elif point:
            run_chain(task, point)
        else:
            node_steps.fail_node(task, 'The work interrupted in "%s" '
                                       'could not be resumed.'
                                 % node.provision_state)


# What restart_point() answers when the node should just wait again for
# its agent's next heartbeat.
WAIT_AGAIN = 'wait'


def restart_point(node):
    """The flow to start for a node left in a transient state without a
    flow record: its conductor died between a state change and the start
    of the flow it announced (or between two chained flows). Decided from
    the state and what the node recorded of its agent phase; None when
    nothing safe can be decided (the caller fails the node)."""
    info = node.driver_internal_info or {}
    phase = info.get(agent_info.PHASE)
    state = node.provision_state
    if state == states.DEPLOYING:
        if phase == deploy.PHASE_WRITE_IMAGE:
            return deploy.WRITE_IMAGE
        if phase == deploy.PHASE_IMAGE_RUNNING:
            return WAIT_AGAIN  # the next heartbeat reads the write's status
        if phase == deploy.PHASE_STEP_RUNNING and info.get(
                agent_info.COMMAND):
            return WAIT_AGAIN  # the next heartbeat reads the step's status
        if phase in (deploy.PHASE_RUN_STEPS, deploy.PHASE_STEP_RUNNING) \
                or (info.get(deploy_templates.STEPS)
                    and info.get(deploy_templates.INDEX)):
            # "unhold", or a heartbeat after a "wait" step or a reboot
            # step, started the deploy steps again; or no phase is left
            # (tear_down_agent took it) but the index moved: they carry
            # on at the recorded step index, in the flow of its part (the
            # image is never written twice).
            return deploy.flow_to_carry_on(node)
        return deploy.BOOT_RAMDISK
    if state == states.DELETING:
        return clean.TEARDOWN
    if state == states.CLEANING:
        return _steps_restart_point(node, clean, clean.is_manual(node))
    if state == states.SERVICING:
        return _steps_restart_point(node, service, True)
    return None


def _steps_restart_point(node, flows, requested):
    """restart_point() of a node running steps through its agent:
    cleaning's or servicing's ``flows``; ``requested``: whether the steps
    were asked for (and must have reached the node)."""
    info = node.driver_internal_info or {}
    phase = info.get(agent_info.PHASE)
    if flows.STEPS in info:
        if phase == flows.PHASE_STEP_RUNNING and info.get(agent_info.COMMAND):
            return WAIT_AGAIN
        return reserved_steps.next_flow(node, flows)
    if phase == flows.PHASE_GET_STEPS:
        return flows.START_STEPS
    if requested and flows.REQUESTED not in info:
        return None  # the requested steps never reached the node
    return flows.BOOT_RAMDISK


def recover(task):
    """Carry on with the work a dead conductor left on ``task.node``
    (locked): resume its recorded flow, or restart at restart_point().
    Returns False when the node's work cannot be carried on."""
    node = task.node
    if node.provision_state not in states.TRANSIENT_STATES:
        return False
    if persistence.recorded(node) is not None:
        task.spawn_after(executor(), resume_chain)
        return True
    point = restart_point(node)
    if point is None:
        return False
    LOG.warning('Node %s: no flow was recorded in "%s"; carrying on with '
                '%s', node.uuid, node.provision_state, point)
    if point == WAIT_AGAIN:
        node_steps.move(task, 'wait')
    else:
        task.spawn_after(executor(), run_chain, point)
    return True


def _back_to_wait(task, error):
    # The pool refused the work: wait again, the next heartbeat retries.
    node_steps.move(task, 'wait')


def _write_back(task, error, values):
    # The pool refused the work: the node is as it was before (a polled
    # step's wait and record: the next poll carries on).
    task.update_node(values)


def _start(task, name):
    node_steps.move(task, 'resume')
    task.set_spawn_error_hook(_back_to_wait)
    task.spawn_after(executor(), run_chain, name)


# What _command_state answers when the agent does not know the command.
LOST = 'lost'


def _command_state(task):
    """The agent command the node waits for, as (outcome, its document):
    'running', 'done', LOST (the agent rebooted, e.g. after a heartbeat
    timeout, and forgot it) or an error message."""
    node = task.node
    command_id = (node.driver_internal_info or {}).get(agent_info.COMMAND)
    doc = agent_client.find_command(node, command_id) if command_id \
        else None
    if doc is None:
        return LOST, None
    status = doc.get('command_status')
    if status == agent_client.RUNNING:
        return 'running', doc
    if status == agent_client.FAILED:
        return agent_client.error_text(doc), doc
    return 'done', doc


def on_heartbeat(task):
    """A heartbeat was recorded for ``task.node`` (locked): start the next
    phase if the node waits for one. Quick: the RPC thread only decides;
    flows and even the agent's command status (an HTTP call) go to a
    worker, so slow agents never tie up the conductor's RPC threads."""
    node = task.node
    phase = (node.driver_internal_info or {}).get(agent_info.PHASE)
    if node.maintenance or node.provision_state not in states.WAIT_STATES:
        return
    if phase == deploy.PHASE_WRITE_IMAGE:
        _start(task, deploy.WRITE_IMAGE)
    elif phase == clean.PHASE_GET_STEPS:
        _start(task, clean.START_STEPS)
    elif phase == clean.PHASE_NEXT_STEP:
        _start(task, reserved_steps.next_flow(node, clean))
    elif phase == service.PHASE_GET_STEPS:
        _start(task, service.START_STEPS)
    elif phase == service.PHASE_NEXT_STEP:
        _start(task, reserved_steps.next_flow(node, service))
    elif phase == deploy.PHASE_RUN_STEPS:
        _start(task, deploy.flow_to_carry_on(node))
    elif phase in (deploy.PHASE_IMAGE_RUNNING, deploy.PHASE_STEP_RUNNING,
                   clean.PHASE_STEP_RUNNING, service.PHASE_STEP_RUNNING):
        # The node stays in its wait state while the worker looks.
        task.spawn_after(executor(), _follow_command, phase)


def _resume_with(task, name):
    node_steps.move(task, 'resume')
    run_chain(task, name)


def _follow_command(task, phase):
    """In a worker holding the lock: act on the agent command the node
    waits for (still running: nothing to do)."""
    with _abortable(task):
        _act_on_command(task, phase)


def _act_on_command(task, phase):
    node = task.node
    try:
        outcome, doc = _command_state(task)
    except (exception.AgentConnectionFailed,
            exception.AgentCommandFailed) as e:
        # The agent's next heartbeat asks again; the heartbeat timeout
        # catches an agent that is gone for good.
        LOG.warning('Node %s: reading the agent\'s command status '
                    'failed: %s', node.uuid, e)
        return
    if outcome == 'running':
        return
    if phase == deploy.PHASE_IMAGE_RUNNING:
        if outcome == 'done':
            _resume_with(task, deploy.FINISH)
        elif outcome == LOST:
            LOG.warning('Node %s: the agent lost its image write (it '
                        'rebooted?); starting it again', node.uuid)
            node_steps.set_info(task, **{agent_info.COMMAND: None})
            _resume_with(task, deploy.WRITE_IMAGE)
        else:
            node_steps.fail_node(task, 'Deploy failed at step '
                                       'deploy-write-image: %s' % outcome)
        return
    if phase == deploy.PHASE_STEP_RUNNING:
        _act_on_deploy_step(task, outcome, doc)
        return
    flows = clean if phase == clean.PHASE_STEP_RUNNING else service
    keys = flows.STEP_LIST
    info = node.driver_internal_info or {}
    steps, index = info.get(flows.STEPS) or [], info.get(flows.INDEX, 0)
    name = steps[index]['step'] if index < len(steps) else '?'
    if outcome == LOST:
        LOG.warning('Node %s: the agent lost %s step %s (it '
                    'rebooted?); starting it again', node.uuid, keys.kind,
                    name)
        node_steps.set_info(task, **{agent_info.COMMAND: None})
        # The flow of the step at the index (a take-over may have moved
        # the index on after the step ended: then the next one's).
        _resume_with(task, reserved_steps.next_flow(task.node, flows))
        return
    if outcome == 'done':
        try:
            interface_steps.after_agent_step(task, steps[index], doc,
                                             '%s_result' % keys.kind)
        except Exception as e:
            # The agent's report is unusable: the step failed.
            outcome = exception.safe_message(e)
        else:
            node_steps.set_info(task, **{flows.INDEX: index + 1,
                                         agent_info.COMMAND: None})
            _resume_with(task, reserved_steps.next_flow(task.node, flows))
            return
    node_steps.fail_node(task, '%s failed at %s step %s: %s'
                         % (keys.operation, keys.kind, name, outcome))


def _act_on_deploy_step(task, outcome, doc):
    """The agent's deploy step the node waited for is over (or lost):
    carry on after it (or start it again), or fail the deploy."""
    node = task.node
    name = deploy.current_step_name(node)
    if outcome == LOST:
        LOG.warning('Node %s: the agent lost deploy step %s (it '
                    'rebooted?); starting it again', node.uuid, name)
        node_steps.set_info(task, **{agent_info.COMMAND: None})
    elif outcome == 'done':
        try:
            deploy.step_done(task, doc)
        except Exception as e:
            # The agent's report is unusable: the step failed.
            outcome = exception.safe_message(e)
    if outcome not in (LOST, 'done'):
        node_steps.fail_node(task, 'Deploy failed at deploy step %s: %s'
                             % (name, outcome))
        return
    _resume_with(task, deploy.flow_to_carry_on(task.node))


def unhold(task):
    """An operator's "unhold" (API 1.85) of a node on hold: it waits for
    its agent again, whose next heartbeat carries on after the hold;
    work held where no agent runs (a deploy before the ramdisk boots or
    after it was left; any work after a power_off or reboot step took
    the agent away) carries on at once."""
    node = task.node
    phase = {states.CLEANHOLD: clean.PHASE_NEXT_STEP,
             states.SERVICEHOLD: service.PHASE_NEXT_STEP}.get(
        node.provision_state, deploy.PHASE_RUN_STEPS)
    if node.provision_state == states.DEPLOYHOLD and \
            deploy.carries_on_without_agent(node):
        _unhold_at_once(task, states.DEPLOYING, phase,
                        deploy.flow_to_carry_on(node))
        return
    flows = {states.CLEANHOLD: clean,
             states.SERVICEHOLD: service}.get(node.provision_state)
    if flows is not None and not reserved_steps.agent_present(node):
        # A power_off or reboot step took the agent away: no heartbeat
        # will come. The conductor's next step (or the end) runs now; an
        # agent step after it waits for the agent booted again.
        following = reserved_steps.next_flow(node, flows)
        if following != flows.NEXT_STEP:
            _unhold_at_once(task, flows.STEP_LIST.state, phase, following)
            return
    node_steps.move(task, 'unhold')
    node_steps.set_info(task, **{
        agent_info.PHASE: phase,
        agent_info.PHASE_STARTED: timeutils.utcnow().isoformat()})
    LOG.info('Node %s: hold released; the next heartbeat carries on',
             node.uuid)


def after_polled_step(task):
    """The polled step of a node's agent work (cleaning, servicing, the
    agent deploy) is done (polled_steps.poll): the index moves past it
    and the work carries on as after "unhold": at once when its next
    step is the conductor's (or the end, or a deploy part without the
    agent), else at the agent's next heartbeat (an agent gone after a
    reboot boots again and heartbeats). One write."""
    node = task.node
    found = polled_steps.record(node)
    # What a worker the pool refuses gives back: the wait, the record.
    restore = {'provision_state': node.provision_state,
               'driver_internal_info': copy.deepcopy(
                   node.driver_internal_info)}
    flows = {'clean': clean, 'service': service}.get(found['kind'])
    keys = flows.STEP_LIST if flows is not None else deploy.STEP_LIST
    info = polled_steps.without_record(node.driver_internal_info)
    info[keys.index_key] = found['index'] + 1
    # Read by the decisions below (next_flow, carries_on_without_agent);
    # the write is update_node's, once.
    node.driver_internal_info = info
    if flows is None:
        if deploy.carries_on_without_agent(node):
            _unhold_at_once(task, states.DEPLOYING, keys.phase_next,
                            deploy.flow_to_carry_on(node), info, restore)
            return
    else:
        following = reserved_steps.next_flow(node, flows)
        if following != flows.NEXT_STEP:
            _unhold_at_once(task, keys.state, keys.phase_next, following,
                            info, restore)
            return
    info[agent_info.PHASE] = keys.phase_next
    info[agent_info.PHASE_STARTED] = timeutils.utcnow().isoformat()
    # The state written again: its time is the agent's last sign of life
    # for the heartbeat timeout, which starts now (the step's reboot
    # took the agent's last heartbeat away).
    task.update_node({'provision_state': node.provision_state,
                      'driver_internal_info': info})
    LOG.info('Node %s: the next heartbeat of its agent carries on',
             node.uuid)


def _unhold_at_once(task, state, phase, flow, info=None, restore=None):
    """Work held where no agent will heartbeat carries on now: the node
    goes back to ``state`` (deploying, cleaning, servicing) with the
    ``phase`` that names its next step in one write (a take-over between
    two writes would find it waiting for a heartbeat that never comes;
    restart_point() knows this one), then a worker runs ``flow``.
    ``info``: the driver_internal_info to write (the node's);
    ``restore``: the values a refused worker writes back (default: the
    node waits again for its next heartbeat)."""
    node = task.node
    info = dict(info or node.driver_internal_info or {})
    info[agent_info.PHASE] = phase
    info[agent_info.PHASE_STARTED] = timeutils.utcnow().isoformat()
    task.update_node({'provision_state': state,
                      'driver_internal_info': info})
    LOG.info('Node %s: carrying on (%s)', node.uuid, flow)
    if restore is not None:
        task.set_spawn_error_hook(_write_back, restore)
    else:
        task.set_spawn_error_hook(_back_to_wait)
    task.spawn_after(executor(), run_chain, flow)


def abort(task):
    """An operator aborted a wait: power off and leave the ramdisk."""
    task.spawn_after(executor(), _abort_cleanup)


def _abort_cleanup(task):
    try:
        node_steps.power_off(task)
    except Exception as e:
        LOG.warning('Node %s: power off after abort failed: %s',
                    task.node.uuid, e)
    node_steps.leave_ramdisk(task)
    node_steps.set_info(task, **{clean.STEPS: None, clean.INDEX: None,
                                 service.STEPS: None, service.INDEX: None,
                                 polled_steps.KEY: None})
