"""The clustered service under load while RabbitMQ or MariaDB restarts.

Two conductors and an API (real processes) take a burst of ALLOCATIONS
allocation requests and DEPLOYS deploys (fake deploy interface) while the
broker or the database is stopped for OUTAGE seconds and started again.
Afterwards:

- every request was answered within a bound (never hung), with a success
  or a 503 (409 for a node briefly locked) and nothing else;
- every allocation that exists is active or in error with a reason, and no
  node is in two allocations;
- every deploy that was accepted reaches active;
- no node is left locked, in a transient state or with a pending power
  change.
"""

import concurrent.futures
import threading
import time
import uuid as uuidlib

from testtools import content

from ironic_like.tests.functional import base
from ironic_like.tests.functional import outages

ALLOCATIONS = 200
DEPLOYS = 20
OUTAGE = 10
ALLOCATION_CLASS = 'fault-alloc'
DEPLOY_CLASS = 'fault-deploy'
# The longest any request may take: the harness's RPC attempts, a database
# reconnection, slack for a loaded 2-core machine; a request still open
# after this counts as hung.
REQUEST_BOUND = 60
# Everything settled once the service is back.
SETTLE_BOUND = 240
VERSION = {'X-OpenStack-Ironic-API-Version': '1.60'}
ANSWERS_ALLOWED = {200, 201, 202, 204, 409, 503}
TRANSIENT = ('deploying', 'cleaning', 'verifying', 'deleting', 'wait '
             'call-back', 'clean wait', 'inspecting', 'adopting',
             'rescuing', 'unrescuing')


