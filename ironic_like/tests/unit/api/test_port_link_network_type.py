"""A port's local_link_connection: network_type (1.64) and a smart NIC's
hostname (1.53)."""

from ironic_like.tests.unit.api import base

MAC = '52:54:00:12:34:56'


class TestLinkNetworkType(base.APITestCase):

    with_conductor = True

    def setUp(self):
        super().setUp()
        self.node = self.create_node(name='n1')

    def _create(self, llc, status=201, version='1.64'):
        return self.post('/v1/ports', {'node_uuid': self.node.uuid,
                                       'address': MAC,
                                       'local_link_connection': llc},
                         status=status, version=version)

    def test_unmanaged_needs_no_switch(self):
        doc = self._create({'network_type': 'unmanaged'}).json
        self.assertEqual({'network_type': 'unmanaged'},
                         doc['local_link_connection'])
        port = self.db.get_port_by_uuid(doc['uuid'])
        self.assertEqual('unmanaged',
                         port.local_link_connection['network_type'])

    def test_managed_still_needs_the_switch_port(self):
        r = self._create({'network_type': 'managed'}, status=400)
        self.assertFault(r, 400, 'local_link_connection')
        doc = self._create({'network_type': 'managed', 'port_id': 'Eth1',
                            'switch_id': '0a:1b:2c:3d:4e:5f'}).json
        self.assertEqual('managed',
                         doc['local_link_connection']['network_type'])

    def test_unknown_network_type_400(self):
        r = self._create({'network_type': 'flat'}, status=400)
        self.assertFault(r, 400, 'local_link_connection')
        self.assertEqual([], self.db.get_port_list())

    def test_network_type_406_below_1_64(self):
        r = self._create({'network_type': 'unmanaged'}, status=406,
                         version='1.63')
        self.assertFault(r, 406, 'network_type')
        self.assertEqual([], self.db.get_port_list())
        port = self.create_port(self.node, address=MAC)
        r = self.patch('/v1/ports/%s' % port.uuid,
                       [{'op': 'add', 'path': '/local_link_connection',
                         'value': {'network_type': 'unmanaged'}}],
                       version='1.63', status=406)
        self.assertFault(r, 406, 'network_type')
        self.assertFalse(self.db.get_port_by_id(port.id)
                         .local_link_connection)
        self.patch('/v1/ports/%s' % port.uuid,
                   [{'op': 'add', 'path': '/local_link_connection',
                     'value': {'network_type': 'unmanaged'}}],
                   version='1.64', status=200)

    def test_smart_nic_hostname(self):
        doc = self._create({'port_id': 'rep0-0', 'hostname': 'dpu-1'},
                           version='1.53').json
        self.assertEqual('dpu-1', doc['local_link_connection']['hostname'])


VTEP = {'port_id': 'Eth1/3', 'vtep-logical-switch': 'ls-1',
        'vtep-physical-switch': 'ps-1'}


class TestLinkOvnVtep(base.APITestCase):
    """The OVN VTEP switch keys (1.90)."""

    with_conductor = True

    def setUp(self):
        super().setUp()
        self.node = self.create_node(name='n1')

    def _create(self, llc, status=201, version='1.90'):
        return self.post('/v1/ports', {'node_uuid': self.node.uuid,
                                       'address': MAC,
                                       'local_link_connection': llc},
                         status=status, version=version)

    def test_vtep_link_needs_no_switch_id(self):
        doc = self._create(dict(VTEP)).json
        self.assertEqual(VTEP, doc['local_link_connection'])
        self.assertEqual(VTEP, self.db.get_port_by_uuid(doc['uuid'])
                         .local_link_connection)

    def test_both_switches_or_neither(self):
        for missing in ('vtep-logical-switch', 'vtep-physical-switch'):
            llc = dict(VTEP, switch_id='0a:1b:2c:3d:4e:5f')
            del llc[missing]
            r = self._create(llc, status=400)
            self.assertFault(r, 400, 'local_link_connection')
        self.assertEqual([], self.db.get_port_list())

    def test_vtep_link_needs_the_port_id(self):
        llc = {k: v for k, v in VTEP.items() if k != 'port_id'}
        self.assertFault(self._create(llc, status=400), 400,
                         'local_link_connection')

    def test_406_below_1_90(self):
        r = self._create(dict(VTEP), status=406, version='1.89')
        self.assertFault(r, 406, 'vtep-logical-switch')
        self.assertEqual([], self.db.get_port_list())
        port = self.create_port(self.node, address=MAC)
        r = self.patch('/v1/ports/%s' % port.uuid,
                       [{'op': 'add', 'path': '/local_link_connection',
                         'value': dict(VTEP)}], version='1.89', status=406)
        self.assertFalse(self.db.get_port_by_id(port.id)
                         .local_link_connection)
        self.patch('/v1/ports/%s' % port.uuid,
                   [{'op': 'add', 'path': '/local_link_connection',
                     'value': dict(VTEP)}], version='1.90', status=200)

    def test_shown_empty_below_1_90(self):
        uuid = self._create(dict(VTEP)).json['uuid']
        old = self.get('/v1/ports/%s' % uuid, version='1.89').json
        self.assertEqual({}, old['local_link_connection'])
        listed = self.get('/v1/ports/detail', version='1.89').json
        self.assertEqual({}, listed['ports'][0]['local_link_connection'])
        new = self.get('/v1/ports/%s' % uuid, version='1.90').json
        self.assertEqual(VTEP, new['local_link_connection'])
        # A link without the keys is shown as it is at any version.
        other = self.create_port(self.node, address='52:54:00:12:34:57',
                                 local_link_connection={
                                     'port_id': 'p', 'switch_id':
                                     '0a:1b:2c:3d:4e:5f'})
        doc = self.get('/v1/ports/%s' % other.uuid, version='1.89').json
        self.assertEqual('p', doc['local_link_connection']['port_id'])


class TestLinkOvnVtepRemoved(base.APITestCase):
    """1.105: the keys are refused again, and shown empty."""

    with_conductor = True
    _create = TestLinkOvnVtep._create

    def test_refused_and_hidden_from_1_105(self):
        self.node = self.create_node(name='n1')
        uuid = self._create(dict(VTEP)).json['uuid']
        r = self._create(dict(VTEP), status=406, version='1.105')
        self.assertFault(r, 406, 'removed')
        self.assertEqual({}, self.get('/v1/ports/%s' % uuid,
                                      version='1.105').json[
                                          'local_link_connection'])
        self.assertEqual(VTEP, self.get('/v1/ports/%s' % uuid,
                                        version='1.104').json[
                                            'local_link_connection'])
