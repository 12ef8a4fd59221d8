"""Node create/update/delete, maintenance and traits on the conductor."""

import os

import fixtures
from oslo_utils import uuidutils

from ironic_like.common import context as ctx
from ironic_like.common import exception
from ironic_like.common import states
from ironic_like.conductor import nodes
from ironic_like.tests import base
from ironic_like.tests.unit.conductor import utils as cond_utils
from ironic_like.tests.unit.db import utils


class TestNodesOverRPC(cond_utils.ConductorTestCase):

    def _create(self, **values):
        values.setdefault('uuid', uuidutils.generate_uuid())
        values.setdefault('driver', utils.FAKE_HW)
        uuid = self.api.create_node(self.context, values)
        self.assertEqual(values['uuid'], uuid)
        return self.db.get_node_by_uuid(uuid)

    def test_create(self):
        node = self._create(name='n1', properties={'cpus': 4})
        self.assertEqual(states.ENROLL, node.provision_state)
        self.assertIsNone(node.power_state)
        self.assertEqual({'cpus': 4}, node.properties)
        self.assertIsNone(node.reservation)

    def test_create_unknown_driver_has_no_host(self):
        # No conductor serves it, so the call never leaves the client.
        e = self.assertRaises(exception.NoValidHost, self.api.create_node,
                              self.context,
                              {'uuid': uuidutils.generate_uuid(),
                               'driver': 'no-such-hw'})
        self.assertIn('no-such-hw', str(e))
        self.assertEqual([], self.db.get_node_list())

    def test_create_in_unserved_group(self):
        self.assertRaises(exception.NoValidHost, self.api.create_node,
                          self.context,
                          {'uuid': uuidutils.generate_uuid(),
                           'driver': utils.FAKE_HW,
                           'conductor_group': 'elsewhere'})

    def test_create_unsupported_interface(self):
        e = self.assertRaises(exception.InvalidParameterValue,
                              self.api.create_node, self.context,
                              {'uuid': uuidutils.generate_uuid(),
                               'driver': utils.FAKE_HW,
                               'power_interface': 'ipmitool'})
        self.assertEqual('power_interface', e.field)
        self.assertIn('ipmitool', str(e))
        self.assertEqual([], self.db.get_node_list())

    def test_create_unknown_field(self):
        e = self.assertRaises(exception.InvalidParameterValue,
                              self.api.create_node, self.context,
                              {'uuid': uuidutils.generate_uuid(),
                               'driver': utils.FAKE_HW,
                               'reservation': 'me'})
        self.assertEqual('reservation', e.field)

    def test_create_duplicate_name(self):
        self._create(name='n1')
        self.assertRaises(exception.DuplicateName, self._create, name='n1')

    def test_update(self):
        node = self._create()
        self.api.update_node(self.context, node, {'name': 'new',
                                                  'conductor_group': None})
        stored = self.db.get_node_by_id(node.id)
        self.assertEqual('new', stored.name)
        self.assertEqual('', stored.conductor_group)
        self.assertIsNone(stored.reservation)

    def test_update_interface(self):
        node = self._create()
        self.api.update_node(self.context, node, {'power_interface': 'fake'})
        self.assertEqual('fake',
                         self.db.get_node_by_id(node.id).power_interface)
        e = self.assertRaises(exception.InvalidParameterValue,
                              self.api.update_node, self.context, node,
                              {'deploy_interface': 'direct'})
        self.assertEqual('deploy_interface', e.field)
        self.assertIsNone(self.db.get_node_by_id(node.id).deploy_interface)

    def test_update_locked_node(self):
        self.config(node_locked_retry_attempts=1, group='conductor')
        node = self._create()
        self.db.reserve_node('someone-else', node.id)
        e = self.assertRaises(exception.NodeLocked, self.api.update_node,
                              self.context, node, {'name': 'x'})
        self.assertIn('someone-else', str(e))
        self.assertEqual('someone-else',
                         self.db.get_node_by_id(node.id).reservation)

    def test_destroy(self):
        node = self._create()
        utils.create_test_port(node.id)
        self.api.destroy_node(self.context, node)
        self.assertRaises(exception.NodeNotFound, self.db.get_node_by_id,
                          node.id)
        self.assertEqual([], self.db.get_ports_by_node_id(node.id))

    def test_maintenance(self):
        node = self._create()
        self.api.set_maintenance(self.context, node, True, reason='broken')
        stored = self.db.get_node_by_id(node.id)
        self.assertTrue(stored.maintenance)
        self.assertEqual('broken', stored.maintenance_reason)
        self.api.set_maintenance(self.context, node, False)
        stored = self.db.get_node_by_id(node.id)
        self.assertFalse(stored.maintenance)
        self.assertIsNone(stored.maintenance_reason)
        self.assertIsNone(stored.reservation)

    def test_traits(self):
        node = self._create()

        def traits():
            return [t.trait for t in self.db.get_node_by_id(node.id).traits]

        self.api.set_node_traits(self.context, node, ['CUSTOM_B',
                                                      'CUSTOM_A'])
        self.assertEqual(['CUSTOM_A', 'CUSTOM_B'], traits())
        self.api.add_node_trait(self.context, node, 'CUSTOM_C')
        self.api.add_node_trait(self.context, node, 'CUSTOM_C')
        self.assertEqual(['CUSTOM_A', 'CUSTOM_B', 'CUSTOM_C'], traits())
        self.api.remove_node_traits(self.context, node, ['CUSTOM_A'])
        self.assertEqual(['CUSTOM_B', 'CUSTOM_C'], traits())
        self.assertRaises(exception.NodeTraitNotFound,
                          self.api.remove_node_traits, self.context, node,
                          ['CUSTOM_A'])
        self.api.remove_node_traits(self.context, node)
        self.assertEqual([], traits())
        self.assertIsNone(self.db.get_node_by_id(node.id).reservation)


