"""Node locks and take-over in the database: the conditional UPDATEs."""

import threading

from ironic_like.common import exception
from ironic_like.tests import base
from ironic_like.tests.unit.db import utils


class TestReserveRelease(base.TestCase):

    def setUp(self):
        super().setUp()
        self.node = utils.create_test_node()

    def test_reserve_and_release(self):
        node = self.db.reserve_node('host-a', self.node.id)
        self.assertEqual('host-a', node.reservation)
        self.assertEqual('host-a',
                         self.db.get_node_by_id(self.node.id).reservation)
        self.assertTrue(self.db.release_node('host-a', self.node.id))
        self.assertIsNone(self.db.get_node_by_id(self.node.id).reservation)
        # Releasing again is a no-op that says so.
        self.assertFalse(self.db.release_node('host-a', self.node.id))

    def test_second_reserve_names_the_holder(self):
        self.db.reserve_node('host-a', self.node.id)
        for tag in ('host-b', 'host-a'):
            e = self.assertRaises(exception.NodeLocked,
                                  self.db.reserve_node, tag, self.node.id)
            self.assertIn('host-a', str(e))
            self.assertIn(self.node.uuid, str(e))
            self.assertEqual(409, e.code)

    def test_release_by_non_holder_keeps_lock(self):
        self.db.reserve_node('host-a', self.node.id)
        self.assertFalse(self.db.release_node('host-b', self.node.id))
        self.assertEqual('host-a',
                         self.db.get_node_by_id(self.node.id).reservation)

    def test_reserve_missing_node(self):
        self.assertRaises(exception.NodeNotFound, self.db.reserve_node,
                          'host-a', 999)

    def test_concurrent_reserve_has_one_winner(self):
        # Many threads, each with its own connection to the same SQLite
        # file, race for one node: the database picks exactly one.
        count = 8
        barrier = threading.Barrier(count)
        winners = []
        losers = []
        errors = []

        def contend(i):
            tag = 'host-%d' % i
            barrier.wait()
            try:
                self.db.reserve_node(tag, self.node.id)
                winners.append(tag)
            except exception.NodeLocked as e:
                losers.append(e)
            except Exception as e:  # pragma: no cover - reported below
                errors.append(e)

        threads = [threading.Thread(target=contend, args=(i,))
                   for i in range(count)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(30)
        self.assertEqual([], errors)
        self.assertEqual(1, len(winners), winners)
        self.assertEqual(count - 1, len(losers))
        self.assertEqual(winners[0],
                         self.db.get_node_by_id(self.node.id).reservation)

    def test_clear_reservations_for_conductor(self):
        other = utils.create_test_node()
        third = utils.create_test_node()
        self.db.reserve_node('host-a', self.node.id)
        self.db.reserve_node('host-a', other.id)
        self.db.reserve_node('host-b', third.id)
        self.assertEqual(
            2, self.db.clear_node_reservations_for_conductor('host-a'))
        self.assertIsNone(self.db.get_node_by_id(self.node.id).reservation)
        self.assertIsNone(self.db.get_node_by_id(other.id).reservation)
        self.assertEqual('host-b',
                         self.db.get_node_by_id(third.id).reservation)
        self.assertEqual(
            0, self.db.clear_node_reservations_for_conductor('host-a'))


class TestTakeOverNode(base.TestCase):

    def test_claim_unowned(self):
        node = utils.create_test_node()
        self.assertTrue(self.db.take_over_node(node.id, 'new', None))
        self.assertEqual('new',
                         self.db.get_node_by_id(node.id).conductor_affinity)

    def test_lost_race_changes_nothing(self):
        node = utils.create_test_node(conductor_affinity='other',
                                      reservation='dead')
        # We believed the previous owner was 'dead', but 'other' got it.
        self.assertFalse(self.db.take_over_node(node.id, 'new', 'dead'))
        stored = self.db.get_node_by_id(node.id)
        self.assertEqual('other', stored.conductor_affinity)
        self.assertEqual('dead', stored.reservation)
        # Same with an expected None.
        self.assertFalse(self.db.take_over_node(node.id, 'new', None))
        self.assertEqual('other',
                         self.db.get_node_by_id(node.id).conductor_affinity)

    def test_reservation_left_to_release_dead_holder(self):
        node = utils.create_test_node(conductor_affinity='dead',
                                      reservation='dead')
        self.assertTrue(self.db.take_over_node(node.id, 'new', 'dead'))
        stored = self.db.get_node_by_id(node.id)
        self.assertEqual('new', stored.conductor_affinity)
        self.assertEqual('dead', stored.reservation)
        # 'dead' has no conductors row: dead.
        self.assertTrue(self.db.release_dead_holder(node.id, 'dead'))
        self.assertIsNone(self.db.get_node_by_id(node.id).reservation)

    def test_two_claims_one_winner(self):
        node = utils.create_test_node(conductor_affinity='dead')
        self.assertTrue(self.db.take_over_node(node.id, 'a', 'dead'))
        self.assertFalse(self.db.take_over_node(node.id, 'b', 'dead'))
        self.assertEqual('a',
                         self.db.get_node_by_id(node.id).conductor_affinity)


class TestWriteLockedNode(base.TestCase):

    def setUp(self):
        super().setUp()
        self.node = utils.create_test_node()

    def test_writes_only_under_the_lock(self):
        self.db.reserve_node('host-a', self.node.id)
        self.db.write_locked_node(self.node.id, 'host-a',
                                  {'driver_internal_info': {'a': 1}})
        self.assertEqual({'a': 1}, self.db.get_node_by_id(
            self.node.id).driver_internal_info)
        # The same values again: still a success (rows matched, not
        # rows changed, count).
        self.db.write_locked_node(self.node.id, 'host-a',
                                  {'driver_internal_info': {'a': 1}})
        e = self.assertRaises(exception.NodeLockLost,
                              self.db.write_locked_node, self.node.id,
                              'host-b', {'driver_internal_info': {'b': 2}})
        self.assertIn('host-a', str(e))
        self.db.release_node('host-a', self.node.id)
        self.assertRaises(exception.NodeLockLost,
                          self.db.write_locked_node, self.node.id,
                          'host-a', {'driver_internal_info': {'b': 2}})
        self.assertEqual({'a': 1}, self.db.get_node_by_id(
            self.node.id).driver_internal_info)

    def test_missing_node(self):
        self.assertRaises(exception.NodeNotFound,
                          self.db.write_locked_node, 999, 'host-a',
                          {'extra': {}})

    def test_guarded_columns_refused(self):
        self.db.reserve_node('host-a', self.node.id)
        for name in ('uuid', 'provision_state', 'instance_uuid',
                     'reservation', 'traits'):
            self.assertRaises(exception.InvalidParameterValue,
                              self.db.write_locked_node, self.node.id,
                              'host-a', {name: None})
        self.assertEqual('host-a',
                         self.db.get_node_by_id(self.node.id).reservation)
