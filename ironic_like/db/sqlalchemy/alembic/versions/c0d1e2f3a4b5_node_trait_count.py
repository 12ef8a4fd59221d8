"""The node's trait count and the index best-fit allocations search by
(issue 14): free nodes of a resource class, fewest traits first.

Revision ID: c0d1e2f3a4b5
Revises: b9c0d1e2f3a4
Create Date: 2026-11-26
"""

from alembic import op
import sqlalchemy as sa

revision = 'c0d1e2f3a4b5'
down_revision = 'b9c0d1e2f3a4'


def upgrade():
    with op.batch_alter_table('nodes') as batch:
        batch.add_column(sa.Column('trait_count', sa.Integer(),
                                   nullable=False, server_default='0'))
    # Nodes enrolled before this revision: count their traits once.
    op.execute(
        'UPDATE nodes SET trait_count = (SELECT COUNT(*) FROM node_traits '
        'WHERE node_traits.node_id = nodes.id)')
    op.create_index('nodes_candidate_idx', 'nodes',
                    ['resource_class', 'provision_state', 'allocation_id',
                     'trait_count'])
