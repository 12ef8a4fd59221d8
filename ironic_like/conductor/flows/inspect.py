"""In-band inspection through the agent, one flow per phase:

    inspect-boot-ramdisk: inspect-fail-on-revert -> inspect-prepare-ramdisk
                          -> inspect-power-on -> inspect-await-agent
    (first heartbeat in "inspect wait") inspect-finish:
                          inspect-fail-on-revert -> inspect-inventory
                          -> inspect-power-off -> inspect-done

Booting the ramdisk and waiting for the agent are cleaning's tasks
(node_steps); the inventory is read with the agent command accelerator
discovery uses, turned into properties and ports by common/inspection.py,
and its accelerators are recorded by discovery's own path. What is
recorded, and how (record()), is shared with out-of-band inspection
(conductor/inspection.py).
"""

from oslo_log import log
from oslo_utils import timeutils
from taskflow.patterns import linear_flow

from ironic_like.accelerators import discovery
from ironic_like.common import bmc_lookup
from ironic_like.common import exception
from ironic_like.common import inspection
from ironic_like.common import states
from ironic_like.conductor import firmware
from ironic_like.conductor.flows import node_steps
from ironic_like.conductor.flows import persistence
from ironic_like.conductor import inspection_rules
from ironic_like.conf import CONF
from ironic_like.conf import inspector as inspector_conf
from ironic_like.drivers.modules import agent_client

LOG = log.getLogger(__name__)

BOOT_RAMDISK = 'inspect-boot-ramdisk'
FINISH = 'inspect-finish'

# Atom names: fixed, a persisted schema.
FAIL_ON_REVERT = 'inspect-fail-on-revert'
PREPARE_RAMDISK = 'inspect-prepare-ramdisk'
POWER_ON = 'inspect-power-on'
AWAIT_AGENT = 'inspect-await-agent'
INVENTORY = 'inspect-inventory'
POWER_OFF = 'inspect-power-off'
DONE = 'inspect-done'

# The agent phase of a node in "inspect wait".
PHASE_INVENTORY = 'inspect-inventory'
# driver_internal_info: the agent posted its inventory (API 1.84), which
# waits in the node's inventory record with the agent's plugin data.
POSTED = 'inspection_data_posted'


def _create_ports(task, new_ports):
    """Create ``new_ports`` (inspection.ports_to_add()); a MAC another
    node's port holds is skipped (logged)."""
    node = task.node
    created = []
    for values in new_ports:
        try:
            task.db.create_port(dict(values, node_id=node.id))
        except exception.MACAlreadyExists:
            LOG.warning('Node %s: inspection found NIC %s, whose MAC '
                        'address another port already has; no port '
                        'created for it', node.uuid, values['address'])
            continue
        created.append(values['address'])
    return created


def _update_ports(task, inventory, from_bmc):
    """[inspector]keep_ports and update_pxe_enabled on the node's
    ports, as Ironic's ports hook applies them."""
    node = task.node
    deleted, pxe = inspection.port_changes(
        inventory, task.db.get_ports_by_node_id(node.id),
        CONF.inspector.add_ports, CONF.inspector.keep_ports,
        CONF.inspector.update_pxe_enabled, from_bmc=from_bmc)
    for port in deleted:
        LOG.info('Node %s: deleting port %s (%s): its MAC address is not '
                 'among those [inspector]keep_ports = %s keeps', node.uuid,
                 port.uuid, port.address, CONF.inspector.keep_ports)
        task.db.destroy_port(port.id)
    for port in task.db.get_ports_by_node_id(node.id):
        if port.address in pxe:
            LOG.info('Node %s: port %s (%s) pxe_enabled set to %s as the '
                     'inventory says', node.uuid, port.uuid, port.address,
                     pxe[port.address])
            task.db.update_port(port.id,
                                {'pxe_enabled': pxe[port.address]})


def check_inventory(task, inventory):
    """The node's properties with ``inventory`` applied; checked whole
    (properties and ports) before anything is written, so that a bad
    inventory changes nothing."""
    if not isinstance(inventory, dict):
        raise exception.InvalidParameterValue(
            err='The inventory must be an object.', field='inventory')
    props = inspection.properties(inventory, task.node.properties)
    inspection.ports_to_add(inventory, CONF.inspector.add_ports)
    return props


