"""The "service" provision verb (Ironic 1.87) through the API: its
microversion, its service_steps, and the node's service_step field."""

from ironic_like.common import service_steps
from ironic_like.common import states
from ironic_like.tests.unit.api import base
from ironic_like.tests.unit.api import test_auth

V = '1.87'
STEPS = [{'interface': 'deploy', 'step': 'update_firmware', 'args': {}}]


class TestServiceVerb(base.APITestCase):

    with_conductor = True

    def setUp(self):
        super().setUp()
        self.node = self.create_node(provision_state=states.ACTIVE)
        self.url = '/v1/nodes/%s/states/provision' % self.node.uuid

    def test_service_with_the_fake_deploy(self):
        self.put(self.url, {'target': 'service', 'service_steps': STEPS},
                 version=V)
        node = self.wait_for(self.node.uuid,
                             lambda n: n.provision_state == states.ACTIVE)
        self.assertIsNone(node.last_error)

    def test_needs_1_87(self):
        r = self.put(self.url, {'target': 'service', 'service_steps': STEPS},
                     version='1.86', status=406)
        self.assertFault(r, 406, 'service')
        self.assertEqual(states.ACTIVE, self.db.get_node_by_id(
            self.node.id).provision_state)

    def test_steps_required_and_only_with_service(self):
        r = self.put(self.url, {'target': 'service'}, version=V,
                     status=400)
        self.assertFault(r, 400, 'service_steps')
        r = self.put(self.url, {'target': 'rebuild', 'service_steps': STEPS},
                     version=V, status=400)
        self.assertFault(r, 400, 'service_steps')
        r = self.put(self.url, {'target': 'service', 'service_steps': [
            {'interface': 'deploy'}]}, version=V, status=400)
        self.assertFault(r, 400, 'step')

    def test_disable_ramdisk_from_1_108(self):
        hold = [{'interface': 'deploy', 'step': 'hold', 'args': {}}]
        r = self.put(self.url, {'target': 'service', 'service_steps': hold,
                                'disable_ramdisk': True},
                     version='1.107', status=406)
        self.assertFault(r, 406, 'disable_ramdisk')
        self.assertEqual(states.ACTIVE, self.db.get_node_by_id(
            self.node.id).provision_state)
        self.put(self.url, {'target': 'service', 'service_steps': hold,
                            'disable_ramdisk': True}, version='1.108')
        self.wait_for(self.node.uuid,
                      lambda n: n.provision_state == states.SERVICEHOLD)
        r = self.put(self.url, {'target': 'rebuild',
                                'disable_ramdisk': True},
                     version='1.108', status=400)
        self.assertFault(r, 400, 'disable_ramdisk')

    def test_service_step_field(self):
        info = {service_steps.STEPS: STEPS, service_steps.INDEX: 0}
        self.db.update_node(self.node.id, {
            'provision_state': states.SERVICEWAIT,
            'driver_internal_info': info})
        doc = self.get('/v1/nodes/%s' % self.node.uuid, version=V).json
        self.assertEqual('update_firmware', doc['service_step']['step'])
        self.assertEqual(states.SERVICEWAIT, doc['provision_state'])
        self.assertNotIn('service_step', self.get(
            '/v1/nodes/%s' % self.node.uuid, version='1.86').json)

    def test_clean_and_deploy_step_fields(self):
        # The step at the recorded index, in the states of its work.
        clean = [{'interface': 'deploy', 'step': 'erase_devices',
                  'args': {}, 'priority': 10}]
        deploy = [{'interface': 'deploy', 'step': step, 'args': {},
                   'priority': priority}
                  for step, priority in (('deploy', 100),
                                         ('write_image', 80))]
        node_url = '/v1/nodes/%s' % self.node.uuid
        for state, info, shown in (
                (states.CLEANWAIT, {'clean_steps': clean,
                                    'clean_step_index': 0},
                 ('erase_devices', {})),
                (states.DEPLOYWAIT, {'deploy_steps': deploy,
                                     'deploy_step_index': 1},
                 ({}, 'write_image')),
                # Past the last step, or out of those states: none.
                (states.DEPLOYING, {'deploy_steps': deploy,
                                    'deploy_step_index': 2}, ({}, {})),
                (states.ACTIVE, {'deploy_steps': deploy,
                                 'deploy_step_index': 1}, ({}, {}))):
            self.db.update_node(self.node.id, {
                'provision_state': state, 'driver_internal_info': info})
            doc = self.get(node_url, version=V).json
            self.assertEqual(
                shown, tuple(doc[field].get('step', {}) if doc[field]
                             else {} for field in ('clean_step',
                                                   'deploy_step')), state)
        self.db.update_node(self.node.id, {
            'provision_state': states.DEPLOYWAIT,
            'driver_internal_info': {'deploy_steps': deploy,
                                     'deploy_step_index': 0}})
        doc = self.get(node_url, version='1.44').json
        self.assertEqual(deploy[0], doc['deploy_step'])
        # On hold: the hold step, which the index is past.
        hold = {'interface': 'deploy', 'step': 'hold', 'args': {},
                'priority': 90}
        self.db.update_node(self.node.id, {
            'provision_state': states.DEPLOYHOLD,
            'driver_internal_info': {'deploy_steps': [deploy[0], hold,
                                                      deploy[1]],
                                     'deploy_step_index': 2}})
        self.assertEqual(hold, self.get(node_url, version=V).json[
            'deploy_step'])
        self.assertNotIn('deploy_step', self.get(node_url,
                                                 version='1.43').json)


class TestServicePolicy(test_auth.KeystoneTestCase):

    def test_owner_reader_may_not(self):
        self.create_node(name='mine', owner='p1',
                         provision_state=states.ACTIVE)
        r = self.put('/v1/nodes/mine/states/provision',
                     {'target': 'service', 'service_steps': STEPS},
                     headers=self.project('reader'), version=V, status=403)
        self.assertFault(r, 403, 'baremetal:node:set_provision_state')
