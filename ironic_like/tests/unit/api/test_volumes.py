"""/v1/volume, /v1/volume/connectors, /v1/volume/targets and
/v1/nodes/{id}/volume (API 1.32)."""

import urllib.parse

from oslo_utils import uuidutils

from ironic_like.common import states
from ironic_like.tests.unit.api import base
from ironic_like.tests.unit.api import test_auth

IQN = 'iqn.2017-05.org.openstack:node1'
VOLUME_ID = '04452bed-5367-4202-8bf5-de4335ac56d2'


class VolumeTestMixin(object):

    def create_connector(self, node, **values):
        values.setdefault('type', 'iqn')
        values.setdefault('connector_id',
                          'iqn.test:%s' % uuidutils.generate_uuid())
        values['node_id'] = node.id
        return self.db.create_volume_connector(values)

    def create_target(self, node, **values):
        values.setdefault('volume_type', 'iscsi')
        values.setdefault('volume_id', uuidutils.generate_uuid())
        values.setdefault('boot_index', 0)
        values['node_id'] = node.id
        return self.db.create_volume_target(values)


class TestVersions(base.APITestCase, VolumeTestMixin):

    def test_404_below_1_32(self):
        node = self.create_node(name='n1')
        connector = self.create_connector(node)
        target = self.create_target(node)
        for url in ('/v1/volume', '/v1/volume/connectors',
                    '/v1/volume/targets',
                    '/v1/volume/connectors/%s' % connector.uuid,
                    '/v1/volume/targets/%s' % target.uuid,
                    '/v1/nodes/n1/volume', '/v1/nodes/n1/volume/connectors',
                    '/v1/nodes/n1/volume/targets'):
            self.get(url, version='1.31', status=404)
            self.get(url, version='1.32')
        self.post('/v1/volume/connectors',
                  {'node_uuid': node.uuid, 'type': 'iqn',
                   'connector_id': IQN}, version='1.31', status=404)
        self.patch('/v1/volume/targets/%s' % target.uuid,
                   [{'op': 'add', 'path': '/extra/a', 'value': 1}],
                   version='1.31', status=404)
        self.delete('/v1/volume/targets/%s' % target.uuid, version='1.31',
                    status=404)
        self.assertEqual(1, len(self.db.get_volume_target_list()))

    def test_v1_document(self):
        self.assertNotIn('volume', self.get('/v1', version='1.31').json)
        doc = self.get('/v1', version='1.32').json
        self.assertEqual('http://localhost/v1/volume/',
                         doc['volume'][0]['href'])


