"""The agent deploy, as three flows, one per phase (the waits for the
agent between them hold no thread):

    deploy-boot-ramdisk:  deploy-fail-on-revert -> deploy-validate
        -> deploy-run-steps-before-ramdisk -> deploy-prepare-ramdisk
        -> deploy-power-on -> deploy-await-agent
    (the first heartbeat in "wait call-back") deploy-write-image:
        deploy-fail-on-revert -> deploy-run-steps-before-image
        -> deploy-discover-accelerators
        -> deploy-start-image-write (and plug accelerators meanwhile)
        -> deploy-await-image
    (a heartbeat that finds the image written) deploy-finish:
        deploy-fail-on-revert -> deploy-run-steps -> deploy-boot-from-disk
        -> deploy-run-steps-before-tear-down -> deploy-tear-down-agent
        -> deploy-run-steps-before-instance -> deploy-reboot-to-instance
        -> deploy-run-steps-after-instance -> deploy-done

The deploy's steps (recorded when the deploy was accepted: the built-in
ones below with those of its templates and request, ordered by priority,
common/deploy_templates.py) run where their priority puts them among the
built-in ones, as in Ironic: above deploy.deploy (100, the ramdisk
boots) before the ramdisk, out of band; then with the agent up, before
and after the image write (80) and prepare_instance_boot (60); after
tear_down_agent (40) and boot_instance (20) out of band again. The
deploy-run-steps atoms run them: the agent's through
deploy.execute_deploy_step (the node waits; the heartbeat that finds the
step over carries on, as for a clean step), the conductor's own
(reserved step names, steps on child nodes) through
reserved_steps.run_listed as cleaning runs them, the others through the
node's interfaces. The built-in steps stay the fixed atoms above; the
recorded step index counts them too, so a flow started again (after a
hold, a wait, an agent step or a take-over) passes over what is done.
A "hold", a "wait" for the next heartbeat, or an agent
step after a power_off or reboot took the agent away, ends the flow
there: the node holds or waits (phase deploy-run-steps), and "unhold" or
the next heartbeat starts the flow of the step reached
(flow_to_carry_on()).

Any failure ends in "deploy failed", the node powered off and last_error
naming the step (see node_steps.FailOnRevert).
"""

from concurrent import futures

from oslo_log import log
from oslo_utils import timeutils
from taskflow.patterns import linear_flow

from ironic_like.accelerators import discovery
from ironic_like.accelerators import os_acc
from ironic_like.common.accelerators import specs as acc_specs

from ironic_like.common import agent_info
from ironic_like.common import deploy_templates
from ironic_like.common import exception
from ironic_like.common import glance
from ironic_like.common import states
from ironic_like.common import step_names
from ironic_like.conductor.flows import interface_steps
from ironic_like.conductor.flows import node_steps
from ironic_like.conductor.flows import persistence
from ironic_like.conductor.flows import polled_steps
from ironic_like.conductor.flows import reserved_steps
from ironic_like.conductor import instance_images
from ironic_like.conductor import management
from ironic_like.db import api as db_api
from ironic_like.drivers import base as drivers_base
from ironic_like.drivers.modules import agent_client
from ironic_like.drivers.modules import agent_raid

LOG = log.getLogger(__name__)

BOOT_RAMDISK = 'deploy-boot-ramdisk'
WRITE_IMAGE = 'deploy-write-image'
FINISH = 'deploy-finish'

# Atom names: fixed, a persisted schema (a resumed flow finds its
# progress by them).
FAIL_ON_REVERT = 'deploy-fail-on-revert'
VALIDATE = 'deploy-validate'
DISCOVER_ACCELERATORS = 'deploy-discover-accelerators'
PREPARE_RAMDISK = 'deploy-prepare-ramdisk'
POWER_ON = 'deploy-power-on'
AWAIT_AGENT = 'deploy-await-agent'
START_IMAGE_WRITE = 'deploy-start-image-write'
AWAIT_IMAGE = 'deploy-await-image'
RUN_STEPS_BEFORE_RAMDISK = 'deploy-run-steps-before-ramdisk'
RUN_STEPS_BEFORE_IMAGE = 'deploy-run-steps-before-image'
RUN_STEPS = 'deploy-run-steps'
RUN_STEPS_BEFORE_TEAR_DOWN = 'deploy-run-steps-before-tear-down'
TEAR_DOWN_AGENT = 'deploy-tear-down-agent'
RUN_STEPS_BEFORE_INSTANCE = 'deploy-run-steps-before-instance'
RUN_STEPS_AFTER_INSTANCE = 'deploy-run-steps-after-instance'
BOOT_FROM_DISK = 'deploy-boot-from-disk'
REBOOT_TO_INSTANCE = 'deploy-reboot-to-instance'
DONE = 'deploy-done'

