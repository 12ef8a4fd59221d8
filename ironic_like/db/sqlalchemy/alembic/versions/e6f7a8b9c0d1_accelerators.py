"""Accelerators: inventories, devices, deployables, attach handles,
attachments and per-node accelerator traits.

Revision ID: e6f7a8b9c0d1
Revises: d5e6f7a8b9c0
Create Date: 2026-11-23
"""

from alembic import op
from oslo_db.sqlalchemy import types as db_types
import sqlalchemy as sa

revision = 'e6f7a8b9c0d1'
down_revision = 'd5e6f7a8b9c0'

_MYSQL = {'mysql_charset': 'utf8mb4', 'mysql_engine': 'InnoDB'}


def _timestamps():
    return [sa.Column('created_at', sa.DateTime(), nullable=True),
            sa.Column('updated_at', sa.DateTime(), nullable=True)]


def _node_fk():
    return sa.ForeignKeyConstraint(['node_id'], ['nodes.id'])


def upgrade():
    op.create_table(
        'accelerator_inventories', *_timestamps(),
        sa.Column('node_id', sa.Integer(), nullable=False),
        sa.Column('digest', sa.String(64), nullable=True),
        sa.Column('state', sa.String(16), nullable=False),
        sa.Column('error', sa.Text(), nullable=True),
        sa.Column('reported_at', sa.DateTime(), nullable=True),
        _node_fk(),
        sa.PrimaryKeyConstraint('node_id'),
        **_MYSQL)

    op.create_table(
        'accelerator_devices', *_timestamps(),
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('uuid', sa.String(36), nullable=False),
        sa.Column('node_id', sa.Integer(), nullable=False),
        sa.Column('type', sa.String(32), nullable=False),
        sa.Column('vendor_id', sa.String(8), nullable=False),
        sa.Column('product_id', sa.String(8), nullable=False),
        sa.Column('vendor_name', sa.String(255), nullable=True),
        sa.Column('model', sa.String(255), nullable=True),
        sa.Column('vendor', sa.String(64), nullable=False),
        sa.Column('pci_address', sa.String(16), nullable=False),
        sa.Column('std_board_info',
                  db_types.JsonEncodedDict(mysql_as_long=True),
                  nullable=True),
        sa.Column('digest', sa.String(64), nullable=False),
        sa.Column('status', sa.String(16), nullable=False),
        _node_fk(),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('uuid', name='uniq_accelerator_devices0uuid'),
        sa.UniqueConstraint('node_id', 'pci_address',
                            name='uniq_accelerator_devices0node0address'),
        **_MYSQL)

    op.create_table(
        'accelerator_deployables', *_timestamps(),
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('uuid', sa.String(36), nullable=False),
        sa.Column('node_id', sa.Integer(), nullable=False),
        sa.Column('device_id', sa.Integer(), nullable=False),
        sa.Column('key', sa.String(64), nullable=False),
        sa.Column('parent_uuid', sa.String(36), nullable=True),
        sa.Column('root_uuid', sa.String(36), nullable=True),
        sa.Column('kind', sa.String(16), nullable=False),
        sa.Column('name', sa.String(255), nullable=False),
        sa.Column('num_accelerators', sa.Integer(), nullable=False),
        sa.Column('driver_name', sa.String(64), nullable=False),
        sa.Column('resource_class', sa.String(255), nullable=False),
        sa.Column('region_type_uuid', sa.String(36), nullable=True),
        sa.Column('partial_reconfiguration', sa.Boolean(), nullable=True),
        sa.Column('function_uuid', sa.String(36), nullable=True),
        sa.Column('function_name', sa.String(255), nullable=True),
        sa.Column('bitstream_id', sa.String(255), nullable=True),
        sa.Column('needs_clean', sa.Boolean(), nullable=False),
        _node_fk(),
        sa.ForeignKeyConstraint(['device_id'], ['accelerator_devices.id']),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('uuid', name='uniq_accelerator_deployables0uuid'),
        **_MYSQL)
    op.create_index('accelerator_deployables_device_idx',
                    'accelerator_deployables', ['device_id'])

    op.create_table(
        'accelerator_attach_handles', *_timestamps(),
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('uuid', sa.String(36), nullable=False),
        sa.Column('node_id', sa.Integer(), nullable=False),
        sa.Column('device_id', sa.Integer(), nullable=False),
        sa.Column('deployable_id', sa.Integer(), nullable=False),
        sa.Column('pci_address', sa.String(16), nullable=False),
        sa.Column('attach_type', sa.String(16), nullable=False),
        sa.Column('attach_info', db_types.JsonEncodedDict(), nullable=True),
        sa.Column('resource_class', sa.String(255), nullable=False),
        sa.Column('traits', db_types.JsonEncodedList(), nullable=True),
        sa.Column('status', sa.String(16), nullable=False),
        sa.Column('in_use', sa.Boolean(), nullable=False),
        sa.Column('attachment_id', sa.Integer(), nullable=True),
        _node_fk(),
        sa.ForeignKeyConstraint(['device_id'], ['accelerator_devices.id']),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('uuid',
                            name='uniq_accelerator_attach_handles0uuid'),
        sa.UniqueConstraint('node_id', 'pci_address',
                            name='uniq_accelerator_handles0node0address'),
        **_MYSQL)
    op.create_index('accelerator_handles_deployable_idx',
                    'accelerator_attach_handles', ['deployable_id'])

    op.create_table(
        'accelerator_attachments', *_timestamps(),
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('uuid', sa.String(36), nullable=False),
        sa.Column('node_id', sa.Integer(), nullable=False),
        sa.Column('instance_uuid', sa.String(36), nullable=False),
        sa.Column('instance_name', sa.String(255), nullable=True),
        sa.Column('project_id', sa.String(255), nullable=True),
        sa.Column('request_index', sa.Integer(), nullable=False),
        sa.Column('deployable_id', sa.Integer(), nullable=True),
        sa.Column('attach_handle_id', sa.Integer(), nullable=True),
        sa.Column('bitstream_id', sa.String(255), nullable=True),
        sa.Column('state', sa.String(16), nullable=False),
        sa.Column('conductor', sa.String(255), nullable=True),
        sa.Column('deadline', sa.DateTime(), nullable=True),
        sa.Column('last_error', sa.Text(), nullable=True),
        _node_fk(),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('uuid',
                            name='uniq_accelerator_attachments0uuid'),
        **_MYSQL)
    op.create_index('accelerator_attachments_instance_idx',
                    'accelerator_attachments', ['instance_uuid'])
    op.create_index('accelerator_attachments_node_state_idx',
                    'accelerator_attachments', ['node_id', 'state'])

    op.create_table(
        'accelerator_traits', *_timestamps(),
        sa.Column('node_id', sa.Integer(), nullable=False),
        sa.Column('name', sa.String(255), nullable=False),
        sa.Column('kind', sa.String(16), nullable=False),
        sa.Column('total', sa.Integer(), nullable=False),
        sa.Column('free', sa.Integer(), nullable=False),
        _node_fk(),
        sa.PrimaryKeyConstraint('node_id', 'name'),
        **_MYSQL)
    op.create_index('accelerator_traits_name_idx', 'accelerator_traits',
                    ['name', 'free'])
