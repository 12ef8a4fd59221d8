"""``openstack baremetal runbook ...`` (API 1.92; a runbook's description
from 1.112), and the ``--runbook`` option of ``baremetal node clean`` and
``baremetal node service``. A runbook's traits (1.112) have commands of
their own: runbook_traits."""

from osc_lib.command import command
from osc_lib import exceptions as osc_exc

from ironic_like.osc import client as http
from ironic_like.osc import common
from ironic_like.osc.v1 import base

RUNBOOK = base.Resource('runbook', 'runbooks',
                        'Name or UUID of the runbook.',
                        'Names or UUIDs of the runbooks.')

SHORT_FIELDS = ['uuid', 'name']
LONG_FIELDS = ['uuid', 'name', 'description', 'traits', 'disable_ramdisk',
               'owner', 'public', 'steps', 'extra', 'created_at',
               'updated_at']

_REQUIRES = (http.RUNBOOKS, 'Runbook commands')
_STEPS_HELP = ('The runbook steps: a JSON list such as \'[{"interface": '
               '"bios", "step": "apply_configuration", "args": {...}, '
               '"order": 1}]\', a file of JSON or YAML, or "-" to read '
               'them from standard input.')
_DISABLE_RAMDISK_HELP = ('no agent ramdisk is booted when the runbook runs, '
                         'so only steps that need none can run')
# Fields of create, set and unset newer than runbooks: (option dest, the
# API version that brought the field, the option).
_VERSIONED = (('description', http.RUNBOOK_TRAITS, '--description'),)


def _steps(value, stdin=None):
    steps = common.load_json_or_file(value, 'runbook steps', stdin)
    if not isinstance(steps, list):
        raise osc_exc.CommandError('--steps must be a list of runbook '
                                   'steps.')
    return steps


def _add_public_option(parser, help_text):
    # "--public" alone is "--public true", as in python-ironicclient.
    parser.add_argument('--public', metavar='<public>', nargs='?',
                        const=True, type=common.bool_arg, help=help_text)


class CreateRunbook(common.BaremetalMixin, command.ShowOne):
    """Create a runbook."""

    REQUIRES = _REQUIRES

    def get_parser(self, prog_name):
        parser = super().get_parser(prog_name)
        parser.add_argument('--name', metavar='<name>', required=True,
                            help='Unique name of the runbook. Below API '
                                 '1.112 it must be a trait, e.g. '
                                 'CUSTOM_FIRMWARE_UPDATE: the trait a '
                                 'node needs for the runbook to run on it '
                                 '(from 1.112: "baremetal runbook trait '
                                 'add").')
        parser.add_argument('--description', metavar='<description>',
                            help='Description of the runbook (at most 255 '
                                 'characters; API 1.112).')
        parser.add_argument('--uuid', metavar='<uuid>',
                            help='UUID of the runbook (default: '
                                 'generated).')
        _add_public_option(parser, 'Whether the runbook is public (true) '
                                   'or private to its owner (false); '
                                   '"--public" alone means true.')
        parser.add_argument('--owner', metavar='<owner>',
                            help='Owner (project) of the runbook.')
        parser.add_argument('--extra', metavar='<key=value>',
                            action='append',
                            help='Extra value (repeatable).')
        parser.add_argument('--steps', metavar='<steps>', required=True,
                            help=_STEPS_HELP)
        parser.add_argument('--disable-ramdisk', action='store_true',
                            default=None,
                            help='Set disable_ramdisk: %s.'
                                 % _DISABLE_RAMDISK_HELP)
        return parser

    def take_action(self, parsed_args):
        body = {'name': parsed_args.name,
                'steps': _steps(parsed_args.steps,
                                getattr(self.app, 'stdin', None))}
        body.update(common.body_fields(parsed_args, {
            'uuid': common.VALUE, 'public': common.VALUE,
            'owner': common.VALUE, 'extra': common.DICT,
            'disable_ramdisk': common.VALUE, 'description': common.VALUE}))
        self.check_version()
        common.require_options(self.client, parsed_args, _VERSIONED)
        return common.show(self.client.post(RUNBOOK.collection, body))


class ListRunbook(base.ListCommand):
    """List runbooks."""

    RESOURCE = RUNBOOK
    REQUIRES = _REQUIRES
    SHORT_FIELDS = SHORT_FIELDS
    LONG_FIELDS = LONG_FIELDS
    LONG = base.DETAIL_PARAM
    FILTERS = ('marker',)


class ShowRunbook(base.ShowCommand):
    """Show a runbook."""

    RESOURCE = RUNBOOK
    REQUIRES = _REQUIRES


