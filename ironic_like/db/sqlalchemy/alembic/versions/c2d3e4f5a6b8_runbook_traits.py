"""Runbook traits and description (Ironic API 1.112). A runbook made
before is approved for the trait its name is (what using it asked until
then), as Ironic's data migration does.

Revision ID: c2d3e4f5a6b8
Revises: b1c2d3e4f5a7
Create Date: 2026-11-27
"""

from alembic import op
import sqlalchemy as sa

revision = 'c2d3e4f5a6b8'
down_revision = 'b1c2d3e4f5a7'

_MYSQL = {'mysql_charset': 'utf8mb4', 'mysql_engine': 'InnoDB'}


def upgrade():
    with op.batch_alter_table('runbooks') as batch:
        batch.add_column(sa.Column('description', sa.String(255),
                                   nullable=True))
    op.create_table(
        'runbook_traits',
        sa.Column('created_at', sa.DateTime(), nullable=True),
        sa.Column('updated_at', sa.DateTime(), nullable=True),
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('runbook_id', sa.Integer(), nullable=False),
        sa.Column('trait', sa.String(255), nullable=False),
        sa.ForeignKeyConstraint(['runbook_id'], ['runbooks.id']),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('runbook_id', 'trait',
                            name='uniq_runbook_traits0runbook_id0trait'),
        **_MYSQL)
    op.execute('INSERT INTO runbook_traits (runbook_id, trait) '
               'SELECT id, name FROM runbooks')
