"""/v1/chassis, /v1/chassis/{uuid}/nodes and the node's chassis_uuid."""

import urllib.parse
from unittest import mock

from oslo_utils import uuidutils

from ironic_like.db.sqlalchemy import api as sa_api
from ironic_like.tests.unit.api import base


def _query(url):
    return urllib.parse.parse_qs(urllib.parse.urlsplit(url).query)


class TestReadChassis(base.APITestCase):

    def setUp(self):
        super().setUp()
        self.c1 = self.db.create_chassis({'description': 'rack 1',
                                          'extra': {'row': 'a'}})
        self.c2 = self.db.create_chassis({'description': 'rack 2'})

    def test_short_list(self):
        items = self.get('/v1/chassis').json['chassis']
        self.assertEqual([{'uuid', 'description', 'links'}] * 2,
                         [set(c) for c in items])
        self.assertEqual([self.c1.uuid, self.c2.uuid],
                         [c['uuid'] for c in items])
        self.assertEqual(
            [{'href': 'http://localhost/v1/chassis/%s' % self.c1.uuid,
              'rel': 'self'},
             {'href': 'http://localhost/chassis/%s' % self.c1.uuid,
              'rel': 'bookmark'}], items[0]['links'])

    def test_detail(self):
        for url in ('/v1/chassis/detail', '/v1/chassis?detail=true'):
            doc = self.get(url).json['chassis'][0]
            self.assertEqual({'uuid', 'description', 'extra', 'created_at',
                              'updated_at', 'links', 'nodes'}, set(doc))
            self.assertEqual({'row': 'a'}, doc['extra'])
            self.assertTrue(doc['created_at'].endswith('+00:00'))
            self.assertEqual(
                [{'href': 'http://localhost/v1/chassis/%s/nodes'
                          % self.c1.uuid, 'rel': 'self'},
                 {'href': 'http://localhost/chassis/%s/nodes'
                          % self.c1.uuid, 'rel': 'bookmark'}],
                doc['nodes'])

    def test_detail_param_version(self):
        r = self.get('/v1/chassis?detail=true', version='1.42', status=406)
        self.assertFault(r, 406, 'detail')
        self.get('/v1/chassis/detail?detail=true', status=400)
        self.get('/v1/chassis?detail=true&fields=uuid', status=400)
        self.get('/v1/chassis?detail=maybe', status=400)
        self.assertEqual({'uuid', 'description', 'links'}, set(
            self.get('/v1/chassis?detail=false').json['chassis'][0]))

    def test_fields(self):
        items = self.get('/v1/chassis?fields=extra').json['chassis']
        self.assertEqual({'extra', 'links'}, set(items[0]))
        doc = self.get('/v1/chassis/%s?fields=description,nodes'
                       % self.c1.uuid).json
        self.assertEqual({'description', 'nodes', 'links'}, set(doc))
        r = self.get('/v1/chassis?fields=nope', status=400)
        self.assertFault(r, 400, 'nope')
        r = self.get('/v1/chassis?fields=extra', version='1.7', status=406)
        self.assertFault(r, 406, 'fields')
        self.get('/v1/chassis/%s?fields=uuid' % self.c1.uuid,
                 version='1.7', status=406)
        self.get('/v1/chassis/detail?fields=uuid', status=400)

    def test_pagination(self):
        doc = self.get('/v1/chassis?limit=1').json
        self.assertEqual([self.c1.uuid], [c['uuid'] for c in doc['chassis']])
        self.assertTrue(doc['next'].startswith(
            'http://localhost/v1/chassis?'))
        self.assertEqual([self.c1.uuid], _query(doc['next'])['marker'])
        rest = self.get(doc['next'].replace('http://localhost', '')).json
        self.assertEqual([self.c2.uuid],
                         [c['uuid'] for c in rest['chassis']])
        self.assertNotIn('next', self.get('/v1/chassis?limit=5').json)
        doc = self.get('/v1/chassis/detail?limit=1&sort_dir=desc').json
        self.assertEqual([self.c2.uuid], [c['uuid'] for c in doc['chassis']])
        self.assertTrue(doc['next'].startswith(
            'http://localhost/v1/chassis/detail?'))
        self.assertEqual(['desc'], _query(doc['next'])['sort_dir'])
        doc = self.get('/v1/chassis?sort_key=description&sort_dir=desc')
        self.assertEqual([self.c2.uuid, self.c1.uuid],
                         [c['uuid'] for c in doc.json['chassis']])

    def test_bad_list_parameters(self):
        for query, field in (('marker=nope', 'marker'),
                             ('marker=%s' % uuidutils.generate_uuid(),
                              'marker'),
                             ('sort_key=extra', 'sort_key'),
                             ('sort_dir=up', 'sort_dir'),
                             ('limit=0', 'limit'),
                             ('colour=red', 'colour')):
            r = self.get('/v1/chassis?' + query, status=400)
            self.assertFault(r, 400, field)

    def test_get_one(self):
        doc = self.get('/v1/chassis/%s' % self.c1.uuid).json
        self.assertEqual('rack 1', doc['description'])
        self.assertEqual({'row': 'a'}, doc['extra'])
        self.assertIn('nodes', doc)

    def test_get_one_errors(self):
        r = self.get('/v1/chassis/%s' % uuidutils.generate_uuid(),
                     status=404)
        self.assertFault(r, 404, 'Chassis')
        r = self.get('/v1/chassis/rack1', status=400)
        self.assertFault(r, 400, 'UUID')
        self.get('/v1/chassis/%s/ports' % self.c1.uuid, status=404)

    def test_root_document_links(self):
        doc = self.get('/v1').json
        self.assertEqual(
            [{'href': 'http://localhost/v1/chassis/', 'rel': 'self'},
             {'href': 'http://localhost/chassis/', 'rel': 'bookmark'}],
            doc['chassis'])


