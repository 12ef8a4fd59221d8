"""The lab's host OS configuration stage (ironic_like_lab.hostos_stage)
against a fake /v1/hostos API and a fake simulator control API on
loopback."""

import hashlib
import io
import os
import tarfile
import threading
from http import server as http_server
from urllib import parse

import fixtures
import testtools
import yaml

from ironic_like_lab import hostos_stage
from ironic_like_lab import lab as lab_module

from ironic_like.tests.unit.lab import fakes


def counts(**states):
    doc = {state: 0 for state in ('selected', 'waiting', 'pending',
                                  'running', 'ok', 'failed')}
    doc.update(states)
    return doc


class FakeHostOSAPI(fakes.BackgroundServer):
    """The routes the stage uses: the module (``module_states`` answered
    in turn by its GET, the last one again and again), node PATCH, the
    configuration (``configurations``: its documents in turn; None
    answers 404) and its nodes, and the simulator's GET
    /control/agents/<id> (one server stands for both).

    ``on_configuration_get(doc)`` runs before each GET of the
    configuration is answered (the test's host agents write their motd
    there).
    """

    def __init__(self):
        self.requests = []
        self.module_post = (202, None)
        self.module_states = [{'state': 'verifying'},
                              {'state': 'available', 'archive_size': 352}]
        self.configurations = []
        self.nodes_doc = {'nodes': []}
        self.delete_status = 202
        self.machines = {}
        self.on_configuration_get = None
        self.lock = threading.Lock()
        api = self

        class Handler(fakes._Quiet, fakes.JSONReplies,
                      http_server.BaseHTTPRequestHandler):
            protocol_version = 'HTTP/1.1'

            def _handle(self):
                body = self._json_body()
                url = parse.urlsplit(self.path)
                with api.lock:
                    api.requests.append((self.command, self.path, body))
                self._reply(*api.route(self.command, url.path, body))

            do_GET = do_POST = do_PATCH = do_DELETE = _handle

        self.serve(Handler)

    def _next(self, docs):
        with self.lock:
            return docs.pop(0) if len(docs) > 1 else docs[0]

    def route(self, method, path, body):
        parts = path.strip('/').split('/')
        module = {'name': 'motd', 'version': '1.0.0', 'error': None}
        if method == 'POST' and path == '/v1/hostos/modules':
            status, doc = self.module_post
            if status != 409:
                self.registered = body
            return status, doc or dict(body, state='verifying')
        if method == 'GET' and path == '/v1/hostos/modules/motd/1.0.0':
            module['sha256sum'] = self.registered['sha256sum']
            module.update(self._next(self.module_states))
            return 200, module
        if method == 'PATCH' and parts[:2] == ['v1', 'nodes']:
            return 200, {'uuid': parts[2]}
        if method == 'POST' and path == '/v1/hostos/configurations':
            return 201, dict(body, status='active', nodes=counts())
        if path == '/v1/hostos/configurations/motd':
            if method == 'DELETE':
                return self.delete_status, (
                    None if self.delete_status == 204
                    else {'name': 'motd', 'status': 'deleting'})
            doc = self._next(self.configurations)
            if doc is None:
                return 404, {'error_message': 'Configuration motd could '
                                              'not be found.'}
            if self.on_configuration_get is not None:
                self.on_configuration_get(doc)
            return 200, doc
        if (method == 'GET'
                and path == '/v1/hostos/configurations/motd/nodes'):
            return 200, self.nodes_doc
        if method == 'GET' and parts[:2] == ['control', 'agents']:
            doc = self.machines.get(parts[2])
            if doc is None:
                return 404, {'error': 'no agent'}
            return 200, doc
        return 404, {'error_message': 'no route %s %s' % (method, path)}

    def sent(self, method, prefix):
        with self.lock:
            return [r for r in self.requests
                    if r[0] == method and r[1].startswith(prefix)]


