"""Allocations (seed 004) on the clustered service: one API, two
conductors, RabbitMQ and MariaDB, as real processes."""

import concurrent.futures
import time

import openstack
from testtools import content

from ironic_like.tests.functional import base

VERSION = {'X-OpenStack-Ironic-API-Version': '1.60'}
RESOURCE_CLASS = 'ft-class'


def make_free_nodes(database, count):
    """``count`` nodes an allocation may take (available, powered)."""
    uuids = database.insert_nodes(count, prefix='alloc')
    database.execute("UPDATE nodes SET provision_state = 'available', "
                     "resource_class = :rc", rc=RESOURCE_CLASS)
    return uuids


def allocation_rows(database):
    """{allocation uuid: (state, node uuid, conductor_affinity)}."""
    return {row[0]: (row[1], row[2], row[3]) for row in database.query(
        'SELECT a.uuid, a.state, n.uuid, a.conductor_affinity '
        'FROM allocations a LEFT JOIN nodes n ON n.id = a.node_id')}


class TestAllocations(base.FunctionalTestCase):

    TIMEOUT = 600

    def _post_all(self, cluster, count, clients):
        def post(index):
            resp = cluster.request('POST', '/v1/allocations',
                                   json={'resource_class': RESOURCE_CLASS,
                                         'name': 'ft-%04d' % index},
                                   headers=VERSION)
            return resp.status_code, resp.json()

        with concurrent.futures.ThreadPoolExecutor(clients) as pool:
            return list(pool.map(post, range(count)))

    def _wait_settled(self, database, timeout):
        def settled():
            return all(state != 'allocating' for state, _n, _c in
                       allocation_rows(database).values())
        self.assertEventually(
            settled, timeout,
            message=lambda: 'still allocating: %s' % sorted(
                u for u, (s, _n, _c) in allocation_rows(database).items()
                if s == 'allocating')[:10])

    def _check_no_double_booking(self, database):
        rows = allocation_rows(database)
        nodes = [n for _s, n, _c in rows.values() if n is not None]
        self.assertEqual(len(nodes), len(set(nodes)),
                         'a node is in two allocations')
        mismatched = database.query(
            'SELECT n.uuid FROM nodes n JOIN allocations a '
            'ON a.node_id = n.id WHERE n.instance_uuid IS NULL '
            'OR n.instance_uuid <> a.uuid OR n.allocation_id <> a.id')
        self.assertEqual([], mismatched)
        return rows

    def test_concurrent_allocations_all_succeed(self):
        # The harness's 3 s RPC timeout suits dead-conductor tests; under
        # this burst on a small machine a live conductor may need longer.
        cluster = self.start_cluster(conductors=2, api_workers=2, conf={
            'DEFAULT': {'rpc_node_call_timeout': 20}})
        database = cluster.database
        make_free_nodes(database, 300)

        results = self._post_all(cluster, 300, clients=32)
        codes = [code for code, _body in results]
        self.assertEqual([201] * 300, codes,
                         [body for code, body in results if code != 201][:3])
        self._wait_settled(database, timeout=180)
        rows = self._check_no_double_booking(database)
        states = [s for s, _n, _c in rows.values()]
        self.assertEqual(['active'] * 300, states,
                         database.query('SELECT last_error FROM allocations '
                                        "WHERE state = 'error'")[:3])
        # Both conductors did some of the work.
        self.assertEqual(2, len({c for _s, _n, c in rows.values()}))

        # Delete them all: every node is free again.
        def delete(uuid):
            return cluster.request('DELETE', '/v1/allocations/%s' % uuid,
                                   headers=VERSION).status_code
        with concurrent.futures.ThreadPoolExecutor(32) as pool:
            codes = list(pool.map(delete, list(rows)))
        self.assertEqual([204] * 300, codes)
        self.assertEqual([], database.query('SELECT uuid FROM allocations'))
        self.assertEqual([], database.query(
            'SELECT uuid FROM nodes WHERE instance_uuid IS NOT NULL '
            'OR allocation_id IS NOT NULL'))

    def test_kill_conductor_while_allocating(self):
        # Slow allocations (a harness launcher, see delayed_conductor) so
        # that some are still allocating when their conductor is killed.
        check_interval = 2
        cluster = self.start_cluster(
            conductors=2, api_workers=1, allocation_delay=4,
            conf={'conductor': {'check_allocations_interval':
                                check_interval}})
        database = cluster.database
        make_free_nodes(database, 40)

        results = self._post_all(cluster, 30, clients=8)
        self.assertEqual([201] * 30, [code for code, _b in results])
        rows = allocation_rows(database)
        victim = sorted(cluster.conductors)[0]
        victims = [u for u, (s, _n, c) in rows.items()
                   if c == victim and s == 'allocating']
        self.assertTrue(victims, 'no allocation of %s in progress: %s'
                        % (victim, rows))
        cluster.conductors[victim].kill9()
        killed_at = time.monotonic()

        # Everything ends within heartbeat_timeout + the check interval
        # (+ the test delay of the resumed flow and some slack).
        self._wait_settled(
            database, timeout=base.HEARTBEAT_TIMEOUT + check_interval + 4
            + 20)
        took = time.monotonic() - killed_at
        rows = self._check_no_double_booking(database)
        survivor = [h for h in cluster.conductors if h != victim][0]
        for uuid in victims:
            state, node, conductor = rows[uuid]
            self.assertEqual('active', state, uuid)
            self.assertEqual(survivor, conductor)
        self.addDetail('takeover-seconds',
                       content.text_content('%.1f' % took))

    def test_openstacksdk_allocation(self):
        cluster = self.start_cluster(conductors=2, api_workers=1)
        make_free_nodes(cluster.database, 2)
        conn = openstack.connect(
            auth_type='none', baremetal_endpoint_override=cluster.url + '/',
            load_yaml_config=False, load_envvars=False)
        self.addCleanup(conn.close)
        bm = conn.baremetal
        allocation = bm.create_allocation(resource_class=RESOURCE_CLASS,
                                          name='sdk-allocation')
        allocation = bm.wait_for_allocation(allocation, timeout=60)
        self.assertEqual('active', allocation.state)
        node = bm.get_node(allocation.node_id)
        self.assertEqual(allocation.id, node.instance_id)
        self.assertEqual(allocation.id, node.allocation_id)
        bm.delete_allocation(allocation, ignore_missing=False)
        self.assertIsNone(bm.get_node(allocation.node_id).instance_id)
        self.assertEqual([], list(bm.allocations()))
