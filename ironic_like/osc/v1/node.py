"""``openstack baremetal node ...``"""

import json
import logging

from osc_lib.command import command
from osc_lib import exceptions as osc_exc

from ironic_like.osc import client as http
from ironic_like.osc import common
from ironic_like.osc.v1 import base
from ironic_like.osc.v1 import node_fields
from ironic_like.osc.v1 import runbook

LOG = logging.getLogger(__name__)

NODE = base.Resource('node', 'nodes', 'Name or UUID of the node.',
                     'Names or UUIDs of the nodes.')

# Interfaces the service's hardware types have, with the API version that
# brought each node field (None: there from the first version).
INTERFACE_VERSIONS = {
    'bios': http.BIOS, 'boot': None, 'console': http.MORE_INTERFACES,
    'deploy': None, 'firmware': http.FIRMWARE_INTERFACE,
    'inspect': http.MORE_INTERFACES, 'management': None,
    'network': http.NETWORK_INTERFACE, 'power': None,
    'raid': http.MORE_INTERFACES, 'rescue': http.RESCUE,
    'storage': http.STORAGE_INTERFACE, 'vendor': http.MORE_INTERFACES,
}
INTERFACE_KINDS = tuple(sorted(INTERFACE_VERSIONS))

# GET /v1/nodes without --long: Ironic's short form.
SHORT_FIELDS = ['uuid', 'name', 'instance_uuid', 'power_state',
                'provision_state', 'maintenance']
# Column order of --long (fields the server adds come after, by name).
LONG_FIELDS = [
    'uuid', 'name', 'description', 'driver', 'resource_class', 'owner',
    'lessee', 'shard', 'conductor_group', 'conductor', 'chassis_uuid',
    'parent_node', 'instance_uuid', 'instance_name',
    'allocation_uuid', 'power_state', 'target_power_state',
    'provision_state', 'target_provision_state', 'provision_updated_at',
    'maintenance', 'maintenance_reason', 'fault', 'protected',
    'protected_reason', 'retired', 'retired_reason', 'automated_clean',
    'disable_power_off', 'last_error', 'reservation', 'traits',
    'properties', 'extra', 'labels', 'driver_info', 'driver_internal_info',
    'instance_info', 'target_raid_config', 'raid_config',
    'console_enabled', 'boot_mode', 'secure_boot', 'network_data',
] + ['%s_interface' % k for k in INTERFACE_KINDS] + [
    'created_at', 'updated_at',
]

# Fields of create, set and unset (each command has options for some):
# simple ones, then dictionaries (labels are strings, the others JSON).
_FIELDS = dict.fromkeys(
    ['name', 'uuid', 'driver', 'resource_class', 'conductor_group', 'owner',
     'lessee', 'network_data', 'description', 'instance_uuid',
     'instance_name', 'chassis_uuid', 'shard', 'parent_node']
    + ['%s_interface' % k for k in INTERFACE_KINDS], common.VALUE)
_FIELDS.update(properties=common.DICT, extra=common.DICT,
               driver_info=common.DICT, instance_info=common.DICT,
               labels=common.STR_DICT)


# Set and unset patch labels themselves: a label key is one JSON pointer
# token ("example.com/role" is a key, not a path).
_PATCH_FIELDS = {k: v for k, v in _FIELDS.items() if k != 'labels'}

# The flags set and unset change, each with the API version that brought
# it and its option (named when the version is too old).
_FLAGS = (
    ('automated_clean', http.AUTOMATED_CLEAN, '--automated-clean'),
    ('protected', http.PROTECTED, '--protected'),
    ('protected_reason', http.PROTECTED, '--protected-reason'),
    ('retired', http.RETIRED, '--retired'),
    ('retired_reason', http.RETIRED, '--retired-reason'),
    ('disable_power_off', http.DISABLE_POWER_OFF,
     '--disable-power-off/--enable-power-off'),
)
_POWER_OFF_HELP = ('Never power the node off: power off is refused and '
                   'the service reboots it instead (API 1.95).')
