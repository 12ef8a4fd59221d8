"""The lab's accelerators (ironic_like_lab.accelerator_stage): the
machines' options, the bitstream index, the embedded service's
configuration, and the checks around --cycle's deploy against a fake
API and simulator control API on loopback."""

import hashlib
import json
import os
import threading
from http import server as http_server
from unittest import mock
from urllib import parse

import fixtures
import testtools

from ironic_like_lab import accelerator_stage as stage
from ironic_like_lab import lab as lab_module

from ironic_like.tests.unit.lab import fakes

# Six machines: FPGAs on 0 and 4, GPUs on 1 and 5.
NODES = ['node-%d' % i for i in range(6)]
FPGA_NODES = ['node-0', 'node-4']
GPU_NODES = ['node-1', 'node-5']


class FakeAcceleratorAPI(fakes.BackgroundServer):
    """The routes the stage uses: the devices list (``devices_status``,
    ``devices``), node PATCH, a node's accelerators (``attachments`` by
    node uuid), the attach handles in use (``in_use``), and the
    simulator's bitstream of a region (``programmed`` by agent id; one
    server stands for both)."""

    def __init__(self):
        self.requests = []
        self.devices_status = 200
        self.devices = []
        self.attachments = {}
        self.in_use = []
        self.programmed = {}
        self.lock = threading.Lock()
        api = self

        class Handler(fakes._Quiet, fakes.JSONReplies,
                      http_server.BaseHTTPRequestHandler):
            protocol_version = 'HTTP/1.1'

            def _handle(self):
                body = self._json_body()
                with api.lock:
                    api.requests.append((self.command, self.path, body,
                                         dict(self.headers)))
                status, doc = api.route(self.command, self.path, body)
                if isinstance(doc, bytes):
                    self.send_response(status)
                    self.send_header('Content-Length', str(len(doc)))
                    self.end_headers()
                    self.wfile.write(doc)
                else:
                    self._reply(status, doc)

            do_GET = do_PATCH = _handle

        self.serve(Handler)

    def route(self, method, path, body):
        url = parse.urlsplit(path)
        parts = parse.unquote(url.path).strip('/').split('/')
        if method == 'GET' and url.path == '/v1/accelerators/devices':
            if self.devices_status != 200:
                return self.devices_status, {'error_message': 'no'}
            return 200, {'devices': self.devices}
        if method == 'PATCH' and parts[:2] == ['v1', 'nodes']:
            return 200, {'uuid': parts[2]}
        if (method == 'GET' and parts[:2] == ['v1', 'nodes']
                and parts[3:] == ['accelerators']):
            return 200, {'node_uuid': parts[2],
                         'attachments': self.attachments.get(parts[2], [])}
        if (method == 'GET'
                and url.path == '/v1/accelerators/attach_handles'):
            return 200, {'attach_handles': self.in_use}
        if (method == 'GET' and parts[:2] == ['control', 'agents']
                and parts[3:4] == ['accelerators']
                and parts[-1] == 'bitstream'):
            data = self.programmed.get((parts[2], parts[4], parts[5]))
            if data is None:
                return 404, {'error': 'Nothing programmed'}
            return 200, data
        return 404, {'error_message': 'no route %s %s' % (method, path)}

    def sent(self, method, prefix):
        with self.lock:
            return [r for r in self.requests
                    if r[0] == method and r[1].startswith(prefix)]


def device(node, kind):
    return {'uuid': 'dev-%s' % node, 'node_uuid': node, 'type': kind}


def attachment(state='attached', pci=stage.FPGA_VFS[0], error=None):
    return {'uuid': 'att', 'state': state, 'pci_address': pci,
            'last_error': error, 'bitstream_id': stage.IMAGE_ID}


