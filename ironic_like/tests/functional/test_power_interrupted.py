"""kill -9 of a conductor in the middle of power changes (MariaDB,
RabbitMQ, real processes).

The conductors' fake power actions take POWER_DELAY seconds (the harness's
delayed conductor), so the victim dies holding the locks of nodes whose
target_power_state is set. The survivor takes the nodes over; afterwards
no node is left locked or with a pending power change, and each can be
powered again, by the survivor.
"""

import time

from testtools import content

from ironic_like.tests.functional import base

NODE_COUNT = 8
POWER_DELAY = 8
CHECK_INTERVAL = 2
# Death noticed, ring rebuilt, take-over and a watchdog round done, plus
# slack for a loaded 2-core machine.
SETTLE_BOUND = (base.HEARTBEAT_TIMEOUT + base.HASH_RING_RESET_INTERVAL +
                base.TAKEOVER_CHECK_INTERVAL + CHECK_INTERVAL + 30)
# A power change of the survivor, slowed down like the victim's.
POWER_BOUND = POWER_DELAY + 30


class TestKillDuringPowerChange(base.FunctionalTestCase):

    BACKEND = base.MYSQL

    def _nodes(self, cluster):
        resp = cluster.request('GET', '/v1/nodes/detail?limit=1000')
        self.assertEqual(200, resp.status_code, resp.text)
        return {n['uuid']: n for n in resp.json()['nodes']}

    def _power(self, cluster, uuid, target):
        resp = cluster.request('PUT', '/v1/nodes/%s/states/power' % uuid,
                               json={'target': target})
        return resp.status_code, resp.text

    def test_kill9_mid_power_change_leaves_nodes_usable(self):
        cluster = self.start_cluster(
            conductors=2, api_workers=1, power_delay=POWER_DELAY,
            conf={'conductor': {
                'check_orphaned_work_interval': CHECK_INTERVAL,
                # No power sync competes for the locks meanwhile.
                'sync_power_state_interval': 600}})
        uuids = []
        for index in range(NODE_COUNT):
            resp = cluster.request('POST', '/v1/nodes', json={
                'driver': 'fake-hardware', 'name': 'pw-%02d' % index})
            self.assertEqual(201, resp.status_code, resp.text)
            uuids.append(resp.json()['uuid'])

        def all_unlocked():
            return all(n['reservation'] is None
                       for n in self._nodes(cluster).values())
        self.assertEventually(all_unlocked, base.START_TIMEOUT,
                              message='enrolled nodes stay locked')
        for uuid in uuids:
            code, text = self._power(cluster, uuid, 'power on')
            self.assertEqual(202, code, text)

        nodes = self._nodes(cluster)
        holders = {n['reservation'] for n in nodes.values()} - {None}
        self.assertTrue(holders, 'no power change in progress: %s' % nodes)
        victim = sorted(holders)[0]
        survivor, = set(cluster.conductors) - {victim}
        interrupted = [u for u, n in nodes.items()
                       if n['reservation'] == victim]
        for uuid in interrupted:
            self.assertEqual('power on', nodes[uuid]['target_power_state'])
        cluster.conductors[victim].kill9()
        killed_at = time.monotonic()

        state = {}

        def settled():
            state['nodes'] = nodes = self._nodes(cluster)
            return all(n['reservation'] is None and
                       n['target_power_state'] is None and
                       n['conductor'] == survivor
                       for n in nodes.values())
        self.assertEventually(
            settled, SETTLE_BOUND, interval=0.5,
            message=lambda: 'nodes not settled %.0f s after the kill: %s'
            % (time.monotonic() - killed_at,
               [(u, n['reservation'], n['target_power_state'],
                 n['conductor']) for u, n in state['nodes'].items()]))
        self.addDetail('settled-after-kill', content.text_content(
            '%.1f s' % (time.monotonic() - killed_at)))
        nodes = state['nodes']
        for uuid in interrupted:
            # Told what happened, or already carried on by the survivor.
            error = nodes[uuid]['last_error'] or ''
            self.assertTrue(
                'interrupted' in error or
                nodes[uuid]['power_state'] == 'power on',
                '%s: %s' % (uuid, nodes[uuid]))

        # Usable again: the survivor powers every interrupted node off.
        for uuid in interrupted:
            code, text = self._power(cluster, uuid, 'power off')
            self.assertEqual(202, code, text)

        def powered_off():
            state['nodes'] = nodes = self._nodes(cluster)
            return all(
                nodes[u]['power_state'] == 'power off' and
                nodes[u]['target_power_state'] is None and
                nodes[u]['reservation'] is None and
                (nodes[u]['driver_internal_info'] or {}).get(
                    'fake_last_power_conductor') == survivor
                for u in interrupted)
        self.assertEventually(
            powered_off, POWER_BOUND, interval=0.5,
            message=lambda: 'interrupted nodes not powered off by %s: %s'
            % (survivor, {u: state['nodes'][u] for u in interrupted}))
        cluster.conductors[survivor].check_running()
