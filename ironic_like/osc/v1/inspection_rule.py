"""``openstack baremetal inspection rule ...`` (API 1.96).

The commands and options of python-ironicclient 6.3.0. Rules are named by
UUID only: anything else is refused before any request. Where the stock
client differs:

* ``create --sensitive`` alone means true (``--sensitive true|false``
  works as in the stock client);
* ``--priority`` is checked here (an integer from 0 to 9999) and sent as
  a number;
* ``unset --condition/--action`` take the (0-based) index of the
  condition or action to remove, as the API stores lists (the stock
  client's patch path, /condition/<key>, is no field of a rule); several
  are removed highest index first, so each index is that of the rule as
  shown;
* ``list --sort`` sorts on the server, as the other lists of this plugin.
"""

import argparse

from osc_lib.command import command
from osc_lib import exceptions as osc_exc

from ironic_like.osc import client as http
from ironic_like.osc import common
from ironic_like.osc.v1 import base

RULE = base.Resource('rule', 'inspection_rules',
                     'UUID of the inspection rule.',
                     'UUIDs of the inspection rules.')

# As python-ironicclient 6.3.0 (INSPECTION_RULE_RESOURCE and _DETAILED_).
SHORT_FIELDS = ['uuid', 'description']
LONG_FIELDS = ['uuid', 'description', 'priority', 'sensitive', 'phase',
               'actions', 'conditions', 'created_at', 'updated_at']

MIN_PRIORITY = 0
MAX_PRIORITY = 9999

_REQUIRES = (http.INSPECTION_RULES, 'Inspection rule commands')
_INPUT_HELP = ('a JSON list, a file of JSON or YAML, or "-" to read it '
               'from standard input')
_ACTIONS_HELP = ('Actions to run when the conditions are met: %s, e.g. '
                 '\'[{"op": "set-attribute", "args": {"path": '
                 '"/properties/cpu_arch", "value": "x86_64"}}]\' (each an '
                 'op and its args, optionally a loop).' % _INPUT_HELP)
_CONDITIONS_HELP = ('Conditions under which the rule runs (all must '
                    'hold): %s, e.g. \'[{"op": "eq", "args": '
                    '["{inventory[cpu][architecture]}", "x86_64"]}]\' '
                    '(each an op and its args, optionally a loop and '
                    'multiple).' % _INPUT_HELP)
_PRIORITY_HELP = ('Precedence of the rule: %d to %d, higher runs first.'
                  % (MIN_PRIORITY, MAX_PRIORITY))
_PHASE_HELP = 'Inspection phase in which the rule runs (e.g. main).'


def priority_arg(value):
    """argparse type of --priority: an integer from 0 to 9999."""
    try:
        priority = int(value)
    except ValueError:
        priority = None
    if priority is None or not MIN_PRIORITY <= priority <= MAX_PRIORITY:
        raise argparse.ArgumentTypeError(
            'Invalid priority "%s": use an integer from %d to %d.'
            % (value, MIN_PRIORITY, MAX_PRIORITY))
    return priority


def index_arg(value):
    """argparse type of unset --condition/--action: an index (0, 1...)."""
    try:
        index = int(value)
    except ValueError:
        index = -1
    if index < 0:
        raise argparse.ArgumentTypeError(
            'Invalid index "%s": use the position in the list, 0 for the '
            'first.' % value)
    return index


def check_uuid(ident):
    """CommandError unless ``ident`` is a UUID (the only name of a rule)."""
    if not common.is_uuid(ident):
        raise osc_exc.CommandError(
            'Invalid inspection rule "%s": rules are named by UUID only.'
            % ident)
    return ident


def _operations(value, option, stdin=None, required=False):
    """The list of conditions or actions of ``--<option> value``."""
    what = 'rule %s' % option
    operations = common.load_json_or_file(value, what, stdin)
    if (not isinstance(operations, list)
            or not all(isinstance(op, dict) for op in operations)):
        raise osc_exc.CommandError(
            '--%s must be a list of %s, each an object with "op" and '
            '"args".' % (option, what))
    if required and not operations:
        raise osc_exc.CommandError('--%s must hold at least one action.'
                                   % option)
    return operations


def _read_operations(parsed_args, stdin=None):
    """{field: list} of --conditions and --actions, when given."""
    given = {name: getattr(parsed_args, name) for name in ('conditions',
                                                           'actions')
             if getattr(parsed_args, name) is not None}
    if list(given.values()).count('-') > 1:
        raise osc_exc.CommandError(
            'Only one of --conditions and --actions can be read from '
            'standard input ("-").')
    return {name: _operations(value, name, stdin,
                              required=name == 'actions')
            for name, value in given.items()}