class SetRunbook(base.SetCommand):
    """Set runbook fields."""

    RESOURCE = RUNBOOK
    REQUIRES = _REQUIRES
    FIELDS = {'name': common.VALUE, 'description': common.VALUE,
              'owner': common.VALUE, 'public': common.VALUE,
              'extra': common.DICT, 'disable_ramdisk': common.VALUE}

    def get_parser(self, prog_name):
        parser = super().get_parser(prog_name)
        parser.add_argument('--name', metavar='<name>',
                            help='Set the unique name.')
        parser.add_argument('--description', metavar='<description>',
                            help='Set the description (at most 255 '
                                 'characters; API 1.112).')
        _add_public_option(parser, 'Make the runbook public (true) or '
                                   'private (false); "--public" alone '
                                   'means true.')
        parser.add_argument('--owner', metavar='<owner>',
                            help='Set the owner.')
        parser.add_argument('--steps', metavar='<steps>',
                            help='Replace the runbook steps. '
                                 + _STEPS_HELP)
        parser.add_argument('--extra', metavar='<key=value>',
                            action='append',
                            help='Set an extra value (repeatable).')
        parser.add_argument('--disable-ramdisk', metavar='<disable_ramdisk>',
                            nargs='?', const=True, type=common.bool_arg,
                            help='Set disable_ramdisk (true: %s); '
                                 '"--disable-ramdisk" alone means true.'
                                 % _DISABLE_RAMDISK_HELP)
        return parser

    def build_patch(self, parsed_args):
        patch = super().build_patch(parsed_args)
        if parsed_args.steps is not None:
            patch.append(common.add_op('/steps', _steps(
                parsed_args.steps, getattr(self.app, 'stdin', None))))
        return patch

    def patch_params(self, parsed_args):
        # Called after check_version(), just before the PATCH.
        common.require_options(self.client, parsed_args, _VERSIONED)
        return None


class UnsetRunbook(base.UnsetCommand):
    """Unset runbook fields."""

    RESOURCE = RUNBOOK
    REQUIRES = _REQUIRES
    FIELDS = {'description': common.VALUE, 'owner': common.VALUE,
              'public': common.VALUE, 'disable_ramdisk': common.VALUE,
              'extra': common.DICT}

    def get_parser(self, prog_name):
        parser = super().get_parser(prog_name)
        parser.add_argument('--description', action='store_true',
                            help='Unset the description (API 1.112).')
        parser.add_argument('--owner', action='store_true',
                            help='Unset the owner.')
        parser.add_argument('--public', action='store_true',
                            help='Make a public runbook private.')
        parser.add_argument('--disable-ramdisk', action='store_true',
                            help='Unset disable_ramdisk.')
        parser.add_argument('--extra', metavar='<key>', action='append',
                            help='Remove this extra value (repeatable).')
        return parser

    def patch_params(self, parsed_args):
        # Called after check_version(), just before the PATCH.
        common.require_options(self.client, parsed_args, _VERSIONED,
                               remove=True)
        return None


class DeleteRunbook(base.DeleteCommand):
    """Delete runbooks."""

    RESOURCE = RUNBOOK
    REQUIRES = _REQUIRES


# -- node clean / node service --runbook -----------------------------------

def add_runbook_option(group, steps):
    """--runbook in ``group``, the exclusive group of --<steps>-steps."""
    group.add_argument(
        '--runbook', metavar='<runbook>',
        help='Name or UUID of a runbook whose steps to run, instead of '
             '--%s-steps (API %s).' % (steps, http.version_string(
                 http.RUNBOOKS)))


def check_provision_args(parsed_args, steps):
    """The command line's own errors of node clean/service, found before
    any request."""
    runbook = getattr(parsed_args, 'runbook', None)
    if runbook is not None:
        if not runbook.strip():
            raise osc_exc.CommandError('--runbook must not be empty.')
        if getattr(parsed_args, 'disable_ramdisk', None):
            raise osc_exc.CommandError(
                '--runbook and --disable-ramdisk cannot be given together '
                '(the runbook says whether the ramdisk is booted).')
    elif not isinstance(parsed_args.steps, list):
        raise osc_exc.CommandError('--%s-steps must be a JSON list.'
                                   % steps)


def provision_body(client, parsed_args, target, steps,
                   disable_ramdisk_since=http.CLEAN_DISABLE_RAMDISK):
    """The body of PUT states/provision of node clean/service: the
    runbook (API 1.92) or the steps, and disable_ramdisk (API 1.70 with
    clean, 1.108 with service)."""
    body = {'target': target}
    runbook = getattr(parsed_args, 'runbook', None)
    if runbook is not None:
        client.require(http.RUNBOOKS, '--runbook')
        body['runbook'] = runbook
    else:
        body['%s_steps' % steps] = parsed_args.steps
    if getattr(parsed_args, 'disable_ramdisk', None):
        client.require(disable_ramdisk_since, '--disable-ramdisk')
        body['disable_ramdisk'] = True
    return body
