"""apply_rules: order, loops, interpolation, masking, errors."""

import logging
import types

import fixtures
import testtools

from ironic_like.common import exception
from ironic_like.common.inspection_rules import engine
from ironic_like.common.inspection_rules import interpolation
from ironic_like.common.inspection_rules import masked
from ironic_like.common.inspection_rules import validation

INVENTORY = {
    'bmc_address': '10.0.0.9', 'bmc_password': 'inv-secret',
    'system_vendor': {'product_name': 'PowerEdge R640'},
    'interfaces': [{'name': 'eth0', 'auth_token': 'tok'}],
    'memory': {'physical_mb': 8192},
}


def _rule(uuid='r', conditions=(), actions=None, built_in=False, **fields):
    return validation.validate_rule(dict(
        fields, uuid=uuid, conditions=list(conditions),
        actions=actions or [{'op': 'add-trait', 'args': {'name': 'CUSTOM_'
                                                         + uuid.upper()}}]),
        built_in=built_in)


class EngineTest(testtools.TestCase):

    def setUp(self):
        super().setUp()
        self.node = types.SimpleNamespace(name='node-1', driver='ipmi',
                                          uuid='u-1', properties={})
        self.changes = engine.NodeChanges(
            {'name': 'node-1', 'extra': {}, 'driver_info': {}}, [], [])
        self.plugin_data = {'auto_discovered': True, 'password': 'pd-secret'}
        self.log = self.useFixture(fixtures.FakeLogger(level=logging.DEBUG))

    def apply(self, *rules, mask_secrets='always', inventory=INVENTORY):
        return engine.apply_rules(list(rules), self.changes, self.node,
                                  inventory, self.plugin_data, mask_secrets)

    def extra_after(self, value, loop=None, **rule_fields):
        action = {'op': 'set-attribute',
                  'args': {'path': '/extra/v', 'value': value}}
        if loop is not None:
            action['loop'] = loop
        mask = rule_fields.pop('mask', 'always')
        self.apply(_rule(actions=[action], **rule_fields), mask_secrets=mask)
        return self.changes.fields['extra'].get('v')


class TestOrder(EngineTest):

    def test_priority_highest_first_stable(self):
        rules = [_rule('a', priority=1), _rule('b', priority=5),
                 _rule('c', priority=1), _rule('d', priority=5),
                 _rule('e', priority=-3, built_in=True)]
        self.assertEqual(['b', 'd', 'a', 'c', 'e'], self.apply(*rules))
        self.assertEqual(['CUSTOM_B', 'CUSTOM_D', 'CUSTOM_A', 'CUSTOM_C',
                          'CUSTOM_E'], self.changes.traits)

    def test_conditions_all_must_hold(self):
        yes = {'op': 'is-true', 'args': {'value': True}}
        no = {'op': 'is-true', 'args': {'value': False}}
        self.assertEqual(['a', 'c'], self.apply(
            _rule('a', [yes, yes]), _rule('b', [yes, no]), _rule('c')))

    def test_later_rules_see_earlier_changes(self):
        first = _rule('a', priority=2, actions=[{
            'op': 'set-attribute', 'args': {'path': '/name',
                                            'value': 'renamed'}}])
        second = _rule('b', priority=1, conditions=[{
            'op': 'eq', 'args': {'values': ['{node.name}', 'renamed']}}])
        self.assertEqual(['a', 'b'], self.apply(second, first))

    def test_bad_mask_mode(self):
        exc = self.assertRaises(exception.InvalidParameterValue, self.apply,
                                _rule(), mask_secrets='sometimes')
        self.assertEqual('mask_secrets', exc.field)

    def test_no_rules(self):
        self.assertEqual([], self.apply())


