"""The statements of the API's idle heartbeat (db node_heartbeats): the
compare-and-swap compares the exact text on every MySQL flavour (the
functional tests run it on MariaDB and PostgreSQL)."""

from sqlalchemy.dialects import mysql
from sqlalchemy.dialects import postgresql

from ironic_like.db.sqlalchemy import node_heartbeats
from ironic_like.tests import base


class TestSwapStatement(base.TestCase):

    def _sql(self, name, dialect):
        return str(node_heartbeats._swap(name, False).compile(
            dialect=dialect))

    def test_binary_collation_on_mysql_and_mariadb(self):
        # SQLAlchemy names a mariadb+pymysql:// URL's dialect 'mariadb'.
        for name in ('mysql', 'mariadb'):
            sql = self._sql(name, mysql.dialect())
            self.assertIn('COLLATE utf8mb4_bin', sql, name)

    def test_plain_comparison_elsewhere(self):
        sql = self._sql('postgresql', postgresql.dialect())
        self.assertNotIn('COLLATE', sql)
        self.assertIn('driver_internal_info = ', sql)
        self.assertIn('reservation IS NULL', sql)

    def test_null_text(self):
        sql = str(node_heartbeats._swap('sqlite', True).compile())
        self.assertIn('driver_internal_info IS NULL', sql)