_FLAG_PATCH_FIELDS = dict(_PATCH_FIELDS,
                          **dict.fromkeys([f[0] for f in _FLAGS],
                                          common.VALUE))


def _require_flags(client, parsed_args, remove):
    """Fail with the version needed unless the request version has
    every flag the command line changes: an older server would answer
    only that the field is unknown."""
    common.require_options(client, parsed_args, _FLAGS, remove)


def _require_interfaces(client, parsed_args, remove):
    """Fail with the version needed unless the request version has the
    interface fields the command line sets, resets or unsets."""
    for kind in INTERFACE_KINDS:
        feature = INTERFACE_VERSIONS[kind]
        if feature is None:
            continue
        value = getattr(parsed_args, '%s_interface' % kind, None)
        given = (value is True) if remove else (value is not None)
        if given:
            client.require(feature, '--%s-interface' % kind)
        if getattr(parsed_args, 'reset_%s_interface' % kind, None):
            client.require(feature, '--reset-%s-interface' % kind)


def _pointer_token(key):
    return str(key).replace('~', '~0').replace('/', '~1')


def _label_ops(parsed_args, remove):
    if remove:
        return [common.remove_op('/labels/' + _pointer_token(key))
                for key in parsed_args.labels or ()]
    return [common.add_op('/labels/' + _pointer_token(key), value)
            for key, value in common.to_dict(parsed_args.labels,
                                             deserialize=False).items()]


def _add_interface_options(parser, verb, reset=False):
    """--<kind>-interface for every kind (and, with ``reset``, its
    exclusive --reset-<kind>-interface)."""
    for kind in INTERFACE_KINDS:
        feature = INTERFACE_VERSIONS[kind]
        since = (' (API %s)' % http.version_string(feature)
                 if feature else '')
        group = parser.add_mutually_exclusive_group() if reset else parser
        group.add_argument(
            '--%s-interface' % kind, metavar='<%s_interface>' % kind,
            help='%s the %s interface of the node%s.' % (verb, kind, since))
        if reset:
            group.add_argument(
                '--reset-%s-interface' % kind, action='store_true',
                default=None,
                help='Reset the %s interface to the driver\'s default%s.'
                     % (kind, since))


def _add_dict_options(parser, verb):
    parser.add_argument(
        '--property', dest='properties', metavar='<key=value>',
        action='append', help='%s a property (repeatable).' % verb)
    parser.add_argument(
        '--extra', metavar='<key=value>', action='append',
        help='%s an extra value (repeatable).' % verb)
    parser.add_argument(
        '--driver-info', metavar='<key=value>', action='append',
        help='%s a driver_info value (repeatable).' % verb)
    parser.add_argument(
        '--label', dest='labels', metavar='<key=value>', action='append',
        help='%s a label (string values; repeatable).' % verb)


class NodeCommand(base.ResourceCommand, command.Command):
    """A command on one node (the <node> argument)."""
    RESOURCE = NODE


def _network_data(value):
    doc = common.load_json_or_file(value, 'network data')
    if not isinstance(doc, dict):
        raise osc_exc.CommandError('The network data must be a JSON '
                                   'object.')
    return doc


def _add_lessee_network_data(parser, verb):
    parser.add_argument('--lessee', metavar='<lessee>',
                        help='%s lessee (project) of the node (API 1.65).'
                             % verb)
    parser.add_argument('--shard', metavar='<shard>',
                        help='%s shard of the node (API 1.82).' % verb)
    parser.add_argument('--parent-node', metavar='<parent_node>',
                        help='%s parent of the node, by name or UUID (API '
                             '1.83).' % verb)
    parser.add_argument('--network-data', metavar='<network data>',
                        type=_network_data,
                        help='%s network configuration of the instance '
                             '(network_data.json of its config drive; API '
                             '1.66): a JSON string, a file of JSON or '
                             'YAML, or "-" for standard input.' % verb)


