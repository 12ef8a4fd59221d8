"""Host OS configuration (/v1/hostos, doc/hostos.md): the version
document, modules (verified by a conductor from an archive the test
serves), configurations (selection, values checked against the module's
schema, secret values never shown), node labels driving the selection, and
the host agent's protocol with the test posing as the host agent of a
fake-hardware node deployed to ``active``.

Module archives are built with ironic_like.common.hostos.archive and
served by a small HTTP server the test class starts on 127.0.0.1: the
conductors download them from there, so these classes need the service on
the same machine (as tools/run_tempest.py runs it) and are skipped
otherwise. Every test labels its nodes with a value of its own and its
configurations select that value only, so that they act on the test's
nodes and nothing else. Every wait is bounded by [baremetal_like]
build_timeout (time) and build_interval (so in count).
"""

import hashlib
import http.server
import ipaddress
import json
import threading
from urllib import parse as urlparse

from tempest.lib import decorators
from tempest.lib import exceptions as lib_exc

from ironic_like.common.hostos import archive
from ironic_like.tests.tempest.api import base

CONF = base.CONF

PLAYBOOK = """\
- hosts: all
  gather_facts: false
  tasks:
    - name: the greeting
      debug:
        msg: "{{ values.greeting }}"
"""
SCHEMA = {'type': 'object', 'required': ['greeting'],
          'properties': {'greeting': {'type': 'string'},
                         'site': {'type': 'string'}},
          'additionalProperties': False}
VALUES = {'greeting': 'hello', 'site': 'tempest'}
# A secret value: it must never come back in an API response (only the
# host agent of a selected node receives it).
SENTINEL = 'Tempest-hostos-s3cret-5d0b7e21'
MASK = '******'
# The label the tests' selectors use (each test with its own value).
LABEL = 'tempest-hostos'
ROLE = 'tempest-hostos-role'
COUNTS = ('selected', 'waiting', 'pending', 'running', 'ok', 'failed',
          'removing')
LOOPBACK_NAMES = ('localhost', 'localhost.localdomain', 'ip6-localhost')


def fault(exc):
    """The message of an API error (tempest.lib exception): Ironic's
    body, whose ``error_message`` is a JSON document."""
    body = exc.resp_body
    if isinstance(body, dict) and 'error_message' in body:
        body = body['error_message']
    if isinstance(body, str):
        try:
            body = json.loads(body)
        except ValueError:
            return body
    if isinstance(body, dict):
        return body.get('faultstring') or json.dumps(body)
    return str(body)


def field_prefix(field):
    return 'Invalid input for field/attribute %s. ' % field


def spec_hash(item):
    """doc/hostos.md: sha256 of the canonical JSON (sorted keys, no
    spaces) of the item's name, runner, phase, version and params."""
    hashed = {key: item[key]
              for key in ('name', 'runner', 'phase', 'version', 'params')}
    text = json.dumps(hashed, sort_keys=True, separators=(',', ':'),
                      ensure_ascii=False)
    return hashlib.sha256(text.encode('utf-8')).hexdigest()


def is_loopback(host):
    if not host:
        return False
    if host.lower() in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


class ArchiveServer(object):
    """A small HTTP server on 127.0.0.1 serving module archives from
    memory (404 for anything else), counting the downloads of each."""

    def __init__(self):
        self.files = {}
        self.hits = {}
        self._lock = threading.Lock()
        owner = self

        class Handler(http.server.BaseHTTPRequestHandler):

            def do_GET(self):
                path = urlparse.urlsplit(self.path).path
                with owner._lock:
                    data = owner.files.get(path)
                    owner.hits[path] = owner.hits.get(path, 0) + 1
                if data is None:
                    self.send_error(404)
                    return
                self.send_response(200)
                self.send_header('Content-Type', 'application/gzip')
                self.send_header('Content-Length', str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(('127.0.0.1', 0),
                                                      Handler)
        self.server.daemon_threads = True
        self.port = self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever,
                                       kwargs={'poll_interval': 0.2},
                                       name='tempest-hostos-archives',
                                       daemon=True)
        self.thread.start()

    def url(self, path):
        return 'http://127.0.0.1:%d%s' % (self.port, path)

    def publish(self, path, data):
        with self._lock:
            self.files[path] = data
        return self.url(path)

    def downloads(self, path):
        with self._lock:
            return self.hits.get(path, 0)

    def stop(self):
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(10)


