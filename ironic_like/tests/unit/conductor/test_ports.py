"""Ports changed under their node's lock."""

from ironic_like.common import context as ctx
from ironic_like.common import exception
from ironic_like.common import states
from ironic_like.conductor import ports
from ironic_like.tests import base
from ironic_like.tests.unit.conductor import utils as cond_utils
from ironic_like.tests.unit.db import utils


class TestPortsOverRPC(cond_utils.ConductorTestCase):

    def test_create_update_destroy(self):
        node = utils.create_test_node()
        uuid = self.api.create_port(self.context, node,
                                    {'address': '52:54:00:aa:bb:cc',
                                     'extra': {'a': 1}})
        port = self.db.get_port_by_uuid(uuid)
        self.assertEqual(node.id, port.node_id)
        self.assertEqual({'a': 1}, port.extra)
        self.api.update_port(self.context, node, port.id,
                             {'pxe_enabled': False})
        self.assertFalse(self.db.get_port_by_id(port.id).pxe_enabled)
        self.api.destroy_port(self.context, node, port.id)
        self.assertRaises(exception.PortNotFound, self.db.get_port_by_id,
                          port.id)
        self.assertIsNone(self.db.get_node_by_id(node.id).reservation)

    def test_duplicate_mac(self):
        node = utils.create_test_node()
        self.api.create_port(self.context, node,
                             {'address': '52:54:00:aa:bb:cc'})
        e = self.assertRaises(exception.MACAlreadyExists,
                              self.api.create_port, self.context, node,
                              {'address': '52:54:00:aa:bb:cc'})
        self.assertIn('52:54:00:aa:bb:cc', str(e))
        self.assertIsNone(self.db.get_node_by_id(node.id).reservation)


class TestPortsDirect(base.TestCase):

    def setUp(self):
        super().setUp()
        self.context = ctx.get_admin_context()
        self.node = utils.create_test_node()

    def test_unknown_field(self):
        e = self.assertRaises(exception.InvalidParameterValue,
                              ports.create_port, self.context, self.node.id,
                              {'address': '52:54:00:aa:bb:cc', 'id': 5})
        self.assertEqual('id', e.field)

    def test_node_id_comes_from_the_call(self):
        other = utils.create_test_node()
        uuid = ports.create_port(self.context, self.node.id,
                                 {'address': '52:54:00:aa:bb:cc',
                                  'node_id': other.id})
        self.assertEqual(self.node.id, self.db.get_port_by_uuid(uuid).node_id)

    def test_locked_node(self):
        self.config(node_locked_retry_attempts=1, group='conductor')
        self.db.reserve_node('other', self.node.id)
        self.assertRaises(exception.NodeLocked, ports.create_port,
                          self.context, self.node.id,
                          {'address': '52:54:00:aa:bb:cc'})
        self.assertEqual([], self.db.get_ports_by_node_id(self.node.id))

    def test_move_port_locks_both_nodes(self):
        other = utils.create_test_node()
        port = utils.create_test_port(self.node.id)
        ports.update_port(self.context, self.node.id, port.id,
                          {'node_id': other.id})
        self.assertEqual(other.id, self.db.get_port_by_id(port.id).node_id)
        for node in (self.node, other):
            self.assertIsNone(self.db.get_node_by_id(node.id).reservation)

    def test_move_port_to_locked_node(self):
        self.config(node_locked_retry_attempts=1, group='conductor')
        other = utils.create_test_node()
        port = utils.create_test_port(self.node.id)
        self.db.reserve_node('someone', other.id)
        self.assertRaises(exception.NodeLocked, ports.update_port,
                          self.context, self.node.id, port.id,
                          {'node_id': other.id})
        self.assertEqual(self.node.id,
                         self.db.get_port_by_id(port.id).node_id)
        self.assertIsNone(self.db.get_node_by_id(self.node.id).reservation)
        self.assertEqual('someone',
                         self.db.get_node_by_id(other.id).reservation)

    def test_address_of_active_node(self):
        node = utils.create_test_node(provision_state=states.ACTIVE)
        port = utils.create_test_port(node.id)
        self.assertRaises(exception.InvalidState, ports.update_port,
                          self.context, node.id, port.id,
                          {'address': '52:54:00:aa:bb:cc'})
        ports.update_port(self.context, node.id, port.id, {'extra': {'x': 1}})
        self.db.update_node(node.id, {'maintenance': True})
        ports.update_port(self.context, node.id, port.id,
                          {'address': '52:54:00:aa:bb:cc'})
        self.assertEqual('52:54:00:aa:bb:cc',
                         self.db.get_port_by_id(port.id).address)

    def test_port_of_another_node(self):
        # The port must belong to the node whose lock is held.
        other = utils.create_test_node()
        port = utils.create_test_port(other.id)
        self.assertRaises(exception.PortNotFound, ports.update_port,
                          self.context, self.node.id, port.id,
                          {'extra': {'x': 1}})
        self.assertRaises(exception.PortNotFound, ports.destroy_port,
                          self.context, self.node.id, port.id)
        self.assertEqual({}, self.db.get_port_by_id(port.id).extra)

    def test_destroy_missing(self):
        self.assertRaises(exception.PortNotFound, ports.destroy_port,
                          self.context, self.node.id, 999)
        self.assertIsNone(self.db.get_node_by_id(self.node.id).reservation)