class TestWriteChassis(base.APITestCase):

    def test_create(self):
        r = self.post('/v1/chassis', {'description': 'rack 1',
                                      'extra': {'row': 'a'}})
        doc = r.json
        self.assertEqual('rack 1', doc['description'])
        self.assertEqual({'row': 'a'}, doc['extra'])
        self.assertEqual('http://localhost/v1/chassis/%s' % doc['uuid'],
                         r.headers['Location'])
        self.assertIn('nodes', doc)
        chassis = self.db.get_chassis_by_uuid(doc['uuid'])
        self.assertEqual('rack 1', chassis.description)

    def test_create_defaults_and_uuid(self):
        doc = self.post('/v1/chassis', {}).json
        self.assertIsNone(doc['description'])
        self.assertEqual({}, doc['extra'])
        given = uuidutils.generate_uuid()
        doc = self.post('/v1/chassis', {'uuid': given, 'extra': None}).json
        self.assertEqual(given, doc['uuid'])
        self.assertEqual({}, doc['extra'])
        r = self.post('/v1/chassis', {'uuid': given}, status=409)
        self.assertFault(r, 409, given)

    def test_create_errors(self):
        r = self.post('/v1/chassis', {'description': 'x' * 256},
                      status=400)
        self.assertFault(r, 400, 'field/attribute description')
        self.post('/v1/chassis', {'description': 'x' * 255})
        r = self.post('/v1/chassis', {'colour': 'red'}, status=400)
        self.assertFault(r, 400, 'field/attribute colour')
        for body, field in (({'description': 5}, 'description'),
                            ({'extra': 'x'}, 'extra'),
                            ({'uuid': 'nope'}, 'uuid'),
                            ({'created_at': 'x'}, 'created_at'),
                            ({'nodes': []}, 'nodes')):
            r = self.post('/v1/chassis', body, status=400)
            self.assertFault(r, 400, 'field/attribute %s' % field)
        r = self.raw('POST', '/v1/chassis', b'[1]', 400)
        self.assertFault(r, 400)

    def test_patch(self):
        chassis = self.db.create_chassis({'description': 'a'})
        url = '/v1/chassis/%s' % chassis.uuid
        doc = self.patch(url, [
            {'op': 'replace', 'path': '/description', 'value': 'b'},
            {'op': 'add', 'path': '/extra/row', 'value': 'c'}]).json
        self.assertEqual('b', doc['description'])
        self.assertEqual({'row': 'c'}, doc['extra'])
        stored = self.db.get_chassis_by_uuid(chassis.uuid)
        self.assertEqual('b', stored.description)
        self.assertEqual({'row': 'c'}, stored.extra)
        doc = self.patch(url, [{'op': 'remove', 'path': '/description'},
                               {'op': 'remove', 'path': '/extra'}]).json
        self.assertIsNone(doc['description'])
        self.assertEqual({}, doc['extra'])

    def test_patch_errors(self):
        chassis = self.db.create_chassis({})
        url = '/v1/chassis/%s' % chassis.uuid
        for path in ('/uuid', '/created_at', '/nodes', '/links'):
            r = self.patch(url, [{'op': 'replace', 'path': path,
                                  'value': 'x'}], status=400)
            self.assertFault(r, 400, 'internal attribute')
        r = self.patch(url, [{'op': 'add', 'path': '/colour',
                              'value': 'red'}], status=400)
        self.assertFault(r, 400, 'field/attribute colour')
        r = self.patch(url, [{'op': 'replace', 'path': '/description',
                              'value': 'x' * 256}], status=400)
        self.assertFault(r, 400, 'field/attribute description')
        r = self.patch(url, [{'op': 'replace', 'path': '/extra',
                              'value': 'x'}], status=400)
        self.assertFault(r, 400, 'field/attribute extra')
        self.patch('/v1/chassis/%s' % uuidutils.generate_uuid(),
                   [{'op': 'add', 'path': '/extra/a', 'value': 1}],
                   status=404)
        self.patch('/v1/chassis/nope', [], status=400)
        r = self.app.patch_json('/v1/chassis', [], headers=base.LATEST,
                                status=405)
        self.assertFault(r, 405)

    def test_delete(self):
        chassis = self.db.create_chassis({})
        self.delete('/v1/chassis/%s' % chassis.uuid)
        self.get('/v1/chassis/%s' % chassis.uuid, status=404)
        self.delete('/v1/chassis/%s' % chassis.uuid, status=404)
        self.delete('/v1/chassis/nope', status=400)

    def test_delete_with_nodes_400(self):
        chassis = self.db.create_chassis({})
        self.create_node(chassis_id=chassis.id)
        r = self.delete('/v1/chassis/%s' % chassis.uuid, status=400)
        self.assertFault(r, 400, 'chassis %s contains nodes'
                         % chassis.uuid)
        self.db.get_chassis_by_uuid(chassis.uuid)


