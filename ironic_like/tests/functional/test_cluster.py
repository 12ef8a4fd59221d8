"""The clustered mode end to end: an API with two workers and two
conductors over RabbitMQ, on MariaDB and on PostgreSQL.

Nodes are enrolled through the API; ownership is read from the database
and compared with the ring this test computes with tooz from the alive
conductors; the fake power interface records which conductor executed each
power action. Then one conductor is killed with SIGKILL and the survivor
must take everything over.
"""

import concurrent.futures
import threading
import time

from ironic_like.tests.functional import base

NODE_COUNT = 100
# How long a node-bound call may take while its owner is dead: every
# attempt may wait rpc_node_call_timeout, plus some slack for a loaded
# 2-core machine.
NODE_CALL_BOUND = (base.RPC_NODE_CALL_TIMEOUT * base.RPC_NODE_CALL_ATTEMPTS
                   + 4)
# A GET served from the database, while another request waits on RPC.
GET_BOUND = 2.5
# Death noticed (heartbeat timeout), ring rebuilt, take-over pass done.
TAKEOVER_BOUND = (base.HEARTBEAT_TIMEOUT + base.HASH_RING_RESET_INTERVAL
                  + base.TAKEOVER_CHECK_INTERVAL + 10)


def _parallel(func, items, workers=8):
    with concurrent.futures.ThreadPoolExecutor(workers) as pool:
        return list(pool.map(func, items))


