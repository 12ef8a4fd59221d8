"""/v1/nodes: lessee (1.65) and network_data (1.66), and the fields of
1.65-1.75 appearing at their versions."""

import copy

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


# What Ironic's schema accepts: a bond of two NICs, a VLAN on the bond,
# static IPv4 and IPv6 networks with routes, a DHCP network, DNS servers.
FULL_NETWORK_DATA = {
    'links': [
        {'id': 'eth0', 'type': 'phy', 'mtu': 9000,
         'ethernet_mac_address': '52:54:00:00:00:01'},
        {'id': 'eth1', 'type': 'phy', 'mtu': None,
         'ethernet_mac_address': '52-54-00-00-00-02'},
        {'id': 'bond0', 'type': 'bond', 'bond_mode': '802.3ad',
         'bond_links': ['eth0', 'eth1'],
         'ethernet_mac_address': '52:54:00:00:00:01',
         'vif_id': 'cd9f6d46-4a3a-43ab-a466-994af9db96fc'},
        {'id': 'vlan100', 'type': 'vlan', 'vlan_id': 100,
         'vlan_link': 'bond0', 'vlan_mac_address': 'FA:16:3E:9C:BF:3D'},
    ],
    'networks': [
        {'id': 'public4', 'type': 'ipv4', 'link': 'vlan100',
         'network_id': '99e88329-f20d-4741-9593-25bf07847b16',
         'ip_address': '198.51.100.10', 'netmask': '255.255.252.0',
         'routes': [{'network': '0.0.0.0', 'netmask': '0.0.0.0',
                     'gateway': '198.51.100.1',
                     'services': [{'type': 'dns',
                                   'address': '198.51.100.53'}]}]},
        {'id': 'public6', 'type': 'ipv6', 'link': 'vlan100',
         'network_id': '99e88329-f20d-4741-9593-25bf07847b16',
         'ip_address': '2001:db8:3:4::10/64',
         'netmask': 'ffff:ffff:ffff:ffff::',
         'routes': [{'network': '::', 'netmask': '::',
                     'gateway': 'fe80::1%bond0'}]},
        {'id': 'prov', 'type': 'ipv4_dhcp', 'link': 'eth0',
         'network_id': 'prov'},
        {'id': 'slaac', 'type': 'ipv6_slaac', 'link': 'eth1',
         'network_id': 'slaac'},
    ],
    'services': [{'type': 'dns', 'address': '198.51.100.53'},
                 {'type': 'dns', 'address': '2001:db8::53'}],
}


def _with(path, value):
    """FULL_NETWORK_DATA with the key at ``path`` (a tuple) set to
    ``value``, or removed if ``value`` is _REMOVE."""
    doc = copy.deepcopy(FULL_NETWORK_DATA)
    target = doc
    for key in path[:-1]:
        target = target[key]
    if value is _REMOVE:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return doc


_REMOVE = object()

# Documents Ironic refuses, and where the error is reported (inside
# network_data, or the message of an error on the document itself).
BAD_NETWORK_DATA = [
    # Unknown link, network and service types.
    (('links', 0, 'type'), 'ethernet', 'links[0].type'),
    (('networks', 0, 'type'), 'ipv5', 'networks[0].type'),
    (('services', 0, 'type'), 'ntp', 'services[0].type'),
    # Bad MAC addresses.
    (('links', 0, 'ethernet_mac_address'), '52:54:00:00:00',
     'links[0].ethernet_mac_address'),
    (('links', 2, 'ethernet_mac_address'), '52:54:00:00:00:0g',
     'links[2].ethernet_mac_address'),
    (('links', 3, 'vlan_mac_address'), '525400000001',
     'links[3].vlan_mac_address'),
    # Missing required fields of each kind of link and network.
    (('links', 0, 'ethernet_mac_address'), _REMOVE, 'links[0]'),
    (('links', 2, 'bond_links'), _REMOVE, 'links[2]'),
    (('links', 3, 'vlan_id'), _REMOVE, 'links[3]'),
    (('links', 3, 'vlan_link'), _REMOVE, 'links[3]'),
    (('networks', 2, 'network_id'), _REMOVE, 'networks[2]'),
    (('networks', 0, 'routes', 0, 'gateway'), _REMOVE,
     'networks[0].routes[0]'),
    (('services', 1, 'address'), _REMOVE, 'services[1]'),
    (('services',), _REMOVE, "'services' is a required property"),
    # Bad values.
    (('links', 2, 'bond_mode'), 'lacp', 'links[2].bond_mode'),
    (('links', 3, 'vlan_id'), '100', 'links[3].vlan_id'),
    (('links', 0, 'mtu'), 0, 'links[0]'),
    # Bad IP addresses and netmasks, or of the other family.
    (('networks', 0, 'ip_address'), '198.51.100.300',
     'networks[0].ip_address'),
    (('networks', 0, 'ip_address'), '2001:db8::10',
     'networks[0].ip_address'),
    (('networks', 0, 'netmask'), '255.0.255.0', 'networks[0].netmask'),
    (('networks', 1, 'ip_address'), '2001:db8::g',
     'networks[1].ip_address'),
    (('networks', 0, 'routes', 0, 'gateway'), 'router',
     'networks[0].routes[0].gateway'),
    (('networks', 1, 'routes', 0, 'network'), '0.0.0.0',
     'networks[1].routes[0].network'),
    (('networks', 0, 'routes', 0, 'services', 0, 'address'),
     '2001:db8::53', 'networks[0].routes[0].services[0].address'),
    (('services', 0, 'address'), 'ns1.example.com',
     'services[0].address'),
]


