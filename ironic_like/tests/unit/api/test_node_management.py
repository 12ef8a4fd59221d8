"""/v1/nodes/{id}/management: boot device and NMI through the API and the
real conductor."""

from ironic_like.drivers.modules import fake
from ironic_like.tests.unit.api import base


class TestNodeManagement(base.APITestCase):

    with_conductor = True

    def setUp(self):
        super().setUp()
        self.node = self.create_node()
        self.url = '/v1/nodes/%s/management' % self.node.uuid

    def test_get_default_boot_device(self):
        doc = self.get(self.url + '/boot_device', version='1.1').json
        self.assertEqual({'boot_device': 'disk', 'persistent': True}, doc)

    def test_set_and_get_boot_device(self):
        r = self.put(self.url + '/boot_device', {'boot_device': 'pxe'},
                     status=204)
        self.assertEqual(b'', r.body)
        self.assertEqual({'boot_device': 'pxe', 'persistent': False},
                         self.get(self.url + '/boot_device').json)
        self.put(self.url + '/boot_device',
                 {'boot_device': 'disk', 'persistent': 'true'}, status=204)
        self.assertEqual({'boot_device': 'disk', 'persistent': True},
                         self.get(self.url + '/boot_device').json)
        node = self.db.get_node_by_id(self.node.id)
        self.assertEqual({'boot_device': 'disk', 'persistent': True},
                         node.driver_internal_info[fake.FakeManagement.KEY])
        self.assertIsNone(node.reservation)

    def test_supported_boot_devices(self):
        doc = self.get(self.url + '/boot_device/supported').json
        self.assertEqual({'supported_boot_devices':
                          ['bios', 'cdrom', 'disk', 'pxe']}, doc)

    def test_bad_boot_device_bodies(self):
        r = self.put(self.url + '/boot_device', {'boot_device': 'floppy'},
                     status=400)
        self.assertFault(r, 400, 'floppy')
        r = self.put(self.url + '/boot_device', {}, status=400)
        self.assertFault(r, 400, 'boot_device')
        r = self.put(self.url + '/boot_device',
                     {'boot_device': 'pxe', 'persistent': 'maybe'},
                     status=400)
        self.assertFault(r, 400, 'persistent')
        r = self.put(self.url + '/boot_device',
                     {'boot_device': 'pxe', 'other': 1}, status=400)

    def test_locked_node(self):
        self.db.update_node(self.node.id, {'reservation': 'other-host'})
        r = self.put(self.url + '/boot_device', {'boot_device': 'pxe'},
                     status=409)
        self.assertFault(r, 409)

    def test_inject_nmi(self):
        self.put(self.url + '/inject_nmi', {}, status=204, version='1.29')
        self.put(self.url + '/inject_nmi', status=204, version='1.29')
        node = self.db.get_node_by_id(self.node.id)
        self.assertEqual(
            2, node.driver_internal_info[fake.FakeManagement.NMI_KEY])

    def test_inject_nmi_version_and_body(self):
        self.put(self.url + '/inject_nmi', {}, status=404, version='1.28')
        r = self.put(self.url + '/inject_nmi', {'force': True}, status=400)
        self.assertFault(r, 400)

    def test_inject_nmi_unsupported(self):
        # A management interface without NMI: Ironic's 400.
        with self._without_nmi():
            r = self.put(self.url + '/inject_nmi', {}, status=400)
        self.assertFault(r, 400, 'does not support inject_nmi')

    def _without_nmi(self):
        from unittest import mock

        from ironic_like.drivers import base as drivers_base
        return mock.patch.object(
            fake.FakeManagement, 'inject_nmi',
            drivers_base.ManagementInterface.inject_nmi)

    def test_unknown_subresource(self):
        self.get(self.url + '/nothing', status=404)


class TestNodeManagementPolicy(base.APITestCase):

    auth_strategy = 'keystone'

    def make_app(self, **kwargs):
        return super().make_app(skip_auth_token=True)

    def test_policies(self):
        node = self.create_node(owner='p1')
        url = '/v1/nodes/%s/management' % node.uuid
        reader = {'X-Roles': 'reader', 'X-Project-Id': 'p1',
                  'X-User-Id': 'u1'}
        r = self.get(url + '/boot_device', headers=reader, status=403)
        self.assertFault(r, 403, 'baremetal:node:get_boot_device')
        r = self.get(url + '/boot_device/supported', headers=reader,
                     status=403)
        self.assertFault(r, 403, 'baremetal:node:get_supported_boot_devices')
        r = self.put(url + '/boot_device', {'boot_device': 'pxe'},
                     headers=reader, status=403)
        self.assertFault(r, 403, 'baremetal:node:set_boot_device')
        r = self.put(url + '/inject_nmi', {}, headers=reader, status=403)
        self.assertFault(r, 403, 'baremetal:node:inject_nmi')
