"""Shards (Ironic 1.82): the node's shard field, the shard and sharded
filters of nodes, the shard filter of ports, /v1/shards."""

from ironic_like.tests.unit.api import base
from ironic_like.tests.unit.api import test_auth

V = '1.82'


def _names(doc, key='nodes'):
    return sorted(item['name'] for item in doc[key])


class TestShardField(base.APITestCase):

    with_conductor = True

    def test_create_show_patch(self):
        doc = self.post('/v1/nodes', {'driver': 'fake-hardware',
                                      'name': 'n1', 'shard': 's1'},
                        version=V).json
        self.assertEqual('s1', doc['shard'])
        self.assertEqual('s1', self.db.get_node_by_uuid(doc['uuid']).shard)
        doc = self.patch('/v1/nodes/n1', [{'op': 'replace',
                                           'path': '/shard',
                                           'value': 's2'}],
                         version=V).json
        self.assertEqual('s2', doc['shard'])
        self.patch('/v1/nodes/n1', [{'op': 'remove', 'path': '/shard'}],
                   version=V)
        self.assertIsNone(self.db.get_node_by_uuid(doc['uuid']).shard)

    def test_absent_below_1_82(self):
        node = self.create_node(name='n1', shard='s1')
        self.assertNotIn('shard', self.get('/v1/nodes/n1',
                                           version='1.81').json)
        r = self.post('/v1/nodes', {'driver': 'fake-hardware',
                                    'shard': 's1'},
                      version='1.81', status=406)
        self.assertFault(r, 406, 'shard')
        r = self.patch('/v1/nodes/n1', [{'op': 'replace', 'path': '/shard',
                                         'value': 's2'}],
                       version='1.81', status=406)
        self.assertFault(r, 406, 'shard')
        self.assertEqual('s1', self.db.get_node_by_id(node.id).shard)

    def test_bad_shard(self):
        r = self.post('/v1/nodes', {'driver': 'fake-hardware',
                                    'shard': 'x' * 256},
                      version=V, status=400)
        self.assertFault(r, 400, 'shard')


class TestShardFilters(base.APITestCase):

    def setUp(self):
        super().setUp()
        self.a = self.create_node(name='a', shard='s1')
        self.b = self.create_node(name='b', shard='s2')
        self.c = self.create_node(name='c')
        for node in (self.a, self.b, self.c):
            self.create_port(node)

    def test_node_filters(self):
        self.assertEqual(['a'], _names(self.get('/v1/nodes?shard=s1',
                                                version=V).json))
        self.assertEqual(['a', 'b'], _names(self.get(
            '/v1/nodes?shard=s1,s2', version=V).json))
        self.assertEqual(['a', 'b'], _names(self.get(
            '/v1/nodes/detail?sharded=true', version=V).json))
        self.assertEqual(['c'], _names(self.get('/v1/nodes?sharded=false',
                                                version=V).json))
        self.assertEqual([], _names(self.get(
            '/v1/nodes?shard=s2&sharded=false', version=V).json))

    def test_node_filters_refused(self):
        for query in ('shard=s1', 'sharded=true'):
            self.get('/v1/nodes?' + query, version='1.81', status=406)
        r = self.get('/v1/nodes?shard=s1,,s2', version=V, status=400)
        self.assertFault(r, 400, 'shard')
        r = self.get('/v1/nodes?sharded=maybe', version=V, status=400)
        self.assertFault(r, 400, 'sharded')

    def test_port_filter(self):
        doc = self.get('/v1/ports?shard=s1,s2&fields=node_uuid',
                       version=V).json
        self.assertEqual(sorted([self.a.uuid, self.b.uuid]),
                         sorted(p['node_uuid'] for p in doc['ports']))
        self.get('/v1/ports?shard=s1', version='1.81', status=406)
        # Not with a node or a port group filter (Ironic's 403).
        self.get('/v1/ports?shard=s1&node=a', version=V, status=403)

    def test_shard_list(self):
        self.create_node(name='d', shard='s1')
        doc = self.get('/v1/shards', version=V).json
        self.assertEqual([{'name': 's1', 'count': 2},
                          {'name': 'None', 'count': 1},
                          {'name': 's2', 'count': 1}], doc['shards'])
        self.get('/v1/shards', version='1.81', status=404)
        self.get('/v1/shards/s1', version=V, status=404)

    def test_v1_document(self):
        self.assertIn('shards', self.get('/v1', version=V).json)
        self.assertNotIn('shards', self.get('/v1', version='1.81').json)


class TestShardPolicy(test_auth.KeystoneTestCase):

    def setUp(self):
        super().setUp()
        self.create_node(name='mine', owner='p1', shard='s1')

    def test_only_a_cloud_admin_moves_a_node(self):
        move = [{'op': 'replace', 'path': '/shard', 'value': 's9'}]
        r = self.patch('/v1/nodes/mine', move, headers=self.system('member'),
                       version=V, status=403)
        self.assertFault(r, 403, 'baremetal:node:update:shard')
        self.patch('/v1/nodes/mine', move, headers=self.system('admin'),
                   version=V)

    def test_shards_need_system_readers(self):
        r = self.get('/v1/shards', headers=self.project('admin'),
                     version=V, status=403)
        self.assertFault(r, 403, 'baremetal:shards:get')
        self.get('/v1/shards', headers=self.system('reader'), version=V)
