"""/v1/nodes/{id}/states, power and provision changes, maintenance.

Changes go through the real in-process conductor and are followed in the
database until they complete.
"""

from unittest import mock

from oslo_utils import uuidutils

from ironic_like.common import exception
from ironic_like.common import states
from ironic_like.conductor import workers
from ironic_like.tests.unit.api import base


class TestStatesDocument(base.APITestCase):

    def test_states(self):
        node = self.create_node(provision_state=states.MANAGEABLE,
                                last_error='boom')
        doc = self.get('/v1/nodes/%s/states' % node.uuid).json
        self.assertEqual({'console_enabled', 'last_error', 'power_state',
                          'provision_state', 'provision_updated_at',
                          'target_power_state', 'target_provision_state',
                          'raid_config', 'target_raid_config'}, set(doc))
        self.assertEqual(states.MANAGEABLE, doc['provision_state'])
        self.assertEqual('boom', doc['last_error'])
        self.assertFalse(doc['console_enabled'])

    def test_states_before_1_12_has_no_raid(self):
        node = self.create_node()
        doc = self.get('/v1/nodes/%s/states' % node.uuid,
                       version='1.11').json
        self.assertNotIn('raid_config', doc)

    def test_states_not_found(self):
        self.get('/v1/nodes/%s/states' % uuidutils.generate_uuid(),
                 status=404)


class TestPower(base.APITestCase):

    with_conductor = True

    def setUp(self):
        super().setUp()
        self.node = self.create_node(name='p1')
        self.url = '/v1/nodes/p1/states/power'

    def test_power_on_then_off(self):
        r = self.put(self.url, {'target': states.POWER_ON})
        self.assertEqual(b'', r.body)
        self.assertEqual('http://localhost/v1/nodes/p1/states',
                         r.headers['Location'])
        self.wait_for(self.node.uuid,
                      lambda n: n.power_state == states.POWER_ON)
        self.put(self.url, {'target': states.POWER_OFF})
        node = self.wait_for(self.node.uuid,
                             lambda n: n.power_state == states.POWER_OFF)
        self.assertIsNone(node.target_power_state)

    def test_reboot(self):
        self.put(self.url, {'target': states.REBOOT})
        self.wait_for(self.node.uuid,
                      lambda n: n.power_state == states.POWER_ON)

    def test_invalid_target(self):
        r = self.put(self.url, {'target': 'sideways'}, status=400)
        self.assertFault(r, 400, 'field/attribute target', 'sideways')

    def test_missing_target(self):
        r = self.put(self.url, {}, status=400)
        self.assertFault(r, 400, 'field/attribute target')

    def test_unknown_body_field(self):
        r = self.put(self.url, {'target': states.POWER_ON, 'speed': 1},
                     status=400)
        self.assertFault(r, 400, 'field/attribute speed')

    def test_bad_timeout(self):
        r = self.put(self.url, {'target': states.POWER_ON, 'timeout': 0},
                     status=400)
        self.assertFault(r, 400, 'field/attribute timeout')

    def test_soft_power_and_timeout_need_1_27(self):
        self.put(self.url, {'target': states.SOFT_POWER_OFF},
                 version='1.26', status=406)
        self.put(self.url, {'target': states.POWER_ON, 'timeout': 10},
                 version='1.26', status=406)

    def test_bad_json(self):
        r = self.raw('PUT', self.url, b'{target', 400)
        self.assertFault(r, 400, 'JSON')

    def test_not_found(self):
        self.put('/v1/nodes/nobody/states/power',
                 {'target': states.POWER_ON}, status=404)

    def test_locked_409(self):
        self.db.reserve_node('other-host', self.node.id)
        r = self.put(self.url, {'target': states.POWER_ON}, status=409)
        self.assertFault(r, 409, 'other-host')


