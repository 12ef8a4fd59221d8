"""Provision state changes, through the running conductor."""

import concurrent.futures
from unittest import mock

from oslo_utils import uuidutils

from ironic_like.common import context as ctx
from ironic_like.common import exception
from ironic_like.common import states
from ironic_like.conductor import locks
from ironic_like.conductor import provisioning
from ironic_like.drivers.modules import fake
from ironic_like.tests import base
from ironic_like.tests.unit.conductor import utils as cond_utils
from ironic_like.tests.unit.db import utils


def _settled(node):
    return node.provision_state not in states.TRANSIENT_STATES


class TestProvisioningOverRPC(cond_utils.ConductorTestCase):

    def _node(self, **kwargs):
        return utils.create_test_node(**kwargs)

    def _act(self, node, event, params=None):
        self.api.do_provisioning_action(self.context, node, event, params)
        return utils.wait_for_node(node.uuid, _settled)

    def _assert_state(self, node, state, target=None):
        self.assertEqual(state, node.provision_state)
        self.assertEqual(target, node.target_provision_state)
        self.assertIsNone(node.reservation)

    def test_manage(self):
        node = self._node(provision_state=states.ENROLL)
        node = self._act(node, 'manage')
        self._assert_state(node, states.MANAGEABLE)
        # Verification read the power state.
        self.assertEqual(states.POWER_OFF, node.power_state)
        self.assertIsNone(node.last_error)
        self.assertIsNotNone(node.provision_updated_at)

    def test_manage_when_manageable_is_a_no_op(self):
        node = self._node(provision_state=states.MANAGEABLE)
        node = self._act(node, 'manage')
        self._assert_state(node, states.MANAGEABLE)

    def test_manage_from_stable_states(self):
        # These transitions end in manageable at once: no driver work, and
        # nothing left behind in target_provision_state.
        for source in (states.AVAILABLE, states.CLEANFAIL,
                       states.ADOPTFAIL):
            node = self._node(provision_state=source)
            node = self._act(node, 'manage')
            self._assert_state(node, states.MANAGEABLE)

    def test_provide(self):
        node = self._node(provision_state=states.MANAGEABLE)
        node = self._act(node, 'provide')
        self._assert_state(node, states.AVAILABLE)

    def test_deploy(self):
        node = self._node(provision_state=states.AVAILABLE,
                          power_state=states.POWER_OFF)
        node = self._act(node, 'deploy')
        self._assert_state(node, states.ACTIVE)
        self.assertEqual(states.POWER_ON, node.power_state)
        self.assertEqual(
            states.POWER_ON,
            node.driver_internal_info[fake.FAKE_POWER_KEY])
        self.assertIsNone(node.last_error)

    def test_rebuild(self):
        node = self._node(provision_state=states.ACTIVE)
        node = self._act(node, 'rebuild')
        self._assert_state(node, states.ACTIVE)

    def test_deleted(self):
        node = self._node(provision_state=states.ACTIVE,
                          power_state=states.POWER_ON,
                          instance_uuid=uuidutils.generate_uuid(),
                          instance_name='web-1',
                          instance_info={'image_source': 'http://x/img'})
        node = self._act(node, 'deleted')
        self._assert_state(node, states.AVAILABLE)
        self.assertIsNone(node.instance_uuid)
        self.assertIsNone(node.instance_name)
        self.assertEqual({}, node.instance_info)
        self.assertEqual(states.POWER_OFF, node.power_state)

    def test_clean_returns_to_manageable(self):
        node = self._node(provision_state=states.MANAGEABLE)
        node = self._act(node, 'clean', {'clean_steps': [
            {'interface': 'deploy', 'step': 'erase_devices'}]})
        self._assert_state(node, states.MANAGEABLE)

    def test_clean_steps_reach_the_driver(self):
        steps = [{'interface': 'deploy', 'step': 'erase_devices'}]
        with mock.patch.object(fake.FakeDeploy, 'clean',
                               autospec=True, return_value=None) as clean:
            node = self._node(provision_state=states.MANAGEABLE)
            self._act(node, 'clean', {'clean_steps': steps})
        self.assertEqual(steps, clean.call_args[0][2])

    def test_full_lifecycle(self):
        node = self._node(provision_state=states.ENROLL)
        for event, state in (('manage', states.MANAGEABLE),
                             ('provide', states.AVAILABLE),
                             ('deploy', states.ACTIVE),
                             ('deleted', states.AVAILABLE),
                             ('manage', states.MANAGEABLE)):
            node = self._act(node, event)
            self._assert_state(node, state)

    def test_deploy_waiting_for_callback_then_abort(self):
        node = self._node(provision_state=states.AVAILABLE)
        with mock.patch.object(fake.FakeDeploy, 'deploy',
                               return_value=states.DEPLOYWAIT):
            node = self._act(node, 'deploy')
        self._assert_state(node, states.DEPLOYWAIT, target=states.ACTIVE)
        node = self._act(node, 'abort')
        self._assert_state(node, states.DEPLOYFAIL)
        self.assertIn('Aborted', node.last_error)

    def test_clean_wait_then_abort(self):
        node = self._node(provision_state=states.MANAGEABLE)
        with mock.patch.object(fake.FakeDeploy, 'clean',
                               return_value=states.CLEANWAIT):
            node = self._act(node, 'provide')
        self._assert_state(node, states.CLEANWAIT, target=states.AVAILABLE)
        node = self._act(node, 'abort')
        self._assert_state(node, states.CLEANFAIL)
        self.assertIn('Aborted', node.last_error)

    def test_invalid_actions(self):
        cases = [(states.ENROLL, 'deploy'), (states.AVAILABLE, 'provide'),
                 (states.ACTIVE, 'deploy'), (states.ACTIVE, 'abort'),
                 (states.MANAGEABLE, 'deleted'), (states.AVAILABLE, 'done'),
                 (states.DEPLOYING, 'fail'), (states.CLEANWAIT, 'resume'),
                 (states.AVAILABLE, 'nonsense')]
        for source, event in cases:
            node = self._node(provision_state=source)
            e = self.assertRaises(exception.InvalidStateRequested,
                                  self.api.do_provisioning_action,
                                  self.context, node, event)
            self.assertIn(event, str(e))
            self.assertIn(source, str(e))
            self.assertEqual(400, e.code)
            stored = self.db.get_node_by_id(node.id)
            self._assert_state(stored, source)

    def test_maintenance_refuses_work(self):
        node = self._node(provision_state=states.AVAILABLE, maintenance=True)
        self.assertRaises(exception.InvalidState,
                          self.api.do_provisioning_action, self.context,
                          node, 'deploy')
        self._assert_state(self.db.get_node_by_id(node.id), states.AVAILABLE)

    def test_failing_deploy_step(self):
        node = self._node(provision_state=states.AVAILABLE)
        with mock.patch.object(fake.FakeDeploy, 'deploy',
                               side_effect=RuntimeError('disk gone')):
            node = self._act(node, 'deploy')
        self._assert_state(node, states.DEPLOYFAIL)
        self.assertIn('Deploy failed', node.last_error)
        self.assertIn('disk gone', node.last_error)

    def test_redeploy_after_failure_clears_last_error(self):
        node = self._node(provision_state=states.DEPLOYFAIL,
                          last_error='Deploy failed: disk gone')
        node = self._act(node, 'deploy')
        self._assert_state(node, states.ACTIVE)
        self.assertIsNone(node.last_error)

    def test_failing_clean_step(self):
        node = self._node(provision_state=states.MANAGEABLE)
        with mock.patch.object(fake.FakeDeploy, 'clean',
                               side_effect=RuntimeError('wipe failed')):
            node = self._act(node, 'provide')
        self._assert_state(node, states.CLEANFAIL)
        self.assertIn('Cleaning failed: wipe failed', node.last_error)

    def test_failing_verification(self):
        node = self._node(provision_state=states.ENROLL)
        with mock.patch.object(fake.FakePower, 'validate',
                               side_effect=exception.MissingParameterValue(
                                   err='no BMC address')):
            node = self._act(node, 'manage')
        self._assert_state(node, states.ENROLL)
        self.assertIn('no BMC address', node.last_error)

    def test_failing_tear_down(self):
        node = self._node(provision_state=states.ACTIVE,
                          instance_uuid=uuidutils.generate_uuid())
        with mock.patch.object(fake.FakeDeploy, 'tear_down',
                               side_effect=RuntimeError('stuck')):
            node = self._act(node, 'deleted')
        self._assert_state(node, states.ERROR)
        self.assertIn('Tear down failed: stuck', node.last_error)
        self.assertIsNotNone(node.instance_uuid)

    def test_intermediate_state_is_visible(self):
        self.useFixture(base.SlowFakeActions(0.3))
        node = self._node(provision_state=states.AVAILABLE)
        self.api.do_provisioning_action(self.context, node, 'deploy')
        stored = self.db.get_node_by_id(node.id)
        self.assertEqual(states.DEPLOYING, stored.provision_state)
        self.assertEqual(states.ACTIVE, stored.target_provision_state)
        self.assertEqual(self.service.host, stored.reservation)
        node = utils.wait_for_node(node.uuid, _settled)
        self._assert_state(node, states.ACTIVE)


