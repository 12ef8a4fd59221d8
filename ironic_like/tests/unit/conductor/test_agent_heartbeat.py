"""The conductor's side of agent heartbeats: the token check, what a
heartbeat records, the single lock attempt, the deploy interface's hook,
and the token's end of life (wipe_agent_token)."""

from unittest import mock

from oslo_utils import uuidutils

from ironic_like.common import agent_info
from ironic_like.common import agent_token
from ironic_like.common import exception
from ironic_like.common import states
from ironic_like.conductor import agent_heartbeat
from ironic_like.conductor import locks
from ironic_like.conf import CONF
from ironic_like.tests.unit.conductor import utils

TOKEN = 'tok-123'
URL = 'http://10.0.0.5:9999'


class TestAgentToken(utils.ConductorTestCase):

    def test_generate(self):
        one, two = agent_token.generate(), agent_token.generate()
        self.assertNotEqual(one, two)
        self.assertGreaterEqual(len(one), 40)

    def test_is_valid(self):
        info = {'agent_secret_token': TOKEN}
        self.assertTrue(agent_token.is_valid(info, TOKEN))
        for bad in (None, '', 'tok-12', TOKEN + 'x', '******', 5):
            self.assertFalse(agent_token.is_valid(info, bad), bad)
        self.assertFalse(agent_token.is_valid({}, TOKEN))
        self.assertFalse(agent_token.is_valid(None, None))
        self.assertFalse(agent_token.is_valid(
            {'agent_secret_token': '******'}, '******'))

    def test_helpers(self):
        info = agent_token.with_new_token({'a': 1}, pregenerated=True)
        self.assertTrue(info['agent_secret_token_pregenerated'])
        self.assertEqual(1, info['a'])
        self.assertEqual({'a': 1}, agent_token.without_token(info))
        self.assertEqual('******', agent_token.masked(info)[
            'agent_secret_token'])
        self.assertNotIn('agent_secret_token_pregenerated',
                         agent_token.with_new_token(info))