class TestChassisNodes(base.APITestCase):

    def setUp(self):
        super().setUp()
        self.chassis = self.db.create_chassis({})
        self.other = self.db.create_chassis({})
        self.n1 = self.create_node(name='n1', chassis_id=self.chassis.id)
        self.n2 = self.create_node(name='n2', chassis_id=self.chassis.id,
                                   maintenance=True)
        self.n3 = self.create_node(name='n3', chassis_id=self.other.id)
        self.n4 = self.create_node(name='n4')
        self.url = '/v1/chassis/%s/nodes' % self.chassis.uuid

    def names(self, url, **kwargs):
        return [n['name'] for n in self.get(url, **kwargs).json['nodes']]

    def test_list(self):
        self.assertEqual(['n1', 'n2'], self.names(self.url))
        self.assertEqual(['n2'], self.names(self.url + '?maintenance=true'))
        self.assertEqual(['n3'], self.names(
            '/v1/chassis/%s/nodes' % self.other.uuid))
        nodes = self.get(self.url + '/detail').json['nodes']
        self.assertEqual([self.chassis.uuid] * 2,
                         [n['chassis_uuid'] for n in nodes])
        nodes = self.get(self.url + '?fields=chassis_uuid').json['nodes']
        self.assertEqual({'chassis_uuid', 'links'}, set(nodes[0]))

    def test_next_link_stays_under_the_chassis(self):
        doc = self.get(self.url + '?limit=1').json
        self.assertTrue(doc['next'].startswith(
            'http://localhost%s?' % self.url), doc['next'])
        rest = self.get(doc['next'].replace('http://localhost', '')).json
        self.assertEqual(['n2'], [n['name'] for n in rest['nodes']])
        doc = self.get(self.url + '/detail?limit=1').json
        self.assertTrue(doc['next'].startswith(
            'http://localhost%s/detail?' % self.url), doc['next'])

    def test_errors(self):
        r = self.get('/v1/chassis/%s/nodes' % uuidutils.generate_uuid(),
                     status=404)
        self.assertFault(r, 404, 'Chassis')
        self.get('/v1/chassis/nope/nodes', status=400)
        # The chassis is the path's: no chassis_uuid parameter.
        r = self.get(self.url + '?chassis_uuid=%s' % self.other.uuid,
                     status=400)
        self.assertFault(r, 400, 'chassis_uuid')
        self.get(self.url + '/detail?fields=uuid', status=400)
        r = self.app.post_json(self.url, {'driver': 'fake-hardware'},
                               headers=base.LATEST, status=405)
        self.assertFault(r, 405)

    def test_node_list_filter(self):
        self.assertEqual(['n1', 'n2'], self.names(
            '/v1/nodes?chassis_uuid=%s' % self.chassis.uuid))
        self.assertEqual(['n3'], self.names(
            '/v1/nodes/detail?chassis_uuid=%s' % self.other.uuid))
        # As Ironic: an unknown chassis is 404 ChassisNotFound.
        r = self.get('/v1/nodes?chassis_uuid=%s' % uuidutils.generate_uuid(),
                     status=404)
        self.assertFault(r, 404, 'Chassis')
        r = self.get('/v1/nodes?chassis_uuid=nope', status=400)
        self.assertFault(r, 400, 'chassis_uuid')

    def test_node_page_looks_chassis_up_once(self):
        with mock.patch.object(sa_api.Connection, 'get_chassis_uuids',
                               autospec=True,
                               side_effect=sa_api.Connection.
                               get_chassis_uuids) as lookup:
            self.get('/v1/nodes/detail')
            self.assertEqual(1, lookup.call_count)
            self.assertEqual({self.chassis.id, self.other.id},
                             set(lookup.call_args[0][1]))
            # A view without chassis_uuid looks nothing up.
            self.get('/v1/nodes')
            self.assertEqual(1, lookup.call_count)

    def test_node_views(self):
        doc = self.get('/v1/nodes/n1').json
        self.assertEqual(self.chassis.uuid, doc['chassis_uuid'])
        self.assertIsNone(self.get('/v1/nodes/n4').json['chassis_uuid'])
        by_name = {n['name']: n['chassis_uuid'] for n in
                   self.get('/v1/nodes/detail').json['nodes']}
        self.assertEqual({'n1': self.chassis.uuid, 'n2': self.chassis.uuid,
                          'n3': self.other.uuid, 'n4': None}, by_name)
        # Not in the short form, as Ironic.
        self.assertNotIn('chassis_uuid', self.get('/v1/nodes').json[
            'nodes'][0])
        doc = self.get('/v1/nodes/n3?fields=chassis_uuid').json
        self.assertEqual({'chassis_uuid': self.other.uuid,
                          'links': doc['links']}, doc)


