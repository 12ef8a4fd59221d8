"""Virtual media (Ironic 1.89): POST/DELETE /v1/nodes/{id}/vmedia, and
GET (1.93), with a running conductor and the fake management."""

from unittest import mock

from ironic_like.common import exception
from ironic_like.common import states
from ironic_like.conductor import node_flags
from ironic_like.drivers.modules import fake
from ironic_like.tests.unit.api import base
from ironic_like.tests.unit.api import test_auth

V = '1.89'
ISO = 'http://images.example.com/boot.iso'


def _media(node):
    return (node.driver_internal_info or {}).get(fake.FakeManagement.
                                                 VMEDIA_KEY) or {}


class TestVirtualMedia(base.APITestCase):

    with_conductor = True

    def setUp(self):
        super().setUp()
        self.node = self.create_node(name='n1')
        self.url = '/v1/nodes/n1/vmedia'

    def _attach(self, body, status=204, version=V):
        return self.app.post_json(self.url, body, status=status,
                                  headers=self._headers(None, version))

    def test_attach_and_detach(self):
        self._attach({'device_type': 'cdrom', 'image_url': ISO})
        self._attach({'device_type': 'floppy', 'image_url': ISO + '.img',
                      'image_download_source': 'http'})
        node = self.wait_for(self.node.uuid,
                             lambda n: len(_media(n)) == 2)
        self.assertEqual(ISO, _media(node)['cdrom'])
        self.delete(self.url + '?device_types=floppy', version=V)
        node = self.wait_for(self.node.uuid,
                             lambda n: list(_media(n)) == ['cdrom'])
        self.delete(self.url, version=V)
        node = self.wait_for(self.node.uuid, lambda n: not _media(n))
        self.assertIsNone(node.last_error)

    def test_version(self):
        self._attach({'device_type': 'cdrom', 'image_url': ISO},
                     status=404, version='1.88')
        self.delete(self.url, version='1.88', status=404)
        # Reading them is 1.93.
        self.get(self.url, version='1.92', status=404)
        self.get(self.url, version='1.93')

    def test_get_lists_the_devices(self):
        devices = self.get(self.url, version='1.93').json
        self.assertEqual([{'media_types': ['CD', 'DVD'], 'inserted': False,
                           'image': ''},
                          {'media_types': ['USBStick'], 'inserted': False,
                           'image': ''},
                          {'media_types': ['Floppy'], 'inserted': False,
                           'image': ''}], devices)
        self._attach({'device_type': 'cdrom', 'image_url': ISO})
        self.wait_for(self.node.uuid, lambda n: 'cdrom' in _media(n))
        devices = self.get(self.url, version='1.93').json
        self.assertEqual({'media_types': ['CD', 'DVD'], 'inserted': True,
                          'image': ISO}, devices[0])
        self.get('/v1/nodes/nope/vmedia', version='1.93', status=404)

    def test_get_unsupported_400(self):
        error = exception.UnsupportedDriverExtension(
            driver='fake-hardware', extension='virtual media')
        with mock.patch.object(fake.FakeManagement, 'get_virtual_media',
                               side_effect=error):
            r = self.get(self.url, version='1.93', status=400)
        self.assertFault(r, 400, 'virtual media')

    def test_bad_requests(self):
        for body, field in (
                ({'device_type': 'usb', 'image_url': ISO}, 'device_type'),
                ({'device_type': 'cdrom'}, 'image_url'),
                ({'device_type': 'cdrom', 'image_url': 'ftp://x/y.iso'},
                 'image_url'),
                ({'device_type': 'cdrom', 'image_url': ISO,
                  'image_download_source': 'local'},
                 'image_download_source'),
                ({'device_type': 'cdrom', 'image_url': ISO, 'x': 1}, 'x')):
            r = self._attach(body, status=400)
            self.assertFault(r, 400, field)
        r = self.delete(self.url + '?device_types=usb', version=V,
                        status=400)
        self.assertFault(r, 400, 'device_types')
        self.assertEqual({}, _media(self.db.get_node_by_id(self.node.id)))

    def test_power_failure_409(self):
        self.db.update_node(self.node.id, {
            'maintenance': True, 'fault': node_flags.POWER_FAILURE})
        r = self._attach({'device_type': 'cdrom', 'image_url': ISO},
                         status=409)
        self.assertIn('power failure', r.json['error_message'])

    def test_unsupported_interface_goes_to_last_error(self):
        with mock.patch.object(fake.FakeManagement, 'attach_virtual_media',
                               side_effect=RuntimeError('no such drive')):
            self._attach({'device_type': 'cdrom', 'image_url': ISO})
            node = self.wait_for(self.node.uuid,
                                 lambda n: n.last_error is not None)
        self.assertIn('no such drive', node.last_error)
        self.assertEqual(states.ENROLL, node.provision_state)


class TestVirtualMediaPolicy(test_auth.KeystoneTestCase):

    def test_readers_may_not(self):
        self.create_node(name='mine', owner='p1')
        r = self.app.post_json('/v1/nodes/mine/vmedia',
                               {'device_type': 'cdrom', 'image_url': ISO},
                               status=403,
                               headers=self._headers(self.project('reader'),
                                                     V))
        self.assertFault(r, 403, 'baremetal:node:vmedia:attach')
        # Readers of the node may list its devices (1.93); others not.
        self.get('/v1/nodes/mine/vmedia', version='1.93',
                 headers=self.project('reader'))
        self.get('/v1/nodes/mine/vmedia', version='1.93',
                 headers=self.project('reader', project='p2'), status=404)
