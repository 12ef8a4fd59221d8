"""VIFs recorded on a node's port groups and ports, under its lock."""

from oslo_utils import uuidutils

from ironic_like.common import context as ctx
from ironic_like.common import exception
from ironic_like.common import states
from ironic_like.conductor import rpcapi
from ironic_like.conductor import vifs
from ironic_like.tests import base
from ironic_like.tests.unit.conductor import utils as cond_utils
from ironic_like.tests.unit.db import utils

VIF1 = '0f3a8e4c-3b61-4c3e-9a37-5d0c0a1e7b01'
VIF2 = '0f3a8e4c-3b61-4c3e-9a37-5d0c0a1e7b02'


def _settled(node):
    return node.provision_state not in states.TRANSIENT_STATES


class VifTestMixin(object):

    def _node(self, **values):
        values.setdefault('network_interface', 'flat')
        return utils.create_test_node(**values)

    def _group(self, node, **values):
        values['node_id'] = node.id
        return self.db.create_portgroup(values)

    def _vif_of(self, obj):
        if hasattr(obj, 'pxe_enabled'):
            obj = self.db.get_port_by_id(obj.id)
        else:
            obj = self.db.get_portgroup_by_id(obj.id)
        return vifs.attached_vif(obj)


class TestVifsDirect(base.TestCase, VifTestMixin):

    def setUp(self):
        super().setUp()
        self.context = ctx.get_admin_context()
        self.config(node_locked_retry_attempts=1, group='conductor')
        self.node = self._node()

    def _attach(self, vif_id, node=None):
        vifs.vif_attach(self.context, (node or self.node).id,
                        {'id': vif_id})

    def _list(self, node=None):
        return vifs.vif_list(self.context, (node or self.node).id)

    # -- where a VIF goes ------------------------------------------------

    def test_group_preferred_to_ports(self):
        port = utils.create_test_port(self.node.id)
        group = self._group(self.node)
        member = utils.create_test_port(self.node.id, portgroup_id=group.id)
        self._attach(VIF1)
        self.assertEqual(VIF1, self._vif_of(group))
        self.assertIsNone(self._vif_of(member))
        self.assertIsNone(self._vif_of(port))
        # The group is taken now: the next VIF goes to the port.
        self._attach(VIF2)
        self.assertEqual(VIF2, self._vif_of(port))
        self.assertIsNone(self._vif_of(member))

    def test_pxe_enabled_port_first(self):
        other = utils.create_test_port(self.node.id, pxe_enabled=False)
        pxe = utils.create_test_port(self.node.id, pxe_enabled=True)
        self._attach(VIF1)
        self.assertEqual(VIF1, self._vif_of(pxe))
        self.assertIsNone(self._vif_of(other))
        self._attach(VIF2)
        self.assertEqual(VIF2, self._vif_of(other))

    def test_empty_group_not_used(self):
        group = self._group(self.node)
        port = utils.create_test_port(self.node.id)
        self._attach(VIF1)
        self.assertIsNone(self._vif_of(group))
        self.assertEqual(VIF1, self._vif_of(port))

    def test_group_with_a_member_vif_offers_its_other_members(self):
        group = self._group(self.node)
        taken = utils.create_test_port(
            self.node.id, portgroup_id=group.id,
            internal_info={vifs.VIF_KEY: VIF1})
        free = utils.create_test_port(self.node.id, portgroup_id=group.id)
        self._attach(VIF2)
        self.assertIsNone(self._vif_of(group))
        self.assertEqual(VIF1, self._vif_of(taken))
        self.assertEqual(VIF2, self._vif_of(free))

    def test_smartnic_needs_its_link(self):
        utils.create_test_port(self.node.id, is_smartnic=True)
        e = self.assertRaises(exception.Invalid, self._attach, VIF1)
        self.assertIn('not enough free physical ports', str(e))
        nic = utils.create_test_port(
            self.node.id, is_smartnic=True,
            local_link_connection={'hostname': 'h', 'port_id': 'p1'})
        self._attach(VIF1)
        self.assertEqual(VIF1, self._vif_of(nic))

    def test_other_internal_info_kept(self):
        port = utils.create_test_port(self.node.id,
                                      internal_info={'keep': 1})
        self._attach(VIF1)
        self.assertEqual({'keep': 1, vifs.VIF_KEY: VIF1},
                         self.db.get_port_by_id(port.id).internal_info)
        vifs.vif_detach(self.context, self.node.id, VIF1)
        self.assertEqual({'keep': 1},
                         self.db.get_port_by_id(port.id).internal_info)

    # -- refusals --------------------------------------------------------

    def test_same_vif_twice(self):
        utils.create_test_port(self.node.id)
        utils.create_test_port(self.node.id)
        self._attach(VIF1)
        e = self.assertRaises(exception.Conflict, self._attach, VIF1)
        self.assertEqual(409, e.code)
        self.assertIn('VIF %s is already attached' % VIF1, str(e))
        self.assertEqual([{'id': VIF1}], self._list())

    def test_same_vif_twice_on_a_group(self):
        group = self._group(self.node)
        utils.create_test_port(self.node.id, portgroup_id=group.id)
        utils.create_test_port(self.node.id)
        self._attach(VIF1)
        e = self.assertRaises(exception.Conflict, self._attach, VIF1)
        self.assertIn('Portgroup %s' % group.uuid, str(e))

    def test_no_free_port(self):
        e = self.assertRaises(exception.Invalid, self._attach, VIF1)
        self.assertEqual(400, e.code)
        self.assertEqual('Unable to attach VIF %s, not enough free '
                         'physical ports.' % VIF1, str(e))
        utils.create_test_port(self.node.id)
        self._attach(VIF1)
        e = self.assertRaises(exception.Invalid, self._attach, VIF2)
        self.assertIn('not enough free physical ports', str(e))

    def test_detach_unknown(self):
        utils.create_test_port(self.node.id)
        self._attach(VIF1)
        e = self.assertRaises(exception.Invalid, vifs.vif_detach,
                              self.context, self.node.id, VIF2)
        self.assertEqual(400, e.code)
        self.assertEqual('Unable to detach VIF %s from node %s because it '
                         'is not attached to it.' % (VIF2, self.node.uuid),
                         str(e))
        self.assertEqual([{'id': VIF1}], self._list())

    def test_detach_from_group_and_port(self):
        group = self._group(self.node)
        utils.create_test_port(self.node.id, portgroup_id=group.id)
        port = utils.create_test_port(self.node.id)
        self._attach(VIF1)
        self._attach(VIF2)
        self.assertEqual([{'id': VIF2}, {'id': VIF1}], self._list())
        vifs.vif_detach(self.context, self.node.id, VIF1)
        self.assertIsNone(self._vif_of(group))
        vifs.vif_detach(self.context, self.node.id, VIF2)
        self.assertIsNone(self._vif_of(port))
        self.assertEqual([], self._list())

    # -- states: the lock is Ironic's only rule ---------------------------

    def test_locked_node_refused(self):
        utils.create_test_port(self.node.id)
        self.db.reserve_node('other-conductor', self.node.id)
        for call in (lambda: self._attach(VIF1),
                     lambda: vifs.vif_detach(self.context, self.node.id,
                                             VIF1)):
            e = self.assertRaises(exception.NodeLocked, call)
            self.assertEqual(409, e.code)
        # Reading needs no lock.
        self.assertEqual([], self._list())

    def test_any_unlocked_state_allowed(self):
        for state in (states.ENROLL, states.MANAGEABLE, states.AVAILABLE,
                      states.ACTIVE, states.DEPLOYWAIT, states.CLEANWAIT,
                      states.DEPLOYFAIL):
            node = self._node(provision_state=state)
            utils.create_test_port(node.id)
            self._attach(VIF1, node)
            self.assertEqual([{'id': VIF1}], self._list(node))
            vifs.vif_detach(self.context, node.id, VIF1)
            self.assertIsNone(self.db.get_node_by_id(node.id).reservation)

    def test_invalid_network_settings_refused(self):
        node = self._node(driver_info={'cleaning_network': ''})
        utils.create_test_port(node.id)
        e = self.assertRaises(exception.InvalidParameterValue,
                              self._attach, VIF1, node)
        self.assertEqual('cleaning_network', e.field)

    def test_missing_id(self):
        e = self.assertRaises(exception.MissingParameterValue,
                              vifs.vif_attach, self.context, self.node.id,
                              {})
        self.assertEqual('id', e.field)

    # -- the noop network interface ---------------------------------------

    def test_noop_records_nothing(self):
        node = self._node(network_interface='noop')
        port = utils.create_test_port(node.id)
        self._attach(VIF1, node)
        self._attach(VIF1, node)  # no VifAlreadyAttached either
        self.assertIsNone(self._vif_of(port))
        self.assertEqual([], self._list(node))
        vifs.vif_detach(self.context, node.id, VIF2)
        # Not even without any port.
        self._attach(VIF1, self._node(network_interface='noop'))

    def test_noop_lists_nothing_recorded_before(self):
        node = self._node(network_interface='noop')
        utils.create_test_port(node.id, internal_info={vifs.VIF_KEY: VIF1})
        self.assertEqual([], self._list(node))

    def test_unset_interface_is_the_hardware_default(self):
        self.config(default_network_interface='flat')
        node = self._node(network_interface=None)
        self.assertEqual('flat', vifs.network_interface(node))
        port = utils.create_test_port(node.id)
        self._attach(VIF1, node)
        self.assertEqual(VIF1, self._vif_of(port))
        self.config(default_network_interface='noop')
        self.assertEqual('noop', vifs.network_interface(node))
        self.assertEqual([], self._list(node))


