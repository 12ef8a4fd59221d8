"""In-band inspection through the agent, end to end in one process: a
running conductor, fake power and boot, and a fake agent on loopback."""

from ironic_like.common import agent_info
from ironic_like.common import agent_token
from ironic_like.common import bmc_lookup
from ironic_like.common import exception
from ironic_like.common import states
from ironic_like.conductor import agent_timeouts
from ironic_like.conductor.flows import inspect as inspect_flows
from ironic_like.conductor.flows import persistence
from ironic_like.conductor import inspection
from ironic_like.db.sqlalchemy import accelerators as acc_db
from ironic_like.drivers.modules import fake
from ironic_like.tests.unit.conductor import fake_agent
from ironic_like.tests.unit.conductor import utils as cond_utils
from ironic_like.tests.unit.db import utils

GiB = 1024 ** 3
BOOT_MAC = '52:54:00:12:34:01'
OTHER_MAC = '52:54:00:12:34:02'

INVENTORY = {
    'cpu': {'count': 4, 'architecture': 'aarch64'},
    'memory': {'physical_mb': 8192},
    'disks': [{'name': '/dev/vda', 'size': 40 * GiB},
              {'name': '/dev/vdb', 'size': 1 * GiB}],
    'interfaces': [
        {'name': 'eth0', 'mac_address': BOOT_MAC,
         'ipv4_address': '10.0.0.2'},
        {'name': 'eth1', 'mac_address': OTHER_MAC,
         'ipv4_address': '10.0.1.2'}],
    'boot': {'current_boot_mode': 'bios', 'pxe_interface': BOOT_MAC},
    'accelerators': [],
}


def _settled(node):
    return node.provision_state not in states.TRANSIENT_STATES


