"""The node's parent (Ironic API 1.83), indexed: the node list hides
child nodes unless asked, and a parent's children are looked up by it.

Revision ID: f3a4b5c6d7e8
Revises: e2f3a4b5c6d7
Create Date: 2026-11-26
"""

from alembic import op
import sqlalchemy as sa

revision = 'f3a4b5c6d7e8'
down_revision = 'e2f3a4b5c6d7'


def upgrade():
    with op.batch_alter_table('nodes') as batch:
        batch.add_column(sa.Column('parent_node', sa.String(36),
                                   nullable=True))
    op.create_index('nodes_parent_node_idx', 'nodes', ['parent_node'])