class TestLoops(EngineTest):

    def check(self, loop, multiple=None, op='eq'):
        condition = {'op': op, 'args': {'values': ['{item}', 'b']},
                     'loop': loop}
        if multiple:
            condition['multiple'] = multiple
        return self.apply(_rule(conditions=[condition])) == ['r']

    def test_any(self):
        self.assertTrue(self.check(['a', 'b', 'c']))
        self.assertTrue(self.check(['a', 'b'], 'any'))
        self.assertFalse(self.check(['a', 'c'], 'any'))
        self.assertFalse(self.check([], 'any'))

    def test_all(self):
        self.assertTrue(self.check(['b', 'b'], 'all'))
        self.assertFalse(self.check(['b', 'c'], 'all'))

    def test_first(self):
        self.assertTrue(self.check(['b', 'c'], 'first'))
        self.assertFalse(self.check(['c', 'b'], 'first'))
        # Only the first item is evaluated.
        self.assertTrue(self.check(['b', '{bad'], 'first', op='eq'))
        self.assertNotIn('{bad', self.log.output)

    def test_last(self):
        self.assertTrue(self.check(['c', 'b'], 'last'))
        self.assertFalse(self.check(['b', 'c'], 'last'))

    def test_inverted_in_loop(self):
        self.assertTrue(self.check(['b', 'c'], 'any', op='!eq'))
        self.assertFalse(self.check(['b', 'b'], 'any', op='!eq'))
        self.assertTrue(self.check(['a', 'c'], 'all', op='!eq'))

    def test_loop_forces_strings(self):
        condition = {'op': 'eq', 'args': {'values': [
            '{inventory[memory][physical_mb]}', '{item}']}, 'loop': [8192]}
        self.assertEqual(['r'], self.apply(_rule(conditions=[condition])))

    def test_doc_example(self):
        condition = {'op': 'eq', 'args': {'values': [
            '{inventory[system_vendor][product_name]}', '{item}']},
            'loop': ['HPE ProLiant DL380 Gen10', 'PowerEdge R640'],
            'multiple': 'any'}
        self.assertEqual(['r'], self.apply(_rule(conditions=[condition])))

    def test_dict_loop_condition(self):
        condition = {'op': 'eq', 'args': {'values': ['{item[a]}', '1']},
                     'loop': {'a': 1}}
        self.assertEqual(['r'], self.apply(_rule(conditions=[condition])))

    def test_action_loop(self):
        self.apply(_rule(actions=[{
            'op': 'set-attribute',
            'args': {'path': '{item[path]}', 'value': '{item[value]}'},
            'loop': [{'path': '/driver_info/ipmi_username', 'value': 'admin'},
                     {'path': 'driver_info.ipmi_address',
                      'value': '{inventory[bmc_address]}'}]}]))
        self.assertEqual({'ipmi_username': 'admin',
                          'ipmi_address': '10.0.0.9'},
                         self.changes.fields['driver_info'])

    def test_action_dict_loop_and_empty_loop(self):
        self.apply(_rule(actions=[
            {'op': 'extend-attribute', 'args': {'path': '/extra/l',
                                                'value': '{item[x]}'},
             'loop': {'x': 'once'}},
            {'op': 'extend-attribute', 'args': {'path': '/extra/l',
                                                'value': 'never'},
             'loop': []}]))
        self.assertEqual({'l': ['once']}, self.changes.fields['extra'])


