"""Tear-down and cleaning through the agent, one flow per phase:

    teardown:            teardown-fail-on-revert -> teardown-power-off
                         (and unplug accelerators meanwhile)
                         -> teardown-release-instance   (then cleaning)
    clean-boot-ramdisk:  clean-fail-on-revert -> clean-prepare-ramdisk
                         -> clean-power-on -> clean-await-agent
    (first heartbeat in "clean wait") clean-start-steps:
                         clean-fail-on-revert -> clean-accelerators
                         -> clean-get-steps
    then, per step, clean-next-step:
                         clean-fail-on-revert -> clean-execute-step
                         -> clean-await-step
    or, for a step the conductor runs itself (reserved_steps.py: hold,
    wait, power_on, power_off, reboot, steps on child nodes),
    clean-conductor-step:
                         clean-fail-on-revert -> clean-run-conductor-step
    (a heartbeat that finds the last step done) clean-finish:
                         clean-fail-on-revert -> clean-power-off
                         -> clean-done

Automated cleaning (after tear-down, or "provide") runs the agent's steps
with a priority above 0 ([deploy]erase_devices_priority overrides the
erase step's); manual cleaning ("clean" with clean_steps) runs exactly the
steps asked for, which the agent must offer unless the conductor runs
them, and returns to manageable.
Steps, their order and the next one to run live in driver_internal_info,
so any conductor can carry on.
"""

from concurrent import futures

from oslo_log import log
from taskflow.patterns import linear_flow

from ironic_like.accelerators import discovery
from ironic_like.accelerators import drivers as acc_drivers
from ironic_like.accelerators import os_acc
from ironic_like.common import agent_info
from ironic_like.common import current_steps
from ironic_like.common import exception
from ironic_like.common import states
from ironic_like.common import step_order
from ironic_like.conductor import instance_images
from ironic_like.conductor import node_flags
from ironic_like.conductor.flows import deploy
from ironic_like.conductor.flows import interface_steps
from ironic_like.conductor.flows import node_steps
from ironic_like.conductor.flows import persistence
from ironic_like.conductor.flows import reserved_steps
from ironic_like.conf import CONF
from ironic_like.db import api as db_api
from ironic_like.drivers.modules import agent_client
from ironic_like.drivers.modules import agent_raid

LOG = log.getLogger(__name__)

TEARDOWN = 'teardown'
BOOT_RAMDISK = 'clean-boot-ramdisk'
START_STEPS = 'clean-start-steps'
NEXT_STEP = 'clean-next-step'
CONDUCTOR_STEP = 'clean-conductor-step'
FINISH = 'clean-finish'

# Atom names: fixed, a persisted schema (a resumed flow finds its
# progress by them).
TEARDOWN_FAIL_ON_REVERT = 'teardown-fail-on-revert'
FAIL_ON_REVERT = 'clean-fail-on-revert'
TEARDOWN_POWER_OFF = 'teardown-power-off'
TEARDOWN_RELEASE_INSTANCE = 'teardown-release-instance'
PREPARE_RAMDISK = 'clean-prepare-ramdisk'
POWER_ON = 'clean-power-on'
AWAIT_AGENT = 'clean-await-agent'
GET_STEPS = 'clean-get-steps'
CLEAN_ACCELERATORS = 'clean-accelerators'
EXECUTE_STEP = 'clean-execute-step'
AWAIT_STEP = 'clean-await-step'
RUN_CONDUCTOR_STEP = 'clean-run-conductor-step'
POWER_OFF = 'clean-power-off'
DONE = 'clean-done'

PHASE_GET_STEPS = 'clean-get-steps'
CLEAN_ACCELERATORS = 'clean-accelerators'
PHASE_STEP_RUNNING = 'clean-step-running'
# Set by "unhold": the next heartbeat starts the step after the hold.
PHASE_NEXT_STEP = 'clean-next-step'

# driver_internal_info keys.
REQUESTED = 'clean_steps_requested'
STEPS = current_steps.CLEAN_STEPS
INDEX = current_steps.CLEAN_INDEX

GET_CLEAN_STEPS = 'clean.get_clean_steps'
EXECUTE_CLEAN_STEP = 'clean.execute_clean_step'
ERASE_STEP = 'erase_devices'

STEP_LIST = reserved_steps.StepList('clean', 'Cleaning', STEPS, INDEX,
                                    PHASE_NEXT_STEP, states.CLEANING)


