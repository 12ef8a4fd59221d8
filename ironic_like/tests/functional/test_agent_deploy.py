"""The agent deploy end to end, with every piece a real process.

Each test starts its own lab: an API and two conductors (MariaDB,
RabbitMQ), sushy-tools' Redfish emulator (the BMCs), the agent simulator
(one virtual ironic-python-agent per machine, powered by the emulator's
notifications) and one boot file server publishing the conductors' shared
[deploy]http_root: the iPXE scripts the agents boot from and the image
they write. Two conductors on one host cannot both bind the boot file
port, so they leave it to that server ([deploy]http_server_port = 0), as a
real cluster leaves it to one web server.

The tests:

* 20 nodes deployed with a real image (its bytes checked on every
  simulated disk), then undeployed: back to available through cleaning,
  their disks erased;
* a wrong checksum ends in "deploy failed" naming the step, powered off;
* a silent agent puts its node in maintenance
  ([agent]heartbeat_timeout_action = maintenance);
* kill -9 of the conductor owning most nodes while they deploy: the
  survivor resumes their flows and every node becomes active;
* the same conductor paused (SIGSTOP) past the heartbeat timeout instead,
  then resumed: the survivor finishes its deploys, and the paused one,
  fenced, writes nothing to them (each image is written once).

Every wait is bounded; every process is stopped at the end.
"""

import collections
import hashlib
import json
import os
import signal
import sys
import time

import requests
from testtools import content

from ironic_like.tests.functional import base
from ironic_like.tests.functional import sushy_emulator

IMAGE_MB = 3
# [agent]heartbeat_timeout of the deploy tests. The agents heartbeat every
# half of it; they also heartbeat at once when a command ends, so progress
# does not wait for the interval. Large enough that the default action
# (reboot: fatal to an image write in progress) never hits a healthy
# agent held up by a busy 2-core machine or by a conductor's death.
AGENT_HEARTBEAT_TIMEOUT = 30
# Bounds of the waits for a batch of nodes (generous: 2 cores run it all).
STATE_BOUND = 150
HTTP_TIMEOUT = 30

# Provision states where nobody works on the node any more.
FAILED_STATES = frozenset(['deploy failed', 'clean failed', 'error',
                           'enroll'])
NODE_FIELDS = ('uuid,provision_state,target_provision_state,power_state,'
               'last_error,maintenance,maintenance_reason,conductor,'
               'driver_internal_info')


def sha256_of_file(path):
    digest = hashlib.sha256()
    with open(path, 'rb') as f:
        for chunk in iter(lambda: f.read(1 << 20), b''):
            digest.update(chunk)
    return digest.hexdigest()


def make_image(path, size_mb):
    """A file of random bytes standing for a disk image; its sha256."""
    with open(path, 'wb') as f:
        for _ in range(size_mb):
            f.write(os.urandom(1 << 20))
    return sha256_of_file(path)


def is_zeros(path):
    with open(path, 'rb') as f:
        for chunk in iter(lambda: f.read(1 << 20), b''):
            if chunk.count(0) != len(chunk):
                return False
    return True


