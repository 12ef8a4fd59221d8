"""/v1/hostos/agents: the host agent's heartbeat (trust on first use of
its token, holds, the items in order, rollout release and failure
threshold, reports, removal and deletion, secret values) and the reset
of a node's token."""

import logging
from unittest import mock

import fixtures
from oslo_utils import uuidutils

from ironic_like.api.controllers.v1.hostos import agents
from ironic_like.common import states
from ironic_like.tests.unit.api import base
from ironic_like.tests.unit.api import test_auth
from ironic_like.tests.unit.api import test_hostos_configurations as conf_t
from ironic_like.tests.unit.api import test_hostos_modules as hostos_base

HEARTBEAT = '/v1/hostos/agents/heartbeat'
CONFIGURATIONS = '/v1/hostos/configurations'
SENTINEL = conf_t.SENTINEL
ANSIBLE = 'host-os-c1-sysctl-1.0.0-reconfigure'
DOWNLOAD = 'host-os-download-c1-sysctl-1.0.0-reconfigure'


class AgentTestCase(hostos_base.HostOSAPITestCase):

    def setUp(self):
        super().setUp()
        self.make_module('sysctl', '1.0.0')
        self.make_module('ntp', '1.0.0')
        self.n1 = self.active_node('n1', {'role': 'compute'})
        self.n2 = self.active_node('n2', {'role': 'compute'})
        self.n3 = self.active_node('n3', {'role': 'compute'})
        self.tokens = {}

    def beat(self, node, reports=(), held=None, status=200):
        """A heartbeat with the node's token (taken on the first)."""
        r = self.heartbeat(node, token=self.tokens.get(node.uuid),
                           reports=reports, held=held, status=status)
        if status == 200 and 'token' in r.json:
            self.tokens[node.uuid] = r.json['token']
        return r.json if status == 200 else r

    def items(self, node, **kwargs):
        return {item['name']: item for item in
                self.beat(node, **kwargs)['items']}

    @staticmethod
    def report(item, state='ok', exit_code=0, **kwargs):
        report = {'name': item['name'], 'hash': item['hash'],
                  'state': state, 'exit_code': exit_code, 'attempt': 1,
                  'started_at': '2026-01-02T03:04:05+00:00',
                  'finished_at': '2026-01-02T03:04:06.5+00:00',
                  'output': 'PLAY RECAP ok=1'}
        report.update(kwargs)
        return report

    def node_entry(self, node, name='c1'):
        nodes = self.get(CONFIGURATIONS + '/%s/nodes?node=%s'
                         % (name, node.name)).json['nodes']
        return nodes[0] if nodes else None


