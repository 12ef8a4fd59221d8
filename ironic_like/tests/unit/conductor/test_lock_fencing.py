"""A conductor that lost a node's lock (declared dead while stalled, its
nodes taken over) writes nothing more to the node, and leaves the flow
progress to the new owner."""

import contextlib

import fixtures
from taskflow.patterns import linear_flow
from taskflow import task as tf_task

from ironic_like.common import context as ctx
from ironic_like.common import exception
from ironic_like.common import states
from ironic_like.conductor.flows import node_steps
from ironic_like.conductor.flows import persistence
from ironic_like.conductor import locks
from ironic_like.db.sqlalchemy import flow_backend
from ironic_like.tests import base
from ironic_like.tests.unit.db import utils

NEW_OWNER = 'new-owner'


def _take_over(db, node_id):
    """What a surviving conductor does to a dead one's node: clear the
    lock (take_over_node with the dead host) and lock it itself."""
    db.clear_node_reservations_for_conductor('test-conductor')
    db.reserve_node(NEW_OWNER, node_id)


class TestConditionalWrites(base.TestCase):

    def setUp(self):
        super().setUp()
        self.context = ctx.get_admin_context()
        self.node = utils.create_test_node()

    def test_db_write_under_a_lost_lock_changes_nothing(self):
        self.db.reserve_node(NEW_OWNER, self.node.id)
        self.assertRaises(exception.NodeLockLost, self.db.update_node,
                          self.node.id, {'extra': {'a': 1}},
                          holder='test-conductor')
        self.assertEqual({}, self.db.get_node_by_id(self.node.id).extra)

    def test_task_stops_writing_once_the_lock_is_lost(self):
        logged = self.useFixture(fixtures.FakeLogger(name=locks.__name__))
        with locks.acquire(self.context, self.node.id) as task:
            task.update_node({'extra': {'before': True}})
            _take_over(self.db, self.node.id)
            self.assertRaises(exception.NodeLockLost, task.update_node,
                              {'extra': {'after': True}})
            self.assertTrue(task.lock_lost)
            # Later writes fail at once, without asking the database.
            self.assertRaises(exception.NodeLockLost, task.release_instance)
        node = self.db.get_node_by_id(self.node.id)
        self.assertEqual({'before': True}, node.extra)
        # The release did not free the new owner's lock, and the loss was
        # said once.
        self.assertEqual(NEW_OWNER, node.reservation)
        self.assertEqual(1, logged.output.count('no longer locked'))

    def test_release_instance_under_a_lost_lock(self):
        self.db.update_node(self.node.id, {'instance_uuid': 'f' * 32})
        with locks.acquire(self.context, self.node.id) as task:
            _take_over(self.db, self.node.id)
            self.assertRaises(exception.NodeLockLost, task.release_instance)
        self.assertEqual('f' * 32,
                         self.db.get_node_by_id(self.node.id).instance_uuid)

    def test_failure_handling_writes_nothing(self):
        self.db.update_node(self.node.id,
                            {'provision_state': states.DEPLOYING})
        with locks.acquire(self.context, self.node.id) as task:
            _take_over(self.db, self.node.id)
            self.assertRaises(exception.NodeLockLost, task.update_node,
                              {'extra': {}})
            node_steps.fail_node(task, 'should not be recorded')
        node = self.db.get_node_by_id(self.node.id)
        self.assertEqual(states.DEPLOYING, node.provision_state)
        self.assertIsNone(node.last_error)


class _StealLock(tf_task.Task):

    def execute(self, node_task):
        _take_over(node_task.db, node_task.node.id)


class _Write(tf_task.Task):

    def execute(self, node_task):
        node_task.update_node({'extra': {'written': True}})


def _stolen_flow():
    flow = linear_flow.Flow('test-stolen')
    flow.add(node_steps.FailOnRevert('test-stolen-fail-on-revert', 'Test'),
             _StealLock('test-stolen-steal'), _Write('test-stolen-write'))
    return flow


persistence.register('test-stolen', _stolen_flow)


class TestFlowUnderALostLock(base.TestCase):

    def test_progress_is_left_to_the_new_owner(self):
        node = utils.create_test_node(provision_state=states.DEPLOYING)
        with locks.acquire(ctx.get_admin_context(), node.id) as task:
            self.assertFalse(persistence.run(task, 'test-stolen'))
        node = self.db.get_node_by_id(node.id)
        # Not failed by the revert, not written by the last step.
        self.assertEqual(states.DEPLOYING, node.provision_state)
        self.assertIsNone(node.last_error)
        self.assertEqual({}, node.extra)
        # The record and the logbook are still there for the new owner.
        record = persistence.recorded(node)
        self.assertEqual('test-stolen', record['name'])
        with contextlib.closing(
                flow_backend.backend().get_connection()) as conn:
            self.assertEqual([record['book']],
                             [b.uuid for b in conn.get_logbooks()])
