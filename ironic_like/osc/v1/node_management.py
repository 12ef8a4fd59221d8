"""Node commands beyond the node itself and its provision and power
state: validate, boot device, boot mode and secure boot, NMI, console,
BIOS settings and VIFs."""

from osc_lib.command import command
from osc_lib import exceptions as osc_exc

from ironic_like.osc import client as http
from ironic_like.osc import common
from ironic_like.osc.v1 import base
from ironic_like.osc.v1.node import NODE

# python-ironicclient's boot devices.
BOOT_DEVICES = ('pxe', 'disk', 'cdrom', 'bios', 'safe', 'wanboot')


class NodesCommand(common.BaremetalMixin, command.Command):
    """A command on one or more nodes (the <node> arguments), sent to
    each in turn; one error naming every failure at the end."""

    def get_parser(self, prog_name):
        parser = super().get_parser(prog_name)
        parser.add_argument('nodes', metavar='<node>', nargs='+',
                            help=NODE.idents_help)
        return parser

    def act(self, ident, parsed_args):
        raise NotImplementedError()

    def take_action(self, parsed_args):
        self.check_version()
        failures = []
        for ident in parsed_args.nodes:
            try:
                self.act(ident, parsed_args)
            except osc_exc.CommandError as e:
                if len(parsed_args.nodes) == 1:
                    raise
                failures.append('node %s: %s' % (ident, e))
        if failures:
            raise osc_exc.CommandError('; '.join(failures))


class ValidateNode(base.ResourceCommand, command.Lister):
    """Validate a node's driver interfaces."""

    RESOURCE = NODE

    def take_action(self, parsed_args):
        self.check_version()
        doc = self.client.get(self.path(parsed_args, 'validate')) or {}
        rows = []
        for name in sorted(doc):
            value = doc[name] if isinstance(doc[name], dict) else {}
            rows.append((name, value.get('result'), value.get('reason')))
        return ('Interface', 'Result', 'Reason'), rows


class BootdeviceShowNode(base.ResourceCommand, command.ShowOne):
    """Show the boot device of a node (or those it supports)."""

    RESOURCE = NODE

    def get_parser(self, prog_name):
        parser = super().get_parser(prog_name)
        parser.add_argument('--supported', action='store_true',
                            default=False,
                            help='Show the supported boot devices.')
        return parser

    def take_action(self, parsed_args):
        self.check_version()
        if parsed_args.supported:
            info = dict(self.client.get(self.path(
                parsed_args, 'management', 'boot_device', 'supported'))
                or {})
            info['supported_boot_devices'] = ', '.join(
                info.get('supported_boot_devices') or [])
        else:
            info = self.client.get(self.path(
                parsed_args, 'management', 'boot_device')) or {}
        return common.show(info)


class BootdeviceSetNode(NodesCommand):
    """Set the boot device of nodes."""

    def get_parser(self, prog_name):
        parser = super().get_parser(prog_name)
        parser.add_argument('device', metavar='<device>',
                            choices=BOOT_DEVICES,
                            help='One of %s.' % ', '.join(BOOT_DEVICES))
        parser.add_argument('--persistent', action='store_true',
                            default=False,
                            help='Make the change persistent for all '
                                 'future boots.')
        return parser

    def act(self, ident, parsed_args):
        self.client.put(NODE.path(ident, 'management', 'boot_device'),
                        {'boot_device': parsed_args.device,
                         'persistent': parsed_args.persistent})


class InjectNmiNode(NodesCommand):
    """Inject a non-maskable interrupt (NMI) into nodes."""

    REQUIRES = (http.INJECT_NMI, 'Node inject nmi')

    def act(self, ident, parsed_args):
        self.client.put(NODE.path(ident, 'management', 'inject_nmi'), {})


class BootModeSetNode(NodesCommand):
    """Set the boot mode of nodes (API 1.76)."""

    REQUIRES = (http.BOOT_MODE, 'Node boot mode set')

    def get_parser(self, prog_name):
        parser = super().get_parser(prog_name)
        parser.add_argument('boot_mode', metavar='<boot_mode>',
                            choices=['bios', 'uefi'],
                            help='The boot mode: uefi or bios.')
        return parser

    def act(self, ident, parsed_args):
        self.client.put(NODE.path(ident, 'states', 'boot_mode'),
                        {'target': parsed_args.boot_mode})


class SecureBootOnNode(NodesCommand):
    """Turn secure boot on for nodes (API 1.76)."""

    REQUIRES = (http.BOOT_MODE, 'Node secure boot')
    STATE = True

    def act(self, ident, parsed_args):
        self.client.put(NODE.path(ident, 'states', 'secure_boot'),
                        {'target': self.STATE})


class SecureBootOffNode(SecureBootOnNode):
    """Turn secure boot off for nodes (API 1.76)."""

    STATE = False


