"""Unit tests of the middleware and hooks on their own."""

import json

import fixtures
import webob
import webtest

from ironic_like.api import versions
from ironic_like.api import hooks
from ironic_like.api.middleware import json_errors
from ironic_like.api.middleware import public_routes
from ironic_like.api.middleware import version
from ironic_like.tests import base as tests_base

MAX = versions.MAX_VERSION_STRING
TOO_NEW = versions.to_string((1, versions.MAX_VERSION[1] + 1))


def _app(status, body, content_type='text/html'):
    def app(environ, start_response):
        start_response(status, [('Content-Type', content_type)])
        return [body]
    return app


def _inner(response):
    return json.loads(response.json['error_message'])


class TestJsonErrors(tests_base.TestCase):

    def test_html_error_is_reshaped_without_its_text(self):
        app = webtest.TestApp(json_errors.JsonErrorMiddleware(
            _app('404 Not Found', b'<html>secret path</html>')))
        r = app.get('/', status=404)
        self.assertEqual('application/json', r.content_type)
        inner = _inner(r)
        self.assertEqual('Client', inner['faultcode'])
        self.assertNotIn('secret', inner['faultstring'])

    def test_keystone_style_error_keeps_its_message(self):
        body = json.dumps({'error': {'code': 401, 'title': 'Unauthorized',
                                     'message': 'Token expired.'}})
        app = webtest.TestApp(json_errors.JsonErrorMiddleware(
            _app('401 Unauthorized', body.encode(), 'application/json')))
        r = app.get('/', status=401)
        self.assertEqual('Token expired.', _inner(r)['faultstring'])

    def test_shaped_error_passes_unchanged(self):
        body = json.dumps({'error_message': json.dumps(
            {'faultstring': 'x', 'faultcode': 'Client',
             'debuginfo': None})}).encode()
        app = webtest.TestApp(json_errors.JsonErrorMiddleware(
            _app('409 Conflict', body, 'application/json')))
        self.assertEqual(body, app.get('/', status=409).body)

    def test_exception_becomes_500(self):
        def broken(environ, start_response):
            raise RuntimeError('internal detail')
        app = webtest.TestApp(json_errors.JsonErrorMiddleware(broken))
        r = app.get('/', status=500)
        inner = _inner(r)
        self.assertEqual('Server', inner['faultcode'])
        self.assertEqual('Internal Server Error', inner['faultstring'])
        self.assertNotIn(b'internal detail', r.body)

    def test_success_untouched(self):
        app = webtest.TestApp(json_errors.JsonErrorMiddleware(
            _app('200 OK', b'hello', 'text/plain')))
        self.assertEqual(b'hello', app.get('/').body)


class TestVersionParsing(tests_base.TestCase):

    def test_parse(self):
        self.assertEqual((1, 1), version.parse(None))
        self.assertEqual(versions.MAX_VERSION, version.parse('latest'))
        self.assertEqual(versions.MAX_VERSION, version.parse('LATEST'))
        self.assertEqual((1, 20), version.parse(' 1.20 '))
        for bad in ('1', 'v1.2', '1.2.3', '01.2', '1.-2', '1.2a'):
            e = self.assertRaises(version.VersionError, version.parse, bad)
            self.assertEqual(400, e.status)
        for unsupported in ('1.0', TOO_NEW, '2.0', '0.9'):
            e = self.assertRaises(version.VersionError, version.parse,
                                  unsupported)
            self.assertEqual(406, e.status)

    def test_requested(self):
        self.assertIsNone(version.requested({}))
        self.assertEqual('1.2', version.requested(
            {'HTTP_X_OPENSTACK_IRONIC_API_VERSION': '1.2'}))
        self.assertEqual('1.3', version.requested(
            {'HTTP_OPENSTACK_API_VERSION': 'BareMetal 1.3',
             'HTTP_X_OPENSTACK_IRONIC_API_VERSION': '1.2'}))


class TestPublicRoutes(tests_base.TestCase):

    def test_dispatch(self):
        public = _app('200 OK', b'public', 'text/plain')
        protected = _app('200 OK', b'protected', 'text/plain')
        app = webtest.TestApp(public_routes.PublicRoutesMiddleware(
            public, protected))
        for path in ('/', '/v1', '/v1/'):
            self.assertEqual(b'public', app.get(path).body)
        for path in ('/v1/nodes', '/v2', '/v1x'):
            self.assertEqual(b'protected', app.get(path).body)


class TestRPCHook(tests_base.TestCase):

    def test_one_client_per_process(self):
        made = []
        self.useFixture(fixtures.MockPatch(
            'ironic_like.conductor.rpcapi.ConductorAPI',
            side_effect=lambda: made.append(object()) or made[-1]))
        pid = fixtures.MockPatch('os.getpid', return_value=100)
        self.useFixture(pid)
        hook = hooks.RPCHook()
        self.assertEqual([], made)  # nothing before the first request
        first = hook.get()
        self.assertIs(first, hook.get())
        self.assertEqual(1, len(made))
        # A forked worker gets its own client.
        pid.mock.return_value = 101
        second = hook.get()
        self.assertIsNot(first, second)
        self.assertIs(second, hook.get())
        self.assertEqual(2, len(made))


class TestEmptyBodyHook(tests_base.TestCase):

    def test_strips_null_body(self):
        state = type('State', (), {})()
        state.response = webob.Response(status=202, body=b'null',
                                        content_type='application/json')
        hooks.EmptyBodyHook().after(state)
        self.assertEqual(b'', state.response.body)
        self.assertNotIn('Content-Type', state.response.headers)
