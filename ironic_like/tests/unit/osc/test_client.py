"""The plugin's HTTP client: versions, errors, pagination."""

import json

from keystoneauth1 import exceptions as ksa_exc
from osc_lib import exceptions as osc_exc
import testtools

from ironic_like.osc import client as http
from ironic_like.tests.unit.osc import fakes


class TestVersionNegotiation(testtools.TestCase):

    def test_negotiates_server_max_below_known(self):
        session = fakes.FakeSession('1.51')
        session.route('GET', '/v1/nodes', fakes.FakeResponse(
            200, {'nodes': []}))
        client = http.Client(session, fakes.ENDPOINT)
        client.get('nodes')
        client.get('nodes')
        # GET / once, then the requests carry the server's maximum.
        self.assertEqual(['/', '/v1/nodes', '/v1/nodes'],
                         [r.path for r in session.requests])
        self.assertEqual('1.51',
                         session.requests[1].headers[http.VERSION_HEADER])
        self.assertEqual((1, 51), client.server_max_version)

    def test_never_above_what_the_plugin_knows(self):
        session = fakes.FakeSession('1.999')
        client = http.Client(session, fakes.ENDPOINT)
        self.assertEqual(http.LAST_KNOWN_VERSION, client.version)

    def test_requested_version_is_sent_without_negotiation(self):
        session = fakes.FakeSession('1.60')
        session.route('GET', '/v1/nodes', fakes.FakeResponse(
            200, {'nodes': []}))
        client = http.Client(session, fakes.ENDPOINT, (1, 31))
        client.get('nodes')
        self.assertEqual(['/v1/nodes'], [r.path for r in session.requests])
        self.assertEqual('1.31',
                         session.requests[0].headers[http.VERSION_HEADER])

    def test_version_from_body_without_header(self):
        class Session(fakes.FakeSession):
            def request(self, url, method, **kwargs):
                self.requests.append(url)
                return fakes.FakeResponse(200, {'default_version': {
                    'version': '1.46'}})
        client = http.Client(Session(), fakes.ENDPOINT)
        self.assertEqual((1, 46), client.version)

    def test_fallback_version_when_server_tells_nothing(self):
        class Session(fakes.FakeSession):
            def request(self, url, method, **kwargs):
                return fakes.FakeResponse(200, {})
        client = http.Client(Session(), fakes.ENDPOINT)
        self.assertEqual(http.FALLBACK_VERSION, client.version)

    def test_endpoint_with_v1_suffix(self):
        session = fakes.FakeSession()
        session.route('GET', '/v1/nodes', fakes.FakeResponse(
            200, {'nodes': []}))
        client = http.Client(session, fakes.ENDPOINT + '/v1/', (1, 1))
        client.get('nodes')
        self.assertEqual(fakes.ENDPOINT + '/v1/nodes',
                         session.requests[0].url)

    def test_require_names_negotiated_limit(self):
        client = http.Client(fakes.FakeSession('1.51'), fakes.ENDPOINT)
        e = self.assertRaises(osc_exc.CommandError, client.require,
                              http.ALLOCATIONS, 'Allocation commands')
        self.assertEqual('Allocation commands: API version 1.52 or later '
                         'is needed, but the server supports versions up '
                         'to 1.51.', str(e))
        client.require(http.CONDUCTORS, 'x')  # no error

    def test_require_names_requested_version(self):
        client = http.Client(fakes.FakeSession(), fakes.ENDPOINT, (1, 40))
        e = self.assertRaises(osc_exc.CommandError, client.require,
                              http.CONDUCTORS, 'Conductor commands')
        self.assertIn('version 1.40 was requested', str(e))

    def test_parse_version(self):
        self.assertEqual((1, 52), http.parse_version('1.52'))
        self.assertRaises(ValueError, http.parse_version, '1')
        self.assertRaises(ValueError, http.parse_version, 'latest')
        self.assertRaises(ValueError, http.parse_version, None)


