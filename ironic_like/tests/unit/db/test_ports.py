"""Ports in the database."""

from oslo_utils import uuidutils

from ironic_like.common import exception
from ironic_like.tests import base
from ironic_like.tests.unit.db import utils


class TestPorts(base.TestCase):

    def setUp(self):
        super().setUp()
        self.node = utils.create_test_node()

    def test_create_and_get(self):
        port = self.db.create_port({'address': '52:54:00:00:00:01',
                                    'node_id': self.node.id})
        self.assertTrue(uuidutils.is_uuid_like(port.uuid))
        self.assertTrue(port.pxe_enabled)
        self.assertEqual({}, port.extra)
        self.assertEqual({}, port.local_link_connection)
        for found in (self.db.get_port_by_id(port.id),
                      self.db.get_port_by_uuid(port.uuid),
                      self.db.get_port_by_address('52:54:00:00:00:01')):
            self.assertEqual(port.id, found.id)
        self.assertEqual([port.id], [
            p.id for p in self.db.get_ports_by_node_id(self.node.id)])

    def test_not_found(self):
        self.assertRaises(exception.PortNotFound, self.db.get_port_by_id, 9)
        self.assertRaises(exception.PortNotFound, self.db.get_port_by_uuid,
                          uuidutils.generate_uuid())
        self.assertRaises(exception.PortNotFound,
                          self.db.get_port_by_address, '52:54:00:00:00:09')
        self.assertRaises(exception.PortNotFound, self.db.update_port, 9,
                          {'extra': {}})
        self.assertRaises(exception.PortNotFound, self.db.destroy_port, 9)

    def test_duplicate_address(self):
        utils.create_test_port(self.node.id, address='52:54:00:00:00:01')
        other = utils.create_test_node()
        e = self.assertRaises(exception.MACAlreadyExists,
                              utils.create_test_port, other.id,
                              address='52:54:00:00:00:01')
        self.assertIn('52:54:00:00:00:01', str(e))

    def test_duplicate_uuid(self):
        port = utils.create_test_port(self.node.id)
        self.assertRaises(exception.PortAlreadyExists,
                          utils.create_test_port, self.node.id,
                          uuid=port.uuid)

    def test_create_for_missing_node(self):
        self.assertRaises(exception.NodeNotFound, utils.create_test_port,
                          999)

    def test_update(self):
        port = utils.create_test_port(self.node.id)
        updated = self.db.update_port(port.id, {
            'extra': {'a': 'b'}, 'pxe_enabled': False,
            'physical_network': 'physnet1', 'uuid': 'ignored', 'id': 77})
        self.assertEqual({'a': 'b'}, updated.extra)
        self.assertFalse(updated.pxe_enabled)
        self.assertEqual(port.uuid, updated.uuid)
        self.assertEqual(port.id, updated.id)
        self.assertEqual('physnet1',
                         self.db.get_port_by_id(port.id).physical_network)

    def test_update_duplicate_address(self):
        utils.create_test_port(self.node.id, address='52:54:00:00:00:01')
        port = utils.create_test_port(self.node.id)
        self.assertRaises(exception.MACAlreadyExists, self.db.update_port,
                          port.id, {'address': '52:54:00:00:00:01'})

    def test_destroy(self):
        port = utils.create_test_port(self.node.id)
        self.db.destroy_port(port.id)
        self.assertRaises(exception.PortNotFound, self.db.get_port_by_id,
                          port.id)

    def test_list_filters_and_pagination(self):
        other = utils.create_test_node()
        ports = [utils.create_test_port(self.node.id) for _ in range(3)]
        foreign = utils.create_test_port(other.id)
        self.assertEqual([p.id for p in ports], [
            p.id for p in self.db.get_port_list(
                filters={'node_id': self.node.id})])
        self.assertEqual([foreign.id], [p.id for p in self.db.get_port_list(
            filters={'address': foreign.address})])
        self.assertEqual(
            sorted([ports[0].id, foreign.id]),
            sorted(p.id for p in self.db.get_port_list(
                filters={'addresses': [ports[0].address,
                                       foreign.address]})))
        page = self.db.get_port_list(limit=2, marker=ports[0].uuid)
        self.assertEqual([ports[1].id, ports[2].id], [p.id for p in page])
        by_address = self.db.get_port_list(sort_key='address',
                                           sort_dir='desc')
        addresses = [p.address for p in by_address]
        self.assertEqual(sorted(addresses, reverse=True), addresses)
        e = self.assertRaises(exception.InvalidParameterValue,
                              self.db.get_port_list,
                              marker=uuidutils.generate_uuid())
        self.assertEqual('marker', e.field)
        e = self.assertRaises(exception.InvalidParameterValue,
                              self.db.get_port_list, sort_key='extra')
        self.assertEqual('sort_key', e.field)

    def test_move_to_missing_node(self):
        port = utils.create_test_port(self.node.id)
        self.assertRaises(exception.NodeNotFound, self.db.update_port,
                          port.id, {'node_id': 999})
        self.assertEqual(self.node.id,
                         self.db.get_port_by_id(port.id).node_id)
