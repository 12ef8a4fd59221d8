"""Lookup and heartbeat, with the test posing as the deploy ramdisk's
agent.

A fake-hardware node with the ``agent`` deploy interface is cleaned: its
boot interface is fake, so no ramdisk boots, and the node waits in
``clean wait`` for an agent that the test plays. Lookup is a public
route (agents have no keystone token): it finds the node by MAC and hands
out the agent token once; heartbeats must carry that token.
"""

from tempest.lib.common.utils import data_utils
from tempest.lib import decorators
from tempest.lib import exceptions as lib_exc

from ironic_like.tests.tempest.api import base

CONF = base.CONF
# Where the "agent" says it listens. Nothing does: the conductor's calls
# there fail and cleaning ends in "clean failed" after the heartbeat,
# which is all these tests need.
CALLBACK_URL = 'http://127.0.0.1:9/'


class TestLookupHeartbeat(base.BaseBaremetalLikeTest):

    min_microversion = '1.62'

    def waiting_node(self):
        """A node in ``clean wait`` with one port; (node, MAC)."""
        node = self.create_node(deploy_interface='agent',
                                boot_interface='fake')
        mac = data_utils.rand_mac_address()
        self.create_port(node['uuid'], address=mac)
        self.client.set_node_provision_state(node['uuid'], 'manage')
        self.wait_for_provision_state(node['uuid'], 'manageable')
        # Automated cleaning boots the (fake) ramdisk and waits for the
        # agent.
        self.client.set_node_provision_state(node['uuid'], 'provide')
        self.wait_for_provision_state(node['uuid'], 'clean wait')
        return node, mac

    @decorators.idempotent_id('47215334-ec5c-412b-ad53-7f6b839b29c7')
    def test_lookup_and_heartbeat(self):
        node, mac = self.waiting_node()
        # As an agent: no keystone token, and a lookup retried while a
        # conductor still holds the node (409), as ironic-python-agent does.

        def lookup():
            try:
                return self.client.lookup(addresses=[mac, 'not-a-mac'],
                                          authenticated=False)
            except lib_exc.Conflict:
                return None
        found = self.wait_for(lookup, 'lookup of node %s' % node['uuid'])
        self.assertEqual(node['uuid'], found['node']['uuid'])
        self.assertEqual(CONF.baremetal_like.agent_heartbeat_timeout,
                         found['config']['heartbeat_timeout'])
        token = found['config']['agent_token']
        self.assertTrue(token and token.strip('*'), found['config'])
        self.assertTrue(found['config']['agent_token_required'])
        # Once only: the next lookup masks it.
        again = self.client.lookup(addresses=[mac], node_uuid=node['uuid'],
                                   authenticated=False)
        self.assertEqual('******', again['config']['agent_token'])
        # The wrong token (or none) is refused and nothing is recorded.
        self.assertRaises(lib_exc.Unauthorized, self.client.heartbeat,
                          node['uuid'], CALLBACK_URL, agent_token='x' * 32,
                          authenticated=False)
        self.assertRaises(lib_exc.Unauthorized, self.client.heartbeat,
                          node['uuid'], CALLBACK_URL, authenticated=False)
        self.assertNotIn('agent_url', self.client.show_node(
            node['uuid'])['driver_internal_info'])
        self.client.heartbeat(node['uuid'], CALLBACK_URL, agent_token=token,
                              agent_version='9.0.0', authenticated=False)

        def acted_on():
            node_now = self.client.show_node(node['uuid'])
            info = node_now['driver_internal_info']
            if info.get('agent_url') == CALLBACK_URL:
                return node_now
            if node_now['provision_state'] == 'clean failed':
                # Recorded, then the conductor failed to reach our fake
                # agent and wiped the token: the heartbeat was taken.
                return node_now
            # A heartbeat that found the node locked is acknowledged
            # (202) without being recorded: like an agent, send another.
            try:
                self.client.heartbeat(node['uuid'], CALLBACK_URL,
                                      agent_token=token,
                                      agent_version='9.0.0',
                                      authenticated=False)
            except lib_exc.Unauthorized:
                pass  # the token is gone: see the next poll
            return None
        node_now = self.wait_for(acted_on, 'heartbeat of node %s taken'
                                 % node['uuid'])
        if node_now['provision_state'] == 'clean failed':
            self.assertTrue(node_now['last_error'])
        else:
            self.assertEqual('9.0.0', node_now['driver_internal_info'].get(
                'agent_version'))

    @decorators.attr(type='negative')
    @decorators.idempotent_id('0c655052-eb3b-44ef-be48-81dfbc971386')
    def test_lookup_errors(self):
        node = self.create_node()
        mac = data_utils.rand_mac_address()
        self.create_port(node['uuid'], address=mac)
        # The node expects no agent (enroll).
        self.assertRaises(lib_exc.NotFound, self.client.lookup,
                          addresses=[mac], authenticated=False)
        # Nobody has that MAC.
        self.assertRaises(lib_exc.NotFound, self.client.lookup,
                          addresses=[data_utils.rand_mac_address()],
                          authenticated=False)
        # Neither a valid MAC nor a node.
        self.assertRaises(lib_exc.BadRequest, self.client.lookup,
                          addresses=['not-a-mac'], authenticated=False)
        self.assertRaises(lib_exc.BadRequest, self.client.lookup,
                          node_uuid='not-a-uuid', authenticated=False)

    @decorators.attr(type='negative')
    @decorators.idempotent_id('9b1e738f-8d67-49c8-925e-4bb1b74497d5')
    def test_heartbeat_errors(self):
        node = self.create_node()
        self.assertRaises(lib_exc.NotFound, self.client.heartbeat,
                          data_utils.rand_uuid(), CALLBACK_URL,
                          agent_token='x' * 32, authenticated=False)
        self.assertRaises(lib_exc.BadRequest, self.client.heartbeat,
                          node['uuid'], 'not-a-url', agent_token='x' * 32,
                          authenticated=False)
        # Nobody was handed a token for this node.
        self.assertRaises(lib_exc.Unauthorized, self.client.heartbeat,
                          node['uuid'], CALLBACK_URL, agent_token='x' * 32,
                          authenticated=False)

    @decorators.attr(type='negative')
    @decorators.idempotent_id('212a39c5-ba45-4394-b801-760bf4f0e6cb')
    def test_hidden_before_1_22(self):
        with self.client.microversion('1.21'):
            self.assertRaises(lib_exc.NotFound, self.client.lookup,
                              addresses=[data_utils.rand_mac_address()])
            self.assertRaises(lib_exc.NotFound, self.client.heartbeat,
                              data_utils.rand_uuid(), CALLBACK_URL)
        # agent_token is a field of 1.62.
        with self.client.microversion('1.61'):
            self.assertRaises(lib_exc.BadRequest, self.client.heartbeat,
                              data_utils.rand_uuid(), CALLBACK_URL,
                              agent_token='x' * 32)