class Lab(object):
    """The processes and machines of one test (see the module doc)."""

    def __init__(self, test, count, conf, agent_options, power_state='Off'):
        self.test = test
        self.work_dir = test.work_dir()
        self._start_boot_files()
        sections = {
            'DEFAULT': {'enabled_hardware_types': 'redfish,fake-hardware'},
            'deploy': {'http_root': self.http_root,
                       'http_url': self.http_url,
                       'http_server_port': 0},
            'agent': {'heartbeat_timeout': AGENT_HEARTBEAT_TIMEOUT},
        }
        for section, values in (conf or {}).items():
            sections.setdefault(section, {}).update(values)
        # Built now for its API URL; started last, so that it is stopped
        # first (clean-ups run in reverse) and its conductors never talk
        # to a BMC or an agent already gone.
        self.cluster = base.Cluster(test.class_database(), conductors=2,
                                    api_workers=1, conf=sections,
                                    work_dir=self.work_dir)
        # MACs by index: unique within the lab, which is all that counts
        # (each test has its own database rows and simulator).
        self.systems = [sushy_emulator.make_system(
            'agent-%02d' % i, mac='52:54:02:00:%02x:%02x' % (i >> 8, i & 0xff),
            power_state=power_state)
            for i in range(count)]
        self._start_simulator(agent_options)
        self.emulator = test.useFixture(sushy_emulator.SushyEmulator(
            self.systems, log_dir=self.work_dir,
            notification_url=self.sim_url + '/control/power'))
        test.watch(self.emulator.process)
        test.watch(self.cluster)
        test.useFixture(self.cluster)
        self.nodes = []  # node UUIDs, in the order of self.systems

    # -- processes ---------------------------------------------------------

    def _service(self, name, argv, url):
        proc = base.ServiceProcess(name, argv, self.work_dir)
        self.test.watch(proc)
        self.test.useFixture(proc)

        def answers():
            proc.check_running()
            return requests.get(url, timeout=5).ok
        self.test.assertEventually(answers, base.START_TIMEOUT,
                                   message='%s did not answer %s'
                                   % (name, url))
        return proc

    def _start_boot_files(self):
        self.http_root = os.path.join(self.work_dir, 'httpboot')
        os.makedirs(os.path.join(self.http_root, 'images'))
        self.image_sha256 = make_image(
            os.path.join(self.http_root, 'images', 'instance.img'), IMAGE_MB)
        port = base.free_port()
        self.http_url = 'http://127.0.0.1:%d' % port
        self.image_url = self.http_url + '/images/instance.img'
        self._service('boot-file-server', [
            sys.executable, '-m', 'ironic_like.common.boot_file_server',
            '--root', self.http_root, '--host', '127.0.0.1',
            '--port', str(port)], self.image_url)

    def _start_simulator(self, agent_options):
        fleet = os.path.join(self.work_dir, 'fleet.json')
        with open(fleet, 'w') as f:
            json.dump({'agents': [
                {'id': s['uuid'], 'macs': [s['nics'][0]['mac']],
                 'options': dict(agent_options or {})}
                for s in self.systems]}, f)
        port = base.free_port()
        self.sim_url = 'http://127.0.0.1:%d' % port
        self.disk_dir = os.path.join(self.work_dir, 'disks')
        self._service('agent-sim', [
            sys.executable, '-m', 'ironic_like_lab.agent_sim',
            '--api-url', self.cluster.url, '--host', '127.0.0.1',
            '--port', str(port), '--state-dir', self.disk_dir,
            '--fleet', fleet,
            # Network boot: each agent reads the API URL, its node and its
            # token from the iPXE script the conductor wrote for its MAC.
            '--boot-config-url', self.http_url + '/macs/{mac}.ipxe'],
            self.sim_url + '/control/health')

    # -- the simulated machines -------------------------------------------

    def agent(self, index):
        resp = requests.get('%s/control/agents/%s' % (
            self.sim_url, self.systems[index]['uuid']), timeout=HTTP_TIMEOUT)
        resp.raise_for_status()
        return resp.json()

    def set_agent_options(self, index, **options):
        resp = requests.put('%s/control/agents/%s/options' % (
            self.sim_url, self.systems[index]['uuid']), json=options,
            timeout=HTTP_TIMEOUT)
        resp.raise_for_status()

    def bmc_power(self, index):
        return self.emulator.get_system(
            self.systems[index]['uuid'])['PowerState']

    # -- the API ----------------------------------------------------------

    def api(self, method, path, body=None, expect=(200, 201, 202, 204)):
        # 409: the node is locked for a moment (a power sync, a heartbeat);
        # try again, boundedly.
        for attempt in range(20):
            resp = self.cluster.request(method, path, json=body)
            if resp.status_code != 409 or attempt == 19:
                break
            time.sleep(0.5)
        self.test.assertIn(resp.status_code, expect, '%s %s: %s'
                           % (method, path, resp.text))
        return resp.json() if resp.content else None

    def enrol(self):
        for system in self.systems:
            node = self.api('POST', '/v1/nodes', {
                'name': system['name'], 'driver': 'redfish',
                'deploy_interface': 'agent', 'boot_interface': 'ipxe',
                'driver_info': self.emulator.driver_info(system['uuid'])})
            self.api('POST', '/v1/ports', {
                'node_uuid': node['uuid'],
                'address': system['nics'][0]['mac']})
            self.nodes.append(node['uuid'])
        return self.nodes

    def provision(self, target, uuids=None):
        for uuid in uuids or self.nodes:
            self.api('PUT', '/v1/nodes/%s/states/provision' % uuid,
                     {'target': target})

    def set_image(self, uuids=None, checksum=None):
        for uuid in uuids or self.nodes:
            self.api('PATCH', '/v1/nodes/%s' % uuid, [
                {'op': 'add', 'path': '/instance_info/image_source',
                 'value': self.image_url},
                {'op': 'add', 'path': '/instance_info/image_checksum',
                 'value': checksum or self.image_sha256}])

    def states(self, uuids=None):
        """{uuid: node document (NODE_FIELDS)} of ``uuids``."""
        wanted = set(uuids or self.nodes)
        body = self.api('GET', '/v1/nodes?limit=1000&fields=' + NODE_FIELDS)
        return {n['uuid']: n for n in body['nodes'] if n['uuid'] in wanted}

    def wait_for(self, wanted, uuids=None, timeout=STATE_BOUND):
        """Wait until every node of ``uuids`` is in provision state
        ``wanted``; fail at once when one fails instead (failure state or
        maintenance), naming it with its last_error. Returns the nodes."""
        uuids = list(uuids or self.nodes)
        seen = {}

        def done():
            seen['nodes'] = nodes = self.states(uuids)
            stuck = [n for n in nodes.values()
                     if n['provision_state'] in FAILED_STATES
                     or n['maintenance']]
            if stuck:
                self.test.fail('%d nodes failed while waiting for "%s", '
                               'e.g. %s' % (len(stuck), wanted, stuck[:2]))
            return (len(nodes) == len(uuids) and
                    all(n['provision_state'] == wanted
                        and n['target_provision_state'] is None
                        for n in nodes.values()))

        def describe():
            counts = collections.Counter(
                n['provision_state'] for n in seen.get('nodes', {}).values())
            return 'nodes not all "%s": %s' % (wanted, dict(counts))
        self.test.assertEventually(done, timeout, message=describe,
                                   interval=0.5)
        return seen['nodes']

    def make_available(self, uuids=None):
        """manage -> manageable, provide -> (cleaning) -> available."""
        self.provision('manage', uuids)
        self.wait_for('manageable', uuids)
        self.provision('provide', uuids)
        self.wait_for('available', uuids)


