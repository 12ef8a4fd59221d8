"""A real client (openstacksdk, with keystoneauth's version discovery)
against the API served over HTTP, with an in-process conductor."""

import threading
from wsgiref import simple_server

from openstack import connection
from openstack import exceptions as sdk_exc

from ironic_like.common import states
from ironic_like.tests.unit.api import base


class _QuietHandler(simple_server.WSGIRequestHandler):

    def log_message(self, *args):
        pass


class TestOpenStackSDK(base.APITestCase):

    with_conductor = True

    def setUp(self):
        super().setUp()
        server = simple_server.make_server('127.0.0.1', 0, self.app.app,
                                           handler_class=_QuietHandler)
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        self.addCleanup(server.server_close)
        self.addCleanup(server.shutdown)
        self.url = 'http://127.0.0.1:%d' % server.server_port

    def connect(self, endpoint):
        return connection.Connection(
            auth_type='none', baremetal_endpoint_override=endpoint,
            baremetal_api_version='1')

    def test_discovery_at_root_and_v1(self):
        for endpoint in (self.url, self.url + '/v1', self.url + '/v1/'):
            conn = self.connect(endpoint)
            self.assertEqual(self.url + '/v1/',
                             conn.baremetal.get_endpoint())
            self.assertEqual(['fake-hardware'],
                             [d.name for d in conn.baremetal.drivers()])

    def test_node_life(self):
        bm = self.connect(self.url).baremetal
        node = bm.create_node(driver='fake-hardware', name='sdk1',
                              driver_info={'ipmi_password': 'pw'})
        self.assertEqual(states.ENROLL, node.provision_state)
        self.assertEqual('******', node.driver_info['ipmi_password'])
        self.assertEqual(['sdk1'], [n.name for n in bm.nodes()])

        bm.set_node_power_state(node, 'power on')
        self.wait_for(node.id, lambda n: n.power_state == states.POWER_ON)
        bm.set_node_provision_state(node, 'manage')
        self.wait_for(node.id,
                      lambda n: n.provision_state == states.MANAGEABLE)

        node = bm.update_node(node, extra={'a': 1})
        self.assertEqual({'a': 1}, node.extra)
        port = bm.create_port(node_id=node.id, address='52:54:00:00:00:01')
        self.assertEqual(
            ['52:54:00:00:00:01'],
            [p.address for p in bm.ports(details=True, node_id=node.id)])
        bm.add_node_trait(node, 'CUSTOM_SDK')
        self.assertEqual(['CUSTOM_SDK'], bm.get_node('sdk1').traits)
        bm.set_node_maintenance(node, reason='fan')
        self.assertTrue(bm.get_node(node.id).is_maintenance)
        self.assertEqual(['test-conductor'],
                         [c.hostname for c in bm.conductors()])
        bm.delete_port(port)
        bm.unset_node_maintenance(node)

    def test_pagination_and_errors(self):
        for i in range(3):
            self.create_node(name='p%d' % i)
        bm = self.connect(self.url).baremetal
        # The SDK follows the next links page by page.
        self.assertEqual(['p0', 'p1', 'p2'],
                         sorted(n.name for n in bm.nodes(limit=1)))
        error = self.assertRaises(sdk_exc.NotFoundException,
                                  bm.get_node, 'nope')
        self.assertIn('Node nope could not be found', str(error))
        error = self.assertRaises(sdk_exc.BadRequestException,
                                  bm.create_node, driver='nope')
        self.assertIn('field/attribute driver', str(error))
