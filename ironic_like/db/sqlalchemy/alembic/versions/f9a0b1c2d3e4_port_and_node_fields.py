"""Ironic API 1.97-1.104 fields: a port's description, vendor and
category; a port group's physical_network and category; a node's
instance_name (indexed: nodes are listed by it).

Revision ID: f9a0b1c2d3e4
Revises: e8f9a0b1c2d3
Create Date: 2026-11-27
"""

from alembic import op
import sqlalchemy as sa

revision = 'f9a0b1c2d3e4'
down_revision = 'e8f9a0b1c2d3'


def upgrade():
    with op.batch_alter_table('ports') as batch:
        batch.add_column(sa.Column('description', sa.String(255),
                                   nullable=True))
        batch.add_column(sa.Column('vendor', sa.String(32), nullable=True))
        batch.add_column(sa.Column('category', sa.String(80),
                                   nullable=True))
    with op.batch_alter_table('portgroups') as batch:
        batch.add_column(sa.Column('physical_network', sa.String(64),
                                   nullable=True))
        batch.add_column(sa.Column('category', sa.String(80),
                                   nullable=True))
    with op.batch_alter_table('nodes') as batch:
        batch.add_column(sa.Column('instance_name', sa.String(255),
                                   nullable=True))
    op.create_index('nodes_instance_name_idx', 'nodes', ['instance_name'])