class TestInterpolation(EngineTest):

    def test_variables(self):
        self.assertEqual('node-1 ipmi 10.0.0.9 True', self.extra_after(
            '{node.name} {node.driver} {inventory[bmc_address]} '
            '{plugin_data[auto_discovered]}'))

    def test_nested_structures_and_keys(self):
        self.assertEqual({'ipmi': ['10.0.0.9', {'k': 'node-1'}, 5, None]},
                         self.extra_after({'{node.driver}': [
                             '{inventory[bmc_address]}', {'k': '{node.name}'},
                             5, None]}))

    def test_whole_structures_format_as_text(self):
        self.assertEqual("{'physical_mb': 8192}",
                         self.extra_after('{inventory[memory]}'))

    def test_format_failures_keep_the_string(self):
        for text in ('{inventory[nope]}', '{inventory.bmc_address}',
                     '{node[name]}', '{nothing}', '{0}', 'a { b',
                     '{node.missing}'):
            self.assertEqual(text, self.extra_after(text))
        self.assertIn("Interpolation of '{inventory[nope]}' failed",
                      self.log.output)

    def test_escaped_braces(self):
        self.assertEqual('{literal}', self.extra_after('{{literal}}'))

    def test_sensitive_rule_failures_are_quiet(self):
        self.extra_after('{inventory[pa55word]}', sensitive=True)
        self.assertNotIn('pa55word', self.log.output)
        self.assertIn('Interpolation failed in a sensitive rule',
                      self.log.output)

    def test_node_view(self):
        view = interpolation.NodeView(self.node, {'name': 'new'})
        self.assertEqual('new', view.name)
        self.assertEqual('ipmi', view.driver)
        self.assertRaises(AttributeError, getattr, view, 'absent')
        self.assertRaises(AttributeError, getattr, view, '_private')

    def test_no_node(self):
        self.node = None
        self.assertEqual('{node.driver}', self.extra_after('{node.driver}'))
        # The writable fields come from NodeChanges.
        self.assertEqual('node-1', self.extra_after('{node.name}'))


class TestMasking(EngineTest):

    def test_always(self):
        self.assertEqual('****** ****** ******', self.extra_after(
            '{inventory[bmc_password]} {plugin_data[password]} '
            '{inventory[interfaces][0][auth_token]}'))

    def test_never(self):
        self.assertEqual('inv-secret pd-secret', self.extra_after(
            '{inventory[bmc_password]} {plugin_data[password]}',
            mask='never'))

    def test_sensitive_mode(self):
        text = '{inventory[bmc_password]}'
        self.assertEqual('inv-secret', self.extra_after(
            text, mask='sensitive', sensitive=True))
        self.assertEqual('******', self.extra_after(
            text, mask='sensitive', sensitive=False))
        self.assertEqual('******', self.extra_after(
            text, mask='always', sensitive=True))

    def test_conditions_see_masked_values(self):
        condition = {'op': 'eq', 'args': {'values': [
            '{inventory[bmc_password]}', 'inv-secret']}}
        self.assertEqual([], self.apply(_rule(conditions=[condition])))
        self.assertEqual(['r'], self.apply(_rule(conditions=[condition]),
                                           mask_secrets='never'))

    def test_whole_dict_masked(self):
        value = self.extra_after('{inventory[interfaces]}')
        self.assertEqual("[{'name': 'eth0', 'auth_token': '******'}]", value)
        self.assertEqual('{}', repr(masked.MaskedMapping({})))
        self.assertEqual(['a'], list(masked.MaskedSequence(['a', 'b'])[:1]))

    def test_plugin_data_actions_change_the_real_data(self):
        self.apply(_rule(actions=[{'op': 'set-plugin-data', 'args': {
            'path': 'bmc_password', 'value': 'new'}}]))
        self.assertEqual('new', self.plugin_data['bmc_password'])
        self.assertEqual('pd-secret', self.plugin_data['password'])


class TestErrors(EngineTest):

    def test_unexpected_error_is_wrapped(self):
        rule = _rule()
        rule['actions'][0]['op'] = 'teleport'
        exc = self.assertRaises(engine.RuleError, self.apply, rule)
        self.assertIn("Inspection rule r, actions[0] (op 'teleport'): "
                      "KeyError", str(exc))

    def test_condition_error(self):
        rule = _rule(conditions=[{'op': 'lt', 'args': {'values': [1, 'a']}}])
        exc = self.assertRaises(engine.RuleError, self.apply, rule)
        self.assertIn("Inspection rule r, conditions[0] (op 'lt'): cannot "
                      "compare", str(exc))
        self.assertEqual(('r', 'lt'), (exc.rule_uuid, exc.op))

    def test_error_stops_later_rules(self):
        bad = _rule('a', priority=2, actions=[{
            'op': 'set-attribute', 'args': {'path': '/driver',
                                            'value': 'x'}}])
        self.assertRaises(engine.RuleError, self.apply, bad, _rule('b'))
        self.assertEqual([], self.changes.traits)