class TestProvision(base.APITestCase):

    with_conductor = True

    def setUp(self):
        super().setUp()
        self.node = self.create_node(name='pr')
        self.url = '/v1/nodes/%s/states/provision' % self.node.uuid

    def provision(self, target, expected, **extra):
        body = dict(extra, target=target)
        r = self.put(self.url, body)
        self.assertEqual('http://localhost/v1/nodes/%s/states'
                         % self.node.uuid, r.headers['Location'])
        return self.wait_for(self.node.uuid,
                             lambda n: n.provision_state == expected)

    def test_full_cycle(self):
        self.provision('manage', states.MANAGEABLE)
        self.provision('provide', states.AVAILABLE)
        node = self.provision('active', states.ACTIVE)
        self.assertEqual(states.POWER_ON, node.power_state)
        self.provision('rebuild', states.ACTIVE)
        node = self.provision('deleted', states.AVAILABLE)
        self.assertEqual(states.POWER_OFF, node.power_state)
        self.assertIsNone(node.target_provision_state)

    def test_manual_clean_and_adopt(self):
        self.provision('manage', states.MANAGEABLE)
        steps = [{'interface': 'deploy', 'step': 'erase_devices'}]
        self.provision('clean', states.MANAGEABLE, clean_steps=steps)
        self.provision('adopt', states.ACTIVE)

    def test_transition_not_allowed_is_400(self):
        r = self.put(self.url, {'target': 'active'}, status=400)
        self.assertFault(r, 400, 'active', states.ENROLL)
        self.assertEqual(states.ENROLL, self.db.get_node_by_uuid(
            self.node.uuid).provision_state)

    def test_abort_not_allowed_in_enroll(self):
        self.put(self.url, {'target': 'abort'}, status=400)

    def test_abort_of_deploy_wait_needs_1_110(self):
        self.db.update_node(self.node.id, {
            'provision_state': states.DEPLOYWAIT,
            'target_provision_state': states.ACTIVE})
        r = self.put(self.url, {'target': 'abort'}, version='1.109',
                     status=406)
        self.assertFault(r, 406, 'wait call-back')
        self.assertEqual(states.DEPLOYWAIT, self.db.get_node_by_uuid(
            self.node.uuid).provision_state)
        self.put(self.url, {'target': 'abort'}, version='1.110')
        node = self.wait_for(self.node.uuid, lambda n: n.provision_state
                             == states.DEPLOYFAIL)
        self.assertEqual(states.DEPLOYFAIL, node.provision_state)

    def test_unknown_target(self):
        r = self.put(self.url, {'target': 'explode'}, status=400)
        self.assertFault(r, 400, 'field/attribute target')

    def test_targets_need_their_versions(self):
        for target, version in [('manage', '1.3'), ('abort', '1.12'),
                                ('clean', '1.14'), ('adopt', '1.16')]:
            r = self.put(self.url, {'target': target}, version=version,
                         status=406)
            self.assertFault(r, 406, target)

    def test_deploy_aliases_need_1_73(self):
        # test_provision_ext: they work from 1.73.
        for target in ('deploy', 'undeploy'):
            r = self.put(self.url, {'target': target}, version='1.72',
                         status=406)
            self.assertFault(r, 406, '1.73')

    def test_clean_steps_rules(self):
        self.db.update_node(self.node.id,
                            {'provision_state': states.MANAGEABLE})
        r = self.put(self.url, {'target': 'clean'}, status=400)
        self.assertFault(r, 400, 'field/attribute clean_steps', 'required')
        r = self.put(self.url, {'target': 'provide', 'clean_steps': []},
                     status=400)
        self.assertFault(r, 400, 'field/attribute clean_steps')
        r = self.put(self.url, {'target': 'clean',
                                'clean_steps': [{'step': 'x'}]},
                     status=400)
        self.assertFault(r, 400, 'field/attribute clean_steps')

    def test_configdrive_only_for_deploy(self):
        r = self.put(self.url, {'target': 'manage', 'configdrive': 'abc'},
                     status=400)
        self.assertFault(r, 400, 'configdrive')

    def test_maintenance_refused_by_conductor(self):
        self.db.update_node(self.node.id, {'maintenance': True})
        r = self.put(self.url, {'target': 'manage'}, status=409)
        self.assertFault(r, 409, 'maintenance')

    def test_locked_409(self):
        self.db.reserve_node('other-host', self.node.id)
        self.put(self.url, {'target': 'manage'}, status=409)


class TestMaintenance(base.APITestCase):

    with_conductor = True

    def test_set_and_clear(self):
        node = self.create_node(name='m1')
        r = self.put('/v1/nodes/m1/maintenance', {'reason': 'disk'})
        self.assertEqual(b'', r.body)
        node = self.db.get_node_by_uuid(node.uuid)
        self.assertTrue(node.maintenance)
        self.assertEqual('disk', node.maintenance_reason)
        self.delete('/v1/nodes/m1/maintenance', status=202)
        node = self.db.get_node_by_uuid(node.uuid)
        self.assertFalse(node.maintenance)
        self.assertIsNone(node.maintenance_reason)

    def test_reason_in_query_and_no_body(self):
        node = self.create_node()
        self.put('/v1/nodes/%s/maintenance?reason=fan' % node.uuid)
        self.assertEqual('fan',
                         self.db.get_node_by_uuid(node.uuid)
                         .maintenance_reason)

    def test_bad_body(self):
        node = self.create_node()
        r = self.put('/v1/nodes/%s/maintenance' % node.uuid,
                     {'why': 'x'}, status=400)
        self.assertFault(r, 400, 'field/attribute why')

    def test_not_found(self):
        self.put('/v1/nodes/nobody/maintenance', {}, status=404)


class TestBusyConductor(base.APITestCase):

    with_conductor = True

    def test_busy_conductor_answers_503_with_retry_after(self):
        node = self.create_node(name='busy', power_state=states.POWER_OFF)
        busy = exception.ConductorBusy(host='test-conductor', workers=100)
        with mock.patch.object(workers.AdmittingExecutor, 'submit',
                               side_effect=busy):
            r = self.put('/v1/nodes/busy/states/power',
                         {'target': states.POWER_ON}, status=503)
        self.assertEqual('5', r.headers['Retry-After'])
        self.assertIn('workers are in use', r.json['error_message'])
        node = self.db.get_node_by_id(node.id)
        self.assertIsNone(node.reservation)
        self.assertIsNone(node.target_power_state)
        self.assertEqual(states.POWER_OFF, node.power_state)