class AgentDeployTestCase(base.FunctionalTestCase):

    TIMEOUT = 240

    def start_lab(self, count, conf=None, agent_options=None):
        return Lab(self, count, conf, agent_options)

    def note(self, name, text):
        """Timing and context shown with the results (and on failure)."""
        self.addDetail(name, content.text_content(text))


class TestAgentDeploy(AgentDeployTestCase):

    def test_deploy_and_undeploy_20_nodes_with_image(self):
        lab = self.start_lab(20)
        lab.enrol()
        started = time.monotonic()
        lab.make_available()
        provided = time.monotonic()

        lab.set_image()
        lab.provision('active')
        nodes = lab.wait_for('active')
        deployed = time.monotonic()
        for node in nodes.values():
            self.assertEqual('power on', node['power_state'])
            self.assertIsNone(node['last_error'])
        # The bytes on every simulated disk are the image's.
        disks = {}
        for index, uuid in enumerate(lab.nodes):
            agent = lab.agent(index)
            disks[uuid] = agent['disk_path']
            self.assertEqual(lab.image_sha256,
                             sha256_of_file(agent['disk_path']),
                             'disk of node %s' % uuid)
            # Booted from its disk: the instance runs, not the ramdisk.
            self.assertEqual('instance', agent['state'], uuid)
        # The ramdisk's boot scripts (which hold the agent token) are gone.
        self.assertEqual([], os.listdir(os.path.join(lab.http_root,
                                                     'macs')))

        # Servicing two active nodes (API 1.87): the ramdisk boots again,
        # runs the steps, and the instance boots again. The second one's
        # raid interface is the agent's (changed in maintenance, as
        # Ironic allows for an active node): its software RAID is
        # applied as a service step too.
        serviced = lab.nodes[:2]
        mirror = {'size_gb': 2, 'raid_level': '1', 'is_root_volume': True}
        lab.api('PUT', '/v1/nodes/%s/maintenance' % serviced[1],
                {'reason': 'raid interface'})
        lab.api('PATCH', '/v1/nodes/%s' % serviced[1], [
            {'op': 'replace', 'path': '/raid_interface', 'value': 'agent'}])
        lab.api('DELETE', '/v1/nodes/%s/maintenance' % serviced[1])
        for index, uuid in enumerate(serviced):
            steps = [{'interface': 'deploy', 'step': 'update_firmware',
                      'args': {'firmware_images': [{'url': 'http://fw'}]}}]
            if index == 1:
                steps.append({'interface': 'raid',
                              'step': 'apply_configuration',
                              'args': {'raid_config': {
                                  'logical_disks': [mirror]}}})
            resp = lab.cluster.request(
                'PUT', '/v1/nodes/%s/states/provision' % uuid,
                json={'target': 'service', 'service_steps': steps},
                headers={'X-OpenStack-Ironic-API-Version': '1.87'})
            self.assertEqual(202, resp.status_code, resp.text)
        nodes = lab.wait_for('active', serviced)
        for index, uuid in enumerate(serviced):
            agent = lab.agent(index)
            self.assertEqual(1, len(agent['records']['firmware']), uuid)
            self.assertEqual('instance', agent['state'], uuid)
            self.assertIsNone(nodes[uuid]['last_error'])
        raided = lab.api('GET', '/v1/nodes/%s' % serviced[1])
        self.assertEqual(['1'], [d['raid_level'] for d in
                                 raided['raid_config']['logical_disks']])
        self.assertEqual(2, raided['properties']['local_gb'])

        lab.provision('deleted')
        nodes = lab.wait_for('available')
        undeployed = time.monotonic()
        image_size = IMAGE_MB << 20
        for index, uuid in enumerate(lab.nodes):
            self.assertEqual('power off', nodes[uuid]['power_state'])
            # Erased as VirtualAgent.erase() does it: zeroed in place.
            path = disks[uuid]
            if os.path.exists(path):
                self.assertEqual(image_size, os.path.getsize(path), uuid)
                self.assertTrue(is_zeros(path), 'disk of %s not erased'
                                % uuid)
            records = lab.agent(index)['records']
            # Once when provided (an empty disk), once after the deploy.
            self.assertEqual(2, records['erased'], uuid)
        self.note('seconds', 'manage+provide %.1f, deploy %.1f, undeploy '
                  '%.1f' % (provided - started, deployed - provided,
                            undeployed - deployed))

        # Software RAID built by the agent (the "agent" raid interface)
        # in a manual cleaning of two nodes.
        raided = lab.nodes[:2]
        root = {'size_gb': 2, 'raid_level': '1', 'is_root_volume': True}
        lab.provision('manage', raided)
        lab.wait_for('manageable', raided)
        for uuid in raided:
            lab.api('PATCH', '/v1/nodes/%s' % uuid, [
                {'op': 'replace', 'path': '/raid_interface',
                 'value': 'agent'}])
            resp = lab.cluster.request(
                'PUT', '/v1/nodes/%s/states/raid' % uuid,
                json={'logical_disks': [root]},
                headers={'X-OpenStack-Ironic-API-Version': '1.12'})
            self.assertEqual(204, resp.status_code, resp.text)
            lab.api('PUT', '/v1/nodes/%s/states/provision' % uuid, {
                'target': 'clean', 'clean_steps': [
                    {'interface': 'raid', 'step': 'create_configuration'}]})
        lab.wait_for('manageable', raided)
        for index, uuid in enumerate(raided):
            node = lab.api('GET', '/v1/nodes/%s' % uuid)
            self.assertIsNone(node['last_error'], uuid)
            built = node['raid_config']['logical_disks']
            self.assertEqual(['1'], [d['raid_level'] for d in built])
            self.assertEqual(2, node['properties']['local_gb'])
            self.assertEqual(
                built, lab.agent(index)['records']['raid']['logical_disks'])

    def test_bad_checksum_fails_the_deploy(self):
        lab = self.start_lab(1)
        uuid, = lab.enrol()
        lab.make_available()
        lab.set_image(checksum=hashlib.sha256(b'not the image').hexdigest())
        lab.provision('active')

        def failed():
            node = lab.states()[uuid]
            return node if node['provision_state'] == 'deploy failed' \
                else None
        node = self.assertEventually(
            failed, STATE_BOUND, interval=0.5,
            message=lambda: 'not "deploy failed": %s' % lab.states())
        self.assertIn('deploy-write-image', node['last_error'])
        self.assertIn('checksum', node['last_error'].lower())
        self.assertEqual('power off', node['power_state'])
        self.assertEqual('Off', lab.bmc_power(0))
        # Nothing was written: the download was thrown away.
        self.assertFalse(os.path.exists(lab.agent(0)['disk_path']))


