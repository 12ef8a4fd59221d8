"""The port's name (Ironic 1.88): set, shown, unique, and a way to name
the port in URLs."""

from ironic_like.tests.unit.api import base

V = '1.88'


class TestPortName(base.APITestCase):

    with_conductor = True

    def setUp(self):
        super().setUp()
        self.node = self.create_node(name='n1')

    def _create(self, name, address, version=V, status=201):
        return self.post('/v1/ports', {'node_uuid': self.node.uuid,
                                       'address': address, 'name': name},
                         version=version, status=status)

    def test_create_show_patch_delete_by_name(self):
        doc = self._create('eth0', '52:54:00:00:00:01').json
        self.assertEqual('eth0', doc['name'])
        shown = self.get('/v1/ports/eth0', version=V).json
        self.assertEqual(doc['uuid'], shown['uuid'])
        doc = self.patch('/v1/ports/eth0', [{'op': 'replace',
                                             'path': '/name',
                                             'value': 'nic-0'}],
                         version=V).json
        self.assertEqual('nic-0', doc['name'])
        self.get('/v1/ports/eth0', version=V, status=404)
        self.delete('/v1/ports/nic-0', version=V)
        self.get('/v1/ports/%s' % doc['uuid'], version=V, status=404)

    def test_unique(self):
        self._create('eth0', '52:54:00:00:00:01')
        r = self._create('eth0', '52:54:00:00:00:02', status=409)
        self.assertIn('A port with name eth0 already exists',
                      r.json['error_message'])
        other = self.post('/v1/ports', {'node_uuid': self.node.uuid,
                                        'address': '52:54:00:00:00:03'},
                          version=V).json
        r = self.patch('/v1/ports/%s' % other['uuid'], [
            {'op': 'add', 'path': '/name', 'value': 'eth0'}], version=V,
            status=409)
        self.assertIn('eth0', r.json['error_message'])
        self.assertIsNone(self.db.get_port_by_uuid(other['uuid']).name)

    def test_by_version(self):
        doc = self._create('eth0', '52:54:00:00:00:01').json
        self.assertNotIn('name', self.get('/v1/ports/%s' % doc['uuid'],
                                          version='1.87').json)
        r = self._create('eth1', '52:54:00:00:00:02', version='1.87',
                         status=406)
        self.assertFault(r, 406, 'name')
        # Not a way to name a port before 1.88.
        self.get('/v1/ports/eth0', version='1.87', status=400)

    def test_bad_names(self):
        for name in ('has space', 'x' * 256, ''):
            r = self._create(name, '52:54:00:00:00:01', status=400)
            self.assertFault(r, 400, 'name')
        self.get('/v1/ports/bad%20name', version=V, status=400)


class TestPortNodeIdent(base.APITestCase):
    """node_ident on port create (Ironic 1.94): the node by name."""

    with_conductor = True

    def setUp(self):
        super().setUp()
        self.node = self.create_node(name='n1')

    def _create(self, body, version='1.94', status=201):
        body = dict({'address': '52:54:00:00:00:01'}, **body)
        return self.post('/v1/ports', body, version=version, status=status)

    def test_by_name_or_uuid(self):
        doc = self._create({'node_ident': 'n1'}).json
        self.assertEqual(self.node.uuid, doc['node_uuid'])
        doc = self._create({'node_ident': self.node.uuid,
                            'address': '52:54:00:00:00:02'}).json
        self.assertEqual(self.node.uuid, doc['node_uuid'])

    def test_refusals_create_nothing(self):
        r = self._create({'node_ident': 'n1'}, version='1.93', status=406)
        self.assertFault(r, 406, 'node_ident')
        r = self._create({'node_ident': 'n1', 'node_uuid': self.node.uuid},
                         status=400)
        self.assertFault(r, 400, 'not both')
        for ident in ('nope', ''):
            r = self._create({'node_ident': ident}, status=400)
            self.assertFault(r, 400, 'node_ident')
        r = self._create({}, status=400)
        self.assertFault(r, 400, 'node_uuid')
        self.assertEqual([], self.db.get_port_list())
        # Not a field of a port: a PATCH cannot use it.
        port = self.create_port(self.node)
        self.patch('/v1/ports/%s' % port.uuid, [
            {'op': 'add', 'path': '/node_ident', 'value': 'n1'}],
            version='1.94', status=400)
