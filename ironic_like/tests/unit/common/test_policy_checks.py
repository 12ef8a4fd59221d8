"""The cached rule evaluation decides as oslo.policy's own does."""

import concurrent.futures
import inspect
from unittest import mock

from oslo_config import cfg
from oslo_policy import _checks
from oslo_policy import policy as oslo_policy
import testtools

from ironic_like.common import policy_checks


class _WithRuleName(_checks.Check):
    def __call__(self, target, creds, enforcer, current_rule=None):
        return current_rule == self.match


class _WithoutRuleName(_checks.Check):
    def __call__(self, target, creds, enforcer):
        return creds.get('ok') == self.match


class TestCachedCheck(testtools.TestCase):

    def setUp(self):
        super().setUp()
        self.addCleanup(setattr, _checks, '_check', _checks._check)
        policy_checks.install()
        policy_checks._takes_rule_name.cache_clear()

    def test_installed_once(self):
        policy_checks.install()
        self.assertIs(policy_checks._check, _checks._check)

    def test_rule_name_passed_when_taken(self):
        check = _WithRuleName('kind', 'my:rule')
        self.assertTrue(_checks._check(check, {}, {}, None, 'my:rule'))
        self.assertFalse(_checks._check(check, {}, {}, None, 'other'))

    def test_legacy_three_argument_check(self):
        check = _WithoutRuleName('kind', 'yes')
        self.assertTrue(_checks._check(check, {}, {'ok': 'yes'}, None, 'r'))
        self.assertFalse(_checks._check(check, {}, {'ok': 'no'}, None, 'r'))

    def test_spec_read_once_per_class(self):
        with mock.patch.object(policy_checks.inspect, 'getfullargspec',
                               wraps=inspect.getfullargspec) as spec:
            for _ in range(5):
                _checks._check(_WithRuleName('k', 'a'), {}, {}, None, 'a')
                _checks._check(_WithoutRuleName('k', 'a'), {}, {}, None,
                               'a')
        self.assertEqual(2, spec.call_count)

    def test_instance_call_left_to_oslo_policy(self):
        check = _WithoutRuleName('kind', 'x')
        check.__call__ = lambda target, creds, enforcer: 'from instance'
        with mock.patch.object(policy_checks, '_ORIGINAL',
                               return_value='original') as original:
            self.assertEqual('original',
                             _checks._check(check, {}, {}, None, 'r'))
        original.assert_called_once_with(check, {}, {}, None, 'r')

    def test_enforcer_decides_as_before(self):
        conf = cfg.ConfigOpts()
        conf([], default_config_files=[])
        enforcer = oslo_policy.Enforcer(conf)
        enforcer.register_defaults([
            oslo_policy.RuleDefault('admin', 'role:admin'),
            oslo_policy.RuleDefault(
                'thing', 'rule:admin or (role:member and '
                'project_id:%(owner)s) or not role:reader'),
        ])
        cases = [
            ({'roles': ['admin']}, {'owner': 'p'}, True),
            ({'roles': ['member'], 'project_id': 'p'}, {'owner': 'p'}, True),
            ({'roles': ['member', 'reader'], 'project_id': 'q'},
             {'owner': 'p'}, False),
            ({'roles': []}, {'owner': 'p'}, True),
        ]
        for creds, target, expected in cases:
            self.assertEqual(expected,
                             enforcer.enforce('thing', target, creds),
                             (creds, target))


class TestGenericCheck(testtools.TestCase):
    """GenericCheck decided as oslo.policy's own __call__ decides it,
    with the kind parsed once, in any number of threads."""

    CASES = [
        # (kind, match, target, creds)
        ('project_id', '%(project_id)s', {'project_id': 'p1'},
         {'project_id': 'p1'}),
        ('project_id', '%(project_id)s', {'project_id': 'p1'},
         {'project_id': 'p2'}),
        ('project_id', '%(owner)s', {}, {'project_id': 'p1'}),
        ('True', '%(flag)s', {'flag': True}, {}),
        ('True', '%(flag)s', {'flag': False}, {}),
        ("'member'", 'member', {}, {}),
        ('token.user.id', '%(user)s', {'user': 'u1'},
         {'token': {'user': {'id': 'u1'}}}),
        ('roles', 'admin', {}, {'roles': ['reader', 'admin']}),
        ('roles', 'admin', {}, {'roles': ['reader']}),
    ]

    def setUp(self):
        super().setUp()
        self.addCleanup(setattr, _checks, '_check', _checks._check)
        policy_checks.install()

    def test_same_answers_as_oslo_policy(self):
        for kind, match, target, creds in self.CASES:
            check = _checks.GenericCheck(kind, match)
            self.assertEqual(check(target, creds, None),
                             _checks._check(check, target, creds, None, 'r'),
                             (kind, match, target, creds))

    def test_kind_parsed_once(self):
        policy_checks._LITERALS.pop('"parsed-once"', None)
        check = _checks.GenericCheck('"parsed-once"', 'parsed-once')
        with mock.patch.object(policy_checks.ast, 'literal_eval',
                               wraps=policy_checks.ast.literal_eval) as ev:
            for _ in range(5):
                self.assertTrue(_checks._check(check, {}, {}, None, 'r'))
        self.assertEqual(1, ev.call_count)

    def test_many_threads(self):
        checks = [(_checks.GenericCheck(kind, match), target, creds)
                  for kind, match, target, creds in self.CASES]
        expected = [check(target, creds, None)
                    for check, target, creds in checks]
        policy_checks._LITERALS.clear()

        def evaluate(_):
            return [_checks._check(check, target, creds, None, 'r')
                    for check, target, creds in checks]
        with concurrent.futures.ThreadPoolExecutor(16) as pool:
            answers = list(pool.map(evaluate, range(200)))
        self.assertEqual([expected] * 200, answers)
