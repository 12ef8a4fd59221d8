"""The agent token is handed out once, by the agent's first lookup, and
shows up nowhere else: not in the network boot files, not in any log line
(DEBUG included), not in any other API answer, not in last_error, not in
the URLs of the agent command API, even when talking to the agent fails.

One deploy through the API and a real in-process conductor, with a token
of a known (sentinel) value: the ipxe boot interface writes the boot
files, the agent looks its node up and heartbeats with a callback URL
nobody listens on, so the first agent command fails and the deploy ends
in "deploy failed"."""

import logging
import os
import socket

import fixtures

from ironic_like.common import agent_token
from ironic_like.common import states
from ironic_like.tests.unit.api import base
from ironic_like.tests.unit.conductor import fake_agent

SENTINEL = 'SENTINEL-agent-token-0f9e8d7c6b5a'
MAC = '52:54:00:12:34:56'


def _closed_port():
    """A loopback port nobody listens on (bound, then released)."""
    sock = socket.socket()
    sock.bind(('127.0.0.1', 0))
    port = sock.getsockname()[1]
    sock.close()
    return port


class TestTokenSecrecy(base.APITestCase):

    with_conductor = True

    def setUp(self):
        super().setUp()
        self.logs = self.useFixture(fixtures.FakeLogger(level=logging.DEBUG))
        # Agents that read the X-Agent-Token header (as the simulator
        # does): the token must then appear in no URL nor log line at all.
        self.config(command_token_in_query=False, group='agent')
        self.http_root = self.useFixture(fixtures.TempDir()).path
        self.config(http_root=self.http_root,
                    http_url='http://boot.test:8088/', group='deploy')
        self.config(deploy_kernel='http://img.test/k',
                    deploy_ramdisk='http://img.test/r', group='conductor')
        self.useFixture(fixtures.MockPatchObject(
            agent_token, 'generate', return_value=SENTINEL))
        self.node = self.create_node(
            provision_state=states.AVAILABLE, deploy_interface='agent',
            boot_interface='ipxe',
            instance_info={'image_source': 'http://127.0.0.1:9/disk.img',
                           'image_checksum': 'a' * 64, 'root_gb': 10})
        self.create_port(self.node, address=MAC)
        # Every answer of the API but the one lookup that hands the
        # token out.
        self.outputs = []

    def record(self, response):
        self.outputs.append('%s %s\n%s' % (response.status, sorted(
            response.headers.items()), response.text))
        return response

    def boot_files(self):
        texts = []
        for directory, _, names in os.walk(self.http_root):
            for name in names:
                with open(os.path.join(directory, name)) as f:
                    texts.append(f.read())
        return texts

    def assertNowhere(self):
        node = self.db.get_node_by_uuid(self.node.uuid)
        self.assertNotIn(SENTINEL, node.last_error or '')
        self.assertNotIn(SENTINEL, '\n'.join(self.boot_files()))
        for output in self.outputs:
            self.assertNotIn(SENTINEL, output)
        self.assertNotIn(SENTINEL, self.logs.output)

    def deploy_until_agent_expected(self):
        self.record(self.put('/v1/nodes/%s/states/provision'
                             % self.node.uuid, {'target': 'active'}))
        self.wait_for(self.node.uuid, lambda n: n.provision_state ==
                      states.DEPLOYWAIT)
        files = self.boot_files()
        self.assertEqual(2, len(files))   # nodes/<uuid>, macs/<mac>
        self.assertNotIn('ipa-agent-token', files[0])

    def lookup(self):
        # The one answer allowed to carry the token: handed out once.
        doc = self.get('/v1/lookup?addresses=%s' % MAC).json
        self.assertEqual(SENTINEL, doc['config']['agent_token'])
        again = self.record(self.get('/v1/lookup?addresses=%s' % MAC))
        self.assertEqual('******', again.json['config']['agent_token'])
        return doc['config']['agent_token']

    def test_lookup_heartbeat_and_agent_error(self):
        self.deploy_until_agent_expected()
        token = self.lookup()
        # Refused heartbeats: a wrong token, a bad callback URL.
        self.record(self.post('/v1/heartbeat/%s' % self.node.uuid,
                              {'callback_url': 'http://127.0.0.1:1',
                               'agent_token': 'wrong'}, status=401))
        self.record(self.post('/v1/heartbeat/%s' % self.node.uuid,
                              {'callback_url': 'http://u:%s@127.0.0.1:1'
                                               % token,
                               'agent_token': token}, status=400))
        # The agent's command API cannot be reached: the first command
        # (reading the agent's commands, then writing the image) fails.
        self.record(self.post('/v1/heartbeat/%s' % self.node.uuid,
                              {'callback_url': 'http://127.0.0.1:%d'
                                               % _closed_port(),
                               'agent_token': token}, status=202))
        node = self.wait_for(self.node.uuid, lambda n: n.provision_state ==
                             states.DEPLOYFAIL)
        self.assertIn('Connection to the agent failed', node.last_error)
        for url in ('/v1/nodes/%s' % self.node.uuid, '/v1/nodes/detail',
                    '/v1/nodes/%s?fields=driver_internal_info,last_error'
                    % self.node.uuid):
            self.record(self.get(url))
        self.assertIn('Connection to the agent failed',
                      '\n'.join(self.outputs))
        self.assertNowhere()

    def test_agent_command_urls(self):
        agent = self.useFixture(fake_agent.FakeAgent())
        agent.hold.add('standby.prepare_image')
        self.deploy_until_agent_expected()
        token = self.lookup()
        self.record(self.post('/v1/heartbeat/%s' % self.node.uuid,
                              {'callback_url': agent.url,
                               'agent_token': token}, status=202))
        self.wait_for(self.node.uuid, lambda n: (
            n.driver_internal_info or {}).get('agent_command'))
        self.assertEqual(['standby.prepare_image'], agent.names())
        # The token went in the header; the URLs carried none.
        self.assertEqual({SENTINEL}, set(agent.tokens))
        self.assertEqual([{'wait': 'false'}],
                         [query for _, _, query in agent.received])
        self.assertNowhere()