# Phases recorded while the node waits for its agent.
PHASE_WRITE_IMAGE = 'deploy-write-image'
PHASE_IMAGE_RUNNING = 'deploy-image-running'
# Set by "unhold", a "wait" step or an agent step waiting for the agent:
# the next heartbeat runs the steps from the recorded index.
PHASE_RUN_STEPS = 'deploy-run-steps'
# An agent deploy step runs: the next heartbeat reads how it went.
PHASE_STEP_RUNNING = 'deploy-step-running'

PREPARE_IMAGE = 'standby.prepare_image'
_OPERATION = 'Deploy'
_HASH_LENGTHS = {32: 'md5', 64: 'sha256', 128: 'sha512'}
_HASH_ALGOS = glance.HASH_ALGOS
# driver_internal_info: the plugged accelerators ([{"pci_id": ...}]).
ACCELERATORS = 'accelerators'
# instance_info: the flavor extra specs os_acc reads (doc/accelerators.md).
EXTRA_SPECS = 'flavor_extra_specs'

# IPA's command running one deploy step.
EXECUTE_DEPLOY_STEP = 'deploy.execute_deploy_step'
# The agent deploy's own deploy steps, with Ironic's priorities: the
# fixed atoms of these flows do them (deploy: deploy-prepare-ramdisk to
# deploy-await-agent, the ramdisk booted; write_image: deploy-start-
# image-write; prepare_instance_boot: deploy-boot-from-disk;
# tear_down_agent: deploy-tear-down-agent (the agent's token goes);
# boot_instance: deploy-reboot-to-instance). A template step of the same
# name overrides its priority and arguments in the recorded list, so
# long as they keep this order.
BUILT_IN_STEPS = (
    {'interface': 'deploy', 'step': 'deploy', 'priority': 100,
     'args': {}},
    {'interface': 'deploy', 'step': 'write_image', 'priority': 80,
     'args': {}},
    {'interface': 'deploy', 'step': 'prepare_instance_boot',
     'priority': 60, 'args': {}},
    {'interface': 'deploy', 'step': 'tear_down_agent',
     'priority': 40, 'args': {}},
    {'interface': 'deploy', 'step': 'boot_instance', 'priority': 20,
     'args': {}},
)
# A deploy interface without node flows (fake) has one built-in step, its
# deploy() at Ironic's priority: the other steps run before or after it
# by their priority (provisioning._deploy_steps_then_boot).
INTERFACE_DEPLOY_STEP = BUILT_IN_STEPS[0]
NO_FLOWS_BUILT_IN_STEPS = (INTERFACE_DEPLOY_STEP,)
# Where a deploy's own step runs: how many built-in steps come before it
# in the ordered list (the built-in ones keep BUILT_IN_STEPS' order).
(BEFORE_RAMDISK, BEFORE_IMAGE, AFTER_IMAGE, BEFORE_TEAR_DOWN,
 BEFORE_INSTANCE, AFTER_INSTANCE) = range(6)
# The flow whose deploy-run-steps atom runs each part (the others:
# deploy-finish's).
_FLOW_OF_PART = {BEFORE_RAMDISK: BOOT_RAMDISK, BEFORE_IMAGE: WRITE_IMAGE}
# The parts that run while the agent is up (from the ramdisk's boot to
# tear_down_agent, which takes the agent's token): the only place for
# the agent's steps, and for a "wait" for its heartbeat.
_WITH_AGENT = (BEFORE_IMAGE, AFTER_IMAGE, BEFORE_TEAR_DOWN)
_PART_NAMES = {
    BEFORE_RAMDISK: 'before the ramdisk boots (priority above '
                    'deploy.deploy\'s)',
    BEFORE_INSTANCE: 'after deploy.tear_down_agent',
    AFTER_INSTANCE: 'after the instance is powered on (priority below '
                    'deploy.boot_instance\'s)'}