class TestToken(AgentTestCase):

    def test_first_heartbeat_gets_a_token(self):
        doc = self.heartbeat(self.n1).json
        token = doc['token']
        self.assertGreaterEqual(len(token), 32)
        self.assertEqual(10, doc['heartbeat_interval'])
        self.assertEqual(60, doc['retry_interval'])
        self.assertEqual('/root/host-os-modules', doc['modules_dir'])
        self.assertIsNone(doc['hold'])
        self.assertEqual([], doc['items'])
        # Later: the token, and no new one.
        doc = self.heartbeat(self.n1, token=token).json
        self.assertNotIn('token', doc)
        agent = self.db.get_hostos_agent(self.n1.id)
        self.assertEqual('1.0', agent.agent_version)
        self.assertIsNotNone(agent.last_heartbeat)
        self.assertNotEqual(token, agent.token_hash)

    def test_401_without_or_with_a_wrong_token(self):
        token = self.heartbeat(self.n1).json['token']
        r = self.heartbeat(self.n1, status=401)
        message = self.assertFault(r, 401, 'host agent token', self.n1.uuid)
        r = self.heartbeat(self.n1, token=token + 'x', status=401)
        self.assertEqual(message, self.assertFault(r, 401))
        # A token for a node without one is refused too.
        self.heartbeat(self.n2, token=token, status=401)

    def test_unknown_node_is_a_401_as_a_bad_token(self):
        token = self.heartbeat(self.n1).json['token']
        bad = self.assertFault(self.heartbeat(self.n1, token='x',
                                              status=401), 401)
        ghost = mock.Mock(uuid=uuidutils.generate_uuid())
        r = self.heartbeat(ghost, token=token, status=401)
        self.assertEqual(bad.replace(self.n1.uuid, ghost.uuid),
                         self.assertFault(r, 401))

    def test_reset(self):
        old = self.heartbeat(self.n1).json['token']
        self.delete('/v1/hostos/agents/n1')
        self.heartbeat(self.n1, token=old, status=401)
        new = self.heartbeat(self.n1).json['token']
        self.assertNotEqual(old, new)
        # Idempotent, by UUID as well.
        self.delete('/v1/hostos/agents/' + self.n2.uuid)
        r = self.delete('/v1/hostos/agents/nosuch', status=404)
        self.assertFault(r, 404, 'nosuch')
        self.app.delete('/v1/hostos/agents', status=405)
        self.app.get(HEARTBEAT, status=405)

    def test_bad_bodies_400_name_the_field(self):
        node = self.n1.uuid
        report = {'name': 'x', 'state': 'ok'}
        cases = [
            ({}, 'node'),
            ({'node': 'n1'}, 'node'),
            ({'node': node, 'token': 5}, 'token'),
            ({'node': node, 'held': 'x'}, 'held'),
            ({'node': node, 'reports': [dict(report, state='done')]},
             'reports/0/state'),
            ({'node': node, 'reports': [{'state': 'ok'}]},
             'reports/0/name'),
            ({'node': node, 'reports': [dict(report, output='x' * 65537)]},
             'reports/0/output'),
            ({'node': node, 'reports': [report] * 1001}, 'reports'),
            ({'node': node, 'reports': [dict(report, attempt=-1)]},
             'reports/0/attempt'),
            ({'node': node, 'reports': [report, dict(
                report, started_at='yesterday')]},
             'reports/1/started_at'),
            ({'node': node, 'other': 1}, 'other'),
        ]
        for body, field in cases:
            r = self.app.post_json(HEARTBEAT, body, status=400)
            self.assert_field(r, 400, field)
        # Nothing was recorded (no token handed out).
        self.assertIsNone(self.db.get_hostos_agent(self.n1.id))


class TestHold(AgentTestCase):

    def test_not_active_or_maintenance(self):
        self.create_configuration()
        deploying = self.active_node(
            'n4', {'role': 'compute'}, provision_state=states.DEPLOYING)
        doc = self.beat(deploying)
        self.assertIsNone(doc['items'])
        self.assertIn('deploying', doc['hold'])
        self.assertIn('token', doc)
        self.db.update_node(self.n1.id, {'maintenance': True})
        doc = self.beat(self.n1)
        self.assertIsNone(doc['items'])
        self.assertIn('maintenance', doc['hold'])
        # Nothing was released to them.
        self.assertEqual(3, self.get(CONFIGURATIONS + '/c1').json[
            'nodes']['waiting'])