class TestHeartbeat(utils.ConductorTestCase):

    def setUp(self):
        super().setUp()
        self.node = self.db.create_node({
            'uuid': uuidutils.generate_uuid(), 'driver': 'fake-hardware',
            'provision_state': states.DEPLOYWAIT,
            'power_state': states.POWER_ON,
            'driver_internal_info': {'agent_secret_token': TOKEN,
                                     'kept': 'yes'}})

    def info(self):
        return self.db.get_node_by_id(self.node.id).driver_internal_info

    def test_records(self):
        self.assertTrue(agent_heartbeat.heartbeat(
            self.context, self.node.id, URL, '9.0', TOKEN))
        info = self.info()
        self.assertEqual(URL, info['agent_url'])
        self.assertEqual('9.0', info['agent_version'])
        self.assertIn('agent_last_heartbeat', info)
        self.assertEqual('yes', info['kept'])
        self.assertEqual(TOKEN, info['agent_secret_token'])
        self.assertIsNone(self.db.get_node_by_id(self.node.id).reservation)

    def test_through_rpc(self):
        self.assertTrue(self.api.heartbeat(self.context, self.node, URL,
                                           agent_token=TOKEN))
        self.assertRaises(exception.AgentTokenInvalid, self.api.heartbeat,
                          self.context, self.node, URL, agent_token='bad')
        self.assertEqual(URL, self.info()['agent_url'])

    def test_bad_token_changes_nothing(self):
        for bad in (None, 'wrong', '******'):
            self.assertRaises(exception.AgentTokenInvalid,
                              agent_heartbeat.heartbeat, self.context,
                              self.node.id, URL, None, bad)
        self.assertNotIn('agent_url', self.info())
        self.assertIsNone(self.db.get_node_by_id(self.node.id).reservation)

    def test_bad_callback_url_changes_nothing(self):
        # The conductor checks the URL too: it would send the token there.
        self.config(allowed_callback_networks=['10.0.0.0/8'],
                    group='agent')
        for bad in ('ftp://10.0.0.5/', 'http://u:p@10.0.0.5:9999',
                    'http://192.0.2.1:9999', 'http://agent.test:9999',
                    None):
            self.assertRaises(exception.InvalidParameterValue,
                              agent_heartbeat.heartbeat, self.context,
                              self.node.id, bad, None, TOKEN)
        self.assertNotIn('agent_url', self.info())
        self.assertIsNone(self.db.get_node_by_id(self.node.id).reservation)
        self.assertTrue(agent_heartbeat.heartbeat(
            self.context, self.node.id, URL, None, TOKEN))

    def test_bad_token_is_401(self):
        e = exception.AgentTokenInvalid(node='n')
        self.assertEqual(401, e.code)
        self.assertIn('agent token', str(e))

    def test_unknown_node(self):
        self.assertRaises(exception.NodeNotFound, agent_heartbeat.heartbeat,
                          self.context, self.node.id + 1000, URL, None,
                          TOKEN)

    def test_locked_node_acknowledged(self):
        self.db.reserve_node('other-host', self.node.id)
        with mock.patch.object(agent_heartbeat.db_api.get_instance(),
                               'reserve_node',
                               wraps=self.db.reserve_node) as reserve:
            self.assertFalse(agent_heartbeat.heartbeat(
                self.context, self.node.id, URL, None, TOKEN))
        # One attempt, no retry loop, no waiting.
        self.assertEqual(1, reserve.call_count)
        self.assertNotIn('agent_url', self.info())
        self.assertEqual('other-host',
                         self.db.get_node_by_id(self.node.id).reservation)

    def test_locked_node_still_refuses_a_bad_token(self):
        self.db.reserve_node('other-host', self.node.id)
        self.assertRaises(exception.AgentTokenInvalid,
                          agent_heartbeat.heartbeat, self.context,
                          self.node.id, URL, None, 'wrong')
        self.assertNotIn('agent_url', self.info())

    def test_recorded_in_one_write_without_reads(self):
        # The hot path: the reservation reads the node, one conditional
        # UPDATE records the heartbeat; no read of its own, no
        # read-modify-write of the row.
        db = agent_heartbeat.db_api.get_instance()
        with mock.patch.object(db, 'get_node_by_id',
                               wraps=db.get_node_by_id) as read, \
                mock.patch.object(db, 'update_node',
                                  wraps=db.update_node) as update, \
                mock.patch.object(db, 'write_locked_node',
                                  wraps=db.write_locked_node) as write:
            self.assertTrue(agent_heartbeat.heartbeat(
                self.context, self.node.id, URL, '9.1', TOKEN))
        self.assertEqual(0, read.call_count)
        self.assertEqual(0, update.call_count)
        self.assertEqual(1, write.call_count)
        self.assertEqual('9.1', self.info()['agent_version'])

    def test_calls_deploy_heartbeat(self):
        calls = []

        class Deploy(object):
            def heartbeat(self, task, callback_url, agent_version,
                          agent_status=None):
                calls.append((task.node.uuid, callback_url, agent_version,
                              agent_status, task.shared,
                              task.node.driver_internal_info['agent_url']))

        driver = mock.Mock(deploy=Deploy())
        with mock.patch.object(locks.NodeTask, 'driver', driver):
            agent_heartbeat.heartbeat(self.context, self.node.id, URL,
                                      '1.0', TOKEN, 'start', 'hi')
        self.assertEqual([(self.node.uuid, URL, '1.0', 'start', False,
                           URL)], calls)
        self.assertIsNone(self.db.get_node_by_id(self.node.id).reservation)

    def test_idle_heartbeat_only_recorded(self):
        # In maintenance, or in no wait state: recorded, and no handler
        # called (the API records such heartbeats alone when it can).
        for values in ({'maintenance': True},
                       {'maintenance': False,
                        'provision_state': states.DEPLOYING}):
            self.db.update_node(self.node.id, values)
            with mock.patch.object(agent_heartbeat,
                                   '_call_deploy_heartbeat') as flows, \
                    mock.patch.object(agent_heartbeat.inspection,
                                      'on_heartbeat') as inspection, \
                    mock.patch.object(agent_heartbeat.rescue,
                                      'on_heartbeat') as rescue:
                self.assertTrue(agent_heartbeat.heartbeat(
                    self.context, self.node.id, URL, None, TOKEN))
            for handler in (flows, inspection, rescue):
                handler.assert_not_called()
            self.assertEqual(URL, self.info()['agent_url'])
        # A wait state out of maintenance: the deploy's handler decides.
        self.db.update_node(self.node.id, {
            'provision_state': states.DEPLOYWAIT})
        with mock.patch.object(agent_heartbeat,
                               '_call_deploy_heartbeat') as flows:
            agent_heartbeat.heartbeat(self.context, self.node.id, URL,
                                      None, TOKEN)
        self.assertEqual(1, flows.call_count)

    def test_deploy_without_heartbeat(self):
        driver = mock.Mock(deploy=object())
        with mock.patch.object(locks.NodeTask, 'driver', driver):
            self.assertTrue(agent_heartbeat.heartbeat(
                self.context, self.node.id, URL, None, TOKEN))

    def test_deploy_heartbeat_error_releases_lock(self):
        deploy = mock.Mock()
        deploy.heartbeat.side_effect = RuntimeError('boom')
        with mock.patch.object(locks.NodeTask, 'driver',
                               mock.Mock(deploy=deploy)):
            self.assertRaises(RuntimeError, agent_heartbeat.heartbeat,
                              self.context, self.node.id, URL, None, TOKEN)
        self.assertIsNone(self.db.get_node_by_id(self.node.id).reservation)

    def test_deploy_heartbeat_spawn_after(self):
        done = []

        class Deploy(object):
            def heartbeat(self, task, callback_url, agent_version):
                task.spawn_after(executor, lambda t: done.append(
                    self_db.get_node_by_id(t.node.id).reservation))

        class Executor(object):
            def submit(self, fn):
                fn()

        executor = Executor()
        self_db = self.db
        with mock.patch.object(locks.NodeTask, 'driver',
                               mock.Mock(deploy=Deploy())):
            agent_heartbeat.heartbeat(self.context, self.node.id, URL,
                                      None, TOKEN)
        # The work ran under the lock, which was released afterwards.
        self.assertEqual([CONF.host], done)
        self.assertIsNone(self.db.get_node_by_id(self.node.id).reservation)


