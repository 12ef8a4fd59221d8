"""Host OS configuration in the database: the label index, item
derivation (configuration side and node side), heartbeats, rollout."""

import json

import fixtures
from oslo_db import exception as db_exc
import sqlalchemy as sa

from ironic_like.common import exception
from ironic_like.common.hostos import items as hostos_items
from ironic_like.db import api as db_api
from ironic_like.db.sqlalchemy import api as sa_api
from ironic_like.db.sqlalchemy import hostos as hostos_db
from ironic_like.db.sqlalchemy import models
from ironic_like.tests import base
from ironic_like.tests.unit.db import utils

SENTINEL = 'sentinel-secret-6c1f0a'


def _rows(model):
    with sa_api._reader() as session:
        return list(session.scalars(sa.select(model)))


def release_all():
    """As if every node's agent had received its items (heartbeats)."""
    with sa_api._writer() as session:
        session.execute(sa.update(models.HostOSItem).values(released=True))


def create_module(db, name='sysctl', version='1.0.0', **kwargs):
    values = {'name': name, 'version': version,
              'url': 'http://example.test/%s-%s.tgz' % (name, version),
              'sha256sum': 'a' * 64, 'state': hostos_db.MODULE_AVAILABLE,
              'playbook': 'main.yaml'}
    values.update(kwargs)
    return db.create_hostos_module(values)


def create_configuration(db, name='web', selector=None, configs=None,
                         **kwargs):
    values = {'name': name,
              'machine_selector': selector if selector is not None else
              {'match_labels': {'role': 'web'}},
              'configs': configs or [{'module': 'sysctl',
                                      'module_version': '1.0.0',
                                      'values': {'a': 1}}],
              'secret_values': kwargs.pop('secret_values', None) or [None]}
    values.update(kwargs)
    configuration = db.create_hostos_configuration(values)
    db.sync_hostos_items([configuration.id])
    return configuration


class HostOSTestCase(base.TestCase):

    def setUp(self):
        super().setUp()
        self.db = db_api.get_instance()
        create_module(self.db)

    def node(self, name, labels=None, **kwargs):
        kwargs.setdefault('provision_state', 'active')
        return utils.create_test_node(name=name, labels=labels or {},
                                      **kwargs)

    def names(self, node_id):
        return sorted(r.name for r in _rows(models.HostOSItem)
                      if r.node_id == node_id and not r.removed)


class TestLabelIndex(HostOSTestCase):

    def test_created_updated_and_deleted_with_the_node(self):
        node = self.node('n1', {'role': 'web', 'rack': 'r1'})
        self.assertEqual({('role', 'web'), ('rack', 'r1')},
                         {(r.key, r.value) for r in _rows(models.NodeLabel)})
        self.db.update_node(node.id, {'labels': {'role': 'db'}})
        self.assertEqual([('role', 'db')],
                         [(r.key, r.value) for r in _rows(models.NodeLabel)])
        self.db.destroy_node(node.id)
        self.assertEqual([], _rows(models.NodeLabel))