class CreateNode(common.BaremetalMixin, command.ShowOne):
    """Register a new node."""

    def get_parser(self, prog_name):
        parser = super().get_parser(prog_name)
        parser.add_argument('--driver', required=True, metavar='<driver>',
                            help='Hardware type of the node.')
        parser.add_argument('--name', metavar='<name>',
                            help='Unique name of the node.')
        parser.add_argument('--uuid', metavar='<uuid>',
                            help='UUID of the node (default: generated).')
        node_fields.add_instance_name(parser, 'The')
        _add_dict_options(parser, 'Set')
        parser.add_argument('--resource-class', metavar='<resource_class>',
                            help='Resource class for scheduling.')
        parser.add_argument('--conductor-group', metavar='<group>',
                            help='Conductor group the node belongs to.')
        parser.add_argument('--owner', metavar='<owner>',
                            help='Owner (project) of the node.')
        _add_lessee_network_data(parser, 'The')
        parser.add_argument('--description', metavar='<description>',
                            help='Description of the node.')
        parser.add_argument('--chassis-uuid', metavar='<chassis>',
                            help='UUID of the chassis of the node.')
        _add_interface_options(parser, 'Set')
        parser.add_argument('--disable-power-off', action='store_true',
                            default=None, help=_POWER_OFF_HELP)
        return parser

    def take_action(self, parsed_args):
        body = common.body_fields(parsed_args, _FIELDS)
        if parsed_args.disable_power_off:
            self.client.require(http.DISABLE_POWER_OFF,
                                '--disable-power-off')
            body['disable_power_off'] = True
        _require_interfaces(self.client, parsed_args, remove=False)
        node_fields.require(self.client, parsed_args)
        node = self.client.post('nodes', body)
        return common.show(node)


class ListNode(base.ListCommand):
    """List nodes (all of them: pages are followed)."""

    RESOURCE = NODE
    SHORT_FIELDS = SHORT_FIELDS
    LONG_FIELDS = LONG_FIELDS
    FILTERS = ('provision_state', 'driver', 'resource_class',
               'conductor_group', 'owner', 'marker', 'maintenance',
               'associated', 'label_selector', 'chassis_uuid', 'fault',
               'retired', 'lessee', 'sharded') + node_fields.LIST_FILTERS

    def add_paging_options(self, parser):
        super().add_paging_options(parser)
        # The node filters follow --sort (python-ironicclient's order).
        common.add_yes_no_filter(
            parser, 'maintenance', ['--maintenance'],
            'Only nodes in maintenance.', ['--no-maintenance'],
            'Only nodes not in maintenance.')
        common.add_yes_no_filter(
            parser, 'associated', ['--associated'],
            'Only nodes with an instance.', ['--unassociated'],
            'Only nodes without an instance.')
        parser.add_argument('--provision-state', metavar='<state>',
                            help='Only nodes in this provision state.')
        parser.add_argument('--driver', metavar='<driver>',
                            help='Only nodes of this hardware type.')
        parser.add_argument('--resource-class', metavar='<class>',
                            help='Only nodes of this resource class.')
        parser.add_argument('--conductor-group', metavar='<group>',
                            help='Only nodes of this conductor group.')
        parser.add_argument('--owner', metavar='<owner>',
                            help='Only nodes of this owner.')
        parser.add_argument('--lessee', metavar='<lessee>',
                            help='Only nodes of this lessee (API 1.65).')
        node_fields.add_list_filters(parser)
        parser.add_argument('--shards', metavar='<shard>', nargs='+',
                            help='Only nodes of these shards (API 1.82).')
        common.add_yes_no_filter(
            parser, 'sharded', ['--sharded'],
            'Only nodes with a shard (API 1.82).', ['--unsharded'],
            'Only nodes without a shard (API 1.82).')
        parser.add_argument(
            '--label-selector', metavar='<selector>',
            help='Only nodes whose labels match this Kubernetes '
                 'selector, e.g. "env=prod,tier in (web,db),!legacy,gpu".')
        parser.add_argument('--chassis', dest='chassis_uuid',
                            metavar='<chassis UUID>',
                            help='Only nodes of this chassis.')
        parser.add_argument('--fault', metavar='<fault>',
                            help='Only nodes in maintenance for this '
                                 'fault, e.g. "power failure" (API 1.42).')
        # --no-retired: python-ironicclient's spelling.
        common.add_yes_no_filter(
            parser, 'retired', ['--retired'],
            'Only retired nodes (API 1.61).',
            ['--unretired', '--no-retired'],
            'Only nodes not retired (API 1.61).')
        common.add_child_node_options(parser)

    def query_params(self, parsed_args):
        node_fields.require(self.client, parsed_args)
        if parsed_args.fault is not None:
            self.client.require(http.NODE_FAULT, '--fault')
        if parsed_args.retired is not None:
            self.client.require(http.RETIRED, '--retired/--unretired')
        if parsed_args.sharded is not None:
            self.client.require(http.NODE_SHARD, '--sharded/--unsharded')
        params = common.with_shards(self.client,
                                    super().query_params(parsed_args),
                                    parsed_args.shards)
        return common.with_children(self.client, params, parsed_args)


