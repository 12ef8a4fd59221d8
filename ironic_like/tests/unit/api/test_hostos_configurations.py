"""/v1/hostos/configurations: create and patch (checked whole, items
derived at once), list and show with node counts, per-node status,
reapply, resume, delete; secret values kept out of every answer, the
items table and the logs; node labels (PATCH through the conductor, and
GET /v1/nodes?label_selector=)."""

import datetime
import json
import logging
from unittest import mock

import fixtures
from oslo_utils import timeutils
import sqlalchemy as sa

from ironic_like.conductor.hostos import reconcile
from ironic_like.db.sqlalchemy import api as sa_api
from ironic_like.db.sqlalchemy import models
from ironic_like.tests.unit.api import test_auth
from ironic_like.tests.unit.api import test_hostos_modules as hostos_base
from ironic_like.tests.unit.db import test_hostos as db_test

URL = '/v1/hostos/configurations'
SENTINEL = 'Sentinel-s3cret-0f9a2c'
SWAPPINESS = {'options': {'vm.swappiness': 10}, 'state': 'present'}


def items_table():
    with sa_api._reader() as session:
        return [{c.name: getattr(row, c.name)
                 for c in models.HostOSItem.__table__.columns}
                for row in session.scalars(sa.select(models.HostOSItem))]


class ConfigurationTestCase(hostos_base.HostOSAPITestCase):

    def setUp(self):
        super().setUp()
        self.sysctl = self.make_module(
            'sysctl', '1.0.0', values_schema=hostos_base.SYSCTL_SCHEMA)
        self.make_module('ntp', '1.0.0')
        self.n1 = self.active_node('n1', {'role': 'compute', 'rack': 'r1'})
        self.n2 = self.active_node('n2', {'role': 'compute', 'rack': 'r2'})
        self.n3 = self.active_node('n3', {'role': 'storage'})

    def item_names(self, node):
        return sorted(row['name'] for row in items_table()
                      if row['node_id'] == node.id and not row['removed'])

    def node_items(self, name, query=''):
        return self.get(URL + '/%s/nodes%s' % (name, query)).json['nodes']


