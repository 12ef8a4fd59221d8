"""validate_rule: the checks and the normalized rule the API stores."""

import testtools

from ironic_like.common import exception
from ironic_like.common.inspection_rules import actions
from ironic_like.common.inspection_rules import operators
from ironic_like.common.inspection_rules import validation

LOG_ACTION = {'op': 'log', 'args': {'msg': 'hi'}}


def _rule(**fields):
    fields.setdefault('actions', [LOG_ACTION])
    return fields


class TestNames(testtools.TestCase):

    def test_condition_names(self):
        self.assertEqual(('eq', 'lt', 'gt', 'is-empty', 'in-net', 'matches',
                          'contains', 'one-of', 'is-none', 'is-true',
                          'is-false'), operators.NAMES)

    def test_action_names(self):
        self.assertEqual(
            ('fail', 'log', 'set-attribute', 'extend-attribute',
             'del-attribute', 'set-capability', 'unset-capability',
             'add-trait', 'remove-trait', 'set-plugin-data',
             'extend-plugin-data', 'unset-plugin-data', 'set-port-attribute',
             'extend-port-attribute', 'del-port-attribute', 'api-call'),
            actions.NAMES)

    def test_parse_op(self):
        self.assertEqual(('eq', False), operators.parse_op('eq'))
        self.assertEqual(('eq', True), operators.parse_op('!eq'))
        self.assertEqual(('contains', True),
                         operators.parse_op('! contains'))
        self.assertEqual(('eq', False), operators.parse_op(' eq '))
        self.assertRaises(ValueError, operators.parse_op, '!!eq')
        self.assertRaises(ValueError, operators.parse_op, '! !eq')
        self.assertRaises(ValueError, operators.parse_op, None)


class TestNormalized(testtools.TestCase):

    def test_defaults(self):
        self.assertEqual({'uuid': None, 'description': None, 'priority': 0,
                          'sensitive': False, 'phase': 'main',
                          'conditions': [], 'actions': [LOG_ACTION]},
                         validation.validate_rule(_rule()))

    def test_nulls_are_defaults(self):
        rule = validation.validate_rule(_rule(
            uuid=None, description=None, priority=None, sensitive=None,
            phase=None, conditions=None))
        self.assertEqual((0, False, 'main', []),
                         (rule['priority'], rule['sensitive'], rule['phase'],
                          rule['conditions']))

    def test_everything_kept(self):
        body = {
            'uuid': 'rule-dell', 'description': 'Dell', 'priority': 100,
            'sensitive': True, 'phase': 'main',
            'conditions': [
                {'op': '!eq', 'args': {'values': [1, 2]}},
                {'op': 'eq', 'args': {'values': ['{item}', 'a']},
                 'loop': ['a', 'b'], 'multiple': 'all', 'other': 1}],
            'actions': [
                {'op': 'add-trait', 'args': ['CUSTOM_A']},
                {'op': 'log', 'args': {'msg': '{item}'}, 'loop': {'a': 1}}],
        }
        self.assertEqual({
            'uuid': 'rule-dell', 'description': 'Dell', 'priority': 100,
            'sensitive': True, 'phase': 'main',
            'conditions': [
                {'op': '!eq', 'args': {'values': [1, 2]}},
                {'op': 'eq', 'args': {'values': ['{item}', 'a']},
                 'loop': ['a', 'b'], 'multiple': 'all'}],
            'actions': [
                {'op': 'add-trait', 'args': ['CUSTOM_A']},
                {'op': 'log', 'args': {'msg': '{item}'},
                 'loop': {'a': 1}}],
        }, validation.validate_rule(body))

    def test_input_not_modified(self):
        body = _rule(conditions=[{'op': 'is-none', 'args': {'value': 1}}])
        before = repr(body)
        validation.validate_rule(body)
        self.assertEqual(before, repr(body))

    def test_every_op_with_its_required_args(self):
        for name, spec in operators.CONDITIONS.items():
            args = {n: [] if n == 'values' else 'x'
                    for n in spec.signature.required}
            validation.validate_rule(_rule(conditions=[
                {'op': name, 'args': args}, {'op': '!' + name, 'args': args}]))
        for name, spec in actions.ACTIONS.items():
            args = {n: 'x' for n in spec.signature.required}
            validation.validate_rule(_rule(
                actions=[{'op': name, 'args': args}]))

    def test_list_args(self):
        rule = validation.validate_rule(_rule(
            conditions=[{'op': 'eq', 'args': [[1, 1], True]},
                        {'op': 'one-of', 'args': ['a']}],
            actions=[{'op': 'set-attribute', 'args': ['/extra/a', 1]}]))
        self.assertEqual([[1, 1], True], rule['conditions'][0]['args'])

    def test_built_in_priority(self):
        for priority in (-5, 10000):
            rule = validation.validate_rule(_rule(priority=priority),
                                            built_in=True)
            self.assertEqual(priority, rule['priority'])
        for priority in (0, 9999):
            validation.validate_rule(_rule(priority=priority))