def _agent_deploy_step(step, node):
    """Whether the agent runs ``step`` of ``node``'s deploy: a "deploy"
    step that is neither a built-in one (the flows' atoms) nor the
    conductor's, or a "raid" step of a node whose raid interface is the
    agent's (agent_raid); steps of the other interfaces run here."""
    if step_names.run_by_conductor(step):
        return False
    if step['interface'] == 'raid':
        return interface_steps.node_raid_in_band(node)
    return (step['interface'] == 'deploy'
            and not deploy_templates.is_builtin(step, BUILT_IN_STEPS))


# The deploy's steps for reserved_steps (which cleaning and servicing
# share): where they are kept, the phase whose heartbeat carries on
# after a "wait" or a reboot, and which ones need the agent.
STEP_LIST = reserved_steps.StepList(
    'deploy', _OPERATION, deploy_templates.STEPS, deploy_templates.INDEX,
    PHASE_RUN_STEPS, states.DEPLOYING, _agent_deploy_step)


def _is_builtin(step):
    return deploy_templates.is_builtin(step, BUILT_IN_STEPS)


def part_of(steps, index):
    """Where the step at ``index`` of a deploy's ordered ``steps`` runs
    (BEFORE_RAMDISK...AFTER_INSTANCE): how many built-in steps come before
    it. A built-in step belongs to the part before it (the flow that runs
    that part runs the step's atom next); an index past the end, to the
    last part."""
    return sum(1 for step in steps[:index] if _is_builtin(step))


def _progress(node):
    """The deploy's recorded steps and the index of the next one to do
    (built-in ones included)."""
    info = node.driver_internal_info or {}
    return (info.get(deploy_templates.STEPS) or [],
            info.get(deploy_templates.INDEX) or 0)


def _position(steps, name):
    """Where built-in step deploy.``name`` is in ``steps`` (None: not
    listed, a deploy recorded before it was)."""
    for index, step in enumerate(steps):
        if step['interface'] == 'deploy' and step['step'] == name:
            return index
    return None


def current_step_name(node):
    """"interface.step" of the step at the deploy's index ('?' if none)."""
    steps, index = _progress(node)
    return _step_name(steps[index]) if index < len(steps) else '?'


def step_done(task, doc):
    """The agent's step at the index is over (``doc``: its command
    document): the node's interfaces record what it did (the raid
    interface's, for its steps), then the index moves past it. Raises
    when the agent's report is unusable."""
    steps, index = _progress(task.node)
    if index < len(steps):
        interface_steps.after_agent_step(task, steps[index], doc,
                                         'deploy_result')
    node_steps.set_info(task, **{deploy_templates.INDEX: index + 1,
                                 agent_info.COMMAND: None})


def flow_to_carry_on(node):
    """The flow that carries a deploy on at its recorded step index,
    after "unhold", a "wait" or an agent step that waited for the agent
    booted again (or a take-over in between)."""
    steps, index = _progress(node)
    if not steps:
        return FINISH
    return _FLOW_OF_PART.get(part_of(steps, index), FINISH)


def carries_on_without_agent(node):
    """A deploy held where no agent runs (before the ramdisk boots, after
    tear_down_agent, or after a power_off or reboot step took the agent
    away): "unhold" carries it on at once, as no heartbeat may come (an
    agent step further on, or the image write, waits for the agent
    then)."""
    steps, index = _progress(node)
    if not steps:
        return False
    return part_of(steps, index) not in _WITH_AGENT or \
        not reserved_steps.agent_present(node)


def _needs_agent(step, node):
    """The agent runs ``step``, or it waits for the agent's heartbeat."""
    return _agent_deploy_step(step, node) or (
        step['step'] == step_names.WAIT
        and step_names.wait_seconds(step) is None)