class TestSync(HostOSTestCase):

    def test_selected_nodes_get_a_downloader_and_an_ansible_item(self):
        web = self.node('n1', {'role': 'web'})
        other = self.node('n2', {'role': 'db'})
        create_configuration(self.db)
        self.assertEqual(
            ['host-os-download-web-sysctl-1.0.0-reconfigure',
             'host-os-web-sysctl-1.0.0-reconfigure'], self.names(web.id))
        self.assertEqual([], self.names(other.id))

    def test_an_empty_selector_selects_no_node(self):
        self.node('n1', {'role': 'web'})
        self.node('n2')
        create_configuration(self.db, selector={})
        self.assertEqual([], _rows(models.HostOSItem))

    def test_a_label_change_moves_the_items_of_that_node_only(self):
        n1 = self.node('n1', {'role': 'web'})
        n2 = self.node('n2', {'role': 'web'})
        create_configuration(self.db)
        release_all()
        before = {r.id: r.updated_at for r in _rows(models.HostOSItem)
                  if r.node_id == n2.id}
        self.db.update_node(n1.id, {'labels': {'role': 'db'}})
        counts = self.db.sync_hostos_items(node_ids=[n1.id])
        self.assertEqual({'created': 0, 'changed': 0, 'removed': 2}, counts)
        self.assertEqual([], self.names(n1.id))
        after = {r.id: r.updated_at for r in _rows(models.HostOSItem)
                 if r.node_id == n2.id}
        self.assertEqual(before, after)
        self.db.update_node(n1.id, {'labels': {'role': 'web'}})
        counts = self.db.sync_hostos_items(node_ids=[n1.id])
        self.assertEqual({'created': 0, 'changed': 2, 'removed': 0}, counts)
        self.assertEqual(2, len(self.names(n1.id)))

    def test_items_no_agent_received_go_at_once(self):
        node = self.node('n1', {'role': 'web'})
        configuration = create_configuration(self.db)
        self.db.update_node(node.id, {'labels': {}})
        self.db.sync_hostos_items(node_ids=[node.id])
        self.assertEqual([], _rows(models.HostOSItem))
        self.db.update_node(node.id, {'labels': {'role': 'web'}})
        self.db.sync_hostos_items(node_ids=[node.id])
        self.db.start_hostos_configuration_delete(configuration.id)
        self.assertTrue(self.db.finish_hostos_configuration_delete(
            configuration.id))

    def test_a_reset_agent_drops_what_its_host_was_to_drop(self):
        node = self.node('n1', {'role': 'web'})
        create_configuration(self.db)
        release_all()
        self.db.update_node(node.id, {'labels': {}})
        self.db.sync_hostos_items(node_ids=[node.id])
        self.assertEqual(2, len(_rows(models.HostOSItem)))
        self.db.reset_hostos_agent(node.id)
        self.assertEqual([], _rows(models.HostOSItem))

    def test_an_unchanged_sync_touches_nothing(self):
        self.node('n1', {'role': 'web'})
        configuration = create_configuration(self.db)
        self.assertEqual({'created': 0, 'changed': 0, 'removed': 0},
                         self.db.sync_hostos_items([configuration.id]))

    def test_changed_values_change_the_ansible_item_hash_only(self):
        node = self.node('n1', {'role': 'web'})
        configuration = create_configuration(self.db)
        hashes = {r.runner: r.spec_hash for r in _rows(models.HostOSItem)}
        self.db.update_hostos_configuration(configuration.id, {'configs': [
            {'module': 'sysctl', 'module_version': '1.0.0',
             'values': {'a': 2}}]})
        self.db.sync_hostos_items([configuration.id])
        rows = {r.runner: r for r in _rows(models.HostOSItem)
                if r.node_id == node.id}
        self.assertEqual(hashes['downloader'], rows['downloader'].spec_hash)
        self.assertNotEqual(hashes['ansible'], rows['ansible'].spec_hash)
        self.assertEqual({'a': 2}, rows['ansible'].params['values'])

    def test_reapply_changes_the_hash_of_the_chosen_nodes(self):
        n1 = self.node('n1', {'role': 'web'})
        n2 = self.node('n2', {'role': 'web'})
        configuration = create_configuration(self.db)
        before = {(r.node_id, r.runner): r.spec_hash
                  for r in _rows(models.HostOSItem)}
        self.assertEqual(2, self.db.bump_hostos_generation(
            configuration.id, [n1.id]))
        self.db.sync_hostos_items([configuration.id])
        after = {(r.node_id, r.runner): r.spec_hash
                 for r in _rows(models.HostOSItem)}
        self.assertNotEqual(before[(n1.id, 'ansible')],
                            after[(n1.id, 'ansible')])
        self.assertEqual(before[(n2.id, 'ansible')],
                         after[(n2.id, 'ansible')])

    def test_secrets_are_not_in_items(self):
        self.node('n1', {'role': 'web'})
        create_configuration(self.db, secret_values=[{'key': SENTINEL}])
        dumped = json.dumps([r.as_dict() for r in _rows(models.HostOSItem)],
                            default=str)
        self.assertNotIn(SENTINEL, dumped)
        self.assertIn('secret_values_digest', dumped)

    def test_a_recreated_configuration_takes_over_held_items(self):
        node = self.node('n1', {'role': 'web'})
        old = create_configuration(self.db)
        release_all()
        self.db.start_hostos_configuration_delete(old.id)
        self.assertFalse(self.db.finish_hostos_configuration_delete(old.id))
        self.db.update_hostos_configuration(old.id, {'name': 'web-old'})
        new = create_configuration(self.db)
        rows = [r for r in _rows(models.HostOSItem) if r.node_id == node.id]
        self.assertEqual({new.id}, {r.configuration_id for r in rows})
        self.assertFalse(any(r.removed for r in rows))
        self.assertTrue(self.db.finish_hostos_configuration_delete(old.id))