class HostOSTestBase(base.BaseBaremetalLikeTest):
    """The host OS client of tempest's system admin, an archive server,
    and helpers that create modules, configurations and nodes and always
    clean them up (configurations before the modules they use; nodes
    created after a configuration are deleted before it, so that no node
    holds its items then)."""

    # Node names (1.5), labels and everything else the node helpers use.
    min_microversion = '1.52'
    # Whether the class serves module archives (needs the service here).
    serve_archives = True

    @classmethod
    def setup_clients(cls):
        super().setup_clients()
        # /v1/hostos takes no Ironic microversion: none is sent.
        cls.hostos = cls.os_system_admin.baremetal_like_hostos.HostOSClient()

    @classmethod
    def resource_setup(cls):
        super().resource_setup()
        cls.archives = None
        if not cls.serve_archives:
            return
        host = urlparse.urlsplit(cls.hostos.base_url).hostname
        if not is_loopback(host):
            raise cls.skipException(
                'the service (%s) is not on this machine: its conductors '
                'could not download the module archives this test serves '
                'on 127.0.0.1' % cls.hostos.base_url)
        cls.archives = ArchiveServer()
        cls.addClassResourceCleanup(cls.archives.stop)

    # -- modules -------------------------------------------------------------

    def register_module(self, name=None, version='1.0.0', schema=SCHEMA,
                        deprecates=(), sha256sum=None, path=None,
                        publish=True, **fields):
        """Register a module version whose archive the test serves; the
        registered module (202, ``verifying``) and the archive's bytes.
        ``publish=False`` registers a URL that is not served (404)."""
        name = name or base.rand_name('hm')
        data = archive.make_module(name, version, PLAYBOOK, schema=schema,
                                   deprecates=deprecates)
        path = path or '/%s/%s-%s.tgz' % (base.rand_name('archives'), name,
                                          version)
        if publish:
            url = self.archives.publish(path, data)
        else:
            url = self.archives.url(path)
        module = self.hostos.create_module(
            name=name, version=version, url=url,
            sha256sum=sha256sum or hashlib.sha256(data).hexdigest(),
            **fields)
        self.addCleanup(self._ignore_not_found, self.hostos.delete_module,
                        name, version)
        return module, data

    def wait_for_module(self, name, version):
        """The module once a conductor verified it (any state but
        ``verifying``)."""
        def verified():
            module = self.hostos.show_module(name, version)
            return module['state'] != 'verifying' and module
        return self.wait_for(verified, 'module %s %s to be verified'
                             % (name, version))

    def available_module(self, **kwargs):
        module, data = self.register_module(**kwargs)
        module = self.wait_for_module(module['name'], module['version'])
        self.assertEqual('available', module['state'], module['error'])
        return module

    def error_module(self):
        """A module version in ``error`` (its sha256 is not its
        archive's)."""
        module, _data = self.register_module(sha256sum='0' * 64)
        module = self.wait_for_module(module['name'], module['version'])
        self.assertEqual('error', module['state'])
        return module

    # -- configurations ------------------------------------------------------

    @staticmethod
    def selector(value, **expressions):
        """Nodes labelled ``LABEL=value`` (and matching ``expressions``:
        {key: values} as In expressions)."""
        selector = {'match_labels': {LABEL: value}}
        if expressions:
            selector['match_expressions'] = [
                {'key': key, 'operator': 'In', 'values': list(values)}
                for key, values in sorted(expressions.items())]
        return selector

    @staticmethod
    def config(module, values=None, **fields):
        config = {'module': module['name'],
                  'module_version': module['version'],
                  'values': dict(VALUES) if values is None else values}
        config.update(fields)
        return config

    def create_configuration(self, configs, machine_selector, name=None,
                             **fields):
        name = name or base.rand_name('hc')
        configuration = self.hostos.create_configuration(
            name=name, machine_selector=machine_selector, configs=configs,
            **fields)
        self.addCleanup(self.delete_configuration, name)
        return configuration

    def delete_configuration(self, name):
        """Delete and wait until it is gone: a DELETE again retries the
        end of a deletion that nodes held (they are gone by now)."""
        def gone():
            try:
                self.hostos.delete_configuration(name)
                self.hostos.show_configuration(name)
            except lib_exc.NotFound:
                return True
            return False
        self.wait_for(gone, 'configuration %s to be deleted' % name)

    def config_nodes(self, name, **params):
        """{node uuid: entry} of GET configurations/{name}/nodes."""
        nodes = self.hostos.list_configuration_nodes(name, **params)
        return {entry['node_uuid']: entry for entry in nodes['nodes']}

    def assertCounts(self, expected, configuration):
        """The configuration's node counts: ``expected`` ones, 0 others."""
        counts = configuration['nodes']
        self.assertEqual(set(COUNTS), set(counts), counts)
        self.assertEqual(dict(dict.fromkeys(COUNTS, 0), **expected),
                         dict(counts))

    def assertNoSecret(self, *responses):
        for response in responses:
            self.assertNotIn(SENTINEL, json.dumps(response))

    def assertFault(self, exc_class, field, func, *args, **kwargs):
        """``func`` fails with ``exc_class`` and, when ``field`` is given,
        its message names that field; returns the message."""
        exc = self.assertRaises(exc_class, func, *args, **kwargs)
        message = fault(exc)
        if field is not None:
            self.assertIn(field_prefix(field), message)
        return message

    # -- nodes ---------------------------------------------------------------

    def labelled_node(self, value, **labels):
        labels[LABEL] = value
        return self.create_node(labels=labels)

    def active_node(self, value, **labels):
        """A fake-hardware node labelled ``LABEL=value`` and deployed
        (fake-hardware deploys at once): ``active``."""
        labels[LABEL] = value
        node = self.make_available_node(labels=labels)
        self.client.set_node_provision_state(node['uuid'], 'active')
        return self.wait_for_provision_state(node['uuid'], 'active')


