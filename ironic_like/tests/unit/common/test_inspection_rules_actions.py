"""Actions, run through apply_rules."""

import logging
import types

import fixtures
import testtools

from ironic_like.common.inspection_rules import engine
from ironic_like.common.inspection_rules import validation

PORT = '11111111-1111-1111-1111-111111111111'
INVENTORY = {
    'bmc_address': '10.0.0.9', 'cpu': {'architecture': 'x86_64'},
    'interfaces': [{'name': 'eth0', 'mac_address': '52:54:00:00:00:01'},
                   {'name': 'eth1', 'mac_address': '52:54:00:00:00:02'}]}


class ActionTest(testtools.TestCase):

    def setUp(self):
        super().setUp()
        self.node = types.SimpleNamespace(uuid='node-uuid', name='node-1',
                                          driver='ipmi')
        self.changes = engine.NodeChanges(
            {'name': 'node-1', 'properties': {}, 'extra': {},
             'driver_info': {}}, ['CUSTOM_OLD'],
            [{'uuid': PORT, 'address': '52:54:00:00:00:01', 'extra': {},
              'pxe_enabled': False, 'local_link_connection': {},
              'physical_network': None, 'is_smartnic': False}])
        self.plugin_data = {'root_disk': {'name': '/dev/sda'}}
        self.log = self.useFixture(fixtures.FakeLogger(level=logging.DEBUG))

    def run_actions(self, *actions):
        """Run a rule of these actions: (op, args[, other fields])."""
        rule = validation.validate_rule({
            'uuid': 'rule-1',
            'actions': [dict(action[2] if len(action) > 2 else {},
                             op=action[0], args=action[1])
                        for action in actions]})
        return engine.apply_rules([rule], self.changes, self.node,
                                  INVENTORY, self.plugin_data)

    def assertRuleError(self, text, *actions):
        exc = self.assertRaises(engine.RuleError, self.run_actions, *actions)
        self.assertIn(text, str(exc))
        self.assertEqual('rule-1', exc.rule_uuid)
        self.assertIsInstance(exc, engine.RuleEngineError)
        return exc


