"""Conditions, each on its own and through the engine (with "!")."""

import testtools

from ironic_like.common.inspection_rules import engine
from ironic_like.common.inspection_rules import errors
from ironic_like.common.inspection_rules import operators
from ironic_like.common.inspection_rules import validation

INVENTORY = {
    'bmc_address': '192.168.1.10',
    'bmc_v6address': '2001:db8::5',
    'cpu': {'count': 8, 'architecture': 'x86_64'},
    'system_vendor': {'manufacturer': 'Dell Inc.'},
    'disks': [],
    'interfaces': [{'name': 'eth0', 'ipv4_address': None}],
    'flags': {'yes': True, 'no': False, 'zero': 0},
}


def holds(op, args, inventory=INVENTORY, **condition):
    """Whether a rule with this one condition runs its actions."""
    rule = validation.validate_rule({
        'uuid': 'r', 'conditions': [dict(condition, op=op, args=args)],
        'actions': [{'op': 'add-trait', 'args': {'name': 'CUSTOM_OK'}}]})
    changes = engine.NodeChanges({}, [], [])
    engine.apply_rules([rule], changes, None, inventory, {})
    return changes.traits == ['CUSTOM_OK']


class TestComparisons(testtools.TestCase):

    def test_eq(self):
        self.assertTrue(operators.eq([1, 1, 1]))
        self.assertFalse(operators.eq([1, 1, 2]))
        self.assertTrue(operators.eq([]))
        self.assertTrue(operators.eq(['x']))
        self.assertFalse(operators.eq([1, '1']))
        self.assertTrue(operators.eq([1, '1'], force_strings=True))
        self.assertTrue(operators.eq([1, '1'], force_strings='true'))

    def test_lt_gt(self):
        self.assertTrue(operators.lt([1, 2, 3]))
        self.assertFalse(operators.lt([1, 3, 2]))
        self.assertFalse(operators.lt([1, 1]))
        self.assertTrue(operators.gt([3, 2, 1]))
        self.assertFalse(operators.gt([2, 2]))
        # As strings "10" < "9".
        self.assertTrue(operators.lt([10, 9], force_strings=True))

    def test_bad_values(self):
        self.assertRaises(errors.OpError, operators.eq, 'ab')
        exc = self.assertRaises(errors.OpError, operators.lt, [1, 'a'])
        self.assertIn('force_strings', str(exc))

    def test_through_engine(self):
        self.assertTrue(holds('eq', {'values': [
            '{inventory[cpu][architecture]}', 'x86_64']}))
        self.assertFalse(holds('!eq', {'values': [
            '{inventory[cpu][architecture]}', 'x86_64']}))
        # Interpolation gives strings: "8" vs 8.
        self.assertFalse(holds('eq', {'values': ['{inventory[cpu][count]}',
                                                 8]}))
        self.assertTrue(holds('eq', {'values': ['{inventory[cpu][count]}',
                                                8], 'force_strings': True}))
        self.assertTrue(holds('lt', {'values': [1, 2]}))
        self.assertTrue(holds('! lt', {'values': [2, 1]}))
        self.assertTrue(holds('gt', {'values': ['b', 'a']}))
        self.assertFalse(holds('!gt', {'values': ['b', 'a']}))

    def test_list_args(self):
        self.assertTrue(holds('eq', [['{inventory[cpu][architecture]}',
                                      'x86_64']]))
        self.assertTrue(holds('eq', [['{inventory[cpu][count]}', 8], True]))


class TestEmptyAndNone(testtools.TestCase):

    def test_is_empty(self):
        for value in (None, '', [], {}, (), 'None', '[]', '{}'):
            self.assertTrue(operators.is_empty(value), value)
        for value in (0, False, ' ', 'x', [0], {'a': 1}):
            self.assertFalse(operators.is_empty(value), value)

    def test_is_empty_through_engine(self):
        self.assertTrue(holds('is-empty', {'value': '{inventory[disks]}'}))
        self.assertTrue(holds('is-empty', {'value': '{inventory[nope]}'}))
        self.assertTrue(holds('is-empty',
                              {'value': '{inventory[cpu][nope]}'}))
        self.assertTrue(holds('is-empty', {
            'value': '{inventory[interfaces][0][ipv4_address]}'}))
        self.assertFalse(holds('is-empty', {'value': '{inventory[cpu]}'}))
        self.assertTrue(holds('!is-empty',
                              {'value': '{inventory[bmc_address]}'}))
        self.assertFalse(holds('!is-empty', {'value': '{inventory[x]}'}))

    def test_is_none(self):
        self.assertTrue(operators.is_none(None))
        self.assertTrue(operators.is_none('None'))
        self.assertFalse(operators.is_none(''))
        self.assertTrue(holds('is-none', {
            'value': '{inventory[interfaces][0][ipv4_address]}'}))
        self.assertTrue(holds('is-none', {'value': None}))
        self.assertFalse(holds('is-none', {'value': 0}))
        self.assertTrue(holds('!is-none', {'value': 0}))