class TestHostOSVersion(HostOSTestBase):

    serve_archives = False

    @decorators.idempotent_id('0b7c1c52-4a8e-4f0e-9c36-2f5d0f7c8a11')
    def test_version_document(self):
        version = self.hostos.show_version()
        self.assertEqual('v1', version['id'])
        self.assertEqual('1.0', version['version'])
        rels = {link['rel']: link['href'] for link in version['links']}
        self.assertEqual({'self', 'modules', 'configurations'}, set(rels))
        self.assertTrue(rels['self'].endswith('/v1/hostos'), rels)
        for resource in ('modules', 'configurations'):
            self.assertTrue(rels[resource].endswith('/v1/hostos/' +
                                                    resource), rels)
        # The resources answer, no microversion sent.
        self.assertIn('modules', self.hostos.list_modules())
        self.assertIn('configurations', self.hostos.list_configurations())


class TestHostOSModules(HostOSTestBase):

    @decorators.idempotent_id('5e9d8a0f-1c3b-4f57-8f0e-6a2b9d4c7e31')
    def test_register_and_verify(self):
        name = base.rand_name('hm')
        path = '/%s/%s-1.0.0.tgz' % (base.rand_name('archives'), name)
        module, data = self.register_module(name=name, path=path,
                                            description='made by tempest')
        sha256 = hashlib.sha256(data).hexdigest()
        self.assertEqual('verifying', module['state'])
        self.assertEqual(name, module['name'])
        self.assertEqual('1.0.0', module['version'])
        self.assertEqual(self.archives.url(path), module['url'])
        self.assertEqual(sha256, module['sha256sum'])
        self.assertEqual('made by tempest', module['description'])
        self.assertTrue(module['links'][0]['href'].endswith(
            '/v1/hostos/modules/%s/1.0.0' % name), module['links'])
        # A conductor downloads the archive once and checks it.
        module = self.wait_for_module(name, '1.0.0')
        self.assertEqual('available', module['state'], module['error'])
        self.assertIsNone(module['error'])
        self.assertIsNone(module['deprecated_by'])
        self.assertEqual('main.yaml', module['playbook'])
        self.assertEqual(SCHEMA, module['values_schema'])
        self.assertEqual(len(data), module['archive_size'])
        self.assertEqual([], module['used_by'])
        self.assertEqual(1, self.archives.downloads(path))
        # Listed, by name and by state.
        listed = self.hostos.list_modules(name=name)['modules']
        self.assertEqual([(name, '1.0.0', 'available')],
                         [(m['name'], m['version'], m['state'])
                          for m in listed])
        self.assertIn((name, '1.0.0'), [
            (m['name'], m['version'])
            for m in self.hostos.list_modules(state='available')['modules']])
        self.assertNotIn(name, [
            m['name']
            for m in self.hostos.list_modules(state='error')['modules']])
        self.assertEqual(['1.0.0'], [
            m['version']
            for m in self.hostos.list_module_versions(name)['modules']])
        # Only the description may change.
        patched = self.hostos.update_module(name, '1.0.0', [
            {'op': 'replace', 'path': '/description',
             'value': 'patched by tempest'}])
        self.assertEqual('patched by tempest', patched['description'])
        self.assertEqual('available', patched['state'])
        self.assertFault(lib_exc.BadRequest, 'url', self.hostos.update_module,
                         name, '1.0.0', [{'op': 'replace', 'path': '/url',
                                          'value': 'http://127.0.0.1:9/x'}])
        # The same version again: 409, nothing changed.
        message = self.assertFault(
            lib_exc.Conflict, None, self.hostos.create_module, name=name,
            version='1.0.0', url=module['url'], sha256sum=sha256)
        self.assertIn(name, message)
        self.assertEqual(1, self.archives.downloads(path))
        # Delete: gone.
        self.hostos.delete_module(name, '1.0.0')
        self.assertRaises(lib_exc.NotFound, self.hostos.show_module, name,
                          '1.0.0')
        self.assertRaises(lib_exc.NotFound, self.hostos.list_module_versions,
                          name)
        self.assertRaises(lib_exc.NotFound, self.hostos.delete_module, name,
                          '1.0.0')

    @decorators.idempotent_id('a3f0c6e2-7b1d-4d8e-b5a4-0c9e2f6d1b72')
    def test_deprecated_by_a_newer_version(self):
        old = self.available_module()
        name = old['name']
        new = self.available_module(name=name, version='1.1.0',
                                    deprecates=['1.0.0'])
        self.assertIsNone(new['deprecated_by'])
        old = self.hostos.show_module(name, '1.0.0')
        self.assertEqual('deprecated', old['state'])
        self.assertEqual('1.1.0', old['deprecated_by'])
        # Newest first.
        self.assertEqual(['1.1.0', '1.0.0'], [
            m['version']
            for m in self.hostos.list_module_versions(name)['modules']])

    @decorators.attr(type='negative')
    @decorators.idempotent_id('c81e4b27-9f6a-4a0d-8e3c-5b7d2a9f0e43')
    def test_wrong_sha256(self):
        module, data = self.register_module(sha256sum='ab' * 32)
        module = self.wait_for_module(module['name'], module['version'])
        self.assertEqual('error', module['state'])
        self.assertEqual("hashes are not the same: got '%s' want '%s'"
                         % (hashlib.sha256(data).hexdigest(), 'ab' * 32),
                         module['error'])
        self.assertIsNone(module['playbook'])
        self.assertIn((module['name'], module['version']), [
            (m['name'], m['version'])
            for m in self.hostos.list_modules(state='error')['modules']])

    @decorators.attr(type='negative')
    @decorators.idempotent_id('f2d6a8c4-3e5b-4b9f-a1c7-8d0e4f2b6a95')
    def test_archive_not_found(self):
        path = '/%s/missing.tgz' % base.rand_name('archives')
        module, _data = self.register_module(path=path, publish=False)
        module = self.wait_for_module(module['name'], module['version'])
        self.assertEqual('error', module['state'])
        error = module['error']
        self.assertTrue(error.startswith(
            'failed to perform request to fetch the module archive: Get '
            '"%s": ' % self.archives.url(path)), error)
        # The HTTP status the archive server answered.
        self.assertIn('Not Found', error)
        self.assertGreaterEqual(self.archives.downloads(path), 1)

    @decorators.attr(type='negative')
    @decorators.idempotent_id('1d9b5f3e-6c8a-4e2d-9b0f-7a4c1e8d3f26')
    def test_bad_request(self):
        name = base.rand_name('hm')
        good = {'name': name, 'version': '1.0.0',
                'url': self.archives.url('/nothing.tgz'),
                'sha256sum': '0' * 64}
        for field, value in [('name', 'Bad_Name'), ('name', '-x'),
                             ('version', '1.0'), ('version', 'v1.0.0'),
                             ('url', 'ftp://127.0.0.1/x.tgz'),
                             ('sha256sum', 'z' * 64),
                             ('sha256sum', '0' * 63)]:
            self.assertFault(lib_exc.BadRequest, field,
                             self.hostos.create_module,
                             **dict(good, **{field: value}))
        self.assertFault(lib_exc.BadRequest, 'colour',
                         self.hostos.create_module, colour='blue', **good)
        self.assertRaises(lib_exc.BadRequest, self.hostos.list_modules,
                          state='exploding')
        # Nothing was stored.
        self.assertRaises(lib_exc.NotFound, self.hostos.list_module_versions,
                          name)

    @decorators.attr(type='negative')
    @decorators.idempotent_id('7c4e2a9d-0b6f-4f1e-8a3d-2e9c5b7f1a08')
    def test_delete_in_use(self):
        module = self.available_module()
        configuration = self.create_configuration(
            [self.config(module)], self.selector(base.rand_name('sel')))
        name = configuration['name']
        self.assertEqual([name], self.hostos.show_module(
            module['name'], module['version'])['used_by'])
        message = self.assertFault(lib_exc.Conflict, None,
                                   self.hostos.delete_module,
                                   module['name'], module['version'])
        self.assertIn(name, message)
        self.assertEqual('available', self.hostos.show_module(
            module['name'], module['version'])['state'])
        # Once the configuration is gone, the version may go.
        self.delete_configuration(name)
        self.assertEqual([], self.hostos.show_module(
            module['name'], module['version'])['used_by'])
        self.hostos.delete_module(module['name'], module['version'])
        self.assertRaises(lib_exc.NotFound, self.hostos.show_module,
                          module['name'], module['version'])


