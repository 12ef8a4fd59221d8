"""Checks an inspection rule body and returns it normalized.

The API checks the shape of a body with its JSON schema first; the
built-in rules file has no such check, so the shape is checked here too.
"""

from oslo_log import log
from oslo_log import versionutils

from ironic_like.common import exception
from ironic_like.common.inspection_rules import actions
from ironic_like.common.inspection_rules import operators

LOG = log.getLogger(__name__)

PHASES = ('main',)
DEFAULT_PHASE = 'main'
PRIORITY_MIN = 0
PRIORITY_MAX = 9999
DESCRIPTION_MAX_LENGTH = 255
RULE_FIELDS = ('uuid', 'description', 'priority', 'sensitive', 'phase',
               'conditions', 'actions')


class _Problems:
    """(field, message) pairs; raised as one InvalidParameterValue."""

    def __init__(self):
        self.items = []

    def add(self, field, message):
        self.items.append((field, message))

    def raise_any(self):
        if self.items:
            raise exception.InvalidParameterValue(
                err='; '.join(message for _field, message in self.items),
                field=self.items[0][0])


def _check_args(problems, field, where, op, spec, args, in_loop, static):
    if args is None:
        args = {}
    found = spec.signature.problems(args)
    if not found:
        if isinstance(args, list):
            versionutils.report_deprecated_feature(
                LOG, 'Inspection rule "args" given as a list are deprecated;'
                ' give them as a dictionary of named arguments instead.')
        found = static(spec.name, spec.signature.named(args), in_loop)
    for message in found:
        problems.add(field, '%s (op %r): %s' % (where, op, message))
    return args


def _check_loop(problems, field, where, op, item, normalized):
    loop = item.get('loop')
    if loop is None:
        return False
    if not isinstance(loop, (list, dict)):
        problems.add(field, '%s (op %r): loop must be a list or a '
                     'dictionary, not %s' % (where, op, type(loop).__name__))
    normalized['loop'] = loop
    return True


def _condition(problems, index, condition):
    where = 'conditions[%d]' % index
    if not isinstance(condition, dict):
        problems.add('conditions', '%s must be a dictionary' % where)
        return None
    op = condition.get('op')
    try:
        name, _inverted = operators.parse_op(op)
    except ValueError as exc:
        problems.add('conditions', '%s (op %r): %s' % (where, op, exc))
        return None
    spec = operators.CONDITIONS.get(name)
    if spec is None:
        problems.add('conditions', '%s: unknown condition op %r; known: %s'
                     % (where, op, ', '.join(operators.NAMES)))
        return None
    normalized = {'op': op, 'args': None}
    in_loop = _check_loop(problems, 'conditions', where, op, condition,
                          normalized)
    normalized['args'] = _check_args(
        problems, 'conditions', where, op, spec, condition.get('args'),
        in_loop, operators.static_problems)
    if condition.get('multiple') is not None:
        multiple = condition['multiple']
        if multiple not in operators.MULTIPLE:
            problems.add('conditions', '%s (op %r): multiple must be one of '
                         '%s, not %r' % (where, op,
                                         ', '.join(operators.MULTIPLE),
                                         multiple))
        normalized['multiple'] = multiple
    return normalized


def _action(problems, index, action):
    where = 'actions[%d]' % index
    if not isinstance(action, dict):
        problems.add('actions', '%s must be a dictionary' % where)
        return None
    op = action.get('op')
    spec = actions.ACTIONS.get(op) if isinstance(op, str) else None
    if spec is None:
        problems.add('actions', '%s: unknown action op %r; known: %s'
                     % (where, op, ', '.join(actions.NAMES)))
        return None
    normalized = {'op': op, 'args': None}
    in_loop = _check_loop(problems, 'actions', where, op, action, normalized)
    normalized['args'] = _check_args(
        problems, 'actions', where, op, spec, action.get('args'), in_loop,
        actions.static_problems)
    return normalized


def _check_fields(problems, rule, built_in):
    unknown = sorted(str(k) for k in set(rule) - set(RULE_FIELDS))
    if unknown:
        problems.add(unknown[0], 'unknown field(s): %s; an inspection rule '
                     'has: %s' % (', '.join(unknown), ', '.join(RULE_FIELDS)))
    uuid = rule.get('uuid')
    if uuid is not None and (not isinstance(uuid, str) or not uuid):
        problems.add('uuid', 'uuid must be a non-empty string')
    description = rule.get('description')
    if description is not None and (
            not isinstance(description, str)
            or len(description) > DESCRIPTION_MAX_LENGTH):
        problems.add('description', 'description must be a string of at '
                     'most %d characters' % DESCRIPTION_MAX_LENGTH)
    priority = rule.get('priority')
    if priority is not None:
        if not isinstance(priority, int) or isinstance(priority, bool):
            problems.add('priority', 'priority must be an integer')
        elif not built_in and not (
                PRIORITY_MIN <= priority <= PRIORITY_MAX):
            problems.add('priority', 'priority must be between %d and %d '
                         'for user-defined rules, not %d'
                         % (PRIORITY_MIN, PRIORITY_MAX, priority))
    sensitive = rule.get('sensitive')
    if sensitive is not None and not isinstance(sensitive, bool):
        problems.add('sensitive', 'sensitive must be a boolean')
    phase = rule.get('phase')
    if phase is not None and phase not in PHASES:
        problems.add('phase', 'invalid phase %r; valid phases: %s'
                     % (phase, ', '.join(PHASES)))


def validate_rule(rule, built_in=False):
    """Check an inspection rule and return it normalized.

    :param rule: the rule body: uuid, description, priority, sensitive,
        phase, conditions, actions (all but actions optional).
    :param built_in: a built-in rule (from the rules file) may have any
        integer priority; a user rule 0 to 9999.
    :returns: {'uuid', 'description', 'priority', 'sensitive', 'phase',
        'conditions', 'actions'}, defaults filled in; each condition
        {'op', 'args'[, 'loop', 'multiple']}, each action
        {'op', 'args'[, 'loop']}, the args as given.
    :raises: InvalidParameterValue naming the field at fault (its
        ``field``) and, in the message, the condition or action.
    """
    if not isinstance(rule, dict):
        raise exception.InvalidParameterValue(
            err='an inspection rule must be a dictionary, not %s'
            % type(rule).__name__, field=None)
    problems = _Problems()
    _check_fields(problems, rule, built_in)

    conditions = rule.get('conditions')
    if conditions is None:
        conditions = []
    if not isinstance(conditions, list):
        problems.add('conditions', 'conditions must be a list')
        conditions = []
    conditions = [_condition(problems, i, c)
                  for i, c in enumerate(conditions)]

    rule_actions = rule.get('actions')
    if not isinstance(rule_actions, list) or not rule_actions:
        problems.add('actions', 'actions must be a non-empty list')
        rule_actions = []
    rule_actions = [_action(problems, i, a)
                    for i, a in enumerate(rule_actions)]

    problems.raise_any()
    return {
        'uuid': rule.get('uuid'),
        'description': rule.get('description'),
        'priority': (0 if rule.get('priority') is None
                     else rule['priority']),
        'sensitive': bool(rule.get('sensitive')),
        'phase': rule.get('phase') or DEFAULT_PHASE,
        'conditions': conditions,
        'actions': rule_actions,
    }