class TestReadVolumes(base.APITestCase, VolumeTestMixin):

    def setUp(self):
        super().setUp()
        self.n1 = self.create_node(name='n1')
        self.n2 = self.create_node(name='n2')
        self.c1 = self.create_connector(self.n1, connector_id=IQN,
                                        extra={'a': 1})
        self.c2 = self.create_connector(self.n2, type='wwpn',
                                        connector_id='50:06:01:60:3c:e0')
        self.t1 = self.create_target(self.n1, volume_id=VOLUME_ID,
                                     properties={'target_lun': 0,
                                                 'auth_password': 'pw'})
        self.t2 = self.create_target(self.n2, boot_index=1)

    def test_root(self):
        doc = self.get('/v1/volume').json
        self.assertEqual({'links', 'connectors', 'targets'}, set(doc))
        self.assertEqual(
            [{'href': 'http://localhost/v1/volume/connectors',
              'rel': 'self'},
             {'href': 'http://localhost/volume/connectors',
              'rel': 'bookmark'}], doc['connectors'])
        self.assertEqual('http://localhost/v1/volume/targets',
                         doc['targets'][0]['href'])
        self.assertEqual('http://localhost/v1/volume/',
                         doc['links'][0]['href'])
        doc = self.get('/v1/nodes/n1/volume').json
        self.assertEqual('http://localhost/v1/nodes/n1/volume/connectors',
                         doc['connectors'][0]['href'])
        self.get('/v1/nodes/nobody/volume', status=404)
        self.get('/v1/volume?x=1', status=400)

    def test_connector_short_list(self):
        items = self.get('/v1/volume/connectors').json['connectors']
        self.assertEqual([{'uuid', 'node_uuid', 'type', 'connector_id',
                           'links'}] * 2, [set(c) for c in items])
        self.assertEqual(self.n1.uuid, items[0]['node_uuid'])
        self.assertEqual(
            {'href': 'http://localhost/v1/volume/connectors/%s'
                     % self.c1.uuid, 'rel': 'self'}, items[0]['links'][0])

    def test_connector_detail(self):
        items = self.get('/v1/volume/connectors?detail=True').json[
            'connectors']
        doc = items[0]
        self.assertEqual({'uuid', 'node_uuid', 'type', 'connector_id',
                          'extra', 'created_at', 'updated_at', 'links'},
                         set(doc))
        self.assertEqual({'a': 1}, doc['extra'])
        self.assertEqual(IQN, doc['connector_id'])
        # From 1.32 on, not 1.43 as for other resources.
        self.get('/v1/volume/connectors?detail=True', version='1.32')
        self.get('/v1/volume/connectors?detail=maybe', status=400)
        r = self.get('/v1/volume/connectors?detail=True&fields=uuid',
                     status=400)
        self.assertFault(r, 400, 'detail')

    def test_target_lists(self):
        items = self.get('/v1/volume/targets').json['targets']
        self.assertEqual([{'uuid', 'node_uuid', 'volume_type', 'boot_index',
                           'volume_id', 'links'}] * 2,
                         [set(t) for t in items])
        doc = self.get('/v1/volume/targets?detail=true').json['targets'][0]
        self.assertEqual(VOLUME_ID, doc['volume_id'])
        self.assertEqual(0, doc['boot_index'])
        self.assertEqual({}, doc['extra'])
        # noauth is a cloud admin: it sees the properties, secrets masked.
        self.assertEqual({'target_lun': 0, 'auth_password': '******'},
                         doc['properties'])

    def test_fields(self):
        items = self.get('/v1/volume/connectors?fields=type').json[
            'connectors']
        self.assertEqual({'type', 'links'}, set(items[0]))
        self.get('/v1/volume/connectors?fields=nope', status=400)
        doc = self.get('/v1/volume/targets/%s?fields=volume_id,extra'
                       % self.t1.uuid).json
        self.assertEqual({'volume_id', 'extra', 'links'}, set(doc))

    def test_node_filter(self):
        def uuids(url, key):
            return [x['uuid'] for x in self.get(url).json[key]]
        self.assertEqual([self.c1.uuid], uuids(
            '/v1/volume/connectors?node=n1', 'connectors'))
        self.assertEqual([self.t2.uuid], uuids(
            '/v1/volume/targets?node=%s' % self.n2.uuid, 'targets'))
        self.assertEqual([self.c2.uuid], uuids(
            '/v1/nodes/n2/volume/connectors', 'connectors'))
        self.assertEqual([self.t1.uuid], uuids(
            '/v1/nodes/%s/volume/targets' % self.n1.uuid, 'targets'))
        self.get('/v1/volume/connectors?node=nobody', status=404)
        self.get('/v1/nodes/nobody/volume/targets', status=404)
        # The node's lists take no node filter.
        self.get('/v1/nodes/n1/volume/targets?node=n2', status=400)
        self.get('/v1/volume/targets?address=x', status=400)

    def test_node_lists_read_only(self):
        r = self.app.post_json('/v1/nodes/n1/volume/connectors',
                               {'type': 'iqn'}, headers=base.LATEST,
                               status=405)
        self.assertFault(r, 405)
        self.app.delete('/v1/nodes/n1/volume/targets/%s' % self.t1.uuid,
                        headers=base.LATEST, status=405)
        self.app.get('/v1/nodes/n1/volume/connectors/%s' % self.c1.uuid,
                     headers=base.LATEST, status=405)
        self.assertEqual(2, len(self.db.get_volume_target_list()))

    def test_pagination_and_sorting(self):
        doc = self.get('/v1/volume/connectors?limit=1').json
        self.assertEqual([self.c1.uuid],
                         [c['uuid'] for c in doc['connectors']])
        self.assertTrue(doc['next'].startswith(
            'http://localhost/v1/volume/connectors?'))
        query = urllib.parse.parse_qs(urllib.parse.urlsplit(
            doc['next']).query)
        self.assertEqual([self.c1.uuid], query['marker'])
        rest = self.get(doc['next'].replace('http://localhost', '')).json
        self.assertEqual([self.c2.uuid],
                         [c['uuid'] for c in rest['connectors']])
        doc = self.get('/v1/nodes/n1/volume/targets?limit=1').json
        self.assertTrue(doc['next'].startswith(
            'http://localhost/v1/nodes/n1/volume/targets?'))
        doc = self.get('/v1/volume/targets?sort_key=boot_index'
                       '&sort_dir=desc').json
        self.assertEqual([self.t2.uuid, self.t1.uuid],
                         [t['uuid'] for t in doc['targets']])
        for query in ('sort_key=extra', 'sort_key=properties',
                      'sort_dir=up', 'marker=nope', 'limit=0',
                      'marker=%s' % uuidutils.generate_uuid()):
            self.get('/v1/volume/targets?' + query, status=400)

    def test_get_one(self):
        doc = self.get('/v1/volume/connectors/%s' % self.c1.uuid).json
        self.assertEqual(IQN, doc['connector_id'])
        self.assertEqual(self.n1.uuid, doc['node_uuid'])
        self.assertEqual({'a': 1}, doc['extra'])
        doc = self.get('/v1/volume/targets/%s' % self.t1.uuid).json
        self.assertEqual('iscsi', doc['volume_type'])
        self.assertEqual(0, doc['properties']['target_lun'])

    def test_get_one_errors(self):
        for kind, fault in (('connectors', 'Volume connector'),
                            ('targets', 'Volume target')):
            r = self.get('/v1/volume/%s/%s' % (kind,
                                               uuidutils.generate_uuid()),
                         status=404)
            self.assertFault(r, 404, fault)
            r = self.get('/v1/volume/%s/not-a-uuid' % kind, status=400)
            self.assertFault(r, 400, 'UUID')
            self.get('/v1/volume/%s/%s?detail=true' % (kind, self.c1.uuid),
                     status=400)


