"""Power actions and the power-state sync."""

import concurrent.futures
from unittest import mock

from ironic_like.common import agent_token
from ironic_like.common import context as ctx
from ironic_like.common import exception
from ironic_like.common import states
from ironic_like.conductor import power
from ironic_like.drivers.modules import fake
from ironic_like.tests import base
from ironic_like.tests.unit.conductor import utils as cond_utils
from ironic_like.tests.unit.db import utils


def _settled(node):
    return node.target_power_state is None


class TestPowerOverRPC(cond_utils.ConductorTestCase):

    def setUp(self):
        super().setUp()
        self.node = utils.create_test_node(power_state=states.POWER_OFF)

    def _power(self, target):
        self.api.change_node_power_state(self.context, self.node, target)
        return utils.wait_for_node(self.node.uuid, _settled)

    def _check(self, node, expected):
        self.assertEqual(expected, node.power_state)
        self.assertIsNone(node.target_power_state)
        self.assertIsNone(node.reservation)
        self.assertIsNone(node.last_error)
        info = node.driver_internal_info
        self.assertEqual(expected, info[fake.FAKE_POWER_KEY])
        # The owning conductor did it.
        self.assertEqual(self.service.host, info[fake.LAST_CONDUCTOR_KEY])

    def test_on_off_reboot(self):
        self._check(self._power(states.POWER_ON), states.POWER_ON)
        self._check(self._power(states.POWER_OFF), states.POWER_OFF)
        self._check(self._power(states.REBOOT), states.POWER_ON)

    def test_reboot_and_power_off_wipe_the_agent_token(self):
        # A ramdisk booted again must get a new token on lookup.
        for target in (states.REBOOT, states.POWER_OFF, states.POWER_ON):
            info = agent_token.with_new_token({'kept': 'yes'})
            self.db.update_node(self.node.id,
                                {'driver_internal_info': info})
            node = self._power(target)
            info = node.driver_internal_info
            self.assertEqual(target == states.POWER_ON,
                             agent_token.is_present(info), target)
            self.assertEqual('yes', info['kept'])

    def test_target_recorded_while_working(self):
        self.useFixture(base.SlowFakeActions(0.3))
        self.api.change_node_power_state(self.context, self.node,
                                         states.REBOOT)
        node = self.db.get_node_by_id(self.node.id)
        # The call returned at once; the work goes on under the lock.
        self.assertEqual(states.POWER_ON, node.target_power_state)
        self.assertEqual(self.service.host, node.reservation)
        node = utils.wait_for_node(self.node.uuid, _settled)
        self._check(node, states.POWER_ON)

    def test_invalid_target(self):
        e = self.assertRaises(exception.InvalidParameterValue,
                              self.api.change_node_power_state,
                              self.context, self.node, 'sideways')
        self.assertEqual('target', e.field)
        node = self.db.get_node_by_id(self.node.id)
        self.assertIsNone(node.target_power_state)
        self.assertIsNone(node.reservation)

    def test_target_the_driver_does_not_support(self):
        e = self.assertRaises(exception.InvalidParameterValue,
                              self.api.change_node_power_state,
                              self.context, self.node, states.SOFT_REBOOT)
        self.assertEqual('target', e.field)
        self.assertIn('soft rebooting', str(e))
        self.assertIsNone(self.db.get_node_by_id(self.node.id).reservation)

    def test_locked_node(self):
        self.config(node_locked_retry_attempts=1, group='conductor')
        self.db.reserve_node('other', self.node.id)
        self.assertRaises(exception.NodeLocked,
                          self.api.change_node_power_state, self.context,
                          self.node, states.POWER_ON)
        self.assertIsNone(
            self.db.get_node_by_id(self.node.id).target_power_state)

    def test_driver_failure_recorded(self):
        with mock.patch.object(fake.FakePower, 'set_power_state',
                               side_effect=RuntimeError('BMC on fire')):
            node = self._power(states.POWER_ON)
        self.assertEqual(states.POWER_OFF, node.power_state)
        self.assertIsNone(node.target_power_state)
        self.assertIn('BMC on fire', node.last_error)
        self.assertIn(states.POWER_ON, node.last_error)
        # The next good action clears the error.
        self._check(self._power(states.POWER_ON), states.POWER_ON)


