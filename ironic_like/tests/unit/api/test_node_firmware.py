"""Firmware (Ironic 1.86): the node's firmware_interface, the drivers'
firmware interfaces, /v1/nodes/{id}/firmware, and the components read
when a node is verified."""

from ironic_like.common import states
from ironic_like.tests.unit.api import base
from ironic_like.tests.unit.api import test_auth

V = '1.86'


class TestFirmwareInterface(base.APITestCase):

    with_conductor = True

    def setUp(self):
        super().setUp()
        self.config(enabled_firmware_interfaces=['fake', 'no-firmware'])

    def test_field_by_version(self):
        doc = self.post('/v1/nodes', {'driver': 'fake-hardware',
                                      'name': 'n1'}, version=V).json
        # The hardware type's default among the enabled ones.
        self.assertEqual('fake', doc['firmware_interface'])
        self.assertNotIn('firmware_interface',
                         self.get('/v1/nodes/n1', version='1.85').json)
        r = self.post('/v1/nodes', {'driver': 'fake-hardware',
                                    'firmware_interface': 'fake'},
                      version='1.85', status=406)
        self.assertFault(r, 406, 'firmware_interface')
        doc = self.patch('/v1/nodes/n1', [
            {'op': 'replace', 'path': '/firmware_interface',
             'value': 'no-firmware'}], version=V).json
        self.assertEqual('no-firmware', doc['firmware_interface'])
        r = self.patch('/v1/nodes/n1', [
            {'op': 'replace', 'path': '/firmware_interface',
             'value': 'redfish'}], version=V, status=400)
        self.assertFault(r, 400, 'firmware_interface')

    def test_driver_shows_its_firmware_interfaces(self):
        doc = self.get('/v1/drivers/fake-hardware', version=V).json
        self.assertEqual('fake', doc['default_firmware_interface'])
        self.assertEqual(['fake', 'no-firmware'],
                         doc['enabled_firmware_interfaces'])
        doc = self.get('/v1/drivers/fake-hardware', version='1.85').json
        self.assertNotIn('default_firmware_interface', doc)

    def test_components_read_on_verify(self):
        node = self.create_node(
            name='n1', firmware_interface='fake',
            driver_info={'fake_bios_version': '2.0'})
        url = '/v1/nodes/n1/firmware'
        self.assertEqual({'firmware': []}, self.get(url, version=V).json)
        self.put('/v1/nodes/n1/states/provision', {'target': 'manage'})
        self.wait_for(node.uuid,
                      lambda n: n.provision_state == states.MANAGEABLE)
        firmware = self.get(url, version=V).json['firmware']
        self.assertEqual(['bios', 'bmc'],
                         [c['component'] for c in firmware])
        bios = firmware[0]
        self.assertEqual(('2.0', '2.0', None),
                         (bios['initial_version'], bios['current_version'],
                          bios['last_version_flashed']))
        self.assertIsNotNone(bios['created_at'])
        # A new version read later keeps the first one.
        self.db.sync_firmware_components(
            node.id, [{'component': 'bios', 'current_version': '2.1'}])
        bios = self.get(url, version=V).json['firmware'][0]
        self.assertEqual(('2.0', '2.1'), (bios['initial_version'],
                                          bios['current_version']))
        doc = self.get(url + '?fields=component,current_version',
                       version=V).json
        self.assertEqual({'component', 'current_version', 'created_at',
                          'updated_at'}, set(doc['firmware'][0]))
        r = self.get(url + '?fields=color', version=V, status=400)
        self.assertFault(r, 400, 'fields')
        self.get(url, version='1.85', status=404)
        self.get('/v1/nodes/nosuch/firmware', version=V, status=404)

    def test_no_firmware_reads_nothing(self):
        node = self.create_node(name='n1', firmware_interface='no-firmware')
        self.put('/v1/nodes/n1/states/provision', {'target': 'manage'})
        node = self.wait_for(
            node.uuid, lambda n: n.provision_state == states.MANAGEABLE)
        self.assertIsNone(node.last_error)
        self.assertEqual([], self.db.get_firmware_components(node.id))

    def test_components_deleted_with_the_node(self):
        node = self.create_node(name='n1')
        self.db.sync_firmware_components(
            node.id, [{'component': 'bmc', 'current_version': '1'}])
        self.delete('/v1/nodes/n1')
        self.assertEqual([], self.db.get_firmware_components(node.id))


class TestFirmwarePolicy(test_auth.KeystoneTestCase):

    def setUp(self):
        super().setUp()
        self.create_node(name='mine', owner='p1')
        self.create_node(name='theirs', owner='p2')

    def test_owner_readers_only(self):
        self.get('/v1/nodes/mine/firmware', headers=self.project('reader'),
                 version=V)
        self.get('/v1/nodes/theirs/firmware',
                 headers=self.project('reader'), version=V, status=404)
        self.get('/v1/nodes/theirs/firmware',
                 headers=self.system('reader'), version=V)
