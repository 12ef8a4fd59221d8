"""Node flows keep their progress in the database and resume where they
stopped (taskflow persistence on our own tables)."""

import contextlib

import fixtures
from taskflow.patterns import linear_flow
from taskflow import task as tf_task

from ironic_like.common import agent_info
from ironic_like.common import agent_token
from ironic_like.common import context as ctx
from ironic_like.conductor import agent_heartbeat
from ironic_like.conductor import locks
from ironic_like.conductor import rpcapi
from ironic_like.conductor.flows import persistence
from ironic_like.conductor.flows import runner
from ironic_like.db.sqlalchemy import flow_backend
from ironic_like.tests import base
from ironic_like.tests.unit.db import utils

CALLS = []


class Crash(BaseException):
    """Stands for the process dying: no revert runs."""


class Step(tf_task.Task):

    def __init__(self, name, crash_once=False):
        super().__init__(name=name)
        self.crash_once = crash_once

    def execute(self, node_task):
        CALLS.append((self.name, node_task.node.id))
        if self.crash_once and not any(c[0] == 'crashed' for c in CALLS):
            CALLS.append(('crashed', node_task.node.id))
            raise Crash()


def _test_flow():
    flow = linear_flow.Flow('test-resume')
    flow.add(Step('test-one'), Step('test-two', crash_once=True),
             Step('test-three'))
    return flow


persistence.register('test-resume', _test_flow)


class TestPersistence(base.TestCase):

    def setUp(self):
        super().setUp()
        del CALLS[:]
        self.node = utils.create_test_node()
        self.context = ctx.get_admin_context()

    def _books(self):
        with contextlib.closing(
                flow_backend.backend().get_connection()) as conn:
            return list(conn.get_logbooks())

    def test_resume_skips_finished_steps(self):
        with locks.acquire(self.context, self.node.id) as task:
            self.assertRaises(Crash, persistence.run, task, 'test-resume')
        node = self.db.get_node_by_id(self.node.id)
        record = persistence.recorded(node)
        self.assertEqual('test-resume', record['name'])
        self.assertEqual(['test-one', 'test-two', 'crashed'],
                         [c[0] for c in CALLS])
        # Another conductor (here: another lock) resumes it.
        with locks.acquire(self.context, self.node.id) as task:
            self.assertTrue(persistence.resume(task))
        # test-one is not run again; the interrupted test-two is.
        self.assertEqual(['test-one', 'test-two', 'crashed', 'test-two',
                          'test-three'], [c[0] for c in CALLS])
        node = self.db.get_node_by_id(self.node.id)
        self.assertIsNone(persistence.recorded(node))
        self.assertEqual([], self._books())

    def test_resume_without_record(self):
        with locks.acquire(self.context, self.node.id) as task:
            self.assertFalse(persistence.resume(task))

    def test_resume_with_lost_progress_drops_record(self):
        info = {persistence.RECORD_KEY: {
            'name': 'test-resume', 'book': 'f' * 32, 'detail': 'e' * 32}}
        self.db.update_node(self.node.id, {'driver_internal_info': info})
        with locks.acquire(self.context, self.node.id) as task:
            self.assertFalse(persistence.resume(task))
        node = self.db.get_node_by_id(self.node.id)
        self.assertIsNone(persistence.recorded(node))

    def test_resume_with_unusable_progress_drops_record(self):
        # A conductor killed while saving the progress can leave it
        # unloadable: resume says so (the runner then carries on from the
        # node's restart point) instead of failing at every try.
        with locks.acquire(self.context, self.node.id) as task:
            self.assertRaises(Crash, persistence.run, task, 'test-resume')
        self.useFixture(fixtures.MockPatchObject(
            persistence.engine_loader, 'load',
            side_effect=AttributeError("'NoneType' object has no "
                                       "attribute 'keys'")))
        with locks.acquire(self.context, self.node.id) as task:
            self.assertFalse(persistence.resume(task))
        node = self.db.get_node_by_id(self.node.id)
        self.assertIsNone(persistence.recorded(node))
        self.assertEqual([], self._books())

    def test_flow_that_cannot_start_leaves_nothing(self):
        self.useFixture(fixtures.MockPatchObject(
            persistence.engine_loader, 'load', side_effect=RuntimeError('x')))
        with locks.acquire(self.context, self.node.id) as task:
            self.assertFalse(persistence.run(task, 'test-resume'))
        self.assertIsNone(persistence.recorded(
            self.db.get_node_by_id(self.node.id)))
        self.assertEqual([], self._books())

    def test_finished_flow_leaves_nothing(self):
        CALLS.append(('crashed', None))  # no crash this time
        with locks.acquire(self.context, self.node.id) as task:
            self.assertTrue(persistence.run(task, 'test-resume'))
        self.assertEqual([], self._books())
        node = self.db.get_node_by_id(self.node.id)
        self.assertIsNone(persistence.recorded(node))

    def test_saved_store_holds_no_live_object(self):
        # The NodeTask reaches the tasks through the store but is never
        # saved: what a resuming conductor reads is JSON only.
        with locks.acquire(self.context, self.node.id) as task:
            self.assertRaises(Crash, persistence.run, task, 'test-resume')
        [book] = self._books()
        [detail] = list(book)
        saved = {}
        for atom in detail:
            if isinstance(atom.results, dict):
                saved.update(atom.results)
        self.assertEqual({persistence.NODE_ID: self.node.id}, saved)
        self.assertNotIn(persistence.NODE_TASK, saved)


class _InlineExecutor(object):
    def submit(self, fn, *args):
        fn(*args)


class TestMissedHeartbeatReplay(base.TestCase):
    """A heartbeat that finds the node locked by this conductor is
    acknowledged at once and replayed when the lock is released."""

    def test_replayed_after_release(self):
        runner.use_executor(_InlineExecutor())
        self.addCleanup(runner.use_executor, None)
        info = agent_token.with_new_token({})
        node = utils.create_test_node(driver_internal_info=info)
        token = info[agent_token.TOKEN_KEY]
        context = ctx.get_admin_context()
        with locks.acquire(context, node.id):
            self.assertFalse(agent_heartbeat.heartbeat(
                context, node.id, 'http://agent:9999', '1.0', token))
            node = self.db.get_node_by_id(node.id)
            self.assertNotIn(agent_info.AGENT_URL,
                             node.driver_internal_info)
        node = self.db.get_node_by_id(node.id)
        self.assertEqual('http://agent:9999', node.driver_internal_info[
            agent_info.AGENT_URL])
        self.assertIsNone(node.reservation)
        self.assertEqual({}, agent_heartbeat._MISSED)

    def test_locked_by_another_conductor_is_forwarded_once(self):
        info = agent_token.with_new_token({})
        node = utils.create_test_node(driver_internal_info=info)
        token = info[agent_token.TOKEN_KEY]
        self.db.reserve_node('other-host', node.id)
        forward = self.useFixture(fixtures.MockPatchObject(
            rpcapi.ConductorAPI, 'forward_heartbeat')).mock
        context = ctx.get_admin_context()
        self.assertFalse(agent_heartbeat.heartbeat(
            context, node.id, 'http://agent:9999', '1.0', token))
        self.assertNotIn(node.id, agent_heartbeat._MISSED)
        forward.assert_called_once_with(
            context, 'other-host', node.id, 'http://agent:9999', '1.0',
            token, None, None, None)
        # A forwarded heartbeat is never forwarded again (no ping-pong).
        self.assertFalse(agent_heartbeat.heartbeat(
            context, node.id, 'http://agent:9999', '1.0', token,
            forwarded=True))
        self.assertEqual(1, forward.call_count)
