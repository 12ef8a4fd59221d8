"""Work starts when a worker is free, or is refused at once: nothing
waits in a queue holding a node lock."""

import threading

from ironic_like.common import context as ctx
from ironic_like.common import exception
from ironic_like.common import states
from ironic_like.conductor import power
from ironic_like.conductor import workers
from ironic_like.tests import base
from ironic_like.tests.unit.db import utils


class TestAdmittingExecutor(base.TestCase):

    def setUp(self):
        super().setUp()
        self.executor = workers.AdmittingExecutor(2)
        self.addCleanup(self.executor.shutdown)
        self.gate = threading.Event()
        self.addCleanup(self.gate.set)

    def _block(self):
        self.assertTrue(self.gate.wait(30))

    def test_refuses_when_every_worker_is_busy(self):
        running = [self.executor.submit(self._block) for _ in range(2)]
        e = self.assertRaises(exception.ConductorBusy,
                              self.executor.submit, self._block)
        self.assertEqual(503, e.code)
        self.assertIn('all of its 2 workers are in use', str(e))
        self.gate.set()
        for future in running:
            future.result(timeout=30)
        # Free again once the work ended.
        self.assertEqual(7, self.executor.submit(lambda: 7).result(30))

    def test_failing_work_frees_its_worker(self):
        for _ in range(3):
            future = self.executor.submit(lambda: 1 / 0)
            self.assertRaises(ZeroDivisionError, future.result, 30)


class TestBusyConductor(base.TestCase):

    def test_power_change_refused_leaves_node_unlocked_and_unchanged(self):
        node = utils.create_test_node(power_state=states.POWER_OFF)
        executor = workers.AdmittingExecutor(1)
        gate = threading.Event()
        self.addCleanup(executor.shutdown)
        self.addCleanup(gate.set)
        executor.submit(gate.wait, 30)
        self.assertRaises(exception.TemporaryFailure,
                          power.change_node_power_state,
                          ctx.get_admin_context(), executor, node.id,
                          states.POWER_ON)
        node = self.db.get_node_by_id(node.id)
        self.assertIsNone(node.reservation)
        self.assertIsNone(node.target_power_state)
        self.assertEqual(states.POWER_OFF, node.power_state)