def _check_places(node, steps, field):
    """The built-in steps in their order, and the steps needing the agent
    where it runs: else InvalidParameterValue naming ``field``."""
    order = [step['step'] for step in steps if _is_builtin(step)]
    if order != [step['step'] for step in BUILT_IN_STEPS]:
        raise exception.InvalidParameterValue(
            err='Cannot deploy: the priorities of the agent deploy\'s own '
                'steps must keep their order (%s); they would run as %s.'
                % (', '.join('%s %d' % (b['step'], b['priority'])
                             for b in BUILT_IN_STEPS), ', '.join(order)),
            field=field)
    for index, step in enumerate(steps):
        part = part_of(steps, index)
        if not _is_builtin(step) and _needs_agent(step, node) and \
                part not in _WITH_AGENT:
            raise exception.InvalidParameterValue(
                err='Cannot deploy: deploy step %s (priority %d) needs the '
                    'agent, which does not run %s; give it a priority '
                    'between those of deploy.deploy and '
                    'deploy.tear_down_agent (100 to 41).'
                    % (_step_name(step), step['priority'], _PART_NAMES[part]),
                field=field)


def image_info(node):
    """The agent's image_info for ``node``'s instance_info; raises
    InvalidParameterValue/MissingParameterValue naming the field."""
    info = node.instance_info or {}
    source = info.get('image_source')
    if not source:
        raise exception.MissingParameterValue(
            'instance_info.image_source is required to deploy node %s.'
            % node.uuid, field='instance_info/image_source')
    kind, ref = instance_images.source_kind(source)
    instance_images.check_unchanged(node, kind, ref)
    algo = info.get('image_os_hash_algo')
    value = info.get('image_os_hash_value')
    disk_format = info.get('image_disk_format')
    if kind == instance_images.GLANCE:
        # Glance says what the image is (Ironic reads it there too; an
        # instance_info value a former deploy left is not the image's).
        image = instance_images.glance_image(node, ref)
        algo, value = glance.checksum(image)
        if not value:
            raise exception.InvalidParameterValue(
                'instance_info.image_source: Glance gives no checksum for '
                'image %s.' % ref, field='instance_info/image_source')
        disk_format = image.get('disk_format') or disk_format
    elif kind == instance_images.FILE:
        instance_images.check_file(ref)
    if not (algo and value):
        value = info.get('image_checksum')
        if value and ':' in str(value):
            algo, value = str(value).split(':', 1)
        else:
            algo = _HASH_LENGTHS.get(len(value or ''))
    if not value:
        raise exception.MissingParameterValue(
            'instance_info.image_checksum (the image\'s sha256) is required '
            'to deploy node %s.' % node.uuid,
            field='instance_info/image_checksum')
    if not algo:
        raise exception.InvalidParameterValue(
            'instance_info.image_checksum %r is not an md5, sha256 or '
            'sha512 hex digest.' % value, field='instance_info/image_checksum')
    if algo not in _HASH_ALGOS:
        raise exception.InvalidParameterValue(
            'The image\'s hash algorithm %r is not one of %s.'
            % (algo, ', '.join(sorted(_HASH_ALGOS))),
            field=('instance_info/image_source'
                   if kind == instance_images.GLANCE
                   else 'instance_info/image_os_hash_algo'))
    root_gb = info.get('root_gb')
    if root_gb is not None:
        try:
            if int(root_gb) <= 0:
                raise ValueError()
        except (TypeError, ValueError):
            raise exception.InvalidParameterValue(
                'instance_info.root_gb must be a positive integer (got %r).'
                % root_gb, field='instance_info/root_gb')
    return {'id': ref if kind == instance_images.GLANCE
            else source.rsplit('/', 1)[-1] or source,
            'urls': [source] if kind == instance_images.HTTP else [],
            'os_hash_algo': algo, 'os_hash_value': value,
            'disk_format': disk_format or 'raw', 'root_gb': root_gb}


def accelerator_request(node):
    """The accelerators the node's instance asks for (InvalidParameter
    Value naming the extra spec at fault)."""
    return acc_specs.parse((node.instance_info or {}).get(EXTRA_SPECS)
                           or {})


def os_acc_instance(node):
    """os_acc's instance_info for the node's instance (a node deployed
    without an instance UUID, as standalone clients do, is its own)."""
    info = node.instance_info or {}
    return {'uuid': node.instance_uuid or node.uuid,
            'name': info.get('display_name') or node.name,
            'project_id': node.lessee or node.owner,
            'image_uuid': info.get('image_source')}


