"""``openstack baremetal port ...``"""

from osc_lib.command import command
from osc_lib import exceptions as osc_exc

from ironic_like.osc import client as http
from ironic_like.osc import common
from ironic_like.osc.v1 import base
from ironic_like.osc.v1 import portgroup as portgroup_cmds

PORT = base.Resource('port', 'ports', 'UUID (or name, API 1.88) of the '
                     'port.', 'UUIDs (or names) of the ports.')

SHORT_FIELDS = ['uuid', 'address']
LONG_FIELDS = ['uuid', 'address', 'name', 'description', 'node_uuid',
               'pxe_enabled', 'physical_network', 'vendor', 'category',
               'local_link_connection', 'extra', 'portgroup_uuid',
               'available_for_dynamic_portgroup', 'internal_info',
               'created_at', 'updated_at']
# available_for_dynamic_portgroup (API 1.111) is only shown: the
# python-ironicclient 6.3.0 these commands follow has no option for it.

# Fields of create and set besides the node (given by name or UUID).
_FIELDS = {'address': common.VALUE, 'physical_network': common.VALUE,
           'pxe_enabled': common.VALUE, 'extra': common.DICT,
           'local_link_connection': common.STR_DICT, 'name': common.VALUE,
           'description': common.VALUE, 'vendor': common.VALUE,
           'category': common.VALUE}
# Fields of create, set and unset newer than ports: (option dest, the
# API version that brought the field, the option).
_VERSIONED = (('name', http.PORT_NAME, '--name'),
              ('description', http.PORT_DESCRIPTION, '--description'),
              ('vendor', http.PORT_VENDOR, '--vendor'),
              ('category', http.PORT_CATEGORY, '--category'))

_PORT_GROUP = (http.PORT_PORTGROUP, '--port-group')


def _add_port_group_option(parser, help_text):
    parser.add_argument('--port-group', dest='portgroup',
                        metavar='<port group>', help=help_text)


def _add_newer_field_options(parser, verb):
    """--description (API 1.97), --vendor (1.100), --category (1.101)
    of create (``verb`` "The") and set (``verb`` "Set the")."""
    parser.add_argument('--description', metavar='<description>',
                        help='%s description of the port (at most 255 '
                             'characters; API 1.97).' % verb)
    parser.add_argument('--vendor', metavar='<vendor>',
                        help='%s vendor of the port (at most 32 '
                             'characters; API 1.100).' % verb)
    parser.add_argument('--category', metavar='<category>',
                        help='%s category of the port (at most 80 '
                             'characters; API 1.101).' % verb)


class _PortGroupMixin(object):
    """--port-group of create and set: a port group given by name or
    UUID, sent as the port's portgroup_uuid (1.24)."""

    def portgroup_uuid(self, parsed_args):
        self.client.require(*_PORT_GROUP)
        return portgroup_cmds.portgroup_uuid(self.client,
                                             parsed_args.portgroup)


class CreatePort(_PortGroupMixin, common.BaremetalMixin,
                 command.ShowOne):
    """Create a port of a node."""

    def get_parser(self, prog_name):
        parser = super().get_parser(prog_name)
        parser.add_argument('address', metavar='<address>',
                            help='MAC address of the port.')
        parser.add_argument('--node', dest='node', required=True,
                            metavar='<node>',
                            help='Name or UUID of the port\'s node.')
        parser.add_argument('--uuid', metavar='<uuid>',
                            help='UUID of the port (default: generated).')
        parser.add_argument('--name', metavar='<name>',
                            help='Unique name of the port (API 1.88).')
        parser.add_argument('--extra', metavar='<key=value>',
                            action='append',
                            help='Extra value (repeatable).')
        parser.add_argument('--local-link-connection',
                            metavar='<key=value>', action='append',
                            help='Switch port of the NIC: switch_id, '
                                 'port_id, switch_info (repeatable).')
        parser.add_argument('--pxe-enabled', metavar='<boolean>',
                            type=common.bool_arg,
                            help='Whether the node boots from this port '
                                 '(true or false).')
        parser.add_argument('--physical-network', metavar='<network>',
                            help='Physical network of the port.')
        _add_port_group_option(parser, 'Name or UUID of the port group '
                                       'of the port (API 1.24).')
        _add_newer_field_options(parser, 'The')
        return parser

    def take_action(self, parsed_args):
        # Before the node's lookup, a request.
        common.require_options(self.client, parsed_args, _VERSIONED)
        body = {'address': parsed_args.address,
                'node_uuid': self.node_uuid(parsed_args.node)}
        # An empty --uuid means "generate one", as no --uuid does.
        if parsed_args.uuid:
            body['uuid'] = parsed_args.uuid
        body.update(common.body_fields(parsed_args, _FIELDS))
        if parsed_args.portgroup is not None:
            body['portgroup_uuid'] = self.portgroup_uuid(parsed_args)
        port = self.client.post('ports', body)
        return common.show(port)


