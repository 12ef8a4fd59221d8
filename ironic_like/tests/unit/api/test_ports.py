"""/v1/ports and /v1/nodes/{id}/ports."""

import urllib.parse

from oslo_utils import uuidutils

from ironic_like.tests.unit.api import base

MAC = '52:54:00:12:34:56'


class TestReadPorts(base.APITestCase):

    def setUp(self):
        super().setUp()
        self.n1 = self.create_node(name='n1')
        self.n2 = self.create_node(name='n2')
        self.p1 = self.create_port(self.n1, address='52:54:00:00:00:01',
                                   extra={'a': 1}, physical_network='pn')
        self.p2 = self.create_port(self.n2, address='52:54:00:00:00:02')

    def test_short_list(self):
        ports = self.get('/v1/ports').json['ports']
        self.assertEqual([{'uuid', 'address', 'links'}] * 2,
                         [set(p) for p in ports])
        self.assertEqual(
            {'href': 'http://localhost/v1/ports/%s' % self.p1.uuid,
             'rel': 'self'}, ports[0]['links'][0])

    def test_detail(self):
        for url in ('/v1/ports/detail', '/v1/ports?detail=true'):
            ports = self.get(url).json['ports']
            by_uuid = {p['uuid']: p for p in ports}
            doc = by_uuid[self.p1.uuid]
            self.assertEqual(self.n1.uuid, doc['node_uuid'])
            self.assertEqual(self.n2.uuid,
                             by_uuid[self.p2.uuid]['node_uuid'])
            self.assertEqual({'a': 1}, doc['extra'])
            self.assertTrue(doc['pxe_enabled'])
            self.assertEqual({}, doc['local_link_connection'])
            self.assertEqual('pn', doc['physical_network'])
            self.assertIsNone(doc['portgroup_uuid'])
            self.assertEqual({}, doc['internal_info'])
            self.assertTrue(doc['created_at'].endswith('+00:00'))

    def test_detail_for_many_nodes(self):
        # Above the per-node look-up threshold: one query for all UUIDs.
        nodes = [self.create_node() for _ in range(12)]
        for node in nodes:
            self.create_port(node)
        ports = self.get('/v1/ports/detail').json['ports']
        self.assertEqual(14, len(ports))
        expected = {n.uuid for n in nodes} | {self.n1.uuid, self.n2.uuid}
        self.assertEqual(expected, {p['node_uuid'] for p in ports})

    def test_fields_follow_version(self):
        doc = self.get('/v1/ports/detail', version='1.18').json['ports'][0]
        self.assertNotIn('pxe_enabled', doc)
        self.assertNotIn('local_link_connection', doc)
        doc = self.get('/v1/ports/detail', version='1.33').json['ports'][0]
        self.assertIn('pxe_enabled', doc)
        self.assertNotIn('physical_network', doc)
        self.assertNotIn('portgroup_uuid',
                         self.get('/v1/ports/detail',
                                  version='1.23').json['ports'][0])

    def test_fields(self):
        ports = self.get('/v1/ports?fields=address,node_uuid').json['ports']
        self.assertEqual({'address', 'node_uuid', 'links'}, set(ports[0]))
        self.get('/v1/ports?fields=nope', status=400)
        self.get('/v1/ports?fields=physical_network', version='1.33',
                 status=406)

    def test_filters(self):
        def uuids(query):
            return [p['uuid'] for p in
                    self.get('/v1/ports?' + query).json['ports']]
        self.assertEqual([self.p1.uuid], uuids('node=n1'))
        self.assertEqual([self.p2.uuid], uuids('node=%s' % self.n2.uuid))
        self.assertEqual([self.p2.uuid], uuids('node_uuid=%s'
                                               % self.n2.uuid))
        self.assertEqual([self.p1.uuid], uuids('address=52:54:00:00:00:01'))
        self.assertEqual([self.p1.uuid], uuids('address=52-54-00-00-00-01'))
        self.assertEqual([], uuids('address=52:54:00:00:00:99'))

    def test_bad_filters(self):
        self.get('/v1/ports?node=nobody', status=404)
        r = self.get('/v1/ports?address=zz', status=400)
        self.assertFault(r, 400, 'field/attribute address')
        r = self.get('/v1/ports?node_uuid=n1', status=400)
        self.assertFault(r, 400, 'node_uuid')
        self.get('/v1/ports?node=n1&node_uuid=%s' % self.n1.uuid,
                 status=400)

    def test_pagination(self):
        doc = self.get('/v1/ports?limit=1').json
        self.assertEqual(1, len(doc['ports']))
        query = urllib.parse.parse_qs(urllib.parse.urlsplit(
            doc['next']).query)
        self.assertEqual([doc['ports'][0]['uuid']], query['marker'])
        rest = self.get(doc['next'].replace('http://localhost', '')).json
        self.assertEqual(1, len(rest['ports']))
        self.assertNotEqual(doc['ports'][0]['uuid'], rest['ports'][0]['uuid'])
        self.get('/v1/ports?marker=nope', status=400)
        self.get('/v1/ports?sort_key=extra', status=400)

    def test_node_ports(self):
        doc = self.get('/v1/nodes/n1/ports').json
        self.assertEqual([self.p1.uuid], [p['uuid'] for p in doc['ports']])
        doc = self.get('/v1/nodes/%s/ports/detail' % self.n1.uuid).json
        self.assertEqual(self.n1.uuid, doc['ports'][0]['node_uuid'])
        self.get('/v1/nodes/nobody/ports', status=404)
        self.get('/v1/nodes/n1/ports?node=n2', status=400)

    def test_node_ports_next_link(self):
        self.create_port(self.n1)
        doc = self.get('/v1/nodes/n1/ports?limit=1').json
        self.assertTrue(doc['next'].startswith(
            'http://localhost/v1/nodes/n1/ports?'))

    def test_node_ports_read_only(self):
        r = self.app.post_json('/v1/nodes/n1/ports', {'address': MAC},
                               headers=base.LATEST, status=405)
        self.assertFault(r, 405)

    def test_get_one(self):
        doc = self.get('/v1/ports/%s' % self.p1.uuid).json
        self.assertEqual('52:54:00:00:00:01', doc['address'])
        self.assertEqual(self.n1.uuid, doc['node_uuid'])
        doc = self.get('/v1/ports/%s?fields=address' % self.p1.uuid).json
        self.assertEqual({'address', 'links'}, set(doc))

    def test_get_one_errors(self):
        r = self.get('/v1/ports/%s' % uuidutils.generate_uuid(), status=404)
        self.assertFault(r, 404)
        r = self.get('/v1/ports/52:54:00:00:00:01', status=400)
        self.assertFault(r, 400, 'UUID')


