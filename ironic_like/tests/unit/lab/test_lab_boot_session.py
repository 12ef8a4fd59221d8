"""The lab's boot-session stage (ironic_like_lab.lab) against a fake
/v1/boot API and a fake simulator control API on loopback."""

import hashlib
import json
import os
import threading
from http import server as http_server
from unittest import mock
from urllib import parse

import fixtures
import testtools

from ironic_like_lab import lab as lab_module

from ironic_like.tests.unit.lab import fakes

SESSION = 'sess-1'


class FakeBootAPI(fakes.BackgroundServer):
    """The routes the stage uses: nodes and ports (enrolment), the
    template, the session and its status, the components, and the
    simulator's GET /control/agents/<id> (one server stands for both).

    ``statuses`` are answered in turn by GET .../status (the last one
    again and again); ``machines`` maps a machine id to its control
    document or to a callable giving it.
    """

    def __init__(self):
        self.requests = []
        self.statuses = []
        self.components = []
        self.machines = {}
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
                self._reply(*api.route(self.command, url.path,
                                       dict(parse.parse_qsl(url.query)),
                                       body))

            do_GET = do_POST = do_PUT = do_PATCH = _handle

        self.serve(Handler)

    def route(self, method, path, query, body):
        parts = path.strip('/').split('/')
        if method == 'POST' and path == '/v1/nodes':
            return 201, dict(body, uuid='uuid-%s' % body['name'])
        if method == 'POST' and path == '/v1/ports':
            return 201, dict(body, uuid='port')
        if method == 'PUT' and parts[:3] == ['v1', 'boot',
                                             'sessiontemplates']:
            return 200, dict(body, name=parts[3])
        if method == 'POST' and path == '/v1/boot/sessions':
            return 201, dict(body, name=SESSION,
                             status={'status': 'pending'})
        if parts[:3] == ['v1', 'boot', 'sessions'] and len(parts) == 5:
            if method == 'GET' and parts[4] == 'status':
                with self.lock:
                    status = (self.statuses.pop(0) if len(self.statuses) > 1
                              else self.statuses[0])
                return 200, status
            if method == 'POST' and parts[4] == 'abort':
                return 200, {'name': parts[3]}
        if method == 'GET' and path == '/v1/boot/components':
            return 200, [c for c in self.components
                         if c['session'] == query.get('session')]
        if method == 'GET' and parts[:2] == ['control', 'agents']:
            doc = self.machines.get(parts[2])
            if doc is None:
                return 404, {'error': 'no agent'}
            return 200, doc() if callable(doc) else doc
        return 404, {'error_message': 'no route %s %s' % (method, path)}

    def sent(self, method, prefix):
        with self.lock:
            return [r for r in self.requests
                    if r[0] == method and r[1].startswith(prefix)]


def status(state, counts=None, percent=0.0, **extra):
    doc = {'status': state, 'managed_components_count': 3,
           'percent_successful': percent, 'failed_nodes': [],
           'error_summary': {}, 'counts': {'status': counts or {}}}
    doc.update(extra)
    return doc


