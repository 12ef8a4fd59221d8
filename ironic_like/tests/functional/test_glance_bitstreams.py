"""FPGA bitstreams from a real Glance (ironic_like.accelerators.images,
image_service = glance).

One Glance (glance_fixture.GlanceServer: SQLite, file store, no auth) is
started for the class; every test uploads its own images with fresh
UUIDs, so the tests do not see each other's. Needs no RabbitMQ nor
database server; skipped without tools/install-glance.sh's virtualenv
(a failure when CI=true).
"""

import hashlib
import os
import uuid

from oslo_config import fixture as config_fixture

from ironic_like.accelerators import images
from ironic_like.common import exception
from ironic_like.conf import CONF
from ironic_like.tests.functional import base
from ironic_like.tests.functional import glance_fixture


def _uuid():
    return str(uuid.uuid4())


class TestGlanceBitstreams(base.FunctionalTestCase):

    SERVICES = ()
    TIMEOUT = 180

    @classmethod
    def _stop_glance(cls):
        server = cls.__dict__.get('_glance')
        if server is not None:
            cls._glance = None
            server.cleanUp()

    def glance(self):
        """The class's Glance, started by its first test."""
        cls = type(self)
        server = cls.__dict__.get('_glance')
        if server is None:
            glance_fixture.require_glance(self)
            failed = cls.__dict__.get('_glance_failed')
            if failed:
                # Not 60 s more per test.
                self.fail('Glance did not start for an earlier test of '
                          'this class: %s' % failed)
            server = glance_fixture.GlanceServer()
            try:
                server.setUp()
            except Exception as e:
                cls._glance_failed = str(e).splitlines()[0][:500]
                raise
            cls._glance = server
            cls.addClassCleanup(cls._stop_glance)
        self.watch(server.process)
        return server

    def setUp(self):
        super().setUp()
        self.server = self.glance()
        self.conf = self.useFixture(config_fixture.Config(CONF))
        self.conf.config(image_service='glance', glance_cloud=None,
                         glance_endpoint=self.server.endpoint,
                         download_timeout=30, group='accelerators')
        images.reset_service()
        self.addCleanup(images.reset_service)
        self.region = _uuid()
        self.f_gzip = _uuid()
        self.f_aes = _uuid()
        # Sizes around the 64 KiB chunk and the SDK's 1 MiB read.
        self.gzip_data = os.urandom(300 * 1024 + 7)
        self.aes_data = os.urandom(1536 * 1024 + 1)
        self.gzip_id = self.server.upload('gzip.bit', self.gzip_data, {
            'accel:function_uuid': self.f_gzip,
            'accel:function_name': 'gzip',
            'accel:region_type_uuid': self.region,
            'accel:vendor': 'Intel'})
        # Hidden images (not bootable: a natural choice for bitstreams)
        # are found too; the UUIDs are stored upper case, the vendor in
        # its trait form.
        self.aes_id = self.server.upload('aes.bit', self.aes_data, {
            'accel:function_uuid': self.f_aes.upper(),
            'accel:function_name': 'aes',
            'accel:region_type_uuid': self.region.upper(),
            'accel:vendor': 'INTEL'}, os_hidden=True)

    def ids(self, records):
        return [r.id for r in records]

    def test_get_and_data(self):
        record = images.get(self.gzip_id)
        self.assertIsInstance(images.get_service(),
                              images.GlanceImageService)
        self.assertEqual(self.gzip_id, record.id)
        self.assertEqual('gzip.bit', record.name)
        self.assertEqual(len(self.gzip_data), record.size)
        self.assertEqual(hashlib.md5(self.gzip_data).hexdigest(),
                         record.checksum)
        # Glance's default hashing algorithm.
        self.assertEqual('sha512', record.os_hash_algo)
        self.assertEqual(hashlib.sha512(self.gzip_data).hexdigest(),
                         record.os_hash_value)
        self.assertEqual(self.f_gzip, record.function_uuid)
        self.assertEqual('gzip', record.function_name)
        self.assertEqual(self.region, record.region_type_uuid)
        self.assertEqual('Intel', record.vendor)
        self.assertEqual(record.as_dict(), images.ImageRecord(
            **record.as_dict()).as_dict())

        for image_id, expected in ((self.gzip_id, self.gzip_data),
                                   (self.aes_id, self.aes_data)):
            chunks = list(images.data(image_id))
            self.assertGreater(len(chunks), 1)
            self.assertEqual(expected, b''.join(chunks))
            self.assertEqual(
                images.get(image_id).os_hash_value,
                hashlib.sha512(b''.join(chunks)).hexdigest())

    def test_find(self):
        both = sorted([self.aes_id, self.gzip_id],
                      key=lambda i: {self.aes_id: 'aes.bit',
                                     self.gzip_id: 'gzip.bit'}[i])
        # One match: by function (either case), by name.
        self.assertEqual([self.gzip_id], self.ids(images.find(
            function_uuid=self.f_gzip)))
        self.assertEqual([self.gzip_id], self.ids(images.find(
            function_uuid=self.f_gzip.upper())))
        self.assertEqual([self.aes_id], self.ids(images.find(
            function_uuid=self.f_aes)))
        self.assertEqual([self.gzip_id], self.ids(images.find(
            function_name='gzip', region_type_uuid=self.region)))
        # Function, region type and vendor, as os_acc asks.
        self.assertEqual([self.aes_id], self.ids(images.find(
            function_uuid=self.f_aes, region_type_uuid=self.region,
            vendor='intel')))
        # Two matches: the region type and the vendor in any spelling.
        for vendor in ('Intel', 'INTEL', 'intel', None):
            self.assertEqual(both, self.ids(images.find(
                region_type_uuid=self.region, vendor=vendor)))
        self.assertEqual(both, self.ids(images.find(
            region_type_uuid=self.region.upper())))
        # None.
        self.assertEqual([], images.find(function_uuid=self.f_gzip,
                                         vendor='Xilinx'))
        self.assertEqual([], images.find(function_uuid=self.f_gzip,
                                         region_type_uuid=_uuid()))
        self.assertEqual([], images.find(function_name='gzip',
                                         function_uuid=self.f_aes))
        self.assertEqual([], images.find(function_uuid=_uuid()))
        self.assertEqual([], images.find(region_type_uuid=_uuid()))

    def test_not_found_and_not_active(self):
        missing = _uuid()
        for call in (images.get, images.data):
            error = self.assertRaises(exception.BitstreamNotFound, call,
                                      missing)
            self.assertIn(missing, str(error))
            self.assertEqual(404, error.code)
        # Queued (no data yet) and deactivated images are not usable.
        queued = self.server.create('queued.bit', {
            'accel:function_uuid': self.f_gzip,
            'accel:region_type_uuid': self.region})['id']
        error = self.assertRaises(exception.BitstreamNotFound, images.get,
                                  queued)
        self.assertIn('queued', str(error))
        self.server.deactivate(self.aes_id)
        self.assertEqual('deactivated',
                         self.server.image(self.aes_id)['status'])
        self.assertRaises(exception.BitstreamNotFound, images.get,
                          self.aes_id)
        self.assertEqual([self.gzip_id], self.ids(images.find(
            region_type_uuid=self.region)))

    def test_unavailable(self):
        port = base.free_port()
        self.conf.config(glance_endpoint='http://127.0.0.1:%d' % port,
                         group='accelerators')
        for call, args in ((images.get, (self.gzip_id,)),
                           (images.find, ()),
                           (images.data, (self.gzip_id,))):
            error = self.assertRaises(exception.ImageServiceUnavailable,
                                      call, *args)
            self.assertIn('Glance at http://127.0.0.1:%d' % port,
                          str(error))
            self.assertEqual(503, error.code)
