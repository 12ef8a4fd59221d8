"""Inspection rules (Ironic API 1.96).

Revision ID: e8f9a0b1c2d3
Revises: d7e8f9a0b1c2
Create Date: 2026-11-27
"""

from alembic import op
from oslo_db.sqlalchemy import types as db_types
import sqlalchemy as sa

revision = 'e8f9a0b1c2d3'
down_revision = 'd7e8f9a0b1c2'

_MYSQL = {'mysql_charset': 'utf8mb4', 'mysql_engine': 'InnoDB'}


def upgrade():
    op.create_table(
        'inspection_rules',
        sa.Column('created_at', sa.DateTime(), nullable=True),
        sa.Column('updated_at', sa.DateTime(), nullable=True),
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('uuid', sa.String(36), nullable=False),
        sa.Column('description', sa.String(255), nullable=True),
        sa.Column('priority', sa.Integer(), nullable=False),
        sa.Column('sensitive', sa.Boolean(), nullable=False),
        sa.Column('phase', sa.String(16), nullable=False),
        sa.Column('conditions',
                  db_types.JsonEncodedList(mysql_as_long=True),
                  nullable=False),
        sa.Column('actions', db_types.JsonEncodedList(mysql_as_long=True),
                  nullable=False),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('uuid', name='uniq_inspection_rules0uuid'),
        **_MYSQL)
    op.create_index('inspection_rules_phase_idx', 'inspection_rules',
                    ['phase'])
