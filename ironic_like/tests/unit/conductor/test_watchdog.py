"""The watchdog: work nobody holds a lock for is carried on or ended."""

from unittest import mock

from ironic_like.common import context as ctx
from ironic_like.common import exception
from ironic_like.common import states
from ironic_like.conductor import hash_ring
from ironic_like.conductor import takeover
from ironic_like.conductor import watchdog
from ironic_like.tests import base
from ironic_like.tests.unit.db import utils

HOST = 'test-conductor'


class TestWatchdog(base.TestCase):

    def setUp(self):
        super().setUp()
        self.config(node_locked_retry_attempts=1,
                    node_locked_retry_interval=0, group='conductor')
        self.context = ctx.get_admin_context()
        utils.register_conductor(HOST)
        self.ring = hash_ring.HashRingManager()

    def _node(self, **kwargs):
        kwargs.setdefault('conductor_affinity', HOST)
        kwargs.setdefault('power_state', states.POWER_OFF)
        return utils.create_test_node(**kwargs)

    def _round(self):
        return watchdog.check_nodes(self.context, self.ring, HOST, self.db)

    def test_power_change_interrupted(self):
        # kill -9 between recording the target and reaching it.
        node = self._node(target_power_state=states.POWER_ON)
        self.assertEqual([node.id], self._round())
        node = self.db.get_node_by_id(node.id)
        self.assertIsNone(node.target_power_state)
        self.assertIn('Power change to "power on" was interrupted',
                      node.last_error)
        self.assertIsNone(node.reservation)
        # Usable again: a second round has nothing to do.
        self.assertEqual([], self._round())

    def test_transient_state_without_worker_fails(self):
        node = self._node(provision_state=states.VERIFYING,
                          target_provision_state=states.MANAGEABLE)
        self.assertEqual([node.id], self._round())
        node = self.db.get_node_by_id(node.id)
        self.assertEqual(states.ENROLL, node.provision_state)
        self.assertIn('stopped while the node was verifying',
                      node.last_error)

    def test_locked_node_is_left_and_seen_again(self):
        # A take-over that found the node locked skipped it; the watchdog
        # does not act while the lock is held, and does once it is free.
        node = self._node(provision_state=states.VERIFYING,
                          target_provision_state=states.MANAGEABLE)
        self.db.reserve_node('someone', node.id)
        self.assertEqual([], self._round())
        self.assertEqual(states.VERIFYING,
                         self.db.get_node_by_id(node.id).provision_state)
        self.db.release_node('someone', node.id)
        self.assertEqual([node.id], self._round())

    def test_locked_between_listing_and_locking(self):
        node = self._node(target_power_state=states.POWER_OFF)
        real = watchdog.locks.acquire

        def racing(*args, **kwargs):
            self.db.reserve_node('worker', node.id)
            return real(*args, **kwargs)

        with mock.patch.object(watchdog.locks, 'acquire', racing):
            self.assertEqual([], self._round())
        self.assertEqual(states.POWER_OFF,
                         self.db.get_node_by_id(node.id).target_power_state)

    def test_stable_nodes_untouched(self):
        node = self._node(provision_state=states.AVAILABLE)
        with mock.patch.object(watchdog, 'check_node') as check:
            self.assertEqual([], self._round())
        self.assertFalse(check.called)
        self.assertIsNone(self.db.get_node_by_id(node.id).last_error)

    def test_other_conductors_nodes_untouched(self):
        utils.register_conductor('other')
        self.ring = hash_ring.HashRingManager()
        nodes = [self._node(target_power_state=states.POWER_ON)
                 for _ in range(12)]
        acted = set(self._round())
        mine = {row[0] for row in takeover.owned_node_rows(
            self.ring, HOST, self.db)}
        self.assertEqual(mine, acted)
        self.assertLess(len(acted), len(nodes))

    def test_node_deleted_meanwhile(self):
        with mock.patch.object(watchdog, '_orphans', return_value=[12345]):
            self.assertEqual([], self._round())
        self.assertRaises(exception.NodeNotFound, self.db.get_node_by_id,
                          12345)
