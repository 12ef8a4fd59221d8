"""POST /v1/events (Ironic 1.54): network events, checked and logged."""

import copy

from ironic_like.tests.unit.api import base
from ironic_like.tests.unit.api import test_auth

PORT_ID = '2f1a4c6e-5b0d-4e7a-9c3b-1d2e3f4a5b6c'
DEVICE_ID = '8a9b0c1d-2e3f-4a5b-6c7d-8e9f0a1b2c3d'
HOST_ID = '1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f'

EVENT = {'event': 'network.bind_port', 'port_id': PORT_ID,
         'mac_address': '52:54:00:12:34:56', 'status': 'ACTIVE',
         'device_id': DEVICE_ID, 'binding:host_id': HOST_ID,
         'binding:vnic_type': 'baremetal'}


def _body(**changes):
    event = copy.deepcopy(EVENT)
    for name, value in changes.items():
        name = name.replace('__', ':')
        if value is None and name in ('event', 'port_id', 'mac_address',
                                      'status', 'extra'):
            event.pop(name, None)
        else:
            event[name] = value
    return {'events': [event]}


class TestEvents(base.APITestCase):

    def test_accepted(self):
        r = self.post('/v1/events', _body(), status=204)
        self.assertEqual(b'', r.body)
        events = [dict(EVENT, event=kind) for kind in (
            'network.bind_port', 'network.unbind_port',
            'network.delete_port')]
        self.post('/v1/events', {'events': events}, status=204)
        # The optional fields may be null or left out.
        minimal = {k: EVENT[k] for k in ('event', 'port_id', 'mac_address',
                                         'status')}
        self.post('/v1/events', {'events': [
            minimal, dict(minimal, device_id=None,
                          **{'binding:host_id': None,
                             'binding:vnic_type': None})]}, status=204)

    def test_logged_at_debug(self):
        with self.assertLogs('ironic_like.api.controllers.v1.event',
                             level='DEBUG') as logs:
            self.post('/v1/events', _body(), status=204)
        self.assertIn(PORT_ID, logs.output[0])
        self.assertTrue(logs.output[0].startswith('DEBUG'))

    def test_below_1_54_is_404(self):
        self.post('/v1/events', _body(), version='1.53', status=404)
        self.get('/v1/events', version='1.53', status=404)
        self.assertNotIn('events', self.get('/v1', version='1.53').json)
        doc = self.get('/v1', version='1.54').json
        self.assertEqual('http://localhost/v1/events/',
                         doc['events'][0]['href'])

    def test_other_methods(self):
        self.get('/v1/events', status=405)
        self.app.put_json('/v1/events', _body(), headers=base.LATEST,
                          status=405)

    def test_invalid_fields_named(self):
        cases = [
            (_body(event='network.other'), 'event'),
            (_body(event=None), 'event'),
            (_body(port_id='not-a-uuid'), 'port_id'),
            (_body(port_id=None), 'port_id'),
            (_body(mac_address='zz:zz'), 'mac_address'),
            (_body(mac_address=None), 'mac_address'),
            (_body(status=5), 'status'),
            (_body(status=None), 'status'),
            (_body(device_id='x'), 'device_id'),
            (_body(binding__host_id='x'), 'binding:host_id'),
            (_body(binding__vnic_type=3), 'binding:vnic_type'),
            (_body(unknown='x'), 'unknown'),
        ]
        for body, field in cases:
            r = self.post('/v1/events', body, status=400)
            self.assertFault(r, 400, 'field/attribute %s.' % field,
                             '(event 0)')

    def test_invalid_shapes(self):
        for body, fragment in (
                ({}, 'events'),
                ({'events': []}, 'events'),
                ({'events': 'x'}, 'events'),
                ({'events': ['x']}, 'events'),
                ({'events': [EVENT], 'other': 1}, 'other')):
            r = self.post('/v1/events', body, status=400)
            self.assertFault(r, 400, fragment)
        r = self.post('/v1/events', {'events': [EVENT, dict(
            EVENT, port_id='x')]}, status=400)
        self.assertFault(r, 400, 'port_id', '(event 1)')
        self.post('/v1/events?zz=1', _body(), status=400)


class TestEventsPolicy(test_auth.KeystoneTestCase):

    def test_service_and_admin_only(self):
        for headers in (self.system('admin'), self.system('service'),
                        {'X-Roles': 'service', 'X-Project-Id': 'svc-id',
                         'X-Project-Name': 'service', 'X-User-Id': 'n'}):
            self.post('/v1/events', _body(), headers=headers, status=204)
        for headers in (self.system('member'), self.project('admin'),
                        self.project('member')):
            r = self.post('/v1/events', _body(), headers=headers,
                          status=403)
            self.assertFault(r, 403, 'baremetal:events:post')