class _LoadDuringOutage(object):

    SERVICE = None

    def setUp(self):
        super().setUp()
        base.require_services(self, base.RABBITMQ, base.MYSQL)
        try:
            outages.check_available(self.SERVICE)
        except outages.OutageUnavailable as e:
            if base.CI:
                self.fail('CI=true and this machine cannot restart %s: %s'
                          % (self.SERVICE, e))
            self.skipTest(str(e))
        self.answers = []
        self._lock = threading.Lock()

    def _request(self, cluster, method, path, **kwargs):
        started = time.monotonic()
        try:
            resp = cluster.request(method, path, headers=VERSION,
                                   timeout=REQUEST_BOUND, **kwargs)
            code, body = resp.status_code, resp.text
        except Exception as e:
            code, body = 'error', repr(e)
        with self._lock:
            self.answers.append((method, path, code,
                                 time.monotonic() - started, body[:300]))
        return code, body

    def _make_nodes(self, database):
        alloc = database.insert_nodes(ALLOCATIONS + 20, prefix='fa')
        deploy = database.insert_nodes(DEPLOYS, prefix='fd')
        database.execute(
            "UPDATE nodes SET provision_state = 'available', "
            "resource_class = :rc WHERE uuid IN :uuids",
            rc=ALLOCATION_CLASS, uuids=tuple(alloc))
        database.execute(
            "UPDATE nodes SET provision_state = 'available', "
            "resource_class = :rc WHERE uuid IN :uuids",
            rc=DEPLOY_CLASS, uuids=tuple(deploy))
        return deploy

    def _allocate(self, cluster, index):
        allocation = str(uuidlib.uuid4())
        code, _body = self._request(cluster, 'POST', '/v1/allocations', json={
            'uuid': allocation, 'resource_class': ALLOCATION_CLASS,
            'name': 'fault-%04d' % index})
        return allocation, code

    def _deploy(self, cluster, uuid):
        # A 409 (the node briefly locked by take-over or a power sync)
        # and a 503 are retried, within a bound.
        for _ in range(20):
            code, body = self._request(
                cluster, 'PUT', '/v1/nodes/%s/states/provision' % uuid,
                json={'target': 'active'})
            if code == 202:
                return code
            time.sleep(1)
        return code

    def _run_load(self, cluster, deploy_nodes):
        with concurrent.futures.ThreadPoolExecutor(16) as pool:
            allocations = [pool.submit(self._allocate, cluster, i)
                           for i in range(ALLOCATIONS)]
            deploys = [pool.submit(self._deploy, cluster, u)
                       for u in deploy_nodes]
            with outages.outage(self.SERVICE, OUTAGE):
                # The load goes on during the outage.
                time.sleep(1)
            return ([f.result() for f in allocations],
                    [f.result() for f in deploys])

    def _settled(self, database):
        busy = database.query(
            'SELECT uuid, provision_state, reservation, target_power_state '
            'FROM nodes WHERE reservation IS NOT NULL '
            'OR target_power_state IS NOT NULL '
            'OR provision_state IN :transient', transient=TRANSIENT)
        allocating = database.query(
            "SELECT uuid FROM allocations WHERE state = 'allocating'")
        return (busy, allocating)

    def test_load_survives_restart(self):
        cluster = self.start_cluster(conductors=2, api_workers=2)
        database = cluster.database
        deploy_nodes = self._make_nodes(database)
        # The conductors take the inserted nodes over before the load.
        self.assertEventually(
            lambda: not database.query(
                'SELECT uuid FROM nodes WHERE conductor_affinity IS NULL '
                'OR reservation IS NOT NULL'),
            base.START_TIMEOUT, message='nodes not taken over')

        started = time.monotonic()
        allocation_codes, deploy_codes = self._run_load(cluster,
                                                        deploy_nodes)
        self.addDetail('answers', content.text_content('\n'.join(
            '%s %s %s %.1f s %s' % a for a in self.answers
            if a[2] not in (201, 202))))

        # Never hung, nothing but success or "try again".
        slowest = max(a[3] for a in self.answers)
        self.addDetail('slowest-answer', content.text_content(
            '%.1f s' % slowest))
        unexpected = [a for a in self.answers
                      if a[2] not in ANSWERS_ALLOWED]
        self.assertEqual([], unexpected[:5])

        # Settled once the service is back.
        state = {}

        def settled():
            state['busy'], state['allocating'] = self._settled(database)
            return not state['busy'] and not state['allocating']
        self.assertEventually(
            settled, SETTLE_BOUND, interval=1,
            message=lambda: 'not settled: nodes %s, allocations %s'
            % (state['busy'][:5], state['allocating'][:5]))
        self.addDetail('settled-after', content.text_content(
            '%.1f s' % (time.monotonic() - started)))

        rows = database.query(
            'SELECT a.uuid, a.state, a.last_error, n.uuid, n.instance_uuid '
            'FROM allocations a LEFT JOIN nodes n ON n.id = a.node_id')
        for uuid, state_, error, node, instance in rows:
            if state_ == 'active':
                self.assertEqual(uuid, instance, uuid)
            else:
                self.assertEqual('error', state_, uuid)
                self.assertTrue(error, 'allocation %s failed without a '
                                'reason' % uuid)
        nodes = [r[3] for r in rows if r[3] is not None]
        self.assertEqual(len(nodes), len(set(nodes)),
                         'a node is in two allocations')
        # The client was told the truth: what answered 201 exists, what
        # answered otherwise does not.
        existing = {r[0] for r in rows}
        created = {u for u, code in allocation_codes if code == 201}
        self.assertEqual(set(), created - existing)
        self.assertEqual(set(), existing - created)
        self.addDetail('allocations', content.text_content(
            '%d answered 201, %d exist, %d active' % (
                len(created), len(rows),
                sum(1 for r in rows if r[1] == 'active'))))

        accepted = [u for u, code in zip(deploy_nodes, deploy_codes)
                    if code == 202]
        self.assertEqual(DEPLOYS, len(accepted), deploy_codes)
        states = dict(database.query(
            'SELECT uuid, provision_state FROM nodes WHERE uuid IN :uuids',
            uuids=tuple(accepted)))
        self.assertEqual({u: 'active' for u in accepted}, states)
        for proc in cluster.processes:
            proc.check_running()


class TestRabbitMQRestart(_LoadDuringOutage, base.FunctionalTestCase):
    BACKEND = base.MYSQL
    SERVICE = outages.RABBITMQ


class TestMariaDBRestart(_LoadDuringOutage, base.FunctionalTestCase):
    BACKEND = base.MYSQL
    SERVICE = outages.MARIADB
