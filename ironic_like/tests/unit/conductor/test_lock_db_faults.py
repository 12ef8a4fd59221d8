"""Node locks when the database fails: short transactions are retried on
deadlock and lost connections, a reservation whose read fails takes no
lock, and a release that fails is done again later, so no lock is held
until the conductor restarts."""

from unittest import mock

import fixtures
from oslo_db import exception as db_exc
from sqlalchemy import event

from ironic_like.common import context as ctx
from ironic_like.conductor import locks
from ironic_like.db.sqlalchemy import api as sa_api
from ironic_like.tests import base
from ironic_like.tests.unit.db import utils


class _FailingStatements(object):
    """Make the next ``count`` statements matching ``predicate`` fail as a
    dropped connection would."""

    def __init__(self, engine, predicate, count=1,
                 error=db_exc.DBConnectionError):
        self.engine, self.predicate = engine, predicate
        self.left, self.error = count, error
        self.failed = 0

    def __call__(self, conn, cursor, statement, *args):
        if self.left and self.predicate(statement):
            self.left -= 1
            self.failed += 1
            raise self.error('injected: %s' % statement.split()[0])

    def __enter__(self):
        event.listen(self.engine, 'before_cursor_execute', self)
        return self

    def __exit__(self, *exc):
        event.remove(self.engine, 'before_cursor_execute', self)


def _is_release(statement):
    return (statement.startswith('UPDATE nodes') and
            'reservation IS NULL' not in statement and
            'reservation=' in statement.replace(' ', ''))


class TestLockDatabaseFaults(base.TestCase):

    def setUp(self):
        super().setUp()
        self.context = ctx.get_admin_context()
        self.node = utils.create_test_node()
        self.engine = sa_api.get_engine()
        # No real waiting between the retries.
        self.useFixture(fixtures.MockPatch(
            'oslo_db.api.time.sleep'))
        self.addCleanup(locks._UNRELEASED.clear)

    def _reservation(self):
        return self.db.get_node_by_id(self.node.id).reservation

    def test_reserve_retried_after_lost_connection(self):
        with _FailingStatements(
                self.engine, lambda s: s.startswith('UPDATE nodes'),
                count=2) as faults:
            with locks.acquire(self.context, self.node.id, attempts=1):
                self.assertEqual('test-conductor', self._reservation())
        self.assertEqual(2, faults.failed)
        self.assertIsNone(self._reservation())

    def test_failed_read_after_reservation_takes_no_lock(self):
        # Not a retriable error: the whole reservation fails, and since
        # the read is in the reservation's transaction, no lock is left.
        with _FailingStatements(
                self.engine, lambda s: s.startswith('SELECT') and
                'FROM nodes' in s, error=db_exc.DBError):
            self.assertRaises(db_exc.DBError, self.db.reserve_node,
                              'test-conductor', self.node.id)
        self.assertIsNone(self._reservation())

    def test_release_retried_after_lost_connection(self):
        with locks.acquire(self.context, self.node.id):
            faults = _FailingStatements(self.engine, _is_release, count=2)
            event.listen(self.engine, 'before_cursor_execute', faults)
        event.remove(self.engine, 'before_cursor_execute', faults)
        self.assertEqual(2, faults.failed)
        self.assertIsNone(self._reservation())
        self.assertEqual(set(), locks._UNRELEASED)

    def test_release_that_keeps_failing_is_done_later(self):
        with mock.patch.object(self.db, 'release_node',
                               side_effect=db_exc.DBConnectionError('down')):
            with locks.acquire(self.context, self.node.id):
                pass
        # Still held, but known: the next heartbeat gives it back.
        self.assertEqual('test-conductor', self._reservation())
        self.assertEqual({self.node.id}, locks._UNRELEASED)
        locks.retry_failed_releases()
        self.assertIsNone(self._reservation())
        self.assertEqual(set(), locks._UNRELEASED)

    def test_stale_own_lock_released_before_a_new_reservation(self):
        with mock.patch.object(self.db, 'release_node',
                               side_effect=db_exc.DBConnectionError('down')):
            with locks.acquire(self.context, self.node.id):
                pass
        # Taken again at once, without waiting for the heartbeat.
        with locks.acquire(self.context, self.node.id, attempts=1):
            self.assertEqual('test-conductor', self._reservation())
        self.assertIsNone(self._reservation())
        self.assertEqual(set(), locks._UNRELEASED)
