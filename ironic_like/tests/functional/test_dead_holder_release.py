"""Releasing the lock of a dead conductor on MariaDB and PostgreSQL
(db node_locks.release_dead_holder, take_over_node): the holder's
liveness is checked in the UPDATE itself, so a conductor that restarted
under the same host name after the caller listed it as dead keeps its
locks."""

import datetime

from oslo_utils import timeutils

from ironic_like.common import states
from ironic_like.tests.functional import base

HOST = 'restarting-conductor'
SURVIVOR = 'survivor'


class _DeadHolderRelease(object):

    SERVICES = ()

    def setUp(self):
        super().setUp()
        self.db, _engine = self.in_process_db()
        self.db.register_conductor(SURVIVOR, '', ['fake-hardware'])
        self.db.register_conductor(HOST, '', ['fake-hardware'])
        self.node = self.db.create_node({
            'name': 'held', 'driver': 'fake-hardware',
            'conductor_affinity': HOST,
            'provision_state': states.VERIFYING})
        self.db.reserve_node(HOST, self.node.id)

    def holder(self):
        return self.db.get_node_by_id(self.node.id).reservation

    def test_alive_holder_keeps_its_lock(self):
        self.assertFalse(self.db.release_dead_holder(self.node.id, HOST))
        self.assertTrue(self.db.take_over_node(self.node.id, SURVIVOR,
                                               HOST))
        self.assertEqual(HOST, self.holder())

    def test_offline_holder_loses_it(self):
        self.db.unregister_conductor(HOST)
        self.assertTrue(self.db.release_dead_holder(self.node.id, HOST))
        self.assertIsNone(self.holder())

    def test_silent_holder_loses_it(self):
        # Its last heartbeat an hour ago.
        timeutils.set_time_override(
            timeutils.utcnow() - datetime.timedelta(hours=1))
        try:
            self.db.touch_conductor(HOST)
        finally:
            timeutils.clear_time_override()
        self.assertTrue(self.db.release_dead_holder(self.node.id, HOST))
        self.assertIsNone(self.holder())


class TestDeadHolderReleaseMySQL(_DeadHolderRelease,
                                 base.FunctionalTestCase):
    BACKEND = base.MYSQL


class TestDeadHolderReleasePostgreSQL(_DeadHolderRelease,
                                      base.FunctionalTestCase):
    BACKEND = base.POSTGRESQL
