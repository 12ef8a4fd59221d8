"""Ports: CRUD, the node's ports, filters, and the errors."""

from tempest.lib.common.utils import data_utils
from tempest.lib import decorators
from tempest.lib import exceptions as lib_exc

from ironic_like.tests.tempest.api import base


class TestPorts(base.BaseBaremetalLikeTest):

    min_microversion = '1.34'

    def setUp(self):
        super().setUp()
        self.node = self.create_node()

    @decorators.idempotent_id('55285135-c13c-423b-81b9-661582d8fa93')
    def test_create_show_update_delete(self):
        mac = data_utils.rand_mac_address()
        port = self.create_port(self.node['uuid'], address=mac.upper(),
                                extra={'tempest': 'yes'})
        # MACs are stored in lower case.
        self.assertEqual(mac.lower(), port['address'])
        self.assertEqual(self.node['uuid'], port['node_uuid'])
        self.assertTrue(port['pxe_enabled'])
        shown = self.client.show_port(port['uuid'])
        self.assertEqual(port['extra'], shown['extra'])
        updated = self.client.update_port(port['uuid'], [
            {'op': 'replace', 'path': '/pxe_enabled', 'value': False},
            {'op': 'remove', 'path': '/extra/tempest'}])
        self.assertFalse(updated['pxe_enabled'])
        self.assertEqual({}, updated['extra'])
        self.client.delete_port(port['uuid'])
        self.assertRaises(lib_exc.NotFound, self.client.show_port,
                          port['uuid'])

    @decorators.idempotent_id('f1b6d3a8-4c29-4e7b-9d05-2a8c6e1f3b97')
    def test_port_name(self):
        name = data_utils.rand_name('tempest-port')
        with self.client.microversion('1.88'):
            port = self.create_port(self.node['uuid'],
                                    address=data_utils.rand_mac_address(),
                                    name=name)
            self.assertEqual(name, port['name'])
            self.assertEqual(port['uuid'], self.client.show_port(name)['uuid'])
            self.assertRaises(lib_exc.Conflict, self.create_port,
                              self.node['uuid'],
                              address=data_utils.rand_mac_address(),
                              name=name)
        with self.client.microversion('1.87'):
            self.assertNotIn('name', self.client.show_port(port['uuid']))
            self.assertRaises(lib_exc.BadRequest, self.client.show_port,
                              name)

    @decorators.idempotent_id('3d8e1f6a-9b27-4c50-8e14-6a2f7c9d0b53')
    def test_ovn_vtep_link(self):
        link = {'port_id': 'Eth1/9', 'vtep-logical-switch': 'ls-tempest',
                'vtep-physical-switch': 'ps-tempest'}
        with self.client.microversion('1.90'):
            port = self.create_port(self.node['uuid'],
                                    address=data_utils.rand_mac_address(),
                                    local_link_connection=link)
            self.assertEqual(link, port['local_link_connection'])
            half = dict(link)
            del half['vtep-physical-switch']
            self.assertRaises(lib_exc.BadRequest, self.create_port,
                              self.node['uuid'],
                              address=data_utils.rand_mac_address(),
                              local_link_connection=half)
        with self.client.microversion('1.89'):
            shown = self.client.show_port(port['uuid'])
            self.assertEqual({}, shown['local_link_connection'])
            self.assertRaises(lib_exc.NotAcceptable, self.create_port,
                              self.node['uuid'],
                              address=data_utils.rand_mac_address(),
                              local_link_connection=link)

    @decorators.idempotent_id('b9c2e4f7-1a38-4d65-9e07-5f3a8c1d2e64')
    def test_create_with_node_ident(self):
        name = data_utils.rand_name('tempest-node').lower()
        node = self.create_node(name=name)
        with self.client.microversion('1.94'):
            port = self.create_port(None, node_ident=name,
                                    address=data_utils.rand_mac_address())
            self.assertEqual(node['uuid'], port['node_uuid'])
        with self.client.microversion('1.93'):
            self.assertRaises(lib_exc.NotAcceptable, self.create_port, None,
                              node_ident=name,
                              address=data_utils.rand_mac_address())

    @decorators.idempotent_id('1f6c3b8e-9d47-4a25-8e13-7b2d5c9a0f46')
    def test_texts_and_filters(self):
        # The cluster's conductors serve the default group only: no node
        # is in this one.
        group = data_utils.rand_name('tempest-cg').lower()
        node = self.create_node()
        with self.client.microversion('1.101'):
            port = self.create_port(node['uuid'],
                                    description='uplink to tor-9',
                                    vendor='mellanox', category='storage')
            self.assertEqual(('uplink to tor-9', 'mellanox', 'storage'),
                             (port['description'], port['vendor'],
                              port['category']))
            found = self.client.list_ports(conductor_groups=group)
            self.assertEqual([], found['ports'])
            found = self.client.list_ports(
                description_contains='tor-9', node=node['uuid'])
            self.assertEqual([port['uuid']],
                             [p['uuid'] for p in found['ports']])
        with self.client.microversion('1.111'):
            self.assertIs(True, self.client.show_port(port['uuid'])[
                'available_for_dynamic_portgroup'])
            updated = self.client.update_port(port['uuid'], [
                {'op': 'replace',
                 'path': '/available_for_dynamic_portgroup',
                 'value': False}])
            self.assertIs(False, updated['available_for_dynamic_portgroup'])
        with self.client.microversion('1.99'):
            self.assertNotIn('vendor', self.client.show_port(port['uuid']))
        with self.client.microversion('1.98'):
            self.assertRaises(lib_exc.NotAcceptable, self.client.list_ports,
                              conductor_groups=group)

    @decorators.idempotent_id('ab714e26-2719-48a2-b971-870501276f30')
    def test_list_by_node_and_address(self):
        ports = [self.create_port(self.node['uuid']) for _ in range(2)]
        other = self.create_port(self.create_node()['uuid'])
        listed = self.client.list_node_ports(self.node['uuid'])['ports']
        self.assertEqual(sorted(p['uuid'] for p in ports),
                         sorted(p['uuid'] for p in listed))
        listed = self.client.list_ports(node=self.node['uuid'])['ports']
        self.assertEqual(sorted(p['uuid'] for p in ports),
                         sorted(p['uuid'] for p in listed))
        listed = self.client.list_ports(address=other['address'])['ports']
        self.assertEqual([other['uuid']], [p['uuid'] for p in listed])
        detailed = self.client.list_ports(detail=True,
                                          node=self.node['uuid'])['ports']
        self.assertIn('extra', detailed[0])

    @decorators.attr(type='negative')
    @decorators.idempotent_id('2449170a-0f21-4f4c-bf90-c1fbd3f4a33e')
    def test_errors(self):
        port = self.create_port(self.node['uuid'])
        # The same MAC twice.
        self.assertRaises(lib_exc.Conflict, self.client.create_port,
                          node_uuid=self.node['uuid'],
                          address=port['address'])
        self.assertRaises(lib_exc.BadRequest, self.client.create_port,
                          node_uuid=self.node['uuid'], address='not-a-mac')
        self.assertRaises(lib_exc.BadRequest, self.client.create_port,
                          node_uuid=data_utils.rand_uuid(),
                          address=data_utils.rand_mac_address())
        self.assertRaises(lib_exc.NotFound, self.client.show_port,
                          data_utils.rand_uuid())
        self.assertRaises(lib_exc.BadRequest, self.client.update_port,
                          port['uuid'], [{'op': 'replace',
                                          'path': '/address',
                                          'value': 'zz:zz'}])