class TestCreate(ConfigurationTestCase):

    def test_create_derives_items(self):
        r = self.create_configuration(configs=[
            {'module': 'sysctl', 'module_version': '1.0.0',
             'values': SWAPPINESS, 'order': 2, 'description': 'swap'}],
            order=5, max_concurrent=2, failure_threshold=1)
        doc = r.json
        self.assertEqual('c1', doc['name'])
        self.assertEqual('active', doc['status'])
        self.assertIsNone(doc['status_reason'])
        self.assertEqual({'match_labels': {'role': 'compute'},
                          'match_expressions': []}, doc['machine_selector'])
        self.assertEqual([{'module': 'sysctl', 'module_version': '1.0.0',
                           'values': SWAPPINESS, 'order': 2,
                           'description': 'swap', 'phase': 'reconfigure'}],
                         doc['configs'])
        self.assertEqual((5, 2, 1), (doc['order'], doc['max_concurrent'],
                                     doc['failure_threshold']))
        # Held until a heartbeat releases them.
        self.assertEqual({'selected': 2, 'waiting': 2, 'pending': 0,
                          'running': 0, 'ok': 0, 'failed': 0,
                          'removing': 0}, doc['nodes'])
        self.assertEqual([{'href': 'http://localhost/v1/hostos/'
                                   'configurations/c1', 'rel': 'self'}],
                         doc['links'])
        expected = ['host-os-c1-sysctl-1.0.0-reconfigure',
                    'host-os-download-c1-sysctl-1.0.0-reconfigure']
        self.assertEqual(expected, self.item_names(self.n1))
        self.assertEqual(expected, self.item_names(self.n2))
        self.assertEqual([], self.item_names(self.n3))
        self.assertEqual(doc, self.get(URL + '/c1').json)

    def test_empty_or_missing_selector_selects_no_node(self):
        self.create_configuration(name='empty', selector={})
        body = self.config_body(name='missing')
        del body['machine_selector']
        self.post(URL, body)
        self.create_configuration(name='blank', selector={
            'match_labels': {}, 'match_expressions': []})
        for name in ('empty', 'missing', 'blank'):
            self.assertEqual(0, self.get(URL + '/' + name).json['nodes'][
                'selected'])
        self.assertEqual([], items_table())

    def test_selector_expressions(self):
        self.create_configuration(selector={'match_expressions': [
            {'key': 'rack', 'operator': 'NotIn', 'values': ['r1']}]})
        self.assertEqual([], self.item_names(self.n1))
        self.assertEqual(2, len(self.item_names(self.n2)))
        # NotIn matches a node without the key.
        self.assertEqual(2, len(self.item_names(self.n3)))

    def test_duplicate_name_409(self):
        self.create_configuration()
        r = self.create_configuration(status=409)
        self.assertFault(r, 409, 'c1')

    def test_bad_bodies_400_name_the_field(self):
        config = {'module': 'sysctl', 'module_version': '1.0.0'}

        def with_config(**kw):
            return [dict(config, **kw)]

        cases = [
            (dict(name='Bad'), 'name'),
            (dict(name='bad\n'), 'name'),
            (dict(name='x' * 64), 'name'),
            (dict(configs=[]), 'configs'),
            (dict(configs=[config] * 101), 'configs'),
            (dict(configs=with_config(module='nope')),
             'configs/0/module_version'),
            (dict(configs=with_config(module_version='9.9.9')),
             'configs/0/module_version'),
            (dict(configs=[config, config]), 'configs/1/module_version'),
            (dict(configs=with_config(phase='install')), 'configs/0/phase'),
            (dict(configs=with_config(order=0)), 'configs/0/order'),
            (dict(configs=with_config(order=1025)), 'configs/0/order'),
            (dict(configs=with_config(values=[])), 'configs/0/values'),
            (dict(configs=with_config(extra=1)), 'configs/0/extra'),
            (dict(configs=[{'module': 'sysctl'}]),
             'configs/0/module_version'),
            (dict(configs=with_config(values={'options': {
                'vm.swappiness': -1}})),
             'configs/0/values/options/vm.swappiness'),
            (dict(configs=with_config(values={'nope': 1})),
             'configs/0/values'),
            (dict(configs=with_config(secret_values={'k': 1})),
             'configs/0/secret_values/k'),
            (dict(configs=with_config(secret_values=['x'])),
             'configs/0/secret_values'),
            (dict(configs=with_config(secret_values={'k': '******'})),
             'configs/0/secret_values/k'),
            (dict(selector={'match_expressions': [
                {'key': 'role', 'operator': 'Near'}]}),
             'machine_selector/match_expressions/0/operator'),
            (dict(selector={'matchLabels': {'a': 'b'}}),
             'machine_selector/matchLabels'),
            (dict(selector={'match_labels': {'role': 'bad value!'}}),
             'machine_selector/match_labels/role'),
            (dict(selector=['x']), 'machine_selector'),
            (dict(order=0), 'order'),
            (dict(order=1025), 'order'),
            (dict(max_concurrent=0), 'max_concurrent'),
            (dict(failure_threshold=0), 'failure_threshold'),
            (dict(failure_threshold='1'), 'failure_threshold'),
            (dict(uuid='x'), 'uuid'),
        ]
        for kwargs, field in cases:
            r = self.create_configuration(status=400, **kwargs)
            self.assert_field(r, 400, field)
        body = self.config_body()
        del body['configs']
        self.assert_field(self.post(URL, body, status=400), 400, 'configs')
        self.assertEqual([], self.get(URL).json['configurations'])
        self.assertEqual([], items_table())

    def test_values_schema_error_names_the_pointer(self):
        r = self.create_configuration(status=400, configs=[
            {'module': 'sysctl', 'module_version': '1.0.0',
             'values': {'options': {'vm.swappiness': 'high'}}}])
        message = self.assert_field(
            r, 400, 'configs/0/values/options/vm.swappiness')
        self.assertIn('integer', message)

    def test_unusable_module_409(self):
        self.make_module('sysctl', '2.0.0', state='error',
                         error='hashes are not the same')
        self.make_module('sysctl', '3.0.0', state='verifying')
        r = self.create_configuration(status=409, configs=[
            {'module': 'sysctl', 'module_version': '2.0.0'}])
        self.assertFault(r, 409, 'configs/0/module_version', 'error',
                         'hashes are not the same')
        r = self.create_configuration(status=409, configs=[
            {'module': 'sysctl', 'module_version': '3.0.0'}])
        self.assertFault(r, 409, 'verifying')

    def test_deprecated_module_usable(self):
        self.make_module('sysctl', '0.9.0', state='deprecated',
                         deprecated_by='1.0.0')
        self.create_configuration(configs=[
            {'module': 'sysctl', 'module_version': '0.9.0'}])