class TestHostOSConfigurations(HostOSTestBase):

    @decorators.idempotent_id('3a8f1d6c-2e4b-4c9a-b7d5-9f0e3c6a2b14')
    def test_create_show_patch_delete(self):
        module = self.available_module()
        value = base.rand_name('sel')
        selector = self.selector(value)
        name = base.rand_name('hc')
        created = self.create_configuration(
            [self.config(module, secret_values={'token': SENTINEL},
                         order=3, description='tempest config')],
            selector, name=name, order=7, max_concurrent=2,
            failure_threshold=4)
        self.assertEqual(name, created['name'])
        self.assertEqual('active', created['status'])
        self.assertIsNone(created['status_reason'])
        self.assertEqual(dict(selector, match_expressions=[]),
                         created['machine_selector'])
        self.assertEqual(7, created['order'])
        self.assertEqual(2, created['max_concurrent'])
        self.assertEqual(4, created['failure_threshold'])
        self.assertTrue(created['links'][0]['href'].endswith(
            '/v1/hostos/configurations/%s' % name), created['links'])
        config = created['configs'][0]
        self.assertEqual(module['name'], config['module'])
        self.assertEqual(module['version'], config['module_version'])
        self.assertEqual(VALUES, config['values'])
        self.assertEqual({'token': MASK}, config['secret_values'])
        self.assertEqual(3, config['order'])
        self.assertEqual('reconfigure', config['phase'])
        # No node carries the label yet.
        self.assertCounts({}, created)
        # Show, list, nodes: the secret masked everywhere.
        shown = self.hostos.show_configuration(name)
        self.assertEqual(created['configs'], shown['configs'])
        self.assertCounts({}, shown)
        listed = {c['name']: c for c in
                  self.hostos.list_configurations()['configurations']}
        self.assertEqual(created['configs'], listed[name]['configs'])
        self.assertIn(name, [c['name'] for c in
                             self.hostos.list_configurations(
                                 status='active')['configurations']])
        nodes = self.hostos.list_configuration_nodes(name)
        self.assertEqual([], nodes['nodes'])
        # A labelled node is selected (counted) at once.
        node = self.labelled_node(value)
        shown = self.hostos.show_configuration(name)
        self.assertCounts({'selected': 1, 'waiting': 1}, shown)
        # PATCH a value: shown, the secret kept (and masked).
        patched = self.hostos.update_configuration(name, [
            {'op': 'replace', 'path': '/configs/0/values/greeting',
             'value': 'bonjour'}])
        self.assertEqual(dict(VALUES, greeting='bonjour'),
                         patched['configs'][0]['values'])
        self.assertEqual({'token': MASK},
                         patched['configs'][0]['secret_values'])
        self.assertEqual('bonjour', self.hostos.show_configuration(name)[
            'configs'][0]['values']['greeting'])
        # A PATCH violating the module's schema: 400, nothing changed.
        self.assertFault(lib_exc.BadRequest, 'configs/0/values/greeting',
                         self.hostos.update_configuration, name,
                         [{'op': 'replace',
                           'path': '/configs/0/values/greeting',
                           'value': 5}])
        self.assertEqual('bonjour', self.hostos.show_configuration(name)[
            'configs'][0]['values']['greeting'])
        # Read-only attributes.
        self.assertFault(lib_exc.BadRequest, 'status',
                         self.hostos.update_configuration, name,
                         [{'op': 'replace', 'path': '/status',
                           'value': 'paused'}])
        # Not paused: nothing to resume.
        self.assertRaises(lib_exc.Conflict, self.hostos.resume, name)
        self.assertNoSecret(created, shown, listed, nodes, patched,
                            self.hostos.list_configuration_nodes(name),
                            self.hostos.show_module(module['name'],
                                                    module['version']))
        # The node never had a host agent; once it is gone, no node holds
        # items: the deletion is done at once.
        self.cleanup_node(node['uuid'])
        self.hostos.delete_configuration(name)
        self.assertRaises(lib_exc.NotFound, self.hostos.show_configuration,
                          name)
        self.assertRaises(lib_exc.NotFound,
                          self.hostos.list_configuration_nodes, name)
        self.assertRaises(lib_exc.NotFound, self.hostos.delete_configuration,
                          name)
        self.assertNotIn(name, [c['name'] for c in
                                self.hostos.list_configurations()[
                                    'configurations']])

    @decorators.idempotent_id('9e2c7b4a-5d1f-4a8e-a0c3-6b8f2d4e9c57')
    def test_empty_selector_selects_no_node(self):
        module = self.available_module()
        value = base.rand_name('sel')
        self.labelled_node(value)
        for selector in ({}, None):
            name = base.rand_name('hc')
            fields = {} if selector is None else {
                'machine_selector': selector}
            configuration = self.hostos.create_configuration(
                name=name, configs=[self.config(module)], **fields)
            self.addCleanup(self.delete_configuration, name)
            self.assertEqual({'match_labels': {}, 'match_expressions': []},
                             configuration['machine_selector'])
            self.assertCounts({}, self.hostos.show_configuration(name))
            self.assertEqual(
                [], self.hostos.list_configuration_nodes(name)['nodes'])
            # No node holds anything: deleted at once.
            self.hostos.delete_configuration(name)
            self.assertRaises(lib_exc.NotFound,
                              self.hostos.show_configuration, name)

    @decorators.attr(type='negative')
    @decorators.idempotent_id('4b6d9e1f-8a2c-4f3b-9d5e-1c7a0b3f8e62')
    def test_refused(self):
        module = self.available_module()
        broken = self.error_module()
        selector = self.selector(base.rand_name('sel'))
        name = base.rand_name('hc')
        create = self.hostos.create_configuration
        # Values against the module's schema: the JSON pointer is named.
        self.assertFault(lib_exc.BadRequest, 'configs/0/values/greeting',
                         create, name=name, machine_selector=selector,
                         configs=[self.config(module,
                                              values={'greeting': 5})])
        # A missing or an unknown value: the values object is named.
        message = self.assertFault(lib_exc.BadRequest, 'configs/0/values',
                                   create, name=name,
                                   machine_selector=selector,
                                   configs=[self.config(module, values={})])
        self.assertIn('greeting', message)
        message = self.assertFault(lib_exc.BadRequest, 'configs/0/values',
                                   create, name=name,
                                   machine_selector=selector,
                                   configs=[self.config(module, values=dict(
                                       VALUES, colour='blue'))])
        self.assertIn('colour', message)
        # An unknown module version.
        message = self.assertFault(
            lib_exc.BadRequest, 'configs/0/module_version', create,
            name=name, machine_selector=selector,
            configs=[self.config(dict(module, version='9.9.9'))])
        self.assertIn('9.9.9', message)
        # A module version in error: 409 naming its state and error.
        message = self.assertFault(
            lib_exc.Conflict, None, create, name=name,
            machine_selector=selector, configs=[self.config(broken)])
        self.assertIn(broken['name'], message)
        self.assertIn('error', message)
        self.assertIn('hashes are not the same', message)
        # Other bad bodies.
        self.assertFault(lib_exc.BadRequest, 'configs', create, name=name,
                         machine_selector=selector, configs=[])
        self.assertFault(lib_exc.BadRequest, 'name', create,
                         name='Not_A_Name', machine_selector=selector,
                         configs=[self.config(module)])
        self.assertFault(lib_exc.BadRequest, 'configs/0/phase', create,
                         name=name, machine_selector=selector,
                         configs=[self.config(module, phase='deploy')])
        self.assertRaises(lib_exc.BadRequest, create, name=name,
                          machine_selector={'match_expressions': [
                              {'key': LABEL, 'operator': 'Near',
                               'values': ['x']}]},
                          configs=[self.config(module)])
        # A secret value is not quoted back in an error.
        message = self.assertFault(
            lib_exc.BadRequest, None, create, name=name,
            machine_selector=selector,
            configs=[self.config(module, values={'greeting': 5},
                                 secret_values={'token': SENTINEL})])
        self.assertNotIn(SENTINEL, message)
        # Nothing was stored.
        self.assertRaises(lib_exc.NotFound, self.hostos.show_configuration,
                          name)
        self.assertEqual([], self.hostos.show_module(
            module['name'], module['version'])['used_by'])
        # Twice the same name: 409.
        self.create_configuration([self.config(module)], selector, name=name)
        self.assertRaises(lib_exc.Conflict, create, name=name,
                          machine_selector=selector,
                          configs=[self.config(module)])