class _ClusterTest(object):

    def setUp(self):
        super().setUp()
        self._phases = []
        self._phase_started = time.monotonic()
        self.addDetail('phases', base.content.Content(
            base.content.UTF8_TEXT, lambda: [
                ('\n'.join('%-40s %6.2f s' % p for p in self._phases))
                .encode('utf-8')]))
        self.database = self.class_database()
        self.cluster = self.start_cluster(database=self.database,
                                          conductors=2, api_workers=2)
        self.phase('cluster started')

    def phase(self, name):
        now = time.monotonic()
        self._phases.append((name, now - self._phase_started))
        self._phase_started = now

    # -- API helpers -----------------------------------------------------

    def _enrol(self, index):
        resp = self.cluster.request(
            'POST', '/v1/nodes',
            json={'driver': 'fake-hardware',
                  'name': 'ft-node-%03d' % index})
        self.assertEqual(201, resp.status_code, resp.text)
        return resp.json()['uuid']

    def _set_power(self, uuid, target, retry_locked=True):
        """PUT the power target; retries a 409 (node briefly locked by a
        power sync) a few times within a bound."""
        for _ in range(10):
            resp = self.cluster.request(
                'PUT', '/v1/nodes/%s/states/power' % uuid,
                json={'target': target})
            if resp.status_code != 409 or not retry_locked:
                break
            time.sleep(0.5)
        self.assertEqual(202, resp.status_code, resp.text)

    def _nodes_detail(self):
        resp = self.cluster.request('GET', '/v1/nodes/detail?limit=1000')
        self.assertEqual(200, resp.status_code, resp.text)
        return {n['uuid']: n for n in resp.json()['nodes']}

    def _wait_for_power(self, uuids, power_state, executed_by, timeout):
        """Every node in ``power_state``, settled, and the last power
        action executed by ``executed_by[uuid]``."""
        state = {}

        def done():
            nodes = self._nodes_detail()
            state['nodes'] = nodes
            return all(
                nodes[u]['power_state'] == power_state and
                nodes[u]['target_power_state'] is None and
                (nodes[u]['driver_internal_info'] or {}).get(
                    'fake_last_power_conductor') == executed_by[u]
                for u in uuids)

        def describe():
            nodes = state.get('nodes', {})
            wrong = [(u, nodes.get(u, {}).get('power_state'),
                      (nodes.get(u, {}).get('driver_internal_info') or {})
                      .get('fake_last_power_conductor'), executed_by[u])
                     for u in uuids
                     if u not in nodes or nodes[u]['power_state'] !=
                     power_state or (nodes[u]['driver_internal_info'] or {})
                     .get('fake_last_power_conductor') != executed_by[u]]
            return ('%d nodes not "%s" by their owner; e.g. (uuid, power, '
                    'executed by, expected): %s'
                    % (len(wrong), power_state, wrong[:5]))
        self.assertEventually(done, timeout, message=describe, interval=0.5)

    def _timed_get_loop(self, uuid, stop, latencies):
        # Bounded by count as well as by the stop event.
        for _ in range(500):
            if stop.is_set():
                return
            started = time.monotonic()
            try:
                resp = self.cluster.request('GET', '/v1/nodes/%s' % uuid,
                                            timeout=NODE_CALL_BOUND * 2)
                latencies.append((time.monotonic() - started,
                                  resp.status_code))
            except Exception as e:
                latencies.append((time.monotonic() - started, repr(e)))
            time.sleep(0.1)

    # -- the test --------------------------------------------------------

    def test_ring_ownership_power_and_failover(self):
        cluster, database = self.cluster, self.database
        hosts = sorted(cluster.conductors)

        started = time.monotonic()
        uuids = _parallel(self._enrol, range(NODE_COUNT))
        self.addDetail('enrol-seconds', base.content.text_content(
            '%.2f for %d nodes' % (time.monotonic() - started, NODE_COUNT)))
        self.assertEqual(NODE_COUNT, len(set(uuids)))
        listed = self.cluster.request('GET', '/v1/nodes?limit=1000').json()
        self.assertEqual(set(uuids), {n['uuid'] for n in listed['nodes']})
        self.phase('%d nodes enrolled' % NODE_COUNT)

        # 1. Ownership after the take-over pass is the ring's, and both
        # conductors own nodes.
        owners = self.wait_for_ring_ownership(database, uuids, hosts,
                                              timeout=30)
        per_host = {h: [u for u in uuids if owners[u] == h] for h in hosts}
        for host in hosts:
            self.assertTrue(per_host[host], '%s owns no node' % host)
        self.phase('ownership settled')

        # 2. Each power action is executed by the node's owner.
        _parallel(lambda u: self._set_power(u, 'power on'), uuids)
        self._wait_for_power(uuids, 'power on', owners, timeout=30)
        self.phase('powered on by owners')

        # 3. SIGKILL one conductor, some of its nodes locked by it.
        victim, survivor = hosts
        victim_nodes = per_host[victim]
        locked = victim_nodes[:5]
        probe = victim_nodes[-1]  # not locked: the call can succeed
        self.assertNotIn(probe, locked)
        for uuid in locked:
            self.assertEqual(1, database.execute(
                'UPDATE nodes SET reservation = :host WHERE uuid = :uuid '
                'AND reservation IS NULL', host=victim, uuid=uuid))
        cluster.conductors[victim].kill9()
        killed_at = time.monotonic()

        # 4. A node-bound call for a node of the dead conductor answers
        # within the bound (202, or a clear JSON error), never hangs, and
        # GETs keep answering at once meanwhile.
        stop, latencies = threading.Event(), []
        getter = threading.Thread(target=self._timed_get_loop,
                                  args=(per_host[survivor][0], stop,
                                        latencies))
        getter.start()
        try:
            call_started = time.monotonic()
            resp = cluster.request('PUT', '/v1/nodes/%s/states/power'
                                   % probe, json={'target': 'power off'},
                                   timeout=NODE_CALL_BOUND * 3)
            call_seconds = time.monotonic() - call_started
        finally:
            stop.set()
            getter.join(timeout=NODE_CALL_BOUND * 3)
        self.addDetail('call-to-dead-owner', base.content.text_content(
            'HTTP %s in %.2f s (bound %.1f s): %s'
            % (resp.status_code, call_seconds, NODE_CALL_BOUND,
               resp.text[:500])))
        self.addDetail('get-latencies-meanwhile', base.content.text_content(
            repr([(round(s, 3), c) for s, c in latencies])))
        self.phase('killed, called the dead owner')
        self.assertLess(call_seconds, NODE_CALL_BOUND)
        self.assertIn(resp.status_code, (202, 409, 503), resp.text)
        if resp.status_code != 202:
            self.assertIsInstance(resp.json(), dict)
        self.assertTrue(latencies, 'no GET completed during the call')
        for seconds, status in latencies:
            self.assertEqual(200, status)
            self.assertLess(seconds, GET_BOUND)

        # 5. The survivor takes every node over and clears the dead
        # conductor's locks within the heartbeat timeout and a ring
        # refresh.
        self.wait_for_ring_ownership(database, uuids, [survivor],
                                     timeout=TAKEOVER_BOUND)
        self.addDetail('takeover-seconds', base.content.text_content(
            '%.2f (bound %d)' % (time.monotonic() - killed_at,
                                 TAKEOVER_BOUND)))
        self.assertEqual([], database.query(
            'SELECT uuid FROM nodes WHERE reservation = :h', h=victim))
        self.assertEqual([survivor], database.alive_conductors())
        self.phase('survivor took over')

        # 6. Power actions on every node now run on the survivor.
        _parallel(lambda u: self._set_power(u, 'power off'), uuids)
        self._wait_for_power(uuids, 'power off',
                             dict.fromkeys(uuids, survivor), timeout=30)
        self.phase('powered off by the survivor')
        cluster.conductors[survivor].check_running()
        cluster.api.check_running()


class TestClusterMySQL(_ClusterTest, base.FunctionalTestCase):
    BACKEND = base.MYSQL
    SERVICES = (base.RABBITMQ, base.MYSQL)


class TestClusterPostgreSQL(_ClusterTest, base.FunctionalTestCase):
    BACKEND = base.POSTGRESQL
    SERVICES = (base.RABBITMQ, base.POSTGRESQL)
