"""Port groups: create, show, list (by node, by address, detail),
update, delete; ports in a group (a port's portgroup_uuid, the group's
ports, the port list's portgroup filter); the errors and the versions
that gate them (1.23 the resource, 1.24 ports in groups, 1.26 mode and
properties)."""

from tempest.lib.common.utils import data_utils
from tempest.lib import decorators
from tempest.lib import exceptions as lib_exc

from ironic_like.tests.tempest.api import base


class PortgroupTestBase(base.BaseBaremetalLikeTest):

    min_microversion = '1.26'

    def setUp(self):
        super().setUp()
        self.node = self.create_node()

    def create_portgroup(self, node_uuid, **fields):
        fields.setdefault('address', data_utils.rand_mac_address())
        fields.setdefault('name', base.rand_name('tempest-pg'))
        portgroup = self.client.create_portgroup(node_uuid=node_uuid,
                                                 **fields)
        self.addCleanup(self._delete_portgroup, portgroup['uuid'])
        return portgroup

    def _delete_portgroup(self, uuid):
        """Delete the group, first taking out any port still in it (a
        test failing half-way may leave one; a group with ports cannot be
        deleted)."""
        try:
            ports = self.client.list_portgroup_ports(uuid)['ports']
        except lib_exc.NotFound:
            return
        for port in ports:
            self._ignore_not_found(
                self.client.update_port, port['uuid'],
                [{'op': 'remove', 'path': '/portgroup_uuid'}])
        self._ignore_not_found(self.client.delete_portgroup, uuid)


class TestPortgroups(PortgroupTestBase):

    @decorators.idempotent_id('7104531a-0a69-41c4-b257-1daf618b96af')
    def test_create_show_update_delete(self):
        mac = data_utils.rand_mac_address()
        name = base.rand_name('tempest-pg')
        portgroup = self.create_portgroup(
            self.node['uuid'], address=mac.upper(), name=name,
            mode='802.3ad', properties={'miimon': '100'},
            extra={'tempest': 'yes'}, standalone_ports_supported=False)
        # MACs are stored in lower case.
        self.assertEqual(mac.lower(), portgroup['address'])
        self.assertEqual(name, portgroup['name'])
        self.assertEqual(self.node['uuid'], portgroup['node_uuid'])
        self.assertEqual('802.3ad', portgroup['mode'])
        self.assertEqual({'miimon': '100'}, portgroup['properties'])
        self.assertIs(False, portgroup['standalone_ports_supported'])
        for ident in (portgroup['uuid'], name):
            shown = self.client.show_portgroup(ident)
            self.assertEqual(portgroup['uuid'], shown['uuid'])
            self.assertEqual(portgroup['extra'], shown['extra'])
        new_name = base.rand_name('tempest-pg')
        updated = self.client.update_portgroup(portgroup['uuid'], [
            {'op': 'replace', 'path': '/name', 'value': new_name},
            {'op': 'replace', 'path': '/standalone_ports_supported',
             'value': True},
            {'op': 'add', 'path': '/properties/xmit_hash_policy',
             'value': 'layer3+4'},
            {'op': 'remove', 'path': '/extra/tempest'},
            {'op': 'remove', 'path': '/address'}])
        self.assertEqual(new_name, updated['name'])
        self.assertIs(True, updated['standalone_ports_supported'])
        self.assertEqual({'miimon': '100', 'xmit_hash_policy': 'layer3+4'},
                         updated['properties'])
        self.assertEqual({}, updated['extra'])
        self.assertIsNone(updated['address'])
        self.assertEqual(new_name,
                         self.client.show_portgroup(new_name)['name'])
        self.client.delete_portgroup(portgroup['uuid'])
        self.assertRaises(lib_exc.NotFound, self.client.show_portgroup,
                          portgroup['uuid'])

    @decorators.idempotent_id('a97d835a-9d34-4a64-a704-0473a05ae153')
    def test_list_by_node_and_address(self):
        mine = sorted(self.create_portgroup(self.node['uuid'])['uuid']
                      for _ in range(2))
        other = self.create_portgroup(self.create_node()['uuid'])
        listed = self.client.list_portgroups(node=self.node['uuid'])
        self.assertEqual(mine, sorted(pg['uuid']
                                      for pg in listed['portgroups']))
        listed = self.client.list_portgroups(node=self.node['name'])
        self.assertEqual(mine, sorted(pg['uuid']
                                      for pg in listed['portgroups']))
        listed = self.client.list_node_portgroups(self.node['uuid'])
        self.assertEqual(mine, sorted(pg['uuid']
                                      for pg in listed['portgroups']))
        listed = self.client.list_portgroups(address=other['address'])
        self.assertEqual([other['uuid']],
                         [pg['uuid'] for pg in listed['portgroups']])
        # The short form, the detailed one, and fields.
        short = self.client.list_portgroups(node=self.node['uuid'])
        self.assertNotIn('mode', short['portgroups'][0])
        detailed = self.client.list_portgroups(detail=True,
                                               node=self.node['uuid'])
        self.assertIn('mode', detailed['portgroups'][0])
        self.assertEqual(self.node['uuid'],
                         detailed['portgroups'][0]['node_uuid'])
        by_fields = self.client.list_portgroups(node=self.node['uuid'],
                                                fields=['uuid', 'mode'])
        self.assertIn('mode', by_fields['portgroups'][0])
        self.assertNotIn('address', by_fields['portgroups'][0])

    @decorators.idempotent_id('3768426f-3042-4f1b-99ac-9c9eac962ac9')
    def test_ports_in_a_group(self):
        portgroup = self.create_portgroup(self.node['uuid'])
        # Ports after the group: their clean-ups run first.
        member = self.create_port(self.node['uuid'],
                                  portgroup_uuid=portgroup['uuid'])
        self.assertEqual(portgroup['uuid'], member['portgroup_uuid'])
        loose = self.create_port(self.node['uuid'])
        self.assertIsNone(loose['portgroup_uuid'])
        listed = self.client.list_portgroup_ports(portgroup['uuid'])
        self.assertEqual([member['uuid']],
                         [p['uuid'] for p in listed['ports']])
        for ident in (portgroup['uuid'], portgroup['name']):
            listed = self.client.list_ports(portgroup=ident)
            self.assertEqual([member['uuid']],
                             [p['uuid'] for p in listed['ports']])
        # The other port joins by PATCH, the first leaves.
        updated = self.client.update_port(loose['uuid'], [
            {'op': 'add', 'path': '/portgroup_uuid',
             'value': portgroup['uuid']}])
        self.assertEqual(portgroup['uuid'], updated['portgroup_uuid'])
        updated = self.client.update_port(member['uuid'], [
            {'op': 'remove', 'path': '/portgroup_uuid'}])
        self.assertIsNone(updated['portgroup_uuid'])
        listed = self.client.list_portgroup_ports(portgroup['uuid'])
        self.assertEqual([loose['uuid']],
                         [p['uuid'] for p in listed['ports']])

    @decorators.idempotent_id('c7e2a9f4-5b13-4d86-9a02-6f1e8d3b4c57')
    def test_physical_network_and_category(self):
        with self.client.microversion('1.103'):
            portgroup = self.create_portgroup(self.node['uuid'],
                                              physical_network='prov',
                                              category='uplink')
            self.assertEqual(('prov', 'uplink'),
                             (portgroup['physical_network'],
                              portgroup['category']))
            member = self.create_port(self.node['uuid'],
                                      portgroup_uuid=portgroup['uuid'],
                                      physical_network='prov')
            self.assertRaises(lib_exc.Conflict, self.create_port,
                              self.node['uuid'],
                              portgroup_uuid=portgroup['uuid'],
                              physical_network='tenant')
            self.client.update_portgroup(portgroup['uuid'], [
                {'op': 'replace', 'path': '/physical_network',
                 'value': 'storage'}])
            self.assertEqual('storage', self.client.show_port(
                member['uuid'])['physical_network'])
        with self.client.microversion('1.101'):
            shown = self.client.show_portgroup(portgroup['uuid'])
            self.assertNotIn('physical_network', shown)


