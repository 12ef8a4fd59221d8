"""Console (states/console), BIOS settings (/bios, 1.40) and the target
RAID configuration (states/raid, 1.12) through the API and the real
conductor."""

from ironic_like.common import states
from ironic_like.tests.unit.api import base


class _Base(base.APITestCase):

    with_conductor = True

    def setUp(self):
        super().setUp()
        self.config(enabled_console_interfaces=['fake', 'no-console'],
                    enabled_raid_interfaces=['fake', 'no-raid'],
                    enabled_bios_interfaces=['fake', 'no-bios'])


class TestConsole(_Base):

    def test_no_console(self):
        node = self.create_node(console_interface='no-console')
        url = '/v1/nodes/%s/states/console' % node.uuid
        r = self.get(url, status=400)
        self.assertFault(r, 400, 'does not support console')
        r = self.put(url, {'enabled': True}, status=400)
        self.assertFault(r, 400, 'does not support console')

    def test_fake_console_on_and_off(self):
        node = self.create_node(console_interface='fake')
        url = '/v1/nodes/%s/states/console' % node.uuid
        self.assertEqual({'console_enabled': False, 'console_info': None},
                         self.get(url, version='1.1').json)
        r = self.put(url, {'enabled': True}, status=202)
        self.assertTrue(r.location.endswith(
            '/v1/nodes/%s/states/console' % node.uuid))
        self.wait_for(node.uuid, lambda n: n.console_enabled)
        doc = self.get(url).json
        self.assertIs(True, doc['console_enabled'])
        self.assertEqual('shellinabox', doc['console_info']['type'])
        # The node and its states show the column now.
        self.assertIs(True, self.get('/v1/nodes/%s' % node.uuid)
                      .json['console_enabled'])
        self.assertIs(True, self.get('/v1/nodes/%s/states' % node.uuid)
                      .json['console_enabled'])
        # Asking again for what is already so: accepted, nothing done.
        self.put(url, {'enabled': 'true'}, status=202)
        self.put(url, {'enabled': False}, status=202)
        self.wait_for(node.uuid, lambda n: not n.console_enabled)

    def test_bad_bodies(self):
        node = self.create_node(console_interface='fake')
        url = '/v1/nodes/%s/states/console' % node.uuid
        r = self.put(url, {}, status=400)
        self.assertFault(r, 400, 'enabled')
        r = self.put(url, {'enabled': 'perhaps'}, status=400)
        self.assertFault(r, 400, 'enabled')
        self.put(url, {'enabled': True, 'x': 1}, status=400)


class TestBios(_Base):

    def _manage(self, node):
        self.put('/v1/nodes/%s/states/provision' % node.uuid,
                 {'target': 'manage'})
        return self.wait_for(
            node.uuid, lambda n: n.provision_state == states.MANAGEABLE)

    def test_fake_bios_read_on_manage(self):
        node = self.create_node(bios_interface='fake')
        url = '/v1/nodes/%s/bios' % node.uuid
        self.assertEqual({'bios': []}, self.get(url, version='1.40').json)
        self._manage(node)
        doc = self.get(url, version='1.40').json
        names = [s['name'] for s in doc['bios']]
        self.assertEqual(['BootMode', 'ProcVirtualization', 'SecureBoot'],
                         names)
        first = doc['bios'][0]
        self.assertEqual('Uefi', first['value'])
        self.assertEqual(
            {'name', 'value', 'links', 'created_at', 'updated_at'},
            set(first))
        self.assertTrue(first['links'][0]['href'].endswith(
            '/v1/nodes/%s/bios/BootMode' % node.uuid))
        one = self.get(url + '/SecureBoot', version='1.40').json
        self.assertEqual('Disabled', one['SecureBoot']['value'])

    def test_no_bios_has_no_settings(self):
        node = self.create_node(bios_interface='no-bios')
        self._manage(node)
        self.assertEqual({'bios': []}, self.get(
            '/v1/nodes/%s/bios' % node.uuid).json)

    def test_unknown_setting_and_version(self):
        node = self.create_node(bios_interface='fake')
        url = '/v1/nodes/%s/bios' % node.uuid
        r = self.get(url + '/Nope', status=404)
        self.assertFault(r, 404, 'Nope')
        self.get(url, version='1.39', status=404)
        self.get(url + '/Nope', version='1.39', status=404)

    def test_bios_interface_field_gate(self):
        node = self.create_node()
        url = '/v1/nodes/%s' % node.uuid
        self.assertNotIn('bios_interface', self.get(url, version='1.39')
                         .json)
        # With fake enabled, fake-hardware's default is fake, as Ironic's.
        self.assertEqual('fake', self.get(url, version='1.40')
                         .json['bios_interface'])


