"""Out-of-band inspection with the redfish inspect interface, end to end
in one process: a running conductor, sushy mocked (a BMC answering
tests/unit/drivers/test_redfish_inspect.make_system())."""

import os

import fixtures
import sushy

from ironic_like.common import exception
from ironic_like.common import states
from ironic_like.conf import CONF
from ironic_like.tests.unit.conductor import test_inspection_rules
from ironic_like.tests.unit.conductor import utils as cond_utils
from ironic_like.tests.unit.db import utils
from ironic_like.tests.unit.drivers import test_redfish_inspect as samples

NIC1 = samples.NIC1
NIC2 = samples.NIC2
_rule = test_inspection_rules._rule


def _settled(node):
    return node.provision_state not in states.TRANSIENT_STATES


class RedfishInspectionTestCase(cond_utils.ConductorTestCase):

    def setUp(self):
        # The conductor serves redfish nodes from its start.
        for name, value in (('enabled_hardware_types',
                             ['fake-hardware', 'redfish']),
                            ('enabled_inspect_interfaces',
                             ['no-inspect', 'agent', 'redfish'])):
            CONF.set_override(name, value)
            self.addCleanup(CONF.clear_override, name)
        super().setUp()
        self.bmc = self.useFixture(samples.SushyFixture())

    def _node(self, **kwargs):
        values = {'driver': 'redfish', 'provision_state': states.MANAGEABLE,
                  'inspect_interface': 'redfish', 'boot_interface': 'fake',
                  'deploy_interface': 'fake',
                  'driver_info': samples.driver_info(),
                  'properties': {'vendor': 'kept'}}
        values.update(kwargs)
        return utils.create_test_node(**values)

    def _inspect(self, node):
        self.api.do_provisioning_action(self.context, node, 'inspect', {})
        return utils.wait_for_node(node.uuid, _settled)

    def _ports(self, node):
        return {p.address: p for p in self.db.get_ports_by_node_id(node.id)}

    def test_inspect(self):
        node = self._node()
        utils.create_test_port(node.id, address=NIC1, pxe_enabled=False)
        node = self._inspect(node)
        self.assertEqual(states.MANAGEABLE, node.provision_state)
        self.assertIsNone(node.target_provision_state)
        self.assertIsNone(node.last_error)
        self.assertEqual(dict(samples.EXPECTED_PROPERTIES, vendor='kept'),
                         node.properties)
        self.assertIsNotNone(node.inspection_started_at)
        self.assertGreaterEqual(node.inspection_finished_at,
                                node.inspection_started_at)
        # [inspector]add_ports=pxe, the boot NIC unknown: every NIC; the
        # existing port kept as it was, the new one may PXE boot.
        ports = self._ports(node)
        self.assertEqual({NIC1, NIC2}, set(ports))
        self.assertFalse(ports[NIC1].pxe_enabled)
        self.assertTrue(ports[NIC2].pxe_enabled)
        kept = self.db.get_node_inventory(node.id)
        self.assertEqual(samples.EXPECTED_INVENTORY, kept.inventory_data)
        self.assertEqual(dict(samples.EXPECTED_PLUGIN_DATA,
                              properties=node.properties,
                              added_ports=[NIC2]), kept.plugin_data)
        # Nothing was booted nor powered: the fake system has no
        # reset_system nor set_system_boot_options, a call would fail.

        # Again: nothing added twice, the inventory replaced.
        self.bmc.system.memory_summary = samples.Fake(size_gib=32)
        node = self._inspect(node)
        self.assertEqual(states.MANAGEABLE, node.provision_state)
        self.assertEqual(32768, node.properties['memory_mb'])
        self.assertEqual(2, len(self._ports(node)))
        kept = self.db.get_node_inventory(node.id)
        self.assertEqual([], kept.plugin_data['added_ports'])
        self.assertEqual({'physical_mb': 32768},
                         kept.inventory_data['memory'])

    def test_add_ports_options(self):
        self.config(add_ports='disabled', group='inspector')
        node = self._inspect(self._node())
        self.assertEqual(states.MANAGEABLE, node.provision_state)
        self.assertEqual({}, self._ports(node))
        # Ironic's: the BMC knows no IP address, no NIC is "active".
        self.config(add_ports='active', group='inspector')
        node = self._inspect(node)
        self.assertEqual(states.INSPECTFAIL, node.provision_state)
        self.assertIn('add_ports = active', node.last_error)
        self.assertEqual({}, self._ports(node))
        self.config(add_ports='all', group='inspector')
        node = self._inspect(node)
        self.assertEqual(states.MANAGEABLE, node.provision_state)
        self.assertIsNone(node.last_error)
        self.assertEqual({NIC1, NIC2}, set(self._ports(node)))

    def test_mac_of_another_nodes_port_is_skipped(self):
        other = self._node(driver='fake-hardware', inspect_interface=None,
                           boot_interface=None, deploy_interface=None)
        utils.create_test_port(other.id, address=NIC2)
        node = self._inspect(self._node())
        self.assertEqual(states.MANAGEABLE, node.provision_state)
        self.assertEqual({NIC1}, set(self._ports(node)))

    def test_inventory_not_kept(self):
        self.config(data_backend='none', group='inventory')
        node = self._inspect(self._node())
        self.assertEqual(states.MANAGEABLE, node.provision_state)
        self.assertRaises(exception.NodeInventoryNotFound,
                          self.db.get_node_inventory, node.id)

    def _fails_changing_nothing(self, node, *fragments):
        self.assertEqual(states.INSPECTFAIL, node.provision_state)
        self.assertTrue(node.last_error.startswith('Inspection failed: '),
                        node.last_error)
        for fragment in fragments:
            self.assertIn(fragment, node.last_error)
        self.assertNotIn('secret', node.last_error)
        self.assertEqual({'vendor': 'kept'}, node.properties)
        self.assertEqual({}, self._ports(node))
        self.assertRaises(exception.NodeInventoryNotFound,
                          self.db.get_node_inventory, node.id)
        self.assertIsNone(node.inspection_finished_at)
        self.assertIsNone(node.reservation)

    def test_bmc_unreachable_fails(self):
        self.bmc.sushy_cls.side_effect = sushy.exceptions.ConnectionError(
            url=samples.ADDRESS, error='Connection refused')
        node = self._inspect(self._node())
        self._fails_changing_nothing(
            node, 'Redfish system %s at %s' % (samples.SYSTEM,
                                               samples.ADDRESS),
            'reading the system for inspection failed', 'Connection refused')
        # From inspect failed, inspect again once the BMC answers.
        self.bmc.sushy_cls.side_effect = None
        node = self._inspect(node)
        self.assertEqual(states.MANAGEABLE, node.provision_state)
        self.assertEqual(16384, node.properties['memory_mb'])

    def test_nic_read_error_fails(self):
        self.bmc.system.fail('ethernet_interfaces',
                             sushy.exceptions.SushyError('HTTP 500'))
        self._fails_changing_nothing(self._inspect(self._node()),
                                     'reading the network interfaces '
                                     'failed', 'HTTP 500')

    def test_no_nic_fails(self):
        self.bmc.system.ethernet_interfaces = samples.collection([])
        self._fails_changing_nothing(self._inspect(self._node()),
                                     'no network interface')

    def test_missing_memory_fails(self):
        self.bmc.system.memory_summary = None
        self._fails_changing_nothing(
            self._inspect(self._node()),
            'Failed to discover the following properties: memory_mb')

    def test_unexpected_error_fails(self):
        self.bmc.system.fail('processors', KeyError('Members'))
        self._fails_changing_nothing(
            self._inspect(self._node()),
            'unexpected exception of type KeyError')

    def test_rules_applied(self):
        # A stored rule of phase main and a built-in one; both see the
        # BMC's inventory and what inspection recorded.
        self.db.create_inspection_rule(_rule(
            [{'op': 'add-trait', 'args': {'name': 'CUSTOM_DELL'}},
             {'op': 'set-port-attribute',
              'args': {'port_id': NIC1, 'path': '/physical_network',
                       'value': 'prov'}},
             {'op': 'set-plugin-data',
              'args': {'path': 'rack', 'value': 'r7'}}],
            [{'op': 'contains',
              'args': {'value': '{inventory[system_vendor][manufacturer]}',
                       'regex': '(?i)dell'}},
             {'op': 'eq', 'args': {'values': [
                 '{node.properties[memory_mb]}', '16384']}}]))
        self.db.create_inspection_rule(_rule(
            [{'op': 'add-trait', 'args': {'name': 'CUSTOM_HP'}}],
            [{'op': 'eq', 'args': {'values': [
                '{inventory[system_vendor][manufacturer]}', 'HP']}}]))
        path = os.path.join(self.useFixture(fixtures.TempDir()).path,
                            'rules.yaml')
        with open(path, 'w') as f:
            f.write('- phase: main\n'
                    '  conditions: []\n'
                    '  actions:\n'
                    '  - op: set-attribute\n'
                    '    args: {path: /extra/bmc_model, value: '
                    '"{inventory[system_vendor][product_name]}"}\n')
        self.config(built_in_rules=path, group='inspection_rules')
        node = self._inspect(self._node())
        self.assertEqual(states.MANAGEABLE, node.provision_state)
        self.assertIsNone(node.last_error)
        self.assertEqual(['CUSTOM_DELL'], [t.trait for t in node.traits])
        self.assertEqual('PowerEdge R650', node.extra['bmc_model'])
        self.assertEqual('prov', self._ports(node)[NIC1].physical_network)
        self.assertEqual('r7',
                         self.db.get_node_inventory(node.id).plugin_data[
                             'rack'])

    def test_failing_rule_fails(self):
        self.db.create_inspection_rule(_rule(
            [{'op': 'fail', 'args': {'msg': 'not this model'}}],
            [{'op': 'eq', 'args': {'values': [
                '{inventory[system_vendor][product_name]}',
                'PowerEdge R650']}}]))
        node = self._inspect(self._node())
        self.assertEqual(states.INSPECTFAIL, node.provision_state)
        self.assertIn('not this model', node.last_error)
        # As in-band: what inspection recorded before the rules stays.
        self.assertEqual(16384, node.properties['memory_mb'])
