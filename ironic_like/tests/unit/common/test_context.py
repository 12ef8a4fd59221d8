"""The request context's policy values (common/context.py)."""

import warnings

from ironic_like.common import context
from ironic_like.common import policy
from ironic_like.tests import base
from ironic_like.tests.unit.api import base as api_base


def _context(**kwargs):
    values = dict(user_id='u1', project_id='p1', project_name='demo',
                  roles=['member', 'reader'])
    values.update(kwargs)
    return context.RequestContext(**values)


class TestPolicyCreds(base.TestCase):

    def test_same_values_as_to_policy_values(self):
        ctx = _context()
        self.assertEqual(dict(ctx.to_policy_values().items()),
                         ctx.policy_creds())
        self.assertEqual('demo', ctx.policy_creds()['project_name'])

    def test_made_again_when_the_context_changes(self):
        ctx = _context()
        self.assertEqual(['member', 'reader'], ctx.policy_creds()['roles'])
        ctx.roles = ['admin']
        ctx.project_id = 'p2'
        creds = ctx.policy_creds()
        self.assertEqual(['admin'], creds['roles'])
        self.assertEqual('p2', creds['project_id'])

    def test_a_copy_each_time(self):
        ctx = _context()
        ctx.policy_creds()['system'] = 'all'
        self.assertNotIn('system', ctx.policy_creds())


class TestPolicyCheck(api_base.APITestCase):

    def test_uses_them_without_deprecation_warnings(self):
        # project_name is not one of oslo.context's policy values: read
        # from to_policy_values(), each check warned.
        reader = _context()
        admin = _context(roles=['admin', 'member', 'reader'],
                         system_scope='all')
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter('always')
            self.assertFalse(policy.check('baremetal:node:create', {},
                                          reader))
            self.assertTrue(policy.check('baremetal:node:create', {},
                                         admin))
        self.assertEqual([], [str(w.message) for w in caught
                              if issubclass(w.category,
                                            DeprecationWarning)])