class ConsoleShowNode(base.ResourceCommand, command.ShowOne):
    """Show the console information of a node."""

    RESOURCE = NODE

    def take_action(self, parsed_args):
        self.check_version()
        info = self.client.get(self.path(parsed_args, 'states',
                                         'console')) or {}
        return common.show(info)


class ConsoleEnableNode(NodesCommand):
    """Enable console access of nodes."""

    ENABLED = True

    def act(self, ident, parsed_args):
        self.client.put(NODE.path(ident, 'states', 'console'),
                        {'enabled': self.ENABLED})


class ConsoleDisableNode(ConsoleEnableNode):
    """Disable console access of nodes."""

    ENABLED = False


_BIOS = (http.BIOS, 'Node BIOS settings')


class ListBIOSSettingNode(base.ResourceCommand, command.Lister):
    """List the BIOS settings of a node."""

    RESOURCE = NODE
    REQUIRES = _BIOS

    def take_action(self, parsed_args):
        self.check_version()
        doc = self.client.get(self.path(parsed_args, 'bios')) or {}
        return common.listing(doc.get('bios') or [], ('name', 'value'),
                              ('BIOS setting name', 'BIOS setting value'))


class ListFirmwareNode(base.ResourceCommand, command.Lister):
    """List the firmware components of a node (API 1.86)."""

    RESOURCE = NODE
    REQUIRES = (http.FIRMWARE_INTERFACE, 'Node firmware')
    # python-ironicclient's columns, titled by their field names (its
    # 6.3.0 shows no column of the vendor, model and serial_number of API
    # 1.114, so neither does this command).
    FIELDS = ('component', 'initial_version', 'current_version',
              'last_version_flashed', 'created_at', 'updated_at')

    def take_action(self, parsed_args):
        self.check_version()
        doc = self.client.get(self.path(parsed_args, 'firmware')) or {}
        return common.listing(doc.get('firmware') or [], self.FIELDS,
                              self.FIELDS)


class ShowBIOSSettingNode(base.ResourceCommand, command.ShowOne):
    """Show one BIOS setting of a node."""

    RESOURCE = NODE
    REQUIRES = _BIOS

    def get_parser(self, prog_name):
        parser = super().get_parser(prog_name)
        parser.add_argument('setting_name', metavar='<setting name>',
                            help='Name of the setting to show.')
        return parser

    def take_action(self, parsed_args):
        self.check_version()
        name = parsed_args.setting_name
        doc = self.client.get(self.path(parsed_args, 'bios',
                                        http.quote(name))) or {}
        # Ironic answers {"<name>": {the setting}}.
        setting = doc.get(name) if isinstance(doc.get(name), dict) else doc
        return common.show(setting)


_VIFS = (http.VIFS, 'Node VIF commands')


class VifListNode(base.ResourceCommand, command.Lister):
    """List the VIFs attached to a node."""

    RESOURCE = NODE
    REQUIRES = _VIFS

    def take_action(self, parsed_args):
        self.check_version()
        doc = self.client.get(self.path(parsed_args, 'vifs')) or {}
        return common.listing(doc.get('vifs') or [], ('id',), ('ID',))


class VifAttachNode(base.ResourceCommand, command.Command):
    """Attach a VIF to a node."""

    RESOURCE = NODE
    REQUIRES = _VIFS

    def get_parser(self, prog_name):
        parser = super().get_parser(prog_name)
        parser.add_argument('vif_id', metavar='<vif-id>',
                            help='Name or UUID of the VIF to attach.')
        parser.add_argument('--port-uuid', metavar='<port-uuid>',
                            help='UUID of the port to attach the VIF to.')
        parser.add_argument('--portgroup-uuid', metavar='<portgroup-uuid>',
                            help='UUID of the port group to attach the VIF '
                                 'to.')
        parser.add_argument('--vif-info', metavar='<key=value>',
                            action='append',
                            help='Metadata of the attachment (repeatable; '
                                 'not "id").')
        return parser

    def take_action(self, parsed_args):
        body = common.to_dict(parsed_args.vif_info)
        if 'id' in body:
            raise osc_exc.CommandError('--vif-info cannot set "id": it is '
                                       'the <vif-id> argument.')
        if parsed_args.port_uuid:
            body['port_uuid'] = parsed_args.port_uuid
        if parsed_args.portgroup_uuid:
            body['portgroup_uuid'] = parsed_args.portgroup_uuid
        body['id'] = parsed_args.vif_id
        self.check_version()
        self.client.post(self.path(parsed_args, 'vifs'), body)


class VifDetachNode(base.ResourceCommand, command.Command):
    """Detach a VIF from a node."""

    RESOURCE = NODE
    REQUIRES = _VIFS

    def get_parser(self, prog_name):
        parser = super().get_parser(prog_name)
        parser.add_argument('vif_id', metavar='<vif-id>',
                            help='Name or UUID of the VIF to detach.')
        return parser

    def take_action(self, parsed_args):
        self.check_version()
        self.client.delete(self.path(parsed_args, 'vifs',
                                     http.quote(parsed_args.vif_id)))
