"""Rescue and unrescue through the agent, one flow per phase:

    rescue-boot-ramdisk: rescue-fail-on-revert -> rescue-power-off
                         -> rescue-prepare-ramdisk -> rescue-power-on
                         -> rescue-await-agent
    (first heartbeat in "rescue wait") rescue-finish:
                         rescue-fail-on-revert -> rescue-finalize
                         -> rescue-done
    unrescue:            unrescue-fail-on-revert -> unrescue-power-off
                         -> unrescue-boot-from-disk -> unrescue-power-on
                         -> unrescue-done

Booting the ramdisk and waiting for its agent are cleaning's tasks
(node_steps) with the rescue ramdisk's images; booting the instance again
is the deploy's last steps (deploy-boot-from-disk, the power-on). A
failure ends in rescue failed or unrescue failed, powered off, without
the rescue password.
"""

import contextlib
import inspect

from oslo_log import log
from taskflow.patterns import linear_flow

from ironic_like.common import exception
from ironic_like.common import states
from ironic_like.conductor.flows import deploy
from ironic_like.conductor.flows import node_steps
from ironic_like.conductor.flows import persistence
from ironic_like.drivers.modules import agent_client
from ironic_like.drivers.modules import agent_rescue

LOG = log.getLogger(__name__)

BOOT_RAMDISK = 'rescue-boot-ramdisk'
FINISH = 'rescue-finish'
UNRESCUE = 'unrescue'

# Atom names: fixed, a persisted schema.
FAIL_ON_REVERT = 'rescue-fail-on-revert'
POWER_OFF = 'rescue-power-off'
PREPARE_RAMDISK = 'rescue-prepare-ramdisk'
POWER_ON = 'rescue-power-on'
AWAIT_AGENT = 'rescue-await-agent'
FINALIZE = 'rescue-finalize'
DONE = 'rescue-done'
UNRESCUE_FAIL_ON_REVERT = 'unrescue-fail-on-revert'
UNRESCUE_POWER_OFF = 'unrescue-power-off'
UNRESCUE_BOOT_FROM_DISK = 'unrescue-boot-from-disk'
UNRESCUE_POWER_ON = 'unrescue-power-on'
UNRESCUE_DONE = 'unrescue-done'

# The agent phase of a node in "rescue wait".
PHASE_FINALIZE = 'rescue-finalize'

# IPA's command that sets the password and ends its agent.
FINALIZE_RESCUE = 'rescue.finalize_rescue'


def forget_password(task, keep_hash=False):
    info = task.node.instance_info or {}
    cleaned = agent_rescue.without_passwords(info, keep_hash=keep_hash)
    if cleaned is not info:
        task.update_node({'instance_info': cleaned})


class _WithRescueImages(object):
    """The node as the boot interface sees it while it writes the rescue
    ramdisk's boot configuration: its deploy images are the rescue
    ones. Boot interfaces take no ramdisk mode yet (Ironic's
    prepare_ramdisk(mode='rescue')); this keeps them unaware of rescue."""

    def __init__(self, node, kernel, ramdisk):
        self._node = node
        self.driver_info = dict(node.driver_info or {},
                                deploy_kernel=kernel,
                                deploy_ramdisk=ramdisk)

    def __getattr__(self, name):
        return getattr(self._node, name)


@contextlib.contextmanager
def _rescue_images(task):
    kernel, ramdisk = agent_rescue.rescue_images(task.node)
    view = _WithRescueImages(task.node, kernel, ramdisk)
    task.node = view
    try:
        yield
    finally:
        # A write meanwhile (update_node) replaced the view with the
        # stored node already; otherwise the node is unchanged.
        if task.node is view:
            task.node = view._node


def _takes_mode(boot):
    try:
        return 'mode' in inspect.signature(boot.prepare_ramdisk).parameters
    except (TypeError, ValueError):
        return False


class FailRescueOnRevert(node_steps.FailOnRevert):
    """FailOnRevert, and the password goes: a failed rescue keeps no
    secret for an agent that will not ask for it."""

    def revert(self, task, *args, **kwargs):
        super().revert(task, *args, **kwargs)
        try:
            if not task.lock_lost:
                forget_password(task)
        except Exception:
            LOG.exception('Node %s: dropping the rescue password after a '
                          'failed %s failed', task.node.uuid,
                          self.operation)


class PrepareRescueRamdisk(node_steps.PrepareRamdisk):
    """Cleaning's PrepareRamdisk with the rescue ramdisk's images."""

    def execute(self, task):
        if _takes_mode(task.driver.boot):
            task.driver.power.validate(task)
            agent_rescue.rescue_images(task.node)
            task.driver.boot.prepare_ramdisk(task, mode='rescue')
            return
        with _rescue_images(task):
            super().execute(task)


class Finalize(node_steps.NodeTaskBase):
    """Send the agent the password's hash: it sets it and ends (IPA's
    rescue.finalize_rescue). The plain password never leaves us."""

    def execute(self, task):
        node = task.node
        hashed = (node.instance_info or {}).get(
            agent_rescue.HASHED_PASSWORD)
        if not hashed:
            raise exception.MissingParameterValue(
                err='Node %s has no rescue password to set.' % node.uuid,
                field='rescue_password')
        agent_client.run_command(node, FINALIZE_RESCUE,
                                 {'rescue_password': hashed,
                                  'hashed': True})


class Done(node_steps.NodeTaskBase):
    """The agent is gone (finalize_rescue ends it): its token and boot
    configuration go, and the plain password (the hash stays, as Ironic
    keeps it, until unrescue)."""

    def execute(self, task):
        if task.node.provision_state != states.RESCUING:
            return
        node_steps.leave_ramdisk(task)
        forget_password(task, keep_hash=True)
        node_steps.move(task, 'done', keep_target=False, target=None)


class UnrescueDone(node_steps.NodeTaskBase):

    def execute(self, task):
        if task.node.provision_state != states.UNRESCUING:
            return
        forget_password(task)
        node_steps.move(task, 'done', keep_target=False, target=None)


def boot_ramdisk_flow():
    flow = linear_flow.Flow(BOOT_RAMDISK)
    flow.add(FailRescueOnRevert(FAIL_ON_REVERT, 'Rescue'),
             node_steps.PowerOff(POWER_OFF),
             PrepareRescueRamdisk(PREPARE_RAMDISK),
             node_steps.PowerOn(POWER_ON),
             node_steps.AwaitAgent(AWAIT_AGENT, PHASE_FINALIZE))
    return flow


def finish_flow():
    flow = linear_flow.Flow(FINISH)
    flow.add(FailRescueOnRevert(FAIL_ON_REVERT, 'Rescue'),
             Finalize(FINALIZE),
             Done(DONE))
    return flow


def unrescue_flow():
    flow = linear_flow.Flow(UNRESCUE)
    flow.add(FailRescueOnRevert(UNRESCUE_FAIL_ON_REVERT, 'Unrescue'),
             node_steps.PowerOff(UNRESCUE_POWER_OFF),
             # As the deploy's end: out of the ramdisk, disk first, and
             # power on into the instance.
             deploy.BootFromDisk(UNRESCUE_BOOT_FROM_DISK),
             node_steps.PowerOn(UNRESCUE_POWER_ON),
             UnrescueDone(UNRESCUE_DONE))
    return flow


persistence.register(BOOT_RAMDISK, boot_ramdisk_flow)
persistence.register(FINISH, finish_flow)
persistence.register(UNRESCUE, unrescue_flow)