def configuration(status='active', **states):
    return {'name': 'motd', 'status': status, 'status_reason': None,
            'nodes': counts(**states)}


class ModuleArchiveTestCase(testtools.TestCase):

    def test_content(self):
        data = hostos_stage.module_archive()
        self.assertEqual(b'\x1f\x8b', data[:2])  # gzip
        with tarfile.open(fileobj=io.BytesIO(data), mode='r:gz') as tar:
            self.assertEqual(['metadata.yaml', 'main.yaml'],
                             tar.getnames())
            metadata = yaml.safe_load(tar.extractfile('metadata.yaml'))
            plays = yaml.safe_load(tar.extractfile('main.yaml'))
        self.assertEqual({'name': 'motd', 'version': '1.0.0',
                          'playbook': 'main.yaml'}, metadata)
        [play] = plays
        self.assertIs(False, play['gather_facts'])
        mkdir, copy = play['tasks']
        self.assertEqual({'path': '{{ host_os_root }}/etc',
                          'state': 'directory', 'mode': '0755'},
                         mkdir['ansible.builtin.file'])
        self.assertEqual('{{ host_os_root }}/etc/motd',
                         copy['ansible.builtin.copy']['dest'])
        self.assertEqual('{{ values.motd }}',
                         copy['ansible.builtin.copy']['content'])

    def test_same_bytes_every_time(self):
        # Same sha256: registering it again against a deployment that
        # has it (--api-url) finds the same archive.
        self.assertEqual(hostos_stage.module_archive(),
                         hostos_stage.module_archive())