class TestPowerSync(base.TestCase):

    def setUp(self):
        super().setUp()
        self.context = ctx.get_admin_context()

    def test_records_real_state(self):
        node = utils.create_test_node(
            power_state=states.POWER_OFF,
            driver_internal_info={fake.FAKE_POWER_KEY: states.POWER_ON})
        self.assertTrue(power.sync_node_power_state(self.context, node.id))
        stored = self.db.get_node_by_id(node.id)
        self.assertEqual(states.POWER_ON, stored.power_state)
        self.assertIsNone(stored.reservation)
        self.assertFalse(power.sync_node_power_state(self.context, node.id))

    def test_records_health_changes(self):
        # API 1.109: the BMC's health, read at the sync; a change is
        # journaled.
        node = utils.create_test_node(
            power_state=states.POWER_ON,
            driver_info={fake.FakeManagement.HEALTH_KEY: 'Warning'},
            driver_internal_info={fake.FAKE_POWER_KEY: states.POWER_ON})
        power.sync_node_power_state(self.context, node.id)
        stored = self.db.get_node_by_id(node.id)
        self.assertEqual('Warning', stored.health)
        self.assertIsNone(stored.reservation)
        events = self.db.get_node_history_list(node.id)
        self.assertEqual(['monitoring'], [e.event_type for e in events])
        self.assertEqual('WARNING', events[0].severity)
        # Unchanged: nothing more written.
        power.sync_node_power_state(self.context, node.id)
        self.assertEqual(1, len(self.db.get_node_history_list(node.id)))
        self.db.update_node(node.id, {'driver_info': {}})
        power.sync_node_power_state(self.context, node.id)
        self.assertIsNone(self.db.get_node_by_id(node.id).health)

    def test_health_monitoring_off(self):
        self.config(enable_health_monitoring=False, group='conductor')
        node = utils.create_test_node(
            power_state=states.POWER_ON,
            driver_info={fake.FakeManagement.HEALTH_KEY: 'Critical'},
            driver_internal_info={fake.FAKE_POWER_KEY: states.POWER_ON})
        self.assertFalse(power.sync_node_power_state(self.context, node.id))
        self.assertIsNone(self.db.get_node_by_id(node.id).health)

    def test_skips_locked_and_maintenance(self):
        info = {fake.FAKE_POWER_KEY: states.POWER_ON}
        locked = utils.create_test_node(power_state=states.POWER_OFF,
                                        driver_internal_info=info)
        self.db.reserve_node('other', locked.id)
        maint = utils.create_test_node(power_state=states.POWER_OFF,
                                       driver_internal_info=info,
                                       maintenance=True)
        for node in (locked, maint):
            self.assertFalse(power.sync_node_power_state(self.context,
                                                         node.id))
            self.assertEqual(states.POWER_OFF,
                             self.db.get_node_by_id(node.id).power_state)
        self.assertEqual('other',
                         self.db.get_node_by_id(locked.id).reservation)

    def test_locked_between_read_and_write(self):
        self.config(node_locked_retry_attempts=1, group='conductor')
        node = utils.create_test_node(
            power_state=states.POWER_OFF,
            driver_internal_info={fake.FAKE_POWER_KEY: states.POWER_ON})
        real = fake.FakePower.get_power_state

        def read_then_someone_locks(self_, task):
            self.db.reserve_node('other', node.id)
            return real(self_, task)

        with mock.patch.object(fake.FakePower, 'get_power_state',
                               read_then_someone_locks):
            self.assertFalse(power.sync_node_power_state(self.context,
                                                         node.id))
        stored = self.db.get_node_by_id(node.id)
        self.assertEqual(states.POWER_OFF, stored.power_state)
        self.assertEqual('other', stored.reservation)

    def test_state_changed_between_read_and_write(self):
        # The first read (under the shared lock) is old by the time the
        # exclusive lock is taken (this conductor paused, or the node's
        # work powered it on meanwhile): what is recorded is read again
        # under the exclusive lock.
        node = utils.create_test_node(
            power_state=states.POWER_ON,
            driver_internal_info={fake.FAKE_POWER_KEY: states.POWER_ON})
        reads = []

        def off_then_on(self_, task):
            reads.append(task.shared)
            return states.POWER_OFF if len(reads) == 1 else states.POWER_ON

        with mock.patch.object(fake.FakePower, 'get_power_state',
                               off_then_on):
            self.assertFalse(power.sync_node_power_state(self.context,
                                                         node.id))
        self.assertEqual([True, False], reads)
        stored = self.db.get_node_by_id(node.id)
        self.assertEqual(states.POWER_ON, stored.power_state)
        self.assertIsNone(stored.reservation)

    def test_rejected_submission_clears_target(self):
        node = utils.create_test_node(power_state=states.POWER_OFF)
        executor = mock.Mock()
        executor.submit.side_effect = RuntimeError('shut down')
        self.assertRaises(exception.TemporaryFailure,
                          power.change_node_power_state, self.context,
                          executor, node.id, states.POWER_ON)
        stored = self.db.get_node_by_id(node.id)
        self.assertIsNone(stored.reservation)
        self.assertIsNone(stored.target_power_state)
        self.assertEqual(states.POWER_OFF, stored.power_state)
        self.assertIn('shut down', stored.last_error)

    def test_direct_change_validates_before_locking(self):
        node = utils.create_test_node()
        executor = concurrent.futures.ThreadPoolExecutor(1)
        self.addCleanup(executor.shutdown, True)
        self.assertRaises(exception.InvalidParameterValue,
                          power.change_node_power_state, self.context,
                          executor, node.id, None)
        power.change_node_power_state(self.context, executor, node.id,
                                      states.POWER_ON)
        stored = utils.wait_for_node(node.uuid, _settled)
        self.assertEqual(states.POWER_ON, stored.power_state)