class ShowNode(base.ShowCommand):
    """Show a node."""
    RESOURCE = NODE


class SetNode(base.SetCommand):
    """Set node fields (JSON patch "add")."""

    RESOURCE = NODE
    FIELDS = _FLAG_PATCH_FIELDS

    def get_parser(self, prog_name):
        parser = super().get_parser(prog_name)
        parser.add_argument('--name', metavar='<name>',
                            help='New unique name.')
        parser.add_argument('--driver', metavar='<driver>',
                            help='New hardware type.')
        parser.add_argument('--reset-interfaces', action='store_true',
                            default=None,
                            help='With --driver: reset the interfaces '
                                 'not given to the new driver\'s '
                                 'defaults.')
        _add_dict_options(parser, 'Set')
        parser.add_argument('--instance-info', metavar='<key=value>',
                            action='append',
                            help='Set an instance_info value '
                                 '(repeatable).')
        parser.add_argument('--instance-uuid', metavar='<uuid>',
                            help='Set the instance UUID.')
        node_fields.add_instance_name(parser, 'Set the')
        parser.add_argument('--resource-class', metavar='<class>',
                            help='Set the resource class.')
        parser.add_argument('--conductor-group', metavar='<group>',
                            help='Set the conductor group.')
        parser.add_argument('--owner', metavar='<owner>',
                            help='Set the owner.')
        _add_lessee_network_data(parser, 'Set the')
        parser.add_argument('--description', metavar='<description>',
                            help='Set the description.')
        parser.add_argument('--chassis-uuid', metavar='<chassis>',
                            help='Move the node to this chassis (UUID).')
        _add_interface_options(parser, 'Set', reset=True)
        parser.add_argument(
            '--target-raid-config', metavar='<target_raid_config>',
            help='Set the target RAID configuration of the node (API '
                 '1.12): a JSON string, a file of JSON or YAML, or "-" '
                 'to read it from standard input.')
        # default=None: a flag not given is left out of the patch.
        parser.add_argument('--protected', action='store_true',
                            default=None,
                            help='Protect the node: no undeploy, rebuild '
                                 'or delete (active nodes only; API '
                                 '1.48).')
        parser.add_argument('--protected-reason', metavar='<reason>',
                            help='Why the node is protected (with '
                                 '--protected or on a protected node).')
        parser.add_argument('--retired', action='store_true', default=None,
                            help='Retire the node: it is not provided '
                                 'again (not in "available"; API 1.61).')
        parser.add_argument('--retired-reason', metavar='<reason>',
                            help='Why the node is retired (with --retired '
                                 'or on a retired node).')
        clean = parser.add_mutually_exclusive_group()
        clean.add_argument('--automated-clean', action='store_true',
                           default=None,
                           help='Always clean the node on provide and '
                                'undeploy (API 1.47).')
        clean.add_argument('--no-automated-clean', dest='automated_clean',
                           action='store_false',
                           help='Explicitly disable automated cleaning of '
                                'the node (API 1.47).')
        power_off = parser.add_mutually_exclusive_group()
        power_off.add_argument('--disable-power-off', action='store_true',
                               default=None, help=_POWER_OFF_HELP)
        power_off.add_argument('--enable-power-off', action='store_false',
                               dest='disable_power_off',
                               help='Allow powering the node off again '
                                    '(API 1.95).')
        return parser

    def build_patch(self, parsed_args):
        # Here, not in patch_params: before --target-raid-config's PUT.
        node_fields.require(self.client, parsed_args)
        patch = super().build_patch(parsed_args)
        patch += [common.remove_op('/%s_interface' % kind)
                  for kind in INTERFACE_KINDS
                  if getattr(parsed_args, 'reset_%s_interface' % kind)]
        patch += _label_ops(parsed_args, remove=False)
        if parsed_args.reset_interfaces and not parsed_args.driver:
            raise osc_exc.CommandError(
                '--reset-interfaces can only be given with --driver.')
        return patch

    def take_action(self, parsed_args):
        if parsed_args.target_raid_config is None:
            return super().take_action(parsed_args)
        raid = common.load_json_or_file(
            parsed_args.target_raid_config, 'target RAID configuration',
            getattr(self.app, 'stdin', None))
        if not isinstance(raid, dict):
            raise osc_exc.CommandError('The target RAID configuration '
                                       'must be a JSON object.')
        patch = self.build_patch(parsed_args)
        self.client.require(http.RAID_CONFIG, '--target-raid-config')
        self.client.put(self.path(parsed_args, 'states', 'raid'), raid)
        if patch:
            super().take_action(parsed_args)

    def patch_params(self, parsed_args):
        # Called after check_version(), just before the PATCH: where the
        # options' own versions are checked.
        _require_flags(self.client, parsed_args, remove=False)
        _require_interfaces(self.client, parsed_args, remove=False)
        if not parsed_args.reset_interfaces:
            return None
        self.client.require(http.RESET_INTERFACES, '--reset-interfaces')
        return {'reset_interfaces': 'True'}