class TestHostOSNodeLabels(HostOSTestBase):

    @decorators.idempotent_id('6f1a3c8e-9b2d-4e7f-8c0a-4d5b2e9f7a31')
    def test_labels_drive_selection(self):
        module = self.available_module()
        value = base.rand_name('sel')
        name = self.create_configuration(
            [self.config(module)],
            self.selector(value, **{ROLE: ['web', 'db']}))['name']
        # Created after the configuration (deleted before it).
        node = self.labelled_node(value, **{ROLE: 'web'})
        other = self.labelled_node(value, **{ROLE: 'storage'})
        self.assertEqual({LABEL: value, ROLE: 'web'},
                         self.client.show_node(node['uuid'])['labels'])
        # Derivation is synchronous: the node is selected now.
        nodes = self.config_nodes(name)
        self.assertEqual([node['uuid']], list(nodes))
        entry = nodes[node['uuid']]
        self.assertEqual(node['name'], entry['node_name'])
        self.assertIn(entry['state'], ('waiting', 'pending'))
        config = '%s-%s-%s' % (name, module['name'], module['version'])
        self.assertEqual(
            ['host-os-download-%s-reconfigure' % config,
             'host-os-%s-reconfigure' % config],
            [item['name'] for item in entry['items']])
        self.assertEqual(['downloader', 'ansible'],
                         [item['runner'] for item in entry['items']])
        for item in entry['items']:
            self.assertIn(item['state'], ('waiting', 'pending'))
        self.assertCounts({'selected': 1, entry['state']: 1},
                          self.hostos.show_configuration(name))
        # Filters of the nodes view.
        self.assertEqual([node['uuid']], list(self.config_nodes(
            name, node=node['name'])))
        self.assertEqual([node['uuid']], list(self.config_nodes(
            name, state=entry['state'])))
        self.assertEqual([], list(self.config_nodes(name, state='ok')))
        self.assertRaises(lib_exc.BadRequest,
                          self.hostos.list_configuration_nodes, name,
                          state='exploding')
        # GET /v1/nodes?label_selector= filters by a Kubernetes selector.

        def selected(text):
            return sorted(n['uuid'] for n in self.client.list_nodes(
                label_selector=text)['nodes'])
        both = sorted([node['uuid'], other['uuid']])
        self.assertEqual(both, selected('%s=%s' % (LABEL, value)))
        self.assertEqual([node['uuid']], selected(
            '%s=%s,%s in (web,db)' % (LABEL, value, ROLE)))
        self.assertEqual([other['uuid']], selected(
            '%s=%s,%s notin (web,db)' % (LABEL, value, ROLE)))
        self.assertEqual(both, selected('%s=%s,!%s-legacy,%s'
                                        % (LABEL, value, LABEL, ROLE)))
        self.assertEqual([], selected('%s=%s,!%s' % (LABEL, value, ROLE)))
        self.assertRaises(lib_exc.BadRequest, self.client.list_nodes,
                          label_selector='%s in (' % LABEL)
        self.assertRaises(lib_exc.BadRequest, self.client.list_nodes,
                          label_selector=' ')
        # PATCH the label away: the node leaves the selection.
        self.client.update_node(node['uuid'], [
            {'op': 'remove', 'path': '/labels/%s' % LABEL}])
        self.assertEqual({ROLE: 'web'},
                         self.client.show_node(node['uuid'])['labels'])
        entry = self.config_nodes(name).get(node['uuid'])
        # Its items are dropped (shown "removing" until a host agent says
        # it holds none: this node never had one).
        self.assertIn(entry and entry['state'], (None, 'removing'))
        self.assertEqual({}, self.config_nodes(name, state='waiting'))
        self.assertEqual({}, self.config_nodes(name, state='pending'))
        counts = self.hostos.show_configuration(name)['nodes']
        self.assertEqual(0, counts['selected'])
        self.assertEqual([other['uuid']],
                         selected('%s=%s' % (LABEL, value)))
        # And back: selected again.
        self.client.update_node(node['uuid'], [
            {'op': 'add', 'path': '/labels/%s' % LABEL, 'value': value}])
        entry = self.config_nodes(name)[node['uuid']]
        self.assertIn(entry['state'], ('waiting', 'pending'))
        self.assertEqual(1, self.hostos.show_configuration(name)[
            'nodes']['selected'])
        # A PATCH of the selector selects the other node instead.
        self.hostos.update_configuration(name, [
            {'op': 'replace', 'path': '/machine_selector',
             'value': self.selector(value, **{ROLE: ['storage']})}])
        nodes = self.config_nodes(name)
        self.assertIn(nodes[other['uuid']]['state'], ('waiting', 'pending'))
        self.assertIn(nodes.get(node['uuid'], {}).get('state'),
                      (None, 'removing'))


