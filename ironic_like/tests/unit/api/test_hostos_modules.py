"""/v1/hostos and /v1/hostos/modules: the version document, registering
module versions (verified by the conductor's code, with the download
mocked), listing, showing, patching the description and deleting them.

HostOSAPITestCase is the base of every /v1/hostos test module."""

import hashlib
from unittest import mock

import fixtures
from oslo_utils import uuidutils

from ironic_like.common.hostos import archive
from ironic_like.common import states
from ironic_like.conductor.hostos import modules as conductor_modules
from ironic_like.conductor import rpcapi
from ironic_like.tests.unit.api import base
from ironic_like.tests.unit.api import test_auth

URL = '/v1/hostos/modules'
PLAYBOOK = '- hosts: all\n  gather_facts: false\n  tasks: []\n'
SYSCTL_SCHEMA = {
    'type': 'object',
    'additionalProperties': False,
    'properties': {
        'options': {'type': 'object',
                    'additionalProperties': {'type': 'integer',
                                             'minimum': 0}},
        'state': {'enum': ['present', 'absent']},
    },
}


class FakeResponse(object):
    """What modules._download reads of a requests response."""

    def __init__(self, body, status_code=200, reason='OK'):
        self.body = body
        self.status_code = status_code
        self.reason = reason

    def __enter__(self):
        return self

    def __exit__(self, *args):
        return False

    def iter_content(self, size):
        for start in range(0, len(self.body), size):
            yield self.body[start:start + size]


class HostOSAPITestCase(base.APITestCase):
    """The RPC these endpoints make (the verification cast, the wake-up
    of the boot operators) mocked; helpers for modules, nodes,
    configurations and heartbeats."""

    def setUp(self):
        super().setUp()
        self.verify_cast = self.useFixture(fixtures.MockPatchObject(
            rpcapi.ConductorAPI, 'verify_hostos_module',
            return_value=True)).mock
        self.wake = self.useFixture(fixtures.MockPatchObject(
            rpcapi.ConductorAPI, 'wake_boot_operators')).mock

    def assert_field(self, response, status, field, *fragments):
        return self.assertFault(
            response, status,
            'Invalid input for field/attribute %s.' % field, *fragments)

    # -- modules ------------------------------------------------------------

    def make_module(self, name='sysctl', version='1.0.0', state='available',
                    values_schema=None, **values):
        values.setdefault('url', 'https://modules.example.com/%s-%s.tgz'
                          % (name, version))
        values.setdefault('sha256sum', hashlib.sha256(
            ('%s-%s' % (name, version)).encode()).hexdigest())
        values.setdefault('playbook', 'main.yaml')
        return self.db.create_hostos_module(dict(
            values, name=name, version=version, state=state,
            values_schema=values_schema))

    # -- nodes --------------------------------------------------------------

    def active_node(self, name, labels=None, **values):
        values.setdefault('provision_state', states.ACTIVE)
        return self.create_node(name=name, labels=labels or {}, **values)

    # -- configurations -----------------------------------------------------

    @staticmethod
    def config_body(name='c1', configs=None, selector=None, **extra):
        body = {'name': name,
                'machine_selector': ({'match_labels': {'role': 'compute'}}
                                     if selector is None else selector),
                'configs': (configs if configs is not None else
                            [{'module': 'sysctl', 'module_version': '1.0.0',
                              'values': {}}])}
        body.update(extra)
        return body

    def create_configuration(self, status=201, **kwargs):
        return self.post('/v1/hostos/configurations',
                         self.config_body(**kwargs), status=status)

    # -- the host agent -----------------------------------------------------

    def heartbeat(self, node, token=None, reports=(), held=None,
                  status=200):
        body = {'node': node.uuid, 'agent_version': '1.0',
                'reports': list(reports)}
        if token is not None:
            body['token'] = token
        if held is not None:
            body['held'] = list(held)
        return self.app.post_json('/v1/hostos/agents/heartbeat', body,
                                  status=status)


class TestVersion(HostOSAPITestCase):

    def test_version_document(self):
        doc = self.get('/v1/hostos').json
        self.assertEqual('v1', doc['id'])
        self.assertEqual('1.0', doc['version'])
        rels = {link['rel']: link['href'] for link in doc['links']}
        self.assertEqual('http://localhost/v1/hostos/modules',
                         rels['modules'])
        self.assertEqual('http://localhost/v1/hostos/configurations',
                         rels['configurations'])
        self.assertEqual('http://localhost/v1/hostos', rels['self'])

    def test_no_microversion_needed(self):
        self.app.get('/v1/hostos/modules')

    def test_unknown_query_parameter(self):
        r = self.get('/v1/hostos?foo=1', status=400)
        self.assert_field(r, 400, 'foo')