class TestWriteVolumes(base.APITestCase, VolumeTestMixin):

    with_conductor = True

    def setUp(self):
        super().setUp()
        self.node = self.create_node(name='n1')
        self.other = self.create_node(name='n2')

    # -- connectors ---------------------------------------------------------

    def test_create_connector(self):
        body = {'node_uuid': self.node.uuid, 'type': 'iqn',
                'connector_id': IQN, 'extra': {'x': 1}}
        r = self.post('/v1/volume/connectors', body)
        doc = r.json
        self.assertEqual('http://localhost/v1/volume/connectors/%s'
                         % doc['uuid'], r.headers['Location'])
        self.assertEqual(self.node.uuid, doc['node_uuid'])
        self.assertEqual({'x': 1}, doc['extra'])
        row = self.db.get_volume_connector_by_uuid(doc['uuid'])
        self.assertEqual((self.node.id, 'iqn', IQN),
                         (row.node_id, row.type, row.connector_id))
        # A UUID of the caller's, and the other types.
        uuid = uuidutils.generate_uuid()
        doc = self.post('/v1/volume/connectors', {
            'node_uuid': self.node.uuid, 'type': 'mac', 'uuid': uuid,
            'connector_id': '52:54:00:00:00:01'}).json
        self.assertEqual(uuid, doc['uuid'])
        self.assertEqual({}, doc['extra'])
        for kind in ('ip', 'wwnn', 'wwpn', 'port', 'portgroup'):
            self.post('/v1/volume/connectors', {
                'node_uuid': self.node.uuid, 'type': kind,
                'connector_id': 'id-' + kind})

    def test_create_connector_errors(self):
        good = {'node_uuid': self.node.uuid, 'type': 'iqn',
                'connector_id': IQN}
        for name in ('node_uuid', 'type', 'connector_id'):
            body = dict(good)
            del body[name]
            r = self.post('/v1/volume/connectors', body, status=400)
            self.assertFault(r, 400, name)
        for name, value in (('type', 'nvme'), ('connector_id', ''),
                            ('node_uuid', 'n1'), ('uuid', 'x'),
                            ('extra', 'x'), ('color', 'red')):
            r = self.post('/v1/volume/connectors', dict(good, **{
                name: value}), status=400)
            self.assertFault(r, 400, name)
        r = self.post('/v1/volume/connectors', dict(
            good, node_uuid=uuidutils.generate_uuid()), status=400)
        self.assertFault(r, 400, 'node_uuid')
        self.post('/v1/volume/connectors?x=1', good, status=400)
        self.assertEqual([], self.db.get_volume_connector_list())

    def test_duplicate_connector_409(self):
        self.post('/v1/volume/connectors', {
            'node_uuid': self.node.uuid, 'type': 'iqn',
            'connector_id': IQN})
        r = self.post('/v1/volume/connectors', {
            'node_uuid': self.other.uuid, 'type': 'iqn',
            'connector_id': IQN}, status=409)
        self.assertFault(r, 409, 'type iqn and connector ID %s' % IQN)
        # The same ID with another type is another connector.
        self.post('/v1/volume/connectors', {
            'node_uuid': self.other.uuid, 'type': 'ip',
            'connector_id': IQN})
        existing = self.db.get_volume_connector_list()[0]
        r = self.post('/v1/volume/connectors', {
            'node_uuid': self.node.uuid, 'type': 'ip',
            'connector_id': '10.0.0.1', 'uuid': existing.uuid},
            status=409)
        self.assertFault(r, 409, existing.uuid)

    def test_create_locked_node_409(self):
        self.db.reserve_node('other-host', self.node.id)
        self.post('/v1/volume/connectors', {
            'node_uuid': self.node.uuid, 'type': 'iqn',
            'connector_id': IQN}, status=409)

    def test_create_while_powered_on(self):
        # Ironic has no state rule for creation.
        self.db.update_node(self.node.id, {'power_state': states.POWER_ON})
        self.post('/v1/volume/connectors', {
            'node_uuid': self.node.uuid, 'type': 'iqn',
            'connector_id': IQN})

    def test_patch_connector(self):
        c = self.create_connector(self.node, connector_id=IQN)
        url = '/v1/volume/connectors/%s' % c.uuid
        doc = self.patch(url, [
            {'op': 'replace', 'path': '/type', 'value': 'ip'},
            {'op': 'replace', 'path': '/connector_id', 'value': '10.0.0.1'},
            {'op': 'add', 'path': '/extra/a', 'value': 1}]).json
        self.assertEqual(('ip', '10.0.0.1', {'a': 1}),
                         (doc['type'], doc['connector_id'], doc['extra']))
        row = self.db.get_volume_connector_by_uuid(c.uuid)
        self.assertEqual(('ip', '10.0.0.1', {'a': 1}),
                         (row.type, row.connector_id, row.extra))
        doc = self.patch(url, [{'op': 'remove', 'path': '/extra'}]).json
        self.assertEqual({}, doc['extra'])
        # An empty change set changes nothing, and needs no conductor.
        self.patch(url, [{'op': 'replace', 'path': '/type',
                          'value': 'ip'}])

    def test_patch_connector_moves_node(self):
        c = self.create_connector(self.node)
        doc = self.patch('/v1/volume/connectors/%s' % c.uuid, [
            {'op': 'replace', 'path': '/node_uuid',
             'value': self.other.uuid}]).json
        self.assertEqual(self.other.uuid, doc['node_uuid'])
        self.assertEqual(self.other.id,
                         self.db.get_volume_connector_by_id(c.id).node_id)
        r = self.patch('/v1/volume/connectors/%s' % c.uuid, [
            {'op': 'replace', 'path': '/node_uuid',
             'value': uuidutils.generate_uuid()}], status=400)
        self.assertFault(r, 400, 'node_uuid')
        # The node it would move to must be powered off too.
        back = self.create_node(power_state=states.POWER_ON)
        r = self.patch('/v1/volume/connectors/%s' % c.uuid, [
            {'op': 'replace', 'path': '/node_uuid', 'value': back.uuid}],
            status=400)
        self.assertFault(r, 400, 'power on')

    def test_patch_connector_errors(self):
        c = self.create_connector(self.node)
        url = '/v1/volume/connectors/%s' % c.uuid
        for path in ('/uuid', '/created_at', '/links'):
            r = self.patch(url, [{'op': 'replace', 'path': path,
                                  'value': 'x'}], status=400)
            self.assertFault(r, 400, 'internal attribute')
        for path in ('/type', '/connector_id', '/node_uuid'):
            r = self.patch(url, [{'op': 'remove', 'path': path}],
                           status=400)
            self.assertFault(r, 400, 'mandatory')
        r = self.patch(url, [{'op': 'replace', 'path': '/type',
                              'value': 'nvme'}], status=400)
        self.assertFault(r, 400, 'type')
        r = self.patch(url, [{'op': 'replace', 'path': '/type',
                              'value': None}], status=400)
        self.assertFault(r, 400, 'type')
        self.patch(url, [{'op': 'add', 'path': '/speed', 'value': 1}],
                   status=400)
        self.patch(url, {'op': 'add'}, status=400)
        self.patch('/v1/volume/connectors', [], status=405)
        self.patch('/v1/volume/connectors/%s' % uuidutils.generate_uuid(),
                   [{'op': 'add', 'path': '/extra/a', 'value': 1}],
                   status=404)

    def test_patch_duplicate_connector_409(self):
        self.create_connector(self.node, connector_id=IQN)
        c = self.create_connector(self.other)
        r = self.patch('/v1/volume/connectors/%s' % c.uuid, [
            {'op': 'replace', 'path': '/connector_id', 'value': IQN}],
            status=409)
        self.assertFault(r, 409, 'type iqn and connector ID %s already '
                         'exists' % IQN)

    def test_connector_state_rules(self):
        c = self.create_connector(self.node)
        url = '/v1/volume/connectors/%s' % c.uuid
        patch = [{'op': 'add', 'path': '/extra/a', 'value': 1}]
        self.db.update_node(self.node.id, {'power_state': states.POWER_ON})
        r = self.patch(url, patch, status=400)
        self.assertFault(r, 400, 'volume connector update', self.node.uuid,
                         'power on')
        # Maintenance lifts neither rule (Ironic's).
        self.db.update_node(self.node.id, {'maintenance': True,
                                           'provision_state':
                                               states.AVAILABLE})
        self.patch(url, patch, status=400)
        r = self.delete(url, status=400)
        self.assertFault(r, 400, 'volume connector deletion')
        # Deleting is also allowed where the node could be deleted.
        self.db.update_node(self.node.id,
                            {'provision_state': states.MANAGEABLE})
        self.patch(url, patch, status=400)
        self.delete(url)

    def test_delete_connector(self):
        c = self.create_connector(self.node)
        self.delete('/v1/volume/connectors/%s' % c.uuid)
        self.get('/v1/volume/connectors/%s' % c.uuid, status=404)
        self.delete('/v1/volume/connectors/%s' % c.uuid, status=404)
        self.delete('/v1/volume/connectors/nope', status=400)
        self.delete('/v1/volume/connectors', status=405)

    def test_delete_locked_node_409(self):
        c = self.create_connector(self.node)
        self.db.reserve_node('other-host', self.node.id)
        self.delete('/v1/volume/connectors/%s' % c.uuid, status=409)
        self.assertEqual(1, len(self.db.get_volume_connector_list()))

    # -- targets ------------------------------------------------------------

    def test_create_target(self):
        body = {'node_uuid': self.node.uuid, 'volume_type': 'iscsi',
                'boot_index': 0, 'volume_id': VOLUME_ID,
                'properties': {'target_iqn': IQN}, 'extra': None}
        r = self.post('/v1/volume/targets', body)
        doc = r.json
        self.assertEqual('http://localhost/v1/volume/targets/%s'
                         % doc['uuid'], r.headers['Location'])
        self.assertEqual({'target_iqn': IQN}, doc['properties'])
        self.assertEqual({}, doc['extra'])
        row = self.db.get_volume_target_by_uuid(doc['uuid'])
        self.assertEqual((0, VOLUME_ID, 'iscsi'),
                         (row.boot_index, row.volume_id, row.volume_type))
        doc = self.post('/v1/volume/targets', dict(
            body, boot_index=1, properties=None)).json
        self.assertEqual({}, doc['properties'])

    def test_create_target_errors(self):
        good = {'node_uuid': self.node.uuid, 'volume_type': 'iscsi',
                'boot_index': 0, 'volume_id': VOLUME_ID}
        for name in good:
            body = dict(good)
            del body[name]
            r = self.post('/v1/volume/targets', body, status=400)
            self.assertFault(r, 400, name)
        for name, value in (('boot_index', 'zero'), ('boot_index', -1),
                            ('boot_index', 2 ** 40), ('volume_type', ''),
                            ('volume_id', 'x' * 37), ('properties', []),
                            ('node_uuid', None)):
            r = self.post('/v1/volume/targets', dict(good, **{
                name: value}), status=400)
            self.assertFault(r, 400, name)
        self.assertEqual([], self.db.get_volume_target_list())

    def test_duplicate_boot_index_409(self):
        body = {'node_uuid': self.node.uuid, 'volume_type': 'iscsi',
                'boot_index': 0, 'volume_id': VOLUME_ID}
        self.post('/v1/volume/targets', body)
        r = self.post('/v1/volume/targets', body, status=409)
        self.assertFault(r, 409, "boot index '0'")
        # Another node may use it.
        self.post('/v1/volume/targets', dict(body,
                                             node_uuid=self.other.uuid))
        t = self.create_target(self.node, boot_index=1)
        r = self.patch('/v1/volume/targets/%s' % t.uuid, [
            {'op': 'replace', 'path': '/boot_index', 'value': 0}],
            status=409)
        self.assertFault(r, 409, "boot index '0'")

    def test_patch_target(self):
        t = self.create_target(self.node, properties={'a': 1})
        url = '/v1/volume/targets/%s' % t.uuid
        doc = self.patch(url, [
            {'op': 'replace', 'path': '/boot_index', 'value': 3},
            {'op': 'add', 'path': '/properties/b', 'value': 2},
            {'op': 'replace', 'path': '/volume_type',
             'value': 'fibre_channel'}]).json
        self.assertEqual((3, {'a': 1, 'b': 2}, 'fibre_channel'),
                         (doc['boot_index'], doc['properties'],
                          doc['volume_type']))
        row = self.db.get_volume_target_by_id(t.id)
        self.assertEqual(3, row.boot_index)
        for path in ('/boot_index', '/volume_id', '/volume_type'):
            r = self.patch(url, [{'op': 'remove', 'path': path}],
                           status=400)
            self.assertFault(r, 400, 'mandatory')
        self.patch(url, [{'op': 'replace', 'path': '/boot_index',
                          'value': 'x'}], status=400)

    def test_target_state_rules(self):
        t = self.create_target(self.node)
        url = '/v1/volume/targets/%s' % t.uuid
        self.db.update_node(self.node.id, {'power_state': states.POWER_ON,
                                           'provision_state':
                                               states.ACTIVE})
        r = self.patch(url, [{'op': 'add', 'path': '/extra/a', 'value': 1}],
                       status=400)
        self.assertFault(r, 400, 'volume target update')
        r = self.delete(url, status=400)
        self.assertFault(r, 400, 'volume target deletion')
        self.db.update_node(self.node.id, {'power_state': states.POWER_OFF})
        self.patch(url, [{'op': 'add', 'path': '/extra/a', 'value': 1}])
        self.delete(url)
        self.assertEqual([], self.db.get_volume_target_list())

    def test_node_deletion_takes_volumes(self):
        self.create_connector(self.node)
        self.create_target(self.node)
        self.delete('/v1/nodes/n1')
        self.assertEqual([], self.db.get_volume_connector_list())
        self.assertEqual([], self.db.get_volume_target_list())