def deploy_steps(task, runs_flows=True, user_steps=None):
    """Check the deploy's requested traits and record its ordered steps
    in driver_internal_info (the API shows them; deploy-run-steps runs
    the templates' ones). InvalidParameterValue (400) when a requested
    trait is not the node's, two matched templates name one step, or a
    step of the conductor's asks what no node can do (PowerOffDisabled,
    409, for a power_off of a node that may not be powered off)."""
    node = task.node
    deploy_templates.check_instance_traits(node)
    names = deploy_templates.requested_traits(node)
    templates = deploy_templates.matching_templates(
        node, db_api.get_instance().get_deploy_templates_by_names(names))
    # The rules of the conductor's steps, as for cleaning, before the
    # node moves: our API checked the request's steps already, and the
    # template API its steps; templates written before these rules, and
    # other RPC callers, are caught here.
    reserved_steps.check_request(
        node, deploy_templates.template_steps(templates),
        'instance_info/traits')
    reserved_steps.check_request(node, user_steps, 'deploy_steps')
    builtin = BUILT_IN_STEPS if runs_flows else NO_FLOWS_BUILT_IN_STEPS
    # As Ironic: the steps the node's interfaces mark with a priority
    # above 0 run in every deploy, unless a template or the request
    # changes their priority (0 disables them).
    marked = [step for step in interface_steps.automated_out_of_band(
        node, drivers_base.DEPLOY) if step['priority'] > 0]
    steps = deploy_templates.ordered_steps(
        templates, tuple(builtin) + tuple(marked), user_steps)
    for step in builtin:
        if not deploy_templates.is_builtin(step, steps):
            # The fixed atoms do it whatever the templates say.
            raise exception.InvalidParameterValue(
                err='Cannot deploy: a deploy template or the request '
                    'disables the deploy step %s.%s, which the node\'s '
                    'deploy interface always runs.' % (step['interface'],
                                                       step['step']),
                field=('deploy_steps' if user_steps
                       else 'instance_info/traits'))
    _check_interface_steps(task, steps, user_steps)
    if runs_flows:
        field = 'deploy_steps' if user_steps else 'instance_info/traits'
        _check_places(node, steps, field)
        for step in steps:
            if step['interface'] == 'raid' and \
                    _agent_deploy_step(step, node):
                # Its arguments, before the node moves (400).
                agent_raid.check_deploy_step(step, field)
    node_steps.set_info(task, **{deploy_templates.STEPS: steps,
                                 deploy_templates.INDEX: 0})
    return steps


def _check_interface_steps(task, steps, user_steps):
    """Ironic's rule for the steps of the node's interfaces that the
    conductor runs (neither built in, nor reserved, nor the agent's):
    each must be a method its interface marked as a deploy step
    (drivers.base.deploy_step), called with the arguments the mark
    allows and requires. InvalidParameterValue (400) naming where the
    step came from, before the node moves."""
    asked = {(step['interface'], step['step']) for step in user_steps or ()}
    for step in steps:
        if (_is_builtin(step) or step_names.run_by_conductor(step)
                or _agent_deploy_step(step, task.node)):
            continue
        field = ('deploy_steps' if (step['interface'], step['step']) in asked
                 else 'instance_info/traits')
        if interface_steps.out_of_band(task.node, step,
                                       drivers_base.DEPLOY) is None:
            raise exception.InvalidParameterValue(
                err='Cannot deploy: node %s does not support the deploy '
                    'step %s: its %s interface (%s) marks no such deploy '
                    'step.' % (task.node.uuid, _step_name(step),
                               step['interface'],
                               _interface_name(task, step['interface'])),
                field=field)
        interface_steps.check_out_of_band(task, step, drivers_base.DEPLOY,
                                          field)


def _interface_name(task, kind):
    iface = getattr(task.driver, kind, None)
    return getattr(task.node, '%s_interface' % kind, None) or (
        'none' if iface is None else type(iface).__name__)


class Validate(node_steps.NodeTaskBase):

    def execute(self, task):
        image_info(task.node)
        accelerator_request(task.node)
        task.driver.power.validate(task)


