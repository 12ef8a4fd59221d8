"""Hardware inspection of a node: "inspect" from manageable (or inspect
failed) to inspecting, and back to manageable with the node's properties
and ports filled in, or to inspect failed.

With the ``agent`` inspect interface the work is the inspection flows
(conductor/flows/inspect.py): the ramdisk boots, the node waits in
"inspect wait" for its agent's first heartbeat (agent_heartbeat.py hands
it here), which starts reading and recording the inventory. A node that
waits longer than [conductor]inspect_wait_timeout fails (checked with the
other agent timeouts, agent_timeouts.py). Any other inspect interface is
called (``inspect_hardware(task)``) as Ironic calls it, in the worker:
it returns the state to go to, or, out-of-band (``redfish``: the BMC is
read), what it found (drivers.base.InspectedHardware), which is recorded
as an agent's inventory is (flows/inspect.record(): properties, ports,
inspection rules, the inventory kept) before the node goes back to
"manageable". Its failure ends in "inspect failed" with last_error; the
node's power is left alone (nothing was booted), as Ironic does.

An agent may also post its inventory itself (API 1.84,
POST /v1/continue_inspection, as ironic-python-agent does when given an
inspection callback URL): continue_inspection() keeps it in the node's
inventory record and starts the same finishing flow, which reads it from
there instead of asking the agent.
"""

from oslo_log import log
from oslo_utils import timeutils

from ironic_like.common import agent_info
from ironic_like.common import bmc_lookup
from ironic_like.common import exception
from ironic_like.common import states
from ironic_like.conductor.flows import inspect as inspect_flows
from ironic_like.conductor.flows import node_steps
from ironic_like.conductor.flows import runner
from ironic_like.conductor import locks
from ironic_like.conductor import wait_deadlines
from ironic_like.conf import CONF
from ironic_like.drivers import base as drivers_base

LOG = log.getLogger(__name__)


def _runs_flows(iface):
    # The agent inspect interface (drivers/modules/agent_inspect.py).
    return bool(getattr(iface, 'runs_flows', False))


def validate(task):
    """Before the node moves: refuse (400) a node that cannot be
    inspected (no-inspect refuses in its validate(), as Ironic's), rather
    than fail it in the background."""
    iface = getattr(task.driver, 'inspect', None)
    if iface is None:
        raise drivers_base.unsupported(task, 'inspect')
    iface.validate(task)


def start(task, params=None):
    """In the provisioning worker, which holds the lock; the node is
    "inspecting"."""
    task.update_node({'inspection_started_at': timeutils.utcnow(),
                      'inspection_finished_at': None})
    iface = task.driver.inspect
    if _runs_flows(iface):
        # Resolved now, so that the API's look-up of posted inspection
        # data by BMC address resolves nothing (Ironic's cache).
        node_steps.set_info(task, **{
            agent_info.PHASE: None, agent_info.COMMAND: None,
            inspect_flows.POSTED: None,
            bmc_lookup.CACHE: bmc_lookup.resolve(task.node.driver_info,
                                                 task.node.uuid)})
        runner.run_chain(task, inspect_flows.BOOT_RAMDISK)
        return
    try:
        result = iface.inspect_hardware(task)
        if isinstance(result, drivers_base.InspectedHardware):
            _record_out_of_band(task, result)
            result = states.MANAGEABLE
    except exception.IronicLikeException as e:
        _fail(task, 'Inspection failed: %s' % exception.safe_message(e))
        return
    except Exception as e:
        LOG.exception('Node %s: inspection failed', task.node.uuid)
        _fail(task, 'Inspection failed: unexpected exception of type %s: '
                    '%s' % (type(e).__name__, e))
        return
    if result == states.INSPECTWAIT:
        node_steps.move(task, 'wait')
        return
    if result != states.MANAGEABLE:
        _fail(task, 'Inspection failed: the inspect interface returned '
                    'the unexpected state %s.' % result)
        return
    task.update_node({'inspection_finished_at': timeutils.utcnow()})
    node_steps.move(task, 'done', keep_target=False, target=None)


def _record_out_of_band(task, found):
    created = inspect_flows.record(task, found.inventory, found.plugin_data,
                                   found.properties, from_bmc=True)
    props = task.node.properties or {}
    LOG.info('Node %s inspected out-of-band: %s; ports added: %s',
             task.node.uuid, inspect_flows.summary(props),
             ', '.join(created) or '-')


def _fail(task, message):
    """An inspection without flows failed: "inspect failed" with
    ``message``; nothing when the lock was lost (the node is another
    conductor's now)."""
    if task.lock_lost:
        return
    LOG.warning('Node %s: %s', task.node.uuid, message)
    node_steps.move(task, 'fail', last_error=message)


def _back_to_wait(task, error):
    # The pool refused the work: wait again, the next heartbeat retries.
    node_steps.move(task, 'wait')


