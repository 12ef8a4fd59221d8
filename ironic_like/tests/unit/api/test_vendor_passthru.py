"""Vendor passthru (Ironic API 1.0): /v1/nodes/{id}/vendor_passthru and
/v1/drivers/{name}/vendor_passthru, with a running conductor and the
fake vendor interface (enabled as an operator would)."""

from unittest import mock

from ironic_like.drivers.modules import fake
from ironic_like.tests.unit.api import base
from ironic_like.tests.unit.api import test_auth

NODE_URL = '/v1/nodes/n1/vendor_passthru'
DRIVER_URL = '/v1/drivers/fake-hardware/vendor_passthru'


class VendorPassthruBase(base.APITestCase):

    with_conductor = True

    def setUp(self):
        super().setUp()
        self.config(enabled_vendor_interfaces=['fake', 'no-vendor'])
        self.node = self.create_node(name='n1', vendor_interface='fake')

    def call(self, verb, url, body=None, status=200):
        # As the stock clients send it: JSON accepted (a handler that
        # could only answer text/html would be 406).
        return self.app.request(
            url, method=verb, status=status,
            headers=dict(self._headers(None, None),
                         Accept='application/json'),
            **({'json': body} if body is not None else {}))

    def assertNotLocked(self):
        self.wait_for(self.node.uuid, lambda n: n.reservation is None)


class TestNodeVendorPassthru(VendorPassthruBase):

    def test_methods(self):
        methods = self.get(NODE_URL + '/methods').json
        self.assertEqual({'fourth_method_shared_lock', 'log_passthrough',
                          'second_method', 'third_method_sync'},
                         set(methods))
        self.assertEqual({'http_methods': ['POST'], 'async': False,
                          'attach': False, 'require_exclusive_lock': True,
                          'description': 'Whether bar is "meow".'},
                         methods['third_method_sync'])
        self.assertTrue(methods['log_passthrough']['async'])
        self.assertTrue(methods['second_method']['async'])
        self.assertFalse(methods['fourth_method_shared_lock'][
            'require_exclusive_lock'])
        # A node without vendor methods: none.
        self.create_node(name='plain', vendor_interface='no-vendor')
        self.assertEqual({}, self.get(
            '/v1/nodes/plain/vendor_passthru/methods').json)
        self.get('/v1/nodes/nope/vendor_passthru/methods', status=404)

    def test_synchronous_call_answers_its_value(self):
        r = self.call('POST', NODE_URL + '?method=third_method_sync',
                      {'bar': 'meow'})
        self.assertEqual('application/json', r.content_type)
        self.assertIs(True, r.json)
        r = self.call('POST', NODE_URL + '?method=third_method_sync',
                      {'bar': 'woof'})
        self.assertIs(False, r.json)
        # python-ironicclient names the method in the path.
        r = self.call('POST', NODE_URL + '/third_method_sync',
                      {'bar': 'meow'})
        self.assertIs(True, r.json)
        # A body key never names the method (pecan passes body keys as
        # keyword arguments).
        r = self.call('POST', NODE_URL + '?method=third_method_sync',
                      {'bar': 'meow', 'in_path': 'nope'}, status=400)
        self.assertFault(r, 400, 'cannot be called with')
        self.assertNotLocked()

    def test_asynchronous_call_answers_202_and_runs(self):
        with mock.patch.object(fake, 'LOG') as log:
            r = self.call('POST', NODE_URL + '?method=second_method',
                          {'bar': 'kazoo'}, status=202)
            self.assertEqual(b'', r.body)
            self.wait_for(self.node.uuid, lambda n: log.info.called)
        self.assertEqual(('Node %s: fake vendor second_method: %s',
                          self.node.uuid, True), log.info.call_args.args)
        self.assertNotLocked()
        # Ironic's log_passthrough: asynchronous, its arguments logged.
        with mock.patch.object(fake, 'LOG') as log:
            self.call('POST', NODE_URL + '/log_passthrough',
                      {'a': 1, 'b': ['x']}, status=202)
            self.wait_for(self.node.uuid, lambda n: log.info.called)
        self.assertEqual({'a': 1, 'b': ['x'], 'http_method': 'POST'},
                         log.info.call_args.args[2])
        self.assertNotLocked()
        # Under a shared lock: the node is never reserved for it.
        self.call('POST', NODE_URL + '?method=fourth_method_shared_lock',
                  {'bar': 'woof'}, status=202)
        self.assertNotLocked()

    def test_refused_calls_change_nothing(self):
        before = self.db.get_node_by_id(self.node.id)
        for verb, query, body, fragment in (
                ('POST', '', {'bar': 'x'}, 'Method not specified'),
                ('POST', '?method=', {'bar': 'x'}, 'Method not specified'),
                ('POST', '?method=nope', {}, 'No handler for method nope'),
                ('GET', '?method=third_method_sync', None,
                 'does not support HTTP GET'),
                ('DELETE', '?method=log_passthrough', None,
                 'does not support HTTP DELETE'),
                ('POST', '?method=third_method_sync', {},
                 "Parameter 'bar' not passed to method "
                 "'third_method_sync'"),
                ('POST', '?method=third_method_sync',
                 {'bar': 'meow', 'extra': 1}, 'cannot be called with'),
                ('POST', '?method=log_passthrough', {'http_method': 'GET'},
                 '"http_method" is set by the service'),
                ('POST', '/nope', {}, 'No handler for method nope'),
                ('POST', '?method=third_method_sync&x=1', {'bar': 'meow'},
                 'Unknown argument: "x"')):
            r = self.call(verb, NODE_URL + query, body, status=400)
            self.assertFault(r, 400, fragment)
        r = self.app.post(NODE_URL + '?method=log_passthrough', '[1]',
                          status=400, headers=dict(
                              self._headers(None, None),
                              **{'Content-Type': 'application/json'}))
        self.assertFault(r, 400, 'JSON object')
        after = self.db.get_node_by_id(self.node.id)
        # (updated_at may move: the conductor's power sync.)
        for field in ('provision_state', 'last_error', 'reservation',
                      'extra', 'instance_info'):
            self.assertEqual(getattr(before, field), getattr(after, field),
                             field)
        # A node whose vendor interface has no methods.
        self.create_node(name='plain', vendor_interface='no-vendor')
        r = self.call('POST', '/v1/nodes/plain/vendor_passthru?method=x',
                      {}, status=400)
        self.assertFault(r, 400, 'No handler for method x')
        self.call('POST', '/v1/nodes/nope/vendor_passthru?method=x', {},
                  status=404)

    def test_heartbeat_still_served(self):
        # The agent's heartbeat form stays where it was (its checks are
        # the ramdisk tests'): a node without an agent deploy is refused
        # by the conductor, not routed as a vendor method.
        r = self.app.post_json(NODE_URL + '/heartbeat',
                               {'agent_url': 'http://10.0.0.5:9999'},
                               status='*')
        self.assertNotIn('No handler', r.text)


