"""Heartbeats the API records alone (api/idle_heartbeats.py): an
unlocked node in maintenance or in no wait state has nothing for a
conductor to do, so no RPC is made; any other heartbeat still goes to the
conductor."""

from unittest import mock

from ironic_like.common import agent_certificates
from ironic_like.common import agent_info
from ironic_like.common import states
from ironic_like.conductor import rpcapi
from ironic_like.drivers.modules import fake
from ironic_like.tests.unit.api import test_ramdisk

TOKEN = test_ramdisk.TOKEN
URL = test_ramdisk.URL
CERT = '-----BEGIN CERTIFICATE-----\nabc\n-----END CERTIFICATE-----'


class TestIdleHeartbeat(test_ramdisk.RamdiskTestCase):

    def setUp(self):
        super().setUp()
        self.set_token()
        real = rpcapi.ConductorAPI.heartbeat
        patcher = mock.patch.object(rpcapi.ConductorAPI, 'heartbeat',
                                    autospec=True, side_effect=real)
        self.sent = patcher.start()
        self.addCleanup(patcher.stop)

    def heartbeat(self, status=202, **extra):
        body = dict({'callback_url': URL, 'agent_token': TOKEN}, **extra)
        return self.post('/v1/heartbeat/%s' % self.node.uuid, body,
                         status=status)

    def info(self):
        return test_ramdisk._info(self.db_node())

    def test_maintenance_recorded_without_conductor(self):
        self.db.update_node(self.node.id, {'maintenance': True})
        self.heartbeat(agent_version='9.2.0', agent_status='start',
                       agent_status_message='booted')
        self.sent.assert_not_called()
        info = self.info()
        self.assertEqual(URL, info[agent_info.AGENT_URL])
        self.assertEqual('9.2.0', info[agent_info.AGENT_VERSION])
        self.assertEqual('start', info[agent_info.AGENT_STATUS])
        self.assertIn(agent_info.LAST_HEARTBEAT, info)
        self.assertEqual(TOKEN, info['agent_secret_token'])
        self.assertIsNone(self.db_node().reservation)

    def test_no_wait_state_recorded_without_conductor(self):
        self.db.update_node(self.node.id, {
            'provision_state': states.DEPLOYING,
            'driver_internal_info': dict(
                self.info(), **{agent_info.TIMEOUT_REBOOTS: 1})})
        self.heartbeat()
        self.sent.assert_not_called()
        self.assertEqual(URL, self.info()[agent_info.AGENT_URL])
        self.assertNotIn(agent_info.TIMEOUT_REBOOTS, self.info())

    def test_wait_state_goes_to_the_conductor(self):
        self.heartbeat()
        self.assertEqual(1, self.sent.call_count)
        self.assertEqual(URL, self.info()[agent_info.AGENT_URL])

    def test_wrong_token_refused_by_the_api(self):
        self.db.update_node(self.node.id, {'maintenance': True})
        r = self.heartbeat(status=401, agent_token='nope')
        self.assertFault(r, 401, 'agent token')
        self.sent.assert_not_called()
        self.assertNotIn(agent_info.AGENT_URL, self.info())

    def test_locked_node_goes_to_the_conductor(self):
        self.db.update_node(self.node.id, {'maintenance': True,
                                           'reservation': 'busy-host'})
        self.heartbeat()
        self.assertEqual(1, self.sent.call_count)
        # Acknowledged only, as before: the lock holder replays it.
        self.assertNotIn(agent_info.AGENT_URL, self.info())

    def test_changed_since_the_read_goes_to_the_conductor(self):
        self.db.update_node(self.node.id, {'maintenance': True})
        real = self.db.record_unlocked_heartbeat

        def conductor_writes_first(seen, info):
            self.db.update_node(self.node.id, {'driver_internal_info': dict(
                self.info(), written_meanwhile=True)})
            return real(seen, info)

        with mock.patch.object(type(self.db), 'record_unlocked_heartbeat',
                               autospec=True) as swap:
            swap.side_effect = lambda db, seen, info: \
                conductor_writes_first(seen, info)
            self.heartbeat()
        self.assertEqual(1, swap.call_count)
        self.assertEqual(1, self.sent.call_count)
        info = self.info()
        # The conductor recorded it over what was written meanwhile.
        self.assertTrue(info['written_meanwhile'])
        self.assertEqual(URL, info[agent_info.AGENT_URL])

    def test_new_certificate_goes_to_the_conductor(self):
        self.db.update_node(self.node.id, {'maintenance': True})
        with mock.patch.object(agent_certificates, '_write',
                               autospec=True):
            self.heartbeat(agent_verify_ca=CERT)
            self.assertEqual(1, self.sent.call_count)
            self.assertEqual(CERT,
                             self.info()[agent_certificates.TEXT_KEY])
            # The same certificate again: nothing for the conductor.
            self.heartbeat(agent_verify_ca=CERT + '\n')
        self.assertEqual(1, self.sent.call_count)

    def test_deploy_interface_with_a_handler_goes_to_the_conductor(self):
        self.db.update_node(self.node.id, {'maintenance': True})
        handler = mock.Mock()
        with mock.patch.object(fake.FakeDeploy, 'heartbeat', handler,
                               create=True):
            self.heartbeat()
        self.assertEqual(1, self.sent.call_count)
        self.assertEqual(1, handler.call_count)

    def test_no_conductor_for_the_node(self):
        # As Ironic (NoValidHost): 400, even for a heartbeat the API would
        # record alone.
        self.db.update_node(self.node.id, {'maintenance': True,
                                           'conductor_group': 'nowhere'})
        self.heartbeat(status=400)
        self.sent.assert_not_called()
        self.assertNotIn(agent_info.AGENT_URL, self.info())