class UnsetNode(base.UnsetCommand):
    """Unset node fields (JSON patch "remove")."""

    RESOURCE = NODE
    FIELDS = _FLAG_PATCH_FIELDS

    def build_patch(self, parsed_args):
        return (super().build_patch(parsed_args)
                + _label_ops(parsed_args, remove=True))

    def patch_params(self, parsed_args):
        _require_flags(self.client, parsed_args, remove=True)
        _require_interfaces(self.client, parsed_args, remove=True)
        node_fields.require(self.client, parsed_args, remove=True)
        return None

    def get_parser(self, prog_name):
        parser = super().get_parser(prog_name)
        for flag, what in (('name', 'name'),
                           ('instance-uuid', 'instance UUID'),
                           ('instance-name', 'instance name (API 1.104)'),
                           ('resource-class', 'resource class'),
                           ('conductor-group', 'conductor group'),
                           ('owner', 'owner'),
                           ('lessee', 'lessee'),
                           ('shard', 'shard'),
                           ('parent-node', 'parent node'),
                           ('network-data', 'network data'),
                           ('description', 'description'),
                           ('chassis-uuid', 'chassis'),
                           ('protected', 'protection (and its reason)'),
                           ('protected-reason', 'protection reason'),
                           ('retired', 'retirement (and its reason)'),
                           ('retired-reason', 'retirement reason'),
                           ('automated-clean',
                            'automated clean choice (the service\'s '
                            'default applies)')):
            parser.add_argument('--' + flag, action='store_true',
                                help='Unset the %s.' % what)
        for kind in INTERFACE_KINDS:
            feature = INTERFACE_VERSIONS[kind]
            parser.add_argument('--%s-interface' % kind,
                                action='store_true',
                                help='Reset the %s interface to the '
                                     'driver\'s default%s.' % (
                                         kind, ' (API %s)'
                                         % http.version_string(feature)
                                         if feature else ''))
        for flag, dest, what in (
                ('property', 'properties', 'property'),
                ('extra', 'extra', 'extra value'),
                ('driver-info', 'driver_info', 'driver_info value'),
                ('instance-info', 'instance_info', 'instance_info value'),
                ('label', 'labels', 'label')):
            parser.add_argument('--' + flag, dest=dest, metavar='<key>',
                                action='append',
                                help='Remove this %s (repeatable).' % what)
        return parser


