"""SQLite writers of one process queue on a lock of the process rather
than in SQLite's sleeping busy handler, and a file is switched to WAL
once per process."""

import os
import sqlite3
import threading

from ironic_like.db.sqlalchemy import api as sa_api
from ironic_like.db.sqlalchemy import connection_setup
from ironic_like.tests import base
from ironic_like.tests.unit.db import utils


class TestSQLiteWriters(base.TestCase):

    def test_writers_take_turns(self):
        node = utils.create_test_node()
        order = []
        inside = threading.Event()
        release = threading.Event()

        def first():
            with sa_api._writer():
                order.append('first in')
                inside.set()
                release.wait(10)
                order.append('first out')

        def second():
            inside.wait(10)
            self.db.update_node(node.id, {'extra': {'second': True}})
            order.append('second done')

        threads = [threading.Thread(target=first),
                   threading.Thread(target=second)]
        for thread in threads:
            thread.start()
        self.assertTrue(inside.wait(10))
        # The second writer waits for the first, however long it takes.
        self.assertFalse(sa_api._SQLITE_WRITE_LOCK.acquire(timeout=0.2))
        release.set()
        for thread in threads:
            thread.join(10)
        self.assertEqual(['first in', 'first out', 'second done'], order)
        self.assertEqual({'second': True},
                         self.db.get_node_by_id(node.id).extra)

    def test_nested_writers_do_not_wait_for_themselves(self):
        node = utils.create_test_node()
        with sa_api._writer():
            # A db call inside a writer transaction of the same thread.
            self.db.update_node(node.id, {'extra': {'nested': 1}})
        self.assertEqual({'nested': 1},
                         self.db.get_node_by_id(node.id).extra)
        self.assertTrue(sa_api._SQLITE_WRITE_LOCK.acquire(blocking=False))
        sa_api._SQLITE_WRITE_LOCK.release()

    def test_wal_once_per_file(self):
        path = os.path.join(self.useFixture(
            base.fixtures.TempDir()).path, 'x.sqlite')
        connection = sqlite3.connect(path)
        self.addCleanup(connection.close)
        connection_setup._sqlite_pragmas(connection, None)
        self.assertIn(path, connection_setup._WAL_FILES)
        self.assertEqual('wal', connection.execute(
            'PRAGMA journal_mode').fetchone()[0])
        other = sqlite3.connect(path)
        self.addCleanup(other.close)
        statements = []
        other.set_trace_callback(statements.append)
        connection_setup._sqlite_pragmas(other, None)
        self.assertFalse([s for s in statements if 'journal_mode' in s],
                         statements)


class TestReadTogether(base.TestCase):

    def test_reads_inside_share_one_transaction(self):
        from sqlalchemy import event
        node = utils.create_test_node()
        engine = sa_api.main_context_manager.reader.get_engine()
        begins = []

        def count(conn):
            begins.append(conn)
        event.listen(engine, 'begin', count)
        self.addCleanup(event.remove, engine, 'begin', count)
        with self.db.read_together():
            self.db.get_node_by_id(node.id)
            self.db.allocation_candidates('baremetal', limit=4)
            self.db.get_allocation_list()
        self.assertEqual(1, len(begins))
        del begins[:]
        self.db.get_node_by_id(node.id)
        self.db.get_allocation_list()
        self.assertEqual(2, len(begins))
