"""Virtual media (Ironic 1.89): POST/DELETE /v1/nodes/{id}/vmedia, and
GET (1.93), with a running conductor and the fake management."""

import os
from unittest import mock

import fixtures

from ironic_like.common import exception
from ironic_like.common import published_files
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
        self._attach({'device_type': 'cdrom', 'image_url': ISO,
                      'image_download_source': 'http'})
        # The attachment runs in a worker under the node's lock: a client
        # waits for it before the next one (else 409, as from Ironic).
        self.wait_for(self.node.uuid, lambda n: 'cdrom' in _media(n))
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
        self._attach({'device_type': 'cdrom', 'image_url': ISO,
                      'image_download_source': 'http'})
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
                  'image_download_source': 'ftp'},
                 'image_download_source'),
                # A share the BMC mounts: the conductor cannot fetch it.
                ({'device_type': 'cdrom', 'image_url': 'nfs://h/x.iso',
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
            self._attach({'device_type': 'cdrom', 'image_url': ISO,
                          'image_download_source': 'http'})
            node = self.wait_for(self.node.uuid,
                                 lambda n: n.last_error is not None)
        self.assertIn('no such drive', node.last_error)
        self.assertEqual(states.ENROLL, node.provision_state)


class _Download(object):
    """What requests.get answers for an image: ``status``, ``chunks``,
    ``headers`` (by default the Content-Length of the chunks)."""

    def __init__(self, status=200, chunks=(b'ISO-', b'IMAGE'),
                 headers=None):
        self.status_code = status
        self.reason = 'OK' if status == 200 else 'Not Found'
        self.chunks = chunks
        self.headers = ({'Content-Length': str(sum(map(len, chunks)))}
                        if headers is None else headers)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def iter_content(self, size):
        return iter(self.chunks)


class TestLocalVirtualMedia(base.APITestCase):
    """``image_download_source`` ``local`` (Ironic's default): the
    conductor downloads the image and serves it from http_root."""

    with_conductor = True

    def setUp(self):
        super().setUp()
        self.root = self.useFixture(fixtures.TempDir()).path
        self.config(http_root=self.root, http_url='http://10.0.0.1:8088/',
                    group='deploy')
        self.node = self.create_node(name='n1')
        self.url = '/v1/nodes/n1/vmedia'
        self.get_image = self.useFixture(fixtures.MockPatchObject(
            published_files.requests, 'get',
            side_effect=lambda *a, **k: _Download())).mock

    def _attach_cd(self):
        self.app.post_json(self.url, {'device_type': 'cdrom',
                                      'image_url': ISO}, status=204,
                           headers=self._headers(None, V))
        return self.wait_for(self.node.uuid,
                             lambda n: 'cdrom' in _media(n))

    def _file(self, device='cdrom', suffix='iso'):
        return os.path.join(self.root, 'vmedia', '%s-%s.%s' % (
            device, self.node.uuid, suffix))

    def test_served_by_the_conductor_by_default(self):
        self.app.post_json(self.url, {'device_type': 'cdrom',
                                      'image_url': ISO}, status=204,
                           headers=self._headers(None, V))
        node = self.wait_for(self.node.uuid, lambda n: 'cdrom' in _media(n))
        served = 'http://10.0.0.1:8088/vmedia/cdrom-%s.iso' % self.node.uuid
        self.assertEqual(served, _media(node)['cdrom'])
        self.assertIsNone(node.last_error)
        with open(self._file(), 'rb') as f:
            self.assertEqual(b'ISO-IMAGE', f.read())
        self.assertEqual(ISO, self.get_image.call_args[0][0])
        # Only the served file is there (nothing partial left).
        self.assertEqual([os.path.basename(self._file())],
                         os.listdir(os.path.join(self.root, 'vmedia')))
        # A disk image too; detaching one removes only its file.
        self.app.post_json(self.url, {'device_type': 'disk',
                                      'image_url': ISO + '.img',
                                      'image_download_source': 'local'},
                           status=204, headers=self._headers(None, V))
        self.wait_for(self.node.uuid, lambda n: 'disk' in _media(n))
        self.assertTrue(os.path.exists(self._file('disk', 'img')))
        self.delete(self.url + '?device_types=cdrom', version=V)
        self.wait_for(self.node.uuid, lambda n: list(_media(n)) == ['disk'])
        self.assertFalse(os.path.exists(self._file()))
        self.assertTrue(os.path.exists(self._file('disk', 'img')))
        self.delete(self.url, version=V)
        self.wait_for(self.node.uuid, lambda n: not _media(n))
        self.assertEqual([], os.listdir(os.path.join(self.root, 'vmedia')))

    def test_failed_download_goes_to_last_error(self):
        self.get_image.side_effect = lambda *a, **k: _Download(status=404)
        self.app.post_json(self.url, {'device_type': 'cdrom',
                                      'image_url': ISO}, status=204,
                           headers=self._headers(None, V))
        node = self.wait_for(self.node.uuid,
                             lambda n: n.last_error is not None)
        self.assertIn('Downloading %s for virtual media failed: HTTP 404'
                      % ISO, node.last_error)
        self.assertEqual({}, _media(node))
        self.assertEqual([], os.listdir(os.path.join(self.root, 'vmedia')))

    def test_bmc_refusal_removes_the_served_file(self):
        with mock.patch.object(fake.FakeManagement, 'attach_virtual_media',
                               side_effect=RuntimeError('no such drive')):
            self.app.post_json(self.url, {'device_type': 'cdrom',
                                          'image_url': ISO}, status=204,
                               headers=self._headers(None, V))
            node = self.wait_for(self.node.uuid,
                                 lambda n: n.last_error is not None)
        self.assertIn('no such drive', node.last_error)
        self.get_image.assert_called_once()
        self.assertFalse(os.path.exists(self._file()))

    def test_failed_detach_still_removes_the_served_file(self):
        self._attach_cd()
        self.assertTrue(os.path.exists(self._file()))
        with mock.patch.object(fake.FakeManagement, 'detach_virtual_media',
                               side_effect=RuntimeError('BMC busy')):
            self.delete(self.url, version=V)
            node = self.wait_for(self.node.uuid,
                                 lambda n: n.last_error is not None)
        self.assertIn('BMC busy', node.last_error)
        self.assertFalse(os.path.exists(self._file()))

    def test_node_deletion_removes_its_files(self):
        self._attach_cd()
        # And what a download cut short left beside it.
        partial = os.path.join(self.root, 'vmedia', '.cdrom-%s.iso.x1y2'
                               % self.node.uuid)
        open(partial, 'wb').close()
        self.delete('/v1/nodes/n1')
        self.assertEqual([], os.listdir(os.path.join(self.root, 'vmedia')))

    def test_swift_is_http_for_a_url(self):
        self.app.post_json(self.url, {'device_type': 'cdrom',
                                      'image_url': ISO,
                                      'image_download_source': 'swift'},
                           status=204, headers=self._headers(None, V))
        node = self.wait_for(self.node.uuid, lambda n: 'cdrom' in _media(n))
        self.assertEqual(ISO, _media(node)['cdrom'])
        self.get_image.assert_not_called()

    def test_a_new_http_attach_drops_the_served_file(self):
        self._attach_cd()
        self.app.post_json(self.url, {'device_type': 'cdrom',
                                      'image_url': ISO + '2',
                                      'image_download_source': 'http'},
                           status=204, headers=self._headers(None, V))
        node = self.wait_for(self.node.uuid,
                             lambda n: _media(n).get('cdrom') == ISO + '2')
        self.assertIsNone(node.last_error)
        self.assertFalse(os.path.exists(self._file()))

    def test_a_share_is_read_by_the_bmc(self):
        # NFS/CIFS without image_download_source: the BMC mounts it.
        share = 'nfs://10.0.0.9/images/boot.iso'
        self.app.post_json(self.url, {'device_type': 'cdrom',
                                      'image_url': share}, status=204,
                           headers=self._headers(None, V))
        node = self.wait_for(self.node.uuid, lambda n: 'cdrom' in _media(n))
        self.assertEqual(share, _media(node)['cdrom'])
        self.get_image.assert_not_called()


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
