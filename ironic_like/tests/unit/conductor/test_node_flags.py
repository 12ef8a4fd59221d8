"""protected, retired, automated_clean and fault on the conductor."""

from unittest import mock

from oslo_utils import uuidutils

from ironic_like.common import exception
from ironic_like.common import states
from ironic_like.conductor import agent_timeouts
from ironic_like.conductor import node_flags
from ironic_like.conf import CONF
from ironic_like.drivers.modules import fake
from ironic_like.tests.unit.conductor import utils as cond_utils
from ironic_like.tests.unit.db import utils


def _settled(node):
    return node.provision_state not in states.TRANSIENT_STATES


class TestNodeFlags(cond_utils.ConductorTestCase):

    def _node(self, **kwargs):
        return utils.create_test_node(**kwargs)

    def _active(self, **kwargs):
        return self._node(provision_state=states.ACTIVE,
                          power_state=states.POWER_ON,
                          instance_uuid=uuidutils.generate_uuid(),
                          instance_info={'image_source': 'http://x/img'},
                          **kwargs)

    def _update(self, node, values):
        self.api.update_node(self.context, node, values)
        return self.db.get_node_by_id(node.id)

    def _act(self, node, event, params=None):
        self.api.do_provisioning_action(self.context, node, event, params)
        return utils.wait_for_node(node.uuid, _settled)

    # -- protected -----------------------------------------------------

    def test_protect_active_node_with_reason(self):
        node = self._update(self._active(), {'protected': True,
                                             'protected_reason': 'prod db'})
        self.assertTrue(node.protected)
        self.assertEqual('prod db', node.protected_reason)
        self.assertIsNone(node.reservation)

    def test_protect_refused_outside_active(self):
        for state in (states.ENROLL, states.MANAGEABLE, states.AVAILABLE):
            node = self._node(provision_state=state)
            e = self.assertRaises(exception.InvalidState, self._update,
                                  node, {'protected': True})
            self.assertIn(state, str(e))
            self.assertFalse(self.db.get_node_by_id(node.id).protected)

    def test_protected_reason_needs_protected(self):
        node = self._active()
        e = self.assertRaises(exception.InvalidParameterValue, self._update,
                              node, {'protected_reason': 'why'})
        self.assertEqual('protected_reason', e.field)
        self.assertIsNone(self.db.get_node_by_id(node.id).protected_reason)

    def test_unprotect_clears_the_reason(self):
        node = self._active(protected=True, protected_reason='r')
        node = self._update(node, {'protected': False})
        self.assertFalse(node.protected)
        self.assertIsNone(node.protected_reason)

    def test_protected_node_refuses_undeploy_rebuild_delete(self):
        node = self._active(protected=True)
        for event in ('deleted', 'rebuild'):
            e = self.assertRaises(exception.NodeProtected,
                                  self.api.do_provisioning_action,
                                  self.context, node, event, None)
            self.assertEqual(403, e.code)
        node.maintenance = True
        self.db.update_node(node.id, {'maintenance': True})
        self.assertRaises(exception.NodeProtected, self.api.destroy_node,
                          self.context, node)
        stored = self.db.get_node_by_id(node.id)
        self.assertEqual(states.ACTIVE, stored.provision_state)
        self.assertIsNotNone(stored.instance_uuid)
        self.assertIsNone(stored.reservation)

    def test_protected_instance_cannot_change(self):
        node = self._active(protected=True)
        self.assertRaises(exception.NodeProtected, self._update, node,
                          {'instance_info': {}})
        # Unprotecting and changing it in one request is allowed.
        node = self._update(node, {'protected': False,
                                   'instance_info': {'a': 1}})
        self.assertEqual({'a': 1}, node.instance_info)

    def test_unprotected_node_undeploys(self):
        node = self._update(self._active(protected=True),
                            {'protected': False})
        node = self._act(node, 'deleted')
        self.assertEqual(states.AVAILABLE, node.provision_state)

    # -- retired -------------------------------------------------------

    def test_retire_refused_in_available(self):
        node = self._node(provision_state=states.AVAILABLE)
        e = self.assertRaises(exception.InvalidState, self._update, node,
                              {'retired': True})
        self.assertIn('manageable', str(e))
        self.assertFalse(self.db.get_node_by_id(node.id).retired)

    def test_retired_node_cannot_be_provided(self):
        node = self._update(self._node(provision_state=states.MANAGEABLE),
                            {'retired': True, 'retired_reason': 'EOL'})
        self.assertEqual('EOL', node.retired_reason)
        e = self.assertRaises(exception.NodeIsRetired,
                              self.api.do_provisioning_action,
                              self.context, node, 'provide', None)
        self.assertEqual(400, e.code)
        self.assertEqual(states.MANAGEABLE,
                         self.db.get_node_by_id(node.id).provision_state)

    def test_retired_reason_needs_retired(self):
        node = self._node(provision_state=states.MANAGEABLE)
        e = self.assertRaises(exception.InvalidParameterValue, self._update,
                              node, {'retired_reason': 'EOL'})
        self.assertEqual('retired_reason', e.field)

    def test_unretire_clears_the_reason(self):
        node = self._node(provision_state=states.MANAGEABLE, retired=True,
                          retired_reason='EOL')
        node = self._update(node, {'retired': False})
        self.assertFalse(node.retired)
        self.assertIsNone(node.retired_reason)

    def test_retired_active_node_ends_in_manageable(self):
        node = self._update(self._active(), {'retired': True})
        node = self._act(node, 'deleted')
        self.assertEqual(states.MANAGEABLE, node.provision_state)
        self.assertIsNone(node.target_provision_state)
        self.assertIsNone(node.instance_uuid)

    def test_retired_node_is_not_allocated(self):
        kept = self._node(provision_state=states.AVAILABLE,
                          power_state=states.POWER_OFF,
                          resource_class='gold')
        retired = self._node(provision_state=states.AVAILABLE,
                             power_state=states.POWER_OFF,
                             resource_class='gold')
        # Only reachable by a direct write (the API refuses retiring an
        # available node); the candidate search still leaves it out.
        self.db.update_node(retired.id, {'retired': True})
        self.assertEqual([kept.id], self.db.allocation_candidates('gold'))

    # -- automated_clean -----------------------------------------------

    def test_provide_without_automated_clean_skips_cleaning(self):
        CONF.set_override('automated_clean', False, 'conductor')
        node = self._node(provision_state=states.MANAGEABLE)
        with mock.patch.object(fake.FakeDeploy, 'clean') as clean:
            node = self._act(node, 'provide')
        self.assertEqual(states.AVAILABLE, node.provision_state)
        clean.assert_not_called()

    def test_node_automated_clean_wins_over_the_option(self):
        CONF.set_override('automated_clean', False, 'conductor')
        node = self._node(provision_state=states.MANAGEABLE,
                          automated_clean=True)
        with mock.patch.object(fake.FakeDeploy, 'clean',
                               return_value=None) as clean:
            node = self._act(node, 'provide')
        self.assertEqual(states.AVAILABLE, node.provision_state)
        clean.assert_called_once()

    def test_undeploy_without_automated_clean(self):
        CONF.set_override('automated_clean', False, 'conductor')
        node = self._active()
        with mock.patch.object(fake.FakeDeploy, 'clean') as clean:
            node = self._act(node, 'deleted')
        self.assertEqual(states.AVAILABLE, node.provision_state)
        clean.assert_not_called()

    def test_manual_clean_runs_with_automated_clean_off(self):
        CONF.set_override('automated_clean', False, 'conductor')
        node = self._node(provision_state=states.MANAGEABLE)
        with mock.patch.object(fake.FakeDeploy, 'clean',
                               return_value=None) as clean:
            node = self._act(node, 'clean', {'clean_steps': [
                {'interface': 'deploy', 'step': 'erase_devices'}]})
        self.assertEqual(states.MANAGEABLE, node.provision_state)
        clean.assert_called_once()

    # -- fault -----------------------------------------------------------

    def test_unsetting_maintenance_clears_the_fault(self):
        node = self._node(provision_state=states.CLEANFAIL,
                          maintenance=True, fault='clean failure')
        self.api.set_maintenance(self.context, node, False)
        stored = self.db.get_node_by_id(node.id)
        self.assertFalse(stored.maintenance)
        self.assertIsNone(stored.fault)

    def test_silent_agent_in_clean_wait_sets_clean_failure(self):
        CONF.set_override('heartbeat_timeout_action', 'maintenance', 'agent')
        node = self._node(provision_state=states.CLEANWAIT)
        with mock.patch.object(agent_timeouts, 'is_silent',
                               return_value=True):
            result = agent_timeouts.act_on_silent_node(self.context,
                                                       node.id)
        self.assertEqual('maintenance', result)
        stored = self.db.get_node_by_id(node.id)
        self.assertTrue(stored.maintenance)
        self.assertEqual(node_flags.CLEAN_FAILURE, stored.fault)
