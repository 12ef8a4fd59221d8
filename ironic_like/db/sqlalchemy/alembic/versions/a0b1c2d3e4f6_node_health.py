"""The node's hardware health (Ironic API 1.109).

Revision ID: a0b1c2d3e4f6
Revises: f9a0b1c2d3e4
Create Date: 2026-11-27
"""

from alembic import op
import sqlalchemy as sa

revision = 'a0b1c2d3e4f6'
down_revision = 'f9a0b1c2d3e4'


def upgrade():
    with op.batch_alter_table('nodes') as batch:
        batch.add_column(sa.Column('health', sa.String(20), nullable=True))
