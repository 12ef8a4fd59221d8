"""The WSGI entry point parses the configuration and serves the API."""

import os

import fixtures
import webtest

from ironic_like.api import wsgi
from ironic_like.conf import CONF
from ironic_like.tests.unit.api import base


class TestInitializeWsgiApp(base.APITestCase):

    def test_reads_config_file(self):
        # Logging setup is global to the process; not in a unit test.
        self.useFixture(fixtures.MockPatch('oslo_log.log.setup'))
        path = os.path.join(self.useFixture(fixtures.TempDir()).path,
                            'ironic_like.conf')
        with open(path, 'w') as f:
            f.write('[DEFAULT]\nauth_strategy = noauth\n'
                    '[api]\npublic_endpoint = https://bm.example.com\n')
        application = wsgi.initialize_wsgi_app(['ironic-like-api-wsgi',
                                                '--config-file', path])
        self.assertEqual('https://bm.example.com', CONF.api.public_endpoint)
        app = webtest.TestApp(application)
        doc = app.get('/').json
        self.assertEqual('https://bm.example.com/v1/',
                         doc['default_version']['links'][0]['href'])
        node = self.create_node(name='w1')
        doc = app.get('/v1/nodes/w1', headers=base.LATEST).json
        self.assertEqual(node.uuid, doc['uuid'])
