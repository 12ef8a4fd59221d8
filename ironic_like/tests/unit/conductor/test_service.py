"""The conductor service's life cycle and periodic tasks."""

from concurrent import futures
import time
from unittest import mock

from oslo_utils import uuidutils

from ironic_like.common import context as ctx
from ironic_like.common import exception
from ironic_like.common import states
from ironic_like.conductor import power
from ironic_like.conductor import rpcapi
from ironic_like.conductor import service
from ironic_like.conductor import takeover
from ironic_like.drivers.modules import fake
from ironic_like.tests import base
from ironic_like.tests import utils as test_utils
from ironic_like.tests.unit.conductor import utils as cond_utils
from ironic_like.tests.unit.db import utils


class TestServiceLifecycle(base.TestCase):

    def setUp(self):
        super().setUp()
        self.config(takeover_check_interval=3600,
                    sync_power_state_interval=0, group='conductor')

    def _start(self, host='test-conductor'):
        return self.useFixture(cond_utils.RunningConductor(host)).service

    def test_start_registers_online(self):
        self.config(conductor_group='g1', group='conductor')
        svc = self._start()
        conductor = self.db.get_conductor('test-conductor')
        self.assertTrue(conductor.online)
        self.assertEqual('g1', conductor.conductor_group)
        self.assertEqual([utils.FAKE_HW], conductor.hardware_types)
        self.assertEqual(['test-conductor'], [
            c.hostname for c in self.db.get_alive_conductors(60)])
        self.assertEqual({'test-conductor'}, svc.ring.hosts)

    def test_start_with_unknown_hardware_type(self):
        self.config(enabled_hardware_types=['no-such-hw'])
        svc = service.ConductorService()
        self.assertRaises(exception.DriverNotFound, svc.start)
        self.assertRaises(exception.ConductorNotFound,
                          self.db.get_conductor, 'test-conductor')
        svc.stop()  # never started: a no-op

    def test_start_clears_own_stale_reservations(self):
        mine = utils.create_test_node(reservation='test-conductor',
                                      conductor_affinity='test-conductor',
                                      provision_state=states.AVAILABLE)
        theirs = utils.create_test_node(reservation='other-host',
                                        provision_state=states.AVAILABLE)
        self._start()
        self.assertIsNone(self.db.get_node_by_id(mine.id).reservation)
        self.assertEqual('other-host',
                         self.db.get_node_by_id(theirs.id).reservation)

    def test_start_fails_own_interrupted_work(self):
        # The previous run of this conductor died mid-deploy: the restart
        # clears its lock and ends that work as failed, as a take-over
        # from a dead conductor would.
        node = utils.create_test_node(reservation='test-conductor',
                                      conductor_affinity='test-conductor',
                                      provision_state=states.DEPLOYING,
                                      target_provision_state=states.ACTIVE)
        waiting = utils.create_test_node(reservation='test-conductor',
                                         conductor_affinity='test-conductor',
                                         provision_state=states.DEPLOYWAIT)
        self._start()
        stored = self.db.get_node_by_id(node.id)
        self.assertIsNone(stored.reservation)
        self.assertEqual(states.DEPLOYFAIL, stored.provision_state)
        self.assertIn('test-conductor', stored.last_error)
        stored = self.db.get_node_by_id(waiting.id)
        self.assertIsNone(stored.reservation)
        self.assertEqual(states.DEPLOYWAIT, stored.provision_state)

    def test_stop_unregisters(self):
        fixture = cond_utils.RunningConductor()
        fixture.setUp()
        fixture.cleanUp()
        conductor = self.db.get_conductor('test-conductor')
        self.assertFalse(conductor.online)
        self.assertEqual([], self.db.get_alive_conductors(60))
        # Stopping twice is harmless.
        fixture.service.stop()

    def test_stop_without_unregister(self):
        svc = service.ConductorService()
        svc.start()
        svc.stop(unregister=False)
        self.assertTrue(self.db.get_conductor('test-conductor').online)

    def test_stop_is_prompt_after_work(self):
        # Pools that idle-poll (futurist's) made stop() take seconds.
        svc = service.ConductorService()
        svc.start()
        try:
            api = rpcapi.ConductorAPI()
            uuid = uuidutils.generate_uuid()
            api.create_node(ctx.get_admin_context(),
                            {'uuid': uuid, 'driver': utils.FAKE_HW})
            node = self.db.get_node_by_uuid(uuid)
            api.change_node_power_state(ctx.get_admin_context(), node,
                                        states.POWER_ON)
            utils.wait_for_node(uuid, lambda n: n.power_state ==
                                states.POWER_ON)
        finally:
            started = time.monotonic()
            svc.stop()
            elapsed = time.monotonic() - started
        # Pools whose shutdown wakes idle workers at once (futurist's poll
        # once a second, and stop() waited for each pool in turn).
        self.assertIsInstance(svc.executor._pool, futures.ThreadPoolExecutor)
        self.assertIsInstance(svc._rpc_server._work_executor,
                              futures.ThreadPoolExecutor)
        # The old pools took about a second each; a generous bound keeps
        # a loaded machine from failing this.
        self.assertLess(elapsed, 3)

    def test_stop_waits_for_background_work(self):
        self.useFixture(base.SlowFakeActions(0.3))
        svc = service.ConductorService()
        svc.start()
        node = utils.create_test_node(power_state=states.POWER_OFF)
        power.change_node_power_state(ctx.get_admin_context(), svc.executor,
                                      node.id, states.POWER_ON)
        svc.stop()
        stored = self.db.get_node_by_id(node.id)
        self.assertEqual(states.POWER_ON, stored.power_state)
        self.assertIsNone(stored.reservation)

    def test_heartbeat_updates_updated_at(self):
        svc = self._start()
        utils.set_conductor_age('test-conductor', 3600)
        self.assertEqual([], self.db.get_alive_conductors(60))
        svc.heartbeat()
        self.assertEqual(['test-conductor'], [
            c.hostname for c in self.db.get_alive_conductors(60)])

    def test_heartbeat_runs_periodically(self):
        # heartbeat_interval is 1 s in tests.
        self._start()
        utils.set_conductor_age('test-conductor', 3600)
        self.assertTrue(test_utils.wait_for(
            lambda: self.db.get_alive_conductors(60), timeout=5))

    def test_heartbeat_failure_is_logged_not_raised(self):
        svc = service.ConductorService()
        with mock.patch.object(service.LOG, 'exception') as log:
            svc.heartbeat()  # never registered
        self.assertTrue(log.called)

    def test_check_ring_resets_on_membership_change(self):
        svc = self._start()
        self.assertEqual({'test-conductor'}, svc.ring.hosts)
        utils.register_conductor('newcomer')
        # The ring is cached ...
        self.assertEqual({'test-conductor'}, svc.ring.hosts)
        with mock.patch.object(svc.ring, 'reset',
                               wraps=svc.ring.reset) as reset:
            svc.check_ring()
            self.assertEqual(1, reset.call_count)
            self.assertEqual({'test-conductor', 'newcomer'}, svc.ring.hosts)
            # ... and not reset again while membership stays the same.
            svc.check_ring()
            self.assertEqual(1, reset.call_count)
            utils.set_conductor_age('newcomer', 3600)
            svc.check_ring()
            self.assertEqual(2, reset.call_count)
        self.assertEqual({'test-conductor'}, svc.ring.hosts)

    def test_check_ring_takes_nodes_over(self):
        svc = self._start()
        utils.register_conductor('dead', age=3600)
        node = utils.create_test_node(conductor_affinity='dead',
                                      reservation='dead',
                                      provision_state=states.CLEANING)
        unowned = utils.create_test_node()
        # Same ring as at the last pass, settled: only unclaimed nodes are
        # read.
        svc._members_changed_at = float('-inf')
        svc.check_ring()
        self.assertEqual('test-conductor', self.db.get_node_by_id(
            unowned.id).conductor_affinity)
        self.assertEqual('dead', self.db.get_node_by_id(
            node.id).conductor_affinity)
        # A full pass (the ring changed, or the safety-net period is over)
        # takes the dead conductor's node over.
        svc._last_full_pass = 0.0
        svc.check_ring()
        stored = self.db.get_node_by_id(node.id)
        self.assertEqual('test-conductor', stored.conductor_affinity)
        self.assertIsNone(stored.reservation)
        self.assertEqual(states.CLEANFAIL, stored.provision_state)

    def test_membership_change_forces_a_full_pass(self):
        svc = self._start()
        svc.check_ring()
        svc._members_changed_at = float('-inf')
        with mock.patch.object(takeover, 'take_over_nodes') as take:
            svc.check_ring()
            self.assertTrue(take.call_args.kwargs['unowned_only'])
            utils.register_conductor('newcomer')
            svc.check_ring()
            self.assertFalse(take.call_args.kwargs['unowned_only'])
            # Still full while the others may act on their old ring ...
            svc.check_ring()
            self.assertFalse(take.call_args.kwargs['unowned_only'])
            # ... and only unclaimed nodes once the ring has settled.
            svc._members_changed_at = float('-inf')
            svc.check_ring()
            self.assertTrue(take.call_args.kwargs['unowned_only'])

    def test_check_ring_survives_errors(self):
        svc = self._start()
        with mock.patch.object(takeover, 'take_over_nodes',
                               side_effect=RuntimeError('db down')), \
                mock.patch.object(service.LOG, 'exception') as log:
            svc.check_ring()
        self.assertTrue(log.called)

    def test_sync_power_states(self):
        svc = self._start()
        info = {fake.FAKE_POWER_KEY: states.POWER_ON}
        node = utils.create_test_node(power_state=states.POWER_OFF,
                                      driver_internal_info=info)
        maint = utils.create_test_node(power_state=states.POWER_OFF,
                                       driver_internal_info=info,
                                       maintenance=True)
        booting = utils.create_test_node(power_state=states.POWER_OFF,
                                         driver_internal_info=info)
        # A boot session drives it: its status operator reads the power.
        self.db.update_boot_component(booting.id, {'enabled': True})
        svc.sync_power_states()
        self.assertEqual(states.POWER_ON,
                         self.db.get_node_by_id(node.id).power_state)
        self.assertEqual(states.POWER_OFF,
                         self.db.get_node_by_id(maint.id).power_state)
        self.assertEqual(states.POWER_OFF,
                         self.db.get_node_by_id(booting.id).power_state)