class CreateInspectionRule(common.BaremetalMixin, command.ShowOne):
    """Create an inspection rule."""

    REQUIRES = _REQUIRES

    def get_parser(self, prog_name):
        parser = super().get_parser(prog_name)
        parser.add_argument('--uuid', metavar='<uuid>',
                            help='UUID of the rule (default: generated).')
        parser.add_argument('--description', metavar='<description>',
                            help='A brief explanation of the rule.')
        parser.add_argument('--priority', metavar='<priority>',
                            type=priority_arg,
                            help=_PRIORITY_HELP + ' Default: 0.')
        # "--sensitive" alone is "--sensitive true"; the stock client
        # takes a value.
        parser.add_argument('--sensitive', metavar='<sensitive>',
                            nargs='?', const=True, type=common.bool_arg,
                            help='Whether the rule holds sensitive data: '
                                 'its conditions and actions are never '
                                 'shown, and this cannot be undone. '
                                 '"--sensitive" alone means true.')
        parser.add_argument('--phase', metavar='<phase>',
                            help=_PHASE_HELP + ' Default: main.')
        parser.add_argument('--conditions', metavar='<conditions>',
                            help=_CONDITIONS_HELP
                            + ' Default: none (the rule always runs).')
        parser.add_argument('--actions', metavar='<actions>',
                            required=True, help=_ACTIONS_HELP)
        return parser

    def take_action(self, parsed_args):
        if parsed_args.uuid is not None:
            check_uuid(parsed_args.uuid)
        operations = _read_operations(parsed_args,
                                      getattr(self.app, 'stdin', None))
        body = common.body_fields(parsed_args, {
            'uuid': common.VALUE, 'description': common.VALUE,
            'priority': common.VALUE, 'sensitive': common.VALUE,
            'phase': common.VALUE})
        body.update(operations)
        self.check_version()
        return common.show(self.client.post(RULE.collection, body))


class ListInspectionRule(base.ListCommand):
    """List inspection rules."""

    RESOURCE = RULE
    REQUIRES = _REQUIRES
    SHORT_FIELDS = SHORT_FIELDS
    LONG_FIELDS = LONG_FIELDS
    LONG = base.DETAIL_PARAM
    FILTERS = ('marker',)


class ShowInspectionRule(base.ShowCommand):
    """Show an inspection rule."""

    RESOURCE = RULE
    REQUIRES = _REQUIRES

    def take_action(self, parsed_args):
        check_uuid(parsed_args.rule)
        return super().take_action(parsed_args)


class SetInspectionRule(base.SetCommand):
    """Set inspection rule fields."""

    RESOURCE = RULE
    REQUIRES = _REQUIRES
    FIELDS = {'description': common.VALUE, 'priority': common.VALUE,
              'phase': common.VALUE}

    def get_parser(self, prog_name):
        parser = super().get_parser(prog_name)
        parser.add_argument('--description', metavar='<description>',
                            help='Set the description.')
        parser.add_argument('--priority', metavar='<priority>',
                            type=priority_arg,
                            help='Set the priority. ' + _PRIORITY_HELP)
        parser.add_argument('--phase', metavar='<phase>',
                            help='Set the phase. ' + _PHASE_HELP)
        parser.add_argument('--conditions', metavar='<conditions>',
                            help='Replace the conditions ("[]": none). '
                                 + _CONDITIONS_HELP)
        parser.add_argument('--actions', metavar='<actions>',
                            help='Replace the actions. ' + _ACTIONS_HELP)
        return parser

    def build_patch(self, parsed_args):
        patch = super().build_patch(parsed_args)
        operations = _read_operations(parsed_args,
                                      getattr(self.app, 'stdin', None))
        # The stock client's order: actions, then conditions.
        for name in ('actions', 'conditions'):
            if name in operations:
                patch.append(common.add_op('/' + name, operations[name]))
        return patch

    def take_action(self, parsed_args):
        check_uuid(parsed_args.rule)
        return super().take_action(parsed_args)


class UnsetInspectionRule(base.UnsetCommand):
    """Unset inspection rule fields, or remove conditions or actions."""

    RESOURCE = RULE
    REQUIRES = _REQUIRES
    FIELDS = {'description': common.VALUE, 'priority': common.VALUE,
              'phase': common.VALUE}

    def get_parser(self, prog_name):
        parser = super().get_parser(prog_name)
        parser.add_argument('--description', action='store_true',
                            help='Unset the description.')
        parser.add_argument('--priority', action='store_true',
                            help='Reset the priority to 0.')
        parser.add_argument('--phase', action='store_true',
                            help='Reset the phase to main.')
        parser.add_argument('--condition', metavar='<index>',
                            action='append', type=index_arg,
                            help='Remove the condition at this index (0: '
                                 'the first; repeatable).')
        parser.add_argument('--action', metavar='<index>',
                            action='append', type=index_arg,
                            help='Remove the action at this index (0: the '
                                 'first; repeatable; a rule keeps at '
                                 'least one action).')
        return parser

    def build_patch(self, parsed_args):
        patch = super().build_patch(parsed_args)
        for option, field in (('condition', 'conditions'),
                              ('action', 'actions')):
            # Highest first: each removal leaves the lower indexes alone.
            for index in sorted(set(getattr(parsed_args, option) or ()),
                                reverse=True):
                patch.append(common.remove_op('/%s/%d' % (field, index)))
        return patch

    def take_action(self, parsed_args):
        check_uuid(parsed_args.rule)
        return super().take_action(parsed_args)


class DeleteInspectionRule(base.DeleteCommand):
    """Delete inspection rules."""

    RESOURCE = RULE
    REQUIRES = _REQUIRES

    def take_action(self, parsed_args):
        self.check_version()

        def delete(ident):
            # A name that is no UUID is a failure of its own, unsent.
            self.client.delete(RULE.path(check_uuid(ident)))

        common.delete_each(getattr(parsed_args, RULE.key), delete,
                           RULE.name, out=self.app.stdout)
