"""Heartbeats with agent_verify_ca (1.68) and agent_status (1.72), and
the agent client verifying the agent with the certificate it sent."""

import os
from unittest import mock

import fixtures

from ironic_like.common import agent_certificates
from ironic_like.drivers.modules import agent_client
from ironic_like.tests.unit.api import test_ramdisk

TOKEN = test_ramdisk.TOKEN
URL = 'https://1.2.3.4:9999/'
CERT = ('-----BEGIN CERTIFICATE-----\nMIIB-agent-1\n'
        '-----END CERTIFICATE-----\n')
OTHER = CERT.replace('agent-1', 'agent-2')


class TestHeartbeatVerifyCA(test_ramdisk.RamdiskTestCase):

    def setUp(self):
        super().setUp()
        self.set_token()
        self.certs = self.useFixture(fixtures.TempDir()).path
        self.config(certificates_path=self.certs, group='agent')

    def heartbeat(self, body, status=202, version='1.68'):
        body = dict({'callback_url': URL, 'agent_token': TOKEN}, **body)
        return self.post('/v1/heartbeat/%s' % self.node.uuid, body,
                         status=status, version=version)

    def info(self):
        return self.db_node().driver_internal_info

    def test_certificate_stored(self):
        self.heartbeat({'agent_verify_ca': CERT})
        path = os.path.join(self.certs, '%s.crt' % self.node.uuid)
        self.assertEqual(path, self.info()['agent_verify_ca'])
        with open(path) as f:
            self.assertEqual(CERT, f.read())
        # The same again is fine.
        self.heartbeat({'agent_verify_ca': CERT})

    def test_changed_certificate_refused(self):
        self.heartbeat({'agent_verify_ca': CERT})
        r = self.heartbeat({'agent_verify_ca': OTHER}, status=400)
        self.assertFault(r, 400, 'agent_verify_ca')
        self.assertEqual(CERT, self.info()['agent_verify_ca_text'])

    def test_refused_below_1_68(self):
        r = self.heartbeat({'agent_verify_ca': CERT}, status=400,
                           version='1.67')
        self.assertFault(r, 400, 'agent_verify_ca')
        self.assertNotIn('agent_url', self.info())
        self.assertEqual([], os.listdir(self.certs))

    def test_agent_client_verifies_with_it(self):
        self.heartbeat({'agent_verify_ca': CERT})
        node = self.db_node()
        session = mock.Mock()
        session.request.return_value = mock.Mock(
            status_code=200, json=lambda: {'commands': []})
        self.useFixture(fixtures.MockPatchObject(
            agent_client, '_session', return_value=session))
        agent_client.list_commands(node)
        self.assertEqual(node.driver_internal_info['agent_verify_ca'],
                         session.request.call_args.kwargs['verify'])

    def test_taken_over_conductor_writes_the_file_again(self):
        self.heartbeat({'agent_verify_ca': CERT})
        info = self.info()
        os.remove(info['agent_verify_ca'])
        path = agent_certificates.verify_for(self.node.uuid, info)
        with open(path) as f:
            self.assertEqual(CERT, f.read())

    def test_without_certificate_the_system_cas(self):
        self.assertIs(True, agent_certificates.verify_for(
            self.node.uuid, {}))


class TestHeartbeatStatus(test_ramdisk.RamdiskTestCase):

    def setUp(self):
        super().setUp()
        self.set_token()

    def heartbeat(self, body, status=202, version='1.72'):
        body = dict({'callback_url': test_ramdisk.URL, 'agent_token': TOKEN},
                    **body)
        return self.post('/v1/heartbeat/%s' % self.node.uuid, body,
                         status=status, version=version)

    def test_recorded_from_1_72(self):
        self.heartbeat({'agent_status': 'end',
                        'agent_status_message': 'written'})
        info = self.db_node().driver_internal_info
        self.assertEqual(('end', 'written'), (info['agent_status'],
                                              info['agent_status_message']))

    def test_refused_below_1_72(self):
        for field in ('agent_status', 'agent_status_message'):
            r = self.heartbeat({field: 'start'}, status=400, version='1.71')
            self.assertFault(r, 400, field)
        self.assertNotIn('agent_url', self.db_node().driver_internal_info)

    def test_unknown_status_400(self):
        r = self.heartbeat({'agent_status': 'halfway'}, status=400)
        self.assertFault(r, 400, 'agent_status', 'start,end,error')
        self.assertNotIn('agent_url', self.db_node().driver_internal_info)