def agent_steps(result, key='clean_steps'):
    """The flat list of steps of a clean.get_clean_steps result (or of
    service.get_service_steps's, whose ``key`` is service_steps)."""
    steps = []
    by_manager = (result or {}).get(key) or {}
    for manager_steps in by_manager.values():
        for step in manager_steps or []:
            if isinstance(step, dict) and step.get('step'):
                steps.append(step)
    return steps


# [deploy] options overriding the priority of the agent's RAID steps in
# automated cleaning (Ironic's), for nodes with the agent raid interface.
_RAID_PRIORITY_OPTIONS = {'create_configuration':
                          'create_configuration_priority',
                          'delete_configuration':
                          'delete_configuration_priority'}


def priority_overrides():
    """{'interface.step': priority} of [conductor]
    clean_step_priority_override (Ironic's option: any number of
    'interface.step:priority' items); an item whose priority is not a
    whole number is left out, with a warning."""
    overrides = {}
    for item in CONF.conductor.clean_step_priority_override or ():
        for name, value in (item or {}).items():
            try:
                overrides[name] = int(value)
            except (TypeError, ValueError):
                LOG.warning('[conductor]clean_step_priority_override: '
                            'priority %r of %s is not a whole number; '
                            'ignored.', value, name)
    return overrides


def _agent_priority(step, raid_steps):
    """The priority of the agent's ``step`` in automated cleaning, as
    the [deploy] options set it (None: not run, a raid step without
    ``raid_steps``)."""
    priority = step.get('priority') or 0
    interface = step.get('interface', 'deploy')
    if step['step'] == ERASE_STEP and interface == 'deploy':
        priority = CONF.deploy.erase_devices_priority
    if interface == 'raid':
        if not raid_steps:
            return None
        option = _RAID_PRIORITY_OPTIONS.get(step['step'])
        if option and getattr(CONF.deploy, option) is not None:
            priority = getattr(CONF.deploy, option)
    return priority


def automated_steps(offered, raid_steps=False, out_of_band=()):
    """The steps that automated cleaning runs: the agent's ``offered``
    ones (its raid interface's only with ``raid_steps``: the node's raid
    interface is the agent's) and the ``out_of_band`` ones of the node's
    interfaces (interface_steps.automated_out_of_band), each at its
    priority as [deploy] options and then [conductor]
    clean_step_priority_override set it; those above 0, highest first,
    ties by interface (Ironic's order)."""
    overrides = priority_overrides()
    candidates = [(step, _agent_priority(step, raid_steps))
                  for step in offered]
    candidates += [(step, step.get('priority') or 0)
                   for step in out_of_band]
    chosen = []
    for step, priority in candidates:
        if priority is None:
            continue
        interface = step.get('interface', 'deploy')
        priority = overrides.get('%s.%s' % (interface, step['step']),
                                 priority)
        if priority > 0:
            chosen.append({'step': step['step'], 'interface': interface,
                           'priority': priority, 'args': {}})
    # Highest priority first, ties by interface, as Ironic orders them.
    return step_order.in_order(chosen)


def manual_steps(offered, requested, node, field='clean_steps'):
    """The ``requested`` steps (manual cleaning's, or servicing's:
    ``field``) of ``node`` as they will run; each must be one the agent
    ``offered``, or one the conductor runs itself (its reserved steps,
    the out-of-band steps of the node's interfaces)."""
    kind = field.split('_')[0]
    offered_names = {(s.get('interface', 'deploy'), s['step'])
                     for s in offered}
    chosen = []
    for step in requested:
        if node_steps.is_hold(step):
            # The conductor's own (API 1.85), whatever the interface.
            chosen.append({'step': node_steps.HOLD_STEP,
                           'interface': step.get('interface', 'deploy'),
                           'args': {}})
            continue
        if interface_steps.runs_here(node, step, kind):
            # Not the agent's to offer: kept as asked, with the options
            # that send it to the child nodes.
            chosen.append(dict(step, interface=step.get('interface',
                                                        'deploy'),
                               args=step.get('args') or {}))
            continue
        if (step.get('interface', 'deploy'), step.get('step')) not in \
                offered_names:
            raise exception.InvalidParameterValue(
                '%s step "%s.%s" is not offered by the agent of node %s '
                '(it offers: %s).' % (
                    kind.capitalize(),
                    step.get('interface', 'deploy'), step.get('step'),
                    node.uuid, ', '.join(sorted(
                        '%s.%s' % pair for pair in offered_names))),
                field=field)
        chosen.append({'step': step['step'],
                       'interface': step.get('interface', 'deploy'),
                       'args': step.get('args') or {}})
    return chosen


