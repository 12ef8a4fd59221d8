"""Conductor rows: registration, heartbeat and liveness."""

from ironic_like.common import exception
from ironic_like.tests import base
from ironic_like.tests.unit.db import utils


class TestConductors(base.TestCase):

    def _alive(self, timeout=60):
        return sorted(c.hostname for c in
                      self.db.get_alive_conductors(timeout))

    def test_register(self):
        conductor = self.db.register_conductor('c1', 'g1',
                                               ['b-hw', 'a-hw'])
        self.assertTrue(conductor.online)
        stored = self.db.get_conductor('c1')
        self.assertEqual('g1', stored.conductor_group)
        self.assertEqual(['a-hw', 'b-hw'], stored.hardware_types)
        self.assertIsNotNone(stored.updated_at)
        self.assertEqual(['c1'], self._alive())

    def test_register_is_idempotent_and_revives(self):
        first = self.db.register_conductor('c1', '', ['fake-hardware'])
        self.db.unregister_conductor('c1')
        self.assertFalse(self.db.get_conductor('c1').online)
        self.assertEqual([], self._alive())
        utils.set_conductor_age('c1', 3600)
        again = self.db.register_conductor('c1', 'g2', ['other'])
        self.assertEqual(first.id, again.id)
        stored = self.db.get_conductor('c1')
        self.assertTrue(stored.online)
        self.assertEqual('g2', stored.conductor_group)
        self.assertEqual(['other'], stored.hardware_types)
        self.assertEqual(1, len(self.db.get_conductor_list()))
        self.assertEqual(['c1'], self._alive())

    def test_none_group_is_empty(self):
        self.db.register_conductor('c1', None, [])
        self.assertEqual('', self.db.get_conductor('c1').conductor_group)

    def test_touch_updates_heartbeat(self):
        self.db.register_conductor('c1', '', [])
        utils.set_conductor_age('c1', 120)
        old = self.db.get_conductor('c1').updated_at
        self.assertEqual([], self._alive(60))
        self.db.touch_conductor('c1')
        self.assertGreater(self.db.get_conductor('c1').updated_at, old)
        self.assertEqual(['c1'], self._alive(60))

    def test_touch_missing(self):
        self.assertRaises(exception.ConductorNotFound,
                          self.db.touch_conductor, 'nope')

    def test_unregister(self):
        self.db.register_conductor('c1', '', [])
        self.db.unregister_conductor('c1')
        stored = self.db.get_conductor('c1')
        self.assertFalse(stored.online)
        self.assertEqual([], self._alive())

    def test_alive_honours_heartbeat_timeout(self):
        self.db.register_conductor('fresh', '', [])
        self.db.register_conductor('stale', '', [])
        utils.set_conductor_age('stale', 30)
        self.assertEqual(['fresh', 'stale'], self._alive(60))
        self.assertEqual(['fresh'], self._alive(20))
        utils.set_conductor_age('fresh', 25)
        self.assertEqual([], self._alive(20))

    def test_get_missing(self):
        self.assertRaises(exception.ConductorNotFound,
                          self.db.get_conductor, 'nope')

    def test_list_sorted_and_paged(self):
        for name in ('c3', 'c1', 'c2'):
            self.db.register_conductor(name, '', [])
        self.assertEqual(['c1', 'c2', 'c3'], [
            c.hostname for c in self.db.get_conductor_list()])
        self.assertEqual(['c2'], [c.hostname for c in
                                  self.db.get_conductor_list(limit=1,
                                                             marker='c1')])
        self.assertEqual(['c3', 'c2', 'c1'], [
            c.hostname for c in self.db.get_conductor_list(sort_dir='desc')])
