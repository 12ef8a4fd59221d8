"""Ironic 1.63-1.80 columns: the node's network_data (1.66), boot_mode and
secure_boot (1.75); the BIOS registry of a setting (1.74); node history
(1.78); an index on the lessee (1.65 filters on it).

Revision ID: b9c0d1e2f3a4
Revises: a8b9c0d1e2f3
Create Date: 2026-11-24
"""

from alembic import op
from oslo_db.sqlalchemy import types as db_types
import sqlalchemy as sa

revision = 'b9c0d1e2f3a4'
down_revision = 'a8b9c0d1e2f3'

_MYSQL = {'mysql_charset': 'utf8mb4', 'mysql_engine': 'InnoDB'}


def upgrade():
    with op.batch_alter_table('nodes') as batch:
        batch.add_column(sa.Column('network_data',
                                   db_types.JsonEncodedDict(),
                                   nullable=True))
        batch.add_column(sa.Column('boot_mode', sa.String(16),
                                   nullable=True))
        batch.add_column(sa.Column('secure_boot', sa.Boolean(),
                                   nullable=True))
    op.create_index('nodes_lessee_idx', 'nodes', ['lessee'])

    with op.batch_alter_table('bios_settings') as batch:
        batch.add_column(sa.Column('attribute_type', sa.String(255),
                                   nullable=True))
        batch.add_column(sa.Column('allowable_values',
                                   db_types.JsonEncodedList(),
                                   nullable=True))
        batch.add_column(sa.Column('lower_bound', sa.BigInteger(),
                                   nullable=True))
        batch.add_column(sa.Column('upper_bound', sa.BigInteger(),
                                   nullable=True))
        batch.add_column(sa.Column('max_length', sa.Integer(),
                                   nullable=True))
        batch.add_column(sa.Column('min_length', sa.Integer(),
                                   nullable=True))
        batch.add_column(sa.Column('read_only', sa.Boolean(),
                                   nullable=True))
        batch.add_column(sa.Column('reset_required', sa.Boolean(),
                                   nullable=True))
        batch.add_column(sa.Column('unique', sa.Boolean(), nullable=True))

    op.create_table(
        'node_history',
        sa.Column('created_at', sa.DateTime(), nullable=True),
        sa.Column('updated_at', sa.DateTime(), nullable=True),
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('uuid', sa.String(36), nullable=False),
        sa.Column('node_id', sa.Integer(), nullable=False),
        sa.Column('conductor', sa.String(255), nullable=True),
        sa.Column('event_type', sa.String(255), nullable=True),
        sa.Column('severity', sa.String(255), nullable=True),
        sa.Column('event', sa.Text(), nullable=True),
        sa.Column('user', sa.String(64), nullable=True),
        sa.Column('project', sa.String(80), nullable=True),
        sa.ForeignKeyConstraint(['node_id'], ['nodes.id']),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('uuid', name='uniq_node_history0uuid'),
        **_MYSQL)
    # Listed per node, newest last; pruned by age.
    op.create_index('node_history_node_id_idx', 'node_history',
                    ['node_id', 'id'])
    op.create_index('node_history_created_at_idx', 'node_history',
                    ['created_at'])
