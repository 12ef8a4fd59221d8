"""Port groups in the database."""

from oslo_utils import uuidutils

from ironic_like.common import exception
from ironic_like.tests import base
from ironic_like.tests.unit.db import utils


class TestPortgroups(base.TestCase):

    def setUp(self):
        super().setUp()
        self.node = utils.create_test_node()

    def _create(self, **values):
        values.setdefault('node_id', self.node.id)
        return self.db.create_portgroup(values)

    def test_create_defaults_and_get(self):
        pg = self._create(name='bond0', address='52:54:00:00:00:01')
        self.assertTrue(uuidutils.is_uuid_like(pg.uuid))
        self.assertTrue(pg.standalone_ports_supported)
        self.assertEqual('active-backup', pg.mode)
        for key in ('extra', 'internal_info', 'properties'):
            self.assertEqual({}, getattr(pg, key))
        for found in (self.db.get_portgroup_by_id(pg.id),
                      self.db.get_portgroup_by_uuid(pg.uuid),
                      self.db.get_portgroup_by_name('bond0'),
                      self.db.get_portgroup_by_address(
                          '52:54:00:00:00:01')):
            self.assertEqual(pg.id, found.id)
        self.assertEqual([pg.id], [
            p.id for p in self.db.get_portgroups_by_node_id(self.node.id)])

    def test_mode_default_follows_option(self):
        self.config(default_portgroup_mode='802.3ad')
        self.assertEqual('802.3ad', self._create().mode)
        self.assertEqual('balance-rr', self._create(mode='balance-rr').mode)

    def test_address_may_be_null(self):
        self.assertIsNone(self._create().address)
        # Several groups without an address: null is not a duplicate.
        self.assertIsNone(self._create().address)

    def test_not_found(self):
        self.assertRaises(exception.PortgroupNotFound,
                          self.db.get_portgroup_by_id, 9)
        self.assertRaises(exception.PortgroupNotFound,
                          self.db.get_portgroup_by_uuid,
                          uuidutils.generate_uuid())
        self.assertRaises(exception.PortgroupNotFound,
                          self.db.get_portgroup_by_name, 'nope')
        self.assertRaises(exception.PortgroupNotFound,
                          self.db.update_portgroup, 9, {'extra': {}})
        self.assertRaises(exception.PortgroupNotFound,
                          self.db.destroy_portgroup, 9)

    def test_duplicates(self):
        pg = self._create(name='bond0', address='52:54:00:00:00:01')
        e = self.assertRaises(exception.PortgroupDuplicateName,
                              self._create, name='bond0')
        self.assertIn('bond0', str(e))
        e = self.assertRaises(exception.PortgroupMACAlreadyExists,
                              self._create, address='52:54:00:00:00:01')
        self.assertIn('52:54:00:00:00:01', str(e))
        self.assertRaises(exception.PortgroupAlreadyExists, self._create,
                          uuid=pg.uuid)
        other = self._create(name='bond1')
        self.assertRaises(exception.PortgroupDuplicateName,
                          self.db.update_portgroup, other.id,
                          {'name': 'bond0'})
        self.assertRaises(exception.PortgroupMACAlreadyExists,
                          self.db.update_portgroup, other.id,
                          {'address': '52:54:00:00:00:01'})

    def test_create_for_missing_node(self):
        self.assertRaises(exception.NodeNotFound, self._create, node_id=999)

    def test_update(self):
        pg = self._create()
        updated = self.db.update_portgroup(pg.id, {
            'extra': {'a': 'b'}, 'properties': None, 'mode': '802.3ad',
            'standalone_ports_supported': False, 'uuid': 'ignored',
            'id': 77})
        self.assertEqual({'a': 'b'}, updated.extra)
        self.assertEqual({}, updated.properties)
        self.assertEqual('802.3ad', updated.mode)
        self.assertFalse(updated.standalone_ports_supported)
        self.assertEqual(pg.uuid, updated.uuid)

    def test_move_only_when_empty(self):
        other = utils.create_test_node()
        pg = self._create()
        port = utils.create_test_port(self.node.id, portgroup_id=pg.id)
        self.assertRaises(exception.PortgroupNotEmpty,
                          self.db.update_portgroup, pg.id,
                          {'node_id': other.id})
        # Other changes of a group with ports are fine.
        self.db.update_portgroup(pg.id, {'node_id': self.node.id,
                                         'extra': {'x': 1}})
        self.db.update_port(port.id, {'portgroup_id': None})
        self.assertEqual(other.id, self.db.update_portgroup(
            pg.id, {'node_id': other.id}).node_id)
        self.assertRaises(exception.NodeNotFound, self.db.update_portgroup,
                          pg.id, {'node_id': 999})

    def test_destroy_only_when_empty(self):
        pg = self._create()
        port = utils.create_test_port(self.node.id, portgroup_id=pg.id)
        e = self.assertRaises(exception.PortgroupNotEmpty,
                              self.db.destroy_portgroup, pg.id)
        self.assertIn(pg.uuid, str(e))
        self.db.destroy_port(port.id)
        self.db.destroy_portgroup(pg.id)
        self.assertRaises(exception.PortgroupNotFound,
                          self.db.get_portgroup_by_id, pg.id)

    def test_list_filters_and_pagination(self):
        other = utils.create_test_node()
        groups = [self._create(address='52:54:00:00:00:0%d' % i)
                  for i in range(1, 4)]
        foreign = self._create(node_id=other.id, name='foreign')
        self.assertEqual([g.id for g in groups], [
            g.id for g in self.db.get_portgroup_list(
                filters={'node_id': self.node.id})])
        self.assertEqual([groups[1].id], [
            g.id for g in self.db.get_portgroup_list(
                filters={'address': '52:54:00:00:00:02'})])
        self.assertEqual([foreign.id], [
            g.id for g in self.db.get_portgroup_list(
                filters={'id_in': [foreign.id]})])
        page = self.db.get_portgroup_list(limit=2, marker=groups[0].uuid)
        self.assertEqual([groups[1].id, groups[2].id], [g.id for g in page])
        by_name = self.db.get_portgroup_list(sort_key='name',
                                             sort_dir='desc')
        self.assertEqual('foreign', by_name[0].name)
        e = self.assertRaises(exception.InvalidParameterValue,
                              self.db.get_portgroup_list,
                              marker=uuidutils.generate_uuid())
        self.assertEqual('marker', e.field)
        e = self.assertRaises(exception.InvalidParameterValue,
                              self.db.get_portgroup_list, sort_key='extra')
        self.assertEqual('sort_key', e.field)

    def test_uuids_of_ids(self):
        a, b = self._create(), self._create()
        self.assertEqual({a.id: a.uuid, b.id: b.uuid},
                         self.db.get_portgroup_uuids([a.id, b.id, None]))
        self.assertEqual({}, self.db.get_portgroup_uuids([None]))
        self.assertEqual({}, self.db.get_portgroup_uuids([999]))

    def test_ports_of_a_group(self):
        pg = self._create()
        member = utils.create_test_port(self.node.id, portgroup_id=pg.id)
        utils.create_test_port(self.node.id)
        self.assertEqual([member.id], [
            p.id for p in self.db.get_ports_by_portgroup_id(pg.id)])
        self.assertEqual([member.id], [
            p.id for p in self.db.get_port_list(
                filters={'portgroup_id': pg.id})])

    def test_port_in_missing_group(self):
        self.assertRaises(exception.PortgroupNotFound,
                          utils.create_test_port, self.node.id,
                          portgroup_id=999)
        port = utils.create_test_port(self.node.id)
        self.assertRaises(exception.PortgroupNotFound, self.db.update_port,
                          port.id, {'portgroup_id': 999})

    def test_destroy_node_deletes_groups_and_ports(self):
        pg = self._create()
        port = utils.create_test_port(self.node.id, portgroup_id=pg.id)
        self.db.destroy_node(self.node.id)
        self.assertRaises(exception.PortgroupNotFound,
                          self.db.get_portgroup_by_id, pg.id)
        self.assertRaises(exception.PortNotFound, self.db.get_port_by_id,
                          port.id)
