"""Runs inspection rules against a node's inspection data.

The conductor validates nothing here (the API and load_rules_file did):
it builds a NodeChanges, calls apply_rules() and writes the differences.
A "fail" action raises RuleFailed; any other problem RuleError, naming the
rule and the operation. Either fails the inspection with its message.
"""

from oslo_log import log
import yaml

from ironic_like.common import exception
from ironic_like.common import masking
from ironic_like.common.inspection_rules import actions
from ironic_like.common.inspection_rules import changes as changes_mod
from ironic_like.common.inspection_rules import errors
from ironic_like.common.inspection_rules import interpolation
from ironic_like.common.inspection_rules import masked
from ironic_like.common.inspection_rules import operators
from ironic_like.common.inspection_rules import validation

LOG = log.getLogger(__name__)

# Re-exported: the names the conductor uses.
NodeChanges = changes_mod.NodeChanges
RuleEngineError = errors.RuleEngineError
RuleFailed = errors.RuleFailed
RuleError = errors.RuleError

# [inspection_rules]mask_secrets: mask the secrets of the inventory and
# plugin data for every rule, for none, or for rules not marked sensitive.
MASK_MODES = ('always', 'never', 'sensitive')


def _loop_items(loop):
    """A list loop runs once per item; a dict loop once, item = the dict."""
    return [loop] if isinstance(loop, dict) else list(loop)


class _RuleRun:
    """One rule applied to one node."""

    def __init__(self, rule, changes, node, inventory, plugin_data, mask):
        self.rule = rule
        self.uuid = rule.get('uuid')
        self.sensitive = bool(rule.get('sensitive'))
        self.changes = changes
        self.plugin_data = plugin_data
        self.variables = {
            'node': interpolation.NodeView(node, changes.fields),
            'inventory': masked.view(inventory, mask),
            'plugin_data': masked.view(plugin_data, mask),
        }

    def _formatter(self, missing_as_none=False):
        return interpolation.Formatter(self.variables, missing_as_none,
                                       quiet=self.sensitive)

    def _error(self, where, op, exc):
        if isinstance(exc, errors.OpError):
            detail = str(exc)
        else:
            LOG.debug('Unexpected error in inspection rule %s',
                      self.uuid, exc_info=not self.sensitive)
            detail = '%s: %s' % (type(exc).__name__, exc)
        return RuleError('Inspection rule %s, %s (op %r): %s' % (
            self.uuid, where, op, masking.mask_text(detail)),
            rule_uuid=self.uuid, op=op)

    # Conditions.

    def conditions_hold(self):
        for index, condition in enumerate(self.rule.get('conditions') or []):
            op = condition.get('op')
            try:
                result = self._check(condition)
            except Exception as exc:
                raise self._error('conditions[%d]' % index, op, exc)
            if not result:
                LOG.debug('Inspection rule %(rule)s skipped: condition '
                          '%(index)d (op %(op)r) is false%(args)s',
                          {'rule': self.uuid, 'index': index, 'op': op,
                           'args': '' if self.sensitive else
                           ', args %r' % (condition.get('args'),)})
                return False
        return True

    def _check(self, condition):
        name, inverted = operators.parse_op(condition['op'])
        spec = operators.CONDITIONS[name]
        args = spec.signature.named(condition.get('args'))
        formatter = self._formatter(spec.missing_as_none)
        if 'loop' not in condition:
            return self._check_once(spec, args, inverted, formatter, False)
        items = _loop_items(condition['loop'])
        multiple = condition.get('multiple') or 'any'
        if multiple == 'first':
            items = items[:1]
        elif multiple == 'last':
            items = items[-1:]
        results = (self._check_once(spec, args, inverted,
                                    formatter.with_item(item), True)
                   for item in items)
        return all(results) if multiple == 'all' else any(results)

    @staticmethod
    def _check_once(spec, args, inverted, formatter, in_loop):
        args = interpolation.format_args(args, spec.formatted, formatter,
                                         everything=in_loop)
        bound = spec.signature.bind(args)
        if in_loop and 'force_strings' in bound:
            # Interpolation turns numbers into strings: compare strings.
            bound['force_strings'] = True
        result = bool(spec.check(**bound))
        return not result if inverted else result

    # Actions.

    def run_actions(self):
        context = actions.ActionContext(self.changes, self.plugin_data,
                                        self.uuid)
        for index, action in enumerate(self.rule.get('actions') or []):
            op = action.get('op')
            try:
                self._act(context, action)
            except RuleFailed as exc:
                exc.rule_uuid = exc.rule_uuid or self.uuid
                raise
            except Exception as exc:
                raise self._error('actions[%d]' % index, op, exc)

    def _act(self, context, action):
        spec = actions.ACTIONS[action['op']]
        args = spec.signature.named(action.get('args'))
        formatter = self._formatter()
        if 'loop' not in action:
            self._act_once(context, spec, args, formatter, False)
            return
        for item in _loop_items(action['loop']):
            self._act_once(context, spec, args, formatter.with_item(item),
                           True)

    @staticmethod
    def _act_once(context, spec, args, formatter, in_loop):
        args = interpolation.format_args(args, spec.formatted, formatter,
                                         everything=in_loop)
        spec.run(context, **spec.signature.bind(args))