class _UnlessPaused(object):
    """Mixed into an atom of the deploy flows (before the atom's own
    class in the bases) that does nothing once a deploy step before it
    put the node on hold or to wait (_steps_paused)."""

    def execute(self, task):
        if not _steps_paused(task):
            super().execute(task)


class DiscoverAccelerators(node_steps.NodeTaskBase):
    """Take the node's accelerator inventory now that its agent is up
    (after the deploy's steps before the image write: none when one of
    them has the node hold or wait). A failure only stops the deploy
    when the instance asks for accelerators (plug then needs the
    inventory)."""

    def execute(self, task):
        if _steps_paused(task):
            return
        try:
            discovery.discover(task.node)
        except (exception.AgentUnavailable,
                exception.InvalidParameterValue) as e:
            if accelerator_request(task.node).requested:
                raise
            LOG.warning('Node %s: accelerator discovery failed: %s',
                        task.node.uuid, exception.safe_message(e))


def _initialize_and_plug(node_uuid, instance, rp, extra_specs):
    os_acc.initialize(node_uuid)
    return os_acc.plug(instance, rp, extra_specs)


class StartImageWrite(node_steps.NodeTaskBase):
    """Ask the agent to write the image and the config drive (IPA's
    standby.prepare_image, asynchronous). On a resume, a write the agent
    already started is followed instead of started twice: also when the
    dead conductor sent it but died before recording its id (the agent
    boots afresh for every deploy, so a write it knows of is this one's)."""

    def execute(self, task):
        node = task.node
        existing = agent_client.last_command(node, PREPARE_IMAGE)
        if existing and existing.get('command_status') != \
                agent_client.FAILED:
            node_steps.set_info(task, **{
                agent_info.COMMAND: existing.get('id')})
            return
        # The image is cached and served here when it must be (a Glance
        # or file:// image; [agent]image_download_source).
        params = {'image_info': instance_images.served(node,
                                                       image_info(node))}
        configdrive = (node.instance_info or {}).get('configdrive')
        if configdrive:
            params['configdrive'] = configdrive
        doc = agent_client.start_command(node, PREPARE_IMAGE, params)
        node_steps.set_info(task, **{agent_info.COMMAND: doc.get('id')})


class StartImageWriteAndPlug(StartImageWrite):
    """Plug the instance's accelerators (os_acc, in a worker, as the
    seed calls it) while the image write is started; a failure of
    either fails the deploy and releases what was plugged."""

    def execute(self, task):
        node = task.node
        if _steps_paused(task):
            # A step before the write put the node on hold or to wait.
            return
        if not accelerator_request(node).requested:
            super().execute(task)
            return
        extra_specs = (node.instance_info or {}).get(EXTRA_SPECS)
        with futures.ThreadPoolExecutor(max_workers=1) as executor:
            future = executor.submit(_initialize_and_plug, node.uuid,
                                     os_acc_instance(node),
                                     {'uuid': node.uuid}, extra_specs)
            super().execute(task)
            pci_ids = future.result()
        node_steps.set_info(task, **{ACCELERATORS: pci_ids})

    def revert(self, task, *args, **kwargs):
        try:
            os_acc.unplug(os_acc_instance(task.node))
        except Exception as e:
            LOG.warning('Node %s: releasing its accelerators after a failed '
                        'deploy failed (the reconciler will): %s',
                        task.node.uuid, e)


def _step_name(step):
    return '%s.%s' % (step['interface'], step['step'])


def _run_interface_step(task, step):
    # Its mark was checked when the deploy was asked for
    # (_check_interface_steps); as Ironic, running it only needs the
    # method (a deploy accepted before marks were required carries on).
    interface = getattr(task.driver, step['interface'], None)
    method = None
    if interface is not None and not step['step'].startswith('_'):
        method = getattr(interface, step['step'], None)
    if not callable(method):
        why = ('its %s interface has no such step' % step['interface']
               if interface is not None
               else 'it has no %s interface' % step['interface'])
        raise exception.InvalidParameterValue(
            err='Deploy step %s is not supported by node %s: %s.'
                % (_step_name(step), task.node.uuid, why))
    return method(task, **(step.get('args') or {}))


