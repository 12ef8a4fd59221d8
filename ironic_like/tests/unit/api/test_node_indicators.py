"""/v1/nodes/{id}/management/indicators (1.63) through the real
conductor, with the fake management interface."""

import fixtures

from ironic_like.drivers import base as drivers_base
from ironic_like.drivers.modules import fake
from ironic_like.tests.unit.api import base

URL = '/v1/nodes/n1/management/indicators'


class TestIndicators(base.APITestCase):

    with_conductor = True

    def setUp(self):
        super().setUp()
        self.node = self.create_node(name='n1')

    def test_every_version(self):
        # Ironic gates none of the three on 1.63: older clients reach them.
        by_uuid = '/v1/nodes/%s/management/indicators' % self.node.uuid
        self.assertEqual(2, len(self.get(by_uuid, version='1.1').json[
            'indicators']))
        self.get(URL + '/led@system', version='1.62')
        self.put(URL + '/led@system', {'state': 'ON'}, version='1.62',
                 status=204)

    def test_list(self):
        doc = self.get(URL, version='1.63').json
        self.assertEqual(
            [('led-0@chassis', 'chassis', True, ['OFF', 'ON']),
             ('led@system', 'system', False, ['BLINKING', 'OFF', 'ON'])],
            [(i['name'], i['component'], i['readonly'], i['states'])
             for i in doc['indicators']])
        self.assertEqual(
            'http://localhost/v1/nodes/n1/management/indicators/'
            'led@system', doc['indicators'][1]['links'][0]['href'])

    def test_set_and_read(self):
        self.assertEqual({'state': 'OFF'},
                         self.get(URL + '/led@system').json)
        self.put(URL + '/led@system', {'state': 'BLINKING'}, status=204)
        self.assertEqual({'state': 'BLINKING'},
                         self.get(URL + '/led@system').json)
        # Kept with the node.
        info = self.db.get_node_by_id(self.node.id).driver_internal_info
        self.assertEqual({'led@system': 'BLINKING'},
                         info['fake_indicators'])

    def test_bad_requests_change_nothing(self):
        cases = [
            (URL + '/led', {'state': 'ON'}, 'Malformed indicator name'),
            (URL + '/led@rack', {'state': 'ON'}, 'Invalid component'),
            (URL + '/nope@system', {'state': 'ON'}, 'Invalid indicator'),
            (URL + '/led-0@chassis', {'state': 'ON'}, 'read-only'),
            (URL + '/led@system', {'state': 'PURPLE'}, 'state'),
            (URL + '/led@system', {}, 'state'),
        ]
        for url, body, fragment in cases:
            r = self.put(url, body, status=400)
            self.assertFault(r, 400, fragment)
        self.assertEqual({'state': 'OFF'},
                         self.get(URL + '/led@system').json)
        self.get(URL + '/led', status=400)

    def test_unsupported_interface_400(self):
        def refuse(self_, task, *args):
            raise drivers_base.unsupported(task, 'indicators')
        for method in ('get_supported_indicators', 'get_indicator_state'):
            self.useFixture(fixtures.MockPatchObject(
                fake.FakeManagement, method, refuse))
        self.assertFault(self.get(URL, status=400), 400)
        self.assertFault(self.get(URL + '/led@system', status=400), 400)
        self.assertFault(self.put(URL + '/led@system', {'state': 'ON'},
                                  status=400), 400)

    def test_unknown_node_404(self):
        self.get('/v1/nodes/nope/management/indicators', status=404)
        self.put('/v1/nodes/nope/management/indicators/led@system',
                 {'state': 'ON'}, status=404)

    def test_policy(self):
        # As Ironic: readers may read, members may set.
        headers = {'X-Roles': 'reader', 'OpenStack-System-Scope': 'all',
                   'X-User-Id': 'u'}
        self.config(auth_strategy='keystone')
        self.app = self.make_app(skip_auth_token=True)
        self.get(URL, headers=headers)
        self.get(URL + '/led@system', headers=headers)
        self.put(URL + '/led@system', {'state': 'ON'}, headers=headers,
                 status=403)
        project = {'X-Roles': 'member', 'X-Project-Id': 'p1',
                   'X-User-Id': 'u'}
        url = '/v1/nodes/%s/management/indicators' % self.node.uuid
        self.get(url, headers=project, status=404)
        self.db.update_node(self.node.id, {'lessee': 'p1'})
        self.get(url, headers=project)
        self.put(url + '/led@system', {'state': 'ON'}, headers=project,
                 status=403)
        self.db.update_node(self.node.id, {'owner': 'p1'})
        self.put(url + '/led@system', {'state': 'ON'}, headers=project,
                 status=204)