def _fragment(where):
    return where if where.startswith("'") else 'network_data.' + where


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

    def test_ironic_document_accepted(self):
        doc = self.post('/v1/nodes', {'driver': 'fake-hardware',
                                      'network_data': FULL_NETWORK_DATA},
                        version='1.66').json
        self.assertEqual(FULL_NETWORK_DATA, doc['network_data'])
        node = self.create_node()
        url = '/v1/nodes/%s' % node.uuid
        self.patch(url, _replace('network_data', FULL_NETWORK_DATA),
                   version='1.66')
        self.assertEqual(FULL_NETWORK_DATA,
                         self.db.get_node_by_id(node.id).network_data)
        # Keys the schema does not describe are left alone, as in Ironic.
        extra = _with(('links', 0, 'name'), 'nic1')
        extra['foo'] = 'bar'
        self.patch(url, _replace('network_data', extra), version='1.66')
        self.assertEqual(extra, self.db.get_node_by_id(node.id).network_data)
        # A change inside the document is checked on the result.
        self.patch(url, [{'op': 'add', 'path': '/network_data/services/-',
                          'value': {'type': 'dns', 'address': '::1'}}],
                   version='1.66')
        r = self.patch(url, [{'op': 'add',
                              'path': '/network_data/services/-',
                              'value': {'type': 'dns', 'address': 'x'}}],
                       version='1.66', status=400)
        self.assertFault(r, 400, 'network_data', 'services[3]')

    def test_empty_network_data(self):
        for value in ({}, None):
            doc = self.post('/v1/nodes', {'driver': 'fake-hardware',
                                          'network_data': value},
                            version='1.66').json
            self.assertEqual({}, doc['network_data'])
        # A PATCH sets a whole document (Ironic's check), or removes it.
        node = self.create_node(network_data=FULL_NETWORK_DATA)
        url = '/v1/nodes/%s' % node.uuid
        for value in ({}, None, {'links': [], 'networks': []}):
            r = self.patch(url, _replace('network_data', value),
                           version='1.66', status=400)
            self.assertFault(r, 400, 'network_data')
        self.assertEqual(FULL_NETWORK_DATA,
                         self.db.get_node_by_id(node.id).network_data)
        empty = {'links': [], 'networks': [], 'services': []}
        self.patch(url, _replace('network_data', empty), version='1.66')
        self.assertEqual(empty, self.db.get_node_by_id(node.id).network_data)

    def test_documents_ironic_refuses(self):
        node = self.create_node(network_data=NETWORK_DATA)
        url = '/v1/nodes/%s' % node.uuid
        for path, value, where in BAD_NETWORK_DATA:
            bad = _with(path, value)
            r = self.patch(url, _replace('network_data', bad),
                           version='1.66', status=400)
            message = self.assertFault(r, 400, 'network_data')
            self.assertIn(_fragment(where), message, path)
            r = self.post('/v1/nodes', {'driver': 'fake-hardware',
                                        'network_data': bad},
                          version='1.66', status=400)
            message = self.assertFault(r, 400, 'network_data')
            self.assertIn(_fragment(where), message, path)
        self.assertEqual(NETWORK_DATA,
                         self.db.get_node_by_id(node.id).network_data)
        self.assertEqual([node.uuid],
                         [n.uuid for n in self.db.get_node_list()])

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
