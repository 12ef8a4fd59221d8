"""The simulator following a simulated BMC: sushy-tools' notifications and
the boot configuration a network-booting agent reads."""

import os

from ironic_like_lab import agent_sim
from ironic_like_lab import simulator
from ironic_like_lab import virtual

from ironic_like.tests.unit.lab import test_simulator
from ironic_like.tests.unit.lab.test_simulator import mac
from ironic_like.tests.utils import wait_for


def system(uuid, power_state, boot_device=None, macs=(), pending=None):
    """A system record as sushy-tools' FakeDriver sends it."""
    doc = {'uuid': uuid, 'name': 'sys-%s' % uuid,
           'power_state': power_state, 'external_notifier': True,
           'pending_power': pending,
           'nics': [{'mac': m, 'ip': '192.0.2.10'} for m in macs]}
    if boot_device is not None:
        doc['boot_device'] = boot_device
    return doc


class TestNotifications(test_simulator.SimulatorTestBase):

    def notify(self, doc, expect=202):
        # The FakeDriver uses PUT.
        resp = self.session.put('%s/power' % self.control, json=doc)
        self.assertEqual(expect, resp.status_code, resp.text)
        return resp

    def test_on_pxe_then_off(self):
        agent, node_uuid = self.make_agent(boot=False)
        # A pending power-on changes nothing yet.
        self.notify(system('agent-1', 'Off', 'Pxe',
                           pending={'power_state': 'On', 'apply_time': 1}))
        self.assertEqual(virtual.OFF, agent.state)
        self.notify(system('agent-1', 'On', 'Pxe'))
        self.assertTrue(wait_for(lambda: self.api.heartbeats_of(node_uuid)))
        self.assertEqual(virtual.HEARTBEATING, agent.state)
        # Another change while on (e.g. the boot device) does not reboot.
        self.notify(system('agent-1', 'On', 'Hdd'))
        self.assertEqual(1, agent.counters['boots'])
        self.notify(system('agent-1', 'Off', 'Hdd'))
        self.assertEqual(virtual.OFF, agent.state)

    def test_on_without_boot_device_boots_ramdisk(self):
        agent, node_uuid = self.make_agent(boot=False)
        self.notify(system('agent-1', 'On'))
        self.assertTrue(wait_for(lambda: self.api.heartbeats_of(node_uuid)))

    def test_found_by_mac(self):
        agent, node_uuid = self.make_agent(boot=False)
        self.notify(system('some-bmc-uuid', 'On', 'Pxe',
                           macs=[mac(9), mac(1).upper()]))
        self.assertTrue(wait_for(lambda: self.api.heartbeats_of(node_uuid)))
        self.notify(system('some-bmc-uuid', 'On', macs=[mac(9)]),
                    expect=404)

    def test_found_by_node_uuid(self):
        agent, node_uuid = self.make_agent(boot=False)
        agent.node_uuid_hint = node_uuid
        self.notify(system(node_uuid, 'On', 'Pxe'))
        self.assertTrue(wait_for(lambda: self.api.heartbeats_of(node_uuid)))

    def test_hdd_boots_instance(self):
        agent, node_uuid = self.make_agent(boot=False)
        self.notify(system('agent-1', 'On', 'Hdd'))
        self.assertEqual(virtual.INSTANCE, agent.state)
        health = self.session.get('%s/health' % self.control).json()
        self.assertEqual({virtual.INSTANCE: 1}, health['states'])
        # No agent: no lookup, no API.
        self.assertEqual([], self.api.lookups)
        resp = self.session.get('%s/v1/commands/' % agent.url)
        self.assertEqual(503, resp.status_code)
        self.notify(system('agent-1', 'Off', 'Hdd'))
        self.assertEqual(virtual.OFF, agent.state)

    def test_unknown_power_state(self):
        self.make_agent(boot=False)
        self.notify(system('agent-1', 'Sideways'), expect=400)


