"""Hash rings built from the conductors table."""

import collections
import uuid
from unittest import mock

from ironic_like.common import exception
from ironic_like.conductor import hash_ring
from ironic_like.tests import base
from ironic_like.tests.unit.db import utils

HW = utils.FAKE_HW


def _uuids(count, seed='ring'):
    # Deterministic UUIDs so the distribution check cannot flake.
    return [str(uuid.uuid5(uuid.NAMESPACE_URL, '%s-%d' % (seed, i)))
            for i in range(count)]


class TestHashRing(base.TestCase):

    def setUp(self):
        super().setUp()
        self.config(heartbeat_timeout=60, group='conductor')
        self.config(hash_partition_exponent=7)

    def test_rings_per_hardware_type_and_group(self):
        utils.register_conductor('a', hardware_types=[HW, 'other-hw'])
        utils.register_conductor('b', hardware_types=[HW])
        utils.register_conductor('c', group='g1', hardware_types=[HW])
        ring = hash_ring.HashRingManager()
        self.assertEqual({(HW, ''), ('other-hw', ''), (HW, 'g1')},
                         set(ring.rings))
        self.assertEqual({'a', 'b'}, set(ring.rings[(HW, '')].nodes))
        self.assertEqual({'a'}, set(ring.rings[('other-hw', '')].nodes))
        self.assertEqual({'c'}, set(ring.rings[(HW, 'g1')].nodes))
        self.assertEqual({'a', 'b', 'c'}, ring.hosts)
        for node in _uuids(20):
            self.assertEqual('c', ring.get_owner(node, HW, 'g1'))
            self.assertIn(ring.get_owner(node, HW, ''), ('a', 'b'))
            self.assertIn(ring.get_owner(node, HW, None), ('a', 'b'))
            self.assertEqual('a', ring.get_owner(node, 'other-hw', ''))

    def test_deterministic_and_shared(self):
        for host in ('a', 'b', 'c'):
            utils.register_conductor(host)
        first = hash_ring.HashRingManager()
        second = hash_ring.HashRingManager()
        nodes = _uuids(200)
        owners = [first.get_owner(n, HW, '') for n in nodes]
        self.assertEqual(owners, [second.get_owner(n, HW, '')
                                  for n in nodes])
        self.assertEqual(owners, [first.get_owner(n, HW, '')
                                  for n in nodes])
        self.assertEqual({'a', 'b', 'c'}, set(owners))

    def test_get_owners_ordered_and_distinct(self):
        for host in ('a', 'b', 'c'):
            utils.register_conductor(host)
        ring = hash_ring.HashRingManager()
        for node in _uuids(20):
            owners = ring.get_owners(node, HW, '', count=3)
            self.assertEqual(3, len(set(owners)))
            self.assertEqual(ring.get_owner(node, HW, ''), owners[0])
            # Ignoring the first owner gives the second one.
            self.assertEqual(owners[1], ring.get_owner(node, HW, '',
                                                       ignore=[owners[0]]))
            self.assertEqual(owners[2], ring.get_owner(
                node, HW, '', ignore=owners[:2]))
            self.assertEqual(3, len(ring.get_owners(node, HW, '', count=5)))

    def test_ignore_skips_hosts(self):
        utils.register_conductor('a')
        utils.register_conductor('b')
        ring = hash_ring.HashRingManager()
        for node in _uuids(50):
            self.assertEqual('b', ring.get_owner(node, HW, '', ignore=['a']))
            # Ignoring an unknown host changes nothing.
            self.assertEqual(ring.get_owner(node, HW, ''),
                             ring.get_owner(node, HW, '', ignore=['zz']))
        e = self.assertRaises(exception.NoValidHost, ring.get_owner,
                              _uuids(1)[0], HW, '', ignore=['a', 'b'])
        self.assertIn(HW, str(e))

    def test_no_valid_host(self):
        ring = hash_ring.HashRingManager()
        self.assertRaises(exception.NoValidHost, ring.get_owner,
                          _uuids(1)[0], HW, '')
        utils.register_conductor('a')
        ring.reset()
        self.assertRaises(exception.NoValidHost, ring.get_owner,
                          _uuids(1)[0], 'unknown-hw', '')
        self.assertRaises(exception.NoValidHost, ring.get_owner,
                          _uuids(1)[0], HW, 'other-group')
        self.assertRaises(exception.NoValidHost, ring.random_host,
                          'unknown-hw')

    def test_stale_heartbeat_drops_out_after_reset(self):
        utils.register_conductor('a')
        utils.register_conductor('b')
        ring = hash_ring.HashRingManager()
        nodes = _uuids(100)
        before = {n: ring.get_owner(n, HW, '') for n in nodes}
        self.assertEqual({'a', 'b'}, set(before.values()))
        utils.set_conductor_age('b', 61)
        # Cached until reset (or the reset interval).
        self.assertEqual(before[nodes[0]], ring.get_owner(nodes[0], HW, ''))
        ring.reset()
        self.assertEqual({'a'}, ring.hosts)
        for node in nodes:
            self.assertEqual('a', ring.get_owner(node, HW, ''))

    def test_offline_conductor_drops_out(self):
        utils.register_conductor('a')
        utils.register_conductor('b')
        self.db.unregister_conductor('b')
        ring = hash_ring.HashRingManager()
        self.assertEqual({'a'}, ring.hosts)

    def test_removing_a_host_moves_only_its_nodes(self):
        for host in ('a', 'b', 'c'):
            utils.register_conductor(host)
        ring = hash_ring.HashRingManager()
        nodes = _uuids(300)
        before = {n: ring.get_owner(n, HW, '') for n in nodes}
        utils.set_conductor_age('c', 3600)
        ring.reset()
        for node in nodes:
            if before[node] != 'c':
                self.assertEqual(before[node], ring.get_owner(node, HW, ''))

    def test_distribution_over_three_hosts(self):
        for host in ('cond-1', 'cond-2', 'cond-3'):
            utils.register_conductor(host)
        ring = hash_ring.HashRingManager()
        # 2**7 partitions per host (hash_partition_exponent=7).
        self.assertEqual(3 * 2 ** 7, len(ring.rings[(HW, '')]._partitions))
        count = 3000
        owners = collections.Counter(ring.get_owner(n, HW, '')
                                     for n in _uuids(count, 'spread'))
        self.assertEqual({'cond-1', 'cond-2', 'cond-3'}, set(owners))
        for host, share in owners.items():
            self.assertTrue(0.25 <= share / count <= 0.42,
                            '%s owns %.1f %%' % (host, 100.0 * share / count))

    def test_rebuild_after_reset_interval(self):
        self.config(hash_ring_reset_interval=15)
        utils.register_conductor('a')
        clock = [1000.0]
        with mock.patch.object(hash_ring.time, 'monotonic',
                               side_effect=lambda: clock[0]):
            ring = hash_ring.HashRingManager()
            self.assertEqual({'a'}, ring.hosts)
            utils.register_conductor('b')
            clock[0] += 14
            self.assertEqual({'a'}, ring.hosts)
            clock[0] += 1
            self.assertEqual({'a', 'b'}, ring.hosts)
            self.assertEqual({'a', 'b'}, set(ring.rings[(HW, '')].nodes))

    def test_builds_once_per_interval(self):
        utils.register_conductor('a')
        with mock.patch.object(self.db, 'get_alive_conductors',
                               wraps=self.db.get_alive_conductors) as alive:
            ring = hash_ring.HashRingManager(self.db)
            for node in _uuids(10):
                ring.get_owner(node, HW, '')
            self.assertEqual(1, alive.call_count)
            ring.reset()
            ring.get_owner(_uuids(1)[0], HW, '')
            self.assertEqual(2, alive.call_count)

    def test_random_host(self):
        utils.register_conductor('a', hardware_types=[HW])
        utils.register_conductor('b', hardware_types=['other-hw'])
        ring = hash_ring.HashRingManager()
        self.assertIn(ring.random_host(), ('a', 'b'))
        self.assertEqual('a', ring.random_host(HW, ''))
        self.assertEqual('b', ring.random_host('other-hw'))