class TestPortgroupErrors(PortgroupTestBase):

    @decorators.attr(type='negative')
    @decorators.idempotent_id('a5b0e036-2744-4f4d-8e12-a5c5fe87c803')
    def test_delete_not_empty(self):
        portgroup = self.create_portgroup(self.node['uuid'])
        port = self.create_port(self.node['uuid'],
                                portgroup_uuid=portgroup['uuid'])
        self.assertRaises(lib_exc.BadRequest, self.client.delete_portgroup,
                          portgroup['uuid'])
        self.assertEqual(portgroup['uuid'], self.client.show_portgroup(
            portgroup['uuid'])['uuid'])
        # Empty, it goes.
        self.client.delete_port(port['uuid'])
        self.client.delete_portgroup(portgroup['uuid'])
        self.assertRaises(lib_exc.NotFound, self.client.show_portgroup,
                          portgroup['uuid'])

    @decorators.attr(type='negative')
    @decorators.idempotent_id('48a4b1f7-1bdf-43f5-b8d6-867f9d80fc14')
    def test_errors(self):
        portgroup = self.create_portgroup(self.node['uuid'])
        # Another group with the same MAC.
        self.assertRaises(lib_exc.Conflict, self.client.create_portgroup,
                          node_uuid=self.node['uuid'],
                          address=portgroup['address'])
        # An unknown node.
        self.assertRaises(lib_exc.BadRequest, self.client.create_portgroup,
                          node_uuid=data_utils.rand_uuid(),
                          address=data_utils.rand_mac_address())
        self.assertRaises(lib_exc.NotFound, self.client.show_portgroup,
                          data_utils.rand_uuid())
        self.assertRaises(lib_exc.NotFound, self.client.delete_portgroup,
                          data_utils.rand_uuid())

    @decorators.attr(type='negative')
    @decorators.idempotent_id('3263fc62-2761-4532-ba05-4cbcd0786440')
    def test_versions(self):
        portgroup = self.create_portgroup(self.node['uuid'],
                                          mode='active-backup')
        # Below 1.23 there are no port groups at all.
        with self.client.microversion('1.22'):
            self.assertRaises(lib_exc.NotFound, self.client.list_portgroups)
            self.assertRaises(lib_exc.NotFound, self.client.show_portgroup,
                              portgroup['uuid'])
            self.assertRaises(lib_exc.NotFound,
                              self.client.create_portgroup,
                              node_uuid=self.node['uuid'],
                              address=data_utils.rand_mac_address())
            self.assertRaises(lib_exc.NotFound,
                              self.client.delete_portgroup,
                              portgroup['uuid'])
        # The group is still there; mode and properties are shown from
        # 1.26 only.
        with self.client.microversion('1.25'):
            shown = self.client.show_portgroup(portgroup['uuid'])
        self.assertNotIn('mode', shown)
        self.assertNotIn('properties', shown)
        shown = self.client.show_portgroup(portgroup['uuid'])
        self.assertEqual('active-backup', shown['mode'])