def is_manual(node):
    return node.target_provision_state == states.MANAGEABLE


class PowerOffAndUnplug(node_steps.NodeTaskBase):
    """Release the instance's accelerators (os_acc.unplug, in a worker)
    while the node is powered off."""

    def execute(self, task):
        with futures.ThreadPoolExecutor(max_workers=1) as executor:
            future = executor.submit(os_acc.unplug,
                                     deploy.os_acc_instance(task.node))
            node_steps.power_off(task)
            future.result()
        node_steps.set_info(task, **{deploy.ACCELERATORS: None})


class CleanAccelerators(node_steps.NodeTaskBase):
    """Erase what the last instance programmed (its driver's clean), then
    take the inventory afresh so that traits show the erased regions."""

    def execute(self, task):
        node = task.node
        db = db_api.get_instance()
        for region in db.list_accelerator_regions_to_clean(node.id):
            acc_drivers.get_driver(region['driver_name']).clean(node,
                                                                region)
            db.mark_accelerator_region_cleaned(region['deployable_id'])
        try:
            discovery.discover(node)
        except (exception.AgentUnavailable,
                exception.InvalidParameterValue) as e:
            LOG.warning('Node %s: accelerator discovery failed: %s',
                        node.uuid, exception.safe_message(e))


class ReleaseInstance(node_steps.NodeTaskBase):
    """Clear instance, instance_info and allocation in one transaction and
    move on to cleaning."""

    def execute(self, task):
        if task.node.provision_state != states.DELETING:
            return
        # The instance image this conductor served the agent, if any.
        instance_images.remove(task.node.uuid)
        task.release_instance()
        node_steps.move(task, 'done', keep_target=False,
                        target=states.AVAILABLE)


class GetSteps(node_steps.NodeTaskBase):
    """Read the agent's steps and decide which run, in which order."""

    def execute(self, task):
        node = task.node
        info = node.driver_internal_info or {}
        if STEPS in info:
            return  # decided before an interruption
        offered = agent_steps(agent_client.run_command(node,
                                                       GET_CLEAN_STEPS))
        if is_manual(node):
            steps = manual_steps(offered, info.get(REQUESTED) or [],
                                 node)
        else:
            steps = automated_steps(
                offered, interface_steps.raid_in_band(task),
                interface_steps.automated_out_of_band(node))
        node_steps.set_info(task, **{STEPS: steps, INDEX: 0,
                                     REQUESTED: None})


def check_agent_steps(task, steps, field, kind, with_agent=True):
    """The requested steps of a manual cleaning or a servicing
    (``kind``) that the conductor does not run itself: steps of the
    deploy interface (the agent's, or without node flows,
    ``with_agent`` False, the deploy interface's), and through the
    agent of the raid interface when the node's is the agent's (in
    cleaning: its create_configuration needs a target RAID
    configuration; in servicing: apply_configuration only, its
    arguments checked); and the arguments of the out-of-band steps of the
    node's interfaces. InvalidParameterValue (400) naming ``field``, or
    target_raid_config, before the node moves."""
    for step in steps or ():
        if interface_steps.runs_here(task.node, step, kind) or \
                node_steps.is_hold(step):
            interface_steps.check_out_of_band(task, step, kind, field)
            continue
        interface = step.get('interface', 'deploy')
        if interface == 'raid' and with_agent and \
                interface_steps.raid_in_band(task):
            if kind == 'clean':
                interface_steps.agent_node_fields(task, step)
                continue
            if kind == 'service':
                # As Ironic's AgentRAID: apply_configuration only.
                agent_raid.check_deploy_step(step, field, kind)
                continue
        if interface != 'deploy':
            raise exception.InvalidParameterValue(
                '%s step "%s.%s" is neither a %s step of the node\'s %s '
                'interface nor the agent\'s: the agent runs steps of the '
                '"deploy" interface%s.' % (
                    kind.capitalize(), interface, step.get('step'), kind,
                    interface, ', and of the "raid" interface when the '
                    'node\'s raid interface is "agent" (in servicing, '
                    'raid.apply_configuration)'
                    if kind in ('clean', 'service') else ''),
                field=field)


