"""The alembic migrations build exactly the schema of the models.

``ModelsMigrationsMixin`` is backend-neutral: a test class mixes it into a
TestCase and provides ``get_engine()`` returning an engine on an empty
database. Here it runs on an SQLite file; tests/functional reuses it on
MariaDB and PostgreSQL.
"""

import functools
import os
import re

from alembic import script as alembic_script
from alembic import autogenerate
from alembic import migration as alembic_migration
import fixtures
from oslo_config import fixture as config_fixture
from oslo_db.sqlalchemy import provision
from oslo_db.sqlalchemy import test_migrations
import sqlalchemy as sa
import testtools

from ironic_like.conf import CONF
from ironic_like.db import migration
from ironic_like.db.sqlalchemy import models

# Tables in the same database that are not ours to compare: alembic's
# version table (ours has its own name) and taskflow's persistence tables.
FOREIGN_TABLES = frozenset(['alembic_version', 'logbooks', 'flowdetails',
                            'atomdetails'])


def head_revision():
    """The newest revision among the migration scripts."""
    scripts = alembic_script.ScriptDirectory.from_config(
        migration._alembic_config())
    return scripts.get_current_head()


def _unquote(default):
    # SQLite reflects a '' default as "''" while alembic renders the model's
    # as "''" or '' depending on the path; its own normaliser only strips
    # quotes around non-empty strings, so an empty default looked changed.
    if default is None:
        return None
    default = re.sub(r"^\((.*)\)$", r"\1", default)
    return re.sub(r"^\"?'(.*)'\"?$", r"\1", default)


class ModelsMigrationsMixin(test_migrations.ModelsMigrationsSync):
    """Compare models and migrations on the engine of ``get_engine()``.

    Subclasses (with a TestCase) implement only ``get_engine()``, which
    must return an engine connected to an empty database; the tests drop
    everything they created afterwards.
    """

    def db_sync(self, engine):
        migration.upgrade('head', engine=engine)

    def get_metadata(self):
        return models.Base.metadata

    def include_object(self, object_, name, type_, reflected, compare_to):
        if type_ == 'table':
            return (name != CONF.database.version_table and
                    name not in FOREIGN_TABLES)
        return True

    def compare_server_default(self, ctxt, ins_col, meta_col, insp_def,
                               meta_def, rendered_meta_def):
        if ctxt.dialect.name == 'sqlite':
            return _unquote(insp_def) != _unquote(rendered_meta_def)
        return super().compare_server_default(
            ctxt, ins_col, meta_col, insp_def, meta_def, rendered_meta_def)

    def _drop_all_later(self, engine):
        backend = provision.Backend(engine.name, engine.url)
        self.addCleanup(functools.partial(backend.drop_all_objects, engine))

    def test_upgrade_records_head(self):
        engine = self.get_engine()
        self._drop_all_later(engine)
        self.assertIsNone(migration.version(engine))
        migration.upgrade('head', engine=engine)
        self.assertEqual(head_revision(), migration.version(engine))
        tables = set(sa.inspect(engine).get_table_names())
        self.assertIn(CONF.database.version_table, tables)
        self.assertTrue(set(models.Base.metadata.tables).issubset(tables))
        # taskflow's persistence tables come with the upgrade; on SQLite it
        # creates them directly, elsewhere its own migrations record their
        # revision in alembic_version, which must not hold ours.
        self.assertTrue({'logbooks', 'flowdetails',
                         'atomdetails'}.issubset(tables))
        if 'alembic_version' in tables:
            with engine.connect() as conn:
                revisions = [row[0] for row in conn.execute(
                    sa.text('SELECT version_num FROM alembic_version'))]
            self.assertNotIn(head_revision(), revisions)
        # Upgrading an up-to-date database changes nothing.
        migration.upgrade('head', engine=engine)
        self.assertEqual(head_revision(), migration.version(engine))

    def test_create_schema(self):
        engine = self.get_engine()
        self._drop_all_later(engine)
        migration.create_schema(engine)
        self.assertEqual(head_revision(), migration.version(engine))
        self.assertTrue(set(models.Base.metadata.tables).issubset(
            sa.inspect(engine).get_table_names()))
        # Never on a database that already has a schema.
        self.assertRaises(RuntimeError, migration.create_schema, engine)

    def test_create_schema_refuses_unversioned_tables(self):
        # Tables without a version row (e.g. made by hand) are not an empty
        # database either: stamping them would hide a mismatch.
        engine = self.get_engine()
        self._drop_all_later(engine)
        # (A table of no foreign key: one that needs others cannot be
        # made alone on MariaDB or PostgreSQL.)
        models.Base.metadata.tables['conductors'].create(engine)
        self.assertRaises(RuntimeError, migration.create_schema, engine)
        self.assertIsNone(migration.version(engine))


class _EngineComparator(ModelsMigrationsMixin):
    """The mixin's comparison settings outside a TestCase."""

    def __init__(self, engine):
        self._engine = engine

    def get_engine(self):
        return self._engine


def schema_diff(engine):
    """Upgrade ``engine`` (an empty database) to head and return how the
    resulting schema differs from the models: alembic's list of
    differences, empty when they agree."""
    comparator = _EngineComparator(engine)
    comparator.db_sync(engine)
    with engine.connect() as connection:
        context = alembic_migration.MigrationContext.configure(
            connection, opts={
                'include_object': comparator.include_object,
                'compare_type': comparator.compare_type,
                'compare_server_default': comparator.compare_server_default,
            })
        return comparator.filter_metadata_diff(autogenerate.compare_metadata(
            context, comparator.get_metadata()))


class TestMigrationsSQLite(ModelsMigrationsMixin, testtools.TestCase):

    def setUp(self):
        super().setUp()
        self.useFixture(config_fixture.Config(CONF))
        tmp = self.useFixture(fixtures.TempDir()).path
        self.engine = sa.create_engine(
            'sqlite:///%s' % os.path.join(tmp, 'migrations.sqlite'))
        self.addCleanup(self.engine.dispose)

    def get_engine(self):
        return self.engine

    def test_schema_diff_helper(self):
        self.assertEqual([], schema_diff(self.engine))

    def test_head_is_single(self):
        config = migration._alembic_config()
        heads = alembic_script.ScriptDirectory.from_config(config).get_heads()
        self.assertEqual(1, len(heads), heads)

    def test_comparison_sees_a_difference(self):
        # The comparison is not vacuous: a model column the migrations do
        # not create is reported.
        migration.upgrade('head', engine=self.engine)
        metadata = sa.MetaData()
        for table in models.Base.metadata.tables.values():
            table.to_metadata(metadata)
        metadata.tables['nodes'].append_column(
            sa.Column('not_migrated', sa.String(10)))
        self.get_metadata = lambda: metadata
        self.assertRaises(self.failureException, self.test_models_sync)
