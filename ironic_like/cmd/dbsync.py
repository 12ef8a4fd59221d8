"""ironic-like-dbsync: create or upgrade the database schema."""

import sys

from oslo_config import cfg

from ironic_like.common import service
from ironic_like.conf import CONF
from ironic_like.db import migration


def _upgrade():
    migration.upgrade(CONF.command.revision)
    print('Database upgraded to %s' % migration.version())


def _version():
    print(migration.version())


def _create_schema():
    migration.create_schema()
    print('Schema created at revision %s' % migration.version())


def _add_commands(subparsers):
    parser = subparsers.add_parser(
        'upgrade', help='Apply migrations up to a revision (default head).')
    parser.add_argument('--revision', default='head')
    parser.set_defaults(func=_upgrade)
    parser = subparsers.add_parser(
        'version', help='Print the revision the database is at.')
    parser.set_defaults(func=_version)
    parser = subparsers.add_parser(
        'create_schema',
        help='Create all tables at once on an empty database (faster than '
             'upgrade for a new installation).')
    parser.set_defaults(func=_create_schema)


command_opt = cfg.SubCommandOpt('command', title='Command',
                                help='Available commands',
                                handler=_add_commands)


def main():
    CONF.register_cli_opt(command_opt)
    service.prepare_service(sys.argv[1:])
    try:
        CONF.command.func()
    except RuntimeError as e:
        sys.exit('ERROR: %s' % e)