class TestItems(AgentTestCase):

    def test_items_in_order(self):
        self.create_configuration(name='late', order=2, configs=[
            {'module': 'sysctl', 'module_version': '1.0.0'}])
        self.create_configuration(name='early', order=1, configs=[
            {'module': 'sysctl', 'module_version': '1.0.0', 'order': 9},
            {'module': 'ntp', 'module_version': '1.0.0', 'order': 3}])
        doc = self.beat(self.n1)
        self.assertEqual(
            ['host-os-download-early-ntp-1.0.0-reconfigure',
             'host-os-early-ntp-1.0.0-reconfigure',
             'host-os-download-early-sysctl-1.0.0-reconfigure',
             'host-os-early-sysctl-1.0.0-reconfigure',
             'host-os-download-late-sysctl-1.0.0-reconfigure',
             'host-os-late-sysctl-1.0.0-reconfigure'],
            [item['name'] for item in doc['items']])
        download, run = doc['items'][:2]
        self.assertEqual('downloader', download['runner'])
        self.assertEqual({'url', 'sha256', 'path'}, set(download['params']))
        self.assertEqual('/root/host-os-modules/ntp-1.0.0',
                         download['params']['path'])
        self.assertEqual('ansible', run['runner'])
        self.assertEqual('/root/host-os-modules/ntp-1.0.0/main.yaml',
                         run['params']['playbook'])
        self.assertEqual(1, run['params']['generation'])
        for item in doc['items']:
            self.assertEqual('reconfigure', item['phase'])
            self.assertEqual('v1', item['version'])
            self.assertEqual(64, len(item['hash']))
            self.assertFalse(item['hold'])
            self.assertEqual({}, item['secret_values'])
        self.assertEqual('early', run['configuration'])

    def test_reports_are_recorded(self):
        self.create_configuration()
        items = self.items(self.n1)
        self.assertEqual('pending', self.node_entry(self.n1)['state'])
        self.beat(self.n1, reports=[
            self.report(items[DOWNLOAD]),
            self.report(items[ANSIBLE], state='running', exit_code=None)])
        entry = self.node_entry(self.n1)
        self.assertEqual('running', entry['state'])
        by_name = {i['name']: i for i in entry['items']}
        self.assertEqual('ok', by_name[DOWNLOAD]['state'])
        self.assertEqual(0, by_name[DOWNLOAD]['exit_code'])
        self.assertEqual(1, by_name[DOWNLOAD]['attempt'])
        self.assertEqual('PLAY RECAP ok=1', by_name[DOWNLOAD]['output'])
        self.assertEqual('2026-01-02T03:04:05+00:00',
                         by_name[DOWNLOAD]['started_at'])
        # No boot session waits for this node: no cast.
        self.wake.assert_not_called()
        self.beat(self.n1, reports=[self.report(items[ANSIBLE])])
        self.assertEqual('ok', self.node_entry(self.n1)['state'])
        doc = self.get(CONFIGURATIONS + '/c1').json
        self.assertEqual(1, doc['nodes']['ok'])
        # A report for an older hash is stale.
        self.beat(self.n1, reports=[self.report(items[ANSIBLE],
                                                hash='0' * 64)])
        self.assertEqual('pending', self.node_entry(self.n1)['state'])

    def configuring(self, node):
        component = self.db.update_boot_component(
            node.id, {'phase': 'configuring', 'enabled': True})
        self.assertEqual('configuring', component.status)

    def test_a_boot_session_waiting_for_the_node_is_woken(self):
        self.create_configuration()
        self.configuring(self.n1)
        items = self.items(self.n1)
        self.beat(self.n1, reports=[self.report(items[DOWNLOAD])])
        self.wake.assert_called_with(mock.ANY, ['configuration'],
                                     node_ids=[self.n1.id])

    def test_wake_failure_ignored(self):
        self.create_configuration()
        self.configuring(self.n1)
        items = self.items(self.n1)
        self.wake.side_effect = RuntimeError('no bus')
        self.beat(self.n1, reports=[self.report(items[DOWNLOAD])])
        self.assertTrue(self.wake.called)

    def test_reapply_changes_hashes(self):
        self.create_configuration()
        before = self.items(self.n1)
        self.post(CONFIGURATIONS + '/c1/reapply', {}, status=202)
        after = self.items(self.n1)
        self.assertNotEqual(before[ANSIBLE]['hash'], after[ANSIBLE]['hash'])
        self.assertEqual(2, after[ANSIBLE]['params']['generation'])
        self.assertEqual(before[DOWNLOAD]['hash'], after[DOWNLOAD]['hash'])


class TestRollout(AgentTestCase):

    def test_max_concurrent(self):
        self.create_configuration(max_concurrent=2)
        first = self.items(self.n1)
        self.assertFalse(first[ANSIBLE]['hold'])
        self.assertFalse(self.items(self.n2)[ANSIBLE]['hold'])
        held = self.items(self.n3)
        self.assertTrue(held[ANSIBLE]['hold'])
        self.assertTrue(held[DOWNLOAD]['hold'])
        self.assertEqual('waiting', self.node_entry(self.n3)['state'])
        # n1 is done: n3 may start.
        self.beat(self.n1, reports=[self.report(first[DOWNLOAD]),
                                    self.report(first[ANSIBLE])])
        self.assertFalse(self.items(self.n3)[ANSIBLE]['hold'])

    def test_failure_threshold_pauses_until_resume(self):
        self.create_configuration(failure_threshold=1)
        items = self.items(self.n1)
        self.beat(self.n1, reports=[
            self.report(items[DOWNLOAD]),
            self.report(items[ANSIBLE], state='failed', exit_code=2)])
        doc = self.get(CONFIGURATIONS + '/c1').json
        self.assertEqual('paused', doc['status'])
        self.assertIn('n1', doc['status_reason'])
        self.assertEqual(1, doc['nodes']['failed'])
        # No other node starts it.
        held = self.items(self.n2)
        self.assertTrue(held[ANSIBLE]['hold'])
        self.assertEqual('active', self.post(
            CONFIGURATIONS + '/c1/resume', {}, status=200).json['status'])
        self.assertEqual('active', self.get(CONFIGURATIONS + '/c1').json[
            'status'])
        self.assertFalse(self.items(self.n2)[ANSIBLE]['hold'])


