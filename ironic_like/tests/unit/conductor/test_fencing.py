"""A conductor whose own heartbeat expired takes no new work and judges
no other conductor dead until its heartbeat is recorded again."""

import time
from unittest import mock

from ironic_like.common import context as ctx
from ironic_like.common import exception
from ironic_like.conductor import fencing
from ironic_like.conductor import locks
from ironic_like.conductor import service
from ironic_like.conductor import takeover
from ironic_like.tests import base
from ironic_like.tests.unit.db import utils


class TestFencing(base.TestCase):

    def setUp(self):
        super().setUp()
        self.config(heartbeat_timeout=10, group='conductor')
        self.node = utils.create_test_node()
        self.context = ctx.get_admin_context()
        self.now = time.monotonic()
        clock = mock.patch.object(fencing.time, 'monotonic',
                                  side_effect=lambda: self.now)
        clock.start()
        self.addCleanup(clock.stop)

    def _lock(self):
        with locks.acquire(self.context, self.node.id, attempts=1):
            pass

    def test_untracked_process_is_never_fenced(self):
        self.now += 3600
        self._lock()

    def test_expired_heartbeat_refuses_new_locks_until_recorded(self):
        fencing.heartbeat_recorded()
        self.now += 9
        self._lock()
        self.now += 2  # 11 s of silence
        e = self.assertRaises(exception.ConductorFenced, self._lock)
        self.assertEqual(503, e.code)
        self.assertIsNone(self.db.get_node_by_id(self.node.id).reservation)
        # Reads still work.
        with locks.acquire(self.context, self.node.id, shared=True):
            pass
        fencing.heartbeat_recorded()
        self._lock()

    def test_failed_heartbeat_is_not_a_record(self):
        svc = service.ConductorService()
        self.db.register_conductor(svc.host, '', ['fake-hardware'])
        fencing.heartbeat_recorded()
        self.now += 11
        with mock.patch.object(svc.db, 'touch_conductor',
                               side_effect=RuntimeError('db down')):
            svc.heartbeat()
        self.assertTrue(fencing.is_fenced())
        svc.heartbeat()
        self.assertFalse(fencing.is_fenced())

    def test_fenced_conductor_takes_nothing_over(self):
        svc = service.ConductorService()
        fencing.heartbeat_recorded()
        self.now += 11
        with mock.patch.object(takeover, 'take_over_nodes') as take:
            svc.check_ring()
        self.assertFalse(take.called)
        fencing.heartbeat_recorded()
        with mock.patch.object(takeover, 'take_over_nodes') as take:
            svc.check_ring()
        self.assertTrue(take.called)
