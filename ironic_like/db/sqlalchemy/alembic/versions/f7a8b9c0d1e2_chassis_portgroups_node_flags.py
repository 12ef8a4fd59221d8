"""Ironic's chassis and port groups; the node's chassis, protected,
retired, automated_clean and fault columns; the port's port group.

Revision ID: f7a8b9c0d1e2
Revises: e6f7a8b9c0d1
Create Date: 2026-11-23
"""

from alembic import op
from oslo_db.sqlalchemy import types as db_types
import sqlalchemy as sa

revision = 'f7a8b9c0d1e2'
down_revision = 'e6f7a8b9c0d1'

_MYSQL = {'mysql_charset': 'utf8mb4', 'mysql_engine': 'InnoDB'}


def _timestamps():
    return [sa.Column('created_at', sa.DateTime(), nullable=True),
            sa.Column('updated_at', sa.DateTime(), nullable=True)]


def upgrade():
    op.create_table(
        'chassis', *_timestamps(),
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('uuid', sa.String(36), nullable=False),
        sa.Column('description', sa.String(255), nullable=True),
        sa.Column('extra', db_types.JsonEncodedDict(), nullable=True),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('uuid', name='uniq_chassis0uuid'),
        **_MYSQL)

    op.create_table(
        'portgroups', *_timestamps(),
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('uuid', sa.String(36), nullable=False),
        sa.Column('name', sa.String(255), nullable=True),
        sa.Column('node_id', sa.Integer(), nullable=False),
        sa.Column('address', sa.String(18), nullable=True),
        sa.Column('extra', db_types.JsonEncodedDict(), nullable=True),
        sa.Column('internal_info', db_types.JsonEncodedDict(),
                  nullable=True),
        sa.Column('standalone_ports_supported', sa.Boolean(),
                  nullable=False),
        sa.Column('mode', sa.String(255), nullable=True),
        sa.Column('properties', db_types.JsonEncodedDict(), nullable=True),
        sa.ForeignKeyConstraint(['node_id'], ['nodes.id']),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('uuid', name='uniq_portgroups0uuid'),
        sa.UniqueConstraint('name', name='uniq_portgroups0name'),
        sa.UniqueConstraint('address', name='uniq_portgroups0address'),
        **_MYSQL)
    op.create_index('portgroups_node_id_idx', 'portgroups', ['node_id'])

    with op.batch_alter_table('nodes') as batch:
        batch.add_column(sa.Column('chassis_id', sa.Integer(),
                                   nullable=True))
        batch.add_column(sa.Column('protected', sa.Boolean(),
                                   nullable=False,
                                   server_default=sa.false()))
        batch.add_column(sa.Column('protected_reason', sa.Text(),
                                   nullable=True))
        batch.add_column(sa.Column('retired', sa.Boolean(),
                                   nullable=False,
                                   server_default=sa.false()))
        batch.add_column(sa.Column('retired_reason', sa.Text(),
                                   nullable=True))
        batch.add_column(sa.Column('automated_clean', sa.Boolean(),
                                   nullable=True))
        batch.add_column(sa.Column('fault', sa.String(255), nullable=True))
        batch.create_foreign_key('nodes_chassis_id_fkey', 'chassis',
                                 ['chassis_id'], ['id'])
        batch.create_index('nodes_chassis_id_idx', ['chassis_id'])
        batch.create_index('nodes_fault_idx', ['fault'])

    with op.batch_alter_table('ports') as batch:
        batch.add_column(sa.Column('portgroup_id', sa.Integer(),
                                   nullable=True))
        batch.create_foreign_key('ports_portgroup_id_fkey', 'portgroups',
                                 ['portgroup_id'], ['id'])
        batch.create_index('ports_portgroup_id_idx', ['portgroup_id'])
