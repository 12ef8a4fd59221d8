"""Alembic environment: runs migrations on the service's own engine.

The version table is ours ([database]version_table), because taskflow's
persistence backend keeps alembic's default table in the same database.
"""

from alembic import context

from ironic_like.conf import CONF
from ironic_like.db.sqlalchemy import models

target_metadata = models.Base.metadata


def run_migrations_online():
    connection = context.config.attributes.get('connection')
    if connection is not None:
        _run(connection)
        return
    from ironic_like.db.sqlalchemy import api as sa_api
    engine = sa_api.get_engine()
    with engine.connect() as connection:
        _run(connection)
        connection.commit()


def _run(connection):
    context.configure(connection=connection,
                      target_metadata=target_metadata,
                      version_table=CONF.database.version_table,
                      render_as_batch=connection.dialect.name == 'sqlite')
    with context.begin_transaction():
        context.run_migrations()


run_migrations_online()
