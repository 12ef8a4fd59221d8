"""``openstack baremetal volume connector ...`` and ``volume target ...``
(API 1.32)."""

from osc_lib.command import command

from ironic_like.osc import client as http
from ironic_like.osc import common
from ironic_like.osc.v1 import base

CONNECTOR = base.Resource('volume connector', 'volume/connectors',
                          'UUID of the volume connector.',
                          'UUIDs of the volume connectors.',
                          key='connectors')
TARGET = base.Resource('volume target', 'volume/targets',
                       'UUID of the volume target.',
                       'UUIDs of the volume targets.', key='targets')

CONNECTOR_TYPES = ('iqn', 'ip', 'mac', 'wwnn', 'wwpn', 'port', 'portgroup')

CONNECTOR_SHORT_FIELDS = ['uuid', 'node_uuid', 'type', 'connector_id']
CONNECTOR_LONG_FIELDS = CONNECTOR_SHORT_FIELDS + ['extra', 'created_at',
                                                  'updated_at']
TARGET_SHORT_FIELDS = ['uuid', 'node_uuid', 'volume_type', 'boot_index',
                       'volume_id']
TARGET_LONG_FIELDS = TARGET_SHORT_FIELDS + ['properties', 'extra',
                                            'created_at', 'updated_at']

_CONNECTOR_FIELDS = {'type': common.VALUE, 'connector_id': common.VALUE,
                     'extra': common.DICT}
_TARGET_FIELDS = {'volume_type': common.VALUE, 'boot_index': common.VALUE,
                  'volume_id': common.VALUE, 'properties': common.DICT,
                  'extra': common.DICT}

_REQUIRES = (http.VOLUMES, 'Volume connector and target commands')


def _add_node_option(parser, help_text, required=False):
    parser.add_argument('--node', dest='node', metavar='<node>',
                        required=required, help=help_text)


class _Create(common.BaremetalMixin, command.ShowOne):

    RESOURCE = None
    FIELDS = {}
    REQUIRES = _REQUIRES

    def take_action(self, parsed_args):
        body = common.body_fields(parsed_args, self.FIELDS)
        self.check_version()
        body['node_uuid'] = self.node_uuid(parsed_args.node)
        # An empty --uuid means "generate one", as no --uuid does.
        if parsed_args.uuid:
            body['uuid'] = parsed_args.uuid
        return common.show(self.client.post(self.RESOURCE.collection, body))


class _List(base.ListCommand):

    REQUIRES = _REQUIRES
    LONG = base.DETAIL_PARAM
    FILTERS = ('node', 'marker')

    def add_filter_options(self, parser):
        _add_node_option(parser, 'Only the %ss of this node (name or '
                                 'UUID).' % self.RESOURCE.name)


class _Set(base.SetCommand):

    REQUIRES = _REQUIRES

    def build_patch(self, parsed_args):
        patch = []
        if parsed_args.node is not None:
            patch.append(common.add_op(
                '/node_uuid', self.node_uuid(parsed_args.node)))
        return patch + super().build_patch(parsed_args)

    def take_action(self, parsed_args):
        # The version first: build_patch may ask the server for a node.
        self.check_version()
        return super().take_action(parsed_args)


# -- connectors -------------------------------------------------------------

class CreateVolumeConnector(_Create):
    """Create a volume connector of a node."""

    RESOURCE = CONNECTOR
    FIELDS = _CONNECTOR_FIELDS

    def get_parser(self, prog_name):
        parser = super().get_parser(prog_name)
        _add_node_option(parser, 'Node of the connector (name or UUID).',
                         required=True)
        parser.add_argument('--type', dest='type', metavar='<type>',
                            required=True, choices=CONNECTOR_TYPES,
                            help='Type of the connector: one of %s.'
                                 % ', '.join(CONNECTOR_TYPES))
        parser.add_argument('--connector-id', metavar='<connector id>',
                            required=True,
                            help='ID of the connector (e.g. an IQN).')
        parser.add_argument('--uuid', metavar='<uuid>',
                            help='UUID of the connector (default: '
                                 'generated).')
        parser.add_argument('--extra', metavar='<key=value>',
                            action='append',
                            help='Extra value (repeatable).')
        return parser


class ListVolumeConnector(_List):
    """List volume connectors."""

    RESOURCE = CONNECTOR
    SHORT_FIELDS = CONNECTOR_SHORT_FIELDS
    LONG_FIELDS = CONNECTOR_LONG_FIELDS


class ShowVolumeConnector(base.ShowCommand):
    """Show a volume connector."""

    RESOURCE = CONNECTOR
    REQUIRES = _REQUIRES


