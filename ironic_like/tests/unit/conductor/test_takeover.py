"""Taking nodes over from a dead conductor."""

from unittest import mock

from oslo_utils import uuidutils

from ironic_like.common import context as ctx
from ironic_like.common import states
from ironic_like.conductor import hash_ring
from ironic_like.conductor import takeover
from ironic_like.drivers.modules import fake
from ironic_like.tests import base
from ironic_like.tests.unit.db import utils

SURVIVOR = 'survivor'
DEAD = 'dead-host'
OTHER = 'other-live'


class TestTakeOver(base.TestCase):

    def setUp(self):
        super().setUp()
        # This process is the survivor.
        self.config(host=SURVIVOR)
        self.config(heartbeat_timeout=60, node_locked_retry_attempts=1,
                    node_locked_retry_interval=0, group='conductor')
        self.context = ctx.get_admin_context()
        utils.register_conductor(SURVIVOR)
        utils.register_conductor(DEAD, age=3600)
        self.ring = hash_ring.HashRingManager()

    def _uuid_owned_by(self, host, ring=None):
        ring = ring or self.ring
        for _ in range(1000):
            uuid = uuidutils.generate_uuid()
            if ring.get_owner(uuid, utils.FAKE_HW, '') == host:
                return uuid
        raise AssertionError('no uuid maps to %s' % host)

    def _node(self, **kwargs):
        kwargs.setdefault('uuid', self._uuid_owned_by(SURVIVOR))
        kwargs.setdefault('conductor_affinity', DEAD)
        kwargs.setdefault('power_state', states.POWER_OFF)
        return utils.create_test_node(**kwargs)

    def _pass(self):
        return takeover.take_over_nodes(self.context, self.ring, SURVIVOR)

    def test_dead_conductors(self):
        utils.register_conductor(OTHER)
        self.assertEqual({DEAD}, takeover.dead_conductors(self.db))
        self.db.unregister_conductor(OTHER)
        self.assertEqual({DEAD, OTHER}, takeover.dead_conductors(self.db))

    def test_only_the_dead_host_is_off_the_ring(self):
        self.assertEqual({SURVIVOR}, self.ring.hosts)

    def test_nodes_of_the_dead_host_are_taken(self):
        idle = self._node(provision_state=states.AVAILABLE)
        locked = self._node(provision_state=states.ACTIVE, reservation=DEAD)
        unowned = self._node(conductor_affinity=None)
        taken = self._pass()
        self.assertEqual(sorted([idle.uuid, locked.uuid, unowned.uuid]),
                         sorted(taken))
        for node in (idle, locked, unowned):
            stored = self.db.get_node_by_id(node.id)
            self.assertEqual(SURVIVOR, stored.conductor_affinity)
            self.assertIsNone(stored.reservation)
        self.assertEqual(states.ACTIVE,
                         self.db.get_node_by_id(locked.id).provision_state)

    def test_interrupted_deploy_fails(self):
        node = self._node(provision_state=states.DEPLOYING,
                          target_provision_state=states.ACTIVE,
                          reservation=DEAD)
        self.assertEqual([node.uuid], self._pass())
        stored = self.db.get_node_by_id(node.id)
        self.assertEqual(states.DEPLOYFAIL, stored.provision_state)
        self.assertIsNone(stored.target_provision_state)
        self.assertIn(DEAD, stored.last_error)
        self.assertIn(states.DEPLOYING, stored.last_error)
        self.assertIsNone(stored.reservation)
        self.assertEqual(SURVIVOR, stored.conductor_affinity)

    def test_wait_states_are_left_alone(self):
        # Nothing holds a thread while a node waits for its agent: the new
        # owner simply carries on when the callback arrives.
        node = self._node(provision_state=states.DEPLOYWAIT,
                          target_provision_state=states.ACTIVE)
        self._pass()
        stored = self.db.get_node_by_id(node.id)
        self.assertEqual(states.DEPLOYWAIT, stored.provision_state)
        self.assertEqual(states.ACTIVE, stored.target_provision_state)

    def test_power_state_resynced(self):
        node = self._node(
            provision_state=states.ACTIVE, power_state=states.POWER_OFF,
            driver_internal_info={fake.FAKE_POWER_KEY: states.POWER_ON})
        self._pass()
        self.assertEqual(states.POWER_ON,
                         self.db.get_node_by_id(node.id).power_state)

    def test_live_hosts_reservation_kept(self):
        utils.register_conductor(OTHER)
        ring = hash_ring.HashRingManager()
        uuid = self._uuid_owned_by(SURVIVOR, ring)
        node = self._node(uuid=uuid, provision_state=states.DEPLOYING,
                          reservation=OTHER)
        self.assertEqual([uuid], takeover.take_over_nodes(
            self.context, ring, SURVIVOR))
        stored = self.db.get_node_by_id(node.id)
        self.assertEqual(SURVIVOR, stored.conductor_affinity)
        # A live conductor is still working on it: not ours to fail.
        self.assertEqual(OTHER, stored.reservation)
        self.assertEqual(states.DEPLOYING, stored.provision_state)
        self.assertIsNone(stored.last_error)

    def test_live_owner_dead_lock_holder(self):
        # The ring moved the node from a live owner to us, but the lock was
        # held by the dead host: its interrupted work is failed.
        utils.register_conductor(OTHER)
        ring = hash_ring.HashRingManager()
        uuid = self._uuid_owned_by(SURVIVOR, ring)
        node = self._node(uuid=uuid, conductor_affinity=OTHER,
                          reservation=DEAD, provision_state=states.CLEANING)
        self.assertEqual([uuid], takeover.take_over_nodes(
            self.context, ring, SURVIVOR))
        stored = self.db.get_node_by_id(node.id)
        self.assertEqual(SURVIVOR, stored.conductor_affinity)
        self.assertIsNone(stored.reservation)
        self.assertEqual(states.CLEANFAIL, stored.provision_state)
        self.assertIn(DEAD, stored.last_error)

    def test_nodes_of_other_owners_untouched(self):
        utils.register_conductor(OTHER)
        ring = hash_ring.HashRingManager()
        uuid = self._uuid_owned_by(OTHER, ring)
        node = self._node(uuid=uuid, reservation=DEAD,
                          provision_state=states.DEPLOYING)
        self.assertEqual([], takeover.take_over_nodes(self.context, ring,
                                                      SURVIVOR))
        stored = self.db.get_node_by_id(node.id)
        self.assertEqual(DEAD, stored.conductor_affinity)
        self.assertEqual(DEAD, stored.reservation)

    def test_other_groups_and_drivers_untouched(self):
        grouped = self._node(conductor_group='elsewhere')
        foreign = self._node(driver='other-hw')
        self.assertEqual([], self._pass())
        for node in (grouped, foreign):
            self.assertEqual(
                DEAD, self.db.get_node_by_id(node.id).conductor_affinity)

    def test_lost_race_is_normal(self):
        node = self._node()
        real = self.db.take_over_node

        def someone_else_first(node_id, new_owner, previous):
            # Another conductor wins between our read and our UPDATE.
            real(node_id, OTHER, previous)
            return real(node_id, new_owner, previous)

        with mock.patch.object(self.db, 'take_over_node',
                               side_effect=someone_else_first), \
                mock.patch.object(takeover.LOG, 'exception') as log_exc, \
                mock.patch.object(takeover.LOG, 'error') as log_err:
            self.assertEqual([], self._pass())
        log_exc.assert_not_called()
        log_err.assert_not_called()
        self.assertEqual(OTHER,
                         self.db.get_node_by_id(node.id).conductor_affinity)

    def test_second_pass_is_idempotent(self):
        deploying = self._node(provision_state=states.DEPLOYING,
                               reservation=DEAD)
        idle = self._node(provision_state=states.AVAILABLE)
        self.assertEqual(2, len(self._pass()))
        before = {n.id: self.db.get_node_by_id(n.id).as_dict()
                  for n in (deploying, idle)}
        self.assertEqual([], self._pass())
        after = {n.id: self.db.get_node_by_id(n.id).as_dict()
                 for n in (deploying, idle)}
        self.assertEqual(before, after)
        self.assertEqual(states.DEPLOYFAIL,
                         after[deploying.id]['provision_state'])

    def test_own_node_locked_by_dead_host(self):
        # Already ours, but the dead host had it locked (it borrowed the
        # node during a ring change) and died mid-deploy.
        node = self._node(conductor_affinity=SURVIVOR, reservation=DEAD,
                          provision_state=states.DEPLOYING)
        self.assertEqual([], self._pass())
        stored = self.db.get_node_by_id(node.id)
        self.assertIsNone(stored.reservation)
        self.assertEqual(states.DEPLOYFAIL, stored.provision_state)
        self.assertIn(DEAD, stored.last_error)
        # And only once.
        self._pass()
        self.assertEqual(stored.last_error,
                         self.db.get_node_by_id(node.id).last_error)

    def _restarted_after_the_dead_list(self):
        # The dead host restarts (registers again under its name) after
        # this pass read the list of dead conductors, and locks its nodes
        # again: a stale list must not release its locks.
        real = takeover.dead_conductors

        def stale(db):
            dead = real(db)
            utils.register_conductor(DEAD)
            return dead
        return mock.patch.object(takeover, 'dead_conductors', stale)

    def test_own_node_locked_by_a_restarted_host_is_left_alone(self):
        node = self._node(conductor_affinity=SURVIVOR, reservation=DEAD,
                          provision_state=states.VERIFYING)
        with self._restarted_after_the_dead_list():
            self.assertEqual([], self._pass())
        stored = self.db.get_node_by_id(node.id)
        self.assertEqual(DEAD, stored.reservation)
        self.assertEqual(states.VERIFYING, stored.provision_state)
        self.assertIsNone(stored.last_error)

    def test_node_locked_by_a_restarted_host_keeps_its_lock(self):
        node = self._node(reservation=DEAD, provision_state=states.DEPLOYING)
        with self._restarted_after_the_dead_list():
            self.assertEqual([node.uuid], self._pass())
        stored = self.db.get_node_by_id(node.id)
        # The ring moved it here, but the restarted host finishes its
        # work: its lock stands and nothing failed it.
        self.assertEqual(SURVIVOR, stored.conductor_affinity)
        self.assertEqual(DEAD, stored.reservation)
        self.assertEqual(states.DEPLOYING, stored.provision_state)
        self.assertIsNone(stored.last_error)

    def test_unlocked_node_of_a_restarted_owner_is_not_failed(self):
        # The owner restarted after the pass listed it as dead: the ring
        # still moves the node here, but its work is not failed as a
        # dead conductor's (the restarted owner or the watchdog sees to
        # it).
        node = self._node(provision_state=states.DEPLOYING)
        with self._restarted_after_the_dead_list():
            self.assertEqual([node.uuid], self._pass())
        stored = self.db.get_node_by_id(node.id)
        self.assertEqual(SURVIVOR, stored.conductor_affinity)
        self.assertEqual(states.DEPLOYING, stored.provision_state)
        self.assertIsNone(stored.last_error)

    def test_release_dead_holder(self):
        node = self._node(reservation=DEAD)
        self.assertFalse(self.db.release_dead_holder(node.id, SURVIVOR))
        self.assertTrue(self.db.release_dead_holder(node.id, DEAD))
        self.assertIsNone(self.db.get_node_by_id(node.id).reservation)
        self.db.reserve_node(SURVIVOR, node.id)
        self.assertFalse(self.db.release_dead_holder(node.id, SURVIVOR))
        self.assertEqual(SURVIVOR,
                         self.db.get_node_by_id(node.id).reservation)

    def test_own_node_locked_by_self_is_left_alone(self):
        node = self._node(conductor_affinity=SURVIVOR, reservation=SURVIVOR,
                          provision_state=states.DEPLOYING)
        self.assertEqual([], self._pass())
        stored = self.db.get_node_by_id(node.id)
        self.assertEqual(SURVIVOR, stored.reservation)
        self.assertEqual(states.DEPLOYING, stored.provision_state)

    def test_deleted_meanwhile(self):
        node = self._node(provision_state=states.DEPLOYING, reservation=DEAD)
        real = self.db.take_over_node

        def then_deleted(*args, **kwargs):
            result = real(*args, **kwargs)
            self.db.destroy_node(node.id)
            return result

        with mock.patch.object(self.db, 'take_over_node',
                               side_effect=then_deleted):
            self.assertEqual([node.uuid], self._pass())

    def test_owned_node_rows(self):
        utils.register_conductor(OTHER)
        ring = hash_ring.HashRingManager()
        mine = self._node(uuid=self._uuid_owned_by(SURVIVOR, ring))
        others = self._node(uuid=self._uuid_owned_by(OTHER, ring))
        rows = takeover.owned_node_rows(ring, SURVIVOR, self.db)
        self.assertEqual([mine.id], [r[0] for r in rows])
        rows = takeover.owned_node_rows(ring, OTHER, self.db)
        self.assertEqual([others.id], [r[0] for r in rows])
