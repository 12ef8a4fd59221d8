"""Port groups (and ports' membership) changed under their node's lock."""

from ironic_like.common import context as ctx
from ironic_like.common import exception
from ironic_like.common import states
from ironic_like.conductor import portgroups
from ironic_like.conductor import ports
from ironic_like.conductor import rpcapi
from ironic_like.tests import base
from ironic_like.tests.unit.conductor import utils as cond_utils
from ironic_like.tests.unit.db import utils


class TestPortgroupsOverRPC(cond_utils.ConductorTestCase):

    def test_create_update_destroy(self):
        node = utils.create_test_node()
        uuid = self.api.create_portgroup(self.context, node,
                                         {'name': 'bond0',
                                          'extra': {'a': 1}})
        pg = self.db.get_portgroup_by_uuid(uuid)
        self.assertEqual(node.id, pg.node_id)
        self.assertEqual({'a': 1}, pg.extra)
        self.api.update_portgroup(self.context, node, pg.id,
                                  {'mode': '802.3ad'})
        self.assertEqual('802.3ad', self.db.get_portgroup_by_id(pg.id).mode)
        self.api.destroy_portgroup(self.context, node, pg.id)
        self.assertRaises(exception.PortgroupNotFound,
                          self.db.get_portgroup_by_id, pg.id)
        self.assertIsNone(self.db.get_node_by_id(node.id).reservation)

    def test_not_empty_crosses_rpc(self):
        node = utils.create_test_node()
        pg = self.db.create_portgroup({'node_id': node.id})
        utils.create_test_port(node.id, portgroup_id=pg.id)
        e = self.assertRaises(exception.PortgroupNotEmpty,
                              self.api.destroy_portgroup, self.context,
                              node, pg.id)
        self.assertEqual(400, e.code)
        self.assertIsNone(self.db.get_node_by_id(node.id).reservation)

    def test_version_cap_below_1_7(self):
        self.config(rpc_version_cap='1.6')
        api = rpcapi.ConductorAPI()
        node = utils.create_test_node()
        e = self.assertRaises(exception.ConductorUnavailable,
                              api.create_portgroup, self.context, node, {})
        self.assertIn('1.7', str(e))


class TestPortgroupsDirect(base.TestCase):

    def setUp(self):
        super().setUp()
        self.context = ctx.get_admin_context()
        self.node = utils.create_test_node()
        self.config(node_locked_retry_attempts=1, group='conductor')

    def _group(self, node=None, **values):
        values['node_id'] = (node or self.node).id
        return self.db.create_portgroup(values)

    def test_unknown_field(self):
        e = self.assertRaises(exception.InvalidParameterValue,
                              portgroups.create_portgroup, self.context,
                              self.node.id, {'internal_info': {}})
        self.assertEqual('internal_info', e.field)

    def test_node_id_comes_from_the_call(self):
        other = utils.create_test_node()
        uuid = portgroups.create_portgroup(self.context, self.node.id,
                                           {'node_id': other.id})
        self.assertEqual(self.node.id,
                         self.db.get_portgroup_by_uuid(uuid).node_id)

    def test_locked_node(self):
        self.db.reserve_node('other', self.node.id)
        self.assertRaises(exception.NodeLocked, portgroups.create_portgroup,
                          self.context, self.node.id, {})
        self.assertEqual([], self.db.get_portgroups_by_node_id(self.node.id))

    def test_group_of_another_node(self):
        other = utils.create_test_node()
        pg = self._group(other)
        self.assertRaises(exception.PortgroupNotFound,
                          portgroups.update_portgroup, self.context,
                          self.node.id, pg.id, {'extra': {'x': 1}})
        self.assertRaises(exception.PortgroupNotFound,
                          portgroups.destroy_portgroup, self.context,
                          self.node.id, pg.id)
        self.assertEqual({}, self.db.get_portgroup_by_id(pg.id).extra)

    def test_move_locks_both_nodes(self):
        other = utils.create_test_node()
        pg = self._group()
        portgroups.update_portgroup(self.context, self.node.id, pg.id,
                                    {'node_id': other.id})
        self.assertEqual(other.id, self.db.get_portgroup_by_id(pg.id).node_id)
        for node in (self.node, other):
            self.assertIsNone(self.db.get_node_by_id(node.id).reservation)

    def test_move_to_locked_node(self):
        other = utils.create_test_node()
        pg = self._group()
        self.db.reserve_node('someone', other.id)
        self.assertRaises(exception.NodeLocked, portgroups.update_portgroup,
                          self.context, self.node.id, pg.id,
                          {'node_id': other.id})
        self.assertEqual(self.node.id,
                         self.db.get_portgroup_by_id(pg.id).node_id)
        self.assertIsNone(self.db.get_node_by_id(self.node.id).reservation)

    def test_move_with_ports(self):
        other = utils.create_test_node()
        pg = self._group()
        utils.create_test_port(self.node.id, portgroup_id=pg.id)
        self.assertRaises(exception.PortgroupNotEmpty,
                          portgroups.update_portgroup, self.context,
                          self.node.id, pg.id, {'node_id': other.id})

    def test_move_needs_a_quiet_state(self):
        for source_state, target_state in (
                (states.AVAILABLE, states.MANAGEABLE),
                (states.MANAGEABLE, states.ACTIVE)):
            source = utils.create_test_node(provision_state=source_state)
            target = utils.create_test_node(provision_state=target_state)
            pg = self._group(source)
            self.assertRaises(exception.InvalidState,
                              portgroups.update_portgroup, self.context,
                              source.id, pg.id, {'node_id': target.id})
            # Maintenance lets the operator do it anyway.
            for node in (source, target):
                self.db.update_node(node.id, {'maintenance': True})
            portgroups.update_portgroup(self.context, source.id, pg.id,
                                        {'node_id': target.id})
            self.assertEqual(target.id,
                             self.db.get_portgroup_by_id(pg.id).node_id)

    def test_address_of_active_node(self):
        node = utils.create_test_node(provision_state=states.ACTIVE)
        pg = self._group(node)
        self.assertRaises(exception.InvalidState,
                          portgroups.update_portgroup, self.context,
                          node.id, pg.id, {'address': '52:54:00:aa:bb:cc'})
        portgroups.update_portgroup(self.context, node.id, pg.id,
                                    {'extra': {'x': 1}})
        self.db.update_node(node.id, {'maintenance': True})
        portgroups.update_portgroup(self.context, node.id, pg.id,
                                    {'address': '52:54:00:aa:bb:cc'})

    def test_standalone_off_with_pxe_member(self):
        pg = self._group()
        port = utils.create_test_port(self.node.id, portgroup_id=pg.id)
        e = self.assertRaises(exception.Conflict,
                              portgroups.update_portgroup, self.context,
                              self.node.id, pg.id,
                              {'standalone_ports_supported': False})
        self.assertIn(port.uuid, str(e))
        self.db.update_port(port.id, {'pxe_enabled': False})
        portgroups.update_portgroup(self.context, self.node.id, pg.id,
                                    {'standalone_ports_supported': False})

    def test_destroy_missing(self):
        self.assertRaises(exception.PortgroupNotFound,
                          portgroups.destroy_portgroup, self.context,
                          self.node.id, 999)
        self.assertIsNone(self.db.get_node_by_id(self.node.id).reservation)