class TestNodeActions(ActionTest):

    def test_set_attribute(self):
        self.run_actions(
            ('set-attribute', {'path': '/driver_info/ipmi_address',
                               'value': '{inventory[bmc_address]}'}),
            ('set-attribute', {'path': 'extra.arch',
                               'value': '{inventory[cpu][architecture]}'}),
            ('set-attribute', {'path': 'properties/cpu',
                               'value': {'{inventory[cpu][architecture]}':
                                         ['{node.driver}', 1]}}))
        self.assertEqual({
            'driver_info': {'ipmi_address': '10.0.0.9'},
            'extra': {'arch': 'x86_64'},
            'properties': {'cpu': {'x86_64': ['ipmi', 1]}},
        }, self.changes.changed_fields())

    def test_path_is_not_interpolated_outside_loops(self):
        self.run_actions(('set-attribute', {'path': '/extra/{node.name}',
                                            'value': 1}))
        self.assertEqual({'{node.name}': 1},
                         self.changes.fields['extra'])

    def test_set_attribute_not_writable(self):
        exc = self.assertRuleError(
            "Inspection rule rule-1, actions[1] (op 'set-attribute'): "
            "/driver: 'driver' is not a writable node field; writable "
            "fields: driver_info, extra, name, properties",
            ('log', {'msg': 'x'}),
            ('set-attribute', {'path': '/driver', 'value': 'idrac'}))
        self.assertEqual('set-attribute', exc.op)

    def test_extend_attribute(self):
        self.run_actions(
            ('extend-attribute', {'path': '/extra/macs',
                                  'value': '{inventory[bmc_address]}'}),
            ('extend-attribute', {'path': '/extra/macs', 'value': '10.0.0.9',
                                  'unique': True}))
        self.assertEqual({'macs': ['10.0.0.9']}, self.changes.fields['extra'])
        self.assertRuleError("(op 'extend-attribute'): invalid path "
                             "'/extra/macs/0': 'macs' is a list, not a "
                             "dictionary",
                             ('extend-attribute', {'path': '/extra/macs/0',
                                                   'value': 1}))

    def test_extend_non_list(self):
        self.assertRuleError('not a list', ('extend-attribute', {
            'path': '/name', 'value': 'x'}))

    def test_del_attribute(self):
        self.changes.fields['extra'] = {'a': 1, 'b': 2}
        self.run_actions(('del-attribute', {'path': '/extra/a'}),
                         ('del-attribute', {'path': '/extra/zzz'}))
        self.assertEqual({'b': 2}, self.changes.fields['extra'])
        self.assertRuleError('not a writable node field',
                             ('del-attribute', {'path': '/uuid'}))

    def test_capabilities(self):
        self.run_actions(
            ('set-capability', {'name': 'cpu_arch',
                                'value': '{inventory[cpu][architecture]}'}),
            ('set-capability', {'name': 'boot_mode', 'value': 'uefi'}),
            ('unset-capability', {'name': 'cpu_arch'}))
        self.assertEqual({'capabilities': 'boot_mode:uefi'},
                         self.changes.fields['properties'])
        self.assertRuleError("(op 'set-capability'): invalid capability "
                             "name", ('set-capability', {'name': 'a:b',
                                                         'value': 1}))

    def test_traits(self):
        self.run_actions(('add-trait', {'name': 'CUSTOM_NEW'}),
                         ('remove-trait', {'name': 'CUSTOM_OLD'}),
                         ('remove-trait', {'name': 'CUSTOM_ABSENT'}))
        self.assertEqual(['CUSTOM_NEW'], self.changes.traits)
        self.assertTrue(self.changes.traits_changed())
        self.assertRuleError("(op 'add-trait'): invalid trait",
                             ('add-trait', {'name': ''}))


class TestPluginDataActions(ActionTest):

    def test_set(self):
        self.run_actions(
            ('set-plugin-data', {'path': 'root_disk.size', 'value': 100}),
            ('set-plugin-data', {'path': '/new/deep/key',
                                 'value': '{inventory[bmc_address]}'}))
        self.assertEqual({'root_disk': {'name': '/dev/sda', 'size': 100},
                          'new': {'deep': {'key': '10.0.0.9'}}},
                         self.plugin_data)
        self.assertRuleError("(op 'set-plugin-data'): invalid path "
                             "'root_disk.name.x'", ('set-plugin-data', {
                                 'path': 'root_disk.name.x', 'value': 1}))

    def test_extend(self):
        self.run_actions(
            ('extend-plugin-data', {'path': 'seen', 'value': 'a'}),
            ('extend-plugin-data', {'path': 'seen', 'value': 'a'}),
            ('extend-plugin-data', {'path': 'seen', 'value': 'a',
                                    'unique': 'true'}))
        self.assertEqual(['a', 'a'], self.plugin_data['seen'])
        self.assertRuleError('not a list', ('extend-plugin-data', {
            'path': 'root_disk', 'value': 1}))

    def test_unset(self):
        self.plugin_data['single'] = 1
        self.run_actions(('unset-plugin-data', {'path': 'root_disk.name'}),
                         ('unset-plugin-data', {'path': 'single'}),
                         ('unset-plugin-data', {'path': 'missing.key'}))
        self.assertEqual({'root_disk': {}}, self.plugin_data)

    def test_later_actions_see_plugin_data_changes(self):
        self.run_actions(
            ('set-plugin-data', {'path': 'vendor', 'value': 'dell'}),
            ('set-attribute', {'path': '/extra/vendor',
                               'value': '{plugin_data[vendor]}'}))
        self.assertEqual({'vendor': 'dell'}, self.changes.fields['extra'])


