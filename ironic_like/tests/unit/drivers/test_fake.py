"""The fake interfaces, under a real node lock."""

import time

from ironic_like.common import context as ctx
from ironic_like.common import exception
from ironic_like.common import states
from ironic_like.conductor import locks
from ironic_like.drivers.modules import fake
from ironic_like.tests import base
from ironic_like.tests.unit.db import utils


class TestFakeInterfaces(base.TestCase):

    def setUp(self):
        super().setUp()
        self.context = ctx.get_admin_context()

    def _task(self, shared=False, **kwargs):
        node = utils.create_test_node(**kwargs)
        return locks.acquire(self.context, node.id, shared=shared)

    def test_power_state_defaults(self):
        with self._task(shared=True) as task:
            self.assertEqual(states.POWER_OFF,
                             task.driver.power.get_power_state(task))
        with self._task(shared=True, power_state=states.POWER_ON) as task:
            self.assertEqual(states.POWER_ON,
                             task.driver.power.get_power_state(task))

    def test_set_power_state_and_reboot(self):
        with self._task(driver_internal_info={'keep': 1}) as task:
            power = task.driver.power
            power.set_power_state(task, states.POWER_ON)
            self.assertEqual(states.POWER_ON, power.get_power_state(task))
            info = task.node.driver_internal_info
            self.assertEqual('test-conductor', info[fake.LAST_CONDUCTOR_KEY])
            self.assertEqual(1, info['keep'])
            power.set_power_state(task, states.POWER_OFF)
            self.assertEqual(states.POWER_OFF, power.get_power_state(task))
            power.reboot(task)
            self.assertEqual(states.POWER_ON, power.get_power_state(task))
            node_id = task.node.id
        stored = self.db.get_node_by_id(node_id)
        self.assertEqual(states.POWER_ON,
                         stored.driver_internal_info[fake.FAKE_POWER_KEY])

    def test_set_power_state_rejects_other_states(self):
        with self._task() as task:
            e = self.assertRaises(exception.InvalidParameterValue,
                                  task.driver.power.set_power_state, task,
                                  states.REBOOT)
            self.assertEqual('target', e.field)

    def test_power_change_needs_exclusive_lock(self):
        with self._task(shared=True) as task:
            self.assertRaises(RuntimeError,
                              task.driver.power.set_power_state, task,
                              states.POWER_ON)

    def test_boot_device(self):
        with self._task() as task:
            mgmt = task.driver.management
            self.assertEqual({'boot_device': 'disk', 'persistent': True},
                             mgmt.get_boot_device(task))
            mgmt.set_boot_device(task, 'pxe')
            self.assertEqual({'boot_device': 'pxe', 'persistent': False},
                             mgmt.get_boot_device(task))

    def test_deploy_boot_clean(self):
        with self._task() as task:
            self.assertIsNone(task.driver.deploy.deploy(task))
            self.assertIsNone(task.driver.deploy.tear_down(task))
            self.assertIsNone(task.driver.deploy.clean(task, []))
            self.assertIsNone(task.driver.boot.prepare_ramdisk(task))
            self.assertIsNone(task.driver.boot.clean_up_ramdisk(task))
            self.assertIsNone(task.driver.power.validate(task))

    def test_slow_fake_actions_fixture(self):
        # The fixture the conductor tests use to watch intermediate states.
        self.useFixture(base.SlowFakeActions(0.1))
        with self._task() as task:
            started = time.monotonic()
            task.driver.deploy.deploy(task)
            task.driver.power.reboot(task)
            self.assertGreaterEqual(time.monotonic() - started, 0.2)