class TestDeadlocks(HostOSTestCase):
    """MariaDB breaks the races of a fleet-wide sync, a relabelling and
    the heartbeats on the item rows as deadlocks: the writer runs again."""

    def test_a_deadlocked_sync_runs_again(self):
        web = self.node('n1', {'role': 'web'})
        configuration = create_configuration(self.db)
        self.db.update_node(web.id, {'labels': {'role': 'db'}})
        real = hostos_db.HostOSMixin._sync_items
        calls = []

        def flaky(db, *args):
            calls.append(1)
            if len(calls) == 1:
                raise db_exc.DBDeadlock()
            return real(db, *args)
        self.useFixture(fixtures.MockPatchObject(
            hostos_db.HostOSMixin, '_sync_items', flaky))
        counts = self.db.sync_hostos_items([configuration.id])
        self.assertEqual(2, len(calls))
        self.assertEqual(2, counts['removed'])
        self.assertEqual([], self.names(web.id))

    def _fail_first_record(self, error):
        """The first heartbeat transaction fails with ``error`` after it
        stored the agent and its token (half done)."""
        real = hostos_db.HostOSMixin._record_reports
        calls = []

        def record(rows, reports, now):
            calls.append(1)
            if len(calls) == 1:
                raise error
            return real(rows, reports, now)
        self.useFixture(fixtures.MockPatchObject(
            hostos_db.HostOSMixin, '_record_reports', staticmethod(record)))
        return calls

    def _heartbeat_runs_again(self, error):
        node = self.node('n1', {'role': 'web'})
        create_configuration(self.db)
        calls = self._fail_first_record(error)
        answer = self.db.hostos_heartbeat(node.uuid, None, '1.0', [], [])
        self.assertEqual(2, len(calls))
        # The token answered is the one stored (the first try's agent was
        # rolled back), and the agent is recorded once.
        agents = _rows(models.HostOSAgent)
        self.assertEqual(1, len(agents))
        self.assertEqual(hostos_db.token_hash(answer[1]),
                         agents[0].token_hash)
        self.assertEqual(2, len(answer[2]))

    def test_a_deadlocked_heartbeat_runs_again(self):
        self._heartbeat_runs_again(db_exc.DBDeadlock())

    def test_a_heartbeat_cut_by_a_lost_connection_runs_again(self):
        self._heartbeat_runs_again(db_exc.DBConnectionError())