class TestPowerFailure(base.TestCase):
    """Unreadable power: maintenance with the 'power failure' fault after
    [conductor]power_state_sync_max_retries, and back out once readable."""

    def setUp(self):
        super().setUp()
        self.context = ctx.get_admin_context()
        self.config(power_state_sync_max_retries=3, group='conductor')
        self.node = utils.create_test_node(power_state=states.POWER_ON)

    def _sync_failing(self):
        with mock.patch.object(fake.FakePower, 'get_power_state',
                               side_effect=RuntimeError('BMC gone')):
            self.assertRaises(RuntimeError, power.sync_node_power_state,
                              self.context, self.node.id)
        return self.db.get_node_by_id(self.node.id)

    def test_maintenance_after_max_retries(self):
        for _ in range(2):
            stored = self._sync_failing()
            self.assertFalse(stored.maintenance)
            self.assertIsNone(stored.fault)
        stored = self._sync_failing()
        self.assertTrue(stored.maintenance)
        self.assertEqual('power failure', stored.fault)
        self.assertIn('3 times', stored.maintenance_reason)
        self.assertIn('BMC gone', stored.maintenance_reason)
        self.assertIsNone(stored.power_state)
        self.assertIsNone(stored.reservation)

    def test_a_good_read_resets_the_count(self):
        self._sync_failing()
        self._sync_failing()
        power.sync_node_power_state(self.context, self.node.id)
        stored = self._sync_failing()
        self.assertFalse(stored.maintenance)

    def test_recovery(self):
        for _ in range(3):
            self._sync_failing()
        with mock.patch.object(fake.FakePower, 'get_power_state',
                               side_effect=RuntimeError('still gone')):
            self.assertFalse(power.recover_power_failure(self.context,
                                                         self.node.id))
        self.assertTrue(self.db.get_node_by_id(self.node.id).maintenance)
        self.assertTrue(power.recover_power_failure(self.context,
                                                    self.node.id))
        stored = self.db.get_node_by_id(self.node.id)
        self.assertFalse(stored.maintenance)
        self.assertIsNone(stored.fault)
        self.assertIsNone(stored.maintenance_reason)
        self.assertIsNotNone(stored.power_state)

    def test_operator_maintenance_is_not_recovered(self):
        self.db.update_node(self.node.id, {'maintenance': True,
                                           'maintenance_reason': 'mine'})
        self.assertFalse(power.recover_power_failure(self.context,
                                                     self.node.id))
        self.assertTrue(self.db.get_node_by_id(self.node.id).maintenance)