class TestPortMembership(base.TestCase):
    """The rules conductor/ports.py applies to a port's group."""

    def setUp(self):
        super().setUp()
        self.context = ctx.get_admin_context()
        self.node = utils.create_test_node()
        self.pg = self.db.create_portgroup({'node_id': self.node.id})

    def test_create_in_group(self):
        uuid = ports.create_port(self.context, self.node.id,
                                 {'address': '52:54:00:aa:bb:cc',
                                  'portgroup_id': self.pg.id})
        self.assertEqual(self.pg.id,
                         self.db.get_port_by_uuid(uuid).portgroup_id)

    def test_group_of_another_node(self):
        other = utils.create_test_node()
        e = self.assertRaises(exception.PortgroupNodeMismatch,
                              ports.create_port, self.context, other.id,
                              {'address': '52:54:00:aa:bb:cc',
                               'portgroup_id': self.pg.id})
        self.assertEqual('portgroup_uuid', e.field)
        self.assertEqual(400, e.code)
        # Moving a member to another node without leaving the group.
        port = utils.create_test_port(self.node.id, portgroup_id=self.pg.id)
        self.assertRaises(exception.PortgroupNodeMismatch, ports.update_port,
                          self.context, self.node.id, port.id,
                          {'node_id': other.id})
        ports.update_port(self.context, self.node.id, port.id,
                          {'node_id': other.id, 'portgroup_id': None})
        self.assertEqual(other.id, self.db.get_port_by_id(port.id).node_id)

    def test_pxe_needs_standalone_support(self):
        self.db.update_portgroup(self.pg.id,
                                 {'standalone_ports_supported': False})
        self.assertRaises(exception.Conflict, ports.create_port,
                          self.context, self.node.id,
                          {'address': '52:54:00:aa:bb:cc',
                           'portgroup_id': self.pg.id})
        uuid = ports.create_port(self.context, self.node.id,
                                 {'address': '52:54:00:aa:bb:cc',
                                  'portgroup_id': self.pg.id,
                                  'pxe_enabled': False})
        port = self.db.get_port_by_uuid(uuid)
        self.assertRaises(exception.Conflict, ports.update_port,
                          self.context, self.node.id, port.id,
                          {'pxe_enabled': True})
        standalone = utils.create_test_port(self.node.id)
        self.assertRaises(exception.Conflict, ports.update_port,
                          self.context, self.node.id, standalone.id,
                          {'portgroup_id': self.pg.id})

    def test_membership_needs_a_quiet_state(self):
        node = utils.create_test_node(provision_state=states.AVAILABLE)
        pg = self.db.create_portgroup({'node_id': node.id})
        port = utils.create_test_port(node.id)
        self.assertRaises(exception.InvalidState, ports.update_port,
                          self.context, node.id, port.id,
                          {'portgroup_id': pg.id})
        # Other changes are not concerned.
        ports.update_port(self.context, node.id, port.id,
                          {'extra': {'x': 1}, 'portgroup_id': None})
        self.db.update_node(node.id, {'maintenance': True})
        ports.update_port(self.context, node.id, port.id,
                          {'portgroup_id': pg.id})
        self.assertEqual(pg.id, self.db.get_port_by_id(port.id).portgroup_id)
