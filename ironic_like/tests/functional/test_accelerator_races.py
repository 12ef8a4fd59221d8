"""Accelerator writes racing on MariaDB and PostgreSQL (the unit tests
cover SQLite):

* 100 concurrent reservations for the 16 handles of one node: exactly 16
  win, no handle twice, and the node's free count is 0;
* the first inventories of 20 nodes recorded at once: none deadlocks
  (a locking read of a missing lock row takes a gap lock on InnoDB; two
  writers inserting theirs then deadlocked), every node is recorded;
* releases racing reservations on one node: the free count stays true.
"""

import datetime

from oslo_utils import timeutils

from ironic_like.common import exception
from ironic_like.tests.functional import base
from ironic_like.tests.unit import accelerator_samples as samples


class _AcceleratorRaces(object):

    SERVICES = ()

    def setUp(self):
        super().setUp()
        self.db, _engine = self.in_process_db(max_pool_size=40,
                                              max_overflow=40)
        self.prefix = self.id().rsplit('.', 2)[-2][-12:]

    def node(self, name):
        return self.db.create_node({'name': '%s-%s' % (self.prefix, name),
                                    'driver': 'fake-hardware'})

    def reserve(self, node, handle_ids, index):
        return self.db.reserve_accelerator_handle(
            node.id, {'instance_uuid': '00000000-0000-4000-8000-%012d'
                      % index, 'request_index': 0, 'conductor': 'race'},
            handle_ids, timeutils.utcnow() + datetime.timedelta(hours=1))

    def free(self, node):
        return {t['name']: t['free'] for t in
                self.db.get_node_accelerators(node.id)['traits']}

    def test_100_reservations_for_16_handles(self):
        node = self.node('gpu16')
        samples.apply(node, [samples.gpu(vfs=16)])
        handles = [c['handle_id']
                   for c in self.db.list_accelerator_candidates(node.id)]
        won, errors = samples.race(
            lambda i: self.reserve(node, handles, i), 100)
        lost = [e for e in errors
                if isinstance(e, exception.NoFreeAcceleratorHandle)]
        self.assertEqual([], [e for e in errors if e not in lost])
        self.assertEqual(16, len(won))
        self.assertEqual(84, len(lost))
        self.assertEqual(16, len({a['attach_handle_id'] for a in won}))
        self.assertEqual(0, self.free(node)['PGPU'])

    def test_first_inventories_at_once(self):
        nodes = [self.node('new-%d' % i) for i in range(20)]
        summaries, errors = samples.race(
            lambda i: samples.apply(nodes[i], [samples.fpga()]), 20)
        self.assertEqual([], errors)
        self.assertEqual(20, len(summaries))
        for node in nodes:
            self.assertEqual(2, self.free(node)['FPGA'], node.name)

    def test_releases_racing_reservations_keep_counts_true(self):
        node = self.node('mixed')
        samples.apply(node, [samples.gpu(vfs=8)])
        handles = [c['handle_id']
                   for c in self.db.list_accelerator_candidates(node.id)]
        held = [self.reserve(node, handles, i) for i in range(4)]

        def step(i):
            if i < 4:
                return self.db.release_accelerator_attachment(
                    held[i]['id'])
            return self.reserve(node, handles, 100 + i)

        _results, errors = samples.race(step, 8)
        self.assertEqual([], errors)
        in_use = [h for h in self.db.list_accelerator_attach_handles(
            {'node_id': node.id}) if h['in_use']]
        self.assertEqual(4, len(in_use))
        self.assertEqual(8 - len(in_use), self.free(node)['PGPU'])


class TestAcceleratorRacesMySQL(_AcceleratorRaces, base.FunctionalTestCase):
    BACKEND = base.MYSQL


class TestAcceleratorRacesPostgreSQL(_AcceleratorRaces,
                                     base.FunctionalTestCase):
    BACKEND = base.POSTGRESQL
