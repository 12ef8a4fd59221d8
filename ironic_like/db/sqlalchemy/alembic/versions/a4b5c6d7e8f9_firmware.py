"""Firmware (Ironic API 1.86): the node's firmware_interface and the
firmware_information table of its components' versions.

Revision ID: a4b5c6d7e8f9
Revises: f3a4b5c6d7e8
Create Date: 2026-11-26
"""

from alembic import op
import sqlalchemy as sa

revision = 'a4b5c6d7e8f9'
down_revision = 'f3a4b5c6d7e8'


def upgrade():
    with op.batch_alter_table('nodes') as batch:
        batch.add_column(sa.Column('firmware_interface', sa.String(255),
                                   nullable=True))
    op.create_table(
        'firmware_information',
        sa.Column('created_at', sa.DateTime(), nullable=True),
        sa.Column('updated_at', sa.DateTime(), nullable=True),
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('node_id', sa.Integer(), nullable=False),
        sa.Column('component', sa.String(255), nullable=False),
        sa.Column('initial_version', sa.String(255), nullable=False),
        sa.Column('current_version', sa.String(255), nullable=True),
        sa.Column('last_version_flashed', sa.String(255), nullable=True),
        sa.ForeignKeyConstraint(['node_id'], ['nodes.id']),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('node_id', 'component',
                            name='uniq_firmware_information0node_id0'
                                 'component'),
        mysql_engine='InnoDB', mysql_charset='utf8mb4')