def module_body(**kwargs):
    body = {'name': 'sysctl', 'version': '1.0.0',
            'url': 'https://modules.example.com/sysctl-1.0.0.tgz',
            'sha256sum': 'A' * 64, 'description': 'sysctl settings'}
    body.update(kwargs)
    return {k: v for k, v in body.items() if v is not None}


class TestRegister(HostOSAPITestCase):

    def test_register_202_verifying(self):
        r = self.post(URL, module_body(), status=202)
        doc = r.json
        self.assertEqual('verifying', doc['state'])
        self.assertEqual('sysctl', doc['name'])
        self.assertEqual('1.0.0', doc['version'])
        # Normalized to lower case.
        self.assertEqual('a' * 64, doc['sha256sum'])
        self.assertEqual('sysctl settings', doc['description'])
        self.assertTrue(uuidutils.is_uuid_like(doc['uuid']))
        for key in ('error', 'deprecated_by', 'playbook', 'values_schema',
                    'archive_size'):
            self.assertIsNone(doc[key], key)
        self.assertEqual([], doc['used_by'])
        self.assertEqual(
            [{'href': 'http://localhost/v1/hostos/modules/sysctl/1.0.0',
              'rel': 'self'}], doc['links'])
        module = self.db.get_hostos_module('sysctl', '1.0.0')
        self.verify_cast.assert_called_once_with(mock.ANY, module.id,
                                                 'sysctl')
        self.assertEqual(doc['uuid'],
                         self.get(URL + '/sysctl/1.0.0').json['uuid'])

    def test_cast_refused_or_failing_leaves_it_verifying(self):
        self.verify_cast.return_value = False
        self.post(URL, module_body(), status=202)
        self.verify_cast.side_effect = RuntimeError('no bus')
        self.post(URL, module_body(version='1.0.1'), status=202)
        for version in ('1.0.0', '1.0.1'):
            self.assertEqual('verifying', self.get(
                URL + '/sysctl/' + version).json['state'])

    def test_duplicate_409(self):
        self.post(URL, module_body(), status=202)
        r = self.post(URL, module_body(), status=409)
        self.assertFault(r, 409, 'sysctl', '1.0.0', 'already exists')

    def test_bad_bodies_400_name_the_field(self):
        cases = [
            (module_body(name=None), 'name'),
            (module_body(name='Sysctl'), 'name'),
            (module_body(name='-sysctl'), 'name'),
            (module_body(name='sysctl\n'), 'name'),
            (module_body(name='a' * 64), 'name'),
            (module_body(version=None), 'version'),
            (module_body(version='1.0'), 'version'),
            (module_body(version='v1.0.0'), 'version'),
            (module_body(version='01.0.0'), 'version'),
            (module_body(url=None), 'url'),
            (module_body(url='ftp://example.com/a.tgz'), 'url'),
            (module_body(url='https://'), 'url'),
            (module_body(url='https://[::1/a.tgz'), 'url'),
            (module_body(url='https://e.com/' + 'a' * 3000), 'url'),
            (module_body(sha256sum=None), 'sha256sum'),
            (module_body(sha256sum='g' * 64), 'sha256sum'),
            (module_body(sha256sum='a' * 63), 'sha256sum'),
            (module_body(description='x' * 5000), 'description'),
            (module_body(other=1), 'other'),
        ]
        for body, field in cases:
            r = self.post(URL, body, status=400)
            self.assert_field(r, 400, field)
        self.assertEqual([], self.get(URL).json['modules'])
        self.assertFalse(self.verify_cast.called)

    def test_not_an_object(self):
        self.post(URL, ['x'], status=400)
        self.raw('POST', URL, b'{', 400)