class InspectionTestCase(cond_utils.ConductorTestCase):

    def setUp(self):
        super().setUp()
        self.agent = self.useFixture(fake_agent.FakeAgent())
        self.agent.inventory = dict(INVENTORY)

    def _node(self, **kwargs):
        values = {'provision_state': states.MANAGEABLE,
                  'deploy_interface': 'agent', 'boot_interface': 'fake',
                  'inspect_interface': 'agent',
                  'properties': {'vendor': 'kept'}}
        values.update(kwargs)
        return utils.create_test_node(**values)

    def _act(self, node, event):
        self.api.do_provisioning_action(self.context, node, event, {})
        return utils.wait_for_node(node.uuid, _settled)

    def _heartbeat(self, node):
        # The ipxe boot interface would have handed out a token; the fake
        # one does not, so the agent gets one as on lookup.
        node = self.db.update_node(node.id, {
            'driver_internal_info': agent_token.with_new_token(
                node.driver_internal_info)})
        self.api.heartbeat(self.context, node, self.agent.url,
                           agent_version='10.0',
                           agent_token=agent_token.get(
                               node.driver_internal_info))
        return utils.wait_for_node(node.uuid, _settled)

    def _to_inspect_wait(self, node):
        node = self._act(node, 'inspect')
        self.assertEqual(states.INSPECTWAIT, node.provision_state)
        self.assertEqual(states.MANAGEABLE, node.target_provision_state)
        self.assertEqual(inspect_flows.PHASE_INVENTORY,
                         node.driver_internal_info[agent_info.PHASE])
        self.assertEqual(states.POWER_ON, node.driver_internal_info[
            fake.FAKE_POWER_KEY])
        self.assertIsNotNone(node.inspection_started_at)
        self.assertIsNone(node.inspection_finished_at)
        return node

    def test_inspect(self):
        node = self._node()
        utils.create_test_port(node.id, address=OTHER_MAC,
                               pxe_enabled=False)
        node = self._to_inspect_wait(node)
        node = self._heartbeat(node)
        self.assertEqual(states.MANAGEABLE, node.provision_state)
        self.assertIsNone(node.target_provision_state)
        self.assertIsNone(node.last_error)
        self.assertEqual({'vendor': 'kept', 'cpus': 4, 'cpu_arch': 'aarch64',
                          'memory_mb': 8192, 'local_gb': 39,
                          'capabilities': 'boot_mode:bios'},
                         node.properties)
        self.assertIsNotNone(node.inspection_finished_at)
        self.assertGreaterEqual(node.inspection_finished_at,
                                node.inspection_started_at)
        ports = {p.address: p for p in self.db.get_ports_by_node_id(node.id)}
        # [inspector]add_ports=pxe: the boot NIC; the existing port kept.
        self.assertEqual({BOOT_MAC, OTHER_MAC}, set(ports))
        self.assertTrue(ports[BOOT_MAC].pxe_enabled)
        self.assertFalse(ports[OTHER_MAC].pxe_enabled)
        self.assertEqual(1, self.agent.inventories)
        info = node.driver_internal_info
        self.assertEqual(states.POWER_OFF, info[fake.FAKE_POWER_KEY])
        self.assertFalse(agent_token.is_present(info))
        self.assertNotIn(agent_info.PHASE, info)
        self.assertIsNone(persistence.recorded(node))
        # The accelerators were recorded as discovery does.
        self.assertEqual(acc_db.DISCOVERED,
                         self.db.get_accelerator_discovery(node.id)['state'])
        # The inventory is kept for GET .../inventory (1.81).
        kept = self.db.get_node_inventory(node.id)
        self.assertEqual(self.agent.inventory, kept.inventory_data)
        self.assertEqual([BOOT_MAC], kept.plugin_data['added_ports'])
        self.assertEqual(4, kept.plugin_data['properties']['cpus'])

    def test_bmc_addresses_cached_while_waiting(self):
        node = self._node(driver_info={
            'redfish_address': 'https://10.1.2.3:8000/',
            'ipmi_address': '127.0.0.1'})
        node = self._to_inspect_wait(node)
        # IP literals resolve to themselves; a host written in
        # driver_info is kept even when it is a loopback address.
        self.assertEqual(['10.1.2.3', '127.0.0.1'],
                         node.driver_internal_info[bmc_lookup.CACHE])
        node = self._heartbeat(node)
        self.assertEqual(states.MANAGEABLE, node.provision_state)
        self.assertNotIn(bmc_lookup.CACHE, node.driver_internal_info)

    def test_add_ports_all_and_again(self):
        self.config(add_ports='all', group='inspector')
        node = self._node()
        node = self._heartbeat(self._to_inspect_wait(node))
        self.assertEqual(states.MANAGEABLE, node.provision_state)
        macs = sorted(p.address for p in self.db.get_ports_by_node_id(
            node.id))
        self.assertEqual([BOOT_MAC, OTHER_MAC], macs)
        # Inspecting again (from manageable) adds nothing twice.
        node = self._heartbeat(self._to_inspect_wait(node))
        self.assertEqual(states.MANAGEABLE, node.provision_state)
        self.assertEqual(2, len(self.db.get_ports_by_node_id(node.id)))

    def test_keep_ports_and_pxe_enabled(self):
        # Ironic's ports hook: a port whose MAC the inventory does not
        # have is deleted (keep_ports = present), and the boot NIC's
        # port boots from the network, the others not.
        self.config(keep_ports='present', group='inspector')
        node = self._node()
        utils.create_test_port(node.id, address=BOOT_MAC,
                               pxe_enabled=False)
        utils.create_test_port(node.id, address=OTHER_MAC,
                               pxe_enabled=True)
        utils.create_test_port(node.id, address='52:54:00:12:34:99')
        node = self._heartbeat(self._to_inspect_wait(node))
        self.assertEqual(states.MANAGEABLE, node.provision_state)
        self.assertIsNone(node.last_error)
        ports = {p.address: p.pxe_enabled
                 for p in self.db.get_ports_by_node_id(node.id)}
        self.assertEqual({BOOT_MAC: True, OTHER_MAC: False}, ports)

    def test_inventory_not_kept(self):
        self.config(data_backend='none', group='inventory')
        node = self._heartbeat(self._to_inspect_wait(self._node()))
        self.assertEqual(states.MANAGEABLE, node.provision_state)
        self.assertRaises(exception.NodeInventoryNotFound,
                          self.db.get_node_inventory, node.id)

    def test_bad_inventory_fails(self):
        self.agent.inventory = {'cpu': {}, 'interfaces': []}
        node = self._node()
        node = self._heartbeat(self._to_inspect_wait(node))
        self.assertEqual(states.INSPECTFAIL, node.provision_state)
        self.assertIn('inspect-inventory', node.last_error)
        self.assertIsNone(node.inspection_finished_at)
        self.assertEqual({'vendor': 'kept'}, node.properties)
        self.assertEqual([], self.db.get_ports_by_node_id(node.id))
        self.assertEqual(states.POWER_OFF, node.driver_internal_info[
            fake.FAKE_POWER_KEY])
        # Inspect failed: inspect again, or back to manageable.
        self.agent.inventory = dict(INVENTORY)
        node = self._heartbeat(self._to_inspect_wait(node))
        self.assertEqual(states.MANAGEABLE, node.provision_state)

    def _post(self, node, inventory, plugin_data=None):
        self.api.continue_inspection(self.context, node, inventory,
                                     plugin_data or {})
        return utils.wait_for_node(node.uuid, _settled)

    def test_posted_inventory(self):
        # API 1.84: the agent posts its inventory; it is not asked for it.
        node = self._to_inspect_wait(self._node())
        node = self._post(node, dict(INVENTORY), {'from_agent': 'kept'})
        self.assertEqual(states.MANAGEABLE, node.provision_state)
        self.assertIsNone(node.last_error)
        self.assertEqual(4, node.properties['cpus'])
        self.assertEqual(0, self.agent.inventories)
        self.assertNotIn(inspect_flows.POSTED, node.driver_internal_info)
        kept = self.db.get_node_inventory(node.id)
        self.assertEqual(INVENTORY, kept.inventory_data)
        self.assertEqual('kept', kept.plugin_data['from_agent'])
        self.assertEqual([BOOT_MAC], kept.plugin_data['added_ports'])
        # Once only: the node waits for nothing any more.
        self.assertRaises(exception.NotFound, self.api.continue_inspection,
                          self.context, node, dict(INVENTORY), {})

    def test_posted_inventory_not_kept(self):
        self.config(data_backend='none', group='inventory')
        node = self._post(self._to_inspect_wait(self._node()),
                          dict(INVENTORY))
        self.assertEqual(states.MANAGEABLE, node.provision_state)
        self.assertRaises(exception.NodeInventoryNotFound,
                          self.db.get_node_inventory, node.id)

    def test_bad_posted_inventory_changes_nothing(self):
        node = self._to_inspect_wait(self._node())
        self.assertRaises(exception.InvalidParameterValue,
                          self.api.continue_inspection, self.context, node,
                          {'cpu': {}, 'interfaces': []}, {})
        node = self.db.get_node_by_uuid(node.uuid)
        self.assertEqual(states.INSPECTWAIT, node.provision_state)
        self.assertIsNone(node.reservation)
        self.assertRaises(exception.NodeInventoryNotFound,
                          self.db.get_node_inventory, node.id)
        # The heartbeat path still works afterwards.
        self.assertEqual(states.MANAGEABLE,
                         self._heartbeat(node).provision_state)

    def test_post_refused_unless_waiting(self):
        node = self._node()
        self.assertRaises(exception.NotFound, self.api.continue_inspection,
                          self.context, node, dict(INVENTORY), {})
        self.assertEqual(states.MANAGEABLE, self.db.get_node_by_uuid(
            node.uuid).provision_state)

    def test_agent_command_failure_fails(self):
        node = self._to_inspect_wait(self._node())
        # The agent is gone: its URL answers nothing.
        self.agent.server.shutdown()
        self.agent.server.server_close()
        node = self._heartbeat(node)
        self.assertEqual(states.INSPECTFAIL, node.provision_state)
        self.assertIn('Inspection failed', node.last_error)

    def test_abort(self):
        node = self._to_inspect_wait(self._node())
        node = self._act(node, 'abort')
        node = utils.wait_for_node(
            node.uuid, lambda n: n.driver_internal_info.get(
                fake.FAKE_POWER_KEY) == states.POWER_OFF)
        self.assertEqual(states.INSPECTFAIL, node.provision_state)
        self.assertEqual('Aborted by request.', node.last_error)
        self.assertNotIn(agent_info.PHASE, node.driver_internal_info)
        # A late heartbeat changes nothing.
        self.assertEqual(0, self.agent.inventories)

    def test_node_that_cannot_be_inspected_is_refused(self):
        # fake-hardware's default: no-inspect.
        node = self._node(inspect_interface=None)
        self.assertRaises(exception.UnsupportedDriverExtension,
                          self.api.do_provisioning_action,
                          self.context, node, 'inspect', {})
        self.assertEqual(states.MANAGEABLE, self.db.get_node_by_uuid(
            node.uuid).provision_state)

    def test_wait_timeout(self):
        self.config(inspect_wait_timeout=60, group='conductor')
        node = self._to_inspect_wait(self._node())
        self.assertIsNone(inspection.wait_overdue(node))
        self.db.update_node(node.id, {'inspection_started_at':
                                      node.inspection_started_at.replace(
                                          year=2000)})
        rows = [(node.id, node.uuid, None, None, None, None, False,
                 states.INSPECTWAIT)]
        self.assertEqual({node.uuid: 'failed'},
                         agent_timeouts.check_nodes(self.context, rows))
        node = self.db.get_node_by_uuid(node.uuid)
        self.assertEqual(states.INSPECTFAIL, node.provision_state)
        self.assertIn('inspect_wait_timeout', node.last_error)
        self.assertEqual(states.POWER_OFF, node.driver_internal_info[
            fake.FAKE_POWER_KEY])

    def test_fake_inspect_interface(self):
        # Ironic's fake inspection: over at once, nothing changed.
        self.config(enabled_inspect_interfaces=['fake', 'no-inspect',
                                                'agent'])
        node = self._act(self._node(inspect_interface='fake'), 'inspect')
        self.assertEqual(states.MANAGEABLE, node.provision_state)
        self.assertIsNone(node.target_provision_state)
        self.assertIsNone(node.last_error)
        self.assertEqual({'vendor': 'kept'}, node.properties)
        self.assertIsNotNone(node.inspection_finished_at)
        self.assertEqual(0, self.agent.inventories)
        self.assertEqual([], self.db.get_port_list(
            filters={'node_id': node.id}))
