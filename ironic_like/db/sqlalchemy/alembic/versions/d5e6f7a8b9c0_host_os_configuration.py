"""Host OS configuration: modules, configurations, state items, host
agents, and the node label index.

Revision ID: d5e6f7a8b9c0
Revises: c4d5e6f7a8b9
Create Date: 2026-11-23
"""

import json

from alembic import op
from oslo_db.sqlalchemy import types as db_types
import sqlalchemy as sa

revision = 'd5e6f7a8b9c0'
down_revision = 'c4d5e6f7a8b9'

_MYSQL = {'mysql_charset': 'utf8mb4', 'mysql_engine': 'InnoDB'}


def _timestamps():
    return [sa.Column('created_at', sa.DateTime(), nullable=True),
            sa.Column('updated_at', sa.DateTime(), nullable=True)]


def upgrade():
    op.create_table(
        'node_labels', *_timestamps(),
        sa.Column('node_id', sa.Integer(), nullable=False),
        sa.Column('key', sa.String(255), nullable=False),
        sa.Column('value', sa.String(255), nullable=False),
        sa.ForeignKeyConstraint(['node_id'], ['nodes.id']),
        sa.PrimaryKeyConstraint('node_id', 'key'),
        **_MYSQL)
    op.create_index('node_labels_key_value_idx', 'node_labels',
                    ['key', 'value'])

    op.create_table(
        'hostos_modules', *_timestamps(),
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('uuid', sa.String(36), nullable=False),
        sa.Column('name', sa.String(63), nullable=False),
        sa.Column('version', sa.String(64), nullable=False),
        sa.Column('url', sa.Text(), nullable=False),
        sa.Column('sha256sum', sa.String(64), nullable=False),
        sa.Column('description', sa.Text(), nullable=True),
        sa.Column('state', sa.String(16), nullable=False),
        sa.Column('error', sa.Text(), nullable=True),
        sa.Column('playbook', sa.String(255), nullable=True),
        sa.Column('values_schema',
                  db_types.JsonEncodedDict(mysql_as_long=True),
                  nullable=True),
        sa.Column('deprecates', db_types.JsonEncodedList(), nullable=True),
        sa.Column('deprecated_by', sa.String(64), nullable=True),
        sa.Column('archive_size', sa.BigInteger(), nullable=True),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('name', 'version',
                            name='uniq_hostos_modules0name0version'),
        sa.UniqueConstraint('uuid', name='uniq_hostos_modules0uuid'),
        **_MYSQL)

    op.create_table(
        'hostos_configurations', *_timestamps(),
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('uuid', sa.String(36), nullable=False),
        sa.Column('name', sa.String(63), nullable=False),
        sa.Column('machine_selector', db_types.JsonEncodedDict(),
                  nullable=True),
        sa.Column('configs', db_types.JsonEncodedList(mysql_as_long=True),
                  nullable=True),
        sa.Column('secret_values',
                  db_types.JsonEncodedList(mysql_as_long=True),
                  nullable=True),
        sa.Column('secret_salt', sa.String(32), nullable=False),
        sa.Column('order', sa.Integer(), nullable=True),
        sa.Column('max_concurrent', sa.Integer(), nullable=True),
        sa.Column('failure_threshold', sa.Integer(), nullable=True),
        sa.Column('status', sa.String(16), nullable=False),
        sa.Column('status_reason', sa.Text(), nullable=True),
        sa.Column('resumed_at', sa.DateTime(), nullable=True),
        sa.Column('delete_started_at', sa.DateTime(), nullable=True),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('name', name='uniq_hostos_configurations0name'),
        sa.UniqueConstraint('uuid', name='uniq_hostos_configurations0uuid'),
        **_MYSQL)

    op.create_table(
        'hostos_items', *_timestamps(),
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('node_id', sa.Integer(), nullable=False),
        sa.Column('configuration_id', sa.Integer(), nullable=False),
        sa.Column('name', sa.String(255), nullable=False),
        sa.Column('runner', sa.String(16), nullable=False),
        sa.Column('phase', sa.String(16), nullable=False),
        sa.Column('version', sa.String(16), nullable=False),
        sa.Column('params', db_types.JsonEncodedDict(mysql_as_long=True),
                  nullable=True),
        sa.Column('spec_hash', sa.String(64), nullable=False),
        sa.Column('sort_key', db_types.JsonEncodedList(), nullable=True),
        sa.Column('generation', sa.Integer(), nullable=False),
        sa.Column('removed', sa.Boolean(), nullable=False),
        sa.Column('released', sa.Boolean(), nullable=False),
        sa.Column('state', sa.String(16), nullable=True),
        sa.Column('reported_hash', sa.String(64), nullable=True),
        sa.Column('exit_code', sa.Integer(), nullable=True),
        sa.Column('attempt', sa.Integer(), nullable=False),
        sa.Column('started_at', sa.DateTime(), nullable=True),
        sa.Column('finished_at', sa.DateTime(), nullable=True),
        sa.Column('output', sa.Text(), nullable=True),
        sa.ForeignKeyConstraint(['node_id'], ['nodes.id']),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('node_id', 'name',
                            name='uniq_hostos_items0node_id0name'),
        **_MYSQL)
    op.create_index('hostos_items_configuration_idx', 'hostos_items',
                    ['configuration_id'])

    op.create_table(
        'hostos_agents', *_timestamps(),
        sa.Column('node_id', sa.Integer(), nullable=False),
        sa.Column('token_hash', sa.String(64), nullable=False),
        sa.Column('agent_version', sa.String(32), nullable=True),
        sa.Column('last_heartbeat', sa.DateTime(), nullable=True),
        sa.ForeignKeyConstraint(['node_id'], ['nodes.id']),
        sa.PrimaryKeyConstraint('node_id'),
        **_MYSQL)

    # Index the labels nodes already have.
    bind = op.get_bind()
    rows = bind.execute(sa.text('SELECT id, labels FROM nodes')).all()
    labels = sa.table('node_labels', sa.column('node_id'),
                      sa.column('key'), sa.column('value'))
    values = []
    for node_id, raw in rows:
        for key, value in sorted((json.loads(raw or '{}') or {}).items()):
            values.append({'node_id': node_id, 'key': key,
                           'value': str(value)})
    if values:
        op.bulk_insert(labels, values)
