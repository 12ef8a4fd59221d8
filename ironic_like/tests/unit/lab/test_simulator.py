"""The agent simulator against a fake API and a loopback image server."""

import base64
import gzip
import hashlib
import io
import json
import os
import socket
import subprocess
import sys
import tarfile
import threading
import time

import fixtures
import requests
import testtools

from ironic_like_lab import agent_sim
from ironic_like_lab import simulator
from ironic_like_lab import virtual

from ironic_like.tests.unit.lab import fakes
from ironic_like.tests.utils import wait_for

IMAGE = os.urandom(3 * 1024 * 1024 + 123)
IMAGE_SHA256 = hashlib.sha256(IMAGE).hexdigest()


def mac(index):
    return '52:54:00:%02x:%02x:%02x' % ((index >> 16) & 0xff,
                                        (index >> 8) & 0xff, index & 0xff)


class SimulatorTestBase(testtools.TestCase):

    heartbeat_timeout = 600

    def setUp(self):
        super(SimulatorTestBase, self).setUp()
        self.useFixture(fixtures.Timeout(50, gentle=True))
        tmp = self.useFixture(fixtures.TempDir()).path
        self.api = fakes.FakeAPI(
            heartbeat_timeout=self.heartbeat_timeout).start()
        self.addCleanup(self.api.stop)
        os.mkdir(os.path.join(tmp, 'images'))
        self.images = fakes.ImageServer(os.path.join(tmp, 'images')).start()
        self.addCleanup(self.images.stop)
        self.image_url = self.images.add('disk.img', IMAGE)
        self.sim = simulator.Simulator(api_url=self.api.url,
                                       state_dir=os.path.join(tmp, 'state'))
        self.sim.start()
        self.addCleanup(self.sim.stop)
        self.control = '%s/control' % self.sim.base_url
        self.session = requests.Session()
        self.addCleanup(self.session.close)

    # -------------------------------------------------------------- helpers
    def make_agent(self, index=1, not_ready=0, boot=True, **options):
        node_uuid = self.api.add_node([mac(index)], not_ready=not_ready)
        spec = {'id': 'agent-%d' % index, 'macs': [mac(index)],
                'options': dict({'lookup_backoff': 0.05}, **options)}
        resp = self.session.post('%s/agents' % self.control, json=spec)
        self.assertEqual(201, resp.status_code, resp.text)
        agent = self.sim.agents['agent-%d' % index]
        if boot:
            self.boot(agent)
        return agent, node_uuid

    def boot(self, agent):
        resp = self.session.post(
            '%s/agents/%s/boot' % (self.control, agent.id))
        self.assertEqual(202, resp.status_code, resp.text)
        wait_for(lambda: agent.state == virtual.HEARTBEATING
                 and agent.counters['heartbeats'] >= 1,
                 message=lambda: 'agent never heartbeated: %s'
                 % agent.detail()['counters'])

    def command(self, agent, name, params=None, wait=False, token=None,
                expect=200):
        url = '%s/v1/commands/' % agent.url
        query = {'wait': 'true' if wait else 'false'}
        if token:
            query['agent_token'] = token
        resp = self.session.post(url, params=query,
                                 json={'name': name,
                                       'params': params or {}})
        self.assertEqual(expect, resp.status_code, resp.text)
        return resp.json()

    def wait_command(self, agent, doc, timeout=20):
        url = '%s/v1/commands/%s' % (agent.url, doc['id'])
        state = {}

        def done():
            state['doc'] = self.session.get(url).json()
            return state['doc']['command_status'] != virtual.RUNNING
        wait_for(done, timeout, 0.05, message=lambda: state.get('doc'))
        return state['doc']

    def image_info(self, **kw):
        info = {'id': 'img-1', 'urls': [self.image_url],
                'os_hash_algo': 'sha256', 'os_hash_value': IMAGE_SHA256}
        info.update(kw)
        return info