class TestRead(ConfigurationTestCase):

    def setUp(self):
        super().setUp()
        self.create_configuration(name='c1')
        self.create_configuration(name='c2', selector={
            'match_labels': {'role': 'storage'}})

    def test_list_counts_with_one_status_query(self):
        with mock.patch.object(
                type(self.db), 'list_hostos_item_status',
                autospec=True,
                side_effect=type(self.db).list_hostos_item_status) as m:
            docs = self.get(URL).json['configurations']
        self.assertEqual(1, m.call_count)
        self.assertEqual(['c1', 'c2'], [d['name'] for d in docs])
        self.assertEqual([2, 1], [d['nodes']['selected'] for d in docs])

    def test_status_filter(self):
        self.db.update_hostos_configuration(
            self.db.get_hostos_configuration('c2').id, {'status': 'paused'})
        docs = self.get(URL + '?status=paused').json['configurations']
        self.assertEqual(['c2'], [d['name'] for d in docs])
        # Held while paused.
        self.assertEqual(1, docs[0]['nodes']['waiting'])
        r = self.get(URL + '?status=sleeping', status=400)
        self.assert_field(r, 400, 'status')

    def test_404(self):
        r = self.get(URL + '/nope', status=404)
        self.assertFault(r, 404, 'nope')
        self.get(URL + '/nope/nodes', status=404)
        self.post(URL + '/nope/reapply', {}, status=404)
        self.post(URL + '/nope/resume', {}, status=404)
        self.patch(URL + '/nope', [], status=404)
        self.delete(URL + '/nope', status=404)

    def test_unknown_subresources(self):
        self.get(URL + '/c1/nope', status=404)
        self.get(URL + '/c1/nodes/x', status=404)
        for method in ('POST', 'PUT'):
            r = self.app.request(URL + '/c1', method=method,
                                 expect_errors=True)
            self.assertIn(r.status_int, (404, 405))
        self.app.patch_json(URL, [], status=405)
        self.app.delete(URL, status=405)

    def test_nodes_view(self):
        nodes = self.node_items('c1')
        self.assertEqual(['n1', 'n2'], [n['node_name'] for n in nodes])
        entry = nodes[0]
        self.assertEqual(self.n1.uuid, entry['node_uuid'])
        self.assertEqual('waiting', entry['state'])
        self.assertEqual(['host-os-download-c1-sysctl-1.0.0-reconfigure',
                          'host-os-c1-sysctl-1.0.0-reconfigure'],
                         [i['name'] for i in entry['items']])
        item = entry['items'][0]
        self.assertEqual({'name', 'runner', 'state', 'exit_code', 'attempt',
                          'started_at', 'finished_at', 'output', 'hash'},
                         set(item))
        self.assertEqual('downloader', item['runner'])
        self.assertEqual('waiting', item['state'])
        self.assertEqual(64, len(item['hash']))

    def test_nodes_filters(self):
        self.assertEqual(['n2'], [n['node_name'] for n in self.node_items(
            'c1', '?node=n2')])
        self.assertEqual(['n1'], [n['node_name'] for n in self.node_items(
            'c1', '?node=' + self.n1.uuid)])
        self.assertEqual([], self.node_items('c1', '?node=n3'))
        self.assertEqual(2, len(self.node_items('c1', '?state=waiting')))
        self.assertEqual([], self.node_items('c1', '?state=ok'))
        # Released by a heartbeat: pending.
        self.heartbeat(self.n1)
        self.assertEqual(['n1'], [n['node_name'] for n in self.node_items(
            'c1', '?state=pending')])
        r = self.get(URL + '/c1/nodes?state=bad', status=400)
        self.assert_field(r, 400, 'state')
        r = self.get(URL + '/c1/nodes?node=nosuch', status=400)
        self.assert_field(r, 400, 'node', 'nosuch')
        r = self.get(URL + '/c1/nodes?other=1', status=400)
        self.assert_field(r, 400, 'other')