class BootSessionStageTestCase(testtools.TestCase):

    def setUp(self):
        super().setUp()
        self.useFixture(fixtures.Timeout(30, gentle=True))
        self.workdir = self.useFixture(fixtures.TempDir()).path
        self.api = FakeBootAPI().start()
        self.addCleanup(self.api.stop)
        self.lines = []
        self.lab = lab_module.Lab(self.workdir, 3, api_url=self.api.url,
                                  log=self.lines.append)
        self.lab.sim_url = self.api.url
        self.lab.http_url = 'http://boot.example:8080'
        self.lab.poll_interval = 0.01
        self.lab.nodes = ['uuid-%s' % s['name'] for s in self.lab.systems]
        self.tokens = {}
        for index, system in enumerate(self.lab.systems):
            token = 'token-%d' % index
            self.tokens[system['uuid']] = token
            self.api.components.append({
                'id': system['name'], 'session': SESSION,
                'desired_state': {'bss_token': token}})
            self.api.machines[system['uuid']] = self.machine(system['uuid'])

    def manifest(self):
        with open(os.path.join(self.lab.http_root, 'images',
                               'manifest.json')) as f:
            return json.load(f)

    def machine(self, ident, state='os', token=None, kernel_sha=None):
        """A machine's control document, built when asked (the stage
        writes the kernel and initrd first)."""
        def doc():
            manifest = self.manifest()
            return {'id': ident, 'state': state, 'records': {'os_boot': {
                'token': token or self.tokens[ident],
                'kernel_sha256': kernel_sha or manifest['kernel']['sha256'],
                'initrd_sha256': manifest['initrd']['sha256']}}}
        return doc

    def test_boot_session_completes(self):
        self.api.statuses = [
            status('pending'),
            status('running', {'power_on_pending': 3}),
            status('running', {'power_on_pending': 3}),
            status('running', {'power_on_called': 2, 'stable': 1}),
            status('complete', {'stable': 3}, 100.0)]
        took = self.lab.boot_session()
        self.assertGreater(took, 0)

        manifest = self.manifest()
        self.assertEqual('console=ttyS0', manifest['kernel_parameters'])
        for kind, name in (('kernel', 'vmlinuz'), ('initrd', 'initrd.img')):
            with open(os.path.join(self.lab.http_root, 'images', name),
                      'rb') as f:
                data = f.read()
            self.assertEqual(lab_module.BOOT_FILE_BYTES, len(data))
            self.assertEqual({'path': 'http://boot.example:8080/images/%s'
                              % name,
                              'sha256': hashlib.sha256(data).hexdigest()},
                             manifest[kind])

        [(_m, path, template)] = self.api.sent('PUT', '/v1/boot/')
        self.assertEqual('/v1/boot/sessiontemplates/lab', path)
        self.assertFalse(template['enable_cfs'])
        self.assertEqual({'name': 'compute', 'type': 'http',
                          'path': 'http://boot.example:8080/images/'
                                  'manifest.json',
                          'node_roles_groups': ['Compute']},
                         template['boot_sets']['compute'])
        uan = template['boot_sets']['uan']
        self.assertEqual(['Application_UAN'], uan['node_roles_groups'])
        self.assertEqual(manifest['kernel']['path'], uan['kernel'])
        self.assertEqual(manifest['initrd']['path'], uan['initrd'])
        [(_m, _p, session)] = self.api.sent('POST', '/v1/boot/sessions')
        self.assertEqual({'operation': 'reboot', 'template_name': 'lab'},
                         session)
        self.assertEqual([], self.api.sent('POST', '/v1/boot/sessions/'))

        # One line per change of the counts, not per poll.
        progress = [line.split('s ', 1)[1] for line in self.lines
                    if line.startswith('  ') and 's ' in line[:10]]
        self.assertEqual(['pending', 'running: power_on_pending: 3',
                          'running: power_on_called: 2, stable: 1',
                          'complete: stable: 3'], progress)
        self.assertIn("  machines in the OS with the session's token, "
                      "kernel and initrd: 3 of 3", self.lines)
        self.assertTrue([line for line in self.lines
                         if line.startswith('  percent_successful: 100.0')])

    def test_not_all_successful(self):
        self.api.statuses = [status(
            'complete', {'stable': 2, 'failed': 1}, 66.67,
            failed_nodes=[{'id': 'lab-0001', 'error': 'never booted',
                           'last_action': {}}])]
        error = self.assertRaises(RuntimeError, self.lab.boot_session)
        self.assertIn('66.67% successful', str(error))
        self.assertIn('lab-0001', str(error))
        self.assertIn('never booted', str(error))

    def test_bound_expires_aborts(self):
        self.api.statuses = [status('running', {'power_on_pending': 3})]
        error = self.assertRaises(RuntimeError, self.lab.boot_session,
                                  bound=0.05)
        self.assertIn('not complete within', str(error))
        self.assertEqual(1, len(self.api.sent(
            'POST', '/v1/boot/sessions/%s/abort' % SESSION)))

    def test_machine_with_wrong_token_or_kernel(self):
        self.api.statuses = [status('complete', {'stable': 3}, 100.0)]
        first, second, third = [s['uuid'] for s in self.lab.systems]
        self.api.machines[first] = self.machine(first, token='stale')
        self.api.machines[second] = self.machine(second, kernel_sha='0' * 64)
        error = self.assertRaises(RuntimeError, self.lab.boot_session)
        self.assertIn('1 of 3 machines', str(error))
        self.assertIn("  machines in the OS with the session's token, "
                      "kernel and initrd: 1 of 3", self.lines)

    def test_machine_not_in_os(self):
        self.api.statuses = [status('complete', {'stable': 3}, 100.0)]
        ident = self.lab.systems[0]['uuid']
        self.api.machines[ident] = self.machine(ident, state='heartbeating')
        error = self.assertRaises(RuntimeError, self.lab.boot_session)
        self.assertIn('2 of 3 machines', str(error))

    def test_bound(self):
        self.assertEqual(130.0, lab_module.session_bound(5))
        self.assertEqual(2120.0, lab_module.session_bound(1000))


