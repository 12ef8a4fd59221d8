"""A node's disable_power_off (Ironic 1.95): the field, who may set it,
and power off refused while it is set, through the API and the real
conductor."""

from ironic_like.common import states
from ironic_like.tests.unit.api import base
from ironic_like.tests.unit.api import test_auth

V = '1.95'


def _replace(value):
    return [{'op': 'replace', 'path': '/disable_power_off', 'value': value}]


class TestDisablePowerOff(base.APITestCase):

    with_conductor = True

    def test_field_from_1_95(self):
        node = self.create_node(name='n1')
        self.assertNotIn('disable_power_off',
                         self.get('/v1/nodes/n1', version='1.94').json)
        self.assertIs(False, self.get('/v1/nodes/n1',
                                      version=V).json['disable_power_off'])
        r = self.patch('/v1/nodes/n1', _replace(True), version='1.94',
                       status=406)
        self.assertFault(r, 406, 'disable_power_off')
        r = self.post('/v1/nodes', {'driver': 'fake-hardware',
                                    'disable_power_off': True},
                      version='1.94', status=406)
        self.assertFault(r, 406, 'disable_power_off')
        self.assertFalse(self.db.get_node_by_id(node.id).disable_power_off)

    def test_create_set_unset(self):
        doc = self.post('/v1/nodes', {'driver': 'fake-hardware',
                                      'name': 'n2',
                                      'disable_power_off': True},
                        version=V).json
        self.assertIs(True, doc['disable_power_off'])
        doc = self.patch('/v1/nodes/n2', [
            {'op': 'remove', 'path': '/disable_power_off'}],
            version=V).json
        self.assertIs(False, doc['disable_power_off'])
        doc = self.patch('/v1/nodes/n2', _replace('true'), version=V).json
        self.assertIs(True, doc['disable_power_off'])
        r = self.patch('/v1/nodes/n2', _replace('maybe'), version=V,
                       status=400)
        self.assertFault(r, 400, 'disable_power_off')

    def test_power_off_refused_reboot_allowed(self):
        node = self.create_node(name='n1', power_state=states.POWER_ON,
                                disable_power_off=True)
        url = '/v1/nodes/n1/states/power'
        for target in ('power off', 'soft power off'):
            r = self.put(url, {'target': target}, version=V, status=409)
            self.assertFault(r, 409, 'disable_power_off')
        found = self.db.get_node_by_id(node.id)
        self.assertEqual(states.POWER_ON, found.power_state)
        self.assertIsNone(found.target_power_state)
        self.assertIsNone(found.reservation)
        self.put(url, {'target': 'rebooting'}, version=V)
        done = self.wait_for(node.uuid,
                             lambda n: n.target_power_state is None)
        self.assertEqual(states.POWER_ON, done.power_state)
        self.assertIsNone(done.last_error)


class TestDisablePowerOffPolicy(test_auth.KeystoneTestCase):

    def test_only_system_admins_change_it(self):
        node = self.create_node(name='mine', owner='p1')
        r = self.patch('/v1/nodes/mine', _replace(True), version=V,
                       headers=self.project('admin,member,reader'),
                       status=403)
        self.assertFault(r, 403, 'baremetal:node:update:disable_power_off')
        r = self.patch('/v1/nodes/mine', _replace(True), version=V,
                       headers=self.system('member,reader'), status=403)
        self.assertFalse(self.db.get_node_by_id(node.id).disable_power_off)
        self.patch('/v1/nodes/mine', _replace(True), version=V,
                   headers=self.system('admin,member,reader'))
        self.assertTrue(self.db.get_node_by_id(node.id).disable_power_off)
