"""Base class of the API tests: the full WSGI app (setup_app()) under
webtest, over the test's private database and in-process RPC."""

import json

from oslo_utils import uuidutils
import webtest

from ironic_like.api import app
from ironic_like.api import lookup_limit
from ironic_like.common import policy
from ironic_like.common import states
from ironic_like.conf import CONF
from ironic_like.tests import base
from ironic_like.tests.unit.db import utils as db_utils

LATEST = {'X-OpenStack-Ironic-API-Version': 'latest'}


def version_header(version):
    return {'X-OpenStack-Ironic-API-Version': version}


def fault(response):
    """The decoded inner error document of an error response."""
    return json.loads(response.json['error_message'])


class APITestCase(base.TestCase):
    """An API app per test. ``with_conductor`` starts a real in-process
    conductor so that writes go through the real RPC path."""

    with_conductor = False
    auth_strategy = 'noauth'

    def setUp(self):
        super().setUp()
        # oslo.policy looks its file up through CONF, which must be parsed.
        CONF([], project='ironic_like', default_config_files=[],
             default_config_dirs=[])
        self.config(auth_strategy=self.auth_strategy)
        self.config(node_locked_retry_attempts=1, group='conductor')
        policy.reset()
        self.addCleanup(policy.reset)
        # Failed agent lookups are counted per process: start from none.
        lookup_limit.limiter().reset()
        self.addCleanup(lookup_limit.limiter().reset)
        if self.with_conductor:
            self.useFixture(base.ConductorFixture())
        else:
            # Drivers and the ring need a live conductor row.
            self.db.register_conductor(CONF.host, '', ['fake-hardware'])
        self.app = self.make_app()

    def make_app(self, **kwargs):
        return webtest.TestApp(app.setup_app(**kwargs))

    # -- requests -----------------------------------------------------------

    def _headers(self, headers, version):
        result = dict(LATEST if version is None
                      else version_header(version))
        result.update(headers or {})
        return result

    def get(self, url, status=200, headers=None, version=None):
        return self.app.get(url, headers=self._headers(headers, version),
                            status=status)

    def post(self, url, body, status=201, headers=None, version=None):
        return self.app.post_json(url, body, status=status,
                                  headers=self._headers(headers, version))

    def put(self, url, body=None, status=202, headers=None, version=None):
        headers = self._headers(headers, version)
        if body is None:
            return self.app.put(url, headers=headers, status=status)
        return self.app.put_json(url, body, headers=headers, status=status)

    def patch(self, url, ops, status=200, headers=None, version=None):
        return self.app.patch_json(url, ops, status=status,
                                   headers=self._headers(headers, version))

    def delete(self, url, status=204, headers=None, version=None):
        return self.app.delete(url, headers=self._headers(headers, version),
                               status=status)

    def raw(self, method, url, body, status, content_type='application/json',
            headers=None):
        """A request with a body sent as given (malformed JSON...)."""
        return self.app.request(
            url, method=method, body=body, status=status,
            headers=dict(self._headers(headers, None),
                         **{'Content-Type': content_type}))

    def assertFault(self, response, status, *fragments):
        self.assertEqual(status, response.status_int)
        self.assertEqual('application/json', response.content_type)
        doc = fault(response)
        self.assertEqual('Client' if status < 500 else 'Server',
                         doc['faultcode'])
        self.assertIsNone(doc['debuginfo'])
        self.assertNotIn('Traceback', doc['faultstring'])
        for fragment in fragments:
            self.assertIn(fragment, doc['faultstring'])
        return doc['faultstring']

    # -- data ---------------------------------------------------------------

    def create_node(self, **values):
        """A node written straight to the database (no conductor needed)."""
        values.setdefault('uuid', uuidutils.generate_uuid())
        values.setdefault('driver', 'fake-hardware')
        values.setdefault('provision_state', states.ENROLL)
        values.setdefault('power_state', states.POWER_OFF)
        return self.db.create_node(values)

    def create_port(self, node, **values):
        values.setdefault('uuid', uuidutils.generate_uuid())
        values.setdefault('address', '52:54:00:%02x:%02x:%02x' % tuple(
            int(values['uuid'][i:i + 2], 16) for i in (0, 2, 4)))
        values['node_id'] = node.id
        return self.db.create_port(values)

    def wait_for(self, node_uuid, predicate, timeout=20.0, interval=0.05):
        """Poll the node until ``predicate(node)`` and its lock is released
        (bounded), return it."""
        return db_utils.wait_for_node(node_uuid, predicate, timeout,
                                      interval)
