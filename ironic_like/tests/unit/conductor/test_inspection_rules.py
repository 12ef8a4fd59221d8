"""Inspection rules (API 1.96) applied at the end of an inspection through
the agent: a running conductor, fake power and boot, a fake agent."""

import os

import fixtures

from ironic_like.common import states
from ironic_like.tests.unit.conductor import test_inspection as base

BMC = '10.9.8.7'


def _rule(actions, conditions=(), **values):
    return dict({'actions': list(actions), 'conditions': list(conditions),
                 'priority': 0, 'phase': 'main', 'sensitive': False},
                **values)


class TestInspectionRules(base.InspectionTestCase):

    def setUp(self):
        super().setUp()
        self.agent.inventory = dict(base.INVENTORY, bmc_address=BMC,
                                    system_vendor={'manufacturer': 'Dell'})

    def _inspect(self, **node_values):
        node = self._node(**node_values)
        return self._heartbeat(self._to_inspect_wait(node))

    def test_matching_rules_change_node_ports_and_plugin_data(self):
        self.db.create_inspection_rule(_rule(
            [{'op': 'set-attribute',
              'args': {'path': '/driver_info/ipmi_address',
                       'value': '{inventory[bmc_address]}'}},
             {'op': 'add-trait', 'args': {'name': 'CUSTOM_DELL'}},
             {'op': 'set-capability',
              'args': {'name': 'vendor', 'value': 'dell'}},
             {'op': 'set-port-attribute',
              'args': {'port_id': base.BOOT_MAC,
                       'path': '/physical_network', 'value': 'prov'}},
             {'op': 'set-plugin-data',
              'args': {'path': 'rack', 'value': 'r7'}}],
            [{'op': 'contains',
              'args': {'value': '{inventory[system_vendor][manufacturer]}',
                       'regex': '(?i)dell'}}]))
        # Not matching: nothing of it happens.
        self.db.create_inspection_rule(_rule(
            [{'op': 'add-trait', 'args': {'name': 'CUSTOM_HP'}}],
            [{'op': 'eq', 'args': {'values': [
                '{inventory[system_vendor][manufacturer]}', 'HP']}}]))
        node = self._inspect()
        self.assertEqual(states.MANAGEABLE, node.provision_state)
        self.assertIsNone(node.last_error)
        self.assertEqual(BMC, node.driver_info['ipmi_address'])
        self.assertEqual(['CUSTOM_DELL'], [t.trait for t in node.traits])
        self.assertEqual('boot_mode:bios,vendor:dell',
                         node.properties['capabilities'])
        port = self.db.get_port_by_address(base.BOOT_MAC)
        self.assertEqual('prov', port.physical_network)
        kept = self.db.get_node_inventory(node.id)
        self.assertEqual('r7', kept.plugin_data['rack'])

    def test_fail_action_fails_inspection(self):
        self.db.create_inspection_rule(_rule(
            [{'op': 'fail', 'args': {'msg': 'no BMC for you'}}],
            [{'op': 'is-true', 'args': {'value': True}}]))
        node = self._inspect()
        self.assertEqual(states.INSPECTFAIL, node.provision_state)
        self.assertIn('no BMC for you', node.last_error)

    def test_rule_that_cannot_run_fails_and_changes_nothing(self):
        # The second action fails: the first one's change is not written.
        self.db.create_inspection_rule(_rule(
            [{'op': 'add-trait', 'args': {'name': 'CUSTOM_FIRST'}},
             {'op': 'set-attribute',
              'args': {'path': '/driver', 'value': 'ipmi'}}]))
        node = self._inspect()
        self.assertEqual(states.INSPECTFAIL, node.provision_state)
        self.assertIn('driver', node.last_error)
        self.assertEqual([], [t.trait for t in node.traits])
        self.assertEqual('fake-hardware', node.driver)

    def _built_in_rules(self, text):
        """[inspection_rules]built_in_rules: a file holding ``text``;
        returns its path."""
        path = os.path.join(self.useFixture(fixtures.TempDir()).path,
                            'rules.yaml')
        with open(path, 'w') as f:
            f.write(text)
        self.config(built_in_rules=path, group='inspection_rules')
        return path

    def test_built_in_rules_outlive_deleting_all(self):
        # DELETE /v1/inspection_rules removes the stored rules only.
        self._built_in_rules('- actions:\n'
                             '  - op: add-trait\n'
                             '    args: {name: CUSTOM_BUILTIN}\n')
        self.db.create_inspection_rule(_rule(
            [{'op': 'add-trait', 'args': {'name': 'CUSTOM_STORED'}}]))
        self.db.destroy_all_inspection_rules()
        node = self._inspect()
        self.assertEqual(['CUSTOM_BUILTIN'], [t.trait for t in node.traits])

    def test_built_in_rules_file(self):
        path = self._built_in_rules(
            '- actions:\n'
            '  - op: set-attribute\n'
            '    args: {path: /extra/builtin, value: "yes"}\n')
        node = self._inspect()
        self.assertEqual('yes', node.extra['builtin'])
        # A broken file fails inspection, naming the file.
        with open(path, 'w') as f:
            f.write('not: [a list')
        node = self._heartbeat(self._to_inspect_wait(node))
        self.assertEqual(states.INSPECTFAIL, node.provision_state)
        self.assertIn(path, node.last_error)