class TestWipe(utils.ConductorTestCase):

    def make_node(self, info):
        return self.db.create_node({
            'uuid': uuidutils.generate_uuid(), 'driver': 'fake-hardware',
            'provision_state': states.DEPLOYING,
            'driver_internal_info': info})

    def test_wipe(self):
        node = self.make_node({'agent_secret_token': TOKEN,
                               'agent_secret_token_pregenerated': True,
                               'agent_url': URL,
                               'agent_last_heartbeat': 'x',
                               'agent_version': '1', 'kept': 1})
        with locks.acquire(self.context, node.id, purpose='t') as task:
            agent_info.wipe_agent_token(task)
            self.assertEqual({'kept': 1}, task.node.driver_internal_info)
        self.assertEqual({'kept': 1}, self.db.get_node_by_id(
            node.id).driver_internal_info)
        # The old token no longer authenticates.
        self.assertRaises(exception.AgentTokenInvalid,
                          agent_heartbeat.heartbeat, self.context, node.id,
                          URL, None, TOKEN)

    def test_wipe_nothing_writes_nothing(self):
        node = self.make_node({'kept': 1})
        with locks.acquire(self.context, node.id, purpose='t') as task:
            with mock.patch.object(task, 'update_node') as update:
                agent_info.wipe_agent_token(task)
        update.assert_not_called()

    def test_pregenerated(self):
        node = self.make_node({})
        with locks.acquire(self.context, node.id, purpose='t') as task:
            token = agent_info.add_pregenerated_token(task)
        info = self.db.get_node_by_id(node.id).driver_internal_info
        self.assertEqual(token, info['agent_secret_token'])
        self.assertTrue(info['agent_secret_token_pregenerated'])