class FleetTestCase(testtools.TestCase):

    def test_kinds(self):
        self.assertEqual(['FPGA', 'GPU', None, None, 'FPGA', 'GPU', None,
                          None, 'FPGA'],
                         [stage.kind_of(i) for i in range(9)])

    def test_agent_options(self):
        [fpga] = stage.agent_options(8)['accelerators']
        self.assertEqual({
            'type': 'FPGA', 'vendor_id': '8086', 'product_id': '09c4',
            'pci_address': '0000:5e:00.0',
            'virtual_functions': ['0000:5e:01.0', '0000:5e:01.1'],
            'regions': [{'region_type_uuid': stage.REGION_TYPE_UUID,
                         'partial_reconfiguration': True,
                         'pci_addresses': [], 'function': None}]}, fpga)
        [gpu] = stage.agent_options(5)['accelerators']
        self.assertEqual({'type': 'GPU', 'vendor_id': '10de',
                          'product_id': '1eb8',
                          'pci_address': '0000:3b:00.0',
                          'virtual_functions': []}, gpu)
        self.assertEqual({}, stage.agent_options(2))
        self.assertEqual({}, stage.agent_options(7))
        # Each machine its own objects.
        stage.agent_options(0)['accelerators'][0]['regions'][0][
            'function'] = {'name': 'x'}
        self.assertIsNone(stage.agent_options(0)['accelerators'][0][
            'regions'][0]['function'])

    def start(self, **kwargs):
        """Lab.start without processes; answers (lab, the fleet file)."""
        workdir = self.useFixture(fixtures.TempDir()).path
        lab = lab_module.Lab(workdir, 6, api_url='http://api.example',
                             image_mb=1, **kwargs)
        self.useFixture(fixtures.MockPatchObject(lab, '_spawn'))
        self.useFixture(fixtures.MockPatchObject(lab_module, 'wait_http'))
        lab.start()
        with open(os.path.join(workdir, 'fleet.json')) as f:
            return lab, json.load(f)

    def test_fleet_file(self):
        lab, fleet = self.start()
        agents = fleet['agents']
        self.assertEqual([s['uuid'] for s in lab.systems],
                         [a['id'] for a in agents])
        self.assertEqual([['FPGA'], ['GPU'], None, None, ['FPGA'], ['GPU']],
                         [[d['type'] for d in a['options']['accelerators']]
                          if 'options' in a else None for a in agents])
        self.assertEqual(stage.agent_options(0), agents[0]['options'])
        self.assertEqual(stage.agent_options(1), agents[1]['options'])
        self.assertEqual([s['nics'][0]['mac'] for s in lab.systems],
                         [a['macs'][0] for a in agents])
        # And the index, for the service to read.
        self.assertTrue(os.path.exists(os.path.join(
            lab.workdir, 'bitstreams', 'index.json')))

    def test_fleet_file_without_accelerators(self):
        lab, fleet = self.start(accelerators=False)
        self.assertEqual([], [a for a in fleet['agents'] if 'options' in a])
        self.assertFalse(os.path.exists(os.path.join(lab.workdir,
                                                     'bitstreams')))


class IndexTestCase(testtools.TestCase):

    def test_write_index(self):
        directory = os.path.join(self.useFixture(fixtures.TempDir()).path,
                                 'bitstreams')
        entry = stage.write_index(directory)
        self.assertEqual(['index.json', 'lab-gzip.bin'],
                         sorted(os.listdir(directory)))
        with open(os.path.join(directory, 'lab-gzip.bin'), 'rb') as f:
            data = f.read()
        self.assertEqual(256 * 1024, len(data))
        self.assertEqual(stage.bitstream(), data)
        with open(os.path.join(directory, 'index.json')) as f:
            index = json.load(f)
        self.assertEqual({'images': [entry]}, index)
        self.assertEqual({
            'id': 'lab-gzip', 'name': 'gzip', 'file': 'lab-gzip.bin',
            'size': 256 * 1024,
            'checksum': hashlib.md5(data).hexdigest(),
            'os_hash_algo': 'sha256',
            'os_hash_value': hashlib.sha256(data).hexdigest(),
            'properties': {'accel:function_uuid': stage.FUNCTION_UUID,
                           'accel:function_name': 'gzip',
                           'accel:region_type_uuid': stage.REGION_TYPE_UUID,
                           'accel:vendor': 'intel'}}, entry)
        # Written again (a second lab in the same directory): the same.
        self.assertEqual(entry, stage.write_index(directory))
        self.assertEqual(['index.json', 'lab-gzip.bin'],
                         sorted(os.listdir(directory)))

    def test_bitstream_deterministic(self):
        data = stage.bitstream()
        self.assertEqual(data, stage.bitstream())
        self.assertEqual(data[:1000], stage.bitstream(1000))
        # Not a repeated pattern: 1 KiB blocks all differ.
        blocks = {data[i:i + 1024] for i in range(0, len(data), 1024)}
        self.assertEqual(256, len(blocks))

    def test_embedded_conf(self):
        workdir = self.useFixture(fixtures.TempDir()).path
        for accelerators in (True, False):
            lab = lab_module.Lab(workdir, 1, api_port=6999,
                                 accelerators=accelerators)
            self.useFixture(fixtures.MockPatchObject(lab, '_spawn'))
            self.useFixture(fixtures.MockPatchObject(lab_module,
                                                     'wait_http'))
            lab._start_service(8099, '[x]\ny = 1')
            with open(os.path.join(workdir, 'ironic_like.conf')) as f:
                conf = f.read()
            section = ('[accelerators]\nimage_service = index\n'
                       'index_url = %s\n'
                       % os.path.join(workdir, 'bitstreams'))
            if accelerators:
                self.assertIn(section, conf)
            else:
                self.assertNotIn('[accelerators]', conf)
            self.assertTrue(conf.rstrip().endswith('[x]\ny = 1'))


