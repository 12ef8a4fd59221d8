"""load_rules_file: the built-in rules ([inspection_rules]built_in_rules)."""

import os

import fixtures
import testtools

from ironic_like.common import exception
from ironic_like.common.inspection_rules import engine

GOOD = """
- description: first, no uuid
  priority: -10
  conditions:
    - op: "!is-empty"
      args: {value: "{inventory[bmc_address]}"}
  actions:
    - op: set-attribute
      args:
        path: /driver_info/ipmi_address
        value: "{inventory[bmc_address]}"
- uuid: rule-dell
  priority: 20000
  sensitive: true
  actions:
    - op: add-trait
      args: [CUSTOM_DELL]
- actions:
    - op: log
      args: {msg: third}
"""


class TestLoadRulesFile(testtools.TestCase):

    def setUp(self):
        super().setUp()
        self.dir = self.useFixture(fixtures.TempDir()).path

    def _write(self, text, name='rules.yaml'):
        path = os.path.join(self.dir, name)
        with open(path, 'w', encoding='utf-8') as stream:
            stream.write(text)
        return path

    def _error(self, path):
        exc = self.assertRaises(exception.InvalidParameterValue,
                                engine.load_rules_file, path)
        self.assertIn(path, str(exc))
        return exc

    def test_good_file(self):
        rules = engine.load_rules_file(self._write(GOOD))
        self.assertEqual(['00000000-0000-0000-0000-000000000000',
                          'rule-dell',
                          '00000000-0000-0000-0000-000000000001'],
                         [r['uuid'] for r in rules])
        self.assertEqual([-10, 20000, 0], [r['priority'] for r in rules])
        self.assertEqual([False, True, False],
                         [r['sensitive'] for r in rules])
        self.assertEqual('main', rules[0]['phase'])
        self.assertEqual('first, no uuid', rules[0]['description'])
        self.assertEqual([{'op': '!is-empty',
                           'args': {'value': '{inventory[bmc_address]}'}}],
                         rules[0]['conditions'])
        self.assertEqual([], rules[1]['conditions'])

    def test_rules_apply(self):
        rules = engine.load_rules_file(self._write(GOOD))
        changes = engine.NodeChanges({'driver_info': {}}, [], [])
        applied = engine.apply_rules(rules, changes, None,
                                     {'bmc_address': '10.1.1.1'}, {})
        self.assertEqual(['rule-dell', '00000000-0000-0000-0000-000000000001',
                          '00000000-0000-0000-0000-000000000000'], applied)
        self.assertEqual({'driver_info': {'ipmi_address': '10.1.1.1'}},
                         changes.changed_fields())
        self.assertEqual(['CUSTOM_DELL'], changes.traits)

    def test_empty_file(self):
        self.assertEqual([], engine.load_rules_file(self._write('')))
        self.assertEqual([], engine.load_rules_file(self._write('# no\n')))

    def test_missing_file(self):
        exc = self._error(os.path.join(self.dir, 'nope.yaml'))
        self.assertIn('cannot be read', str(exc))
        self.assertEqual('built_in_rules', exc.field)

    def test_bad_yaml(self):
        exc = self._error(self._write('- op: [unclosed\n'))
        self.assertIn('invalid YAML', str(exc))

    def test_not_a_list(self):
        exc = self._error(self._write('actions: []\n'))
        self.assertIn('must hold a list of rules, not dict', str(exc))

    def test_invalid_rule(self):
        text = GOOD + '- actions:\n    - {op: log, args: {}}\n'
        exc = self._error(self._write(text))
        self.assertIn("rule 3: actions[0] (op 'log'): missing required "
                      "argument(s): msg", str(exc))
        self.assertEqual('actions', exc.field)

    def test_rule_not_a_dict(self):
        exc = self._error(self._write('- just a string\n'))
        self.assertIn('rule 0: an inspection rule must be a dictionary',
                      str(exc))

    def test_bad_phase(self):
        exc = self._error(self._write(
            '- {phase: early, actions: [{op: log, args: {msg: x}}]}\n'))
        self.assertIn("rule 0: invalid phase 'early'", str(exc))
        self.assertEqual('phase', exc.field)

    def test_duplicate_uuid(self):
        rule = '- {uuid: a, actions: [{op: log, args: {msg: x}}]}\n'
        exc = self._error(self._write(rule * 2))
        self.assertIn('rule 1: duplicate uuid a', str(exc))

    def test_unsafe_yaml_refused(self):
        exc = self._error(self._write(
            '- !!python/object/apply:os.system ["true"]\n'))
        self.assertIn('invalid YAML', str(exc))