class TestHostOSAgent(HostOSTestBase):
    """The test poses as the host agent of a fake-hardware node deployed
    to ``active`` (fake-hardware deploys at once, as the allocation tests
    use): heartbeats with reports, the items in order, reapply, the token
    (trust on first use, reset) and the deletion a host agent ends."""

    def report(self, item, state='ok', exit_code=0, **fields):
        report = {'name': item['name'], 'hash': item['hash'],
                  'state': state, 'exit_code': exit_code, 'attempt': 1,
                  'started_at': '2026-01-02T03:04:05+00:00',
                  'finished_at': '2026-01-02T03:04:06+00:00',
                  'output': 'PLAY RECAP tempest'}
        report.update(fields)
        return report

    def setup_configuration(self, **fields):
        """A module, a configuration with a secret value selecting a label
        of its own and, created after it, an active node carrying the
        label: (module, configuration, node)."""
        module = self.available_module()
        value = base.rand_name('sel')
        configuration = self.create_configuration(
            [self.config(module, secret_values={'token': SENTINEL})],
            self.selector(value), **fields)
        node = self.active_node(value)
        return module, configuration, node

    @decorators.idempotent_id('2c5e8a1b-7d3f-4b6e-9a0c-8e1f4d7b2a69')
    def test_host_agent_protocol(self):
        module, configuration, node = self.setup_configuration()
        name = configuration['name']
        uuid = node['uuid']
        self.assertEqual('waiting', self.config_nodes(name)[uuid]['state'])
        # The first heartbeat: a token (trust on first use) and the items,
        # released to the node.
        answer = self.hostos.heartbeat(uuid)
        token = answer['token']
        self.assertGreaterEqual(len(token), 32)
        self.assertIsNone(answer['hold'])
        self.assertGreaterEqual(answer['heartbeat_interval'], 1)
        self.assertGreaterEqual(answer['retry_interval'], 1)
        modules_dir = answer['modules_dir']
        config = '%s-%s-%s' % (name, module['name'], module['version'])
        download, ansible = answer['items']
        self.assertEqual('host-os-download-%s-reconfigure' % config,
                         download['name'])
        self.assertEqual('host-os-%s-reconfigure' % config, ansible['name'])
        self.assertEqual('downloader', download['runner'])
        self.assertEqual('ansible', ansible['runner'])
        path = '%s/%s-%s' % (modules_dir, module['name'], module['version'])
        self.assertEqual({'url': module['url'],
                          'sha256': module['sha256sum'], 'path': path},
                         download['params'])
        self.assertEqual('%s/main.yaml' % path, ansible['params']['playbook'])
        self.assertEqual(VALUES, ansible['params']['values'])
        self.assertEqual(1, ansible['params']['generation'])
        self.assertIn('ansible', ansible['params'])
        self.assertIn('secret_values_digest', ansible['params'])
        for item in (download, ansible):
            self.assertEqual('reconfigure', item['phase'])
            self.assertEqual('v1', item['version'])
            self.assertEqual(name, item['configuration'])
            self.assertFalse(item['hold'])
            self.assertEqual(spec_hash(item), item['hash'])
        # Only the host agent of a selected node gets the secret values,
        # with the item that runs the playbook only.
        self.assertEqual({'token': SENTINEL}, ansible['secret_values'])
        self.assertEqual({}, download['secret_values'])
        self.assertNotIn(SENTINEL, json.dumps(ansible['params']))
        self.assertEqual('pending', self.config_nodes(name)[uuid]['state'])
        # Later heartbeats need the token (and get no new one).
        again = self.hostos.heartbeat(uuid, token=token)
        self.assertNotIn('token', again)
        self.assertEqual([download['hash'], ansible['hash']],
                         [item['hash'] for item in again['items']])
        self.assertRaises(lib_exc.Unauthorized, self.hostos.heartbeat, uuid)
        self.assertRaises(lib_exc.Unauthorized, self.hostos.heartbeat, uuid,
                          token=token + 'x')
        # Reports: running, then ok.
        self.hostos.heartbeat(uuid, token=token, reports=[
            self.report(download),
            self.report(ansible, state='running', exit_code=None,
                        finished_at=None)])
        entry = self.config_nodes(name)[uuid]
        self.assertEqual('running', entry['state'])
        items = {item['name']: item for item in entry['items']}
        self.assertEqual('ok', items[download['name']]['state'])
        self.assertEqual(0, items[download['name']]['exit_code'])
        self.assertEqual('PLAY RECAP tempest',
                         items[download['name']]['output'])
        self.assertEqual('running', items[ansible['name']]['state'])
        self.hostos.heartbeat(uuid, token=token,
                              reports=[self.report(ansible)])
        entry = self.config_nodes(name)[uuid]
        self.assertEqual('ok', entry['state'])
        self.assertEqual(['ok', 'ok'],
                         [item['state'] for item in entry['items']])
        self.assertCounts({'selected': 1, 'ok': 1},
                          self.hostos.show_configuration(name))
        # Reapply: the ansible item's hash changes (one more generation),
        # the download's does not; the node has work again.
        reapplied = self.hostos.reapply(name, nodes=[node['name']])
        self.assertGreaterEqual(reapplied['reapplied_items'], 1)
        download2, ansible2 = self.hostos.heartbeat(uuid,
                                                    token=token)['items']
        self.assertEqual(download['hash'], download2['hash'])
        self.assertNotEqual(ansible['hash'], ansible2['hash'])
        self.assertEqual(2, ansible2['params']['generation'])
        self.assertEqual(spec_hash(ansible2), ansible2['hash'])
        self.assertEqual('pending', self.config_nodes(name)[uuid]['state'])
        self.hostos.heartbeat(uuid, token=token,
                              reports=[self.report(ansible2)])
        self.assertEqual('ok', self.config_nodes(name)[uuid]['state'])
        self.assertNoSecret(self.hostos.show_configuration(name),
                            self.hostos.list_configurations(),
                            self.hostos.list_configuration_nodes(name))
        # Reset: the old token is refused, the next heartbeat without one
        # gets a new one.
        self.hostos.reset_agent(uuid)
        self.assertRaises(lib_exc.Unauthorized, self.hostos.heartbeat, uuid,
                          token=token)
        new_token = self.hostos.heartbeat(uuid)['token']
        self.assertNotEqual(token, new_token)
        self.hostos.heartbeat(uuid, token=new_token)
        self.assertRaises(lib_exc.NotFound, self.hostos.reset_agent,
                          base.rand_name('tempest-no-such-node'))
        # Delete: "deleting" while the host agent holds the items, gone
        # once it holds none.
        names = [download['name'], ansible['name']]
        deleting = self.hostos.delete_configuration(name)
        self.assertEqual(202, deleting.response.status)
        self.assertEqual('deleting', deleting['status'])
        self.assertRaises(lib_exc.Conflict, self.hostos.update_configuration,
                          name, [{'op': 'replace', 'path': '/order',
                                  'value': 1}])
        self.assertEqual([], self.hostos.heartbeat(
            uuid, token=new_token, held=names)['items'])
        shown = self.hostos.show_configuration(name)
        self.assertEqual('deleting', shown['status'])
        self.assertEqual(1, shown['nodes']['removing'])
        self.assertEqual('removing', self.config_nodes(name)[uuid]['state'])
        self.hostos.heartbeat(uuid, token=new_token, held=[])
        self.assertRaises(lib_exc.NotFound, self.hostos.show_configuration,
                          name)

    @decorators.idempotent_id('8d3b6f2a-1e9c-4a5d-b7f0-3c6e9a2d5b18')
    def test_failure_threshold_and_resume(self):
        _module, configuration, node = self.setup_configuration(
            failure_threshold=1)
        name = configuration['name']
        uuid = node['uuid']
        answer = self.hostos.heartbeat(uuid)
        token = answer['token']
        download, ansible = answer['items']
        self.hostos.heartbeat(uuid, token=token, reports=[
            self.report(download),
            self.report(ansible, state='failed', exit_code=2,
                        output='fatal: tempest')])
        shown = self.hostos.show_configuration(name)
        self.assertEqual('paused', shown['status'])
        self.assertIn(node['name'], shown['status_reason'])
        self.assertCounts({'selected': 1, 'failed': 1}, shown)
        entry = self.config_nodes(name, state='failed')[uuid]
        items = {item['name']: item for item in entry['items']}
        self.assertEqual(2, items[ansible['name']]['exit_code'])
        self.assertEqual('fatal: tempest', items[ansible['name']]['output'])
        self.assertIn(name, [c['name'] for c in
                             self.hostos.list_configurations(
                                 status='paused')['configurations']])
        # Paused: the items are held.
        self.assertTrue(all(item['hold'] for item in self.hostos.heartbeat(
            uuid, token=token)['items']))
        resumed = self.hostos.resume(name)
        self.assertEqual('active', resumed['status'])
        self.assertIsNone(resumed['status_reason'])
        self.assertEqual('active',
                         self.hostos.show_configuration(name)['status'])
        self.assertRaises(lib_exc.Conflict, self.hostos.resume, name)
        self.assertFalse(any(item['hold'] for item in self.hostos.heartbeat(
            uuid, token=token)['items']))

    @decorators.idempotent_id('5a0e7c3d-4f8b-4d2a-9e6c-1b3f8d0a7e45')
    def test_held_while_not_active(self):
        module = self.available_module()
        value = base.rand_name('sel')
        name = self.create_configuration([self.config(module)],
                                         self.selector(value))['name']
        node = self.labelled_node(value)
        answer = self.hostos.heartbeat(node['uuid'])
        self.assertTrue(answer['token'])
        self.assertIsNone(answer['items'])
        self.assertIn('enroll', answer['hold'])
        # Nothing was released to it.
        self.assertEqual('waiting',
                         self.config_nodes(name)[node['uuid']]['state'])
        # In maintenance, likewise.
        self.client.set_maintenance(node['uuid'], 'tempest')
        answer = self.hostos.heartbeat(node['uuid'], token=answer['token'])
        self.assertIsNone(answer['items'])
        self.assertTrue(answer['hold'])
        self.assertNotIn('token', answer)
        # An unknown node is refused like a bad token.
        self.assertRaises(lib_exc.Unauthorized, self.hostos.heartbeat,
                          '6f3c1e0a-0000-4000-8000-000000000000')
        self.assertRaises(lib_exc.BadRequest, self.hostos.heartbeat,
                          'not-a-uuid')