class TestTruth(testtools.TestCase):

    def test_is_true(self):
        for value in (True, 1, 2.5, 'yes', 'TRUE', 'True', ' yes ', '1'):
            self.assertTrue(operators.is_true(value), value)
        for value in (False, 0, 0.0, None, 'no', 'on', '', '0', [1]):
            self.assertFalse(operators.is_true(value), value)

    def test_is_false(self):
        for value in (False, 0, 0.0, None, 'no', 'False', 'NO', '0',
                      'None'):
            self.assertTrue(operators.is_false(value), value)
        for value in (True, 1, 'yes', 'off', '', 'x', []):
            self.assertFalse(operators.is_false(value), value)

    def test_through_engine(self):
        self.assertTrue(holds('is-true', {'value': '{inventory[flags][yes]}'}))
        self.assertFalse(holds('is-true', {'value': '{inventory[flags][no]}'}))
        self.assertTrue(holds('!is-true', {'value': '{inventory[flags][no]}'}))
        self.assertTrue(holds('is-false',
                              {'value': '{inventory[flags][zero]}'}))
        self.assertTrue(holds('is-false', {'value': False}))
        self.assertFalse(holds('!is-false', {'value': 'no'}))
        # A missing field stays the literal string: neither true nor false.
        self.assertFalse(holds('is-true', {'value': '{inventory[nope]}'}))
        self.assertFalse(holds('is-false', {'value': '{inventory[nope]}'}))


class TestNet(testtools.TestCase):

    def test_in_net(self):
        self.assertTrue(operators.in_net('192.168.1.10', '192.168.1.0/24'))
        self.assertTrue(operators.in_net('192.168.1.10', '192.168.1.1/24'))
        self.assertFalse(operators.in_net('192.168.2.10', '192.168.1.0/24'))
        self.assertTrue(operators.in_net('2001:db8::5', '2001:db8::/64'))
        self.assertFalse(operators.in_net('::5', '0.0.0.0/0'))
        self.assertFalse(operators.in_net('0.0.0.5', '::/0'))

    def test_invalid(self):
        exc = self.assertRaises(errors.OpError, operators.in_net,
                                '192.168.1.10', '192.168.1.0/33')
        self.assertIn('invalid subnet', str(exc))
        exc = self.assertRaises(errors.OpError, operators.in_net,
                                'None', '10.0.0.0/8')
        self.assertIn('invalid address', str(exc))

    def test_through_engine(self):
        self.assertTrue(holds('in-net', {'address': '{inventory[bmc_address]}',
                                         'subnet': '192.168.0.0/16'}))
        self.assertTrue(holds('!in-net', {
            'address': '{inventory[bmc_v6address]}',
            'subnet': '192.168.0.0/16'}))
        self.assertTrue(holds('in-net', {
            'address': '{inventory[bmc_address]}',
            'subnet': '{inventory[bmc_address]}/32'}))
        exc = self.assertRaises(engine.RuleError, holds, 'in-net', {
            'address': '{inventory[bmc_address]}', 'subnet': 'nonsense'})
        self.assertIn("conditions[0] (op 'in-net'): invalid subnet",
                      str(exc))


class TestRegex(testtools.TestCase):

    def test_matches_is_a_full_match(self):
        self.assertTrue(operators.matches('Dell Inc.', r'Dell.*'))
        self.assertFalse(operators.matches('Dell Inc.', r'Dell'))
        self.assertFalse(operators.matches('A Dell', r'Dell.*'))
        self.assertTrue(operators.matches(42, r'\d+'))

    def test_contains_is_a_search(self):
        self.assertTrue(operators.contains('Dell Inc.', '(?i)dell'))
        self.assertTrue(operators.contains('A Dell', 'Dell'))
        self.assertFalse(operators.contains('HPE', 'Dell'))

    def test_bad_regex(self):
        self.assertRaises(errors.OpError, operators.matches, 'a', '(')
        self.assertRaises(errors.OpError, operators.contains, 'a', 5)

    def test_through_engine(self):
        value = '{inventory[system_vendor][manufacturer]}'
        self.assertTrue(holds('contains', {'value': value, 'regex': 'Dell'}))
        self.assertFalse(holds('!contains', {'value': value,
                                             'regex': 'Dell'}))
        self.assertTrue(holds('matches', {'value': value, 'regex': 'D.*'}))
        self.assertTrue(holds('! matches', {'value': value, 'regex': 'D'}))

    def test_bad_regex_at_run_time(self):
        # In a loop the regex is interpolated, so only checked when run.
        exc = self.assertRaises(engine.RuleError, holds, 'matches', {
            'value': 'a', 'regex': '{item}'}, loop=['(', 'a'])
        self.assertIn("Inspection rule r, conditions[0] (op 'matches'): "
                      "invalid regular expression '('", str(exc))


class TestOneOf(testtools.TestCase):

    def test_one_of(self):
        self.assertTrue(operators.one_of('a', ['a', 'b']))
        self.assertFalse(operators.one_of('c', ['a', 'b']))
        self.assertTrue(operators.one_of(1, [1, 2]))
        self.assertFalse(operators.one_of('a'))
        self.assertRaises(errors.OpError, operators.one_of, 'a', 'abc')

    def test_through_engine(self):
        self.assertTrue(holds('one-of', {
            'value': '{inventory[cpu][architecture]}',
            'values': ['aarch64', 'x86_64']}))
        self.assertTrue(holds('!one-of', {
            'value': '{inventory[cpu][architecture]}',
            'values': ['aarch64']}))
        self.assertTrue(holds('one-of', {'value': 8, 'values': [8, 9]}))
