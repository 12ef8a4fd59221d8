"""The simulated agent fleet against the real service: ironic-like-all
(SQLite, in-process messaging) and ironic-like-agent-sim as processes.

The agent deploy flows do not exist yet, so the node is put into
`wait call-back` directly in the database, where a real deploy leaves it
while it waits for the agent; the test then proves that lookup, the agent
token and heartbeats work end to end between the two processes."""

import json
import os
import sqlite3

import requests

from ironic_like.tests.functional import base

HEADERS = {'X-OpenStack-Ironic-API-Version': 'latest'}
MAC = '52:54:00:aa:00:01'


class TestAgentSimulatorAgainstService(base.FunctionalTestCase):
    SERVICES = ()  # SQLite and fake:// only

    def _wait_answers(self, proc, url):
        def answers():
            proc.check_running()
            try:
                return requests.get(url, timeout=5).ok
            except requests.ConnectionError:
                return False
        self.assertEventually(answers, base.START_TIMEOUT,
                              message='%s did not answer' % proc.name)

    def _start_service(self, tmp):
        port = base.free_port()
        self.db_path = os.path.join(tmp, 'ironic_like.sqlite')
        config = base.write_config(os.path.join(tmp, 'all.conf'), {
            'DEFAULT': {'host': 'ft-agent-%s' % base.random_suffix()},
            'api': {'port': port},
            # The simulated agents serve plain http.
            'agent': {'heartbeat_timeout': 4, 'require_tls': 'false'},
            'database': {'connection': 'sqlite:///%s' % self.db_path},
        })
        proc = base.ServiceProcess(
            'ironic-like-all', base.console_script('ironic-like-all') +
            ['--config-file', config], tmp)
        self.watch(proc)
        self.useFixture(proc)
        url = 'http://127.0.0.1:%d' % port
        self._wait_answers(proc, url + '/')
        return url

    def _start_simulator(self, tmp, api_url, node_uuid):
        port = base.free_port()
        fleet = os.path.join(tmp, 'fleet.json')
        with open(fleet, 'w') as f:
            json.dump({'api_url': api_url,
                       'agents': [{'id': 'agent-1', 'macs': [MAC]}]}, f)
        proc = base.ServiceProcess(
            'ironic-like-agent-sim',
            base.console_script('ironic-like-agent-sim') +
            ['--api-url', api_url, '--host', '127.0.0.1', '--port',
             str(port), '--state-dir', os.path.join(tmp, 'disks'),
             '--fleet', fleet], tmp)
        self.watch(proc)
        self.useFixture(proc)
        url = 'http://127.0.0.1:%d' % port
        self._wait_answers(proc, url + '/control/health')
        return url

    def _set_state(self, node_uuid, state):
        # What a deploy does before it waits for the agent.
        with sqlite3.connect(self.db_path, timeout=30) as conn:
            conn.execute("UPDATE nodes SET provision_state = ?, "
                         "target_provision_state = 'active', "
                         "power_state = 'power on' WHERE uuid = ?",
                         (state, node_uuid))

    def test_lookup_token_and_heartbeats(self):
        tmp = self.useFixture(base.fixtures.TempDir()).path
        api = self._start_service(tmp)
        node = requests.post(api + '/v1/nodes', headers=HEADERS, timeout=10,
                             json={'driver': 'fake-hardware',
                                   'name': 'agent-node'}).json()
        resp = requests.post(api + '/v1/ports', headers=HEADERS, timeout=10,
                             json={'node_uuid': node['uuid'],
                                   'address': MAC})
        self.assertEqual(201, resp.status_code, resp.text)
        sim = self._start_simulator(tmp, api, node['uuid'])

        # Booted while the node expects no agent: lookup is refused (404)
        # and retried by the agent.
        resp = requests.post(sim + '/control/agents/agent-1/boot',
                             json={}, timeout=10)
        self.assertLess(resp.status_code, 300, resp.text)
        self._set_state(node['uuid'], 'wait call-back')

        def heartbeating():
            info = requests.get(api + '/v1/nodes/%s' % node['uuid'],
                                headers=HEADERS, timeout=10).json()[
                'driver_internal_info']
            return info if info.get('agent_last_heartbeat') else None
        info = self.assertEventually(heartbeating, 60,
                                     message='no heartbeat recorded')
        self.assertTrue(info['agent_url'].startswith(sim))
        # The token is held by the agent and never shown by the API.
        self.assertNotIn(info.get('agent_secret_token'), (None, ''))
        self.assertEqual('******', info['agent_secret_token'])

        # A heartbeat without the token is refused and changes nothing.
        resp = requests.post(api + '/v1/heartbeat/%s' % node['uuid'],
                             headers=HEADERS, timeout=10,
                             json={'callback_url': 'http://10.9.9.9:1/'})
        self.assertEqual(401, resp.status_code, resp.text)
        info = requests.get(api + '/v1/nodes/%s' % node['uuid'],
                            headers=HEADERS, timeout=10).json()[
            'driver_internal_info']
        self.assertTrue(info['agent_url'].startswith(sim))

        # The agent keeps heartbeating with its token.
        first = info['agent_last_heartbeat']

        def later_heartbeat():
            info = requests.get(api + '/v1/nodes/%s' % node['uuid'],
                                headers=HEADERS, timeout=10).json()[
                'driver_internal_info']
            return info['agent_last_heartbeat'] != first
        self.assertEventually(later_heartbeat, 30,
                              message='only one heartbeat recorded')