class EnrolLabelsTestCase(testtools.TestCase):

    def test_labels(self):
        self.assertEqual({'group.lab': '', 'role': 'Compute'},
                         lab_module.node_labels(0, 5))
        self.assertEqual({'group.lab': '', 'role': 'Compute'},
                         lab_module.node_labels(3, 5))
        self.assertEqual({'group.lab': '', 'role': 'Application',
                          'subrole': 'UAN'}, lab_module.node_labels(4, 5))
        # A single node stays Compute.
        self.assertEqual({'group.lab': '', 'role': 'Compute'},
                         lab_module.node_labels(0, 1))

    def test_enrol_sends_labels(self):
        api = FakeBootAPI().start()
        self.addCleanup(api.stop)
        workdir = self.useFixture(fixtures.TempDir()).path
        lab = lab_module.Lab(workdir, 3, api_url=api.url)
        lab.bmc_url = 'http://bmc.example'
        lab.enrol()
        labels = [body['labels'] for _m, _p, body in
                  api.sent('POST', '/v1/nodes')]
        self.assertEqual(['Compute', 'Compute', 'Application'],
                         [label['role'] for label in labels])
        self.assertEqual('UAN', labels[2]['subrole'])
        self.assertTrue(all('group.lab' in label for label in labels))


class MainTestCase(testtools.TestCase):
    """Which stages main() runs, and its exit status."""

    def setUp(self):
        super().setUp()
        self.workdir = self.useFixture(fixtures.TempDir()).path
        self.calls = []
        for name in ('enrol', 'stop'):
            self.useFixture(fixtures.MockPatchObject(
                lab_module.Lab, name, autospec=True,
                side_effect=lambda lab, *a, name=name: self.calls.append(
                    name)))
        self.useFixture(fixtures.MockPatchObject(
            lab_module.Lab, 'start', autospec=True, side_effect=self._start))
        self.useFixture(fixtures.MockPatchObject(
            lab_module.Lab, 'cycle', autospec=True,
            side_effect=self._cycle))
        self.boot = self.useFixture(fixtures.MockPatchObject(
            lab_module.Lab, 'boot_session', autospec=True,
            return_value=6.0)).mock
        self.useFixture(fixtures.MockPatchObject(
            lab_module.signal, 'signal'))
        self.out = []
        self.useFixture(fixtures.MockPatchObject(
            lab_module, 'print', create=True,
            side_effect=lambda *a: self.out.append(' '.join(map(str, a)))))

    def _start(self, lab):
        self.calls.append('start')
        lab.api_url = lab.bmc_url = lab.sim_url = 'http://127.0.0.1:1'

    def _cycle(self, lab, timeout):
        self.calls.append('cycle')
        return {'manage': 1.0, 'deploy': 3.0}

    def main(self, *flags):
        with mock.patch.object(lab_module.Lab, 'nodes', ['n'] * 5,
                               create=True):
            return lab_module.main(['--workdir', self.workdir, '--exit']
                                   + list(flags))

    def test_cycle_runs_boot_session_last(self):
        self.boot.side_effect = lambda lab: self.calls.append('boot') or 6.0
        self.assertEqual(0, self.main('--cycle'))
        self.assertEqual(['start', 'enrol', 'cycle', 'boot', 'stop'],
                         self.calls)
        self.assertIn('boot session           6.0 s  (50.0 nodes/min)',
                      self.out)

    def test_boot_session_alone(self):
        self.assertEqual(0, self.main('--boot-session'))
        self.assertEqual(['start', 'enrol', 'stop'], self.calls)
        self.assertEqual(1, self.boot.call_count)
        self.assertEqual(['boot session'], [
            line.split('  ')[0].strip() for line in self.out
            if 'nodes/min' in line])

    def test_neither(self):
        self.assertEqual(0, self.main())
        self.assertEqual(0, self.boot.call_count)

    def test_boot_session_failure_exits_non_zero(self):
        self.boot.side_effect = RuntimeError('boot session x: 80.0% '
                                             'successful')
        self.assertEqual(1, self.main('--cycle'))
        # The stages that finished are still timed.
        self.assertEqual(['manage', 'deploy'], [
            line.split('  ')[0].strip() for line in self.out
            if 'nodes/min' in line])
        self.assertIn('lab failed: boot session x: 80.0% successful',
                      self.out)

    def test_help_documents_flag(self):
        parser_help = []
        with mock.patch('sys.stdout') as stdout:
            stdout.write.side_effect = parser_help.append
            self.assertRaises(SystemExit, lab_module.parse_args, ['--help'])
        self.assertIn('--boot-session', ''.join(parser_help))
