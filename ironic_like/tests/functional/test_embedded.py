"""Embedded mode: ironic-like-all (API + conductor in one process, SQLite,
in-process messaging) as a newcomer starts it."""

import os
import signal

import requests

from ironic_like.tests.functional import base


class TestEmbeddedAll(base.FunctionalTestCase):
    SERVICES = ()  # SQLite and fake:// only

    def test_demo_nodes_power_and_sigterm(self):
        tmp = self.useFixture(base.fixtures.TempDir()).path
        port = base.free_port()
        url = 'http://127.0.0.1:%d' % port
        config = base.write_config(os.path.join(tmp, 'all.conf'), {
            'DEFAULT': {'host': 'ft-all-%s' % base.random_suffix()},
            'api': {'port': port},
            'database': {'connection': 'sqlite:///%s'
                         % os.path.join(tmp, 'ironic_like.sqlite')},
        })
        proc = base.ServiceProcess(
            'ironic-like-all',
            base.console_script('ironic-like-all') +
            ['--config-file', config, '--demo-nodes', '5'], tmp)
        self.watch(proc)
        self.useFixture(proc)
        headers = {'X-OpenStack-Ironic-API-Version': '1.51'}

        def answers():
            proc.check_running()
            return requests.get(url + '/', timeout=5).ok
        self.assertEventually(answers, base.START_TIMEOUT,
                              message='ironic-like-all did not answer')

        resp = requests.get(url + '/v1/nodes', headers=headers, timeout=10)
        self.assertEqual(200, resp.status_code, resp.text)
        nodes = resp.json()['nodes']
        self.assertEqual(5, len(nodes), nodes)

        uuid = nodes[0]['uuid']
        resp = requests.put(url + '/v1/nodes/%s/states/power' % uuid,
                            json={'target': 'power on'}, headers=headers,
                            timeout=10)
        self.assertEqual(202, resp.status_code, resp.text)

        def powered_on():
            node = requests.get(url + '/v1/nodes/%s' % uuid,
                                headers=headers, timeout=10).json()
            return (node['power_state'] == 'power on' and
                    node['target_power_state'] is None)
        self.assertEventually(powered_on, 15,
                              message='node %s not powered on' % uuid)

        proc.send(signal.SIGTERM)
        code = proc.wait(base.STOP_TIMEOUT)
        self.assertEqual(0, code, 'ironic-like-all did not exit cleanly '
                         'within %s s of SIGTERM' % base.STOP_TIMEOUT)
