"""Servicing through the agent (API 1.87): steps run on an active node
from the agent's ramdisk, then the instance boots again. One flow per
phase, as cleaning's:

    service-boot-ramdisk: service-fail-on-revert -> service-prepare-ramdisk
                          -> service-power-on -> service-await-agent
    (first heartbeat in "service wait") service-start-steps:
                          service-fail-on-revert -> service-get-steps
    then, per step, service-next-step:
                          service-fail-on-revert -> service-execute-step
                          -> service-await-step
    or, for a step the conductor runs itself (reserved_steps.py),
    service-conductor-step:
                          service-fail-on-revert
                          -> service-run-conductor-step
    (a heartbeat that finds the last step done) service-finish:
                          service-fail-on-revert -> service-boot-from-disk
                          -> service-reboot-to-instance -> service-done

The steps are exactly those asked for (service_steps), which the agent
must offer (service.get_service_steps), or the conductor's own: "hold"
(API 1.85's pause), "wait", the power steps, steps on child nodes.
A failure ends in "service failed", the node powered off; "abort" from
there boots the instance again.
"""

from taskflow.patterns import linear_flow

from ironic_like.common import service_steps
from ironic_like.common import states
from ironic_like.conductor.flows import clean
from ironic_like.conductor.flows import deploy
from ironic_like.conductor.flows import node_steps
from ironic_like.conductor.flows import persistence
from ironic_like.conductor.flows import reserved_steps
from ironic_like.drivers.modules import agent_client

BOOT_RAMDISK = 'service-boot-ramdisk'
START_STEPS = 'service-start-steps'
NEXT_STEP = 'service-next-step'
CONDUCTOR_STEP = 'service-conductor-step'
FINISH = 'service-finish'

# Atom names: fixed, a persisted schema.
FAIL_ON_REVERT = 'service-fail-on-revert'
PREPARE_RAMDISK = 'service-prepare-ramdisk'
POWER_ON = 'service-power-on'
AWAIT_AGENT = 'service-await-agent'
GET_STEPS = 'service-get-steps'
EXECUTE_STEP = 'service-execute-step'
AWAIT_STEP = 'service-await-step'
RUN_CONDUCTOR_STEP = 'service-run-conductor-step'
BOOT_FROM_DISK = 'service-boot-from-disk'
REBOOT_TO_INSTANCE = 'service-reboot-to-instance'
DONE = 'service-done'

# Agent phases of a node in "service wait".
PHASE_GET_STEPS = 'service-get-steps'
PHASE_STEP_RUNNING = 'service-step-running'
# Set by "unhold": the next heartbeat starts the step after the hold.
PHASE_NEXT_STEP = 'service-next-step'

# driver_internal_info keys.
REQUESTED = 'service_steps_requested'
STEPS = service_steps.STEPS
INDEX = service_steps.INDEX

GET_SERVICE_STEPS = 'service.get_service_steps'
EXECUTE_SERVICE_STEP = 'service.execute_service_step'
_OPERATION = 'Servicing'

STEP_LIST = reserved_steps.StepList('service', _OPERATION, STEPS, INDEX,
                                    PHASE_NEXT_STEP, states.SERVICING)


class GetSteps(node_steps.NodeTaskBase):
    """Read the agent's service steps and check the requested ones."""

    def execute(self, task):
        node = task.node
        info = node.driver_internal_info or {}
        if STEPS in info:
            return  # decided before an interruption
        offered = clean.agent_steps(
            agent_client.run_command(node, GET_SERVICE_STEPS),
            key='service_steps')
        steps = clean.manual_steps(offered, info.get(REQUESTED) or [],
                                   node, field='service_steps')
        node_steps.set_info(task, **{STEPS: steps, INDEX: 0,
                                     REQUESTED: None})


class ExecuteStep(node_steps.NodeTaskBase):
    """Start the current step on the agent, or hold at a "hold" step."""

    def execute(self, task):
        info = task.node.driver_internal_info or {}
        step = info[STEPS][info[INDEX]]
        if node_steps.is_hold(step):
            node_steps.hold(task, INDEX, info[INDEX])
            return
        clean.start_agent_step(task, EXECUTE_SERVICE_STEP, step,
                               'service_version')


class Done(node_steps.NodeTaskBase):

    def execute(self, task):
        if task.node.provision_state != states.SERVICING:
            return
        node_steps.set_info(task, **{STEPS: None, INDEX: None})
        node_steps.move(task, 'done', keep_target=False, target=None)


def _fail_first():
    return node_steps.FailOnRevert(FAIL_ON_REVERT, _OPERATION)


def boot_ramdisk_flow():
    flow = linear_flow.Flow(BOOT_RAMDISK)
    flow.add(_fail_first(),
             node_steps.PrepareRamdisk(PREPARE_RAMDISK),
             node_steps.PowerOn(POWER_ON),
             node_steps.AwaitAgent(AWAIT_AGENT, PHASE_GET_STEPS))
    return flow


def start_steps_flow():
    flow = linear_flow.Flow(START_STEPS)
    flow.add(_fail_first(), GetSteps(GET_STEPS))
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
             deploy.BootFromDisk(BOOT_FROM_DISK),
             deploy.RebootToInstance(REBOOT_TO_INSTANCE),
             Done(DONE))
    return flow


persistence.register(BOOT_RAMDISK, boot_ramdisk_flow)
persistence.register(START_STEPS, start_steps_flow)
persistence.register(NEXT_STEP, next_step_flow)
persistence.register(CONDUCTOR_STEP, conductor_step_flow)
persistence.register(FINISH, finish_flow)