class TestVifsOverRPC(cond_utils.ConductorTestCase, VifTestMixin):

    def test_attach_list_detach(self):
        node = self._node()
        port = utils.create_test_port(node.id)
        self.assertIsNone(self.api.vif_attach(self.context, node,
                                              {'id': VIF1, 'extra': 'x'}))
        self.assertEqual([{'id': VIF1}], self.api.vif_list(self.context,
                                                           node))
        self.assertEqual(VIF1, self._vif_of(port))
        self.api.vif_detach(self.context, node, VIF1)
        self.assertEqual([], self.api.vif_list(self.context, node))
        self.assertIsNone(self.db.get_node_by_id(node.id).reservation)

    def test_errors_cross_rpc(self):
        node = self._node()
        e = self.assertRaises(exception.Invalid, self.api.vif_attach,
                              self.context, node, {'id': VIF1})
        self.assertEqual(400, e.code)
        e = self.assertRaises(exception.Invalid, self.api.vif_detach,
                              self.context, node, VIF1)
        self.assertIn('not attached', str(e))
        utils.create_test_port(node.id)
        utils.create_test_port(node.id)
        self.api.vif_attach(self.context, node, {'id': VIF1})
        e = self.assertRaises(exception.Conflict, self.api.vif_attach,
                              self.context, node, {'id': VIF1})
        self.assertEqual(409, e.code)

    def test_version_cap_below_1_9(self):
        self.config(rpc_version_cap='1.8')
        api = rpcapi.ConductorAPI()
        node = self._node()
        for call in (lambda: api.vif_list(self.context, node),
                     lambda: api.vif_attach(self.context, node,
                                            {'id': VIF1}),
                     lambda: api.vif_detach(self.context, node, VIF1)):
            e = self.assertRaises(exception.ConductorUnavailable, call)
            self.assertIn('1.9', str(e))

    def test_tear_down_keeps_vifs(self):
        # As Ironic: Nova detaches the VIFs of the instance it deletes.
        node = self._node(provision_state=states.ACTIVE,
                          power_state=states.POWER_ON,
                          instance_uuid=uuidutils.generate_uuid(),
                          instance_info={'image_source': 'http://x/img'})
        port = utils.create_test_port(node.id)
        self.api.vif_attach(self.context, node, {'id': VIF1})
        self.api.do_provisioning_action(self.context, node, 'deleted')
        node = utils.wait_for_node(node.uuid, _settled)
        self.assertEqual(states.AVAILABLE, node.provision_state)
        self.assertEqual(VIF1, self._vif_of(port))
        self.assertEqual([{'id': VIF1}], self.api.vif_list(self.context,
                                                           node))