class TestVerification(HostOSAPITestCase):
    """The conductor's verification (the cast mocked away, called
    directly), as the API shows it."""

    def register(self, data, version='1.0.0', sha=None):
        body = module_body(version=version,
                           sha256sum=sha or hashlib.sha256(data).hexdigest())
        doc = self.post(URL, body, status=202).json
        module = self.db.get_hostos_module('sysctl', version)
        with mock.patch('requests.get',
                        return_value=FakeResponse(data)) as get:
            conductor_modules.verify(self.db, module.id)
        get.assert_called_once_with(body['url'], stream=True,
                                    timeout=mock.ANY)
        return self.get(doc['links'][0]['href']).json

    def test_available(self):
        data = archive.make_module('sysctl', '1.0.0', PLAYBOOK,
                                   schema=SYSCTL_SCHEMA)
        doc = self.register(data)
        self.assertEqual('available', doc['state'])
        self.assertIsNone(doc['error'])
        self.assertEqual('main.yaml', doc['playbook'])
        self.assertEqual(SYSCTL_SCHEMA, doc['values_schema'])
        self.assertEqual(len(data), doc['archive_size'])

    def test_hash_mismatch_is_an_error(self):
        data = archive.make_module('sysctl', '1.0.0', PLAYBOOK)
        doc = self.register(data, sha='b' * 64)
        self.assertEqual('error', doc['state'])
        self.assertIn('hashes are not the same', doc['error'])

    def test_download_failure(self):
        body = module_body()
        self.post(URL, body, status=202)
        module = self.db.get_hostos_module('sysctl', '1.0.0')
        with mock.patch('requests.get', return_value=FakeResponse(
                b'', status_code=404, reason='Not Found')):
            conductor_modules.verify(self.db, module.id)
        doc = self.get(URL + '/sysctl/1.0.0').json
        self.assertEqual('error', doc['state'])
        self.assertEqual('failed to perform request to fetch the module '
                         'archive: Get "%s": Not Found' % body['url'],
                         doc['error'])

    def test_deprecation(self):
        self.register(archive.make_module('sysctl', '1.0.0', PLAYBOOK))
        doc = self.register(archive.make_module(
            'sysctl', '2.0.0', PLAYBOOK, deprecates=['1.0.0']),
            version='2.0.0')
        self.assertEqual('available', doc['state'])
        old = self.get(URL + '/sysctl/1.0.0').json
        self.assertEqual('deprecated', old['state'])
        self.assertEqual('2.0.0', old['deprecated_by'])


class TestRead(HostOSAPITestCase):

    def setUp(self):
        super().setUp()
        self.make_module('sysctl', '1.0.0')
        self.make_module('sysctl', '1.10.0')
        self.make_module('sysctl', '1.2.0', state='error', error='bad')
        self.make_module('ntp', '0.1.0', state='verifying')

    def versions(self, url):
        return [(m['name'], m['version'])
                for m in self.get(url).json['modules']]

    def test_list_by_name_newest_first(self):
        self.assertEqual([('ntp', '0.1.0'), ('sysctl', '1.10.0'),
                          ('sysctl', '1.2.0'), ('sysctl', '1.0.0')],
                         self.versions(URL))

    def test_filters(self):
        self.assertEqual([('ntp', '0.1.0')], self.versions(URL + '?name=ntp'))
        self.assertEqual([('sysctl', '1.2.0')],
                         self.versions(URL + '?state=error'))
        self.assertEqual([], self.versions(URL + '?name=nope'))
        r = self.get(URL + '?state=broken', status=400)
        self.assert_field(r, 400, 'state', 'broken')
        r = self.get(URL + '?limit=1', status=400)
        self.assert_field(r, 400, 'limit')

    def test_versions_of_one_module(self):
        self.assertEqual([('sysctl', '1.10.0'), ('sysctl', '1.2.0'),
                          ('sysctl', '1.0.0')], self.versions(URL + '/sysctl'))
        r = self.get(URL + '/nope', status=404)
        self.assertFault(r, 404, 'nope')

    def test_show(self):
        doc = self.get(URL + '/sysctl/1.2.0').json
        self.assertEqual('error', doc['state'])
        self.assertEqual('bad', doc['error'])
        r = self.get(URL + '/sysctl/9.9.9', status=404)
        self.assertFault(r, 404, 'sysctl', '9.9.9')

    def test_url_password_masked(self):
        self.make_module('secret', '1.0.0',
                         url='https://user:pa55word@modules.example.com/x')
        doc = self.get(URL + '/secret/1.0.0').json
        self.assertNotIn('pa55word', doc['url'])
        self.assertIn('modules.example.com/x', doc['url'])

    def test_used_by(self):
        self.post('/v1/hostos/configurations', HostOSAPITestCase.config_body(
            name='c1'), status=201)
        self.assertEqual(['c1'], self.get(URL + '/sysctl/1.0.0').json[
            'used_by'])
        listed = {(m['name'], m['version']): m['used_by']
                  for m in self.get(URL).json['modules']}
        self.assertEqual(['c1'], listed[('sysctl', '1.0.0')])
        self.assertEqual([], listed[('sysctl', '1.10.0')])

    def test_unknown_subresources(self):
        self.get(URL + '/sysctl/1.0.0/nope', status=404)
        self.app.put_json(URL + '/sysctl/1.0.0', {}, status=405)
        self.app.post_json(URL + '/sysctl', {}, status=405)
        self.app.patch_json(URL + '/sysctl', [], status=405)
        self.app.delete(URL + '/sysctl', status=405)
        self.app.delete(URL, status=405)