class StageTestCase(testtools.TestCase):

    def setUp(self):
        super().setUp()
        self.useFixture(fixtures.Timeout(30, gentle=True))
        self.workdir = self.useFixture(fixtures.TempDir()).path
        self.api = FakeAcceleratorAPI().start()
        self.addCleanup(self.api.stop)
        self.lines = []
        self.lab = lab_module.Lab(self.workdir, 6, api_url=self.api.url,
                                  log=self.lines.append)
        self.lab.sim_url = self.api.url
        self.lab.nodes = list(NODES)
        self.agents = {uuid: system['uuid'] for uuid, system in
                       zip(NODES, self.lab.systems)}
        self.data = stage.bitstream()
        stage.write_index(self.lab.bitstreams)
        self.api.devices = (
            [device(n, 'FPGA') for n in FPGA_NODES]
            + [device(n, 'GPU') for n in GPU_NODES]
            # Not the lab's: not counted.
            + [device('elsewhere', 'FPGA')])
        self.stage = stage.AcceleratorStage(self.lab)

    def deployed(self):
        """What a good deploy leaves."""
        for node in FPGA_NODES:
            self.api.attachments[node] = [attachment()]
            self.api.programmed[(self.agents[node], '0000:5e:00.0',
                                 '0')] = self.data
        for node in GPU_NODES:
            self.api.attachments[node] = [attachment(pci='0000:3b:00.0')]

    # ------------------------------------------------------ before deploy
    def test_extra_specs(self):
        self.stage.before_deploy()
        patches = self.api.sent('PATCH', '/v1/nodes/')
        self.assertEqual(['/v1/nodes/%s' % n for n in FPGA_NODES + GPU_NODES],
                         [p for _m, p, _b, _h in patches])
        for _m, path, body, headers in patches:
            value = ({'resources:FPGA': '1',
                      'accel:function_id': stage.FUNCTION_UUID}
                     if path.rsplit('/', 1)[1] in FPGA_NODES
                     else {'resources:PGPU': '1'})
            self.assertEqual([{'op': 'add',
                               'path': '/instance_info/flavor_extra_specs',
                               'value': value}], body)
            self.assertEqual('latest',
                             headers['X-OpenStack-Ironic-API-Version'])
        self.assertEqual(['  accelerators discovered: 2 FPGAs, 2 GPUs '
                          '(machines with one: 2, 2)'], self.lines)
        self.assertTrue(self.stage.active)

    def test_none_discovered_skips(self):
        for devices_status, devices in ((200, []), (404, None)):
            self.lines.clear()
            self.api.devices_status = devices_status
            self.api.devices = devices
            self.stage = stage.AcceleratorStage(self.lab)
            self.stage.before_deploy()
            self.assertFalse(self.stage.active)
            self.assertEqual('  accelerators discovered: 0 FPGAs, 0 GPUs '
                             '(machines with one: 2, 2)', self.lines[0])
            self.assertIn('the API reports none on the FPGA nodes, '
                          'skipping', self.lines[1])
            self.assertIn('index_url = %s' % self.lab.bitstreams,
                          self.lines[1])
            self.stage.after_deploy()
            self.stage.after_undeploy()
            self.assertEqual(2, len(self.lines))
        self.assertEqual([], self.api.sent('PATCH', '/'))
        self.assertEqual([], self.api.sent('GET', '/v1/nodes/'))
        self.assertEqual([], self.api.sent('GET', '/control/'))
        self.assertEqual([], self.api.sent('GET',
                                           '/v1/accelerators/attach'))

    def test_some_not_discovered(self):
        self.api.devices = [device('node-0', 'FPGA'),
                            device('node-1', 'FPGA')]
        error = self.assertRaises(RuntimeError, self.stage.before_deploy)
        self.assertEqual("accelerators: discovery found none on 3 of the 4 "
                         "nodes with one, e.g. ['node-4', 'node-1', "
                         "'node-5']", str(error))
        self.assertEqual([], self.api.sent('PATCH', '/'))

    def test_devices_error(self):
        self.api.devices_status = 500
        error = self.assertRaises(RuntimeError, self.stage.before_deploy)
        self.assertIn('GET /v1/accelerators/devices: 500', str(error))

    # ------------------------------------------------------- after deploy
    def test_after_deploy(self):
        self.deployed()
        self.stage.after_deploy()
        self.assertEqual(['  accelerators: 2 FPGAs programmed with gzip '
                          '(bytes checked), 2 GPUs attached'], self.lines)
        self.assertEqual(
            ['/v1/nodes/%s/accelerators' % n for n in FPGA_NODES + GPU_NODES],
            [p for _m, p, _b, _h in self.api.sent('GET', '/v1/nodes/')])
        self.assertEqual(
            ['/control/agents/%s/accelerators/0000:5e:00.0/0/bitstream'
             % self.agents[n] for n in FPGA_NODES],
            [p for _m, p, _b, _h in self.api.sent('GET', '/control/')])

    def check_fails(self, *expected):
        error = self.assertRaises(RuntimeError, self.stage.after_deploy)
        for text in expected:
            self.assertIn(text, str(error))
        self.assertEqual([], self.lines)
        return str(error)

    def test_other_bytes(self):
        self.deployed()
        other = b'x' * 10
        self.api.programmed[(self.agents['node-4'], '0000:5e:00.0',
                             '0')] = other
        self.check_fails('accelerators after the deploy: 1 nodes wrong',
                         "node-4: its machine's FPGA region holds 10 other "
                         "bytes (sha256 %s)" % hashlib.sha256(other)
                         .hexdigest())

    def test_nothing_programmed(self):
        self.deployed()
        del self.api.programmed[(self.agents['node-0'], '0000:5e:00.0',
                                 '0')]
        self.check_fails("node-0: its machine's FPGA region holds nothing")

    def test_not_attached(self):
        self.deployed()
        self.api.attachments['node-0'] = [attachment(
            'failed', None, 'FPGAProgramError: boom')]
        self.api.attachments['node-4'] = [attachment('programming')]
        del self.api.attachments['node-5']
        self.api.attachments['node-1'] = [attachment(pci='0000:3b:00.0'),
                                          attachment(pci='0000:3b:00.0')]
        message = self.check_fails(
            '4 nodes wrong',
            "node-0: [('failed', None, 'FPGAProgramError: boom')]",
            "node-4: [('programming', '0000:5e:01.0', None)]",
            "node-1: [('attached', '0000:3b:00.0', None), "
            "('attached', '0000:3b:00.0', None)]")
        # At most three named.
        self.assertNotIn('node-5', message)

    def test_no_attachment(self):
        self.deployed()
        del self.api.attachments['node-5']
        self.check_fails('1 nodes wrong', 'node-5: no attachment')

    def test_wrong_addresses(self):
        self.deployed()
        self.api.attachments['node-4'] = [attachment(pci='0000:5e:00.0')]
        self.api.attachments['node-5'] = [attachment(pci='0000:3c:00.0')]
        self.check_fails('2 nodes wrong',
                         'node-4: attached at 0000:5e:00.0, not at a VF',
                         'node-5: attached at 0000:3c:00.0, not '
                         '0000:3b:00.0')

    def test_bitstream_file_is_the_reference(self):
        # What the machines hold is compared with the index's file.
        self.deployed()
        with open(os.path.join(self.lab.bitstreams, 'lab-gzip.bin'),
                  'wb') as f:
            f.write(b'edited')
        self.check_fails('2 nodes wrong', 'node-0: ', 'node-4: ')

    # ----------------------------------------------------- after undeploy
    def test_after_undeploy(self):
        self.api.in_use = [{'node_uuid': 'elsewhere',
                            'pci_address': '0000:5e:01.0'}]
        self.stage.after_undeploy()
        [(_m, path, _b, _h)] = self.api.sent('GET', '/v1/accelerators/')
        self.assertEqual('/v1/accelerators/attach_handles?in_use=true', path)
        self.assertEqual(['  accelerators released: no attach handle in '
                          'use'], self.lines)

    def test_still_in_use(self):
        self.api.in_use = [{'node_uuid': 'node-4',
                            'pci_address': '0000:5e:01.1'}]
        error = self.assertRaises(RuntimeError, self.stage.after_undeploy)
        self.assertEqual("accelerators after the undeploy: 1 attach handles "
                         "still in use, e.g. [('node-4', '0000:5e:01.1')]",
                         str(error))
        self.assertEqual([], self.lines)


