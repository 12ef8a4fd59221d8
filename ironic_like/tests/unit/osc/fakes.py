"""A fake HTTP layer for the CLI plugin's unit tests.

FakeSession stands for the keystoneauth session: it records every request
and answers from a list of canned routes, so the tests check the exact
requests a command builds without any network.
"""

import io
import json
import re

from ironic_like.osc import client as http

ENDPOINT = 'http://baremetal.test:6385'
NODE_UUID = '1be26c0b-03f2-4d2e-ae87-c02d7f33c123'
NODE_UUID2 = '2be26c0b-03f2-4d2e-ae87-c02d7f33c124'
PORT_UUID = '3be26c0b-03f2-4d2e-ae87-c02d7f33c125'
ALLOCATION_UUID = '4be26c0b-03f2-4d2e-ae87-c02d7f33c126'


class FakeResponse(object):

    def __init__(self, status_code=200, body=None, headers=None, text=None,
                 reason=None):
        self.status_code = status_code
        self.headers = dict(headers or {})
        if text is None:
            text = '' if body is None else json.dumps(body)
        self.text = text
        self.content = text.encode('utf-8')
        self.reason = reason

    def json(self):
        return json.loads(self.text)


def fault(status, message):
    """Ironic's error response (the faultstring JSON-encoded twice)."""
    inner = json.dumps({'faultstring': message, 'faultcode': 'Client',
                        'debuginfo': None})
    return FakeResponse(status, {'error_message': inner})


class Request(object):

    def __init__(self, method, url, headers, params, body):
        self.method = method
        self.url = url
        self.headers = headers
        self.params = params
        self.body = body

    @property
    def path(self):
        """The URL below the endpoint (e.g. /v1/nodes)."""
        return self.url[len(ENDPOINT):]

    def __repr__(self):
        return '<%s %s %s %s>' % (self.method, self.path, self.params,
                                  self.body)


class FakeSession(object):
    """Answers requests from routes: (method, path regex, response or
    callable(request) -> response, or a list of those consumed in
    order, the last one repeating)."""

    def __init__(self, max_version='1.60'):
        self.requests = []
        self.routes = []
        self.max_version = max_version

    def route(self, method, path, *responses):
        self.routes.insert(0, [method, re.compile('^%s$' % path),
                               list(responses)])

    def request(self, url, method, headers=None, json=None, params=None,
                raise_exc=True, **kwargs):
        assert raise_exc is False, 'the client handles errors itself'
        request = Request(method, url, dict(headers or {}),
                          dict(params or {}), json)
        self.requests.append(request)
        if method == 'GET' and request.path == '/':
            return FakeResponse(200, {'versions': []}, headers={
                http.MAX_VERSION_HEADER: self.max_version,
                http.MIN_VERSION_HEADER: '1.1'})
        for route_method, pattern, responses in self.routes:
            if route_method == method and pattern.match(request.path):
                response = (responses.pop(0) if len(responses) > 1
                            else responses[0])
                if callable(response):
                    response = response(request)
                return response
        return fault(404, 'No fake route for %s %s'
                     % (method, request.path))

    def api_requests(self):
        """The requests after version negotiation."""
        return [r for r in self.requests if r.path != '/']


class FakeClientManager(object):
    def __init__(self, client):
        self.baremetal = client


class FakeApp(object):
    def __init__(self, client):
        self.client_manager = FakeClientManager(client)
        self.stdout = io.StringIO()
        self.stderr = io.StringIO()
        self.options = None


def node(**fields):
    doc = {'uuid': NODE_UUID, 'name': 'node-0', 'driver': 'fake-hardware',
           'provision_state': 'enroll', 'target_provision_state': None,
           'power_state': 'power off', 'maintenance': False,
           'instance_uuid': None, 'last_error': None, 'properties': {},
           'extra': {}, 'traits': [],
           'links': [{'href': 'x', 'rel': 'self'}], 'ports': [],
           'states': []}
    doc.update(fields)
    return doc


def port(**fields):
    doc = {'uuid': PORT_UUID, 'address': '52:54:00:00:00:01',
           'node_uuid': NODE_UUID, 'extra': {}, 'pxe_enabled': True,
           'links': []}
    doc.update(fields)
    return doc


def allocation(**fields):
    doc = {'uuid': ALLOCATION_UUID, 'name': None, 'state': 'allocating',
           'node_uuid': None, 'resource_class': 'gold', 'traits': [],
           'candidate_nodes': [], 'extra': {}, 'owner': None,
           'last_error': None, 'links': []}
    doc.update(fields)
    return doc


class FakeClock(object):
    """monotonic() and sleep() of a clock that only sleep() advances."""

    def __init__(self):
        self.now = 1000.0
        self.sleeps = []

    def monotonic(self):
        return self.now

    def sleep(self, seconds):
        self.sleeps.append(seconds)
        self.now += seconds