class DeleteNode(base.DeleteCommand):
    """Delete nodes."""
    RESOURCE = NODE


# -- provisioning -----------------------------------------------------------

FAILURE_STATES = frozenset(['error'])
# States a node passes through on its own (the target may be unset
# briefly there); never a reason to stop waiting.
TRANSIENT_STATES = frozenset(['verifying', 'deploying', 'wait call-back',
                              'deleting', 'cleaning', 'clean wait',
                              'inspecting', 'inspect wait', 'adopting',
                              'rescuing', 'unrescuing', 'servicing',
                              'service wait'])


def is_failure_state(state):
    return state in FAILURE_STATES or (state or '').endswith(' failed')


def provision_check(ident, expected):
    """The check of wait_for: done in ``expected``; a failure state, or a
    stable state that is not the expected one (nothing under way any
    more), fails with the node's last_error."""
    def check(node):
        state = node.get('provision_state')
        if state == expected:
            return True
        failed = is_failure_state(state)
        if not failed and node.get('target_provision_state') is None and \
                state not in TRANSIENT_STATES:
            failed = True
        if failed:
            raise osc_exc.CommandError(
                'Node %s failed to reach provision state "%s": it is in '
                '"%s"%s' % (ident, expected, state,
                            ': %s' % http.one_line(node['last_error'])
                            if node.get('last_error') else '.'))
        return False
    return check


class ProvisionStateCommand(NodeCommand):
    """Base of the provision actions: PUT states/provision with TARGET,
    then optionally (--wait) wait for EXPECTED. A subclass is one action:
    its TARGET, EXPECTED (None: nothing to wait for) and the API feature
    the target needs (REQUIRES)."""

    TARGET = None
    EXPECTED = None

    def get_parser(self, prog_name):
        parser = super().get_parser(prog_name)
        if self.EXPECTED:
            common.add_wait_option(
                parser, 'the node is "%s"' % self.EXPECTED)
        return parser

    def body(self, parsed_args):
        return {'target': self.TARGET}

    def take_action(self, parsed_args):
        self.check_version()
        ident = parsed_args.node
        self.send(NODE.path(ident, 'states', 'provision'),
                  self.body(parsed_args))
        timeout = getattr(parsed_args, 'wait_timeout', None)
        if timeout is None or not self.EXPECTED:
            return
        self.wait(ident, timeout)

    def send(self, path, body):
        self.client.put(path, body)

    def wait(self, ident, timeout, **kwargs):
        expected = self.EXPECTED
        params = None
        if self.client.supports(http.FIELDS):
            params = {'fields': 'uuid,provision_state,'
                                'target_provision_state,last_error'}

        def describe(node):
            return ('Waiting for node %s to reach "%s": it is in "%s"'
                    % (ident, expected, node.get('provision_state')))

        def fetch():
            return self.client.get(NODE.path(ident), params)
        return common.wait_for(fetch, provision_check(ident, expected),
                               describe, timeout, **kwargs)