class TestPatch(ConfigurationTestCase):

    def setUp(self):
        super().setUp()
        self.create_configuration()

    def test_selector_moves_items(self):
        db_test.release_all()
        doc = self.patch(URL + '/c1', [
            {'op': 'replace', 'path': '/machine_selector/match_labels/role',
             'value': 'storage'}]).json
        self.assertEqual({'role': 'storage'},
                         doc['machine_selector']['match_labels'])
        self.assertEqual(1, doc['nodes']['selected'])
        self.assertEqual(2, doc['nodes']['removing'])
        self.assertEqual(2, len(self.item_names(self.n3)))
        self.assertEqual([], self.item_names(self.n1))

    def test_configs_and_rollout_fields(self):
        doc = self.patch(URL + '/c1', [
            {'op': 'add', 'path': '/configs/-',
             'value': {'module': 'ntp', 'module_version': '1.0.0'}},
            {'op': 'replace', 'path': '/configs/0/values',
             'value': SWAPPINESS},
            {'op': 'replace', 'path': '/max_concurrent', 'value': 3},
            {'op': 'add', 'path': '/order', 'value': 7}]).json
        self.assertEqual(['sysctl', 'ntp'],
                         [c['module'] for c in doc['configs']])
        self.assertEqual(SWAPPINESS, doc['configs'][0]['values'])
        self.assertEqual((7, 3), (doc['order'], doc['max_concurrent']))
        self.assertEqual(4, len(self.item_names(self.n1)))
        doc = self.patch(URL + '/c1', [
            {'op': 'remove', 'path': '/max_concurrent'}]).json
        self.assertIsNone(doc['max_concurrent'])

    def test_revalidated_whole(self):
        cases = [
            ([{'op': 'replace', 'path': '/configs/0/values',
               'value': {'options': {'vm.swappiness': 'x'}}}],
             'configs/0/values/options/vm.swappiness'),
            ([{'op': 'remove', 'path': '/configs'}], 'configs'),
            ([{'op': 'replace', 'path': '/configs/0/module_version',
               'value': '7.0.0'}], 'configs/0/module_version'),
            ([{'op': 'replace', 'path': '/machine_selector',
               'value': {'match_expressions': [{'key': 'a'}]}}],
             'machine_selector/match_expressions/0/operator'),
            ([{'op': 'replace', 'path': '/failure_threshold', 'value': 0}],
             'failure_threshold'),
            # Read-only or unknown attributes.
            ([{'op': 'replace', 'path': '/name', 'value': 'c2'}], 'name'),
            ([{'op': 'replace', 'path': '/status', 'value': 'paused'}],
             'status'),
            ([{'op': 'replace', 'path': '/uuid', 'value': 'x'}], 'uuid'),
            ([{'op': 'add', 'path': '/nope', 'value': 'x'}], 'nope'),
            ([{'op': 'replace', 'path': '/order'}], 'order'),
        ]
        before = self.get(URL + '/c1').json
        for patch, field in cases:
            r = self.patch(URL + '/c1', patch, status=400)
            self.assert_field(r, 400, field)
        r = self.patch(URL + '/c1', [
            {'op': 'remove', 'path': '/configs/5'}], status=400)
        self.assertFault(r, 400, '/configs/5')
        self.patch(URL + '/c1', {'op': 'x'}, status=400)
        self.assertEqual(before, self.get(URL + '/c1').json)

    def test_deleting_409(self):
        configuration = self.db.get_hostos_configuration('c1')
        self.db.update_hostos_configuration(configuration.id,
                                            {'status': 'deleting'})
        r = self.patch(URL + '/c1', [
            {'op': 'replace', 'path': '/order', 'value': 1}], status=409)
        self.assertFault(r, 409, 'c1', 'deleted')