class TestDriverVendorPassthru(VendorPassthruBase):

    def test_methods_and_call(self):
        methods = self.get(DRIVER_URL + '/methods').json
        # Ironic's keys for a driver method: no lock to speak of.
        self.assertEqual({'echo': {
            'http_methods': ['GET', 'POST'], 'async': False,
            'attach': False,
            'description': 'Returns its arguments (the HTTP method among '
                           'them).'}}, methods)
        r = self.call('GET', DRIVER_URL + '?method=echo')
        self.assertEqual({'http_method': 'GET'}, r.json)
        r = self.call('POST', DRIVER_URL + '?method=echo', {'k': 'v'})
        self.assertEqual({'http_method': 'POST', 'k': 'v'}, r.json)
        r = self.call('GET', DRIVER_URL + '/echo')
        self.assertEqual({'http_method': 'GET'}, r.json)

    def test_errors(self):
        r = self.call('PUT', DRIVER_URL + '?method=echo', {}, status=400)
        self.assertFault(r, 400, 'does not support HTTP PUT')
        r = self.call('GET', DRIVER_URL, status=400)
        self.assertFault(r, 400, 'Method not specified')
        self.get('/v1/drivers/nope/vendor_passthru/methods', status=404)
        self.call('POST', '/v1/drivers/nope/vendor_passthru?method=echo',
                  {}, status=404)

    def test_default_vendor_without_methods(self):
        # fake not enabled: fake-hardware's default vendor is no-vendor.
        self.config(enabled_vendor_interfaces=['no-vendor'])
        self.assertEqual({}, self.get(DRIVER_URL + '/methods').json)
        r = self.call('GET', DRIVER_URL + '?method=echo', status=400)
        self.assertFault(r, 400, 'No handler for method echo')


class TestVendorPassthruPolicy(test_auth.KeystoneTestCase):

    def test_system_admins_only(self):
        # Ironic's SYSTEM_ADMIN rules: not the owner's admin, not a system
        # member.
        self.create_node(name='mine', owner='p1')
        for headers in (self.project('admin'), self.system('member')):
            r = self.get('/v1/nodes/mine/vendor_passthru/methods',
                         headers=headers, status=403)
            self.assertFault(r, 403, 'baremetal:node:vendor_passthru')
            r = self.get('/v1/drivers/fake-hardware/vendor_passthru/'
                         'methods', headers=headers, status=403)
            self.assertFault(r, 403, 'baremetal:driver:vendor_passthru')
        self.assertEqual({}, self.get(
            '/v1/nodes/mine/vendor_passthru/methods',
            headers=self.system('admin')).json)
