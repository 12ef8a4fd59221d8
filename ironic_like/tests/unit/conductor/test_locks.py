"""The node lock context manager."""

import concurrent.futures
import threading
from unittest import mock

from ironic_like.common import context as ctx
from ironic_like.common import exception
from ironic_like.conductor import locks
from ironic_like.tests import base
from ironic_like.tests import utils as test_utils
from ironic_like.tests.unit.db import utils


class TestAcquire(base.TestCase):

    def setUp(self):
        super().setUp()
        self.context = ctx.get_admin_context()
        self.node = utils.create_test_node()
        self.port = utils.create_test_port(self.node.id)

    def _reservation(self):
        return self.db.get_node_by_id(self.node.id).reservation

    def test_exclusive_acquire_release(self):
        with locks.acquire(self.context, self.node.id,
                           purpose='test') as task:
            self.assertEqual('test-conductor', self._reservation())
            self.assertEqual('test-conductor', task.node.reservation)
            self.assertFalse(task.shared)
            self.assertEqual([self.port.id], [p.id for p in task.ports])
            self.assertEqual(utils.FAKE_HW, task.driver.name)
            self.assertIsNotNone(task.driver.power)
            task.update_node({'extra': {'k': 'v'}})
            self.assertEqual({'k': 'v'}, task.node.extra)
        self.assertIsNone(self._reservation())
        self.assertEqual({'k': 'v'},
                         self.db.get_node_by_id(self.node.id).extra)

    def test_released_on_exception(self):
        def boom():
            with locks.acquire(self.context, self.node.id):
                self.assertIsNotNone(self._reservation())
                raise ValueError('boom')

        self.assertRaises(ValueError, boom)
        self.assertIsNone(self._reservation())

    def test_update_node_cas_inside_lock(self):
        with locks.acquire(self.context, self.node.id) as task:
            self.assertRaises(exception.InvalidState, task.update_node,
                              {'name': 'x'},
                              expected={'provision_state': 'active'})
        self.assertIsNone(self._reservation())
        self.assertIsNone(self.db.get_node_by_id(self.node.id).name)

    def test_node_locked_after_retries(self):
        self.config(node_locked_retry_attempts=2,
                    node_locked_retry_interval=0, group='conductor')
        self.db.reserve_node('other-host', self.node.id)
        with mock.patch.object(self.db, 'reserve_node',
                               wraps=self.db.reserve_node) as reserve:
            e = self.assertRaises(exception.NodeLocked, self._enter)
        self.assertEqual(2, reserve.call_count)
        self.assertIn('other-host', str(e))
        self.assertEqual('other-host', self._reservation())

    def test_retry_succeeds_when_released_meanwhile(self):
        self.config(node_locked_retry_attempts=3,
                    node_locked_retry_interval=0, group='conductor')
        self.db.reserve_node('other-host', self.node.id)
        real = self.db.reserve_node
        calls = []

        def reserve(tag, node_id):
            calls.append(tag)
            if len(calls) == 2:
                self.db.release_node('other-host', node_id)
            return real(tag, node_id)

        with mock.patch.object(self.db, 'reserve_node', side_effect=reserve):
            with locks.acquire(self.context, self.node.id):
                self.assertEqual('test-conductor', self._reservation())
        self.assertEqual(2, len(calls))
        self.assertIsNone(self._reservation())

    def _enter(self):
        with locks.acquire(self.context, self.node.id):
            pass

    def test_missing_node(self):
        def enter(shared):
            with locks.acquire(self.context, 999, shared=shared):
                pass

        self.assertRaises(exception.NodeNotFound, enter, False)
        self.assertRaises(exception.NodeNotFound, enter, True)

    def test_shared_takes_no_reservation(self):
        self.db.reserve_node('other-host', self.node.id)
        with locks.acquire(self.context, self.node.id, shared=True) as task:
            self.assertTrue(task.shared)
            self.assertEqual('other-host', task.node.reservation)
            self.assertEqual(utils.FAKE_HW, task.driver.name)
            self.assertRaises(RuntimeError, task.update_node, {'name': 'x'})
        # The other holder's lock is untouched.
        self.assertEqual('other-host', self._reservation())

    def test_shared_on_free_node(self):
        with locks.acquire(self.context, self.node.id, shared=True):
            self.assertIsNone(self._reservation())
        self.assertIsNone(self._reservation())

    def test_release_of_stolen_lock_keeps_the_thief(self):
        with mock.patch.object(locks.LOG, 'warning') as warning:
            with locks.acquire(self.context, self.node.id):
                # E.g. a take-over cleared our lock and another host took
                # it.
                self.db.release_node('test-conductor', self.node.id)
                self.db.reserve_node('thief', self.node.id)
        self.assertEqual('thief', self._reservation())
        self.assertEqual(1, warning.call_count)
        self.assertIn('thief', warning.call_args[0])

    def test_no_warning_when_node_deleted_under_lock(self):
        with mock.patch.object(locks.LOG, 'warning') as warning:
            with locks.acquire(self.context, self.node.id) as task:
                self.db.destroy_node(task.node.id)
        warning.assert_not_called()


