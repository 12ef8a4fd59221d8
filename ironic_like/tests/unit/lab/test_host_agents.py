"""A deployed simulated machine runs the real host agent while its
instance runs: started at the boot from disk, stopped at power off."""

import json
import os
import sys
import time

import fixtures

from ironic_like_lab import host_agents
from ironic_like_lab import virtual

from ironic_like.tests.unit.hostagent import fakes as hostagent_fakes
from ironic_like.tests.unit.lab import test_simulator
from ironic_like.tests.utils import wait_for


class HostAgentsTestBase(test_simulator.SimulatorTestBase):

    def setUp(self):
        super().setUp()
        self.hostos = hostagent_fakes.FakeHostOSAPI(
            heartbeat_interval=0.1).start()
        self.addCleanup(self.hostos.stop)
        self.ansible = hostagent_fakes.write_fake_ansible(
            self.useFixture(fixtures.TempDir()).path)
        url, sha = self.hostos.add_archive(
            'sample.tgz', hostagent_fakes.module_archive())
        self.hostos.items = hostagent_fakes.module_items(
            'web', url, sha, values={'greeting': 'hi'},
            ansible=self.ansible)

    def use_fake_ansible(self):
        # The simulator's manager, with the fake binary instead of the
        # real ansible-playbook (fast).
        self.sim.host_agents = host_agents.HostAgents(
            self.sim.scheduler, workers=2, ansible_playbook=self.ansible)

    def deploy(self, index=1, **options):
        """Lookup (the ramdisk learns its node), image written, then the
        machine boots from its disk as the BMC's notification says."""
        agent, node_uuid = self.make_agent(index, **options)
        agent.write_image(self.image_info())
        self.assertEqual(node_uuid, agent.instance_node_uuid)
        # The host agent's service: the stand-in, not the lookup fake.
        agent.api_url = self.hostos.url
        self.power(agent, 'Off')
        self.power(agent, 'On', boot_device='Hdd')
        self.assertEqual(virtual.INSTANCE, agent.state)
        return agent, node_uuid

    def power(self, agent, state, **kw):
        resp = self.session.put('%s/power' % self.control, json=dict(
            {'uuid': agent.id, 'power_state': state}, **kw))
        self.assertEqual(202, resp.status_code, resp.text)

    def detail(self, agent):
        return self.session.get('%s/agents/%s' % (self.control,
                                                  agent.id)).json()

    def ran(self, agent):
        try:
            with open(os.path.join(agent.host_root, 'ran.jsonl')) as f:
                return [json.loads(line) for line in f]
        except FileNotFoundError:
            return []


class TestHostAgents(HostAgentsTestBase):

    def test_instance_boot_runs_the_host_agent(self):
        self.use_fake_ansible()
        agent, node_uuid = self.deploy()
        wait_for(lambda: self.ran(agent), 20,
                 message=lambda: self.detail(agent).get('host_agent'))
        beats = self.hostos.heartbeats_of(node_uuid)
        self.assertNotIn('token', beats[0])
        self.assertEqual('hi', self.ran(agent)[0]['values']['greeting'])
        detail = self.detail(agent)
        root = os.path.join(self.sim.state_dir, 'agent-1.root')
        self.assertEqual(root, detail['host_root'])
        self.assertEqual(root, self.ran(agent)[0]['host_os_root'])
        self.assertTrue(os.path.isfile(os.path.join(
            root, 'root/host-os-modules/sample-1.0.0/main.yaml')))
        wait_for(lambda: self.detail(agent)['host_agent']['runs'] == 2)
        host = self.detail(agent)['host_agent']
        self.assertTrue(host['running'])
        self.assertEqual(node_uuid, host['node_uuid'])
        self.assertEqual(1, host['downloads'])
        self.assertEqual(0, host['failures'])
        self.assertEqual(sorted(i['name'] for i in self.hostos.items),
                         host['held'])
        # Keeps heartbeating at the service's interval, runs nothing more.
        count = len(self.hostos.heartbeats_of(node_uuid))
        wait_for(lambda: len(self.hostos.heartbeats_of(node_uuid))
                 >= count + 3)
        self.assertEqual(1, len(self.ran(agent)))

    def test_power_off_stops_it_and_reboot_resumes(self):
        self.use_fake_ansible()
        agent, node_uuid = self.deploy()
        wait_for(lambda: self.ran(agent), 20)
        self.power(agent, 'Off')
        self.assertFalse(self.detail(agent)['host_agent']['running'])
        self.assertFalse(self.sim.host_agents.running(agent.id))
        count = len(self.hostos.heartbeats_of(node_uuid))
        time.sleep(0.5)  # five intervals
        # At most a pass that was under way.
        self.assertLessEqual(len(self.hostos.heartbeats_of(node_uuid)),
                             count + 2)
        # Boot from disk again: same node, same filesystem (token kept,
        # nothing runs again).
        count = len(self.hostos.heartbeats_of(node_uuid))
        self.power(agent, 'On', boot_device='Hdd')
        wait_for(lambda: len(self.hostos.heartbeats_of(node_uuid))
                 >= count + 2)
        beat = self.hostos.heartbeats_of(node_uuid)[-1]
        self.assertEqual('token-%s' % node_uuid, beat['token'])
        self.assertEqual(1, len(self.ran(agent)))
        # The ramdisk (a PXE boot) runs no host agent; erasing the disk
        # wipes the filesystem.
        resp = self.session.post('%s/power' % self.control, json={
            'system': agent.id, 'power_state': 'ForceRestart'})
        self.assertEqual(202, resp.status_code, resp.text)
        self.assertNotEqual(virtual.INSTANCE, agent.state)
        self.assertFalse(self.sim.host_agents.running(agent.id))
        agent.erase()
        self.assertFalse(os.path.exists(agent.host_root))
        self.assertIsNone(agent.instance_node_uuid)

    def test_option_off_starts_none(self):
        self.use_fake_ansible()
        agent, node_uuid = self.deploy(host_agent=False)
        time.sleep(0.5)
        self.assertEqual([], self.hostos.heartbeats_of(node_uuid))
        self.assertIsNone(self.detail(agent)['host_agent'])
        self.assertFalse(self.sim.host_agents.running(agent.id))

    def test_real_ansible_playbook(self):
        if host_agents.default_ansible_playbook() is None:
            self.skipTest('no ansible-playbook next to %s (pip install '
                          'ansible-core)' % sys.executable)
        # The simulator's own manager: the real binary.
        agent, node_uuid = self.deploy()
        greeting = os.path.join(agent.host_root, 'etc/greeting')
        wait_for(lambda: os.path.exists(greeting), 40,
                 message=lambda: self.hostos.heartbeats_of(node_uuid)[-1])
        with open(greeting) as f:
            self.assertEqual('hi', f.read())
