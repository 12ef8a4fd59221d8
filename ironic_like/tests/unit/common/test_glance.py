"""The Glance client of instance images (common/glance.py): keystoneauth
built from the [glance] options, an image's record, its data."""

from unittest import mock

import fixtures
from keystoneauth1 import exceptions as ks_exceptions
from keystoneauth1 import loading as ks_loading
import requests

from ironic_like.common import exception
from ironic_like.common import glance
from ironic_like.tests import base

IMAGE_ID = '6f2b6a3e-7c1d-4d59-9a5e-0b9f6f3b1c11'
RECORD = {'id': IMAGE_ID, 'name': 'ubuntu', 'status': 'active',
          'checksum': 'c' * 32, 'os_hash_algo': 'sha512',
          'os_hash_value': 'a' * 128, 'disk_format': 'qcow2', 'size': 9}


class _Answer(object):

    def __init__(self, body=None, chunks=(), error=None):
        self.body = body
        self.chunks = list(chunks)
        self.error = error
        self.closed = False

    def json(self):
        if isinstance(self.body, Exception):
            raise self.body
        return self.body

    def iter_content(self, size):
        for chunk in self.chunks:
            yield chunk
        if self.error:
            raise self.error

    def close(self):
        self.closed = True


class TestGlance(base.TestCase):

    def setUp(self):
        super().setUp()
        glance.reset()
        self.addCleanup(glance.reset)
        self.adapter = mock.Mock()
        self.useFixture(fixtures.MockPatchObject(
            glance, 'adapter', return_value=self.adapter))

    def test_record(self):
        self.adapter.get.return_value = _Answer(RECORD)
        self.assertEqual(RECORD, glance.get_image(IMAGE_ID))
        self.adapter.get.assert_called_once_with(
            '/v2/images/%s' % IMAGE_ID, timeout=glance.TIMEOUT)

    def test_not_found_or_not_active(self):
        self.adapter.get.side_effect = ks_exceptions.NotFound()
        e = self.assertRaises(exception.ImageNotFound, glance.get_image,
                              IMAGE_ID)
        self.assertEqual(404, e.code)
        self.adapter.get.side_effect = None
        self.adapter.get.return_value = _Answer(dict(RECORD,
                                                     status='queued'))
        e = self.assertRaises(exception.ImageNotFound, glance.get_image,
                              IMAGE_ID)
        self.assertIn('its status is queued, not active', str(e))

    def test_unavailable(self):
        for failure in (ks_exceptions.ConnectFailure('refused'),
                        ks_exceptions.Unauthorized(),
                        ks_exceptions.EndpointNotFound()):
            self.adapter.get.side_effect = failure
            e = self.assertRaises(exception.ImageServiceUnavailable,
                                  glance.get_image, IMAGE_ID)
            self.assertEqual(503, e.code)
        self.adapter.get.side_effect = None
        self.adapter.get.return_value = _Answer(ValueError('not JSON'))
        self.assertRaises(exception.ImageServiceUnavailable,
                          glance.get_image, IMAGE_ID)
        self.adapter.get.return_value = _Answer(dict(RECORD, id='other'))
        self.assertRaises(exception.ImageServiceUnavailable,
                          glance.get_image, IMAGE_ID)

    def test_download(self):
        answer = _Answer(chunks=[b'abc', b'def'])
        self.adapter.get.return_value = answer
        written = []
        fileobj = mock.Mock(write=written.append)
        self.assertEqual(6, glance.download(IMAGE_ID, fileobj, 1e12))
        self.assertEqual([b'abc', b'def'], written)
        self.assertTrue(answer.closed)
        self.adapter.get.assert_called_once_with(
            '/v2/images/%s/file' % IMAGE_ID, timeout=glance.TIMEOUT,
            stream=True)

    def test_download_cut_or_too_slow(self):
        self.adapter.get.return_value = _Answer(
            chunks=[b'abc'], error=requests.exceptions.ChunkedEncodingError(
                'connection reset'))
        e = self.assertRaises(exception.ImageServiceUnavailable,
                              glance.download, IMAGE_ID, mock.Mock(), 1e12)
        self.assertIn('connection reset', str(e))
        self.adapter.get.return_value = _Answer(chunks=[b'abc', b'def'])
        e = self.assertRaises(exception.ImageServiceUnavailable,
                              glance.download, IMAGE_ID, mock.Mock(), 0)
        self.assertIn('not done in time (3 bytes read)', str(e))

    def test_a_full_disk_is_not_glance_unavailable(self):
        self.adapter.get.return_value = _Answer(chunks=[b'abc'])
        fileobj = mock.Mock()
        fileobj.write.side_effect = OSError(28, 'No space left on device')
        self.assertRaises(OSError, glance.download, IMAGE_ID, fileobj, 1e12)