class TestErrors(testtools.TestCase):

    def setUp(self):
        super().setUp()
        self.session = fakes.FakeSession()
        self.client = http.Client(self.session, fakes.ENDPOINT, (1, 51))

    def test_faultstring_of_ironic_body(self):
        self.session.route('GET', '/v1/nodes/x', fakes.fault(
            404, 'Node x could not be found.'))
        e = self.assertRaises(http.HTTPError, self.client.get, 'nodes/x')
        self.assertEqual(404, e.status)
        self.assertEqual('Node x could not be found.', e.message)
        self.assertEqual('Node x could not be found. (HTTP 404)', str(e))
        self.assertIsInstance(e, osc_exc.CommandError)

    def test_message_made_one_line(self):
        self.session.route('GET', '/v1/nodes', fakes.fault(
            400, 'first line\nsecond   line\n'))
        e = self.assertRaises(http.HTTPError, self.client.get, 'nodes')
        self.assertEqual('first line second line (HTTP 400)', str(e))

    def test_error_message_as_plain_string(self):
        self.session.route('GET', '/v1/nodes', fakes.FakeResponse(
            409, {'error_message': 'plain words'}))
        e = self.assertRaises(http.HTTPError, self.client.get, 'nodes')
        self.assertEqual('plain words', e.message)

    def test_error_message_as_object(self):
        self.session.route('GET', '/v1/nodes', fakes.FakeResponse(
            409, {'error_message': {'faultstring': 'obj'}}))
        e = self.assertRaises(http.HTTPError, self.client.get, 'nodes')
        self.assertEqual('obj', e.message)

    def test_text_body(self):
        self.session.route('GET', '/v1/nodes', fakes.FakeResponse(
            502, text='<html>Bad gateway</html>\n'))
        e = self.assertRaises(http.HTTPError, self.client.get, 'nodes')
        self.assertEqual('<html>Bad gateway</html> (HTTP 502)', str(e))

    def test_empty_body_uses_reason(self):
        self.session.route('GET', '/v1/nodes', fakes.FakeResponse(
            503, text='', reason='Service Unavailable'))
        e = self.assertRaises(http.HTTPError, self.client.get, 'nodes')
        self.assertEqual('Service Unavailable (HTTP 503)', str(e))

    def test_connect_failure_is_one_line(self):
        class Session(object):
            def request(self, *args, **kwargs):
                raise ksa_exc.ConnectFailure(
                    'Unable to establish connection to http://x: '
                    'HTTPConnectionPool(host=\'x\'): Max retries\n'
                    '(Caused by NewConnectionError(\'<conn>: Failed to '
                    'establish a new connection: [Errno 111] Connection '
                    'refused\'))')
        client = http.Client(Session(), fakes.ENDPOINT)
        e = self.assertRaises(osc_exc.CommandError, client.get, 'nodes')
        self.assertEqual('Unable to connect to the baremetal API at %s: '
                         'Connection refused' % fakes.ENDPOINT, str(e))

    def test_other_keystoneauth_error(self):
        class Session(object):
            def request(self, *args, **kwargs):
                raise ksa_exc.Unauthorized('The request you have made '
                                           'requires\nauthentication.')
        client = http.Client(Session(), fakes.ENDPOINT, (1, 1))
        e = self.assertRaises(osc_exc.CommandError, client.get, 'nodes')
        self.assertNotIn('\n', str(e))
        self.assertIn('requires authentication', str(e))

    def test_non_json_success_body(self):
        self.session.route('GET', '/v1/nodes', fakes.FakeResponse(
            200, text='not json'))
        self.assertRaises(osc_exc.CommandError, self.client.get, 'nodes')

    def test_no_content(self):
        self.session.route('DELETE', '/v1/nodes/x', fakes.FakeResponse(204))
        self.assertIsNone(self.client.delete('nodes/x'))


class TestRequests(testtools.TestCase):

    def setUp(self):
        super().setUp()
        self.session = fakes.FakeSession()
        self.client = http.Client(self.session, fakes.ENDPOINT, (1, 60))

    def test_json_body_and_params(self):
        self.session.route('PATCH', '/v1/nodes/n', fakes.FakeResponse(
            200, {}))
        self.client.patch('nodes/n', [{'op': 'remove', 'path': '/x'}],
                          {'reset_interfaces': 'True'})
        request = self.session.requests[0]
        self.assertEqual([{'op': 'remove', 'path': '/x'}], request.body)
        self.assertEqual({'reset_interfaces': 'True'}, request.params)
        self.assertEqual('application/json', request.headers['Accept'])

    def test_quote(self):
        self.assertEqual('a%2Fb%20c', http.quote('a/b c'))

    def _pages(self, request):
        marker = request.params.get('marker')
        start = int(marker) if marker else 0
        limit = int(request.params.get('limit', 2))
        items = [{'uuid': str(i)} for i in range(start + 1,
                                                 min(start + 1 + 2, 6))]
        body = {'nodes': items}
        if len(items) == 2:
            body['next'] = ('http://elsewhere/v1/nodes?limit=%d&marker=%s'
                            % (limit, items[-1]['uuid']))
        return fakes.FakeResponse(200, body)

    def test_list_follows_next_links_on_own_endpoint(self):
        self.session.route('GET', '/v1/nodes', self._pages)
        items = self.client.list('nodes', 'nodes', {'driver': 'd'})
        self.assertEqual(['1', '2', '3', '4', '5'],
                         [i['uuid'] for i in items])
        self.assertTrue(all(r.url.startswith(fakes.ENDPOINT)
                            for r in self.session.requests))
        self.assertEqual({'driver': 'd', 'marker': '4'},
                         self.session.requests[-1].params)

    def test_list_limit(self):
        self.session.route('GET', '/v1/nodes', self._pages)
        items = self.client.list('nodes', 'nodes', limit=3)
        self.assertEqual(['1', '2', '3'], [i['uuid'] for i in items])
        self.assertEqual('3', str(self.session.requests[0].params['limit']))

    def test_list_stops_on_repeated_marker(self):
        body = {'nodes': [{'uuid': 'a'}],
                'next': 'http://x/v1/nodes?marker=a'}
        self.session.route('GET', '/v1/nodes', fakes.FakeResponse(200, body))
        items = self.client.list('nodes', 'nodes')
        self.assertEqual(2, len(items))
        self.assertEqual(2, len(self.session.requests))

    def test_fault_helper_round_trip(self):
        response = fakes.fault(400, 'bad')
        self.assertEqual('bad', json.loads(
            response.json()['error_message'])['faultstring'])