class TestSecrets(ConfigurationTestCase):

    def setUp(self):
        super().setUp()
        self.logs = self.useFixture(fixtures.FakeLogger(level=logging.DEBUG))
        self.create_configuration(configs=[
            {'module': 'sysctl', 'module_version': '1.0.0',
             'values': SWAPPINESS,
             'secret_values': {'password': SENTINEL, 'user': 'admin'}}])

    def ansible_hash(self):
        return next(row['spec_hash'] for row in items_table()
                    if row['node_id'] == self.n1.id
                    and row['runner'] == 'ansible')

    def assertNowhere(self, *responses):
        for response in responses:
            self.assertNotIn(SENTINEL, response.text)
        self.assertNotIn(SENTINEL, json.dumps(items_table(), default=str))
        self.assertNotIn(SENTINEL, self.logs.output)

    def test_masked_everywhere(self):
        doc = self.get(URL + '/c1').json
        self.assertEqual({'password': '******', 'user': '******'},
                         doc['configs'][0]['secret_values'])
        self.assertNotIn('secret_value_keys', doc['configs'][0])
        # Item params carry a digest only.
        params = [row['params'] for row in items_table()
                  if row['runner'] == 'ansible']
        self.assertTrue(all('secret_values_digest' in p for p in params))
        stored = self.db.get_hostos_configuration('c1')
        self.assertEqual([{'password': SENTINEL, 'user': 'admin'}],
                         stored.secret_values)
        self.assertNotIn(SENTINEL, json.dumps(stored.configs))
        self.assertNowhere(self.get(URL + '/c1'), self.get(URL),
                           self.get(URL + '/c1/nodes'),
                           self.get('/v1/hostos/modules'))

    def test_patch_keeps_masked_secrets(self):
        before = self.ansible_hash()
        r = self.patch(URL + '/c1', [
            {'op': 'replace', 'path': '/configs/0/values/state',
             'value': 'absent'}])
        stored = self.db.get_hostos_configuration('c1')
        self.assertEqual([{'password': SENTINEL, 'user': 'admin'}],
                         stored.secret_values)
        self.assertNotEqual(before, self.ansible_hash())
        self.assertNowhere(r)

    def test_patch_changes_a_secret(self):
        before = self.ansible_hash()
        r = self.patch(URL + '/c1', [
            {'op': 'replace', 'path': '/configs/0/secret_values/user',
             'value': 'root'}])
        self.assertEqual([{'password': SENTINEL, 'user': 'root'}],
                         self.db.get_hostos_configuration(
                             'c1').secret_values)
        # The digest changed, so the item runs again.
        self.assertNotEqual(before, self.ansible_hash())
        self.assertNowhere(r)
        r = self.patch(URL + '/c1', [
            {'op': 'remove', 'path': '/configs/0/secret_values'}])
        self.assertNotIn('secret_values', r.json['configs'][0])
        self.assertEqual([None], self.db.get_hostos_configuration(
            'c1').secret_values)

    def test_moved_config_keeps_its_secrets(self):
        self.patch(URL + '/c1', [
            {'op': 'add', 'path': '/configs/0',
             'value': {'module': 'ntp', 'module_version': '1.0.0'}}])
        self.assertEqual([None, {'password': SENTINEL, 'user': 'admin'}],
                         self.db.get_hostos_configuration(
                             'c1').secret_values)

    def test_secrets_not_in_errors(self):
        responses = [
            self.patch(URL + '/c1', [
                {'op': 'add', 'path': '/configs/0/secret_values/new',
                 'value': SENTINEL},
                {'op': 'remove', 'path': '/configs/0/values/nope'}],
                status=400),
            self.patch(URL + '/c1', [
                {'op': 'add', 'path': '/configs/0/secret_values/new',
                 'value': SENTINEL * 1000}], status=400),
            self.patch(URL + '/c1', [
                {'op': 'replace', 'path': '/configs/0/secret_values',
                 'value': {'k': SENTINEL}},
                {'op': 'add', 'path': '/configs/0/other', 'value': 1}],
                status=400),
            self.create_configuration(name='c2', status=400, configs=[
                {'module': 'sysctl', 'module_version': '1.0.0',
                 'secret_values': {'a': SENTINEL * 1000}}]),
            self.create_configuration(name='c3', status=400, configs=[
                {'module': 'sysctl', 'module_version': '1.0.0',
                 'values': {'state': 'bad'},
                 'secret_values': {'a': SENTINEL}}]),
        ]
        self.assertNowhere(*responses)


