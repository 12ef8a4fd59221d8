"""``openstack baremetal node|driver passthru list|call``."""

import io
import json

from ironic_like.osc.v1 import passthru
from ironic_like.tests.unit.osc import base
from ironic_like.tests.unit.osc import fakes

METHODS = {'third_method_sync': {
    'http_methods': ['POST'], 'async': False, 'attach': False,
    'description': 'Whether bar is "meow".',
    'require_exclusive_lock': True},
    'echo': {'http_methods': ['GET', 'POST'], 'async': False,
             'attach': False, 'description': 'Echo.',
             'require_exclusive_lock': False}}


class TestPassthru(base.CommandTestCase):

    def test_list_node_and_driver(self):
        for command, path in (
                (passthru.ListPassthruNode, '/v1/nodes/n/vendor_passthru'),
                (passthru.ListPassthruDriver,
                 '/v1/drivers/fake-hardware/vendor_passthru')):
            self.session.route('GET', path + '/methods',
                               fakes.FakeResponse(200, METHODS))
            columns, rows = self.run_command(
                command, [path.split('/')[3]])
            self.assertEqual(passthru._COLUMNS, columns)
            self.assertEqual([('echo', 'GET, POST', False, 'Echo.', False),
                              ('third_method_sync', 'POST', False,
                               'Whether bar is "meow".', False)],
                             list(rows))

    def test_call_sends_string_arguments_and_prints_the_answer(self):
        self.session.route('POST', '/v1/nodes/n/vendor_passthru',
                           fakes.FakeResponse(200, True))
        out = self.capture_stdout()
        self.run_command(passthru.CallPassthruNode,
                         ['n', 'third_method_sync', '--arg', 'bar=meow',
                          '--arg', 'n=4'])
        request = self.last()
        self.assertEqual('POST', request.method)
        self.assertEqual({'method': 'third_method_sync'}, request.params)
        # python-ironicclient's: a value that is JSON is decoded.
        self.assertEqual({'bar': 'meow', 'n': 4}, request.body)
        self.assertEqual(True, json.loads(out.getvalue()))

    def test_call_by_other_verbs_and_async(self):
        self.session.route('GET', '/v1/drivers/d/vendor_passthru',
                           fakes.FakeResponse(200, {'http_method': 'GET'}))
        out = self.capture_stdout()
        self.run_command(passthru.CallPassthruDriver,
                         ['d', 'echo', '--http-method', 'GET'])
        self.assertIsNone(self.last().body)
        self.assertEqual({'http_method': 'GET'}, json.loads(out.getvalue()))
        # An asynchronous method: 202, nothing printed.
        self.session.route('POST', '/v1/nodes/n/vendor_passthru',
                           fakes.FakeResponse(202))
        out = self.capture_stdout()
        self.run_command(passthru.CallPassthruNode, ['n', 'second_method'])
        self.assertEqual('', out.getvalue())

    def capture_stdout(self):
        out = io.StringIO()
        self.app.stdout = out
        return out