class TestNodeChassisWrites(base.APITestCase):

    with_conductor = True

    def setUp(self):
        super().setUp()
        self.chassis = self.db.create_chassis({})
        self.other = self.db.create_chassis({})

    def test_create_node_in_chassis(self):
        doc = self.post('/v1/nodes', {'driver': 'fake-hardware',
                                      'chassis_uuid': self.chassis.uuid}).json
        self.assertEqual(self.chassis.uuid, doc['chassis_uuid'])
        node = self.db.get_node_by_uuid(doc['uuid'])
        self.assertEqual(self.chassis.id, node.chassis_id)
        doc = self.post('/v1/nodes', {'driver': 'fake-hardware',
                                      'chassis_uuid': None}).json
        self.assertIsNone(doc['chassis_uuid'])

    def test_create_node_errors(self):
        r = self.post('/v1/nodes', {'driver': 'fake-hardware',
                                    'chassis_uuid':
                                        uuidutils.generate_uuid()},
                      status=400)
        self.assertFault(r, 400, 'field/attribute chassis_uuid')
        r = self.post('/v1/nodes', {'driver': 'fake-hardware',
                                    'chassis_uuid': 'nope'}, status=400)
        self.assertFault(r, 400, 'field/attribute chassis_uuid')

    def test_patch_node_chassis(self):
        node = self.create_node(name='n1')
        url = '/v1/nodes/n1'
        doc = self.patch(url, [{'op': 'add', 'path': '/chassis_uuid',
                                'value': self.chassis.uuid}]).json
        self.assertEqual(self.chassis.uuid, doc['chassis_uuid'])
        self.assertEqual(self.chassis.id,
                         self.db.get_node_by_id(node.id).chassis_id)
        doc = self.patch(url, [{'op': 'replace', 'path': '/chassis_uuid',
                                'value': self.other.uuid}]).json
        self.assertEqual(self.other.uuid, doc['chassis_uuid'])
        # An unchanged chassis and another field: no chassis look-up fails.
        doc = self.patch(url, [{'op': 'add', 'path': '/extra/a',
                                'value': 1}]).json
        self.assertEqual(self.other.uuid, doc['chassis_uuid'])
        doc = self.patch(url, [{'op': 'remove',
                                'path': '/chassis_uuid'}]).json
        self.assertIsNone(doc['chassis_uuid'])
        self.assertIsNone(self.db.get_node_by_id(node.id).chassis_id)
        # The chassis is empty again and may go.
        self.delete('/v1/chassis/%s' % self.other.uuid)

    def test_patch_node_errors(self):
        self.create_node(name='n1', chassis_id=self.chassis.id)
        url = '/v1/nodes/n1'
        r = self.patch(url, [{'op': 'replace', 'path': '/chassis_uuid',
                              'value': uuidutils.generate_uuid()}],
                       status=400)
        self.assertFault(r, 400, 'field/attribute chassis_uuid')
        r = self.patch(url, [{'op': 'replace', 'path': '/chassis_uuid',
                              'value': 'nope'}], status=400)
        self.assertFault(r, 400, 'field/attribute chassis_uuid')

    def test_remove_needs_1_25(self):
        node = self.create_node(name='n1', chassis_id=self.chassis.id)
        # Ironic answers NotAcceptable, whether by remove or by null.
        for op in ({'op': 'remove', 'path': '/chassis_uuid'},
                   {'op': 'replace', 'path': '/chassis_uuid',
                    'value': None}):
            r = self.patch('/v1/nodes/%s' % node.uuid, [op],
                           version='1.24', status=406)
            self.assertFault(r, 406, 'chassis_uuid', '1.25')
        self.assertEqual(self.chassis.id,
                         self.db.get_node_by_id(node.id).chassis_id)
        # Setting one is fine before 1.25.
        doc = self.patch('/v1/nodes/%s' % node.uuid, [
            {'op': 'replace', 'path': '/chassis_uuid',
             'value': self.other.uuid}], version='1.24').json
        self.assertEqual(self.other.uuid, doc['chassis_uuid'])
        doc = self.patch('/v1/nodes/%s' % node.uuid, [
            {'op': 'remove', 'path': '/chassis_uuid'}], version='1.25').json
        self.assertIsNone(doc['chassis_uuid'])