def apply_rules(rules, changes, node, inventory, plugin_data,
                mask_secrets='always'):
    """Apply inspection rules to a node, highest priority first.

    :param rules: normalized rules (validation.validate_rule); equal
        priorities keep their order.
    :param changes: the NodeChanges the actions edit.
    :param node: the node, read by "{node.x}" (fields the rules changed
        read as changed).
    :param inventory: the inventory (dict), read only.
    :param plugin_data: the plugin data (dict), changed in place by the
        *-plugin-data actions.
    :param mask_secrets: 'always', 'never' or 'sensitive' (only for the
        rules not marked sensitive): what conditions and interpolation
        see of the secrets in the inventory and plugin data.
    :returns: the UUIDs of the rules whose actions ran, in order.
    :raises: RuleFailed (a "fail" action), RuleError (anything else).
    """
    if mask_secrets not in MASK_MODES:
        raise exception.InvalidParameterValue(
            err='mask_secrets must be one of %s, not %r'
            % (', '.join(MASK_MODES), mask_secrets), field='mask_secrets')
    inventory = {} if inventory is None else inventory
    plugin_data = {} if plugin_data is None else plugin_data
    applied = []
    ordered = sorted(rules, key=lambda r: r.get('priority') or 0,
                     reverse=True)
    for rule in ordered:
        mask = (mask_secrets == 'always' or
                (mask_secrets == 'sensitive' and not rule.get('sensitive')))
        run = _RuleRun(rule, changes, node, inventory, plugin_data, mask)
        if not run.conditions_hold():
            continue
        LOG.info('Applying the actions of inspection rule %s', run.uuid)
        run.run_actions()
        applied.append(run.uuid)
    return applied


def _synthetic_uuid(index):
    return '00000000-0000-0000-0000-%012x' % index


def _file_error(path, message, field='built_in_rules'):
    return exception.InvalidParameterValue(
        err='Built-in inspection rules file %s: %s' % (path, message),
        field=field)


def load_rules_file(path):
    """The built-in rules of a YAML file ([inspection_rules]built_in_rules).

    The file holds a list of rules (an empty file: none), each validated
    as a built-in rule; a rule without uuid gets
    '00000000-0000-0000-0000-<n>', n counting the rules without one.

    :raises: InvalidParameterValue naming the file (and the rule index).
    """
    try:
        with open(path, encoding='utf-8') as stream:
            data = yaml.safe_load(stream)
    except OSError as exc:
        raise _file_error(path, 'cannot be read: %s' % exc)
    except (yaml.YAMLError, UnicodeDecodeError) as exc:
        raise _file_error(path, 'invalid YAML: %s' % exc)
    if data is None:
        return []
    if not isinstance(data, list):
        raise _file_error(path, 'must hold a list of rules, not %s'
                          % type(data).__name__)
    rules = []
    seen = set()
    synthetic = 0
    for index, body in enumerate(data):
        if isinstance(body, dict) and body.get('uuid') is None:
            body = dict(body, uuid=_synthetic_uuid(synthetic))
            synthetic += 1
        try:
            rule = validation.validate_rule(body, built_in=True)
        except exception.InvalidParameterValue as exc:
            raise _file_error(path, 'rule %d: %s' % (index, exc),
                              field=exc.field)
        if rule['uuid'] in seen:
            raise _file_error(path, 'rule %d: duplicate uuid %s'
                              % (index, rule['uuid']), field='uuid')
        seen.add(rule['uuid'])
        rules.append(rule)
    return rules
