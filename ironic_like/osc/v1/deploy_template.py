"""``openstack baremetal deploy template ...`` (API 1.55)."""

from osc_lib.command import command
from osc_lib import exceptions as osc_exc

from ironic_like.osc import client as http
from ironic_like.osc import common
from ironic_like.osc.v1 import base

TEMPLATE = base.Resource('template', 'deploy_templates',
                         'Name or UUID of the deploy template.',
                         'Names or UUIDs of the deploy templates.')

SHORT_FIELDS = ['uuid', 'name']
LONG_FIELDS = ['uuid', 'name', 'steps', 'extra', 'created_at',
               'updated_at']

_REQUIRES = (http.DEPLOY_TEMPLATES, 'Deploy template commands')
_STEPS_HELP = ('The deploy steps: a JSON list such as \'[{"interface": '
               '"bios", "step": "apply_configuration", "args": {...}, '
               '"priority": 150}]\', a file of JSON or YAML, or "-" to '
               'read them from standard input.')


def _steps(value, stdin=None):
    steps = common.load_json_or_file(value, 'deploy steps', stdin)
    if not isinstance(steps, list):
        raise osc_exc.CommandError('--steps must be a list of deploy '
                                   'steps.')
    return steps


class CreateDeployTemplate(common.BaremetalMixin, command.ShowOne):
    """Create a deploy template."""

    REQUIRES = _REQUIRES

    def get_parser(self, prog_name):
        parser = super().get_parser(prog_name)
        parser.add_argument('name', metavar='<name>',
                            help='Unique name of the template: a valid '
                                 'trait name, e.g. CUSTOM_RAID1.')
        parser.add_argument('--uuid', metavar='<uuid>',
                            help='UUID of the template (default: '
                                 'generated).')
        parser.add_argument('--extra', metavar='<key=value>',
                            action='append',
                            help='Extra value (repeatable).')
        parser.add_argument('--steps', metavar='<steps>', required=True,
                            help=_STEPS_HELP)
        return parser

    def take_action(self, parsed_args):
        body = {'name': parsed_args.name,
                'steps': _steps(parsed_args.steps,
                                getattr(self.app, 'stdin', None))}
        if parsed_args.uuid:
            body['uuid'] = parsed_args.uuid
        if parsed_args.extra:
            body['extra'] = common.to_dict(parsed_args.extra)
        self.check_version()
        return common.show(self.client.post(TEMPLATE.collection, body))


class ListDeployTemplate(base.ListCommand):
    """List deploy templates."""

    RESOURCE = TEMPLATE
    REQUIRES = _REQUIRES
    SHORT_FIELDS = SHORT_FIELDS
    LONG_FIELDS = LONG_FIELDS
    LONG = base.DETAIL_PARAM
    FILTERS = ('marker',)


class ShowDeployTemplate(base.ShowCommand):
    """Show a deploy template."""

    RESOURCE = TEMPLATE
    REQUIRES = _REQUIRES


class SetDeployTemplate(base.SetCommand):
    """Set deploy template fields."""

    RESOURCE = TEMPLATE
    REQUIRES = _REQUIRES
    FIELDS = {'name': common.VALUE, 'extra': common.DICT}

    def get_parser(self, prog_name):
        parser = super().get_parser(prog_name)
        parser.add_argument('--name', metavar='<name>',
                            help='Set the unique name.')
        parser.add_argument('--steps', metavar='<steps>',
                            help='Replace the deploy steps. ' + _STEPS_HELP)
        parser.add_argument('--extra', metavar='<key=value>',
                            action='append',
                            help='Set an extra value (repeatable).')
        return parser

    def build_patch(self, parsed_args):
        patch = super().build_patch(parsed_args)
        if parsed_args.steps is not None:
            steps = _steps(parsed_args.steps,
                           getattr(self.app, 'stdin', None))
            patch.insert(1 if parsed_args.name is not None else 0,
                         common.add_op('/steps', steps))
        return patch


class UnsetDeployTemplate(base.UnsetCommand):
    """Unset deploy template fields."""

    RESOURCE = TEMPLATE
    REQUIRES = _REQUIRES
    FIELDS = {'extra': common.DICT}

    def get_parser(self, prog_name):
        parser = super().get_parser(prog_name)
        parser.add_argument('--extra', metavar='<key>', action='append',
                            help='Remove this extra value (repeatable).')
        return parser


class DeleteDeployTemplate(base.DeleteCommand):
    """Delete deploy templates."""

    RESOURCE = TEMPLATE
    REQUIRES = _REQUIRES