class SetVolumeConnector(_Set):
    """Set volume connector fields."""

    RESOURCE = CONNECTOR
    FIELDS = _CONNECTOR_FIELDS

    def get_parser(self, prog_name):
        parser = super().get_parser(prog_name)
        _add_node_option(parser, 'Move the connector to this node (name '
                                 'or UUID).')
        parser.add_argument('--type', dest='type', metavar='<type>',
                            choices=CONNECTOR_TYPES,
                            help='Set the type: one of %s.'
                                 % ', '.join(CONNECTOR_TYPES))
        parser.add_argument('--connector-id', metavar='<connector id>',
                            help='Set the ID of the connector.')
        parser.add_argument('--extra', metavar='<key=value>',
                            action='append',
                            help='Set an extra value (repeatable).')
        return parser


class UnsetVolumeConnector(base.UnsetCommand):
    """Unset volume connector fields."""

    RESOURCE = CONNECTOR
    REQUIRES = _REQUIRES
    FIELDS = {'extra': common.DICT}

    def get_parser(self, prog_name):
        parser = super().get_parser(prog_name)
        parser.add_argument('--extra', metavar='<key>', action='append',
                            help='Remove this extra value (repeatable).')
        return parser


class DeleteVolumeConnector(base.DeleteCommand):
    """Delete volume connectors."""

    RESOURCE = CONNECTOR
    REQUIRES = _REQUIRES


# -- targets ----------------------------------------------------------------

class CreateVolumeTarget(_Create):
    """Create a volume target of a node."""

    RESOURCE = TARGET
    FIELDS = _TARGET_FIELDS

    def get_parser(self, prog_name):
        parser = super().get_parser(prog_name)
        _add_node_option(parser, 'Node of the target (name or UUID).',
                         required=True)
        parser.add_argument('--type', dest='volume_type',
                            metavar='<volume type>', required=True,
                            help='Type of the volume, e.g. iscsi or '
                                 'fibre_channel.')
        parser.add_argument('--property', dest='properties',
                            metavar='<key=value>', action='append',
                            help='A property of the target (repeatable).')
        parser.add_argument('--boot-index', metavar='<boot index>',
                            type=int, required=True,
                            help='Boot index of the volume (0: the boot '
                                 'volume).')
        parser.add_argument('--volume-id', metavar='<volume id>',
                            required=True,
                            help='ID of the volume (e.g. its Cinder '
                                 'UUID).')
        parser.add_argument('--uuid', metavar='<uuid>',
                            help='UUID of the target (default: '
                                 'generated).')
        parser.add_argument('--extra', metavar='<key=value>',
                            action='append',
                            help='Extra value (repeatable).')
        return parser


class ListVolumeTarget(_List):
    """List volume targets."""

    RESOURCE = TARGET
    SHORT_FIELDS = TARGET_SHORT_FIELDS
    LONG_FIELDS = TARGET_LONG_FIELDS


class ShowVolumeTarget(base.ShowCommand):
    """Show a volume target."""

    RESOURCE = TARGET
    REQUIRES = _REQUIRES


class SetVolumeTarget(_Set):
    """Set volume target fields."""

    RESOURCE = TARGET
    FIELDS = _TARGET_FIELDS

    def get_parser(self, prog_name):
        parser = super().get_parser(prog_name)
        _add_node_option(parser, 'Move the target to this node (name or '
                                 'UUID).')
        parser.add_argument('--type', dest='volume_type',
                            metavar='<volume type>',
                            help='Set the type of the volume.')
        parser.add_argument('--property', dest='properties',
                            metavar='<key=value>', action='append',
                            help='Set a property (repeatable).')
        parser.add_argument('--boot-index', metavar='<boot index>',
                            type=int, help='Set the boot index.')
        parser.add_argument('--volume-id', metavar='<volume id>',
                            help='Set the ID of the volume.')
        parser.add_argument('--extra', metavar='<key=value>',
                            action='append',
                            help='Set an extra value (repeatable).')
        return parser


class UnsetVolumeTarget(base.UnsetCommand):
    """Unset volume target fields."""

    RESOURCE = TARGET
    REQUIRES = _REQUIRES
    FIELDS = {'properties': common.DICT, 'extra': common.DICT}

    def get_parser(self, prog_name):
        parser = super().get_parser(prog_name)
        parser.add_argument('--extra', metavar='<key>', action='append',
                            help='Remove this extra value (repeatable).')
        parser.add_argument('--property', dest='properties',
                            metavar='<key>', action='append',
                            help='Remove this property (repeatable).')
        return parser


class DeleteVolumeTarget(base.DeleteCommand):
    """Delete volume targets."""

    RESOURCE = TARGET
    REQUIRES = _REQUIRES
