"""/v1/nodes: lessee (1.65) and network_data (1.66), and the fields of
1.65-1.75 appearing at their versions."""

from ironic_like.conductor.flows import runner
from ironic_like.tests.unit.api import base

NETWORK_DATA = {
    'links': [{'id': 'eth0', 'type': 'phy',
               'ethernet_mac_address': '52:54:00:00:00:01', 'mtu': 1500}],
    'networks': [{'id': 'prov', 'type': 'ipv4', 'link': 'eth0',
                  'ip_address': '192.0.2.10', 'netmask': '255.255.255.0',
                  'routes': [{'network': '0.0.0.0', 'netmask': '0.0.0.0',
                              'gateway': '192.0.2.1'}],
                  'network_id': 'prov'}],
    'services': [{'type': 'dns', 'address': '192.0.2.53'}],
}


def _replace(path, value):
    return [{'op': 'replace', 'path': '/%s' % path, 'value': value}]


class TestLesseeNetworkData(base.APITestCase):

    with_conductor = True

    def test_fields_appear_at_their_versions(self):
        node = self.create_node(lessee='p9')
        url = '/v1/nodes/%s' % node.uuid
        for field, version in (('lessee', '1.65'), ('network_data', '1.66'),
                               ('boot_mode', '1.75'),
                               ('secure_boot', '1.75')):
            minor = int(version.split('.')[1])
            self.assertNotIn(field, self.get(
                url, version='1.%d' % (minor - 1)).json)
            self.assertIn(field, self.get(url, version=version).json)
        doc = self.get(url, version='1.80').json
        self.assertEqual('p9', doc['lessee'])
        self.assertEqual({}, doc['network_data'])
        self.assertIsNone(doc['boot_mode'])
        self.assertIsNone(doc['secure_boot'])
        self.assertNotIn('lessee', self.get(url, version='1.64').json)

    def test_create_with_lessee_and_network_data(self):
        doc = self.post('/v1/nodes', {'driver': 'fake-hardware',
                                      'lessee': 'p7',
                                      'network_data': NETWORK_DATA},
                        version='1.66').json
        node = self.db.get_node_by_uuid(doc['uuid'])
        self.assertEqual(('p7', NETWORK_DATA),
                         (node.lessee, node.network_data))
        self.assertEqual(NETWORK_DATA, doc['network_data'])

    def test_create_refused_below_their_versions(self):
        r = self.post('/v1/nodes', {'driver': 'fake-hardware',
                                    'lessee': 'p7'},
                      version='1.64', status=406)
        self.assertFault(r, 406, 'lessee')
        r = self.post('/v1/nodes', {'driver': 'fake-hardware',
                                    'network_data': NETWORK_DATA},
                      version='1.65', status=406)
        self.assertFault(r, 406, 'network_data')
        self.assertEqual([], self.db.get_node_list())

    def test_patch_lessee(self):
        node = self.create_node()
        url = '/v1/nodes/%s' % node.uuid
        self.assertEqual('p3', self.patch(url, _replace('lessee', 'p3'),
                                          version='1.65').json['lessee'])
        r = self.patch(url, _replace('lessee', 'p4'), version='1.64',
                       status=406)
        self.assertFault(r, 406, 'lessee')
        self.assertEqual('p3', self.db.get_node_by_id(node.id).lessee)
        self.patch(url, [{'op': 'remove', 'path': '/lessee'}],
                   version='1.65')
        self.assertIsNone(self.db.get_node_by_id(node.id).lessee)

    def test_patch_network_data(self):
        node = self.create_node()
        url = '/v1/nodes/%s' % node.uuid
        self.patch(url, _replace('network_data', NETWORK_DATA),
                   version='1.66')
        self.assertEqual(NETWORK_DATA,
                         self.db.get_node_by_id(node.id).network_data)
        self.patch(url, [{'op': 'remove', 'path': '/network_data'}],
                   version='1.66')
        self.assertEqual({}, self.db.get_node_by_id(node.id).network_data)

    def test_bad_network_data_is_400_and_changes_nothing(self):
        node = self.create_node()
        url = '/v1/nodes/%s' % node.uuid
        bad = [
            {'links': [{'type': 'phy'}]},               # link without id
            {'networks': [{'id': 'n', 'type': 'ipv4'}]},  # no link
            {'services': [{'type': 'dns'}]},            # no address
            {'routes': []},                             # unknown key
            {'links': 'eth0'},
            'eth0',
        ]
        for value in bad:
            r = self.patch(url, _replace('network_data', value),
                           version='1.66', status=400)
            self.assertFault(r, 400, 'network_data')
        self.assertFalse(self.db.get_node_by_id(node.id).network_data)
        r = self.post('/v1/nodes', {'driver': 'fake-hardware',
                                    'network_data': {'links': [{}]}},
                      version='1.66', status=400)
        self.assertFault(r, 400, 'network_data')

    def test_lessee_filter(self):
        self.create_node(name='a', lessee='p1')
        self.create_node(name='b', lessee='p2')
        self.create_node(name='c')
        doc = self.get('/v1/nodes?lessee=p1', version='1.65').json
        self.assertEqual(['a'], [n['name'] for n in doc['nodes']])
        r = self.get('/v1/nodes?lessee=p1', version='1.64', status=406)
        self.assertFault(r, 406, 'lessee')


class TestConfigDriveNetworkData(base.APITestCase):

    def test_dict_config_drive_gets_the_node_network_data(self):
        node = self.create_node(network_data=NETWORK_DATA)
        drive = {'meta_data': {'hostname': 'h1'}}
        self.assertEqual(dict(drive, network_data=NETWORK_DATA),
                         runner.with_network_data(node, drive))

    def test_config_drive_network_data_wins(self):
        node = self.create_node(network_data=NETWORK_DATA)
        drive = {'network_data': {'links': []}}
        self.assertEqual(drive, runner.with_network_data(node, drive))

    def test_string_config_drive_and_no_network_data_unchanged(self):
        node = self.create_node(network_data=NETWORK_DATA)
        self.assertEqual('H4sI...', runner.with_network_data(node,
                                                             'H4sI...'))
        bare = self.create_node()
        drive = {'meta_data': {}}
        self.assertEqual(drive, runner.with_network_data(bare, drive))