class CycleTestCase(testtools.TestCase):
    """Where cycle() runs the checks, and --no-accelerators."""

    def setUp(self):
        super().setUp()
        self.workdir = self.useFixture(fixtures.TempDir()).path
        self.calls = []
        self.useFixture(fixtures.MockPatchObject(
            lab_module.Lab, 'set_image', autospec=True,
            side_effect=lambda lab: self.calls.append('set_image')))
        self.useFixture(fixtures.MockPatchObject(
            lab_module.Lab, 'disks_match_image', autospec=True,
            side_effect=lambda lab: self.calls.append('disks') or []))
        self.useFixture(fixtures.MockPatchObject(
            lab_module.Lab, 'provision', autospec=True,
            side_effect=lambda lab, target: self.calls.append(target)))
        self.useFixture(fixtures.MockPatchObject(
            lab_module.Lab, 'wait_all', autospec=True,
            return_value=(1.0, {})))
        self.useFixture(fixtures.MockPatchObject(
            lab_module.Lab, 'host_os_configuration', autospec=True,
            side_effect=lambda lab, timeout: self.calls.append('hostos')
            or 4.0))
        stage_class = self.useFixture(fixtures.MockPatchObject(
            lab_module.accelerator_stage, 'AcceleratorStage')).mock
        self.stage = stage_class.return_value
        for name in ('before_deploy', 'after_deploy', 'after_undeploy'):
            getattr(self.stage, name).side_effect = (
                lambda name=name: self.calls.append(name))
        self.stage_class = stage_class

    def cycle(self, **kwargs):
        lab = lab_module.Lab(self.workdir, 2, log=lambda line: None,
                             **kwargs)
        lab.nodes = ['a', 'b']
        return lab, lab.cycle(300)

    def test_around_deploy_and_undeploy(self):
        lab, took = self.cycle()
        self.stage_class.assert_called_once_with(lab)
        self.assertEqual(['manage', 'provide', 'set_image', 'before_deploy',
                          'active', 'disks', 'after_deploy', 'hostos',
                          'deleted', 'after_undeploy'], self.calls)
        # Not timed stages of their own.
        self.assertEqual(['manage', 'provide (clean)', 'deploy',
                          'host OS configuration', 'undeploy (clean)'],
                         list(took))

    def test_without(self):
        _lab, took = self.cycle(accelerators=False)
        self.stage_class.assert_not_called()
        self.assertEqual(['manage', 'provide', 'set_image', 'active',
                          'disks', 'hostos', 'deleted'], self.calls)

    def test_deploy_check_fails(self):
        self.stage.after_deploy.side_effect = RuntimeError('not attached')
        error = self.assertRaises(RuntimeError, self.cycle)
        self.assertEqual('not attached', str(error))
        self.assertNotIn('deleted', self.calls)

    def test_flag(self):
        self.assertFalse(lab_module.parse_args([]).no_accelerators)
        self.assertTrue(lab_module.parse_args(
            ['--no-accelerators']).no_accelerators)

    def test_main_passes_flag(self):
        labs = []
        self.useFixture(fixtures.MockPatchObject(
            lab_module.Lab, 'start', autospec=True,
            side_effect=lambda lab: setattr(lab, 'api_url', 'http://x')
            or setattr(lab, 'bmc_url', 'x') or setattr(lab, 'sim_url', 'x')))
        self.useFixture(fixtures.MockPatchObject(
            lab_module.Lab, 'enrol', autospec=True,
            side_effect=lambda lab: labs.append(lab) or setattr(
                lab, 'nodes', ['a', 'b'])))
        for name in ('stop', 'boot_session'):
            self.useFixture(fixtures.MockPatchObject(
                lab_module.Lab, name, autospec=True, return_value=1.0))
        self.useFixture(fixtures.MockPatchObject(lab_module.signal,
                                                 'signal'))
        self.useFixture(fixtures.MockPatchObject(
            lab_module, 'print', create=True, new=mock.Mock()))
        for argv, expected in (([], True), (['--no-accelerators'], False)):
            labs.clear()
            self.assertEqual(0, lab_module.main([
                '--workdir', self.workdir, '--exit', '--cycle'] + argv))
            self.assertIs(expected, labs[0].accelerators)
