"""Deleting an allocation while its flow reserves a node, on MariaDB and
PostgreSQL: the node never ends up pointing at a deleted allocation.

The reservation is held open right after it wrote both rows (node and
allocation) and before it commits; the deletion runs meanwhile and then
the reservation commits. Whatever the database's isolation, either the
allocation survives with its node, or both are gone from the node.
"""

import threading

from sqlalchemy import event

from ironic_like.common import exception
from ironic_like.common import states
from ironic_like.tests.functional import base

ROUNDS = 4
CONDUCTOR = 'race-conductor'
# How long the reservation stays open once the deletion has started: long
# enough for the deletion to reach the rows the reservation holds.
HOLD_SECONDS = 1.0


class _DeleteWhileReserving(object):

    SERVICES = ()

    def setUp(self):
        super().setUp()
        self.db, self.engine = self.in_process_db()

    def _round(self, index):
        node = self.db.create_node({
            'name': 'race-%d' % index,
            'driver': 'fake-hardware', 'resource_class': 'race',
            'provision_state': states.AVAILABLE,
            'power_state': states.POWER_OFF})
        allocation = self.db.create_allocation({
            'resource_class': 'race', 'conductor_affinity': CONDUCTOR})
        reserving = None
        wrote_both = threading.Event()
        go_on = threading.Event()

        def hold_open(conn, cursor, statement, *args):
            if (threading.current_thread() is reserving and
                    statement.startswith('UPDATE allocations')):
                wrote_both.set()
                go_on.wait(30)

        results = {}

        def reserve():
            try:
                results['reserve'] = self.db.reserve_node_for_allocation(
                    allocation.id, node.id, CONDUCTOR)
            except Exception as e:
                results['reserve'] = e

        def delete():
            try:
                self.db.destroy_allocation(allocation.id)
                results['delete'] = 'deleted'
            except Exception as e:
                results['delete'] = e

        event.listen(self.engine, 'after_cursor_execute', hold_open)
        try:
            reserving = threading.Thread(target=reserve)
            reserving.start()
            self.assertTrue(wrote_both.wait(30), 'reservation never ran')
            deleting = threading.Thread(target=delete)
            deleting.start()
            deleting.join(HOLD_SECONDS)
            go_on.set()
            reserving.join(30)
            deleting.join(30)
        finally:
            go_on.set()
            event.remove(self.engine, 'after_cursor_execute', hold_open)
        self.assertFalse(reserving.is_alive() or deleting.is_alive())
        return node, allocation, results

    def test_node_never_points_at_a_deleted_allocation(self):
        for index in range(ROUNDS):
            node, allocation, results = self._round(index)
            node = self.db.get_node_by_id(node.id)
            try:
                kept = self.db.get_allocation_by_id(allocation.id)
            except exception.AllocationNotFound:
                kept = None
            detail = 'round %d: %s' % (index, results)
            if kept is None:
                self.assertEqual('deleted', results['delete'], detail)
                self.assertIsNone(node.allocation_id, detail)
                self.assertIsNone(node.instance_uuid, detail)
            else:
                # The deletion lost (e.g. a deadlock): the reservation
                # stands whole.
                self.assertEqual(node.id, kept.node_id, detail)
                self.assertEqual(allocation.id, node.allocation_id, detail)


class TestDeleteWhileReservingMySQL(_DeleteWhileReserving,
                                    base.FunctionalTestCase):
    BACKEND = base.MYSQL


class TestDeleteWhileReservingPostgreSQL(_DeleteWhileReserving,
                                         base.FunctionalTestCase):
    BACKEND = base.POSTGRESQL
