"""The alembic migrations build exactly the models' schema, on MariaDB and
PostgreSQL (the SQLite variant is a unit test), and ironic-like-dbsync
applies them as a real process."""

import os
import subprocess

import sqlalchemy as sa

from ironic_like.conf import CONF
from ironic_like.db import migration
from ironic_like.tests.functional import base
from ironic_like.tests.unit.db import test_migrations as test_migrations_unit


class _MigrationsOnServer(test_migrations_unit.ModelsMigrationsMixin):
    """The unit tests' backend-neutral checks (models vs migrations,
    head recorded, create_schema) on a fresh server database."""

    def setUp(self):
        super().setUp()
        self.database = self.fresh_database()
        self.engine = sa.create_engine(self.database.url)
        self.addCleanup(self.engine.dispose)

    def get_engine(self):
        return self.engine


class TestMigrationsMySQL(_MigrationsOnServer, base.FunctionalTestCase):
    BACKEND = base.MYSQL
    SERVICES = (base.MYSQL,)


class TestMigrationsPostgreSQL(_MigrationsOnServer,
                               base.FunctionalTestCase):
    BACKEND = base.POSTGRESQL
    SERVICES = (base.POSTGRESQL,)


class _DbsyncProcess(object):

    def test_dbsync_upgrade_and_version(self):
        database = self.fresh_database()
        tmp = self.useFixture(base.fixtures.TempDir()).path
        config = base.write_config(os.path.join(tmp, 'dbsync.conf'), {
            'database': {'connection': database.url}})
        output = base.run_dbsync(config)
        head = migration.version(engine=database.engine)
        self.assertIsNotNone(head)
        self.assertIn('Database upgraded to %s' % head, output)
        tables = set(sa.inspect(database.engine).get_table_names())
        self.assertTrue({'nodes', 'ports', 'conductors', 'node_traits',
                         CONF.database.version_table} <= tables, tables)
        # A second upgrade is a no-op, and "version" prints the head.
        base.run_dbsync(config)
        proc = subprocess.run(
            base.console_script('ironic-like-dbsync') +
            ['--config-file', config, 'version'],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=120,
            stdin=subprocess.DEVNULL)
        text = proc.stdout.decode('utf-8', 'replace')
        self.assertEqual(0, proc.returncode, text)
        self.assertEqual(head, text.strip().splitlines()[-1])


class TestDbsyncMySQL(_DbsyncProcess, base.FunctionalTestCase):
    BACKEND = base.MYSQL
    SERVICES = (base.MYSQL,)


class TestDbsyncPostgreSQL(_DbsyncProcess, base.FunctionalTestCase):
    BACKEND = base.POSTGRESQL
    SERVICES = (base.POSTGRESQL,)