class TestSilentAgent(AgentDeployTestCase):

    HEARTBEAT_TIMEOUT = 8
    # The healthy agent heartbeats every second (not every half of the
    # timeout): a busy 2-core machine that holds it up for a few seconds
    # must not make it look silent.
    HEARTBEAT_INTERVAL = 1

    def test_silent_agent_puts_node_in_maintenance(self):
        lab = self.start_lab(2, conf={'agent': {
            'heartbeat_timeout': self.HEARTBEAT_TIMEOUT,
            'check_heartbeat_interval': 1,
            'heartbeat_timeout_action': 'maintenance'}},
            agent_options={'heartbeat_interval': self.HEARTBEAT_INTERVAL})
        silent, healthy = lab.enrol()
        lab.make_available()
        # Alive (it boots, looks its node up) but never calls back. Its
        # machine is off after cleaning: nothing is in flight.
        lab.set_agent_options(0, no_heartbeat=True)
        heartbeats = lab.agent(0)['counters']['heartbeats']
        lab.set_image()
        lab.provision('active')

        def in_maintenance():
            node = lab.states([silent])[silent]
            return node if node['maintenance'] else None
        node = self.assertEventually(
            in_maintenance, 60, interval=0.5,
            message=lambda: 'not in maintenance: %s' % lab.states([silent]))
        reason = node['maintenance_reason']
        self.assertIn('No heartbeat', reason)
        self.assertIn('%d seconds' % self.HEARTBEAT_TIMEOUT, reason)
        self.assertIn('wait call-back', reason)
        self.assertEqual('wait call-back', node['provision_state'])
        # The agent did boot and look its node up: silence, not absence.
        agent = lab.agent(0)
        self.assertEqual('heartbeating', agent['state'])
        self.assertEqual(heartbeats, agent['counters']['heartbeats'])
        # Maintenance alone: the machine was left as it was.
        self.assertEqual('power on', node['power_state'])
        self.assertEqual('On', lab.bmc_power(0))
        # The same settings leave a healthy agent alone.
        lab.wait_for('active', [healthy], timeout=60)


