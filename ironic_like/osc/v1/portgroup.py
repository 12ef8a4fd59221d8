"""``openstack baremetal port group ...``

Port groups came in 1.23 (below it every path is 404, so the commands say
which version is needed instead); their ``mode`` and ``properties`` in
1.26.
"""

from osc_lib.command import command
from osc_lib import exceptions as osc_exc

from ironic_like.osc import client as http
from ironic_like.osc import common
from ironic_like.osc.v1 import base

PORTGROUP = base.Resource('portgroup', 'portgroups',
                          'Name or UUID of the port group.',
                          'Names or UUIDs of the port groups.')

_REQUIRES = (http.PORTGROUPS, 'Port group commands')
_MODE = (http.PORTGROUP_MODE, '--mode and --property')

SHORT_FIELDS = ['uuid', 'address', 'name']
# dynamic_portgroup (API 1.111) is read-only: shown, never set.
LONG_FIELDS = ['uuid', 'address', 'created_at', 'extra',
               'standalone_ports_supported', 'node_uuid', 'name',
               'updated_at', 'internal_info', 'mode', 'properties',
               'physical_network', 'category', 'dynamic_portgroup']

# Fields of create and set besides the node (given by name or UUID) and
# standalone_ports_supported (a pair of flags).
_FIELDS = {'address': common.VALUE, 'name': common.VALUE,
           'mode': common.VALUE, 'extra': common.DICT,
           'properties': common.DICT, 'physical_network': common.VALUE,
           'category': common.VALUE}
# Fields of create, set and unset newer than port groups: (option dest,
# the API version that brought the field, the option).
_VERSIONED = (
    ('physical_network', http.PORTGROUP_PHYSICAL_NETWORK,
     '--physical-network'),
    ('category', http.PORTGROUP_CATEGORY, '--category'),
)


def portgroup_uuid(client, ident):
    """UUID of a port group given by name or UUID: a port's
    ``portgroup_uuid`` takes a UUID only."""
    if common.is_uuid(ident):
        return ident
    portgroup = client.get(PORTGROUP.path(ident), {'fields': 'uuid'})
    return portgroup['uuid']


def _uses_mode(parsed_args):
    return (getattr(parsed_args, 'mode', None) is not None
            or bool(getattr(parsed_args, 'properties', None)))


def _require_fields(client, parsed_args):
    """Fail with the version needed unless the request version has the
    fields create or set gives (before the node's lookup, a request)."""
    if _uses_mode(parsed_args):
        client.require(*_MODE)
    common.require_options(client, parsed_args, _VERSIONED)


def _add_standalone_options(parser):
    standalone = parser.add_mutually_exclusive_group()
    standalone.add_argument(
        '--support-standalone-ports', dest='standalone_ports_supported',
        action='store_true', default=None,
        help='Ports of the group may also be used on their own.')
    standalone.add_argument(
        '--unsupport-standalone-ports', dest='standalone_ports_supported',
        action='store_false',
        help='Ports of the group may only be used through the group.')


def _add_field_options(parser, verb):
    parser.add_argument('--address', metavar='<mac-address>',
                        help='%s the MAC address of the port group.' % verb)
    parser.add_argument('--name', metavar='<name>',
                        help='%s the name of the port group.' % verb)
    parser.add_argument('--extra', metavar='<key=value>', action='append',
                        help='%s an extra value (repeatable).' % verb)
    parser.add_argument('--mode', metavar='<mode>',
                        help='%s the bonding mode, e.g. active-backup or '
                             '802.3ad (API 1.26).' % verb)
    parser.add_argument('--property', dest='properties',
                        metavar='<key=value>', action='append',
                        help='%s a property of the bond, e.g. '
                             'miimon=100 (repeatable; API 1.26).' % verb)
    _add_standalone_options(parser)
    parser.add_argument('--physical-network', metavar='<physical network>',
                        help='%s the physical network the ports of the '
                             'group are connected to (at most 64 '
                             'characters; API 1.102).' % verb)
    parser.add_argument('--category', metavar='<category>',
                        help='%s the category of the port group (at most '
                             '80 characters; API 1.103).' % verb)


class CreatePortGroup(common.BaremetalMixin, command.ShowOne):
    """Create a port group of a node."""

    REQUIRES = _REQUIRES

    def get_parser(self, prog_name):
        parser = super().get_parser(prog_name)
        parser.add_argument('--node', required=True, metavar='<node>',
                            help='Name or UUID of the port group\'s node.')
        _add_field_options(parser, 'Set')
        parser.add_argument('--uuid', metavar='<uuid>',
                            help='UUID of the port group (default: '
                                 'generated).')
        return parser

    def take_action(self, parsed_args):
        body = common.body_fields(parsed_args, _FIELDS)
        self.check_version()
        _require_fields(self.client, parsed_args)
        body['node_uuid'] = self.node_uuid(parsed_args.node)
        # An empty --uuid means "generate one", as no --uuid does.
        if parsed_args.uuid:
            body['uuid'] = parsed_args.uuid
        if parsed_args.standalone_ports_supported is not None:
            body['standalone_ports_supported'] = (
                parsed_args.standalone_ports_supported)
        return common.show(self.client.post('portgroups', body))