class TestDelete(ConfigurationTestCase):

    def test_without_items_gone_at_once(self):
        self.create_configuration(name='c9', selector={})
        self.delete(URL + '/c9', status=204)
        self.get(URL + '/c9', status=404)

    def test_with_items_deleting_then_delete_failed(self):
        self.config(delete_timeout=60, group='hostos')
        self.create_configuration()
        db_test.release_all()
        r = self.delete(URL + '/c1', status=202)
        self.assertEqual('deleting', r.json['status'])
        self.assertEqual(2, r.json['nodes']['removing'])
        self.assertEqual(0, r.json['nodes']['selected'])
        self.assertTrue(all(row['removed'] for row in items_table()))
        # Nothing can change it now.
        self.post(URL + '/c1/reapply', {}, status=409)
        # The timeout passes: the periodic's check names the nodes.
        configuration = self.db.get_hostos_configuration('c1')
        self.db.update_hostos_configuration(configuration.id, {
            'delete_started_at': timeutils.utcnow()
            - datetime.timedelta(seconds=120)})
        self.assertFalse(reconcile.finish_delete(
            self.db, self.db.get_hostos_configuration('c1')))
        doc = self.get(URL + '/c1').json
        self.assertEqual('delete_failed', doc['status'])
        self.assertIn('n1', doc['status_reason'])
        self.assertIn('n2', doc['status_reason'])
        # DELETE again waits anew.
        r = self.delete(URL + '/c1', status=202)
        self.assertEqual('deleting', r.json['status'])
        self.assertIsNone(r.json['status_reason'])
        started = self.db.get_hostos_configuration('c1').delete_started_at
        self.assertLess(timeutils.utcnow() - started,
                        datetime.timedelta(seconds=30))
        # Nodes that are gone are dropped with their items.
        self.db.destroy_node(self.n1.id)
        self.db.destroy_node(self.n2.id)
        self.delete(URL + '/c1', status=204)
        self.get(URL + '/c1', status=404)


class TestReapplyResume(ConfigurationTestCase):

    def setUp(self):
        super().setUp()
        self.create_configuration()

    def hashes(self, node):
        return {row['name']: row['spec_hash'] for row in items_table()
                if row['node_id'] == node.id}

    def test_reapply_changes_the_ansible_hashes(self):
        before1, before2 = self.hashes(self.n1), self.hashes(self.n2)
        r = self.post(URL + '/c1/reapply', {'nodes': ['n1']}, status=202)
        self.assertEqual(2, r.json['reapplied_items'])
        after1 = self.hashes(self.n1)
        ansible = 'host-os-c1-sysctl-1.0.0-reconfigure'
        download = 'host-os-download-c1-sysctl-1.0.0-reconfigure'
        self.assertNotEqual(before1[ansible], after1[ansible])
        self.assertEqual(before1[download], after1[download])
        self.assertEqual(before2, self.hashes(self.n2))
        # Without a body: every node.
        self.app.post(URL + '/c1/reapply', status=202)
        self.assertNotEqual(before2[ansible], self.hashes(self.n2)[ansible])

    def test_reapply_unknown_node_400(self):
        r = self.post(URL + '/c1/reapply', {'nodes': ['n1', 'nosuch']},
                      status=400)
        self.assert_field(r, 400, 'nodes/1', 'nosuch')
        r = self.post(URL + '/c1/reapply', {'nodes': 'n1'}, status=400)
        self.assert_field(r, 400, 'nodes')
        r = self.post(URL + '/c1/reapply', {'other': 1}, status=400)
        self.assert_field(r, 400, 'other')

    def test_resume(self):
        r = self.post(URL + '/c1/resume', {}, status=409)
        self.assertFault(r, 409, 'active', 'not paused')
        configuration = self.db.get_hostos_configuration('c1')
        self.db.update_hostos_configuration(configuration.id, {
            'status': 'paused', 'status_reason': 'rollout paused'})
        doc = self.post(URL + '/c1/resume', None, status=200).json
        self.assertEqual('active', doc['status'])
        self.assertIsNone(doc['status_reason'])
        self.assertIsNotNone(self.db.get_hostos_configuration(
            'c1').resumed_at)