class TestNodesDirect(base.TestCase):
    """The conductor module functions without RPC."""

    def setUp(self):
        super().setUp()
        self.context = ctx.get_admin_context()

    def _node(self, **kwargs):
        return utils.create_test_node(**kwargs)

    def test_create_unknown_driver(self):
        e = self.assertRaises(exception.DriverNotFound, nodes.create_node,
                              self.context, {'driver': 'no-such-hw'})
        self.assertEqual('driver', e.field)

    def test_create_returns_uuid(self):
        uuid = nodes.create_node(self.context, {'driver': utils.FAKE_HW})
        self.assertTrue(uuidutils.is_uuid_like(uuid))
        node = self.db.get_node_by_uuid(uuid)
        self.assertEqual(states.ENROLL, node.provision_state)

    def test_change_driver_needs_a_loadable_one(self):
        node = self._node()
        self.assertRaises(exception.DriverNotFound, nodes.update_node,
                          self.context, node.id, {'driver': 'no-such-hw'})
        self.assertEqual(utils.FAKE_HW,
                         self.db.get_node_by_id(node.id).driver)
        self.assertIsNone(self.db.get_node_by_id(node.id).reservation)

    def test_change_driver_refused_in_transient_state(self):
        for state in (states.DEPLOYING, states.CLEANING, states.DEPLOYWAIT):
            node = self._node(provision_state=state)
            e = self.assertRaises(exception.InvalidState, nodes.update_node,
                                  self.context, node.id,
                                  {'driver': 'other-hw'})
            self.assertIn(state, str(e))
            e = self.assertRaises(exception.InvalidState, nodes.update_node,
                                  self.context, node.id,
                                  {'boot_interface': 'fake'})
            # Other fields can still change.
            nodes.update_node(self.context, node.id, {'extra': {'a': 1}})
            self.assertEqual({'a': 1}, self.db.get_node_by_id(node.id).extra)

    def test_same_driver_is_no_driver_change(self):
        node = self._node(provision_state=states.DEPLOYING)
        nodes.update_node(self.context, node.id, {'driver': utils.FAKE_HW,
                                                  'name': 'x'})
        self.assertEqual('x', self.db.get_node_by_id(node.id).name)

    def test_reset_interfaces_on_driver_change(self):
        # With one hardware type installed, a "new" driver is simulated by
        # changing to the same type from a node stored with another name.
        node = self._node(driver='retired-hw', power_interface='fake',
                          boot_interface='fake')
        nodes.update_node(self.context, node.id, {'driver': utils.FAKE_HW},
                          reset_interfaces=True)
        stored = self.db.get_node_by_id(node.id)
        self.assertEqual(utils.FAKE_HW, stored.driver)
        self.assertIsNone(stored.power_interface)
        self.assertIsNone(stored.boot_interface)

    def test_driver_change_keeps_interfaces_by_default(self):
        node = self._node(driver='retired-hw', power_interface='fake')
        nodes.update_node(self.context, node.id, {'driver': utils.FAKE_HW})
        self.assertEqual('fake',
                         self.db.get_node_by_id(node.id).power_interface)

    def test_driver_change_with_unsupported_kept_interface(self):
        node = self._node(driver='retired-hw', power_interface='ipmitool')
        e = self.assertRaises(exception.InvalidParameterValue,
                              nodes.update_node, self.context, node.id,
                              {'driver': utils.FAKE_HW})
        self.assertEqual('power_interface', e.field)
        nodes.update_node(self.context, node.id, {'driver': utils.FAKE_HW},
                          reset_interfaces=True)
        self.assertIsNone(self.db.get_node_by_id(node.id).power_interface)

    def test_update_unknown_field(self):
        node = self._node()
        e = self.assertRaises(exception.InvalidParameterValue,
                              nodes.update_node, self.context, node.id,
                              {'conductor_affinity': 'me'})
        self.assertEqual('conductor_affinity', e.field)

    def test_update_instance_uuid_of_associated_node(self):
        node = self._node(instance_uuid=uuidutils.generate_uuid())
        self.assertRaises(exception.NodeAssociated, nodes.update_node,
                          self.context, node.id,
                          {'instance_uuid': uuidutils.generate_uuid()})
        nodes.update_node(self.context, node.id,
                          {'instance_uuid': node.instance_uuid,
                           'name': 'same-instance'})
        self.assertEqual('same-instance',
                         self.db.get_node_by_id(node.id).name)

    def test_destroy_refused_when_associated(self):
        node = self._node(instance_uuid=uuidutils.generate_uuid(),
                          provision_state=states.AVAILABLE)
        self.assertRaises(exception.NodeAssociated, nodes.destroy_node,
                          self.context, node.id)
        self.assertIsNone(self.db.get_node_by_id(node.id).reservation)
        self.db.update_node(node.id, {'maintenance': True})
        nodes.destroy_node(self.context, node.id)
        self.assertRaises(exception.NodeNotFound, self.db.get_node_by_id,
                          node.id)

    def test_destroy_refused_in_bad_state(self):
        for state in (states.ACTIVE, states.DEPLOYING, states.DEPLOYFAIL,
                      states.CLEANWAIT, states.ERROR):
            node = self._node(provision_state=state)
            e = self.assertRaises(exception.InvalidState, nodes.destroy_node,
                                  self.context, node.id)
            self.assertIn(state, str(e))
            self.assertIsNone(self.db.get_node_by_id(node.id).reservation)
            self.db.update_node(node.id, {'maintenance': True})
            nodes.destroy_node(self.context, node.id)
            self.assertRaises(exception.NodeNotFound,
                              self.db.get_node_by_id, node.id)

    def test_destroy_allowed_states(self):
        for state in sorted(states.DELETE_ALLOWED_STATES):
            node = self._node(provision_state=state)
            nodes.destroy_node(self.context, node.id)
            self.assertRaises(exception.NodeNotFound,
                              self.db.get_node_by_id, node.id)

    def test_destroy_removes_the_nodes_boot_files(self):
        # A node deleted in maintenance during clean wait: its boot script
        # and deploy image links go (they would pin the image cache).
        root = self.useFixture(fixtures.TempDir()).path
        self.config(http_root=root, group='deploy')
        node = self._node(provision_state=states.CLEANWAIT,
                          maintenance=True)
        directory = os.path.join(root, 'nodes', node.uuid)
        os.makedirs(directory)
        for name in ('boot.ipxe', 'deploy_kernel', 'deploy_ramdisk'):
            open(os.path.join(directory, name), 'w').close()
        nodes.destroy_node(self.context, node.id)
        self.assertFalse(os.path.exists(directory))

    def test_destroy_locked(self):
        self.config(node_locked_retry_attempts=1, group='conductor')
        node = self._node()
        self.db.reserve_node('other', node.id)
        self.assertRaises(exception.NodeLocked, nodes.destroy_node,
                          self.context, node.id)
        self.assertEqual(node.id, self.db.get_node_by_id(node.id).id)

    def test_remove_missing_trait_keeps_the_rest(self):
        node = self._node(traits=['CUSTOM_A'])
        self.assertRaises(exception.NodeTraitNotFound,
                          nodes.remove_node_traits, self.context, node.id,
                          ['CUSTOM_Z'])
        self.assertEqual(['CUSTOM_A'], [
            t.trait for t in self.db.get_node_by_id(node.id).traits])
        self.assertIsNone(self.db.get_node_by_id(node.id).reservation)
