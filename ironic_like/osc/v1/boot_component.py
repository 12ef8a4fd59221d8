"""``openstack baremetal boot component ...``: the boot state of each node
(its id is the node's name, or its UUID when it has none)."""

from osc_lib.command import command
from osc_lib import exceptions as osc_exc

from ironic_like.osc import common
from ironic_like.osc.v1 import boot

COLLECTION = 'components'
PHASES = ('powering_off', 'powering_on', 'configuring')

SHORT_FIELDS = ('id', 'enabled', 'status.phase', 'status.status',
                'session', 'last_action.action', 'error')
SHORT_TITLES = ('ID', 'Enabled', 'Phase', 'Status', 'Session',
                'Last Action', 'Error')
LONG_FIELDS = SHORT_FIELDS + ('status.status_override',
                              'staged_state.session',
                              'desired_state.configuration',
                              'last_action.failed',
                              'last_action.last_updated', 'retry_policy',
                              'event_stats')
LONG_TITLES = SHORT_TITLES + ('Status Override', 'Staged Session',
                              'Desired Configuration', 'Last Action Failed',
                              'Last Action Time', 'Retry Policy',
                              'Event Stats')

# What --clear-staged writes: every staged field emptied (explicit empty
# values, so a merging PATCH clears them too).
EMPTY_STAGED_STATE = {'boot_artifacts': {'kernel': '',
                                         'kernel_parameters': '',
                                         'initrd': ''},
                      'configuration': '', 'session': ''}


class ListBootComponent(boot.BootMixin, command.Lister):
    """List boot components."""

    def get_parser(self, prog_name):
        parser = super().get_parser(prog_name)
        parser.add_argument('--ids', metavar='<id,id,...>',
                            help='Only these components (comma list).')
        parser.add_argument('--session', metavar='<session>',
                            help='Only components of this session.')
        parser.add_argument('--staged-session', metavar='<session>',
                            help='Only components staged for this '
                                 'session.')
        parser.add_argument('--enabled', type=common.bool_arg,
                            metavar='<true|false>',
                            help='Only enabled (true) or disabled (false) '
                                 'components.')
        parser.add_argument('--phase', metavar='<phase>',
                            help='Only components in this phase (%s).'
                                 % ', '.join(PHASES))
        parser.add_argument('--status', metavar='<status>',
                            help='Only components with this status, e.g. '
                                 'stable, failed, power_on_pending (a '
                                 'comma list for several).')
        parser.add_argument('--long', action='store_true', default=False,
                            help='Show more fields.')
        return parser

    def take_action(self, parsed_args):
        params = {'ids': parsed_args.ids, 'session': parsed_args.session,
                  'staged_session': parsed_args.staged_session,
                  'enabled': boot.bool_query(parsed_args.enabled),
                  'phase': parsed_args.phase, 'status': parsed_args.status}
        items = self.boot.list(COLLECTION, params)
        if parsed_args.long:
            return LONG_TITLES, boot.rows(items, LONG_FIELDS)
        return SHORT_TITLES, boot.rows(items, SHORT_FIELDS)


class ShowBootComponent(boot.BootMixin, command.ShowOne):
    """Show a boot component."""

    def get_parser(self, prog_name):
        parser = super().get_parser(prog_name)
        parser.add_argument('component', metavar='<component>',
                            help='ID of the component.')
        return parser

    def take_action(self, parsed_args):
        return common.show(self.boot.get(boot.path(COLLECTION,
                                                   parsed_args.component)))


class SetBootComponent(boot.BootMixin, command.Command):
    """Change a boot component, or many at once (--session or --ids)."""

    def get_parser(self, prog_name):
        parser = super().get_parser(prog_name)
        parser.add_argument('component', metavar='<component>', nargs='?',
                            help='ID of the component (or give --session '
                                 'or --ids).')
        parser.add_argument('--session', metavar='<session>',
                            help='Change every component of this session.')
        parser.add_argument('--ids', metavar='<id,id,...>',
                            help='Change these components (comma list).')
        enabled = parser.add_mutually_exclusive_group()
        enabled.add_argument('--enable', dest='enabled',
                             action='store_true', default=None,
                             help='Enable: the boot service acts on it.')
        enabled.add_argument('--disable', dest='enabled',
                             action='store_false',
                             help='Disable: the boot service leaves it '
                                  'alone.')
        parser.add_argument('--retry-policy', type=int, metavar='<count>',
                            help='Attempts of each power action before the '
                                 'component fails (-1: no limit).')
        parser.add_argument('--clear-error', action='store_true',
                            default=False, help='Clear its error.')
        parser.add_argument('--clear-staged', action='store_true',
                            default=False,
                            help='Clear its staged state.')
        return parser

    def build_patch(self, parsed_args):
        patch = {}
        if parsed_args.enabled is not None:
            patch['enabled'] = parsed_args.enabled
        if parsed_args.retry_policy is not None:
            patch['retry_policy'] = parsed_args.retry_policy
        if parsed_args.clear_error:
            patch['error'] = ''
        if parsed_args.clear_staged:
            patch['staged_state'] = dict(EMPTY_STAGED_STATE)
        return patch

    def take_action(self, parsed_args):
        selectors = [s for s in (parsed_args.component, parsed_args.session,
                                 parsed_args.ids) if s is not None]
        if len(selectors) != 1:
            raise osc_exc.CommandError(
                'Give exactly one of <component>, --session or --ids.')
        patch = self.build_patch(parsed_args)
        if not patch:
            raise osc_exc.CommandError(
                'Nothing to set: give --enable, --disable, --retry-policy, '
                '--clear-error or --clear-staged.')
        if parsed_args.component is not None:
            self.boot.patch(boot.path(COLLECTION, parsed_args.component),
                            patch)
            return
        if parsed_args.session is not None:
            filters = {'session': parsed_args.session}
        else:
            filters = {'ids': ','.join(common.flatten([parsed_args.ids]))}
        result = self.boot.patch(COLLECTION, {'patch': patch,
                                              'filters': filters})
        if isinstance(result, list):
            self.app.stdout.write('Updated %d components\n' % len(result))