def _inventory(task):
    """(inventory, plugin data) of the node's agent: posted by it (API
    1.84) and kept in its inventory record, or asked for now."""
    node = task.node
    if (node.driver_internal_info or {}).get(POSTED):
        row = task.db.get_node_inventory(node.id, node.uuid)
        return row.inventory_data, dict(row.plugin_data or {})
    inventory = agent_client.run_command(node, discovery.GET_HARDWARE_INFO)
    if not isinstance(inventory, dict):
        raise exception.InvalidParameterValue(
            err='The agent answered %s with no inventory.'
                % discovery.GET_HARDWARE_INFO, field='inventory')
    return inventory, {}


def record(task, inventory, plugin_data, props, from_bmc=False):
    """Record what an inspection found on ``task.node`` (locked), in-band
    or out-of-band (conductor/inspection.py): its properties ``props``,
    ports for the new NICs [inspector]add_ports selects, the existing
    ones kept or deleted ([inspector]keep_ports) and their pxe_enabled
    updated ([inspector]update_pxe_enabled), the inspection rules (API
    1.96), which see and may change what was recorded, then the
    inventory kept as [inventory]data_backend says, with what inspection
    made of it in ``plugin_data`` (changed in place). Returns the MAC
    addresses of the ports created.

    ``from_bmc``: the inventory was read from the BMC (see
    inspection.ports_to_add()); its port errors are raised before
    anything is written. A failing rule raises InspectionRulesFailed,
    the properties and ports recorded.
    """
    node = task.node
    existing = [p.address for p in task.db.get_ports_by_node_id(node.id)]
    new_ports = inspection.ports_to_add(inventory, CONF.inspector.add_ports,
                                        existing, from_bmc=from_bmc)
    task.update_node({'properties': props})
    created = _create_ports(task, new_ports)
    _update_ports(task, inventory, from_bmc)
    inspection_rules.apply(task, inventory, plugin_data)
    if CONF.inventory.data_backend == inspector_conf.INVENTORY_DATABASE:
        # Served by GET /v1/nodes/{node}/inventory (API 1.81).
        plugin_data.update(properties=props, added_ports=created)
        task.db.save_node_inventory(node.id, inventory, plugin_data)
    return created


def summary(props):
    """The properties an inspection log line shows."""
    return {k: props.get(k) for k in ('cpus', 'cpu_arch', 'memory_mb',
                                      'local_gb')}


def record_accelerators(task, inventory):
    """Record the inventory's accelerators as discovery does; a refusal
    is only logged (discovery marked itself failed with the reason; what
    the node is made of is known all the same)."""
    try:
        discovery.record(task.node, inventory)
    except exception.InvalidParameterValue as e:
        LOG.warning('Node %s: the accelerators of its inventory were '
                    'refused: %s', task.node.uuid,
                    exception.safe_message(e))


class ProcessInventory(node_steps.NodeTaskBase):
    """Read the agent's inventory and record what it says: properties,
    ports, accelerators."""

    def execute(self, task):
        node = task.node
        inventory, plugin_data = _inventory(task)
        props = check_inventory(task, inventory)
        created = record(task, inventory, plugin_data, props)
        if (CONF.inventory.data_backend != inspector_conf.INVENTORY_DATABASE
                and (node.driver_internal_info or {}).get(POSTED)):
            task.db.destroy_node_inventory(node.id)
        node_steps.set_info(task, **{POSTED: None})
        record_accelerators(task, inventory)
        LOG.info('Node %s inspected: %s; ports added: %s', node.uuid,
                 summary(props), ', '.join(created) or '-')


class Done(node_steps.NodeTaskBase):

    def execute(self, task):
        if task.node.provision_state != states.INSPECTING:
            return
        node_steps.leave_ramdisk(task)
        node_steps.set_info(task, **{bmc_lookup.CACHE: None})
        # As Ironic: inspection also reads the firmware versions (never
        # fails).
        firmware.cache_components(task)
        task.update_node({'inspection_finished_at': timeutils.utcnow()})
        node_steps.move(task, 'done', keep_target=False, target=None)


def _fail_first():
    return node_steps.FailOnRevert(FAIL_ON_REVERT, 'Inspection')


def boot_ramdisk_flow():
    flow = linear_flow.Flow(BOOT_RAMDISK)
    flow.add(_fail_first(),
             node_steps.PrepareRamdisk(PREPARE_RAMDISK),
             node_steps.PowerOn(POWER_ON),
             node_steps.AwaitAgent(AWAIT_AGENT, PHASE_INVENTORY))
    return flow


def finish_flow():
    flow = linear_flow.Flow(FINISH)
    flow.add(_fail_first(),
             ProcessInventory(INVENTORY),
             node_steps.PowerOff(POWER_OFF),
             Done(DONE))
    return flow


persistence.register(BOOT_RAMDISK, boot_ramdisk_flow)
persistence.register(FINISH, finish_flow)