class ListPortGroup(base.ListCommand):
    """List port groups."""

    RESOURCE = PORTGROUP
    REQUIRES = _REQUIRES
    SHORT_FIELDS = SHORT_FIELDS
    LONG_FIELDS = LONG_FIELDS
    FILTERS = ('node', 'address', 'marker')

    def add_filter_options(self, parser):
        # The API refuses both filters at once (400): say so before asking.
        which = parser.add_mutually_exclusive_group()
        which.add_argument('--node', metavar='<node>',
                           help='Only the port groups of this node (name '
                                'or UUID).')
        which.add_argument('--address', metavar='<mac-address>',
                           help='Only the port group with this MAC '
                                'address.')
        common.add_conductor_groups_option(parser, 'port groups',
                                           '--node or --address')
        parser.add_argument('--shards', metavar='<shard>', nargs='+',
                            help='Only the port groups of the nodes of '
                                 'these shards (not with --node, --address '
                                 'or --conductor-group; API 1.106).')

    def query_params(self, parsed_args):
        params = common.with_conductor_groups(
            self.client, super().query_params(parsed_args),
            parsed_args.conductor_groups)
        if parsed_args.shards:
            self.client.require(http.PORTGROUP_SHARD, '--shards')
            params['shard'] = ','.join(parsed_args.shards)
        return params


class ShowPortGroup(base.ShowCommand):
    """Show a port group."""

    RESOURCE = PORTGROUP
    REQUIRES = _REQUIRES

    def add_ident_argument(self, parser):
        parser.add_argument('portgroup', metavar='<id>',
                            help='Name or UUID of the port group (or its '
                                 'MAC address with --address).')
        parser.add_argument('--address', dest='by_address',
                            action='store_true', default=False,
                            help='<id> is the MAC address of the port '
                                 'group.')

    def fetch(self, parsed_args, fields):
        if not parsed_args.by_address:
            return super().fetch(parsed_args, fields)
        # No path takes an address: the list filtered by it has the group.
        params = {'address': parsed_args.portgroup}
        path = 'portgroups/detail'
        if fields:
            params['fields'] = ','.join(fields)
            path = 'portgroups'
        portgroups = self.client.get(path, params).get('portgroups') or []
        if not portgroups:
            raise osc_exc.CommandError(
                'Port group with address %s could not be found.'
                % parsed_args.portgroup)
        return portgroups[0]


class SetPortGroup(base.SetCommand):
    """Set port group fields."""

    RESOURCE = PORTGROUP
    REQUIRES = _REQUIRES
    FIELDS = dict(_FIELDS, standalone_ports_supported=common.VALUE)

    def get_parser(self, prog_name):
        parser = super().get_parser(prog_name)
        parser.add_argument('--node', metavar='<node>',
                            help='Move the port group to this node (name '
                                 'or UUID; refused while it has ports).')
        _add_field_options(parser, 'Set')
        return parser

    def build_patch(self, parsed_args):
        _require_fields(self.client, parsed_args)
        patch = []
        if parsed_args.node is not None:
            patch.append(common.add_op(
                '/node_uuid', self.node_uuid(parsed_args.node)))
        return patch + super().build_patch(parsed_args)


class UnsetPortGroup(base.UnsetCommand):
    """Unset port group fields."""

    RESOURCE = PORTGROUP
    REQUIRES = _REQUIRES
    FIELDS = {'name': common.VALUE, 'address': common.VALUE,
              'extra': common.DICT, 'properties': common.DICT,
              'physical_network': common.VALUE, 'category': common.VALUE}

    def get_parser(self, prog_name):
        parser = super().get_parser(prog_name)
        parser.add_argument('--name', action='store_true',
                            help='Unset the name.')
        parser.add_argument('--address', action='store_true',
                            help='Unset the MAC address.')
        parser.add_argument('--extra', metavar='<key>', action='append',
                            help='Remove this extra value (repeatable).')
        parser.add_argument('--property', dest='properties',
                            metavar='<key>', action='append',
                            help='Remove this property (repeatable; API '
                                 '1.26).')
        parser.add_argument('--physical-network', action='store_true',
                            help='Unset the physical network (API 1.102).')
        parser.add_argument('--category', action='store_true',
                            help='Unset the category (API 1.103).')
        return parser

    def patch_params(self, parsed_args):
        if parsed_args.properties:
            self.client.require(http.PORTGROUP_MODE, '--property')
        common.require_options(self.client, parsed_args, _VERSIONED,
                               remove=True)
        return None


class DeletePortGroup(base.DeleteCommand):
    """Delete port groups (a group that still has ports is refused)."""

    RESOURCE = PORTGROUP
    REQUIRES = _REQUIRES

    def take_action(self, parsed_args):
        # As the base class, but the messages name a "port group" as the
        # commands do (the resource's name is an identifier).
        self.check_version()
        common.delete_each(
            parsed_args.portgroups,
            lambda ident: self.client.delete(PORTGROUP.path(ident)),
            'port group', out=self.app.stdout)
