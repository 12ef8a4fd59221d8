"""Ironic API 1.111 to 1.115 fields: a port's
available_for_dynamic_portgroup and a port group's dynamic_portgroup;
firmware components' vendor, model and serial number; node history
events' states and duration.

Revision ID: b1c2d3e4f5a7
Revises: a0b1c2d3e4f6
Create Date: 2026-11-27
"""

from alembic import op
import sqlalchemy as sa

revision = 'b1c2d3e4f5a7'
down_revision = 'a0b1c2d3e4f6'


def upgrade():
    with op.batch_alter_table('ports') as batch:
        batch.add_column(sa.Column('available_for_dynamic_portgroup',
                                   sa.Boolean(), nullable=False,
                                   server_default=sa.true()))
    with op.batch_alter_table('portgroups') as batch:
        batch.add_column(sa.Column('dynamic_portgroup', sa.Boolean(),
                                   nullable=False,
                                   server_default=sa.false()))
    with op.batch_alter_table('firmware_information') as batch:
        for name in ('vendor', 'model', 'serial_number'):
            batch.add_column(sa.Column(name, sa.String(255), nullable=True))
    with op.batch_alter_table('node_history') as batch:
        batch.add_column(sa.Column('state', sa.String(15), nullable=True))
        batch.add_column(sa.Column('target_provision_state', sa.String(15),
                                   nullable=True))
        batch.add_column(sa.Column('duration_seconds', sa.Integer(),
                                   nullable=True))
