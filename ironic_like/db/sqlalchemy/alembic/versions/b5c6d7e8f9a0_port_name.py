"""The port's name (Ironic API 1.88), unique.

Revision ID: b5c6d7e8f9a0
Revises: a4b5c6d7e8f9
Create Date: 2026-11-26
"""

from alembic import op
import sqlalchemy as sa

revision = 'b5c6d7e8f9a0'
down_revision = 'a4b5c6d7e8f9'


def upgrade():
    with op.batch_alter_table('ports') as batch:
        batch.add_column(sa.Column('name', sa.String(255), nullable=True))
        batch.create_unique_constraint('uniq_ports0name', ['name'])
