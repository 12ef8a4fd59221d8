"""The node's boot_mode and secure_boot (1.75), read on verify, and
PUT /v1/nodes/{id}/states/boot_mode and .../secure_boot (1.76, async),
through the real conductor and the fake management interface."""

from unittest import mock

from ironic_like.common import exception
from ironic_like.common import states
from ironic_like.drivers import base as drivers_base
from ironic_like.drivers.modules import fake
from ironic_like.tests.unit.api import base


class TestBootMode(base.APITestCase):

    with_conductor = True

    def setUp(self):
        super().setUp()
        self.node = self.create_node(name='n1')
        self.url = '/v1/nodes/n1/states/'

    def shown(self, version='1.76'):
        doc = self.get('/v1/nodes/n1', version=version).json
        return doc.get('boot_mode', 'absent'), doc.get('secure_boot',
                                                       'absent')

    def wait_shown(self, expected):
        self.wait_for(self.node.uuid,
                      lambda n: (n.boot_mode, n.secure_boot) == expected)
        self.assertEqual(expected, self.shown())

    def test_fields_absent_below_1_75(self):
        self.assertEqual(('absent', 'absent'), self.shown('1.74'))
        self.assertEqual((None, None), self.shown('1.75'))

    def test_cached_on_verify(self):
        self.assertEqual((None, None), self.shown())
        self.put('/v1/nodes/n1/states/provision', {'target': 'manage'})
        self.wait_for(self.node.uuid,
                      lambda n: n.provision_state == states.MANAGEABLE)
        self.assertEqual(('uefi', False), self.shown())

    def test_cached_after_deploy(self):
        self.db.update_node(self.node.id,
                            {'provision_state': states.AVAILABLE})
        self.put('/v1/nodes/n1/states/provision', {'target': 'active'})
        self.wait_for(self.node.uuid,
                      lambda n: n.provision_state == states.ACTIVE)
        self.assertEqual(('uefi', False), self.shown())

    def test_failed_read_changes_nothing(self):
        self.db.update_node(self.node.id, {'boot_mode': 'bios',
                                           'secure_boot': True})
        with mock.patch.object(fake.FakeManagement, 'get_secure_boot_state',
                               side_effect=RuntimeError('BMC gone')):
            self.put('/v1/nodes/n1/states/provision', {'target': 'manage'})
            self.wait_for(self.node.uuid,
                          lambda n: n.provision_state == states.MANAGEABLE)
        self.assertEqual(('bios', True), self.shown())

    def test_set_boot_mode_and_secure_boot(self):
        r = self.put(self.url + 'boot_mode', {'target': 'bios'},
                     version='1.76', status=202)
        self.assertTrue(r.headers['Location'].endswith('/nodes/n1/states'))
        self.wait_shown(('bios', None))
        r = self.put(self.url + 'secure_boot', {'target': True},
                     version='1.76', status=202)
        self.assertTrue(r.headers['Location'].endswith('/nodes/n1/states'))
        self.wait_shown(('bios', True))
        self.put(self.url + 'secure_boot', {'target': 'false'},
                 version='1.76', status=202)
        self.wait_shown(('bios', False))
        # Kept by the fake BMC (the node), so another process reads it.
        info = self.db.get_node_by_id(self.node.id).driver_internal_info
        self.assertEqual('bios', info['fake_boot_mode'])
        self.assertIs(False, info['fake_secure_boot'])

    def test_already_in_mode_only_caches(self):
        with mock.patch.object(fake.FakeManagement, 'set_boot_mode',
                               autospec=True) as setter:
            self.put(self.url + 'boot_mode', {'target': 'uefi'},
                     version='1.76', status=202)
            self.wait_shown(('uefi', None))
        setter.assert_not_called()

    def test_failure_goes_to_last_error(self):
        self.db.update_node(self.node.id, {'last_error': 'old'})

        def refuse(self_, task, mode):
            raise drivers_base.unsupported(task, 'set_boot_mode')
        with mock.patch.object(fake.FakeManagement, 'set_boot_mode',
                               refuse):
            self.put(self.url + 'boot_mode', {'target': 'bios'},
                     version='1.76', status=202)
            node = self.wait_for(self.node.uuid,
                                 lambda n: n.last_error != 'old'
                                 and n.last_error)
        self.assertIn("Failed to change boot mode to 'bios'",
                      node.last_error)
        self.assertIsNone(node.boot_mode)

    def test_validation_failure_is_synchronous(self):
        with mock.patch.object(
                fake.FakeManagement, 'validate', autospec=True,
                side_effect=exception.InvalidParameterValue(
                    err='no BMC address', field='driver_info')):
            r = self.put(self.url + 'secure_boot', {'target': True},
                         version='1.76', status=400)
        self.assertFault(r, 400, 'no BMC address')

    def test_404_below_1_76(self):
        self.put(self.url + 'boot_mode', {'target': 'bios'}, version='1.75',
                 status=404)
        self.put(self.url + 'secure_boot', {'target': True},
                 version='1.75', status=404)
        self.assertEqual((None, None), self.shown())

    def test_bad_targets_400(self):
        r = self.put(self.url + 'boot_mode', {'target': 'uefi', 'x': 1},
                     version='1.76', status=400)
        self.assertFault(r, 400, 'field/attribute x')
        for body in ({'target': 'legacy'}, {}, {'target': None}):
            r = self.put(self.url + 'boot_mode', body, version='1.76',
                         status=400)
            self.assertFault(r, 400, 'Invalid boot mode')
        for body in ({'target': 'maybe'}, {}, {'target': 1},
                     {'target': None}):
            r = self.put(self.url + 'secure_boot', body, version='1.76',
                         status=400)
            self.assertFault(r, 400, 'Invalid secure_boot')
        self.put(self.url + 'boot_mode', [], version='1.76', status=400)
        self.assertEqual((None, None), self.shown())

    def test_unstable_state_409(self):
        for state in (states.CLEANING, states.DEPLOYWAIT):
            self.db.update_node(self.node.id, {'provision_state': state})
            r = self.put(self.url + 'boot_mode', {'target': 'bios'},
                         version='1.76', status=409)
            self.assertFault(r, 409, 'transitioning')
            self.put(self.url + 'secure_boot', {'target': True},
                     version='1.76', status=409)
        self.assertEqual((None, None), self.shown())

    def test_policy(self):
        self.config(auth_strategy='keystone')
        self.app = self.make_app(skip_auth_token=True)
        reader = {'X-Roles': 'reader', 'OpenStack-System-Scope': 'all',
                  'X-User-Id': 'u'}
        for path, body in (('boot_mode', {'target': 'bios'}),
                           ('secure_boot', {'target': True})):
            self.put(self.url + path, body, version='1.76',
                     headers=reader, status=403)
        # A member of the leasing project may, as Ironic's
        # SYSTEM_OR_PROJECT_MEMBER.
        self.db.update_node(self.node.id, {'lessee': 'p1'})
        lessee = {'X-Roles': 'member', 'X-Project-Id': 'p1',
                  'X-User-Id': 'u'}
        self.put('/v1/nodes/%s/states/boot_mode' % self.node.uuid,
                 {'target': 'bios'}, version='1.76', headers=lessee,
                 status=202)
        self.wait_for(self.node.uuid, lambda n: n.boot_mode == 'bios')