class TestContinueInspection(base.BaseBaremetalLikeTest):
    """API 1.84: an inspecting agent posts its inventory (the test plays
    the agent; the node's boot interface is fake, so no ramdisk boots)."""

    min_microversion = '1.84'

    @decorators.idempotent_id('6f2b9d41-3c7e-4a58-9e1d-8b5c2f7a0d63')
    def test_inspection_by_posted_inventory(self):
        node = self.create_node(deploy_interface='agent',
                                boot_interface='fake',
                                inspect_interface='agent')
        mac = data_utils.rand_mac_address()
        self.create_port(node['uuid'], address=mac)
        self.client.set_node_provision_state(node['uuid'], 'manage')
        self.wait_for_provision_state(node['uuid'], 'manageable')
        inventory = {
            'cpu': {'count': 2, 'architecture': 'x86_64'},
            'memory': {'physical_mb': 4096},
            'disks': [{'name': '/dev/sda', 'size': 20 * 1024 ** 3}],
            'interfaces': [{'name': 'eth0', 'mac_address': mac}],
            'boot': {'current_boot_mode': 'uefi', 'pxe_interface': mac}}
        # Nobody waits for it yet.
        self.assertRaises(lib_exc.NotFound, self.client.continue_inspection,
                          {'inventory': inventory}, authenticated=False)
        self.client.set_node_provision_state(node['uuid'], 'inspect')
        self.wait_for_provision_state(node['uuid'], 'inspect wait')
        with self.client.microversion('1.83'):
            self.assertRaises(lib_exc.NotFound,
                              self.client.continue_inspection,
                              {'inventory': inventory}, authenticated=False)
        self.assertRaises(lib_exc.BadRequest,
                          self.client.continue_inspection,
                          {'inventory': {'interfaces': []}},
                          authenticated=False)

        answer = self.post_inventory(inventory, **{'from': 'tempest'})
        self.assertEqual(node['uuid'], answer['node']['uuid'])
        self.assertTrue(answer['config']['agent_token'])
        self.wait_for_provision_state(node['uuid'], 'manageable')
        shown = self.client.show_node(node['uuid'])
        self.assertEqual(2, shown['properties']['cpus'])
        self.assertEqual(4096, shown['properties']['memory_mb'])
        kept = self.client.show_node_inventory(node['uuid'])
        self.assertEqual(inventory, kept['inventory'])
        self.assertEqual('tempest', kept['plugin_data']['from'])

    @decorators.idempotent_id('6b0f3d2e-9a41-4c57-8e1d-2f7a5c9b3e64')
    def test_auto_discovery(self):
        # The plugin's service enables [auto_discovery] (fake-hardware):
        # an unknown machine's inventory enrolls it.
        mac = data_utils.rand_mac_address()
        inventory = {
            'cpu': {'count': 8, 'architecture': 'x86_64'},
            'memory': {'physical_mb': 16384},
            'disks': [{'name': '/dev/sda', 'size': 40 * 1024 ** 3}],
            'interfaces': [{'name': 'eth0', 'mac_address': mac}],
            'boot': {'current_boot_mode': 'uefi', 'pxe_interface': mac}}
        answer = self.client.continue_inspection(
            {'inventory': inventory, 'from': 'tempest'},
            authenticated=False)
        uuid = answer['node']['uuid']
        self.addCleanup(self.cleanup_node, uuid)
        self.assertTrue(answer['config']['agent_token'])

        def recorded():
            # Properties first, then ports and inventory: wait for the
            # conductor to let go of the node.
            node = self.client.show_node(uuid)
            return (node['properties'].get('cpus') == 8
                    and node['reservation'] is None and node)
        node = self.wait_for(recorded, 'discovered node %s recorded' % uuid)
        self.assertEqual(('enroll', 'fake-hardware', None),
                         (node['provision_state'], node['driver'],
                          node['last_error']))
        self.assertEqual([mac], [p['address'] for p in
                                 self.client.list_node_ports(uuid)['ports']])
        kept = self.client.show_node_inventory(uuid)
        self.assertIs(True, kept['plugin_data']['auto_discovered'])
        # Known now: the same data again is refused, nothing enrolled.
        self.assertRaises(lib_exc.NotFound, self.client.continue_inspection,
                          {'inventory': inventory}, authenticated=False)
