"""Initial schema: conductors, nodes, node_traits, ports.

Revision ID: a1b2c3d4e5f6
Revises:
Create Date: 2026-11-21
"""

from alembic import op
from oslo_db.sqlalchemy import types as db_types
import sqlalchemy as sa

revision = 'a1b2c3d4e5f6'
down_revision = None

_MYSQL = {'mysql_charset': 'utf8mb4', 'mysql_engine': 'InnoDB'}


def upgrade():
    op.create_table(
        'conductors',
        sa.Column('created_at', sa.DateTime(), nullable=True),
        sa.Column('updated_at', sa.DateTime(), nullable=True),
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('hostname', sa.String(255), nullable=False),
        sa.Column('conductor_group', sa.String(255), nullable=False,
                  server_default=''),
        sa.Column('online', sa.Boolean(), nullable=False),
        sa.Column('hardware_types', db_types.JsonEncodedList(),
                  nullable=True),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('hostname', name='uniq_conductors0hostname'),
        **_MYSQL)
    op.create_index('conductors_online_group_idx', 'conductors',
                    ['online', 'conductor_group'])

    op.create_table(
        'nodes',
        sa.Column('created_at', sa.DateTime(), nullable=True),
        sa.Column('updated_at', sa.DateTime(), nullable=True),
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('uuid', sa.String(36), nullable=False),
        sa.Column('name', sa.String(255), nullable=True),
        sa.Column('description', sa.Text(), nullable=True),
        sa.Column('driver', sa.String(255), nullable=False),
        sa.Column('driver_info', db_types.JsonEncodedDict(), nullable=True),
        sa.Column('driver_internal_info', db_types.JsonEncodedDict(),
                  nullable=True),
        sa.Column('power_interface', sa.String(255), nullable=True),
        sa.Column('management_interface', sa.String(255), nullable=True),
        sa.Column('deploy_interface', sa.String(255), nullable=True),
        sa.Column('boot_interface', sa.String(255), nullable=True),
        sa.Column('power_state', sa.String(15), nullable=True),
        sa.Column('target_power_state', sa.String(15), nullable=True),
        sa.Column('provision_state', sa.String(15), nullable=True),
        sa.Column('target_provision_state', sa.String(15), nullable=True),
        sa.Column('provision_updated_at', sa.DateTime(), nullable=True),
        sa.Column('maintenance', sa.Boolean(), nullable=False),
        sa.Column('maintenance_reason', sa.Text(), nullable=True),
        sa.Column('reservation', sa.String(255), nullable=True),
        sa.Column('conductor_affinity', sa.String(255), nullable=True),
        sa.Column('conductor_group', sa.String(255), nullable=False,
                  server_default=''),
        sa.Column('resource_class', sa.String(80), nullable=True),
        sa.Column('instance_uuid', sa.String(36), nullable=True),
        sa.Column('instance_info',
                  db_types.JsonEncodedDict(mysql_as_long=True),
                  nullable=True),
        sa.Column('properties', db_types.JsonEncodedDict(), nullable=True),
        sa.Column('extra', db_types.JsonEncodedDict(), nullable=True),
        sa.Column('labels', db_types.JsonEncodedDict(), nullable=True),
        sa.Column('owner', sa.String(255), nullable=True),
        sa.Column('lessee', sa.String(255), nullable=True),
        sa.Column('last_error', sa.Text(), nullable=True),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('uuid', name='uniq_nodes0uuid'),
        sa.UniqueConstraint('name', name='uniq_nodes0name'),
        sa.UniqueConstraint('instance_uuid',
                            name='uniq_nodes0instance_uuid'),
        **_MYSQL)
    for column in ('provision_state', 'driver', 'resource_class',
                   'conductor_group', 'maintenance', 'reservation',
                   'conductor_affinity', 'owner'):
        op.create_index('nodes_%s_idx' % column, 'nodes', [column])

    op.create_table(
        'node_traits',
        sa.Column('created_at', sa.DateTime(), nullable=True),
        sa.Column('updated_at', sa.DateTime(), nullable=True),
        sa.Column('node_id', sa.Integer(), nullable=False),
        sa.Column('trait', sa.String(255), nullable=False),
        sa.ForeignKeyConstraint(['node_id'], ['nodes.id']),
        sa.PrimaryKeyConstraint('node_id', 'trait'),
        **_MYSQL)
    op.create_index('node_traits_idx', 'node_traits', ['trait'])

    op.create_table(
        'ports',
        sa.Column('created_at', sa.DateTime(), nullable=True),
        sa.Column('updated_at', sa.DateTime(), nullable=True),
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('uuid', sa.String(36), nullable=False),
        sa.Column('address', sa.String(18), nullable=False),
        sa.Column('node_id', sa.Integer(), nullable=False),
        sa.Column('extra', db_types.JsonEncodedDict(), nullable=True),
        sa.Column('local_link_connection', db_types.JsonEncodedDict(),
                  nullable=True),
        sa.Column('physical_network', sa.String(64), nullable=True),
        sa.Column('pxe_enabled', sa.Boolean(), nullable=False),
        sa.ForeignKeyConstraint(['node_id'], ['nodes.id']),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('uuid', name='uniq_ports0uuid'),
        sa.UniqueConstraint('address', name='uniq_ports0address'),
        **_MYSQL)
    op.create_index('ports_node_id_idx', 'ports', ['node_id'])
