"""The node's shard (Ironic API 1.82), indexed for the shard filters and
the shard counts.

Revision ID: e2f3a4b5c6d7
Revises: d1e2f3a4b5c6
Create Date: 2026-11-26
"""

from alembic import op
import sqlalchemy as sa

revision = 'e2f3a4b5c6d7'
down_revision = 'd1e2f3a4b5c6'


def upgrade():
    with op.batch_alter_table('nodes') as batch:
        batch.add_column(sa.Column('shard', sa.String(255), nullable=True))
    op.create_index('nodes_shard_idx', 'nodes', ['shard'])
