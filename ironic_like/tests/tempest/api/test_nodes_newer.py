"""Ironic 1.63-1.110 on the clustered service: indicators, lessee and
network_data, boot mode and secure boot, node history, deploy verbs,
node inventory, shards, child nodes, the unhold verb,
firmware, the service verb, virtual media, .json suffixes,
disable_power_off, instance_name, health."""

from tempest.lib.common.utils import data_utils
from tempest.lib.common.utils import test_utils
from tempest.lib import decorators
from tempest.lib import exceptions as lib_exc

from ironic_like.tests.tempest.api import base

NETWORK_DATA = {'links': [{'id': 'eth0', 'type': 'phy',
                           'ethernet_mac_address': '52:54:00:ee:00:02'}],
                'networks': [{'id': 'n0', 'type': 'ipv4_dhcp',
                              'link': 'eth0', 'network_id': 'n0'}],
                'services': []}


def _replace(field, value):
    return {'op': 'replace', 'path': '/%s' % field, 'value': value}


class TestNodesNewer(base.BaseBaremetalLikeTest):

    min_microversion = '1.80'

    @decorators.idempotent_id('0e6c3a52-8e0b-4a27-9d73-1f0a2e5b6c11')
    def test_indicators(self):
        node = self.create_node()
        found = self.client.list_node_indicators(node['uuid'])
        names = [i['name'] for i in found['indicators']]
        self.assertIn('led@system', names)
        self.client.set_node_indicator(node['uuid'], 'led@system',
                                       'BLINKING')
        self.assertEqual('BLINKING', self.client.show_node_indicator(
            node['uuid'], 'led@system')['state'])
        self.assertRaises(lib_exc.BadRequest,
                          self.client.set_node_indicator, node['uuid'],
                          'led-0@chassis', 'ON')

    @decorators.idempotent_id('4b1f7e90-2d35-4c8e-a6f1-7d2c9b0e3a22')
    def test_lessee_and_network_data(self):
        node = self.create_node()
        updated = self.client.update_node(node['uuid'], [
            _replace('lessee', 'tempest-lessee'),
            _replace('network_data', NETWORK_DATA)])
        self.assertEqual('tempest-lessee', updated['lessee'])
        self.assertEqual(NETWORK_DATA, updated['network_data'])
        listed = self.client.list_nodes(lessee='tempest-lessee')['nodes']
        self.assertEqual([node['uuid']], [n['uuid'] for n in listed])
        self.assertRaises(lib_exc.BadRequest, self.client.update_node,
                          node['uuid'],
                          [_replace('network_data', {'links': [{}]})])

    @decorators.attr(type='negative')
    @decorators.idempotent_id('3c8e1f24-5a7b-4d90-8e2f-6b1a9c4d7e55')
    def test_inventory_of_a_node_never_inspected(self):
        node = self.create_node()
        with self.client.microversion('1.81'):
            self.assertRaises(lib_exc.NotFound,
                              self.client.show_node_inventory, node['uuid'])
        # The endpoint does not exist before 1.81.
        with self.client.microversion('1.80'):
            self.assertRaises(lib_exc.NotFound,
                              self.client.show_node_inventory, node['uuid'])

    @decorators.idempotent_id('7d2b9e41-0c63-4a85-b7f1-8e4c2a6d9f17')
    def test_shards(self):
        shard = data_utils.rand_name('tempest-shard')
        node = self.create_node()
        with self.client.microversion('1.82'):
            updated = self.client.update_node(node['uuid'], [
                _replace('shard', shard)])
            self.assertEqual(shard, updated['shard'])
            listed = self.client.list_nodes(shard=shard)['nodes']
            self.assertEqual([node['uuid']], [n['uuid'] for n in listed])
            self.assertIn({'name': shard, 'count': 1},
                          self.client.list_shards()['shards'])
        with self.client.microversion('1.81'):
            self.assertRaises(lib_exc.NotFound, self.client.list_shards)
            self.assertRaises(lib_exc.NotAcceptable, self.client.list_nodes,
                              shard=shard)

    @decorators.idempotent_id('4c8e2a61-7b3d-4f95-a0c6-5d1e9b7f2a48')
    def test_child_nodes(self):
        parent = self.create_node()
        with self.client.microversion('1.83'):
            child = self.create_node(parent_node=parent['name'])
            self.assertEqual(parent['uuid'], child['parent_node'])
            self.assertEqual([child['uuid']], self.client.list_node_children(
                parent['uuid'])['children'])
            listed = self.client.list_nodes(parent_node=parent['uuid'])
            self.assertEqual([child['uuid']],
                             [n['uuid'] for n in listed['nodes']])
            top = [n['uuid'] for n in self.client.list_nodes()['nodes']]
            self.assertNotIn(child['uuid'], top)
            self.assertRaises(lib_exc.BadRequest, self.client.update_node,
                              parent['uuid'],
                              [_replace('parent_node', child['uuid'])])
        with self.client.microversion('1.82'):
            self.assertRaises(lib_exc.NotFound,
                              self.client.list_node_children,
                              parent['uuid'])
            self.assertNotIn('parent_node',
                             self.client.show_node(child['uuid']))

    @decorators.attr(type='negative')
    @decorators.idempotent_id('b5e1c7a2-0d94-4f3b-8c26-7a9e3d1f5b84')
    def test_unhold_verb(self):
        node = self.create_node()
        with self.client.microversion('1.84'):
            self.assertRaises(lib_exc.NotAcceptable,
                              self.client.set_node_provision_state,
                              node['uuid'], 'unhold')
        # 1.85 knows the verb; a node not on hold refuses it.
        with self.client.microversion('1.85'):
            self.assertRaises(lib_exc.BadRequest,
                              self.client.set_node_provision_state,
                              node['uuid'], 'unhold')

    @decorators.idempotent_id('d2a7f4c9-5b18-4e63-9a0d-3c6e8b1f7a25')
    def test_firmware(self):
        node = self.create_node()
        with self.client.microversion('1.86'):
            shown = self.client.show_node(node['uuid'])
            self.assertIn(shown['firmware_interface'],
                          ('fake', 'no-firmware'))
            self.assertIsInstance(
                self.client.list_node_firmware(node['uuid'])['firmware'],
                list)
            driver = self.client.show_driver('fake-hardware')
            self.assertIn('default_firmware_interface', driver)
        with self.client.microversion('1.114'):
            for component in self.client.list_node_firmware(
                    node['uuid'])['firmware']:
                self.assertIn('serial_number', component)
        with self.client.microversion('1.85'):
            self.assertRaises(lib_exc.NotFound,
                              self.client.list_node_firmware, node['uuid'])
            self.assertNotIn('firmware_interface',
                             self.client.show_node(node['uuid']))

    @decorators.attr(type='negative')
    @decorators.idempotent_id('e8c3b1f6-2a47-4d95-b0e8-6f1a9c3d7e52')
    def test_service_verb(self):
        node = self.create_node()
        steps = [{'interface': 'deploy', 'step': 'update_firmware'}]
        with self.client.microversion('1.86'):
            self.assertRaises(lib_exc.NotAcceptable,
                              self.client.set_node_provision_state,
                              node['uuid'], 'service', service_steps=steps)
        with self.client.microversion('1.87'):
            self.assertIn('service_step',
                          self.client.show_node(node['uuid']))
            # The steps are required; an enrolled node cannot be serviced.
            self.assertRaises(lib_exc.BadRequest,
                              self.client.set_node_provision_state,
                              node['uuid'], 'service')
            self.assertRaises(lib_exc.BadRequest,
                              self.client.set_node_provision_state,
                              node['uuid'], 'service', service_steps=steps)

    @decorators.idempotent_id('a7d4e2b9-6c13-4f58-8e0a-1b9f3c5d7e26')
    def test_virtual_media(self):
        node = self.create_node()
        with self.client.microversion('1.89'):
            # "http": the BMC reads the image where it is (the default,
            # "local", has the conductor download it first).
            self.client.attach_vmedia(node['uuid'], device_type='cdrom',
                                      image_url='http://example.com/a.iso',
                                      image_download_source='http')
            self.client.detach_vmedia(node['uuid'], device_types='cdrom')
            self.assertRaises(lib_exc.NotFound, self.client.list_vmedia,
                              node['uuid'])
            self.assertRaises(lib_exc.BadRequest, self.client.attach_vmedia,
                              node['uuid'], device_type='tape',
                              image_url='http://example.com/a.iso')
        with self.client.microversion('1.93'):
            # The fake BMC's devices: a CD/DVD drive, a USB stick, a floppy.
            devices = self.client.list_vmedia(node['uuid'])
            self.assertEqual([['CD', 'DVD'], ['USBStick'], ['Floppy']],
                             [d['media_types'] for d in devices])
            self.client.attach_vmedia(node['uuid'], device_type='cdrom',
                                      image_url='http://example.com/b.iso',
                                      image_download_source='http')
            self.wait_for(lambda: self.client.list_vmedia(node['uuid'])[0][
                'image'] == 'http://example.com/b.iso', 'media inserted')
        with self.client.microversion('1.88'):
            self.assertRaises(lib_exc.NotFound, self.client.attach_vmedia,
                              node['uuid'], device_type='cdrom',
                              image_url='http://example.com/a.iso')

    @decorators.idempotent_id('c2e7a9d1-4b36-4f80-9a15-7d3e6b8f0c42')
    def test_json_suffix(self):
        name = data_utils.rand_name('tempest-json').lower()
        node = self.create_node(name=name)
        with self.client.microversion('1.90'):
            self.assertEqual(node['uuid'],
                             self.client.show_node(name + '.json')['uuid'])
        with self.client.microversion('1.91'):
            self.assertRaises(lib_exc.NotFound, self.client.show_node,
                              name + '.json')

    @decorators.idempotent_id('e4a7c1d9-8b26-4f53-a0e9-3c6d2f1b7a85')
    def test_disable_power_off(self):
        with self.client.microversion('1.95'):
            node = self.create_node(disable_power_off=True)
            self.assertIs(True, node['disable_power_off'])
            self.assertRaises(lib_exc.Conflict,
                              self.client.set_node_power_state,
                              node['uuid'], 'power off')
            self.client.update_node(node['uuid'], [
                _replace('disable_power_off', False)])
            self.client.set_node_power_state(node['uuid'], 'power off')
        with self.client.microversion('1.94'):
            self.assertNotIn('disable_power_off',
                             self.client.show_node(node['uuid']))

    @decorators.idempotent_id('a2f5d8c1-3e69-4b74-9c0d-8e1b6a4f2d93')
    def test_instance_name(self):
        with self.client.microversion('1.104'):
            node = self.create_node()
            name = data_utils.rand_name('tempest-vm')
            updated = self.client.update_node(node['uuid'], [
                {'op': 'add', 'path': '/instance_info/display_name',
                 'value': name}])
            self.assertEqual(name, updated['instance_name'])
            found = self.client.list_nodes(instance_name=name)
            self.assertEqual([node['uuid']],
                             [n['uuid'] for n in found['nodes']])
        with self.client.microversion('1.103'):
            self.assertNotIn('instance_name',
                             self.client.show_node(node['uuid']))
            self.assertRaises(lib_exc.NotAcceptable, self.client.list_nodes,
                              instance_name=name)

    @decorators.idempotent_id('f3b8e1d7-2c45-4a96-8e0b-5d7c9a1f3e26')
    def test_health_and_request_ids(self):
        node = self.create_node()
        with self.client.microversion('1.109'):
            shown = self.client.show_node(node['uuid'])
            self.assertIn('health', shown)
            self.assertIsNone(shown['health'])
            self.assertTrue(shown.response['x-openstack-request-id'])
            self.assertEqual(shown.response['x-openstack-request-id'],
                             shown.response['openstack-request-id'])
        with self.client.microversion('1.108'):
            self.assertNotIn('health', self.client.show_node(node['uuid']))
        with self.client.microversion('1.106'):
            found = self.client.list_portgroups(
                shard=data_utils.rand_name('no-such-shard'))
            self.assertEqual([], found['portgroups'])

    @decorators.idempotent_id('9a3d5c17-6e42-4f08-b1c9-2e7f4a6d8b33')
    def test_boot_mode_and_secure_boot(self):
        node = self.create_node()
        # Both are done by a conductor worker after the 202 (as Ironic).
        self.client.set_node_boot_mode(node['uuid'], 'bios')
        self.assertTrue(test_utils.call_until_true(
            lambda: self.client.show_node(node['uuid'])['boot_mode'] ==
            'bios', 60, 1), 'the boot mode never changed')
        self.client.set_node_secure_boot(node['uuid'], True)
        self.assertTrue(test_utils.call_until_true(
            lambda: self.client.show_node(node['uuid'])['secure_boot'] is
            True, 60, 1), 'secure boot never turned on')
        self.assertRaises(lib_exc.BadRequest,
                          self.client.set_node_boot_mode, node['uuid'],
                          'legacy')

    @decorators.idempotent_id('c27e8f40-1b93-4d6a-8e25-5f0b3c7a9d44')
    def test_history_of_a_refused_change(self):
        node = self.create_node()
        self.assertEqual([], self.client.list_node_history(
            node['uuid'])['history'])
        # A verification that fails (a Redfish node without its BMC
        # address) leaves an error in the history.
        broken = self.create_node(driver='redfish', driver_info={})
        self.client.set_node_provision_state(broken['uuid'], 'manage')
        self.assertTrue(test_utils.call_until_true(
            lambda: self.client.show_node(broken['uuid'])['last_error'],
            60, 1), 'the verification never failed')
        history = self.client.list_node_history(broken['uuid'],
                                                detail='True')['history']
        self.assertEqual(1, len(history))
        self.assertEqual('ERROR', history[0]['severity'])
        one = self.client.show_node_history_event(broken['uuid'],
                                                  history[0]['uuid'])
        self.assertEqual(history[0]['event'], one['event'])
        # 1.113 and 1.115: the project and the node's states of the event.
        with self.client.microversion('1.115'):
            one = self.client.show_node_history_event(broken['uuid'],
                                                      history[0]['uuid'])
            self.assertIn('project', one)
            self.assertIn('state', one)
            self.assertIn('duration_seconds', one)
        with self.client.microversion('1.112'):
            one = self.client.show_node_history_event(broken['uuid'],
                                                      history[0]['uuid'])
            self.assertNotIn('project', one)