class HostOSStageTestCase(testtools.TestCase):

    def setUp(self):
        super().setUp()
        self.useFixture(fixtures.Timeout(30, gentle=True))
        self.workdir = self.useFixture(fixtures.TempDir()).path
        self.api = FakeHostOSAPI().start()
        self.addCleanup(self.api.stop)
        self.lines = []
        self.lab = lab_module.Lab(self.workdir, 3, api_url=self.api.url,
                                  log=self.lines.append)
        self.lab.sim_url = self.api.url
        self.lab.http_url = 'http://boot.example:8080'
        self.lab.poll_interval = 0.01
        self.lab.nodes = ['uuid-%s' % s['name'] for s in self.lab.systems]
        self.roots = {}
        for system in self.lab.systems:
            root = os.path.join(self.workdir, '%s.root' % system['name'])
            self.roots[system['uuid']] = root
            self.api.machines[system['uuid']] = {
                'id': system['uuid'], 'host_root': root,
                'host_agent': {'runs': 2, 'downloads': 1}}
        self.api.configurations = [
            configuration(selected=3, pending=3),
            configuration(selected=3, pending=3),
            configuration(selected=3, running=2, ok=1),
            configuration(selected=3, ok=3),
            configuration('deleting', selected=3, ok=3),
            None]
        self.api.on_configuration_get = self.host_agents

    def host_agents(self, doc, value=hostos_stage.MOTD):
        """Once the counts say ok, the machines hold the motd."""
        if doc['nodes']['ok'] != 3:
            return
        for root in self.roots.values():
            os.makedirs(os.path.join(root, 'etc'), exist_ok=True)
            with open(os.path.join(root, 'etc', 'motd'), 'w') as f:
                f.write(value)

    def progress(self):
        return [line.split('s ', 1)[1] for line in self.lines
                if line.startswith('  ') and 's ' in line[:10]]

    def test_stage(self):
        took = self.lab.host_os_configuration(5)
        self.assertGreater(took, 0)

        # The archive, beside the boot files, registered with its sha256.
        path = os.path.join(self.lab.http_root, 'hostos', 'motd-1.0.0.tgz')
        with open(path, 'rb') as f:
            data = f.read()
        self.assertEqual(hostos_stage.module_archive(), data)
        [(_m, _p, module)] = self.api.sent('POST', '/v1/hostos/modules')
        self.assertEqual({'name': 'motd', 'version': '1.0.0',
                          'url': 'http://boot.example:8080/hostos/'
                                 'motd-1.0.0.tgz',
                          'sha256sum': hashlib.sha256(data).hexdigest(),
                          'description': 'ironic-like-lab: /etc/motd'},
                         module)
        # Polled until available.
        self.assertEqual(2, len(self.api.sent(
            'GET', '/v1/hostos/modules/motd/1.0.0')))

        patches = self.api.sent('PATCH', '/v1/nodes/')
        self.assertEqual(['/v1/nodes/%s' % uuid for uuid in self.lab.nodes],
                         [p for _m, p, _b in patches])
        for _m, _p, body in patches:
            self.assertEqual([{'op': 'add', 'path': '/labels/lab',
                               'value': 'motd'}], body)

        [(_m, _p, config)] = self.api.sent('POST',
                                           '/v1/hostos/configurations')
        self.assertEqual({'name': 'motd',
                          'machine_selector': {'match_labels': {
                              'lab': 'motd'}},
                          'configs': [{'module': 'motd',
                                       'module_version': '1.0.0',
                                       'values': {
                                           'motd': hostos_stage.MOTD}}]},
                         config)
        # Deleted once ok and checked, then polled until gone (404).
        self.assertEqual(1, len(self.api.sent(
            'DELETE', '/v1/hostos/configurations/motd')))
        methods = [m for m, p, _b in self.api.requests
                   if p.startswith('/v1/hostos/configurations/motd')]
        self.assertEqual(['GET'] * 4 + ['DELETE'] + ['GET'] * 2, methods)

        # One line per change of the counts, not per poll.
        self.assertEqual('host OS configuration 3 nodes...', self.lines[0])
        self.assertTrue(self.lines[1].startswith(
            '  module motd 1.0.0 available after '), self.lines[1])
        self.assertTrue(self.lines[1].endswith(
            's (352 bytes at http://boot.example:8080/hostos/'
            'motd-1.0.0.tgz)'), self.lines[1])
        self.assertEqual(['pending: 3', 'ok: 1, running: 2', 'ok: 3'],
                         self.progress())
        self.assertTrue(self.lines[-1].startswith(
            '  configuration motd deleted after '), self.lines[-1])
        self.assertIn('  machines whose /etc/motd holds the value: 3 of 3 '
                      '(host agents: 6 items run, 3 downloads)', self.lines)

    def test_deleted_at_once(self):
        self.api.delete_status = 204
        self.api.configurations = self.api.configurations[:4]
        self.lab.host_os_configuration(5)
        methods = [m for m, p, _b in self.api.requests
                   if p.startswith('/v1/hostos/configurations/motd')]
        self.assertEqual(['GET'] * 4 + ['DELETE'], methods)

    def test_not_ok_within_timeout(self):
        # Available at once: the short bound is the wait's.
        self.api.module_post = (202, {'state': 'available'})
        self.api.configurations = [configuration(selected=3, ok=2,
                                                 running=1)]
        self.api.nodes_doc = {'nodes': [
            {'node_name': 'lab-0000', 'state': 'ok', 'items': []},
            {'node_name': 'lab-0002', 'state': 'running', 'items': []}]}
        error = self.assertRaises(RuntimeError,
                                  self.lab.host_os_configuration, 0.05)
        self.assertIn('host OS configuration motd: 2 of 3 nodes ok within',
                      str(error))
        self.assertIn("('lab-0002', 'running', '')", str(error))
        self.assertNotIn('lab-0000', str(error))
        self.assertEqual([], self.api.sent('DELETE', '/v1/hostos/'))

    def test_node_failed(self):
        self.api.configurations = [configuration(selected=3, ok=2,
                                                 failed=1)]
        self.api.nodes_doc = {'nodes': [
            {'node_name': 'lab-0001', 'state': 'failed', 'items': [
                {'state': 'ok', 'output': 'downloaded'},
                {'state': 'failed', 'output': 'fatal: [localhost]: '
                                              'FAILED! permission denied'}]}]}
        error = self.assertRaises(RuntimeError,
                                  self.lab.host_os_configuration, 5)
        self.assertIn('1 nodes failed', str(error))
        self.assertIn('lab-0001', str(error))
        self.assertIn('permission denied', str(error))
        self.assertIn('?state=failed', self.api.sent(
            'GET', '/v1/hostos/configurations/motd/nodes')[0][1])

    def test_paused(self):
        doc = configuration('paused', selected=3, pending=3)
        doc['status_reason'] = 'failure threshold reached'
        self.api.configurations = [doc]
        error = self.assertRaises(RuntimeError,
                                  self.lab.host_os_configuration, 5)
        self.assertIn('paused: failure threshold reached', str(error))

    def test_motd_missing_or_wrong(self):
        first, second, _third = [s['uuid'] for s in self.lab.systems]

        def host_agents(doc):
            self.host_agents(doc)
            if doc['nodes']['ok'] == 3:
                os.unlink(os.path.join(self.roots[first], 'etc', 'motd'))
                with open(os.path.join(self.roots[second], 'etc', 'motd'),
                          'w') as f:
                    f.write('stale')
        self.api.on_configuration_get = host_agents
        error = self.assertRaises(RuntimeError,
                                  self.lab.host_os_configuration, 5)
        self.assertIn("['lab-0000', 'lab-0001'] does not hold the value",
                      str(error))
        self.assertIn('  machines whose /etc/motd holds the value: 1 of 3 '
                      '(host agents: 6 items run, 3 downloads)', self.lines)
        self.assertEqual([], self.api.sent('DELETE', '/v1/hostos/'))

    def test_module_error(self):
        self.api.module_states = [{'state': 'error',
                                   'error': 'hashes are not the same'}]
        error = self.assertRaises(RuntimeError,
                                  self.lab.host_os_configuration, 5)
        self.assertEqual('host OS module motd 1.0.0: error: hashes are not '
                         'the same', str(error))
        self.assertEqual([], self.api.sent('POST',
                                           '/v1/hostos/configurations'))

    def test_module_still_verifying(self):
        self.api.module_states = [{'state': 'verifying'}]
        error = self.assertRaises(RuntimeError,
                                  self.lab.host_os_configuration, 0.05)
        self.assertIn('host OS module motd 1.0.0: still verifying',
                      str(error))

    def test_module_already_registered(self):
        self.api.module_post = (409, {'error_message': 'exists'})
        self.api.registered = {'sha256sum': hashlib.sha256(
            hostos_stage.module_archive()).hexdigest()}
        self.lab.host_os_configuration(5)
        self.api.registered = {'sha256sum': '0' * 64}
        error = self.assertRaises(RuntimeError,
                                  self.lab.host_os_configuration, 5)
        self.assertIn('already registered with another archive',
                      str(error))

    def test_delete_failed(self):
        self.api.configurations[4] = dict(
            configuration('delete_failed', selected=3, ok=3),
            status_reason='nodes still holding items: lab-0002')
        error = self.assertRaises(RuntimeError,
                                  self.lab.host_os_configuration, 5)
        self.assertIn('delete_failed: nodes still holding items: lab-0002',
                      str(error))