class TestLookupHeartbeat(SimulatorTestBase):

    heartbeat_timeout = 1

    def test_lookup_token_heartbeat_cycle(self):
        agent, node_uuid = self.make_agent(not_ready=2)
        # Two 404 (node not waiting yet), then found.
        lookups = [c for c in self.api.lookups]
        self.assertEqual(3, len(lookups))
        self.assertEqual([mac(1)], lookups[0]['macs'])
        self.assertEqual('latest',
                         lookups[0]['headers'].get(
                             'X-OpenStack-Ironic-API-Version'))
        self.assertEqual(node_uuid, agent.node_uuid)
        # heartbeat_timeout 1 s: a heartbeat every ~0.5 s.
        self.assertTrue(wait_for(
            lambda: len(self.api.heartbeats_of(node_uuid)) >= 4, 5))
        beats = self.api.heartbeats_of(node_uuid)
        body = beats[0]['body']
        self.assertEqual(agent.url, body['callback_url'])
        self.assertEqual(self.api.tokens[node_uuid], body['agent_token'])
        self.assertEqual(virtual.AGENT_VERSION, body['agent_version'])
        self.assertEqual('end', body['agent_status'])
        gaps = [b['at'] - a['at'] for a, b in zip(beats[1:], beats[2:])]
        # Paced, not a burst (a loaded machine may stretch a gap, so only
        # the median is held to the interval's order of magnitude).
        for gap in gaps:
            self.assertGreater(gap, 0.25, gaps)
        self.assertLess(sorted(gaps)[len(gaps) // 2], 3, gaps)
        self.assertTrue(agent.url.startswith(
            '%s/agents/agent-1' % self.sim.base_url))

    def test_lookup_node_uuid_hint_sent(self):
        node_uuid = self.api.add_node([mac(7)])
        self.sim.add_agent({'id': 'a7', 'macs': [mac(7)],
                            'node_uuid': node_uuid}, boot=True)
        self.assertTrue(wait_for(lambda: self.api.heartbeats_of(node_uuid)))
        self.assertEqual(node_uuid, self.api.lookups[0]['node_uuid'])

    def test_lookup_gives_up_bounded(self):
        self.sim.add_agent({'id': 'lost', 'macs': [mac(99)],
                            'options': {'lookup_backoff': 0.01,
                                        'lookup_max_attempts': 3}},
                           boot=True)
        agent = self.sim.agents['lost']
        self.assertTrue(wait_for(
            lambda: agent.state == virtual.LOOKUP_FAILED))
        self.assertEqual(3, len(self.api.lookups))
        time.sleep(0.2)
        self.assertEqual(3, len(self.api.lookups))

    def test_poweroff_stops_heartbeats(self):
        agent, node_uuid = self.make_agent(heartbeat_interval=0.05)
        self.assertTrue(wait_for(
            lambda: len(self.api.heartbeats_of(node_uuid)) >= 3))
        resp = self.session.post('%s/agents/agent-1/poweroff'
                                 % self.control)
        self.assertEqual(202, resp.status_code)
        time.sleep(0.1)
        count = len(self.api.heartbeats_of(node_uuid))
        time.sleep(0.4)
        self.assertEqual(count, len(self.api.heartbeats_of(node_uuid)))
        self.assertEqual(virtual.OFF, agent.state)
        self.assertEqual(0, self.sim.scheduler.pending())
        # The powered-off machine does not answer its API.
        resp = self.session.get('%s/v1/commands/' % agent.url)
        self.assertEqual(503, resp.status_code)
        # Booting again looks up again (a new ramdisk).
        self.boot(agent)
        self.assertEqual(2, len(self.api.lookups))

    def test_power_endpoint_by_node_uuid(self):
        agent, node_uuid = self.make_agent(boot=False)
        resp = self.session.post('%s/power' % self.control,
                                 json={'system': mac(1),
                                       'power_state': 'On'})
        self.assertEqual(202, resp.status_code, resp.text)
        self.assertTrue(wait_for(lambda: self.api.heartbeats_of(node_uuid)))
        resp = self.session.post('%s/power' % self.control,
                                 json={'system': node_uuid,
                                       'power_state': 'ForceOff'})
        self.assertEqual(202, resp.status_code, resp.text)
        self.assertEqual(virtual.OFF, agent.state)
        resp = self.session.post('%s/power' % self.control,
                                 json={'system': 'nope',
                                       'power_state': 'On'})
        self.assertEqual(404, resp.status_code)

    def test_token_handed_out_of_band(self):
        agent, node_uuid = self.make_agent(boot=False)
        self.api.mask_tokens = True
        self.api.tokens[node_uuid] = 'oob-token'
        resp = self.session.post(
            '%s/agents/agent-1/boot' % self.control,
            json={'agent_token': 'oob-token', 'node_uuid': node_uuid})
        self.assertEqual(202, resp.status_code)
        self.assertTrue(wait_for(lambda: self.api.heartbeats_of(node_uuid)))
        beat = self.api.heartbeats_of(node_uuid)[0]['body']
        self.assertEqual('oob-token', beat['agent_token'])
        self.assertEqual(node_uuid, self.api.lookups[0]['node_uuid'])

    def test_passthru_mode(self):
        agent, node_uuid = self.make_agent(api_mode='passthru')
        body = self.api.passthru_bodies[0]
        self.assertEqual(2, body['version'])
        inventory = body['inventory']
        self.assertEqual(mac(1), inventory['interfaces'][0]['mac_address'])
        self.assertIn('cpu', inventory)
        self.assertIn('memory', inventory)
        self.assertEqual('/dev/sda', inventory['disks'][0]['name'])
        beat = self.api.heartbeats_of(node_uuid)[0]['body']
        self.assertEqual(agent.url, beat['agent_url'])

    def test_heartbeat_errors_counted(self):
        self.api.heartbeat_status = 401
        node_uuid = self.api.add_node([mac(3)])
        agent = self.sim.add_agent({'id': 'a3', 'macs': [mac(3)],
                                    'heartbeat_interval': 0.05}, boot=True)
        self.assertTrue(wait_for(
            lambda: agent.counters['heartbeat_errors'] >= 2))
        self.assertEqual(401, agent.last_heartbeat_status)
        self.assertTrue(self.api.heartbeats_of(node_uuid))


class TestCommands(SimulatorTestBase):

    def test_status_and_root(self):
        agent, _ = self.make_agent()
        resp = self.session.get('%s/v1/status' % agent.url)
        self.assertEqual(200, resp.status_code)
        self.assertEqual(virtual.AGENT_VERSION, resp.json()['version'])
        resp = self.session.get(agent.url + '/')
        self.assertEqual('v1', resp.json()['default_version']['id'])
        resp = self.session.get('%s/agents/nope/v1/status'
                                % self.sim.base_url)
        self.assertEqual(404, resp.status_code)

    def test_prepare_image_and_configdrive(self):
        agent, node_uuid = self.make_agent()
        beats = len(self.api.heartbeats_of(node_uuid))
        configdrive = b'config-drive-iso' * 100
        encoded = base64.b64encode(gzip.compress(configdrive)).decode()
        doc = self.command(agent, 'standby.prepare_image',
                           {'image_info': self.image_info(),
                            'configdrive': encoded})
        self.assertEqual('standby.prepare_image', doc['command_name'])
        self.assertIn(doc['command_status'], ('RUNNING', 'SUCCEEDED'))
        doc = self.wait_command(agent, doc)
        self.assertEqual('SUCCEEDED', doc['command_status'], doc)
        self.assertIsNone(doc['command_error'])
        self.assertIn('prepare_image', doc['command_result']['result'])
        with open(agent.disk_path, 'rb') as f:
            self.assertEqual(IMAGE, f.read())
        with open(agent.configdrive_path, 'rb') as f:
            self.assertEqual(configdrive, f.read())
        # A heartbeat right after the command (the periodic one is 300 s
        # away with heartbeat_timeout 600).
        self.assertTrue(wait_for(
            lambda: len(self.api.heartbeats_of(node_uuid)) > beats))
        # Partition UUIDs, listing, the control API's record.
        uuids = self.command(agent, 'standby.get_partition_uuids')
        self.assertEqual('SUCCEEDED', uuids['command_status'])
        root = uuids['command_result']['root uuid']
        self.assertTrue(root)
        listing = self.session.get('%s/v1/commands/' % agent.url).json()
        self.assertEqual(['standby.prepare_image',
                          'standby.get_partition_uuids'],
                         [c['command_name'] for c in listing['commands']])
        detail = self.session.get('%s/agents/agent-1'
                                  % self.control).json()
        self.assertEqual(IMAGE_SHA256, detail['records']['image']['hash'])
        self.assertEqual(root, detail['records']['image']['root_uuid'])
        self.assertEqual(len(IMAGE), detail['records']['image']['size'])
        self.assertEqual(len(configdrive),
                         detail['records']['configdrive']['size'])

    def test_prepare_image_legacy_checksum_wait_true(self):
        agent, _ = self.make_agent()
        info = {'id': 'x', 'urls': [self.image_url],
                'checksum': IMAGE_SHA256}
        doc = self.command(agent, 'standby.prepare_image',
                           {'image_info': info}, wait=True)
        self.assertEqual('SUCCEEDED', doc['command_status'], doc)
        self.assertFalse(os.path.exists(agent.configdrive_path))

    def test_checksum_mismatch(self):
        agent, _ = self.make_agent()
        doc = self.command(agent, 'standby.prepare_image', {
            'image_info': self.image_info(os_hash_value='0' * 64)})
        doc = self.wait_command(agent, doc)
        self.assertEqual('FAILED', doc['command_status'])
        self.assertEqual('ImageChecksumError', doc['command_error']['type'])
        self.assertIn(IMAGE_SHA256, doc['command_error']['message'])
        self.assertIn('0' * 64, doc['command_error']['message'])
        self.assertFalse(os.path.exists(agent.disk_path))
        self.assertFalse(os.path.exists(agent.disk_path + '.part'))

    def test_download_failure(self):
        agent, _ = self.make_agent()
        doc = self.command(agent, 'standby.prepare_image', {
            'image_info': self.image_info(
                urls=['%s/missing.img' % self.images.url])})
        doc = self.wait_command(agent, doc)
        self.assertEqual('FAILED', doc['command_status'])
        self.assertEqual('ImageDownloadError', doc['command_error']['type'])
        self.assertIn('404', doc['command_error']['message'])
        # Refused connection, then a good mirror: the second URL wins.
        doc = self.command(agent, 'standby.prepare_image', {
            'image_info': self.image_info(
                urls=['http://127.0.0.1:1/x.img', self.image_url])})
        doc = self.wait_command(agent, doc)
        self.assertEqual('SUCCEEDED', doc['command_status'], doc)

    def test_connection_refused(self):
        agent, _ = self.make_agent()
        doc = self.command(agent, 'standby.prepare_image', {
            'image_info': self.image_info(urls=['http://127.0.0.1:1/x'])})
        doc = self.wait_command(agent, doc)
        self.assertEqual('FAILED', doc['command_status'])
        self.assertEqual('ImageDownloadError', doc['command_error']['type'])
        self.assertIn('127.0.0.1:1', doc['command_error']['message'])

    def test_clean_steps_and_erase(self):
        agent, _ = self.make_agent()
        doc = self.command(agent, 'standby.prepare_image',
                           {'image_info': self.image_info()}, wait=True)
        self.assertEqual('SUCCEEDED', doc['command_status'], doc)
        steps = self.command(agent, 'clean.get_clean_steps',
                             {'node': {}, 'ports': []})
        self.assertEqual('SUCCEEDED', steps['command_status'])
        listed = steps['command_result']['clean_steps'][
            'GenericHardwareManager']
        by_name = {s['step']: s for s in listed}
        self.assertEqual(10, by_name['erase_devices']['priority'])
        self.assertEqual(0, by_name['update_firmware']['priority'])
        self.assertEqual(0, by_name['apply_bios_settings']['priority'])
        step = {'step': 'erase_devices', 'interface': 'deploy',
                'priority': 10, 'args': {}}
        doc = self.command(agent, 'clean.execute_clean_step',
                           {'step': step, 'node': {}, 'ports': []})
        doc = self.wait_command(agent, doc)
        self.assertEqual('SUCCEEDED', doc['command_status'], doc)
        self.assertEqual(step, doc['command_result']['clean_step'])
        with open(agent.disk_path, 'rb') as f:
            data = f.read()
        self.assertEqual(len(IMAGE), len(data))
        self.assertEqual(bytes(len(IMAGE)), data)
        self.assertEqual(1, agent.records['erased'])

    def test_firmware_and_bios_recorded(self):
        agent, _ = self.make_agent()
        fw = {'firmware_images': [{'url': 'http://x/fw.bin',
                                   'component': 'bmc', 'version': '2.1'}]}
        bios = {'settings': [{'name': 'LogicalProc', 'value': 'Enabled'}]}
        for name, args in (('update_firmware', fw),
                           ('apply_bios_settings', bios)):
            doc = self.command(agent, 'clean.execute_clean_step', {
                'step': {'step': name, 'interface': 'deploy',
                         'priority': 0, 'args': args}}, wait=True)
            self.assertEqual('SUCCEEDED', doc['command_status'], doc)
        detail = self.session.get('%s/agents/agent-1'
                                  % self.control).json()
        self.assertEqual(fw, detail['records']['firmware'][0]['args'])
        self.assertEqual(bios, detail['records']['bios'][0]['args'])
        doc = self.command(agent, 'clean.execute_clean_step', {
            'step': {'step': 'frobnicate', 'interface': 'deploy'}},
            wait=True)
        self.assertEqual('FAILED', doc['command_status'])
        self.assertEqual('UnknownCleanStep', doc['command_error']['type'])

    def test_service_steps(self):
        # As IPA's service extension: the clean steps and the software
        # RAID's apply_configuration, answered as service_result.
        agent, _ = self.make_agent()
        doc = self.command(agent, 'service.get_service_steps', {},
                           wait=True)
        offered = [(s['interface'], s['step']) for s in doc[
            'command_result']['service_steps']['GenericHardwareManager']]
        self.assertIn(('raid', 'apply_configuration'), offered)
        self.assertIn(('deploy', 'update_firmware'), offered)
        root = {'size_gb': 10, 'raid_level': '1', 'is_root_volume': True}
        doc = self.command(agent, 'service.execute_service_step', {
            'step': {'interface': 'raid', 'step': 'apply_configuration',
                     'args': {'raid_config': {'logical_disks': [root]}}}},
            wait=True)
        self.assertEqual('SUCCEEDED', doc['command_status'], doc)
        built = doc['command_result']['service_result']['logical_disks']
        self.assertEqual(built, agent.records['raid']['logical_disks'])
        self.assertEqual('apply_configuration',
                         doc['command_result']['service_step']['step'])
        doc = self.command(agent, 'service.execute_service_step', {
            'step': {'interface': 'deploy', 'step': 'update_firmware',
                     'args': {}}}, wait=True)
        self.assertEqual('SUCCEEDED', doc['command_status'], doc)
        self.assertEqual('firmware updated',
                         doc['command_result']['service_result'])
        doc = self.command(agent, 'service.execute_service_step', {
            'step': {'interface': 'deploy', 'step': 'no_such_step'}},
            wait=True)
        self.assertEqual('FAILED', doc['command_status'])
        self.assertEqual('UnknownServiceStep',
                         doc['command_error']['type'])

    def test_software_raid(self):
        agent, _ = self.make_agent()
        root = {'size_gb': 10, 'raid_level': '1', 'is_root_volume': True}
        create = {'step': 'create_configuration', 'interface': 'raid',
                  'priority': 0, 'args': {}}
        doc = self.command(agent, 'clean.execute_clean_step', {
            'step': create, 'node': {'target_raid_config': {
                'logical_disks': [root]}}}, wait=True)
        self.assertEqual('SUCCEEDED', doc['command_status'], doc)
        built = doc['command_result']['clean_result']['logical_disks']
        self.assertEqual([dict(root, controller='software',
                               physical_disks=[agent.disk_path],
                               root_device_hint={'name': '/dev/md0'})],
                         built)
        self.assertEqual(built, agent.records['raid']['logical_disks'])
        # Nothing to build: the command fails, as IPA's.
        doc = self.command(agent, 'clean.execute_clean_step', {
            'step': create, 'node': {}}, wait=True)
        self.assertEqual('FAILED', doc['command_status'])
        doc = self.command(agent, 'clean.execute_clean_step', {
            'step': dict(create, step='delete_configuration')}, wait=True)
        self.assertEqual('SUCCEEDED', doc['command_status'], doc)
        self.assertIsNone(agent.records['raid'])

    def test_deploy_steps(self):
        agent, _ = self.make_agent()
        doc = self.command(agent, 'deploy.get_deploy_steps')
        steps = doc['command_result']['deploy_steps'][
            'GenericHardwareManager']
        self.assertEqual([('raid', 'apply_configuration'),
                          ('deploy', 'write_image')],
                         [(s['interface'], s['step']) for s in steps])
        doc = self.command(agent, 'deploy.execute_deploy_step', {
            'step': {'step': 'write_image', 'interface': 'deploy',
                     'args': {'image_info': self.image_info()}}},
            wait=True)
        self.assertEqual('SUCCEEDED', doc['command_status'], doc)
        with open(agent.disk_path, 'rb') as f:
            self.assertEqual(IMAGE, f.read())
        # Software RAID as a deploy step: built from its raid_config.
        config = {'logical_disks': [{'size_gb': 'MAX', 'raid_level': '0'}]}
        doc = self.command(agent, 'deploy.execute_deploy_step', {
            'step': {'step': 'apply_configuration', 'interface': 'raid',
                     'args': {'raid_config': config}}}, wait=True)
        self.assertEqual('SUCCEEDED', doc['command_status'], doc)
        self.assertEqual(['0'], [d['raid_level'] for d in doc[
            'command_result']['deploy_result']['logical_disks']])

    def test_failure_injection(self):
        agent, _ = self.make_agent()
        resp = self.session.patch(
            '%s/agents/agent-1/options' % self.control,
            json={'fail_command': 'standby.prepare_image',
                  'fail_message': 'disk on fire'})
        self.assertEqual(200, resp.status_code, resp.text)
        doc = self.command(agent, 'standby.prepare_image',
                           {'image_info': self.image_info()})
        doc = self.wait_command(agent, doc)
        self.assertEqual('FAILED', doc['command_status'])
        self.assertEqual('InjectedFailure', doc['command_error']['type'])
        self.assertEqual('disk on fire', doc['command_error']['message'])
        self.assertTrue(wait_for(
            lambda: self.api.heartbeats[-1]['body']['agent_status']
            == 'error'))
        self.assertIn('disk on fire',
                      self.api.heartbeats[-1]['body']['agent_status_message'])
        self.assertFalse(os.path.exists(agent.disk_path))
        # Other commands still work; lifting the injection heals.
        doc = self.command(agent, 'clean.get_clean_steps')
        self.assertEqual('SUCCEEDED', doc['command_status'])
        self.session.patch('%s/agents/agent-1/options' % self.control,
                           json={'fail_command': None})
        doc = self.command(agent, 'standby.prepare_image',
                           {'image_info': self.image_info()}, wait=True)
        self.assertEqual('SUCCEEDED', doc['command_status'], doc)

    def test_failure_injection_sync_command(self):
        agent, _ = self.make_agent(fail_command=['get_clean_steps'])
        doc = self.command(agent, 'clean.get_clean_steps')
        self.assertEqual('FAILED', doc['command_status'])

    def test_delay_injection(self):
        agent, node_uuid = self.make_agent(prepare_image_delay=1.5)
        doc = self.command(agent, 'standby.prepare_image',
                           {'image_info': self.image_info()})
        self.assertEqual('RUNNING', doc['command_status'])
        started = time.monotonic()
        # One asynchronous command at a time, as IPA.
        busy = self.command(agent, 'clean.execute_clean_step',
                            {'step': {'step': 'erase_devices'}},
                            expect=409)
        self.assertEqual('AgentIsBusy', busy['type'])
        again = self.session.get('%s/v1/commands/%s'
                                 % (agent.url, doc['id'])).json()
        self.assertEqual('RUNNING', again['command_status'])
        # Heartbeats say "start" (busy) meanwhile.
        agent.force_heartbeat()
        self.assertTrue(wait_for(
            lambda: self.api.heartbeats_of(node_uuid)[-1]['body'][
                'agent_status'] == 'start', 1.0))
        doc = self.wait_command(agent, doc)
        self.assertGreaterEqual(time.monotonic() - started, 1.2)
        self.assertEqual('SUCCEEDED', doc['command_status'])

    def test_power_off_abandons_running_command(self):
        agent, _ = self.make_agent(prepare_image_delay=0.5)
        doc = self.command(agent, 'standby.prepare_image',
                           {'image_info': self.image_info()})
        agent.power_off()
        time.sleep(1.0)
        final = agent.get_command(doc['id'])
        self.assertEqual('FAILED', final['command_status'])
        self.assertEqual('AgentPoweredOff', final['command_error']['type'])
        self.assertFalse(os.path.exists(agent.disk_path))

    def test_token_checked(self):
        agent, node_uuid = self.make_agent()
        token = self.api.tokens[node_uuid]
        self.command(agent, 'standby.sync', token=token)
        err = self.command(agent, 'standby.sync', token='wrong',
                           expect=401)
        self.assertEqual('Unauthorized', err['type'])

    def test_token_in_header(self):
        # What ironic_like's agent client sends: the token in a header,
        # nothing in the URL.
        agent, node_uuid = self.make_agent(require_token=True)
        token = self.api.tokens[node_uuid]
        url = '%s/v1/commands/' % agent.url
        body = {'name': 'standby.sync', 'params': {}}
        resp = self.session.post(url, json=body,
                                 headers={'X-Agent-Token': token})
        self.assertEqual(200, resp.status_code, resp.text)
        resp = self.session.get(url, headers={'X-Agent-Token': token})
        self.assertEqual(200, resp.status_code, resp.text)
        self.assertEqual(['standby.sync'],
                         [c['command_name'] for c in resp.json()['commands']])
        for headers in ({'X-Agent-Token': 'wrong'}, {}):
            resp = self.session.post(url, json=body, headers=headers)
            self.assertEqual(401, resp.status_code, resp.text)
            resp = self.session.get(url, headers=headers)
            self.assertEqual(401, resp.status_code, resp.text)

    def test_unknown_and_bad_commands(self):
        agent, _ = self.make_agent()
        self.command(agent, 'standby.nope', expect=400)
        resp = self.session.post('%s/v1/commands/' % agent.url,
                                 data='not json')
        self.assertEqual(400, resp.status_code)
        resp = self.session.get('%s/v1/commands/nope' % agent.url)
        self.assertEqual(404, resp.status_code)

    def test_collect_logs_and_power_off_command(self):
        agent, _ = self.make_agent()
        doc = self.command(agent, 'log.collect_system_logs')
        data = base64.b64decode(doc['command_result']['system_logs'])
        with tarfile.open(fileobj=io.BytesIO(data), mode='r:gz') as tar:
            log = tar.extractfile('agent.log').read().decode()
        self.assertIn('lookup found node', log)
        doc = self.command(agent, 'standby.power_off', wait=True)
        self.assertEqual('SUCCEEDED', doc['command_status'])
        self.assertTrue(wait_for(lambda: agent.state == virtual.OFF))


class TestControlAndFleet(SimulatorTestBase):

    def test_control_crud(self):
        resp = self.session.post('%s/agents' % self.control,
                                 json={'id': 'c1', 'macs': [mac(5)]})
        self.assertEqual(201, resp.status_code)
        resp = self.session.post('%s/agents' % self.control,
                                 json={'id': 'c1', 'macs': [mac(5)]})
        self.assertEqual(409, resp.status_code)
        resp = self.session.post('%s/agents' % self.control,
                                 json={'id': 'c2', 'macs': []})
        self.assertEqual(400, resp.status_code)
        listing = self.session.get('%s/agents' % self.control).json()
        self.assertEqual(['c1'], [a['id'] for a in listing['agents']])
        detail = self.session.get('%s/agents/%s'
                                  % (self.control, mac(5))).json()
        self.assertEqual('c1', detail['id'])
        self.assertEqual(mac(5), detail['inventory']['interfaces'][0][
            'mac_address'])
        resp = self.session.delete('%s/agents/c1' % self.control)
        self.assertEqual(204, resp.status_code)
        self.assertEqual({}, self.sim.agents)
        health = self.session.get('%s/health' % self.control).json()
        self.assertEqual(0, health['agents'])

    def test_fleet_file_and_cli_args(self):
        path = os.path.join(self.sim.state_dir, 'fleet.yaml')
        with open(path, 'w') as f:
            f.write('defaults:\n  options: {prepare_image_delay: 3}\n'
                    'agents:\n'
                    '  - {id: f1, macs: ["%s"]}\n'
                    '  - {id: f2, macs: ["%s"], node_uuid: abc,\n'
                    '     options: {fail_command: standby.sync}}\n'
                    % (mac(11), mac(12)))
        agents = self.sim.load_fleet(path)
        self.assertEqual(['f1', 'f2'], [a.id for a in agents])
        self.assertEqual(3, agents[1].options['prepare_image_delay'])
        self.assertEqual('standby.sync', agents[1].options['fail_command'])
        self.assertEqual('abc', agents[1].node_uuid_hint)
        args = agent_sim.parse_args(['--api-url', 'http://x:6385',
                                     '--port', '0', '--fleet', path,
                                     '--state-dir', '/tmp/s'])
        self.assertEqual('http://x:6385', args.api_url)
        self.assertEqual(path, args.fleet)
        self.assertEqual(0, args.port)

    def test_thousand_agents_few_threads(self):
        before = threading.active_count()
        specs = []
        for index in range(1000):
            self.api.add_node([mac(1000 + index)])
            specs.append({'id': 'n%04d' % index,
                          'macs': [mac(1000 + index)],
                          'heartbeat_interval': 1.0})
        resp = self.session.post('%s/agents' % self.control,
                                 json={'agents': specs})
        self.assertEqual(201, resp.status_code, resp.text[:200])
        self.assertEqual(1000, len(resp.json()['agents']))
        for agent in list(self.sim.agents.values()):
            agent.boot()

        def all_beat():
            return all(a.counters['heartbeats'] >= 1
                       for a in self.sim.agents.values())
        wait_for(all_beat, 30, 0.2, message=lambda: self.sim.stats())
        health = self.session.get('%s/health' % self.control).json()
        self.assertEqual({'heartbeating': 1000}, health['states'])
        # Heartbeats keep flowing (about 1,000 per second here).
        count = len(self.api.heartbeats)
        self.assertTrue(wait_for(
            lambda: len(self.api.heartbeats) >= count + 1000, 10, 0.1))
        # One timer thread and small pools, not a thread per agent.
        self.assertLess(threading.active_count() - before, 60)
        # At most one pending heartbeat per agent: the scheduler never
        # queues a second beat for an agent whose last one is still due.
        pending = self.sim.scheduler.pending()
        self.assertLessEqual(pending, 1000)


class TestCommandLine(testtools.TestCase):

    def test_process_serves_fleet(self):
        self.useFixture(fixtures.Timeout(40, gentle=True))
        tmp = self.useFixture(fixtures.TempDir()).path
        api = fakes.FakeAPI(heartbeat_timeout=600).start()
        self.addCleanup(api.stop)
        node_uuid = api.add_node([mac(21)])
        fleet = os.path.join(tmp, 'fleet.json')
        with open(fleet, 'w') as f:
            json.dump({'agents': [{'id': 'p1', 'macs': [mac(21)],
                                   'inventory_extra': {
                                       'pci_devices': [{'vendor_id':
                                                        '8086'}]}}]}, f)
        with socket.socket() as s:
            s.bind(('127.0.0.1', 0))
            port = s.getsockname()[1]
        proc = fakes.spawn(self, [
            sys.executable, '-m', 'ironic_like_lab.agent_sim',
            '--api-url', api.url, '--port', str(port), '--state-dir',
            os.path.join(tmp, 'state'), '--fleet', fleet, '--boot',
            '--options', '{"prepare_image_delay": 5}'],
            stderr=subprocess.PIPE)
        self.assertTrue(wait_for(lambda: api.heartbeats_of(node_uuid), 20,
                                 0.1))
        beat = api.heartbeats_of(node_uuid)[0]['body']
        self.assertEqual('http://127.0.0.1:%d/agents/p1' % port,
                         beat['callback_url'])
        detail = requests.get('http://127.0.0.1:%d/control/agents/p1'
                              % port, timeout=5).json()
        self.assertEqual(5, detail['options']['prepare_image_delay'])
        self.assertEqual('8086', detail['inventory']['pci_devices'][0][
            'vendor_id'])
        proc.terminate()
        self.assertEqual(0, proc.wait(10))


class TestScheduler(testtools.TestCase):

    def test_order_cancel_and_single_timer_thread(self):
        from ironic_like_lab import scheduler
        s = scheduler.Scheduler(workers=2)
        s.start()
        self.addCleanup(s.stop)
        seen = []
        done = threading.Event()
        s.call_later(0.2, seen.append, 'late')
        s.call_later(0.05, seen.append, 'early')
        s.call_later(0.1, seen.append, 'cancelled').cancel()
        s.call_later(0.3, done.set)
        self.assertTrue(done.wait(5))
        self.assertEqual(['early', 'late'], seen)
        self.assertEqual(0, s.pending())

    def test_json_options_cli(self):
        args = agent_sim.parse_args(['--options',
                                     json.dumps({'command_delay': 1})])
        self.assertEqual({'command_delay': 1}, json.loads(args.options))
