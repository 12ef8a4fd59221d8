"""``openstack baremetal chassis ...``

Chassis are as old as the API (1.1): no command needs a newer version.
"""

from osc_lib.command import command

from ironic_like.osc import common
from ironic_like.osc.v1 import base

CHASSIS = base.Resource('chassis', 'chassis', 'UUID of the chassis.',
                        'UUIDs of the chassis.')

SHORT_FIELDS = ['uuid', 'description']
LONG_FIELDS = ['uuid', 'description', 'created_at', 'updated_at', 'extra']

_FIELDS = {'description': common.VALUE, 'extra': common.DICT}

# A chassis' "nodes" is links to its nodes, not data: left out as the
# other link fields are, unless asked for with --fields. Not in
# common.LINK_FIELDS: other resources have a "nodes" field that is data.
_NODES_LINKS = 'nodes'


class CreateChassis(common.BaremetalMixin, command.ShowOne):
    """Create a chassis."""

    def get_parser(self, prog_name):
        parser = super().get_parser(prog_name)
        parser.add_argument('--description', metavar='<description>',
                            help='Description of the chassis.')
        parser.add_argument('--extra', metavar='<key=value>',
                            action='append',
                            help='Extra value (repeatable).')
        parser.add_argument('--uuid', metavar='<uuid>',
                            help='UUID of the chassis (default: '
                                 'generated).')
        return parser

    def take_action(self, parsed_args):
        body = common.body_fields(parsed_args, _FIELDS)
        # An empty --uuid means "generate one", as no --uuid does.
        if parsed_args.uuid:
            body['uuid'] = parsed_args.uuid
        return common.show(self.client.post('chassis', body))


class ListChassis(base.ListCommand):
    """List chassis."""

    RESOURCE = CHASSIS
    SHORT_FIELDS = SHORT_FIELDS
    LONG_FIELDS = LONG_FIELDS
    FILTERS = ('marker',)

    def take_action(self, parsed_args):
        titles, rows = super().take_action(parsed_args)
        if not parsed_args.long:
            return titles, rows
        keep = [i for i, title in enumerate(titles)
                if title != common.label(_NODES_LINKS)]
        return (tuple(titles[i] for i in keep),
                (tuple(row[i] for i in keep) for row in rows))


class ShowChassis(base.ShowCommand):
    """Show a chassis."""

    RESOURCE = CHASSIS

    def take_action(self, parsed_args):
        self.check_version()
        fields = common.flatten(parsed_args.fields)
        return common.show(self.fetch(parsed_args, fields),
                           drop=common.LINK_FIELDS + (_NODES_LINKS,),
                           keep=fields)


class SetChassis(base.SetCommand):
    """Set chassis fields."""

    RESOURCE = CHASSIS
    FIELDS = _FIELDS

    def get_parser(self, prog_name):
        parser = super().get_parser(prog_name)
        parser.add_argument('--description', metavar='<description>',
                            help='Set the description.')
        parser.add_argument('--extra', metavar='<key=value>',
                            action='append',
                            help='Set an extra value (repeatable).')
        return parser


class UnsetChassis(base.UnsetCommand):
    """Unset chassis fields."""

    RESOURCE = CHASSIS
    FIELDS = _FIELDS

    def get_parser(self, prog_name):
        parser = super().get_parser(prog_name)
        parser.add_argument('--description', action='store_true',
                            help='Unset the description.')
        parser.add_argument('--extra', metavar='<key>', action='append',
                            help='Remove this extra value (repeatable).')
        return parser


class DeleteChassis(base.DeleteCommand):
    """Delete chassis (a chassis that still has nodes is refused)."""
    RESOURCE = CHASSIS
