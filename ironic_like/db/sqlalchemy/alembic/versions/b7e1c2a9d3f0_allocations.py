"""Allocations: allocations, allocation_traits, nodes.allocation_id.

Revision ID: b7e1c2a9d3f0
Revises: a1b2c3d4e5f6
Create Date: 2026-11-21
"""

from alembic import op
from oslo_db.sqlalchemy import types as db_types
import sqlalchemy as sa

revision = 'b7e1c2a9d3f0'
down_revision = 'a1b2c3d4e5f6'

_MYSQL = {'mysql_charset': 'utf8mb4', 'mysql_engine': 'InnoDB'}


def upgrade():
    op.create_table(
        'allocations',
        sa.Column('created_at', sa.DateTime(), nullable=True),
        sa.Column('updated_at', sa.DateTime(), nullable=True),
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('uuid', sa.String(36), nullable=False),
        sa.Column('name', sa.String(255), nullable=True),
        sa.Column('node_id', sa.Integer(), nullable=True),
        sa.Column('state', sa.String(15), nullable=False),
        sa.Column('owner', sa.String(255), nullable=True),
        sa.Column('last_error', sa.Text(), nullable=True),
        sa.Column('resource_class', sa.String(80), nullable=True),
        sa.Column('candidate_nodes', db_types.JsonEncodedList(),
                  nullable=True),
        sa.Column('extra', db_types.JsonEncodedDict(), nullable=True),
        sa.Column('conductor_affinity', sa.String(255), nullable=True),
        sa.ForeignKeyConstraint(['node_id'], ['nodes.id']),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('uuid', name='uniq_allocations0uuid'),
        sa.UniqueConstraint('name', name='uniq_allocations0name'),
        sa.UniqueConstraint('node_id', name='uniq_allocations0node_id'),
        **_MYSQL)
    for column in ('state', 'conductor_affinity', 'resource_class',
                   'owner'):
        op.create_index('allocations_%s_idx' % column, 'allocations',
                        [column])

    op.create_table(
        'allocation_traits',
        sa.Column('created_at', sa.DateTime(), nullable=True),
        sa.Column('updated_at', sa.DateTime(), nullable=True),
        sa.Column('allocation_id', sa.Integer(), nullable=False),
        sa.Column('trait', sa.String(255), nullable=False),
        sa.ForeignKeyConstraint(['allocation_id'], ['allocations.id']),
        sa.PrimaryKeyConstraint('allocation_id', 'trait'),
        **_MYSQL)
    op.create_index('allocation_traits_idx', 'allocation_traits', ['trait'])

    with op.batch_alter_table('nodes') as batch:
        batch.add_column(sa.Column('allocation_id', sa.Integer(),
                                   nullable=True))
        batch.create_unique_constraint('uniq_nodes0allocation_id',
                                       ['allocation_id'])