class TestChassisPolicy(base.APITestCase):

    auth_strategy = 'keystone'

    def make_app(self, **kwargs):
        return super().make_app(skip_auth_token=True)

    @staticmethod
    def project(roles, project='p1'):
        return {'X-Roles': roles, 'X-Project-Id': project,
                'X-User-Id': 'u1'}

    @staticmethod
    def system(roles):
        return {'X-Roles': roles, 'OpenStack-System-Scope': 'all',
                'X-User-Id': 'u1'}

    def setUp(self):
        super().setUp()
        self.chassis = self.db.create_chassis({})
        self.url = '/v1/chassis/%s' % self.chassis.uuid
        self.create_node(name='mine', owner='p1',
                         chassis_id=self.chassis.id)
        self.create_node(name='theirs', owner='p2',
                         chassis_id=self.chassis.id)

    def _refused(self, headers, reads=True, writes=True):
        if reads:
            for url in ('/v1/chassis', '/v1/chassis/detail', self.url):
                r = self.get(url, headers=headers, status=403)
                self.assertFault(r, 403, 'baremetal:chassis:get')
        if writes:
            r = self.post('/v1/chassis', {}, headers=headers, status=403)
            self.assertFault(r, 403, 'baremetal:chassis:create')
            r = self.delete(self.url, headers=headers, status=403)
            self.assertFault(r, 403, 'baremetal:chassis:delete')

    def test_project_users_refused(self):
        for roles in ('admin', 'member', 'reader'):
            headers = self.project(roles)
            self._refused(headers)
            r = self.patch(self.url, [{'op': 'add', 'path': '/extra/a',
                                       'value': 1}], headers=headers,
                           status=403)
            self.assertFault(r, 403, 'baremetal:chassis:update')

    def test_project_user_lists_own_nodes_of_chassis(self):
        # The nodes sub-resource is the node list: its policy and scope.
        doc = self.get(self.url + '/nodes', headers=self.project('reader'))
        self.assertEqual(['mine'], [n['name'] for n in doc.json['nodes']])
        doc = self.get(self.url + '/nodes', headers=self.system('reader'))
        self.assertEqual(['mine', 'theirs'],
                         [n['name'] for n in doc.json['nodes']])

    def test_system_roles(self):
        reader = self.system('reader')
        self.get('/v1/chassis', headers=reader)
        self.get(self.url, headers=reader)
        self._refused(reader, reads=False)
        self.patch(self.url, [{'op': 'add', 'path': '/extra/a',
                               'value': 1}], headers=reader, status=403)
        member = self.system('member')
        # As Ironic: members change chassis, admins create and delete.
        self.patch(self.url, [{'op': 'add', 'path': '/extra/a',
                               'value': 1}], headers=member)
        self._refused(member, reads=False)
        admin = self.system('admin')
        doc = self.post('/v1/chassis', {}, headers=admin).json
        self.delete('/v1/chassis/%s' % doc['uuid'], headers=admin)