class _OwnerLostMidDeploy(AgentDeployTestCase):
    """Ten nodes deploying on two conductors; the one owning most of them
    is lost once one of its nodes writes its image."""

    # Seconds each agent spends writing the image: long enough that
    # deploys are in flight when the owner is lost.
    WRITE_DELAY = 6

    def deploy_until_owner_writes(self):
        """Start the deploys; return (lab, victim, survivor, the victim's
        nodes, their states) once one of the victim's nodes writes its
        image (the others are then in their own phases: flows running
        under its lock, waits)."""
        lab = self.start_lab(10, agent_options={
            'prepare_image_delay': self.WRITE_DELAY})
        lab.enrol()
        lab.make_available()
        owners = collections.Counter(
            n['conductor'] for n in lab.states().values())
        victim = owners.most_common(1)[0][0]
        survivor, = set(lab.cluster.conductors) - {victim}
        mine = [u for u, n in lab.states().items()
                if n['conductor'] == victim]

        lab.set_image()
        lab.provision('active')

        def writing():
            nodes = lab.states(mine)
            if any((n['driver_internal_info'] or {}).get('agent_phase') ==
                   'deploy-image-running' for n in nodes.values()):
                return nodes
        at_loss = self.assertEventually(
            writing, STATE_BOUND, interval=0.2,
            message=lambda: 'no node of %s writes its image: %s'
            % (victim, lab.states(mine)))
        return lab, victim, survivor, mine, at_loss