class TestPortActions(ActionTest):

    def test_by_mac_and_uuid(self):
        self.run_actions(
            ('set-port-attribute', {'port_id': '52:54:00:00:00:01',
                                    'path': '/physical_network',
                                    'value': 'physnet1'}),
            ('extend-port-attribute', {'port_id': PORT,
                                       'path': '/extra/tags', 'value': 'x'}),
            ('set-port-attribute', {'port_id': PORT, 'path': '/pxe_enabled',
                                    'value': True}),
            ('del-port-attribute', {'port_id': PORT,
                                    'path': '/physical_network'}))
        self.assertEqual({PORT: {'extra': {'tags': ['x']},
                                 'pxe_enabled': True}},
                         self.changes.changed_ports())

    def test_loop_over_interfaces(self):
        # The unknown eth1 fails the rule: there is no such port.
        exc = self.assertRuleError(
            "actions[0] (op 'set-port-attribute'): port "
            "'52:54:00:00:00:02' not found",
            ('set-port-attribute', {'port_id': '{item[mac_address]}',
                                    'path': '/extra/ifname',
                                    'value': '{item[name]}'},
             {'loop': INVENTORY['interfaces']}))
        self.assertIsNotNone(exc)
        self.assertEqual({'ifname': 'eth0'},
                         self.changes.ports[0]['extra'])

    def test_unwritable_port_field(self):
        self.assertRuleError('is not a writable port field', (
            'set-port-attribute', {'port_id': PORT, 'path': '/node_uuid',
                                   'value': 'x'}))


class TestFailAndLog(ActionTest):

    def test_fail(self):
        exc = self.assertRaises(engine.RuleFailed, self.run_actions,
                                ('add-trait', {'name': 'CUSTOM_X'}),
                                ('fail', {'msg': 'unsupported hardware'}),
                                ('add-trait', {'name': 'CUSTOM_Y'}))
        self.assertEqual('unsupported hardware', str(exc))
        self.assertEqual('rule-1', exc.rule_uuid)
        self.assertIsInstance(exc, engine.RuleEngineError)
        self.assertEqual(['CUSTOM_OLD', 'CUSTOM_X'], self.changes.traits)

    def test_log(self):
        self.run_actions(
            ('log', {'msg': 'node {node.name} at {inventory[bmc_address]}'}),
            ('log', {'msg': 'careful', 'level': 'WARNING'}),
            ('log', {'msg': 'password=hunter2', 'level': 'error'}))
        output = self.log.output
        self.assertIn('Inspection rule rule-1: node node-1 at 10.0.0.9',
                      output)
        self.assertIn('careful', output)
        self.assertNotIn('hunter2', output)

    def test_log_levels(self):
        logger = logging.getLogger(
            'ironic_like.common.inspection_rules.actions')
        records = []
        handler = logging.Handler()
        handler.emit = records.append
        logger.addHandler(handler)
        self.addCleanup(logger.removeHandler, handler)
        for level in ('debug', 'info', 'warning', 'error', 'critical'):
            self.run_actions(('log', {'msg': level, 'level': level}))
        self.assertEqual(['DEBUG', 'INFO', 'WARNING', 'ERROR', 'CRITICAL'],
                         [r.levelname for r in records])

    def test_bad_log_level_at_run_time(self):
        self.assertRuleError("(op 'log'): invalid log level 'loud'", (
            'log', {'msg': 'x', 'level': '{item}'}, {'loop': ['loud']}))

    def test_sensitive_rule_args_not_logged(self):
        rule = validation.validate_rule({
            'uuid': 'secret-rule', 'sensitive': True,
            'conditions': [{'op': 'eq', 'args': {'values': ['s3cr3t', 2]}}],
            'actions': [{'op': 'log', 'args': {'msg': 'x'}}]})
        engine.apply_rules([rule], self.changes, self.node, {}, {})
        self.assertIn('secret-rule skipped', self.log.output)
        self.assertNotIn('s3cr3t', self.log.output)
        rule['sensitive'] = False
        engine.apply_rules([rule], self.changes, self.node, {}, {})
        self.assertIn('s3cr3t', self.log.output)
