"""The "inspect" provision verb and the versions of inspection: the verb
(1.6), "inspect wait" (1.39, "inspecting" before) and its abort (1.41),
the inspection times (1.6)."""

import datetime

from ironic_like.common import states
from ironic_like.tests.unit.api import base


class TestInspectionFields(base.APITestCase):

    def test_inspect_wait_shown_by_version(self):
        node = self.create_node(provision_state=states.INSPECTWAIT)
        url = '/v1/nodes/%s' % node.uuid
        self.assertEqual(states.INSPECTWAIT,
                         self.get(url).json['provision_state'])
        self.assertEqual(states.INSPECTWAIT, self.get(
            url, version='1.39').json['provision_state'])
        self.assertEqual(states.INSPECTING, self.get(
            url, version='1.38').json['provision_state'])
        self.assertEqual(states.INSPECTING, self.get(
            url + '/states', version='1.38').json['provision_state'])
        listed = self.get('/v1/nodes', version='1.38').json['nodes']
        self.assertEqual([states.INSPECTING],
                         [n['provision_state'] for n in listed])

    def test_inspection_times(self):
        started = datetime.datetime(2026, 1, 2, 3, 4, 5)
        node = self.create_node(inspection_started_at=started)
        url = '/v1/nodes/%s' % node.uuid
        doc = self.get(url).json
        self.assertEqual('2026-01-02T03:04:05+00:00',
                         doc['inspection_started_at'])
        self.assertIsNone(doc['inspection_finished_at'])
        doc = self.get(url, version='1.5').json
        self.assertNotIn('inspection_started_at', doc)
        self.assertNotIn('inspection_finished_at', doc)


class TestInspectVerb(base.APITestCase):

    with_conductor = True

    def setUp(self):
        super().setUp()
        values = {'provision_state': states.MANAGEABLE,
                  'deploy_interface': 'agent', 'boot_interface': 'fake',
                  'inspect_interface': 'agent'}
        self.node = self.create_node(**values)
        self.url = '/v1/nodes/%s/states/provision' % self.node.uuid

    def test_inspect_needs_1_6(self):
        r = self.put(self.url, {'target': 'inspect'}, version='1.5',
                     status=406)
        self.assertFault(r, 406, 'inspect')

    def test_inspect_refused_in_enroll(self):
        self.db.update_node(self.node.id,
                            {'provision_state': states.ENROLL})
        r = self.put(self.url, {'target': 'inspect'}, status=400)
        self.assertFault(r, 400, 'inspect', states.ENROLL)

    def test_no_inspect_refused(self):
        self.db.update_node(self.node.id, {'inspect_interface': 'no-inspect'})
        r = self.put(self.url, {'target': 'inspect'}, status=400)
        self.assertFault(r, 400, 'inspect')
        self.assertEqual(states.MANAGEABLE, self.db.get_node_by_uuid(
            self.node.uuid).provision_state)

    def test_inspect_then_abort(self):
        self.put(self.url, {'target': 'inspect'}, version='1.6')
        node = self.wait_for(
            self.node.uuid,
            lambda n: n.provision_state == states.INSPECTWAIT)
        self.assertIsNotNone(node.inspection_started_at)
        doc = self.get('/v1/nodes/%s' % node.uuid).json
        self.assertIsNotNone(doc['inspection_started_at'])
        # Aborting "inspect wait" came in 1.41.
        r = self.put(self.url, {'target': 'abort'}, version='1.40',
                     status=406)
        self.assertFault(r, 406, '1.41')
        self.put(self.url, {'target': 'abort'}, version='1.41')
        node = self.wait_for(
            self.node.uuid,
            lambda n: n.provision_state == states.INSPECTFAIL)
        self.assertEqual('Aborted by request.', node.last_error)
        # From inspect failed: inspect again, or manage.
        self.put(self.url, {'target': 'manage'})
        self.wait_for(self.node.uuid,
                      lambda n: n.provision_state == states.MANAGEABLE)