class TestRaid(_Base):

    CONFIG = {'logical_disks': [{'size_gb': 100, 'raid_level': '1',
                                 'is_root_volume': True}]}

    def test_set_target_raid_config(self):
        node = self.create_node(raid_interface='fake')
        url = '/v1/nodes/%s/states/raid' % node.uuid
        r = self.put(url, self.CONFIG, status=204, version='1.12')
        self.assertEqual(b'', r.body)
        doc = self.get('/v1/nodes/%s' % node.uuid, version='1.12').json
        self.assertEqual(self.CONFIG, doc['target_raid_config'])
        self.assertEqual({}, doc['raid_config'])
        states_doc = self.get('/v1/nodes/%s/states' % node.uuid).json
        self.assertEqual(self.CONFIG, states_doc['target_raid_config'])
        # {} clears it.
        self.put(url, {}, status=204)
        self.assertEqual({}, self.get('/v1/nodes/%s' % node.uuid)
                         .json['target_raid_config'])

    def test_schema_errors(self):
        node = self.create_node(raid_interface='fake')
        url = '/v1/nodes/%s/states/raid' % node.uuid
        bad = [
            {'logical_disks': [{'size_gb': 100}]},
            {'logical_disks': [{'raid_level': '1'}]},
            {'logical_disks': [{'size_gb': 1, 'raid_level': '7'}]},
            {'logical_disks': []},
            {'logical_disks': [{'size_gb': 1, 'raid_level': '1',
                                'colour': 'red'}]},
            {'disks': []},
            {'logical_disks': [
                {'size_gb': 1, 'raid_level': '1', 'is_root_volume': True},
                {'size_gb': 'MAX', 'raid_level': '0',
                 'is_root_volume': True}]},
        ]
        for body in bad:
            r = self.put(url, body, status=400)
            self.assertFault(r, 400, 'target_raid_config')
        self.assertIsNone(self.db.get_node_by_id(node.id).target_raid_config
                          or None)

    def test_no_raid_and_version(self):
        node = self.create_node(raid_interface='no-raid')
        url = '/v1/nodes/%s/states/raid' % node.uuid
        # Ironic answers 404 for a driver without RAID.
        r = self.put(url, self.CONFIG, status=404)
        self.assertFault(r, 404, 'does not support raid')
        self.put(url, self.CONFIG, status=406, version='1.11')
        self.assertNotIn('raid_config', self.get(
            '/v1/nodes/%s' % node.uuid, version='1.11').json)


class TestPolicies(base.APITestCase):

    auth_strategy = 'keystone'

    def make_app(self, **kwargs):
        return super().make_app(skip_auth_token=True)

    def test_policies(self):
        node = self.create_node(owner='p1')
        url = '/v1/nodes/%s' % node.uuid
        reader = {'X-Roles': 'reader', 'X-Project-Id': 'p1',
                  'X-User-Id': 'u1'}
        r = self.get(url + '/states/console', headers=reader, status=403)
        self.assertFault(r, 403, 'baremetal:node:get_console')
        r = self.put(url + '/states/console', {'enabled': True},
                     headers=reader, status=403)
        self.assertFault(r, 403, 'baremetal:node:set_console_state')
        r = self.put(url + '/states/raid', {}, headers=reader, status=403)
        self.assertFault(r, 403, 'baremetal:node:set_raid_state')
        # A reader of the node reads its BIOS settings; another project
        # does not see the node.
        self.assertEqual({'bios': []}, self.get(url + '/bios',
                                                headers=reader).json)
        other = dict(reader, **{'X-Project-Id': 'p2'})
        self.get(url + '/bios', headers=other, status=404)