class RunSteps(node_steps.NodeTaskBase):
    """Run the deploy's own steps (its templates' and request's) of one
    ``part`` (BEFORE_RAMDISK...AFTER_INSTANCE), in their order, from the
    recorded index. The index of the next step is recorded after each
    one, so a flow resumed or started again carries on after the last
    finished step. ``passed``: the built-in step this flow starts after
    (the heartbeat that starts the flow says it is done)."""

    def __init__(self, name, part=AFTER_IMAGE, passed=None):
        super().__init__(name)
        self.part = part
        self.passed = passed

    def execute(self, task):
        # Imported here: clean imports this module (tear-down uses the
        # accelerator helpers above).
        from ironic_like.conductor.flows import clean
        if task.node.provision_state != states.DEPLOYING:
            # Resumed after the node was put on hold or to wait (its
            # conductor died before the flow's end was recorded): the
            # heartbeat after "unhold" or the wait carries on instead.
            return
        steps, start = _progress(task.node)
        if self.passed and start == _position(steps, self.passed):
            start += 1
            node_steps.set_info(task, **{deploy_templates.INDEX: start})
        index = start
        while index < len(steps) and part_of(steps, index) == self.part \
                and not _is_builtin(steps[index]):
            step = steps[index]
            if step_names.run_by_conductor(step):
                # "hold", "wait", the power steps, steps on child nodes:
                # run as cleaning runs them (reserved_steps). When the
                # node now holds or waits, the rest of this flow does
                # nothing; "unhold" or the wait's heartbeat starts it
                # again at the next step. A failure (StepFailed, naming
                # the step) reverts the flow, which fails the node.
                if not reserved_steps.run_listed(task, STEP_LIST, index):
                    return
                index += 1
                continue
            agent_step = _agent_deploy_step(step, task.node)
            if agent_step and not reserved_steps.agent_present(task.node):
                # A power_off or reboot step took the agent away (with
                # other steps in between): this step waits for the agent
                # booted again.
                reserved_steps.wait_for_agent(task, STEP_LIST, index)
                return
            if agent_step:
                # Started, then followed on the agent's heartbeats, as a
                # clean step is (no thread waits): the runner moves the
                # index on when it is done and carries on.
                clean.start_agent_step(task, EXECUTE_DEPLOY_STEP, step,
                                       'deploy_version')
                node_steps.set_info(task, **{
                    agent_info.PHASE: PHASE_STEP_RUNNING,
                    agent_info.PHASE_STARTED:
                        timeutils.utcnow().isoformat()})
                node_steps.move(task, 'wait')
                return
            result = _run_interface_step(task, step)
            if drivers_base.is_polling(result):
                # It goes on outside the conductor: the node waits, and
                # the poll that finds it done carries the deploy on.
                polled_steps.begin(task, drivers_base.DEPLOY, step, result,
                                   index=index)
                return
            index += 1
            node_steps.set_info(task, **{deploy_templates.INDEX: index,
                                         agent_info.COMMAND: None})
        if self.part == BEFORE_IMAGE and \
                not reserved_steps.agent_present(task.node):
            # A power_off or reboot step took the agent away: the image
            # write waits for the agent booted again, whose heartbeat
            # starts this flow again at the write.
            reserved_steps.wait_for_agent(task, STEP_LIST, index)


class _BuiltInStep(node_steps.NodeTaskBase):
    """The atom of built-in step deploy.``step``: does its work unless
    the node holds or waits (a step put it there) or the recorded index
    is past the step (a flow started again after it), then moves the
    index past it."""

    step = None

    def execute(self, task):
        if _steps_paused(task):
            return
        # Servicing and unrescue share these atoms; a deploy's steps are
        # not theirs.
        steps, index = (_progress(task.node)
                        if task.node.provision_state == states.DEPLOYING
                        else ([], 0))
        position = _position(steps, self.step)
        if position is not None and index > position:
            return
        self.run(task)
        if position is not None:
            node_steps.set_info(task,
                                **{deploy_templates.INDEX: position + 1})

    def run(self, task):
        raise NotImplementedError()