class TestPatch(HostOSAPITestCase):

    def setUp(self):
        super().setUp()
        self.make_module('sysctl', '1.0.0', description='old')

    def test_description(self):
        doc = self.patch(URL + '/sysctl/1.0.0', [
            {'op': 'replace', 'path': '/description', 'value': 'new'}]).json
        self.assertEqual('new', doc['description'])
        self.assertEqual('new', self.db.get_hostos_module(
            'sysctl', '1.0.0').description)
        doc = self.patch(URL + '/sysctl/1.0.0', [
            {'op': 'remove', 'path': '/description'}]).json
        self.assertIsNone(doc['description'])

    def test_other_fields_400(self):
        for field in ('url', 'sha256sum', 'state', 'name', 'version',
                      'nope'):
            r = self.patch(URL + '/sysctl/1.0.0', [
                {'op': 'replace', 'path': '/%s' % field, 'value': 'x'}],
                status=400)
            self.assert_field(r, 400, field)
        r = self.patch(URL + '/sysctl/1.0.0', [
            {'op': 'replace', 'path': '/description', 'value': 5}],
            status=400)
        self.assert_field(r, 400, 'description')
        r = self.patch(URL + '/sysctl/1.0.0', [
            {'op': 'replace', 'path': '/description'}], status=400)
        self.assert_field(r, 400, 'description')
        self.patch(URL + '/sysctl/1.0.0', {'description': 'x'}, status=400)
        self.assertEqual('old', self.db.get_hostos_module(
            'sysctl', '1.0.0').description)

    def test_404(self):
        self.patch(URL + '/sysctl/2.0.0', [
            {'op': 'replace', 'path': '/description', 'value': 'x'}],
            status=404)


class TestDelete(HostOSAPITestCase):

    def test_delete(self):
        self.make_module('sysctl', '1.0.0')
        self.delete(URL + '/sysctl/1.0.0')
        self.get(URL + '/sysctl/1.0.0', status=404)
        self.delete(URL + '/sysctl/1.0.0', status=404)

    def test_in_use_409_names_the_configurations(self):
        self.make_module('sysctl', '1.0.0')
        self.create_configuration(name='c1')
        self.create_configuration(name='c2')
        r = self.delete(URL + '/sysctl/1.0.0', status=409)
        self.assertFault(r, 409, 'c1, c2')
        self.get(URL + '/sysctl/1.0.0')


class TestPolicy(test_auth.KeystoneTestCase, HostOSAPITestCase):

    with_conductor = False

    def test_reader_reads(self):
        self.make_module('sysctl', '1.0.0')
        reader = self.system('reader')
        self.get('/v1/hostos', headers=reader)
        self.get(URL, headers=reader)
        self.get(URL + '/sysctl', headers=reader)
        self.get(URL + '/sysctl/1.0.0', headers=reader)

    def test_non_admins_cannot_write(self):
        self.make_module('sysctl', '1.0.0')
        for headers in (self.system('reader'), self.system('member'),
                        self.project('admin')):
            r = self.post(URL, module_body(version='2.0.0'),
                          headers=headers, status=403)
            self.assertFault(r, 403, 'baremetal:hostos:write')
            self.patch(URL + '/sysctl/1.0.0', [
                {'op': 'replace', 'path': '/description', 'value': 'x'}],
                headers=headers, status=403)
            self.delete(URL + '/sysctl/1.0.0', headers=headers, status=403)
        self.post(URL, module_body(version='2.0.0'),
                  headers=self.system('admin'), status=202)

    def test_project_users_cannot_read(self):
        r = self.get(URL, headers=self.project('reader'), status=403)
        self.assertFault(r, 403, 'baremetal:hostos:get')