class TestErrors(testtools.TestCase):

    def _error(self, body, built_in=False):
        return self.assertRaises(exception.InvalidParameterValue,
                                 validation.validate_rule, body, built_in)

    def assertError(self, field, text, body, built_in=False):
        exc = self._error(body, built_in)
        self.assertEqual(field, exc.field)
        self.assertIn(text, str(exc))
        self.assertEqual(400, exc.code)
        return exc

    def test_not_a_dict(self):
        self.assertIn('must be a dictionary', str(self._error(['x'])))

    def test_phase(self):
        self.assertError('phase', "invalid phase 'preprocess'",
                         _rule(phase='preprocess'))

    def test_priority(self):
        for priority in (-1, 10000):
            self.assertError('priority', 'between 0 and 9999',
                             _rule(priority=priority))
        for priority in ('5', 1.5, True):
            self.assertError('priority', 'must be an integer',
                             _rule(priority=priority), built_in=True)

    def test_scalar_fields(self):
        self.assertError('uuid', 'uuid', _rule(uuid=5))
        self.assertError('description', '255',
                         _rule(description='x' * 256))
        self.assertError('sensitive', 'boolean', _rule(sensitive='yes'))
        self.assertError('scope', 'unknown field(s): scope',
                         _rule(scope='x'))

    def test_actions_required(self):
        self.assertError('actions', 'non-empty list', {})
        self.assertError('actions', 'non-empty list', {'actions': []})
        self.assertError('actions', 'non-empty list', {'actions': 'log'})

    def test_conditions_shape(self):
        self.assertError('conditions', 'conditions must be a list',
                         _rule(conditions={'op': 'eq'}))
        self.assertError('conditions', 'conditions[0] must be a dictionary',
                         _rule(conditions=['eq']))

    def test_unknown_condition(self):
        self.assertError('conditions', "conditions[0]: unknown condition "
                         "op 'equals'", _rule(conditions=[
                             {'op': 'equals', 'args': {}}]))
        self.assertError('conditions', "(op '!!eq'): only one",
                         _rule(conditions=[{'op': '!!eq', 'args': {}}]))
        self.assertError('conditions', "(op None): op must be a string",
                         _rule(conditions=[{'args': {}}]))

    def test_condition_missing_and_unexpected_args(self):
        self.assertError(
            'conditions', "conditions[1] (op 'eq'): missing required "
            "argument(s): values", _rule(conditions=[
                {'op': 'is-none', 'args': {'value': 1}},
                {'op': 'eq', 'args': {}}]))
        exc = self.assertError(
            'conditions', "conditions[0] (op '!matches'): unexpected "
            "argument(s): field", _rule(conditions=[
                {'op': '!matches', 'args': {'field': 'x', 'value': 'a',
                                            'regex': 'a'}}]))
        self.assertIn('accepted: value, regex', str(exc))

    def test_condition_args_shape(self):
        self.assertError('conditions', 'too many positional arguments',
                         _rule(conditions=[{'op': 'is-none',
                                            'args': [1, 2]}]))
        self.assertError('conditions', 'missing required argument(s): '
                         'regex', _rule(conditions=[{'op': 'matches',
                                                     'args': ['a']}]))
        self.assertError('conditions', 'args must be a dictionary',
                         _rule(conditions=[{'op': 'is-none',
                                            'args': 'x'}]))
        self.assertError('conditions', 'argument names must be strings',
                         _rule(conditions=[{'op': 'is-none',
                                            'args': {1: 'x'}}]))

    def test_condition_static_checks(self):
        self.assertError('conditions', "'values' must be a list",
                         _rule(conditions=[{'op': 'eq',
                                            'args': {'values': 'a'}}]))
        # The ambiguity the doc warns about: a list spread out.
        self.assertError('conditions', "'values' must be a list",
                         _rule(conditions=[{'op': 'eq',
                                            'args': ['{a}', 'b']}]))
        self.assertError('conditions', 'invalid regular expression',
                         _rule(conditions=[{'op': 'contains', 'args': {
                             'value': 'a', 'regex': '('}}]))
        # In a loop the regex is interpolated: checked when run.
        validation.validate_rule(_rule(conditions=[{
            'op': 'contains', 'args': {'value': 'a', 'regex': '('},
            'loop': [1]}]))

    def test_loop_and_multiple(self):
        self.assertError('conditions', 'loop must be a list or a dictionary',
                         _rule(conditions=[{'op': 'is-none',
                                            'args': {'value': 1},
                                            'loop': 'abc'}]))
        self.assertError('conditions', 'multiple must be one of any, all, '
                         "first, last, not 'some'", _rule(conditions=[
                             {'op': 'is-none', 'args': {'value': 1},
                              'loop': [1], 'multiple': 'some'}]))
        self.assertError('actions', "actions[0] (op 'log'): loop must be",
                         _rule(actions=[dict(LOG_ACTION, loop=5)]))

    def test_action_errors(self):
        self.assertError('actions', "actions[1]: unknown action op 'jump'",
                         _rule(actions=[LOG_ACTION, {'op': 'jump',
                                                     'args': {}}]))
        self.assertError('actions', "unknown action op '!log'",
                         _rule(actions=[{'op': '!log', 'args': {}}]))
        self.assertError('actions', 'actions[0] must be a dictionary',
                         _rule(actions=['log']))
        self.assertError('actions', "actions[0] (op 'set-attribute'): "
                         "missing required argument(s): path, value",
                         _rule(actions=[{'op': 'set-attribute',
                                         'args': {}}]))
        self.assertError('actions', "unexpected argument(s): levle",
                         _rule(actions=[{'op': 'log', 'args': {
                             'msg': 'a', 'levle': 'info'}}]))

    def test_action_static_checks(self):
        self.assertError('actions', "invalid log level 'loud'",
                         _rule(actions=[{'op': 'log', 'args': {
                             'msg': 'a', 'level': 'loud'}}]))
        self.assertError('actions', 'timeout must be greater than 0',
                         _rule(actions=[{'op': 'api-call', 'args': {
                             'url': 'http://x', 'timeout': 0}}]))
        self.assertError('actions', 'retries must be a number',
                         _rule(actions=[{'op': 'api-call', 'args': {
                             'url': 'http://x', 'retries': 'many'}}]))
        self.assertError('actions', 'headers must be a dictionary',
                         _rule(actions=[{'op': 'api-call', 'args': {
                             'url': 'http://x', 'headers': ['a']}}]))
        validation.validate_rule(_rule(actions=[
            {'op': 'log', 'args': {'msg': 'a', 'level': 'WARNING'}},
            {'op': 'log', 'args': {'msg': 'a', 'level': '{item}'}},
            {'op': 'api-call', 'args': {'url': 'http://x', 'timeout': '2',
                                        'retries': 0}}]))

    def test_several_errors_joined(self):
        exc = self.assertError('priority', 'between 0 and 9999', {
            'priority': -1, 'phase': 'x',
            'conditions': [{'op': 'eq', 'args': {}}],
            'actions': [{'op': 'fail', 'args': {}}]})
        for text in ("invalid phase 'x'", "conditions[0] (op 'eq')",
                     "actions[0] (op 'fail'): missing required "
                     "argument(s): msg"):
            self.assertIn(text, str(exc))