class TestAdapterFromOptions(base.TestCase):
    """Ironic's [glance] options, read by keystoneauth."""

    def setUp(self):
        super().setUp()
        glance.reset()
        self.addCleanup(glance.reset)

    def test_standalone_glance(self):
        self.config(auth_type='none', endpoint_override='http://g:9292',
                    group='glance')
        adapter = glance.adapter()
        self.assertEqual('http://g:9292', adapter.get_endpoint())
        self.assertEqual('image', adapter.service_type)
        self.assertEqual(['internal', 'public'], adapter.interface)
        self.assertIs(adapter, glance.adapter())

    def test_password_auth(self):
        from ironic_like.conf import CONF
        # The plugin's options (auth_url is required) would stay
        # registered on the global CONF and fail every later test that
        # parses it.
        self.addCleanup(CONF.unregister_opts,
                        ks_loading.get_auth_plugin_conf_options('password'),
                        group='glance')
        self.config(auth_type='password', group='glance')
        # keystoneauth registers the plugin's options when it loads it
        # (here without them: unavailable, naming what is missing).
        e = self.assertRaises(exception.ImageServiceUnavailable,
                              glance.adapter)
        self.assertIn('auth_url', str(e))
        self.config(auth_url='http://keystone:5000/v3', username='ironic',
                    password='secret', project_name='service',
                    user_domain_name='Default',
                    project_domain_name='Default', group='glance')
        glance.reset()
        auth = glance.adapter().auth
        self.assertEqual('http://keystone:5000/v3', auth.auth_url)
        self.assertEqual('ironic', CONF.glance.username)


class TestAvailability(base.TestCase):
    """Ironic's rules of who may deploy which Glance image
    (service_utils.is_image_available)."""

    def setUp(self):
        super().setUp()
        self.adapter = mock.Mock()
        self.adapter.get_project_id.return_value = 'service-project'
        self.useFixture(fixtures.MockPatchObject(
            glance, 'adapter', return_value=self.adapter))
        self.user = mock.Mock(roles=['member'], is_admin=False,
                              project_id='tenant')
        self.admin = mock.Mock(roles=['admin'], is_admin=True,
                               project_id='tenant')

    def _image(self, visibility, owner='someone'):
        return dict(RECORD, visibility=visibility, owner=owner)

    def test_public_and_community(self):
        for visibility in ('public', 'community'):
            self.assertTrue(glance.is_available(self._image(visibility),
                                                self.user))

    def test_admin_unless_configured_otherwise(self):
        self.assertTrue(glance.is_available(self._image('private'),
                                            self.admin))
        self.config(ignore_project_check_for_admin_tasks=False)
        self.assertFalse(glance.is_available(self._image('private'),
                                             self.admin))

    def test_private_to_this_services_project(self):
        self.assertTrue(glance.is_available(
            self._image('private', 'service-project'), self.user))
        # Another project's private image: not for a node's user.
        self.assertFalse(glance.is_available(
            self._image('private', 'tenant'), self.user))

    def test_shared_with_this_services_project(self):
        self.adapter.get.return_value = _Answer({'members': [
            {'member_id': 'service-project', 'status': 'accepted'}]})
        self.assertTrue(glance.is_available(self._image('shared'),
                                            self.user))
        self.adapter.get.return_value = _Answer({'members': []})
        self.assertFalse(glance.is_available(self._image('shared'),
                                             self.user))

    def test_no_project_without_authentication(self):
        self.adapter.get_project_id.return_value = None
        self.assertFalse(glance.is_available(
            self._image('private', None), self.user))

    def test_forbidden_is_not_found_for_the_deploy(self):
        self.adapter.get.side_effect = ks_exceptions.Forbidden()
        e = self.assertRaises(exception.ImageNotFound, glance.get_image,
                              IMAGE_ID)
        self.assertIn('refuses this service access', str(e))