def on_heartbeat(task):
    """A heartbeat was recorded for ``task.node`` (locked) in an inspection
    state: the first one in "inspect wait" starts reading the inventory
    (in a worker; the RPC thread only decides)."""
    node = task.node
    phase = (node.driver_internal_info or {}).get(agent_info.PHASE)
    if (node.maintenance or node.provision_state != states.INSPECTWAIT or
            phase != inspect_flows.PHASE_INVENTORY):
        return
    node_steps.move(task, 'resume')
    task.set_spawn_error_hook(_back_to_wait)
    task.spawn_after(runner.executor(), runner.run_chain,
                     inspect_flows.FINISH)


def continue_inspection(context, node_id, inventory, plugin_data):
    """An agent posted its inventory (API 1.84) for node ``node_id``:
    check it, keep it, and finish the inspection with it in a worker.

    :raises: NotFound when the node is not waiting for an inspection by
        the agent (its agent should not be posting); InvalidParameterValue
        (400) for an inventory inspection cannot use, before anything
        changes.
    """
    with locks.acquire(context, node_id,
                       purpose='continue inspection') as task:
        node = task.node
        if node.provision_state == states.ENROLL and \
                CONF.auto_discovery.enabled:
            # A machine auto-discovery just enrolled (the API finds no
            # other node in "enroll" for inspection data).
            props = inspect_flows.check_inventory(task, inventory)
            task.set_spawn_error_hook(_discovery_not_started)
            task.spawn_after(runner.executor(), _record_discovered,
                             inventory, plugin_data, props)
            return
        if (node.provision_state != states.INSPECTWAIT or node.maintenance
                or not _runs_flows(getattr(task.driver, 'inspect', None))):
            LOG.warning('Node %s: inspection data posted while it is %s%s '
                        'with inspect interface %s; refused', node.uuid,
                        node.provision_state,
                        ' (maintenance)' if node.maintenance else '',
                        node.inspect_interface)
            raise exception.NotFound(
                'No node is waiting for this inspection data.')
        # What the finishing flow will do with it, checked now: a bad
        # inventory changes nothing.
        inspect_flows.check_inventory(task, inventory)
        task.db.save_node_inventory(node.id, inventory, plugin_data)
        node_steps.set_info(task, **{inspect_flows.POSTED: True})
        LOG.info('Node %s: its agent posted its inventory', node.uuid)
        node_steps.move(task, 'resume')
        task.set_spawn_error_hook(_back_to_wait)
        task.spawn_after(runner.executor(), runner.run_chain,
                         inspect_flows.FINISH)


def _discovery_not_started(task, error):
    # The pool refused the work: said on the node, which stays enrolled
    # without its inventory.
    task.update_node({'last_error': 'Auto-discovery was not started: %s'
                                    % exception.safe_message(error)})


def _record_discovered(task, inventory, plugin_data, props):
    """In a worker holding the lock: record what an auto-discovered
    machine's inventory says of it (``props``: its properties, as
    check_inventory() made them), as an inspection records it
    (properties, ports, inspection rules, the inventory kept, its
    accelerators); it stays in "enroll". A failure goes to last_error."""
    node = task.node
    plugin_data = dict(plugin_data or {})
    try:
        created = inspect_flows.record(task, inventory, plugin_data, props)
        inspect_flows.record_accelerators(task, inventory)
    except Exception as e:
        if task.lock_lost:
            return
        LOG.error('Node %s: auto-discovery failed: %s', node.uuid,
                  exception.safe_message(e))
        task.update_node({'last_error': 'Failed to finish auto-discovery: '
                                        '%s' % exception.safe_message(e)})
        return
    LOG.info('Successfully finished auto-discovery of node %s: %s; ports '
             'added: %s', node.uuid, inspect_flows.summary(props),
             ', '.join(created) or '-')


def abort(task):
    """An operator aborted "inspect wait" (the node is inspect failed
    now): power off and leave the ramdisk, in a worker."""
    task.spawn_after(runner.executor(), _abort_cleanup)


def _abort_cleanup(task):
    try:
        node_steps.power_off(task)
    except Exception as e:
        LOG.warning('Node %s: power off after abort failed: %s',
                    task.node.uuid, e)
    node_steps.leave_ramdisk(task)


def wait_overdue(node, now=None):
    """Seconds the node has waited in "inspect wait" past
    [conductor]inspect_wait_timeout (None within it, or without one)."""
    timeout = CONF.conductor.inspect_wait_timeout
    if (not timeout or node.maintenance or
            node.provision_state != states.INSPECTWAIT):
        return None
    started = node.inspection_started_at or node.provision_updated_at
    return wait_deadlines.seconds_late(started, timeout, now)


def act_on_overdue_wait(context, node_id):
    """Fail the inspection of a node that waited too long for its agent
    ('failed', or None)."""
    return wait_deadlines.fail_if_late(
        context, node_id, wait_overdue, 'inspect wait timeout',
        'Timeout reached while inspecting the node: its agent did not call '
        'back within %d seconds ([conductor]inspect_wait_timeout).'
        % CONF.conductor.inspect_wait_timeout)
