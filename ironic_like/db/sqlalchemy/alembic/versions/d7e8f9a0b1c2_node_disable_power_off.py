"""The node's disable_power_off flag (Ironic API 1.95).

Revision ID: d7e8f9a0b1c2
Revises: c6d7e8f9a0b1
Create Date: 2026-11-27
"""

from alembic import op
import sqlalchemy as sa

revision = 'd7e8f9a0b1c2'
down_revision = 'c6d7e8f9a0b1'


def upgrade():
    with op.batch_alter_table('nodes') as batch:
        batch.add_column(sa.Column('disable_power_off', sa.Boolean(),
                                   nullable=False,
                                   server_default=sa.false()))