class TestConductorDeathDuringDeploys(_OwnerLostMidDeploy):

    def test_kill_owner_mid_deploy_survivor_finishes(self):
        lab, victim, survivor, mine, at_kill = \
            self.deploy_until_owner_writes()
        lab.cluster.conductors[victim].kill9()
        killed = time.monotonic()
        self.note('victim', '%s owned %d of %d nodes; at the kill: %s' % (
            victim, len(mine), len(lab.nodes), dict(collections.Counter(
                n['provision_state'] for n in at_kill.values()))))

        nodes = lab.wait_for('active', timeout=120)
        self.note('seconds-after-kill', '%.1f' % (time.monotonic() - killed))
        for uuid, node in nodes.items():
            self.assertEqual(survivor, node['conductor'], uuid)
            self.assertIsNone(node['last_error'], uuid)
        for index, uuid in enumerate(lab.nodes):
            self.assertEqual(lab.image_sha256,
                             sha256_of_file(lab.agent(index)['disk_path']),
                             'disk of node %s' % uuid)
        lab.cluster.conductors[survivor].check_running()


class TestConductorPausedDuringDeploys(_OwnerLostMidDeploy):

    def test_paused_owner_is_fenced_work_finishes_once(self):
        lab, victim, survivor, _mine, _at_pause = \
            self.deploy_until_owner_writes()
        database = lab.cluster.database
        paused = lab.cluster.conductors[victim]
        paused.send(signal.SIGSTOP)
        try:
            # Declared dead while paused: the survivor deploys everything.
            nodes = lab.wait_for('active', timeout=STATE_BOUND)
            self.assertNotIn(victim, database.alive_conductors())
        finally:
            paused.send(signal.SIGCONT)
        # Back: its heartbeat is recorded again and it rejoins the ring;
        # whatever it had in flight found its locks gone.
        self.assertEventually(
            lambda: victim in database.alive_conductors(), STATE_BOUND,
            message='%s never heartbeated again' % victim)
        nodes = lab.wait_for('active', timeout=STATE_BOUND)
        for uuid, node in nodes.items():
            self.assertIsNone(node['last_error'], uuid)
            self.assertEqual('power on', node['power_state'], uuid)
        for index, uuid in enumerate(lab.nodes):
            agent = lab.agent(index)
            writes = [c for c in agent['commands']
                      if c['command_name'] == 'standby.prepare_image']
            self.assertEqual(1, len(writes), 'image writes of %s' % uuid)
            self.assertEqual(lab.image_sha256,
                             sha256_of_file(agent['disk_path']),
                             'disk of node %s' % uuid)
        paused.check_running()
        lab.cluster.conductors[survivor].check_running()
        log = paused.log_text()
        self.note('fenced-writes', str(log.count('no longer locked')))