class TestProvisioningDirect(base.TestCase):

    def setUp(self):
        super().setUp()
        self.context = ctx.get_admin_context()

    def test_rejected_submission_restores_the_node(self):
        node = utils.create_test_node(provision_state=states.AVAILABLE)
        executor = mock.Mock()
        executor.submit.side_effect = RuntimeError('shut down')
        self.assertRaises(exception.TemporaryFailure,
                          provisioning.do_provisioning_action,
                          self.context, executor, node.id, 'deploy', {})
        stored = self.db.get_node_by_id(node.id)
        self.assertIsNone(stored.reservation)
        # Not left "deploying" with nobody deploying it.
        self.assertEqual(states.AVAILABLE, stored.provision_state)
        self.assertIsNone(stored.target_provision_state)
        self.assertIn('shut down', stored.last_error)
        self.assertIn('deploy', stored.last_error)

    def test_fail_interrupted(self):
        for state, dest in ((states.DEPLOYING, states.DEPLOYFAIL),
                            (states.CLEANING, states.CLEANFAIL),
                            (states.DELETING, states.ERROR),
                            (states.VERIFYING, states.ENROLL),
                            (states.ADOPTING, states.ADOPTFAIL)):
            node = utils.create_test_node(provision_state=state)
            with locks.acquire(self.context, node.id) as task:
                self.assertTrue(provisioning.fail_interrupted(task, 'dead'))
            stored = self.db.get_node_by_id(node.id)
            self.assertEqual(dest, stored.provision_state)
            self.assertIn('dead', stored.last_error)
            self.assertIn(state, stored.last_error)

    def test_fail_interrupted_ignores_stable_and_wait_states(self):
        for state in (states.ACTIVE, states.AVAILABLE, states.DEPLOYWAIT,
                      states.CLEANWAIT):
            node = utils.create_test_node(provision_state=state)
            with locks.acquire(self.context, node.id) as task:
                self.assertFalse(provisioning.fail_interrupted(task,
                                                               'dead'))
            self.assertEqual(state,
                             self.db.get_node_by_id(node.id).provision_state)

    def test_params_default(self):
        node = utils.create_test_node(provision_state=states.MANAGEABLE)
        executor = concurrent.futures.ThreadPoolExecutor(1)
        self.addCleanup(executor.shutdown, True)
        provisioning.do_provisioning_action(self.context, executor, node.id,
                                            'clean', None)
        node = utils.wait_for_node(node.uuid, _settled)
        self.assertEqual(states.MANAGEABLE, node.provision_state)