class ListPort(base.ListCommand):
    """List ports."""

    RESOURCE = PORT
    SHORT_FIELDS = SHORT_FIELDS
    LONG_FIELDS = LONG_FIELDS
    FILTERS = ('node', 'address', 'portgroup', 'description_contains',
               'marker')

    def add_filter_options(self, parser):
        parser.add_argument('--node', metavar='<node>',
                            help='Only the ports of this node (name or '
                                 'UUID).')
        parser.add_argument('--address', metavar='<address>',
                            help='Only the port with this MAC address.')
        _add_port_group_option(parser, 'Only the ports of this port group '
                                       '(name or UUID; API 1.24).')
        parser.add_argument('--shards', metavar='<shard>', nargs='+',
                            help='Only the ports of the nodes of these '
                                 'shards (not with --node or --port-group; '
                                 'API 1.82).')
        common.add_conductor_groups_option(
            parser, 'ports', '--node, --address or --port-group')
        parser.add_argument('--description-contains', metavar='<text>',
                            help='Only the ports whose description '
                                 'contains this text (API 1.97).')

    def query_params(self, parsed_args):
        if parsed_args.portgroup is not None:
            self.client.require(*_PORT_GROUP)
        if parsed_args.description_contains is not None:
            self.client.require(http.PORT_DESCRIPTION,
                                '--description-contains')
        params = common.with_shards(self.client,
                                    super().query_params(parsed_args),
                                    parsed_args.shards)
        return common.with_conductor_groups(self.client, params,
                                            parsed_args.conductor_groups)


class ShowPort(base.ShowCommand):
    """Show a port."""

    RESOURCE = PORT

    def add_ident_argument(self, parser):
        parser.add_argument('port', metavar='<id>',
                            help='UUID of the port (or its MAC address '
                                 'with --address).')
        parser.add_argument('--address', dest='by_address',
                            action='store_true', default=False,
                            help='<id> is the MAC address of the port.')

    def fetch(self, parsed_args, fields):
        if not parsed_args.by_address:
            return super().fetch(parsed_args, fields)
        params = {'address': parsed_args.port}
        path = 'ports/detail'
        if fields:
            params['fields'] = ','.join(fields)
            path = 'ports'
        ports = self.client.get(path, params).get('ports') or []
        if not ports:
            raise osc_exc.CommandError(
                'Port with address %s could not be found.'
                % parsed_args.port)
        return ports[0]


class SetPort(_PortGroupMixin, base.SetCommand):
    """Set port fields."""

    RESOURCE = PORT
    FIELDS = _FIELDS

    def get_parser(self, prog_name):
        parser = super().get_parser(prog_name)
        parser.add_argument('--node', metavar='<node>',
                            help='Move the port to this node (name or '
                                 'UUID).')
        parser.add_argument('--address', metavar='<address>',
                            help='New MAC address.')
        parser.add_argument('--name', metavar='<name>',
                            help='New unique name (API 1.88).')
        parser.add_argument('--extra', metavar='<key=value>',
                            action='append',
                            help='Set an extra value (repeatable).')
        parser.add_argument('--local-link-connection',
                            metavar='<key=value>', action='append',
                            help='Set a local_link_connection value '
                                 '(repeatable).')
        parser.add_argument('--physical-network', metavar='<network>',
                            help='Set the physical network.')
        pxe = parser.add_mutually_exclusive_group()
        pxe.add_argument('--pxe-enabled', metavar='<boolean>',
                         type=common.bool_arg, nargs='?', const=True,
                         default=None,
                         help='Boot from this port (optionally true or '
                              'false).')
        pxe.add_argument('--pxe-disabled', dest='pxe_enabled',
                         action='store_false',
                         help='Do not boot from this port.')
        _add_port_group_option(parser, 'Put the port in this port group '
                                       '(name or UUID; API 1.24).')
        _add_newer_field_options(parser, 'Set the')
        return parser

    def build_patch(self, parsed_args):
        # Before the lookups of the node and the port group, requests.
        common.require_options(self.client, parsed_args, _VERSIONED)
        patch = []
        if parsed_args.node is not None:
            patch.append(common.add_op(
                '/node_uuid', self.node_uuid(parsed_args.node)))
        patch += super().build_patch(parsed_args)
        if parsed_args.portgroup is not None:
            patch.append(common.add_op('/portgroup_uuid',
                                       self.portgroup_uuid(parsed_args)))
        return patch


class UnsetPort(base.UnsetCommand):
    """Unset port fields."""

    RESOURCE = PORT
    # The dictionaries first: the order the patch has always had.
    FIELDS = {'extra': common.DICT,
              'local_link_connection': common.STR_DICT,
              'physical_network': common.VALUE,
              'portgroup_uuid': common.VALUE, 'name': common.VALUE,
              'description': common.VALUE, 'vendor': common.VALUE,
              'category': common.VALUE}

    def get_parser(self, prog_name):
        parser = super().get_parser(prog_name)
        parser.add_argument('--extra', metavar='<key>', action='append',
                            help='Remove this extra value (repeatable).')
        parser.add_argument('--local-link-connection', metavar='<key>',
                            action='append',
                            help='Remove this local_link_connection value '
                                 '(repeatable).')
        parser.add_argument('--physical-network', action='store_true',
                            help='Unset the physical network.')
        parser.add_argument('--name', action='store_true',
                            help='Unset the name (API 1.88).')
        parser.add_argument('--port-group', dest='portgroup_uuid',
                            action='store_true',
                            help='Take the port out of its port group '
                                 '(API 1.24).')
        for flag, since in (('description', '1.97'), ('vendor', '1.100'),
                            ('category', '1.101')):
            parser.add_argument('--' + flag, action='store_true',
                                help='Unset the %s (API %s).'
                                     % (flag, since))
        return parser

    def patch_params(self, parsed_args):
        # Called after check_version(), just before the PATCH.
        if parsed_args.portgroup_uuid:
            self.client.require(*_PORT_GROUP)
        common.require_options(self.client, parsed_args, _VERSIONED,
                               remove=True)
        return None


class DeletePort(base.DeleteCommand):
    """Delete ports."""
    RESOURCE = PORT