class TestVolumePolicy(test_auth.KeystoneTestCase, VolumeTestMixin):

    def setUp(self):
        super().setUp()
        self.mine = self.create_node(name='mine', owner='p1')
        self.leased = self.create_node(name='leased', owner='p9',
                                       lessee='p1')
        self.theirs = self.create_node(name='theirs', owner='p2')
        self.my_c = self.create_connector(self.mine)
        self.their_c = self.create_connector(self.theirs)
        self.my_t = self.create_target(self.mine, properties={'lun': 1})
        self.their_t = self.create_target(self.theirs)

    def _body(self, node):
        return {'node_uuid': node.uuid, 'type': 'iqn',
                'connector_id': uuidutils.generate_uuid()}

    def test_project_reader(self):
        headers = self.project('reader')
        # Lists are narrowed to the project's nodes.
        items = self.get('/v1/volume/connectors',
                         headers=headers).json['connectors']
        self.assertEqual([self.my_c.uuid], [c['uuid'] for c in items])
        self.get('/v1/volume/connectors/%s' % self.my_c.uuid,
                 headers=headers)
        doc = self.get('/v1/volume/targets/%s' % self.my_t.uuid,
                       headers=headers).json
        # Target properties need view_target_properties.
        self.assertIn('redacted_contents', doc['properties'])
        # Another project's are not found, nor its node's lists.
        self.get('/v1/volume/connectors/%s' % self.their_c.uuid,
                 headers=headers, status=404)
        self.get('/v1/nodes/theirs/volume/targets', headers=headers,
                 status=404)
        self.get('/v1/volume/targets?node=theirs', headers=headers,
                 status=404)
        # A reader changes nothing: 403 on its own nodes.
        r = self.post('/v1/volume/connectors', self._body(self.mine),
                      headers=headers, status=403)
        self.assertFault(r, 403, 'baremetal:volume:create')
        r = self.patch('/v1/volume/connectors/%s' % self.my_c.uuid, [
            {'op': 'add', 'path': '/extra/a', 'value': 1}],
            headers=headers, status=403)
        self.assertFault(r, 403, 'baremetal:volume:update')
        r = self.delete('/v1/volume/targets/%s' % self.my_t.uuid,
                        headers=headers, status=403)
        self.assertFault(r, 403, 'baremetal:volume:delete')
        self.delete('/v1/volume/targets/%s' % self.their_t.uuid,
                    headers=headers, status=404)
        # The /v1/volume links need baremetal:volume:get (as Ironic, on
        # no node); a node's, on that node.
        self.get('/v1/volume', headers=headers, status=403)
        self.get('/v1/nodes/mine/volume', headers=headers)

    def test_project_member(self):
        headers = self.project('member')
        # Changes on the owned node, not creation nor deletion.
        self.patch('/v1/volume/connectors/%s' % self.my_c.uuid, [
            {'op': 'add', 'path': '/extra/a', 'value': 1}], headers=headers)
        self.post('/v1/volume/connectors', self._body(self.mine),
                  headers=headers, status=403)
        self.delete('/v1/volume/connectors/%s' % self.my_c.uuid,
                    headers=headers, status=403)
        # Moving it to another project's node: that node is not found.
        r = self.patch('/v1/volume/connectors/%s' % self.my_c.uuid, [
            {'op': 'replace', 'path': '/node_uuid',
             'value': self.theirs.uuid}], headers=headers, status=400)
        self.assertFault(r, 400, 'node_uuid')

    def test_project_admin_and_manager(self):
        for role in ('admin', 'manager'):
            headers = self.project(role)
            doc = self.post('/v1/volume/connectors', self._body(self.mine),
                            headers=headers).json
            # Of the leasing project too.
            self.post('/v1/volume/connectors', self._body(self.leased),
                      headers=headers)
            r = self.post('/v1/volume/connectors', self._body(self.theirs),
                          headers=headers, status=403)
            self.assertFault(r, 403, 'baremetal:volume:create')
            self.delete('/v1/volume/connectors/%s' % doc['uuid'],
                        headers=headers)
        # A project admin sees target properties (Ironic's default).
        doc = self.get('/v1/volume/targets/%s' % self.my_t.uuid,
                       headers=self.project('admin')).json
        self.assertEqual({'lun': 1}, doc['properties'])

    def test_system_roles(self):
        reader = self.system('reader')
        self.assertEqual(2, len(self.get('/v1/volume/targets',
                                         headers=reader).json['targets']))
        self.get('/v1/volume', headers=reader)
        doc = self.get('/v1/volume/targets/%s' % self.my_t.uuid,
                       headers=reader).json
        self.assertEqual({'lun': 1}, doc['properties'])
        self.post('/v1/volume/connectors', self._body(self.theirs),
                  headers=reader, status=403)
        member = self.system('member')
        self.post('/v1/volume/connectors', self._body(self.theirs),
                  headers=member)
        self.delete('/v1/volume/targets/%s' % self.their_t.uuid,
                    headers=member)
        # Unknown node: 400 once the rule passes.
        r = self.post('/v1/volume/connectors', {
            'node_uuid': uuidutils.generate_uuid(), 'type': 'iqn',
            'connector_id': IQN}, headers=member, status=400)
        self.assertFault(r, 400, 'node_uuid')
