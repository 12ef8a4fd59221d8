"""Version discovery documents and microversion negotiation."""

from ironic_like.api import versions
from ironic_like.tests.unit.api import base

MAX = versions.MAX_VERSION_STRING
TOO_NEW = versions.to_string((1, versions.MAX_VERSION[1] + 1))


class TestRootDocument(base.APITestCase):

    def test_root_shape(self):
        r = self.app.get('/')
        doc = r.json
        self.assertEqual({'name', 'description', 'default_version',
                          'versions'}, set(doc))
        expected = {
            'id': 'v1',
            'links': [{'href': 'http://localhost/v1/', 'rel': 'self'}],
            'status': 'CURRENT',
            'min_version': versions.MIN_VERSION_STRING,
            'version': versions.MAX_VERSION_STRING,
        }
        self.assertEqual(expected, doc['default_version'])
        self.assertEqual([expected], doc['versions'])

    def test_root_links_use_public_endpoint(self):
        self.config(public_endpoint='https://bm.example.com/', group='api')
        doc = self.app.get('/').json
        self.assertEqual('https://bm.example.com/v1/',
                         doc['default_version']['links'][0]['href'])

    def test_root_links_keep_script_name(self):
        doc = self.app.get('/', extra_environ={
            'SCRIPT_NAME': '/baremetal'}).json
        self.assertEqual('http://localhost/baremetal/v1/',
                         doc['default_version']['links'][0]['href'])

    def test_root_ignores_bad_version_header(self):
        r = self.app.get('/', headers=base.version_header('garbage'))
        self.assertEqual('1.1', r.headers['X-OpenStack-Ironic-API-Version'])

    def test_v1_shape(self):
        for url in ('/v1', '/v1/'):
            doc = self.get(url).json
            self.assertEqual('v1', doc['id'])
            self.assertEqual(
                [{'href': 'http://localhost/v1/', 'rel': 'self'}],
                doc['links'][:1])
            self.assertEqual('describedby', doc['links'][1]['rel'])
            self.assertEqual(
                [{'base': 'application/json',
                  'type': 'application/vnd.openstack.ironic.v1+json'}],
                doc['media_types'])
            self.assertEqual(
                [{'href': 'http://localhost/v1/nodes/', 'rel': 'self'},
                 {'href': 'http://localhost/nodes/', 'rel': 'bookmark'}],
                doc['nodes'])
            for key in ('ports', 'drivers', 'conductors'):
                self.assertIn(key, doc)
            self.assertEqual(MAX, doc['version']['version'])
            self.assertEqual('1.1', doc['version']['min_version'])
            self.assertEqual('CURRENT', doc['version']['status'])

    def test_v1_hides_conductors_before_1_49(self):
        doc = self.get('/v1', version='1.48').json
        self.assertNotIn('conductors', doc)
        self.assertIn('conductors', self.get('/v1', version='1.49').json)


class TestMicroversions(base.APITestCase):

    def assertVersionHeaders(self, response, version):
        h = response.headers
        self.assertEqual('1.1', h['X-OpenStack-Ironic-API-Minimum-Version'])
        self.assertEqual(MAX, h['X-OpenStack-Ironic-API-Maximum-Version'])
        self.assertEqual(version, h['X-OpenStack-Ironic-API-Version'])
        self.assertEqual('baremetal %s' % version,
                         h['OpenStack-API-Version'])
        self.assertIn('OpenStack-API-Version', h['Vary'])
        self.assertIn('X-OpenStack-Ironic-API-Version', h['Vary'])

    def test_no_header_is_minimum(self):
        r = self.app.get('/v1/nodes')
        self.assertVersionHeaders(r, '1.1')

    def test_latest(self):
        r = self.app.get('/v1/nodes', headers=base.version_header('latest'))
        self.assertVersionHeaders(r, MAX)

    def test_explicit(self):
        r = self.app.get('/v1/nodes', headers=base.version_header('1.30'))
        self.assertVersionHeaders(r, '1.30')

    def test_standard_header(self):
        r = self.app.get('/v1/nodes', headers={
            'OpenStack-API-Version': 'compute 2.1, baremetal 1.40'})
        self.assertVersionHeaders(r, '1.40')

    def test_standard_header_wins_over_legacy(self):
        r = self.app.get('/v1/nodes', headers={
            'OpenStack-API-Version': 'baremetal 1.20',
            'X-OpenStack-Ironic-API-Version': '1.30'})
        self.assertVersionHeaders(r, '1.20')

    def test_standard_header_of_other_service_is_ignored(self):
        r = self.app.get('/v1/nodes', headers={
            'OpenStack-API-Version': 'compute 2.60'})
        self.assertVersionHeaders(r, '1.1')

    def test_malformed_is_400(self):
        for value in ('1', '1.x', 'abc', '1.01', '1.2.3', ''):
            if not value:
                continue
            r = self.app.get('/v1/nodes', headers=base.version_header(value),
                             status=400)
            self.assertFault(r, 400, 'Invalid value for '
                             'X-OpenStack-Ironic-API-Version')
            self.assertEqual(
                MAX, r.headers['X-OpenStack-Ironic-API-Maximum-Version'])

    def test_malformed_standard_header_is_400(self):
        r = self.app.get('/v1', headers={
            'OpenStack-API-Version': 'baremetal one'}, status=400)
        self.assertFault(r, 400)

    def test_too_new_is_406(self):
        r = self.app.get('/v1/nodes', headers=base.version_header(TOO_NEW),
                         status=406)
        self.assertFault(r, 406, TOO_NEW, '[1.1, %s]' % MAX)
        self.assertEqual('1.1',
                         r.headers['X-OpenStack-Ironic-API-Minimum-Version'])
        self.assertEqual(MAX,
                         r.headers['X-OpenStack-Ironic-API-Maximum-Version'])

    def test_too_old_is_406(self):
        r = self.app.get('/v1/nodes', headers=base.version_header('1.0'),
                         status=406)
        self.assertFault(r, 406, '1.0')

    def test_other_major_is_406(self):
        r = self.app.get('/v1/nodes', headers=base.version_header('2.1'),
                         status=406)
        self.assertFault(r, 406, 'Mutually exclusive versions')

    def test_headers_on_errors_too(self):
        missing = '11111111-1111-1111-1111-111111111111'
        r = self.get('/v1/nodes/%s' % missing, status=404)
        self.assertVersionHeaders(r, MAX)

    def test_request_id_header(self):
        # API 1.107: both headers, on successes and errors alike.
        for r in (self.app.get('/v1'),
                  self.get('/v1/nodes/nope', status=404)):
            self.assertTrue(
                r.headers['X-OpenStack-Request-Id'].startswith('req-'))
            self.assertEqual(r.headers['X-OpenStack-Request-Id'],
                             r.headers['OpenStack-Request-Id'])