class TestWritePorts(base.APITestCase):

    with_conductor = True

    def setUp(self):
        super().setUp()
        self.node = self.create_node(name='n1')
        self.other = self.create_node(name='n2')

    def test_create(self):
        body = {'node_uuid': self.node.uuid, 'address': '52:54:00:AB:CD:EF',
                'extra': {'x': 1}, 'pxe_enabled': False,
                'physical_network': 'physnet1',
                'local_link_connection': {'switch_id': '0a:1b:2c:3d:4e:5f',
                                          'port_id': 'Eth1/1',
                                          'switch_info': 'sw1'}}
        r = self.post('/v1/ports', body)
        doc = r.json
        self.assertEqual('52:54:00:ab:cd:ef', doc['address'])
        self.assertEqual(self.node.uuid, doc['node_uuid'])
        self.assertEqual('http://localhost/v1/ports/%s' % doc['uuid'],
                         r.headers['Location'])
        port = self.db.get_port_by_uuid(doc['uuid'])
        self.assertEqual('52:54:00:ab:cd:ef', port.address)
        self.assertFalse(port.pxe_enabled)
        self.assertEqual('physnet1', port.physical_network)
        self.assertEqual('Eth1/1', port.local_link_connection['port_id'])

    def test_create_defaults(self):
        doc = self.post('/v1/ports', {'node_uuid': self.node.uuid,
                                      'address': MAC}).json
        self.assertTrue(doc['pxe_enabled'])
        self.assertEqual({}, doc['extra'])

    def test_duplicate_mac_409(self):
        self.post('/v1/ports', {'node_uuid': self.node.uuid,
                                'address': MAC})
        r = self.post('/v1/ports', {'node_uuid': self.other.uuid,
                                    'address': MAC.upper()}, status=409)
        self.assertFault(r, 409, MAC)

    def test_invalid_mac_400(self):
        for address in ('52:54:00:12:34', 'zz:54:00:12:34:56', 'nope',
                        '52:54-00:12:34:56'):
            r = self.post('/v1/ports', {'node_uuid': self.node.uuid,
                                        'address': address}, status=400)
            self.assertFault(r, 400, 'field/attribute address')

    def test_required_fields(self):
        r = self.post('/v1/ports', {'address': MAC}, status=400)
        self.assertFault(r, 400, 'field/attribute node_uuid')
        r = self.post('/v1/ports', {'node_uuid': self.node.uuid},
                      status=400)
        self.assertFault(r, 400, 'field/attribute address')

    def test_unknown_node_400(self):
        r = self.post('/v1/ports', {'node_uuid': uuidutils.generate_uuid(),
                                    'address': MAC}, status=400)
        self.assertFault(r, 400, 'field/attribute node_uuid')

    def test_unknown_field_and_versions(self):
        r = self.post('/v1/ports', {'node_uuid': self.node.uuid,
                                    'address': MAC, 'speed': 10},
                      status=400)
        self.assertFault(r, 400, 'field/attribute speed')
        r = self.post('/v1/ports', {'node_uuid': self.node.uuid,
                                    'address': MAC, 'pxe_enabled': True},
                      version='1.18', status=406)
        self.assertFault(r, 406, 'pxe_enabled')
        self.post('/v1/ports', {'node_uuid': self.node.uuid,
                                'address': MAC, 'physical_network': 'p'},
                  version='1.33', status=406)

    def test_bad_local_link_connection(self):
        for llc in ({'switch_id': 'nope', 'port_id': 'p'},
                    {'port_id': 'p'}, {'switch_id': MAC, 'port_id': 'p',
                                       'colour': 'red'}):
            r = self.post('/v1/ports', {'node_uuid': self.node.uuid,
                                        'address': MAC,
                                        'local_link_connection': llc},
                          status=400)
            self.assertFault(r, 400, 'local_link_connection')

    def test_unknown_portgroup_400(self):
        # Port groups are covered in test_portgroups.py.
        r = self.post('/v1/ports', {'node_uuid': self.node.uuid,
                                    'address': MAC,
                                    'portgroup_uuid':
                                        uuidutils.generate_uuid()},
                      status=400)
        self.assertFault(r, 400, 'field/attribute portgroup_uuid')

    def test_patch(self):
        port = self.create_port(self.node, address=MAC)
        url = '/v1/ports/%s' % port.uuid
        doc = self.patch(url, [
            {'op': 'replace', 'path': '/address',
             'value': '52:54:00:FF:FF:FF'},
            {'op': 'add', 'path': '/extra/vif', 'value': 'v1'},
            {'op': 'replace', 'path': '/pxe_enabled', 'value': False}]).json
        self.assertEqual('52:54:00:ff:ff:ff', doc['address'])
        port = self.db.get_port_by_uuid(port.uuid)
        self.assertEqual('52:54:00:ff:ff:ff', port.address)
        self.assertEqual({'vif': 'v1'}, port.extra)
        self.assertFalse(port.pxe_enabled)

    def test_patch_moves_port_to_another_node(self):
        port = self.create_port(self.node, address=MAC)
        doc = self.patch('/v1/ports/%s' % port.uuid, [
            {'op': 'replace', 'path': '/node_uuid',
             'value': self.other.uuid}]).json
        self.assertEqual(self.other.uuid, doc['node_uuid'])
        self.assertEqual(self.other.id,
                         self.db.get_port_by_uuid(port.uuid).node_id)
        r = self.patch('/v1/ports/%s' % port.uuid, [
            {'op': 'replace', 'path': '/node_uuid',
             'value': uuidutils.generate_uuid()}], status=400)
        self.assertFault(r, 400, 'node_uuid')

    def test_patch_errors(self):
        port = self.create_port(self.node, address=MAC)
        url = '/v1/ports/%s' % port.uuid
        for path in ('/uuid', '/created_at', '/internal_info'):
            r = self.patch(url, [{'op': 'replace', 'path': path,
                                  'value': 'x'}], status=400)
            self.assertFault(r, 400, 'internal attribute')
        r = self.patch(url, [{'op': 'replace', 'path': '/portgroup_uuid',
                              'value': 'x'}], status=400)
        self.assertFault(r, 400, 'field/attribute portgroup_uuid')
        r = self.patch(url, [{'op': 'add', 'path': '/speed', 'value': 1}],
                       status=400)
        self.assertFault(r, 400, 'field/attribute speed')
        r = self.patch(url, [{'op': 'remove', 'path': '/address'}],
                       status=400)
        self.assertFault(r, 400, 'mandatory')
        r = self.patch(url, [{'op': 'replace', 'path': '/address',
                              'value': 'bad'}], status=400)
        self.assertFault(r, 400, 'field/attribute address')
        self.patch(url, [{'op': 'add', 'path': '/physical_network',
                          'value': 'p'}], version='1.33', status=406)

    def test_patch_duplicate_mac_409(self):
        self.create_port(self.node, address=MAC)
        port = self.create_port(self.node, address='52:54:00:00:00:09')
        self.patch('/v1/ports/%s' % port.uuid, [
            {'op': 'replace', 'path': '/address', 'value': MAC}],
            status=409)

    def test_patch_locked_node_409(self):
        port = self.create_port(self.node, address=MAC)
        self.db.reserve_node('other-host', self.node.id)
        self.patch('/v1/ports/%s' % port.uuid, [
            {'op': 'add', 'path': '/extra/a', 'value': 1}], status=409)

    def test_delete(self):
        port = self.create_port(self.node, address=MAC)
        self.delete('/v1/ports/%s' % port.uuid)
        self.get('/v1/ports/%s' % port.uuid, status=404)
        self.delete('/v1/ports/%s' % port.uuid, status=404)
