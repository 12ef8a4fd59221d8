"""Boot sessions: templates, sessions, components, artifacts, options.

Revision ID: c4d5e6f7a8b9
Revises: b7e1c2a9d3f0
Create Date: 2026-11-23
"""

from alembic import op
from oslo_db.sqlalchemy import types as db_types
import sqlalchemy as sa

revision = 'c4d5e6f7a8b9'
down_revision = 'b7e1c2a9d3f0'

_MYSQL = {'mysql_charset': 'utf8mb4', 'mysql_engine': 'InnoDB'}


def _timestamps():
    return [sa.Column('created_at', sa.DateTime(), nullable=True),
            sa.Column('updated_at', sa.DateTime(), nullable=True)]


def upgrade():
    op.create_table(
        'boot_templates', *_timestamps(),
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('name', sa.String(127), nullable=False),
        sa.Column('tenant', sa.String(255), nullable=True),
        sa.Column('description', sa.Text(), nullable=True),
        sa.Column('enable_cfs', sa.Boolean(), nullable=False),
        sa.Column('cfs', db_types.JsonEncodedDict(), nullable=True),
        sa.Column('boot_sets', db_types.JsonEncodedDict(mysql_as_long=True),
                  nullable=True),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('name', name='uniq_boot_templates0name'),
        **_MYSQL)

    op.create_table(
        'boot_sessions', *_timestamps(),
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('name', sa.String(127), nullable=False),
        sa.Column('tenant', sa.String(255), nullable=True),
        sa.Column('operation', sa.String(16), nullable=False),
        sa.Column('template_name', sa.String(127), nullable=False),
        sa.Column('template', db_types.JsonEncodedDict(mysql_as_long=True),
                  nullable=True),
        sa.Column('limit', sa.Text(), nullable=True),
        sa.Column('stage', sa.Boolean(), nullable=False),
        sa.Column('include_disabled', sa.Boolean(), nullable=False),
        sa.Column('takeover', sa.Boolean(), nullable=False),
        sa.Column('components',
                  db_types.JsonEncodedList(mysql_as_long=True),
                  nullable=True),
        sa.Column('status', sa.String(16), nullable=False),
        sa.Column('start_time', sa.DateTime(), nullable=True),
        sa.Column('end_time', sa.DateTime(), nullable=True),
        sa.Column('error', sa.Text(), nullable=True),
        sa.Column('final_status',
                  db_types.JsonEncodedDict(mysql_as_long=True),
                  nullable=True),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('name', name='uniq_boot_sessions0name'),
        **_MYSQL)
    op.create_index('boot_sessions_status_idx', 'boot_sessions', ['status'])

    op.create_table(
        'boot_components', *_timestamps(),
        sa.Column('node_id', sa.Integer(), nullable=False),
        sa.Column('actual_state', db_types.JsonEncodedDict(), nullable=True),
        sa.Column('desired_state', db_types.JsonEncodedDict(),
                  nullable=True),
        sa.Column('staged_state', db_types.JsonEncodedDict(), nullable=True),
        sa.Column('last_action', db_types.JsonEncodedDict(), nullable=True),
        sa.Column('event_stats', db_types.JsonEncodedDict(), nullable=True),
        sa.Column('phase', sa.String(32), nullable=False,
                  server_default=''),
        sa.Column('status', sa.String(32), nullable=False,
                  server_default='stable'),
        sa.Column('status_override', sa.String(32), nullable=True),
        sa.Column('enabled', sa.Boolean(), nullable=False),
        sa.Column('error', sa.Text(), nullable=True),
        sa.Column('session', sa.String(127), nullable=True),
        sa.Column('staged_session', sa.String(127), nullable=True),
        sa.Column('boot_set', sa.String(127), nullable=True),
        sa.Column('retry_policy', sa.Integer(), nullable=True),
        sa.Column('actual_updated_at', sa.DateTime(), nullable=True),
        sa.ForeignKeyConstraint(['node_id'], ['nodes.id']),
        sa.PrimaryKeyConstraint('node_id'),
        **_MYSQL)
    op.create_index('boot_components_enabled_status_idx', 'boot_components',
                    ['enabled', 'status'])
    for column in ('session', 'staged_session'):
        op.create_index('boot_components_%s_idx' % column,
                        'boot_components', [column])
    op.create_index('boot_components_actual_updated_idx', 'boot_components',
                    ['actual_updated_at'])
    # Every node has a component (the discovery operator repairs any
    # that go missing later).
    op.execute("INSERT INTO boot_components (node_id, phase, status, "
               "enabled) SELECT id, '', 'stable', false FROM nodes")

    op.create_table(
        'boot_artifacts', *_timestamps(),
        sa.Column('token', sa.String(64), nullable=False),
        sa.Column('node_id', sa.Integer(), nullable=False),
        sa.Column('kernel', sa.Text(), nullable=True),
        sa.Column('initrd', sa.Text(), nullable=True),
        sa.Column('kernel_parameters', sa.Text(), nullable=True),
        sa.PrimaryKeyConstraint('token'),
        **_MYSQL)
    op.create_index('boot_artifacts_node_id_idx', 'boot_artifacts',
                    ['node_id'])

    op.create_table(
        'boot_options', *_timestamps(),
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('options', db_types.JsonEncodedDict(), nullable=True),
        sa.PrimaryKeyConstraint('id'),
        **_MYSQL)
