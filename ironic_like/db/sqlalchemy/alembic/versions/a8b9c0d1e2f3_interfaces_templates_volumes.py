"""The node's other Ironic interfaces, console, RAID and inspection
columns; the
port's internal_info and is_smartnic; BIOS settings; deploy templates and
their steps; volume connectors and targets.

Revision ID: a8b9c0d1e2f3
Revises: f7a8b9c0d1e2
Create Date: 2026-11-23
"""

from alembic import op
from oslo_db.sqlalchemy import types as db_types
import sqlalchemy as sa

revision = 'a8b9c0d1e2f3'
down_revision = 'f7a8b9c0d1e2'

_MYSQL = {'mysql_charset': 'utf8mb4', 'mysql_engine': 'InnoDB'}

# The interfaces Ironic has beyond power, management, deploy and boot.
NEW_INTERFACES = ('bios', 'console', 'inspect', 'network', 'raid',
                  'rescue', 'storage', 'vendor')


def _timestamps():
    return [sa.Column('created_at', sa.DateTime(), nullable=True),
            sa.Column('updated_at', sa.DateTime(), nullable=True)]


def upgrade():
    with op.batch_alter_table('nodes') as batch:
        for kind in NEW_INTERFACES:
            batch.add_column(sa.Column('%s_interface' % kind,
                                       sa.String(255), nullable=True))
        batch.add_column(sa.Column('console_enabled', sa.Boolean(),
                                   nullable=False,
                                   server_default=sa.false()))
        batch.add_column(sa.Column('raid_config', db_types.JsonEncodedDict(),
                                   nullable=True))
        batch.add_column(sa.Column('target_raid_config',
                                   db_types.JsonEncodedDict(),
                                   nullable=True))
        batch.add_column(sa.Column('inspection_started_at', sa.DateTime(),
                                   nullable=True))
        batch.add_column(sa.Column('inspection_finished_at', sa.DateTime(),
                                   nullable=True))

    with op.batch_alter_table('ports') as batch:
        batch.add_column(sa.Column('internal_info',
                                   db_types.JsonEncodedDict(),
                                   nullable=True))
        batch.add_column(sa.Column('is_smartnic', sa.Boolean(),
                                   nullable=False,
                                   server_default=sa.false()))

    op.create_table(
        'bios_settings', *_timestamps(),
        sa.Column('node_id', sa.Integer(), nullable=False),
        sa.Column('name', sa.String(255), nullable=False),
        sa.Column('value', sa.Text(), nullable=True),
        sa.ForeignKeyConstraint(['node_id'], ['nodes.id']),
        sa.PrimaryKeyConstraint('node_id', 'name'),
        **_MYSQL)

    op.create_table(
        'deploy_templates', *_timestamps(),
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('uuid', sa.String(36), nullable=False),
        sa.Column('name', sa.String(255), nullable=False),
        sa.Column('extra', db_types.JsonEncodedDict(), nullable=True),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('uuid', name='uniq_deploy_templates0uuid'),
        sa.UniqueConstraint('name', name='uniq_deploy_templates0name'),
        **_MYSQL)

    op.create_table(
        'deploy_template_steps', *_timestamps(),
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('deploy_template_id', sa.Integer(), nullable=False),
        sa.Column('interface', sa.String(255), nullable=False),
        sa.Column('step', sa.String(255), nullable=False),
        sa.Column('args', db_types.JsonEncodedDict(), nullable=False),
        sa.Column('priority', sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(['deploy_template_id'],
                                ['deploy_templates.id']),
        sa.PrimaryKeyConstraint('id'),
        **_MYSQL)
    op.create_index('deploy_template_steps_template_id_idx',
                    'deploy_template_steps', ['deploy_template_id'])

    op.create_table(
        'volume_connectors', *_timestamps(),
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('uuid', sa.String(36), nullable=False),
        sa.Column('node_id', sa.Integer(), nullable=False),
        sa.Column('type', sa.String(32), nullable=False),
        sa.Column('connector_id', sa.String(255), nullable=False),
        sa.Column('extra', db_types.JsonEncodedDict(), nullable=True),
        sa.ForeignKeyConstraint(['node_id'], ['nodes.id']),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('uuid', name='uniq_volumeconnectors0uuid'),
        sa.UniqueConstraint('type', 'connector_id',
                            name='uniq_volumeconnectors0type0connector_id'),
        **_MYSQL)
    op.create_index('volume_connectors_node_id_idx', 'volume_connectors',
                    ['node_id'])

    op.create_table(
        'volume_targets', *_timestamps(),
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('uuid', sa.String(36), nullable=False),
        sa.Column('node_id', sa.Integer(), nullable=False),
        sa.Column('volume_type', sa.String(64), nullable=False),
        sa.Column('properties', db_types.JsonEncodedDict(), nullable=True),
        sa.Column('boot_index', sa.Integer(), nullable=False),
        sa.Column('volume_id', sa.String(36), nullable=False),
        sa.Column('extra', db_types.JsonEncodedDict(), nullable=True),
        sa.ForeignKeyConstraint(['node_id'], ['nodes.id']),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('uuid', name='uniq_volumetargets0uuid'),
        sa.UniqueConstraint('node_id', 'boot_index',
                            name='uniq_volumetargets0node_id0boot_index'),
        **_MYSQL)
    op.create_index('volume_targets_node_id_idx', 'volume_targets',
                    ['node_id'])
