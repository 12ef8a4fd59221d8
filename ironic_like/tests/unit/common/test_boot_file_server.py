"""The read-only boot file server on a free loopback port."""

import http.client
import os

import fixtures
import testtools

from ironic_like.common import boot_file_server


class TestBootFileServer(testtools.TestCase):

    def setUp(self):
        super().setUp()
        self.useFixture(fixtures.Timeout(30, gentle=True))
        tmp = self.useFixture(fixtures.TempDir()).path
        self.root = os.path.join(tmp, 'root')
        os.makedirs(os.path.join(self.root, 'macs'))
        self._write('macs/52:54:00:00:00:01.ipxe', b'#!ipxe\nboot\n')
        self._write('images/ipa.kernel', b'\x00kernel')
        # Outside the root, reachable by a link inside it.
        with open(os.path.join(tmp, 'secret'), 'wb') as f:
            f.write(b'secret')
        os.symlink(os.path.join(tmp, 'secret'),
                   os.path.join(self.root, 'link'))
        self.server = boot_file_server.BootFileServer(self.root,
                                                      '127.0.0.1', 0)
        self.server.start()
        self.addCleanup(self.server.stop)

    def _write(self, name, data):
        path = os.path.join(self.root, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, 'wb') as f:
            f.write(data)

    def _request(self, path, method='GET'):
        conn = http.client.HTTPConnection('127.0.0.1', self.server.port,
                                          timeout=10)
        self.addCleanup(conn.close)
        conn.request(method, path)
        resp = conn.getresponse()
        return resp, resp.read()

    def test_port_chosen(self):
        self.assertNotEqual(0, self.server.port)

    def test_get_ipxe_script(self):
        resp, body = self._request('/macs/52:54:00:00:00:01.ipxe')
        self.assertEqual(200, resp.status)
        self.assertEqual(b'#!ipxe\nboot\n', body)
        self.assertTrue(resp.getheader('Content-Type').startswith(
            'text/plain'))

    def test_get_binary_with_query(self):
        resp, body = self._request('/images/ipa.kernel?x=1')
        self.assertEqual(200, resp.status)
        self.assertEqual(b'\x00kernel', body)
        self.assertEqual('application/octet-stream',
                         resp.getheader('Content-Type'))

    def test_head(self):
        resp, body = self._request('/images/ipa.kernel', 'HEAD')
        self.assertEqual(200, resp.status)
        self.assertEqual('7', resp.getheader('Content-Length'))
        self.assertEqual(b'', body)

    def test_not_found(self):
        for path in ('/macs/none.ipxe', '/', '/macs/', '/images',
                     '/../secret', '/macs/../../secret',
                     '/%2e%2e/secret', '/link'):
            resp, _body = self._request(path)
            self.assertEqual(404, resp.status, path)

    def test_write_methods_refused(self):
        for method in ('POST', 'PUT', 'DELETE'):
            resp, _body = self._request('/images/ipa.kernel', method)
            self.assertEqual(405, resp.status, method)
        self.assertTrue(os.path.exists(
            os.path.join(self.root, 'images', 'ipa.kernel')))

    def test_stop_twice(self):
        self.server.stop()
        self.server.stop()
