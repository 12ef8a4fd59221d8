"""/v1/nodes/{id}/history (1.78): errors and faults journaled by the
conductor's node task, listed and pruned."""

from unittest import mock

from ironic_like.common import states
from ironic_like.conductor import node_history
from ironic_like.drivers.modules import fake
from ironic_like.tests.unit.api import base


class TestNodeHistory(base.APITestCase):

    with_conductor = True

    def setUp(self):
        super().setUp()
        self.node = self.create_node(name='n1')
        self.url = '/v1/nodes/n1/history'

    def _fail_power(self):
        with mock.patch.object(fake.FakePower, 'set_power_state',
                               side_effect=RuntimeError('BMC on fire')):
            self.put('/v1/nodes/n1/states/power', {'target': 'power on'})
            self.wait_for(self.node.uuid,
                          lambda n: n.target_power_state is None)

    def test_404_below_1_78(self):
        self.get(self.url, version='1.77', status=404)
        self.get(self.url + '/x', version='1.77', status=404)

    def test_error_recorded_and_listed(self):
        self.assertEqual({'history': []},
                         self.get(self.url, version='1.78').json)
        self._fail_power()
        doc = self.get(self.url, version='1.78').json
        self.assertEqual(1, len(doc['history']))
        event = doc['history'][0]
        self.assertEqual({'uuid', 'created_at', 'severity', 'event',
                          'links'}, set(event))
        self.assertEqual('ERROR', event['severity'])
        self.assertIn('BMC on fire', event['event'])
        detail = self.get(self.url + '?detail=True', version='1.78').json
        self.assertEqual('power', detail['history'][0]['event_type'])
        self.assertEqual('test-conductor', detail['history'][0]['conductor'])
        one = self.get(self.url + '/' + event['uuid'], version='1.78').json
        self.assertEqual(detail['history'][0], one)

    def test_unknown_event_404(self):
        r = self.get(self.url + '/6d6b0e3f-6e1c-4c55-8a7e-3f1f6c1f2a01',
                     version='1.78', status=404)
        self.assertFault(r, 404, 'could not be found')

    def test_long_event_cut_in_the_list(self):
        self.db.record_node_history({'node_id': self.node.id,
                                     'event': 'x' * 400,
                                     'severity': 'ERROR'})
        short = self.get(self.url, version='1.78').json['history'][0]
        # As Ironic: 251 characters and '...'.
        self.assertEqual(254, len(short['event']))
        self.assertTrue(short['event'].endswith('...'))
        full = self.get(self.url + '?detail=true',
                        version='1.78').json['history'][0]
        self.assertEqual(400, len(full['event']))

    def test_paging(self):
        for i in range(5):
            self.db.record_node_history({'node_id': self.node.id,
                                         'event': 'e%d' % i})
        doc = self.get(self.url + '?limit=2', version='1.78').json
        self.assertEqual(['e0', 'e1'], [e['event'] for e in doc['history']])
        self.assertIn('marker=%s' % doc['history'][1]['uuid'], doc['next'])
        doc = self.get(self.url + '?limit=2&marker=%s'
                       % doc['history'][1]['uuid'], version='1.78').json
        self.assertEqual(['e2', 'e3'], [e['event'] for e in doc['history']])
        r = self.get(self.url + '?marker=nope', version='1.78', status=400)
        self.assertFault(r, 400, 'marker')

    def test_option_off_records_nothing(self):
        self.config(node_history=False, group='conductor')
        self._fail_power()
        self.assertEqual([], self.db.get_node_history_list(self.node.id))

    def test_deleted_with_the_node(self):
        self.db.record_node_history({'node_id': self.node.id,
                                     'event': 'e'})
        self.delete('/v1/nodes/n1')
        self.assertEqual([], self.db.get_node_history_list(self.node.id))

    def test_prune_keeps_the_newest(self):
        self.config(node_history_max_entries=2, group='conductor')
        other = self.create_node(name='n2')
        for i in range(5):
            self.db.record_node_history({'node_id': self.node.id,
                                         'event': 'e%d' % i})
        self.db.record_node_history({'node_id': other.id, 'event': 'o'})
        self.assertEqual(3, node_history.prune())
        self.assertEqual(['e3', 'e4'], [
            e.event for e in self.db.get_node_history_list(self.node.id)])
        self.assertEqual(1, len(self.db.get_node_history_list(other.id)))
        # Young events stay whatever the bound.
        self.config(node_history_max_entries=0,
                    node_history_minimum_days=1, group='conductor')
        self.assertEqual(0, node_history.prune())

    def test_fault_recorded_as_maintenance_warning(self):
        node_history_calls = []
        task = mock.Mock(purpose='power state sync', context=None,
                         node=mock.Mock(id=self.node.id, uuid='u',
                                        maintenance_reason='BMC silent'))
        with mock.patch.object(node_history, 'record',
                               side_effect=lambda *a, **k:
                               node_history_calls.append(a)):
            node_history.note_update(
                task, mock.Mock(fault=None, last_error=None),
                {'fault': 'power failure', 'maintenance': True})
        self.assertEqual(1, len(node_history_calls))
        self.assertEqual(('maintenance', 'WARNING'),
                         node_history_calls[0][2:4])
        self.assertEqual(states.ENROLL, self.db.get_node_by_id(
            self.node.id).provision_state)

    def test_policy(self):
        self.config(auth_strategy='keystone')
        self.app = self.make_app(skip_auth_token=True)
        self.db.update_node(self.node.id, {'owner': 'p1', 'lessee': 'p2'})
        owner = {'X-Roles': 'reader', 'X-Project-Id': 'p1',
                 'X-User-Id': 'u'}
        lessee = {'X-Roles': 'reader', 'X-Project-Id': 'p2',
                  'X-User-Id': 'u'}
        self.get(self.url, headers=owner, version='1.78')
        self.get(self.url, headers=lessee, version='1.78', status=403)