class TestHeartbeat(HostOSTestCase):

    def beat(self, node, token=None, reports=(), held=()):
        return self.db.hostos_heartbeat(node.uuid, token, '1.0',
                                        list(reports), list(held))

    def test_first_heartbeat_gets_a_token_then_needs_it(self):
        node = self.node('n1', {'role': 'web'})
        _, token, _, _, _ = self.beat(node)
        self.assertTrue(token)
        self.assertRaises(exception.HostOSAgentTokenInvalid, self.beat,
                          node)
        self.assertRaises(exception.HostOSAgentTokenInvalid, self.beat,
                          node, 'wrong')
        _, again, _, _, _ = self.beat(node, token)
        self.assertIsNone(again)
        self.assertNotEqual(token, self.db.get_hostos_agent(
            node.id).token_hash)

    def test_inactive_or_maintenance_nodes_are_held(self):
        node = self.node('n1', {'role': 'web'}, provision_state='available')
        create_configuration(self.db)
        _, token, answer, hold, _ = self.beat(node)
        self.assertIsNone(answer)
        self.assertIn('available', hold)
        self.db.update_node(node.id, {'provision_state': 'active',
                                      'maintenance': True})
        _, _, answer, hold, _ = self.beat(node, token)
        self.assertEqual('node is in maintenance', hold)

    def test_items_in_order_and_reports_recorded(self):
        node = self.node('n1', {'role': 'web'})
        create_module(self.db, 'ntp', '2.0.0')
        create_configuration(self.db, 'zz', order=1, configs=[
            {'module': 'ntp', 'module_version': '2.0.0', 'values': {}}])
        create_configuration(self.db, 'aa')
        _, token, answer, _, _ = self.beat(node)
        names = [row.name for row, _, _ in answer]
        self.assertEqual(
            ['host-os-download-zz-ntp-2.0.0-reconfigure',
             'host-os-zz-ntp-2.0.0-reconfigure',
             'host-os-download-aa-sysctl-1.0.0-reconfigure',
             'host-os-aa-sysctl-1.0.0-reconfigure'], names)
        first = answer[0][0]
        report = {'name': first.name, 'hash': first.spec_hash, 'state': 'ok',
                  'exit_code': 0, 'attempt': 1, 'output': 'x' * 10000}
        _, _, answer, _, changed = self.beat(node, token, [report],
                                             held=[first.name])
        row = answer[0][0]
        self.assertEqual('ok', hostos_db.item_state(row))
        self.assertEqual(hostos_items.MAX_OUTPUT, len(row.output))
        self.assertEqual(1, len(changed))

    def test_removed_items_disappear_once_the_agent_drops_them(self):
        node = self.node('n1', {'role': 'web'})
        configuration = create_configuration(self.db)
        _, token, answer, _, _ = self.beat(node)
        names = [row.name for row, _, _ in answer]
        self.db.start_hostos_configuration_delete(configuration.id)
        _, _, answer, _, _ = self.beat(node, token, held=names)
        self.assertEqual([], answer)
        self.assertEqual(2, len(_rows(models.HostOSItem)))
        self.beat(node, token, held=[])
        self.assertEqual([], _rows(models.HostOSItem))
        self.assertTrue(self.db.finish_hostos_configuration_delete(
            configuration.id))
        self.assertRaises(exception.HostOSConfigurationNotFound,
                          self.db.get_hostos_configuration, 'web')

    def test_max_concurrent_releases_that_many_nodes(self):
        nodes = [self.node('n%d' % i, {'role': 'web'}) for i in range(3)]
        create_configuration(self.db, max_concurrent=2)
        held = []
        tokens = []
        for node in nodes:
            _, token, answer, _, _ = self.beat(node)
            tokens.append(token)
            held.append(all(paused or not row.released
                            for row, _, paused in answer))
        self.assertEqual([False, False, True], held)
        # The first node finishes: the third may start.
        _, _, answer, _, _ = self.beat(nodes[0], tokens[0])
        reports = [{'name': row.name, 'hash': row.spec_hash, 'state': 'ok',
                    'exit_code': 0} for row, _, _ in answer]
        self.beat(nodes[0], tokens[0], reports)
        _, _, answer, _, _ = self.beat(nodes[2], tokens[2])
        self.assertTrue(all(row.released for row, _, _ in answer))

    def test_unknown_node(self):
        self.assertRaises(exception.NodeNotFound, self.db.hostos_heartbeat,
                          '2e3a3b9c-0f0e-4a51-9d2e-3b1e2f6c9a10', None, '1',
                          [], [])


class TestModules(HostOSTestCase):

    def test_deleting_a_used_version_names_the_configurations(self):
        create_configuration(self.db)
        e = self.assertRaises(exception.HostOSModuleInUse,
                              self.db.destroy_hostos_module, 'sysctl',
                              '1.0.0')
        self.assertIn('web', str(e))
        create_module(self.db, version='2.0.0')
        self.db.destroy_hostos_module('sysctl', '2.0.0')
        self.assertRaises(exception.HostOSModuleNotFound,
                          self.db.get_hostos_module, 'sysctl', '2.0.0')

    def test_duplicate(self):
        self.assertRaises(exception.HostOSModuleExists, create_module,
                          self.db)