class ManageNode(ProvisionStateCommand):
    """Move a node to "manageable" (verifying it first)."""
    TARGET = 'manage'
    EXPECTED = 'manageable'


class ProvideNode(ProvisionStateCommand):
    """Make a node "available" (cleaning it first)."""
    TARGET = 'provide'
    EXPECTED = 'available'


class DeployNode(ProvisionStateCommand):
    """Deploy a node (to "active")."""
    TARGET = 'active'
    EXPECTED = 'active'

    def get_parser(self, prog_name):
        parser = super().get_parser(prog_name)
        parser.add_argument('--config-drive', metavar='<config-drive>',
                            help='Config drive: a gzipped, base64-encoded '
                                 'ISO image, a URL, or a JSON object.')
        return parser

    def body(self, parsed_args):
        body = super().body(parsed_args)
        drive = parsed_args.config_drive
        if drive is not None:
            try:
                decoded = json.loads(drive)
            except ValueError:
                decoded = drive
            body['configdrive'] = (decoded if isinstance(decoded, dict)
                                   else drive)
        return body


class RebuildNode(DeployNode):
    """Redeploy an active node."""
    TARGET = 'rebuild'


class UndeployNode(ProvisionStateCommand):
    """Tear a node down (to "available", through cleaning)."""
    TARGET = 'deleted'
    EXPECTED = 'available'


class CleanNode(ProvisionStateCommand):
    """Run clean steps on a manageable node."""
    TARGET = 'clean'
    EXPECTED = 'manageable'
    REQUIRES = (http.CLEAN_VERB, 'Provision target "clean"')
    STEPS = 'clean'
    # --disable-ramdisk: manual cleaning from API 1.70, servicing 1.108.
    DISABLE_RAMDISK = http.CLEAN_DISABLE_RAMDISK

    def get_parser(self, prog_name):
        parser = super().get_parser(prog_name)
        group = parser.add_mutually_exclusive_group(required=True)
        group.add_argument(
            '--%s-steps' % self.STEPS, metavar='<%s-steps>' % self.STEPS,
            dest='steps', type=common.json_arg,
            help='The %s steps, a JSON list such as \'[{"interface": '
                 '"deploy", "step": "erase_devices"}]\'.' % self.STEPS)
        runbook.add_runbook_option(group, self.STEPS)
        parser.add_argument(
            '--disable-ramdisk', action='store_true', default=None,
            help='Boot no agent ramdisk: only steps that need none can '
                 'run (API %s; not with --runbook).'
            % http.version_string(self.DISABLE_RAMDISK))
        return parser

    def take_action(self, parsed_args):
        runbook.check_provision_args(parsed_args, self.STEPS)
        return super().take_action(parsed_args)

    def body(self, parsed_args):
        return runbook.provision_body(self.client, parsed_args,
                                      self.TARGET, self.STEPS,
                                      self.DISABLE_RAMDISK)


class ServiceNode(CleanNode):
    """Run service steps on an active node (back to "active")."""
    TARGET = 'service'
    EXPECTED = 'active'
    REQUIRES = (http.SERVICE, 'Provision target "service"')
    STEPS = 'service'
    DISABLE_RAMDISK = http.SERVICE_DISABLE_RAMDISK


class AbortNode(ProvisionStateCommand):
    """Abort the current operation of a node (e.g. cleaning)."""
    TARGET = 'abort'
    REQUIRES = (http.ABORT_VERB, 'Provision target "abort"')


class UnholdNode(ProvisionStateCommand):
    """Release a node held by a "hold" clean or deploy step."""
    TARGET = 'unhold'
    REQUIRES = (http.UNHOLD_VERB, 'Provision target "unhold"')


class InspectNode(ProvisionStateCommand):
    """Inspect a manageable node's hardware (back to "manageable")."""
    TARGET = 'inspect'
    EXPECTED = 'manageable'
    REQUIRES = (http.INSPECT_VERB, 'Provision target "inspect"')


