"""Conductor processes: registration, ring ownership, clean shutdown.

These tests need no API: nodes are written straight into the database and
ownership is read back from it.
"""

import signal
import time

from ironic_like.tests.functional import base


class TestConductorOwnership(base.FunctionalTestCase):

    def test_nodes_split_by_ring_and_sigterm_hands_over(self):
        database = self.class_database()
        uuids = database.insert_nodes(40)
        cluster = self.start_cluster(database=database, conductors=2,
                                     api=False)
        hosts = sorted(cluster.conductors)
        self.assertEqual(hosts, database.alive_conductors())

        # The take-over pass gives every node to its owner on the ring.
        owners = self.wait_for_ring_ownership(
            database, uuids, hosts,
            timeout=base.TAKEOVER_CHECK_INTERVAL * 10 + 10)
        for host in hosts:
            self.assertIn(host, owners.values(),
                          '%s owns no node of 40' % host)

        # SIGTERM: a clean stop unregisters (online = false) at once ...
        leaving, staying = hosts
        proc = cluster.conductors[leaving]
        started = time.monotonic()
        proc.send(signal.SIGTERM)
        code = proc.wait(base.STOP_TIMEOUT)
        self.assertEqual(0, code, 'conductor did not exit cleanly within '
                         '%s s on SIGTERM' % base.STOP_TIMEOUT)
        self.assertFalse(database.conductor_online(leaving))
        self.assertEqual([staying], database.alive_conductors())

        # ... so the survivor takes every node without waiting for the
        # heartbeat timeout.
        self.wait_for_ring_ownership(
            database, uuids, [staying],
            timeout=base.TAKEOVER_CHECK_INTERVAL * 5 + 5)
        self.addDetail('handover-seconds', base.content.text_content(
            '%.2f' % (time.monotonic() - started)))
        cluster.conductors[staying].check_running()
