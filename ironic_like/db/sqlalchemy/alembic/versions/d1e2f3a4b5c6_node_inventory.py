"""The node inventory table (Ironic API 1.81): the last inventory an
agent gave at inspection, one row per node.

Revision ID: d1e2f3a4b5c6
Revises: c0d1e2f3a4b5
Create Date: 2026-11-26
"""

from alembic import op
from oslo_db.sqlalchemy import types as db_types
import sqlalchemy as sa

revision = 'd1e2f3a4b5c6'
down_revision = 'c0d1e2f3a4b5'


def upgrade():
    op.create_table(
        'node_inventory',
        sa.Column('created_at', sa.DateTime(), nullable=True),
        sa.Column('updated_at', sa.DateTime(), nullable=True),
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('node_id', sa.Integer(), nullable=False),
        sa.Column('inventory_data',
                  db_types.JsonEncodedDict(mysql_as_long=True),
                  nullable=True),
        sa.Column('plugin_data',
                  db_types.JsonEncodedDict(mysql_as_long=True),
                  nullable=True),
        sa.ForeignKeyConstraint(['node_id'], ['nodes.id']),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('node_id', name='uniq_node_inventory0node_id'),
        mysql_engine='InnoDB', mysql_charset='utf8mb4')
