"""Schema management behind ironic-like-dbsync."""

import os

from alembic import command as alembic_command
from alembic import config as alembic_config
from alembic import migration as alembic_migration
import sqlalchemy as sa

from ironic_like.conf import CONF
from ironic_like.db.sqlalchemy import api as sa_api
from ironic_like.db.sqlalchemy import flow_backend
from ironic_like.db.sqlalchemy import models


def _alembic_config(connection=None):
    path = os.path.join(os.path.dirname(__file__), 'sqlalchemy',
                        'alembic.ini')
    config = alembic_config.Config(path)
    if connection is not None:
        config.attributes['connection'] = connection
    return config


def upgrade(revision='head', engine=None):
    """Apply migrations up to ``revision`` on ``engine`` (default: ours)."""
    engine = engine or sa_api.get_engine()
    with engine.begin() as connection:
        alembic_command.upgrade(_alembic_config(connection), revision)
    # The tables where node flows keep their progress (taskflow's own
    # migrations, with their own version table).
    flow_backend.upgrade(engine)


def version(engine=None):
    """The schema revision the database is at, or None if none."""
    engine = engine or sa_api.get_engine()
    with engine.connect() as connection:
        context = alembic_migration.MigrationContext.configure(
            connection, opts={'version_table': CONF.database.version_table})
        return context.get_current_revision()


def create_schema(engine=None):
    """Create the tables straight from the models and stamp the head.

    Quicker than running every migration; only for an empty database.
    """
    engine = engine or sa_api.get_engine()
    if version(engine) is not None:
        raise RuntimeError('The database is not empty (it is at revision '
                           '%s); use "upgrade" instead.' % version(engine))
    # Our tables without a version row are not empty either: create_all
    # would skip them and the stamp would claim a schema they may not have.
    existing = set(sa.inspect(engine).get_table_names()).intersection(
        models.Base.metadata.tables)
    if existing:
        raise RuntimeError('The database already has tables %s but no '
                           'schema version; refusing to stamp it.'
                           % ', '.join(sorted(existing)))
    models.Base.metadata.create_all(engine)
    with engine.begin() as connection:
        alembic_command.stamp(_alembic_config(connection), 'head')
    flow_backend.upgrade(engine)