class RescueNode(ProvisionStateCommand):
    """Boot an active node into the rescue ramdisk (to "rescue")."""
    TARGET = 'rescue'
    EXPECTED = 'rescue'
    REQUIRES = (http.RESCUE, 'Provision target "rescue"')

    def get_parser(self, prog_name):
        parser = super().get_parser(prog_name)
        parser.add_argument(
            '--rescue-password', metavar='<rescue-password>', required=True,
            help='The password to log in to the rescue ramdisk with (a '
                 'non-empty string).')
        return parser

    def body(self, parsed_args):
        if not parsed_args.rescue_password.strip():
            raise osc_exc.CommandError('--rescue-password must not be '
                                       'empty.')
        return {'target': self.TARGET,
                'rescue_password': parsed_args.rescue_password}

    def send(self, path, body):
        # Not logged, not even with --debug: the body holds the password.
        self.client.request('PUT', path, body=body, log=False)


class UnrescueNode(ProvisionStateCommand):
    """Take a node out of rescue (back to "active")."""
    TARGET = 'unrescue'
    EXPECTED = 'active'
    REQUIRES = (http.RESCUE, 'Provision target "unrescue"')


class AdoptNode(ProvisionStateCommand):
    """Adopt a manageable node as active without deploying it."""
    TARGET = 'adopt'
    EXPECTED = 'active'
    REQUIRES = (http.ADOPT_VERB, 'Provision target "adopt"')


# -- power ------------------------------------------------------------------

class PowerCommand(NodeCommand):
    """Base of the power actions: TARGETS maps --soft (False/True) to the
    power target (None: no --soft option)."""

    TARGETS = {False: None, True: None}

    def get_parser(self, prog_name):
        parser = super().get_parser(prog_name)
        parser.add_argument('--power-timeout', metavar='<seconds>',
                            type=int,
                            help='Seconds to wait for the power change '
                                 '(on the conductor).')
        if self.TARGETS[True]:
            parser.add_argument('--soft', action='store_true',
                                default=False,
                                help='Ask the operating system (ACPI) '
                                     'instead of cutting power.')
        return parser

    def take_action(self, parsed_args):
        soft = getattr(parsed_args, 'soft', False)
        body = {'target': self.TARGETS[soft]}
        if soft:
            self.client.require(http.SOFT_POWER, '--soft')
        if parsed_args.power_timeout is not None:
            if parsed_args.power_timeout <= 0:
                raise osc_exc.CommandError('--power-timeout must be a '
                                           'positive number of seconds.')
            self.client.require(http.SOFT_POWER, '--power-timeout')
            body['timeout'] = parsed_args.power_timeout
        self.client.put(self.path(parsed_args, 'states', 'power'), body)


class PowerOnNode(PowerCommand):
    """Power a node on."""
    TARGETS = {False: 'power on', True: None}


class PowerOffNode(PowerCommand):
    """Power a node off."""
    TARGETS = {False: 'power off', True: 'soft power off'}


class RebootNode(PowerCommand):
    """Reboot a node."""
    TARGETS = {False: 'rebooting', True: 'soft rebooting'}


# -- maintenance ------------------------------------------------------------

class MaintenanceSetNode(NodeCommand):
    """Put a node in maintenance."""

    def get_parser(self, prog_name):
        parser = super().get_parser(prog_name)
        parser.add_argument('--reason', metavar='<reason>',
                            help='Why the node is in maintenance.')
        return parser

    def take_action(self, parsed_args):
        body = {}
        if parsed_args.reason is not None:
            body['reason'] = parsed_args.reason
        self.client.put(self.path(parsed_args, 'maintenance'), body)


class MaintenanceUnsetNode(NodeCommand):
    """Take a node out of maintenance."""

    def take_action(self, parsed_args):
        self.client.delete(self.path(parsed_args, 'maintenance'))