class TestSpawnAfter(base.TestCase):

    def setUp(self):
        super().setUp()
        self.context = ctx.get_admin_context()
        self.node = utils.create_test_node()
        self.executor = concurrent.futures.ThreadPoolExecutor(2)
        self.addCleanup(self.executor.shutdown, True)

    def _reservation(self):
        return self.db.get_node_by_id(self.node.id).reservation

    def test_runs_in_executor_and_releases_after(self):
        started = threading.Event()
        proceed = threading.Event()
        seen = {}

        def work(task, value, key=None):
            seen['thread'] = threading.current_thread()
            seen['args'] = (value, key)
            seen['reservation'] = self._reservation()
            task.update_node({'extra': {'done': value}})
            started.set()
            proceed.wait(5)

        with locks.acquire(self.context, self.node.id) as task:
            task.spawn_after(self.executor, work, 1, key='k')
            # Nothing runs before the with-block ends.
            self.assertFalse(started.is_set())
        self.assertTrue(started.wait(5))
        self.assertIsNot(threading.current_thread(), seen['thread'])
        self.assertEqual((1, 'k'), seen['args'])
        # The lock passed to the worker, which still holds it.
        self.assertEqual('test-conductor', seen['reservation'])
        self.assertEqual('test-conductor', self._reservation())
        proceed.set()
        node = utils.wait_for_node(self.node.uuid, lambda n: True)
        self.assertIsNone(node.reservation)
        self.assertEqual({'done': 1}, node.extra)

    def test_released_when_work_fails(self):
        done = threading.Event()

        def work(task):
            done.set()
            raise RuntimeError('driver exploded')

        with locks.acquire(self.context, self.node.id) as task:
            task.spawn_after(self.executor, work)
        self.assertTrue(done.wait(5))
        self.assertTrue(test_utils.wait_for(
            lambda: self._reservation() is None))

    def test_not_spawned_when_block_raises(self):
        work = mock.Mock()

        def enter():
            with locks.acquire(self.context, self.node.id) as task:
                task.spawn_after(self.executor, work)
                raise ValueError('validation failed after spawn_after')

        self.assertRaises(ValueError, enter)
        self.executor.shutdown(wait=True)
        work.assert_not_called()
        self.assertIsNone(self._reservation())

    def test_rejected_submission_releases(self):
        executor = mock.Mock()
        executor.submit.side_effect = RuntimeError('queue full')
        work = mock.Mock()

        def enter():
            with locks.acquire(self.context, self.node.id,
                               purpose='power change') as task:
                task.spawn_after(executor, work)

        e = self.assertRaises(exception.TemporaryFailure, enter)
        self.assertIn('power change', str(e))
        self.assertEqual(503, e.code)
        work.assert_not_called()
        self.assertIsNone(self._reservation())

    def test_spawn_error_hook(self):
        executor = mock.Mock()
        error = RuntimeError('queue full')
        executor.submit.side_effect = error
        hook = mock.Mock()

        def enter():
            with locks.acquire(self.context, self.node.id) as task:
                task.set_spawn_error_hook(hook, 'arg')
                task.spawn_after(executor, mock.Mock())
                return task

        self.assertRaises(exception.TemporaryFailure, enter)
        hook.assert_called_once_with(mock.ANY, error, 'arg')
        # It ran under the lock.
        task = hook.call_args[0][0]
        self.assertEqual('test-conductor', task.node.reservation)
        self.assertIsNone(self._reservation())

    def test_failing_spawn_error_hook_still_releases(self):
        executor = mock.Mock()
        executor.submit.side_effect = RuntimeError('queue full')

        def enter():
            with locks.acquire(self.context, self.node.id) as task:
                task.set_spawn_error_hook(mock.Mock(
                    side_effect=ValueError('hook broke')))
                task.spawn_after(executor, mock.Mock())

        with mock.patch.object(locks.LOG, 'exception') as log:
            self.assertRaises(exception.TemporaryFailure, enter)
        self.assertTrue(log.called)
        self.assertIsNone(self._reservation())

    def test_spawn_error_hook_unused_on_success(self):
        hook = mock.Mock()
        with locks.acquire(self.context, self.node.id) as task:
            task.set_spawn_error_hook(hook)
            task.spawn_after(self.executor, lambda task: None)
        self.executor.shutdown(wait=True)
        hook.assert_not_called()
        self.assertIsNone(self._reservation())

    def test_submission_after_shutdown_releases(self):
        self.executor.shutdown(wait=True)

        def enter():
            with locks.acquire(self.context, self.node.id) as task:
                task.spawn_after(self.executor, mock.Mock())

        self.assertRaises(exception.TemporaryFailure, enter)
        self.assertIsNone(self._reservation())
