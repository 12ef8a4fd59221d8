"""Inspection rules (Ironic 1.96): create, show, list, update, delete; and
a rule applied when a node's agent posts its inventory (the test plays
the agent; the node's boot interface is fake, so no ramdisk boots). The
rule's condition names this test's inventory only, so inspections of
other tests running meanwhile are left alone."""

from tempest.lib.common.utils import data_utils
from tempest.lib import decorators
from tempest.lib import exceptions as lib_exc

from ironic_like.tests.tempest.api import base

ACTIONS = [{'op': 'log', 'args': {'msg': 'tempest rule'}}]


class TestInspectionRules(base.BaseBaremetalLikeTest):

    min_microversion = '1.96'

    def create_rule(self, **fields):
        rule = self.client.create_inspection_rule(**fields)
        self.addCleanup(self._ignore_not_found,
                        self.client.delete_inspection_rule, rule['uuid'])
        return rule

    @decorators.idempotent_id('0b7e3f5a-9c21-4d68-8f43-2a6e1d9c7b58')
    def test_crud(self):
        rule = self.create_rule(actions=ACTIONS, priority=42,
                                description='tempest')
        self.assertEqual(('main', False), (rule['phase'], rule['sensitive']))
        shown = self.client.show_inspection_rule(rule['uuid'])
        self.assertEqual(ACTIONS, shown['actions'])
        listed = self.client.list_inspection_rules(limit=1000)
        self.assertIn(rule['uuid'], [r['uuid'] for r in
                                     listed['inspection_rules']])
        updated = self.client.update_inspection_rule(rule['uuid'], [
            {'op': 'replace', 'path': '/sensitive', 'value': True}])
        self.assertIsNone(updated['actions'])
        self.assertRaises(lib_exc.BadRequest,
                          self.client.update_inspection_rule, rule['uuid'],
                          [{'op': 'replace', 'path': '/sensitive',
                            'value': False}])
        self.assertRaises(lib_exc.BadRequest,
                          self.client.create_inspection_rule,
                          actions=[{'op': 'add-trait', 'args': {}}])
        self.client.delete_inspection_rule(rule['uuid'])
        self.assertRaises(lib_exc.NotFound,
                          self.client.show_inspection_rule, rule['uuid'])
        with self.client.microversion('1.95'):
            self.assertRaises(lib_exc.NotFound,
                              self.client.list_inspection_rules)

    @decorators.idempotent_id('5d1a8c3e-7f94-4b20-a6e5-3c9b0f2d4e71')
    def test_rule_applied_at_inspection(self):
        serial = data_utils.rand_name('tempest-serial')
        trait = 'CUSTOM_' + data_utils.rand_name('T').upper().replace(
            '-', '_')
        self.create_rule(
            conditions=[{'op': 'eq', 'args': {'values': [
                '{inventory[system_vendor][serial_number]}', serial]}}],
            actions=[{'op': 'add-trait', 'args': {'name': trait}},
                     {'op': 'set-attribute',
                      'args': {'path': '/extra/serial',
                               'value': '{inventory[system_vendor]'
                                        '[serial_number]}'}}])
        node = self.create_node(deploy_interface='agent',
                                boot_interface='fake',
                                inspect_interface='agent')
        mac = data_utils.rand_mac_address()
        self.create_port(node['uuid'], address=mac)
        self.client.set_node_provision_state(node['uuid'], 'manage')
        self.wait_for_provision_state(node['uuid'], 'manageable')
        self.client.set_node_provision_state(node['uuid'], 'inspect')
        self.wait_for_provision_state(node['uuid'], 'inspect wait')
        self.post_inventory({
            'cpu': {'count': 2, 'architecture': 'x86_64'},
            'memory': {'physical_mb': 4096},
            'disks': [{'name': '/dev/sda', 'size': 20 * 1024 ** 3}],
            'interfaces': [{'name': 'eth0', 'mac_address': mac}],
            'system_vendor': {'serial_number': serial},
            'boot': {'current_boot_mode': 'uefi', 'pxe_interface': mac}})
        shown = self.wait_for_provision_state(node['uuid'], 'manageable')
        self.assertEqual(serial, shown['extra']['serial'])
        self.assertEqual([trait], self.client.list_node_traits(
            node['uuid'])['traits'])
