"""Runbooks and their steps (Ironic API 1.92).

Revision ID: c6d7e8f9a0b1
Revises: b5c6d7e8f9a0
Create Date: 2026-11-27
"""

from alembic import op
from oslo_db.sqlalchemy import types as db_types
import sqlalchemy as sa

revision = 'c6d7e8f9a0b1'
down_revision = 'b5c6d7e8f9a0'

_MYSQL = {'mysql_charset': 'utf8mb4', 'mysql_engine': 'InnoDB'}


def _timestamps():
    return [sa.Column('created_at', sa.DateTime(), nullable=True),
            sa.Column('updated_at', sa.DateTime(), nullable=True)]


def upgrade():
    op.create_table(
        'runbooks', *_timestamps(),
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('uuid', sa.String(36), nullable=False),
        sa.Column('name', sa.String(255), nullable=False),
        sa.Column('disable_ramdisk', sa.Boolean(), nullable=False),
        sa.Column('public', sa.Boolean(), nullable=False),
        sa.Column('owner', sa.String(255), nullable=True),
        sa.Column('extra', db_types.JsonEncodedDict(), nullable=True),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('uuid', name='uniq_runbooks0uuid'),
        sa.UniqueConstraint('name', name='uniq_runbooks0name'),
        **_MYSQL)
    op.create_index('runbooks_owner_idx', 'runbooks', ['owner'])
    op.create_table(
        'runbook_steps', *_timestamps(),
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('runbook_id', sa.Integer(), nullable=False),
        sa.Column('interface', sa.String(255), nullable=False),
        sa.Column('step', sa.String(255), nullable=False),
        sa.Column('args', db_types.JsonEncodedDict(), nullable=False),
        sa.Column('order', sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(['runbook_id'], ['runbooks.id']),
        sa.PrimaryKeyConstraint('id'),
        **_MYSQL)
    op.create_index('runbook_steps_runbook_id_idx', 'runbook_steps',
                    ['runbook_id'])