class TestBootConfig(test_simulator.SimulatorTestBase):

    def setUp(self):
        super().setUp()
        self.sim.boot_config_url = self.images.url + '/macs/{mac}.ipxe'
        os.mkdir(os.path.join(self.images.directory, 'macs'))

    def write_script(self, mac_address, token, node_uuid):
        self.images.add(
            'macs/%s.ipxe' % mac_address,
            ('#!ipxe\nkernel http://img/k ipa-api-url=%s/ '
             'ipa-agent-token=%s ipa-node-uuid=%s BOOTIF=${mac} nofb '
             'initrd=ramdisk\ninitrd --name ramdisk http://img/r\nboot\n'
             % (self.api.url, token, node_uuid)).encode())

    def test_token_from_boot_config(self):
        node_uuid = self.api.add_node([mac(1)])
        # The API has a pregenerated token: lookup only shows the mask.
        self.api.tokens[node_uuid] = 'oob-token'
        self.api.mask_tokens = True
        self.write_script(mac(1), 'oob-token', node_uuid)
        # Only the boot configuration knows the right API URL.
        agent = self.sim.add_agent({'id': 'a1', 'macs': [mac(1).upper()],
                                    'api_url': 'http://127.0.0.1:9'})
        resp = self.session.post('%s/agents/a1/boot' % self.control)
        self.assertEqual(202, resp.status_code)
        self.assertTrue(wait_for(lambda: self.api.heartbeats_of(node_uuid)))
        beat = self.api.heartbeats_of(node_uuid)[0]['body']
        self.assertEqual('oob-token', beat['agent_token'])
        self.assertEqual(node_uuid, self.api.lookups[0]['node_uuid'])
        self.assertEqual(self.api.url, agent.api_url)
        self.assertNotIn('oob-token', '\n'.join(agent.events))

    def test_script_without_token_then_lookup(self):
        # What the ipxe boot interface writes: the API URL and the node
        # UUID, no token (the file is world-readable). The agent takes
        # both from the script and its token from lookup.
        node_uuid = self.api.add_node([mac(1)])
        self.images.add(
            'macs/%s.ipxe' % mac(1),
            ('#!ipxe\nkernel http://img/k ipa-api-url=%s/ '
             'ipa-node-uuid=%s BOOTIF=${mac} nofb initrd=ramdisk\n'
             'initrd --name ramdisk http://img/r\nboot\n'
             % (self.api.url, node_uuid)).encode())
        agent = self.sim.add_agent({'id': 'a1', 'macs': [mac(1)],
                                    'api_url': 'http://127.0.0.1:9'})
        resp = self.session.post('%s/agents/a1/boot' % self.control)
        self.assertEqual(202, resp.status_code)
        self.assertTrue(wait_for(lambda: self.api.heartbeats_of(node_uuid)))
        self.assertEqual(self.api.url, agent.api_url)
        self.assertEqual(node_uuid, self.api.lookups[0]['node_uuid'])
        beat = self.api.heartbeats_of(node_uuid)[0]['body']
        self.assertTrue(self.api.tokens[node_uuid])
        self.assertEqual(self.api.tokens[node_uuid], beat['agent_token'])
        self.assertTrue(any('answered 200 (token: no)' in e
                            for e in agent.events), list(agent.events))

    def test_not_found_falls_back_to_lookup(self):
        agent, node_uuid = self.make_agent()
        beat = self.api.heartbeats_of(node_uuid)[0]['body']
        self.assertEqual(self.api.tokens[node_uuid], beat['agent_token'])
        self.assertTrue(any('answered 404' in e for e in agent.events))

    def test_unreachable_falls_back_to_lookup(self):
        self.sim.boot_config_url = 'http://127.0.0.1:9/{mac}.ipxe'
        agent, node_uuid = self.make_agent()
        self.assertTrue(any('ConnectionError' in e for e in agent.events))

    def test_token_in_boot_request_skips_fetch(self):
        agent, node_uuid = self.make_agent(boot=False)
        self.write_script(mac(1), 'from-script', node_uuid)
        self.api.mask_tokens = True
        agent.boot(agent_token='given')
        self.assertTrue(wait_for(lambda: self.api.heartbeats_of(node_uuid)))
        beat = self.api.heartbeats_of(node_uuid)[0]['body']
        self.assertEqual('given', beat['agent_token'])
        self.assertFalse(any('boot configuration' in e
                             for e in agent.events))


class TestParsing(test_simulator.testtools.TestCase):

    def test_parse_boot_config(self):
        script = ('#!ipxe\n'
                  'kernel http://k ipa-api-url=http://api:6385 '
                  'ipa-agent-token=t0k ipa-node-uuid=n1 BOOTIF=${mac} x=1\n'
                  'initrd --name ramdisk http://r\nboot\n')
        self.assertEqual({'api_url': 'http://api:6385', 'agent_token': 't0k',
                          'node_uuid': 'n1'},
                         virtual.parse_boot_config(script))
        self.assertEqual({}, virtual.parse_boot_config('#!ipxe\nboot\n'))
        self.assertEqual({}, virtual.parse_boot_config('<html>'))

    def test_cli_and_template_check(self):
        args = agent_sim.parse_args(
            ['--boot-config-url', 'http://h:8088/macs/{mac}.ipxe'])
        self.assertEqual('http://h:8088/macs/{mac}.ipxe',
                         args.boot_config_url)
        self.assertIsNone(agent_sim.parse_args([]).boot_config_url)
        self.assertRaises(KeyError, simulator.Simulator,
                          boot_config_url='http://h/{node}.ipxe')