def start_agent_step(task, command, step, version_key):
    """Start ``step`` on the agent with ``command`` (IPA's
    clean.execute_clean_step or deploy.execute_deploy_step, asynchronous;
    ``version_key``: its clean_version or deploy_version parameter) and
    record the command's id; returns it. On a resume, a step the agent
    already started is followed, not started twice. The agent is told
    the node's UUID and what interface_steps.agent_node_fields() adds."""
    node = task.node
    known = (node.driver_internal_info or {}).get(agent_info.COMMAND)
    if known:
        doc = agent_client.find_command(node, known)
        # Another command's id (the image write's, before the first
        # deploy step) is not this step's.
        if doc and doc.get('command_name', command) == command:
            return known
    # Sent by a conductor that died before recording its id.
    # The agent runs one such command at a time: a running one is it.
    running = agent_client.last_command(node, command)
    if running and running.get('command_status') == agent_client.RUNNING:
        node_steps.set_info(task, **{agent_info.COMMAND: running.get('id')})
        return running.get('id')
    node_doc = dict(interface_steps.agent_node_fields(task, step),
                    uuid=node.uuid)
    doc = agent_client.start_command(
        node, command,
        {'step': step, 'node': node_doc,
         'ports': [{'address': p.address} for p in task.ports],
         version_key: {}})
    node_steps.set_info(task, **{agent_info.COMMAND: doc.get('id')})
    return doc.get('id')


class ExecuteStep(node_steps.NodeTaskBase):
    """Start the current step on the agent (asynchronous), or put the
    node on hold at a "hold" step (a flow recorded before the conductor's
    steps had their own flow)."""

    def execute(self, task):
        info = task.node.driver_internal_info or {}
        step = info[STEPS][info[INDEX]]
        if node_steps.is_hold(step):
            node_steps.hold(task, INDEX, info[INDEX])
            return
        start_agent_step(task, EXECUTE_CLEAN_STEP, step, 'clean_version')


class Done(node_steps.NodeTaskBase):

    def execute(self, task):
        if task.node.provision_state != states.CLEANING:
            return
        manual = is_manual(task.node)
        node_steps.leave_ramdisk(task)
        node_steps.set_info(task, **{STEPS: None, INDEX: None})
        if manual:
            # Manual cleaning returns where it came from.
            task.update_node({'provision_state': states.MANAGEABLE,
                              'target_provision_state': None})
        else:
            node_flags.finish_cleaning(task)


def _fail_first():
    return node_steps.FailOnRevert(FAIL_ON_REVERT, 'Cleaning')


def teardown_flow():
    flow = linear_flow.Flow(TEARDOWN)
    flow.add(node_steps.FailOnRevert(TEARDOWN_FAIL_ON_REVERT, 'Tear down'),
             PowerOffAndUnplug(TEARDOWN_POWER_OFF),
             ReleaseInstance(TEARDOWN_RELEASE_INSTANCE))
    return flow


def boot_ramdisk_flow():
    flow = linear_flow.Flow(BOOT_RAMDISK)
    flow.add(_fail_first(),
             node_steps.PrepareRamdisk(PREPARE_RAMDISK),
             node_steps.PowerOn(POWER_ON),
             node_steps.AwaitAgent(AWAIT_AGENT, PHASE_GET_STEPS))
    return flow


def start_steps_flow():
    flow = linear_flow.Flow(START_STEPS)
    flow.add(_fail_first(), CleanAccelerators(CLEAN_ACCELERATORS),
             GetSteps(GET_STEPS))
    return flow


def next_step_flow():
    flow = linear_flow.Flow(NEXT_STEP)
    flow.add(_fail_first(),
             ExecuteStep(EXECUTE_STEP),
             node_steps.AwaitAgent(AWAIT_STEP, PHASE_STEP_RUNNING))
    return flow


def conductor_step_flow():
    flow = linear_flow.Flow(CONDUCTOR_STEP)
    flow.add(_fail_first(),
             reserved_steps.RunStep(RUN_CONDUCTOR_STEP, STEP_LIST))
    return flow


def finish_flow():
    flow = linear_flow.Flow(FINISH)
    flow.add(_fail_first(),
             node_steps.PowerOff(POWER_OFF),
             Done(DONE))
    return flow


persistence.register(TEARDOWN, teardown_flow)
persistence.register(BOOT_RAMDISK, boot_ramdisk_flow)
persistence.register(START_STEPS, start_steps_flow)
persistence.register(NEXT_STEP, next_step_flow)
persistence.register(CONDUCTOR_STEP, conductor_step_flow)
persistence.register(FINISH, finish_flow)
