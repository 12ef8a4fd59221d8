"""The api-call action against a real HTTP server on 127.0.0.1."""

import http.server
import socket
import threading
import types

import fixtures
import testtools

from ironic_like.common.inspection_rules import api_call
from ironic_like.common.inspection_rules import engine
from ironic_like.common.inspection_rules import errors
from ironic_like.common.inspection_rules import validation


class _Handler(http.server.BaseHTTPRequestHandler):

    def do_GET(self):
        server = self.server
        server.requests.append((self.path, dict(self.headers)))
        status = {'/ok': 200, '/created': 201, '/missing': 404,
                  '/flaky': 503}.get(self.path.split('?')[0], 500)
        body = b'{}'
        self.send_response(status)
        self.send_header('Content-Length', str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


class TestApiCall(testtools.TestCase):

    def setUp(self):
        super().setUp()
        for name in ('http_proxy', 'HTTP_PROXY', 'https_proxy',
                     'HTTPS_PROXY', 'all_proxy', 'ALL_PROXY'):
            self.useFixture(fixtures.EnvironmentVariable(name))
        self.useFixture(fixtures.EnvironmentVariable('no_proxy', '*'))
        server = http.server.ThreadingHTTPServer(('127.0.0.1', 0), _Handler)
        server.daemon_threads = True
        server.requests = []
        thread = threading.Thread(target=server.serve_forever,
                                  kwargs={'poll_interval': 0.05},
                                  daemon=True)
        thread.start()
        self.addCleanup(thread.join, 5)
        self.addCleanup(server.server_close)
        self.addCleanup(server.shutdown)
        self.server = server
        self.base = 'http://127.0.0.1:%d' % server.server_address[1]

    def test_success(self):
        api_call.get(self.base + '/ok', headers={'X-Test': 'yes'},
                     retries=0)
        api_call.get(self.base + '/created', timeout='2', retries='0')
        self.assertEqual(['/ok', '/created'],
                         [path for path, _h in self.server.requests])
        self.assertEqual('yes', self.server.requests[0][1]['X-Test'])

    def test_not_found(self):
        exc = self.assertRaises(errors.OpError, api_call.get,
                                self.base + '/missing', retries=0)
        self.assertIn('answered 404', str(exc))
        self.assertEqual(1, len(self.server.requests))

    def test_retries_are_bounded(self):
        exc = self.assertRaises(errors.OpError, api_call.get,
                                self.base + '/flaky', retries=2,
                                backoff_factor=0)
        self.assertIn('answered 503', str(exc))
        self.assertEqual(3, len(self.server.requests))

    def test_connection_refused(self):
        with socket.socket() as sock:
            sock.bind(('127.0.0.1', 0))
            port = sock.getsockname()[1]
        exc = self.assertRaises(errors.OpError, api_call.get,
                                'http://127.0.0.1:%d/x' % port, retries=0,
                                timeout=2)
        self.assertIn('GET http://127.0.0.1:%d/x failed' % port, str(exc))

    def test_password_in_url_not_shown(self):
        url = self.base.replace('http://', 'http://user:hunter2@')
        exc = self.assertRaises(errors.OpError, api_call.get,
                                url + '/missing', retries=0)
        self.assertNotIn('hunter2', str(exc))

    def test_bad_options(self):
        for kwargs in ({'timeout': 0}, {'timeout': 'soon'}, {'retries': -1},
                       {'backoff_factor': -1}, {'headers': 'x'},
                       {'proxies': ['x']}, {'retries': True}):
            self.assertRaises(errors.OpError, api_call.get,
                              self.base + '/ok', **kwargs)
        self.assertRaises(errors.OpError, api_call.get, '')
        self.assertRaises(errors.OpError, api_call.get, 'ftp://x/y',
                          retries=0)
        self.assertEqual([], self.server.requests)

    def _apply(self, args):
        rule = validation.validate_rule({
            'uuid': 'hook', 'actions': [{'op': 'api-call', 'args': args}]})
        changes = engine.NodeChanges({}, [], [])
        node = types.SimpleNamespace(uuid='node-uuid')
        return engine.apply_rules([rule], changes, node, {}, {})

    def test_through_engine(self):
        self.assertEqual(['hook'], self._apply({
            'url': self.base + '/ok?node={node.uuid}', 'retries': 0,
            'headers': {'X-Node': '{node.uuid}'}}))
        path, headers = self.server.requests[0]
        self.assertEqual('/ok?node=node-uuid', path)
        # Only the url is interpolated outside loops (as Ironic).
        self.assertEqual('{node.uuid}', headers['X-Node'])

    def test_failure_through_engine(self):
        exc = self.assertRaises(engine.RuleError, self._apply, {
            'url': self.base + '/missing', 'retries': 0})
        self.assertIn("Inspection rule hook, actions[0] (op 'api-call'): "
                      "GET %s/missing answered 404" % self.base, str(exc))
