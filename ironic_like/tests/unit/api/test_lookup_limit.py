"""The limit on failed agent lookups per client address
(api/lookup_limit.py, [agent]lookup_failures_per_minute): the limiter on
its own with a fake clock, and both lookup forms through the API."""

from ironic_like.api import lookup_limit
from ironic_like.common import exception
from ironic_like.common import states
from ironic_like.tests import base
from ironic_like.tests.unit.api import base as api_base

MAC = '52:54:00:12:34:56'
OTHER_MAC = '52:54:00:ab:cd:ef'


class Clock(object):

    def __init__(self):
        self.now = 1000.0

    def __call__(self):
        return self.now


class TestFailureLimiter(base.TestCase):

    def setUp(self):
        super().setUp()
        self.config(lookup_failures_per_minute=3, group='agent')
        self.clock = Clock()
        self.limiter = lookup_limit.FailureLimiter(max_addresses=4,
                                                   clock=self.clock)

    def fail(self, address, times=1):
        for _ in range(times):
            self.limiter.failed(address)
            self.clock.now += 1

    def test_sliding_minute(self):
        self.fail('a', 3)          # at 1000, 1001, 1002
        self.limiter.check('b')
        e = self.assertRaises(exception.TooManyRequests,
                              self.limiter.check, 'a')
        self.assertEqual(429, e.code)
        # Now 1003: the failure at 1000 is a minute old at 1060.
        self.assertEqual(57, e.retry_after)
        self.clock.now = 1059.5
        self.assertRaises(exception.TooManyRequests, self.limiter.check, 'a')
        self.clock.now = 1060
        self.limiter.check('a')
        # One more failure and it is refused again, until the failure at
        # 1001 is a minute old.
        self.limiter.failed('a')
        e = self.assertRaises(exception.TooManyRequests,
                              self.limiter.check, 'a')
        self.assertEqual(1, e.retry_after)

    def test_disabled(self):
        self.config(lookup_failures_per_minute=0, group='agent')
        self.fail('a', 10)
        self.limiter.check('a')
        self.assertEqual(0, len(self.limiter))

    def test_memory_bounded(self):
        for i in range(10):
            self.fail('addr-%d' % i, 5)
        # At most max_addresses, each with at most the limit of times.
        self.assertEqual(4, len(self.limiter))
        self.assertTrue(all(len(t) <= 3
                            for t in self.limiter._failures.values()))
        # The least recently failing were forgotten first.
        self.limiter.check('addr-0')
        self.assertRaises(exception.TooManyRequests, self.limiter.check,
                          'addr-9')
        # Failures a minute old are dropped as the address is seen again.
        self.clock.now += 61
        self.limiter.check('addr-9')
        self.assertEqual(3, len(self.limiter))

    def test_guard_counts_400_and_404_only(self):
        for error in (exception.NotFound(), exception.InvalidUUID(uuid='x'),
                      exception.NodeLocked(node='n', host='h'),
                      exception.ConductorUnavailable(node='n', reason='r'),
                      ValueError()):
            try:
                with lookup_limit.guard('a', self.limiter):
                    raise error
            except Exception as e:
                self.assertIs(error, e)
        self.assertEqual(2, len(self.limiter._failures['a']))
        with lookup_limit.guard('a', self.limiter):
            pass
        self.assertEqual(2, len(self.limiter._failures['a']))


class TestLookupRateLimit(api_base.APITestCase):

    with_conductor = True

    def setUp(self):
        super().setUp()
        self.config(lookup_failures_per_minute=3, group='agent')
        self.node = self.create_node(provision_state=states.DEPLOYWAIT,
                                     power_state=states.POWER_ON)
        self.create_port(self.node, address=MAC)

    def lookup(self, query, status, address='192.0.2.1'):
        return self.app.get('/v1/lookup?%s' % query, status=status,
                            headers=api_base.LATEST,
                            extra_environ={'REMOTE_ADDR': address})

    def seed_lookup(self, mac, status, address='192.0.2.1'):
        return self.app.post_json(
            '/v1/drivers/fake-hardware/vendor_passthru/lookup',
            {'version': 2, 'inventory': {'interfaces': [
                {'mac_address': mac}]}},
            status=status, headers=api_base.version_header('1.1'),
            extra_environ={'REMOTE_ADDR': address})

    def test_failed_lookups_limited(self):
        self.lookup('addresses=%s' % OTHER_MAC, 404)
        self.lookup('addresses=junk', 400)
        self.seed_lookup(OTHER_MAC, 404)
        # Even a lookup that would succeed is refused now.
        r = self.lookup('addresses=%s' % MAC, 429)
        self.assertFault(r, 429, 'Too many failed lookups')
        retry = int(r.headers['Retry-After'])
        self.assertTrue(1 <= retry <= 60, retry)
        r = self.seed_lookup(MAC, 429)
        self.assertIn('Retry-After', r.headers)
        # No token was handed out while refused; other clients go on.
        self.assertNotIn('agent_secret_token',
                         self.db.get_node_by_uuid(
                             self.node.uuid).driver_internal_info or {})
        doc = self.lookup('addresses=%s' % MAC, 200,
                          address='192.0.2.2').json
        self.assertEqual(self.node.uuid, doc['node']['uuid'])

    def test_successes_and_conflicts_not_counted(self):
        self.lookup('addresses=%s' % MAC, 200)
        self.db.update_node(self.node.id, {'reservation': 'someone'})
        for _ in range(2):
            self.lookup('addresses=%s' % MAC, 200)   # the mask: 200
        self.db.update_node(self.node.id, {'reservation': None,
                                           'driver_internal_info': {}})
        self.db.update_node(self.node.id, {'reservation': 'someone'})
        for _ in range(5):
            self.lookup('addresses=%s' % MAC, 409)
        self.db.update_node(self.node.id, {'reservation': None})
        self.lookup('addresses=%s' % MAC, 200)

    def test_disabled(self):
        self.config(lookup_failures_per_minute=0, group='agent')
        for _ in range(10):
            self.lookup('addresses=%s' % OTHER_MAC, 404)
        self.lookup('addresses=%s' % MAC, 200)