class TestRemoval(AgentTestCase):

    def test_delete_waits_for_the_agents(self):
        node = self.active_node('n9', {'role': 'compute', 'rack': 'r1'})
        self.create_configuration(selector={'match_labels': {
            'role': 'compute', 'rack': 'r1'}})
        names = sorted(self.items(node))
        self.assertEqual('deleting', self.delete(
            CONFIGURATIONS + '/c1', status=202).json['status'])
        # Removed items are no longer listed; held, they stay.
        self.assertEqual({}, self.items(node, held=names))
        doc = self.get(CONFIGURATIONS + '/c1').json
        self.assertEqual('deleting', doc['status'])
        self.assertEqual(1, doc['nodes']['removing'])
        self.assertEqual('removing', self.node_entry(node)['state'])
        # The agent dropped them: the configuration is gone.
        self.beat(node, held=[])
        self.get(CONFIGURATIONS + '/c1', status=404)

    def test_label_change_removes_items(self):
        self.create_configuration()
        names = sorted(self.items(self.n1))
        self.db.update_node(self.n1.id, {'labels': {'role': 'storage'}})
        self.db.sync_hostos_items(node_ids=[self.n1.id])
        self.assertEqual({}, self.items(self.n1, held=names))
        self.assertEqual('removing', self.node_entry(self.n1)['state'])
        self.beat(self.n1, held=[])
        self.assertIsNone(self.node_entry(self.n1))


class TestSecrets(AgentTestCase):

    def test_only_the_agent_gets_them(self):
        logs = self.useFixture(fixtures.FakeLogger(level=logging.DEBUG))
        self.create_configuration(max_concurrent=1, configs=[
            {'module': 'sysctl', 'module_version': '1.0.0',
             'secret_values': {'password': SENTINEL}}])
        r = self.heartbeat(self.n1)
        self.tokens[self.n1.uuid] = r.json['token']
        self.assertIn(SENTINEL, r.text)
        items = {i['name']: i for i in r.json['items']}
        self.assertEqual({'password': SENTINEL},
                         items[ANSIBLE]['secret_values'])
        self.assertEqual({}, items[DOWNLOAD]['secret_values'])
        self.assertNotIn(SENTINEL, str(items[ANSIBLE]['params']))
        # Not to a node the rollout holds back.
        r = self.heartbeat(self.n2)
        self.assertNotIn(SENTINEL, r.text)
        self.assertNotIn(SENTINEL, logs.output)
        for url in (CONFIGURATIONS, CONFIGURATIONS + '/c1',
                    CONFIGURATIONS + '/c1/nodes'):
            self.assertNotIn(SENTINEL, self.get(url).text)

    def test_config_index_from_sort_key(self):
        self.create_configuration(configs=[
            {'module': 'sysctl', 'module_version': '1.0.0', 'order': 5,
             'secret_values': {'a': 'one'}},
            {'module': 'ntp', 'module_version': '1.0.0', 'order': 1,
             'secret_values': {'b': 'two'}}])
        items = self.items(self.n1)
        self.assertEqual({'a': 'one'}, items[ANSIBLE]['secret_values'])
        self.assertEqual({'b': 'two'}, items[
            'host-os-c1-ntp-1.0.0-reconfigure']['secret_values'])


class TestPublicRoute(test_auth.KeystoneTestCase, AgentTestCase):

    with_conductor = False

    def test_heartbeat_needs_no_keystone_token(self):
        self.assertIn('token', self.heartbeat(self.n1).json)

    def test_reset_is_for_admins(self):
        for headers in (self.system('reader'), self.system('member'),
                        self.project('admin')):
            r = self.delete('/v1/hostos/agents/n1', headers=headers,
                            status=403)
            self.assertFault(r, 403, 'baremetal:hostos:write')
        self.delete('/v1/hostos/agents/n1', headers=self.system('admin'))


class TestTimes(base.APITestCase):

    def test_times_parsed_to_naive_utc(self):
        reports = agents._reports([{'name': 'x', 'state': 'ok',
                                    'started_at': '2026-01-02T04:04:05+01:00',
                                    'finished_at': None}])
        self.assertEqual('2026-01-02 03:04:05', str(reports[0]['started_at']))
        self.assertIsNone(reports[0]['finished_at'])