class TestNodeLabels(ConfigurationTestCase):
    """Labels changed through PATCH /v1/nodes (the real conductor path)
    and the label_selector filter of node lists."""

    with_conductor = True

    def test_label_patch_moves_items(self):
        self.create_configuration()
        db_test.release_all()
        self.patch('/v1/nodes/n1', [
            {'op': 'replace', 'path': '/labels/role', 'value': 'storage'}])
        self.assertEqual(
            ['host-os-c1-sysctl-1.0.0-reconfigure',
             'host-os-download-c1-sysctl-1.0.0-reconfigure'],
            sorted(row['name'] for row in items_table()
                   if row['node_id'] == self.n1.id and row['removed']))
        self.patch('/v1/nodes/n3', [
            {'op': 'replace', 'path': '/labels/role', 'value': 'compute'}])
        self.assertEqual(2, len(self.item_names(self.n3)))
        doc = self.get(URL + '/c1').json
        self.assertEqual(2, doc['nodes']['selected'])
        self.assertEqual(1, doc['nodes']['removing'])

    def names(self, selector):
        return [n['name'] for n in self.get(
            '/v1/nodes?sort_key=name&label_selector=' + selector).json[
                'nodes']]

    def test_label_selector_filter(self):
        self.assertEqual(['n1', 'n2'], self.names('role=compute'))
        self.assertEqual(['n2'], self.names('role=compute,rack!=r1'))
        self.assertEqual(['n2', 'n3'], self.names('rack notin (r1)'))
        self.assertEqual(['n1', 'n2'], self.names('rack'))
        self.assertEqual(['n3'], self.names('!rack'))
        self.assertEqual(['n1', 'n3'],
                         self.names('role in (storage,compute),rack!=r2'))
        self.assertEqual([], self.names('role=nope'))
        # Paged: the filter is in the query, the page is full.
        doc = self.get('/v1/nodes?limit=1&sort_key=name&label_selector='
                       'role%3Dcompute').json
        self.assertEqual(['n1'], [n['name'] for n in doc['nodes']])
        self.assertIn('label_selector=role', doc['next'])

    def test_label_selector_400(self):
        for text in ('', '%20', 'a%3D%3D%3Db', 'role%20in%20(a', ',a'):
            r = self.get('/v1/nodes?label_selector=' + text, status=400)
            self.assert_field(r, 400, 'label_selector')


class TestPolicy(test_auth.KeystoneTestCase, ConfigurationTestCase):

    with_conductor = False

    def create_configuration(self, status=201, **kwargs):
        return self.post(URL, self.config_body(**kwargs), status=status,
                         headers=self.system('admin'))

    def test_reader_reads_not_writes(self):
        self.create_configuration()
        for headers in (self.system('reader'),):
            self.get(URL, headers=headers)
            self.get(URL + '/c1', headers=headers)
            self.get(URL + '/c1/nodes', headers=headers)
        for headers in (self.system('reader'), self.system('member'),
                        self.project('admin')):
            r = self.post(URL, self.config_body(name='c2'), headers=headers,
                          status=403)
            self.assertFault(r, 403, 'baremetal:hostos:write')
            self.patch(URL + '/c1', [], headers=headers, status=403)
            self.delete(URL + '/c1', headers=headers, status=403)
            self.post(URL + '/c1/reapply', {}, headers=headers, status=403)
            self.post(URL + '/c1/resume', {}, headers=headers, status=403)
        self.get(URL + '/c1', headers=self.project('reader'), status=403)
