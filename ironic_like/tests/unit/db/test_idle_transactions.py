"""Every MariaDB/PostgreSQL connection bounds its idle time inside a
transaction ([database]idle_transaction_timeout)."""

import fixtures

from ironic_like.db.sqlalchemy import connection_setup
from ironic_like.tests import base


class _Cursor(object):

    def __init__(self, connection):
        self.connection = connection

    def execute(self, statement):
        if self.connection.fail:
            raise RuntimeError('Unknown system variable')
        self.connection.executed.append(statement)

    def close(self):
        pass


class _Connection(object):
    """A DBAPI connection as the listener sees it: only its class's module
    tells the driver."""

    def __init__(self, fail=False):
        self.fail = fail
        self.executed = []
        self.ended = []

    def cursor(self):
        return _Cursor(self)

    def commit(self):
        self.ended.append('commit')

    def rollback(self):
        self.ended.append('rollback')


def _connection_of(driver_module, **kwargs):
    cls = type('Connection', (_Connection,), {'__module__': driver_module})
    return cls(**kwargs)


class TestIdleTransactionBound(base.TestCase):

    def setUp(self):
        super().setUp()
        self.useFixture(fixtures.MockPatchObject(
            connection_setup, '_IDLE_LIMIT_UNSUPPORTED', []))

    def test_mariadb(self):
        conn = _connection_of('pymysql.connections')
        connection_setup._bound_idle_transactions(conn, None)
        self.assertEqual(['SET SESSION idle_transaction_timeout = 20'],
                         conn.executed)
        self.assertEqual(['commit'], conn.ended)

    def test_postgresql_in_milliseconds(self):
        self.config(idle_transaction_timeout=7, group='database')
        conn = _connection_of('psycopg2.extensions')
        connection_setup._bound_idle_transactions(conn, None)
        self.assertEqual(
            ['SET SESSION idle_in_transaction_session_timeout = 7000'],
            conn.executed)
        self.assertEqual(['commit'], conn.ended)

    def test_sqlite_and_zero_change_nothing(self):
        conn = _connection_of('sqlite3')
        connection_setup._bound_idle_transactions(conn, None)
        self.config(idle_transaction_timeout=0, group='database')
        mariadb = _connection_of('pymysql.connections')
        connection_setup._bound_idle_transactions(mariadb, None)
        self.assertEqual(([], []), (conn.executed, mariadb.executed))
        self.assertEqual(([], []), (conn.ended, mariadb.ended))

    def test_server_without_the_setting_warns_once(self):
        logger = self.useFixture(fixtures.FakeLogger())
        mysql = _connection_of('pymysql.connections', fail=True)
        connection_setup._bound_idle_transactions(mysql, None)
        self.assertEqual(['rollback'], mysql.ended)
        again = _connection_of('pymysql.connections', fail=True)
        connection_setup._bound_idle_transactions(again, None)
        self.assertEqual([], again.ended)
        self.assertEqual(1, logger.output.count('does not bound idle'))