class BootFromDisk(_BuiltInStep):
    """prepare_instance_boot: the ramdisk's work is done: drop its boot
    configuration, and make the disk the persistent boot device. The
    agent's token goes too, except in a deploy, where deploy-tear-down-
    agent takes it (agent steps may run in between)."""

    step = 'prepare_instance_boot'

    def run(self, task):
        if task.node.provision_state == states.DEPLOYING:
            node_steps.drop_ramdisk_boot(task)
            # The agent wrote the image: the link it read it from goes
            # (Ironic removes it once the deploy is done), so that the
            # image is neither served nor pinned in the cache for the
            # instance's life.
            instance_images.remove(task.node.uuid)
        else:
            node_steps.leave_ramdisk(task)
        task.driver.management.set_boot_device(task, 'disk',
                                               persistent=True)
        # As Ironic's prepare_instance: the boot mode and secure boot
        # state the instance boots with (API 1.75; never fails).
        management.cache_boot_mode(task)


class TearDownAgent(_BuiltInStep):
    """tear_down_agent: the agent's token and URL go and the node is
    powered off, as Ironic does (boot_instance powers it on; a node with
    disable_power_off stays on and is rebooted then)."""

    step = 'tear_down_agent'

    def run(self, task):
        node_steps.drop_agent(task)
        # A node a step powered off already is left so.
        if task.driver.power.get_power_state(task) != states.POWER_OFF:
            node_steps.power_off(task)


class RebootToInstance(_BuiltInStep):
    """boot_instance: power cycle (or on) into the instance."""

    step = 'boot_instance'

    def run(self, task):
        node_steps.boot(task)


class PrepareRamdisk(_UnlessPaused, node_steps.PrepareRamdisk):
    pass


class PowerOn(_UnlessPaused, node_steps.PowerOn):
    pass


class AwaitAgent(_UnlessPaused, node_steps.AwaitAgent):
    """Also in deploy-write-image: no wait for the image while a step
    before the write has the node wait for its agent."""


def _steps_paused(task):
    """A step put the node on hold, or to wait for its agent's next
    heartbeat (a "wait", or an agent step after a reboot): the rest of
    the flow does nothing. The unrescue and service flows share these
    atoms; their nodes never wait in them."""
    return node_steps.held(task) or \
        task.node.provision_state in states.WAIT_STATES


class Done(node_steps.NodeTaskBase):

    def execute(self, task):
        if task.node.provision_state == states.DEPLOYING:
            node_steps.move(task, 'done', keep_target=False)


def _fail_first():
    return node_steps.FailOnRevert(FAIL_ON_REVERT, _OPERATION)


def boot_ramdisk_flow():
    flow = linear_flow.Flow(BOOT_RAMDISK)
    flow.add(_fail_first(),
             Validate(VALIDATE),
             RunSteps(RUN_STEPS_BEFORE_RAMDISK, BEFORE_RAMDISK),
             PrepareRamdisk(PREPARE_RAMDISK),
             PowerOn(POWER_ON),
             AwaitAgent(AWAIT_AGENT, PHASE_WRITE_IMAGE))
    return flow


def write_image_flow():
    flow = linear_flow.Flow(WRITE_IMAGE)
    flow.add(_fail_first(),
             RunSteps(RUN_STEPS_BEFORE_IMAGE, BEFORE_IMAGE,
                      passed='deploy'),
             DiscoverAccelerators(DISCOVER_ACCELERATORS),
             StartImageWriteAndPlug(START_IMAGE_WRITE),
             AwaitAgent(AWAIT_IMAGE, PHASE_IMAGE_RUNNING))
    return flow


def finish_flow():
    flow = linear_flow.Flow(FINISH)
    flow.add(_fail_first(),
             RunSteps(RUN_STEPS, AFTER_IMAGE, passed='write_image'),
             BootFromDisk(BOOT_FROM_DISK),
             RunSteps(RUN_STEPS_BEFORE_TEAR_DOWN, BEFORE_TEAR_DOWN),
             TearDownAgent(TEAR_DOWN_AGENT),
             RunSteps(RUN_STEPS_BEFORE_INSTANCE, BEFORE_INSTANCE),
             RebootToInstance(REBOOT_TO_INSTANCE),
             RunSteps(RUN_STEPS_AFTER_INSTANCE, AFTER_INSTANCE),
             Done(DONE))
    return flow


persistence.register(BOOT_RAMDISK, boot_ramdisk_flow)
persistence.register(WRITE_IMAGE, write_image_flow)
persistence.register(FINISH, finish_flow)
