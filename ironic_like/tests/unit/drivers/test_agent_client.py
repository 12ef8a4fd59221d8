"""The agent command API client: where the agent token travels (a header,
and the query ironic-python-agent reads unless
[agent]command_token_in_query is off) and that error messages never
quote it."""

import socket
import types
from unittest import mock

from ironic_like.common import exception
from ironic_like.drivers.modules import agent_client
from ironic_like.tests import base
from ironic_like.tests.unit.conductor import fake_agent

TOKEN = 'tok-0123456789abcdef'


def _node(url):
    return types.SimpleNamespace(
        uuid='node-1', driver_internal_info={'agent_url': url,
                                             'agent_secret_token': TOKEN})


class TestAgentClient(base.TestCase):

    def setUp(self):
        super().setUp()
        self.agent = self.useFixture(fake_agent.FakeAgent())
        self.node = _node(self.agent.url)

    def test_token_in_header_only(self):
        self.config(command_token_in_query=False, group='agent')
        agent_client.start_command(self.node, 'standby.sync', {})
        agent_client.list_commands(self.node)
        self.assertEqual([TOKEN, TOKEN], self.agent.tokens)
        self.assertEqual([('standby.sync', {}, {'wait': 'false'})],
                         self.agent.received)

    def test_token_in_query_for_ipa_by_default(self):
        agent_client.start_command(self.node, 'standby.sync', {})
        self.assertEqual({'wait': 'false', 'agent_token': TOKEN},
                         self.agent.received[0][2])
        self.assertEqual([TOKEN], self.agent.tokens)

    def test_no_token_no_header(self):
        self.node.driver_internal_info.pop('agent_secret_token')
        agent_client.list_commands(self.node)
        self.assertEqual([None], self.agent.tokens)

    def test_connection_error_scrubbed(self):
        # With the token in the URL (IPA mode), requests' message quotes
        # the URL: the token must not reach the error (nor last_error).
        self.config(command_token_in_query=True, group='agent')
        sock = socket.socket()
        sock.bind(('127.0.0.1', 0))
        port = sock.getsockname()[1]
        sock.close()
        node = _node('http://127.0.0.1:%d' % port)
        e = self.assertRaises(exception.AgentConnectionFailed,
                              agent_client.list_commands, node)
        self.assertIn('/v1/commands/', str(e))
        self.assertNotIn(TOKEN, str(e))
        self.assertIn('agent_token=***', str(e))

    def test_agent_error_scrubbed(self):
        resp = mock.Mock(status_code=401)
        resp.json.return_value = {'message': 'Token %s invalid' % TOKEN}
        with mock.patch.object(agent_client._session(), 'request',
                               return_value=resp):
            e = self.assertRaises(exception.AgentCommandFailed,
                                  agent_client.run_command, self.node,
                                  'standby.sync')
        self.assertIn('HTTP 401: Token *** invalid', str(e))
        self.assertNotIn(TOKEN, str(e))