class CycleTestCase(testtools.TestCase):
    """Where cycle() runs the stage, and --no-hostos."""

    def setUp(self):
        super().setUp()
        self.workdir = self.useFixture(fixtures.TempDir()).path
        self.calls = []
        for name in ('set_image', 'disks_match_image'):
            self.useFixture(fixtures.MockPatchObject(
                lab_module.Lab, name, autospec=True, return_value=[]))
        self.useFixture(fixtures.MockPatchObject(
            lab_module.Lab, 'provision', autospec=True,
            side_effect=lambda lab, target: self.calls.append(target)))
        self.useFixture(fixtures.MockPatchObject(
            lab_module.Lab, 'wait_all', autospec=True,
            return_value=(1.0, {})))
        # The accelerators' checks: test_lab_accelerators.
        self.useFixture(fixtures.MockPatchObject(
            lab_module.accelerator_stage, 'AcceleratorStage'))
        self.stage = self.useFixture(fixtures.MockPatchObject(
            lab_module.Lab, 'host_os_configuration', autospec=True,
            side_effect=lambda lab, timeout: self.calls.append(
                ('hostos', timeout)) or 4.0)).mock

    def cycle(self, **kwargs):
        lab = lab_module.Lab(self.workdir, 2, log=lambda line: None,
                             **kwargs)
        lab.nodes = ['a', 'b']
        return lab.cycle(300)

    def test_between_deploy_and_undeploy(self):
        took = self.cycle()
        self.assertEqual(['manage', 'provide', 'active', ('hostos', 300),
                          'deleted'], self.calls)
        self.assertEqual(['manage', 'provide (clean)', 'deploy',
                          'host OS configuration', 'undeploy (clean)'],
                         list(took))
        self.assertEqual(4.0, took['host OS configuration'])

    def test_skipped(self):
        took = self.cycle(hostos=False)
        self.assertEqual(['manage', 'provide', 'active', 'deleted'],
                         self.calls)
        self.assertNotIn('host OS configuration', took)

    def test_flag(self):
        self.assertFalse(lab_module.parse_args([]).no_hostos)
        self.assertTrue(lab_module.parse_args(['--no-hostos']).no_hostos)

    def test_main_passes_flag_and_prints_stage(self):
        labs = []
        self.useFixture(fixtures.MockPatchObject(
            lab_module.Lab, 'start', autospec=True,
            side_effect=lambda lab: setattr(lab, 'api_url', 'http://x')
            or setattr(lab, 'bmc_url', 'x') or setattr(lab, 'sim_url', 'x')))
        self.useFixture(fixtures.MockPatchObject(
            lab_module.Lab, 'enrol', autospec=True,
            side_effect=lambda lab: labs.append(lab) or setattr(
                lab, 'nodes', ['a', 'b'])))
        self.useFixture(fixtures.MockPatchObject(
            lab_module.Lab, 'stop', autospec=True))
        self.useFixture(fixtures.MockPatchObject(
            lab_module.Lab, 'boot_session', autospec=True,
            return_value=1.0))
        self.useFixture(fixtures.MockPatchObject(lab_module.signal,
                                                 'signal'))
        out = []
        self.useFixture(fixtures.MockPatchObject(
            lab_module, 'print', create=True,
            side_effect=lambda *a: out.append(' '.join(map(str, a)))))
        self.assertEqual(0, lab_module.main([
            '--workdir', self.workdir, '--exit', '--cycle']))
        self.assertTrue(labs[0].hostos)
        self.assertIn('host OS configuration     4.0 s  (30.0 nodes/min)',
                      out)
        # The other stages line up with the longer name.
        self.assertIn('boot session              1.0 s  (120.0 nodes/min)',
                      out)
        labs.clear()
        self.assertEqual(0, lab_module.main([
            '--workdir', self.workdir, '--exit', '--cycle', '--no-hostos']))
        self.assertFalse(labs[0].hostos)


class EmbeddedConfTestCase(testtools.TestCase):

    def test_heartbeat_interval(self):
        workdir = self.useFixture(fixtures.TempDir()).path
        lab = lab_module.Lab(workdir, 1, api_port=6999)
        self.useFixture(fixtures.MockPatchObject(lab, '_spawn'))
        self.useFixture(fixtures.MockPatchObject(lab_module, 'wait_http'))
        lab._start_service(8099, '[x]\ny = 1')
        with open(os.path.join(workdir, 'ironic_like.conf')) as f:
            conf = f.read()
        self.assertIn('[hostos]\nagent_heartbeat_interval = 2\n', conf)
        self.assertTrue(conf.rstrip().endswith('[x]\ny = 1'))
