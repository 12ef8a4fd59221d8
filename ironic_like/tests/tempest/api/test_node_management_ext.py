"""The node management of Ironic 1.63-1.77 on the clustered service:
indicators of a fake node (kept by its conductor across processes), the
boot mode and secure boot changes (asynchronous; the node's fields show
them), and fields= on drivers."""

import uuid

from tempest.lib import decorators
from tempest.lib import exceptions as lib_exc

from ironic_like.tests.tempest.api import base


class TestNodeManagementExt(base.BaseBaremetalLikeTest):

    min_microversion = '1.77'

    @decorators.idempotent_id('5d0c9a1e-7f3b-4c26-8e41-2a9b6f0d3c71')
    def test_indicators_of_a_fake_node(self):
        node = self.create_node()
        found = self.client.list_node_indicators(node['uuid'])['indicators']
        by_name = {i['name']: i for i in found}
        self.assertEqual({'led@system', 'led-0@chassis'}, set(by_name))
        self.assertFalse(by_name['led@system']['readonly'])
        self.assertEqual('system', by_name['led@system']['component'])
        self.assertEqual('OFF', self.client.show_node_indicator(
            node['uuid'], 'led@system')['state'])
        self.client.set_node_indicator(node['uuid'], 'led@system',
                                       'BLINKING')
        self.assertEqual('BLINKING', self.client.show_node_indicator(
            node['uuid'], 'led@system')['state'])
        # A read-only one, a state it cannot take, a malformed name.
        for name, state in (('led-0@chassis', 'ON'),
                            ('led@system', 'PURPLE'), ('led', 'ON')):
            self.assertRaises(lib_exc.BadRequest,
                              self.client.set_node_indicator, node['uuid'],
                              name, state)
        self.assertEqual('BLINKING', self.client.show_node_indicator(
            node['uuid'], 'led@system')['state'])
        self.assertRaises(lib_exc.NotFound,
                          self.client.list_node_indicators,
                          str(uuid.uuid4()))

    @decorators.idempotent_id('8b2e4f60-1c7d-4a93-b5e8-0d6f2c9a4e15')
    def test_boot_mode_and_secure_boot(self):
        node = self.create_node()
        self.assertIsNone(node['boot_mode'])
        self.client.set_node_boot_mode(node['uuid'], 'bios')
        self.wait_for(lambda: self.client.show_node(node['uuid'])[
            'boot_mode'] == 'bios', 'boot mode bios')
        self.client.set_node_secure_boot(node['uuid'], True)
        self.wait_for(lambda: self.client.show_node(node['uuid'])[
            'secure_boot'] is True, 'secure boot on')
        self.client.set_node_secure_boot(node['uuid'], False)
        self.wait_for(lambda: self.client.show_node(node['uuid'])[
            'secure_boot'] is False, 'secure boot off')
        self.assertRaises(lib_exc.BadRequest,
                          self.client.set_node_boot_mode, node['uuid'],
                          'legacy')
        self.assertRaises(lib_exc.BadRequest,
                          self.client.set_node_secure_boot, node['uuid'],
                          'maybe')
        shown = self.client.show_node(node['uuid'])
        self.assertEqual(('bios', False),
                         (shown['boot_mode'], shown['secure_boot']))
        self.assertIsNone(shown['last_error'])

    @decorators.idempotent_id('e4a71c38-9d52-4f0b-a2c6-7b3e8d1f5a96')
    def test_driver_fields(self):
        listed = self.client.list_drivers(fields='name')['drivers']
        self.assertIn('fake-hardware', [d['name'] for d in listed])
        for driver in listed:
            self.assertEqual({'name', 'links'}, set(driver))
        shown = self.client.show_driver(
            'fake-hardware', fields='name,default_management_interface')
        self.assertEqual({'name': 'fake-hardware',
                          'default_management_interface': 'fake'},
                         {k: v for k, v in shown.items() if k != 'links'})
        self.assertRaises(lib_exc.BadRequest, self.client.list_drivers,
                          fields='name', detail='True')
        self.assertRaises(lib_exc.BadRequest, self.client.show_driver,
                          'fake-hardware', fields='colour')
